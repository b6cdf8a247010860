"""Readers for the printed layouts of the editions: Kanripo "mandoku" text and KanripoXML (TEI).

In these layouts the classic text (經) and the commentary are told apart by indentation, not by
blank lines: in 儀禮述註 the classic starts in column 0 and commentary lines are indented by one
U+3000 (titles by two or more).  Printed lines break mid-sentence (``¶`` ends each line in the
mandoku text, ``<pc n="lb"/>`` in the TEI), and page markers (``<pb:KR1d0040_WYG_004-1a>``,
``<pb n="1a"/>``) stand between lines.

The readers keep :class:`~yili.ingest.document.Document.text` exactly as decoded and give each
piece a *reading*: its characters with the layout (line ends, page markers, indentation, XML
tags) taken out, and for each reading character the span of the input it came from.  Offsets
everywhere stay code points into the input as decoded.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from yili.ontology.errors import InputError

ENTITY = "〓"
"""The reading of a character outside Unicode (``&KR0764;``, ``[孑*(焉-正+?)]``): the geta mark, kept as one
opaque character."""

BOILERPLATE = ("欽定四庫全書", "钦定四库全书")
"""Column-0 lines that are the collection's title, not classic text."""

_MANDOKU_MARKUP = re.compile(r"&[A-Za-z0-9]+;|\[[^\]\n¶]{0,40}?[*+\-][^\]\n¶]{0,40}\]|<pb:[^>]*>|¶")
"""Mandoku markup: an entity (``&KR0764;``) and a composed character (``[孑*(焉-正+?)]``, a character
outside Unicode described by its parts, with ``*``, ``+``, ``-``), each read as one character; page
markers and line ends, read as nothing."""


@dataclass(frozen=True)
class Line:
    """One printed line: its indentation and its characters with their input spans.

    Attributes
    ----------
    indent : int
        Number of U+3000 at the start (0 = classic in 述註).
    chars : tuple[str, ...]
        Reading characters (an entity is one ``〓``).
    spans : tuple[tuple[int, int], ...]
        For each reading character, its (start, end) code-point span in the input.
    """

    indent: int
    chars: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    @property
    def text(self) -> str:
        """The line's reading text."""
        return "".join(self.chars)


_PAGE_MARKER = re.compile(r"<pb:([^>\s]+)>|<pb\b[^>]*?\bn=\"([^\"]+)\"[^>]*>")


def page_markers(text: str) -> list[tuple[int, str]]:
    """The page markers of a text, in order: ``(offset, page)`` with ``offset`` in code points into
    ``text`` and ``page`` as the marker names it (``KR1d0040_WYG_004-1a`` for Kanripo's
    ``<pb:KR1d0040_WYG_004-1a>``, ``1a`` for KanripoXML's ``<pb n="1a"/>``).  Empty for a text
    without markers (the excerpt)."""
    return [(m.start(), m.group(1) or m.group(2)) for m in _PAGE_MARKER.finditer(text)]


def page_at(markers: list[tuple[int, str]], offset: int) -> str | None:
    """The page on which ``offset`` lies: the last marker at or before it (None before the first)."""
    import bisect

    i = bisect.bisect_right([m[0] for m in markers], offset) - 1
    return markers[i][1] if i >= 0 else None


def is_mandoku(text: str) -> bool:
    """True for Kanripo mandoku text (``#+TITLE:`` headers, ``¶`` line ends, ``<pb:…>`` markers)."""
    head = text[:2000]
    return "#+TITLE" in head or ("¶" in head and "<pb:" in text[:20000])


_JUAN = re.compile(r"^#\+PROPERTY:\s*JUAN\s+(.*?)\s*$", re.MULTILINE)
_NOT_A_CHAPTER = re.compile("提要|序|跋|目")
"""What a Kanripo file's ``JUAN`` names when it holds no chapter: the 四庫 提要 (abstract), a 序
(preface, 儀禮疏序), a 跋 (afterword, 附授長兒儀禮跋) or a 目 (table of contents, 原目)."""


def front_matter(text: str) -> str | None:
    r"""The ``JUAN`` a Kanripo mandoku file's header gives (the ``#`` lines before its text) when it
    names front or back matter rather than a 卷 of the classic (``提要``, ``儀禮疏序``, ``跋``,
    ``原目``), else None (a 卷, a number, another layout, or no header).

    >>> front_matter("#+TITLE: 儀禮述註\n#+PROPERTY: JUAN 提要\n<pb:KR1d0040_WYG_000-1a>¶\n")
    '提要'
    >>> front_matter("#+TITLE: 儀禮述註\n#+PROPERTY: JUAN 卷一\n") is None
    True
    """
    end = 0
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        end += len(line)
    found = _JUAN.search(text, 0, end)
    if found and _NOT_A_CHAPTER.search(found.group(1)):
        return found.group(1)
    return None


def check_xml(text: str, source: str) -> None:
    """Raise :class:`InputError` for XML this reader cannot read: not well-formed (with the
    parser's message), or well-formed but without KanripoXML line breaks (``<pc n="lb"/>``)."""
    check_well_formed(text, source)
    raise InputError(f'{source}: XML without KanripoXML line breaks (<pc n="lb"/>): not a text this reader knows')


_XML_PROLOGUE = re.compile(r"\A\ufeff?\s*(?:<\?xml[^>]*\?>)?\s*(?:<!DOCTYPE[^>\[]*(?:\[[^\]]*\])?\s*>)?")
_NAMED_ENTITY = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)[A-Za-z_][\w.\-]*;")


def check_well_formed(text: str, source: str) -> None:
    """Raise :class:`InputError` unless ``text`` is well-formed XML (W3C XML 1.0, section 2.1), checked
    with the standard library's parser (expat) before anything is read from it: every tag closed in
    order, attributes quoted, no stray ``<`` or ``&``.

    A KanripoXML file may be a fragment (several top-level ``<div>``), so the text is checked inside
    one enclosing element, after its XML declaration and document type declaration; a named entity
    the file does not declare (Kanripo writes rare characters as ``&KR0001;``) is read as one
    character, as the line reader does.  The message names the file, the parser's problem and its
    line and column (1-based, in the file).
    """
    import xml.etree.ElementTree as ET
    from xml.parsers.expat import ErrorString

    opening, closing = "<yili-kg-fragment>", "</yili-kg-fragment>"
    prologue = _XML_PROLOGUE.match(text)
    skipped = prologue.end() if prologue else 0
    body = _NAMED_ENTITY.sub("&amp;", text[skipped:])
    wrapped = opening + body + closing
    try:
        ET.fromstring(wrapped)
    except ET.ParseError as exc:
        line, column = exc.position  # in ``wrapped``: line 1-based, column 0-based
        starts = [0, *(m.end() for m in re.finditer("\n", wrapped))]
        offset = starts[line - 1] + column
        problem = ErrorString(exc.code) if isinstance(exc.code, int) else str(exc)
        if offset >= len(opening) + len(body):
            problem = "the file ends inside an element (a closing tag is missing)"
            offset = len(opening) + len(body.rstrip())
        at = skipped + max(0, offset - len(opening))  # back into ``text``, counting the entities as written
        at = min(at, len(text))
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise InputError(f"{source}: not well-formed XML: {problem} (line {line}, column {column})") from None


