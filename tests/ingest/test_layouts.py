"""Kanripo mandoku text, the run-on 注疏 layout and KanripoXML (TEI): blocks by indentation,
readings without the print layout, offsets into the input as decoded."""

from __future__ import annotations

import pytest
from yili.ingest.document import parse_text, read_file

from tests.conftest import extract_text, shared_path

MANDOKU = """# -*- mode: mandoku-view; -*-
#+TITLE: 儀禮述註
#+PROPERTY: JUAN 卷四
<pb:KR1d0040_WYG_004-1a>¶
欽定四庫全書¶
　　鄉飲酒禮第四¶
主人坐取爵于篚降洗賔降主人坐奠爵¶
<pb:KR1d0040_WYG_004-1b>¶
于階前辭賔對¶
　註曰重以己事煩賔也○疏曰事同曰¶
　讓事異曰辭¶
主人坐取爵實之賔之席前西北面獻賔¶
　註曰獻進也¶
"""


def test_mandoku_blocks_follow_indentation_and_keep_offsets():
    doc = parse_text(MANDOKU, source="<m>")
    assert doc.title == "儀禮述註"
    assert [b.classic.reading_text for b in doc.blocks] == [
        "主人坐取爵于篚降洗賔降主人坐奠爵于階前辭賔對",
        "主人坐取爵實之賔之席前西北面獻賔",
    ]
    b1 = doc.blocks[0]
    assert [(p.layer, p.reading_text) for p in b1.commentary] == [("zhu", "註曰重以己事煩賔也"), ("shu", "○疏曰事同曰讓事異曰辭")]
    for b in doc.blocks:
        for p in (b.classic, *b.commentary):
            assert doc.text[p.start : p.end] == p.text
            assert all(doc.text[a:z] == ch for ch, (a, z) in zip(p.reading_text, p.reading_spans, strict=False))
    assert "<pb:" in b1.classic.text and "<pb:" not in b1.classic.reading_text


def test_steps_across_a_line_break_point_at_the_input(extractor):
    doc = parse_text(MANDOKU, source="<m>")
    r = extractor.extract(doc)
    assert [s.text for s in r.steps if s.block == 1] == [
        "主人坐",
        "取爵于篚",
        "降",
        "洗",
        "賔降",
        "主人坐",
        "奠爵于階前",
        "辭",
        "賔對",
    ]
    toast = r.toasts[0]
    assert (toast.giver[0].label, toast.type.label, toast.receiver[0].label) == ("主人", "獻", "賔")
    assert doc.text[toast.step.char_start : toast.step.char_end] == toast.step.text  # same line
    crossing = next(s for s in r.steps if s.text == "奠爵于階前")
    assert crossing.location == "階前"
    raw = doc.text[crossing.char_start : crossing.char_end]
    assert "¶" in raw and raw.replace("¶\n", "").replace("<pb:KR1d0040_WYG_004-1b>", "") == crossing.text


def test_real_kanripo_chapter_of_xiangyinjiuli(extractor):
    doc = read_file(shared_path("corpus", "yili_shuzhu_04_xiangyinjiuli.kanripo.txt"))
    assert doc.blocks[0].classic.reading_text == "鄉飲酒之禮○主人就先生而謀賔介"
    assert doc.blocks[1].commentary[0].reading_text.startswith("註曰戒告也")
    r = extractor.extract(doc)
    got = [(t.giver[0].label, t.type.label, t.receiver[0].label) for t in r.toasts[:5]]
    assert got == [("主人", "獻", "賔"), ("賔", "酢", "主人"), ("主人", "酬", "賔"), ("主人", "獻", "介"), ("介", "酢", "主人")]


def test_zhushu_layout_separates_classic_note_and_subcommentary():
    doc = read_file(shared_path("corpus", "yili_zhushu_04_xiangyinjiuli.kanripo.txt"))
    b = next(b for b in doc.blocks if b.classic.reading_text.startswith("○主人戒賔"))
    assert b.classic.reading_text == "○主人戒賔賔拜辱主人答拜乃請賔賔禮辭許主人再拜賔答拜"
    layers = [p.layer for p in b.commentary]
    assert layers[0] == "zhu" and "shu" in layers
    assert b.commentary[0].reading_text.startswith("注戒警也告也")
    assert all("考證" not in blk.classic.reading_text for blk in doc.blocks)


