"""GET /steps/{rite}/{edition}/{block}/{ordinal}/scene and the placements in SPARQL (graph/scenes.py)."""

from __future__ import annotations


def test_scene_after_the_guest_and_host_go_up(client):
    r = client.get("/steps/yanli/shuzhu-excerpt/16/2/scene")
    assert r.status_code == 200
    body = r.json()
    assert body["step"].endswith("/step/yanli/shuzhu-excerpt/16/2") and body["url"] == "/steps/yanli/shuzhu-excerpt/16/2"
    who = {p["person"]: p for p in body["persons"]}
    guest, host = who["賔"], who["主人"]
    assert (guest["place"], guest["x"], guest["y"], guest["facing"], guest["status"], guest["rule"], guest["facing_rule"]) == (
        "西階上", -0.8, 0.08, "東面", "written", "climb", "place")  # fmt: skip (西階上 faces east: 特牲 祝出立于西階上東面)
    assert guest["set_at_url"] == "/steps/yanli/shuzhu-excerpt/16/1"
    assert (host["place"], host["status"], host["set_at_url"]) == ("西階上", "written", "/steps/yanli/shuzhu-excerpt/16/2")
    # the ruler went up his own steps at 9/2 (乃升), and took his mat at 15/2 (就席)
    assert (who["公"]["rule"], who["公"]["set_at_url"]) == ("mat", "/steps/yanli/shuzhu-excerpt/15/2")
    before = {p["person"]: p for p in client.get("/steps/yanli/shuzhu-excerpt/9/2/scene").json()["persons"]}
    assert (before["公"]["place"], before["公"]["x"], before["公"]["y"], before["公"]["rule"]) == ("阼階上", 0.8, 0.08, "climb")
    assert "主人" not in before  # the host has not acted yet: he is not in the scene
    ruler = before["公"]  # 乃升: at the head of the east steps he faces west (特牲 主人出立于阼階上西面)
    assert (ruler["facing"], ruler["facing_status"], ruler["facing_rule"], ruler["facing_set_at"]) == (
        "西面", "inferred", "place", before["公"]["set_at"])  # fmt: skip


def test_a_guest_who_went_out_is_in_no_scene_until_he_comes_in(client):
    out = {p["person"] for p in client.get("/steps/yanli/shuzhu-excerpt/8/1/scene").json()["persons"]}
    assert "賔" not in out and "公" in out  # 賔出
    back = {p["person"]: p for p in client.get("/steps/yanli/shuzhu-excerpt/14/1/scene").json()["persons"]}
    assert (back["賔"]["place"], back["賔"]["facing"], back["賔"]["facing_rule"]) == ("庭", "北面", "enter")  # 賔入及庭
    moves = client.get("/moves", params={"rite": "yanli"}).json()
    gone = [m for m in moves if m["person"] == "賔" and not m["present"]]
    assert [(m["url"], m["rule"], m["place"]) for m in gone][:1] == [("/steps/yanli/shuzhu-excerpt/8/1", "exit", None)]


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
