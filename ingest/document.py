"""The document model: an edition's text as classic blocks with their commentary layers.

A :class:`Document` keeps the decoded input text and, for every classic block and every
commentary piece, its code-point offsets into that text (0-based, end-exclusive), so that
``document.text[piece.start:piece.end] == piece.text`` always holds.

The layout read here is the one of the embedded 燕礼 excerpt (``仪礼述注``, simplified characters;
see ``shared/docs/DOMAIN.md``): blocks separated by blank lines; the first block is the title; a
block that starts with ``注曰`` or ``X氏曰`` is commentary on the classic block before it; any other
block is classic text up to its first ``注曰``, then commentary.  Inside commentary, ``○疏曰`` opens the
subcommentary and ``○X氏曰`` another commentator.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from pathlib import Path

from yili.ontology.errors import InputError

LAYER_CLASSIC = "jing"
LAYER_NOTE = "zhu"
LAYER_SUBCOMMENTARY = "shu"
LAYER_OTHER = "other"

_CHAPTER_TITLE = re.compile(r"\S{1,10}[第苐][一二三四五六七八九十]{1,3}")
"""A chapter's title line (士冠禮第一): a text that is only this has no classic."""
_BLOCK_SEP = re.compile(r"\r?\n[ \t\u3000\r]*\r?\n|\r[ \t\u3000]*\r")
# A commentary block opens with 注曰 (鄭玄's note) or with an authority's name + 曰 (杨氏曰, 朱子曰).
_COMMENTARY_OPEN = re.compile(r"^○?(注曰|註曰|[^\s○]{1,3}氏曰|疏曰|䟽曰)")
# Inside commentary, a new layer starts at ○ followed by an authority and 曰: ○疏曰, ○杨氏曰.
_LAYER_MARK = re.compile(r"○(?=(疏曰|[^\s○曰]{1,3}氏曰|[^\s○曰]{1,3}曰))")


@dataclass(frozen=True)
class Piece:
    """A stretch of one layer of the text.

    Attributes
    ----------
    layer : str
        ``jing`` (classic), ``zhu`` (注), ``shu`` (疏) or ``other`` (another commentator).
    text : str
        The characters, exactly as in the input.
    start, end : int
        Code-point offsets into :attr:`Document.text`, 0-based, end-exclusive.
    commentator : str | None
        For ``other``: the name before 曰 (``杨氏``); ``注`` / ``疏`` for those layers.
    """

    layer: str
    text: str
    start: int
    end: int
    commentator: str | None = None
    reading: str | None = None
    spans: tuple[tuple[int, int], ...] | None = None

    @property
    def reading_text(self) -> str:
        """The piece as read: ``text`` with the print layout (line ends, page markers,
        indentation, tags) taken out.  For the blank-line layout it is ``text`` itself."""
        return self.text if self.reading is None else self.reading

    @property
    def reading_spans(self) -> tuple[tuple[int, int], ...]:
        """For each character of :attr:`reading_text`, its (start, end) span in the document."""
        if self.spans is not None:
            return self.spans
        return tuple((self.start + i, self.start + i + 1) for i in range(len(self.text)))


@dataclass(frozen=True)
class Block:
    """A classic block with the commentary that follows it.

    Attributes
    ----------
    number : int
        1, 2, … in order of the classic blocks (the numbering of ``shared/gold``).
    classic : Piece
        The classic text (经) of the block.
    commentary : tuple[Piece, ...]
        The commentary pieces attached to it, in text order.
    """

    number: int
    classic: Piece
    commentary: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class Document:
    """An edition of one rite, read into blocks.

    Attributes
    ----------
    text : str
        The whole input as decoded (offsets refer to it).
    source : str
        Where it came from (a file name, or ``<embedded>``).
    rite : str
        A stable key for the rite (``yanli`` for 燕礼), used in IRIs.
    edition : str
        A stable key for the edition (``shuzhu``, ``shuzhu-excerpt``), used in IRIs.
    title : str
        The title line, if any.
    blocks : tuple[Block, ...]
    rite_given : bool
        True if ``rite`` was given by the caller rather than made from a file name; the extractor
        then reads the text as that rite when its title names none.
    sha256 : str
        The SHA-256 of the file's bytes as read (64 lowercase hex digits), recorded in the graph's
        provenance; empty for a text not read from a file (see :attr:`digest`).
    edition_given : bool
        True if ``edition`` was given by the caller; otherwise the extractor replaces it with the
        key of the work the title names (儀禮述註 → ``shuzhu``,
        :meth:`~yili.ontology.vocabulary.Vocabulary.edition_key`), so that no IRI depends on a file name.
    """

    text: str
    source: str
    rite: str
    edition: str
    title: str
    blocks: tuple[Block, ...]
    rite_given: bool = False
    sha256: str = ""
    edition_given: bool = False

    @property
    def digest(self) -> str:
        """The SHA-256 of the file read (:attr:`sha256`), or, for a text given as a string, of the
        text encoded as UTF-8: 64 lowercase hex digits."""
        return self.sha256 or hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def block(self, number: int) -> Block:
        """Return the classic block with this number (1-based).

        Raises
        ------
        KeyError
            If there is no such block.
        """
        for b in self.blocks:
            if b.number == number:
                return b
        raise KeyError(number)


