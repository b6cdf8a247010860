"""The HTTP API: REST lookups ("who toasts whom"), the SPARQL 1.1 Protocol endpoint, OpenAPI docs.

Every resource answers JSON; a step answers JSON-LD and RDF too (``Accept: application/ld+json``).
A browser (``Accept`` preferring ``text/html``) gets the viewer at ``/`` and at each step's URL
(:mod:`yili.api.viewer`).
Every error answers JSON ``{"error": <kind>, "message": <text>}`` with a 4xx status, from one
handler (:func:`install_handlers`), never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import threading
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote

import pyoxigraph
from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from rdflib import Graph
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send
from yili.api.common import error_responses, jsonld_context, name_filter, only_params, paged, step_url
from yili.api.exports import make_export_router
from yili.api.resources import best_offer, choose_format, make_resource_router
from yili.api.routes_compare import make_compare_router
from yili.api.routes_search import make_search_router
from yili.api.sparql import SparqlLimits, make_sparql_router
from yili.api.viewer import html_page, install_pages, not_found_page
from yili.graph.build import prefixes_for
from yili.graph.queries import GraphQueries, OxigraphBackend
from yili.ontology.errors import RequestError, RequestTooLargeError, UnknownTermError, YiliError
from yili.ontology.namespaces import mint
from yili.ontology.vocabulary import Vocabulary

MAX_BODY_BYTES = 1_000_000
"""Largest request body accepted (bytes); a larger one gets 413."""

MAX_PAGE = 1000
"""Largest ``limit`` for paginated lists."""


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
                    for r in request.app.routes
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
    answers = _Answers(512)  # /toasts pages by query string: the graph is read-only while served
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
    q = service.queries

    @app.get(
        "/",
        summary="Index: what is served, with links",
        response_class=JSONResponse,
        responses={
            200: {
                "description": "The summary and links (JSON); the viewer for a browser (HTML)",
                "content": {"application/json": {"schema": {"type": "object"}}, "text/html": {"schema": {"type": "string"}}},
            },
            **error_responses(400),
        },
    )
    def index(request: Request) -> Response:
        """The graph's summary (blocks, steps, toasts, triples) and links to every resource, as JSON:
        ``{"name", "summary", "links"}``.  A browser, whose ``Accept`` prefers ``text/html`` to JSON,
        gets the viewer instead (HTML); ``*/*`` or no ``Accept`` gets JSON.  It takes no parameters
        (400 for any).  Every answer says ``Vary: Accept``."""
        only_params(request, set())
        vary = {"Vary": "Accept"}
        if best_offer(request.headers.get("accept", ""), ("application/json", "text/html")) == "text/html":
            return html_page("viewer.html", headers=vary)
        return JSONResponse(
            {
                "name": "yili-kg",
                "summary": service.summary,
                "links": {
                    "toasts": "/toasts",
                    "steps": "/steps?limit=50&offset=0",
                    "phases": "/phases",
                    "rites": "/rites",
                    "sparql": "/sparql",
                    "docs": "/docs",
                    "term": "/terms/賓",
                },
            },
            headers=vary,
        )

    @app.get(
        "/toasts",
        summary="Who toasts whom, in ritual order, paginated",
        response_class=JSONResponse,
        responses={
            200: {"description": "A page of toasts", "content": {"application/json": {"schema": {"type": "object"}}}},
            **error_responses(400, 404),
        },
    )
    async def toasts(
        request: Request,
        giver: Annotated[str | None, Query(description="giver, any variant: 賔, 賓 or 宾", max_length=50)] = None,
        receiver: Annotated[str | None, Query(description="receiver, any variant", max_length=50)] = None,
        type: Annotated[str | None, Query(description="献/獻, 酢, 酬, 媵, 旅酬 or 赐/賜", max_length=20)] = None,
        rite: Annotated[str | None, Query(description=_RITE_PARAM, max_length=50)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="page size, 1-1000")] = 100,
        offset: Annotated[int, Query(ge=0, le=10_000_000, description="toasts to skip")] = 0,
    ) -> JSONResponse:
        """A page of toasts (献, 酢, 酬, 媵, 旅酬, 赐) in ritual order: ``{"items": [...], "total": N,
        "limit", "offset", "next", "previous"}`` (``next``/``previous``: relative URLs of the
        neighbouring pages, or null).

        Each item: ``giver``, ``receiver`` (null when the text does not name one), ``type``,
        ``performed_by`` (labels as the edition writes them), ``step`` (IRI), ``url`` (this API's page
        for the step), ``sequence``, ``block``, ``text``, ``char_start``, ``char_end`` (code points,
        0-based, end-exclusive), ``edition`` (IRI).  Names accept any variant form; an unknown name
        answers 404 naming it.  The toasts are read from the store once and filtered in memory, so a
        lookup costs about what a SPARQL point lookup does.
        """
        only_params(request, {"giver", "receiver", "type", "rite", "limit", "offset"})
        key = request.url.query
        body = answers.get(key)
        if body is None:
            page = q.toasts(
                giver=name_filter(giver),
                receiver=name_filter(receiver),
                type=name_filter(type),
                rite=name_filter(rite),
                limit=limit,
                offset=offset,
            )
            items = [{**t, "url": step_url(service, str(t["step"]))} for t in page.items]
            body = json.dumps(
                paged(request, items, page.total, limit, offset), ensure_ascii=False, separators=(",", ":")
            ).encode()
            answers.put(key, body)
        return Response(body, media_type="application/json")

    @app.get("/steps", summary="The ritual steps, in order, paginated", responses=error_responses(400, 404))
    def steps(
        request: Request,
        agent: Annotated[str | None, Query(description="who acts, any variant (主人, 賓, 公…)", max_length=50)] = None,
        action: Annotated[str | None, Query(description="the act (拜 also finds 再拜, 答拜…)", max_length=50)] = None,
        vessel: Annotated[str | None, Query(description="the cup (爵 also finds 觚, 象觚…)", max_length=50)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="page size, 1-1000")] = 50,
        offset: Annotated[int, Query(ge=0, le=10_000_000, description="steps to skip")] = 0,
        rite: Annotated[str | None, Query(description=_RITE_PARAM, max_length=50)] = None,
    ) -> dict[str, Any]:
        """A page of steps: ``{"items": [...], "total": N, "limit", "offset", "next", "previous"}``.

        Each item has ``id`` (IRI), ``url`` (this API's page for it), ``sequence``, ``block``,
        ``char_start``, ``char_end``, ``text``, ``agent``, ``action``, ``recipient``, ``object``,
        ``vessel``, ``wine``, ``location``, ``facing``, ``mode`` (null where empty).  ``next`` and
        ``previous`` are relative URLs of the neighbouring pages.  An unknown parameter answers 400.
        """
        only_params(request, {"agent", "action", "vessel", "limit", "offset", "rite"})
        page = q.steps(
            agent=name_filter(agent),
            action=name_filter(action),
            vessel=name_filter(vessel),
            limit=limit,
            offset=offset,
            rite=name_filter(rite),
        )

        return paged(request, [{**s, "url": step_url(service, str(s["id"]))} for s in page.items], page.total, limit, offset)

    @app.get(
        "/steps/{rite}/{edition}/{block}/{ordinal}",
        summary="One step, with its neighbours and commentary",
        responses={
            200: {
                "description": "The step, in the representation negotiated",
                "content": {media: {} for media in _STEP_FORMATS.values()},
            },
            **error_responses(400, 404, 406),
        },
    )
    def step(
        rite: str,
        edition: str,
        block: Annotated[int, Path(ge=1, le=10_000_000, description="the classic block the step is read from")],
        ordinal: Annotated[int, Path(ge=1, le=10_000, description="the step's place among the block's steps, from 1")],
        request: Request,
        format: str | None = None,
    ) -> Any:
        """One step by its key, the path of its IRI (``yanli/shuzhu-excerpt/3/2``: rite, edition,
        classic block, ordinal in the block): fields, ``previous``/``next`` step IRIs, the block, the
        phase, the toast it expresses, and the commentary on its block.

        The representation is negotiated (:func:`_step_format`): JSON (the default), or the step's own
        triples with its source span (``#source``, ``#position``, ``#quote``) in JSON-LD (compacted
        with ``ontology/context.jsonld``), Turtle, N-Triples or RDF/XML (the same triples in each), or
        the viewer's HTML page, which shows the step (what a browser
        gets); ``Accept`` chooses, ``?format=`` (json, jsonld, turtle, ntriples, rdfxml, html)
        overrides.  Every answer says ``Vary: Accept``.  404 if there is no such step; 400
        for a parameter other than ``format``; 406 if no offered format is acceptable.
        """
        only_params(request, {"format"})
        q.check_edition(rite, edition)  # 404 naming an unknown rite or edition, not "no step"
        iri = str(mint("step", rite, edition, block, ordinal, base=service.base))
        data = q.step(iri)
        from yili.graph.commentary_queries import block_statements, derived_from

        data["statements"] = block_statements(q, str(data["block_iri"])) if data.get("block_iri") else []  # by authority
        data["derived_from"] = derived_from(q, iri)  # the statements its agent was read from
        from yili.graph.noted import note_statements

        read = note_statements(q, iri)  # each field a rule decided from a note: the statement it read
        for r in data.get("why") or []:
            r["statements"] = read.get(str(r["field"]), [])
        data["links"] = {
            name: step_url(service, str(data[name])) if data.get(name) else None for name in ("previous", "next", "repeats")
        } | {"self": step_url(service, iri)}
        media = _step_format(request.headers.get("accept", ""), format)
        vary = {"Vary": "Accept"}
        if media == "application/json":
            return JSONResponse(data, headers=vary)
        if media == "text/html":
            return html_page("viewer.html", headers=vary)
        # the step's own triples and its source span
        triples = service.store.query(
            f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ VALUES ?s {{ <{iri}> <{iri}#source> <{iri}#position> "
            f"<{iri}#quote> }} ?s ?p ?o }}",
            use_default_graph_as_union=True,
        )
        assert isinstance(triples, pyoxigraph.QueryTriples)
        ntriples = triples.serialize(format=pyoxigraph.RdfFormat.N_TRIPLES)
        if media == "application/n-triples":
            return Response(ntriples, media_type="application/n-triples", headers=vary)
        graph = Graph()
        for prefix, ns in prefixes_for(service.base).items():
            graph.bind(prefix, ns)
        graph.parse(data=ntriples, format="nt")
        if media == "application/rdf+xml":
            return Response(graph.serialize(format="xml"), media_type="application/rdf+xml", headers=vary)
        if media == "application/ld+json":
            # the same triples, compacted with ontology/context.jsonld (rdflib's JSON-LD serializer)
            body = graph.serialize(format="json-ld", context=jsonld_context(), auto_compact=True)
            return Response(body, media_type="application/ld+json", headers=vary)
        return Response(graph.serialize(format="turtle"), media_type="text/turtle; charset=utf-8", headers=vary)

    @app.get(
        "/step/{rite}/{edition}/{block}/{ordinal}",
        summary="A step's IRI path: 303 See Other to where the step is described",
        status_code=303,
        response_class=Response,
        responses={
            303: {"description": "See Other: /steps/{rite}/{edition}/{block}/{ordinal}, with the same query"},
            **error_responses(400, 404),
        },
    )
    def step_iri(rite: str, edition: str, block: str, ordinal: str, request: Request) -> Response:
        """The path of a step's IRI (``step/yanli/shuzhu-excerpt/3/2``), for a graph served under its
        base IRI: a 303 to ``/steps/…`` (the same query string), which negotiates the representation
        (W3C, *Cool URIs for the Semantic Web*, 303 URIs); 404 when the graph has no such step."""
        q.step(str(mint("step", rite, edition, block, ordinal, base=service.base)))  # 404 for no such step
        parts = "/".join(quote(x, safe="") for x in (rite, edition, block, ordinal))
        target = f"/steps/{parts}"
        if request.url.query:
            target += "?" + request.url.query
        return Response(status_code=303, headers={"Location": target, "Vary": "Accept"})

    @app.get("/phases", summary="The sections of each rite, derived from its toasts", responses=error_responses(400, 404))
    def phases(
        request: Request,
        rite: Annotated[str | None, Query(description=_RITE_PARAM, max_length=50)] = None,
    ) -> list[dict[str, Any]]:
        """Phases (主人献賔, 賔酢主人, …) in order, each with ``label``, ``number``, ``first`` and ``last``
        step IRIs; ``rite`` keeps one rite's (an unknown rite answers 404 naming it)."""
        only_params(request, {"rite"})
        return q.phases(rite=name_filter(rite))

    @app.get("/rites", summary="The rites in the graph, with their editions and counts", responses=error_responses(400))
    def rites(request: Request) -> list[dict[str, Any]]:
        """The rites (one per chapter of the 儀禮 that was read), each with ``rite`` (IRI), ``label``
        (zh-Hant, zh-Hans, en) and ``editions`` (IRI, source file, steps, toasts).  It takes no
        parameters (400 for any)."""
        only_params(request, set())
        return q.rites()

    @app.get("/terms/{name}", summary="Look up a vocabulary term by any variant", responses=error_responses(400, 404))
    def term(name: str, request: Request) -> dict[str, Any]:
        """A role, action, vessel, wine, place, facing or object by any written form (賔, 賓, 宾):
        its IRI, kind, labels in zh-Hant and zh-Hans, variants and English definition.  404 if unknown;
        400 for any query parameter."""
        only_params(request, set())
        if len(name) > 50:  # no label is this long: not looked up, and not quoted whole
            raise UnknownTermError(f"unknown name {name[:50]!r}…: not a label of any concept (no label is over 50 characters)")
        c = service.vocabulary.lookup(name)
        return {
            "iri": c.iri,
            "kind": c.kind,
            "zh-Hant": c.hant,
            "zh-Hans": c.hans,
            "labels": sorted(c.labels),
            "definition": c.definition,
            "broader": list(c.broader),
        }

    return app


_RITE_PARAM = "only this rite: its name in either script, its key, or a beginning that names one rite (see /rites)"

_STEP_FORMATS: dict[str, str] = {
    "json": "application/json",
    "jsonld": "application/ld+json",
    "turtle": "text/turtle",
    "ntriples": "application/n-triples",
    "rdfxml": "application/rdf+xml",
    "html": "text/html",
}
"""The representations of a step, by their ``format=`` name; the first is the default, and HTML (the
viewer's page) is last, so that ``*/*`` and ``text/*`` never choose it."""


def _step_format(accept: str, format_name: str | None) -> str:
    """The media type to answer a step in (:func:`~yili.api.resources.choose_format` among
    :data:`_STEP_FORMATS`: JSON by default).

    Raises
    ------
    NotAcceptableError
        ``format=`` names no offered format, or ``Accept`` excludes them all (406).

    >>> _step_format("text/html,application/xhtml+xml,*/*;q=0.8", None)
    'text/html'
    >>> _step_format("*/*", None)
    'application/json'
    """
    return choose_format(accept, format_name, _STEP_FORMATS)


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


class _Answers:
    """A bounded, thread-safe map from a request's query string to its answer's bytes, least
    recently used first out (at most ``size`` answers)."""

    def __init__(self, size: int) -> None:
        from collections import OrderedDict

        self._size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            body = self._items.get(key)
            if body is not None:
                self._items.move_to_end(key)
            return body

    def put(self, key: str, body: bytes) -> None:
        with self._lock:
            self._items[key] = body
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


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


def _matches(route: Any, path: str) -> bool:
    """True if a route's path pattern matches ``path`` (whatever the method)."""
    regex = getattr(route, "path_regex", None)
    return bool(regex is not None and regex.match(path))
