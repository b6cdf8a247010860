"""Every IRI the graph mints answers at its own path, with content negotiation and ``Vary: Accept``."""

from __future__ import annotations

import json

import pyoxigraph
import pytest
from yili.api.resources import KINDS

BASE = "https://w3id.org/yili-kg/"
RITE = pyoxigraph.NamedNode(BASE + "rite/yanli")
LABEL = pyoxigraph.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")


def _minted_iris(service) -> list[str]:
    """Every IRI under the base in the graph, as subject or object, less its fragment."""
    rows = service.store.query(
        f"""SELECT DISTINCT ?x WHERE {{ {{ GRAPH ?g {{ ?x ?p ?o }} }} UNION {{ GRAPH ?g {{ ?s ?p ?x }} }}
              FILTER(isIRI(?x) && STRSTARTS(STR(?x), "{BASE}")) }}"""
    )
    return sorted({row["x"].value.split("#")[0] for row in rows})


def test_every_iri_the_graph_mints_answers_at_its_path(client, service):
    """All of them, from the ontology to each commentary piece: 200 in Turtle at the IRI's path
    (a step after its 303), and the Turtle says something about the IRI."""
    iris = _minted_iris(service)
    kinds = sorted({iri[len(BASE) :].split("/")[0] for iri in iris})
    # no stage: 儀禮圖 does not cover the 燕禮 (tests/graph/test_stages_graph.py asks a stage at its path); and the
    # excerpt's 述註 keeps no 古文/今文 reading of 鄭玄's (the whole chapters do: tests/api/test_commentary_routes.py)
    assert kinds == sorted([*(k for k in KINDS if k not in ("stage", "reading")), "step", "ontology", "context.jsonld"])
    assert sum(iri.startswith(BASE + "step/") for iri in iris) == 612
    assert sum(iri.startswith(BASE + "block/") for iri in iris) == 112
    failures = []
    for iri in iris:
        path = "/" + iri[len(BASE) :]
        if path == "/context.jsonld":
            continue
        r = client.get(path, headers={"Accept": "text/turtle"})
        if r.status_code != 200 or r.headers["vary"] != "Accept" or not r.headers["content-type"].startswith("text/turtle"):
            failures.append((path, r.status_code))
            continue
        triples = pyoxigraph.parse(r.content, format=pyoxigraph.RdfFormat.TURTLE)
        if not any(iri in (t.subject.value, getattr(t.object, "value", "")) for t in triples):
            failures.append((path, "says nothing of it"))
    assert failures == []


@pytest.mark.parametrize(
    ("accept", "media", "fmt"),
    [
        ("application/ld+json", "application/ld+json", pyoxigraph.RdfFormat.JSON_LD),
        ("text/turtle", "text/turtle", pyoxigraph.RdfFormat.TURTLE),
        ("application/n-triples", "application/n-triples", pyoxigraph.RdfFormat.N_TRIPLES),
        ("application/rdf+xml", "application/rdf+xml", pyoxigraph.RdfFormat.RDF_XML),
        ("*/*", "application/ld+json", pyoxigraph.RdfFormat.JSON_LD),
    ],
)
def test_a_rite_answers_in_each_rdf_format(client, accept, media, fmt):
    """/rite/yanli: the rite's labels, 燕禮 and 燕礼, in the format asked."""
    r = client.get("/rite/yanli", headers={"Accept": accept})
    assert r.status_code == 200 and r.headers["vary"] == "Accept"
    assert r.headers["content-type"].split(";")[0] == media
    labels = sorted(
        (t.object.value, t.object.language)
        for t in pyoxigraph.parse(r.content, format=fmt)
        if t.subject == RITE and t.predicate == LABEL
    )
    assert labels == [("The Banquet", "en"), ("燕礼", "zh-hans"), ("燕禮", "zh-hant")]


