#!/usr/bin/env python3
"""Make the viewer's web font of the corpus's rare characters: api/static/vendor/hanazono/.

Browsers draw a character no installed font has as a box; the 儀禮 editions write some 200 characters
outside the Basic Multilingual Plane (𤣥 for 玄, which the 述註 avoids, 避諱; 𫝊, 𥘉 …) and a few inside it
that Noto CJK (Debian ``fonts-noto-cjk``, the font the pages name first) lacks.  This script takes exactly
those characters from the Hanazono Mincho fonts (花園明朝 A and B, Debian ``fonts-hanazono``; free: SIL Open
Font License 1.1 or the Hanazono Font License, see LICENSE beside the fonts) and writes, with fontTools'
subsetter (pyftsubset), one small WOFF file per Hanazono font holding only them, with the CSS
``@font-face`` rules (``unicode-range``: only these characters are asked of it) that viewer.css imports.

Run it again when the corpus changes (apt-get install fonts-hanazono fonts-noto-cjk; pip install
fonttools), from the repository:

    .venv/bin/python api/web/rare_font.py [CORPUS_DIR ...]     # default: ../shared/corpus

The characters are those of every ``*.txt`` under the corpus folders and of the embedded excerpt.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
OUT = REPO / "api" / "static" / "vendor" / "hanazono"
HANAZONO = Path("/usr/share/fonts/truetype/hanazono")
HANAZONO_FILES = ("HanaMinA.ttf", "HanaMinB.ttf")
HANAZONO_LICENSE = Path("/usr/share/doc/fonts-hanazono/copyright")
NOTO = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc")
FAMILY = "Yili Rare"


def corpus_chars(folders: list[Path]) -> set[str]:
    """Every character of the corpus's text files and of the embedded excerpt."""
    chars: set[str] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*.txt")):
            chars |= set(path.read_text(encoding="utf-8", errors="replace"))
    excerpt = REPO / "ingest" / "data"
    for path in sorted(excerpt.glob("*.txt")):
        chars |= set(path.read_text(encoding="utf-8"))
    return chars


def noto_chars() -> set[int]:
    """The code points Noto Serif CJK (any of its regional fonts) draws."""
    covered: set[int] = set()
    for font in TTCollection(str(NOTO)).fonts:
        covered |= set(font.getBestCmap())
    return covered


def is_han(cp: int) -> bool:
    """A CJK ideograph, of the basic block or any extension (U+3400–U+4DBF, U+4E00–U+9FFF, U+F900–U+FAFF,
    U+20000–U+3FFFF)."""
    return 0x3400 <= cp <= 0x4DBF or 0x4E00 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or 0x20000 <= cp <= 0x3FFFF


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or [REPO.parent / "shared" / "corpus"]
    noto = noto_chars()
    rare = sorted(
        ord(ch)
        for ch in corpus_chars(folders)
        if len(ch) == 1 and (ord(ch) > 0xFFFF or (is_han(ord(ch)) and ord(ch) not in noto))
    )
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    css, left = [], set(rare)
    for name in HANAZONO_FILES:
        cmap = TTFont(str(HANAZONO / name), lazy=True).getBestCmap()
        here = sorted(cp for cp in left if cp in cmap)
        if not here:
            continue
        left -= set(here)
        target = OUT / (Path(name).stem + "-yili.woff")
        options = subset.Options()
        options.flavor = "woff"
        options.layout_features = []
        options.name_IDs = ["*"]  # keep the names, the licence and its URL among them
        options.notdef_outline = True
        font = subset.load_font(str(HANAZONO / name), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=here)
        subsetter.subset(font)
        subset.save_font(font, str(target), options)
        ranges = ", ".join(f"U+{cp:X}" for cp in here)
        css.append(
            f'@font-face {{\n  font-family: "{FAMILY}";\n  src: url("{target.name}") format("woff");\n'
            f"  unicode-range: {ranges};\n  font-display: swap;\n}}\n"
        )
        print(f"{target.relative_to(REPO)}: {len(here)} characters, {target.stat().st_size} bytes")
    (OUT / "rare.css").write_text(
        "/* Built by api/web/rare_font.py: the corpus's characters outside the BMP or missing from Noto CJK, from\n"
        "   the Hanazono Mincho fonts (Debian fonts-hanazono). Do not edit; run the script again. */\n" + "\n".join(css),
        encoding="utf-8",
    )
    (OUT / "characters.txt").write_text("".join(chr(cp) for cp in rare) + "\n", encoding="utf-8")
    shutil.copyfile(HANAZONO_LICENSE, OUT / "LICENSE")
    (OUT / "README").write_text(
        "Subsets of the Hanazono Mincho fonts (花園明朝 A and B, GlyphWiki; Debian package fonts-hanazono,\n"
        "version 20170904) holding only the characters of characters.txt, made by api/web/rare_font.py with\n"
        "fontTools. Licence: LICENSE (the Debian package's copyright file; SIL Open Font License 1.1 or the\n"
        "Hanazono Font License). Do not edit them; run the script again.\n",
        encoding="utf-8",
    )
    if left:
        print(f"not in Hanazono either: {''.join(chr(cp) for cp in sorted(left))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
