"""The commentary as data: statements by authority, glosses, variant readings and citations.

Each edition marks who says what (see ``shared/corpus/SOURCES.md``):

- 儀禮述註: a piece opens with ``註曰`` (鄭玄), later authorities follow inside it after ``○``:
  ``○疏曰`` (賈公彦), ``○楊氏曰``, ``○朱先生曰``, ``○孔疏曰``, and 李光坡's own ``○坡謂``;
- 儀禮注疏: a bare ``注`` opens 鄭玄's note; ``音義(…)`` is 陸德明's, ``疏(釋曰…)`` 賈公彦's, its
  parentheses printed line by line (each a piece of :class:`~yili.ingest.document.Block`);
- 儀禮鄭注: the parenthesised note is 鄭玄's.

:func:`read_commentary` splits a document's commentary into :class:`Statement` records and reads
in them, by rule:

- **glosses** (:class:`Gloss`) in 鄭玄's note: ``X猶Y也``, ``X之言Y也``, ``X謂Y也``, ``X者Y也``,
  ``X，Y也`` and ``X，Y貌``, where X is a word of the classic block the note comments on (the text
  has no punctuation: X must start the note or follow a 也, save in the 猶 and 之言 formulas whose
  markers cannot be mistaken);
- **variant readings** (:class:`Reading`) in 鄭玄's note: ``古文X為Y``, ``今文X作Y``, ``今文無X``,
  ``X或作Y`` (鄭玄 collated the old-script and new-script texts: 士冠禮 註 古文袗為均), X a word of
  the block, Y as long as X;
- **citations** (:class:`Citation`) in every statement: a work or chapter the ontology names
  (``yk:citationForm``: 少牢, 鄉飲酒, 詩, 周禮, 曲禮…) followed by ``云`` or ``曰`` (``禮``/``記``/``傳``
  may stand between: 鄉飲酒記曰), resolved by :func:`resolve_citations` to the classic block of the
  cited chapter whose text begins the quoted words.

The 疏 quotes the note it explains (``云酳猶衍也者…``), so glosses and readings are read from 鄭玄's
note only: read in the 疏 they would be credited to 賈公彦.  Offsets are Unicode code points into
:attr:`~yili.ingest.document.Document.text`, 0-based, end-exclusive.  This module knows no RDF.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from yili.ingest.document import Block, Document
from yili.ontology.commentary import CommentaryTerms, default_terms
from yili.ontology.variants import fold

ZHENG = "person-zhengxuan"
"""The authority key of 鄭玄, whose note the glosses and readings are read from."""

_LAYOUT = "/()（）\u3000 "
"""Characters of a commentary reading that are print layout, not text: the ``/`` between the two
small columns of a note, the parentheses of the 注疏's 音義 and 疏, spaces."""

_MARK = re.compile(r"○(?=(?P<name>[^○曰謂]{1,3})[曰謂])")
"""A ``○`` that may open another authority's statement (○疏曰, ○楊氏曰, ○坡謂)."""

_HEAD = re.compile(r"^○?(?:(?P<zhu>註曰|注曰)|(?P<shu>疏曰|䟽曰)|(?P<po>坡謂|坡曰|坡按)|(?P<name>[^○曰謂]{1,3})[曰謂])")

_NOT_A_WORD = frozenset("是此亦不皆言所故其以則謂今古猶之而乃又及與者也云曰於于為爲即凡若如")
"""Characters that begin no glossed word X: pronouns, particles and the formulas' own words."""

_NOT_A_GLOSS = frozenset("之也矣焉者乎其於而")
"""Characters a gloss Y does not begin with (``尊之也`` says why, it glosses nothing)."""

MAX_WORD = 3
"""The longest glossed or variant word X, in characters (鄭玄 glosses words, not phrases)."""


