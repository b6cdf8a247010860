"""GET /glosses, GET /citations and the statements of a step's block (api/routes_commentary.py over
graph/commentary_queries.py), on the 特牲饋食禮 of the 述註 and the 士冠禮 and 特牲饋食禮 of the 注疏."""

from __future__ import annotations

import pytest

from tests.conftest import shared_path


@pytest.fixture(scope="module")
def client(extractor):
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file

    files = [("KR1d0040", "KR1d0040_015.txt"), ("KR1d0028", "KR1d0028_001.txt"), ("KR1d0028", "KR1d0028_015.txt")]
    extractions = [extractor.extract(read_file(shared_path("corpus", "kanripo", ed, name))) for ed, name in files]
    return TestClient(create_app(service_from_extractions(extractions)))


def test_every_gloss_of_you(client):
    body = client.get("/glosses", params={"term": "酳"}).json()
    rows = [
        (g["edition"].rsplit("/", 1)[-1], g["block"], g["gloss_text"], g["formula"], g["authority"], g["target_text"])
        for g in body["items"]
    ]
    assert ("shuzhu", 89, "衍", "猶", "鄭玄", "酳") in rows
    assert ("zhushu", 89, "衍", "猶", "鄭玄", "酳") in rows
    shuzhu = next(g for g in body["items"] if g["edition"].endswith("/shuzhu"))
    assert (shuzhu["target_start"], shuzhu["target_end"], shuzhu["motivation"]) == (7393, 7394, "describing")
    assert shuzhu["authority_iri"] == "https://w3id.org/yili-kg/vocab/person-zhengxuan"


def test_citations_of_the_shiguanli_resolved_to_their_passage(client):
    body = client.get("/citations", params={"to": "士冠禮"}).json()
    resolved = [c for c in body["items"] if c["passage"]]
    assert any(
        c["cited_as"] == "士冠禮云"
        and c["authority"] == "賈公彥"
        and c["quote"] == "主人𤣥冠朝服緇帶素韠"
        and c["passage"] == "https://w3id.org/yili-kg/block/shiguanli/zhushu/3"
        for c in resolved
    )
    assert client.get("/citations", params={"to": "shiguanli"}).json()["total"] == body["total"]


def test_an_unknown_work_or_parameter_is_refused(client):
    r = client.get("/citations", params={"to": "皇帝"})
    assert r.status_code == 404 and "unknown chapter or work '皇帝'" in r.json()["message"]
    r = client.get("/glosses", params={"trem": "酳"})
    assert r.status_code == 400 and "unknown parameter 'trem'" in r.json()["message"]


def test_a_step_shows_its_block_commentary_by_authority(client):
    step = client.get("/steps/teshengkuishili/shuzhu/89/1").json()
    by = [(s["authority"], s["authority_label"]) for s in step["statements"]]
    assert by[0] == ("鄭玄", "注")
    glossed = [g for s in step["statements"] for g in s["glosses"]]
    assert {"term": "酳", "gloss_text": "衍", "formula": "猶", "target_start": 7393, "target_end": 7394} in glossed


def test_a_step_whose_agent_the_note_names_links_to_that_statement(client):
    """特牲 利洗散 (block 156 of the 述註): 註曰利佐食也 makes the 佐食 its agent, and the step says so."""
    step = client.get("/steps/teshengkuishili/shuzhu/156/1").json()
    assert step["text"] == "利洗散" and step["agent"] == "佐食"
    (iri,) = step["derived_from"]
    statement = next(s for s in step["statements"] if s["statement"] == iri)
    assert statement["authority"] == "鄭玄" and statement["text"].startswith("註曰利佐食也")
