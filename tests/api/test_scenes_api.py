"""GET /steps/{rite}/{edition}/{block}/{ordinal}/scene and the placements in SPARQL (graph/scenes.py)."""

from __future__ import annotations


def test_scene_after_the_guest_and_host_go_up(client):
    r = client.get("/steps/yanli/shuzhu-excerpt/16/2/scene")
    assert r.status_code == 200
    body = r.json()
    assert body["step"].endswith("/step/yanli/shuzhu-excerpt/16/2") and body["url"] == "/steps/yanli/shuzhu-excerpt/16/2"
    who = {p["person"]: p for p in body["persons"]}
    guest, host = who["賔"], who["主人"]
    assert (guest["place"], guest["x"], guest["y"], guest["facing"], guest["status"], guest["rule"]) == (
        "西階上", -0.8, 0.08, "东面", "written", "climb")  # fmt: skip
    assert guest["set_at_url"] == "/steps/yanli/shuzhu-excerpt/16/1"
    assert (host["place"], host["status"], host["set_at_url"]) == ("西階上", "written", "/steps/yanli/shuzhu-excerpt/16/2")
    # the ruler went up his own steps at 9/2 (乃升), and took his mat at 15/2 (就席)
    assert (who["公"]["rule"], who["公"]["set_at_url"]) == ("mat", "/steps/yanli/shuzhu-excerpt/15/2")
    before = {p["person"]: p for p in client.get("/steps/yanli/shuzhu-excerpt/9/2/scene").json()["persons"]}
    assert (before["公"]["place"], before["公"]["x"], before["公"]["y"], before["公"]["rule"]) == ("阼階上", 0.8, 0.08, "climb")
    assert "主人" not in before  # the host has not acted yet: he is not in the scene


def test_scene_errors(client):
    r = client.get("/steps/yanli/shuzhu-excerpt/999/1/scene")
    assert r.status_code == 404 and "999" in r.json()["message"]
    assert client.get("/steps/yanli/shuzhu-excerpt/16/2/scene", params={"at": "1"}).status_code == 400


def test_placements_are_moves_in_sparql(client):
    q = """PREFIX yk: <https://w3id.org/yili-kg/ontology#>
SELECT (COUNT(?p) AS ?n) WHERE { ?p a yk:Placement ; yk:personLabel "主人" ; yk:positionStatus "written" }"""
    r = client.get("/sparql", params={"query": q}, headers={"Accept": "application/sparql-results+json"})
    n = int(r.json()["results"]["bindings"][0]["n"]["value"])
    steps_of_host = client.get("/steps", params={"agent": "主人", "limit": 1}).json()["total"]
    assert 0 < n < steps_of_host  # a placement per move, not per step
