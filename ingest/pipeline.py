"""The extraction pipeline: document → clauses → steps → toasts → phases.

>>> from yili.ingest.pipeline import Extractor
>>> from yili.ingest.document import load_default
>>> result = Extractor().extract(load_default())
>>> t = result.toasts[0]
>>> (t.giver[0].label, t.type.label, t.receiver[0].label, t.step.text)
('主人', '献', '賔', '主人筵前献賔')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from yili.ingest import grammar as g
from yili.ingest.clauses import Clause, goes_on_with_words, opens_with_words, segment
from yili.ingest.document import LAYER_NOTE, Block, Document
from yili.ingest.layouts import page_at, page_markers
from yili.ingest.noted import NotesRead, from_notes
from yili.ingest.resolver import StepResolver
from yili.ingest.rites import identify
from yili.ingest.rules import decision, redecide
from yili.ingest.stages import StageAlignment
from yili.ingest.steps import Step
from yili.ingest.toasts import (
    Phase,
    Toast,
    group_after_leader_toast,
    group_summary_toast,
    next_receiver,
    phases_of,
    received_toast,
    toast_of,
)
from yili.ingest.tokens import MARK, TAIL, Token, Tokenizer, with_kind
from yili.ontology.rites import NEUTRAL, RiteProfile
from yili.ontology.variants import spellings
from yili.ontology.vocabulary import Concept, Vocabulary, load_vocabulary


@dataclass(frozen=True)
class Extraction:
    """What the extractor read from one document.

    Attributes
    ----------
    document : Document
    steps : tuple[Step, ...]
        In text order; ``steps[i].sequence == i + 1``.
    toasts : tuple[Toast, ...]
        In ritual order.
    phases : tuple[Phase, ...]
    profile : RiteProfile
        The rite profile the text was read with.
    stages : StageAlignment | None
        The stages (節) of 楊復's 儀禮圖 the steps fall in (:func:`yili.ingest.stages.align`), when the
        caller gave 儀禮圖 and it covers the rite; None otherwise (the phases stand alone).
    seconds : float
        Wall-clock seconds the extraction took (set by the caller that times it; 0.0 otherwise).
    """

    document: Document
    steps: tuple[Step, ...]
    toasts: tuple[Toast, ...]
    phases: tuple[Phase, ...]
    profile: RiteProfile = NEUTRAL
    seconds: float = 0.0
    stages: StageAlignment | None = None


def _cast_labels(profile: RiteProfile, vocabulary: Vocabulary) -> list[tuple[str, Concept]]:
    """The written forms of the rite's cast, longest first (computed once per vocabulary and rite)."""
    cache: dict[str, list[tuple[str, Concept]]] = vocabulary.__dict__.setdefault("_cast_labels", {})
    key = profile.key
    if key not in cache:
        cache[key] = sorted(
            (
                (label, vocabulary.concepts[k])
                for k in profile.cast
                if k in vocabulary.concepts
                for label in vocabulary.concepts[k].labels
                if not label.isascii()
            ),
            key=lambda lc: (-len(lc[0]), lc[0]),
        )
    return cache[key]


def appendix_within(block: Block, text: str) -> int | None:
    """Where the 記 begins inside a block's classic text, as an offset into ``text`` (the document),
    or None: at a 記 that opens a printed line after a line the paragraph ended on (shorter than half
    the block's longest line), with no note between them to end the block there (述註 鄉射
    ``…鄉樂惟¶ / 欲¶ / 記大夫與則公士為賓¶``).  A layout rule: a paragraph's last line is short."""
    reading, spans = block.classic.reading_text, block.classic.reading_spans
    lines: list[tuple[int, int]] = []  # (first reading index, length) of each printed line
    for k in range(len(reading)):
        if k == 0 or "\n" in text[spans[k - 1][1] : spans[k][0]]:
            lines.append((k, 0))
        lines[-1] = (lines[-1][0], lines[-1][1] + 1)
    width = max((n for _, n in lines), default=0)
    for (_, before), (first, _) in zip(lines, lines[1:], strict=False):
        if reading[first] == g.APPENDIX_MARK and before * 2 < width:
            return spans[first][0]
    return None