def is_tei(text: str) -> bool:
    """True for KanripoXML / TEI: the text opens with an XML tag and carries ``<pc n="lb"/>`` line breaks."""
    return text.lstrip().startswith("<") and ('<pc n="lb"/>' in text or "<lb" in text)


def reading_chars(text: str, start: int, end: int) -> tuple[list[str], list[tuple[int, int]]]:
    """Reading characters of ``text[start:end]`` (mandoku markup removed, entities as one char)."""
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = start
    for m in _MANDOKU_MARKUP.finditer(text, start, end):
        for k in range(pos, m.start()):
            if text[k] not in "\r\n":
                chars.append(text[k])
                spans.append((k, k + 1))
        if m.group().startswith(("&", "[")):
            chars.append(ENTITY)
            spans.append((m.start(), m.end()))
        pos = m.end()
    for k in range(pos, end):
        if text[k] not in "\r\n":
            chars.append(text[k])
            spans.append((k, k + 1))
    return chars, spans


def mandoku_lines(text: str) -> tuple[str, list[Line]]:
    """Split mandoku text into printed lines (headers and page-marker lines left out).

    Returns
    -------
    title : str
        The ``#+TITLE:`` value, if any.
    lines : list[Line]
    """
    title = ""
    lines: list[Line] = []
    pos = 0
    for raw in text.splitlines(keepends=True):
        start, end = pos, pos + len(raw.rstrip("\r\n"))
        pos += len(raw)
        body = text[start:end]
        if body.startswith("#"):
            if body.startswith("#+TITLE:"):
                title = body[len("#+TITLE:") :].strip()
            if "考證" in body or "考证" in body:
                break  # the 考證 (collation notes) that close a 卷 are not the rite's text
            continue
        if re.fullmatch(r"\s*<pb:[^>]*>¶?\s*", body):
            continue
        indent = len(body) - len(body.lstrip("\u3000"))
        chars, spans = reading_chars(text, start + indent, end)
        if chars:
            lines.append(Line(indent, tuple(chars), tuple(spans)))
    return title, lines


_TEI_TOKEN = re.compile(r'<pc n="lb"\s*/>|<pc n="\u3000"\s*/>|<[^>]*>|&[A-Za-z0-9#]+;|[^<&]')


def tei_lines(text: str) -> tuple[str, list[Line]]:
    """Split KanripoXML (TEI) into printed lines at ``<pc n="lb"/>``.

    Indentation is the number of ``<pc n="　"/>`` before the first character of a line; other
    tags (``<pb/>``, ``<p>``, ``<head>``) are layout and left out; white space between tags is
    the file's formatting, not text.
    """
    title_m = re.search(r"<head>([^<]*)</head>", text)
    title = title_m.group(1).strip() if title_m else ""
    lines: list[Line] = []
    indent = 0
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    in_head = False
    for m in _TEI_TOKEN.finditer(text):
        tok = m.group()
        if tok.startswith("<pc") and '"lb"' in tok:
            if chars:
                lines.append(Line(indent, tuple(chars), tuple(spans)))
            indent, chars, spans = 0, [], []
        elif tok.startswith("<pc"):
            if not chars:
                indent += 1
        elif tok.startswith("<"):
            in_head = tok.startswith("<head") or (in_head and not tok.startswith("</head"))
        elif tok.startswith("&"):
            chars.append(ENTITY)
            spans.append((m.start(), m.end()))
        elif not tok.isspace() and not in_head:
            chars.append(tok)
            spans.append((m.start(), m.end()))
    if chars:
        lines.append(Line(indent, tuple(chars), tuple(spans)))
    return title, lines


def group_blocks(lines: list[Line]) -> list[tuple[list[Line], list[Line]]]:
    """Group lines into (classic lines, commentary lines) blocks by indentation.

    A run of column-0 lines is one classic block (a printed paragraph of the 經); the indented
    lines after it, up to the next column-0 line, are its commentary.  Lines indented by two or
    more (titles, the chapter's preface) before the first classic line are left out; the
    collection's title line (欽定四庫全書) is not classic text.
    """
    blocks: list[tuple[list[Line], list[Line]]] = []
    for line in lines:
        if line.indent == 0 and line.text.strip() in BOILERPLATE:
            continue
        if line.indent == 0:
            if blocks and not blocks[-1][1]:
                blocks[-1][0].append(line)
            else:
                blocks.append(([line], []))
        elif blocks:
            if line.indent >= 2 and not blocks[-1][1]:
                continue
            blocks[-1][1].append(line)
    return blocks


def require_classic(blocks: list[tuple[list[Line], list[Line]]], source: str) -> None:
    """Raise :class:`InputError` if no classic line was found."""
    if not blocks:
        raise InputError(f"{source}: no classic text found (no unindented line of 經)")


def is_zhushu(text: str) -> bool:
    """True for the 儀禮注疏 layout (classic and note run on in large characters)."""
    return is_mandoku(text) and bool(re.search(r"#\+TITLE:.*[注註]疏", text[:2000]))


_LABELS = {"音義": ("other", "音義"), "疏": ("shu", "疏"), "䟽": ("shu", "疏")}
"""The labels of the parenthesised layers of the 注疏 (䟽 is a variant of 疏 this edition also prints)."""


