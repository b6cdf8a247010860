"""Tokenise classic text with jieba and a user dictionary compiled from the vocabulary.

jieba runs with the HMM off and with *only* our dictionary (no general modern-Chinese one), so
that the words it can find are exactly the vocabulary's terms and the grammar's fixed words; any
other character comes out alone.  The tokens are then classified (role, action, place, …) and
place phrases are assembled by rule: a place followed by direction words is a position
(西阶 + 上 → 西阶上), ``X之Y`` with Y a direction is a position (东楹之东, 主人之左), and a person
followed by 右/左 is a position (賔右).
"""

from __future__ import annotations

import io
import logging
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from yili.ingest import grammar as g
from yili.ingest.document import Piece
from yili.ontology.variants import fold
from yili.ontology.vocabulary import Concept, Vocabulary


def _jieba():  # type: ignore[no-untyped-def]
    """jieba, imported at the first tokenizer (a server that only reads a built store never needs it)."""
    with warnings.catch_warnings():
        # jieba 0.42 imports pkg_resources, which warns on import; nothing of ours to fix there.
        warnings.simplefilter("ignore")
        import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


ROLE, ACTION, VESSEL, WINE, PLACE, FACING, RANK, OBJECT = (
    "role",
    "action",
    "vessel",
    "wine",
    "place",
    "facing",
    "rank",
    "object",
)
ADV, NEG, COND, THEN, YU, ZI, YI, ER, JIU, CONJ, ZHI, YUE, SUO, RU, END, FINAL, DIR, NUM, TAIL, MARK, OTHER = (
    "adv",
    "neg",
    "cond",
    "then",
    "yu",
    "zi",
    "yi",
    "er",
    "jiu",
    "conj",
    "zhi",
    "yue",
    "suo",
    "ru",
    "end",
    "final",
    "dir",
    "num",
    "tail",
    "mark",
    "other",
)

_GRAMMAR_KINDS: list[tuple[frozenset[str], str]] = [
    (g.NEGATORS, NEG),
    (g.CONDITIONAL, COND),
    (g.THEN, THEN),
    (g.LOCATIVE_PREPOSITIONS, YU),
    (g.SOURCE_PREPOSITIONS, ZI),
    (g.INSTRUMENT, YI),
    (g.LINKER, ER),
    (g.GO_TO, JIU),
    (g.CONJUNCTIONS, CONJ),
    (g.PRONOUN_OBJECT, ZHI),
    (g.SPEECH, YUE),
    (g.RELATIVE, SUO),
    (g.COMPARISON, RU),
    (g.FINALS, FINAL),
    (g.ADVERBS, ADV),
]


@dataclass(frozen=True)
class Token:
    """One word of the classic text.

    Attributes
    ----------
    text : str
    start, end : int
        Code-point offsets into the document text (0-based, end-exclusive).
    kind : str
        ``role``, ``action``, ``vessel``, ``wine``, ``place``, ``facing``, ``rank``, ``object`` for
        vocabulary terms; a grammar kind (``adv``, ``neg``, ``yu``, ``zhi``, …) for function words;
        ``other`` for anything else.
    concept : Concept | None
        The vocabulary concept, for terms (for a place phrase, the place it is built on).
    readings : tuple[Concept, ...]
        Every concept the written form can name (洗: the act and the basin), for rules that
        choose another reading by context.
    """

    text: str
    start: int
    end: int
    kind: str
    concept: Concept | None = None
    readings: tuple[Concept, ...] = ()


