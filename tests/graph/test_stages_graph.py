"""楊復's stages (節) in the graph, at GET /stages and in the exports (graph/stages.py, api/routes_stages.py)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from yili.api.app import create_app
from yili.api.cli import extract_inputs
from yili.api.service import service_from_extractions
from yili.graph.export import export
from yili.graph.stages import stage_rows
from yili.graph.validate import validate_graph

from tests.conftest import shared_path

STEP = "https://w3id.org/yili-kg/step/"
STAGE = "https://w3id.org/yili-kg/stage/"


@pytest.fixture(scope="module")
def built():
    inputs = [
        str(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")),
        str(shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_001.txt")),
        str(shared_path("corpus", "yili_shuzhu_yanli_excerpt.txt")),
    ]
    _e, extractions = extract_inputs(inputs, [], stages=str(shared_path("corpus", "reference", "KR1d0032")))
    return extractions, service_from_extractions(extractions)


@pytest.fixture(scope="module")
def client(built):
    return TestClient(create_app(built[1]))


def test_stages_are_in_the_graph_with_title_order_steps_and_source(built):
    rows = stage_rows(built[1].queries, rite="士冠禮", edition="shuzhu")
    assert len(rows) == 17
    assert [r["title"] for r in rows[:4]] == ["筮于廟門", "戒賔", "筮賔宿賔", "為期"]
    assert [r["number"] for r in rows] == list(range(1, 18))
    jie = rows[1]
    # the IRI names the first step's block and ordinal only
    assert jie["stage"] == STAGE + "shiguanli/shuzhu/16-1"
    assert jie["first"] == STEP + "shiguanli/shuzhu/16/1" and jie["first_text"] == "主人戒賔"
    assert jie["source"] == "儀禮圖 卷一 KR1d0032_WYG_001-3b" and jie["page"] == "KR1d0032_WYG_001-3b"
    # 楊復 puts the 辭 of the 戒 (戒賔曰某有子某…, at the chapter's end in the 述註) in this stage
    assert jie["last_sequence"] > rows[3]["first_sequence"]
    assert len(jie["members"]) == jie["steps"] == 11
    # every step of the chapter is in exactly one stage
    extraction = next(e for e in built[0] if e.document.rite == "shiguanli" and e.document.edition == "shuzhu")
    members = [m for r in rows for m in r["members"]]
    assert len(members) == len(set(members)) == len(extraction.steps)


def test_each_edition_has_its_own_stages(built):
    rows = stage_rows(built[1].queries, rite="shiguanli", edition="zhushu")
    assert [r["title"] for r in rows] == [r["title"] for r in stage_rows(built[1].queries, rite="shiguanli", edition="shuzhu")]
    assert all(r["stage"].startswith(STAGE + "shiguanli/zhushu/") for r in rows)


def test_a_rite_yilitu_does_not_cover_keeps_its_phases(built, client):
    assert stage_rows(built[1].queries, rite="燕禮") == []
    assert client.get("/stages", params={"rite": "燕禮"}).json() == []
    assert client.get("/phases", params={"rite": "燕禮"}).json()[1]["label"] == "主人献賔"


def test_get_stages(client):
    r = client.get("/stages", params={"rite": "士冠", "edition": "shuzhu"})
    assert r.status_code == 200
    first = r.json()[0]
    assert (first["title"], first["url"], first["source"]) == (
        "筮于廟門",
        "/steps/shiguanli/shuzhu/2/1",
        "儀禮圖 卷一 KR1d0032_WYG_001-2b",
    )
    assert client.get("/stages", params={"rite": "皇帝"}).status_code == 404
    bad = client.get("/stages", params={"ritee": "士冠禮"})
    assert bad.status_code == 400 and "unknown parameter 'ritee'" in bad.json()["message"]
    # the stage's IRI answers at its path
    ttl = client.get("/stage/shiguanli/shuzhu/16-1", headers={"Accept": "text/turtle"})
    assert ttl.status_code == 200 and '"戒賔"@zh-hant' in ttl.text.lower()


def test_stages_are_in_the_step_csv(built):
    data = export(built[1].queries, built[1].store, "csv", "steps", rite="shiguanli", edition="shuzhu").data.decode("utf-8-sig")
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(data)))
    row = next(r for r in rows if r["iri"] == STEP + "shiguanli/shuzhu/16/1")
    assert (row["stage"], row["stage_number"]) == ("戒賔", "2")
    assert all(r["stage"] for r in rows)


def test_the_graph_with_stages_satisfies_the_shapes(built):
    from yili.graph.build import build_dataset, union_graph

    shiguan = [e for e in built[0] if e.document.rite == "shiguanli" and e.document.edition == "shuzhu"]
    result = validate_graph(union_graph(build_dataset(shiguan)))
    assert result.conforms, result.format()