def zhushu_segments(
    lines: list[Line],
) -> list[tuple[list[tuple[str, tuple[int, int]]], list[tuple[str, str | None, list[tuple[str, tuple[int, int]]]]]]]:
    """Split the run-on 注疏 stream into blocks of (classic chars, [(layer, commentator, chars)]).

    The stream of unindented lines reads ``[○]經 注… 音義(…) 疏(…)`` again and again: the classic
    runs up to a bare 注 (鄭玄's note), the note up to 音義( or 疏(, whose parenthesised text is the
    音義 and the 疏 (a space between two parentheses of one 疏 starts nothing); after the last
    parenthesis, or at a ○ after a note, the next classic begins.  A note that no parenthesis follows
    runs on into the next classic section with no mark between them; :func:`_split_run_on_notes`
    cuts it, by the two texts around the cut alone.

    A block is the classic up to its commentary: a ○ inside the classic (``賓出主人拜送于外門外○衆主人
    出…注…``, sections with no note of their own) stays in it as a section mark, as the 述註 prints
    ○ inside a classic paragraph (the clause reader ends a clause there), so that inserting or
    deleting a ○ in the classic adds or removes no block and renumbers none after it (issue 28).
    The one exception is the chapter's title run on before the first section (``士相見之禮○贄冬用雉…``):
    the ○ after the file's first classic, before any commentary, ends block 1, the title.  And in the 喪服,
    the 傳 after an entry's 疏 continues the entry's block when no 注 stands between
    (:func:`_continues_with_its_chuan`).
    """
    models = zhushu_models()
    return _split_run_on_notes(_zhushu_marked_blocks(lines, models), models)


def _zhushu_marked_blocks(lines: list[Line], models: tuple[CharBigram, CharBigram] | None = None) -> list:  # type: ignore[type-arg]
    """The blocks of :func:`zhushu_segments` as the layout's marks (注, parentheses, ○) give them, before
    the run-on notes are cut: a block's last note may still run on into later classic sections.

    With ``models`` (``(note, classic)``), a ○ met inside 鄭玄's note starts the next classic only if the text
    after it reads as classic (:func:`_circle_opens_classic`); otherwise it stays in the note, a ○ typed into
    a note (issue 28).  Without them (learning the models, :func:`zhushu_training_texts`) every such ○
    starts the classic, as the layout prints it; on the shared corpus the two agree (every ○ after a note
    opens a classic section there)."""
    stream = [
        (c, s)
        for ln in lines
        if ln.indent == 0 and ln.text.strip() not in BOILERPLATE
        for c, s in zip(ln.chars, ln.spans, strict=False)
    ]
    reader = _MarkReader(stream, models)
    i = 0
    while i < len(stream):
        i = reader.read(i)
    reader.close_block()
    return reader.blocks


_Char = tuple[str, tuple[int, int]]


@dataclass
class _MarkReader:
    """The state of :func:`_zhushu_marked_blocks` as it reads the characters of a 注疏 chapter in order: the blocks
    made so far (each its classic characters and its notes, a note ``(kind, label, characters)``), the block being
    read, the piece being read (classic, a note, a parenthesis), how deep in parentheses, and ``mode``: ``classic``,
    ``note`` (鄭玄's 注), ``paren`` (an 音義 or a 疏), ``after`` (right after a parenthesis closes)."""

    stream: list[_Char]
    models: tuple[CharBigram, CharBigram] | None
    blocks: list[tuple[list[_Char], list[tuple[str, str | None, list[_Char]]]]] = field(default_factory=list)
    mode: str = "classic"
    depth: int = 0
    classic: list[_Char] = field(default_factory=list)
    notes: list[tuple[str, str | None, list[_Char]]] = field(default_factory=list)
    piece: list[_Char] = field(default_factory=list)
    label: tuple[str, str | None] = ("zhu", "注")

    def close_piece(self) -> None:
        """End the piece being read: classic characters join the block's classic, others are a note of it."""
        if self.piece:
            if self.mode == "classic":
                self.classic.extend(self.piece)
            else:
                self.notes.append((self.label[0], self.label[1], self.piece))
        self.piece = []

    def close_block(self) -> None:
        """End the block being read; notes with no classic of their own go to the block before."""
        self.close_piece()
        if self.classic:
            self.blocks.append((self.classic, self.notes))
        elif self.notes and self.blocks:
            self.blocks[-1][1].extend(self.notes)
        self.classic, self.notes = [], []

    def block_text(self) -> str:
        """The text of the block read so far (its classic and its notes), not the piece being read."""
        return _text_of(self.classic) + "".join(_text_of(chars) for _k, _lab, chars in self.notes)

    def read(self, i: int) -> int:
        """Read the character at ``i``; return the index of the next one to read."""
        stream = self.stream
        ch = stream[i][0]
        if self.depth > 0:
            return self._in_parentheses(i)
        ahead = "".join(c for c, _ in stream[i : i + 3])
        lab = next((k for k in _LABELS if ahead.startswith(k + "(")), None)
        if lab is not None:
            self.close_piece()
            self.mode, self.label = "paren", _LABELS[lab]
            self.piece = [stream[k] for k in range(i, i + len(lab) + 1)]
            self.depth = 1
            return i + len(lab) + 1
        if ch == "(":
            self.close_piece()
            self.mode, self.depth = "paren", 1
            self.piece = [stream[i]]
            return i + 1
        if self.mode == "after" and ch in "\u3000 ":
            return i + 1  # the space between two parentheses of one 疏 starts no classic
        if self.mode == "after" and _continues_with_its_chuan(stream, i, self.classic, self.notes):
            self.mode = "classic"  # 喪服 ○父疏(…)傳曰…: the 傳 stays in its classic's block (no 鄭注 between)
        if (
            ch == "○"
            and self.mode == "note"
            and self.models is not None
            and not _circle_opens_classic(stream, i, self.piece, self.models, self.block_text())
        ):
            self.piece.append(stream[i])  # a ○ typed inside a note, the text after it read as note: it starts nothing
            return i + 1
        if self.mode == "after" or (ch == "○" and (self.mode != "classic" or not self.blocks)):
            self.close_block()  # a ○ after a note, or the ○ after the chapter's title; a ○ in the classic starts nothing
            self.mode = "classic"
        if self.mode == "classic" and self.classic + self.piece and (ch in "注註" or _misprinted_note_mark(stream, i)):
            self.close_piece()
            self.mode, self.label = "note", ("zhu", "注")
        self.piece.append(stream[i])
        return i + 1

    def _in_parentheses(self, i: int) -> int:
        """A character inside parentheses: nested ones counted; the one that closes the last ends the piece."""
        ch = self.stream[i][0]
        if ch == "(":
            self.depth += 1
        elif ch == ")":
            self.depth -= 1
            if self.depth == 0:
                self.close_piece()
                self.mode = "after"
                return i + 1
        self.piece.append(self.stream[i])
        return i + 1


