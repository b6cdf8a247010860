"""How closely the three Kanripo editions agree, chapter by chapter (``make editions``).

For each chapter of ``../shared/corpus/kanripo/`` read from the 述註 (KR1d0040) and from the 注疏
(KR1d0028) or the 鄭注 (KR1d0026): of the 述註's classic characters, the share the other's classic
aligns with; of the other's, the share that aligns with the 述註's (below 1 where a note is read as
classic); the share of the 述註's steps and toasts found alike in the other
(:func:`yili.ingest.editions.agreement`); and (``pairs``) the share of the 述註's steps, 記 included, that
the comparison of the two step sequences pairs with a step of the same signature
(:attr:`yili.graph.compare.Comparison.identical_share`, issue 24: ≥ 0.95 wanted).
Usage: ``python benchmarks/editions.py [KANRIPO_DIR]``.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from yili.graph.acts import acts_from_extractions
from yili.graph.compare import compare
from yili.ingest.document import read_file
from yili.ingest.editions import agreement
from yili.ingest.pipeline import Extractor
from yili.ontology.vocabulary import load_vocabulary

EDITIONS = {"KR1d0028": "注疏", "KR1d0026": "鄭注"}


def _pad(cell: str, width: int) -> str:
    """``cell`` padded to ``width`` terminal columns (a Chinese character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in cell)
    return cell + " " * max(0, width - used)


def main(root: Path) -> int:
    """Print one line per chapter and edition; exit 2 with one line if the folder is missing."""
    reference = root / "KR1d0040"
    if not reference.is_dir():
        print(f"editions: {reference}: no such folder (the 述註 of the shared corpus)", file=sys.stderr)
        return 2
    extractor, vocabulary = Extractor(), load_vocabulary()
    print(f"{'chapter':<22} {'edition':<8}{'classic':>8} {'as classic':>10} {'steps':>7} {'toasts':>7} {'pairs':>7}")
    for path in sorted(reference.glob("KR1d0040_*.txt")):
        number = path.stem.rsplit("_", 1)[1]
        if number in ("000", "018"):  # front and back matter
            continue
        shuzhu = extractor.extract(read_file(path))
        for edition, name in EDITIONS.items():
            other_path = root / edition / f"{edition}_{number}.txt"
            if not other_path.is_file():
                continue
            other = extractor.extract(read_file(other_path))
            a = agreement(shuzhu, other)
            pairs = compare(acts_from_extractions([shuzhu]), acts_from_extractions([other]), vocabulary).identical_share
            title = f"{number} {shuzhu.profile.hant or shuzhu.document.rite}"
            shares = f"{a.classic:>8.3f} {a.read_as_classic:>10.3f} {a.steps:>7.3f} {a.toasts:>7.3f} {pairs:>7.3f}"
            print(f"{_pad(title, 22)} {_pad(name, 8)}{shares}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus/kanripo")))