def _spans(text: str) -> list[tuple[int, int]]:
    """Blank-line separated spans of ``text``, stripped, as (start, end) code-point offsets."""
    spans = []
    pos = 0
    for m in [*_BLOCK_SEP.finditer(text), None]:
        end = m.start() if m else len(text)
        chunk = text[pos:end]
        lead = len(chunk) - len(chunk.lstrip())
        trail = len(chunk) - len(chunk.rstrip())
        if chunk.strip():
            spans.append((pos + lead, end - trail))
        if m:
            pos = m.end()
    return spans


def split_commentary(text: str, start: int) -> list[Piece]:
    """Split a stretch of commentary into layer pieces at ``○疏曰`` / ``○X氏曰`` marks.

    Parameters
    ----------
    text : str
        Commentary text beginning with ``注曰``, ``疏曰`` or ``X氏曰``.
    start : int
        Its offset in the document.

    Returns
    -------
    list[Piece]
        One piece per layer; the ``○`` that opens a layer belongs to the piece it opens.

    Examples
    --------
    >>> [(p.layer, p.text) for p in split_commentary("注曰对答○疏曰云云", 0)]
    [('zhu', '注曰对答'), ('shu', '○疏曰云云')]
    """
    cuts = [0] + [m.start() for m in _LAYER_MARK.finditer(text) if m.start() > 0] + [len(text)]
    pieces = []
    who: str | None
    for a, b in zip(cuts, cuts[1:], strict=False):
        chunk = text[a:b]
        if not chunk.strip("○ \n"):
            continue
        head = chunk.lstrip("○")
        if head.startswith(("注曰", "註曰")):
            layer, who = LAYER_NOTE, "注"
        elif head.startswith(("疏曰", "䟽曰")):  # 䟽, a variant of 疏 in the 述註
            layer, who = LAYER_SUBCOMMENTARY, "疏"
        else:
            layer, who = LAYER_OTHER, (head.split("曰", 1)[0] if "曰" in head[:5] else None)
        pieces.append(Piece(layer, chunk, start + a, start + b, who))
    return pieces


def parse_text(
    text: str, *, source: str = "<text>", rite: str = "", edition: str | None = None, rite_given: bool | None = None
) -> Document:
    """Read text in the blank-line block layout of the 述注 excerpt into a :class:`Document`.

    Parameters
    ----------
    text : str
        The decoded input.
    source : str
        A name for messages and provenance.
    rite : str
        A stable key used in IRIs.
    edition : str, optional
        A stable key for the edition, used in IRIs; by default the extractor takes the key of the
        work the title names (``shuzhu``), else ``text``.
    rite_given : bool, optional
        Whether ``rite`` names the rite (a profile key: the text is read as that rite unless its title
        names another) or is only a key for IRIs; by default, whether ``rite`` is given.  With no
        rite, the extractor detects it from the title or the cast.

    Returns
    -------
    Document

    Raises
    ------
    InputError
        If the text is empty, or holds no classic block (only a title or only commentary).
    """
    if rite_given is None:
        rite_given = bool(rite)
    doc = _parse_text(text, source=source, rite=rite or "text", edition=edition or "text", rite_given=rite_given)
    return replace(doc, edition_given=edition is not None)