@dataclass(frozen=True)
class Statement:
    """What one authority says on a block.

    Attributes
    ----------
    block : int
        The classic block commented on (:attr:`~yili.ingest.document.Block.number`).
    ordinal : int
        1, 2, … in text order among the block's statements.
    pieces : tuple[int, ...]
        The 1-based indices into ``block.commentary`` of the pieces it lies in (a 疏 printed over
        several parentheses lies in several).
    authority : str
        The authority's key (``person-zhengxuan``, ``person-yangfu``), or ``""`` if unknown.
    label : str
        The name as the edition marks it (注, 疏, 音義, 楊氏, 朱先生, 坡).
    layer : str
        The layer of its first piece (``zhu``, ``shu``, ``other``).
    text : str
        The statement as read (layout taken out), its header (``註曰``, ``○楊氏曰``) included.
    body : int
        Where the header ends in :attr:`text`.
    spans : tuple[tuple[int, int], ...]
        For each character of :attr:`text`, its (start, end) span in the document.
    """

    block: int
    ordinal: int
    pieces: tuple[int, ...]
    authority: str
    label: str
    layer: str
    text: str
    body: int
    spans: tuple[tuple[int, int], ...] = field(repr=False)

    @property
    def start(self) -> int:
        """Offset of its first character in the document."""
        return self.spans[0][0]

    @property
    def end(self) -> int:
        """Offset just after its last character in the document."""
        return self.spans[-1][1]

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The document span of ``text[a:b]`` (``a < b``)."""
        return self.spans[a][0], self.spans[b - 1][1]


@dataclass(frozen=True)
class Occurrence:
    """A word of the classic text of a block: ``document.text[start:end]`` reads it (with the
    layout between its characters, if a line ends inside it)."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Gloss:
    """A gloss ``X … Y`` read from a statement.

    Attributes
    ----------
    statement : Statement
    formula : str
        ``猶``, ``之言``, ``謂``, ``者``, ``也`` (X，Y也) or ``貌`` (X，Y貌).
    term, gloss : str
        X and Y as the note writes them.
    start, end : int
        The formula's span in the document (from X to its closing 也 or 貌).
    target : Occurrence
        X's first occurrence in the classic text of the block commented on.
    """

    statement: Statement
    formula: str
    term: str
    gloss: str
    start: int
    end: int
    target: Occurrence


@dataclass(frozen=True)
class Reading:
    """A variant reading ``古文X為Y`` read from a statement.

    Attributes
    ----------
    statement : Statement
    witness : str
        ``古文``, ``今文`` or ``或``.
    term, variant : str
        X (the edition's word) and Y (the other text's); ``variant`` is ``""`` for ``今文無X``.
    formula : str
        ``為`` (also 爲), ``作`` or ``無``.
    start, end : int
        The formula's span in the document.
    target : Occurrence
        X's first occurrence in the classic text of the block.
    """

    statement: Statement
    witness: str
    term: str
    variant: str
    formula: str
    start: int
    end: int
    target: Occurrence


@dataclass(frozen=True)
class Passage:
    """The place a citation is found: a classic block of an edition of the cited chapter.

    ``rite``, ``edition`` and ``block`` name the block; ``start``/``end`` are the quoted words' span
    in that edition's text; ``quote`` the words as the citing statement writes them."""

    rite: str
    edition: str
    block: int
    start: int
    end: int
    quote: str


@dataclass(frozen=True)
class Citation:
    """A citation ``少牢云…`` read from a statement.

    Attributes
    ----------
    statement : Statement
    kind : str
        ``rite`` (a chapter of the 儀禮) or ``work`` (another work).
    key : str
        The rite key (``shaolaokuishili``) or the work's key (``cited-liji``).
    marker : str
        The marker as written (``少牢云``, ``鄉飲酒記曰``).
    start, end : int
        The marker's span in the document.
    after : str
        Up to :data:`QUOTE_WINDOW` characters of the statement after the marker (what it quotes
        begins there).
    after_spans : tuple[tuple[int, int], ...]
    passage : Passage | None
        The cited passage, set by :func:`resolve_citations` when found.
    """

    statement: Statement
    kind: str
    key: str
    marker: str
    start: int
    end: int
    after: str
    after_spans: tuple[tuple[int, int], ...] = field(repr=False)
    passage: Passage | None = None


