"""The read-only SPARQL 1.1 Protocol endpoint (``yili.api.sparql``), over a tiny two-graph store."""

from __future__ import annotations

import asyncio
import csv
import doctest
import io
import json
import socket
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Literal, cast

import fastapi
import httpx
import pyoxigraph
import pytest
import rdflib
import uvicorn
from fastapi.testclient import TestClient
from SPARQLWrapper import JSON, JSONLD, N3, TURTLE, SPARQLWrapper
from yili.api import sparql
from yili.api.sparql import SparqlLimits, make_sparql_router

Isolation = Literal["process", "thread"]

EX = "https://example.org/yili/"
RITE = f"{EX}graph/yanli"  # the rite's steps
NOTES = f"{EX}graph/zhu"  # the commentary on them
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SRX = "{http://www.w3.org/2005/sparql-results#}"

DATA = f"""
@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<{RITE}> {{
    ex:step1 a ex:Step ; rdfs:label "主人獻賓"@zh ; ex:actor ex:host ; ex:order 1 .
    ex:step2 a ex:Step ; rdfs:label "賓酢主人"@zh ; ex:actor ex:guest ; ex:order 2 .
}}
<{NOTES}> {{
    # 注曰主人宰夫也: the host is the steward acting as host
    ex:host rdfs:label "主人"@zh ; rdfs:comment "宰夫也" .
}}
"""
PREFIXES = f"PREFIX ex: <{EX}> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
STEP_LABELS = PREFIXES + "SELECT ?label WHERE { ?step a ex:Step ; rdfs:label ?label ; ex:order ?n } ORDER BY ?n"
FORM = "application/x-www-form-urlencoded"


def numbers(count: int) -> str:
    return " ".join(str(i) for i in range(1, count + 1))


# A query whose solutions come slowly (each row checks 40,000 combinations, a few ms), 300 rows.
SLOW_ROWS = (
    f"SELECT ?a {{ VALUES ?a {{ {numbers(300)} }} FILTER NOT EXISTS {{ VALUES ?b {{ {numbers(200)} }} "
    f"VALUES ?c {{ {numbers(200)} }} FILTER(?b * ?c = ?a * 1000000) }} }}"
)
# A query whose single row needs one long uninterruptible step in Oxigraph (about 10 million joins).
SLOW_COUNT = (
    f"SELECT (COUNT(*) AS ?n) {{ VALUES ?a {{ {numbers(220)} }} VALUES ?b {{ {numbers(220)} }} "
    f"VALUES ?c {{ {numbers(220)} }} FILTER(?a + ?b != ?c * 1000) }}"
)


@pytest.fixture(scope="module")
def store() -> pyoxigraph.Store:
    store = pyoxigraph.Store()
    store.load(DATA.encode("utf-8"), format=pyoxigraph.RdfFormat.TRIG)
    return store


def make_app(store: pyoxigraph.Store, limits: SparqlLimits | None = None) -> fastapi.FastAPI:
    app = fastapi.FastAPI()
    app.include_router(make_sparql_router(lambda: store, limits=limits))
    return app


@pytest.fixture(scope="module")
def client(store: pyoxigraph.Store) -> Iterator[TestClient]:
    with TestClient(make_app(store)) as client:
        yield client


def bindings(response: httpx.Response, variable: str) -> list[str]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/sparql-results+json"
    rows = response.json()["results"]["bindings"]
    return [str(row[variable]["value"]) for row in rows if variable in row]


def error(response: httpx.Response, status: int, kind: str) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "message"}
    assert body["error"] == kind
    return str(body["message"])


# ---------------------------------------------------------------------------------------------------
# The three ways to send a query (SPARQL 1.1 Protocol 2.1.1-2.1.3)