CIRCLE_PRIOR = 4.0
"""How much likelier (natural log) a note read through a ○ must be than the ○ read as the layout's mark of the next
classic section, for the ○ to stay in the note (:func:`_circle_opens_classic`, :func:`circle_margin`).  Measured
on the shared 注疏 (``benchmarks/zhushu_circles.py``): of its 56 ○ after a note that the models weigh, the
lowest margins are −5.9, −4.5, −4.4 (有司徹 ``…卒爵拜賓答拜受爵○酌致爵于主婦…``, its note run on into the classic
before the ○), yet a ○ kept in the note still ends up before the classic it marks where the cut of the run falls
at it (:func:`_past_circles`): the blocks of every chapter read as the layout marks them down to a prior of 3,
and 2 moves one cut (特牲 ``注送者送卒爵○酢如主人儀``).  4 keeps every real cut with room.  Of ○ typed at random
inside notes (the benchmark's sample), none starts a block at 4, 0 of 104 and, with ``--per-chapter 40``, 0 of 520
(5 of 520 before the rules of :func:`_circle_opens_classic` that read the texts around the ○: a one-character
note, a note read through the ○ that ends inside the text after it, commentary on a word before the ○, a person
alone before a 疏); of every third character of every note typed with a ○, 5 of 19568 (65 before)."""


def _circle_opens_classic(stream: list, i: int, piece: list, models: tuple[CharBigram, CharBigram], block: str = "") -> bool:  # type: ignore[type-arg]
    """True if the ○ at ``stream[i]``, met inside 鄭玄's note (``piece``, opened by its 注), opens the next
    classic section, as the layout's ○ does, and False if it stands inside the note (typed there).

    Decided by the texts around the ○ alone: ``before``, the note from its last bare 注 to the ○; ``after``,
    the text from the ○ to the next mark (a bare 注, a parenthesis, another ○ or the end); the parentheses
    that open at that mark; and ``block``, the text of the block before the note (its classic and its earlier
    notes).  The ○ opens the classic unless

    - ``after`` is empty (a ○ just before a mark opens nothing);
    - ``before`` has fewer than two characters: 鄭玄 writes no note of one character (none of the 2223 notes
      of the shared 注疏 that a mark closes), so the ○ cut the note short (``注執○幣以將命…``);
    - the mark after it is a 疏 on the note (``疏(注釋曰``: ``after`` ends a note, :func:`_opens_note_shu`), or a
      疏 with a part on a note follows it (``疏(釋曰…注釋曰…``, with no 注 between: :func:`_shu_on_a_note`);
    - an 音義 follows it that glosses a word of the block before the ○, not of ``after`` (:func:`_glosses_before`:
      ``…君初為之辭矣注此句宜在○明日問大夫之下音義(為于/偽反)…``);
    - ``after`` is a section too short to be one (:func:`_name_alone`: ``注將酢○主婦疏(釋曰自此盡…``);
    - reading ``before + after`` without the ○ (a whole note, or a note then a classic section, as
      :func:`best_cut` cuts it) is likelier than reading ``before`` so (a note, perhaps run on into a classic
      section, :func:`_cut_if_likelier`) and ``after`` as a classic section (:func:`circle_margin`), and that
      reading ends the note inside ``after``, the classic section beginning after the ○, not at it: the ○ stands
      in the note's last words (``注以賓○事畢賓北面揖…``, read ``以賓事畢`` | ``賓北面揖…``; on the shared 注疏 the
      note read through a real mark ends at the ○, before it, or at the next mark, never inside ``after``);
    - or reading ``before + after`` so is likelier, by more than :data:`CIRCLE_PRIOR`.

    ○ already in the note are left out of both texts (the models know no ○)."""
    text = _text_of(piece)
    start = max((k for k in range(len(text)) if _is_note_mark(text, k)), default=0)
    before = text[start + 1 :].replace("○", "")
    k = i + 1
    while k < len(stream) and not _is_mark(stream, k):
        k += 1
    after = "".join(c for c, _ in stream[i + 1 : k] if c not in "\u3000 ")
    if not after or len(before) < 2 or _opens_note_shu(stream, k) or _shu_on_a_note(stream, k):
        return False
    if _glosses_before(stream, k, block + text[:start] + before, after) or _name_alone(stream, k, after):
        return False
    margin, end = _circle_reading(before, after, models)
    if margin < 0 and 0 < end < len(after):
        return False  # the note read through the ○ ends inside ``after``: the ○ stands in its last words
    return margin + CIRCLE_PRIOR >= 0


def circle_margin(before: str, after: str, models: tuple[CharBigram, CharBigram]) -> float:
    """How much likelier (natural log) a ○ between ``before`` (a note's text, its 注 left out) and ``after`` (the text up
    to the next mark) reads as the mark of a classic section than as a ○ inside the note: ``before`` read as a
    note (or a note then a classic section) and ``after`` as a classic section, against ``before + after`` read
    as a note (or a note then a classic section).  Negative: the ○ reads better inside the note."""
    return _circle_reading(before, after, models)[0]


def _circle_reading(before: str, after: str, models: tuple[CharBigram, CharBigram]) -> tuple[float, int]:
    """:func:`circle_margin` and where the note read through the ○ (``before + after``, as
    :func:`_best_reading_and_end` reads it) ends, counted from the ○: ``0`` or less if it ends at the ○ or before
    it, ``len(after)`` if it runs on to the next mark."""
    note, classic = models
    through, end = _best_reading_and_end(before + after, note, classic)
    as_cut = _best_reading(before, note, classic) + _logp_text(classic, after)
    return as_cut - through, end - len(before)


def _parentheses_at(stream: list, k: int) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    """The parentheses that open at ``stream[k]``, as ``[(label, text)]``: each labelled one (``疏(``, ``䟽(``,
    ``音義(``) with the bare ones that follow it in a row (the layout prints a long 疏 as several parentheses,
    ``疏(注/釋)(曰…)``: one text), its text without the parentheses, the ``/`` that parts its two small columns,
    and spaces.  Empty if no labelled parenthesis opens at ``stream[k]``."""
    rows: list[tuple[str, list[str]]] = []
    j = k
    while j < len(stream):
        while j < len(stream) and stream[j][0] in "\u3000 ":
            j += 1
        ahead = "".join(c for c, _ in stream[j : j + 3])
        label = next((lab for lab in _LABELS if ahead.startswith(lab + "(")), None)
        if label is not None:
            rows.append((label, []))
            j += len(label)
        elif not rows or ahead[:1] != "(":
            break  # not a parenthesis, or a bare one that no label opened
        depth = 0
        while j < len(stream):
            ch = stream[j][0]
            depth += (ch == "(") - (ch == ")")
            j += 1
            if depth == 0:
                break
            if ch not in "()/\u3000 ":
                rows[-1][1].append(ch)
    return [(label, "".join(chars)) for label, chars in rows]


