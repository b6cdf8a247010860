"""The same API over a remote SPARQL 1.1 store (yili.graph.remote): ``yili-kg push`` loads the graph
into a real Oxigraph server started here (and Virtuoso when it is installed), and a server over it
(``serve --endpoint``) answers every REST route as the server over the embedded store does."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pyoxigraph
import pytest
from fastapi.testclient import TestClient
from rdflib import Graph
from rdflib.compare import isomorphic
from yili.api.app import create_app
from yili.api.cli import main
from yili.api.default_corpus import embedded_corpus
from yili.api.service import service_from_endpoint, service_from_store
from yili.graph.remote import SparqlHttpStore

YK = "PREFIX yk: <https://w3id.org/yili-kg/ontology#>\n"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(url: str, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(url, timeout=5)
            return
        except httpx.TransportError:
            assert proc.poll() is None, f"the store stopped: {proc.stderr.read() if proc.stderr else b''!r}"
            assert time.monotonic() < deadline, f"{url} did not answer in {seconds} s"
            time.sleep(0.2)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The excerpt and two Kanripo chapters of the 述註 (士相見禮, 覲禮), built with ``yili-kg build``."""
    out = tmp_path_factory.mktemp("built")
    chapters = {f.name: f for f in embedded_corpus()}
    from yili.ingest.document import embedded_bytes

    excerpt = out.parent / "yili_shuzhu_yanli_excerpt.txt"
    excerpt.write_bytes(embedded_bytes())
    inputs = [str(excerpt), str(chapters["KR1d0040_003.txt"]), str(chapters["KR1d0040_010.txt"])]
    assert main(["build", *inputs, "--out", str(out), "--jobs", "1"]) == 0
    return out


def _oxigraph(folder: str) -> tuple[list[str], str, str, list[str]]:
    """The Oxigraph server (``oxigraph serve``, the test extra ``oxigraph``) on a free port with a new
    database: (command, query endpoint, graph store endpoint, push options)."""
    binary = shutil.which("oxigraph", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    if binary is None:
        pytest.fail("the oxigraph command is missing: pip install -e '.[test]' installs it")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    return [binary, "serve", "--location", folder, "--bind", f"127.0.0.1:{port}"], f"{url}/query", f"{url}/store", []


VIRTUOSO_INI = """[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
LockFile = {d}/virtuoso.lck
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx
Striping = 0

[Parameters]
ServerPort = {isql}
DirsAllowed = ., {d}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
ServerThreads = 10

[HTTPServer]
ServerPort = {http}
ServerRoot = {d}
ServerThreads = 10

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 120
"""


def _virtuoso(folder: str) -> tuple[list[str], str, str, list[str]]:
    """Virtuoso (Debian's virtuoso-opensource) with a new database in ``folder`` on free ports; the
    graphs are pushed to its digest-authenticated Graph Store endpoint as the database's dba."""
    binary = shutil.which("virtuoso-t")
    if binary is None:
        if os.environ.get("YILI_REQUIRE_BROWSER"):
            pytest.fail("virtuoso-t is not installed: .ci/run installs virtuoso-opensource with apt-get")
        pytest.skip("Virtuoso is not installed (apt-get install virtuoso-opensource): the Virtuoso half of the remote tests is skipped")
    http = _free_port()
    ini = Path(folder) / "virtuoso.ini"
    ini.write_text(VIRTUOSO_INI.format(d=folder, isql=_free_port(), http=http), encoding="utf-8")
    url = f"http://127.0.0.1:{http}"
    return [binary, "+configfile", str(ini), "+foreground"], f"{url}/sparql", f"{url}/sparql-graph-crud-auth", ["--auth", "dba:dba"]


@pytest.fixture(scope="module", params=["oxigraph", "virtuoso"])
def server(request, built) -> Iterator[tuple[str, str, list[str]]]:
    """A real triplestore started here with a new database, the build pushed into it: (query
    endpoint, graph store endpoint, push options)."""
    folder = tempfile.mkdtemp(prefix=f"yili-{request.param}-")
    command, query, store, options = (_oxigraph if request.param == "oxigraph" else _virtuoso)(folder)
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=folder)
    try:
        _wait(query.rsplit("/", 1)[0] + "/", proc, seconds=120)
        assert main(["push", query, "--graph-store", store, *options, "--store", str(built)]) == 0
        yield query, store, options
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def embedded(built) -> TestClient:
    return TestClient(create_app(service_from_store(built)))