class Tokenizer:
    """A jieba tokenizer whose dictionary is the vocabulary plus the grammar words.

    Parameters
    ----------
    vocabulary : Vocabulary

    Notes
    -----
    Word frequencies grow tenfold per character, so jieba's maximum-probability route prefers the
    longest term (再拜稽首 over 再拜 + 稽首; 媵爵者 over 媵 + 爵 + 者).
    """

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        words: dict[str, int] = {}
        for label in vocabulary.by_label:
            if not label.isascii():  # the English glosses are labels for lookups, not words of the text
                words[label] = 10 ** min(len(label), 8)
        for extra in (*g.IDIOMS, *g.ADVERBS, *g.NEGATORS, *g.CONDITIONAL, *g.THEN, *g.RELATIVE_PERSONS):
            words.setdefault(extra, 10 ** min(len(extra), 8))
        # forms read as a term in one rite only (燕禮 致者 = 媵爵者): words of the dictionary, classified
        # by the profile in force (see tokenize)
        self._rite_forms = frozenset(label for r in vocabulary.rites.values() for label in r.readings)
        for extra in sorted(self._rite_forms):
            words.setdefault(extra, 10 ** min(len(extra), 8))
        data = "\n".join(f"{w} {f}" for w, f in sorted(words.items()) if " " not in w).encode("utf-8")
        self._jieba = _jieba().Tokenizer()
        self._jieba.FREQ, self._jieba.total = self._jieba.gen_pfdict(io.BytesIO(data))
        self._jieba.initialized = True

    def words(self, text: str) -> list[str]:
        """Cut ``text`` into words (jieba, HMM off, our dictionary only)."""
        return list(self._jieba.cut(text, HMM=False))

    def tokenize(
        self,
        text: str,
        offset: int = 0,
        spans: Sequence[tuple[int, int]] | None = None,
        readings: Mapping[str, Concept] | None = None,
        cast: frozenset[str] | None = None,
    ) -> list[Token]:
        """Cut and classify ``text``.

        Parameters
        ----------
        text : str
            The reading of one block's classic text.
        offset : int
            Code-point offset of ``text`` in the document, when ``text`` is a plain slice of it.
        spans : sequence of (int, int), optional
            For a reading with the print layout taken out: each character's span in the document
            (:attr:`Piece.reading_spans`); overrides ``offset``.
        readings : mapping of str to Concept, optional
            The rite's own readings (:attr:`RiteProfile.readings`): a form read as that concept in
            this rite only (燕禮 致者 = 媵爵者).  A form that is such a reading in another rite only is
            cut into its characters here.
        cast : frozenset of str, optional
            Role keys of the rite's cast.  A form that names an act and a role (祝: to bless, the
            invocator) is the act where the role is not of the cast (士冠 乃祝), and the person where
            it is (特牲 祝酌授尸), unless an adverb or a negation stands right before it (乃祝: the act).

        Returns
        -------
        list[Token]
            Tokens in order; their texts concatenate to ``text``; ``start``/``end`` are offsets
            into the document.
        """
        if spans is None:
            spans = [(offset + i, offset + i + 1) for i in range(len(text))]
        readings = readings or {}
        tokens: list[Token] = []
        i = 0
        # cut the text with its variant characters in their usual form (the same length, code point
        # for code point: jieba reads no character outside the Basic Multilingual Plane as a word
        # character, so 上𧃊 is cut as 上餕), and read each word as written
        for cut in self.words(fold(text)):
            j = i + len(cut)
            word = text[i:j]
            if word in readings:
                c = readings[word]
                tokens.append(Token(word, spans[i][0], spans[j - 1][1], c.kind, c, (c,)))
            elif word in self._rite_forms and word not in self.vocabulary.by_label and len(word) > 1:
                for k, ch in enumerate(word):
                    tokens.append(self._classify(ch, spans[i + k][0], spans[i + k][1]))
            else:
                tok = self._classify(word, spans[i][0], spans[j - 1][1])
                if cast is not None and tok.kind == ACTION and any(c.kind == ROLE for c in tok.readings):
                    tok = _person_or_act(tok, cast, tokens[-1] if tokens else None)
                tokens.append(tok)
            i = j
        return self._subject_after_facing(assemble_places(self._split_diagonals(tokens)), cast)

    def _subject_after_facing(self, tokens: list[Token], cast: frozenset[str] | None) -> list[Token]:
        """A facing closes the clause of the person before it (公西鄉, he stands facing west), so a place
        right after it that begins with the name of a person of the rite is that person, the subject of what
        follows, and the rest of the place (聘禮 公西鄉 | 賔 階上再拜稽首, not 賔階 "the guest's steps": 註 成拜,
        the envoy completes his bow above the steps)."""
        if not cast:
            return tokens
        out: list[Token] = []
        for t in tokens:
            prev = out[-1] if out else None
            split = None
            if t.kind == PLACE and prev is not None and prev.kind == FACING and t.end - t.start == len(t.text):
                for n in (2, 1):
                    head, rest = t.text[:n], t.text[n:]
                    role = next((c for c in self.vocabulary.by_label.get(head, ()) if c.kind == ROLE and c.key in cast), None)
                    base = rest.rstrip("".join(sorted(g.DIRECTIONS)))
                    place = next((c for c in self.vocabulary.by_label.get(base, ()) if c.kind == PLACE), None) if base else None
                    if role is not None and place is not None:
                        split = (
                            Token(head, t.start, t.start + n, ROLE, role, (role,)),
                            Token(rest, t.start + n, t.end, PLACE, place, (place,)),
                        )
                        break
            out.extend(split or (t,))
        return out

    def _split_diagonals(self, tokens: list[Token]) -> list[Token]:
        """A diagonal facing right after a bare place splits: its first direction ends the place
        (筵西 南面, 户西 南面, 西階東 南面 in 士冠; 燕禮 阼阶西 北面, gold: "not 西北面"), while after a
        position that has its direction (洗南 西北面) it stays whole.  After 之 "of" the direction is the
        side of the place or person named before (鄉射 主人阼階之東 南面辭洗, 興司射之西 北面, 鄉飲酒 下西階之東
        北面): 之 takes a noun, not a facing."""
        out: list[Token] = []
        for k, t in enumerate(tokens):
            prev = tokens[k - 1] if k else None
            rest = t.text[1:]
            if (
                t.kind == FACING
                and len(t.text) == 3
                and t.text[0] in g.DIRECTIONS
                and prev is not None
                and (
                    (prev.kind == PLACE or _alt_place(prev) is not None)
                    or (prev.kind == ZHI and k >= 2 and tokens[k - 2].kind not in (ACTION, ZHI))
                )
                and prev.text[-1:] not in g.DIRECTIONS
            ):
                facing = next((c for c in self.vocabulary.by_label.get(rest, ()) if c.kind == FACING), None)
                if facing is not None:
                    out.append(Token(t.text[0], t.start, t.start + 1, DIR))
                    out.append(Token(rest, t.start + 1, t.end, FACING, facing, (facing,)))
                    continue
            out.append(t)
        return out

    def tokenize_piece(
        self, piece: Piece, readings: Mapping[str, Concept] | None = None, cast: frozenset[str] | None = None
    ) -> list[Token]:
        """Tokenise a document piece (its reading, with offsets into the document); ``readings`` and
        ``cast`` as in :meth:`tokenize`."""
        return self.tokenize(piece.reading_text, spans=piece.reading_spans, readings=readings, cast=cast)

    def _classify(self, word: str, pos: int, end: int) -> Token:
        if word == "○":
            return Token(word, pos, end, MARK)
        if word in g.IDIOMS:
            return Token(word, pos, end, TAIL)
        if word in g.SPEECH:
            # 曰 opens words; it is the act itself only when no verb stands before it (主人曰…, see
            # clauses.segment), so it keeps its grammar kind and carries the act's concept
            said = next((c for c in self.vocabulary.by_label.get(word, ()) if c.kind == ACTION), None)
            return Token(word, pos, end, YUE, said, (said,) if said is not None else ())
        # a form read as an act only by a rule of the language (先: first, or 祝先 the 祝 goes ahead)
        concepts = tuple(c for c in self.vocabulary.by_label.get(word, ()) if not c.flag("readByContext"))
        if concepts:
            # Several kinds may share a form (洗 the act and the basin); the act is the default
            # reading and assemble_places() turns it into a place where a direction follows.
            # a cup before a wine (散 is read by context: see clauses.cup_not_wine); a dish or a jar
            # after a place (俎 the stand, a place things are put on)
            order = {ACTION: 0, ROLE: 1, WINE: 2, VESSEL: 3, OBJECT: 4, PLACE: 5, FACING: 7}
            c = sorted(
                concepts, key=lambda c: 6 if c.kind == VESSEL and not self.vocabulary.is_cup(c.key) else order.get(c.kind, 9)
            )[0]
            kind = c.kind
            if kind == FACING and c.key.startswith("rank-"):
                kind = RANK
            return Token(word, pos, end, kind, c, tuple(concepts))
        for words, kind in _GRAMMAR_KINDS:
            if word in words:
                return Token(word, pos, end, kind)
        if word in g.COMPARISON_ENDS:
            return Token(word, pos, end, END)
        if len(word) == 1 and word in g.DIRECTIONS:
            return Token(word, pos, end, DIR)
        if word in g.RELATIVE_PERSONS:
            return Token(word, pos, end, ROLE, None)
        if all(g.is_number(ch) for ch in word):
            return Token(word, pos, end, NUM)
        return Token(word, pos, end, OTHER)


