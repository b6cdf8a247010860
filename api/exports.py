"""``GET /export/{format}``: the views of the graph (toast network, step chain) and the RDF itself as
downloadable files, the same bytes ``yili-kg export`` writes (:mod:`yili.graph.export`)."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from yili.graph.export import FORMATS, VIEWS, export

if TYPE_CHECKING:
    from yili.api.app import Service

ExportFormat = Enum("ExportFormat", {name: name for name in FORMATS}, type=str)  # type: ignore[misc]
"""The export formats, as an enumeration the OpenAPI schema lists."""

ExportView = Enum("ExportView", {name: name for name in VIEWS}, type=str)  # type: ignore[misc]
"""The views: ``toasts`` (the toast network) and ``steps`` (the step chain)."""


def make_export_router(service: Service) -> APIRouter:
    """The ``/export/{format}`` route over ``service``.

    Parameters
    ----------
    service : Service
        The graph being served.

    Returns
    -------
    fastapi.APIRouter
    """
    from yili.api.app import _errors, _name, _only_params

    router = APIRouter()
    formats = ", ".join(f"{f.name} ({f.media_type.split(';')[0]})" for f in FORMATS.values())

    @router.get(
        "/export/{format}",
        summary="A view of the graph (or its RDF) as a file for graph tools, spreadsheets and triplestores",
        response_class=Response,
        responses={
            200: {
                "description": "The file, with a download name in Content-Disposition",
                "content": {f.media_type.split(";")[0]: {} for f in FORMATS.values()},
            },
            **_errors(400, 404),
        },
    )
    def export_file(
        format: ExportFormat,  # type: ignore[valid-type]
        request: Request,
        view: Annotated[ExportView, Query(description="toasts: the toast network; steps: the step chain")] = ExportView("toasts"),  # type: ignore[valid-type]  # noqa: B008
        rite: Annotated[str | None, Query(description="keep one rite (燕禮, 燕礼 or yanli)", max_length=50)] = None,
        edition: Annotated[str | None, Query(description="keep one edition (its key: shuzhu-excerpt)", max_length=100)] = None,
    ) -> Response:
        """The export ``format`` of the ``view`` (formats: see :data:`yili.graph.export.FORMATS`).

        Answers the file with its media type and ``Content-Disposition: attachment;
        filename="yili-kg-{rite}-{view}.{ext}"``; the RDF formats (turtle, ntriples, jsonld) hold the
        selected editions' graphs and the vocabulary, merged.  400 for an unknown parameter, format
        or view, or a Mermaid diagram of several editions; 404 for an unknown rite."""
        _only_params(request, {"view", "rite", "edition"})
        result = export(
            service.queries, service.store, format.value, view.value, rite=_name(rite), edition=_name(edition)
        )
        return Response(
            result.data,
            media_type=result.media_type,
            headers={"Content-Disposition": f'attachment; filename="{result.filename}"'},
        )

    export_file.__doc__ = (export_file.__doc__ or "") + f"\n\n        Formats: {formats}."
    return router
