"""Each rule of the language added for agents, recipients and toasts, pinned by a small text
written for the test in the style of the classic (and, where one exists, by the excerpt)."""

from __future__ import annotations

from tests.conftest import extract_text, step_at


def rows(r, *fields):
    out = []
    for s in r.steps:
        rec = s.as_record()
        out.append(tuple(rec[f] for f in fields))
    return out


def test_passive_toast_reading(extractor):
    # 主人献众賔 … 众賔献: the guests, having been named as receivers, "are toasted"
    r = extract_text(extractor, "主人献众賔\n\n众賔献则不拜受爵")
    assert [(t.giver[0].label, t.type.label, t.receiver[0].label) for t in r.toasts][:2] == [
        ("主人", "献", "众賔"),
        ("主人", "献", "众賔"),
    ]


def test_the_subject_before_a_condition_resumes_after_ze(extractor):
    r = extract_text(extractor, "賔受觯降\n\n公有命则不易不洗反升")
    assert rows(r, "text", "agent")[2:] == [("公有命", "公"), ("则不易", "賔"), ("不洗", "賔"), ("反升", "賔")]
    assert {s.mode for s in r.steps if s.block == 2} == {"conditional"}


def test_bow_of_sending_off_hands_the_topic_to_the_receiver(extractor):
    r = extract_text(extractor, "主人献工工拜受爵主人拜送爵坐祭立卒爵")
    assert rows(r, "text", "agent")[3:] == [("坐", "工"), ("祭", "工"), ("立", "工"), ("卒爵", "工")]


def test_the_requester_goes_on_after_the_grant(extractor):
    r = extract_text(extractor, "公坐\n\n司正升请彻俎公许告于賔")
    assert rows(r, "text", "agent", "recipient")[2:] == [
        ("请彻俎", "司正", "公"),
        ("公许", "公", "司正"),
        ("告于賔", "司正", "賔"),
    ]


def test_ji_joins_persons_to_the_actor(extractor):
    r = extract_text(extractor, "賔反入及卿大夫皆坐")
    assert rows(r, "text", "agent") == [("賔反入", "賔"), ("及卿大夫皆坐", "賔+卿+大夫")]


def test_topic_with_er_and_zhi_is_served_by_the_default_agent(extractor):
    r = extract_text(extractor, "祝史亦就其位而荐之")
    assert rows(r, "agent", "action", "recipient", "location") == [("膳宰", "荐", "祝史", "其位")]


def test_the_ruler_does_not_prepare_the_cup(extractor):
    # 注 君尊不酌: after 公答再拜 the washing is the other party's
    r = extract_text(extractor, "媵爵者再拜稽首公答再拜\n\n洗象觯升实之")
    assert [s.agent_label for s in r.steps if s.block == 2] == ["媵爵者", "媵爵者", "媵爵者"]


def test_receiving_is_from_the_toasts_giver(extractor):
    r = extract_text(extractor, "賔以旅酬于西阶上大夫升受旅")
    assert rows(r, "text", "recipient")[-1] == ("受旅", "賔")


def test_a_negated_bow_on_receiving_is_two_acts(extractor, extraction):
    r = extract_text(extractor, "主人献工众工不拜受爵")
    assert rows(r, "text", "action", "mode")[1:] == [("众工不拜", "拜", "negated"), ("受爵", "受", "actual")]
    assert [s.text for s in extraction.steps if s.block == 89][:2] == ["众工不拜", "受爵"]


def test_a_toast_left_out_is_no_toast(extractor):
    r = extract_text(extractor, "主人不献賔")
    assert r.steps[0].mode == "negated" and r.toasts == ()


def test_ji_jian_is_an_offering_from_the_dishes(extractor):
    r = extract_text(extractor, "大夫祭荐")
    assert rows(r, "text", "action", "object") == [("大夫祭荐", "祭", "荐")]


def test_the_speaker_before_yue_is_not_addressed(extractor):
    r = extract_text(extractor, "司正命卿大夫君曰以我安卿大夫皆对曰诺")
    assert rows(r, "agent", "action", "recipient") == [("司正", "命", "卿+大夫"), ("卿+大夫", "对", "司正")]


def test_either_choice_offers_the_same_persons_again(extraction):
    t75 = next(t for t in extraction.toasts if t.step.block == 75)
    t90 = next(t for t in extraction.toasts if t.step.block == 90)
    assert t75.as_record()["receiver"] == t90.as_record()["receiver"] == "賔|长"
    # 唯公所酬: whomever the ruler chooses — a choice within what happens, not a condition
    assert t75.step.mode == t90.step.mode == "actual"


def test_the_pledge_chain_in_the_excerpt(extraction):
    assert step_at(extraction, "受旅").recipient_label == "賔"
    assert (step_at(extraction, "拜", 62).recipient[0].key, step_at(extraction, "大夫答拜").recipient_label) == (
        "role-dafu",
        "賔",
    )


def test_a_place_owned_by_a_person(extractor):
    r = extract_text(extractor, "主人坐取爵实之賔席之前西北面献賔")
    last = r.steps[-1]
    assert (last.location, last.facing.label, last.agent_label, last.recipient_label) == ("賔席之前", "西北面", "主人", "賔")


def test_a_relative_phrase_with_zhe_is_the_next_subject(extractor):
    r = extract_text(extractor, "主人辩献士士既献者立于东方西面北上")
    assert rows(r, "text", "agent", "location") == [("主人辩献士", "主人", None), ("士既献者立于东方西面北上", "士", "东方")]


def test_left_hand_is_not_a_place_beside_a_person(extractor):
    r = extract_text(extractor, "小臣左何瑟面鼓\n\n主人賔右奠觚")
    assert rows(r, "text", "action", "location") == [
        ("小臣左何瑟", "执", None),
        ("面鼓", "面", None),
        ("主人賔右奠觚", "奠", "賔右"),
    ]


def test_a_command_received_holds_no_cup(extractor):
    r = extract_text(extractor, "司正洗角觯升受命")
    assert rows(r, "text", "object", "vessel")[-1] == ("受命", "命", None)
