"""Learn the two character bigram models that cut the 注疏's run-on notes, once, offline, and write
them as package data (``ingest/data/zhushu_bigrams.json``, :data:`yili.ingest.layouts.ZHUSHU_MODELS`).

The models are learnt from every chapter of the 儀禮注疏 in the shared corpus (Kanseki Repository
KR1d0028, front matter left out): the note model from 鄭玄's notes that a parenthesis or a ○ closes,
the classic model from the classic sections a note closes (:func:`yili.ingest.layouts.zhushu_training_texts`)
and, each, from the classic and from 鄭玄's notes of the 儀禮 鄭注 (KR1d0026, the folder beside KR1d0028:
its layout marks the classic apart from the notes, and it holds the sections and notes the 注疏 runs on
into each other, which the 注疏 alone never gives apart: 有司徹 尸侑皆答再拜…, 特牲 宗人視牲告充雍正作豕,
士虞 注初哭從尸祝前).  The 述註 (KR1d0040), the edition
the 注疏's reading is measured against (``benchmarks/editions.py``), is not learnt from.
Shipped fixed, they make each cut depend on the text around it alone, not on the file it is in
(issue 28).  Usage::

    python benchmarks/zhushu_models.py [KR1d0028_DIR] [--zhengzhu KR1d0026_DIR] [--out FILE] [--check]

``--check`` writes nothing and exits 1 if the shipped file differs from what the corpus gives.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from yili.ingest import layouts

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "kanripo" / "KR1d0028"
DEFAULT_OUT = ROOT / "ingest" / "data" / layouts.ZHUSHU_MODELS


def chapters(folder: Path) -> list[Path]:
    """The 注疏 chapters of ``folder`` (``KR1d0028_*.txt``, sorted), front and back matter left out."""
    return [p for p in sorted(folder.glob("KR1d0028_*.txt")) if layouts.front_matter(p.read_text(encoding="utf-8")) is None]


def zhengzhu_texts(folder: Path) -> tuple[list[Path], list[str], list[str]]:
    """The 鄭注 chapters of ``folder`` (``KR1d0026_*.txt``, sorted, front matter left out), their classic
    sections (each block's classic as read, cut at its ○ marks, spaces left out) and 鄭玄's notes (each
    注 piece as read, its parentheses, column marks ``/`` and spaces left out)."""
    from yili.ingest.document import read_file

    files = [p for p in sorted(folder.glob("KR1d0026_*.txt")) if layouts.front_matter(p.read_text(encoding="utf-8")) is None]
    classic: list[str] = []
    notes: list[str] = []
    for p in files:
        for block in read_file(p).blocks:
            classic += [t for t in re.sub(r"[\u3000 ]", "", block.classic.reading_text).split("○") if t]
            notes += [
                t for piece in block.commentary if piece.layer == "zhu" and (t := re.sub(r"[\u3000 ()/]", "", piece.reading_text))
            ]
    return files, classic, notes


def models_json(folder: Path, zhengzhu: Path | None = None) -> str:
    """The JSON text of the models learnt from the 注疏 of ``folder`` and the 鄭注 of ``zhengzhu``
    (default: ``KR1d0026`` beside ``folder``), one pair ``[a, c, n]`` per line, sorted."""
    files = chapters(folder)
    if not files:
        raise SystemExit(f"zhushu_models: {folder}: no 注疏 chapter (KR1d0028_*.txt) found")
    zhengzhu = zhengzhu or folder.parent / "KR1d0026"
    more, classic_extra, note_extra = zhengzhu_texts(zhengzhu)
    if not more:
        raise SystemExit(f"zhushu_models: {zhengzhu}: no 鄭注 chapter (KR1d0026_*.txt) found")
    note, classic = layouts.learn_zhushu_models((p.read_text(encoding="utf-8") for p in files), classic_extra, note_extra)
    files += more

    def rows(model: layouts.CharBigram) -> str:
        by_first: dict[str, list[tuple[str, int]]] = {}
        for a, c, n in model.pairs():
            by_first.setdefault(a, []).append((c, n))
        lines = []
        for a, after in by_first.items():
            chars = json.dumps("".join(c for c, _ in after), ensure_ascii=False)
            lines.append(f"{json.dumps(a)}: [{chars}, {json.dumps([n for _, n in after])}]")
        return ",\n".join(lines)

    source = "learnt by benchmarks/zhushu_models.py from " + ", ".join(p.name for p in files)
    head = f'{{"source": {json.dumps(source, ensure_ascii=False)},\n'
    return head + f'"note": {{\n{rows(note)}}},\n"classic": {{\n{rows(classic)}}}}}\n'


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the models; exit 0, or 1 when ``--check`` finds a difference."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("corpus", type=Path, nargs="?", default=DEFAULT_CORPUS)
    p.add_argument("--zhengzhu", type=Path, default=None, help="the 鄭注 folder (default: KR1d0026 beside the corpus)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    text = models_json(args.corpus, args.zhengzhu)
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'the same as' if same else 'differs from'} what {args.corpus} gives")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(text.encode())} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
