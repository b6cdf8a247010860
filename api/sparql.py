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

Hostile input is bounded by :class:`SparqlLimits`.  Queries are evaluated in worker processes
(``SparqlLimits.isolation = "process"``, the default: pebble's ``ProcessPool`` under our policy of
turns, long-query lanes and an answer cache, :mod:`yili.api.sparql_pool`), which can be killed when
a query runs past its budget, or on threads of the server (``"thread"``).  Nothing is evaluated on
the event loop, and with ``"process"`` nothing in the server process but the queries whose parsed
form proves them cheap (:func:`yili.api.sparql_cheap.is_cheap`), on its threads.

Oxigraph's parser and planner recurse on nested and chained syntax, and a stack overflow in Rust
ends the whole process (with the default 8 MiB thread stack, 3,000 nested ``{`` already do).  So
queries are evaluated on threads with 256 MiB stacks (:data:`WORKER_STACK_BYTES`, address space
reserved, not memory used), in the worker processes as in the server, and a query may hold at most
``SparqlLimits.max_brackets`` brackets, counted in the raw text, where no string or comment can hide
them.  Long chains without brackets (thousands of triple patterns or path steps) are bounded only by
that stack, ``max_query_length`` and the time budget.

``SERVICE`` (federated query) is refused before Oxigraph sees the query, because Oxigraph would
otherwise call the remote endpoint over HTTP.  The check is made on the parsed query (rdflib's SPARQL
parser, :func:`has_service`): the word in a string, an IRI, a comment, a variable or a prefixed name
is not a clause.  A query that parser cannot read is judged conservatively: any ``service`` outside
a variable name or a prefixed name's local part is refused; write such a word with an escape
(``"\\u0073ervice"``) to get past it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pyoxigraph
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.routing import Route
from yili.api.sparql_eval import (  # the evaluation side, which worker processes import alone
    GRAPH_FORMATS,
    RESULTS_FORMATS,
    TRUNCATED_HEADER,
    Operation,
    SparqlLimits,
    media_ranges,
)
from yili.api.sparql_pool import KILL_GRACE_S, WORKER_START_TIMEOUT_S, ProcessPool, ThreadPool, may_change, release_frames
from yili.api.sparql_text import (
    DATASET_PARAMETERS,
    GET_PARAMETERS,
    POST_BODY,
    SERVICE_WORD,
    SPARQL_RESPONSES,
    count_brackets,
    has_service,
)
from yili.ontology.errors import (
    EndpointBusyError,
    EvaluationCrashedError,
    MethodNotAllowedError,
    NotAcceptableError,
    QueryError,
    ReadOnlyError,
    RequestTooLargeError,
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
    "KILL_GRACE_S",
    "WORKER_START_TIMEOUT_S",
    "may_change",
    "release_frames",
]

log = logging.getLogger(__name__)

FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
QUERY_MEDIA_TYPE = "application/sparql-query"
UPDATE_MEDIA_TYPE = "application/sparql-update"
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
        cache, and one started in place of a killed one is ready in a fraction of a second) instead
        of loading its own copy from an N-Quads dump.
    query_page : callable () -> Response, optional
        The HTML page answered to ``GET /sparql`` with no ``query`` when ``Accept`` names
        ``text/html`` (a browser): a query form.  Without it such a request is refused as before.
    evaluator : object, optional
        What evaluates the operations instead of the worker pool ``limits.isolation`` names: an
        object with ``async evaluate(operation) -> QueryAnswer`` and ``close()``
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
        pool = ProcessPool(get_store, limits, store_path) if limits.isolation == "process" else ThreadPool(get_store, limits)

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
            [f.media_type for f in RESULTS_FORMATS] + [f.media_type for f in GRAPH_FORMATS],
            named_graphs,
            # without FROM or dataset parameters the default graph is the union (see _dataset)
            union_default_graph=True,
        )
        body = graph.serialize(format=SERIALIZATIONS[media_type], encoding="utf-8")
        return Response(body, media_type=media_type, headers={"Vary": "Accept"})

    async def answer(request: Request) -> Response:
        try:
            operation = await read_operation(request, limits)
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

    operations: dict[tuple[object, ...], Operation] = {}  # read and checked, by what they were read from
    operations_lock = threading.Lock()
    base_iris: dict[tuple[object, ...], str] = {}  # the base IRI of a request, by what its URL is made of

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
            # the query string read as Starlette's QueryParams reads it, without a Request
            fields = urllib.parse.parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
            if not any(name == "query" for name, _ in fields):
                response = await sparql_get(Request(scope, receive))
                await response(scope, receive, send)
                return
            where = key[2:]  # what the request's URL is made of, but its query string
            base = base_iris.get(where)
            if base is None:
                base = str(Request(scope, receive).url.replace(query="", fragment=""))
                with operations_lock:
                    if len(base_iris) >= _OPERATIONS_KEPT:
                        base_iris.clear()
                    base_iris[where] = base
            try:
                operation = await operation_from_fields(fields, None, limits, base, accept.decode("latin-1") if accept else "")
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
        responses=SPARQL_RESPONSES,
        openapi_extra={"parameters": GET_PARAMETERS + DATASET_PARAMETERS},
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
        responses=SPARQL_RESPONSES,
        openapi_extra={"parameters": DATASET_PARAMETERS, "requestBody": POST_BODY},
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


async def read_operation(request: Request, limits: SparqlLimits) -> Operation:
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
    return await operation_from_fields(
        fields, direct_query, limits, str(request.url.replace(query="", fragment="")), request.headers.get("accept", "")
    )


async def operation_from_fields(
    fields: list[tuple[str, str]], direct_query: str | None, limits: SparqlLimits, base_iri: str, accept: str
) -> Operation:
    """The operation of a request whose parameters are read: ``fields``, the (name, value) pairs of its
    query string and form body, percent-decoded, in order; ``direct_query``, the body of a POST of
    ``application/sparql-query`` (or None); ``base_iri``, the request's URL without query or fragment;
    ``accept``, its ``Accept`` header ("" when absent).  Checks the query as :func:`read_operation`
    documents (the same errors, raised here)."""
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
    brackets = count_brackets(query)
    if brackets > limits.max_brackets:
        raise RequestTooLargeError(
            f"The query holds {brackets:,} brackets; the limit is {limits.max_brackets:,} (SparqlLimits.max_brackets)."
        )
    # the word is rare: only a query that has it is parsed, off the event loop
    if SERVICE_WORD.search(query) and await asyncio.to_thread(has_service, query):
        raise QueryError(
            "SERVICE (federated query) is not allowed: this endpoint never calls other services. "
            "If the word 'service' is only inside a string, an IRI or a comment of a query our parser "
            "could not read, write it with an escape such as \\u0073ervice."
        )
    formats = _values(fields, "format")
    return Operation(
        query=query,
        default_graphs=tuple(_values(fields, "default-graph-uri")),
        named_graphs=tuple(_values(fields, "named-graph-uri")),
        base_iri=base_iri,
        accept=accept,
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
