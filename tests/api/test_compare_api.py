"""/compare, /patterns, /next and /ngrams over the excerpt (api/routes_compare.py)."""

from __future__ import annotations

import csv
import io

import pytest
from yili.graph.acts import acts_from_extractions, acts_from_store


def test_the_acts_read_from_the_store_are_those_of_the_extraction(service, extraction) -> None:
    from_store = acts_from_store(service.queries.backend.select, service.base)
    from_steps = acts_from_extractions([extraction])
    # the graph keeps no order among one step's agents: compare them as sorted
    norm = [
        a.__class__(**{**a.__dict__, "agents": tuple(sorted(a.agents)), "recipients": tuple(sorted(a.recipients))})
        for a in from_steps
    ]
    assert len(from_store) == 612
    assert from_store == norm


def test_patterns_wash_pour_present_on_the_excerpt(client) -> None:
    r = client.get("/patterns", params={"seq": "洗,酌,獻"})
    assert r.status_code == 200
    body = r.json()
    assert body["within"] == 25
    assert [e["act"] for e in body["pattern"]] == ["洗", "酌", "獻"]
    (rite,) = body["rites"]
    assert (rite["rite"], rite["label"], rite["count"]) == ("yanli", "燕禮", body["total"])
    steps = [[(s["agent"], s["text"], s["recipient"], s["url"]) for s in o["steps"]] for o in rite["occurrences"]]
    assert steps[0] == [
        ("主人", "主人卒洗", None, "/steps/yanli/shuzhu-excerpt/20/1"),
        ("主人", "主人酌膳", None, "/steps/yanli/shuzhu-excerpt/23/2"),
        ("主人", "主人筵前献賔", "賔", "/steps/yanli/shuzhu-excerpt/24/1"),
    ]
    assert steps[1] == [
        ("主人", "洗象觚", None, "/steps/yanli/shuzhu-excerpt/38/2"),
        ("主人", "实之", None, "/steps/yanli/shuzhu-excerpt/38/4"),
        ("主人", "东北面献于公", "公", "/steps/yanli/shuzhu-excerpt/38/5"),
    ]
    assert rite["occurrences"][0]["steps"][2]["id"] == "https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1"
    # the step links answer
    assert client.get("/steps/yanli/shuzhu-excerpt/38/5").json()["text"] == "东北面献于公"


def test_patterns_with_roles_and_a_narrow_window(client) -> None:
    r = client.get("/patterns", params={"seq": "主人:洗,主人:獻→賓", "within": 25}).json()
    assert [[s["text"] for s in o["steps"]] for o in r["rites"][0]["occurrences"]] == [["主人卒洗", "主人筵前献賔"]]
    assert r["pattern"][1] == {"agent": "主人", "act": "獻", "recipient": "賓", "written": "主人:獻→賓"}
    r = client.get("/patterns", params={"seq": "洗,酌,獻", "within": 5}).json()
    assert [o["steps"][-1]["text"] for o in r["rites"][0]["occurrences"]] == ["东北面献于公", "献卿于西阶上"]


def test_pattern_errors_are_one_line(client) -> None:
    r = client.get("/patterns", params={"seq": "洗,皇帝"})
    assert (r.status_code, r.json()["error"]) == (404, "unknown_term")
    assert "皇帝" in r.json()["message"]
    r = client.get("/patterns", params={"seq": "洗", "whithin": 3})
    assert (r.status_code, r.json()["message"]) == (
        400,
        "unknown parameter 'whithin' (this resource takes: format, rite, seq, within)",
    )
    # a window narrower than the pattern is the pattern's length
    r = client.get("/patterns", params={"seq": "洗,酌,獻", "within": 2}).json()
    assert (r["within"], r["total"]) == (3, 0)
    r = client.get("/patterns", params={"seq": "主人:→賓"})
    assert r.status_code == 404 and "write [AGENT:]ACT[→RECIPIENT]" in r.json()["message"]
    assert client.get("/patterns", params={"seq": "洗", "rite": "鄉射"}).json()["total"] == 0
    assert client.get("/patterns", params={"seq": "洗", "rite": "皇帝"}).status_code == 404
    r = client.get("/patterns").json()
    assert (r["total"], r["rites"]) == (0, []) and r["usage"].startswith("/patterns?seq=洗,酌,獻&within=25")
    assert client.get("/patterns", params={"seq": ",".join(["洗"] * 13)}).status_code == 400  # at most 12 acts


def test_what_follows_a_bow_of_sending(client) -> None:
    r = client.get("/next", params={"after": "拜送", "n": 1})
    assert r.status_code == 200
    body = r.json()
    (rite,) = body["rites"]
    assert (rite["rite"], rite["occurrences"], body["total"]) == ("yanli", 12, 12)
    assert rite["next"][:3] == [
        {"acts": ["坐"], "count": 4, "share": 0.3333},
        {"acts": ["薦"], "count": 3, "share": 0.25},
        {"acts": ["答再拜"], "count": 2, "share": 0.1667},
    ]
    assert body["overall"] == rite["next"]
    assert client.get("/next", params={"after": "洗,酌"}).status_code == 400


