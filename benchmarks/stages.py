"""How well 楊復's stages (節) fall on the steps of each edition, chapter by chapter.

For each chapter of ``../shared/corpus/kanripo/`` that 儀禮圖 (``../shared/corpus/reference/KR1d0032``)
covers, and each edition: 楊復's stages, how many of their openings fall in the first step of a stage
(``matched``, the share the issue asks ≥ 0.95 of on the 述註), how many fall exactly where that step
begins (``exact``: below ``matched`` where the extractor's clause runs across 楊復's boundary), and the
share of 儀禮圖's classic letters found in the edition (:func:`yili.ingest.stages.align`).
Usage: ``python benchmarks/stages.py [KANRIPO_DIR [YILITU_DIR]]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from yili.ingest.document import read_file
from yili.ingest.pipeline import Extractor
from yili.ingest.stages import align, book_for, read_stage_books

EDITIONS = {"KR1d0040": "述註", "KR1d0028": "注疏", "KR1d0026": "鄭注"}


def main(root: Path, yilitu: Path) -> int:
    """Print one line per chapter and edition, then the totals per edition; exit 2 with one line if a
    folder is missing."""
    if not root.is_dir() or not yilitu.is_dir():
        print(f"stages: {root if not root.is_dir() else yilitu}: not a folder", file=sys.stderr)
        return 2
    books = read_stage_books(yilitu)
    extractor = Extractor()
    totals: dict[str, list[int]] = {}
    print("chapter\tedition\tstages\tmatched\texact\tshare\taligned")
    for ed, name in EDITIONS.items():
        for path in sorted((root / ed).glob("*.txt")):
            if path.stem.endswith(("_000", "_018")):
                continue  # front and back matter (提要, 疏序, 跋: corpus/SOURCES.md), no rite
            e = extractor.extract(read_file(path))
            if not e.profile.key:
                continue
            book = book_for(books, (*e.profile.title_forms, e.profile.hant))
            if book is None:
                continue
            a = align(book, e.document.blocks, e.steps)
            t = totals.setdefault(name, [0, 0, 0])
            t[0] += a.openings
            t[1] += a.matched
            t[2] += a.exact
            print(f"{book.chapter}\t{name}\t{a.openings}\t{a.matched}\t{a.exact}\t{a.share:.3f}\t{a.aligned:.3f}")
    for name, (n, m, x) in totals.items():
        print(f"all\t{name}\t{n}\t{m}\t{x}\t{m / n:.3f}\t")
    return 0


if __name__ == "__main__":
    here = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    args = [Path(a) for a in sys.argv[1:]]
    sys.exit(main(args[0] if args else here / "kanripo", args[1] if len(args) > 1 else here / "reference" / "KR1d0032"))
