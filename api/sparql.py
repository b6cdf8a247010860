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
  ``rdfxml``, ``jsonld`` or a media type) overrides it.  Parsing, evaluation and every serialisation
  are pyoxigraph's own.

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
503     ``timeout``                 the query ran past its time budget
======  ==========================  ========================================================

The router catches its own errors (the project's :class:`~yili.ingest.errors.YiliError` family) and
answers them itself, so it registers nothing on the application and works on its own.

Hostile input is bounded by :class:`SparqlLimits`.  Queries are evaluated on a small pool of worker
threads (pyoxigraph releases the GIL while it evaluates), so a slow query never stalls the event
loop.  Oxigraph cannot interrupt a query in the middle of one evaluation step (planning, a sort, an
aggregate): the request is answered with 503 when the budget runs out, and the worker stops at the
next result row; meanwhile it keeps its slot, which is why the pool is small and bounded.  Some
small queries keep a worker busy far past the budget (on an empty store, a group of some 300
triple patterns, a path of 1,000 steps or 400 nested collections each take Oxigraph 25 s or more);
only evaluation in a separate process, which can be killed, would bound those.

Oxigraph's parser and planner recurse on nested and chained syntax, and a stack overflow in Rust
ends the whole process (with the default 8 MiB thread stack, 3,000 nested ``{`` already do).  So the
workers run on 256 MiB stacks (:data:`WORKER_STACK_BYTES`, address space reserved, not memory used)
and a query may hold at most ``SparqlLimits.max_brackets`` brackets, counted in the raw text, where
no string or comment can hide them.  Long chains without brackets (thousands of triple patterns or
path steps) are bounded only by that stack and ``max_query_length``; they take minutes to evaluate.

``SERVICE`` (federated query) is refused before Oxigraph sees the query, because Oxigraph would
otherwise call the remote endpoint over HTTP.  The check is lexical and deliberately conservative: any
``service`` that is not inside a variable name or the local part of a prefixed name is refused, even
inside a string, an IRI or a comment; write such a word with an escape (``"\\u0073ervice"``,
``<http://example.org/\\u0073ervice>``) to get past it.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import re
import threading
import time
import traceback
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

import pyoxigraph
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pyoxigraph import QueryBoolean, QueryResultsFormat, QuerySolutions, RdfFormat
from yili.ingest.errors import QueryError, QueryTimeoutError, RequestTooLargeError, YiliError

__all__ = [
    "MethodNotAllowedError",
    "NotAcceptableError",
    "ReadOnlyError",
    "SparqlLimits",
    "UnsupportedMediaTypeError",
    "make_sparql_router",
]

log = logging.getLogger(__name__)

FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
QUERY_MEDIA_TYPE = "application/sparql-query"
UPDATE_MEDIA_TYPE = "application/sparql-update"
TRUNCATED_HEADER = "X-SPARQL-Results-Truncated"
WORKER_STACK_BYTES = 256 * 1024 * 1024
"""Stack of each worker thread: room for Oxigraph's recursion on ``SparqlLimits.max_brackets``."""


# --------------------------------------------------------------------------------------------------
# Limits and errors


@dataclass(frozen=True)
class SparqlLimits:
    """Bounds on what one request may cost the endpoint.

    Parameters
    ----------
    max_query_length : int, default 100_000
        Longest query accepted, in characters (after form decoding); longer: 413 ``too_large``.
    max_body_bytes : int, default 1_000_000
        Largest POST body read, in bytes; larger (by ``Content-Length`` or as it streams in): 413.
    timeout_s : float, default 10.0
        Time budget per query in seconds, from the moment the request is queued for evaluation to
        the last byte serialised; past it: 503 ``timeout``, with a message naming this limit.
    max_rows : int, default 100_000
        Most solutions (``SELECT``) or triples (``CONSTRUCT`` / ``DESCRIBE``) one answer may hold.
    truncate_results : bool, default False
        What happens past ``max_rows``: ``False`` answers 413 ``too_large`` (a client never mistakes
        a partial answer for a whole one); ``True`` answers 200 with the first ``max_rows`` rows and
        the header ``X-SPARQL-Results-Truncated: <max_rows>``.
    max_brackets : int, default 10_000
        Most brackets (``{ ( [ <``, counted in the raw text) a query may hold; more: 413.  Nesting
        depth cannot exceed it, so with :data:`WORKER_STACK_BYTES` of stack Oxigraph's recursive
        parser cannot overflow (it needs about 4 KiB per level, 40 MiB at this bound).
    max_concurrent_queries : int, default 4
        Worker threads evaluating queries; further queries wait for a free worker, and the wait
        counts against their time budget.

    Raises
    ------
    ValueError
        If a bound is not positive.

    Examples
    --------
    >>> SparqlLimits().max_rows
    100000
    >>> SparqlLimits(timeout_s=2.5).timeout_s
    2.5
    """

    max_query_length: int = 100_000
    max_body_bytes: int = 1_000_000
    timeout_s: float = 10.0
    max_rows: int = 100_000
    truncate_results: bool = False
    max_brackets: int = 10_000
    max_concurrent_queries: int = 4

    def __post_init__(self) -> None:
        bounds = ("max_query_length", "max_body_bytes", "timeout_s", "max_rows", "max_brackets")
        for name in (*bounds, "max_concurrent_queries"):
            if not getattr(self, name) > 0:
                raise ValueError(f"SparqlLimits.{name} must be positive, not {getattr(self, name)!r}")


class ReadOnlyError(QueryError):
    """A SPARQL Update was sent to the read-only endpoint (HTTP 403)."""

    kind = "read_only"
    status = 403


class UnsupportedMediaTypeError(QueryError):
    """A POST body is neither a form nor a SPARQL query, or is not UTF-8 (HTTP 415)."""

    kind = "unsupported_media_type"
    status = 415


class NotAcceptableError(QueryError):
    """No format the endpoint offers satisfies ``Accept`` or ``format=`` (HTTP 406)."""

    kind = "not_acceptable"
    status = 406


class MethodNotAllowedError(QueryError):
    """The protocol's query operation takes GET and POST only (HTTP 405)."""

    kind = "method_not_allowed"
    status = 405


def _error_response(error: YiliError) -> JSONResponse:
    """The JSON answer ``{"error": kind, "message": text}`` for one of the project's errors."""
    headers = {"Allow": "GET, POST"} if isinstance(error, MethodNotAllowedError) else None
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
        "turtle, ntriples, rdfxml, jsonld (CONSTRUCT, DESCRIBE).",
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
    503: {"description": "The query ran past its time budget", "content": _ERROR_SCHEMA},
}


def make_sparql_router(get_store: Callable[[], pyoxigraph.Store], *, limits: SparqlLimits | None = None) -> APIRouter:
    """Build the router of the read-only SPARQL 1.1 Protocol endpoint at ``/sparql``.

    Parameters
    ----------
    get_store : callable () -> pyoxigraph.Store
        Returns the store to query; called once per query, on a worker thread.
    limits : SparqlLimits, optional
        Bounds on each request; :class:`SparqlLimits` defaults if omitted.

    Returns
    -------
    fastapi.APIRouter
        Routes ``GET /sparql`` and ``POST /sparql`` (the protocol's query operation), and a JSON 405
        for other methods.  Every error is answered as JSON by the router itself; nothing is
        registered on the application.

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
    pool = _WorkerPool(limits.max_concurrent_queries)
    router = APIRouter(tags=["SPARQL"])

    async def answer(request: Request) -> Response:
        try:
            operation = await _read_operation(request, limits)
            return await pool.evaluate(get_store, operation, limits)
        except YiliError as error:
            return _error_response(error)
        except Exception:  # a fault of ours, never of the input: log it, answer without a traceback
            log.exception("SPARQL endpoint failed on %s %s", request.method, request.url.path)
            return JSONResponse(
                {"error": "internal", "message": "The SPARQL endpoint failed; the error has been logged."},
                500,
            )

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
        """
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
        return _error_response(MethodNotAllowedError(f"The SPARQL endpoint takes GET and POST, not {request.method}."))

    return router


# --------------------------------------------------------------------------------------------------
# Reading the request (protocol section 2.1)


@dataclass(frozen=True)
class _Operation:
    """One query operation, read from the request and checked, ready to evaluate."""

    query: str
    default_graphs: tuple[str, ...]
    named_graphs: tuple[str, ...]
    base_iri: str
    accept: str
    format: str | None


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
            shown = f"'{media_type}'" if media_type else "no Content-Type"
            raise UnsupportedMediaTypeError(
                f"A POST to the SPARQL endpoint needs Content-Type {FORM_MEDIA_TYPE} (query=...) or "
                f"{QUERY_MEDIA_TYPE} (the query itself), not {shown}."
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
    if _mentions_service(query):
        raise QueryError(
            "SERVICE (federated query) is not allowed: this endpoint never calls other services. "
            "If the word 'service' is only inside a string, an IRI or a comment, write it with an "
            "escape such as \\u0073ervice."
        )
    formats = _values(fields, "format")
    return _Operation(
        query=query,
        default_graphs=tuple(_values(fields, "default-graph-uri")),
        named_graphs=tuple(_values(fields, "named-graph-uri")),
        base_iri=str(request.url.replace(query="", fragment="")),
        accept=request.headers.get("accept", ""),
        format=formats[-1] if formats else None,
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


# Comments, IRIs and strings, in the order a SPARQL lexer tries them (SPARQL 1.1 Query, 19.8).
_IRIREF = r"""<(?:[^<>"{}|^`\\\x00-\x20]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>"""
_STRING = (
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
)
_OPAQUE = re.compile(rf"(?P<comment>#[^\n\r]*)|(?P<iri>{_IRIREF})|(?P<string>{_STRING})", re.DOTALL)
_FROM = re.compile(r"(?<![\w:?$@.\-])FROM(?:\s+NAMED)?\s*(?:<>|[\w.\-]*:)", re.IGNORECASE)


def _declares_dataset(query: str) -> bool:
    """Whether the query has a ``FROM`` or ``FROM NAMED`` clause (SPARQL 1.1 Query, section 13.2).

    Comments, IRIs and strings are blanked first, so ``"quoted from the commentary"`` does not count.
    Used only to decide whether the default graph is the union of all graphs; a wrong guess changes
    which graph is queried, never what the endpoint is allowed to do.

    >>> _declares_dataset("SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }")
    True
    >>> _declares_dataset('SELECT * WHERE { ?s ?p "from" } # FROM <x>')
    False
    """

    def blank(match: re.Match[str]) -> str:
        return " " if match.lastgroup == "comment" else "<>" if match.lastgroup == "iri" else '""'

    return _FROM.search(_OPAQUE.sub(blank, query)) is not None


# --------------------------------------------------------------------------------------------------
# Content negotiation (SPARQL 1.1 Protocol 2.1.6; RFC 9110 section 12.5.1)


_RESULTS_FORMATS: tuple[QueryResultsFormat, ...] = (
    QueryResultsFormat.JSON,
    QueryResultsFormat.XML,
    QueryResultsFormat.CSV,
    QueryResultsFormat.TSV,
)
_RESULTS_NAMES: dict[str, QueryResultsFormat] = {
    "json": QueryResultsFormat.JSON,
    "srj": QueryResultsFormat.JSON,
    "xml": QueryResultsFormat.XML,
    "srx": QueryResultsFormat.XML,
    "csv": QueryResultsFormat.CSV,
    "tsv": QueryResultsFormat.TSV,
}
_GRAPH_FORMATS: tuple[RdfFormat, ...] = (
    RdfFormat.TURTLE,
    RdfFormat.N_TRIPLES,
    RdfFormat.RDF_XML,
    RdfFormat.JSON_LD,
)
_GRAPH_NAMES: dict[str, RdfFormat] = {
    "turtle": RdfFormat.TURTLE,
    "ttl": RdfFormat.TURTLE,
    "ntriples": RdfFormat.N_TRIPLES,
    "n-triples": RdfFormat.N_TRIPLES,
    "nt": RdfFormat.N_TRIPLES,
    "rdfxml": RdfFormat.RDF_XML,
    "rdf+xml": RdfFormat.RDF_XML,
    "rdf": RdfFormat.RDF_XML,
    "xml": RdfFormat.RDF_XML,
    "jsonld": RdfFormat.JSON_LD,
    "json-ld": RdfFormat.JSON_LD,
    "json": RdfFormat.JSON_LD,
}

_Format = TypeVar("_Format", QueryResultsFormat, RdfFormat)


def _negotiate(
    accept: str,
    format_name: str | None,
    offered: Sequence[_Format],
    names: Mapping[str, _Format],
    from_media_type: Callable[[str], _Format | None],
    what: str,
) -> _Format:
    """Choose the answer's format: ``format=`` if given, else the best match for ``Accept``.

    Each offered format gets the q-value of the most specific media range that matches it (exact,
    then ``type/*``, then ``*/*``); the highest q wins, then the most specific range, then the order
    of ``offered`` (whose first entry is the default, also used when ``Accept`` is absent).

    Raises
    ------
    NotAcceptableError
        ``format=`` names nothing offered for this query form, or ``Accept`` excludes every offer.
    """
    if format_name is not None and format_name.strip():
        key = format_name.strip().lower()
        chosen = names.get(key) or (_lookup(from_media_type, key) if "/" in key else None)
        if chosen is not None and chosen in offered:
            return chosen
        raise NotAcceptableError(f"format={format_name!r} is not available for {what}; use one of: {', '.join(names)}.")
    ranges = _media_ranges(accept)
    if not ranges:
        return offered[0]
    best: tuple[float, int, int] | None = None
    chosen_format: _Format | None = None
    for position, offer in enumerate(offered):
        offer_type = offer.media_type.split(";")[0].split("/")[0]
        match: tuple[int, float] | None = None  # (specificity, q) of the most specific range
        for media_range, q in ranges:
            if media_range == "*/*":
                specificity = 1
            elif media_range.endswith("/*"):
                if media_range[:-2] != offer_type:
                    continue
                specificity = 2
            elif _lookup(from_media_type, media_range) == offer:
                specificity = 3
            else:
                continue
            if match is None or (specificity, q) > match:
                match = (specificity, q)
        if match is None or match[1] <= 0:
            continue
        rank = (match[1], match[0], -position)
        if best is None or rank > best:
            best, chosen_format = rank, offer
    if chosen_format is None:
        offers = ", ".join(offer.media_type.split(";")[0] for offer in offered)
        raise NotAcceptableError(f"Accept: {accept!r} allows no format offered for {what} ({offers}).")
    return chosen_format


def _lookup(from_media_type: Callable[[str], _Format | None], media_type: str) -> _Format | None:
    """pyoxigraph's format for a media type (with its aliases), or None."""
    try:
        return from_media_type(media_type)
    except (ValueError, TypeError):
        return None


def _media_ranges(accept: str) -> list[tuple[str, float]]:
    """The ``(media range, q)`` pairs of an Accept header; ranges with a malformed q are dropped.

    >>> _media_ranges("text/csv;q=0.5, application/sparql-results+json")
    [('text/csv', 0.5), ('application/sparql-results+json', 1.0)]
    """
    ranges = []
    for part in accept.split(","):
        media_range, *parameters = part.split(";")
        media_range = media_range.strip().lower()
        if "/" not in media_range:
            continue
        q = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = min(max(float(value.strip()), 0.0), 1.0)
                except ValueError:
                    q = -1.0
        if q >= 0:
            ranges.append((media_range, q))
    return ranges


# --------------------------------------------------------------------------------------------------
# Evaluation, on a worker thread


@dataclass(frozen=True)
class _Answer:
    """A serialised answer: body bytes, media type and extra headers."""

    body: bytes
    media_type: str
    headers: dict[str, str]


class _WorkerPool:
    """A few daemon threads that evaluate queries off the event loop.

    Daemon threads, so a query Oxigraph cannot interrupt never holds up the process at exit.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._jobs: queue.SimpleQueue[tuple[Callable[[], _Answer], Future[_Answer]]] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def _submit(self, job: Callable[[], _Answer]) -> Future[_Answer]:
        future: Future[_Answer] = Future()
        with self._lock:
            if len(self._threads) < self._size:
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

    async def evaluate(self, get_store: Callable[[], pyoxigraph.Store], operation: _Operation, limits: SparqlLimits) -> Response:
        """Evaluate ``operation`` on a worker within ``limits.timeout_s``; the HTTP answer.

        Raises
        ------
        QueryTimeoutError
            The budget ran out (the worker is told to stop at its next result row).
        YiliError
            Whatever :func:`_evaluate` raises.
        """
        deadline = time.monotonic() + limits.timeout_s
        stop = threading.Event()
        future = self._submit(lambda: _evaluate(get_store, operation, limits, deadline, stop))
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), timeout=limits.timeout_s)
        except TimeoutError:
            raise QueryTimeoutError(_timeout_message(limits)) from None
        finally:
            if not future.done():
                stop.set()
        headers = {"Vary": "Accept", **answer.headers}
        return Response(answer.body, media_type=answer.media_type, headers=headers)


_STACK_SIZE_LOCK = threading.Lock()


def _start_with_large_stack(thread: threading.Thread) -> None:
    """Start ``thread`` with a :data:`WORKER_STACK_BYTES` stack (the default elsewhere is unchanged).

    :func:`threading.stack_size` is process-wide, so it is set just for this start and restored.
    """
    with _STACK_SIZE_LOCK:
        try:
            previous = threading.stack_size(WORKER_STACK_BYTES)
        except (ValueError, RuntimeError):  # a platform that cannot size thread stacks
            thread.start()
            return
        try:
            thread.start()
        finally:
            threading.stack_size(previous)


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


def _timeout_message(limits: SparqlLimits) -> str:
    return (
        f"The query ran past the time budget of {limits.timeout_s:g} s (SparqlLimits.timeout_s); "
        "narrow the pattern or add a LIMIT."
    )


def _evaluate(
    get_store: Callable[[], pyoxigraph.Store],
    operation: _Operation,
    limits: SparqlLimits,
    deadline: float,
    stop: threading.Event,
) -> _Answer:
    """Evaluate one query with pyoxigraph and serialise its answer (runs on a worker thread).

    Results are read one row at a time; reading stops as soon as the budget is spent or
    ``limits.max_rows`` is passed.  pyoxigraph's result objects never leave this thread.

    Raises
    ------
    QueryError
        The query does not parse (the parser's message), a dataset IRI is invalid, or evaluation fails.
    NotAcceptableError
        No offered format for this query form satisfies ``Accept`` / ``format=``.
    RequestTooLargeError
        More than ``limits.max_rows`` rows, unless ``limits.truncate_results``.
    QueryTimeoutError
        The budget ran out between rows.
    """

    def check_budget() -> None:
        if stop.is_set() or time.monotonic() > deadline:
            raise QueryTimeoutError(_timeout_message(limits))

    check_budget()
    store = get_store()
    try:
        results = store.query(operation.query, base_iri=operation.base_iri, **_dataset(operation))
        check_budget()
        headers: dict[str, str] = {}
        if isinstance(results, QueryBoolean):
            results_format = _results_format(operation, "ASK results")
            return _Answer(_bytes(results.serialize(format=results_format)), results_format.media_type, {})
        if isinstance(results, QuerySolutions):
            results_format = _results_format(operation, "SELECT results")
            variables = [str(variable) for variable in results.variables]
            rows = _take(results, limits, check_budget, headers)
            body = _serialize_solutions(variables, rows, results_format)
            check_budget()
            return _Answer(body, results_format.media_type, headers)
        graph_format = _negotiate(
            operation.accept,
            operation.format,
            _GRAPH_FORMATS,
            _GRAPH_NAMES,
            RdfFormat.from_media_type,
            "CONSTRUCT and DESCRIBE results",
        )
        triples = _take(results, limits, check_budget, headers)
        body = _bytes(pyoxigraph.serialize(triples, format=graph_format))
        check_budget()
        return _Answer(body, graph_format.media_type, headers)
    except YiliError:
        raise
    except SyntaxError as error:
        raise QueryError(f"The query is not valid SPARQL 1.1: {error}") from None
    except (RuntimeError, ValueError, TypeError) as error:
        # pyoxigraph's evaluation errors; an OSError (the storage failing) is the server's fault,
        # not the client's, and goes on to be logged and answered 500.
        raise QueryError(f"The query could not be evaluated: {error}") from None


def _results_format(operation: _Operation, what: str) -> QueryResultsFormat:
    """The negotiated format of SELECT or ASK results (see :func:`_negotiate`)."""
    return _negotiate(
        operation.accept,
        operation.format,
        _RESULTS_FORMATS,
        _RESULTS_NAMES,
        QueryResultsFormat.from_media_type,
        what,
    )


def _dataset(operation: _Operation) -> dict[str, Any]:
    """pyoxigraph's dataset arguments for an operation (SPARQL 1.1 Protocol 2.1.4).

    Protocol parameters, when given, replace the query's dataset entirely (an absent
    ``default-graph-uri`` means an empty default graph).  Otherwise a query without ``FROM`` sees the
    union of all graphs as its default graph.
    """
    if operation.default_graphs or operation.named_graphs:
        return {
            "default_graph": [_graph_name(iri, "default-graph-uri") for iri in operation.default_graphs],
            "named_graphs": [_graph_name(iri, "named-graph-uri") for iri in operation.named_graphs],
        }
    if _declares_dataset(operation.query):
        return {}
    return {"use_default_graph_as_union": True}


def _graph_name(iri: str, parameter: str) -> pyoxigraph.NamedNode:
    try:
        return pyoxigraph.NamedNode(iri)
    except ValueError as error:
        raise QueryError(f"{parameter} {iri!r} is not a valid IRI: {error}") from None


def _take(results: Any, limits: SparqlLimits, check_budget: Callable[[], None], headers: dict[str, str]) -> list[Any]:
    """Read at most ``limits.max_rows`` rows lazily, checking the budget before each one.

    One row past the cap means the answer is too large: RequestTooLargeError, or, with
    ``limits.truncate_results``, the first ``max_rows`` rows and a truncation header.
    """
    rows: list[Any] = []
    for row in results:
        if len(rows) == limits.max_rows:
            if not limits.truncate_results:
                raise RequestTooLargeError(
                    f"The answer has more rows than the limit of {limits.max_rows:,} "
                    "(SparqlLimits.max_rows); add a LIMIT or narrow the pattern."
                )
            headers[TRUNCATED_HEADER] = str(limits.max_rows)
            break
        rows.append(row)
        check_budget()
    return rows


def _serialize_solutions(variables: Sequence[str], rows: Sequence[Any], results_format: QueryResultsFormat) -> bytes:
    """Serialise solutions already read, with pyoxigraph's serialiser for ``results_format``.

    pyoxigraph serialises only a live result iterator, which the row cap and the time budget cannot
    stop midway; so the rows read are handed back to pyoxigraph as SPARQL Results TSV (W3C, *SPARQL
    1.1 Query Results CSV and TSV Formats*, section 3), whose terms are written in pyoxigraph's own
    N-Triples syntax, parsed with :func:`pyoxigraph.parse_query_results` and serialised from there.
    """
    lines = ["\t".join(variables)]
    lines.extend("\t".join("" if term is None else _term_text(term) for term in row) for row in rows)
    tsv = ("\n".join(lines) + "\n").encode("utf-8")
    parsed = pyoxigraph.parse_query_results(tsv, format=QueryResultsFormat.TSV)
    return _bytes(parsed.serialize(format=results_format))


def _term_text(term: Any) -> str:
    """A term in SPARQL / N-Triples syntax; a triple term as ``<<( s p o )>>`` (RDF 1.2)."""
    if isinstance(term, pyoxigraph.Triple):
        return f"<<( {_term_text(term.subject)} {_term_text(term.predicate)} {_term_text(term.object)} )>>"
    return str(term)


def _bytes(serialized: bytes | None) -> bytes:
    """pyoxigraph's serialisers return None only when given an output file; never here."""
    return serialized if serialized is not None else b""