def _extent(tokens: list[Token], k: int) -> bool:
    """True if the direction at ``k`` and the next one are opposites (南北, 東西): an extent, "from
    north to south", not a side of the place before (士冠 設洗直於東榮 南北以堂深: the basin's place
    north to south is as deep as the hall)."""
    pair = tokens[k].text + (tokens[k + 1].text if k + 1 < len(tokens) and tokens[k + 1].kind == DIR else "")
    return pair in g.EXTENTS


def _person_or_act(tok: Token, cast: frozenset[str], prev: Token | None) -> Token:
    """A form that names a role and an act (祝): see :meth:`Tokenizer.tokenize`."""
    role = next((c for c in tok.readings if c.kind == ROLE and (not cast or c.key in cast)), None)
    acts = tuple(c for c in tok.readings if c.kind != ROLE)
    if role is None or (prev is not None and prev.kind in (ADV, NEG)):
        return replace(tok, readings=acts or tok.readings)
    return Token(tok.text, tok.start, tok.end, ROLE, role, tok.readings)


def assemble_places(tokens: list[Token]) -> list[Token]:
    """Merge place phrases into single ``place`` tokens.

    Rules (each a rule of the language, with an example from the 燕礼):

    * place + direction words → a position: 西阶 + 上 = 西阶上, 洗 + 南 = 洗南, 荐 + 右 = 荐右,
      阶 + 西 = 阶西, 席 + 末 = 席末;
    * X + 之 + direction (X a place or a person) → a position: 东楹之东, 主人之左;
    * person + 之 + place → that person's place: 旅食之尊;
    * person + 右/左 → a position beside the person: 賔右北面至再拜 (the host stands on the guest's right);
    * 于 + person + direction → a position by the person: 尸北面于侑東答拜 (有司徹).

    The rules are :data:`_PLACE_PHRASES`, tried in order at each token; the first that matches
    decides, then the positions are chained (:func:`_chain_places`).

    Parameters
    ----------
    tokens : list[Token]

    Returns
    -------
    list[Token]
        The same text, with place phrases as one token each (``kind == "place"``, ``concept`` the
        place it is built on, or None for a position beside a person).
    """
    if not tokens:
        return tokens
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        for phrase in _PLACE_PHRASES:
            found = phrase(tokens, i, out)
            if found is not None:
                merged, i = found
                out.append(merged)
                break
        else:
            out.append(tokens[i])
            i += 1
    return _chain_places(out)


