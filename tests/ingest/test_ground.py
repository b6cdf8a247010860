"""The ground as data (ontology/ground.ttl) and written locations on it (ingest/ground.py)."""

from __future__ import annotations

import pytest
from yili.ingest.ground import resolve
from yili.ontology.ground import load_ground

VOCABULARY = ("堂", "東序", "西序", "東楹", "西楹", "阼階", "西階", "房", "室", "戶", "牖", "東夾", "西夾", "東堂", "西堂",
              "北堂", "東坫", "西坫", "東榮", "西榮", "庭", "碑", "洗", "門", "東塾", "西塾", "闑", "閾", "寢", "廟", "侯", "乏")  # fmt: skip


@pytest.fixture(scope="module")
def ground():
    return load_ground()


def at(ground, label):
    return next(f for f in ground.features.values() if f.label == label)


def test_every_place_of_the_issue_is_on_the_plan_with_its_shigong_sentence(ground):
    for label in VOCABULARY:
        f = at(ground, label)
        assert f.source.startswith(("釋宫", "鄉射禮")), label
        assert f.derivation, label
    # each fact quotes 釋宫 (the 乏, which 釋宫 does not place, quotes the 鄉射 and 釋宫's 侯道)
    assert sum("釋宫" in f.source for f in ground.features.values()) == len(ground.features)


def test_the_plan_is_north_up_and_keeps_the_orders_the_text_gives(ground):
    f = {label: at(ground, label) for label in VOCABULARY}
    # 宫必南鄉: the hall north of the court, the court north of the gate
    assert f["室"].y > f["堂"].y > f["庭"].y > f["門"].y
    # 房東而室西 (a 士's hall: one 房, east)
    assert f["房"].x > 0 > f["室"].x
    # 兩階各在楹之外而近序: pillar < steps < wall, on each side
    assert f["東楹"].x < f["阼階"].x < f["東序"].x and f["西序"].x < f["西階"].x < f["西楹"].x
    assert f["阼階"].x - f["東楹"].x > f["東序"].x - f["阼階"].x  # nearer the 序 than the pillar
    # 室南其戸戸東而牖西
    assert f["牖"].x < f["戶"].x and f["戶"].y == f["牖"].y == f["室"].y - f["室"].depth / 2
    # 序之外為夾室; 夾室之前曰廂亦曰東堂: the 夾 beside the hall, not beside the 房 (the 四庫 editors' fault of 楊復)
    assert f["東夾"].x > f["東序"].x and f["東夾"].y + f["東夾"].depth / 2 <= f["房"].y - f["房"].depth / 2
    assert f["東堂"].x == f["東夾"].x and f["東堂"].y < f["東夾"].y
    # 庭葢三堂之深; 三分庭一在北設碑
    assert f["庭"].depth == pytest.approx(3 * f["堂"].depth)
    assert f["碑"].y == pytest.approx(f["庭"].y + f["庭"].depth / 2 - f["庭"].depth / 3)
    # 設洗直于東榮南北以堂深
    assert f["洗"].x == f["東榮"].x and f["洗"].y == pytest.approx(-f["堂"].depth)
    # 夾門之堂謂之塾: the 塾 beside the gate, at its line (not apart from it)
    assert abs(f["東塾"].y - f["門"].y) <= 0.2 and f["東塾"].x > f["闑"].x > f["西塾"].x
    # 廟在寢東
    assert f["廟"].x > f["寢"].x


@pytest.mark.parametrize(
    ("written", "label", "x", "y"),
    [
        ("西階上", "西階上", -0.8, 0.08),
        ("西阶上", "西階上", -0.8, 0.08),  # the excerpt's simplified form
        ("阼階下", "阼階下", 0.8, -0.4),
        ("洗南", "洗", 1.5, -1.15),
        ("筵前", "筵", -0.42, 0.65),  # south of the mat's south edge
        ("門東", "門東", 0.6, -3.4),
        ("于西階上", "西階上", -0.8, 0.08),
        ("阼階上西面", "阼階上", 0.8, 0.08),  # 西面 is the facing
        ("東楹之西", "東楹", 0.35, 0.4),
        ("堂下", "堂", 0.0, -0.3),  # below the hall's south edge, in the court
    ],
)
def test_a_written_location_resolves_to_a_point(written, label, x, y):
    s = resolve(written)
    assert s is not None and (s.label, s.x, s.y) == (label, pytest.approx(x), pytest.approx(y))
    assert s.source.startswith("釋宫")


def test_an_area_stays_an_area_and_an_unknown_place_is_none():
    door_east = resolve("門東")
    assert (door_east.width, door_east.depth) == (0.6, 0.2)
    assert resolve("房中").label == "房" and resolve("房中").width == 1.0
    assert resolve("其所") is None and resolve("北面") is None and resolve(None) is None
