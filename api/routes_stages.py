"""``GET /stages``: the stages (節) of 楊復's 儀禮圖 that the steps of each edition fall in.

An APIRouter of its own (mounted by :func:`yili.api.app.create_app`); the query is
:func:`yili.graph.stages.stage_rows`, and nothing here reads text.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from yili.api.service import Service
from yili.graph.stages import stage_rows

_RITE = "Keep one rite: its key (shiguanli) or its name in either script (士冠禮, 士冠礼), or a beginning that names one rite"
_EDITION = "Keep one edition: its key, the last segment of its IRI (shuzhu, zhushu, zhengzhu)"


def make_stages_router(service: Service) -> APIRouter:
    """The router of ``GET /stages`` over ``service``'s graph.

    ``GET /stages?rite=&edition=`` answers a JSON list, in edition order then 楊復's order, of
    ``{"stage", "title", "number", "first", "last", "first_sequence", "last_sequence", "first_text",
    "steps", "source", "page", "remark", "edition", "rite", "members", "url"}`` (:func:`~yili.graph.stages.stage_rows`;
    ``url`` is the API path of the first step).  A rite 儀禮圖 does not cover, or a graph built without
    ``--stages``, answers ``[]`` (its phases are at ``/phases``).  An unknown rite answers 404 naming
    it, an unknown parameter 400.
    """
    from yili.api.common import error_responses, name_filter, only_params, step_url

    router = APIRouter()

    @router.get("/stages", summary="The stages (節) of 楊復's 儀禮圖 in each edition", responses=error_responses(400, 404))
    def stages(
        request: Request,
        rite: Annotated[str | None, Query(description=_RITE, max_length=50)] = None,
        edition: Annotated[str | None, Query(description=_EDITION, max_length=50)] = None,
    ) -> list[dict[str, Any]]:
        """The stages of 楊復's 儀禮圖, each with its title as he writes it, his order, its first and
        last step, how many steps it holds and its source (儀禮圖, 卷, page)."""
        only_params(request, {"rite", "edition"})
        rows = stage_rows(service.queries, rite=name_filter(rite), edition=name_filter(edition))
        return [r | {"url": step_url(service, str(r["first"]))} for r in rows]

    return router