def identifications(
    block: Block, profile: RiteProfile, vocabulary: Vocabulary, read: dict[str, tuple[int, int]] | None = None
) -> tuple[dict[str, Concept], dict[str, Concept]]:
    """Who the note on a block says a word of its classic names: ``註曰利佐食也`` (特牲: 利 is the
    佐食), ``註曰主人壻也`` (士昏: from here the 主人 is the groom).

    A rule of the language of the commentary: a note sentence ``XY也`` that opens the note (after
    its 註曰, after the 注疏's bare 注, or bare as the 鄭注 writes it in parentheses) or follows
    another sentence's 也, with X
    a word (1–3 characters) written in the block's classic text and Y the label of a role of the
    rite's cast, reads X as that role from this block on,
    until another note changes it.  An office that is not one of the rite's parties (燕禮 注曰主人宰夫也:
    the 宰夫 is not of the cast) changes nothing; an act word (拜送賓也) is no name.  When X is itself
    a role, the note says who it is in this block only (士冠 註 贊者衆賔也), unless X is the rite's
    host: who the host is changes from there on (士昏 註 主人壻也).

    ``read``, if given, is filled with written form → the span of the note sentence ``XY也`` that names it
    (code points into the document, 0-based, end-exclusive: :mod:`yili.ingest.noted` links the steps to it).

    Returns
    -------
    held : dict[str, Concept]
        Written form → role, from this block on.
    local : dict[str, Concept]
        Written form → role, in this block only.
    """
    out: dict[str, Concept] = {}
    local: dict[str, Concept] = {}
    classic = block.classic.reading_text
    if not profile.cast:
        return out, local
    labels = _cast_labels(profile, vocabulary)
    for piece in block.commentary:
        if piece.layer != LAYER_NOTE:
            continue
        text = piece.reading_text
        # a note opens with 註曰 in the 述註, with a bare 注 in the 注疏 (注利佐食也), with nothing in
        # the 鄭注's parentheses (利佐食也)
        for m in re.finditer(r"(?=(?:^[\s○]*[註注]?|[註注]曰|也)([^\s○也曰，。]{2,7})也)", text):
            sentence = m.group(1)
            for k in range(1, min(3, len(sentence) - 1) + 1):
                x, y = sentence[:k], sentence[k:]
                role = next((c for label, c in labels if label == y), None)
                if role is None or x not in classic or x in role.labels or x in g.PLACEHOLDERS:
                    continue
                named = [c for c in vocabulary.by_label.get(x, ()) if c.kind in ("role", "action")]
                if any(c.kind == "action" for c in named):
                    continue
                if named and all(c.key != profile.host for c in named):
                    local[x] = role
                else:
                    out[x] = role
                if read is not None:
                    spans = piece.reading_spans
                    read[x] = (spans[m.start(1)][0], spans[m.start(1) + len(sentence)][1])  # XY也, 也 included
                break
    return out, local