def _opens_note_shu(stream: list, k: int) -> bool:  # type: ignore[type-arg]
    """True if a 疏 (䟽) parenthesis on 鄭玄's note opens at ``stream[k]``: ``疏(注釋曰…``, "on the note, it says"
    (a ``/`` column mark or a new parenthesis may part it: ``疏(注釋/曰``, ``疏(注/釋)(曰``);
    the text just before it is the end of a note, not a classic section (whose 疏 opens 釋曰)."""
    rows = _parentheses_at(stream, k)
    return bool(rows) and _LABELS[rows[0][0]][0] == "shu" and rows[0][1].startswith("注釋曰")


def _shu_on_a_note(stream: list, k: int) -> bool:  # type: ignore[type-arg]
    """True if the parentheses that open at ``stream[k]`` (an 音義 and a 疏, each perhaps printed as several
    parentheses in a row, :func:`_parentheses_at`) hold a 疏 with a part on 鄭玄's note: ``注釋曰`` ("on the
    note, it says") after its part on the classic (``釋曰``).

    賈公彦's 疏 on a section explains the classic (``釋曰…``) and then, where the section has one, 鄭玄's note
    (``注釋曰云…者``, quoting it): 喪服 ``○女子子適人者為衆昆弟注父在則同父沒乃為父後者服期也疏(釋曰前云…注釋
    曰云父沒乃為父後者服期也者…)``.  So the text before such a 疏 ends a note; a ○ met before it, with no 注
    between, does not open a classic section of its own (one with no note of its own, whose 疏 would have no
    part on a note), and :func:`_circle_opens_classic` keeps it in the note.  On the shared 注疏, no ○ after a
    note that the models weigh has such a 疏 next (``benchmarks/zhushu_circles.py``)."""
    return any(_LABELS[label][0] == "shu" and "注釋曰" in text for label, text in _parentheses_at(stream, k))


_SHORTEST_SECTION = 3
"""The fewest characters of a classic section that a ○ opens after a note, with no note of its own, closed by its 音義
or 疏 (:func:`_name_alone`): in the shared 注疏 the shortest such section of the narrative is 不饗食 (聘禮); the
shorter ones are titles (記) and the 喪服's entries, each with its 傳 after its 疏 (父, 君, 適孫)."""


def _name_alone(stream: list, k: int, after: str) -> bool:  # type: ignore[type-arg]
    """True if ``after``, the text from a ○ to ``stream[k]``, is shorter than :data:`_SHORTEST_SECTION` and the
    parentheses of an 音義 or a 疏 open at ``stream[k]`` with no 傳 after them, and ``after`` is not the title 記.

    A classic section with no note of its own is a clause at least; a person alone (``主人``, ``主婦``) closed by
    a 疏 is the end of the note that a ○ cut: ``…取爵酌注酌者將酢○主人疏(釋曰自此盡就筵…`` is 鄭玄's
    ``酌者將酢主人``.  The 喪服's entries (``○父疏(釋曰…)傳曰爲父何以斬衰也…``, ``○君``, ``○適孫``) name the
    mourned alone, and their 傳 follows their 疏; 記 opens the 記 of a chapter (士冠禮 ``記疏(釋曰凡言記者…``)."""
    if len(after) >= _SHORTEST_SECTION or after == "記" or not _parentheses_at(stream, k):
        return False
    j = k
    while j < len(stream) and _is_mark(stream, j) and stream[j][0] not in "注註○":
        depth = 0
        while j < len(stream):  # past the label and the parenthesis that opens at stream[j]
            ch = stream[j][0]
            depth += (ch == "(") - (ch == ")")
            j += 1
            if ch == ")" and depth == 0:
                break
        while j < len(stream) and stream[j][0] in "\u3000 ":
            j += 1
    return "".join(c for c, _ in stream[j : j + 2]) not in ("傳曰", "𫝊曰")


_QUOTE = re.compile(r"^傳?釋曰云(..)")
"""賈公彦's 疏 opening on the words it explains, quoted: ``釋曰云X者`` ("it says X: …"), ``傳釋曰云X者`` on a 傳;
the group is the first two characters of X."""


def _glosses_before(stream: list, k: int, block: str, after: str) -> bool:  # type: ignore[type-arg]
    """True if the commentary that opens at ``stream[k]`` (the first of its parentheses) names first a word of
    ``block`` (the text of the block up to a ○), not of ``after`` (the text from the ○ to ``stream[k]``): an 音義's
    first headword (its first character), or the word a 疏 quotes first (``疏(釋曰云X者…``, :data:`_QUOTE`: the
    first two characters of X).

    陸德明's 音義 glosses the words of the text just before it, its first headword first (``為于/偽反``: 為, read
    于偽反): in the shared 注疏, 968 of its 982 音義 open with a character of their block (most others with a
    variant form: 爲 for 為, 説 for 說); and 114 of the 117 疏 that open ``釋曰云X者`` quote a word of their block
    (the first two characters after 云; the others a word of one character, ``云凡者``).  So commentary on a word
    before a ○ shows the ○ inside its block, typed into the note (``…君初為之辭矣注此句宜在○明日問大夫之下音義(為于/
    偽反)…``), not the mark of a classic section of its own, whose commentary would name that section's words."""
    rows = _parentheses_at(stream, k)
    if not rows:
        return False
    label, text = rows[0]
    if label == "音義":
        head = text[:1]
    else:
        quoted = _QUOTE.match(text)
        head = quoted.group(1) if quoted else ""
    return bool(head) and head not in after and head in block


def _is_mark(stream: list, k: int) -> bool:  # type: ignore[type-arg]
    """A mark of the 注疏 layout at ``stream[k]``: a ○, a parenthesis, a labelled one (疏(, 音義() or a bare 注."""
    ch = stream[k][0]
    if ch in "○(":
        return True
    ahead = "".join(c for c, _ in stream[k : k + 3])
    if any(ahead.startswith(lab + "(") for lab in _LABELS):
        return True
    return ch in "注註" and "".join(c for c, _ in stream[k + 1 : k + 2]) != "釋"


def _logp_text(model: CharBigram, text: str) -> float:
    """The natural log of ``text`` read by ``model`` as one whole text (from its start mark to its end mark)."""
    seq = CharBigram.START + text + CharBigram.END
    return sum(model.logp(a, c) for a, c in zip(seq, seq[1:], strict=False))


def _best_reading(run: str, note: CharBigram, classic: CharBigram) -> float:
    """The log-likelihood of ``run`` (a note's text, its 注 left out) read as one whole note, or as a note then a
    classic section cut where :func:`best_cut` cuts it, whichever is likelier."""
    return _best_reading_and_end(run, note, classic)[0]