QUOTE_WINDOW = 40
"""How many characters after a citation's marker are matched against the cited chapter."""

MIN_QUOTE = 4
"""The fewest characters of a quotation that resolve it to a passage (three are often found by chance)."""


@dataclass(frozen=True)
class Commentary:
    """Everything read from one document's commentary."""

    statements: tuple[Statement, ...]
    glosses: tuple[Gloss, ...]
    readings: tuple[Reading, ...]
    citations: tuple[Citation, ...]

    def counts(self) -> dict[str, int]:
        """``statements``, ``glosses``, ``readings``, ``citations``, ``resolved`` (citations with a
        passage), and ``by:<label>`` statements per authority label, in that order."""
        out = {
            "statements": len(self.statements),
            "glosses": len(self.glosses),
            "readings": len(self.readings),
            "citations": len(self.citations),
            "resolved": sum(1 for c in self.citations if c.passage is not None),
        }
        for s in self.statements:
            out[f"by:{s.label}"] = out.get(f"by:{s.label}", 0) + 1
        return out


# ---------------------------------------------------------------------------------------------
# statements
# ---------------------------------------------------------------------------------------------


def _chars_of(block: Block) -> list[tuple[int, str, tuple[int, int]]]:
    """The block's commentary as (piece index, character, span), the layout characters left out."""
    out = []
    for k, piece in enumerate(block.commentary, start=1):
        for ch, sp in zip(piece.reading_text, piece.reading_spans, strict=False):
            if ch not in _LAYOUT:
                out.append((k, ch, sp))
    return out


def _label_of(piece_layer: str, commentator: str | None) -> str:
    if piece_layer == "zhu":
        return "注"
    if piece_layer == "shu":
        return "疏"
    return commentator or ""


def split_statements(block: Block, terms: CommentaryTerms | None = None) -> list[Statement]:
    """Split a block's commentary into the statements of its authorities.

    A new statement starts where a piece of another layer or commentator starts (a 疏 printed over
    several parentheses stays one statement), and at a ``○`` followed by a known authority's name
    and 曰 or 謂 (○疏曰, ○楊氏曰, ○坡謂); ``○又曰`` continues the same authority; a ``○`` before a
    name that is no authority (○問喪曰, a citation) starts nothing.

    Returns
    -------
    list[Statement]
        In text order, numbered from 1.
    """
    terms = terms or default_terms()
    chars = _chars_of(block)
    if not chars:
        return []
    text = "".join(c for _, c, _ in chars)
    cuts: dict[int, str] = {}  # position -> label
    for i, (k, _, _) in enumerate(chars):
        if i == 0 or chars[i - 1][0] != k:
            piece = block.commentary[k - 1]
            label = _label_of(piece.layer, piece.commentator)
            prev = cuts[max(cuts)] if cuts else None
            if label == "又" and prev:  # ○又曰: the same authority again
                label = prev
            # a piece that goes on with the same layer and commentator (the 注疏's next parenthesis) continues
            if prev is None or label != prev or not block.commentary[k - 1].reading_text.startswith("("):
                cuts[i] = label
    for m in _MARK.finditer(text):
        name = m.group("name")
        if name == "又" or m.start() in cuts:
            continue
        head = _HEAD.match(text, m.start())
        label = _head_label(head, terms) if head else None
        if label:
            cuts[m.start()] = label
    positions = sorted(cuts)
    statements: list[Statement] = []
    for n, (a, b) in enumerate(zip(positions, [*positions[1:], len(text)], strict=False), start=1):
        seg = text[a:b]
        head = _HEAD.match(seg)
        label = (_head_label(head, terms) if head else None) or cuts[a]
        body = head.end() if head and _head_label(head, terms) else 0
        if body == 0 and seg[:1] in "注註" and cuts[a] == "注" and seg[1:3] != "釋曰":
            body = 1  # the 注疏's bare 注
        elif body == 0 and seg.startswith(("疏釋曰", "䟽釋曰")):
            body = 3
        elif body == 0 and seg.startswith("音義"):
            body = 2
        pieces = tuple(sorted({k for k, _, _ in chars[a:b]}))
        first = block.commentary[pieces[0] - 1]
        statements.append(
            Statement(
                block.number,
                n,
                pieces,
                terms.authorities.get(label, ""),
                label,
                first.layer,
                seg,
                body,
                tuple(sp for _, _, sp in chars[a:b]),
            )
        )
    return statements