def doers(
    block: Block, profile: RiteProfile, vocabulary: Vocabulary, read: dict[str, tuple[int, int]] | None = None
) -> dict[str, tuple[Concept, ...]]:
    """Who the note on a block says does an act of its classic: ``註曰徹者賛冠者主人之賛者為之`` (士冠:
    the clearing is done by the capping assistant and the host's assistant).

    A rule of the language of the commentary: a note sentence ``V者X為之`` ("the one who Vs: X does it"),
    with V an act written in the block's classic text and X one or more roles of the rite's cast (their
    labels run together, or joined by 與/及), says who does V in this block.

    ``read``, if given, is filled with action key → the span of the sentence ``V者X為之`` (code points into the
    document, 0-based, end-exclusive: :mod:`yili.ingest.noted` links the steps to it).

    Returns
    -------
    dict
        Action key → the roles, in the order the note writes them; empty if the note says none.
    """
    out: dict[str, tuple[Concept, ...]] = {}
    classic = block.classic.reading_text
    if not profile.cast:
        return out
    labels = _cast_labels(profile, vocabulary)

    def roles_at(text: str) -> tuple[Concept, ...]:
        found: list[Concept] = []
        k = 0
        while k < len(text):
            if text[k] in g.CONJUNCTIONS and found:
                k += 1
                continue
            hit = next(((label, c) for label, c in labels if text.startswith(label, k)), None)
            if hit is None:
                break
            if hit[1] not in found:
                found.append(hit[1])
            k += len(hit[0])
        return tuple(found) if found and k == len(text) else ()

    def act_of(word: str) -> Concept | None:
        return next((c for c in vocabulary.by_label.get(word, ()) if c.kind == "action"), None) if word in classic else None

    for piece in block.commentary:
        if piece.layer != LAYER_NOTE:
            continue
        text = piece.reading_text
        for m in re.finditer(r"([^\s○也曰者]{1,2})者([^\s○也曰]{2,14}?)為之", text):
            act, roles = act_of(m.group(1)), roles_at(m.group(2))
            if act is not None and roles and act.key not in out:
                out[act.key] = roles
                if read is not None:
                    read[act.key] = (piece.reading_spans[m.start()][0], piece.reading_spans[m.end() - 1][1])
    return out


def _title_as_heading(tokens: list[Token], profile: RiteProfile, opening: bool = False) -> list[Token]:
    """The rite's name that opens its first paragraph before a ○ is the chapter's heading, no act
    and no person: 士冠禮○筮於廟門 (the 士 of 士冠禮 is no officer), 特牲饋食之禮○不諏日.  So is the
    name that opens the text (``opening``: no step read yet), standing alone or run on into the first
    sentence: 有司徹 (its own line; not 有司 + 徹), 士冠禮筮于廟門 (the 鄭注)."""
    names = {*profile.title_forms, *(f[:-1] + "之" + f[-1] for f in profile.title_forms if len(f) > 1)}
    marks = [k for k, t in enumerate(tokens) if t.kind == MARK]
    if marks and "".join(t.text for t in tokens[: marks[0]]) in names:
        return [with_kind(t, TAIL, None) for t in tokens[: marks[0]]] + tokens[marks[0] :]
    if not opening:
        return tokens
    text, end = "", 0
    for k, t in enumerate(tokens):
        if t.kind == MARK:
            break
        text += t.text
        if text in names:
            end = k + 1  # the longest name: 有司徹, not 有司
    return [with_kind(x, TAIL, None) for x in tokens[:end]] + tokens[end:]


def _closing_block(document: Document, profile: RiteProfile, vocabulary: Vocabulary) -> int | None:
    """The last paragraph of the narrative (before the 記) in which the chief guest is seen off (送 and
    his name: 士冠 賔出主人送于外門外再拜), or None: the rite's close, after which a paragraph that
    opens with 若 is a variant of the rite.  An earlier send-off closes a stage only (士昏 納采 … 賔出
    主人送于門外)."""
    guest = vocabulary.concepts.get(profile.chief_guest or "")
    if guest is None:
        return None
    names = sorted({s for label in guest.labels if not label.isascii() for s in spellings(label)}, key=len, reverse=True)
    last = None
    for block in document.blocks:
        text = block.classic.reading_text
        if text.lstrip("○　 ").startswith(g.APPENDIX_MARK):
            break
        if "送" in text and any(name in text for name in names):
            last = block.number
    return last