@pytest.fixture(scope="module")
def remote(server) -> TestClient:
    return TestClient(create_app(service_from_endpoint(server[0])))


def test_push_loads_every_named_graph_and_prints_what_the_store_holds(built, server, capsys):
    query, store, options = server
    capsys.readouterr()
    assert main(["push", query, "--graph-store", store, *options, "--store", str(built)]) == 0  # again: PUT replaces
    local = pyoxigraph.Store.read_only(str(built / "store"))
    graphs = sorted(g.value for g in local.named_graphs())
    assert graphs == [
        "https://w3id.org/yili-kg/graph/jinli/shuzhu",
        "https://w3id.org/yili-kg/graph/shixiangjianli/shuzhu",
        "https://w3id.org/yili-kg/graph/vocabulary",
        "https://w3id.org/yili-kg/graph/yanli/shuzhu-excerpt",
    ]
    printed = capsys.readouterr().out.strip()
    assert printed == f"yili-kg: pushed 4 graphs, {len(local)} triples to {store}; {query} holds {len(local)} triples in 4 named graphs"
    remote_store = SparqlHttpStore(query, graph_prefix="https://w3id.org/yili-kg/graph/")
    assert remote_store.graphs == graphs and len(remote_store) == len(local)
    for g in graphs:  # each graph holds exactly what the build wrote in it
        mine = {str(q) for q in local.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(g)) if not isinstance(q.subject, pyoxigraph.BlankNode) and not isinstance(q.object, pyoxigraph.BlankNode)}
        theirs = {str(q) for q in remote_store.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(g)) if not isinstance(q.subject, pyoxigraph.BlankNode) and not isinstance(q.object, pyoxigraph.BlankNode)}
        assert mine == theirs, g


# every GET route of the API, with the parameters that exercise it (the OpenAPI paths are checked against these)
JSON_ROUTES = [
    "/rites",
    "/toasts",
    "/toasts?rite=士相見禮",
    "/toasts?receiver=公",
    "/toasts?giver=主人&type=獻&limit=3&offset=1",
    "/steps?limit=40",
    "/steps?rite=覲禮&limit=30&offset=10",
    "/steps?agent=主人&action=拜&vessel=爵&limit=20",
    "/steps/yanli/shuzhu-excerpt/24/1",
    "/steps/shixiangjianli/shuzhu/3/1",
    "/phases",
    "/phases?rite=yanli",
    "/terms/賓",
    "/terms/爵",
    "/toasts?rite=皇帝禮",  # 404 naming it
    "/terms/皇帝",  # 404 naming it
    "/steps/yanli/shuzhu-excerpt/999/1",  # 404
]
RDF_ROUTES = [
    "/steps/yanli/shuzhu-excerpt/24/1?format=ntriples",
    "/rite/yanli?format=ntriples",
    "/text/jinli/shuzhu?format=ntriples",
    "/block/yanli/shuzhu-excerpt/24?format=ntriples",
    "/commentary/yanli/shuzhu-excerpt/24/1?format=ntriples",
    "/phase/yanli/shuzhu-excerpt/24-1?format=ntriples",
    "/graph/shixiangjianli/shuzhu?format=ntriples",
    "/file/yanli/shuzhu-excerpt?format=ntriples",
    "/build/yanli/shuzhu-excerpt?format=ntriples",
    "/software/yili-kg/0.1.0?format=ntriples",
    "/vocab/role-bin?format=ntriples",
    "/ontology?format=ntriples",
    "/ontology/alignments?format=ntriples",
    "/export/turtle?rite=覲禮",
]
BYTE_ROUTES = [
    "/export/graphml?rite=燕禮",
    "/export/csv",
    "/export/csv?view=steps&rite=士相見禮",
    "/export/d3?rite=覲禮",
    "/export/mermaid?rite=yanli",
    "/export/dot?view=steps&rite=jinli",
    "/export/gexf?rite=燕禮",
    "/export/cytoscape",
    "/context.jsonld",
]


