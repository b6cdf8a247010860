"""The floor of Python serving on this machine: a bare ASGI application under uvicorn that answers
``GET /sparql?query=`` by evaluating in its own process with pyoxigraph, with no checks, no time
budget, no worker to kill, no error handling.  Not a server to use; the benchmark runs it beside
yili-kg and the Oxigraph server to show how much of the gap to Oxigraph any Python front has,
before any of the work yili-kg's endpoint does (see ``bench.py``).

Run as ``YILI_BENCH_STORE=DIR uvicorn bare_asgi:app --app-dir benchmarks [--workers N]``.
"""

from __future__ import annotations

import os
import urllib.parse
from typing import Any

import pyoxigraph

_store = pyoxigraph.Store.read_only(os.environ["YILI_BENCH_STORE"])
_HEADERS = [(b"content-type", b"application/sparql-results+json")]


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answer ``?query=`` (a SELECT or ASK) in SPARQL Results JSON; anything else with an empty 400."""
    if scope["type"] != "http":
        return
    queries = urllib.parse.parse_qs(scope["query_string"].decode("utf-8", "replace")).get("query")
    try:
        body = _store.query(queries[0], use_default_graph_as_union=True).serialize(  # type: ignore[index]
            format=pyoxigraph.QueryResultsFormat.JSON
        )
        status = 200
    except Exception:  # noqa: BLE001 - a floor to measure, not a server: no message
        body, status = b"", 400
    headers = [*_HEADERS, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
