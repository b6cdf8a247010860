"""The vocabulary's report on a chapter: how much of the classic it recognises, and the verb-like words
it does not know.

An act the vocabulary lacks opens no clause: its subject, object and place are glued to a neighbour,
and a paragraph can come out as one step.  This report finds such words by where they stand (after a
person, an adverb, a negation or 則; before 于/於 or 之, the object pronoun) and lists each with its
count and two contexts, so that every one is decided: made an act of the vocabulary (with its gloss
from the 註), or recorded in ``ontology/not_acts.tsv`` with what it is instead (an adverb, a noun, a
modal …).  A word that is neither is *undecided*, and the report says so.

Counts are over classic characters only (the 經 of each block, the layout taken out), in Unicode code
points; ○ and the full-width space are not counted.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources

from yili.ingest.document import Document
from yili.ingest.rites import identify
from yili.ingest.tokens import ACTION, ADV, COND, ER, MARK, NEG, OTHER, ROLE, THEN, YU, ZHI, Token, Tokenizer
from yili.ontology.errors import InputError
from yili.ontology.vocabulary import Vocabulary

_BEFORE_A_VERB = frozenset({ROLE, ADV, NEG, THEN, ER, COND})
"""Kinds of word a verb follows: a subject (主人 V), an adverb (乃 V, 遂 V), a negation (不 V), 則, 而."""

_AFTER_A_VERB = frozenset({YU, ZHI})
"""Kinds of word that follow a verb: 于/於 and a place or person (V于X), the object pronoun (V之)."""

NOT_ACTS_FILE = "not_acts.tsv"


@dataclass(frozen=True)
class NotAnAct:
    """A word that stands where verbs stand but is decided not to be an act.

    Attributes
    ----------
    word : str
        As the texts write it (traditional characters).
    reading : str
        What it is instead: ``adverb``, ``noun``, ``modal``, ``preposition``, ``numeral``, ``pronoun``,
        ``description`` (a state, not something done), ``mourning term`` ….
    note : str
        Why, with the passage or commentary that shows it (``鄉射 拾取矢 註 拾更也``).
    """

    word: str
    reading: str
    note: str


def not_acts() -> dict[str, NotAnAct]:
    """The decided words of ``ontology/not_acts.tsv`` (columns ``word``, ``reading``, ``note``), by word.

    Raises
    ------
    InputError
        If the file has a row without three columns, or a word twice.
    """
    text = resources.files("yili.ontology").joinpath(NOT_ACTS_FILE).read_text(encoding="utf-8")
    out: dict[str, NotAnAct] = {}
    rows = csv.reader(text.splitlines(), delimiter="\t")
    header = next(rows, None)
    if header != ["word", "reading", "note"]:
        raise InputError(f"{NOT_ACTS_FILE}: the header must be word, reading, note (tab-separated), not {header}")
    for n, row in enumerate(rows, start=2):
        if len(row) != 3 or not all(row):
            raise InputError(f"{NOT_ACTS_FILE}: line {n}: three tab-separated columns expected, got {row!r}")
        if row[0] in out:
            raise InputError(f"{NOT_ACTS_FILE}: line {n}: {row[0]} is decided twice")
        out[row[0]] = NotAnAct(*row)
    return out


@dataclass
class VerbLike:
    """An unknown word found where a verb stands, in one chapter.

    Attributes
    ----------
    word : str
    count : int
        How many times it stands there.
    contexts : list[str]
        Up to two, each the word with up to three words either side.
    decided : NotAnAct | None
        The decision of ``not_acts.tsv``, if the word has one; None: undecided.
    """

    word: str
    count: int = 0
    contexts: list[str] = field(default_factory=list)
    decided: NotAnAct | None = None


@dataclass
class Coverage:
    """The report on one chapter.

    Attributes
    ----------
    rite : str
        The rite key (``shixiangjianli``).
    source : str
        The file it was read from.
    characters : int
        Classic characters counted (code points; ○ and U+3000 left out).
    recognised : int
        Of those, how many fall inside a word the vocabulary reads as an act or a person.
    verb_like : list[VerbLike]
        The unknown verb-like words, most frequent first (ties in code-point order).
    """

    rite: str
    source: str
    characters: int
    recognised: int
    verb_like: list[VerbLike]

    @property
    def share(self) -> float:
        """``recognised / characters`` (0.0 for a chapter with no classic text)."""
        return self.recognised / self.characters if self.characters else 0.0

    @property
    def undecided(self) -> list[VerbLike]:
        """The verb-like words neither in the vocabulary nor in ``not_acts.tsv``."""
        return [v for v in self.verb_like if v.decided is None]


def _verb_like(tokens: list[Token], i: int) -> bool:
    t = tokens[i]
    if t.kind != OTHER or len(t.text) > 2:
        return False
    before = tokens[i - 1].kind if i > 0 else None
    after = tokens[i + 1].kind if i + 1 < len(tokens) else None
    return before in _BEFORE_A_VERB or after in _AFTER_A_VERB


def coverage(document: Document, tokenizer: Tokenizer, vocabulary: Vocabulary, decided: dict[str, NotAnAct]) -> Coverage:
    """The vocabulary's report on ``document`` (one chapter), read with the rite's own readings and cast.

    Parameters
    ----------
    document : Document
    tokenizer : Tokenizer
        The extractor's (its dictionary is the vocabulary).
    vocabulary : Vocabulary
    decided : dict[str, NotAnAct]
        From :func:`not_acts`.

    Returns
    -------
    Coverage
    """
    profile = identify(document, vocabulary, None)
    readings = {lab: vocabulary.concepts[k] for lab, k in sorted(profile.readings.items()) if k in vocabulary.concepts}
    cast = frozenset(profile.cast)
    chars = recognised = 0
    found: dict[str, VerbLike] = {}
    for block in document.blocks:
        tokens = tokenizer.tokenize_piece(block.classic, readings, cast)
        for i, t in enumerate(tokens):
            if t.kind == MARK:
                continue
            n = sum(1 for c in t.text if c not in "○\u3000")
            chars += n
            if t.kind in (ACTION, ROLE):
                recognised += n
            if _verb_like(tokens, i) and t.text not in vocabulary.by_label:  # (a known word read otherwise here)
                v = found.setdefault(t.text, VerbLike(t.text, decided=decided.get(t.text)))
                v.count += 1
                if len(v.contexts) < 2:
                    v.contexts.append("".join(x.text for x in tokens[max(0, i - 3) : i + 4]))
    ranked = sorted(found.values(), key=lambda v: (-v.count, v.word))
    return Coverage(profile.key or "", document.source, chars, recognised, ranked)


def report(coverages: Iterable[Coverage], limit: int = 20) -> str:
    """A plain-text table: one line per chapter (rite, share recognised, verb-like words found,
    undecided), then each chapter's undecided words, most frequent first, at most ``limit`` each."""
    items = list(coverages)
    lines = [f"{'rite':<18} {'recognised':>10} {'verb-like':>9} {'undecided':>9}  file"]
    for c in items:
        lines.append(f"{c.rite:<18} {c.share:>10.3f} {len(c.verb_like):>9} {len(c.undecided):>9}  {c.source}")
    for c in items:
        if c.undecided:
            lines.append(f"\n{c.rite}: undecided verb-like words (count, contexts)")
            for v in c.undecided[:limit]:
                lines.append(f"  {v.word}\t{v.count}\t{' | '.join(v.contexts)}")
            if len(c.undecided) > limit:
                lines.append(f"  … and {len(c.undecided) - limit} more")
    return "\n".join(lines)
