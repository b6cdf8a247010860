"""The REST routes of what is served: ``GET /`` (the index, or the viewer for a browser), ``/phases``,
``/rites`` and ``/terms/{name}``.

Two APIRouters of their own (mounted by :func:`yili.api.app.create_app`, the index first and the
lookups after the routes of the steps, the order of the OpenAPI document).  No extraction here: the
summary, the rites and the vocabulary are the :class:`~yili.api.app.Service`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from yili.api.common import error_responses, name_filter, only_params
from yili.api.resources import best_offer
from yili.api.routes_steps import RITE_PARAM
from yili.api.viewer import html_page
from yili.ontology.errors import UnknownTermError

if TYPE_CHECKING:
    from yili.api.app import Service


def make_index_router(service: Service) -> APIRouter:
    """The router of ``GET /``: the graph's summary and links as JSON, or the viewer for a browser."""
    router = APIRouter()

    @router.get(
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

    return router


def make_lookup_router(service: Service) -> APIRouter:
    """The router of ``GET /phases`` (the sections of each rite), ``GET /rites`` (the rites in the graph)
    and ``GET /terms/{name}`` (a vocabulary term by any written form)."""
    q = service.queries
    router = APIRouter()

    @router.get("/phases", summary="The sections of each rite, derived from its toasts", responses=error_responses(400, 404))
    def phases(
        request: Request,
        rite: Annotated[str | None, Query(description=RITE_PARAM, max_length=50)] = None,
    ) -> list[dict[str, Any]]:
        """Phases (主人献賔, 賔酢主人, …) in order, each with ``label``, ``number``, ``first`` and ``last``
        step IRIs; ``rite`` keeps one rite's (an unknown rite answers 404 naming it)."""
        only_params(request, {"rite"})
        return q.phases(rite=name_filter(rite))

    @router.get("/rites", summary="The rites in the graph, with their editions and counts", responses=error_responses(400))
    def rites(request: Request) -> list[dict[str, Any]]:
        """The rites (one per chapter of the 儀禮 that was read), each with ``rite`` (IRI), ``label``
        (zh-Hant, zh-Hans, en) and ``editions`` (IRI, source file, steps, toasts).  It takes no
        parameters (400 for any)."""
        only_params(request, set())
        return q.rites()

    @router.get("/terms/{name}", summary="Look up a vocabulary term by any variant", responses=error_responses(400, 404))
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

    return router
