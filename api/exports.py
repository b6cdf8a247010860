"""``GET /export/{format}``: the views of the graph (toast network, step chain) and the RDF itself as
downloadable files, the same bytes ``yili-kg export`` writes (:mod:`yili.graph.export`)."""

from __future__ import annotations

import threading
from enum import Enum
from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from yili.graph.export import FORMATS, VIEWS, Export, export
from yili.ontology.errors import EndpointBusyError

KEEP_BYTES = 8 * 1024 * 1024
"""Exports up to this size are kept once written (the graph does not change while it is served)."""

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
    from yili.api.common import error_responses, name_filter, only_params

    router = APIRouter()
    running = threading.Semaphore(1)
    lock = threading.Lock()
    kept: dict[tuple[str, str, str | None, str | None], Export] = {}  # the graph is read-only while served
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
            **error_responses(400, 404, 503),
        },
    )
    def export_file(
        format: ExportFormat,  # type: ignore[valid-type]
        request: Request,
        view: Annotated[ExportView, Query(description="toasts: the toast network; steps: the step chain")] = ExportView("toasts"),  # type: ignore[valid-type]  # noqa: B008
        rite: Annotated[
            str | None, Query(description="keep one rite: its name in either script or its key (see /rites)", max_length=50)
        ] = None,
        edition: Annotated[
            str | None, Query(description="keep one edition: its key (the last segment of its IRI, see /rites)", max_length=100)
        ] = None,
    ) -> Response:
        """The export ``format`` of the ``view`` (formats: see :data:`yili.graph.export.FORMATS`).

        Answers the file with its media type and ``Content-Disposition: attachment;
        filename="yili-kg-{rite}-{view}.{ext}"``; the RDF formats (turtle, ntriples, jsonld) hold the
        selected editions' graphs and the vocabulary, merged.  400 for an unknown parameter, format
        or view, or a Mermaid diagram of several editions; 404 for an unknown rite; 503 ``busy`` with
        ``Retry-After`` while another export is being written (one at a time; small ones are kept)."""
        only_params(request, {"view", "rite", "edition"})
        key = (format.value, view.value, name_filter(rite), name_filter(edition))
        result = kept.get(key)
        if result is None:
            # one export at a time: a whole-corpus export takes seconds of the server's CPU, and the
            # lookups must not wait behind several of them
            if not running.acquire(blocking=False):
                error = EndpointBusyError("another export is being written; send this request again after the Retry-After delay")
                return JSONResponse(
                    {"error": error.kind, "message": error.message},
                    status_code=error.status,
                    headers={"Retry-After": str(error.retry_after_s)},
                )
            try:
                result = export(service.queries, service.store, format.value, view.value, rite=key[2], edition=key[3])
            finally:
                running.release()
            if len(result.data) <= KEEP_BYTES:
                with lock:
                    kept[key] = result
                    while len(kept) > 128:  # every edition of the corpus (39) in both views, and more
                        kept.pop(next(iter(kept)))
        return Response(
            result.data,
            media_type=result.media_type,
            headers={"Content-Disposition": f'attachment; filename="{result.filename}"'},
        )

    export_file.__doc__ = (export_file.__doc__ or "") + f"\n\n        Formats: {formats}."
    return router