def _words_of_rite(tokens: list[Token], text: str, resolver: StepResolver, before: str | None) -> str | None:
    """Whether a paragraph is of the words of the rite (its 辭), given the paragraph before.

    After the narrative has closed (:func:`_closing_block`) or in the 記, a paragraph that opens with
    the introduction of words (戒賔曰…, 再加曰…, 醴辭曰…: :func:`~yili.ingest.clauses.opens_with_words`)
    is ``"open"``: it says what is said at an act of the rite.  A paragraph after one of words is
    ``"continued"`` when it goes on with them (:func:`~yili.ingest.clauses.goes_on_with_words`: 士冠
    再加曰吉月令辰乃申爾服 | 敬爾威儀…), unless it opens a variant (若), a general rule (凡), the next day
    or the 記.  Otherwise None: narrative.
    """
    closed = resolver.closing_block is not None and resolver.steps and resolver.steps[-1].block >= resolver.closing_block
    opening = text.lstrip("○\u3000 ")
    if not (closed or resolver.part == "ji"):
        return None
    if opens_with_words(tokens):
        return "open"
    breaks = (*g.CONDITIONAL, *g.GENERAL_RULE, *g.NEW_DAY, g.APPENDIX_MARK)
    if before is not None and not any(opening.startswith(w) for w in breaks) and goes_on_with_words(tokens):
        return "continued"
    return None


class Extractor:
    """Compile the vocabulary once, then extract steps from documents.

    Parameters
    ----------
    vocabulary : Vocabulary, optional
        Defaults to the packaged vocabulary.
    extra_vocabulary : iterable of path
        User vocabulary files added to the packaged one (``--vocab FILE``).

    Raises
    ------
    VocabularyError
        If a vocabulary file is unreadable or malformed.
    """

    def __init__(self, vocabulary: Vocabulary | None = None, extra_vocabulary: Iterable[str | Path] = ()) -> None:
        self.vocabulary = vocabulary or load_vocabulary(extra_vocabulary)
        self.tokenizer = Tokenizer(self.vocabulary)

    def extract(self, document: Document, rite: str | None = None) -> Extraction:
        """Extract the steps, toasts and phases of ``document``.

        Parameters
        ----------
        document : Document
        rite : str, optional
            Read the text as this rite (a key, ``yanli``, or a name, 燕禮); by default the rite is
            detected (:func:`yili.ingest.rites.identify`) and its profile read from ``ontology/rites.ttl``.

        Returns
        -------
        Extraction
            With ``profile`` the rite profile used; the document's rite key is the profile's when
            the caller did not give one, and its edition key the ``skos:notation`` of the work its
            title names (``shuzhu``, ``zhushu``, ``zhengzhu``) when the caller did not give one.

        Raises
        ------
        InputError
            If ``rite`` names no rite.
        """
        profile = identify(document, self.vocabulary, rite)
        if profile.key and not document.rite_given:
            document = replace(document, rite=profile.key)
        if not document.edition_given and (work := self.vocabulary.edition_key(document.title)) is not None:
            # the edition key is the work's (儀禮述註 → shuzhu), not the file's name
            document = replace(document, edition=work, edition_given=True)
        readings = {
            label: self.vocabulary.concepts[key]
            for label, key in sorted(profile.readings.items())
            if key in self.vocabulary.concepts
        }
        resolver = StepResolver(self.vocabulary, document, profile)
        resolver.closing_block = _closing_block(document, profile, self.vocabulary)
        cast = frozenset(profile.cast)
        toasts: list[Toast] = []
        identified: dict[str, Concept] = {}
        words: str | None = None
        names_read: dict[str, tuple[Concept, tuple[int, int]]] = {}  # form → (role, the note's span), held
        notes_read: dict[int, NotesRead] = {}  # block → what its notes said that the extractor used
        for block in document.blocks:
            if resolver.part != "ji" and block.classic.reading_text.lstrip("○\u3000 ").startswith(g.APPENDIX_MARK):
                resolver.begin_appendix()
            appendix_at = appendix_within(block, document.text) if resolver.part != "ji" else None
            spans: dict[str, tuple[int, int]] = {}
            held, local = identifications(block, profile, self.vocabulary, spans)
            identified.update(held)
            names_read.update((x, (c, spans[x])) for x, c in held.items())
            read = NotesRead(names={**names_read, **{x: (c, spans[x]) for x, c in local.items()}})
            resolver.noted_doers = doers(block, profile, self.vocabulary, read.doers)
            notes_read[block.number] = read
            tokens = self.tokenizer.tokenize_piece(block.classic, {**readings, **identified, **local}, cast)
            tokens = _title_as_heading(tokens, profile, opening=not resolver.steps)
            words = _words_of_rite(tokens, block.classic.reading_text, resolver, words)
            if appendix_at is None:
                clauses = segment(tokens, block.number, self.vocabulary, words)
            else:  # the narrative's end and the 記's beginning, read apart
                clauses = [
                    *segment([t for t in tokens if t.start < appendix_at], block.number, self.vocabulary, words),
                    *segment([t for t in tokens if t.start >= appendix_at], block.number, self.vocabulary, words),
                ]
            resolver.set_lookahead(clauses)
            _read_clauses(resolver, clauses, appendix_at, toasts)
        steps = resolver.steps
        _receivers_from_what_follows(toasts, steps)
        steps = [from_notes(s, notes_read[s.block]) if s.block in notes_read else s for s in steps]
        markers = page_markers(document.text)
        if markers:  # each step knows the edition's page it begins on
            steps = [replace(s, page=page_at(markers, s.char_start)) for s in steps]
        toasts = [replace(t, step=steps[t.step.sequence - 1]) for t in toasts]
        phases = phases_of(steps, toasts)
        return Extraction(document, tuple(steps), tuple(toasts), tuple(phases), profile)


