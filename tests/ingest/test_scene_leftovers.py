"""Issue 23's leftovers in the scenes (ingest/scenes.py): 復初位 goes back to the first place held on that
level; inferred facings are written in the script of the text; things set relative to another thing (在服北,
在南) are drawn on the plan; 門外 at the guest's house is that house's gate."""

from __future__ import annotations

import pytest
from yili.ingest.document import read_file
from yili.ingest.scenes import INFERRED, WRITTEN, scenes

from tests.conftest import shared_path


def after(extraction, key):
    """The step ``key`` and the scene after it."""
    step = next(s for s in extraction.steps if s.key == key)
    return step, scenes(extraction.steps)[step.sequence - 1]


@pytest.fixture(scope="module")
def xiangyin(extractor):
    return extractor.extract(read_file(shared_path("corpus", "yili_shuzhu_04_xiangyinjiuli.kanripo.txt")))


@pytest.fixture(scope="module")
def shiguan(extractor):
    return extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")))


def test_fu_chu_wei_goes_back_to_the_first_place_held_below_the_hall(xiangyin):
    """鄉飲酒禮 公如大夫入 … 衆賔皆降 復初位: the 衆賔, gone down the west steps, go back to 門左, where
    they stood when they came in (衆賔皆入門左北上, 15/5), not to the gate outside they were last sent to."""
    step, scene = after(xiangyin, "xiangyinjiuli/shuzhu/15/5")
    entered = scene["role-zhongbin"]
    assert (entered.place, entered.status, entered.facing) == ("門左", WRITTEN, "北面")
    step, scene = after(xiangyin, "xiangyinjiuli/shuzhu/122/4")
    assert (step.text, scene["role-zhongbin"].place) == ("衆賔皆降", "西階下")
    step, scene = after(xiangyin, "xiangyinjiuli/shuzhu/122/5")
    back = scene["role-zhongbin"]
    assert (step.text, back.place, back.x, back.y, back.status, back.rule) == (
        "復初位",
        "門左",
        entered.x,
        entered.y,
        INFERRED,
        "first-place",
    )
    assert (back.facing, back.facing_status, back.facing_rule) == ("北面", INFERRED, "first-place")
    assert "復初位" in back.source


def test_fu_chu_wei_on_the_hall_keeps_the_hosts_place_at_the_end_of_the_side_wall(shiguan):
    """士冠禮 主人升 復初位 (52/6): back to 序端, where he stood (立於序端西面, 45/2); 序端 has no point on the
    plan, so the standing place decides, as before."""
    step, scene = after(shiguan, "shiguanli/shuzhu/52/6")
    host = scene["role-zhuren"]
    assert (step.text, host.place, host.facing) == ("復初位", "序端", "西面")


def test_inferred_facings_are_simplified_in_a_simplified_text(extraction, shiguan):
    """燕禮 excerpt (simplified): 执幂者升自西阶 (11/2), at the head of the west steps, faces east: 东面, as
    the text would write it; 士冠禮 (traditional) 賔降 at the foot of the west steps: 東面."""
    step, scene = after(extraction, "yanli/shuzhu-excerpt/11/2")
    who = scene["role-zhimizhe"]
    assert (step.text, who.place, who.facing, who.facing_status, who.facing_rule) == (
        "执幂者升自西阶",
        "西階上",
        "东面",
        INFERRED,
        "place",
    )
    step, scene = after(extraction, "yanli/shuzhu-excerpt/24/4")  # 反位: back to 西阶上, facing as there
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.facing, guest.facing_rule) == ("反位", "西阶上", "东面", "back")
    step, scene = after(shiguan, "shiguanli/shuzhu/51/1")
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.facing, guest.facing_status) == ("賔降", "西階下", "東面", INFERRED)


