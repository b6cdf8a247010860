"""The offset contract, on every layout: ``source`` is exactly ``text[char_start:char_end]`` of the input
as decoded, and ``text`` is ``source`` with the print layout taken out."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from yili.ingest.document import parse_text, read_file

from tests.conftest import shared_path

LAYOUT = re.compile(r"<pb:[^>]*>|<[^>]*>|¶|\r|\n|\u3000|○|/|\([^)]*\)")
"""What the readers take out of a span: line ends and breaks, page markers, tags, indentation,
section marks, the 鄭注's parenthesised notes and their column marks."""

ENTITY = re.compile(r"&[A-Za-z0-9]+;")
"""A character outside Unicode (``&KR1152;``): read as the one character 〓."""

WORDS = ["主人", "賔", "公", "獻", "酢", "酬", "拜", "受爵", "洗", "升", "降", "坐", "祭", "于", "西階上", "北面", "卒爵", "○", "爵", "觶", "之"]


def check(extraction) -> None:
    text = extraction.document.text

    for s in extraction.steps:
        assert s.source == text[s.char_start : s.char_end]
        assert ENTITY.sub("〓", LAYOUT.sub("", s.source)) == LAYOUT.sub("", s.text)
        assert s.text[:1] == LAYOUT.sub("", s.source)[:1] and s.char_start < s.char_end


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=2, max_size=12), min_size=1, max_size=4), st.sampled_from(["\n", "\r\n"]))
def test_blank_line_layout(extractor, blocks, newline):
    body = (newline * 2).join("".join(b) for b in blocks)
    check(extractor.extract(parse_text("題" + newline * 2 + body, edition="t"), rite="yanli"))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=4, max_size=30), st.integers(min_value=3, max_value=9), st.booleans())
def test_mandoku_layout_with_line_ends_and_page_markers(extractor, words, width, with_note):
    """Classic lines broken every ``width`` characters with ``¶``, a page marker between two of them,
    and (or not) an indented note after the classic."""
    classic = "".join(words)
    lines = [classic[k : k + width] + "¶" for k in range(0, len(classic), width)]
    if len(lines) > 1:
        lines.insert(1, "<pb:KR1d0040_WYG_015-2a>¶")
    note = ["\u3000註曰主人宰夫也¶"] if with_note else []
    doc = "#+TITLE: 儀禮述註\n" + "\n".join(lines + note) + "\n"
    check(extractor.extract(parse_text(doc, edition="t"), rite="yanli"))


def test_every_kanripo_layout_and_the_tei_fragment(extractor):
    for path in (
        shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_015.txt"),
        shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_015.txt"),
        shared_path("corpus", "kanripo", "KR1d0026", "KR1d0026_015.txt"),
        shared_path("corpus", "yili_shuzhu_03_shixiangjianli.kanripoxml-tei-fragment.xml"),
    ):
        check(extractor.extract(read_file(path)))
    # a step that runs across a line end: its source keeps the ¶ and the break, its text does not
    r = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_015.txt")))
    s = next(s for s in r.steps if s.char_start == 931)
    assert (s.char_end, s.source, s.text) == (
        962,
        "宰自主人之左賛命命曰孝孫某筮來日某諏此某事¶\n適其皇祖某子尚饗",
        "宰自主人之左賛命命曰孝孫某筮來日某諏此某事適其皇祖某子尚饗",
    )
