"""Steps and toasts read from the excerpt, and each rule of the language pinned by a small
example, including text written for the test in the same style as the classic."""

from __future__ import annotations

import pytest

from tests.conftest import extract_text, step_at


def fields(step):
    r = step.as_record()
    return (r["agent"], r["action"], r["recipient"], r["object"], r["vessel"], r["wine"], r["location"], r["facing"], r["mode"])


# -- toasts: who toasts whom ---------------------------------------------------------------------


def test_first_toast_is_the_host_toasting_the_guest(extraction):
    t = extraction.toasts[0]
    r = t.as_record()
    assert (r["giver"], r["type"], r["receiver"], r["text"]) == ("主人", "献", "賔", "主人筵前献賔")
    assert extraction.document.text[r["char_start"] : r["char_end"]] == "主人筵前献賔"
    assert t.step.block == 24
    # the cup is the 觚 taken up in block 22, the wine the 膳 poured in block 23
    assert (t.step.vessel.label, t.step.wine.label, t.step.location) == ("觚", "膳", "筵前")


def test_the_guest_returns_the_toast(extraction):
    t = next(t for t in extraction.toasts if t.step.text == "以酢主人于西阶上")
    assert (t.as_record()["giver"], t.type.label, t.as_record()["receiver"]) == ("賔", "酢", "主人")
    assert t.step.location == "西阶上"


def test_the_rulers_pledge_toast(extraction):
    t = next(t for t in extraction.toasts if t.step.block == 55)
    assert (t.as_record()["giver"], t.type.label, t.as_record()["receiver"]) == ("公", "酬", "賔")
    assert "以酬賔" in t.step.text
    # 注57 君尊不酌: the ruler does not pour, the guest refills the cup
    assert t.performed_by[0].label == "賔"


def test_the_ruler_return_toast_is_poured_by_the_host(extraction):
    t = next(t for t in extraction.toasts if t.step.block == 41)
    r = t.as_record()
    assert (r["giver"], r["type"], r["receiver"], r["performed_by"]) == ("公", "酢", "主人", "主人")
    assert t.step.text == "酢于阼阶下"
    assert (t.step.agent_label, t.step.recipient_label) == ("主人", "主人")


def test_the_hosts_ying_to_the_guest_is_his_chou(extraction):
    t = next(t for t in extraction.toasts if t.step.block == 42)
    assert (t.type.label, t.type_alternative.label, t.as_record()["receiver"]) == ("酬", "媵", "賔")
    ying = next(t for t in extraction.toasts if t.step.block == 49)
    assert (ying.type.label, ying.giver[0].key, ying.receiver[0].label) == ("媵", "role-yingjuezhe", "公")


def test_toasts_of_the_whole_excerpt_in_order(extraction):
    got = [
        (
            t.giver[0].key.split("-", 1)[1],
            t.type.label,
            t.receiver[0].key.split("-", 1)[1] if t.receiver[0].key else t.receiver[0].label,
        )
        for t in extraction.toasts[:10]
    ]
    assert got == [
        ("zhuren", "献", "bin"),
        ("bin", "酢", "zhuren"),
        ("zhuren", "献", "gong"),
        ("gong", "酢", "zhuren"),
        ("zhuren", "酬", "bin"),
        ("yingjuezhe", "媵", "gong"),
        ("gong", "酬", "bin"),
        ("bin", "旅酬", "dafu"),
        ("dafu", "旅酬", "dafu"),
        ("zhuren", "献", "qing"),
    ]


def test_summary_toasts_to_the_rest_of_a_rank(extraction):
    summaries = [(t.step.block, t.giver[0].label, t.receiver[0].label) for t in extraction.toasts if t.summary]
    assert (70, "主人", "卿") in summaries and (80, "主人", "大夫") in summaries and (89, "主人", "众工") in summaries


def test_a_conditional_toast_to_the_lords_is_found(extraction):
    t = next(t for t in extraction.toasts if t.receiver and t.receiver[0].key == "role-zhugong")
    assert (t.giver[0].label, t.step.mode, t.step.block) == ("主人", "conditional", 70)


# -- steps of the excerpt ----------------------------------------------------------------------------


def test_segmentation_of_the_domain_example(extraction):
    block = [s.text for s in extraction.steps if s.block == 19]
    assert block == ["主人北面盥", "坐", "取觚", "洗", "賔少进", "辞洗", "主人坐", "奠觚于篚", "兴", "对", "賔反位"]
    agents = [s.agent_label for s in extraction.steps if s.block == 19]
    assert agents == ["主人"] * 4 + ["賔"] * 2 + ["主人"] * 4 + ["賔"]


def test_steps_tile_each_block_without_the_section_mark(extraction):
    doc = extraction.document
    for block in doc.blocks:
        steps = [s for s in extraction.steps if s.block == block.number]
        assert "".join(s.text for s in steps) == block.classic.text.replace("○", "")
        for s in steps:
            assert doc.text[s.char_start : s.char_end] == s.text
    assert [s.sequence for s in extraction.steps] == list(range(1, len(extraction.steps) + 1))


def test_step_fields_in_the_excerpt(extraction):
    assert fields(step_at(extraction, "主人賔右拜送爵")) == ("主人", "拜送", "賔", "爵", "觚", "膳", "賔右", None, "actual")
    assert fields(step_at(extraction, "立于尊南北面东上")) == ("执幂者", "立", None, None, None, None, "尊南", "北面", "actual")
    assert fields(step_at(extraction, "不啐酒", 33)) == ("主人", "啐", None, "酒", "觚", "膳", None, None, "negated")
    ming = step_at(extraction, "若君命皆致")
    assert (ming.agent[0].key, ming.action.label, ming.recipient[0].key, ming.object, ming.mode) == (
        "role-gong",
        "命",
        "role-yingjuezhe",
        "致",
        "conditional",
    )  # 致者 = 媵爵者
    assert step_at(extraction, "射人升賔").action.label == "命"  # 大射礼 摈者以命升賔


