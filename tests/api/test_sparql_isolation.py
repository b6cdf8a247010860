"""Queries evaluated in worker processes (``SparqlLimits.isolation``): killed past their budget.

Oxigraph cannot be interrupted inside one evaluation step, so a query stuck in one keeps its worker
busy; in a process the worker can be killed and replaced.  These tests watch the worker processes
through ``/proc`` (Linux): the children of the test process, by pid and state.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import fastapi
import httpx
import pyoxigraph
import pytest
from fastapi.testclient import TestClient
from yili.api.sparql import SparqlLimits, make_sparql_router

Isolation = Literal["process", "thread"]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="watches processes through Linux's /proc")

EX = "https://example.org/yili/"
DATA = f"""
@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<{EX}graph/yanli> {{
    ex:step1 a ex:Step ; rdfs:label "主人獻賓"@zh ; ex:actor ex:host ; ex:order 1 .
    ex:step2 a ex:Step ; rdfs:label "賓酢主人"@zh ; ex:actor ex:guest ; ex:order 2 .
}}
<{EX}graph/zhu> {{ ex:host rdfs:label "主人"@zh ; rdfs:comment "宰夫也" . }}
"""
PREFIXES = f"PREFIX ex: <{EX}> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
STEP_LABELS = PREFIXES + "SELECT ?label WHERE { ?step a ex:Step ; rdfs:label ?label ; ex:order ?n } ORDER BY ?n"
# A property path of 1,000 steps: Oxigraph plans it for about 35 s before the first row, on this
# store as on an empty one, and cannot be interrupted meanwhile.  Nine kilobytes, one bracket.
HOSTILE = PREFIXES + "ASK { ?s " + "/".join(["ex:actor"] * 1000) + " ?o }"
# Rows that come slowly (each checks 40,000 combinations, a few ms): stoppable between rows.
SLOW_ROWS = (
    "SELECT ?a { VALUES ?a { "
    + " ".join(map(str, range(1, 301)))
    + " } FILTER NOT EXISTS { VALUES ?b { "
    + " ".join(map(str, range(1, 201)))
    + " } VALUES ?c { "
    + " ".join(map(str, range(1, 201)))
    + " } FILTER(?b * ?c = ?a * 1000000) } }"
)


@pytest.fixture(scope="module")
def store() -> pyoxigraph.Store:
    store = pyoxigraph.Store()
    store.load(DATA.encode("utf-8"), format=pyoxigraph.RdfFormat.TRIG)
    return store


def make_app(store: pyoxigraph.Store, limits: SparqlLimits) -> fastapi.FastAPI:
    app = fastapi.FastAPI()
    app.include_router(make_sparql_router(lambda: store, limits=limits))
    return app


def labels(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [row["label"]["value"] for row in response.json()["results"]["bindings"]]


def error(response: httpx.Response, status: int, kind: str) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"] == kind
    return str(response.json()["message"])


def children(ppid: int | None = None) -> dict[int, str]:
    """The child processes of ``ppid`` (this process by default), pid -> state letter (``Z``: unreaped).

    multiprocessing's resource tracker, which lives as long as this process, is left out.
    """
    ppid = os.getpid() if ppid is None else ppid
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:  # it ended while we looked
            continue
        if int(fields[1]) == ppid and b"resource_tracker" not in command:
            found[int(entry.name)] = fields[0]
    return found


def workers_since(before: set[int]) -> dict[int, str]:
    return {pid: state for pid, state in children().items() if pid not in before}


def wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie has ended, even if no one reaped it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_queries_past_their_budget_are_killed_and_the_endpoint_stays_available(store: pyoxigraph.Store) -> None:
    before = set(children())
    # the query after the hostile ones may wait for a replacement worker: on a loaded machine its start
    # can take over the default 2 s, so it may wait up to 4 s (still under the 5 s asserted below)
    limits = SparqlLimits(isolation="process", timeout_s=1.0, max_concurrent_queries=2, max_queue_wait_s=4.0)
    with TestClient(make_app(store, limits)) as client:
        assert workers_since(before) == {}  # nothing starts before the first query
        assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        first = set(workers_since(before))
        assert len(first) == 2

        for _ in range(3):  # more hostile queries than workers
            started = time.monotonic()
            message = error(client.get("/sparql", params={"query": HOSTILE}), 503, "timeout")
            assert time.monotonic() - started < 2.0
            assert "time budget of 1 s (SparqlLimits.timeout_s)" in message

        started = time.monotonic()
        assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        assert time.monotonic() - started < 5.0

        # The first hostile query killed one first worker, the second the other (the first was still
        # being stopped); the third killed a replacement.  All are reaped, and two new ones serve.
        def replaced() -> bool:
            now = workers_since(before)
            return len(now) == 2 and not set(now) & first and set(now.values()) <= {"R", "S"}

        assert wait_for(replaced), workers_since(before)
        assert not any(running(pid) for pid in first)
        last = set(workers_since(before))
    assert workers_since(before) == {}  # the app's shutdown stopped and reaped every worker
    assert not any(running(pid) for pid in last)


def test_a_query_that_stops_between_rows_keeps_its_worker(store: pyoxigraph.Store) -> None:
    before = set(children())
    limits = SparqlLimits(isolation="process", timeout_s=0.3, max_concurrent_queries=1)
    with TestClient(make_app(store, limits)) as client:
        assert client.get("/sparql", params={"query": "ASK {}"}).json() == {"head": {}, "boolean": True}
        worker = set(workers_since(before))
        started = time.monotonic()
        error(client.get("/sparql", params={"query": SLOW_ROWS}), 503, "timeout")
        assert time.monotonic() - started < 1.0
        assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        assert set(workers_since(before)) == worker  # it stopped by itself: not killed, not replaced
    assert workers_since(before) == {}


def test_a_worker_that_crashes_gets_a_clean_error_and_is_replaced(store: pyoxigraph.Store) -> None:
    # With the bracket bound lifted, 100,000 nested groups overflow even the evaluating thread's
    # 256 MiB stack: Oxigraph's parser dies with SIGSEGV, and with it the worker, not the server.
    big = 1_000_000
    limits = SparqlLimits(max_concurrent_queries=1, max_brackets=big, max_query_length=big, max_body_bytes=big)
    before = set(children())
    with TestClient(make_app(store, limits)) as client:
        assert client.get("/sparql", params={"query": "ASK {}"}).status_code == 200
        crashed = set(workers_since(before))
        nested = "SELECT * WHERE {" + "{" * 100_000 + "}" * 100_000 + "}"
        message = error(client.post("/sparql", data={"query": nested}), 500, "evaluation_crashed")
        assert "worker process evaluating this query died (signal SIG" in message
        assert "replaced" in message
        assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        assert len(workers_since(before)) == 1
        assert not set(workers_since(before)) & crashed
        assert not any(running(pid) for pid in crashed)


def answer(store: pyoxigraph.Store, isolation: Isolation, query: str, accept: str = "") -> httpx.Response:
    limits = SparqlLimits(isolation=isolation, max_concurrent_queries=1)
    with TestClient(make_app(store, limits)) as client:
        return client.get("/sparql", params={"query": query}, headers={"accept": accept})


@pytest.mark.parametrize(
    ("query", "accept"),
    [
        (STEP_LABELS, "application/sparql-results+json"),
        (STEP_LABELS, "text/csv"),
        (PREFIXES + "ASK { ex:step1 ex:actor ex:host }", "application/sparql-results+xml"),
        ("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g", "text/tab-separated-values"),
        ("SELECT ?x WHERE { ?x", ""),  # a parse error: the same 400 and message
        ("ASK {}", "image/png"),  # no acceptable format: the same 406 and message
    ],
)
def test_both_isolations_give_the_same_answers(store: pyoxigraph.Store, query: str, accept: str) -> None:
    by_process, by_thread = (answer(store, isolation, query, accept) for isolation in ("process", "thread"))
    assert by_process.status_code == by_thread.status_code
    assert by_process.headers["content-type"] == by_thread.headers["content-type"]
    assert by_process.content == by_thread.content


def test_both_isolations_give_the_same_bindings(store: pyoxigraph.Store) -> None:
    for isolation in ("process", "thread"):
        response = answer(store, isolation, STEP_LABELS)
        assert response.headers["content-type"] == "application/sparql-results+json"
        assert response.json()["results"]["bindings"] == [
            {"label": {"type": "literal", "value": "主人獻賓", "xml:lang": "zh"}},
            {"label": {"type": "literal", "value": "賓酢主人", "xml:lang": "zh"}},
        ]


RDFS = "http://www.w3.org/2000/01/rdf-schema#"


@pytest.mark.parametrize(
    ("query", "accept", "expected"),
    [
        (
            PREFIXES + "CONSTRUCT { ?step ex:doneBy ?who } WHERE { ?step ex:actor ?who }",
            "application/n-triples",
            {f"<{EX}step1> <{EX}doneBy> <{EX}host>", f"<{EX}step2> <{EX}doneBy> <{EX}guest>"},
        ),
        (
            f"DESCRIBE <{EX}host>",
            "text/turtle",
            {f'<{EX}host> <{RDFS}label> "主人"@zh', f'<{EX}host> <{RDFS}comment> "宰夫也"'},
        ),
    ],
)
def test_both_isolations_give_the_same_graphs(store: pyoxigraph.Store, query: str, accept: str, expected: set[str]) -> None:
    # The same triples; their order is unspecified, and the worker's copy of the store (loaded from
    # an N-Quads dump) enumerates them in another order than the original.
    for isolation in ("process", "thread"):
        response = answer(store, isolation, query, accept)
        assert response.status_code == 200, response.text
        media_type = response.headers["content-type"].split(";")[0]
        assert media_type == accept
        triples = pyoxigraph.parse(response.content, format=pyoxigraph.RdfFormat.from_media_type(media_type))
        assert {str(triple) for triple in triples} == expected


SERVER_SCRIPT = """
import sys, fastapi, pyoxigraph
from fastapi.testclient import TestClient
from yili.api.sparql import make_sparql_router
store = pyoxigraph.Store()
app = fastapi.FastAPI()
app.include_router(make_sparql_router(lambda: store))
TestClient(app).get("/sparql", params={"query": "ASK {}"})  # no lifespan: the pool is never closed
print("ready", flush=True)
sys.stdin.readline()  # then exit, or wait to be killed
"""


@pytest.mark.parametrize("end", ["exits", "killed"])
def test_no_worker_outlives_its_server(end: str) -> None:
    # A server that exits without shutting the app down (atexit stops the workers), or that is
    # killed outright (each worker notices within a second that its parent is gone, and exits).
    server = subprocess.Popen([sys.executable, "-c", SERVER_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdin is not None and server.stdout is not None
        assert server.stdout.readline().strip() == "ready"
        workers = set(children(server.pid))
        assert len(workers) == 4  # SparqlLimits().max_concurrent_queries
        if end == "killed":
            server.send_signal(signal.SIGKILL)
        else:
            server.stdin.write("\n")
            server.stdin.flush()
        assert server.wait(timeout=10) == (-signal.SIGKILL if end == "killed" else 0)
        assert wait_for(lambda: not any(running(pid) for pid in workers), seconds=5.0)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)


def test_a_query_that_needs_too_much_memory_loses_only_its_worker(store: pyoxigraph.Store) -> None:
    # a sorted cross product of 3,000 x 3,000 values needs far more than a 512 MiB cap
    values = " ".join(map(str, range(3000)))
    hungry = f"SELECT ?a ?b WHERE {{ VALUES ?a {{ {values} }} VALUES ?b {{ {values} }} }} ORDER BY DESC(?a * ?b + ?b) LIMIT 1"
    limits = SparqlLimits(max_concurrent_queries=1, max_worker_memory_bytes=512 * 1024**2, timeout_s=30)
    before = set(children())
    with TestClient(make_app(store, limits)) as client:
        assert client.get("/sparql", params={"query": "ASK {}"}).status_code == 200
        first = set(workers_since(before))
        started = time.monotonic()
        message = error(client.get("/sparql", params={"query": hungry}), 500, "evaluation_crashed")
        assert time.monotonic() - started < 20
        assert "memory cap (SparqlLimits.max_worker_memory_bytes)" in message
        assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        assert not any(running(pid) for pid in first)
