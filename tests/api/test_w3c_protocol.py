"""The W3C SPARQL 1.1 Protocol test suite, replayed against the read-only endpoint.

The suite (``shared/conformance/w3c-sparql11-protocol/``, see its SOURCES.md) describes each test as
HTTP requests with their expected status class and, for some, the expected result format.  Each
request is replayed with FastAPI's TestClient (``/sparql/`` becomes the router's ``/sparql``), over
a store holding exactly the test's ``ut:graphData`` under the IRIs the test names.  Tests naming the
same graphs share one application (and its one worker process): the endpoint is read-only, so no
test can change what the next one sees.

The endpoint is read-only, so the seven tests whose first request is an update expecting 2xx are
expected to be *refused* (403 ``read_only``); their later requests check the update's effect and are
not replayed.  Every other test must pass as written.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import fastapi
import pyoxigraph
import pytest
import rdflib
from fastapi.testclient import TestClient
from rdflib.collection import Collection
from rdflib.namespace import RDF, RDFS
from yili.api.sparql import SparqlLimits, make_sparql_router

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO.parent / "shared" / "conformance" / "w3c-sparql11-protocol"

MF = rdflib.Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = rdflib.Namespace("http://www.w3.org/2011/http#")
HTS = rdflib.Namespace("http://www.w3.org/2011/http-statusCodes#")
CNT = rdflib.Namespace("http://www.w3.org/2011/content#")
UT = rdflib.Namespace("http://www.w3.org/2009/sparql/tests/test-update#")

RESULTS_MEDIA_TYPES = {
    "application/sparql-results+json",
    "application/sparql-results+xml",
    "text/csv",
    "text/tab-separated-values",
}
RDF_MEDIA_TYPES = {
    "text/turtle": "turtle",
    "application/n-triples": "nt",
    "application/rdf+xml": "xml",
    "application/ld+json": "json-ld",
}
SRX = "{http://www.w3.org/2005/sparql-results#}"

if os.environ.get("YILI_REQUIRE_SHARED") and not (SUITE / "manifest.ttl").is_file():
    # under .ci/run a missing suite is a failure, not 34 silent skips
    raise RuntimeError(f"the W3C protocol suite is missing at {SUITE}: CI needs ../shared beside the repository")

pytestmark = pytest.mark.skipif(
    not (SUITE / "manifest.ttl").is_file(),
    reason=f"the W3C protocol suite is not at {SUITE} (the repository's sibling folder shared/)",
)


@dataclass(frozen=True)
class ProtocolRequest:
    """One ``ht:Request`` of a test and its expected ``ht:Response``."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None
    expected_classes: frozenset[str]  # "2xx", "3xx", "4xx", ...
    expected_format: str | None  # "boolean", "tabular" or "RDF"
    expected_boolean: bool | None

    @property
    def is_update(self) -> bool:
        """Whether this request is a SPARQL Update operation (Protocol 2.2)."""
        content_type = self.headers.get("content-type", "").split(";")[0].strip()
        if content_type == "application/sparql-update":
            return True
        fields = parse_qs(urlsplit(self.path).query)
        if content_type == "application/x-www-form-urlencoded" and self.body is not None:
            fields |= parse_qs(self.body.decode("utf-8", "replace"))
        return "update" in fields


@dataclass(frozen=True)
class ProtocolCase:
    """One ``mf:ProtocolTest``: its graphs (IRI -> data file) and its requests, in order."""

    name: str
    title: str
    graphs: dict[str, Path]
    requests: tuple[ProtocolRequest, ...]

    @property
    def expects_update_to_succeed(self) -> bool:
        first = self.requests[0]
        return first.is_update and "2xx" in first.expected_classes


def read_manifest(path: Path) -> list[ProtocolCase]:
    """The manifest's tests, in the order of its ``mf:entries``."""
    graph = rdflib.Graph().parse(path, format="turtle")
    manifest = graph.value(predicate=RDF.type, object=MF.Manifest)
    return [read_case(graph, test) for test in items(graph, graph.value(manifest, MF.entries))]