def _parse_text(text: str, *, source: str, rite: str, edition: str, rite_given: bool) -> Document:
    if not text.strip():
        raise InputError(f"{source}: the file is empty")
    from yili.ingest import layouts

    if not layouts.is_mandoku(text) and text.lstrip("\ufeff \t\r\n").startswith("<"):
        layouts.check_well_formed(text, source)  # malformed XML is refused before anything is read from it
    if layouts.is_mandoku(text) or layouts.is_tei(text):
        return _parse_lines(text, source=source, rite=rite, edition=edition, rite_given=rite_given)
    if text.lstrip().startswith("<"):
        layouts.check_xml(text, source)  # XML that is not KanripoXML: say why rather than read tags as text
    spans = _spans(text)
    title_span, rest = spans[0], spans[1:]
    title = text[title_span[0] : title_span[1]]
    if not rest and not _COMMENTARY_OPEN.match(title):
        if _CHAPTER_TITLE.fullmatch(title.strip()):
            raise InputError(f"{source}: no classic text found (only the chapter title {title.strip()})")
        # A single paragraph: treat it as one classic block with no title.
        title, rest = "", spans
    blocks: list[Block] = []
    for a, b in rest:
        chunk = text[a:b]
        if _COMMENTARY_OPEN.match(chunk):
            if not blocks:
                continue  # commentary before any classic text: nothing to attach it to
            last = blocks[-1]
            blocks[-1] = Block(last.number, last.classic, last.commentary + tuple(split_commentary(chunk, a)))
            continue
        cut = chunk.find("注曰")
        classic_end = b if cut < 0 else a + cut
        classic = Piece(LAYER_CLASSIC, text[a:classic_end], a, classic_end)
        notes = tuple(split_commentary(text[classic_end:b], classic_end)) if cut >= 0 else ()
        blocks.append(Block(len(blocks) + 1, classic, notes))
    blocks = [bl for bl in blocks if bl.classic.text.strip()]
    if not blocks:
        raise InputError(f"{source}: no classic text found (only a title or commentary)")
    return Document(text, source, rite, edition, title, tuple(blocks), rite_given)


def _piece_from_chars(
    layer: str, text: str, chars: list[str], spans: list[tuple[int, int]], commentator: str | None = None
) -> Piece:
    start, end = spans[0][0], spans[-1][1]
    return Piece(layer, text[start:end], start, end, commentator, "".join(chars), tuple(spans))


def _split_commentary_reading(text: str, chars: list[str], spans: list[tuple[int, int]]) -> list[Piece]:
    """Split the reading of a commentary run into layer pieces (注/註, 疏, X氏曰)."""
    reading = "".join(chars)
    out = []
    for p in split_commentary(reading, 0):
        a, b = p.start, p.end
        while a < b and reading[a] in "\u3000 ":
            a += 1
        if a < b:
            out.append(_piece_from_chars(p.layer, text, chars[a:b], spans[a:b], p.commentator))
    return out


def _parse_lines(text: str, *, source: str, rite: str, edition: str, rite_given: bool = False) -> Document:
    """Read a printed layout (Kanripo mandoku text or KanripoXML/TEI) into a Document."""
    from yili.ingest import layouts

    if layouts.is_mandoku(text) and (juan := layouts.front_matter(text)) is not None:
        raise InputError(f"{source}: no classic text of a rite: front or back matter (its header says JUAN {juan})")
    title, lines = layouts.mandoku_lines(text) if layouts.is_mandoku(text) else layouts.tei_lines(text)
    if layouts.is_zhushu(text):
        return _parse_zhushu(text, title, lines, source=source, rite=rite, edition=edition, rite_given=rite_given)
    if layouts.is_inline_notes(lines):
        blocks = []
        for classic, notes in layouts.inline_note_segments(lines):
            piece = _piece_from_chars(LAYER_CLASSIC, text, [c for c, _ in classic], [s for _, s in classic])
            pieces = tuple(_piece_from_chars(LAYER_NOTE, text, [c for c, _ in n], [s for _, s in n], "注") for n in notes if n)
            blocks.append(Block(len(blocks) + 1, piece, pieces))
        if not blocks:
            raise InputError(f"{source}: no classic text found")
        return Document(text, source, rite, edition, title, tuple(blocks), rite_given)
    grouped = layouts.group_blocks(lines)
    layouts.require_classic(grouped, source)
    blocks: list[Block] = []
    for classic_lines, note_lines in grouped:
        chars = [c for ln in classic_lines for c in ln.chars]
        spans = [s for ln in classic_lines for s in ln.spans]
        classic = _piece_from_chars(LAYER_CLASSIC, text, chars, spans)
        notes: list[Piece] = []
        if note_lines:
            nchars = [c for ln in note_lines for c in ln.chars]
            nspans = [s for ln in note_lines for s in ln.spans]
            notes = _split_commentary_reading(text, nchars, nspans)
        blocks.append(Block(len(blocks) + 1, classic, tuple(notes)))
    return Document(text, source, rite, edition, title, tuple(blocks), rite_given)


