"""``GET /steps/{rite}/{edition}/{block}/{ordinal}/scene``: who is where after a step.

An APIRouter of its own (mounted by :func:`yili.api.app.create_app`); the query is
:func:`yili.graph.scenes.scene_rows` over the placements the build wrote (:mod:`yili.graph.scenes`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from yili.api.service import Service
from yili.graph.scenes import scene_rows
from yili.ontology.errors import NotFoundError
from yili.ontology.namespaces import mint


def make_scenes_router(service: Service) -> APIRouter:
    """The router of ``GET /steps/{rite}/{edition}/{block}/{ordinal}/scene`` over ``service``'s graph.

    It answers JSON: ``step`` (IRI), ``url`` (the step's page), ``persons``: one dict per person present
    after the step, in the order they entered, with ``person``, ``role``, ``place``, ``x``, ``y`` (on the
    plan of ``ontology/ground.ttl``: depths of the hall, x east, y north; null off the plan), ``facing``,
    ``status`` (``written``/``inferred``), ``rule``, ``source``, ``set_at`` (the step that set it) and
    ``set_at_url``.  A step the graph does not hold answers 404 naming it; any query parameter, 400.
    """
    from yili.api.app import _errors, _only_params, _step_url

    router = APIRouter()

    @router.get(
        "/steps/{rite}/{edition}/{block}/{ordinal}/scene",
        summary="Who is where after a step: each person's place, point on the plan and facing",
        responses=_errors(400, 404),
    )
    def scene(rite: str, edition: str, block: str, ordinal: str, request: Request) -> dict[str, Any]:
        """The scene after the step: every person present with his place, point, facing, whether it is
        written or inferred, and the rule and step that set it."""
        _only_params(request, set())
        iri = str(mint("step", rite, edition, block, ordinal, base=service.base))
        rows = scene_rows(service.queries, iri)
        if rows is None:
            raise NotFoundError(f"no step {rite}/{edition}/{block}/{ordinal} in the graph")
        persons = [r | {"set_at_url": _step_url(service, str(r["set_at"]))} for r in rows]
        return {"step": iri, "url": _step_url(service, iri), "persons": persons}

    return router
