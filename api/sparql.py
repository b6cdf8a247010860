"""The read-only SPARQL 1.1 Protocol endpoint, on Oxigraph.

:func:`make_sparql_router` mounts ``GET /sparql`` and ``POST /sparql``, the *query operation* of the
W3C SPARQL 1.1 Protocol (https://www.w3.org/TR/sparql11-protocol/#query-operation):

- the query comes as ``GET ?query=``, as a ``POST`` of ``application/x-www-form-urlencoded``
  (``query=``), or as a ``POST`` whose body is the query (``application/sparql-query``; UTF-8 only);
- ``default-graph-uri`` and ``named-graph-uri`` (repeatable) choose the dataset among the graphs
  already in the store (protocol section 2.1.4); nothing is ever fetched from the network, and a graph
  the store does not hold is an empty graph.  A dataset given this way replaces the query's own
  ``FROM`` / ``FROM NAMED``.  With neither, the query's ``FROM`` clauses apply; with no ``FROM`` either,
  the default graph is the union of all graphs, because the project keeps its data in named graphs;
- ``SELECT`` and ``ASK`` answer in SPARQL Results JSON (default), XML, CSV or TSV; ``CONSTRUCT`` and
  ``DESCRIBE`` in Turtle (default), N-Triples, RDF/XML or JSON-LD.  The ``Accept`` header chooses (with
  q-values); a ``format=`` parameter (``json``, ``xml``, ``csv``, ``tsv``, ``turtle``, ``ntriples``,
  ``rdfxml``, ``jsonld``, ``n3`` (answered in Turtle, a subset of N3) or a media type) overrides it.
  ``format=`` may be repeated and a value may list media types with commas, as SPARQLWrapper sends it
  (``format=json-ld&format=application/ld+json,application/x-json+ld``): the first name offered for
  the query form wins.  Parsing, evaluation and every serialisation are pyoxigraph's own.

The endpoint is read-only: an *update operation* (``update=``, or an ``application/sparql-update``
body) is refused with 403.  Errors are JSON, ``{"error": <kind>, "message": <text>}``:

======  ==========================  ========================================================
status  ``error``                   when
======  ==========================  ========================================================
400     ``query``                   malformed query (the parser's message), no query, several
                                    queries, both ``query`` and ``update``, ``SERVICE``
403     ``read_only``               a SPARQL Update
405     ``method_not_allowed``      a method other than GET and POST
406     ``not_acceptable``          no offered format satisfies ``Accept`` / ``format=``
413     ``too_large``               body, query, brackets or rows over a :class:`SparqlLimits` bound
415     ``unsupported_media_type``  a POST body that is neither form nor ``sparql-query``,
                                    or not UTF-8
500     ``evaluation_crashed``      the worker process evaluating the query died (a crash
                                    in Oxigraph); it is replaced
500     ``internal``                a fault of the endpoint (logged)
503     ``timeout``                 the query ran past its time budget
503     ``busy``                    no worker was free in time (``Retry-After``); not run
503     ``store_unavailable``       the on-disk store served was moved or deleted
======  ==========================  ========================================================

The router catches its own errors (the project's :class:`~yili.ontology.errors.YiliError` family) and
answers them itself, so it registers nothing on the application and works on its own.

Hostile input is bounded by :class:`SparqlLimits`.  Oxigraph cannot be interrupted in the middle of
one evaluation step (planning, a sort, an aggregate), and some small queries spend minutes in one:
on an empty store, a property path of 1,000 steps or 400 nested collections each take Oxigraph
more than 30 s before the first row.  So queries are evaluated in worker *processes*
(``SparqlLimits.isolation = "process"``, the default), which can be killed:

- a pool of ``SparqlLimits.max_concurrent_queries`` processes, started with the ``spawn`` method
  (forking a server that has threads and a live Oxigraph store is unsafe), lazily at the first
  query, and reused.  When the store has a folder on disk (``store_path``: ``yili-kg serve``
  always gives one), each worker opens that folder read-only, so the workers share the operating
  system's page cache and start in a fraction of a second, and one spare worker waits ready to
  replace a killed one at once.  Otherwise each loads the whole dataset once, from an N-Quads dump
  of the store (named graphs kept) made once per pool: within one application the store is
  read-only;
- a query goes to a free worker; if none is free it waits, at most
  ``SparqlLimits.max_queue_wait_s``, and is then answered 503 ``busy`` with ``Retry-After``
  without having run (the pool's first start, bounded by :data:`WORKER_START_TIMEOUT_S`, does not
  count);
- a query still running after ``SparqlLimits.long_query_s`` is long: its worker runs at a lower CPU
  priority, and at most ``max_concurrent_queries - short_lane`` long queries run at once (one
  more is stopped and answered ``busy``), so short queries always find a worker.  A query that ran
  long once is remembered: sent again, it takes a long lane at once, or is answered ``busy``
  at once, without running, when they are all taken;
- when the budget runs out, the request is answered 503 at once; the worker, which checks the
  budget between result rows, has :data:`KILL_GRACE_S` to stop by itself, and is otherwise killed
  (SIGKILL) and replaced in the background, while the other workers go on serving;
- nothing is ever evaluated in the server process (with ``isolation="process"``): a repeated
  answer comes from a cache of the answer itself (``SparqlLimits.answer_cache_bytes``), keyed by
  the query text, the dataset and the format, since the store is read-only while it is served.
  A query that uses a function whose value changes from one evaluation to the next (``NOW``,
  ``RAND``, ``UUID``, ``STRUUID``, ``BNODE``; see :func:`_may_change`) is never kept, nor is a
  truncated answer;
- a worker that dies during a query (a crash in Oxigraph) gets that query a 500
  ``evaluation_crashed`` and is replaced;
- the router's lifespan stops every worker when the application shuts down, and an :mod:`atexit`
  hook does so at interpreter exit when the lifespan never runs; a worker also exits by itself if
  the server process disappears.

The price is memory (each worker is an interpreter of some 50 MiB, plus its own copy of the store
when it has no folder on disk), a start-up of about 0.3 s per worker, and the copy of
each query and answer through a pipe (about 0.15 ms per query with a small answer, 4 ms with a 5 MB
one).  Because workers are spawned, the server's main module is imported again in each of them: a
script that starts the server must do so under ``if __name__ == "__main__":`` (``yili-kg serve``
and ``uvicorn`` do); otherwise the workers fail to start, which is logged, and queries answer 500.

``SparqlLimits.isolation = "thread"`` evaluates on a pool of threads in the server process instead
(pyoxigraph releases the GIL while it evaluates): no start-up cost and no extra memory, but a query
past its budget only stops at its next result row, and meanwhile keeps its thread; a few hostile
queries can hold every thread for minutes.  It suits tests and trusted users.

Oxigraph's parser and planner recurse on nested and chained syntax, and a stack overflow in Rust
ends the whole process (with the default 8 MiB thread stack, 3,000 nested ``{`` already do).  So
queries are evaluated on threads with 256 MiB stacks (:data:`WORKER_STACK_BYTES`, address space
reserved, not memory used), in the worker processes as in the server, and a query may hold at most
``SparqlLimits.max_brackets`` brackets, counted in the raw text, where no string or comment can hide
them.  Long chains without brackets (thousands of triple patterns or path steps) are bounded only by
that stack, ``max_query_length`` and the time budget.

``SERVICE`` (federated query) is refused before Oxigraph sees the query, because Oxigraph would
otherwise call the remote endpoint over HTTP.  The check is made on the parsed query (rdflib's SPARQL
parser, :func:`_has_service`): the word in a string, an IRI, a comment, a variable or a prefixed name
is not a clause.  A query that parser cannot read is judged conservatively: any ``service`` outside
a variable name or a prefixed name's local part is refused; write such a word with an escape
(``"\\u0073ervice"``) to get past it.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
import queue
import re
import signal
import threading
import time
import traceback
import urllib.parse
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import Future
from contextlib import asynccontextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import pyoxigraph
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pyoxigraph import RdfFormat
from starlette.routing import Route
from yili.api.sparql_eval import (  # the evaluation side, which worker processes import alone
    _GRAPH_FORMATS,
    _OPAQUE,
    _RESULTS_FORMATS,
    TRUNCATED_HEADER,
    SparqlLimits,
    _Answer,
    _bytes,
    _evaluate,
    _Operation,
    _start_with_large_stack,
    _timeout_message,
    _worker_main,
    media_ranges,
)
from yili.ontology.errors import (
    EndpointBusyError,
    EvaluationCrashedError,
    MethodNotAllowedError,
    NotAcceptableError,
    QueryError,
    QueryTimeoutError,
    ReadOnlyError,
    RequestTooLargeError,
    StoreUnavailableError,
    UnsupportedMediaTypeError,
    YiliError,
)

__all__ = [
    "TRUNCATED_HEADER",
    "EvaluationCrashedError",
    "MethodNotAllowedError",
    "NotAcceptableError",
    "ReadOnlyError",
    "SparqlLimits",
    "SparqlRouter",
    "media_ranges",
    "UnsupportedMediaTypeError",
    "make_sparql_router",
]

log = logging.getLogger(__name__)

FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
QUERY_MEDIA_TYPE = "application/sparql-query"
UPDATE_MEDIA_TYPE = "application/sparql-update"
WORKER_START_TIMEOUT_S = 120.0
"""Longest a worker process may take to start and load the dataset before it is killed (seconds)."""
KILL_GRACE_S = 0.25
"""How long a worker process whose query ran out of time has to stop by itself before it is killed.