def test_tei_fragment():
    doc = read_file(shared_path("corpus", "yili_shuzhu_03_shixiangjianli.kanripoxml-tei-fragment.xml"))
    first = doc.blocks[0]
    assert first.classic.reading_text == "士相見之禮○摯冬用雉夏用腒左頭奉之曰某也願見無由達某子以命命某見"
    assert first.commentary[0].reading_text.startswith("註曰摯所執以至者")
    assert doc.text[first.classic.start : first.classic.end] == first.classic.text
    assert '<pc n="lb"/>' in first.classic.text


IDEOGRAPHIC_SPACE = "\u3000"


@pytest.mark.parametrize(
    "text",
    [
        "#+TITLE: x\n" + IDEOGRAPHIC_SPACE * 2 + "只有標題¶\n",
        '<div><p><pc n="' + IDEOGRAPHIC_SPACE + '"/>註曰只有注<pc n="lb"/></p></div>',
    ],
)
def test_layouts_without_classic_text_are_refused(text):
    from yili.ontology.errors import InputError

    with pytest.raises(InputError, match="no classic text"):
        parse_text(text, source="<x>")


def test_traditional_text_labels_are_traditional(extractor):
    r = extract_text(extractor, "主人取觶洗升實之獻賓")
    assert [s.action.label for s in r.steps] == ["取", "洗", "升", "實", "獻"]


def test_the_zheng_notes_in_parentheses_are_commentary_of_the_classic_before_them(extractor):
    """儀禮 鄭注 (四部叢刊, KR1d0026): the note stands in parentheses inside the classic lines."""
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    doc = read_file(shared_path("corpus", "kanripo", "KR1d0026", "KR1d0026_015.txt"))
    first = doc.blocks[0]
    assert first.classic.reading_text == "特牲饋食之禮不諏日"
    assert [p.layer for p in first.commentary] == ["zhu"]  # three parentheses across lines: one note
    assert first.commentary[0].reading_text.startswith("祭祀自孰始曰饋食饋食者食道也諏謀也士賤職褻")
    assert doc.blocks[1].classic.reading_text == "及筮日主人冠端玄卽位于門外西面"  # runs across a line end
    r = extractor.extract(doc)
    assert r.profile.key == "teshengkuishili"
    assert not any(ch in s.text for s in r.steps for ch in "()/")  # no note, no column mark is classic
    s = next(s for s in r.steps if s.text.endswith("卽位于門外西面"))
    assert "¶" in doc.text[s.char_start : s.char_end]  # offsets into the file: the span crosses a line end
    # the last classic block ends before the colophon (儀禮卷第十五 經…字注…字)
    assert doc.blocks[-1].classic.reading_text.endswith("私臣門東北面西上獻次兄弟升受降飲")


