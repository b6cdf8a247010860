"""The stages (節) of a rite as 楊復's 儀禮圖 (Song) cuts them, and which steps of an edition each holds.

楊復 prints the classic of each rite with 鄭注 in parentheses and closes every stage with a title line
``右…`` standing between blank lines (``右筮于廟門``, ``右戒賔``): the traditional division of a rite into
its 節.  He also moves text: the words of the 辭 and the 記's notes stand in the stage they belong to,
not at the chapter's end as in the editions.  So a step belongs to the stage whose classic text holds
its own, found by aligning 儀禮圖's classic with the edition's (:func:`align`), not by position.

This module reads text and returns plain records; it knows no RDF (``graph/stages.py`` writes them).

Offsets are Unicode code points into the decoded file, 0-based, end-exclusive.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from yili.ingest.layouts import page_at, page_markers, reading_chars
from yili.ingest.steps import Step
from yili.ontology.errors import InputError
from yili.ontology.variants import variant_forms

WORK = "儀禮圖"
"""The work the stages come from: 楊復, 儀禮圖 (Kanripo KR1d0032, 四庫全書文淵閣本)."""

MAX_BYTES = 4 * 1024 * 1024
"""The largest 儀禮圖 file read (the biggest 卷, 士喪禮, is some 200 KB)."""

MIN_MOVED = 6
"""The shortest run of 儀禮圖's classic, left unmatched by the aligned pass, looked for anywhere in the
edition (the 辭 and 記 that 楊復 moved into a stage); shorter runs match by chance."""

OPENING_TOLERANCE = 2
"""How many characters (of the edition's classic, notes and marks left out) the first step of a stage
may begin before or after where 楊復's stage opens and still count as the same boundary."""

_TITLE_ORDINAL = re.compile(r"^(.+?)[第苐弟][一二三四五六七八九十]+")
_JUAN = re.compile(r"^#\+PROPERTY:\s*JUAN\s+(\S+)", re.M)
_NOTE = re.compile(r"\(([^()]*)\)")


@dataclass(frozen=True)
class StageText:
    """One stage of 儀禮圖, as 楊復 prints it.

    Attributes
    ----------
    number : int
        1-based, in 楊復's order.
    title : str
        The title as written, 右 and 楊復's parenthesised remark left out (``筮于廟門``).
    remark : str | None
        The parenthesised remark after the title (``右致館(朱先生曰此致止謂致館耳…)``), or None.
    text : str
        The classic text of the stage as read: the print layout, 鄭注 and every other parenthesised note
        taken out; ``○`` kept where 楊復 joins passages.
    page : str | None
        The page of the title line (``KR1d0032_WYG_001-2b``), as its page marker names it.
    juan : str
        The 卷 (``卷一``), from the file's ``JUAN`` property.
    char_start, char_end : int
        The title line's span in the file (``右`` to the end of the line, ``¶`` left out).
    """

    number: int
    title: str
    remark: str | None
    text: str
    page: str | None
    juan: str
    char_start: int
    char_end: int


@dataclass(frozen=True)
class StageBook:
    """The stages of one rite in 儀禮圖.

    Attributes
    ----------
    source : str
        The file read (its name).
    chapter : str
        The rite's name as the chapter heading writes it (``士冠禮``).
    juan : str
        The 卷 (``卷一``).
    stages : tuple[StageText, ...]
    """

    source: str
    chapter: str
    juan: str
    stages: tuple[StageText, ...]


def parse_stage_book(text: str, source: str = "<text>") -> StageBook:
    """Read one 卷 of 儀禮圖 (Kanripo mandoku text) into its stages.

    A stage is the classic text (lines in column 0) up to a title line: a line ``右…`` followed by a
    blank line (``¶`` alone; page markers do not count), mostly with one before it too (``右筮于廟門``);
    of two such lines in a row, the first is classic that opens with 右 (鄉飲酒 ``…介¶右再拜崇酒…¶``,
    the title ``右介酢主人`` follows).  Indented lines (the 卷's heading) and
    the ``欽定四庫全書`` line are not classic; everything in parentheses (鄭注, 音, 疏, 楊復's 今案) is
    note.  Text after the last title (楊復's closing essays, the 義 of the 禮記) belongs to no stage.

    Parameters
    ----------
    text : str
        The decoded file.
    source : str
        A name for messages and for :attr:`StageBook.source`.

    Returns
    -------
    StageBook

    Raises
    ------
    InputError
        No chapter heading (``…第N``) or no title line: not a 卷 of 儀禮圖.
    """
    markers = page_markers(text)
    juan_m = _JUAN.search(text)
    juan = juan_m.group(1) if juan_m else ""
    rows = _printed_rows(text)
    chapter = ""
    stages: list[StageText] = []
    chars: list[str] = []
    for k, (start, end, body) in enumerate(rows):
        if _blank_row(rows, k) or body.startswith("\u3000") or body.replace("¶", "") == "欽定四庫全書":
            continue
        if _is_title_row(rows, k):
            stages.append(_stage_text(text, rows[k], len(stages) + 1, "".join(chars), page_at(markers, start), juan))
            chars = []
            continue
        line_chars = reading_chars(text, start, end)[0]
        if not chapter and (m := _TITLE_ORDINAL.match(_strip_notes("".join(line_chars)))):
            chapter = m.group(1)
            continue  # the chapter heading (士冠禮第一) is no step of the rite
        chars.extend(line_chars)
    if not chapter or not stages:
        raise InputError(f"{source}: no chapter heading (…第N) or no stage title (右…): not a 卷 of 儀禮圖")
    return StageBook(source=source, chapter=chapter, juan=juan, stages=tuple(stages))


def _printed_rows(text: str) -> list[tuple[int, int, str]]:
    """The printed lines of a 卷 of 儀禮圖: ``(start, end, body)`` of each (code-point offsets into
    ``text``, the line break out), leaving out ``#`` header lines and lines holding a page marker alone."""
    rows: list[tuple[int, int, str]] = []
    pos = 0
    for raw in text.splitlines(keepends=True):
        start, end = pos, pos + len(raw.rstrip("\r\n"))
        pos += len(raw)
        body = text[start:end]
        if body.startswith("#") or re.fullmatch(r"\s*<pb:[^>]*>¶?\s*", body):
            continue
        rows.append((start, end, body))
    return rows


def _blank_row(rows: list[tuple[int, int, str]], k: int) -> bool:
    """True if row ``k`` of :func:`_printed_rows` is blank (only ``¶`` and spaces), or out of range."""
    return k < 0 or k >= len(rows) or rows[k][2].replace("¶", "").strip(" \u3000\t") == ""


def _title_candidate(rows: list[tuple[int, int, str]], k: int) -> bool:
    """True if row ``k`` opens with 右 and a blank row follows it."""
    return rows[k][2].startswith("右") and _blank_row(rows, k + 1) and not _blank_row(rows, k)


def _is_title_row(rows: list[tuple[int, int, str]], k: int) -> bool:
    """True if row ``k`` is a stage title: 右 + a blank line.  A line of classic that happens to open
    with 右 (介¶右再拜崇酒…¶) is followed by the title itself after the blank line, so of two in a row
    only the second is a title."""
    if not _title_candidate(rows, k):
        return False
    n = k + 1
    while n < len(rows) and _blank_row(rows, n):
        n += 1
    return not (n < len(rows) and _title_candidate(rows, n) and not _blank_row(rows, k - 1))


def _stage_text(text: str, row: tuple[int, int, str], number: int, classic: str, page: str | None, juan: str) -> StageText:
    """The stage whose title is ``row`` (``右…``, a remark in parentheses), its classic ``classic``
    (notes still in: they are stripped here), numbered ``number`` (1-based) in its 卷."""
    start, end, body = row
    line = "".join(reading_chars(text, start, end)[0])
    remark_m = _NOTE.search(line)
    return StageText(
        number=number,
        title=_NOTE.sub("", line)[1:],
        remark=remark_m.group(1) if remark_m else None,
        text=_strip_notes(classic),
        page=page,
        juan=juan,
        char_start=start,
        char_end=start + len(body.rstrip("¶")),
    )


def read_stage_book(path: str | Path) -> StageBook:
    """Read a 卷 of 儀禮圖 from ``path`` (:func:`parse_stage_book`).

    Raises
    ------
    InputError
        The file is missing, not a regular file, over :data:`MAX_BYTES`, not UTF-8, or not a 卷 of
        儀禮圖 (the message names the file).
    """
    p = Path(path)
    try:
        if not p.is_file():
            raise InputError(f"{p}: not a file")
        if p.stat().st_size > MAX_BYTES:
            raise InputError(f"{p}: over {MAX_BYTES // (1024 * 1024)} MiB, not a 卷 of 儀禮圖")
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read: {exc.strerror}") from None
    return parse_stage_book(text, p.name)


def read_stage_books(folder: str | Path) -> list[StageBook]:
    """Every 卷 of 儀禮圖 in ``folder`` that holds stages (``*.txt``, in name order); the front matter
    and the 旁通圖, which have none, are left out.

    Raises
    ------
    InputError
        ``folder`` is not a folder, or holds no 卷 with stages.
    """
    d = Path(folder)
    if not d.is_dir():
        raise InputError(f"{d}: not a folder of 儀禮圖 text")
    books = []
    for p in sorted(d.glob("*.txt")):
        try:
            books.append(read_stage_book(p))
        except InputError as exc:
            if "no chapter heading" not in str(exc):
                raise
    if not books:
        raise InputError(f"{d}: no 卷 of 儀禮圖 with stages (右… title lines)")
    return books


def _strip_notes(s: str) -> str:
    """``s`` with everything in parentheses taken out (nested or left open at the end alike)."""
    out = []
    depth = 0
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _fold(ch: str) -> str:
    """The usual form of a character (``ontology/variants.tsv``: 賔 → 賓, 荅 → 答)."""
    forms = variant_forms().get(ch)
    return forms[0] if forms else ch


def _letter(ch: str) -> bool:
    """A character of the text proper: not a mark (○), space, slash or parenthesis."""
    return not ch.isascii() and ch not in "○〇\u3000¶、。，"


@dataclass(frozen=True)
class EditionStage:
    """A stage of 儀禮圖 as it falls in one edition.

    Attributes
    ----------
    number : int
        The stage's number in 楊復's order (:attr:`StageText.number`).
    title, remark, page, juan :
        As :class:`StageText`.
    steps : tuple[int, ...]
        The sequence numbers of the edition's steps in the stage, ascending; never empty.
    first, last : int
        The first and last of ``steps`` (a stage 楊復 joined from two places of the edition, a passage
        and its 辭 or 記, holds steps of other stages between them).
    opening_found : bool
        True if the beginning of 楊復's stage was found in the edition's classic.
    opening_matched : bool
        True if the step that holds the letter where 楊復's stage begins is the stage's first step.
    opening_exact : bool
        True if moreover that step begins there (within :data:`OPENING_TOLERANCE` letters): false
        where the extractor's clause runs across 楊復's boundary (士喪 ``乃就次朔月奠…``).
    """

    number: int
    title: str
    remark: str | None
    page: str | None
    juan: str
    steps: tuple[int, ...]
    first: int
    last: int
    opening_found: bool
    opening_matched: bool
    opening_exact: bool


@dataclass(frozen=True)
class StageAlignment:
    """The stages of one edition of a rite.

    Attributes
    ----------
    book : StageBook
    stages : tuple[EditionStage, ...]
        In 楊復's order; a stage none of whose text was found in the edition is left out.
    openings : int
        How many of 楊復's stages there are.
    matched : int
        How many of them open in the first step of a stage (:attr:`EditionStage.opening_matched`).
    exact : int
        How many of them open exactly where the first step of a stage begins
        (:attr:`EditionStage.opening_exact`).
    aligned : float
        The share of 儀禮圖's classic characters found in the edition (0–1).
    """

    book: StageBook
    stages: tuple[EditionStage, ...]
    openings: int
    matched: int
    exact: int
    aligned: float

    @property
    def share(self) -> float:
        """``matched / openings`` (0.0 for a book with no stage)."""
        return self.matched / self.openings if self.openings else 0.0

    def stage_of(self) -> dict[int, EditionStage]:
        """Step sequence number → its stage."""
        return {seq: st for st in self.stages for seq in st.steps}


def _edition_letters(blocks, steps: tuple[Step, ...]) -> tuple[str, list[int]]:  # type: ignore[no-untyped-def]
    """The edition's classic as one folded string of letters, and for each letter the sequence
    number of the step whose span holds it (0 for a letter in no step: a heading)."""
    starts = [s.char_start for s in steps]
    letters: list[str] = []
    owner: list[int] = []
    for block in blocks:
        for ch, (a, _b) in zip(block.classic.reading_text, block.classic.reading_spans, strict=True):
            if not _letter(ch):
                continue
            k = bisect_right(starts, a) - 1
            letters.append(_fold(ch))
            owner.append(steps[k].sequence if k >= 0 and a < steps[k].char_end else 0)
    return "".join(letters), owner


def align(book: StageBook, blocks, steps: tuple[Step, ...]) -> StageAlignment:  # type: ignore[no-untyped-def]
    """Assign every step of an edition to the stage of ``book`` whose classic text holds its own.

    Both texts are read as letters (marks, notes and layout out) with variant characters folded
    (``ontology/variants.tsv``).  :class:`difflib.SequenceMatcher` aligns 儀禮圖's classic with the
    edition's in order; a run of at least :data:`MIN_MOVED` letters it leaves unmatched is then looked
    for anywhere in the edition's unmatched letters (the 辭 and 記 that 楊復 moved into a stage).  A
    step takes the stage most of its matched letters fall in (the earlier stage on a tie); a step none
    of whose letters matched (a sentence 楊復 does not print) takes the stage of the step before it, or
    for the first steps, of the first step after them that has one.

    Parameters
    ----------
    book : StageBook
    blocks : sequence of :class:`~yili.ingest.document.Block`
        The edition's blocks (for their classic reading text and its spans).
    steps : tuple[Step, ...]
        The edition's steps, in order (``steps[i].sequence == i + 1``).

    Returns
    -------
    StageAlignment
        Every step is in exactly one stage when ``steps`` is not empty and any letter matched.
    """
    edition, owner = _edition_letters(blocks, steps)
    yang, ystage, ystart = _book_letters(book)
    y_to_e, in_order = _matched_letters(yang, edition)
    e_stage = [0] * len(edition)
    for y, e in y_to_e.items():
        e_stage[e] = ystage[y]
    seqs = [s.sequence for s in steps]
    stage_of = _step_stages(owner, e_stage, seqs)
    members: dict[int, list[int]] = {}
    for s in seqs:
        if s in stage_of:
            members.setdefault(stage_of[s], []).append(s)
    first_e: dict[int, int] = {}
    for e, seq in enumerate(owner):
        if seq and seq not in first_e:
            first_e[seq] = e
    out: list[EditionStage] = []
    matched = exactly = 0
    for st in book.stages:
        opening = _opening(ystart[st.number], st.number, ystage, y_to_e, in_order)
        mine = members.get(st.number, [])
        ok = exact = False
        if opening is not None and mine:
            ok, exact = _opens_at(opening, mine[0], owner, first_e)
        matched += ok
        exactly += exact
        if mine:
            out.append(
                EditionStage(
                    number=st.number,
                    title=st.title,
                    remark=st.remark,
                    page=st.page,
                    juan=st.juan,
                    steps=tuple(mine),
                    first=mine[0],
                    last=mine[-1],
                    opening_found=opening is not None,
                    opening_matched=ok,
                    opening_exact=exact,
                )
            )
    aligned = len(y_to_e) / len(yang) if yang else 0.0
    return StageAlignment(
        book=book, stages=tuple(out), openings=len(book.stages), matched=matched, exact=exactly, aligned=aligned
    )


def _book_letters(book: StageBook) -> tuple[str, list[int], dict[int, int]]:
    """楊復's classic as one folded string of letters (:func:`_letter`, :func:`_fold`), the stage number
    of each letter, and the index of each stage's first letter (by stage number)."""
    ystage: list[int] = []
    yletters: list[str] = []
    ystart: dict[int, int] = {}
    for st in book.stages:
        ystart[st.number] = len(yletters)
        for ch in st.text:
            if _letter(ch):
                yletters.append(_fold(ch))
                ystage.append(st.number)
    return "".join(yletters), ystage, ystart


def _matched_letters(yang: str, edition: str) -> tuple[dict[int, int], frozenset[int]]:
    """Which letter of the edition each letter of 楊復's text matches (index → index), and the letters
    of his text matched in the order of both texts (not moved).

    :class:`difflib.SequenceMatcher` aligns the two in order; then each run of at least
    :data:`MIN_MOVED` of his letters left unmatched (a passage he moved) is looked for among the
    edition's unmatched letters, keeping matches of :data:`MIN_MOVED` letters or more."""
    matcher = SequenceMatcher(None, yang, edition, autojunk=False)
    y_to_e: dict[int, int] = {}
    e_taken = [False] * len(edition)
    for a, b, n in matcher.get_matching_blocks():
        for i in range(n):
            y_to_e[a + i] = b + i
            e_taken[b + i] = True
    in_order = frozenset(y_to_e)
    runs = _unmatched_runs(yang, y_to_e)
    if runs:
        free = [k for k in range(len(edition)) if not e_taken[k]]
        free_text = "".join(edition[k] for k in free)
        mover = SequenceMatcher(None, "", free_text, autojunk=False)
        for i, j in runs:
            mover.set_seq1(yang[i:j])
            for a, b, n in mover.get_matching_blocks():
                if n < MIN_MOVED:
                    continue
                for t in range(n):
                    e = free[b + t]
                    if not e_taken[e]:
                        y_to_e[i + a + t] = e
                        e_taken[e] = True
    return y_to_e, in_order


def _unmatched_runs(yang: str, y_to_e: dict[int, int]) -> list[tuple[int, int]]:
    """The runs ``(start, end)`` (end-exclusive letter indexes) of at least :data:`MIN_MOVED` letters of
    ``yang`` that ``y_to_e`` leaves unmatched, in order."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(yang):
        if i in y_to_e:
            i += 1
            continue
        j = i
        while j < len(yang) and j not in y_to_e:
            j += 1
        if j - i >= MIN_MOVED:
            runs.append((i, j))
        i = j
    return runs


def _step_stages(owner: list[int], e_stage: list[int], seqs: list[int]) -> dict[int, int]:
    """Each step's stage (sequence number → stage number): the stage most of its matched letters fall in
    (``owner[e]`` the step of edition letter ``e``, ``e_stage[e]`` its stage, 0 for none; the earlier
    stage on a tie); a step with no matched letter takes the stage of the step before it, or for the
    first steps, of the first step that has one.  Empty if no letter matched."""
    votes: dict[int, Counter[int]] = {}
    for e, seq in enumerate(owner):
        if seq and e_stage[e]:
            votes.setdefault(seq, Counter())[e_stage[e]] += 1
    stage_of: dict[int, int] = {}
    for seq, counter in votes.items():
        best = max(counter.values())
        stage_of[seq] = min(n for n, c in counter.items() if c == best)
    known = [s for s in seqs if s in stage_of]
    if known:
        current = stage_of[known[0]]
        for s in seqs:
            if s in stage_of:
                current = stage_of[s]
            else:
                stage_of[s] = current
    return stage_of


def _opens_at(opening: tuple[int, int], first: int, owner: list[int], first_e: dict[int, int]) -> tuple[bool, bool]:
    """Whether step ``first`` is where a stage opening at ``opening`` (:func:`_opening`: an edition
    letter, and how many of 楊復's letters before it did not match) begins.

    Returns
    -------
    (holds, exact) : tuple[bool, bool]
        ``holds``: the step that holds that letter (or, when no step holds it, words the extractor
        reads as no step, the next step after it) is ``first``; or that step belongs to the stage
        before and ``first`` is the very next step: the extractor's clause runs across 楊復's boundary
        (鄉射 ``皆如三耦以反位司射猶`` | ``挾一个``; 士喪 ``…闔門主人揖`` | ``就次``), so the nearest step
        boundary after the opening is where the stage begins.  ``exact``: the step that holds the
        letter is ``first`` and begins at most :data:`OPENING_TOLERANCE` letters, or as many as 楊復 has
        unmatched, before it (a step that begins further back also holds the end of the stage before).
    """
    at, unmatched = opening
    k = max(0, min(at, len(owner) - 1))
    while k < len(owner) and owner[k] == 0:
        k += 1
    if k >= len(owner):
        return False, False
    if owner[k] == first:
        return True, first_e[first] >= at - max(OPENING_TOLERANCE, unmatched)
    # the opening falls inside a step that runs on from the stage before: does the stage begin at the next step?
    holder = owner[k]
    j = k
    while j < len(owner) and owner[j] in (holder, 0):
        j += 1
    return j < len(owner) and owner[j] == first == holder + 1 and first_e.get(holder, at) < at, False


def _opening(
    start: int, number: int, ystage: list[int], y_to_e: dict[int, int], in_order: frozenset[int] | None = None
) -> tuple[int, int] | None:
    """Where in the edition's letters 楊復's stage ``number`` begins, and how sure: the edition letter
    that the first letter of the stage's first run of four letters matched in a row aligns with, and
    how many of 楊復's letters come before that run (0 when the stage's first letter matched; a variant,
    a 記 or a word 楊復 adds, or his own 今案 that opens a stage outside parentheses, make more);
    None if no such run is in the stage.

    A run matched in the order of both texts (``in_order``: the first pass of :func:`align`) is taken
    before one found by the search for moved passages: a stage opens where it stands in the narrative,
    and words of 楊復's own that quote the 記 (鄉射 三耦初射 opens with his 今案 …記曰適堂西皆出入于司馬之南)
    would otherwise place it at the 記."""
    for allowed in ((in_order,) if in_order is not None else ()) + (None,):
        k = start
        while k < len(ystage) and ystage[k] == number:
            if all(
                k + t in y_to_e and y_to_e[k + t] == y_to_e[k] + t and (allowed is None or k + t in allowed) for t in range(4)
            ):
                return y_to_e[k], k - start
            k += 1
    return None


def book_for(books: list[StageBook], names: tuple[str, ...]) -> StageBook | None:
    """The book whose chapter heading is one of ``names`` (a rite's title forms, as written in the
    editions), variants folded; None if 儀禮圖 does not cover the rite here."""
    folded = {"".join(_fold(c) for c in n) for n in names}
    for b in books:
        if "".join(_fold(c) for c in b.chapter) in folded:
            return b
    return None