The worker checks the budget between result rows, so a query that streams rows stops within
milliseconds and its worker is kept; one stuck in a single evaluation step is killed (seconds).
"""


# --------------------------------------------------------------------------------------------------
# Limits and errors




def _error_response(error: YiliError) -> JSONResponse:
    """The JSON answer ``{"error": kind, "message": text}`` for one of the project's errors."""
    headers = {"Allow": "GET, HEAD, POST"} if isinstance(error, MethodNotAllowedError) else None
    if isinstance(error, EndpointBusyError):
        headers = {"Retry-After": str(error.retry_after_s)}
    return JSONResponse({"error": error.kind, "message": error.message}, error.status, headers=headers)


# --------------------------------------------------------------------------------------------------
# The router


_GET_PARAMETERS: list[dict[str, Any]] = [
    {
        "name": "query",
        "in": "query",
        "required": True,
        "schema": {"type": "string"},
        "description": "The SPARQL 1.1 query (SELECT, ASK, CONSTRUCT or DESCRIBE).",
        "example": "SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 10",
    },
]
_DATASET_PARAMETERS: list[dict[str, Any]] = [
    {
        "name": "default-graph-uri",
        "in": "query",
        "required": False,
        "schema": {"type": "array", "items": {"type": "string"}},
        "description": "Graphs (already in the store) merged into the default graph; repeatable.",
    },
    {
        "name": "named-graph-uri",
        "in": "query",
        "required": False,
        "schema": {"type": "array", "items": {"type": "string"}},
        "description": "Graphs (already in the store) available to GRAPH patterns; repeatable.",
    },
    {
        "name": "format",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "Overrides Accept: json, xml, csv, tsv (SELECT, ASK); "
        "turtle, ntriples, rdfxml, jsonld, n3 (as Turtle) (CONSTRUCT, DESCRIBE), or a media type. "
        "Repeatable, and a value may list names with commas: the first one offered wins.",
    },
]
_POST_BODY: dict[str, Any] = {
    "required": True,
    "content": {
        FORM_MEDIA_TYPE: {
            "schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "default-graph-uri": {"type": "array", "items": {"type": "string"}},
                    "named-graph-uri": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["query"],
            }
        },
        QUERY_MEDIA_TYPE: {"schema": {"type": "string"}, "example": "ASK { ?s ?p ?o }"},
    },
}
_ERROR_SCHEMA: dict[str, Any] = {
    "application/json": {
        "schema": {
            "type": "object",
            "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
        }
    }
}
_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Query results (SELECT, ASK) or an RDF graph (CONSTRUCT, DESCRIBE).",
        "content": {
            "application/sparql-results+json": {},
            "application/sparql-results+xml": {},
            "text/csv": {},
            "text/tab-separated-values": {},
            "text/turtle": {},
            "application/n-triples": {},
            "application/rdf+xml": {},
            "application/ld+json": {},
        },
    },
    400: {"description": "Malformed, missing or repeated query; SERVICE", "content": _ERROR_SCHEMA},
    403: {"description": "A SPARQL Update: the endpoint is read-only", "content": _ERROR_SCHEMA},
    406: {"description": "No offered format satisfies Accept / format=", "content": _ERROR_SCHEMA},
    413: {"description": "Body, query or result over a limit", "content": _ERROR_SCHEMA},
    415: {"description": "POST body of an unsupported media type", "content": _ERROR_SCHEMA},
    500: {"description": "The evaluating worker crashed, or the endpoint failed", "content": _ERROR_SCHEMA},
    503: {"description": "The query ran past its time budget", "content": _ERROR_SCHEMA},
}