# -- rules of the language, on text written for the tests -------------------------------------------


def test_subject_is_carried_and_changes_at_a_written_person(extractor):
    r = extract_text(extractor, "主人坐取觯洗賔辞洗主人对卒洗")
    assert [(s.text, s.agent_label) for s in r.steps] == [
        ("主人坐", "主人"),
        ("取觯", "主人"),
        ("洗", "主人"),
        ("賔辞洗", "賔"),
        ("主人对", "主人"),
        ("卒洗", "主人"),
    ]
    assert [s.recipient_label for s in r.steps][3:5] == ["主人", "賔"]  # 辞 to the host, 对 to the guest
    assert r.steps[3].object == "洗"  # 辞洗: declining the washing


def test_cup_in_hand_and_toast_recipient(extractor):
    r = extract_text(extractor, "主人洗觚升实之献卿卿西阶上拜")
    assert [(s.text, s.vessel.label if s.vessel else None) for s in r.steps][:4] == [
        ("主人洗觚", "觚"),
        ("升", None),
        ("实之", "觚"),
        ("献卿", "觚"),
    ]
    assert (r.toasts[0].giver[0].label, r.toasts[0].receiver[0].label) == ("主人", "卿")
    assert (r.steps[4].agent_label, r.steps[4].recipient_label, r.steps[4].location) == ("卿", "主人", "西阶上")


def test_wine_goes_with_the_cup_to_the_toast(extractor):
    r = extract_text(extractor, "主人取觚洗酌散献大夫")
    toast = r.toasts[0]
    assert (toast.step.vessel.label, toast.step.wine.label) == ("觚", "散")


def test_pivot_verb_names_the_next_agent(extractor):
    r = extract_text(extractor, "公命小臣辞")
    assert [(s.text, s.agent_label, s.recipient_label) for s in r.steps] == [("公命小臣", "公", "小臣"), ("辞", "小臣", "公")]


def test_causative_motion_is_a_command(extractor):
    r = extract_text(extractor, "射人升卿卿升")
    assert [(s.text, s.action.label, s.recipient_label, s.object) for s in r.steps] == [
        ("射人升卿", "命", "卿", "升"),
        ("卿升", "升", None, None),
    ]


def test_negation_and_condition(extractor):
    r = extract_text(extractor, "大夫不拜卒爵\n\n若有诸公则主人献之")
    assert [(s.text, s.mode) for s in r.steps] == [
        ("大夫不拜", "negated"),
        ("卒爵", "actual"),
        ("若有诸公则主人献之", "conditional"),
    ]
    assert (r.toasts[0].giver[0].label, r.toasts[0].receiver[0].label) == ("主人", "诸公")


def test_condition_continues_into_a_block_without_a_subject(extractor):
    r = extract_text(extractor, "若有诸公则主人献之\n\n席于阼阶西\n\n卿升")
    assert [s.mode for s in r.steps] == ["conditional", "conditional", "actual"]


def test_reply_is_by_the_other_party(extractor):
    r = extract_text(extractor, "主人洗觚賔拜洗主人坐奠觚答拜\n\n主人拜賔答拜")
    assert [(s.text, s.agent_label, s.recipient_label) for s in r.steps][1:] == [
        ("賔拜洗", "賔", "主人"),
        ("主人坐", "主人", None),
        ("奠觚", "主人", None),
        ("答拜", "主人", "賔"),
        ("主人拜", "主人", "賔"),
        ("賔答拜", "賔", "主人"),
    ]


def test_repeats_link_to_the_step_repeated(extractor):
    r = extract_text(extractor, "賔拜洗主人答拜\n\n主人拜洗如賔礼")
    last = r.steps[-1]
    assert (last.text, last.repeats) == ("主人拜洗如賔礼", 1)


def test_place_phrases_and_rank_order(extractor):
    r = extract_text(extractor, "士立于东楹之东西面北上")
    s = r.steps[0]
    assert (s.location, s.location_term.key, s.facing.label, s.rank_order.label) == ("东楹之东", "place-dongying", "西面", "北上")


def test_the_pledge_passes_to_who_receives_it(extractor):
    r = extract_text(extractor, "賔以旅酬于西阶上大夫升受旅")
    assert [(t.giver[0].label, t.type.label, t.receiver[0].label) for t in r.toasts] == [("賔", "旅酬", "大夫")]
    assert r.steps[-1].object == "旅"


def test_traditional_characters_fold_to_the_same_terms(extractor):
    r = extract_text(extractor, "主人筵前獻賓賓西階上拜")
    t = r.toasts[0]
    assert (t.giver[0].key, t.type.key, t.receiver[0].key, t.receiver[0].label) == (
        "role-zhuren",
        "action-xian",
        "role-bin",
        "賓",
    )
    assert r.steps[1].location == "西階上"


@pytest.mark.parametrize("text", ["", "○", "之乎者也"])
def test_blocks_without_acts_give_no_steps(extractor, text):
    from yili.ingest.document import parse_text
    from yili.ontology.errors import InputError

    try:
        r = extractor.extract(parse_text("题\n\n" + text if text else "", source="<t>"))
    except InputError:
        return
    assert r.steps == ()