def test_a_browser_gets_a_page_and_format_overrides_accept(client):
    browser = "text/html,application/xhtml+xml,*/*;q=0.8"
    page = client.get("/vocab/role-bin", headers={"Accept": browser})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<title>賓 · yili-kg</title>" in page.text
    assert '<link rel="alternate" type="text/turtle" href="?format=turtle">' in page.text
    nt = client.get("/vocab/role-bin?format=ntriples", headers={"Accept": browser})
    assert nt.headers["content-type"] == "application/n-triples"
    assert f'<{BASE}vocab/role-bin> <http://www.w3.org/2004/02/skos/core#prefLabel> "賓"@zh-hant .' in nt.text


def test_editions_blocks_and_commentary_are_described(client):
    """The edition (its work), block 24 (主人筵前献賔…) and its first commentary piece (注曰…)."""
    edition = client.get("/text/yanli/shuzhu-excerpt?format=ntriples").text
    assert f"<{BASE}text/yanli/shuzhu-excerpt> <http://purl.org/dc/terms/isPartOf> <{BASE}vocab/work-shuzhu> ." in edition
    block = {t.predicate.value.split("#")[-1]: t.object.value for t in _turtle(client, "/block/yanli/shuzhu-excerpt/24")}
    assert block["blockNumber"] == "24" and block["text"].startswith("主人筵前献賔")
    piece = {t.predicate.value.split("#")[-1]: t.object.value for t in _turtle(client, "/commentary/yanli/shuzhu-excerpt/24/1")}
    assert piece["comments"] == f"{BASE}block/yanli/shuzhu-excerpt/24"
    assert piece["text"].startswith("注曰")


def _turtle(client, path: str) -> list[pyoxigraph.Triple]:
    r = client.get(path, headers={"Accept": "text/turtle"})
    assert r.status_code == 200, (path, r.text)
    return list(pyoxigraph.parse(r.content, format=pyoxigraph.RdfFormat.TURTLE))


def test_the_ontology_the_alignments_and_the_context(client):
    onto = _turtle(client, "/ontology")
    step_class = pyoxigraph.NamedNode(BASE + "ontology#Step")
    rdf_type = pyoxigraph.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    owl_class = pyoxigraph.NamedNode("http://www.w3.org/2002/07/owl#Class")
    assert (step_class, rdf_type, owl_class) in {(t.subject, t.predicate, t.object) for t in onto}
    aligned = {(t.subject.value, t.object.value) for t in _turtle(client, "/ontology/alignments")}
    assert (BASE + "ontology#Step", "http://purl.org/net/p-plan#Step") in aligned
    context = client.get("/context.jsonld")
    assert context.headers["content-type"] == "application/ld+json"
    assert json.loads(context.content)["@context"]["yk"] == BASE + "ontology#"


def test_unknown_iris_formats_and_parameters_are_refused_by_name(client):
    missing = client.get("/rite/nonesuch")
    assert missing.status_code == 404
    assert missing.json()["message"] == f"the graph holds nothing about <{BASE}rite/nonesuch>"
    refused = client.get("/rite/yanli", headers={"Accept": "image/png"})
    assert refused.status_code == 406 and "image/png" in refused.json()["message"]
    assert client.get("/rite/yanli?format=pdf").status_code == 406
    extra = client.get("/rite/yanli?bogus=1")
    assert extra.status_code == 400 and extra.json()["message"] == "unknown parameter 'bogus': only format= is accepted here"


def test_head_answers_as_get_without_a_body(client):
    """A link checker's HEAD: the GET's status and headers, no body."""
    for path in ("/rite/yanli", "/steps/yanli/shuzhu-excerpt/24/1", "/toasts"):
        get, head = client.get(path), client.head(path)
        assert (head.status_code, head.content) == (200, b"")
        assert head.headers["content-type"] == get.headers["content-type"]
        assert head.headers["content-length"] == str(len(get.content))
    assert client.head("/rite/nonesuch").status_code == 404


def test_a_refusal_to_negotiate_says_vary_accept(client):
    for path in ("/rite/yanli", "/steps/yanli/shuzhu-excerpt/24/1"):
        refused = client.get(path, headers={"Accept": "image/png"})
        assert (refused.status_code, refused.headers["vary"]) == (406, "Accept")