def _best_reading_and_end(run: str, note: CharBigram, classic: CharBigram) -> tuple[float, int]:
    """:func:`_best_reading` of ``run`` and where its note ends in ``run``: ``len(run)`` if read as one whole
    note, else the index of the cut, the first character of the classic section."""
    whole = _logp_text(note, run)
    if len(run) < 2:
        return whole, len(run)
    text = "注" + run
    cut = best_cut(text, note, classic)
    split = _logp_text(note, text[1:cut]) + _logp_text(classic, text[cut:])
    return (whole, len(run)) if whole >= split else (split, cut - 1)


def _continues_with_its_chuan(stream: list, i: int, classic: list, notes: list) -> bool:  # type: ignore[type-arg]
    """True if the classic that starts at ``stream[i]``, after a parenthesis, is the 傳 (``傳曰``, ``𫝊曰``) of
    the classic before it, printed in the same block: that classic has commentary but no note of 鄭玄's.

    In the 喪服 the classic of each entry (``父``, ``諸侯爲天子``) is followed by 子夏's 傳 on it (``傳曰爲父何以斬衰
    也父至尊也``), both in large characters.  The 注疏 prints 賈公彦's 疏 on the entry between the two
    (``○父疏(釋曰周公設經…)傳曰爲父何以斬衰也…``): the 疏 was a book of its own, cut into the text of the
    經注 when the two were printed together, and where 鄭玄 wrote no note on the entry, the entry and its
    傳 run on in the 經注 (鄭注 edition KR1d0026: ``諸侯爲天子傳曰天子至尊也``) and the 述註 mostly prints them
    as one paragraph (``父○𫝊曰爲父何以斬衰也…``: 24 of the 40 such entries of the shared 喪服; it prints the
    16 others apart where 李光坡 keeps a 疏 on the entry alone, a choice the 注疏 does not show).  So that
    傳 continues the entry's classic and the entry's 疏 stays in the block's commentary, before the 傳's
    own; the classic piece then runs across the parenthesis (its reading leaves the parenthesis out).
    Where 鄭玄's note on the entry stands between (``○布總箭笄髽衰三年注此妻妾…疏(…)傳曰總六升…``) the 傳
    opens a block of its own, as in the 述註 (27 of the 32 such entries).
    """
    if not classic or any(layer == "zhu" for layer, _who, _chars in notes):
        return False
    return "".join(c for c, _ in stream[i : i + 2]) in ("傳曰", "𫝊曰")


def _misprinted_note_mark(stream: list, i: int) -> bool:  # type: ignore[type-arg]
    """A 疏 (䟽) at ``stream[i]`` printed where the 注 that opens 鄭玄's note belongs.

    The 注疏 of the shared corpus prints, a few times, 疏 for the bare 注 mark (覲禮 ``再拜稽首擯者延之曰升
    升成拜乃出疏擯者請之侯氏坐取圭…疏(注釋曰云侯氏坐取圭…``; 鄉射禮 ``席於尊東疏尊東明與賓夾尊也…
    疏(注釋曰上云尊於賓席之東…``): the text after it is the note that the following 疏 explains
    (its 注釋曰, "on the note, it says", quotes it), not the classic.  So a 疏 not followed by ``(``
    reads as the note mark when the next mark of the stream is a 疏 parenthesis opening with 注釋曰 and
    no 注, ○ or other parenthesis comes between; a 疏 of the classic (疏布, 疏屨) is followed by its
    section's own 注, or by a 疏 on the classic (釋曰 …).
    """
    if stream[i][0] not in "疏䟽" or stream[i + 1 : i + 2] == [] or stream[i + 1][0] == "(":
        return False
    for k in range(i + 1, len(stream)):
        ch = stream[k][0]
        if ch in "注註○(":
            return False
        if ch in "疏䟽" and k + 1 < len(stream) and stream[k + 1][0] == "(":
            return "".join(c for c, _ in stream[k + 2 : k + 5]) == "注釋曰"
    return False


class CharBigram:
    """A character bigram model of one kind of text (the classic, or 鄭玄's note), with Witten–Bell
    smoothing: ``P(c | a) = λ·n(a, c)/n(a) + (1 − λ)·P(c)``, ``λ = n(a)/(n(a) + t(a))`` where ``t(a)``
    is the number of distinct characters seen after ``a``, and ``P(c)`` the add-one unigram.

    Parameters
    ----------
    texts : Iterable[str]
        The training texts, each read with a start mark before it and an end mark after it, so the
        model knows how such a text begins and ends.
    """

    START, END = "\x02", "\x03"

    def __init__(self, texts: Iterable[str] = ()) -> None:
        pairs: Counter[tuple[str, str]] = Counter()
        for text in texts:
            seq = self.START + text + self.END
            pairs.update(zip(seq, seq[1:], strict=False))
        self._count(pairs)

    def _count(self, pairs: Counter[tuple[str, str]]) -> None:
        self._pairs = pairs
        self._after: Counter[str] = Counter()
        self._kinds: Counter[str] = Counter()
        self._chars: Counter[str] = Counter()
        for (a, c), n in pairs.items():
            self._kinds[a] += 1
            self._after[a] += n
            self._chars[c] += n
        self._total = sum(self._chars.values())
        self._alphabet = len(self._chars) + 1

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, str, int]]) -> CharBigram:
        """The model of the pair counts ``(a, c, n(a, c))`` that :meth:`pairs` gives (``n`` ≥ 1)."""
        model = cls()
        model._count(Counter({(a, c): n for a, c, n in pairs}))
        return model

    def pairs(self) -> list[tuple[str, str, int]]:
        """Every pair seen, ``(a, c, n(a, c))``, sorted by ``(a, c)``: all the model is (see :meth:`from_pairs`)."""
        return sorted((a, c, n) for (a, c), n in self._pairs.items() if n)

    def logp(self, a: str, c: str) -> float:
        """The natural log of ``P(c | a)``, ``a`` the character before ``c`` (or :attr:`START`)."""
        unigram = (self._chars.get(c, 0) + 1) / (self._total + self._alphabet)
        seen = self._after.get(a, 0)
        if not seen:
            return math.log(unigram)
        weight = seen / (seen + self._kinds[a])
        return math.log(weight * self._pairs.get((a, c), 0) / seen + (1 - weight) * unigram)


