"""Rite profiles (ontology/rites.ttl): detection of a text's rite, and banquet facts kept to the banquet.

The same small texts, written in the style of the classic, are read as two rites: a fact of the 燕禮
(its default agents, 君尊不酌, its own readings) holds there and nowhere else, while the rules of the
language hold in both.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from yili.ingest.document import load_default, parse_text, read_file
from yili.ingest.rites import identify
from yili.ontology.errors import InputError

from tests.conftest import extract_text, shared_path


def kanripo() -> Path:
    """The shared Kanripo folder (the test is skipped, or fails under CI, when it is absent)."""
    return shared_path("corpus", "kanripo")


def rows(r, *fields):
    return [tuple(s.as_record()[f] for f in fields) for s in r.steps]


def test_every_rite_of_the_yili_has_a_profile_whose_terms_exist(vocabulary):
    rites = vocabulary.rites
    assert len(rites) == 17
    assert [r.chapter for r in rites.values()] == list(range(1, 18))
    assert (rites["yanli"].hant, rites["yanli"].hans, rites["yanli"].en) == ("燕禮", "燕礼", "The Banquet")
    for r in rites.values():
        assert r.title_forms, r.key
        for key in (*r.cast, r.host, r.chief_guest, r.presiding):
            assert key is None or vocabulary.concepts[key].kind == "role", (r.key, key)
        for f in r.facts:
            assert f.source, (r.key, f)
            for key in (f.action, f.role, f.concept, f.recipient):
                assert key is None or key in vocabulary.concepts, (r.key, key)
    # the banquet's facts are the banquet's (and the 大射's), with their sources
    assert rites["yanli"].does_not_pour("role-gong").source.startswith("注 君尊不酌")
    assert rites["yanli"].default_agent("action-jian").role == "role-shanzai"
    assert rites["teshengkuishili"].does_not_pour("role-gong") is None
    assert rites["teshengkuishili"].default_agent("action-jian") is None
    assert rites["yanli"].readings["致者"] == "role-yingjuezhe"
    assert "致者" not in rites["xiangyinjiuli"].readings


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("KR1d0040/KR1d0040_001.txt", "shiguanli"),  # 　　士冠禮第一
        ("KR1d0040/KR1d0040_005.txt", "xiangsheli"),  # 鄉射禮苐五 (苐 for 第)
        ("KR1d0028/KR1d0028_004.txt", "xiangyinjiuli"),  # 鄕飲酒禮第四 (鄕 for 鄉)
        ("KR1d0026/KR1d0026_011.txt", "sangfu"),  # 䘮服第十一
        ("KR1d0026/KR1d0026_017.txt", "yousiche"),  # 有司第十七
        ("KR1d0040/KR1d0040_015.txt", "teshengkuishili"),
    ],
)
def test_the_rite_is_detected_from_the_title_line(vocabulary, path, key):
    assert identify(read_file(kanripo() / path), vocabulary).key == key


def test_a_text_with_no_title_is_recognised_from_its_cast(vocabulary):
    # the embedded excerpt has no title: 公, 射人, 膳宰, 媵爵者 … make it the 燕禮, not the 大射
    assert identify(load_default(), vocabulary).key == "yanli"
    tei = shared_path("corpus") / "yili_shuzhu_03_shixiangjianli.kanripoxml-tei-fragment.xml"
    assert identify(read_file(tei), vocabulary).key == "shixiangjianli"
    # a text that names no rite's cast gets the neutral profile
    assert identify(parse_text("甲\n\n甲升乙降"), vocabulary).neutral


def test_a_given_rite_wins_and_an_unknown_one_is_named(vocabulary, extractor):
    doc = parse_text("题\n\n主人升")
    assert identify(doc, vocabulary, "特牲饋食禮").key == "teshengkuishili"
    assert identify(doc, vocabulary, "燕礼").key == "yanli"
    with pytest.raises(InputError, match="unknown rite '皇帝'"):
        extractor.extract(doc, rite="皇帝")


def test_the_extraction_mints_iris_under_the_detected_rite(extractor):
    r = extractor.extract(read_file(kanripo() / "KR1d0040" / "KR1d0040_015.txt"))
    assert r.profile.key == "teshengkuishili" and r.document.rite == "teshengkuishili"
    assert r.steps[0].as_record()["id"].startswith("https://w3id.org/yili-kg/step/teshengkuishili/")


def test_the_banquets_default_agents_hold_in_the_banquet_only(extractor):
    text = "主人献賔\n\n荐脯醢"
    banquet = extract_text(extractor, text, rite="yanli")
    sacrifice = extract_text(extractor, text, rite="teshengkuishili")
    assert rows(banquet, "text", "agent")[-1] == ("荐脯醢", "膳宰")  # 燕禮記 凡薦與羞者小膳宰也
    assert rows(sacrifice, "text", "agent")[-1] == ("荐脯醢", "主人")  # carried over: no 膳宰 in a 士's house
    assert "燕禮記" in next(n for n in banquet.steps[-1].notes if n.startswith("agent"))


def test_the_ruler_does_not_pour_in_the_banquet_only(extractor):
    text = "媵爵者再拜稽首公答再拜\n\n洗象觯升实之"
    banquet = extract_text(extractor, text, rite="yanli")
    visit = extract_text(extractor, text, rite="shixiangjianli")  # the ruler is of its cast, not too exalted to pour
    assert [s.agent_label for s in banquet.steps if s.block == 2] == ["媵爵者", "媵爵者", "媵爵者"]
    assert [s.agent_label for s in visit.steps if s.block == 2] == ["公", "公", "公"]


def test_a_rite_reading_is_that_rites_only(extractor):
    # 燕禮 尔大夫 注曰揖而移之: 爾 is the salute there; elsewhere 爾 is "move near" (特牲 佐食爾黍稷)
    banquet = extract_text(extractor, "公尔大夫", rite="yanli")
    sacrifice = extract_text(extractor, "佐食爾黍稷", rite="teshengkuishili")
    assert rows(banquet, "agent", "action", "recipient") == [("公", "揖", "大夫")]
    assert rows(sacrifice, "agent", "object") == [("佐食", "黍稷")] and sacrifice.steps[0].action.key == "action-er"
    # 致者 names the 媵爵者 in the banquet only
    assert extract_text(extractor, "若君命皆致则致者序进", rite="yanli").steps[-1].agent[0].key == "role-yingjuezhe"
    assert all(a.key != "role-yingjuezhe" for s in extract_text(extractor, "致者序进", rite=None).steps for a in s.agent)


def test_one_giver_of_the_presentations_is_a_banquet_fact(extractor):
    # 燕禮 注曰主人宰夫也: the 獻主 gives every 獻 (辩献卿 in another paragraph is still his)
    text = "主人献賔\n\n賔坐祭\n\n献卿"
    assert rows(extract_text(extractor, text, rite="yanli"), "agent")[-1] == ("主人",)
    # elsewhere the same-kind fallback holds only within one exchange: the carried subject acts
    assert rows(extract_text(extractor, text, rite="teshengkuishili"), "agent")[-1] == ("賔",)


def test_an_unwritten_agent_at_the_opening_is_the_presiding_person(extractor):
    assert rows(extract_text(extractor, "揖大夫", rite="yanli"), "agent") == [("公",)]
    assert rows(extract_text(extractor, "揖賔", rite="shiguanli"), "agent") == [("主人",)]


def test_no_rite_name_is_written_in_the_rules():
    """The extractor reads every rite's facts from ontology/rites.ttl: no string in ingest/ names a
    rite (docstrings and comments may cite the text)."""
    import yili.ingest

    from tests.conftest import extract_text as _  # noqa: F401

    names: set[str] = set()
    from yili.ontology.vocabulary import load_vocabulary

    for r in load_vocabulary().rites.values():
        names.update({r.key, r.hant, r.hans, *r.title_forms})
    root = Path(yili.ingest.__file__).parent
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body and isinstance(n.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                assert node.value not in names, f"{path.name}: {node.value!r} names a rite"


def test_the_note_on_a_block_says_who_acts(extractor):
    # 特牲 註曰利佐食也: 利 is the 佐食 from that block on
    r = extractor.extract(parse_text("題\n\n利洗散獻于尸\n\n註曰利佐食也\n\n利拜", edition="t"), rite="teshengkuishili")
    assert [(s.text, s.agent_label) for s in r.steps] == [("利洗散", "佐食"), ("獻于尸", "佐食"), ("利拜", "佐食")]
    assert (r.toasts[0].giver[0].key, r.toasts[0].receiver[0].key) == ("role-zuoshi", "role-shi-corpse")
    # 士昏 註曰主人壻也: who the host is changes from there on
    r = extractor.extract(parse_text("題\n\n主人升\n\n註曰主人壻也\n\n主人降", edition="t"), rite="shihunli")
    assert [s.agent[0].key for s in r.steps] == ["role-xu-groom", "role-xu-groom"]
    # 燕禮 注曰主人宰夫也: the 宰夫 is no party of the banquet; the 主人 stays the 主人
    r = extractor.extract(parse_text("題\n\n主人升\n\n注曰主人宰夫也", edition="t"), rite="yanli")
    assert r.steps[0].agent[0].key == "role-zhuren"