def test_things_set_relative_to_another_thing_are_on_the_plan(shiguan):
    """士冠禮 陳服於房中西墉下東領北上 (26/1) … 蒲筵二在南 (32/1) … 側尊一甒醴在服北 (33/1): the two mats
    south of the clothes, the jar of 醴 north of them, each placed from the clothes' point by the relation
    word (ground.ttl: 南, 北 move 0.15 of the hall's depth), on the plan."""
    from yili.ingest.ground import resolve
    from yili.ingest.scenes import furnishings

    items = {shiguan.steps[i.step - 1].key: i for i in furnishings(shiguan.steps)}
    clothes = items["shiguanli/shuzhu/26/1"]
    assert (clothes.object, clothes.place, clothes.x, clothes.y) == ("服", "房中西墉下", 0.5, 1.5)
    south, north = resolve("洗南"), resolve("洗北")
    step = (resolve("洗").y - south.y, north.y - resolve("洗").y)  # how far 南 and 北 move from a point
    mats = items["shiguanli/shuzhu/32/1"]
    assert (mats.object, mats.kind, mats.place, mats.x, mats.y) == ("蒲筵二", "mat", "南", 0.5, round(1.5 - step[0], 4))
    jar = items["shiguanli/shuzhu/33/1"]
    assert (jar.object, jar.kind, jar.place, jar.x, jar.y) == ("側尊一甒醴", "vessel", "服北", 0.5, round(1.5 + step[1], 4))
    assert "placed from the 服 set out at 房中西墉下 (step 63)" in jar.source
    assert jar.removed is None and mats.removed is None


@pytest.fixture(scope="module")
def xiangshe(extractor):
    return extractor.extract(read_file(shared_path("corpus", "yili_shuzhu_05_xiangsheli.kanripo.txt")))


def test_at_the_guests_house_the_gate_is_his(shiguan):
    """士冠禮 乃宿賔 (18/1): the host goes to the guest's house; 賔如主人服出門左 (18/2) is the guest's own gate
    (賔之家門左), not the host's 門左 on the plan; 主人東面答拜 (18/4) faces east there; 主人退 賔拜送 (20/4,
    20/5) ends the visit: the guest stays at home, out of the scene, and the host, back home, 為期於廟門之外."""
    step, scene = after(shiguan, "shiguanli/shuzhu/18/1")
    host = scene["role-zhuren"]
    assert (step.text, host.place, host.x, host.y, host.status, host.rule) == (
        "乃宿賔",
        "賔之家門外",
        None,
        None,
        INFERRED,
        "guest-house",
    )
    step, scene = after(shiguan, "shiguanli/shuzhu/18/2")
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.x, guest.y, guest.status) == ("賔如主人服出門左", "賔之家門左", None, None, WRITTEN)
    step, scene = after(shiguan, "shiguanli/shuzhu/18/4")
    assert (scene["role-zhuren"].place, scene["role-zhuren"].facing, scene["role-bin"].facing) == ("賔之家門外", "東面", "西面")
    step, scene = after(shiguan, "shiguanli/shuzhu/20/5")
    assert step.text == "賔拜送" and "role-zhuren" not in scene and scene["role-bin"].place == "賔之家門左"
    step, scene = after(shiguan, "shiguanli/shuzhu/21/1")
    assert "role-bin" not in scene and (scene["role-zhuren"].place, scene["role-zhuren"].y) == ("廟門之外", -3.0)


def test_a_rite_that_opens_at_the_guests_gate(xiangshe):
    """鄉射禮 主人戒賔 賔出迎 再拜 … 主人退 賔送 再拜 (1/1 … 2/7): the guest comes out to his own gate (賔之家門外),
    not off the plan to the host's 門外, and bows there after seeing the host off."""
    step, scene = after(xiangshe, "xiangsheli/shuzhu/1/2")
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.x, guest.rule) == ("賔出", "賔之家門外", None, "guest-house")
    assert scene["role-zhuren"].place == "賔之家門外"
    step, scene = after(xiangshe, "xiangsheli/shuzhu/2/7")
    assert (step.text, scene["role-bin"].place) == ("再拜", "賔之家門外") and "role-zhuren" not in scene


def test_the_visit_ends_with_the_guests_answer(xiangyin, xiangshe):
    """鄉飲酒禮 主人戒賔 … 主人退 賔拜辱 (2/9, 2/10): the guest's bow is his answer at his own gate; at 乃席賔主人介
    (4/1) the visit is over and no one is at the guest's house.  In the 記 of the 鄉射禮, 司射前戒之 (a warning)
    takes no one anywhere."""
    step, scene = after(xiangyin, "xiangyinjiuli/shuzhu/2/10")
    assert (step.text, scene["role-bin"].place) == ("賔拜辱", "賔之家門外")
    step, scene = after(xiangyin, "xiangyinjiuli/shuzhu/4/1")
    assert step.text == "乃席賔主人介" and not [p.place for p in scene.values() if "之家" in (p.place or "")]
    step, scene = after(xiangshe, "xiangsheli/shuzhu/259/2")
    assert step.text == "司射前戒之" and not [p.place for p in scene.values() if "之家" in (p.place or "")]
