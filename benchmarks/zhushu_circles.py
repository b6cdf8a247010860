"""A ○ inside a 注疏 note: does it start a block?  Measures the choice of :data:`yili.ingest.layouts.CIRCLE_PRIOR`.

In the 注疏 layout a ○ after 鄭玄's note marks the next classic section; a ○ typed inside a note should not start a
block (issue 28: an edit, a ○ included, renames nothing outside its block).  The reader lets the models decide
(:func:`yili.ingest.layouts._circle_opens_classic`): the ○ starts the classic unless the note read through it is
likelier, by more than the prior, than the note ended there and a classic section after it
(:func:`yili.ingest.layouts.circle_margin`).  This script prints

- for every ○ of the shared 注疏 chapters that follows a note (real marks of the layout), the lowest margins
  (a real mark whose margin is below ``-prior`` stays in the note, and its classic is then found by the cut of
  the run alone);
- for each prior of ``--priors``: how many blocks of the shared chapters read otherwise than with every ○ after
  a note taken as the layout's mark (real cuts lost), and, of a seeded sample of ○ typed inside the notes
  (``--per-chapter`` per chapter, at a random character of a random note of 鄭玄's, not its first or last), how
  many change a block other than their own (its number, classic or commentary).

- with ``--every N``: of a ○ typed before every Nth character of every note, how many the reader decides open a
  classic section (:func:`decided_openings`, the decision alone, no chapter read again).

Usage: ``python benchmarks/zhushu_circles.py [KR1d0028_DIR] [--per-chapter N] [--priors 4,6,8] [--every 3]``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from yili.ingest import layouts
from yili.ingest.document import parse_text

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "kanripo" / "KR1d0028"


def chapters(folder: Path) -> list[Path]:
    """The 注疏 chapters of ``folder`` (``KR1d0028_*.txt``, sorted), front matter left out."""
    return [p for p in sorted(folder.glob("KR1d0028_*.txt")) if layouts.front_matter(p.read_text(encoding="utf-8")) is None]


def real_margins(files: list[Path]) -> list[tuple[float, str, str]]:
    """``(margin, file, text around the ○)`` of every ○ after a note that the models weigh, lowest first."""
    seen: list[tuple[float, str, str]] = []
    original = layouts._circle_reading
    name = ""

    def recording(before: str, after: str, models):  # type: ignore[no-untyped-def]
        margin, end = original(before, after, models)
        seen.append((margin, name, f"{before[-10:]}○{after[:12]}"))
        return margin, end

    layouts._circle_reading = recording
    try:
        for p in files:
            name = p.name
            parse_text(p.read_text(encoding="utf-8"), source=p.name)
    finally:
        layouts._circle_reading = original
    return sorted(seen)


def typed_circles(files: list[Path], per_chapter: int) -> list[tuple[Path, int, int]]:
    """A seeded sample: ``(file, block number, offset)`` of a ○ typed inside a note of 鄭玄's of the block."""
    out = []
    for p in files:
        doc = parse_text(p.read_text(encoding="utf-8"), source=p.name)
        rng = random.Random(p.name)
        notes = [
            (b.number, piece)
            for b in doc.blocks[1:-1]
            for piece in b.commentary
            if piece.layer == "zhu" and piece.reading_text[:1] in "注註" and len(piece.reading_spans) > 4
        ]
        for _ in range(per_chapter):
            number, piece = rng.choice(notes)
            spans = piece.reading_spans
            out.append((p, number, spans[rng.randint(2, len(spans) - 2)][0]))
    return out


def renames_outside(path: Path, number: int, at: int) -> bool:
    """True if the ○ typed at ``at`` changes a block other than ``number``: the numbering, a classic or a commentary."""
    text = path.read_text(encoding="utf-8")
    before = parse_text(text, source=path.name).blocks
    after = parse_text(text[:at] + "○" + text[at:], source=path.name).blocks
    if [b.number for b in after] != [b.number for b in before]:
        return True
    return any(
        (new.classic.reading_text, [p.reading_text for p in new.commentary])
        != (old.classic.reading_text, [p.reading_text for p in old.commentary])
        for old, new in zip(before, after, strict=True)
        if old.number != number
    )


