"""Who is where at every step (ingest/scenes.py): named steps of 士冠禮 and the 燕禮 excerpt, and the
shared gold (the agent stands at the written location)."""

from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest
from yili.ingest.document import read_file
from yili.ingest.ground import resolve
from yili.ingest.scenes import INFERRED, WRITTEN, moves, scenes
from yili.ingest.steps import Step, Term

from tests.conftest import shared_path


def after(extraction, key):
    """The scene after the step ``key`` (rite/edition/block/ordinal)."""
    step = next(s for s in extraction.steps if s.key == key)
    return step, scenes(extraction.steps)[step.sequence - 1]


@pytest.fixture(scope="module")
def shiguan(extractor):
    return extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")))


def test_shiguanli_host_at_the_gate_then_up_the_east_steps(shiguan):
    step, scene = after(shiguan, "shiguanli/shuzhu/3/1")
    assert step.text.endswith("即位於門東西面")
    host = scene["role-zhuren"]
    assert (host.place, host.facing, host.status, host.rule) == ("門東", "西面", WRITTEN, "written")
    assert (host.x, host.y) == (0.6, -3.4)  # east of the gate, outside (釋宫 門之内外東方曰門東)
    # 入 … 至於階三讓 主人升: the host goes up his own steps (阼猶酢也東階所以荅酢賓客也)
    step, scene = after(shiguan, "shiguanli/shuzhu/44/2")
    assert (step.text, scene["role-zhuren"].place, scene["role-zhuren"].rule) == ("入", "門內", "enter")
    step, scene = after(shiguan, "shiguanli/shuzhu/45/1")
    host = scene["role-zhuren"]
    assert step.text == "主人升"
    assert (host.place, host.x, host.y, host.status, host.rule, host.step) == (
        "阼階上",
        0.8,
        0.08,
        INFERRED,
        "climb",
        step.sequence,
    )
    # 阼階上 faces west unless the text says otherwise (特牲 主人出立于阼階上西面): inferred, by the rule "place"
    assert (host.facing, host.facing_status, host.facing_rule, host.facing_step) == ("西面", INFERRED, "place", step.sequence)
    assert "阼階上西面" in host.facing_source
    step, scene = after(shiguan, "shiguanli/shuzhu/45/3")
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.facing, guest.status) == ("賔西序東面", "西序", "東面", WRITTEN)
    assert scene["role-zhuren"].place == "序端"  # 立於序端西面


def test_yanli_guest_host_and_ruler_after_named_steps(extraction):
    step, scene = after(extraction, "yanli/shuzhu-excerpt/9/2")
    assert step.text == "乃升" and scene["role-gong"].place == "阼階上" and scene["role-gong"].rule == "climb"
    step, scene = after(extraction, "yanli/shuzhu-excerpt/14/1")
    assert (step.text, scene["role-bin"].place) == ("賔入及庭", "庭")
    step, scene = after(extraction, "yanli/shuzhu-excerpt/16/1")
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.x, guest.y, guest.status, guest.rule) == (
        "賔升自西阶",
        "西階上",
        -0.8,
        0.08,
        WRITTEN,
        "climb",
    )
    _step, scene = after(extraction, "yanli/shuzhu-excerpt/16/2")  # 主人亦升自西阶: the 燕禮's host goes up the west steps
    assert scene["role-zhuren"].place == "西階上"
    step, scene = after(extraction, "yanli/shuzhu-excerpt/24/1")
    host = scene["role-zhuren"]
    assert (step.text, host.place, host.facing, host.facing_status, host.facing_rule) == (
        "主人筵前献賔",
        "筵前",
        "北面",
        INFERRED,
        "front",
    )
    assert (host.x, host.y) == (-0.42, 0.65)
    _step, scene = after(extraction, "yanli/shuzhu-excerpt/24/3")  # 筵前受爵
    assert scene["role-bin"].place == "筵前"
    step, scene = after(extraction, "yanli/shuzhu-excerpt/24/4")  # 反位: back to the head of the west steps
    assert (step.text, scene["role-bin"].place, scene["role-bin"].rule) == ("反位", "西阶上", "back")


