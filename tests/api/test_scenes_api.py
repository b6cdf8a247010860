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
        "西階上",
        -0.8,
        0.08,
        "东面",  # an inferred facing in the script of the text (simplified)
        "written",
        "climb",
        "place",
    )  # fmt: skip (西階上 faces east: 特牲 祝出立于西階上東面)
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


def test_scene_as_json_ld(client):
    """``Accept: application/ld+json``: the placements that hold at the step, with the graph's own
    statements, compacted with ontology/context.jsonld; read back as RDF they give the same values."""
    from decimal import Decimal

    from rdflib import Graph, Literal, Namespace, URIRef

    r = client.get("/steps/yanli/shuzhu-excerpt/16/2/scene", headers={"Accept": "application/ld+json"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/ld+json") and r.headers["vary"] == "Accept"
    doc = r.json()
    assert doc["@context"]["placeLabel"] == {"@id": "yk:placeLabel"} and doc["@context"]["dctSource"] == {"@id": "dcterms:source"}
    nodes = {n["personLabel"]: n for n in doc["@graph"]}
    host = nodes["主人"]
    assert host["id"].endswith("/placement/yanli/shuzhu-excerpt/16/2/role-zhuren") and host["type"] == "Placement"
    assert (host["placeLabel"], host["positionStatus"], host["positionRule"], host["facingLabel"], host["facingRule"]) == (
        "西階上", "written", "climb", "东面", "place")  # fmt: skip
    assert host["atStep"].endswith("/step/yanli/shuzhu-excerpt/16/2")
    # as RDF: yk:x is an xsd:decimal, dcterms:source the sentence; the same persons as the JSON scene
    g = Graph().parse(data=r.text, format="json-ld")
    yk = Namespace("https://w3id.org/yili-kg/ontology#")
    node = URIRef(host["id"])
    assert g.value(node, yk.x) == Literal(Decimal("-0.8")) and g.value(node, yk.y) == Literal(Decimal("0.08"))
    assert "阼階" in str(g.value(node, URIRef("http://purl.org/dc/terms/source")))
    persons = {p["person"] for p in client.get("/steps/yanli/shuzhu-excerpt/16/2/scene").json()["persons"]}
    assert {str(o) for o in g.objects(None, yk.personLabel)} == persons
    # the guest is out after 賔出 (8/1): no placement of his in that scene's JSON-LD
    out = client.get("/steps/yanli/shuzhu-excerpt/8/1/scene", headers={"Accept": "application/ld+json"}).json()
    assert "賔" not in {n["personLabel"] for n in out["@graph"]} and "公" in {n["personLabel"] for n in out["@graph"]}
    assert client.get("/steps/yanli/shuzhu-excerpt/16/2/scene", headers={"Accept": "text/html"}).status_code == 406


def test_furnishings_route(client):
    rows = client.get("/furnishings", params={"rite": "yanli"}).json()
    assert [(r["object"], r["kind"], r["place"], r["x"], r["y"], r["url"]) for r in rows] == [
        ("席", "mat", "西阶上少东", -0.8, 0.08, "/steps/yanli/shuzhu-excerpt/82/1")
    ]  # 席工于西阶上少东
    assert client.get("/furnishings", params={"rite": "nosuchrite"}).status_code == 404