def decided_openings(files: list[Path], every: int) -> tuple[list[str], int]:
    """The reader's decision alone at a ○ typed before every ``every``-th character of every note of 鄭玄's (not its
    first two nor its last): ``(the ○ that open a classic section, shown with the text around them; how many were
    typed)``.  Faster than :func:`renames_outside` (no chapter read again), for a dense sample."""
    models = layouts.zhushu_models()
    opened: list[str] = []
    typed = 0
    for p in files:
        text = p.read_text(encoding="utf-8")
        lines = layouts.mandoku_lines(text)[1]
        stream = [
            (c, s)
            for ln in lines
            if ln.indent == 0 and ln.text.strip() not in layouts.BOILERPLATE
            for c, s in zip(ln.chars, ln.spans, strict=False)
        ]
        index = {s[0]: k for k, (_c, s) in enumerate(stream)}
        blocks = parse_text(text, source=p.name).blocks
        pieces = [q for b in blocks for q in b.commentary if q.layer == "zhu" and q.reading_text[:1] in "注註"]
        for piece in pieces:
            for j in range(2, len(piece.reading_spans) - 1, every):
                i = index.get(piece.reading_spans[j][0])
                k = -1 if i is None else i - 1
                while k >= 0 and stream[k][0] not in "()" and not layouts._is_mark(stream, k):
                    k -= 1  # back to the bare 注 that opens the note (a parenthesis: not in a note)
                if i is None or k < 0 or stream[k][0] not in "注註":
                    continue
                edited = [*stream[:i], ("○", (0, 0)), *stream[i:]]
                block = "".join(c for c, _ in stream[max(0, k - 60) : k])  # the block before the note, near enough
                typed += 1
                if layouts._circle_opens_classic(edited, i, edited[k:i], models, block):
                    around = "".join(c for c, _ in edited[k:i]) + "".join(c for c, _ in edited[i : i + 14])
                    opened.append(f"{p.name}  {around}")
    return opened, typed


def _blocks(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """Each block of the chapter: its number, classic and commentary as read."""
    doc = parse_text(path.read_text(encoding="utf-8"), source=path.name)
    return [(b.number, b.classic.reading_text, tuple(p.reading_text for p in b.commentary)) for b in doc.blocks]


def main(argv: list[str] | None = None) -> int:
    """Print the measures; exit 2 with one line if the folder holds no 注疏 chapter."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--per-chapter", type=int, default=8)
    ap.add_argument("--priors", default="2,3,4,6,8")
    ap.add_argument("--every", type=int, default=0, help="also decide a ○ typed before every Nth character of every note")
    args = ap.parse_args(argv)
    files = chapters(args.corpus)
    if not files:
        print(f"zhushu_circles: {args.corpus}: no 注疏 chapter (KR1d0028_*.txt) found", file=sys.stderr)
        return 2
    margins = real_margins(files)
    print(f"○ after a note weighed by the models: {len(margins)}; lowest margins:")
    for margin, name, around in margins[:5]:
        print(f"  {margin:7.2f}  {name}  {around}")
    sample = typed_circles(files, args.per_chapter)
    shipped = layouts.CIRCLE_PRIOR
    print(f"{'prior':>6} {'real blocks changed':>20} {'typed ○ renaming outside':>26}")
    decide = layouts._circle_opens_classic
    try:
        layouts._circle_opens_classic = lambda *_args: True  # every ○ after a note is the layout's mark
        marked = [_blocks(p) for p in files]
        layouts._circle_opens_classic = decide
        for prior in (float(x) for x in args.priors.split(",")):
            layouts.CIRCLE_PRIOR = prior
            changed = sum(len(set(a) ^ set(_blocks(p))) // 2 for a, p in zip(marked, files, strict=True))
            bad = sum(1 for p, n, at in sample if renames_outside(p, n, at))
            mark = "  (shipped)" if prior == shipped else ""
            print(f"{prior:>6.1f} {changed:>20} {bad:>12} of {len(sample)} ({bad / len(sample):.3f}){mark}")
    finally:
        layouts.CIRCLE_PRIOR = shipped
        layouts._circle_opens_classic = decide
    if args.every:
        opened, typed = decided_openings(files, args.every)
        print(f"○ typed before every {args.every}th character of every note: {len(opened)} of {typed} open a classic section")
        for line in opened:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
