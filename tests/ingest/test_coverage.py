"""The vocabulary's report (ingest/coverage.py, ``yili-kg words``): the share of a chapter's classic
characters inside a recognised act or person, and the verb-like words the vocabulary does not know."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import shared_path
from yili.ingest.coverage import coverage, not_acts
from yili.ingest.document import parse_text, read_file


def test_a_word_standing_where_a_verb_stands_is_reported_with_its_context(extractor):
    doc = parse_text("儀禮\n\n主人揖賔賔嘫于門外主人揖", edition="t")  # 嘫: no word of the vocabulary
    c = coverage(doc, extractor.tokenizer, extractor.vocabulary, not_acts())
    assert [(v.word, v.count, v.contexts, v.decided) for v in c.verb_like] == [("嘫", 1, ["揖賔賔嘫于門外主人"], None)]
    # 12 characters; 主人 揖 賔 賔 … 主人 揖 (8) are persons and acts; 嘫, 于 and the place 門外 are not
    assert (c.characters, c.recognised) == (12, 8)
    assert [v.word for v in c.undecided] == ["嘫"]


def test_a_decided_word_is_reported_with_its_reading(extractor):
    doc = parse_text("儀禮\n\n賔對曰某不敢為儀", edition="t")
    c = coverage(doc, extractor.tokenizer, extractor.vocabulary, not_acts())
    dared = next(v for v in c.verb_like if v.word == "敢")
    assert dared.decided is not None and dared.decided.reading == "modal" and not c.undecided


def test_no_decided_word_is_also_an_act_of_the_vocabulary(vocabulary):
    acts = {label for c in vocabulary.concepts.values() if c.kind == "action" for label in c.labels}
    both = sorted(w for w in not_acts() if w in acts)
    assert both == [], f"decided not to be acts, yet acts of the vocabulary: {both}"


def test_shixiangjianli_report_counts_its_unknown_words(extractor):
    path = shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_003.txt")
    c = coverage(read_file(str(path)), extractor.tokenizer, extractor.vocabulary, not_acts())
    assert c.rite == "shixiangjianli" and 0.40 < c.share < 0.60
    words = {v.word: v for v in c.verb_like}
    assert "疑" not in words  # 正方不疑君: an act of the vocabulary now (疑, to face by guesswork, 註 疑君所處邪鄉之)
    assert words["茅"].count == 1 and words["茅"].contexts == ["則曰萆茅之臣庶人"]
    assert words["茅"].decided.reading == "noun"  # 萆茅之臣: a self-name in words said
    assert not c.undecided
    assert "舒" not in words  # 執玉者則唯舒武: an act of the vocabulary now (舒, to slow the step)
    assert words["敢"].decided.reading == "modal"  # 某不敢為儀: "dare", the act is 為
    assert "奉" not in words  # 左頭奉之: an act of the vocabulary now (奉, to hold up)


def test_words_command_prints_one_line_per_chapter_and_refuses_front_matter():
    run = [sys.executable, "-m", "yili.api.cli", "words"]
    chapter = str(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_003.txt"))
    out = subprocess.run([*run, chapter, "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    [rep] = json.loads(out.stdout)
    assert rep["rite"] == "shixiangjianli" and rep["characters"] > 1000
    assert {"word": "敢", "reading": next(v for v in rep["verb_like"] if v["word"] == "敢")["decided"]["reading"]} == {
        "word": "敢",
        "reading": "modal",
    }
    front = str(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_000.txt"))
    bad = subprocess.run([*run, front], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1
    assert "KR1d0040_000.txt" in bad.stderr and "Traceback" not in bad.stderr


def _packaged_reports(extractor):
    """The report on each of the 13 packaged chapters (the default of ``yili-kg words``)."""
    from yili.api.default_corpus import embedded_corpus

    decided = not_acts()
    return {
        c.rite: c
        for c in (coverage(read_file(str(p)), extractor.tokenizer, extractor.vocabulary, decided) for p in embedded_corpus())
    }


def test_every_verb_like_word_of_the_packaged_chapters_is_decided(extractor):
    """Issue 22, "the vocabulary's report": no verb-like word is left that the vocabulary does not know and
    ``not_acts.tsv`` does not decide, in any of the 13 chapters."""
    reports = _packaged_reports(extractor)
    assert len(reports) == 13
    left = {rite: [v.word for v in c.undecided] for rite, c in reports.items() if c.undecided}
    assert left == {}, f"undecided verb-like words: {left}"


def test_words_decided_as_acts_are_read_as_those_acts(vocabulary):
    """The acts added from the report, each found by its word with its concept (glosses from the 註)."""
    expected = {
        "代": "action-dai-take-turns",  # 士喪 乃代哭不以官 註 代更也
        "涖": "action-li-preside",  # 士喪 族長涖卜 註 涖臨也
        "莅": "action-li-preside",  # 士冠 吾子將莅之敢宿 (the same word)
        "營": "action-ying-measure-out",  # 士喪 筮宅冡人營之 註 營猶度也
        "窆": "action-bian-lower-coffin",  # 既夕 乃窆 註 窆下棺也
        "邇": "action-er",  # 士虞 祝命佐食邇敦 註 邇近也: the vocabulary's 爾 (特牲 爾黍稷 註 爾近也)
        "議": "action-yi-deliberate",  # 有司徹 乃議侑於賔 註 議猶擇也
        "齎": "action-ji-hand-over",  # 聘 又齎皮馬 註 齎猶付也
        "乆": "action-jiu-cover",  # 士喪 冪用疏布乆之 註 乆讀為灸 謂以盖塞鬲口也
        "假道": "action-jia-ask-passage",  # 聘 使次介假道
        "髺髪": "action-kuofa-bind-hair",  # 士喪 主人髺髪袒
        "疑": "action-yi-guess",  # 士相見 正方不疑君 註 不得疑君所處邪鄉之
        "鈎楹": "action-gouying-round-pillar",  # 鄉射 鈎楹内 註 鈎楹繞楹而東也
        "綏祭": "action-ruoji",  # 士虞 不綏祭: 綏 = 墮, the 墮祭 (挼祭) of the vocabulary
        "沃": "action-wo-pour-water",  # 特牲記 執匜者西面淳沃 註 淳沃稍注之
        "𦵏": "action-zang",  # 士虞記 三月而𦵏: a spelling of 葬 (variants.tsv)
    }
    assert {w: vocabulary.lookup(w, "action").key for w in expected} == expected
    # 涖卜 where the text names the presider (士喪 告于涖卜與主人, 註 涖卜族長也) is a person, not 涖 + 卜
    assert [c.key for c in vocabulary.by_label["涖卜"]] == ["role-libu"]
    # 代脅 the rear ribs (有司徹 正脅一代脅一) is a cut of meat, not 代 "to take turns" + 脅
    assert [c.key for c in vocabulary.by_label["代脅"]] == ["object-daixie"]
    assert all(len(vocabulary.by_label[w]) == 1 for w in expected)  # one reading each: no other term has the word


def test_words_decided_not_to_be_acts_keep_their_reading():
    """Rows of not_acts.tsv from the report: what each word is instead."""
    decided = not_acts()
    got = {w: decided[w].reading for w in ("保", "乘", "乗", "緦", "固", "楅", "凢", "㫄", "膚", "館", "比", "賄", "數")}
    assert got == {
        "保": "description",  # 士冠 永乃保之: in the blessing
        "乘": "numeral",  # 乘矢 "four arrows"
        "乗": "numeral",  # = 乘
        "緦": "mourning term",  # 喪服
        "固": "adverb",  # 固辭
        "楅": "noun",  # 乃設楅於中庭
        "凢": "adverb",  # = 凡
        "㫄": "noun",  # = 旁
        "膚": "noun",  # 既夕 設握裏親膚: the skin, after the adverb 親
        "館": "noun",  # measured: as an act it cut the places of 聘
        "比": "description",  # 比及門 "by the time he reaches the gate" as often as 比三耦 "pairs the archers"
        "賄": "noun",  # 賄幣, 重賄 "the goods" as often as 賄用束紡 "gives goods"
        "數": "noun",  # 無常數, 以純數告: a noun in every chapter but 鄉射's 先數右獲
    }
    assert "士喪" in decided["館"].note or "聘" in decided["館"].note
    assert not {"濯", "衣", "連"} & set(decided)  # now acts, read by their place (衣尸, 皆濯, 設握乃連)
