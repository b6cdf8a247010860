"""The REST routes of the toasts and the steps: ``GET /toasts``, ``/steps`` (:func:`make_lists_router`),
``/steps/{rite}/{edition}/{block}/{ordinal}`` and ``/step/…``, the path of a step's IRI, a 303 to it
(:func:`make_step_router`).

APIRouters of their own (mounted by :func:`yili.api.app.create_app`); the queries are
:class:`~yili.graph.queries.GraphQueries` and :mod:`yili.graph.commentary_queries`, and nothing here
reads text.  Names accept any variant form (賔, 賓, 宾); an unknown one answers 404 naming it.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

import pyoxigraph
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from rdflib import Graph
from yili.api.common import error_responses, jsonld_context, name_filter, only_params, paged, step_url
from yili.api.resources import choose_format
from yili.api.viewer import html_page
from yili.graph.build import prefixes_for
from yili.ontology.namespaces import mint

if TYPE_CHECKING:
    from yili.api.app import Service

MAX_PAGE = 1000
"""Largest ``limit`` for paginated lists."""

RITE_PARAM = "only this rite: its name in either script, its key, or a beginning that names one rite (see /rites)"
"""The description of the ``rite`` parameter of the lists."""

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


class _Answers:
    """A bounded, thread-safe map from a request's query string to its answer's bytes, least
    recently used first out (at most ``size`` answers)."""

    def __init__(self, size: int) -> None:
        from collections import OrderedDict

        self._size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        """The answer kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            body = self._items.get(key)
            if body is not None:
                self._items.move_to_end(key)
            return body

    def put(self, key: str, body: bytes) -> None:
        """Keep ``body`` as the answer for ``key``, dropping the least recently used beyond ``size``."""
        with self._lock:
            self._items[key] = body
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def make_lists_router(service: Service) -> APIRouter:
    """The router of ``GET /toasts`` and ``GET /steps`` over ``service``'s graph, the lists of toasts
    and of steps in ritual order, paginated (each route's docstring gives its answer).

    ``/toasts`` pages are kept by query string (at most 512, least recently used out): the graph is
    read-only while served.
    """
    answers = _Answers(512)  # /toasts pages by query string: the graph is read-only while served
    q = service.queries
    router = APIRouter()

    @router.get(
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
        rite: Annotated[str | None, Query(description=RITE_PARAM, max_length=50)] = None,
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

    @router.get("/steps", summary="The ritual steps, in order, paginated", responses=error_responses(400, 404))
    def steps(
        request: Request,
        agent: Annotated[str | None, Query(description="who acts, any variant (主人, 賓, 公…)", max_length=50)] = None,
        action: Annotated[str | None, Query(description="the act (拜 also finds 再拜, 答拜…)", max_length=50)] = None,
        vessel: Annotated[str | None, Query(description="the cup (爵 also finds 觚, 象觚…)", max_length=50)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="page size, 1-1000")] = 50,
        offset: Annotated[int, Query(ge=0, le=10_000_000, description="steps to skip")] = 0,
        rite: Annotated[str | None, Query(description=RITE_PARAM, max_length=50)] = None,
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

    return router


def make_step_router(service: Service) -> APIRouter:
    """The router of one step: ``GET /steps/{rite}/{edition}/{block}/{ordinal}`` (in the representation
    negotiated) and ``GET /step/{rite}/{edition}/{block}/{ordinal}``, the path of its IRI (a 303 to it)."""
    q = service.queries
    router = APIRouter()

    @router.get(
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
        data = step_record(service, iri)
        media = _step_format(request.headers.get("accept", ""), format)
        vary = {"Vary": "Accept"}
        if media == "application/json":
            return JSONResponse(data, headers=vary)
        if media == "text/html":
            return html_page("viewer.html", headers=vary)
        return step_rdf(service, iri, media, vary)

    @router.get(
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

    return router


def step_record(service: Service, iri: str) -> dict[str, Any]:
    """The JSON record of the step ``iri`` (:meth:`~yili.graph.queries.GraphQueries.step`), with the
    statements of the commentary on its block by authority (``statements``), those its agent was read
    from (``derived_from``), for each field a rule decided from a note the statement it read
    (``why[i].statements``), and this API's URLs of it and of its neighbours (``links``: ``self``,
    ``previous``, ``next``, ``repeats``, None where there is none).

    Raises
    ------
    NotFoundError
        The graph has no step ``iri`` (404).
    """
    q = service.queries
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
    return data


def step_rdf(service: Service, iri: str, media: str, headers: dict[str, str]) -> Response:
    """The triples of the step ``iri`` and of its source span (``#source``, ``#position``, ``#quote``)
    as ``media``: ``application/n-triples``, ``application/rdf+xml``, ``application/ld+json``
    (compacted with ``ontology/context.jsonld``) or, for any other, Turtle; ``headers`` are sent
    with it."""
    # the step's own triples and its source span
    triples = service.store.query(
        f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ VALUES ?s {{ <{iri}> <{iri}#source> <{iri}#position> <{iri}#quote> }} ?s ?p ?o }}",
        use_default_graph_as_union=True,
    )
    assert isinstance(triples, pyoxigraph.QueryTriples)
    ntriples = triples.serialize(format=pyoxigraph.RdfFormat.N_TRIPLES)
    if media == "application/n-triples":
        return Response(ntriples, media_type="application/n-triples", headers=headers)
    graph = Graph()
    for prefix, ns in prefixes_for(service.base).items():
        graph.bind(prefix, ns)
    graph.parse(data=ntriples, format="nt")
    if media == "application/rdf+xml":
        return Response(graph.serialize(format="xml"), media_type="application/rdf+xml", headers=headers)
    if media == "application/ld+json":
        # the same triples, compacted with ontology/context.jsonld (rdflib's JSON-LD serializer)
        body = graph.serialize(format="json-ld", context=jsonld_context(), auto_compact=True)
        return Response(body, media_type="application/ld+json", headers=headers)
    return Response(graph.serialize(format="turtle"), media_type="text/turtle; charset=utf-8", headers=headers)