def test_get_select_answers_sparql_json(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": STEP_LABELS})
    assert bindings(response, "label") == ["主人獻賓", "賓酢主人"]
    first = response.json()["results"]["bindings"][0]["label"]
    assert first == {"type": "literal", "value": "主人獻賓", "xml:lang": "zh"}
    assert response.json()["head"] == {"vars": ["label"]}
    assert response.headers["vary"] == "Accept"


def test_post_form_and_post_direct_answer_like_get(client: TestClient) -> None:
    form = client.post("/sparql", data={"query": STEP_LABELS})
    direct = client.post("/sparql", content=STEP_LABELS.encode(), headers={"content-type": "application/sparql-query"})
    direct_utf8 = client.post(
        "/sparql",
        content=STEP_LABELS.encode(),
        headers={"content-type": "application/sparql-query; charset=UTF-8"},
    )
    for response in (form, direct, direct_utf8):
        assert bindings(response, "label") == ["主人獻賓", "賓酢主人"]


def test_default_graph_is_the_union_of_the_named_graphs(client: TestClient) -> None:
    # The step is in one graph, the commentary on its actor in the other.
    query = PREFIXES + "SELECT ?note WHERE { ex:step1 ex:actor ?who . ?who rdfs:comment ?note }"
    assert bindings(client.get("/sparql", params={"query": query}), "note") == ["宰夫也"]


def test_graph_patterns_see_every_named_graph(client: TestClient) -> None:
    query = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g"
    assert bindings(client.get("/sparql", params={"query": query}), "g") == [RITE, NOTES]


# ---------------------------------------------------------------------------------------------------
# The dataset (Protocol 2.1.4): protocol parameters, FROM clauses, graphs the store does not hold

LABELS = "SELECT ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label } ORDER BY ?label"


def test_default_graph_uri_restricts_the_default_graph(client: TestClient) -> None:
    only_notes = client.get("/sparql", params={"query": LABELS, "default-graph-uri": NOTES})
    assert bindings(only_notes, "label") == ["主人"]
    both = client.get("/sparql", params=[("query", LABELS), ("default-graph-uri", NOTES), ("default-graph-uri", RITE)])
    assert bindings(both, "label") == ["主人", "主人獻賓", "賓酢主人"]


def test_named_graph_uri_restricts_graph_patterns_and_empties_the_default_graph(client: TestClient) -> None:
    query = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"
    response = client.get("/sparql", params={"query": query, "named-graph-uri": RITE})
    assert bindings(response, "g") == [RITE]
    assert bindings(client.get("/sparql", params={"query": LABELS, "named-graph-uri": RITE}), "label") == []


def test_dataset_parameters_in_the_url_of_a_post(client: TestClient) -> None:
    response = client.post(
        f"/sparql?default-graph-uri={NOTES}",
        content=LABELS.encode(),
        headers={"content-type": "application/sparql-query"},
    )
    assert bindings(response, "label") == ["主人"]
    form = client.post("/sparql", data={"query": LABELS, "default-graph-uri": NOTES})
    assert bindings(form, "label") == ["主人"]


def test_a_graph_not_in_the_store_is_empty_and_never_fetched(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": LABELS, "default-graph-uri": "http://example.org/remote/data.rdf"})
    assert bindings(response, "label") == []


def test_from_clause_is_honoured_and_protocol_parameters_replace_it(client: TestClient) -> None:
    query = f"SELECT ?label FROM <{NOTES}> WHERE {{ ?s <{RDFS_LABEL}> ?label }}"
    assert bindings(client.get("/sparql", params={"query": query}), "label") == ["主人"]
    replaced = client.get("/sparql", params={"query": query + " ORDER BY ?label", "default-graph-uri": RITE})
    assert bindings(replaced, "label") == ["主人獻賓", "賓酢主人"]


def test_the_word_from_inside_a_literal_is_not_a_from_clause(client: TestClient) -> None:
    query = f'SELECT ?label WHERE {{ ?s <{RDFS_LABEL}> ?label FILTER(?label != "quoted from 鄭玄") }} # FROM <x>'
    assert len(bindings(client.get("/sparql", params={"query": query}), "label")) == 3


# ---------------------------------------------------------------------------------------------------
# Results formats and content negotiation (Protocol 2.1.6)


@pytest.mark.parametrize(
    ("accept", "media_type"),
    [
        ("application/sparql-results+json", "application/sparql-results+json"),
        ("application/json", "application/sparql-results+json"),
        ("application/sparql-results+xml", "application/sparql-results+xml"),
        ("text/csv", "text/csv; charset=utf-8"),
        ("text/tab-separated-values", "text/tab-separated-values; charset=utf-8"),
        ("*/*", "application/sparql-results+json"),
        ("", "application/sparql-results+json"),
        ("text/*", "text/csv; charset=utf-8"),
        ("text/csv;q=0.5, application/sparql-results+xml;q=0.9", "application/sparql-results+xml"),
        ("text/html,application/xhtml+xml,*/*;q=0.8", "application/sparql-results+json"),
        ("application/sparql-results+json;q=0, */*", "application/sparql-results+xml"),
        ("application/sparql-results+xml, */*", "application/sparql-results+xml"),
    ],
)
def test_accept_chooses_the_results_format(client: TestClient, accept: str, media_type: str) -> None:
    response = client.get("/sparql", params={"query": STEP_LABELS}, headers={"accept": accept})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media_type


def test_each_results_format_holds_the_bindings(client: TestClient) -> None:
    def get(fmt: str) -> str:
        response = client.get("/sparql", params={"query": STEP_LABELS, "format": fmt})
        assert response.status_code == 200, response.text
        return str(response.text)

    assert list(csv.reader(io.StringIO(get("csv")))) == [["label"], ["主人獻賓"], ["賓酢主人"]]
    assert get("tsv").splitlines() == ["?label", '"主人獻賓"@zh', '"賓酢主人"@zh']
    literals = ET.fromstring(get("xml")).iter(f"{SRX}literal")
    assert [(node.text, node.get("{http://www.w3.org/XML/1998/namespace}lang")) for node in literals] == [
        ("主人獻賓", "zh"),
        ("賓酢主人", "zh"),
    ]
    assert [row["label"]["value"] for row in json.loads(get("json"))["results"]["bindings"]] == [
        "主人獻賓",
        "賓酢主人",
    ]


def test_format_parameter_overrides_accept(client: TestClient) -> None:
    response = client.get(
        "/sparql",
        params={"query": STEP_LABELS, "format": "tsv"},
        headers={"accept": "application/sparql-results+xml"},
    )
    assert response.headers["content-type"] == "text/tab-separated-values; charset=utf-8"
    by_media_type = client.get("/sparql", params={"query": STEP_LABELS, "format": "text/csv"})
    assert by_media_type.headers["content-type"] == "text/csv; charset=utf-8"


def test_ask_answers_a_boolean(client: TestClient) -> None:
    query = PREFIXES + "ASK { ex:step1 ex:actor ex:host }"
    response = client.get("/sparql", params={"query": query})
    assert response.headers["content-type"] == "application/sparql-results+json"
    assert response.json() == {"head": {}, "boolean": True}
    no = client.get("/sparql", params={"query": PREFIXES + "ASK { ex:step2 ex:actor ex:host }", "format": "xml"})
    assert ET.fromstring(no.text).find(f"{SRX}boolean").text == "false"  # type: ignore[union-attr]


CONSTRUCT = PREFIXES + "CONSTRUCT { ?step ex:doneBy ?who } WHERE { ?step ex:actor ?who }"
EXPECTED_GRAPH = {
    (rdflib.URIRef(f"{EX}step1"), rdflib.URIRef(f"{EX}doneBy"), rdflib.URIRef(f"{EX}host")),
    (rdflib.URIRef(f"{EX}step2"), rdflib.URIRef(f"{EX}doneBy"), rdflib.URIRef(f"{EX}guest")),
}


@pytest.mark.parametrize(
    ("accept", "fmt", "media_type", "rdflib_format"),
    [
        ("", None, "text/turtle; charset=utf-8", "turtle"),
        ("application/n-triples", None, "application/n-triples", "nt"),
        ("application/rdf+xml", None, "application/rdf+xml", "xml"),
        ("application/ld+json", None, "application/ld+json", "json-ld"),
        ("text/turtle;q=0.1, application/n-triples", None, "application/n-triples", "nt"),
        ("", "rdfxml", "application/rdf+xml", "xml"),
        ("", "ntriples", "application/n-triples", "nt"),
        ("", "jsonld", "application/ld+json", "json-ld"),
        ("application/sparql-results+json, */*;q=0.1", None, "text/turtle; charset=utf-8", "turtle"),
    ],
)
def test_construct_answers_rdf(client: TestClient, accept: str, fmt: str | None, media_type: str, rdflib_format: str) -> None:
    params = {"query": CONSTRUCT} | ({"format": fmt} if fmt else {})
    response = client.get("/sparql", params=params, headers={"accept": accept})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media_type
    graph = rdflib.Graph().parse(data=response.content, format=rdflib_format)
    assert set(graph) == EXPECTED_GRAPH


def test_describe_answers_turtle(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": f"DESCRIBE <{EX}host>"})
    assert response.headers["content-type"] == "text/turtle; charset=utf-8"
    graph = rdflib.Graph().parse(data=response.text, format="turtle")
    labels = set(graph.objects(rdflib.URIRef(f"{EX}host"), rdflib.RDFS.label))
    assert labels == {rdflib.Literal("主人", lang="zh")}


def test_relative_iris_resolve_against_the_endpoint(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": "CONSTRUCT { <s> <p> 1 } WHERE {}", "format": "nt"})
    assert response.text == '<http://testserver/s> <http://testserver/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'


def test_results_carry_every_kind_of_term() -> None:
    a, p = pyoxigraph.NamedNode("http://e/a"), pyoxigraph.NamedNode("http://e/p")
    xsd_integer = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer")
    objects: list[pyoxigraph.NamedNode | pyoxigraph.BlankNode | pyoxigraph.Literal | pyoxigraph.Triple] = [
        pyoxigraph.Literal('tab\there\nnewline "quoted"'),
        pyoxigraph.BlankNode("b1"),
        pyoxigraph.Literal("5", datatype=xsd_integer),
        pyoxigraph.Literal("hi", language="en", direction=pyoxigraph.BaseDirection.LTR),
        pyoxigraph.Triple(a, p, pyoxigraph.NamedNode("http://e/o")),
    ]
    store = pyoxigraph.Store()
    store.extend(pyoxigraph.Quad(a, p, o) for o in objects)
    with TestClient(make_app(store)) as client:
        query = "SELECT ?o ?missing WHERE { ?s ?p ?o OPTIONAL { ?o <http://e/none> ?missing } }"
        rows = client.get("/sparql", params={"query": query}).json()["results"]["bindings"]
    assert all(set(row) == {"o"} for row in rows)  # ?missing is unbound everywhere
    terms = {json.dumps(row["o"], sort_keys=True) for row in rows}
    assert terms == {json.dumps(term, sort_keys=True) for term in EVERY_KIND_OF_TERM}


EVERY_KIND_OF_TERM = [
    {"type": "bnode", "value": "b1"},
    {"type": "literal", "value": "5", "datatype": "http://www.w3.org/2001/XMLSchema#integer"},
    {"type": "literal", "value": "hi", "xml:lang": "en", "its:dir": "ltr"},
    {"type": "literal", "value": 'tab\there\nnewline "quoted"'},
    {
        "type": "triple",
        "value": {
            "subject": {"type": "uri", "value": "http://e/a"},
            "predicate": {"type": "uri", "value": "http://e/p"},
            "object": {"type": "uri", "value": "http://e/o"},
        },
    },
]


# ---------------------------------------------------------------------------------------------------
# Refusals and errors: JSON, a 4xx, a message a person understands


def test_malformed_query_gives_the_parsers_message(client: TestClient) -> None:
    message = error(client.get("/sparql", params={"query": "SELECT ?x WHERE { ?x"}), 400, "query")
    assert message.startswith("The query is not valid SPARQL 1.1: error at 1:")


@pytest.mark.parametrize("params", [{}, {"query": ""}, {"query": "   "}, {"default-graph-uri": RITE}])
def test_missing_query(client: TestClient, params: dict[str, str]) -> None:
    assert "No query" in error(client.get("/sparql", params=params), 400, "query")


def test_several_queries_are_refused(client: TestClient) -> None:
    response = client.get("/sparql", params=[("query", "ASK {}"), ("query", "SELECT * {}")])
    assert "exactly one query" in error(response, 400, "query")
    direct_and_url = client.post(
        "/sparql?query=ASK%20%7B%7D", content=b"ASK {}", headers={"content-type": "application/sparql-query"}
    )
    error(direct_and_url, 400, "query")


def test_updates_are_refused_read_only(client: TestClient, store: pyoxigraph.Store) -> None:
    before = len(store)
    update = f"INSERT DATA {{ GRAPH <{RITE}> {{ <{EX}x> <{EX}y> <{EX}z> }} }}"
    responses = [
        client.get("/sparql", params={"update": update}),
        client.post("/sparql", data={"update": update}),
        client.post("/sparql", content=update.encode(), headers={"content-type": "application/sparql-update"}),
        client.post("/sparql", content=b"CLEAR ALL", headers={"content-type": "application/sparql-update"}),
    ]
    for response in responses:
        assert "read-only" in error(response, 403, "read_only")
    assert len(store) == before


def test_query_and_update_together_are_refused(client: TestClient) -> None:
    response = client.post("/sparql", data={"query": "ASK {}", "update": "CLEAR ALL"})
    assert "not both" in error(response, 400, "query")


def test_an_update_sent_as_a_query_is_refused_as_read_only(client: TestClient, store: pyoxigraph.Store) -> None:
    before = len(store)
    for text in (
        f"INSERT DATA {{ <{EX}x> <{EX}y> <{EX}z> }}",
        "CLEAR ALL",
        "PREFIX ex: <http://example.org/>\n# a comment\nDELETE WHERE { ?s ?p ?o }",
        "drop all",
    ):
        message = error(client.get("/sparql", params={"query": text}), 403, "read_only")
        assert "read-only" in message and "SPARQL Update" in message
    # a query followed by an update is still just malformed
    message = error(client.get("/sparql", params={"query": "ASK {} ; CLEAR ALL"}), 400, "query")
    assert "not valid SPARQL" in message
    assert len(store) == before


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_other_methods_are_not_allowed(client: TestClient, method: str) -> None:
    response = client.request(method, "/sparql", params={"query": "ASK {}"})
    assert method in error(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "GET, HEAD, POST"


@pytest.mark.parametrize(
    ("content", "headers"),
    [
        (b"ASK {}", {"content-type": "text/plain"}),
        (b"query=ASK%20%7B%7D", {}),
        (b"ASK {}", {"content-type": "application/json"}),
        ("ASK {}".encode("utf-16"), {"content-type": "application/sparql-query; charset=UTF-16"}),
    ],
)
def test_unsupported_bodies(client: TestClient, content: bytes, headers: dict[str, str]) -> None:
    message = error(client.post("/sparql", content=content, headers=headers), 415, "unsupported_media_type")
    if not headers:
        assert message.endswith("(the query itself), and this one has none.")


def test_a_body_that_is_not_utf8(client: TestClient) -> None:
    response = client.post("/sparql", content=b"ASK { \xff }", headers={"content-type": "application/sparql-query"})
    assert "UTF-8" in error(response, 400, "query")
    form = client.post("/sparql", content=b"query=ASK%20%7B%FF%7D", headers={"content-type": FORM})
    error(form, 400, "query")


def test_not_acceptable(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": "ASK {}"}, headers={"accept": "image/png"})
    assert "image/png" in error(response, 406, "not_acceptable")
    csv_graph = client.get("/sparql", params={"query": CONSTRUCT, "format": "csv"})
    assert "format='csv'" in error(csv_graph, 406, "not_acceptable")
    error(client.get("/sparql", params={"query": "ASK {}", "format": "turtle"}), 406, "not_acceptable")


def test_an_invalid_graph_iri(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": "ASK {}", "default-graph-uri": "not an iri"})
    assert "default-graph-uri" in error(response, 400, "query")


@pytest.mark.parametrize(
    "query",
    [
        "SELECT",
        "}}}}",
        "SELECT * WHERE { ?s ?p ?o } LIMIT -1",
        'SELECT * WHERE { BIND(STRDT("x", <not an iri>) AS ?x) }',
        "SELECT (COUNT(?x) AS ?n) ?y WHERE { ?x ?p ?y }",
        "SELECT * WHERE { ?s ?p ?o FILTER(?o = 1/0) }",
        "\x00\x01\x02",
        "SELECT * WHERE { BIND(<<( <a> <b> <c> )>> AS ?t) }",
        "PREFIX : <http://a/> SELECT * WHERE { :a :b* ?c }",
        "DESCRIBE *",
        "SELECT * WHERE { ?s ?p ?o } ORDER BY ?o OFFSET 99999999999999999999",
    ],
)
def test_odd_input_never_gives_a_500(client: TestClient, query: str) -> None:
    response = client.get("/sparql", params={"query": query})
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert set(response.json()) == {"error", "message"}


# ---------------------------------------------------------------------------------------------------
# SERVICE: never a remote call


@pytest.mark.parametrize(
    "clause",
    [
        "SERVICE <{url}> {{ ?s ?p ?o }}",
        "service <{url}> {{ ?s ?p ?o }}",
        "SERVICE SILENT <{url}> {{ ?s ?p ?o }}",
        "?s ?p 1SERVICE <{url}> {{ }}",  # Oxigraph reads a keyword straight after a number
        "?s ?p <{url}> .SERVICE <{url}> {{ }}",
        "BIND(<{url}> AS ?u) SERVICE ?u {{ ?s ?p ?o }}",
        # a local name ending in an escaped # (ex:a\\#) is not the start of a comment
        "?s ?p ex:a\\# . SERVICE <{url}> {{ ?s ?p ?o }}",
        '?s ?p "a string" . # a comment\n SERVICE <{url}> {{ ?s ?p ?o }}',
    ],
)
def test_service_is_refused_before_any_connection(client: TestClient, clause: str) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.05)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/sparql"
        query = PREFIXES + "SELECT * WHERE { " + clause.format(url=url) + " }"
        message = error(client.get("/sparql", params={"query": query}), 400, "query")
        assert "SERVICE" in message
        with pytest.raises(TimeoutError):
            listener.accept()


@pytest.mark.parametrize(
    "query",
    [
        'SELECT * WHERE { ?s ?p "self-service" }',
        "SELECT * WHERE { ?s ?p 99 } # SERVICE <http://example.org/sparql> { }",
        "PREFIX sv: <http://example.org/service#> SELECT * WHERE { ?s sv:p ?o }",
        "SELECT * WHERE { ?s <http://example.org/SERVICE> ?o }",
        'SELECT * WHERE { ?s ?p ?o FILTER(CONTAINS(STR(?o), """SERVICE <x> { }""")) }',
        "PREFIX service: <http://example.org/> SELECT * WHERE { ?s service:p ?o }",
    ],
)
def test_the_word_service_in_a_string_comment_or_iri_is_not_a_clause(client: TestClient, query: str) -> None:
    """Decided on the parsed query: the words are data, not a federated query."""
    answer = client.get("/sparql", params={"query": query})
    assert answer.status_code == 200, answer.text
    assert answer.json()["results"]["bindings"] == []


def test_the_word_service_in_a_variable_or_local_name_is_fine(client: TestClient) -> None:
    query = PREFIXES + "SELECT ?service WHERE { ?service a ex:Service } "
    assert client.get("/sparql", params={"query": query}).status_code == 200
    escaped = client.get("/sparql", params={"query": 'ASK { FILTER("self-\\u0073ervice" != "") }'})
    assert escaped.json() == {"head": {}, "boolean": True}


# ---------------------------------------------------------------------------------------------------
# Limits (SparqlLimits)


def test_limits_defaults_and_validation() -> None:
    limits = SparqlLimits()
    assert (limits.max_query_length, limits.max_body_bytes, limits.timeout_s, limits.max_rows) == (
        100_000,
        1_000_000,
        10.0,
        100_000,
    )
    assert (limits.truncate_results, limits.max_brackets, limits.max_concurrent_queries) == (False, 10_000, 4)
    assert limits.isolation == "process"
    with pytest.raises(ValueError, match="timeout_s"):
        SparqlLimits(timeout_s=0)
    with pytest.raises(ValueError, match="isolation"):
        SparqlLimits(isolation=cast(Isolation, "fork"))  # a value outside the Literal, as from untyped code


def test_a_query_over_the_length_limit(store: pyoxigraph.Store) -> None:
    with TestClient(make_app(store, SparqlLimits(max_query_length=50))) as client:
        long_query = "ASK { }" + " " * 60
        message = error(client.post("/sparql", data={"query": long_query}), 413, "too_large")
        assert "max_query_length" in message
        assert client.post("/sparql", data={"query": "ASK { }"}).status_code == 200


def test_a_body_over_the_byte_limit(store: pyoxigraph.Store) -> None:
    with TestClient(make_app(store, SparqlLimits(max_body_bytes=1000))) as client:
        body = b"ASK {}" + b" " * 2000
        response = client.post("/sparql", content=body, headers={"content-type": "application/sparql-query"})
        assert "max_body_bytes" in error(response, 413, "too_large")


def test_too_many_brackets(store: pyoxigraph.Store) -> None:
    with TestClient(make_app(store, SparqlLimits(max_brackets=100))) as client:
        nested = "SELECT * WHERE " + "{" * 120 + "}" * 120
        message = error(client.get("/sparql", params={"query": nested}), 413, "too_large")
        assert "120 brackets" in message
        assert "SparqlLimits.max_brackets" in message
        hidden = 'ASK { FILTER("' + "(" * 101 + '" != "") }'  # counted even inside a string
        error(client.get("/sparql", params={"query": hidden}), 413, "too_large")


DEEP_NESTING_SCRIPT = """
import sys, fastapi, pyoxigraph
from fastapi.testclient import TestClient
from yili.api.sparql import SparqlLimits, make_sparql_router
store = pyoxigraph.Store()
app = fastapi.FastAPI()
app.include_router(make_sparql_router(lambda: store, limits=SparqlLimits(isolation=sys.argv[1])))
query = "SELECT * WHERE {" + "{" * 4900 + "}" * 4900 + "}"
print(TestClient(app).get("/sparql", params={"query": query}).status_code)
"""


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_deep_nesting_does_not_crash_the_process(isolation: Isolation) -> None:
    # 3,000 nested groups overflow Oxigraph's parser on a default 8 MiB thread stack and end the
    # process with SIGSEGV; the evaluating threads' stacks (in a worker process or in the server)
    # hold 4,900 (9,800 brackets, under the default bound).  Run in a child process so that a
    # regression fails this test instead of killing the test run.
    result = subprocess.run(
        [sys.executable, "-c", DEEP_NESTING_SCRIPT, isolation], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[-1] == "200"


def test_a_long_word_is_scanned_in_linear_time(client: TestClient) -> None:
    started = time.monotonic()
    error(client.post("/sparql", data={"query": "ASK { " + "a" * 90_000 + " }"}), 400, "query")
    refused = client.post("/sparql", data={"query": "ASK { " + "aservice" * 11_000 + " }"})
    assert "SERVICE" in error(refused, 400, "query")
    assert time.monotonic() - started < 2


def test_more_rows_than_the_cap_is_413(store: pyoxigraph.Store) -> None:
    with TestClient(make_app(store, SparqlLimits(max_rows=2))) as client:
        query = "SELECT * WHERE { ?s ?p ?o }"
        assert "max_rows" in error(client.get("/sparql", params={"query": query}), 413, "too_large")
        exactly_two = client.get("/sparql", params={"query": STEP_LABELS})
        assert bindings(exactly_two, "label") == ["主人獻賓", "賓酢主人"]
        graph = client.get("/sparql", params={"query": "CONSTRUCT WHERE { ?s ?p ?o }"})
        error(graph, 413, "too_large")


def test_truncation_when_asked_for(store: pyoxigraph.Store) -> None:
    with TestClient(make_app(store, SparqlLimits(max_rows=3, truncate_results=True))) as client:
        response = client.get("/sparql", params={"query": "SELECT * WHERE { ?s ?p ?o }"})
        assert len(bindings(response, "s")) == 3
        assert response.headers[sparql.TRUNCATED_HEADER] == "3"
        whole = client.get("/sparql", params={"query": STEP_LABELS})
        assert sparql.TRUNCATED_HEADER not in whole.headers


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_time_budget_stops_a_query_between_rows(store: pyoxigraph.Store, isolation: Isolation) -> None:
    # One worker: if the slow query kept it after its 503, the next query would time out too.
    # (A worker process that stops by itself between rows is kept, not killed and restarted.)
    limits = SparqlLimits(timeout_s=0.3, max_concurrent_queries=1, isolation=isolation)
    with TestClient(make_app(store, limits)) as client:
        assert client.get("/sparql", params={"query": "ASK {}"}).status_code == 200  # the worker has started
        started = time.monotonic()
        message = error(client.get("/sparql", params={"query": SLOW_ROWS}), 503, "timeout")
        assert time.monotonic() - started < 1.0
        assert "time budget of 0.3 s (SparqlLimits.timeout_s)" in message
        assert bindings(client.get("/sparql", params={"query": STEP_LABELS}), "label") == [
            "主人獻賓",
            "賓酢主人",
        ]


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_a_slow_query_does_not_stall_the_event_loop(store: pyoxigraph.Store, isolation: Isolation) -> None:
    limits = SparqlLimits(timeout_s=0.4, max_concurrent_queries=2, isolation=isolation)
    app = make_app(store, limits)
    finished: list[str] = []

    async def run() -> tuple[float, httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://testserver") as client,
        ):
            assert (await client.get("/sparql", params={"query": "ASK {}"})).status_code == 200  # the workers have started

            async def ask(name: str, query: str, delay: float) -> httpx.Response:
                await asyncio.sleep(delay)
                response = await client.get("/sparql", params={"query": query})
                finished.append(name)
                return response

            started = time.monotonic()
            slow, fast = await asyncio.gather(ask("slow", SLOW_COUNT, 0), ask("fast", STEP_LABELS, 0.05))
            return time.monotonic() - started, slow, fast

    elapsed, slow, fast = asyncio.run(run())
    assert elapsed < 1.5
    assert finished == ["fast", "slow"]
    assert bindings(fast, "label") == ["主人獻賓", "賓酢主人"]
    assert "SparqlLimits.timeout_s" in error(slow, 503, "timeout")


# ---------------------------------------------------------------------------------------------------
# A real server, a real client


@pytest.fixture
def live_server(store: pyoxigraph.Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    for variable in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(make_app(store), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/sparql"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def test_sparqlwrapper_against_uvicorn(live_server: str) -> None:
    client = SPARQLWrapper(live_server)
    client.setQuery(STEP_LABELS)
    client.setReturnFormat(JSON)
    result = client.queryAndConvert()
    assert isinstance(result, dict)
    assert [row["label"]["value"] for row in result["results"]["bindings"]] == ["主人獻賓", "賓酢主人"]

    client.setQuery(CONSTRUCT)
    client.setReturnFormat(TURTLE)
    turtle = client.queryAndConvert()
    assert isinstance(turtle, bytes)
    assert set(rdflib.Graph().parse(data=turtle, format="turtle")) == EXPECTED_GRAPH

    client.setReturnFormat("xml")  # SPARQLWrapper's default: RDF/XML, which it parses with rdflib
    graph = client.queryAndConvert()
    assert isinstance(graph, rdflib.Graph)
    assert set(graph) == EXPECTED_GRAPH

    # JSON-LD: SPARQLWrapper sends format=json-ld&format=application/ld+json,application/x-json+ld
    client.setReturnFormat(JSONLD)
    jsonld = client.queryAndConvert()
    assert isinstance(jsonld, rdflib.Graph)
    assert set(jsonld) == EXPECTED_GRAPH

    # N3: format=n3, answered in Turtle (a subset of N3)
    client.setReturnFormat(N3)
    n3 = client.queryAndConvert()
    assert isinstance(n3, bytes)
    assert set(rdflib.Graph().parse(data=n3, format="n3")) == EXPECTED_GRAPH


def test_repeated_format_values_take_the_first_one_offered(client: TestClient) -> None:
    """format= repeated and comma lists, as SPARQLWrapper sends them; a name not offered for the
    query form is skipped, and none offered is a 406 that names the value."""
    answer = client.get("/sparql", params=[("query", CONSTRUCT), ("format", "csv"), ("format", "application/x-nothing,ntriples")])
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/n-triples")
    assert set(rdflib.Graph().parse(data=answer.text, format="nt")) == EXPECTED_GRAPH
    refused = client.get("/sparql", params=[("query", CONSTRUCT), ("format", "csv"), ("format", "tsv")])
    assert refused.status_code == 406
    assert "'csv,tsv'" in refused.json()["message"]


# ---------------------------------------------------------------------------------------------------
# Documentation


def test_openapi_documents_both_methods(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths["/sparql"]) == {"get", "post"}
    assert "read-only" in paths["/sparql"]["post"]["description"]
    assert {p["name"] for p in paths["/sparql"]["get"]["parameters"]} >= {"query", "default-graph-uri"}
    assert set(paths["/sparql"]["post"]["requestBody"]["content"]) == {FORM, "application/sparql-query"}


def test_docstring_examples() -> None:
    failures, tried = doctest.testmod(sparql)
    assert tried > 0
    assert failures == 0