def _parse_zhushu(
    text: str, title: str, lines: list, *, source: str, rite: str, edition: str, rite_given: bool = False
) -> Document:
    """Read the run-on 儀禮注疏 layout (see :func:`yili.ingest.layouts.zhushu_segments`)."""
    from yili.ingest import layouts

    blocks: list[Block] = []
    for classic, notes in layouts.zhushu_segments(lines):
        chars = [c for c, _ in classic]
        if not "".join(chars).strip("○\u3000 "):
            continue
        piece = _piece_from_chars(LAYER_CLASSIC, text, chars, [s for _, s in classic])
        pieces = tuple(
            _piece_from_chars(layer, text, [c for c, _ in cs], [s for _, s in cs], who) for layer, who, cs in notes if cs
        )
        blocks.append(Block(len(blocks) + 1, piece, pieces))
    if not blocks:
        raise InputError(f"{source}: no classic text found")
    return Document(text, source, rite, edition, title, tuple(blocks), rite_given)


EMBEDDED_NAME = "yili_shuzhu_yanli_excerpt.txt"

EMBEDDED_EDITION = "shuzhu-excerpt"
"""The edition key of the embedded excerpt (an excerpt of the 述注 has its own key: its blocks are
not numbered as the whole chapter's), also when the same text is read from a file."""

MAX_INPUT_BYTES = 4 * 2**20
"""The largest input file read, in bytes (4 MiB): a chapter with its 注疏 is under 1 MiB, the whole
three-edition corpus 2.5 MiB.  A build holds about 1 GB of memory per MiB of text (15 GB for a 15 MiB
file, measured), so a larger file is refused with a clear error rather than read for many minutes
into a memory the machine may not have."""


def embedded_bytes() -> bytes:
    """Return the embedded default input's file as stored: the 燕礼 excerpt of 仪礼述注, UTF-8."""
    from importlib import resources

    return (resources.files("yili.ingest") / "data" / EMBEDDED_NAME).read_bytes()


def embedded_text() -> str:
    """Return the embedded default input: the 燕礼 excerpt of 仪礼述注, decoded."""
    return embedded_bytes().decode("utf-8-sig")


def read_file(path: str | Path, *, rite: str | None = None, edition: str | None = None) -> Document:
    """Read an input file into a :class:`Document`.

    Parameters
    ----------
    path : str or Path
    rite, edition : str, optional
        Stable keys for IRIs.  By default the extractor takes the rite's key from the title or the
        cast (``yanli``) and the edition's from the work the title names (``shuzhu``); the embedded
        excerpt's text is edition ``shuzhu-excerpt``; only a text whose title names no known rite or
        work falls back on its file name.

    Raises
    ------
    InputError
        The file is missing, is a directory, is not a regular file (a FIFO, a device such as
        /dev/zero), is larger than :data:`MAX_INPUT_BYTES`, is not UTF-8 (the message gives the byte
        offset), is empty, or has no classic text.
    """
    p = Path(path)
    if not p.exists():
        if p.is_symlink():
            raise InputError(f"{p}: a symbolic link that leads nowhere (a loop, or its target is missing)")
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p}: is a directory, not a text file")
    if not p.is_file():
        raise InputError(f"{p}: not a regular file (a pipe or a device): give a text file")
    size = p.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise InputError(
            f"{p}: {size / 2**20:.1f} MiB is more than the {MAX_INPUT_BYTES // 2**20} MiB a text may have "
            "(the longest chapter of the 儀禮 with its commentary is under 1 MiB)"
        )
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot read: {exc.strerror}") from None
    try:
        # a byte-order mark is not part of the text: offsets count from the first character after it
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: not UTF-8 text (invalid byte 0x{raw[exc.start]:02x} at byte offset {exc.start})") from None
    if "\x00" in text:
        raise InputError(f"{p}: binary file (contains NUL characters), not a text")
    stem = p.stem
    if edition is None and text == embedded_text():
        edition = EMBEDDED_EDITION  # the embedded excerpt, wherever it is read from, has the same IRIs
    doc = parse_text(
        text,
        source=str(p),
        rite=rite or _rite_key(stem),
        edition=edition or _edition_key(stem),
        rite_given=rite is not None,
    )
    return replace(doc, sha256=hashlib.sha256(raw).hexdigest(), edition_given=edition is not None)