def test_no_one_acts_before_entering_and_each_is_at_one_place(extraction):
    all_scenes = scenes(extraction.steps)
    for step, scene in zip(extraction.steps, all_scenes, strict=True):
        if step.mode == "actual" and not step.summary:
            for t in step.agent:
                if t.key.startswith("role-") and step.action.key != "action-chu":
                    assert t.key in scene  # the agent of a step is present after it (unless it took him out)
    # moves: a change per move, not persons × steps
    changes = moves(extraction.steps)
    assert len(changes) < sum(len(s) for s in all_scenes) / 3
    assert all(p.status in (WRITTEN, INFERRED) and p.rule for p in changes)
    # one change per person and step (a placement's IRI is its step and person)
    assert len({(p.at, p.role) for p in changes}) == len(changes)
    assert all(p.at is not None and p.at >= p.step for p in changes)


def _gold_steps(rows, vocabulary):
    def term(label):
        try:
            return Term(vocabulary.lookup(label).key, label)
        except Exception:
            return Term("", label)

    out = []
    for i, g in enumerate(rows, 1):
        agents = tuple(term(a) for a in (g["agent"] or "").replace("|", "+").split("+") if a)
        out.append(
            Step(f"r/e/{g.get('block', g.get('para'))}/{g['seq']}", i, 0, g["char_start"], g["char_end"], g["span"], agents, True,
                 term(g["action"]) if g["action"] else Term("", ""), location=g["location"],
                 facing=Term("", g["facing"]) if g["facing"] else None, mode=g["mode"])
        )  # fmt: skip
    return out


def _same_place(place, written):
    if place == written:
        return True
    want, got = resolve(written), resolve(place)
    return bool(want and got and (got.feature == want.feature or got.feature.startswith(want.feature + "-")))


def test_on_the_shared_gold_the_agent_stands_at_the_written_location(vocabulary):
    files = [
        shared_path("gold", "steps.jsonl"),
        *map(str, sorted(glob.glob(str(shared_path("gold", "kanripo")) + "/steps_*.jsonl"))),
    ]
    total = same = 0
    for f in files:
        rows = [json.loads(line) for line in Path(f).read_text(encoding="utf-8").splitlines()]
        steps = _gold_steps(rows, vocabulary)
        for step, scene in zip(steps, scenes(steps), strict=True):
            if not step.location or step.mode != "actual":
                continue
            for t in step.agent:
                total += 1
                p = scene.get(t.key or t.label)
                same += bool(p and _same_place(p.place, step.location))
    assert total == 380
    assert same / total >= 0.95  # 378 of 380 when written (主人拜于位 is at his 位; 相 is no role of the vocabulary)


def test_scenes_on_each_gold_set(vocabulary):
    """Per gold set (``python benchmarks/scenes.py`` prints it): the agent stands at the written location
    after the step, no person is at two places, no agent is absent from the scene of his step."""
    from yili.ingest.scenes import check_scenes

    files = [
        shared_path("gold", "steps.jsonl"),
        *map(str, sorted(glob.glob(str(shared_path("gold", "kanripo")) + "/steps_*.jsonl"))),
    ]
    found = {}
    for f in files:
        c = check_scenes(_gold_steps([json.loads(line) for line in Path(f).read_text(encoding="utf-8").splitlines()], vocabulary))
        found[str(f).rsplit("/", 1)[-1]] = (c.total, c.same, c.two_places, c.before_entering)
        assert c.share >= 0.95 and c.two_places == 0 and c.before_entering == 0, (f, c)
    assert found == {
        "steps.jsonl": (51, 51, 0, 0),
        "steps_pinli.jsonl": (42, 42, 0, 0),
        "steps_shiguanli.jsonl": (67, 67, 0, 0),
        "steps_shisangli.jsonl": (81, 80, 0, 0),
        "steps_shixiangjianli.jsonl": (9, 9, 0, 0),
        "steps_teshengkuishi.jsonl": (36, 36, 0, 0),
        "steps_xiangsheli.jsonl": (93, 93, 0, 0),
    }  # fmt: skip  (士喪 22/4 主人拜于位: 位 is his standing place, not a place of the plan)