def _head_label(head: re.Match[str], terms: CommentaryTerms) -> str | None:
    """The authority label a statement header names (注, 疏, 坡, 楊氏…), or None if it names no
    authority the ontology knows."""
    if head.group("zhu"):
        return "注"
    if head.group("shu"):
        return "疏"
    if head.group("po"):
        return "坡"
    name = head.group("name")
    return name if name in terms.authorities else None


# ---------------------------------------------------------------------------------------------
# glosses and readings
# ---------------------------------------------------------------------------------------------


class _Classic:
    """The classic text of a block, folded for lookups (the note writes 于 where the classic has 於)."""

    def __init__(self, block: Block) -> None:
        self.text = block.classic.reading_text
        self.folded = fold(self.text)
        self.spans = block.classic.reading_spans

    def find(self, word: str) -> Occurrence | None:
        """The first occurrence of ``word`` (variants folded), or None."""
        if not word:
            return None
        i = self.folded.find(fold(word))
        if i < 0:
            return None
        j = i + len(word)
        return Occurrence(self.text[i:j], self.spans[i][0], self.spans[j - 1][1])


def _word_before(text: str, end: int, lo: int, classic: _Classic) -> tuple[int, Occurrence] | None:
    """The longest word X = ``text[a:end]`` (``a ≥ lo``, 1–:data:`MAX_WORD` characters) found in the
    classic, not starting with a particle; returns (a, occurrence)."""
    for n in range(MAX_WORD, 0, -1):
        a = end - n
        if a < lo:
            continue
        word = text[a:end]
        if word[0] in _NOT_A_WORD or "○" in word:
            continue
        occ = classic.find(word)
        if occ is not None:
            return a, occ
    return None


def _word_after(text: str, start: int, hi: int, classic: _Classic) -> tuple[int, Occurrence] | None:
    """The longest word X = ``text[start:b]`` (``b ≤ hi``) found in the classic; returns (b, occurrence)."""
    for n in range(MAX_WORD, 0, -1):
        b = start + n
        if b > hi:
            continue
        word = text[start:b]
        if word[0] in _NOT_A_WORD or "○" in word:
            continue
        occ = classic.find(word)
        if occ is not None:
            return b, occ
    return None


_GLOSS_SPAN = {"猶": 4, "之言": 4, "謂": 6, "谓": 6, "者": 4, "也": 2, "貌": 4}
"""The longest gloss Y each formula takes, in characters (a longer stretch is an argument, not a gloss:
特牲 註 二爵者為賓獻爵止主婦當致也 says why, 宰羣吏之長自由也 runs two glosses together)."""

_SHORT_WORD = 2
"""The longest X of the formulas without a marker of their own (X者Y也, X，Y也, X，Y貌): a longer
stretch is a clause (特牲 註 三飯告飽禮一成也, 祝先入接神宜在前也), not a word."""

_REASON = frozenset("為爲以辟異容俟尚明欲重尊敬嫌遠別示由因見不亦皆")
"""Words that open a reason, not a gloss, after X者 (特牲 註 北面拜者辟内子也, 西面者異于獻也)."""

_READING = re.compile(r"(古文|今文)")
_VERBS = ("為", "爲", "为", "作")
"""The verbs of a reading: X為Y (also 爲, and 为 in the simplified excerpt), X作Y."""


