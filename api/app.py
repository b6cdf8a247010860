"""The HTTP API: REST lookups ("who toasts whom"), the SPARQL 1.1 Protocol endpoint, OpenAPI docs.

Every resource answers JSON; a step answers JSON-LD and RDF too (``Accept: application/ld+json``).
A browser (``Accept`` preferring ``text/html``) gets the viewer at ``/`` and at each step's URL
(:mod:`yili.api.viewer`).
Every error answers JSON ``{"error": <kind>, "message": <text>}`` with a 4xx status, from one
handler (:func:`install_handlers`), never a traceback.
"""

from __future__ import annotations

import contextlib
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pyoxigraph
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send
from yili.api.exports import make_export_router
from yili.api.resources import best_offer, make_resource_router
from yili.api.routes_compare import make_compare_router
from yili.api.routes_index import make_index_router, make_lookup_router
from yili.api.routes_search import make_search_router
from yili.api.routes_steps import make_lists_router, make_step_router
from yili.api.sparql import SparqlLimits, make_sparql_router
from yili.api.viewer import html_page, install_pages, not_found_page
from yili.graph.queries import GraphQueries, OxigraphBackend
from yili.ontology.errors import RequestError, RequestTooLargeError, YiliError
from yili.ontology.vocabulary import Vocabulary

MAX_BODY_BYTES = 1_000_000
"""Largest request body accepted (bytes); a larger one gets 413."""


@dataclass
class Service:
    """What the app serves: the store, the lookups over it and the vocabulary.

    Attributes
    ----------
    store : pyoxigraph.Store
    queries : GraphQueries
    vocabulary : Vocabulary
    base : str
        The base IRI the graph was built with.
    summary : dict
        Counts to show on the index page (blocks, steps, toasts, triples).
    store_path : str, optional
        The on-disk store folder the store was opened from (read-only), if any: the SPARQL worker
        processes open it too instead of loading a copy.
    opened_from_path : bool
        Whether ``store`` itself is ``store_path`` opened read-only (``service_from_store``), rather
        than a store in memory that was also written there for the workers.
    endpoint : str, optional
        The remote SPARQL endpoint ``store`` sends its queries to (``serve --endpoint``,
        :class:`~yili.graph.remote.SparqlHttpStore`); None for the embedded store.
    """

    store: pyoxigraph.Store
    queries: GraphQueries
    vocabulary: Vocabulary
    base: str
    summary: dict[str, Any]
    store_path: str | None = None
    opened_from_path: bool = False
    endpoint: str | None = None

    def reopen(self) -> None:
        """Serve from a fresh read-only handle of ``store_path`` when ``opened_from_path``; otherwise
        do nothing.  RocksDB keeps the blocks a handle has read in a cache of its own, which the
        one-time scans that build the lookup indexes fill (some 40 MiB at 1.3M triples); the old
        handle, and that cache, are freed once no query holds them."""
        if self.opened_from_path and self.store_path:
            self.store = pyoxigraph.Store.read_only(self.store_path)
            if isinstance(self.queries.backend, OxigraphBackend):
                self.queries.backend.store = self.store


def error_json(error: YiliError) -> JSONResponse:
    """The JSON answer for a project error: ``{"error": kind, "message": text}`` with its status."""
    return JSONResponse({"error": error.kind, "message": error.message}, status_code=error.status)