def test_scenes_csv_from_the_command_line(capsys):
    import csv
    import io

    from yili.api.cli import main

    assert main(["scenes"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == [
        "step",
        "sequence",
        "person",
        "place",
        "x",
        "y",
        "facing",
        "status",
        "rule",
        "source",
        "facing_status",
        "facing_rule",
        "present",
    ]
    ruler = next(r for r in rows if r["step"].endswith("/yanli/shuzhu-excerpt/9/2"))
    assert (ruler["person"], ruler["place"], ruler["x"], ruler["y"], ruler["status"], ruler["rule"]) == (
        "公",
        "阼階上",
        "0.8",
        "0.08",
        "inferred",
        "climb",
    )
    assert "阼猶酢也" in ruler["source"]
    assert (ruler["facing"], ruler["facing_status"], ruler["facing_rule"], ruler["present"]) == (
        "西面",
        "inferred",
        "place",
        "true",
    )
    out = next(r for r in rows if r["step"].endswith("/yanli/shuzhu-excerpt/8/1"))  # 賔出
    assert (out["person"], out["place"], out["rule"], out["present"]) == ("賔", "", "exit", "false")


def test_shiguanli_facings_exits_and_entries(shiguan):
    """士冠禮: where 主人 and 賔 stand and face after named steps; the guest goes out (賔出) and is in no
    scene until the text makes him act again, outside the gate."""
    _step, scene = after(shiguan, "shiguanli/shuzhu/3/1")  # 即位於門東西面: his standing place and its facing
    host = scene["role-zhuren"]
    assert (host.facing, host.facing_status, host.facing_rule, host.facing_step) == ("西面", WRITTEN, "written", 2)
    step, scene = after(shiguan, "shiguanli/shuzhu/42/3")  # 先入: inside the gate, facing the hall
    host = scene["role-zhuren"]
    assert (step.text, host.place, host.facing, host.facing_status, host.facing_rule) == (
        "先入",
        "門內",
        "北面",
        INFERRED,
        "enter",
    )
    step, scene = after(shiguan, "shiguanli/shuzhu/51/2")  # 主人降: the foot of the east steps, facing west
    host = scene["role-zhuren"]
    assert (step.text, host.place, host.rule, host.facing, host.facing_rule) == ("主人降", "阼階下", "descend", "西面", "place")
    guest = scene["role-bin"]  # 賔降 (51/1): the foot of the west steps, facing east (西階下東面)
    assert (guest.place, guest.rule, guest.facing, guest.facing_status, guest.facing_rule) == (
        "西階下",
        "descend",
        "東面",
        INFERRED,
        "place",
    )
    step, scene = after(shiguan, "shiguanli/shuzhu/52/6")  # 復初位: back to 序端 AND its facing (立於序端西面, 45/2)
    host = scene["role-zhuren"]
    where = next(s for s in shiguan.steps if s.key == "shiguanli/shuzhu/45/2")
    assert (step.text, host.place, host.status, host.rule) == ("復初位", "序端", INFERRED, "return")
    assert (host.facing, host.facing_status, host.facing_rule) == ("西面", INFERRED, "return") and where.text == "立於序端西面"
    # 賔出: the guest leaves; the host sees him off at the gate (主人送於廟門外) while he is gone
    step, scene = after(shiguan, "shiguanli/shuzhu/70/1")
    assert step.text == "賔出" and "role-bin" not in scene
    step, scene = after(shiguan, "shiguanli/shuzhu/70/2")
    assert (step.text, scene["role-zhuren"].place) == ("主人送於廟門外", "廟門外") and "role-bin" not in scene
    gone = [p for p in moves(shiguan.steps) if p.role == "role-bin" and p.step == step.sequence - 1]
    assert [(p.present, p.place, p.rule) for p in gone] == [(False, None, "exit")]
    # 賔禮辭 (71/2) before any 入: he acts outside the gate
    step, scene = after(shiguan, "shiguanli/shuzhu/71/2")
    assert (step.text, scene["role-bin"].place, scene["role-bin"].rule) == ("賔禮辭", "門外", "outside")
    # 戒賔: 主人退 賔拜送: the one seen off leaves
    step, scene = after(shiguan, "shiguanli/shuzhu/17/4")
    assert step.text == "賔拜送" and "role-zhuren" not in scene and "role-bin" in scene


def test_yanli_exit_entry_and_bow_facing(extraction):
    """燕禮 excerpt: 賔出 (8/1) takes the guest out, 立于门外东面 puts him outside the gate where the text
    says, 賔入及庭 (14/1) brings him in, facing the hall; the ruler faces west at the head of the east
    steps; a bow with no facing takes the one the text wrote for the host's bow there."""
    step, scene = after(extraction, "yanli/shuzhu-excerpt/8/1")
    assert step.text == "賔出" and "role-bin" not in scene
    step, scene = after(extraction, "yanli/shuzhu-excerpt/8/2")
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.y, guest.facing, guest.facing_status) == ("立于门外东面", "门外", -3.5, "东面", WRITTEN)
    step, scene = after(extraction, "yanli/shuzhu-excerpt/14/1")
    guest = scene["role-bin"]
    assert (step.text, guest.place, guest.status, guest.facing, guest.facing_rule) == ("賔入及庭", "庭", WRITTEN, "北面", "enter")
    step, scene = after(extraction, "yanli/shuzhu-excerpt/9/2")
    ruler = scene["role-gong"]
    assert (step.text, ruler.place, ruler.facing, ruler.facing_status, ruler.facing_rule) == (
        "乃升",
        "阼階上",
        "西面",
        INFERRED,
        "place",
    )
    step, scene = after(extraction, "yanli/shuzhu-excerpt/32/20")  # 主人北面拜受爵 (written)
    written = step.sequence
    step, scene = after(extraction, "yanli/shuzhu-excerpt/35/5")  # 拜: no facing written, the bow's facing holds
    host = scene["role-zhuren"]
    assert (step.text, host.place, host.facing, host.facing_status, host.facing_rule) == ("拜", "阼階下", "北面", INFERRED, "bow")
    assert f"step {written}" in host.facing_source


def test_shiguanli_vessels_and_mats_set_out(shiguan):
    """The things set out at a written place (設, 陳, 布, 筵): the divination mat in the gate, the basin under
    the east eave, the capping mat by the east wall until 徹…筵 clears it, the mat west of the door."""
    from yili.ingest.scenes import furnishings

    items = {(shiguan.steps[i.step - 1].key, i.object): i for i in furnishings(shiguan.steps)}
    mat = items[("shiguanli/shuzhu/6/1", "席")]  # 布席於門中闑西閾外西面
    assert (mat.kind, mat.place, mat.x, mat.y, mat.facing, mat.removed) == ("mat", "門中闑西閾外", 0.0, -3.0, "西面", None)
    basin = items[("shiguanli/shuzhu/25/3", "洗")]  # 設洗直於東榮南北
    assert (basin.kind, basin.place, basin.x, basin.y) == ("vessel", "東榮", 1.5, 0.0)
    capping = items[("shiguanli/shuzhu/47/1", "筵")]  # 筵于東序少北西面 … 徹皮弁冠櫛筵 (59/1)
    cleared = next(s for s in shiguan.steps if s.key == "shiguanli/shuzhu/59/1")
    assert (capping.kind, capping.facing, capping.removed, cleared.text) == ("mat", "西面", cleared.sequence, "徹皮弁冠櫛筵")
    assert items[("shiguanli/shuzhu/60/1", "筵")].facing == "南面"  # 筵於户西南面
    assert len(items) == 8  # with 蒲筵二在南 and 側尊一甒醴在服北, placed from the 服 (test_scene_leftovers.py)


def test_on_the_extracted_steps_no_one_acts_out_of_the_scene_or_at_two_places(shiguan, extraction):
    """Read end to end from the extractor's steps (士冠禮, the 燕禮 excerpt): every agent is in the scene of
    his step unless the step takes him out, no one is at two places, and the written locations hold."""
    from yili.ingest.scenes import check_scenes

    assert [(c.total, c.same, c.two_places, c.before_entering) for c in map(check_scenes, (shiguan.steps, extraction.steps))] == [
        (67, 67, 0, 0), (93, 92, 0, 0)]  # fmt: skip


def test_going_out_of_the_chamber_is_onto_the_hall_not_out_of_the_scene(extractor):
    """有司徹 主婦洗爵于房中出: 出 from the 房 (north of the hall's back 楣) leads onto the hall (rule
    ``exit-room``), where she acts next (尊南西面拜); 出 from the court would take her out."""
    e = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_017.txt")))
    step, scene = after(e, "yousiche/shuzhu/61/2")
    wife = scene["role-zhufu"]
    assert (step.text, wife.place, wife.x, wife.y, wife.status, wife.rule) == ("出", "堂", 0.0, 0.5, INFERRED, "exit-room")