def test_a_note_that_runs_on_into_the_next_classic_is_split_where_the_note_ends():
    """儀禮注疏 (KR1d0028): 注初筮位也賔及衆賓即位于門西東面北上注不象如初者…"""
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    doc = read_file(shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_015.txt"))
    classic = [b.classic.reading_text for b in doc.blocks]
    assert "賔及衆賓即位于門西東面北上" in classic
    assert not any("賔及衆賓即位" in p.reading_text for b in doc.blocks for p in b.commentary)


def test_a_note_with_no_ye_is_split_from_the_classic_it_runs_on_into():
    """公食大夫禮 in the 注疏 (KR1d0028_009): ``…將命注不答拜爲人使也將猶致也賓再拜稽首注受命大夫還
    注復於君賓不拜送遂從之注不拜送者…``: notes with no parenthesis after them, two with no 也, each
    run on into the next classic section.  The classic is read as classic, block by block, and each
    note stays the note of the classic before it.  (The cut is not always right: the note 拜使者屈辱
    來迎己 before 大夫不答拜將命 is cut after its first character, and 使者屈辱來迎己 is read as classic.)"""
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    doc = read_file(shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_009.txt"))
    classic = [b.classic.reading_text for b in doc.blocks]
    at = classic.index("賓再拜稽首")
    assert classic[at : at + 3] == ["賓再拜稽首", "大夫還", "賓不拜送遂從之"]
    notes = [[p.reading_text for p in b.commentary] for b in doc.blocks[at - 1 : at + 3]]
    assert [n[0] for n in notes] == ["注不答拜爲人使也將猶致也", "注受命", "注復於君", "注不拜送者爲從之不終事"]


def test_the_cut_follows_the_note_and_classic_models():
    """The cut between a run-on note and the classic after it (``best_cut``) follows the two
    character models: a gloss ending 也 before a narrative that opens with its actor."""
    from yili.ingest.layouts import CharBigram, best_cut

    classic = CharBigram(["賓升", "主人拜送", "賓再拜", "主人降洗"])
    note = CharBigram(["拜送猶送也", "降猶下也", "送謂拜也"])
    assert best_cut("注送猶下也主人拜", note, classic) == 5  # 注送猶下也 | 主人拜
    # a model is its pair counts: rebuilt from them, it gives the same probabilities
    again = CharBigram.from_pairs(note.pairs())
    assert again.pairs() == note.pairs() == sorted(note.pairs())
    assert [again.logp(a, c) for a, c in (("猶", "送"), ("也", CharBigram.END), ("主", "人"))] == [
        note.logp(a, c) for a, c in (("猶", "送"), ("也", CharBigram.END), ("主", "人"))
    ]


def test_the_shipped_models_are_what_the_corpus_gives():
    """``ingest/data/zhushu_bigrams.json`` is learnt, offline, from the 13 注疏 chapters of the shared
    corpus by ``benchmarks/zhushu_models.py``: run again, the script gives the shipped file byte for byte,
    and the reader uses it (no model learnt from the file being read)."""
    import importlib.util
    from importlib import resources
    from pathlib import Path

    from yili.ingest.layouts import ZHUSHU_MODELS, best_cut, zhushu_models

    spec = importlib.util.spec_from_file_location(
        "zhushu_models", Path(__file__).resolve().parents[2] / "benchmarks" / "zhushu_models.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    corpus = shared_path("corpus", "kanripo", "KR1d0028")
    assert [p.name for p in script.chapters(corpus)][:3] == ["KR1d0028_001.txt", "KR1d0028_003.txt", "KR1d0028_004.txt"]
    assert len(script.chapters(corpus)) == 13  # KR1d0028_000, the 儀禮疏序, is no chapter
    shipped = (resources.files("yili.ingest") / "data" / ZHUSHU_MODELS).read_text(encoding="utf-8")
    assert script.models_json(corpus) == shipped
    note, classic = zhushu_models()
    # the runs of the chapters (公食大夫禮, 特牲, a snippet), each cut by itself
    runs = ["注不答拜爲人使也將猶致也賓再拜稽首", "注受命大夫還", "注獻進也賓拜受", "注初筮位也賔及衆賓即位于門西東面北上"]
    cuts = [(t[: best_cut(t, note, classic)], t[best_cut(t, note, classic) :]) for t in runs]
    assert cuts == [
        ("注不答拜爲人使也將猶致也", "賓再拜稽首"),
        ("注受命", "大夫還"),
        ("注獻進也", "賓拜受"),
        ("注初筮位也", "賔及衆賓即位于門西東面北上"),
    ]


def test_a_circle_inside_the_zhushu_classic_starts_no_block():
    """A ○ in the 注疏's classic marks a section, as in the 述註's; a block is the classic up to its
    commentary.  ``賓出主人拜送于外門外○衆主人出婦人踊…`` (士喪禮, KR1d0028_012) is one block, and a ○
    inserted in the middle of a classic (the issue's example, offset 87571 of 聘禮, KR1d0028_008, and the
    middle of another block) changes no block but its own: none added, none renumbered."""
    from yili.ingest.document import read_file

    path = shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_012.txt")
    doc = read_file(path)
    block = next(b for b in doc.blocks if "賓出主人拜送于外門外" in b.classic.reading_text)
    assert block.classic.reading_text.startswith("賓出主人拜送于外門外○")
    assert block.commentary[0].reading_text.startswith("注")

    def blocks(text: str) -> dict[int, tuple[str, tuple[str, ...]]]:
        d = parse_text(text, source="KR1d0028_008.txt")
        return {b.number: (b.classic.reading_text, tuple(p.reading_text for p in b.commentary)) for b in d.blocks}

    text = shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_008.txt").read_text(encoding="utf-8")
    before = blocks(text)
    doc = parse_text(text, source="KR1d0028_008.txt")
    middle = doc.blocks[300].classic
    for at in (87571, middle.reading_spans[len(middle.reading_spans) // 2][0]):
        after = blocks(text[:at] + "○" + text[at:])
        changed = [n for n in before if before[n] != after[n]]
        assert len(after) == len(before) and len(changed) == 1, changed
        (n,) = changed
        assert (
            after[n][0].replace("○", "") == before[n][0].replace("○", "")
            and after[n][0].count("○") == before[n][0].count("○") + 1
        )


def test_the_chapter_title_run_on_before_a_circle_is_block_1():
    """士相見禮 in the 注疏 opens ``士相見之禮○贄冬用雉…``: the title is block 1 (no steps), the classic block 2."""
    from yili.ingest.document import read_file

    doc = read_file(shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_003.txt"))
    assert [b.classic.reading_text[:6] for b in doc.blocks[:2]] == ["士相見之禮", "○贄冬用雉夏"]
    assert doc.blocks[0].commentary == ()


def test_the_three_editions_read_the_same_classic():
    """The classic read from the 注疏 (KR1d0028) and the 鄭注 (KR1d0026) aligns with the 述註's
    (KR1d0040) about as closely as the editions agree (variants such as 賔/賓, 𤣥/玄, small
    omissions): no note is read as classic and little classic is lost."""
    from yili.ingest.document import read_file
    from yili.ingest.editions import classic_text, share_matched

    from tests.conftest import shared_path

    def classic(edition: str, chapter: str) -> str:
        return classic_text(read_file(shared_path("corpus", "kanripo", edition, f"{edition}_{chapter}.txt")))

    # every chapter the three editions share; floors just under `make editions` (the 鄭注 file lacks a
    # few pages of 士冠, 士相見 and 既夕; in the 注疏 a note that runs on into the next classic section is
    # cut from it by the models of the two kinds of text, which misplace a few cuts)
    for chapter in ("001", "003", "004", "005", "008", "009", "010", "011", "012", "013", "014", "015", "017"):
        shuzhu = classic("KR1d0040", chapter)
        for edition, floor in (("KR1d0026", 0.89), ("KR1d0028", 0.95)):
            other = classic(edition, chapter)
            # of the 述註's classic, how much is read; of what is read as classic, how much is the 述註's
            assert share_matched(shuzhu, other) >= floor, (chapter, edition)
            assert share_matched(other, shuzhu) >= 0.95, (chapter, edition)


def test_each_step_knows_the_page_of_the_edition_it_begins_on(extractor):
    """Page markers stay data: a step's page is the last marker before its first character."""
    from yili.ingest.document import read_file
    from yili.ingest.layouts import page_at, page_markers

    from tests.conftest import shared_path

    doc = read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt"))
    steps = extractor.extract(doc).steps
    first = steps[0]
    assert first.text == "士冠禮筮於廟門"
    assert first.page == "KR1d0040_WYG_001-2a"
    markers = page_markers(doc.text)
    assert markers[0] == (doc.text.index("<pb:KR1d0040_WYG_001-1a>"), "KR1d0040_WYG_001-1a")
    for s in steps:  # every step of a paged edition has the page whose marker last precedes it
        before = doc.text.rfind("<pb:", 0, s.char_start)
        assert s.page == doc.text[before + 4 : doc.text.index(">", before)]
    assert page_at(markers, 0) is None
    assert [
        s.page
        for s in extractor.extract(
            read_file(shared_path("corpus", "yili_shuzhu_03_shixiangjianli.kanripoxml-tei-fragment.xml"))
        ).steps
    ][:1] == ["1a"]


def test_the_excerpt_has_no_pages(extraction):
    assert {s.page for s in extraction.steps} == {None}


def test_the_same_passage_gives_the_same_steps_in_every_edition(extractor):
    """鄉飲酒禮 (_004) read from the 注疏 and the 鄭注 gives the 述註's steps and toasts: aligned by
    their text with the variant characters folded (荅 = 答, 于 = 於, 賛 = 贊), nearly every step of
    the 述註 has one in the other edition with the same text, agent, act and recipients, and the toasts
    come in the same order with the same giver, receiver and type.  The text stays as each edition
    writes it (荅拜 in the 鄭注; a reading that did not know 荅 cut 賓荅 | 拜).  What differs is the
    editions' own text, and a few cuts between a 注疏 note and the classic it runs on into with no
    mark between them (注酬|主人訖主人西階上酬介 where 注酬主人訖|主人西階上酬介 is right)."""
    from yili.ingest.document import read_file
    from yili.ingest.editions import agreement

    from tests.conftest import shared_path

    def read(edition: str):
        return extractor.extract(read_file(shared_path("corpus", "kanripo", edition, f"{edition}_004.txt")))

    shuzhu = read("KR1d0040")
    for edition, step_floor, toast_floor in (("KR1d0028", 0.97, 1.0), ("KR1d0026", 0.98, 1.0)):
        agreed = agreement(shuzhu, read(edition))
        assert (agreed.steps >= step_floor, agreed.toasts >= toast_floor) == (True, True), (edition, agreed)
    # 荅拜 is read as the act 答拜 (acts are shown by their concept's label), the text stays as written
    zheng = read("KR1d0026")
    first = next(s for s in zheng.steps if s.action.key == "action-dabai")
    assert (first.action.label, first.text[-2:], "荅拜" in first.source) == ("答拜", "荅拜", True)


def test_a_composed_character_is_one_character_and_opens_no_parenthesis():
    """Kanripo writes a character outside Unicode by its parts, ``[孑*(焉-正+?)]`` (喪服, KR1d0028_011):
    one opaque character 〓 whose span is the whole description; its ``(`` does not open a 疏, so the
    note it stands in stays a note (it was read as classic text, 內則 and all)."""
    text = (
        "#+TITLE: 儀禮注疏\n○傳曰君子子者貴人之子也注云内則曰異為[孑*(焉-正+?)]子室於宮中¶\n擇於諸母與可者疏(釋曰云云)○主人升¶\n"
    )
    doc = parse_text(text, source="<zhushu>")
    assert [b.classic.reading_text for b in doc.blocks] == ["○傳曰君子子者貴人之子也", "○主人升"]
    note = doc.blocks[0].commentary[0]
    assert note.reading_text == "注云内則曰異為〓子室於宮中擇於諸母與可者"
    k = note.reading_text.index("〓")
    start, end = note.reading_spans[k]
    assert doc.text[start:end] == "[孑*(焉-正+?)]"


def test_a_ji_that_opens_a_printed_line_after_a_paragraphs_short_last_line_begins_the_ji(extractor):
    """述註 鄉射 prints ``…羞惟所有鄉樂惟¶ / 欲¶ / 記大夫與則公士為賓¶`` with no note between the narrative's
    last line and the 記, so they are one block; the 記 begins at its own line all the same (the short
    line 欲 ended the paragraph), and the 記's presentations are the host's, as the other editions read them."""
    from yili.ingest.document import read_file
    from yili.ingest.pipeline import appendix_within

    from tests.conftest import shared_path

    doc = read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_005.txt"))
    block = next(b for b in doc.blocks if "記大夫與" in b.classic.reading_text)
    at = appendix_within(block, doc.text)
    assert at is not None and doc.text[at : at + 5] == "記大夫與則"
    assert all(appendix_within(b, doc.text) is None for b in doc.blocks if b is not block)
    r = extractor.extract(doc)
    parts = {s.text: s.part for s in r.steps if s.block == block.number}
    assert (parts["羞惟所有鄉樂惟欲"], parts["記大夫與則公士為賓"]) == ("narrative", "ji")
    first = next(t for t in r.toasts if t.step.text == "獻用爵其他用觶")
    assert [p.label for p in first.giver] == ["主人"]


def test_a_zhushu_snippet_is_cut_by_the_shipped_models(extractor):
    """Three lines of 注疏 mark no note closed by a parenthesis, nothing a file's own models could be
    learnt from; the shipped models cut them all the same: ``注獻進也賓拜受注…`` after 也, and 賓拜受 is
    classic.  The last note, which no later 注 or parenthesis bounds (a ○ or the end closes it), is cut too
    when a note then a classic section is likelier than one whole note: 注受爵也 | 主人拜送."""
    from yili.ingest.document import parse_text

    doc = parse_text("#+TITLE: 儀禮注疏\n○主人獻賓注獻進也賓拜受注受爵也主人拜送¶\n", edition="t")
    assert [b.classic.reading_text for b in doc.blocks] == ["○主人獻賓", "賓拜受", "主人拜送"]
    assert [[p.reading_text for p in b.commentary] for b in doc.blocks] == [["注獻進也"], ["注受爵也"], []]


def test_a_zhengzhu_text_whose_title_is_indented_keeps_its_layout(extractor):
    """The 鄭注 layout is told by its classic lines (in column 0, with the notes in parentheses), not
    undone by an indented title in a short text (issue 28: it was read as the 述註, 主人洗()."""
    from yili.ingest.document import parse_text

    from tests.conftest import shared_path

    head = "".join(
        shared_path("corpus", "kanripo", "KR1d0026", "KR1d0026_015.txt")
        .read_text(encoding="utf-8")
        .splitlines(keepends=True)[:30]
    )
    indented = head.replace("\n特牲饋食禮第十五", "\n\u3000特牲饋食禮第十五")
    assert indented != head
    texts = [[s.text for s in extractor.extract(parse_text(t, source="t.txt")).steps] for t in (head, indented)]
    assert texts[0] == texts[1]
    assert texts[1][:3] == ["及筮日", "主人冠端玄", "卽位于門外西面"]


def test_a_shu_printed_for_the_note_mark_opens_the_note():
    """The 注疏 prints 疏 where 鄭玄's 注 belongs in 覲禮 (``…成拜乃出疏擯者請之侯氏坐取圭…疏(注釋曰云侯氏坐取圭``,
    KR1d0028_010) and 鄉射禮 (``席於尊東疏尊東明與賓夾尊也…疏(注釋曰上云尊``, KR1d0028_005): the text after
    it is the note the 疏's 注釋曰 quotes, so the block's classic ends before it; a 疏 of the classic, or
    one the 疏 on the classic (釋曰) follows, stays classic."""
    from yili.ingest.document import read_file

    jin = read_file(shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_010.txt"))
    block = next(b for b in jin.blocks if "擯者延之曰升" in b.classic.reading_text)
    assert block.classic.reading_text.endswith("再拜稽首擯者延之曰升升成拜乃出")
    assert block.commentary[0].reading_text.startswith("疏擯者請之侯氏坐取圭則遂左降拜稽首送玉也")
    she = read_file(shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_005.txt"))
    block = next(b for b in she.blocks if "大夫降主人辭降" in b.classic.reading_text)
    assert block.classic.reading_text.endswith("席於尊東")
    assert block.commentary[0].reading_text == "疏尊東明與賓夾尊也不言東上統於尊也"
    run = "主人布席疏布在東疏(釋曰云云)"
    doc = parse_text("#+TITLE: 儀禮注疏\n" + run + "\n", source="KR1d0028_x.txt")
    assert doc.blocks[0].classic.reading_text == "主人布席疏布在東"


def test_a_mourning_entry_and_its_chuan_with_no_note_between_are_one_block(extractor):
    """喪服 (KR1d0028_011): the 注疏 prints the 疏 on an entry between the entry and its 傳 (``○父疏(釋曰周公設經…)
    傳曰爲父何以斬衰也父至尊也``).  With no note of 鄭玄's between, the 傳 continues the entry's block, as the
    述註 prints it (``父○𫝊曰爲父何以斬衰也父至尊也``) and the 鄭注 runs it on; the entry's 疏 stays the
    block's first commentary and no step reads it.  With 鄭玄's note between (``○父爲長子注不言嫡子…傳曰何以
    三年也…``) the 傳 is a block of its own."""
    path = shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_011.txt")
    doc = read_file(path)
    classic = [b.classic.reading_text for b in doc.blocks]
    k = classic.index("○父傳曰爲父何以斬衰也父至尊也")
    assert classic[k + 1 : k + 5] == [
        "○諸侯爲天子傳曰天子至尊也",
        "○君傳曰君至尊也",
        "○父爲長子",
        "傳曰何以三年也正體於上又乃將所傳重也庶子不得爲長子三年不繼祖也",
    ]
    father = doc.blocks[k]
    assert [p.layer for p in father.commentary][:1] == ["shu"]
    assert father.commentary[0].reading_text.startswith("疏(釋曰周")
    assert [p.reading_text[:4] for p in doc.blocks[k + 3].commentary][:2] == ["注不言嫡", "音義(長"]
    # the block's steps read the entry and its 傳, not the 疏 printed between them
    steps = [s for s in extractor.extract(doc).steps if s.block in (father.number, father.number + 1)]
    assert [(s.block - father.number, s.text) for s in steps] == [
        (0, "父傳曰爲父何以斬衰也父至尊也"),
        (1, "諸侯爲天子傳曰天子至尊也"),
    ]
    text = doc.text
    assert text[steps[0].char_start : steps[0].char_start + 1] == "父" and text[steps[0].char_end - 1] == "也"
    assert "釋曰周" in steps[0].source  # the span runs across the 疏, as a 鄭注 step's runs across its notes


def test_a_circle_typed_inside_a_zhushu_note_starts_no_block():
    """In the 注疏 a ○ after 鄭玄's note marks the next classic section; a ○ typed inside a note stays in it when the
    text after it does not read as classic (issue 28): ``注異於醴也`` (公食大夫禮, KR1d0028_009, the note of
    ``○不授几``) typed ``注異於○醴也`` keeps every block, the note holding the ○, and ``注設筵於户西南面而左几公不賓至
    授几者…`` (its block 16) typed with a ○ after 户西 the same.  The real marks read as before: ``○不授几`` (margin −4.4, the
    models alone would read it as note) still opens block 160, and 有司徹's ``…卒爵拜賓答拜受爵○酌致爵于主婦…``
    (KR1d0028_017, the note run on into the classic before the ○) stays one block's classic."""
    path = shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_009.txt")
    text = path.read_text(encoding="utf-8")
    before = parse_text(text, source=path.name)

    def read(doc):
        return [(b.number, b.classic.reading_text, [p.reading_text for p in b.commentary]) for b in doc.blocks]

    assert before.blocks[159].classic.reading_text == "○不授几"
    for number, note, typed_after in (
        (160, "注異於醴也", "注異於"),
        (16, "注設筵於户西南面而左几公不賓至授几者親設湇醬可以略此", "注設筵於户西"),
    ):
        block = before.blocks[number - 1]
        piece = next(p for p in block.commentary if p.reading_text == note)
        at = piece.reading_spans[len(typed_after)][0]
        after = parse_text(text[:at] + "○" + text[at:], source=path.name)
        changed = [a for a, b in zip(read(before), read(after), strict=True) if a != b]
        assert len(after.blocks) == len(before.blocks) and [c[0] for c in changed] == [number]
        assert note.replace(typed_after, typed_after + "○") in [p.reading_text for p in after.blocks[number - 1].commentary]
    you = read_file(shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_017.txt"))
    assert you.blocks[149].classic.reading_text.endswith("卒爵拜賓答拜受爵○酌致爵于主婦主婦北堂司宮設席東面")


def test_a_circle_typed_in_a_zhushu_note_that_its_shu_explains_starts_no_block():
    """喪服 (KR1d0028_011, block 88): ``○女子子適人者為衆昆弟注父在則同父沒乃為父後者服期也疏(釋曰…注釋曰云父沒乃為父
    後者服期也者…)``.  A ○ typed after 乃為 leaves ``父後者服期也`` between it and a 疏 whose part on the note
    (注釋曰) quotes it: the text before such a 疏 ends a note, so the ○ stays in the note (the models alone read
    ``父後者服期也`` as classic, and the ○ used to open a block, renumbering every later one, issue 28).  A 疏 with
    no part on a note (``疏(釋曰…)`` alone) decides nothing; the layout's own ○ read as before."""
    path = shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_011.txt")
    text = path.read_text(encoding="utf-8")
    before = parse_text(text, source=path.name)

    def read(doc):
        return [(b.number, b.classic.reading_text, [p.reading_text for p in b.commentary]) for b in doc.blocks]

    block = before.blocks[87]
    assert block.classic.reading_text == "○女子子適人者為衆昆弟"
    note = "注父在則同父沒乃為父後者服期也"
    piece = next(p for p in block.commentary if p.reading_text == note)
    shu = "".join(p.reading_text for p in block.commentary if p.layer == "shu").replace("/", "")
    assert block.commentary[0] is piece and "注釋曰云父沒乃為父後者服期也者" in shu
    at = piece.reading_spans[len("注父在則同父沒乃為")][0]
    after = parse_text(text[:at] + "○" + text[at:], source=path.name)
    changed = [a for a, b in zip(read(before), read(after), strict=True) if a != b]
    assert len(after.blocks) == len(before.blocks) and [c[0] for c in changed] == [88]
    assert after.blocks[87].commentary[0].reading_text == "注父在則同父沒乃為○父後者服期也"


def _stream(text: str) -> list:
    """A 注疏 stream of characters with made-up spans, as :func:`yili.ingest.layouts._zhushu_marked_blocks` reads it."""
    return [(c, (k, k + 1)) for k, c in enumerate(text)]


def test_a_shu_printed_as_several_parentheses_is_read_as_one():
    """``疏(注/釋)(曰…)``: the layout parts a long 疏 into parentheses in a row; its part on the note opens with 注釋曰
    across them (賓禮 KR1d0028_008 ``注拜拜賜也○唯稍不拜疏(注/釋)(曰案…``), and an 音義 is its own row."""
    from yili.ingest import layouts

    stream = _stream("唯稍不拜疏(注/釋)(曰案上) (文)音義(為于/偽反)疏(釋曰云其禮者)○")
    at = stream.index(("疏", (4, 5)))
    assert layouts._parentheses_at(stream, at) == [("疏", "注釋曰案上文"), ("音義", "為于偽反"), ("疏", "釋曰云其禮者")]
    assert layouts._opens_note_shu(stream, at) and layouts._shu_on_a_note(stream, at)
    assert layouts._parentheses_at(stream, 0) == []


def test_commentary_on_a_word_before_the_circle_keeps_it_in_the_note():
    """An 音義 glosses first a word of its block (為, in 君初為之辭矣), a 疏 quotes one (``釋曰云主人…``): if that word is
    before the ○ and not after it, the ○ stands inside the block (聘禮 KR1d0028_008, 有司徹 KR1d0028_017)."""
    from yili.ingest import layouts

    stream = _stream("明日問大夫之下音義(為于/偽反)")
    k = 7
    assert layouts._glosses_before(stream, k, "大夫不敢辭君初為之辭矣注此句宜在", "明日問大夫之下")
    assert not layouts._glosses_before(stream, k, "大夫不敢辭君初之辭矣注此句宜在", "明日問大夫之下")  # 為 nowhere
    assert not layouts._glosses_before(stream, k, "君初為之辭矣注此句宜在", "明日為之下")  # 為 after the ○ too
    quote = _stream("其異者不告旨疏(釋曰云主人拜啐酒)")
    assert layouts._glosses_before(quote, 6, "主人如尸禮尊也", "其異者不告旨")
    assert not layouts._glosses_before(quote, 6, "如尸禮尊也", "其異者不告旨")


def test_a_person_alone_before_a_shu_is_no_section_but_a_mourning_entry_is():
    """``○主人疏(釋曰自此盡…)`` with no 傳 after is the end of a note (有司徹 ``注酌者將酢○主人疏(…``); the 喪服's
    ``○父疏(釋曰…)傳曰爲父何以斬衰也`` and ``○適孫疏(…)(…)傳曰…`` are entries, their 傳 after their 疏; so is the title
    記, and a section of three characters (聘禮 ``不饗食疏(…``) or one that a note closes."""
    from yili.ingest import layouts

    assert layouts._name_alone(_stream("主人疏(釋曰自此盡就筵)司宮設席"), 2, "主人")
    assert layouts._name_alone(_stream("主婦疏(釋曰)(自此)主人降"), 2, "主婦")
    assert not layouts._name_alone(_stream("父疏(釋曰周公設經)傳曰爲父何以斬衰也"), 1, "父")
    assert not layouts._name_alone(_stream("適孫疏(釋曰)(大功也)傳曰何以期也"), 2, "適孫")
    assert not layouts._name_alone(_stream("記疏(釋曰凡言記者)冠義"), 1, "記")
    assert not layouts._name_alone(_stream("不饗食疏(釋曰)"), 3, "不饗食")
    assert not layouts._name_alone(_stream("主人注謂"), 2, "主人")