def test_the_routes_compared_cover_every_get_route(embedded):
    paths = set(embedded.app.openapi()["paths"])
    asked = {u.split("?")[0] for u in JSON_ROUTES + RDF_ROUTES + BYTE_ROUTES} | {"/", "/step/yanli/shuzhu-excerpt/24/1"}
    templates = {p for p in paths if any(_matches(p, a) for a in asked)}
    # /sparql is not proxied (see test_sparql_over_a_remote_store_is_not_proxied); the routes added beside the
    # remote store in the same round (stages, scenes, comparison, patterns, search, commentary) are not yet
    # compared over a remote store: listed here so that a route added later without a comparison still fails
    not_yet_compared = {
        "/stages", "/moves", "/furnishings", "/ground", "/steps/{rite}/{edition}/{block}/{ordinal}/scene", "/compare", "/patterns",
        "/next", "/ngrams", "/search", "/glosses", "/citations", "/graph/vocabulary",
        *(f"/{kind}/{{key}}" for kind in ("stage", "placement", "furnishing", "statement", "gloss", "reading", "citation")),
    }  # fmt: skip
    assert (paths - templates) - not_yet_compared == {"/sparql"}


def _matches(template: str, path: str) -> bool:
    import re

    pattern = re.sub(r"\{[^}]+\}", ".+", template)  # a resource's {key} is a path of several segments
    return re.fullmatch(pattern, path) is not None


@pytest.mark.parametrize("url", JSON_ROUTES)
def test_every_json_route_answers_the_same_over_the_remote_store(embedded, remote, url):
    mine, theirs = embedded.get(url), remote.get(url)
    assert (theirs.status_code, theirs.json()) == (mine.status_code, mine.json())


@pytest.mark.parametrize("url", RDF_ROUTES)
def test_every_rdf_route_answers_the_same_graph_over_the_remote_store(embedded, remote, server, url):
    if "/export/" in url:
        _exports_on_virtuoso(server)
    mine, theirs = embedded.get(url), remote.get(url)
    assert theirs.status_code == mine.status_code == 200
    fmt = "turtle" if "export/turtle" in url else "nt"
    g1, g2 = Graph().parse(data=mine.text, format=fmt), Graph().parse(data=theirs.text, format=fmt)
    assert len(g1) > 0 and isomorphic(g1, g2)


def _exports_on_virtuoso(server) -> None:  # type: ignore[no-untyped-def]
    """The exports over Virtuoso run only when asked (``YILI_REMOTE_EXPORTS_ON_VIRTUOSO=1``): each takes
    about a minute there on a loaded 2-core machine (a second or two alone), and in the one run made,
    9 of the 10 answered the same bytes and graph while the first (graphml of the 燕禮) ran past the
    300 s a request may wait; skipped, named, until that is understood."""
    if "/sparql-graph-crud" in server[1] and not os.environ.get("YILI_REMOTE_EXPORTS_ON_VIRTUOSO"):
        pytest.skip("exports over Virtuoso: slow there, run with YILI_REMOTE_EXPORTS_ON_VIRTUOSO=1 (one timed out in the last run)")


@pytest.mark.parametrize("url", BYTE_ROUTES)
def test_every_export_answers_the_same_bytes_over_the_remote_store(embedded, remote, server, url):
    _exports_on_virtuoso(server)
    mine, theirs = embedded.get(url), remote.get(url)
    assert mine.status_code == 200 and (theirs.status_code, theirs.content) == (mine.status_code, mine.content)