def _readings(st: Statement, classic: _Classic) -> tuple[list[Reading], set[int]]:
    """The variant readings of a statement, and the positions just after each (a boundary for glosses)."""
    text = st.text
    out: list[Reading] = []
    ends: set[int] = set()
    for m in _READING.finditer(text, st.body):
        witness = m.group(1)
        pos = m.end()
        if text.startswith("無", pos):
            got = _word_after(text, pos + 1, min(len(text), pos + 1 + MAX_WORD), classic)
            if got:
                b, occ = got
                out.append(Reading(st, witness, text[pos + 1 : b], "", "無", *st.span(m.start(), b), occ))
                ends.add(b)
            continue
        first = True
        while True:
            found = None
            for n in range(MAX_WORD, 0, -1):
                x = text[pos : pos + n]
                k = pos + n
                both = text.startswith("皆", k)
                v = k + (1 if both else 0)
                if len(x) < n or text[v : v + 1] not in _VERBS or "○" in x:
                    continue
                occ = classic.find(x)
                y = text[v + 1 : v + 1 + n]
                if occ is None or len(y) < n or any(c in "也○古今" for c in y):
                    continue
                found = (x, y, "作" if text[v] == "作" else "為", v + 1 + n, occ)
                break
            if found is None:
                break
            x, y, verb, end, occ = found
            out.append(Reading(st, witness, x, y, verb, *st.span(m.start() if first else pos, end), occ))
            ends.add(end)
            first = False
            pos = end
    # X或作Y, X或為Y (some copies read Y), X at a boundary
    for m in re.finditer(r"或(作|為|爲|为)", text):
        got = _word_before(text, m.start(), st.body, classic)
        if not got:
            continue
        a, occ = got
        x = text[a : m.start()]
        y = text[m.end() : m.end() + len(x)]
        if len(y) < len(x) or any(c in "也○" for c in y):
            continue
        if a > st.body and text[a - 1] != "也" and a not in ends:
            continue
        out.append(Reading(st, "或", x, y, "作" if m.group(1) == "作" else "為", *st.span(a, m.end() + len(x)), occ))
        ends.add(m.end() + len(x))
    out.sort(key=lambda r: r.start)
    return out, ends


_CLAUSE = frozenset("不無示以在于於其而則故有")
"""Characters that make a Y of X，Y也 a clause rather than a gloss (聘禮 註 朝服示不受也, 士喪 註
主人不升賤也, 有司徹 註 庶羞在左陽也)."""


_NOT_A_SYNONYM = frozenset("賔賓君尊卑敬輕賤貴禮手")
"""Characters that make a Y of X，Y也 say who, why or how rather than what X means, measured on the
hand-checked sample: a person (公降一等辭 註 辭賔降也; 聘禮 註 俟君拜也), a judgement (聘禮 註 公尊也,
鄉飲酒 註 介禮殺也), the hand (士虞 註 取肝右手也)."""


def _plain_gloss(x: str, y: str, classic: _Classic) -> bool:
    """Whether ``X Y也`` (no marker) reads as a gloss: Y is at most two characters (measured on a
    hand-checked sample, a longer Y is as often a clause as a gloss), not a clause, without a person, a
    judgement or the hand (:data:`_NOT_A_SYNONYM`), X not a bow (聘禮 註 拜貺也, 拜中庭也: where or what
    for, not what 拜 means), and X followed by Y's first character not itself in the classic (醯在東 註
    醯在東醯糓陽也: the word is 醯在東, not 醯在)."""
    if not y or len(y) > _GLOSS_SPAN["也"] or any(c in _CLAUSE for c in y):
        return False
    if x.startswith("拜") or any(c in _NOT_A_SYNONYM for c in y):
        return False
    return classic.find(x + y[0]) is None


