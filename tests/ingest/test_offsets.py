"""The offset contract, on every layout: ``source`` is exactly ``text[char_start:char_end]`` of the input
as decoded, and ``text`` is ``source`` with the print layout taken out."""

from __future__ import annotations

import bisect
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

WORDS = [
    "主人",
    "賔",
    "公",
    "獻",
    "酢",
    "酬",
    "拜",
    "受爵",
    "洗",
    "升",
    "降",
    "坐",
    "祭",
    "于",
    "西階上",
    "北面",
    "卒爵",
    "○",
    "爵",
    "觶",
    "之",
]


def check(extraction) -> None:
    text = extraction.document.text
    # commentary inside a span (a 述註 註 line between two classic lines of one block) is not read
    notes = sorted((p.start, p.end) for b in extraction.document.blocks for p in b.commentary)
    starts = [a for a, _ in notes]

    def in_note(k: int) -> bool:
        i = bisect.bisect_right(starts, k) - 1
        return i >= 0 and k < notes[i][1]

    # and the ) that closes a parenthesised note, which its piece leaves out (注疏 喪服 ○父疏(釋曰…)傳曰…: the
    # entry and its 傳 are one block across the entry's 疏, issue 24)
    def closes_note(k: int) -> bool:
        return text[k] == ")" and in_note(k - 1)

    for s in extraction.steps:
        assert s.source == text[s.char_start : s.char_end]
        read = "".join(ch for k, ch in enumerate(s.source, s.char_start) if not in_note(k) and not closes_note(k))
        assert ENTITY.sub("〓", LAYOUT.sub("", read)) == s.text  # no layout left in the text: no ○, no U+3000
        assert s.text[:1] == LAYOUT.sub("", s.source)[:1] and s.char_start < s.char_end


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(WORDS), min_size=2, max_size=12), min_size=1, max_size=4), st.sampled_from(["\n", "\r\n"])
)
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
        shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_011.txt"),  # an entry and its 傳 across its 疏 (issue 24)
        shared_path("corpus", "kanripo", "KR1d0026", "KR1d0026_015.txt"),
        shared_path("corpus", "yili_shuzhu_03_shixiangjianli.kanripoxml-tei-fragment.xml"),
    ):
        check(extractor.extract(read_file(path)))
    # the steps that kept a ○ or a U+3000 in their text, or ran across a 註 line of their block (issue 28)
    texts = {}
    for name, spans in (
        ("KR1d0040_005.txt", ((5162, 5199), (5397, 5470), (8602, 8621))),
        ("KR1d0040_011.txt", ((17145, 17230),)),
        ("KR1d0040_017.txt", ((16801, 16838),)),
    ):
        steps = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", name))).steps
        texts.update({(name, s.char_start): s.text for s in steps if (s.char_start, s.char_end) in spans})
    assert texts == {
        ("KR1d0040_005.txt", 5162): "北面立於其西工四人二瑟瑟",
        ("KR1d0040_005.txt", 5397): "立於縣中西面乃合樂周南闗雎葛覃卷耳召南鵲巢采蘩采蘋",
        ("KR1d0040_005.txt", 8602): "將乘矢執弓",
        (
            "KR1d0040_011.txt",
            17145,
        ): "曽祖父母為士者如衆人傳曰何以齊衰三月也大夫不敢降其祖也女子子嫁者未嫁者為曽祖父母傳曰嫁者其嫁於大夫者也未嫁者其成人而未嫁者也何以服齊衰三月不敢降其祖也",
        ("KR1d0040_017.txt", 16801): "皆如儐禮主人洗",
    }
    # a step that runs across a line end: its source keeps the ¶ and the break, its text does not
    r = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_015.txt")))
    s = next(s for s in r.steps if s.char_start == 931)
    assert (s.char_end, s.source, s.text) == (
        962,
        "宰自主人之左賛命命曰孝孫某筮來日某諏此某事¶\n適其皇祖某子尚饗",
        "宰自主人之左賛命命曰孝孫某筮來日某諏此某事適其皇祖某子尚饗",
    )
