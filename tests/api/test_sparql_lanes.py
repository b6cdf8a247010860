"""Slow queries cannot starve the rest: workers share one store on disk, queries that find no worker
are answered "busy" (503, Retry-After) without running, and a short lane stays free for point
lookups however many long queries arrive.  Processes are watched through Linux's ``/proc``."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import fastapi
import httpx
import pyoxigraph
import pytest
from fastapi.testclient import TestClient
from yili.api.sparql import SparqlLimits, make_sparql_router
from yili.graph.store import open_store, write_store

from tests.api.test_sparql_isolation import DATA, HOSTILE, SLOW_ROWS, STEP_LABELS, children, error, labels, wait_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="watches processes through Linux's /proc")


@pytest.fixture(scope="module")
def on_disk(tmp_path_factory) -> tuple[pyoxigraph.Store, str]:
    memory = pyoxigraph.Store()
    memory.load(DATA.encode("utf-8"), format=pyoxigraph.RdfFormat.TRIG)
    folder = tmp_path_factory.mktemp("s") / "store"
    write_store(memory, folder)
    return open_store(folder), str(folder.resolve())


def make_app(store: pyoxigraph.Store, path: str | None, limits: SparqlLimits) -> fastapi.FastAPI:
    app = fastapi.FastAPI()
    app.include_router(make_sparql_router(lambda: store, limits=limits, store_path=(lambda: path)))
    return app


def open_files(pid: int) -> set[str]:
    found = set()
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:  # it ended while we looked
        return found
    for fd in fds:
        try:
            found.add(os.readlink(fd))
        except OSError:
            continue
    return found


def test_every_worker_opens_the_one_store_on_disk(on_disk) -> None:
    store, path = on_disk
    limits = SparqlLimits(max_concurrent_queries=2)

    def opening_the_store() -> list[int]:
        return [pid for pid in children() if any(f.startswith(path + "/") and f.endswith(".sst") for f in open_files(pid))]

    with TestClient(make_app(store, path, limits)) as client:
        assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        # two workers, each with the store's files open (no copy of the data)
        assert wait_for(lambda: len(opening_the_store()) == 2), opening_the_store()
    assert wait_for(lambda: opening_the_store() == [])  # all stopped with the app


def _in_background(client: TestClient, query: str) -> tuple[threading.Thread, list[httpx.Response]]:
    answers: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: answers.append(client.get("/sparql", params={"query": query})))
    thread.start()
    return thread, answers


def test_a_query_that_finds_no_worker_is_answered_busy_without_running(on_disk) -> None:
    store, path = on_disk
    limits = SparqlLimits(max_concurrent_queries=1, max_queue_wait_s=0.3, timeout_s=3.0)
    with TestClient(make_app(store, path, limits)) as client:
        assert client.get("/sparql", params={"query": "ASK {}"}).status_code == 200
        slow, answers = _in_background(client, HOSTILE)
        time.sleep(0.2)  # let the hostile query take the worker
        r = client.get("/sparql", params={"query": STEP_LABELS})
        message = error(r, 503, "busy")
        assert r.headers["retry-after"] == "1"
        assert "no worker was free within 0.3 s (SparqlLimits.max_queue_wait_s); the query was not evaluated" in message
        slow.join(timeout=10)
        assert "time budget of 3 s" in error(answers[0], 503, "timeout")


def test_long_queries_cannot_fill_the_short_lane(on_disk) -> None:
    store, path = on_disk
    limits = SparqlLimits(max_concurrent_queries=3, short_lane=1, long_query_s=0.2, timeout_s=3.0)
    with TestClient(make_app(store, path, limits)) as client:
        assert client.get("/sparql", params={"query": "ASK {}"}).status_code == 200
        first = [_in_background(client, HOSTILE) for _ in range(2)]  # they take both long lanes
        time.sleep(0.6)  # both have run past long_query_s
        # a third long query, never seen: it is stopped once it runs long, and answered busy
        other = HOSTILE.replace("ASK {", "ASK { ?x ?y ?z . ", 1)
        r = client.get("/sparql", params={"query": other})
        message = error(r, 503, "busy")
        assert r.headers["retry-after"] == "1"
        assert "this query ran past 0.2 s while 2 long queries were already running" in message
        assert message.endswith("it was stopped. Send it again after the Retry-After delay, or narrow it.")
        # sent again, it is known to be long: refused at once, without running
        message = error(client.get("/sparql", params={"query": other}), 503, "busy")
        assert "this query ran past 0.2 s before while 2 long queries were already running" in message
        assert "it was not evaluated" in message
        # meanwhile point lookups are answered by the short lane
        for _ in range(5):
            assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        for thread, answers in first:
            thread.join(timeout=10)
            error(answers[0], 503, "timeout")


def test_limits_refuse_a_negative_short_lane() -> None:
    with pytest.raises(ValueError, match="short_lane must be at least 0, not -1"):
        SparqlLimits(short_lane=-1)
    with pytest.raises(ValueError, match="max_queue_wait_s must be positive"):
        SparqlLimits(max_queue_wait_s=0)


def _nice_of_threads(pid: int) -> list[int]:
    """The nice value of each thread of ``pid`` (field 19 of /proc/<pid>/task/<tid>/stat), by thread id."""
    values = []
    try:
        tids = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return values
    for tid in tids:
        try:
            values.append(int(Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()[16]))
        except (OSError, IndexError, ValueError):
            continue
    return values


def test_a_long_query_runs_its_evaluating_thread_at_the_lowest_priority(on_disk) -> None:
    """Linux keeps a nice value per thread: the thread evaluating a long query is lowered to 19 (not
    only the worker's main thread, which waits).  Each query has a thread of its own, which ends with
    it, so the worker serves the next query at its usual priority, and is not replaced."""
    store, path = on_disk
    before = set(children())
    limits = SparqlLimits(max_concurrent_queries=2, short_lane=1, long_query_s=0.2, timeout_s=20.0)
    with TestClient(make_app(store, path, limits)) as client:
        assert client.get("/sparql", params={"query": "ASK {}"}).status_code == 200
        workers = {pid for pid in children() if pid not in before}
        usual = os.nice(0)  # this process's own (the tests may run under nice)
        assert len(workers) == 2 and all(set(_nice_of_threads(pid)) == {usual} for pid in workers)
        slow, answers = _in_background(client, SLOW_ROWS)

        def lowered() -> list[int]:
            return [pid for pid in workers if 19 in _nice_of_threads(pid)]

        assert wait_for(lambda: len(lowered()) == 1, seconds=2.5), {pid: _nice_of_threads(pid) for pid in workers}
        threads = _nice_of_threads(lowered()[0])
        assert threads.count(19) == 1 and len(threads) >= 3  # the evaluator; the main thread and the server watch wait
        # meanwhile the short lane's worker answers at once
        assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
        slow.join(timeout=30)
        assert answers[0].status_code == 200 and len(answers[0].json()["results"]["bindings"]) == 300
        # the evaluator has ended with its query: both workers are still there, every thread at the usual priority
        assert {pid for pid in children() if pid not in before} == workers
        # (the thread ends just after it hands over the answer: on a loaded machine, a moment later)
        assert wait_for(lambda: all(set(_nice_of_threads(pid)) == {usual} for pid in workers), seconds=5), {
            pid: _nice_of_threads(pid) for pid in workers
        }


def test_an_answer_over_64_kib_arrives_whole(on_disk) -> None:
    """A large answer comes back whole through pebble's channel (read on pebble's thread, not the event loop)."""
    store, path = on_disk
    query = (
        "SELECT ?n WHERE { VALUES ?x { "
        + " ".join(str(i) for i in range(3000))
        + ' } BIND(CONCAT(STR(?x), "-padding-padding-padding") AS ?n) }'
    )
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=1))) as client:
        for _ in range(2):  # the worker serves the next query after it
            r = client.get("/sparql", params={"query": query}, headers={"Accept": "text/csv"})
            assert r.status_code == 200
            assert len(r.content) > 64 * 1024
            lines = r.text.splitlines()
            assert lines[0] == "n" and len(lines) == 3001
            assert lines[1] == "0-padding-padding-padding" and lines[-1] == "2999-padding-padding-padding"
            assert r.headers["content-type"] == "text/csv; charset=utf-8"


def test_a_store_deleted_while_served_is_named_in_a_503(tmp_path) -> None:
    """rm -rf of the served store: workers that start after it cannot open it, and the query is
    answered 503 ``store_unavailable`` naming the folder (not 500 "internal"); the endpoint lives on."""
    memory = pyoxigraph.Store()
    memory.load(DATA.encode("utf-8"), format=pyoxigraph.RdfFormat.TRIG)
    folder = tmp_path / "store"
    write_store(memory, folder)
    store, path = open_store(folder), str(folder.resolve())
    import shutil

    shutil.rmtree(folder)  # before the first query: no worker has opened it yet
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=1))) as client:
        message = error(client.get("/sparql", params={"query": STEP_LABELS}), 503, "store_unavailable")
        assert message.startswith(f"The store {path} that this endpoint serves cannot be opened")