def test_compare_two_stages_of_the_banquet(client) -> None:
    r = client.get("/compare", params={"a": "燕禮", "stage_a": "主人献賔", "b": "yanli", "stage_b": "主人献公"})
    assert r.status_code == 200
    body = r.json()
    assert (body["a"], body["b"], body["steps_a"], body["steps_b"]) == ("yanli/shuzhu-excerpt", "yanli/shuzhu-excerpt", 49, 26)
    assert body["same"] + body["substitutions"] + body["deletions"] == 49
    assert body["same"] + body["substitutions"] + body["insertions"] == 26
    # the host's 獻 to the guest pairs with his 獻 to the ruler: same act, same host, another recipient
    (xian,) = [row for row in body["rows"] if row["a"] and row["a"]["text"] == "主人筵前献賔"]
    assert (xian["kind"], xian["b"]["text"], xian["b"]["url"]) == (
        "substitution",
        "东北面献于公",
        "/steps/yanli/shuzhu-excerpt/38/5",
    )


def test_compare_as_csv_and_its_errors(client) -> None:
    r = client.get("/compare", params={"a": "yanli", "b": "燕禮", "stage_a": "1", "stage_b": "1"}, headers={"Accept": "text/csv"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert rows[0]["kind"] == "same" and rows[0]["a_text"] == rows[0]["b_text"] == "尔大夫"
    assert {row["kind"] for row in rows} == {"same"}
    r = client.get("/compare", params={"a": "鄉射", "b": "燕禮"})
    assert r.status_code == 404 and "鄉射" in r.json()["message"]
    r = client.get("/compare", params={"a": "yanli", "b": "yanli", "stage_a": "99"})
    assert r.status_code == 404 and "selects no step" in r.json()["message"]
    # with a side missing: what can be compared
    assert client.get("/compare", params={"a": "yanli"}).json()["sequences"] == ["yanli/shuzhu-excerpt"]
    assert client.get("/compare", params={"a": "yanli", "b": "yanli", "format": "xml"}).status_code == 400
    assert client.get("/compare", params={"a": "yanli", "b": "yanli"}, headers={"Accept": "image/png"}).status_code == 406


def test_ngrams_as_csv(client) -> None:
    r = client.get("/ngrams", params={"n": 3, "top": 2, "format": "csv"})
    assert r.text.splitlines() == [
        "sequence,rank,acts,count",
        'yanli/shuzhu-excerpt,1,"坐,奠,拜",7',
        'yanli/shuzhu-excerpt,2,"坐,祭,立",7',
    ]
    j = client.get("/ngrams", params={"n": 2, "top": 1}).json()
    assert j == {
        "n": 2,
        "sequences": [{"edition": "yanli/shuzhu-excerpt", "steps": 612, "ngrams": [{"acts": ["坐", "奠"], "count": 18}]}],
    }


def test_a_browser_gets_the_pages(client) -> None:
    for path, marker in (("/compare", 'data-page="compare"'), ("/patterns", 'data-page="patterns"')):
        r = client.get(path, headers={"Accept": "text/html,*/*;q=0.8"})
        assert r.status_code == 200 and marker in r.text


@pytest.fixture(scope="module")
def two_rites(extractor):
    """A server of the 述註's 鄉飲酒禮 and 鄉射禮 (KR1d0040_004, _005)."""
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    files = [shared_path("corpus", "kanripo", "KR1d0040", f"KR1d0040_00{n}.txt") for n in (4, 5)]
    return TestClient(create_app(service_from_extractions([extractor.extract(read_file(f)) for f in files])))


def test_compare_the_archery_meeting_with_the_drinking_festival_over_the_store(two_rites) -> None:
    body = two_rites.get("/compare", params={"a": "鄉射", "b": "鄉飲酒禮"}).json()
    assert (body["a"], body["b"]) == ("xiangsheli/shuzhu", "xiangyinjiuli/shuzhu")
    toasts = [
        (r["kind"], r["a"]["agent"], r["a"]["action"], r["a"]["recipient"], r["a"]["url"], r["b"]["text"])
        for r in body["rows"]
        if r["a"] and r["b"] and r["a"]["action"] in ("獻", "酢", "酬") and r["a"]["recipient"] in ("賓", "賔", "主人")
    ]
    assert toasts[:3] == [
        ("same", "主人", "獻", "賓", "/steps/xiangsheli/shuzhu/30/4", "賔之席前西北面獻賔"),
        ("same", "賔", "酢", "主人", "/steps/xiangsheli/shuzhu/45/12", "主人之席前東南面酢主人"),
        ("same", "主人", "酬", "賔", "/steps/xiangsheli/shuzhu/52/7", "酬賔"),
    ]
    shots = [
        r for r in body["rows"] if r["a"] and r["a"]["action"] == "射"
    ]  # (誘射, the demonstration shot, is an act of its own)
    assert len(shots) == 26 and all(r["b"] is None for r in shots)


def test_patterns_and_what_follows_per_rite_over_the_store(two_rites) -> None:
    body = two_rites.get("/patterns", params={"seq": "主人:獻→賓,賓:酢→主人", "within": 100}).json()
    assert [(r["rite"], r["label"], r["count"]) for r in body["rites"]] == [
        ("xiangyinjiuli", "鄉飲酒禮", 1),
        ("xiangsheli", "鄉射禮", 1),
    ]
    only = two_rites.get("/patterns", params={"seq": "主人:獻→賓,賓:酢→主人", "within": 100, "rite": "鄉射禮"}).json()
    assert [r["rite"] for r in only["rites"]] == ["xiangsheli"]
    after = two_rites.get("/next", params={"after": "拜送"}).json()
    assert [r["rite"] for r in after["rites"]] == ["xiangyinjiuli", "xiangsheli"]
    assert after["total"] == sum(r["occurrences"] for r in after["rites"])