def make_sparql_router(
    get_store: Callable[[], pyoxigraph.Store],
    *,
    limits: SparqlLimits | None = None,
    query_page: Callable[[], Response] | None = None,
    store_path: Callable[[], str | None] | None = None,
    evaluator: Any = None,
) -> SparqlRouter:
    """Build the router of the read-only SPARQL 1.1 Protocol endpoint at ``/sparql``.

    Parameters
    ----------
    get_store : callable () -> pyoxigraph.Store
        Returns the store to query.  With ``limits.isolation == "process"`` it is called once, at the
        first query, and the store is dumped for the worker processes: changes made to it later are
        not seen (the endpoint is read-only; a new application gets a new pool).  With ``"thread"``
        it is called once per query, on a worker thread.  It is also called, in the server, to list
        the named graphs of the service description (once).
    limits : SparqlLimits, optional
        Bounds on each request; :class:`SparqlLimits` defaults if omitted.
    store_path : callable () -> str or None, optional
        The folder of the on-disk store ``get_store`` returns (``yili-kg serve --store``), if it
        has one: each worker process then opens that folder read-only (the workers share the page
        cache, start in a fraction of a second, and a spare one waits ready to replace a killed
        one) instead of loading its own copy from an N-Quads dump.
    query_page : callable () -> Response, optional
        The HTML page answered to ``GET /sparql`` with no ``query`` when ``Accept`` names
        ``text/html`` (a browser): a query form.  Without it such a request is refused as before.
    evaluator : object, optional
        What evaluates the operations instead of the worker pool ``limits.isolation`` names: an
        object with ``async evaluate(operation) -> _Answer`` and ``close()``
        (:class:`~yili.api.routes_remote.RemoteEvaluator`, the proxy to a remote store).

    Returns
    -------
    SparqlRouter
        An :class:`~fastapi.APIRouter` with the routes ``GET /sparql`` and ``POST /sparql`` (the
        protocol's query operation), and a JSON 405 for other methods; its ``get_app`` answers
        ``GET /sparql`` as a plain ASGI application.  ``GET /sparql`` without a ``query`` parameter answers, when ``Accept``
        names one of them explicitly (a wildcard does not count): the service description
        (:func:`~yili.api.service_description.service_description`) in Turtle, N-Triples, RDF/XML
        or JSON-LD, or ``query_page`` for ``text/html``; otherwise the 400 of a missing query.
        Every error is answered as JSON by the router itself; nothing is registered on the
        application.  Its lifespan, which FastAPI merges into the application's
        when the router is included, stops the worker processes at shutdown.

    References
    ----------
    W3C, *SPARQL 1.1 Protocol*, section 2.1 (query operation), https://www.w3.org/TR/sparql11-protocol/

    Examples
    --------
    >>> import fastapi, pyoxigraph
    >>> store = pyoxigraph.Store()
    >>> app = fastapi.FastAPI()
    >>> app.include_router(make_sparql_router(lambda: store, limits=SparqlLimits(timeout_s=5)))
    """
    limits = limits or SparqlLimits()
    pool: Any = evaluator
    if pool is None:
        pool = _ProcessPool(get_store, limits, store_path) if limits.isolation == "process" else _ThreadPool(get_store, limits)

    @asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await asyncio.to_thread(pool.close)

    router = SparqlRouter(tags=["SPARQL"], lifespan=lifespan)
    named_graphs: list[tuple[str, int]] = []  # the store is read-only: counted once, at the first description

    def describe(request: Request) -> Response | None:
        """The answer to a GET without ``query``: the query page, the service description, or None
        (the caller then refuses the request as a missing query)."""
        media_type = _description_format(request.headers.get("accept", ""), html=query_page is not None)
        if media_type is None:
            return None
        if media_type == "text/html":
            assert query_page is not None
            page = query_page()
            page.headers["Vary"] = "Accept"
            return page
        if not named_graphs:
            store = get_store()
            sizes = getattr(store, "graph_sizes", None)  # a remote store counts in one query
            named_graphs.extend(
                sizes()
                if sizes is not None
                else sorted((g.value, sum(1 for _ in store.quads_for_pattern(None, None, None, g))) for g in store.named_graphs())
            )
        from yili.api.service_description import SERIALIZATIONS, service_description  # rdflib: not in the workers

        graph = service_description(
            str(request.url.replace(query="", fragment="")),
            [f.media_type for f in _RESULTS_FORMATS] + [f.media_type for f in _GRAPH_FORMATS],
            named_graphs,
            # without FROM or dataset parameters the default graph is the union (see _dataset)
            union_default_graph=True,
        )
        body = graph.serialize(format=SERIALIZATIONS[media_type], encoding="utf-8")
        return Response(body, media_type=media_type, headers={"Vary": "Accept"})

    async def answer(request: Request) -> Response:
        try:
            operation = await _read_operation(request, limits)
            result = await pool.evaluate(operation)
            return Response(result.body, media_type=result.media_type, headers={"Vary": "Accept", **result.headers})
        except YiliError as error:
            return _error_response(error)
        except Exception:  # a fault of ours, never of the input: log it, answer without a traceback
            log.exception("SPARQL endpoint failed on %s %s", request.method, request.url.path)
            return JSONResponse(
                {"error": "internal", "message": "The SPARQL endpoint failed; the error has been logged."},
                500,
            )

    operations: dict[tuple[object, ...], _Operation] = {}  # read and checked, by what they were read from
    operations_lock = threading.Lock()

    async def lean_get(scope: Any, receive: Any, send: Any) -> None:
        """``GET /sparql`` as a plain ASGI application, answered by :func:`sparql_get` as documented,
        without FastAPI's per-request work for a route (dependency solving, exit stacks), which cost
        a point lookup more than its own handling.  A ``HEAD`` (which reaches here only when no
        middleware turns it into a ``GET``) is refused as every other method is.

        The operation read from a query string (with the ``Accept`` and ``Host`` headers and the
        server's address, which the base IRI and the format depend on) is kept, for the last
        :data:`_OPERATIONS_KEPT` short ones that were valid, so a query sent again is not read and
        checked again; its answer is sent as plain ASGI messages, with the headers
        :class:`~starlette.responses.Response` would give it."""
        if scope["method"] != "GET":
            response = await sparql_other_method(Request(scope, receive))
            await response(scope, receive, send)
            return
        accept = host = None
        for name, value in scope["headers"]:
            if name == b"accept" and accept is None:
                accept = value
            elif name == b"host" and host is None:
                host = value
        query_string = scope["query_string"]
        server = scope.get("server")
        address = tuple(server) if server else None
        key = (query_string, accept, host, scope["scheme"], address, scope.get("root_path"), scope["path"])
        operation = operations.get(key)
        if operation is None:
            request = Request(scope, receive)
            if "query" not in request.query_params:
                response = await sparql_get(request)
                await response(scope, receive, send)
                return
            try:
                operation = await _read_operation(request, limits)
            except YiliError as error:
                await _error_response(error)(scope, receive, send)
                return
            if len(query_string) <= _OPERATION_KEY_BYTES:
                with operations_lock:
                    if len(operations) >= _OPERATIONS_KEPT:
                        operations.pop(next(iter(operations)))  # the oldest
                    operations[key] = operation
        try:
            result = await pool.evaluate(operation)
        except YiliError as error:
            await _error_response(error)(scope, receive, send)
            return
        except Exception:  # a fault of ours, never of the input: log it, answer without a traceback
            log.exception("SPARQL endpoint failed on GET /sparql")
            message = "The SPARQL endpoint failed; the error has been logged."
            await JSONResponse({"error": "internal", "message": message}, 500)(scope, receive, send)
            return
        headers = [(b"vary", b"Accept")]
        headers.extend((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in result.headers.items())
        headers.append((b"content-length", str(len(result.body)).encode("latin-1")))
        headers.append((b"content-type", _content_type_header(result.media_type)))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": result.body})

    # matched first, so it answers every GET; the APIRoute below documents it in the OpenAPI schema
    router.routes.append(Route("/sparql", _AsgiApp(lean_get), methods=["GET"], include_in_schema=False))
    router.get_app = lean_get

    @router.get(
        "/sparql",
        summary="SPARQL query (GET)",
        response_class=Response,
        responses=_RESPONSES,
        openapi_extra={"parameters": _GET_PARAMETERS + _DATASET_PARAMETERS},
    )
    async def sparql_get(request: Request) -> Response:
        """Run a read-only SPARQL 1.1 query given as ``?query=`` (SPARQL 1.1 Protocol 2.1.1).

        ``default-graph-uri`` / ``named-graph-uri`` (repeatable) pick the dataset among the graphs in
        the store; without them (and without FROM) the default graph is the union of all graphs.
        SELECT and ASK answer in SPARQL Results JSON (default), XML, CSV or TSV; CONSTRUCT and
        DESCRIBE in Turtle (default), N-Triples, RDF/XML or JSON-LD, chosen by ``Accept`` or
        ``format=``.  Errors are ``{"error": kind, "message": text}``: 400 malformed query or SERVICE,
        403 update, 406 no acceptable format, 413 too long or too many results, 503 over time budget.

        Without ``query``, an ``Accept`` naming an RDF type (Turtle, N-Triples, RDF/XML, JSON-LD) gets
        the SPARQL 1.1 Service Description of this endpoint, and one naming ``text/html`` (a browser)
        the query page; any other is refused with 400.
        """
        if "query" not in request.query_params:
            try:
                described = describe(request)
            except Exception:  # a fault of ours: logged, answered without a traceback
                log.exception("SPARQL service description failed")
                return JSONResponse(
                    {"error": "internal", "message": "The service description failed; the error has been logged."}, 500
                )
            if described is not None:
                return described
        return await answer(request)

    @router.post(
        "/sparql",
        summary="SPARQL query (POST)",
        response_class=Response,
        responses=_RESPONSES,
        openapi_extra={"parameters": _DATASET_PARAMETERS, "requestBody": _POST_BODY},
    )
    async def sparql_post(request: Request) -> Response:
        """Run a read-only SPARQL 1.1 query sent as a form or a direct body (Protocol 2.1.2, 2.1.3).

        The body is either ``application/x-www-form-urlencoded`` with ``query=`` (and optionally
        ``default-graph-uri`` / ``named-graph-uri``), or ``application/sparql-query`` holding the query
        itself in UTF-8, with the dataset parameters in the URL.  Answers as for GET.  A SPARQL Update
        (``update=`` or ``application/sparql-update``) is refused with 403: the endpoint is read-only.
        """
        return await answer(request)

    @router.api_route("/sparql", methods=["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"], include_in_schema=False)
    async def sparql_other_method(request: Request) -> Response:
        """Refuse any method but GET and POST with a JSON 405 (SPARQL 1.1 Protocol 2.1)."""
        return _error_response(MethodNotAllowedError(f"The SPARQL endpoint takes GET, HEAD and POST, not {request.method}."))

    return router


_OPERATIONS_KEPT = 1024
"""How many operations read from ``GET /sparql`` query strings the router keeps (see ``lean_get``)."""
_OPERATION_KEY_BYTES = 4096
"""The longest query string (bytes) whose operation is kept: at most some 4 MiB for them all."""


def _content_type_header(media_type: str) -> bytes:
    """The ``Content-Type`` value :class:`~starlette.responses.Response` sends for ``media_type``: a
    ``text/`` type gets ``; charset=utf-8``.

    >>> _content_type_header("text/csv")
    b'text/csv; charset=utf-8'
    >>> _content_type_header("application/sparql-results+json")
    b'application/sparql-results+json'
    """
    if media_type.startswith("text/") and "charset=" not in media_type.lower():
        media_type += "; charset=utf-8"
    return media_type.encode("latin-1")


class SparqlRouter(APIRouter):
    """The router :func:`make_sparql_router` returns: an :class:`~fastapi.APIRouter` that also
    offers ``GET /sparql`` as a plain ASGI application.

    Attributes
    ----------
    get_app : ASGI application (scope, receive, send) -> None
        Answers a ``GET /sparql`` request exactly as the router's route does.  An application may
        call it for such a request before its middleware and routing (which cost a point lookup
        more than its own handling), when its middleware would not change the request or its answer.
    """

    get_app: Callable[[Any, Any, Any], Awaitable[None]]


class _AsgiApp:
    """An ASGI callable that Starlette's ``Route`` serves as it is: it takes a plain function for a
    request handler (``request -> response``), and only another callable for an ASGI application."""

    def __init__(self, app: Callable[[Any, Any, Any], Awaitable[None]]) -> None:
        self._app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self._app(scope, receive, send)


# --------------------------------------------------------------------------------------------------
# Reading the request (protocol section 2.1)




async def _read_operation(request: Request, limits: SparqlLimits) -> _Operation:
    """Read the protocol's parameters from a GET or POST request.

    Raises
    ------
    QueryError
        No query, several queries, both ``query`` and ``update``, a form that does not decode,
        a ``SERVICE`` clause.
    ReadOnlyError
        An update operation.
    UnsupportedMediaTypeError
        A POST body that is neither form-encoded nor ``application/sparql-query``, or not UTF-8.
    RequestTooLargeError
        A body over ``limits.max_body_bytes`` or a query over ``limits.max_query_length``.
    """
    fields: list[tuple[str, str]] = list(request.query_params.multi_items())
    direct_query: str | None = None
    if request.method == "POST":
        media_type, charset = _content_type(request.headers.get("content-type"))
        if media_type not in (FORM_MEDIA_TYPE, QUERY_MEDIA_TYPE, UPDATE_MEDIA_TYPE):
            shown = f"not '{media_type}'" if media_type else "and this one has none"
            raise UnsupportedMediaTypeError(
                f"A POST to the SPARQL endpoint needs Content-Type {FORM_MEDIA_TYPE} (query=...) or "
                f"{QUERY_MEDIA_TYPE} (the query itself), {shown}."
            )
        if charset not in (None, "utf-8", "utf8"):
            raise UnsupportedMediaTypeError(f"The body must be UTF-8, not charset '{charset}'.")
        body = await _read_body(request, limits.max_body_bytes)
        if media_type == UPDATE_MEDIA_TYPE:
            if _values(fields, "query"):
                raise QueryError("A request holds either a query or an update, not both.")
            raise ReadOnlyError("This SPARQL endpoint is read-only: SPARQL Update is not accepted.")
        text = _decode_utf8(body)
        if media_type == FORM_MEDIA_TYPE:
            fields += _parse_form(text)
        else:
            direct_query = text
    if _values(fields, "update"):
        if _values(fields, "query") or direct_query is not None:
            raise QueryError("A request holds either a query or an update, not both.")
        raise ReadOnlyError("This SPARQL endpoint is read-only: SPARQL Update is not accepted.")
    queries = _values(fields, "query") + ([direct_query] if direct_query is not None else [])
    if len(queries) > 1:
        raise QueryError("A request holds exactly one query; this one holds several.")
    if not queries or not queries[0].strip():
        raise QueryError(
            "No query: send one as ?query=... (GET), as query=... in a form (POST), or as the body of "
            f"a POST with Content-Type {QUERY_MEDIA_TYPE}."
        )
    query = queries[0]
    if len(query) > limits.max_query_length:
        raise RequestTooLargeError(
            f"The query is {len(query):,} characters long; the limit is {limits.max_query_length:,} "
            "(SparqlLimits.max_query_length)."
        )
    brackets = _count_brackets(query)
    if brackets > limits.max_brackets:
        raise RequestTooLargeError(
            f"The query holds {brackets:,} brackets; the limit is {limits.max_brackets:,} (SparqlLimits.max_brackets)."
        )
    # the word is rare: only a query that has it is parsed, off the event loop
    if _SERVICE.search(query) and await asyncio.to_thread(_has_service, query):
        raise QueryError(
            "SERVICE (federated query) is not allowed: this endpoint never calls other services. "
            "If the word 'service' is only inside a string, an IRI or a comment of a query our parser "
            "could not read, write it with an escape such as \\u0073ervice."
        )
    formats = _values(fields, "format")
    return _Operation(
        query=query,
        default_graphs=tuple(_values(fields, "default-graph-uri")),
        named_graphs=tuple(_values(fields, "named-graph-uri")),
        base_iri=str(request.url.replace(query="", fragment="")),
        accept=request.headers.get("accept", ""),
        # every value, in order (SPARQLWrapper repeats format= and lists media types with commas)
        format=",".join(formats) if formats else None,
    )


def _values(fields: Sequence[tuple[str, str]], name: str) -> list[str]:
    """Every value of the parameter ``name``, in order."""
    return [value for key, value in fields if key == name]


def _content_type(header: str | None) -> tuple[str | None, str | None]:
    """The media type and charset of a Content-Type header, both lower-cased.

    >>> _content_type("application/sparql-query; charset=UTF-16")
    ('application/sparql-query', 'utf-16')
    >>> _content_type(None)
    (None, None)
    """
    if not header or not header.strip():
        return None, None
    media_type, *parameters = header.split(";")
    charset = None
    for parameter in parameters:
        key, _, value = parameter.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip('"').lower()
    return media_type.strip().lower(), charset


async def _read_body(request: Request, max_bytes: int) -> bytes:
    """The request body, read no further than ``max_bytes``; raises RequestTooLargeError past it."""
    too_large = RequestTooLargeError(f"The request body is over {max_bytes:,} bytes (SparqlLimits.max_body_bytes).")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def _decode_utf8(body: bytes) -> str:
    """Decode a body as UTF-8 (SPARQL 1.1 Protocol 2.1.2, 2.1.3); QueryError if it is not."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise QueryError(f"The body is not valid UTF-8 (byte {error.start}).") from None


def _parse_form(text: str) -> list[tuple[str, str]]:
    """The fields of an ``application/x-www-form-urlencoded`` body, percent-decoded as UTF-8."""
    try:
        return urllib.parse.parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict", max_num_fields=1000)
    except (UnicodeDecodeError, ValueError) as error:
        raise QueryError(f"The form body cannot be decoded: {error}.") from None


# --------------------------------------------------------------------------------------------------
# Looking at the query text


def _count_brackets(query: str) -> int:
    """How many ``{ ( [ <`` the query holds, strings, IRIs and comments included.

    An upper bound on the nesting depth Oxigraph's parser will reach, whatever the query means.

    >>> _count_brackets("SELECT * { ?s ?p ?o FILTER(?o < 3) }")
    3
    """
    return sum(query.count(bracket) for bracket in "{([<")


_WORD = re.compile(r"\w+")
_SERVICE = re.compile("service", re.IGNORECASE)
_SERVICE_KEYWORD = re.compile(r"(?<![\w?$:])SERVICE(?![\w:])", re.IGNORECASE)
_PARSE_LIMIT = 20_000
"""The longest query (characters) read with rdflib's parser for SERVICE; a longer one that mentions
the word is judged by the conservative :func:`_mentions_service`."""
_PARSER_LOCK = threading.Lock()  # pyparsing's packrat cache is not thread-safe


def _has_service(query: str) -> bool:
    """Whether the query holds a ``SERVICE`` clause (W3C, *SPARQL 1.1 Federated Query*), decided on
    the parsed query: the word in a string, a comment, an IRI, a variable or a prefixed name is not
    a clause.

    A query without the letters ``service`` (any case) has none.  Otherwise it is parsed with
    rdflib's SPARQL 1.1 grammar and refused if the parse holds a ``ServiceGraphPattern``; and, since
    two parsers could read one text two ways, also if ``SERVICE`` stands as a keyword once
    comments, IRIs and strings are blanked.  A query rdflib cannot parse, or one longer than
    :data:`_PARSE_LIMIT`, falls back on :func:`_mentions_service`, which refuses the word anywhere
    but in a variable or a prefixed name's local part.

    >>> _has_service("SELECT * { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    True
    >>> _has_service('PREFIX sv: <http://example.org/service#> SELECT * { ?s sv:p "self-service" } # a service')
    False
    >>> _has_service("SELECT * { ?s ?p ex:a\\\\# . SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    True
    """
    if not _SERVICE.search(query):
        return False
    if len(query) > _PARSE_LIMIT:
        return _mentions_service(query)
    from rdflib.plugins.sparql.parser import parseQuery

    try:
        with _PARSER_LOCK:
            tree = parseQuery(query)
    except Exception:  # noqa: BLE001 - any failure of the other parser: judge conservatively
        return _mentions_service(query)
    if _tree_has(tree, "ServiceGraphPattern"):
        return True

    def blank(match: re.Match[str]) -> str:
        return " " if match.lastgroup == "comment" else "<>" if match.lastgroup == "iri" else '""'

    return _SERVICE_KEYWORD.search(_OPAQUE.sub(blank, query)) is not None


def _tree_has(node: object, name: str) -> bool:
    """Whether a pyparsing parse tree (rdflib's ``CompValue`` nodes, lists, dicts) holds a node named ``name``."""
    stack = [node]
    while stack:
        item = stack.pop()
        if getattr(item, "name", None) == name:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)) or type(item).__name__ == "ParseResults":
            stack.extend(list(item))
    return False


def _mentions_service(query: str) -> bool:
    """Whether the query may hold a ``SERVICE`` clause (W3C, *SPARQL 1.1 Federated Query*).

    Conservative on purpose.  A word (a run of letters, digits and ``_``) containing ``service`` in
    any case is harmless only right after ``?`` or ``$`` (a variable: ``?service``) or ``:`` (the
    local part of a prefixed name: ``ex:fooService``), because Oxigraph reads those names greedily
    and no keyword can start inside them.  Every other occurrence counts, even in a string, an IRI
    or a comment: Oxigraph reads the keyword without a word boundary (``1SERVICE <x> {}`` and
    ``ex:.SERVICE <x> {}`` both call ``<x>``), and a lexer of our own could disagree with Oxigraph's
    about where a string ends.

    >>> _mentions_service("SELECT * { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    True
    >>> _mentions_service("SELECT ?service { ?service a ex:Service }")
    False
    >>> _mentions_service('SELECT * { ?s ?p "self-service" }')
    True
    """
    for word in _WORD.finditer(query):
        if _SERVICE.search(word.group()) and (word.start() == 0 or query[word.start() - 1] not in ":?$"):
            return True
    return False






# --------------------------------------------------------------------------------------------------
# Content negotiation (SPARQL 1.1 Protocol 2.1.6; RFC 9110 section 12.5.1)







def _description_format(accept: str, *, html: bool) -> str | None:
    """What to answer a GET without a query in: ``text/html`` (if ``html``) or a media type of
    :data:`~yili.api.service_description.SERIALIZATIONS`, the one ``Accept`` names with the highest q
    (ties: HTML, then the order of that table), or None.  Only media types named exactly count: a
    client that sends ``*/*`` or ``application/sparql-results+json`` without a query made a mistake,
    and is told so.

    >>> _description_format("text/html,application/xhtml+xml,*/*;q=0.8", html=True)
    'text/html'
    >>> _description_format("application/rdf+xml;q=0.5, text/turtle", html=True)
    'text/turtle'
    >>> _description_format("*/*", html=True) is None
    True
    """
    from yili.api.service_description import SERIALIZATIONS  # rdflib: imported by the server only

    offers = (["text/html"] if html else []) + list(SERIALIZATIONS)
    best: tuple[float, int] | None = None
    chosen = None
    for media_range, q in media_ranges(accept):
        if media_range in offers and q > 0:
            rank = (q, -offers.index(media_range))
            if best is None or rank > best:
                best, chosen = rank, media_range
    return chosen






# --------------------------------------------------------------------------------------------------
# Evaluation: worker processes (isolation="process") or worker threads (isolation="thread")




@dataclass(frozen=True)
class _Job:
    """A query for a worker process: its operation, its deadline and the moment it was queued (the
    server's :func:`time.monotonic` clock, seconds), and whether it holds a long lane already."""

    operation: _Operation
    deadline: float
    queued: float
    long: bool = False


_SPAWN = multiprocessing.get_context("spawn")

_ERRORS_BY_NAME: dict[str, type[YiliError]] = {
    error.__name__: error
    for error in (YiliError, QueryError, NotAcceptableError, RequestTooLargeError, QueryTimeoutError, EndpointBusyError)
}
"""The errors :func:`_evaluate` raises, rebuilt by name in the server from a worker's report."""



class _ProcessPool:
    """``limits.max_concurrent_queries`` worker processes that evaluate queries and can be killed.

    Nothing starts until the first query; then every worker is spawned at once (see
    :class:`_Workers`), and the first queries wait for them outside their time budget.
    :meth:`close` stops them all; a query after that starts a new set.  The store is dumped once,
    at the first start, and the dump is kept for replacements and restarts.

    Used from any event loop and thread: its shared state is guarded by locks, a request waits for a
    free worker through a :class:`concurrent.futures.Future` that it wraps in its own loop, and then
    talks to that worker's pipe from its own loop.
    """

    def __init__(
        self,
        get_store: Callable[[], pyoxigraph.Store],
        limits: SparqlLimits,
        store_path: Callable[[], str | None] | None = None,
    ) -> None:
        self._get_store = get_store
        self._store_path = store_path
        self._limits = limits
        self._lock = threading.Lock()
        self._workers: _Workers | None = None
        self._dataset_lock = threading.Lock()
        self._dataset: _Source | None = None

    def _dataset_bytes(self) -> _Source:
        """Where a worker gets the dataset: the on-disk store's folder, or else the store as N-Quads
        (every named graph kept), dumped at the first call (on a slot thread)."""
        with self._dataset_lock:
            if self._dataset is None:
                path = self._store_path() if self._store_path is not None else None
                if path:
                    self._dataset = _Source(path=path)
                else:
                    self._dataset = _Source(nquads=_bytes(self._get_store().dump(format=RdfFormat.N_QUADS)))
            return self._dataset

    def _running(self) -> _Workers:
        with self._lock:
            if self._workers is None:
                self._workers = _Workers(self._limits, self._dataset_bytes)
                atexit.register(self.close)
            return self._workers

    async def evaluate(self, operation: _Operation) -> _Answer:
        """Evaluate ``operation`` in a worker process within ``limits.timeout_s``.

        The clock starts once the pool has started (the first queries wait for that, at most
        :data:`WORKER_START_TIMEOUT_S`) and covers the wait for a free worker and the evaluation.

        Raises
        ------
        EndpointBusyError
            No worker took the query within ``limits.max_queue_wait_s`` (it never ran), or it became
            long while the long-query lanes were full (``limits.short_lane``): 503 with Retry-After.
        QueryTimeoutError
            The budget ran out while the query ran (the worker stops by itself between rows, or is
            killed and replaced), or the pool closed meanwhile.
        EvaluationCrashedError
            The worker process died during the query (it is replaced).
        YiliError
            Whatever :func:`_evaluate` raises in the worker.
        RuntimeError
            The workers could not start, or evaluation failed unexpectedly (logged).
        """
        workers = self._running()
        if not workers.started.done():
            await asyncio.shield(asyncio.wrap_future(workers.started))
        limits = self._limits
        kept = workers.answers.get(operation)
        if kept is not None:
            return kept
        now = time.monotonic()
        long = workers.known_long(operation)
        if long and not workers.enter_long():
            # it ran long before and every long lane is taken: refused at once, the short lane stays free
            raise EndpointBusyError(_lanes_message(limits, known=True))
        try:
            slot = await workers.acquire(min(limits.max_queue_wait_s, limits.timeout_s))
        except BaseException:
            if long:
                workers.leave_long()
            raise
        return await slot.run(_Job(operation, now + limits.timeout_s, now, long))

    def close(self) -> None:
        """Stop every worker process (SIGKILL) and wait until each is reaped; idempotent."""
        with self._lock:
            workers, self._workers = self._workers, None
            atexit.unregister(self.close)
        if workers is not None:
            workers.close()


class _Workers:
    """One set of worker processes, from their start to :meth:`close`: the slots that own them, the
    idle ones, and the queries waiting for one.

    A query takes an idle :class:`_Slot` (:meth:`acquire`), or waits for the next one given back
    (:meth:`release`), in arrival order.  The request's own event loop then writes the query to
    the slot's process and awaits the reply on the pipe (:meth:`_Slot.run`); only a query that turns
    long, a large answer or a dead process is handed to a thread.

    Attributes
    ----------
    started : concurrent.futures.Future of None
        Done when every slot has made its first attempt to start its process (successful or not).
    closed : bool
        Set by :meth:`close`; slots then stop instead of replacing their process.
    """

    def __init__(self, limits: SparqlLimits, dataset: Callable[[], _Source]) -> None:
        self.limits = limits
        self.dataset = dataset
        self.started: Future[None] = Future()
        self.closed = False
        self._lock = threading.Lock()
        self._returned = threading.Condition(self._lock)
        self._idle: list[_Slot] = []  # a stack: the worker used last, whose caches are warm, goes first
        self._waiters: deque[Future[_Slot]] = deque()
        self._starting = limits.max_concurrent_queries
        self._long = 0
        self._long_queries: OrderedDict[tuple[object, ...], None] = OrderedDict()
        self.answers = _AnswerCache(limits.answer_cache_bytes)
        self.said_missing = False  # whether the log has said that the store on disk is gone
        self._spares: queue.Queue[tuple[BaseProcess, Connection]] = queue.Queue(maxsize=1)
        self._want_spare = threading.Event()
        self._spare_thread = threading.Thread(target=self._keep_spare, name="sparql-spare", daemon=True)
        self._slots = [_Slot(self, number) for number in range(limits.max_concurrent_queries)]
        for slot in self._slots:
            slot.replace(first=True)
        self._spare_thread.start()

    async def acquire(self, timeout_s: float) -> _Slot:
        """A free slot: an idle one at once, or else the first one given back within ``timeout_s``
        seconds (queries are served in arrival order).  The caller must give it back.

        Raises
        ------
        EndpointBusyError
            No slot was free within ``timeout_s``.
        QueryTimeoutError
            The workers are closing.
        """
        with self._lock:
            if self.closed:
                raise QueryTimeoutError("The SPARQL endpoint is shutting down; the query was not evaluated.")
            if self._idle:
                return self._idle.pop()
            waiter: Future[_Slot] = Future()
            self._waiters.append(waiter)
        given = asyncio.wrap_future(waiter)
        try:
            done, _ = await asyncio.wait({given}, timeout=timeout_s)
        except BaseException:  # the request was cancelled: a slot it was given goes back
            if not waiter.cancel():
                waiter.add_done_callback(self._give_back)
            raise
        if not done and waiter.cancel():  # still waiting: no slot came, and none will
            raise EndpointBusyError(_busy_message(self.limits))
        return await given

    def _give_back(self, waiter: Future[_Slot]) -> None:
        if not waiter.cancelled() and waiter.exception() is None:
            self.release(waiter.result())

    def release(self, slot: _Slot) -> None:
        """Give a slot back: to the query that has waited longest for one, else to the idle ones."""
        with self._lock:
            waiter = None
            while self._waiters and not self.closed:
                candidate = self._waiters.popleft()
                if candidate.set_running_or_notify_cancel():  # False: it gave up waiting
                    waiter = candidate
                    break
            if waiter is None:
                self._idle.append(slot)
                self._returned.notify_all()
        if waiter is not None:
            waiter.set_result(slot)  # outside the lock: its callbacks may release a slot

    def known_long(self, operation: _Operation) -> bool:
        """Whether this query (the same text, dataset and format) ran long before."""
        with self._lock:
            return _operation_key(operation) in self._long_queries

    def remember_long(self, operation: _Operation) -> None:
        """Remember a query that ran long (the last 1,024 such), so that it goes straight to a long
        lane next time, or is refused at once when they are all taken."""
        with self._lock:
            key = _operation_key(operation)
            self._long_queries[key] = None
            self._long_queries.move_to_end(key)
            while len(self._long_queries) > 1024:
                self._long_queries.popitem(last=False)

    def enter_long(self) -> bool:
        """Count one more long query if a long lane is free (``max_concurrent_queries - short_lane``)."""
        with self._lock:
            if self._long >= _long_lanes(self.limits):
                return False
            self._long += 1
            return True

    def leave_long(self) -> None:
        """A long query has ended."""
        with self._lock:
            self._long -= 1

    def take_spare(self) -> tuple[BaseProcess, Connection] | None:
        """A ready worker process, if one waits (and another is then started in the background)."""
        try:
            spare = self._spares.get_nowait()
        except queue.Empty:
            spare = None
        self._want_spare.set()
        return spare

    def _keep_spare(self) -> None:
        """Keep one ready worker process in reserve when workers open the store from disk (cheap:
        the data stays in the shared page cache), so a killed worker is replaced at once."""
        self._want_spare.set()
        while not self.closed:
            self._want_spare.wait()
            self._want_spare.clear()
            if self.closed or self._spares.full():
                continue
            try:
                source = self.dataset()
            except Exception:
                continue
            if source.path is None:
                return  # a copy per spare would cost the whole dataset's memory again
            spare = _spawn_worker(self, "sparql-worker-spare")
            if spare is None:
                time.sleep(1.0)
                self._want_spare.set()
                continue
            if self.closed:
                _reap(*spare)
                return
            self._spares.put(spare)

    def slot_started(self) -> None:
        """Count one slot's first start; the last one (or :meth:`close`) completes ``started``."""
        with self._lock:
            self._starting -= 1
            if self._starting <= 0 and not self.started.done():
                self.started.set_result(None)

    def close(self) -> None:
        """Kill every worker process, reap those of the slots given back (within a few seconds:
        a query's own holder reaps the others), and answer the waiting queries 503."""
        with self._lock:
            self.closed = True
            waiters = list(self._waiters)
            self._waiters.clear()
        self._want_spare.set()
        for slot in self._slots:
            slot.kill()
        while True:
            try:
                _reap(*self._spares.get_nowait())
            except queue.Empty:
                break
        for waiter in waiters:
            if waiter.set_running_or_notify_cancel():
                waiter.set_exception(QueryTimeoutError("The SPARQL endpoint is shutting down; the query was not evaluated."))
        end = time.monotonic() + 5.0
        with self._lock:
            while len(self._idle) < len(self._slots) and self._returned.wait(max(0.0, end - time.monotonic())):
                pass
            idle, self._idle = self._idle, []
        for slot in idle:
            slot.discard()
        with self._lock:
            if not self.started.done():
                self.started.set_result(None)


class _Slot:
    """One worker process, fed one query at a time by whoever holds the slot, and replaced when needed.

    A request holds the slot from :meth:`_Workers.acquire` on: :meth:`run` writes the query (the
    operation and the seconds left) to the process from the request's event loop and awaits the
    reply with :meth:`asyncio.loop.add_reader`, which costs no thread.  A query still running after
    ``limits.long_query_s``, a reply with a large body, a broken pipe or a cancelled request is
    handed to a thread (:meth:`_finish`), which waits until the deadline, answers 503 past it, gives
    the process :data:`KILL_GRACE_S` to report that it stopped by itself, and otherwise kills it
    (SIGKILL).  The holder gives the slot back, or first replaces its process (:meth:`replace`).
    ``_lock`` guards starting and killing the process against :meth:`_Workers.close`, called from
    another thread.
    """

    def __init__(self, workers: _Workers, number: int) -> None:
        self._workers = workers
        self._number = number
        self._lock = threading.Lock()
        self._process: BaseProcess | None = None
        self._connection: Connection | None = None

    def replace(self, first: bool = False) -> None:
        """On a new thread: kill and reap this slot's process, start another, give the slot back.
        ``first``: this is the slot's first start (counted by :meth:`_Workers.slot_started`)."""
        threading.Thread(target=self._replace, args=(first,), name=f"sparql-slot-{self._number}", daemon=True).start()

    def _replace(self, first: bool = False) -> None:
        try:
            self.discard()
            if not self._workers.closed:
                self._start()
        finally:
            self._workers.release(self)
            if first:
                self._workers.slot_started()

    def _start(self) -> None:
        """Take the spare worker process if one is ready, else spawn one and wait until it has
        loaded the dataset (:func:`_spawn_worker`).

        On failure (the dump, the spawn, a worker that dies or takes over
        :data:`WORKER_START_TIMEOUT_S`) the error is logged and the slot stays without a process:
        its next query is answered 500 and the start is tried again after it.
        """
        started = self._workers.take_spare() or _spawn_worker(self._workers, f"sparql-worker-{self._number}")
        if started is None:
            return
        with self._lock:
            if self._workers.closed:
                _reap(*started)
                return
            self._process, self._connection = started

    async def run(self, job: _Job) -> _Answer:
        """Evaluate ``job`` in this slot's process, from the running event loop, and give the slot
        back (or hand it to a thread that will); raises as :meth:`_ProcessPool.evaluate`."""
        workers, limits, connection = self._workers, self._workers.limits, self._connection
        now = time.monotonic()
        remaining = job.deadline - now
        refusal: BaseException | None = None
        if now - job.queued > limits.max_queue_wait_s:
            refusal = EndpointBusyError(_busy_message(limits))  # it waited too long to start
        elif remaining <= 0:
            refusal = QueryTimeoutError(_timeout_message(limits))
        elif connection is None:
            missing = _missing_store(workers.dataset())
            refusal = StoreUnavailableError(missing) if missing else RuntimeError("No SPARQL worker process could be started; see the log.")
        if refusal is not None or connection is None:
            if job.long:
                workers.leave_long()
            if connection is None:
                self.replace()
            else:
                workers.release(self)
            raise refusal or RuntimeError("no worker process")
        if job.long:
            self._nice(19)
        header: tuple[str, dict[str, str]] | None = None
        reply: tuple[str, Any] | None = None
        try:
            connection.send((job.operation, remaining))
            if await _readable(connection, min(remaining, limits.long_query_s)):
                reply = connection.recv()
                if reply[0] == "large":
                    header, reply = reply[1], None  # a large body follows: read on a thread
        except (EOFError, OSError):
            pass  # the process died: the thread finds out, answers, and replaces it
        except BaseException:  # cancelled: the reply is still to come, and the slot with it
            self._hand_over(job, now, None)
            raise
        if reply is not None:
            if job.long:
                workers.leave_long()
                if not self._nice(0):
                    self.replace()  # its priority cannot be raised again: a fresh process takes over
                    return _outcome(*reply)
            elif reply[0] == "answer":
                workers.answers.put(job.operation, reply[1])
            workers.release(self)
            return _outcome(*reply)
        future = self._hand_over(job, now, header)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=max(0.0, job.deadline - time.monotonic()))
        except TimeoutError:
            raise QueryTimeoutError(_timeout_message(limits)) from None

    def _hand_over(self, job: _Job, sent: float, header: tuple[str, dict[str, str]] | None) -> Future[_Answer]:
        """Finish ``job`` on a thread of its own (:meth:`_finish`); the future of its answer."""
        future: Future[_Answer] = Future()
        future.set_running_or_notify_cancel()  # the thread settles it: a waiter that gives up cannot cancel it
        threading.Thread(
            target=self._finish, args=(job, future, sent, header), name=f"sparql-slot-{self._number}", daemon=True
        ).start()
        return future

    def _finish(self, job: _Job, future: Future[_Answer], sent: float, header: tuple[str, dict[str, str]] | None) -> None:
        """On a thread: wait for the reply to ``job`` (sent at ``sent``, monotonic seconds) until its
        deadline, as a long query once ``limits.long_query_s`` has passed; settle ``future``; give
        the slot back, or replace its process first (never raises).  ``header``: the media type and
        headers of a large answer whose body is still in the pipe."""
        workers, limits, connection = self._workers, self._workers.limits, self._connection
        assert connection is not None
        long = job.long  # a query that ran long before holds its lane already
        keep = True
        try:
            try:
                if header is not None:
                    _settle(future, *_kept(workers, job, ("answer", _Answer(connection.recv_bytes(), *header))))
                    keep = not long or self._nice(0)
                    return
                short_left = sent + min(job.deadline - sent, limits.long_query_s) - time.monotonic()
                if connection.poll(max(0.0, short_left)):
                    _settle(future, *_kept(workers, job, _receive(connection)))
                    keep = not long or self._nice(0)
                    return
                left = job.deadline - time.monotonic()
                if left > 0 and not long:
                    # a long query: it may hold one of the long lanes, at a lower CPU priority
                    workers.remember_long(job.operation)
                    if not workers.enter_long():
                        future.set_exception(EndpointBusyError(_lanes_message(limits)))
                        keep = False  # stop it; the spare process takes this slot
                        return
                    long = True
                    self._nice(19)
                if left > 0 and connection.poll(left):
                    _settle(future, *_kept(workers, job, _receive(connection)))
                    keep = self._nice(0)  # False: its priority cannot be raised again, a fresh process takes over
                    return
            except (EOFError, OSError):
                future.set_exception(self._died())
                keep = False
                return
            finally:
                if long:
                    workers.leave_long()
            future.set_exception(QueryTimeoutError(_timeout_message(limits)))
            try:
                if connection.poll(KILL_GRACE_S):
                    _receive(connection)  # it stopped between rows (or finished just too late): keep it
                    keep = not long or self._nice(0)  # at a low priority for good: a fresh process takes over
                    return
            except (EOFError, OSError):
                pass
            log.info("Killing SPARQL worker process %s: its query ran past %g s", self._pid(), limits.timeout_s)
            keep = False
        except BaseException:  # never leave the slot held, nor the request unanswered
            log.exception("A SPARQL slot failed")
            keep = False
            if not future.done():
                future.set_exception(RuntimeError("SPARQL evaluation failed; see the log."))
        finally:
            if keep:
                workers.release(self)
            else:
                self._replace()

    def _died(self) -> YiliError:
        """The error for a query whose process ended under it; the process is reaped."""
        code = self.discard()
        if self._workers.closed:
            return QueryTimeoutError("The SPARQL endpoint is shutting down; the query was not finished.")
        how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
        log.error("A SPARQL worker process died during a query (%s); starting another", how)
        return EvaluationCrashedError(
            f"The worker process evaluating this query died ({how}): it needed more than its memory cap "
            "(SparqlLimits.max_worker_memory_bytes), or the query engine crashed; it has been replaced. Large "
            "joins and sorts (a cross product ordered by its variables), very deep nesting or very long chains "
            "can do this: narrow or simplify the query."
        )

    def _pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _nice(self, value: int) -> bool:
        """Set the CPU priority (``nice``) of every thread of this slot's process; False if not
        allowed (raising it back needs privileges) or the process is gone.

        Linux keeps a priority per thread, and ``setpriority`` on a process id sets only its main
        thread's, not that of the thread evaluating the query: so each thread listed in
        ``/proc/<pid>/task`` is set (elsewhere, the process id alone)."""
        pid = self._pid()
        if pid is None:
            return False
        try:
            threads = sorted(int(tid) for tid in os.listdir(f"/proc/{pid}/task"))
        except (OSError, ValueError):
            threads = [pid]
        try:
            for tid in threads:
                os.setpriority(os.PRIO_PROCESS, tid, value)
            return True
        except (OSError, AttributeError):
            return False

    def kill(self) -> None:
        """Kill this slot's process (SIGKILL) now; its holder notices, reaps it and goes on."""
        with self._lock:
            if self._process is not None:
                self._process.kill()

    def discard(self) -> int | None:
        """Kill and reap this slot's process, if any, and close the pipe to it (by the slot's holder).

        Returns the process's exit code (negative: the signal that ended it), or None if there was
        no process or it could not be reaped.
        """
        with self._lock:
            process, connection = self._process, self._connection
            self._process = self._connection = None
        code = None
        if process is not None:
            process.kill()  # a no-op if it has already ended
            process.join(timeout=10)
            code = process.exitcode
            if code is not None:
                process.close()
        if connection is not None:
            connection.close()
        return code


async def _readable(connection: Connection, timeout_s: float) -> bool:
    """Whether ``connection`` has something to read (a reply, or the end of a dead process's pipe)
    within ``timeout_s`` seconds, awaited on the running event loop without a thread."""
    loop = asyncio.get_running_loop()
    fd = connection.fileno()
    ready: asyncio.Future[bool] = loop.create_future()

    def wake(value: bool) -> None:
        if not ready.done():
            ready.set_result(value)

    try:
        loop.add_reader(fd, wake, True)
    except NotImplementedError:  # an event loop that cannot watch pipes (Windows' proactor)
        return await asyncio.to_thread(connection.poll, timeout_s)
    timer = loop.call_later(timeout_s, wake, False)
    try:
        return await ready
    finally:
        timer.cancel()
        loop.remove_reader(fd)
        os.set_blocking(fd, True)  # uvloop leaves a watched descriptor non-blocking; the pipe's reads block


def _receive(connection: Connection) -> tuple[str, Any]:
    """A worker's reply as :func:`_settle` takes it, a large answer's body read after its header."""
    tag, detail = connection.recv()
    if tag == "large":
        return "answer", _Answer(connection.recv_bytes(), *detail)
    return tag, detail


def _outcome(tag: str, detail: Any) -> _Answer:
    """The answer in a worker's reply, or the error it reports raised (see :func:`_settle`)."""
    future: Future[_Answer] = Future()
    _settle(future, tag, detail)
    return future.result()


@dataclass(frozen=True)
class _Source:
    """Where a worker process gets the dataset: the folder of an on-disk store it opens read-only
    (``path``), or an N-Quads dump it loads into its own in-memory store (``nquads``)."""

    path: str | None = None
    nquads: bytes | None = None


def _missing_store(source: _Source) -> str | None:
    """Why the on-disk store a worker opens is gone (moved or deleted while served), or None."""
    if source.path is None or (Path(source.path) / "CURRENT").is_file():
        return None
    return (
        f"The store {source.path} that this endpoint serves cannot be opened: it was moved or deleted while "
        "served. Put it back, or restart the server on another (yili-kg serve --store DIR)."
    )


def _spawn_worker(workers: _Workers, name: str) -> tuple[BaseProcess, Connection] | None:
    """Spawn a worker process, give it the dataset and wait until it is ready; None on failure
    (logged), with the process reaped."""
    try:
        source = workers.dataset()
    except Exception:
        log.exception("Cannot dump the store for the SPARQL worker processes")
        return None
    parent_end, child_end = _SPAWN.Pipe()
    process = _SPAWN.Process(
        target=_worker_main,
        args=(child_end, workers.limits, os.getpid()),
        name=name,
        daemon=True,  # multiprocessing terminates daemonic children at exit, should all else fail
    )
    if workers.closed:
        parent_end.close()
        child_end.close()
        return None
    try:
        process.start()
    except Exception:
        log.exception("Cannot start a SPARQL worker process")
        parent_end.close()
        child_end.close()
        return None
    child_end.close()
    watchdog = threading.Timer(WORKER_START_TIMEOUT_S, process.kill)
    watchdog.daemon = True
    watchdog.start()
    try:
        if source.path is not None:
            parent_end.send(("path", source.path))
        else:
            parent_end.send(("nquads", None))
            parent_end.send_bytes(source.nquads or b"")
        tag, detail = parent_end.recv()
    except (EOFError, OSError):
        tag, detail = "failed", "the process ended before it was ready"
    finally:
        watchdog.cancel()
    if tag != "ready":
        missing = _missing_store(source)
        if missing is not None:
            if not workers.said_missing:  # one line, not one traceback per worker and spare
                workers.said_missing = True
                log.error("SPARQL worker processes cannot start: %s", missing)
        elif not workers.closed:
            log.error("A SPARQL worker process failed to start: %s", detail)
        _reap(process, parent_end)
        return None
    return process, parent_end


def _reap(process: BaseProcess, connection: Connection) -> None:
    """Kill a worker process, wait for it and close the pipe to it."""
    process.kill()
    process.join(timeout=10)
    if process.exitcode is not None:
        process.close()
    connection.close()


def _kept(workers: _Workers, job: _Job, reply: tuple[str, Any]) -> tuple[str, Any]:
    """``reply``, unchanged, after keeping it in ``workers.answers`` when it is an answer."""
    if reply[0] == "answer":
        workers.answers.put(job.operation, reply[1])
    return reply


def _settle(future: Future[_Answer], tag: str, detail: Any) -> None:
    """Complete ``future`` with a worker's reply: ``("answer", _Answer)``, ``("error", report)``
    (the name, kind, status and message of a :class:`YiliError`) or ``("failed", traceback text)``."""
    if tag == "answer":
        future.set_result(detail)
    elif tag == "error":
        name, kind, status, message = detail
        error = _ERRORS_BY_NAME.get(name, YiliError)(message)
        error.kind, error.status = kind, status
        future.set_exception(error)
    else:
        log.error("SPARQL evaluation failed in a worker process:\n%s", detail)
        future.set_exception(RuntimeError("SPARQL evaluation failed; see the log."))










class _ThreadPool:
    """A few daemon threads of the server that evaluate queries off the event loop.

    Daemon threads, so a query Oxigraph cannot interrupt never holds up the process at exit.
    """

    def __init__(self, get_store: Callable[[], pyoxigraph.Store], limits: SparqlLimits) -> None:
        self._get_store = get_store
        self._limits = limits
        self._jobs: queue.SimpleQueue[tuple[Callable[[], _Answer], Future[_Answer]]] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def _submit(self, job: Callable[[], _Answer]) -> Future[_Answer]:
        future: Future[_Answer] = Future()
        with self._lock:
            if len(self._threads) < self._limits.max_concurrent_queries:
                thread = threading.Thread(target=self._work, name=f"sparql-worker-{len(self._threads)}", daemon=True)
                _start_with_large_stack(thread)
                self._threads.append(thread)
        self._jobs.put((job, future))
        return future

    def _work(self) -> None:
        while True:
            job, future = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except YiliError as error:
                _release_frames(error)
                future.set_exception(error)
            except Exception as error:
                log.exception("SPARQL evaluation failed")
                _release_frames(error)
                future.set_exception(RuntimeError("SPARQL evaluation failed; see the log."))

    async def evaluate(self, operation: _Operation) -> _Answer:
        """Evaluate ``operation`` on a worker thread within ``limits.timeout_s``.

        Raises
        ------
        QueryTimeoutError
            The budget ran out (the worker is told to stop at its next result row).
        YiliError
            Whatever :func:`_evaluate` raises.
        """
        limits = self._limits
        deadline = time.monotonic() + limits.timeout_s
        stop = threading.Event()
        future = self._submit(lambda: _evaluate(self._get_store, operation, limits, deadline, stop))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=limits.timeout_s)
        except TimeoutError:
            raise QueryTimeoutError(_timeout_message(limits)) from None
        finally:
            if not future.done():
                stop.set()

    def close(self) -> None:
        """Nothing to stop: the threads are daemons, and a running query cannot be interrupted."""






def _release_frames(error: BaseException) -> None:
    """Clear the frames held by ``error`` and the errors chained to it, here on the worker thread.

    Those frames hold pyoxigraph's result iterators, which are bound to the thread that made them
    and must not be released on another one (the event loop's, which receives the error).
    """
    pending: list[BaseException] = [error]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current.__traceback__ is not None:
            traceback.clear_frames(current.__traceback__)
            current.__traceback__ = None
        pending.extend(chained for chained in (current.__cause__, current.__context__) if chained)






def _long_lanes(limits: SparqlLimits) -> int:
    """How many long queries may run at once: every worker but the short lane, and at least one."""
    return max(1, limits.max_concurrent_queries - limits.short_lane)


def _busy_message(limits: SparqlLimits) -> str:
    return (
        f"The SPARQL endpoint is busy: no worker was free within {limits.max_queue_wait_s:g} s "
        f"(SparqlLimits.max_queue_wait_s); the query was not evaluated. Send it again after the Retry-After delay."
    )


def _lanes_message(limits: SparqlLimits, known: bool = False) -> str:
    lanes = _long_lanes(limits)
    what = (
        f"this query ran past {limits.long_query_s:g} s before" if known else f"this query ran past {limits.long_query_s:g} s"
    )
    done = "it was not evaluated" if known else "it was stopped"
    return (
        f"The SPARQL endpoint is busy: {what} while {lanes} long queries were already running "
        f"(SparqlLimits.short_lane keeps {limits.short_lane} worker(s) for short queries); {done}. "
        "Send it again after the Retry-After delay, or narrow it."
    )


def _operation_key(operation: _Operation) -> tuple[object, ...]:
    """What makes two queries the same for the long-query memory: text, dataset and format."""
    return (operation.query, operation.default_graphs, operation.named_graphs, operation.accept, operation.format)


_CHANGING = re.compile(r"(?<![A-Za-z0-9_])(?:NOW|RAND|UUID|STRUUID|BNODE)(?![A-Za-z0-9_])", re.IGNORECASE)
_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def _may_change(query: str) -> bool:
    r"""Whether two evaluations of ``query`` on the same store may give different answers: whether it
    may call ``NOW``, ``RAND``, ``UUID``, ``STRUUID`` or ``BNODE`` (SPARQL 1.1 Query, sections
    17.4.3.10, 17.4.5.1 and 17.4.2.8-9: the functions whose value is new at each evaluation).

    Decided on the raw text, conservatively: ``\u``/``\U`` escapes are decoded first (SPARQL 1.1
    Query, section 19.2, allows them anywhere in a query), then any of those names standing as a
    word (any case; not inside a longer run of ASCII letters, digits and ``_``) counts, even in a
    string, a comment, an IRI or a variable name.  A false alarm only costs the cache a query; a
    miss would serve a stale answer, so there is none: every call of those functions is written
    with its name as such a word.

    >>> _may_change("SELECT (rand() AS ?r) {}")
    True
    >>> _may_change("SELECT (\\u004Eow() AS ?t) {}")
    True
    >>> _may_change("SELECT ?known ?brand WHERE { ?s ?p ?known }")
    False
    """

    def decode(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code < 0x110000 else match.group(0)

    decoded = _ESCAPE.sub(decode, query)
    return _CHANGING.search(decoded) is not None


class _AnswerCache:
    """The answers a server keeps (``SparqlLimits.answer_cache_bytes``), by operation (text, dataset
    and format: :func:`_operation_key`), the least recently used dropped first.

    Thread-safe.  Kept: whole answers (no header, so never a truncated one) of at most 1/16 of the
    bound each, to operations :func:`_may_change` does not flag.  The store must be read-only for
    as long as the cache lives (one :class:`_Workers`).
    """

    def __init__(self, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        self._bytes = 0
        self._answers: OrderedDict[tuple[object, ...], _Answer] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, operation: _Operation) -> _Answer | None:
        """The answer kept for ``operation``, or None."""
        if not self._answers:
            return None
        with self._lock:
            key = _operation_key(operation)
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
            return answer

    def put(self, operation: _Operation, answer: _Answer) -> None:
        """Keep ``answer`` to ``operation`` if it may be kept (see the class)."""
        size = len(answer.body)
        if answer.headers or size > self._max_bytes // 16 or _may_change(operation.query):
            return
        with self._lock:
            key = _operation_key(operation)
            old = self._answers.pop(key, None)
            if old is not None:
                self._bytes -= len(old.body)
            self._answers[key] = _Answer(answer.body, answer.media_type, {})
            self._bytes += size
            while self._bytes > self._max_bytes:
                _, dropped = self._answers.popitem(last=False)
                self._bytes -= len(dropped.body)
