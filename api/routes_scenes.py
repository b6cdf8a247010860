"""``GET /steps/{rite}/{edition}/{block}/{ordinal}/scene``: who is where after a step.

An APIRouter of its own (mounted by :func:`yili.api.app.create_app`); the query is
:func:`yili.graph.scenes.scene_rows` over the placements the build wrote (:mod:`yili.graph.scenes`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from yili.api.resources import choose_format
from yili.api.service import Service
from yili.graph.scenes import furnishing_rows, move_rows, placement_triples, scene_rows
from yili.ontology.errors import NotFoundError
from yili.ontology.namespaces import mint


def make_scenes_router(service: Service) -> APIRouter:
    """The router of ``GET /steps/{rite}/{edition}/{block}/{ordinal}/scene`` over ``service``'s graph.

    It answers JSON: ``step`` (IRI), ``url`` (the step's page), ``persons``: one dict per person present
    after the step, in the order they entered, with ``person``, ``role``, ``place``, ``x``, ``y`` (on the
    plan of ``ontology/ground.ttl``: depths of the hall, x east, y north; null off the plan), ``facing``,
    ``status`` (``written``/``inferred``), ``rule``, ``source``, ``set_at`` (the step that set it) and
    ``set_at_url``, and the facing's ``facing_status``, ``facing_rule``, ``facing_set_at``.  With
    ``Accept: application/ld+json`` it answers the same scene as JSON-LD: the ``yk:Placement`` nodes that
    hold at the step, with the graph's own statements about them (``yk:atStep``, ``yk:personLabel``,
    ``yk:placeLabel``, ``yk:x``/``yk:y`` as ``xsd:decimal``, ``yk:facingLabel``, ``yk:positionStatus``,
    ``yk:positionRule``, ``yk:facingRule``, ``dcterms:source`` …), compacted with
    ``ontology/context.jsonld``.  A step the graph does not hold answers 404 naming it; any query
    parameter, 400; an ``Accept`` that allows neither JSON nor JSON-LD, 406.
    """
    from yili.api.common import error_responses, only_params, step_url

    router = APIRouter()

    @router.get(
        "/steps/{rite}/{edition}/{block}/{ordinal}/scene",
        summary="Who is where after a step: each person's place, point on the plan and facing (JSON or JSON-LD)",
        responses={200: {"content": {"application/json": {}, "application/ld+json": {}}}, **error_responses(400, 404, 406)},
    )
    def scene(rite: str, edition: str, block: str, ordinal: str, request: Request) -> Response:
        """The scene after the step: every person present with his place, point, facing, whether it is
        written or inferred, and the rule and step that set it (JSON, or JSON-LD by ``Accept``)."""
        only_params(request, set())
        media = choose_format(request.headers.get("accept", ""), None, _SCENE_FORMATS)
        iri = str(mint("step", rite, edition, block, ordinal, base=service.base))
        rows = scene_rows(service.queries, iri)
        if rows is None:
            raise NotFoundError(f"no step {rite}/{edition}/{block}/{ordinal} in the graph")
        vary = {"Vary": "Accept"}
        if media == "application/ld+json":
            return Response(_scene_jsonld(service, [str(r["placement"]) for r in rows]), media_type=media, headers=vary)
        persons = [r | {"set_at_url": step_url(service, str(r["set_at"]))} for r in rows]
        return JSONResponse({"step": iri, "url": step_url(service, iri), "persons": persons}, headers=vary)

    @router.get(
        "/moves",
        summary="Every move of the selected editions, in order (for replaying a rite)",
        responses=error_responses(400, 404),
    )
    def all_moves(
        request: Request,
        rite: Annotated[str | None, Query(description="Keep one rite (its key or name)", max_length=50)] = None,
        edition: Annotated[str | None, Query(description="Keep one edition (its key: shuzhu)", max_length=50)] = None,
    ) -> list[dict[str, Any]]:
        """The placements (moves) in ritual order: ``person``, ``role``, ``place``, ``x``, ``y``, ``facing``,
        ``status``, ``rule``, ``step``, ``sequence``, ``text``, ``edition``, ``url`` (the step's page);
        ``rite`` and ``edition`` select as for ``/stages`` (an unknown rite answers 404)."""
        only_params(request, {"rite", "edition"})
        rows = move_rows(service.queries, rite=(rite or "").strip() or None, edition=(edition or "").strip() or None)
        return [r | {"url": step_url(service, str(r["step"]))} for r in rows]

    @router.get(
        "/furnishings",
        summary="The vessels and mats the text sets out, where and from which step (for the plan)",
        responses=error_responses(400, 404),
    )
    def all_furnishings(
        request: Request,
        rite: Annotated[str | None, Query(description="Keep one rite (its key or name)", max_length=50)] = None,
        edition: Annotated[str | None, Query(description="Keep one edition (its key: shuzhu)", max_length=50)] = None,
    ) -> list[dict[str, Any]]:
        """The things set out (:func:`yili.ingest.scenes.furnishings`), in ritual order: ``object`` (as
        written), ``kind`` (``mat``, ``vessel``, ``thing``), ``place`` (as written), ``x``, ``y`` (on the
        plan: depths of the hall, x east, y north), ``facing`` (a mat's, or null), ``step`` (IRI),
        ``sequence``, ``removed_sequence`` (the step that clears it away, 徹, or null), ``edition``,
        ``url`` (the step's page); ``rite`` and ``edition`` select as for ``/moves`` (unknown rite: 404)."""
        only_params(request, {"rite", "edition"})
        rows = furnishing_rows(service.queries, rite=(rite or "").strip() or None, edition=(edition or "").strip() or None)
        return [r | {"url": step_url(service, str(r["step"]))} for r in rows]

    @router.get("/ground", summary="The plan of the ritual ground (ontology/ground.ttl)", responses=error_responses(400))
    def ground(request: Request) -> list[dict[str, Any]]:
        """The places of the ground: ``key``, ``label`` (traditional), ``labels``, ``x``, ``y``, ``width``,
        ``depth`` (depths of the hall; x east, y north, from the middle of the hall's south edge), ``place``
        (the vocabulary concept's IRI or None), ``source`` (the 儀禮釋宫 sentence) and ``derivation``."""
        only_params(request, set())
        from yili.ontology.ground import load_ground

        return [
            {"key": f.key, "label": f.label, "labels": list(f.labels), "x": f.x, "y": f.y, "width": f.width,
             "depth": f.depth, "place": f.place, "source": f.source, "derivation": f.derivation}
            for f in sorted(load_ground().features.values(), key=lambda f: f.key)
        ]  # fmt: skip

    return router


_SCENE_FORMATS = {"json": "application/json", "jsonld": "application/ld+json"}
"""What ``/steps/…/scene`` answers in (JSON by default)."""


def _scene_jsonld(service: Service, placements: list[str]) -> str:
    """The placements' triples (:func:`~yili.graph.scenes.placement_triples`) as JSON-LD compacted with
    ``ontology/context.jsonld`` (rdflib's serializer, as a step's JSON-LD)."""
    from rdflib import Graph
    from yili.api.common import jsonld_context
    from yili.graph.build import prefixes_for

    graph = Graph()
    for prefix, ns in prefixes_for(service.base).items():
        graph.bind(prefix, ns)
    graph.parse(data=placement_triples(service.store, placements), format="nt")
    body = graph.serialize(format="json-ld", context=jsonld_context(), auto_compact=True)
    return body if isinstance(body, str) else body.decode("utf-8")