def _read_clauses(resolver: StepResolver, clauses: list[Clause], appendix_at: int | None, toasts: list[Toast]) -> None:
    """Resolve the clauses of one block into steps, in order (the 記 begins at ``appendix_at``, if in this block),
    and read each step as a toast: by its act, as the rest of a group after its leader, or as received;
    the toasts found are appended to ``toasts``."""
    for n, clause in enumerate(clauses):
        if appendix_at is not None and clause.start >= appendix_at and resolver.part != "ji":
            resolver.begin_appendix()
        step = resolver.resolve(clause, first_in_block=(n == 0))
        toast = toast_of(resolver, step, [])
        if toast is None:
            toast = group_summary_toast(resolver, step, toasts[-1] if toasts else None)
        if toast is None:
            toast = group_after_leader_toast(resolver, step, toasts)
        if toast is None:
            toast = received_toast(resolver, step, toasts)
        if toast is not None:
            toasts.append(toast)


RECIPIENT_OF_TOAST = decision(
    "recipient.of-the-toast",
    "燕禮 以旅于西阶上 (the pledge goes to whoever receives it next)",
    "A toast step whose clause names no receiver takes the toast's, found from what follows.",
    tags=("inferred",),
)


def _receivers_from_what_follows(toasts: list[Toast], steps: list[Step]) -> None:
    """A toast whose receiver is known only from what follows (旅: who receives the pledge next), or from the
    toast it repeats (以旅于西阶上如初); the toast steps then carry that receiver too, where the clause left it
    open (the rule recorded: :data:`RECIPIENT_OF_TOAST`).  ``toasts`` and ``steps`` are updated in place."""
    by_sequence = {t.step.sequence: t for t in toasts}
    for i, t in enumerate(toasts):
        if not t.receiver:
            repeated = by_sequence.get(t.step.repeats) if t.step.repeats else None
            if repeated is not None and repeated.receiver:
                toasts[i] = replace(t, receiver=repeated.receiver)
                by_sequence[t.step.sequence] = toasts[i]
                continue
            receiver = next_receiver(t.step, steps[t.step.sequence :])
            if receiver:
                toasts[i] = replace(t, receiver=receiver)
                by_sequence[t.step.sequence] = toasts[i]
    for t in toasts:
        s = steps[t.step.sequence - 1]
        if not s.recipient and t.receiver:
            steps[t.step.sequence - 1] = replace(s, recipient=t.receiver, why=redecide(s.why, "recipient", RECIPIENT_OF_TOAST))
