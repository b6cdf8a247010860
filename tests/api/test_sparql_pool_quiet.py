"""The SPARQL worker pool starts and stops quietly: a server stopped, or a terminal's Ctrl-C sent to
its process group, while its worker processes are still being spawned prints no traceback (the
promise: one-line errors), and the query that was waiting gets a one-line answer.

Each case runs in a child process of its own session (so that its SIGINT reaches nobody else, and
its standard error holds only what the pool and its workers print), repeated over delays that fall
before, during and after the workers' start (spawning a worker takes 0.3 s or more: it imports
the package)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHILD = """
import asyncio, os, signal, sys

import pebble.pool.process
import pyoxigraph
from yili.api.sparql_eval import Operation, SparqlLimits
from yili.api.sparql_pool import ProcessPool

QUERY = Operation("SELECT (COUNT(*) AS ?n) { ?s ?p ?o }", (), (), "https://example.org/", "application/sparql-results+json", None)
ALIVE_AT_UNLINK = []
close_channels = pebble.pool.process.WorkerManager.close_channels


def watched(self):  # the moment pebble unlinks its channel's semaphores: which workers still run?
    ALIVE_AT_UNLINK.extend(pid for pid, worker in self.workers.items() if worker.is_alive())
    close_channels(self)


pebble.pool.process.WorkerManager.close_channels = watched


async def one(store, delay, how):
    pool = ProcessPool(lambda: store, SparqlLimits(max_concurrent_queries=4, short_lane=1))
    asked = asyncio.ensure_future(pool.evaluate(QUERY))
    await asyncio.sleep(delay)
    if how == "stop":
        await asyncio.to_thread(pool.close)
        try:
            answer = await asked
            print("answered", answer.body.decode())
        except Exception as error:
            print(type(error).__name__, getattr(error, "message", error))
    else:
        os.killpg(0, signal.SIGINT)  # what a terminal's Ctrl-C does
        answer = await asked
        print("answered", answer.body.decode())
        await asyncio.to_thread(pool.close)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, lambda *_: print("SIGINT"))
    store = pyoxigraph.Store()
    store.add(pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("o")))
    for delay in sys.argv[2:]:
        asyncio.run(one(store, float(delay), sys.argv[1]))
    print("alive at unlink", ALIVE_AT_UNLINK)
"""

ANSWER = (
    'answered {"head":{"vars":["n"]},"results":{"bindings":[{"n":{"type":"literal","value":"1",'
    '"datatype":"http://www.w3.org/2001/XMLSchema#integer"}}]}}'
)


def _run(tmp_path: Path, how: str, delays: list[float]) -> tuple[list[str], str]:
    script = tmp_path / "pool_child.py"
    script.write_text(CHILD, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), how, *map(str, delays)],
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr


def test_a_pool_stopped_while_its_workers_start_prints_nothing(tmp_path: Path) -> None:
    delays = [0.0, 0.1, 0.3, 0.6, 1.0]
    said, errors = _run(tmp_path, "stop", delays)
    assert "Traceback" not in errors and errors == ""
    # pebble unlinks its channel's semaphores only once every worker has ended: a worker still
    # being spawned then would fail to open them and print a traceback from multiprocessing.spawn
    assert said[-1] == "alive at unlink []"
    for line in said[:-1]:  # the waiting query: answered, or told in one line that the endpoint stops
        assert line in (ANSWER, "QueryTimeoutError The SPARQL endpoint is shutting down; the query was not finished.")
    assert len(said) == len(delays) + 1


def test_ctrl_c_while_the_workers_start_reaches_the_server_alone(tmp_path: Path) -> None:
    delays = [0.0, 0.2, 0.5]
    said, errors = _run(tmp_path, "sigint", delays)
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors and errors == ""
    # each SIGINT reached the server's handler, and its workers went on to answer the query
    assert said == ["SIGINT", ANSWER] * len(delays) + ["alive at unlink []"]


def test_a_pool_broken_by_a_worker_killed_while_idle_is_started_again() -> None:
    """pebble gives up a whole pool when a worker ends while no task runs (``All workers expired``):
    the query that finds it so is sent again to a new pool and answered, and so is the next, instead
    of every later query failing (the broken pool is stopped: its workers are gone)."""
    import asyncio
    import dataclasses
    import multiprocessing
    import os
    import signal

    import pyoxigraph
    from pebble.pool.base_pool import PoolStatus
    from yili.api.sparql_eval import Operation, SparqlLimits
    from yili.api.sparql_pool import ProcessPool

    store = pyoxigraph.Store()
    store.add(pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("o")))
    query = Operation("SELECT (COUNT(*) AS ?n) { ?s ?p ?o }", (), (), "https://example.org/", "text/csv", None)
    pool = ProcessPool(lambda: store, SparqlLimits(max_concurrent_queries=2, short_lane=1))

    others = {p.pid for p in multiprocessing.active_children()}  # other tests' pools: not to be killed

    async def scenario() -> list[str]:
        said = [(await pool.evaluate(query)).body.decode()]
        first = pool._pool
        workers = [p for p in multiprocessing.active_children() if p.name == "pebble_pool_worker" and p.pid not in others]
        os.kill(workers[0].pid, signal.SIGKILL)  # type: ignore[arg-type]
        for _ in range(100):  # until pebble's loop has seen it end and given the pool up
            await asyncio.sleep(0.1)
            if first is not None and first._context.status != PoolStatus.RUNNING:
                break
        said.append((await pool.evaluate(dataclasses.replace(query, query=query.query + " "))).body.decode())
        said.append("replaced" if pool._pool is not first else "same pool")
        said.append((await pool.evaluate(dataclasses.replace(query, query=query.query + "  "))).body.decode())
        return said

    try:
        said = asyncio.run(scenario())
    finally:
        pool.close()
    assert said == [
        "n\r\n1\r\n",
        "n\r\n1\r\n",
        "replaced",
        "n\r\n1\r\n",
    ]