def best_cut(text: str, note: CharBigram, classic: CharBigram) -> int:
    """Where the note that opens ``text`` ends and the classic that closes it begins.

    ``text`` is the run from a bare 注 (its first character) to just before the next 注: the note,
    then the classic section the next note explains.  The cut ``j`` (``2 ≤ j < len(text)``) that
    makes ``text[1:j]`` likeliest as a whole note and ``text[j:]`` likeliest as a whole classic
    section wins (ties: the earliest); computed in one pass from running sums of the two models.
    """
    n = len(text)
    # note_run[i]: log P_note(text[1:i]) without its end; classic_tail[i]: the classic text[i:] after its first char
    note_run = [0.0] * (n + 1)
    prev = CharBigram.START
    for i in range(1, n):
        note_run[i + 1] = note_run[i] + note.logp(prev, text[i])
        prev = text[i]
    classic_tail = [0.0] * (n + 1)
    classic_tail[n - 1] = classic.logp(text[n - 1], CharBigram.END)
    for i in range(n - 2, -1, -1):
        classic_tail[i] = classic_tail[i + 1] + classic.logp(text[i], text[i + 1])
    best, cut = -math.inf, n - 1
    for j in range(2, n):
        score = note_run[j] + note.logp(text[j - 1], CharBigram.END) + classic.logp(CharBigram.START, text[j]) + classic_tail[j]
        if score > best:
            best, cut = score, j
    return cut


def _cut_if_likelier(text: str, note: CharBigram, classic: CharBigram) -> int | None:
    """Where a classic section begins in ``text`` (a run from a bare 注 to a ○ or the end), or None if ``text`` is
    likelier one whole note than the best cut of :func:`best_cut` (a note, then a classic section).

    有司徹 ``注崇充也拜謝尸侑以酒薄充滿尸侑皆答再拜主人及尸侑皆升就筵○司宮取爵…``
    (KR1d0028_017): the note of 再拜崇酒 runs on into the classic up to the ○.
    """
    n = len(text)
    whole = sum(note.logp(a, c) for a, c in zip(CharBigram.START + text[1:], text[1:] + CharBigram.END, strict=True))
    cut = best_cut(text, note, classic)
    split = sum(note.logp(a, c) for a, c in zip(CharBigram.START + text[1:cut], text[1:cut] + CharBigram.END, strict=True))
    split += sum(classic.logp(a, c) for a, c in zip(CharBigram.START + text[cut:], text[cut:] + CharBigram.END, strict=True))
    return cut if cut < n and split > whole else None


def _past_circles(text: str, cut_of: Callable[[str], int | None]) -> int | None:
    """``cut_of`` (a cut of a note's run: :func:`best_cut`, :func:`_cut_if_likelier`) applied to ``text`` with its ○
    left out, as an index into ``text``: a ○ that stayed in a note (:func:`_circle_opens_classic`) moves no cut
    (issue 28), and one just before the cut opens the classic after it, the layout's mark of a classic section
    after a note."""
    kept = [k for k, c in enumerate(text) if c != "○"]
    if len(kept) == len(text):
        return cut_of(text)
    cut = cut_of("".join(text[k] for k in kept))
    return None if cut is None else (kept[cut - 1] + 1 if cut < len(kept) else len(text))


def _is_note_mark(text: str, k: int) -> bool:
    """A bare 注 (or 註) at ``text[k]`` that opens 鄭玄's note, not the 注釋曰 of a 疏."""
    return text[k] in "注註" and text[k + 1 : k + 2] != "釋"


def _text_of(chars: list) -> str:  # type: ignore[type-arg]
    return "".join(c for c, _ in chars)


def _bare_note(layer: str, text: str) -> bool:
    return layer == "zhu" and len(text) > 1 and _is_note_mark(text, 0)


def zhushu_training_texts(lines: list[Line]) -> tuple[list[str], list[str]]:
    """The two kinds of text the 注疏 layout marks, from one file's lines: ``(classic, notes)``.

    ``classic`` holds each classic section a note closes (the classic of a block, cut at its ○
    section marks, ○ left out); ``notes`` each of 鄭玄's notes that a parenthesis or a ○ closes
    (its opening 注 left out), not the notes that run on into the next classic.  Learnt from, they
    give the models of :func:`zhushu_models`.
    """
    classic_texts: list[str] = []
    note_texts: list[str] = []
    for classic, notes in _zhushu_marked_blocks(lines):
        classic_texts.extend(part for part in _text_of(classic).split("○") if part)
        for layer, _who, chars in notes:
            text = _text_of(chars)
            if _bare_note(layer, text) and not any(_is_note_mark(text, k) for k in range(1, len(text))):
                note_texts.append(text[1:])
    return classic_texts, note_texts


ZHUSHU_MODELS = "zhushu_bigrams.json"
"""The file, in the package's ``ingest/data/``, of the two bigram models that cut the 注疏's run-on
notes: ``{"source": …, "note": {a: [cs, ns], …}, "classic": {…}}``, for each character ``a`` the characters
``cs`` (a string) seen after it and their counts ``ns`` (:meth:`CharBigram.pairs`, grouped by ``a``),
learnt once, offline, by ``benchmarks/zhushu_models.py`` from the 注疏 chapters of the shared corpus
(Kanseki Repository KR1d0028; CC BY-SA 4.0, see ``ingest/data/kanripo/SOURCES.md``)."""


def learn_zhushu_models(
    texts: Iterable[str], classic_extra: Iterable[str] = (), note_extra: Iterable[str] = ()
) -> tuple[CharBigram, CharBigram]:
    """The ``(note, classic)`` models learnt from the given 注疏 files' texts (mandoku, as decoded),
    pooled (:func:`zhushu_training_texts`), the classic model also from ``classic_extra`` and the note
    model from ``note_extra``: classic sections and 鄭玄's notes read from another edition (the 鄭注's,
    whose layout marks the one from the other), which hold the sections and notes the 注疏 runs on into
    each other and so never gives apart."""
    classic_texts: list[str] = list(classic_extra)
    note_texts: list[str] = list(note_extra)
    for text in texts:
        c, n = zhushu_training_texts(mandoku_lines(text)[1])
        classic_texts += c
        note_texts += n
    return CharBigram(note_texts), CharBigram(classic_texts)


_MODELS: list[tuple[CharBigram, CharBigram]] = []


def _model_of(grouped: dict[str, list]) -> CharBigram:  # type: ignore[type-arg]
    """A model from its pairs grouped by first character, as :data:`ZHUSHU_MODELS` stores them."""
    return CharBigram.from_pairs((a, c, int(n)) for a, (cs, ns) in grouped.items() for c, n in zip(cs, ns, strict=True))