def _glosses(st: Statement, classic: _Classic, boundaries: set[int]) -> list[Gloss]:
    """The glosses of one statement of 鄭玄's note (see the module docstring for the formulas)."""
    text = st.text
    n = len(text)
    starts = {st.body} | {i + 1 for i in range(st.body, n) if text[i] in "也○"} | boundaries
    out: list[Gloss] = []
    taken: set[int] = set()

    def add(formula: str, a: int, b: int, y0: int, y1: int, end: int, occ: Occurrence) -> None:
        y = text[y0:y1]
        if not y or y[0] in _NOT_A_GLOSS or "○" in y or any(c in "也皆" for c in y):
            return
        if a in taken:
            return
        taken.add(a)
        out.append(Gloss(st, formula, text[a:b], y, *st.span(a, end), occ))

    # the marked formulas: X猶Y也, X之言Y也 (X anywhere), X謂Y也, X者Y也 (X at a boundary)
    for m in re.finditer(r"猶|犹|之言", text):
        if m.start() <= st.body:
            continue
        got = _word_before(text, m.start(), st.body, classic)
        if got and m.start() - got[0] > 1 and got[0] not in starts:
            # a word of two or more characters must begin at a boundary: in 肉謂之羮定猶孰也 (鄉飲酒 註)
            # the word glossed is 定, not 羮定
            got = _word_before(text, m.start(), m.start() - 1, classic)
        marker = "猶" if m.group() == "犹" else m.group()
        ye = text.find("也", m.end(), m.end() + _GLOSS_SPAN[marker] + 1)
        if got and ye > m.end():
            a, occ = got
            add(marker, a, m.start(), m.end(), ye, ye + 1, occ)
    for a in sorted(starts):
        if a >= n or a in taken:
            continue
        for marker in ("謂", "谓", "者"):
            k = text.find(marker, a + 1, a + MAX_WORD + 1)
            if k < 0 or (marker != "者" and text.startswith("之", k + 1)):
                continue
            if marker == "者" and (k - a > _SHORT_WORD or text[k + 1 : k + 2] in _REASON):
                continue
            occ = classic.find(text[a:k]) if text[a] not in _NOT_A_WORD else None
            ye = text.find("也", k + 1, k + 1 + _GLOSS_SPAN[marker] + 1)
            if occ is not None and ye > k + 1:
                add("謂" if marker == "谓" else marker, a, k, k + 1, ye, ye + 1, occ)
                break
    # X，Y也 and X，Y貌: a whole short segment from a boundary to its 也 (or to 貌)
    for a in sorted(starts):
        if a >= n or a in taken:
            continue
        ye = text.find("也", a, a + _SHORT_WORD + _GLOSS_SPAN["也"] + 1)
        yb = text.find("貌", a, a + _SHORT_WORD + _GLOSS_SPAN["貌"] + 1)
        for formula, e, close in (("貌", yb, yb + 1), ("也", ye, ye + 1)):
            if e <= a + 1 or "○" in text[a:e] or any(c in text[a:e] for c in "猶犹謂谓者曰云為爲为作"):
                continue
            if formula == "也" and 0 <= yb < ye - 1:
                continue
            if formula == "貌" and text[e + 1 : e + 2] == "也":
                continue  # 𤣥冠委貌也: 委貌 is the cap's name, read by X，Y也
            got = _word_after(text, a, min(e - 1, a + _SHORT_WORD), classic)
            if got and formula == "也" and not _plain_gloss(text[a : got[0]], text[got[0] : e], classic):
                got = None
            if got:
                b, occ = got
                add(formula, a, b, b, e if formula == "也" else e + 1, close, occ)
                break
    out.sort(key=lambda g: g.start)
    return out


# ---------------------------------------------------------------------------------------------
# citations
# ---------------------------------------------------------------------------------------------


def _citation_pattern(terms: CommentaryTerms) -> re.Pattern[str]:
    forms = sorted(terms.citation_forms, key=lambda s: (-len(s), s))
    return re.compile("(" + "|".join(map(re.escape, forms)) + r")(禮|儀)?(記|傳|𫝊)?(云|曰)")


_PATTERNS: dict[int, re.Pattern[str]] = {}


