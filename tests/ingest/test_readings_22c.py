"""Issue 22 (士相見禮, objects and places): rules of the language read on the shared chapters.

Each test names the chapter passage and asserts the clauses or the step fields the rule gives there.
"""

from __future__ import annotations

import pytest
from yili.ingest import clauses as C


def _steps(package_extractions, rite: str) -> list:  # type: ignore[no-untyped-def]
    return package_extractions[(rite, "shuzhu")].steps


def _clauses(extractor, text: str) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    toks = extractor.tokenizer.tokenize(text)
    return [
        ("".join(t.text for t in c.prefix), c.verb.text, "".join(t.text for t in c.suffix))
        for c in C.segment(toks, 0, vocabulary=extractor.vocabulary)
    ]


def test_diagonal_facing_after_zhi_splits(extractor) -> None:  # type: ignore[no-untyped-def]
    # 鄉射 主人阼階之東南面辭洗: east of the 阼階, facing south (之 takes a noun, not a facing)
    toks = extractor.tokenizer.tokenize("主人阼階之東南面辭洗")
    assert [(t.text, t.kind) for t in toks][:3] == [("主人", "role"), ("阼階之東", "place"), ("南面", "facing")]


def test_means_after_zhi_stays_with_its_act(extractor) -> None:  # type: ignore[no-untyped-def]
    # 士相見 下大夫相見以鴈飾之以布維之以索: one 以 phrase to each act
    assert _clauses(extractor, "下大夫相見以鴈飾之以布維之以索") == [
        ("下大夫", "相見", "以鴈"),
        ("", "飾", "之以布"),
        ("", "維", "之以索"),
    ]


def test_yi_before_a_motion_is_and_then(extractor) -> None:  # type: ignore[no-untyped-def]
    # 搢之以反位: "and returns to his place", two acts
    assert [c[1] for c in _clauses(extractor, "搢之以反位")] == ["搢", "反位"]


def test_time_with_his_act_is_no_place(package_extractions) -> None:  # type: ignore[no-untyped-def]
    # 士相見 終辭其摯於其入也: 於其入也 is "at his coming in", no 入 act and no place 其
    s = next(s for s in _steps(package_extractions, "shixiangjianli") if s.text.startswith("辭其摯於其入也"))
    rec = s.as_record()
    assert (rec["action"], rec["object"], rec["location"]) == ("辭", "摯", None)


@pytest.mark.parametrize(
    ("text", "action", "obj", "recipient"),
    [("主人再拜受", "拜受", "摯", "賔"), ("再拜稽首受", "拜受", "摯", "擯者")],
)
def test_bow_on_receiving_takes_the_gift_held_out(package_extractions, text, action, obj, recipient) -> None:  # type: ignore[no-untyped-def]
    s = next(s for s in _steps(package_extractions, "shixiangjianli") if s.text == text)
    rec = s.as_record()
    assert (rec["action"], rec["object"], rec["recipient"]) == (action, obj, recipient)


def test_receiving_with_the_thing_written_stays_two_acts(package_extractions) -> None:  # type: ignore[no-untyped-def]
    # 聘禮 公再拜受幣: the bow and the receiving of the silk (gold: 再拜 | 受幣)
    steps = _steps(package_extractions, "pinli")
    k = next(k for k, s in enumerate(steps) if s.text == "公再拜" and steps[k + 1].text.startswith("受幣"))
    assert (steps[k].as_record()["action"], steps[k + 1].as_record()["action"]) == ("再拜", "受")


def test_going_to_the_basin(package_extractions) -> None:  # type: ignore[no-untyped-def]
    # 鄉射 主人坐取爵興適洗: goes to the basin (place 洗), no washing there
    s = next(s for s in _steps(package_extractions, "xiangsheli") if s.text == "適洗")
    rec = s.as_record()
    assert (rec["action"], rec["location"]) == ("適", "洗")


def test_served_dishes_in_the_act_word(package_extractions) -> None:  # type: ignore[no-untyped-def]
    s = next(s for s in _steps(package_extractions, "xiangsheli") if s.text == "衆賔辯有脯醢")
    rec = s.as_record()
    assert (rec["action"], rec["object"]) == ("薦", "脯醢")


def test_food_given_is_no_toast(package_extractions) -> None:  # type: ignore[no-untyped-def]
    # 士相見 若君賜之食 (food: no cup) and 若君賜之爵 (the cup: the one toast of the chapter)
    e = package_extractions[("shixiangjianli", "shuzhu")]
    food = next(s for s in e.steps if s.text == "若君賜之食").as_record()
    assert (food["action"], food["object"], food["vessel"]) == ("賜", "食", None)
    assert [(t.step.text, t.type.label, t.giver[0].label, t.receiver[0].label) for t in e.toasts] == [
        ("若君賜之爵", "賜", "君", "士")
    ]