_Found = tuple[Token, int] | None
"""What a rule of :data:`_PLACE_PHRASES` answers: the merged place token and the index of the first
token after it, or None where the rule does not apply."""


def _past_directions(tokens: list[Token], k: int) -> int:
    """The index of the first token at or after ``k`` that is not a direction word."""
    while k < len(tokens) and tokens[k].kind == DIR:
        k += 1
    return k


def _merged(tokens: list[Token], i: int, k: int, concept: Concept | None, readings: tuple[Concept, ...] = ()) -> Token:
    """``tokens[i:k]`` as one place token (its text and span the tokens', the given concept and readings)."""
    return Token("".join(x.text for x in tokens[i:k]), tokens[i].start, tokens[k - 1].end, PLACE, concept, readings)


def _demonstrative_place(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """其尊, 其位: that person's own place (酌于其尊: from their own jar)."""
    t = tokens[i]
    if (
        t.text in g.DEMONSTRATIVE_PLACE
        and i + 1 < len(tokens)
        and tokens[i + 1].kind == PLACE
        and tokens[i + 1].concept is not None
    ):
        nxt = tokens[i + 1]
        return Token(t.text + nxt.text, t.start, nxt.end, PLACE, nxt.concept, nxt.readings), i + 2
    return None


def _demonstrative_direction(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """其南: a position by what was just named."""
    if tokens[i].text in g.DEMONSTRATIVE_PLACE and i + 1 < len(tokens) and tokens[i + 1].kind == DIR:
        k = _past_directions(tokens, i + 1)
        return _merged(tokens, i, k, None), k
    return None


def _front_or_back_of_place(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """自/于 + 前/後 + a place: its front or back part, one place (士喪 升自前東榮, 復者降自後西榮: by the front of
    the east eave, the back of the west eave)."""
    t = tokens[i]
    if (
        t.text in g.FRONT_BACK
        and out
        and out[-1].kind in (ZI, YU)
        and i + 1 < len(tokens)
        and tokens[i + 1].kind == PLACE
        and tokens[i + 1].concept is not None
    ):
        nxt = tokens[i + 1]
        return Token(t.text + nxt.text, t.start, nxt.end, PLACE, nxt.concept, nxt.readings), i + 2
    return None


def _place_with_directions(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """A place (or an act or thing with a place reading) + direction words: 西阶上, 洗南, 西阶上少东 (a
    little further), 东楹之东 (X之<direction>), X之<place>; a place alone is a place token too.  Two
    opposite directions are an extent, not a side (:func:`_extent`)."""
    t = tokens[i]
    n = len(tokens)
    base: Concept | None = None
    if t.kind == PLACE:
        base = t.concept
    elif t.kind in (ACTION, OBJECT):
        base = _alt_place(t)
    if base is None:
        return None
    j = i + 1
    k = j
    while k < n and tokens[k].kind == DIR and not _extent(tokens, k):
        k += 1
    # a little further: 西阶上少东
    if k > j and k + 1 < n and tokens[k].text == "少" and tokens[k + 1].kind == DIR:
        k += 2
    # X之<direction>: 东楹之东
    if k == j and k + 1 < n and tokens[k].kind == ZHI and tokens[k + 1].kind in (DIR, PLACE):
        k = _past_directions(tokens, k + 2)
    if t.kind == PLACE or k > j:
        return _merged(tokens, i, k, base), k
    return None


def _vessel_position(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """A vessel + direction is a position by it: 立于觯东 (燕禮), 奠于鉶南 (not where an act follows)."""
    t = tokens[i]
    j = i + 1
    n = len(tokens)
    if t.kind == VESSEL and j < n and tokens[j].kind == DIR and (j + 1 >= n or tokens[j + 1].kind != ACTION):
        k = _past_directions(tokens, j)
        return _merged(tokens, i, k, None, (t.concept,) if t.concept else ()), k
    return None


def _act_position_after_yu(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """于 + an act word + a quarter: a position by the thing it names (有司徹 設于祭東: east of the
    offerings; 薦東: of the served dishes)."""
    t = tokens[i]
    j = i + 1
    if (
        t.kind == ACTION
        and out
        and out[-1].kind == YU
        and j < len(tokens)
        and tokens[j].kind == DIR
        and tokens[j].text in g.COMPASS
    ):
        k = _past_directions(tokens, j)
        return _merged(tokens, i, k, _alt_place(t)), k
    return None


def _person_position_after_yu(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """于 + a person + a direction: a position by him (有司徹 尸北面于侑東答拜: east of the 侑; 侑 the
    person, not the act of urging)."""
    t = tokens[i]
    j = i + 1
    person = t.concept if t.kind == ROLE else next((c for c in t.readings if c.kind == ROLE), None)
    if person is not None and out and out[-1].kind == YU and j < len(tokens) and tokens[j].kind == DIR:
        k = _past_directions(tokens, j)
        return _merged(tokens, i, k, None, (person,)), k
    return None


def _person_zhi_position(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """Person + 之 + a direction or a place: 主人之左, 旅食之尊."""
    t = tokens[i]
    j = i + 1
    if (
        t.kind == ROLE
        and j + 1 < len(tokens)
        and tokens[j].kind == ZHI
        and (tokens[j + 1].kind == DIR or _alt_place(tokens[j + 1]))
    ):
        k = _past_directions(tokens, j + 2)
        return _merged(tokens, i, k, _alt_place(tokens[j + 1]), (t.concept,) if t.concept is not None else ()), k
    return None


def _person_place_zhi_direction(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """Person + a place noun + 之 + direction: a position by that person's place (賔席之前); without
    之 the person is the subject (主人筵前献賔: the host, before the mat, toasts)."""
    t = tokens[i]
    j = i + 1
    if (
        t.kind == ROLE
        and j + 2 < len(tokens)
        and tokens[j].kind in (ACTION, PLACE, OBJECT)
        and tokens[j].text in g.PERSONAL_PLACES
        and tokens[j + 1].kind == ZHI
        and tokens[j + 2].kind == DIR
    ):
        k = _past_directions(tokens, j + 3)
        return _merged(tokens, i, k, _alt_place(tokens[j]), (t.concept,) if t.concept is not None else ()), k
    return None


def _beside_person(tokens: list[Token], i: int, out: list[Token]) -> _Found:
    """Person + 右/左: a position beside the person (賔右北面至再拜) … but 小臣左何瑟: a person who
    opens a clause, then 左/右 and an act, is the subject doing it with the left (right) hand, not a
    position."""
    t = tokens[i]
    j = i + 1
    n = len(tokens)
    if t.kind != ROLE:
        return None
    adverbial = (j + 1 < n and tokens[j + 1].kind == ACTION and not (out and out[-1].kind == ROLE)) or (
        j + 1 < n and tokens[j + 1].text in g.HANDS
    )
    if j < n and tokens[j].text in g.SIDE_OF_PERSON and not adverbial:
        return Token(t.text + tokens[j].text, t.start, tokens[j].end, PLACE, None), j + 1
    return None


_PLACE_PHRASES = (
    _demonstrative_place,
    _front_or_back_of_place,
    _demonstrative_direction,
    _place_with_directions,
    _vessel_position,
    _act_position_after_yu,
    _person_position_after_yu,
    _person_zhi_position,
    _person_place_zhi_direction,
    _beside_person,
)
"""The rules of :func:`assemble_places`, in the order they are tried at each token: each takes the
tokens, the index of the current one and the tokens merged so far, and answers :data:`_Found`."""


def _chain_places(tokens: list[Token]) -> list[Token]:
    """A position followed by a place phrase is one location, each narrowing the last: 門中 + 闑西 +
    閾外 (士冠 布席於門中闑西閾外: in the gate, west of the post, outside the sill); 直 + a place is
    "right opposite it" (阼階下直東序).  A bare place followed by another place is not one location
    (升自西階 | 賔右…: the second opens the next act).  The location's concept is the first place's."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.text in g.OPPOSITE and i + 1 < len(tokens) and tokens[i + 1].kind == PLACE:
            nxt = tokens[i + 1]
            t = Token(t.text + nxt.text, t.start, nxt.end, PLACE, nxt.concept, nxt.readings)
            i += 1
        path = len(out) >= 2 and out[-2].kind == ZI  # 由楹内 | 东楹之东: the way taken, then where
        joined = t.text[:1] in g.OPPOSITE or (t.concept is not None and out and out[-1].text[-1:] in g.DIRECTIONS and not path)
        if (
            t.kind == PLACE
            and joined
            and out
            and out[-1].kind == PLACE
            and out[-1].end == t.start
            and out[-1].concept is not None
        ):
            prev = out[-1]
            out[-1] = Token(prev.text + t.text, prev.start, t.end, PLACE, prev.concept, prev.readings)
        else:
            out.append(t)
        i += 1
    return out


def _alt_place(tok: Token) -> Concept | None:
    """The place a token can name: itself if a place, else its place reading (洗 the basin, 荐 the dish)."""
    if tok.kind == PLACE:
        return tok.concept
    return next((c for c in tok.readings if c.kind == PLACE), None)


def with_kind(tok: Token, kind: str, concept: Concept | None = None) -> Token:
    """Return a copy of ``tok`` read as another kind (e.g. 席 as a place after 升)."""
    return replace(tok, kind=kind, concept=concept if concept is not None else tok.concept)
