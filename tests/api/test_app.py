"""The REST API and the SPARQL endpoint over the graph built from the excerpt."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
from rdflib import Graph, URIRef
from yili.api.resources import KINDS

WHO_TOASTS_WHOM = """
PREFIX yk: <https://w3id.org/yili-kg/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?giver ?type ?receiver ?text WHERE {
  ?step a yk:Toast ; yk:sequence ?seq ; yk:text ?text ;
        yk:giver/skos:prefLabel ?giver ; yk:toastType/skos:prefLabel ?type ; yk:receiver/skos:prefLabel ?receiver .
  FILTER(langMatches(lang(?giver), "zh-Hant") && langMatches(lang(?type), "zh-Hant") && langMatches(lang(?receiver), "zh-Hant"))
} ORDER BY ?seq LIMIT 3
"""


def test_toasts_in_ritual_order(client):
    r = client.get("/toasts")
    assert r.status_code == 200
    first = r.json()["items"][0]
    assert {k: first[k] for k in ("giver", "receiver", "type", "text", "char_start", "char_end", "sequence")} == {
        "giver": "主人",
        "receiver": "賔",
        "type": "献",
        "text": "主人筵前献賔",
        "char_start": 1057,
        "char_end": 1063,
        "sequence": 70,
    }
    assert first["step"] == "https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1"
    seqs = [t["sequence"] for t in r.json()["items"]]
    assert seqs == sorted(seqs) and len(seqs) == r.json()["total"] == 26


@pytest.mark.parametrize("name", ["賔", "賓", "宾"])
def test_any_variant_finds_the_guest(client, name):
    r = client.get("/toasts", params={"giver": "主人", "receiver": name, "type": "獻"})
    assert r.status_code == 200
    assert [t["text"] for t in r.json()["items"]] == ["主人筵前献賔"]


def test_unknown_name_is_a_404_naming_it(client):
    r = client.get("/toasts", params={"giver": "皇帝"})
    assert r.status_code == 404
    assert r.json() == {
        "error": "unknown_term",
        "message": "unknown role name '皇帝': not a label of any role concept in the vocabulary",
    }


def test_steps_are_ordered_and_paginated(client):
    r = client.get("/steps", params={"agent": "賓", "limit": 2, "offset": 0})
    body = r.json()
    assert [s["text"] for s in body["items"]] == ["賔少进", "礼辞"]
    assert body["total"] > 100 and body["next"].endswith("offset=2&limit=2")
    r2 = client.get(body["next"])
    assert [s["text"] for s in r2.json()["items"]] == ["賔再拜稽首", "许诺"]
    cups = client.get("/steps", params={"vessel": "爵", "action": "献", "limit": 1}).json()["items"][0]
    assert (cups["text"], cups["vessel"], cups["wine"]) == ("主人筵前献賔", "觚", "膳")  # 觚 is a 爵


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 5000}, {"offset": -1}, {"limit": "many"}])
def test_bad_paging_is_a_400_with_a_message(client, params):
    r = client.get("/steps", params=params)
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    assert ("limit" in r.json()["message"]) or ("offset" in r.json()["message"])


def test_one_step_links_its_neighbours_and_commentary(client):
    r = client.get("/steps/yanli/shuzhu-excerpt/24/1")
    s = r.json()
    assert (s["agent"], s["action"], s["recipient"], s["phase"]) == ("主人", "献", "賔", "主人献賔")
    assert s["toast"] == {"giver": "主人", "receiver": "賔", "type": "献"}
    assert s["next"] == "https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/2"
    assert s["commentary"][0]["text"] == "注曰賔既拜前受觚退复位"
    assert s["links"] == {
        "previous": "/steps/yanli/shuzhu-excerpt/23/3",
        "next": "/steps/yanli/shuzhu-excerpt/24/2",
        "repeats": None,
        "self": "/steps/yanli/shuzhu-excerpt/24/1",
    }
    assert client.get(s["links"]["next"]).json()["text"] == "賔西阶上拜"
    assert client.get("/steps/yanli/shuzhu-excerpt/1/99").status_code == 404


def test_one_step_as_json_ld_gives_the_same_triples(client):
    r = client.get("/steps/yanli/shuzhu-excerpt/24/1", headers={"Accept": "application/ld+json"})
    assert r.headers["content-type"].startswith("application/ld+json")
    g = Graph().parse(data=r.text, format="json-ld")
    step = URIRef("https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1")
    giver = g.value(step, URIRef("https://w3id.org/yili-kg/ontology#giver"))
    assert giver == URIRef("https://w3id.org/yili-kg/vocab/role-zhuren")
    assert g.value(step, URIRef("https://w3id.org/yili-kg/ontology#charStart")).toPython() == 1057
    # the same triples as the other RDF representations, labels and source span included
    for fmt, reader in (("turtle", "turtle"), ("ntriples", "nt"), ("rdfxml", "xml")):
        other = Graph().parse(data=client.get("/steps/yanli/shuzhu-excerpt/24/1", params={"format": fmt}).text, format=reader)
        assert set(other) == set(g), fmt
    # 45 triples of the step and its span, and 7 saying which rule decided each of its fields
    assert len(g) == 52
    decided = URIRef("https://w3id.org/yili-kg/ontology#agentDecidedBy")
    assert g.value(step, decided) == URIRef("https://w3id.org/yili-kg/rule/agent.written")
    quote = URIRef("https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1#quote")
    assert str(g.value(quote, URIRef("http://www.w3.org/ns/oa#exact"))) == "主人筵前献賔"
    assert json.loads(r.text)["@context"]["charStart"] == {"@id": "yk:charStart", "@type": "xsd:integer"}


def test_sparql_who_toasts_whom(client):
    r = client.get("/sparql", params={"query": WHO_TOASTS_WHOM}, headers={"Accept": "application/sparql-results+json"})
    rows = [{k: v["value"] for k, v in b.items()} for b in r.json()["results"]["bindings"]]
    assert rows == [
        {"giver": "主人", "type": "獻", "receiver": "賓", "text": "主人筵前献賔"},
        {"giver": "賓", "type": "酢", "receiver": "主人", "text": "以酢主人于西阶上"},
        {"giver": "主人", "type": "獻", "receiver": "公", "text": "东北面献于公"},
    ]


def test_sparql_errors_are_json(client):
    r = client.get("/sparql", params={"query": "SELECT * WHERE { ?s ?p "})
    assert r.status_code == 400 and r.json()["error"] == "query" and "SPARQL" in r.json()["message"]
    r = client.post("/sparql", data={"update": "INSERT DATA { <a:b> <a:c> <a:d> }"})
    assert r.status_code == 403
    assert client.get("/terms/宾").json()["zh-Hant"] == "賓"
    assert client.get("/no/such/page").json()["error"] == "not_found"
    # percent-encoded bytes that are not UTF-8 are refused, not looked up as replacement characters
    r = client.get("/toasts?giver=%ff%fe")
    assert r.status_code == 400 and r.json() == {
        "error": "invalid_request",
        "message": "query parameter 'giver': its value is not UTF-8 (percent-encoded bytes ff fe)",
    }
    # an unknown name is the same error whatever its length (a long one is not looked up)
    assert [client.get(f"/terms/{'a' * n}").json()["error"] for n in (4, 60)] == ["unknown_term", "unknown_term"]


def test_huge_request_body_is_refused(client):
    r = client.post("/sparql", content=b"x" * 2_000_001, headers={"Content-Type": "application/sparql-query"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"


@pytest.fixture(scope="module")
def server(service):
    import uvicorn
    from yili.api.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(service), host="127.0.0.1", port=port, log_level="error")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def test_sparqlwrapper_queries_the_running_server(server):
    from SPARQLWrapper import JSON, SPARQLWrapper

    sw = SPARQLWrapper(f"{server}/sparql")
    sw.setQuery(WHO_TOASTS_WHOM)
    sw.setReturnFormat(JSON)
    result = sw.query().convert()
    first = {k: v["value"] for k, v in result["results"]["bindings"][0].items()}
    assert first == {"giver": "主人", "type": "獻", "receiver": "賓", "text": "主人筵前献賔"}


def test_rest_over_http(server):
    import httpx

    r = httpx.get(f"{server}/toasts", params={"receiver": "公"}, timeout=10)
    assert [(t["giver"], t["type"]) for t in r.json()["items"]][:2] == [("主人", "献"), ("下大夫二人", "媵")]
    assert json.loads(httpx.get(f"{server}/", timeout=10).text)["summary"]["toasts"] == 26


def test_unknown_parameters_and_blank_names(client):
    r = client.get("/toasts", params={"reciever": "公"})
    assert r.status_code == 400
    assert r.json() == {
        "error": "invalid_request",
        "message": "unknown parameter 'reciever' (this resource takes: giver, limit, offset, receiver, rite, type)",
    }
    assert [t["text"] for t in client.get("/toasts", params={"receiver": " 公 "}).json()["items"]] == [
        "东北面献于公",
        "媵爵",
        "二大夫媵爵如初",
    ]
    assert client.get("/toasts", params={"receiver": "  "}).json()["total"] == 26
    r = client.get("/toasts", params={"type": "拜"})
    assert r.status_code == 404 and r.json()["message"] == "unknown toast type '拜': expected one of 献, 酢, 酬, 媵, 旅酬, 赐"


def test_paging_past_the_end_and_relative_links(client):
    body = client.get("/steps", params={"offset": 10000, "limit": 50}, headers={"Host": "evil.example"}).json()
    assert body["items"] == [] and body["next"] is None
    assert body["previous"] == f"/steps?offset={body['total'] - 50}&limit=50"


def test_one_step_as_turtle(client):
    r = client.get("/steps/yanli/shuzhu-excerpt/24/1", headers={"Accept": "text/turtle"})
    assert r.headers["content-type"].startswith("text/turtle")
    g = Graph().parse(data=r.text, format="turtle")
    step = URIRef("https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1")
    assert str(g.value(step, URIRef("https://w3id.org/yili-kg/ontology#text"))) == "主人筵前献賔"
    position = URIRef(str(step) + "#position")
    assert g.value(position, URIRef("http://www.w3.org/ns/oa#start")).toPython() == 1057


def test_openapi_docs_describe_every_resource(client):
    assert client.get("/docs").status_code == 200 and "swagger" in client.get("/docs").text.lower()
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/toasts", "/steps", "/steps/{rite}/{edition}/{block}/{ordinal}", "/phases", "/terms/{name}", "/sparql"} <= set(paths)
    assert "Who toasts whom" in paths["/toasts"]["get"]["summary"]


@pytest.mark.parametrize(
    ("accept", "format", "media", "reader"),
    [
        ("", None, "application/json", "json"),
        ("*/*", None, "application/json", "json"),
        ("application/json, text/html", None, "application/json", "json"),
        # a browser prefers HTML: the viewer's page, which shows the step
        ("text/html,application/xhtml+xml,*/*;q=0.8", None, "text/html", "html"),
        ("application/json", "html", "text/html", "html"),
        ("application/ld+json", None, "application/ld+json", "json-ld"),
        ("text/turtle", None, "text/turtle", "turtle"),
        ("application/n-triples", None, "application/n-triples", "nt"),
        ("application/rdf+xml;q=0.9, application/n-triples;q=0.5", None, "application/rdf+xml", "xml"),
        ("text/turtle", "rdfxml", "application/rdf+xml", "xml"),
    ],
)
def test_a_step_is_negotiated_with_vary_accept(client, accept, format, media, reader):
    """主人筵前献賔 (offset 1057) in every representation, each saying Vary: Accept; the RDF ones
    hold its text and its giver."""
    params = {"format": format} if format else {}
    r = client.get("/steps/yanli/shuzhu-excerpt/24/1", headers={"Accept": accept} if accept else {}, params=params)
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == media
    assert r.headers["vary"] == "Accept"
    if reader == "json":
        assert r.json()["text"] == "主人筵前献賔"
    elif reader == "html":
        assert '<script src="/static/viewer.js"' in r.text
    else:
        g = Graph().parse(data=r.text, format=reader)
        step = URIRef("https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1")
        assert str(g.value(step, URIRef("https://w3id.org/yili-kg/ontology#text"))) == "主人筵前献賔"
        if reader != "json-ld":
            assert g.value(step, URIRef("https://w3id.org/yili-kg/ontology#giver")) == URIRef(
                "https://w3id.org/yili-kg/vocab/role-zhuren"
            )


def test_a_step_iri_path_is_a_303_to_its_description(client):
    """/step/… (the IRI's own path, when --base-iri is this server) answers 303 See Other to
    /steps/…, keeping the query; an Accept nothing satisfies is a 406 there."""
    r = client.get("/step/yanli/shuzhu-excerpt/24/1?format=turtle", follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/steps/yanli/shuzhu-excerpt/24/1?format=turtle"
    followed = client.get("/step/yanli/shuzhu-excerpt/24/1", headers={"Accept": "text/turtle"})
    assert followed.headers["content-type"].startswith("text/turtle") and "主人筵前献賔" in followed.text
    refused = client.get("/steps/yanli/shuzhu-excerpt/24/1", headers={"Accept": "image/png"})
    assert refused.status_code == 406 and refused.json()["error"] == "not_acceptable"


def test_openapi_lists_the_statuses_each_route_answers(client):
    """Invalid parameters are answered 400 (not FastAPI's 422) and unknown steps, terms and rites
    404, each with the {"error", "message"} body; the schema says so, and the answers agree."""
    paths = client.get("/openapi.json").json()["paths"]
    statuses = {path: sorted(ops["get"]["responses"]) for path, ops in paths.items() if path != "/sparql"}
    assert statuses == {
        "/": ["200", "400"],
        "/toasts": ["200", "400", "404"],
        "/steps": ["200", "400", "404"],
        "/steps/{rite}/{edition}/{block}/{ordinal}": ["200", "400", "404", "406"],
        "/step/{rite}/{edition}/{block}/{ordinal}": ["303", "400", "404"],
        "/phases": ["200", "400", "404"],
        "/stages": ["200", "400", "404"],
        "/moves": ["200", "400", "404"],
        "/furnishings": ["200", "400", "404"],
        "/ground": ["200", "400"],
        "/steps/{rite}/{edition}/{block}/{ordinal}/scene": ["200", "400", "404", "406"],
        "/rites": ["200", "400"],
        "/terms/{name}": ["200", "400", "404"],
        "/export/{format}": ["200", "400", "404", "503"],
        "/search": ["200", "400", "404"],
        "/glosses": ["200", "400", "404"],
        "/citations": ["200", "400", "404"],
        **{f"/{kind}/{{key}}": ["200", "400", "404", "406"] for kind in KINDS},
        "/ontology": ["200", "400", "404", "406"],
        "/graph/vocabulary": ["303"],
        "/context.jsonld": ["200", "400", "406"],
        "/ontology/alignments": ["200", "400", "404", "406"],
        "/compare": ["200", "400", "404", "406"],
        "/patterns": ["200", "400", "404", "406"],
        "/next": ["200", "400", "404"],
        "/ngrams": ["200", "400", "404", "406"],
    }
    body = paths["/toasts"]["get"]["responses"]["404"]["content"]["application/json"]["schema"]
    assert body["required"] == ["error", "message"]
    answers = {
        "/toasts?receiver=nobody": 404,
        "/toasts?bogus=1": 400,
        "/steps?limit=-1": 400,
        "/steps/yanli/shuzhu-excerpt/24/notanumber": 400,
        "/steps/yanli/shuzhu-excerpt/0/1": 400,
        "/steps/yanli/shuzhu-excerpt/1/99": 404,
        "/step/yanli/shuzhu-excerpt/1/99": 404,
        "/terms/nobody": 404,
        "/rites?bogus=1": 400,
        "/?bogus=1": 400,
        "/terms/賓?bogus=1": 400,
        "/steps/yanli/shuzhu-excerpt/24/1?bogus=1": 400,
        "/steps/yanli/shuzhu-excerpt/24/1?format=jsonld": 200,
        "/steps/yanli/shuzhu-excerpt/24/1?format=pdf": 406,
    }
    got = {url: client.get(url).status_code for url in answers}
    assert got == answers


@pytest.fixture(scope="module")
def two_rites(extractor, extraction):
    """The excerpt (燕禮) and 特牲饋食禮 (儀禮述註) in one graph."""
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    sacrifice = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_015.txt")))
    return TestClient(create_app(service_from_extractions([extraction, sacrifice]))), sacrifice


def test_rites_lists_each_rite_with_its_editions_and_counts(two_rites):
    client, sacrifice = two_rites
    rites = client.get("/rites").json()
    assert [r["rite"] for r in rites] == [  # in the order of the chapters: 燕禮 is the 6th, 特牲 the 15th
        "https://w3id.org/yili-kg/rite/yanli",
        "https://w3id.org/yili-kg/rite/teshengkuishili",
    ]
    yan, tesheng = rites
    assert tesheng["label"] == {"en": "The Food Offering with a Single Victim", "zh-Hans": "特牲馈食礼", "zh-Hant": "特牲饋食禮"}
    assert tesheng["editions"] == [
        {
            "edition": "https://w3id.org/yili-kg/text/teshengkuishili/shuzhu",
            "source": "KR1d0040_015.txt",
            "steps": len(sacrifice.steps),
            "toasts": len(sacrifice.toasts),
        }
    ]
    assert yan["editions"][0]["steps"] == 612 and yan["editions"][0]["toasts"] == 26


def test_steps_toasts_and_phases_take_a_rite_in_any_written_form(two_rites):
    client, sacrifice = two_rites
    for name in ("特牲饋食禮", "特牲馈食礼", "teshengkuishili", "特牲"):
        toasts = client.get("/toasts", params={"rite": name}).json()["items"]
        assert len(toasts) == len(sacrifice.toasts), name
    first = client.get("/toasts", params={"rite": "特牲饋食禮"}).json()["items"][0]
    assert (first["giver"], first["type"], first["receiver"], first["text"]) == ("主人", "獻", "尸", "酳尸")
    assert client.get("/toasts", params={"rite": "燕礼", "receiver": "公"}).json()["items"][0]["text"] == "东北面献于公"
    page = client.get("/steps", params={"rite": "yanli", "limit": 1}).json()
    assert page["total"] == 612 and page["items"][0]["text"] == "尔大夫"
    assert {p["edition"] for p in client.get("/phases", params={"rite": "燕禮"}).json()} == {
        "https://w3id.org/yili-kg/text/yanli/shuzhu-excerpt"
    }
    r = client.get("/toasts", params={"rite": "皇帝禮"})
    assert r.status_code == 404 and "unknown rite '皇帝禮'" in r.json()["message"]


def test_a_method_not_allowed_names_the_allowed_ones(client):
    r = client.request("TRACE", "/toasts")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    assert r.json() == {"error": "method_not_allowed", "message": "Method Not Allowed"}
    assert client.delete("/sparql").headers["allow"] == "GET, HEAD, POST"
    # routes of an included router (FastAPI keeps it as one entry of app.routes) name theirs too
    for path in ("/steps", "/terms/賓", "/stages", "/search?q=拜"):
        r = client.post(path)
        assert (r.status_code, r.headers.get("allow")) == (405, "GET, HEAD"), path


def test_a_graph_built_under_another_base_is_served_and_its_iris_dereference(extraction):
    """With --base-iri set to the server, the REST lookups still find the steps (yk: moves under
    the base too), and a step's IRI, fetched as it is, leads by 303 to its description."""
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions

    base = "http://testserver/"
    client = TestClient(create_app(service_from_extractions([extraction], base=base)))
    first = client.get("/toasts").json()["items"][0]
    assert (first["giver"], first["receiver"], first["type"], first["text"]) == ("主人", "賔", "献", "主人筵前献賔")
    assert first["step"] == "http://testserver/step/yanli/shuzhu-excerpt/24/1"
    assert client.get("/steps", params={"limit": 1}).json()["total"] == 612
    r = client.get(first["step"], headers={"Accept": "application/n-triples"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/n-triples")
    assert '<http://testserver/step/yanli/shuzhu-excerpt/24/1> <http://testserver/ontology#text> "主人筵前献賔"' in r.text


def test_toasts_are_paginated_with_a_total_and_links(client):
    """/toasts pages like /steps: limit, offset, total, next and previous; the pages put together
    are the whole list, in ritual order."""
    first = client.get("/toasts", params={"giver": "主人", "limit": 5}).json()
    assert (first["total"], first["limit"], first["offset"], first["previous"]) == (15, 5, 0, None)
    from urllib.parse import parse_qs, urlsplit

    assert urlsplit(first["next"]).path == "/toasts"
    assert parse_qs(urlsplit(first["next"]).query) == {"giver": ["主人"], "limit": ["5"], "offset": ["5"]}
    pages, url = [], "/toasts?giver=%E4%B8%BB%E4%BA%BA&limit=5&offset=0"
    while url:
        page = client.get(url).json()
        pages.extend(page["items"])
        url = page["next"]
    whole = client.get("/toasts", params={"giver": "主人", "limit": 1000}).json()["items"]
    assert pages == whole and len(whole) == 15
    assert [t["text"] for t in whole[:2]] == ["主人筵前献賔", "东北面献于公"]
    last = client.get("/toasts", params={"giver": "主人", "limit": 5, "offset": 10}).json()
    assert last["next"] is None and urlsplit(last["previous"]).path == "/toasts"
    assert parse_qs(urlsplit(last["previous"]).query) == {"giver": ["主人"], "limit": ["5"], "offset": ["5"]}
    assert client.get("/toasts", params={"limit": 0}).status_code == 400


def test_a_step_of_a_paged_edition_says_its_page(two_rites):
    """The step's JSON (and the step chain export) name the page of the edition it begins on."""
    client, sacrifice = two_rites
    first = sacrifice.steps[0]
    page = client.get("/steps", params={"rite": "特牲饋食禮", "limit": 1}).json()["items"][0]
    assert page["page"] == first.page and first.page.startswith("KR1d0040_WYG_015-")
    one = client.get(page["url"]).json()
    assert (one["text"], one["page"]) == (first.text, first.page)
    assert client.get("/steps", params={"rite": "燕禮", "limit": 1}).json()["items"][0]["page"] is None


def test_a_parameter_given_twice_is_refused(client):
    r = client.get("/steps", params=[("agent", "公"), ("agent", "賓")])
    assert r.status_code == 400
    assert r.json()["message"] == "parameter 'agent' given more than once: give it once"