def _citations(st: Statement, terms: CommentaryTerms) -> list[Citation]:
    pattern = _PATTERNS.get(id(terms))
    if pattern is None:
        pattern = _PATTERNS[id(terms)] = _citation_pattern(terms)
    out = []
    text = st.text
    for m in pattern.finditer(text, st.body):
        kind, key = terms.citation_forms[m.group(1)]
        after = text[m.end() : m.end() + QUOTE_WINDOW]
        out.append(
            Citation(st, kind, key, m.group(), *st.span(m.start(), m.end()), after, st.spans[m.end() : m.end() + len(after)])
        )
    return out


def read_commentary(document: Document, terms: CommentaryTerms | None = None) -> Commentary:
    """Read the statements, glosses, readings and citations of a document's commentary.

    Citations are not resolved here (see :func:`resolve_citations`, which needs the cited chapters).

    Parameters
    ----------
    document : Document
    terms : CommentaryTerms, optional
        The authorities and citation forms (default: the packaged ontology's).

    Returns
    -------
    Commentary
    """
    terms = terms or default_terms()
    statements: list[Statement] = []
    glosses: list[Gloss] = []
    readings: list[Reading] = []
    citations: list[Citation] = []
    for block in document.blocks:
        classic = _Classic(block)
        for st in split_statements(block, terms):
            statements.append(st)
            if st.authority == ZHENG:
                found, ends = _readings(st, classic)
                readings.extend(found)
                glosses.extend(_glosses(st, classic, ends))
            citations.extend(_citations(st, terms))
    return Commentary(tuple(statements), tuple(glosses), tuple(readings), tuple(citations))


class PassageIndex:
    """The classic blocks of the documents of a build, by rite, for resolving citations.

    Parameters
    ----------
    documents : iterable of Document
        Several editions of a rite may be given; a citation is resolved in the citing edition's own
        edition of the chapter first, then in the others in the order given.
    """

    def __init__(self, documents: Iterable[Document]) -> None:
        self._by_rite: dict[str, list[tuple[Document, Block, str]]] = {}
        for doc in documents:
            for block in doc.blocks:
                self._by_rite.setdefault(doc.rite, []).append((doc, block, fold(block.classic.reading_text)))

    def find(self, rite: str, words: str, edition: str) -> Passage | None:
        """The passage of ``rite`` that holds the longest beginning of ``words`` (at least
        :data:`MIN_QUOTE` characters; variants folded): the citing ``edition``'s block first, then the
        first in document order."""
        blocks = self._by_rite.get(rite)
        if not blocks:
            return None
        folded = fold(words)
        order: Sequence[tuple[Document, Block, str]] = sorted(blocks, key=lambda t: (t[0].edition != edition,))
        best: tuple[int, Document, Block, int] | None = None
        for doc, block, text in order:
            lo, hi = MIN_QUOTE, len(folded)
            if folded[:lo] not in text:
                continue
            while lo < hi:  # the longest prefix found (a prefix of a found prefix is found)
                mid = (lo + hi + 1) // 2
                if folded[:mid] in text:
                    lo = mid
                else:
                    hi = mid - 1
            if best is None or lo > best[0]:
                best = (lo, doc, block, text.find(folded[:lo]))
        if best is None:
            return None
        n, doc, block, i = best
        spans = block.classic.reading_spans
        return Passage(doc.rite, doc.edition, block.number, spans[i][0], spans[i + n - 1][1], words[:n])


def resolve_citations(commentary: Commentary, document: Document, index: PassageIndex) -> Commentary:
    """The same commentary with each citation of a chapter of the 儀禮 resolved to its passage in
    ``index`` (see :meth:`PassageIndex.find`), where it is found."""
    out = []
    for c in commentary.citations:
        if c.kind == "rite":
            passage = index.find(c.key, c.after, document.edition)
            if passage is not None:
                c = Citation(c.statement, c.kind, c.key, c.marker, c.start, c.end, c.after, c.after_spans, passage)
        out.append(c)
    return Commentary(commentary.statements, commentary.glosses, commentary.readings, tuple(out))