def zhushu_models() -> tuple[CharBigram, CharBigram]:
    """The ``(note, classic)`` models shipped in :data:`ZHUSHU_MODELS`, read once.

    Raises
    ------
    InputError
        If the file is missing or unreadable (a broken installation), naming it.
    """
    if not _MODELS:
        import json
        from importlib import resources

        source = resources.files("yili.ingest") / "data" / ZHUSHU_MODELS
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
            models = (_model_of(data["note"]), _model_of(data["classic"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(f"{source}: the 注疏's note and classic models cannot be read ({exc})") from None
        _MODELS.append(models)
    return _MODELS[0]


def _split_run_on_notes(blocks: list, models: tuple[CharBigram, CharBigram]) -> list:  # type: ignore[type-arg]
    """Split the classic back out of a 注 that no 音義/疏 parenthesis closed.

    In the 注疏 layout a note that no parenthesis follows runs on into the next classic section and
    its note, with no mark between them: ``注拜使者屈辱來迎己大夫不答拜將命注不答拜爲人使也``.  A
    second bare 注 inside a note marks the next note, so a classic section stands before it; where
    it begins is decided by two fixed character bigram models ``models = (note, classic)``
    (:class:`CharBigram`, :func:`zhushu_models`): the cut makes the note before it likeliest as a
    whole note and the text after it likeliest as a whole classic section (:func:`best_cut`):
    鄭玄's glosses (``X猶Y也``, ``今文X爲Y``) read unlike the narrative of the classic.

    The block's last note, that a ○ or the end of the file closes and no parenthesis, is cut the same way
    when a note then a classic section is likelier than one whole note (:func:`_cut_if_likelier`); that
    classic opens the next block, its ○ a section mark inside the classic.

    The cut depends on the run between the two 注 alone (the note and the classic around the cut),
    never on the rest of the file: an edit elsewhere moves no cut, and a chapter reads the same
    alone or with others (issue 28).
    """
    note_model, classic_model = models
    out: list = []
    carry: list = []  # type: ignore[type-arg]
    for classic, notes in blocks:
        pending: list = [(carry + classic, [])]  # type: ignore[type-arg]
        carry = []
        for layer, who, chars in notes:
            text = _text_of(chars)
            marks = [k for k in range(2, len(text)) if _is_note_mark(text, k)] if _bare_note(layer, text) else []
            start = 0
            for k in marks:
                if k - start < 3:  # room for one character of note and one of classic
                    continue
                cut = start + _past_circles(text[start:k], lambda t: best_cut(t, note_model, classic_model))
                pending[-1][1].append((layer, who, chars[start:cut]))
                pending.append((chars[cut:k], []))
                start = k
            last = chars[start:]
            if (layer, who, chars) == notes[-1] and _bare_note(layer, text) and len(last) >= 3:
                # the block's last note, that a ○ or the end (no parenthesis) closes, may end in a classic
                # section too: it opens the next block's classic, whose ○ stays a section mark inside it (as a ○
                # inside the classic does), so that a ○ typed into run-on classic adds no block (issue 28)
                cut = _past_circles(_text_of(last), lambda t: _cut_if_likelier(t, note_model, classic_model))
                if cut is not None:
                    pending[-1][1].append((layer, who, last[:cut]))
                    carry = last[cut:]
                    continue
            pending[-1][1].append((layer, who, last))
        out.extend(pending)
    if carry:
        out.append((carry, []))  # the end of the file closed the note
    return out


_TITLE_LINE = re.compile(r"^(儀禮|仪礼)?卷[第苐]|[第苐][一二三四五六七八九十]+(\u3000|$)")
"""Title and colophon lines of a 卷: 儀禮卷第十五, 特牲饋食禮第十五　鄭氏注."""


def is_inline_notes(lines: list[Line]) -> bool:
    """True for the 鄭注 layout of 儀禮 (四部叢刊, KR1d0026): the text is in column 0 (a title may be indented) and the note
    stands in parentheses inside the classic lines (``不諏日(祭祀自孰始曰饋食/…)``), ``/`` parting its
    two small columns."""
    # Only the lines in column 0 decide: the 述註's are its classic, which never holds a parenthesis,
    # and the 鄭注's hold its notes; indented lines are the 述註's commentary, or in the 鄭注 a title
    # (鄉飲酒禮第四, the closing 　儀禮卷第十一), however few lines the file has.
    flush = [ln for ln in lines if ln.text.strip() and not ln.indent]
    with_notes = sum(1 for ln in flush if "(" in ln.text)
    return bool(flush) and with_notes * 4 >= len(flush)


def inline_note_segments(
    lines: list[Line],
) -> list[tuple[list[tuple[str, tuple[int, int]]], list[list[tuple[str, tuple[int, int]]]]]]:
    """Split the 鄭注 layout into blocks of (classic chars, [note chars, …]).

    The classic runs across lines up to a parenthesised note; the note (one or several parentheses
    in a row, across lines) is the commentary of the classic just before it, and the next classic
    character opens the next block.  The ``/`` that parts a note's two small columns and the
    parentheses themselves are layout, in no piece's reading.  Title and colophon lines (儀禮卷第十五,
    特牲饋食禮第十五　鄭氏注) are no classic; reading stops at the colophon that closes the 卷.
    """
    blocks: list[tuple[list[tuple[str, tuple[int, int]]], list[list[tuple[str, tuple[int, int]]]]]] = []
    classic: list[tuple[str, tuple[int, int]]] = []
    notes: list[list[tuple[str, tuple[int, int]]]] = []
    note: list[tuple[str, tuple[int, int]]] | None = None
    started = False

    def close() -> None:
        nonlocal classic, notes
        if classic and "".join(c for c, _ in classic).strip("○\u3000 "):
            blocks.append((classic, notes))
        elif notes and blocks:
            blocks[-1][1].extend(notes)
        classic, notes = [], []

    for ln in lines:
        if note is None and _TITLE_LINE.search(ln.text) and not ln.text.startswith("("):
            if started:
                break  # the colophon: 儀禮卷第十五 (經…字/注…字)
            continue
        for ch, sp in zip(ln.chars, ln.spans, strict=False):
            if note is not None:
                if ch == ")":
                    notes.append(note)
                    note = None
                elif ch != "/":
                    note.append((ch, sp))
                continue
            if ch == "(":
                # a note that runs on across lines is printed as several parentheses in a row: one note
                note = notes.pop() if notes else []
                continue
            if notes:
                close()
            if ch.strip("\u3000 "):
                classic.append((ch, sp))
                started = True
    if note:
        notes.append(note)
    close()
    return blocks