class HeadAsGet:
    """ASGI middleware: a ``HEAD`` request is answered as the ``GET`` of the same URL without its body
    (RFC 9110 §9.3.2: the same status and headers, ``Content-Length`` included), so that link checkers
    and linked-data clients can probe every resource; FastAPI routes answer ``GET`` only."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body"):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def install_handlers(app: FastAPI) -> None:
    """Turn every error into a JSON answer with a 4xx status and a message a person understands."""

    @app.exception_handler(YiliError)
    async def _yili(request: Request, exc: YiliError) -> Response:
        if exc.status == 404 and best_offer(request.headers.get("accept", ""), ("application/json", "text/html")) == "text/html":
            return not_found_page(exc.message)  # a browser: a page naming what is not there
        answer = error_json(exc)
        if answer.status_code == 406:
            answer.headers["Vary"] = "Accept"  # what was refused depends on Accept, as what is given does
        return answer

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("query", "path", "body"))
            parts.append(f"{where}: {e.get('msg')}")
        return JSONResponse({"error": "invalid_request", "message": "; ".join(parts)}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() != "allow"}
        if exc.status_code == 405:
            # RFC 9110 §15.5.6: a 405 names the methods the resource has
            methods = sorted(
                {
                    m
                    for r in _routes(request.app)
                    if getattr(r, "path", None) and _matches(r, request.url.path)
                    for m in (getattr(r, "methods", None) or ())
                }
            )
            if "GET" in methods:
                methods = sorted({*methods, "HEAD"})  # HEAD is answered as GET (HeadAsGet)
            if methods:
                headers["Allow"] = ", ".join(methods)
        return JSONResponse({"error": kind, "message": str(exc.detail)}, status_code=exc.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - safety net
        return JSONResponse({"error": "internal", "message": f"unexpected {type(exc).__name__}"}, status_code=500)

    app.add_middleware(HeadAsGet)
    app.add_middleware(LimitBody)  # outermost: a body too large is refused before anything else


class LimitBody:
    """ASGI middleware: a request whose ``Content-Length`` is over :data:`MAX_BODY_BYTES` is answered
    413 ``too_large`` before any route reads it, and one whose ``Content-Length`` is not a number
    400; others pass through untouched.  Plain ASGI, not Starlette's ``BaseHTTPMiddleware``, which
    costs every request a task group and a streamed copy of its answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"content-length":
                    refusal = _body_refusal(value.decode("latin-1"))
                    if refusal is not None:
                        await refusal(scope, receive, send)
                        return
                    break  # the first Content-Length counts, as Starlette's Headers.get reads it
            undecodable = _not_utf8_parameter(scope.get("query_string", b""))
            if undecodable is not None:
                await error_json(RequestError(undecodable))(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _not_utf8_parameter(query_string: bytes) -> str | None:
    """Why a query string cannot be read, if a parameter's name or value is percent-encoded bytes that
    are not UTF-8 (``?agent=%ff%fe``), else None: such a value is refused (400) rather than looked up
    with replacement characters in it.

    >>> _not_utf8_parameter(b"giver=%E4%B8%BB%E4%BA%BA") is None
    True
    >>> _not_utf8_parameter(b"agent=%ff%fe")
    "query parameter 'agent': its value is not UTF-8 (percent-encoded bytes ff fe)"
    """
    if b"%" not in query_string:
        return None
    for part in query_string.split(b"&"):
        name, _, value = part.partition(b"=")
        for raw, what in ((name, "name"), (value, "value")):
            data = urllib.parse.unquote_to_bytes(raw.replace(b"+", b" "))
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                label = urllib.parse.unquote_to_bytes(name).decode("utf-8", "replace")[:40]
                shown = " ".join(f"{b:02x}" for b in data[exc.start : exc.end + 1][:8])
                return f"query parameter {label!r}: its {what} is not UTF-8 (percent-encoded bytes {shown})"
    return None


class YiliApp(FastAPI):
    """The FastAPI application of :func:`create_app`, which answers a point lookup's ``GET /sparql``
    without going through its middleware and routing.

    A ``GET /sparql`` request without a ``Content-Length`` header (so one that :class:`LimitBody` and
    :class:`HeadAsGet` would pass on untouched) goes straight to ``sparql_get``, the plain ASGI
    application of :attr:`~yili.api.sparql.SparqlRouter.get_app`, which answers it as the
    ``/sparql`` route would and handles its own errors: Starlette's middleware and the matching
    of every route cost a point lookup about as much as its own handling.  Every other request
    takes the usual way.

    Attributes
    ----------
    sparql_get : ASGI application or None
        What answers ``GET /sparql``; None (the default) sends it the usual way too.
    """

    sparql_get: Callable[[Any, Any, Any], Awaitable[None]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.sparql_get is not None
            and scope["type"] == "http"
            and scope["path"] == "/sparql"
            and scope["method"] == "GET"
            and not any(name == b"content-length" for name, _ in scope["headers"])
        ):
            await self.sparql_get(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def _body_refusal(length: str) -> JSONResponse | None:
    """The answer to a request declaring ``length`` bytes of body (a ``Content-Length`` value): 400 if
    it is not a number, 413 if it is over :data:`MAX_BODY_BYTES`, otherwise None (let it through)."""
    try:
        too_big = int(length) > MAX_BODY_BYTES
    except ValueError:
        return error_json(YiliError("bad Content-Length header"))
    if too_big:
        return error_json(RequestTooLargeError(f"request body of {length} bytes exceeds the limit of {MAX_BODY_BYTES} bytes"))
    return None


def create_app(service: Service, sparql_limits: SparqlLimits | None = None) -> YiliApp:
    """Build the FastAPI application over a :class:`Service`.

    Parameters
    ----------
    service : Service
    sparql_limits : SparqlLimits, optional
        Bounds of the SPARQL endpoint (:class:`~yili.api.sparql.SparqlLimits` defaults if omitted).

    Returns
    -------
    FastAPI
        Routes: ``/`` (index; the viewer for a browser), ``/toasts``, ``/steps``,
        ``/steps/{rite}/{edition}/{block}/{ordinal}`` (and ``/step/…``, a 303 to it), ``/phases``,
        ``/terms/{name}``, the IRIs of the graph at their paths (:mod:`yili.api.resources`:
        ``/rite/…``, ``/text/…``, ``/vocab/…``, ``/ontology``, ``/context.jsonld``…), ``/sparql`` (GET and
        POST; a query page for a browser), ``/docs`` (OpenAPI, Swagger UI) and ``/static`` (the
        viewer's files), none of them loading anything from another host.
    """
    app = YiliApp(
        title="yili-kg",
        version="0.1.0",
        description=(
            "A knowledge graph of the ritual steps of the 儀禮 (Book of Etiquette and Ceremonial): who does what to "
            "whom, with which cup, where and in what order. REST lookups and a read-only SPARQL 1.1 endpoint. "
            "Offsets are Unicode code points, 0-based, end-exclusive, into the edition text as decoded."
        ),
        # /docs is served from the vendored Swagger UI (install_pages), not from a CDN
        docs_url=None,
        redoc_url=None,
    )
    install_handlers(app)
    install_pages(app)
    _without_422(app)
    app.state.service = service
    service.queries.toasts(limit=1)  # read the toasts once now (the index /toasts filters), not in the first request
    service.queries.steps(limit=1)  # and the steps' index that /steps filters
    service.reopen()  # without the blocks those scans left in the store's cache
    _give_back_memory()
    if service.endpoint is None:
        sparql = make_sparql_router(
            lambda: service.store,
            limits=sparql_limits,
            query_page=lambda: html_page("sparql.html"),
            store_path=lambda: service.store_path,
        )
    else:  # /sparql proxied to the remote store, with the same protocol, limits and errors
        from yili.api.routes_remote import make_remote_sparql_router

        sparql = make_remote_sparql_router(service.store, sparql_limits, query_page=lambda: html_page("sparql.html"))
    app.include_router(sparql)
    app.sparql_get = sparql.get_app
    app.include_router(make_export_router(service))
    compare = make_compare_router(service)  # /compare, /patterns, /next, /ngrams
    app.include_router(compare)
    app.router.on_startup.append(compare.preload)  # their acts read when the server starts, not in a request
    app.include_router(make_search_router(service))
    app.include_router(make_resource_router(lambda: service.store, service.base))
    from yili.api.routes_stages import make_stages_router

    app.include_router(make_stages_router(service))
    from yili.api.routes_scenes import make_scenes_router

    app.include_router(make_scenes_router(service))
    from yili.api.routes_commentary import make_commentary_router

    app.include_router(make_commentary_router(service))
    app.include_router(make_index_router(service))  # GET /
    app.include_router(make_lists_router(service))  # /toasts, /steps
    app.include_router(make_step_router(service))  # /steps/{rite}/{edition}/{block}/{ordinal}, /step/…
    app.include_router(make_lookup_router(service))  # /phases, /rites, /terms/{name}
    return app


def _give_back_memory() -> None:
    """Return the memory freed after reading the lookup indexes to the operating system (glibc's
    ``malloc_trim``; the rows of the queries that built them are gone, but the C allocator keeps
    their pages).  A no-op where that call does not exist."""
    import ctypes
    import ctypes.util
    import gc

    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)


def _without_422(app: FastAPI) -> None:
    """Make ``app.openapi()`` leave out FastAPI's automatic 422: invalid parameters are answered
    with 400 (:func:`install_handlers`), which each route documents."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            for operations in schema.get("paths", {}).values():
                for operation in operations.values():
                    operation.get("responses", {}).pop("422", None)
            for unused in ("HTTPValidationError", "ValidationError"):
                schema.get("components", {}).get("schemas", {}).pop(unused, None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _routes(app: FastAPI) -> list[Any]:
    """Every route of ``app``, those of its included routers too (each with ``path``, ``methods`` and
    ``path_regex``): since FastAPI 0.137 ``app.routes`` holds an included router as one entry with no
    path (fastapi discussion #15791), which :func:`fastapi.routing.iter_route_contexts` opens; before,
    ``app.routes`` held every route already."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # pragma: no cover - FastAPI before 0.137
        return list(app.routes)
    return list(iter_route_contexts(app.routes))


def _matches(route: Any, path: str) -> bool:
    """True if a route's path pattern matches ``path`` (whatever the method)."""
    regex = getattr(route, "path_regex", None)
    return bool(regex is not None and regex.match(path))
