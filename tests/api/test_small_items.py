"""The smaller items of issue 28: /graph/vocabulary dereferences, descriptions hold each triple once,
a long GET query gets the API's JSON (through a real uvicorn), and a store moved while served is
said in one line, with no traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import fastapi
import httpx
import pyoxigraph
import pytest
from fastapi.testclient import TestClient
from yili.api.resources import make_resource_router
from yili.api.sparql import SparqlLimits, make_sparql_router

BASE = "https://w3id.org/yili-kg/"
P = pyoxigraph.NamedNode("http://purl.org/dc/terms/title")


def _twice() -> pyoxigraph.Store:
    """One triple about a rite, held by two named graphs (as the software and build triples are held
    by every edition's graph)."""
    store = pyoxigraph.Store()
    for graph in ("graph/a/x", "graph/b/x"):
        store.add(
            pyoxigraph.Quad(
                pyoxigraph.NamedNode(BASE + "rite/yanli"), P, pyoxigraph.Literal("燕禮"), pyoxigraph.NamedNode(BASE + graph)
            )
        )
    return store


def test_a_resource_description_holds_each_triple_once() -> None:
    store = _twice()
    app = fastapi.FastAPI()
    app.include_router(make_resource_router(lambda: store, BASE))
    answer = TestClient(app).get("/rite/yanli", params={"format": "ntriples"})
    assert answer.status_code == 200
    assert answer.text.splitlines() == [f'<{BASE}rite/yanli> <http://purl.org/dc/terms/title> "燕禮" .']


def test_a_sparql_describe_holds_each_triple_once() -> None:
    store = _twice()
    app = fastapi.FastAPI()
    app.include_router(make_sparql_router(lambda: store, limits=SparqlLimits(isolation="thread")))
    answer = TestClient(app).get(
        "/sparql", params={"query": f"DESCRIBE <{BASE}rite/yanli>"}, headers={"Accept": "application/n-triples"}
    )
    assert answer.status_code == 200
    assert answer.text.splitlines() == [f'<{BASE}rite/yanli> <http://purl.org/dc/terms/title> "燕禮" .']


def test_the_vocabulary_graph_is_seen_at_the_ontology(service) -> None:
    from yili.api.app import create_app

    with TestClient(create_app(service, sparql_limits=SparqlLimits(isolation="thread"))) as client:
        seen = client.get("/graph/vocabulary", params={"format": "turtle"}, follow_redirects=False)
        assert (seen.status_code, seen.headers["location"]) == (303, "/ontology?format=turtle")
        ontology = client.get("/graph/vocabulary", params={"format": "ntriples"})
        assert ontology.status_code == 200 and ontology.headers["content-type"] == "application/n-triples"
        assert (
            f'<{BASE}vocab/role-zhuren> <http://www.w3.org/2004/02/skos/core#prefLabel> "主人"@zh-hant .'
            in ontology.text.splitlines()
        )


# --------------------------------------------------------------------------------------------------
# Through a real uvicorn: `yili-kg serve --store DIR`


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("served") / "out"
    build = subprocess.run(
        [sys.executable, "-m", "yili.api.cli", "build", "--out", str(out)], capture_output=True, text=True, timeout=300
    )
    assert build.returncode == 0, build.stderr
    return out


@pytest.fixture
def served(built):  # type: ignore[no-untyped-def]
    """A server of the built store (no SPARQL query sent yet: its workers start at the first)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "yili.api.cli", "serve", "--store", str(built), "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
    deadline = time.monotonic() + 120
    while True:
        try:
            client.get("/rites")
            break
        except httpx.TransportError:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            assert time.monotonic() < deadline
            time.sleep(0.2)
    yield client, built, server
    client.close()
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def _get(client: httpx.Client, query: str) -> tuple[int, str, dict]:
    """GET /sparql?query=… through http.client (httpx refuses a URL component over 64 KiB)."""
    import http.client
    import json
    from urllib.parse import quote

    connection = http.client.HTTPConnection(client.base_url.host, client.base_url.port, timeout=60)
    try:
        connection.request("GET", "/sparql?query=" + quote(query, safe=""))
        response = connection.getresponse()
        return response.status, response.getheader("content-type") or "", json.loads(response.read())
    finally:
        connection.close()


def test_a_long_get_query_is_read_and_one_too_long_answered_in_json(served) -> None:
    client, _, _ = served
    padded = "ASK { ?s ?p ?o } #" + "x" * 70_000  # 70,000 characters: over h11's 16 KiB default, under the endpoint's bound
    assert _get(client, padded) == (200, "application/sparql-results+json", {"head": {}, "boolean": True})
    status, media, body = _get(client, "ASK {} #" + "x" * 150_000)  # over SparqlLimits.max_query_length
    assert (status, media, body["error"]) == (413, "application/json", "too_large")
    assert "100,000" in body["message"]
    # 2.7 MB percent-encoded: over the bound of a request head
    assert _get(client, "ASK {} #" + "主" * 300_000) == (
        413,
        "application/json",
        {
            "error": "too_large",
            "message": "The request's head (its URL and headers) is over 2,097,152 bytes; send a long SPARQL query "
            "with POST (application/sparql-query, or a form) instead of GET.",
        },
    )
    assert client.get("/sparql", params={"query": "ASK {}"}).status_code == 200  # the server goes on


def test_a_store_moved_while_served_is_said_in_one_line(served) -> None:
    client, out, server = served
    moved = out.with_name("moved")
    os.rename(out, moved)
    try:
        answer = client.get("/sparql", params={"query": "SELECT * { ?s ?p ?o } LIMIT 1"})
        assert answer.status_code == 503 and answer.json()["error"] == "store_unavailable"
    finally:
        os.rename(moved, out)
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)
    assert server.stderr is not None
    said = server.stderr.read()
    assert "Traceback" not in said
    assert said.splitlines() == [
        f"SPARQL worker processes cannot start: The store {out / 'store'} that this endpoint serves cannot be opened: "
        "it was moved or deleted while served. Put it back, or restart the server on another (yili-kg serve --store DIR)."
    ]