def test_index_viewer_and_redirect_over_the_remote_store(embedded, remote, server):
    page = remote.get("/", headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.text == embedded.get("/", headers={"Accept": "text/html"}).text
    see = remote.get("/step/yanli/shuzhu-excerpt/24/1", follow_redirects=False)
    assert (see.status_code, see.headers["location"]) == (303, "/steps/yanli/shuzhu-excerpt/24/1")
    index, mine = remote.get("/").json(), embedded.get("/").json()
    summary, mine_summary = index.pop("summary"), mine.pop("summary")
    assert index == mine
    assert summary["source"] == server[0]
    assert {k: summary[k] for k in ("steps", "toasts", "triples")} == {k: mine_summary[k] for k in ("steps", "toasts", "triples")}
    assert (summary["steps"], summary["toasts"]) == (612 + 141 + 144, 26 + 2 + 3)


QUERIES = {
    "who toasts whom": YK + "SELECT ?seq ?giver ?type ?receiver ?text WHERE { ?step a yk:Toast ; yk:sequence ?seq ; "
    "yk:giverLabel ?giver ; yk:toastTypeLabel ?type ; yk:receiverLabel ?receiver ; yk:text ?text }",
    "steps per edition": YK + "SELECT ?e (COUNT(?s) AS ?n) WHERE { ?s a yk:Step ; yk:inEdition ?e } GROUP BY ?e",
    "graphs and their files": "PREFIX prov: <http://www.w3.org/ns/prov#> PREFIX dcterms: <http://purl.org/dc/terms/> "
    "PREFIX spdx: <http://spdx.org/rdf/terms#> SELECT ?graph ?file ?sha256 WHERE { GRAPH ?graph { ?graph prov:wasGeneratedBy ?b . "
    "?b prov:used ?f . ?f dcterms:title ?file ; spdx:checksum [ spdx:checksumValue ?sha256 ] } }",
}


@pytest.mark.parametrize("name", list(QUERIES))
def test_three_sparql_queries_give_the_same_rows(built, server, name):
    local = pyoxigraph.Store.read_only(str(built / "store"))
    remote_store = SparqlHttpStore(server[0], graph_prefix="https://w3id.org/yili-kg/graph/")

    def rows(result) -> list[tuple[str, ...]]:  # type: ignore[no-untyped-def]
        names = [v.value for v in result.variables]
        return sorted(tuple(str(s[n]) for n in names) for s in result)

    mine = rows(local.query(QUERIES[name], use_default_graph_as_union=True))
    theirs = rows(remote_store.query(QUERIES[name]))
    assert mine and theirs == mine
    if name == "steps per edition":
        assert dict((e, n) for e, n in mine) == {
            "<https://w3id.org/yili-kg/text/jinli/shuzhu>": '"144"^^<http://www.w3.org/2001/XMLSchema#integer>',
            "<https://w3id.org/yili-kg/text/shixiangjianli/shuzhu>": '"141"^^<http://www.w3.org/2001/XMLSchema#integer>',
            "<https://w3id.org/yili-kg/text/yanli/shuzhu-excerpt>": '"612"^^<http://www.w3.org/2001/XMLSchema#integer>',
        }


def test_sparql_over_a_remote_store_is_not_proxied(remote, server):
    answer = remote.get("/sparql", params={"query": "ASK {}"})
    assert answer.status_code == 501
    assert answer.json() == {
        "error": "not_proxied",
        "message": f"this server serves the graph of {server[0]}; SPARQL queries are not proxied yet: send them to {server[0]}",
    }


def test_bad_endpoints_and_options_are_one_line_errors(capsys):
    port = _free_port()  # nothing listens there
    assert main(["serve", "--endpoint", f"http://127.0.0.1:{port}/query", "--port", str(_free_port())]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"yili-kg: error: http://127.0.0.1:{port}/query: the SPARQL endpoint cannot be reached: ") and "\n" not in err
    assert main(["serve", "--endpoint", "ftp://x", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == "yili-kg: error: --endpoint 'ftp://x': not an http:// or https:// URL"
    assert main(["push", "http://127.0.0.1:1/q", "--auth", "nopassword", "--excerpt"]) == 2
    assert capsys.readouterr().err.strip() == "yili-kg: error: --auth: give user:password"
    assert main(["serve", "--endpoint", "http://x/q", "--store", "s", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == "yili-kg: error: give one of --graph FILE, --store DIR, --corpus DIR, --excerpt, --endpoint URL, not --store and --endpoint"


def test_a_store_that_fails_while_served_is_answered_502_naming_it(server):
    service = service_from_endpoint(server[0])
    client = TestClient(create_app(service))
    dead = f"http://127.0.0.1:{_free_port()}/sparql"  # nothing listens there
    service.store.endpoint = dead  # type: ignore[attr-defined]
    answer = client.get("/export/csv", params={"view": "steps"})
    assert answer.status_code == 502 and answer.json()["error"] == "remote_store"
    assert answer.json()["message"].startswith(f"{dead}: the SPARQL endpoint cannot be reached: ")