def _rite_key(stem: str) -> str:
    """A key for a text whose rite is not detected: its file name, as an IRI path segment."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-").lower() or "text"


def _edition_key(stem: str) -> str:
    """A key for an edition whose title names no work of the vocabulary (``ykv:works``): its file
    name, as an IRI path segment.  The extractor replaces it with the work's key when the title
    names one (:meth:`~yili.ontology.vocabulary.Vocabulary.edition_key`)."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-").lower() or "edition"


def load_default() -> Document:
    """Return the embedded 燕礼 excerpt as a :class:`Document` (edition ``shuzhu-excerpt``; it has no
    title, and the extractor recognises the 燕禮 from its cast)."""
    raw = embedded_bytes()
    doc = parse_text(raw.decode("utf-8-sig"), source=EMBEDDED_NAME, edition=EMBEDDED_EDITION)
    return replace(doc, sha256=hashlib.sha256(raw).hexdigest(), edition_given=True)


_PAREN_LAYOUT = str.maketrans("", "", "()/")


def plain_reading(piece: Piece) -> str:
    """The piece as a reader reads it: :attr:`Piece.reading_text` with the marks of the 注疏's
    double-column small print taken out too, the parentheses that open and close a printed line of
    音義 or 疏 and the ``/`` between its two columns (``疏(釋曰…主人/有事故…`` → ``疏釋曰…主人有事故…``).
    A piece in no parenthesis (the blank-line layout, the 述註, the 鄭注's reading) is returned as
    read.  The result is text to show and search, not to take offsets in: a ``(`` or ``/`` taken out
    shifts what follows by one code point against :attr:`Piece.reading_spans`."""
    reading = piece.reading_text
    if piece.reading is None or "(" not in reading:
        return reading
    return reading.translate(_PAREN_LAYOUT)


def commentary_statements(document: Document, block: Block) -> tuple[Piece, ...]:
    """The commentary on ``block`` one statement a piece: the 注疏 prints a 疏 (or an 音義) as a
    parenthesis per printed line, ``疏(…)¶ (…)¶ (…)``, which the reader keeps as one piece each; here a
    piece that opens with a bare ``(`` (no 疏 or 音義 label) continues the statement before it, of the
    same layer, and is joined to it.

    Returns
    -------
    tuple[Piece, ...]
        Pieces in text order; a joined one spans (``start``, ``end``: code points into
        ``document.text``) from the first line's start to the last's end, its ``text`` is that slice
        of the file (layout and all), its ``reading`` the lines' readings joined (see
        :func:`plain_reading` for the text to show) and its ``spans`` theirs.  Other layouts' pieces
        are returned as they are.
    """
    out: list[Piece] = []
    for piece in block.commentary:
        previous = out[-1] if out else None
        if (
            previous is not None
            and piece.reading_text.startswith("(")
            and previous.layer == piece.layer
            and previous.commentator == piece.commentator
        ):
            out[-1] = Piece(
                previous.layer,
                document.text[previous.start : piece.end],
                previous.start,
                piece.end,
                previous.commentator,
                previous.reading_text + piece.reading_text,
                previous.reading_spans + piece.reading_spans,
            )
        else:
            out.append(piece)
    return tuple(out)
