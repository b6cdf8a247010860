"""GET /search: the classic and the commentary of every edition, variants and simplified forms folded."""

from __future__ import annotations

import pytest
from conftest import shared_path

BASE = "https://w3id.org/yili-kg/"


@pytest.fixture(scope="module")
def searched(extractor, extraction):
    """The excerpt (燕禮, simplified with 賔) and the 士冠禮 of the 述註 (which writes 玄 as 𤣥, 避諱), served."""
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file

    shiguan = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")))
    return TestClient(create_app(service_from_extractions([extraction, shiguan])))


def test_xuanduan_finds_the_avoided_character_in_the_shiguanli(searched):
    page = searched.get("/search", params={"q": "玄端", "rite": "士冠禮"}).json()
    assert page["folded"] == "玄端" and page["total"] >= 1
    classic = [i for i in page["items"] if i["kind"] == "classic"]
    assert {i["match"] for i in classic} == {"𤣥端"}
    # a block no step is read from (𤣥端𤣥裳黄裳雜裳可也, a list of garments) is linked at its own path
    assert all(i["url"] == ("/block/shiguanli/shuzhu/" + str(i["block"]) if i["step"] is None else i["url"]) for i in classic)
    first = next(i for i in classic if i["step"])
    assert first["match"] == "𤣥端" and first["edition"] == f"{BASE}text/shiguanli/shuzhu"
    assert first["url"].startswith("/steps/shiguanli/shuzhu/")
    # the match is marked where it is: the step the url opens holds it, and its block's text around it
    step = searched.get(first["url"]).json()
    assert step["block"] == first["block"]
    assert step["block_text"][first["start"] : first["end"]] == "𤣥端"
    assert (first["before"] + first["match"] + first["after"]) in step["block_text"]


def test_simplified_and_variant_forms_fold_both_ways(searched):
    """献宾 (simplified) finds the excerpt's 献賔 (simplified with the variant 賔) and 獻賓 nowhere else."""
    page = searched.get("/search", params={"q": "献宾", "rite": "燕禮", "limit": 1000}).json()
    assert page["folded"] == "獻賓"
    matches = {i["match"] for i in page["items"]}
    assert "献賔" in matches
    assert all(i["rite"] == f"{BASE}rite/yanli" for i in page["items"])
    same = searched.get("/search", params={"q": "獻賓", "rite": "yanli", "limit": 1000}).json()
    assert same["total"] == page["total"]


def test_commentary_is_searched_and_links_to_its_block(searched):
    page = searched.get("/search", params={"q": "宰夫", "rite": "燕禮", "limit": 1000}).json()
    notes = [i for i in page["items"] if i["kind"] == "commentary"]
    assert any(i["match"] == "宰夫" and i["layer"] == "zhu" and "主人" in i["before"] + i["after"] for i in notes)
    for i in notes:
        assert i["url"].startswith("/steps/yanli/shuzhu-excerpt/") and i["commentary"].startswith(f"{BASE}commentary/yanli/")


@pytest.mark.parametrize(
    ("params", "status"), [({"q": "  "}, 400), ({"q": "玄", "rite": "皇帝禮"}, 404), ({"q": "玄", "x": "1"}, 400)]
)
def test_bad_searches_are_refused_naming_the_problem(searched, params, status):
    r = searched.get("/search", params=params)
    assert r.status_code == status and r.json()["message"]