def items(graph: rdflib.Graph, head: rdflib.term.Node | None) -> list[rdflib.term.Node]:
    """The members of an RDF list (none if the list is absent)."""
    return [] if head is None else list(Collection(graph, head))


def read_case(graph: rdflib.Graph, test: rdflib.term.Node) -> ProtocolCase:
    graphs = {}
    for data in graph.objects(test, UT.graphData):
        file_name = Path(urlsplit(str(graph.value(data, UT.graph))).path).name
        graphs[str(graph.value(data, RDFS.label))] = path_in_suite(file_name)
    connection = graph.value(test, MF.action)
    requests = tuple(read_request(graph, node) for node in items(graph, graph.value(connection, HT.requests)))
    return ProtocolCase(
        name=str(test).rsplit("#", 1)[-1],
        title=str(graph.value(test, MF.name)),
        graphs=graphs,
        requests=requests,
    )


def read_request(graph: rdflib.Graph, node: rdflib.term.Node) -> ProtocolRequest:
    headers = {}
    for header in items(graph, graph.value(node, HT.headers)):
        headers[str(graph.value(header, HT.fieldName)).lower()] = str(graph.value(header, HT.fieldValue))
    body = None
    body_node = graph.value(node, HT.body)
    if body_node is not None:
        encoding = str(graph.value(body_node, CNT.characterEncoding) or "UTF-8")
        body = str(graph.value(body_node, CNT.chars)).encode(encoding)
    response = graph.value(node, HT.resp)
    classes = frozenset(str(status).rsplit("#StatusCode", 1)[-1] for status in graph.objects(response, MF.expectedStatus))
    expected_format = graph.value(response, MF.expectedFormat)
    expected_boolean = graph.value(response, MF.expectedBoolean)
    return ProtocolRequest(
        method=str(graph.value(node, HT.methodName)),
        path=str(graph.value(node, HT.absolutePath)),
        headers=headers,
        body=body,
        expected_classes=classes,
        expected_format=str(expected_format) if expected_format is not None else None,
        expected_boolean=None if expected_boolean is None else str(expected_boolean) == "true",
    )


def path_in_suite(file_name: str) -> Path:
    return SUITE / file_name


CASES = read_manifest(SUITE / "manifest.ttl") if (SUITE / "manifest.ttl").is_file() else []


# ---------------------------------------------------------------------------------------------------
# Replaying a test


@dataclass(frozen=True)
class Verdict:
    outcome: str  # "pass", "refused (read-only)" or "fail"
    detail: str


def endpoint_path(absolute_path: str) -> str:
    """The manifest's ``/sparql/...`` path on this router's ``/sparql``."""
    assert absolute_path.startswith("/sparql/"), absolute_path
    return "/sparql" + absolute_path[len("/sparql/") :]


def endpoint_over(graphs: dict[str, Path]) -> fastapi.FastAPI:
    """An application whose endpoint serves a store holding ``graphs`` (IRI -> N-Triples file)."""
    store = pyoxigraph.Store()
    for iri, data in graphs.items():
        store.load(path=str(data), format=pyoxigraph.RdfFormat.N_TRIPLES, to_graph=pyoxigraph.NamedNode(iri))
    app = fastapi.FastAPI()
    # The requests of a test are replayed one after another: one worker process is enough.
    app.include_router(make_sparql_router(lambda: store, limits=SparqlLimits(max_concurrent_queries=1)))
    return app


