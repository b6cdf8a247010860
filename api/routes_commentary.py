"""The commentary routes: ``GET /glosses`` (every gloss of a word across editions and authorities) and
``GET /citations`` (every citation of a chapter or work), over :mod:`yili.graph.commentary_queries`."""

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from yili.graph import commentary_queries

MAX_PAGE = 1000
"""The largest page (``limit``), as for ``/steps`` and ``/toasts``."""


def make_commentary_router(service: Any) -> APIRouter:
    """The ``/glosses`` and ``/citations`` routes over ``service`` (a :class:`~yili.api.app.Service`).

    Returns
    -------
    fastapi.APIRouter
    """
    from yili.api.common import error_responses, name_filter, only_params, paged

    router = APIRouter()

    @router.get(
        "/glosses",
        summary="Every gloss of a word of the classic, across editions and authorities",
        responses=error_responses(400, 404),
    )
    def glosses(
        request: Request,
        term: Annotated[str | None, Query(description="the word glossed, any variant (酳, 賓)", max_length=20)] = None,
        rite: Annotated[
            str | None, Query(description="keep one rite: any written form (特牲饋食禮, teshengkuishili)", max_length=50)
        ] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="page size, 1-1000")] = 100,
        offset: Annotated[int, Query(ge=0, le=10_000_000, description="glosses to skip")] = 0,
    ) -> dict[str, Any]:
        """A page of glosses read from 鄭玄's note by its formulas (X猶Y也, X之言Y也, X謂Y也, X者Y也,
        X，Y也, X，Y貌): ``{"items": [...], "total", "limit", "offset", "next", "previous"}``.

        Each item: ``gloss`` (the Web Annotation's IRI), ``term`` (the word as the note writes it),
        ``gloss_text``, ``formula``, ``motivation`` (describing, or classifying where the gloss names a
        concept), ``authority`` (鄭玄) and ``authority_iri``, ``statement`` (IRI), ``rite`` and
        ``edition`` (IRIs), ``block``, ``char_start``/``char_end`` (the formula in the note),
        ``target_start``/``target_end``/``target_text`` (the word in the classic block), ``concept``
        (the vocabulary concept the word is a label of, or null).  Offsets are code points, 0-based,
        end-exclusive, into the edition text.  An unknown rite answers 404; an unknown parameter 400.
        """
        only_params(request, {"term", "rite", "limit", "offset"})
        page = commentary_queries.glosses(
            service.queries, term=name_filter(term), rite=name_filter(rite), limit=limit, offset=offset
        )
        return paged(request, page.items, page.total, limit, offset)

    @router.get(
        "/citations", summary="Every citation of a chapter or work by the commentary", responses=error_responses(400, 404)
    )
    def citations(
        request: Request,
        to: Annotated[
            str | None,
            Query(description="what is cited: a rite (shaolaokuishili, 少牢) or a work (禮記, 詩, cited-liji)", max_length=50),
        ] = None,
        rite: Annotated[str | None, Query(description="keep the citing editions of one rite", max_length=50)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="page size, 1-1000")] = 100,
        offset: Annotated[int, Query(ge=0, le=10_000_000, description="citations to skip")] = 0,
    ) -> dict[str, Any]:
        """A page of citations (少牢云…, 鄉飲酒記曰…, 詩云…): ``{"items": [...], "total", "limit",
        "offset", "next", "previous"}``.

        Each item: ``citation`` (IRI), ``cited_as`` (the marker as written), ``cites`` (the rite's or
        work's IRI), ``passage`` (the classic block quoted, when the chapter is in the graph and the
        words are found there; else null) with ``passage_edition``, ``passage_block``, ``quote``,
        ``cited_start``/``cited_end`` (the words in that edition's text), ``authority``, ``statement``,
        ``rite``, ``edition``, ``block``, ``char_start``/``char_end`` (the marker in the note).  A ``to``
        that names no rite and no cited work answers 404 naming it; an unknown parameter 400.
        """
        only_params(request, {"to", "rite", "limit", "offset"})
        page = commentary_queries.citations(
            service.queries, to=name_filter(to), rite=name_filter(rite), limit=limit, offset=offset
        )
        return paged(request, page.items, page.total, limit, offset)

    return router