def replay(case: ProtocolCase, client: TestClient) -> Verdict:
    for number, request in enumerate(case.requests, start=1):
        response = client.request(request.method, endpoint_path(request.path), headers=request.headers, content=request.body)
        where = f"request {number} ({request.method} {request.path[:60]})"
        if request.is_update and "2xx" in request.expected_classes:
            # A read-only endpoint: the update must be refused, and its effects cannot be checked.
            if response.status_code == 403 and response.json()["error"] == "read_only":
                return Verdict("refused (read-only)", f"{where}: 403 read_only")
            return Verdict("fail", f"{where}: update answered {response.status_code}, not 403")
        status_class = f"{response.status_code // 100}xx"
        if status_class not in request.expected_classes:
            expected = ", ".join(sorted(request.expected_classes))
            return Verdict("fail", f"{where}: {response.status_code} {response.text[:200]}, not {expected}")
        problem = check_format(request, response.headers.get("content-type", ""), response.content)
        if problem:
            return Verdict("fail", f"{where}: {problem}")
    return Verdict("pass", f"{len(case.requests)} request(s) as expected")


def check_format(request: ProtocolRequest, content_type: str, body: bytes) -> str | None:
    """Why the answer is not in the expected result format (``mf:expectedFormat``), or None."""
    media_type = content_type.split(";")[0].strip()
    if request.expected_format is None:
        return None
    if request.expected_format == "boolean":
        if media_type == "application/sparql-results+json":
            value = json.loads(body).get("boolean")
        elif media_type == "application/sparql-results+xml":
            node = ET.fromstring(body).find(f"{SRX}boolean")
            value = None if node is None else node.text == "true"
        else:
            return f"{media_type} is not a boolean results format"
        if not isinstance(value, bool):
            return "no boolean in the answer"
        if request.expected_boolean is not None and value != request.expected_boolean:
            return f"boolean {value}, expected {request.expected_boolean}"
        return None
    if request.expected_format == "tabular":
        if media_type not in RESULTS_MEDIA_TYPES:
            return f"{media_type} is not a tabular results format"
        if media_type == "application/sparql-results+json" and "vars" not in json.loads(body)["head"]:
            return "no variables in the JSON results"
        return None
    if request.expected_format == "RDF":
        if media_type not in RDF_MEDIA_TYPES:
            return f"{media_type} is not an RDF format"
        rdflib.Graph().parse(data=body, format=RDF_MEDIA_TYPES[media_type])
        return None
    return f"unknown expected format {request.expected_format!r}"


@pytest.fixture(scope="module")
def verdicts() -> dict[str, Verdict]:
    by_dataset: dict[frozenset[tuple[str, Path]], list[ProtocolCase]] = {}
    for case in CASES:
        by_dataset.setdefault(frozenset(case.graphs.items()), []).append(case)
    verdicts: dict[str, Verdict] = {}
    for dataset, cases in by_dataset.items():
        with TestClient(endpoint_over(dict(dataset)), base_url="http://www.example") as client:
            verdicts |= {case.name: replay(case, client) for case in cases}
    return verdicts


# ---------------------------------------------------------------------------------------------------
# The tests


def test_the_manifest_reads_completely() -> None:
    assert len(CASES) == 34
    assert all(case.requests for case in CASES)
    assert sum(1 for case in CASES if case.expects_update_to_succeed) == 7
    assert {iri for case in CASES for iri in case.graphs} == {
        f"http://kasei.us/2009/09/sparql/data/data{n}.rdf" for n in (1, 2, 3)
    }


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_protocol_case(case: ProtocolCase, verdicts: dict[str, Verdict]) -> None:
    verdict = verdicts[case.name]
    expected = "refused (read-only)" if case.expects_update_to_succeed else "pass"
    assert verdict.outcome == expected, f"{case.name} ({case.title}): {verdict.detail}"


def test_tally(verdicts: dict[str, Verdict]) -> None:
    tally = Counter(verdict.outcome for verdict in verdicts.values())
    assert tally == {"pass": 27, "refused (read-only)": 7}, {
        name: verdict.detail for name, verdict in verdicts.items() if verdict.outcome == "fail"
    }
