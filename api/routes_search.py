"""``GET /search?q=``: find a word in the classic and the commentary of every edition served, its
variants and simplified forms folded (:mod:`yili.graph.search`); the viewer's search box asks it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from yili.graph.search import TextSearch
from yili.ontology.errors import RequestError

if TYPE_CHECKING:
    from yili.api.app import Service


def make_search_router(service: Service) -> APIRouter:
    """The ``/search`` route over ``service`` (the texts are read from its store at the first search).

    Returns
    -------
    fastapi.APIRouter
    """
    from yili.api.common import error_responses, name_filter, only_params, paged, step_url

    router = APIRouter()
    search = TextSearch(service.queries)

    @router.get(
        "/search", summary="Find a word in the classic and commentary of every edition", responses=error_responses(400, 404)
    )
    def find(
        request: Request,
        q: Annotated[
            str,
            Query(
                description="what to find, in either script and any variant: 玄端 finds 𤣥端 (spaces are ignored)",
                min_length=1,
                max_length=50,
                pattern=r"\S",
            ),
        ],
        rite: Annotated[
            str | None, Query(description="only this rite (its name in either script, or its key)", max_length=50)
        ] = None,
        edition: Annotated[
            str | None, Query(description="only this edition (its key: shuzhu, zhushu, zhengzhu)", max_length=100)
        ] = None,
        limit: Annotated[int, Query(ge=1, le=1000, description="page size, 1-1000")] = 50,
        offset: Annotated[int, Query(ge=0, le=10_000_000, description="matches to skip")] = 0,
    ) -> dict[str, Any]:
        """Every place ``q`` occurs in a block's classic text or in a commentary piece (注, 疏, 音義, other
        commentators), in every edition, as read (the print layout taken out), comparing both folded:
        simplified as traditional (OpenCC), variants as their usual form (``ontology/variants.tsv``: 玄/𤣥,
        賓/賔).  A page ``{"query", "folded", "items", "total", "limit", "offset", "next", "previous"}``.

        Each item: ``kind`` (``classic`` or ``commentary``), ``rite``, ``edition``, ``block_iri``, ``step``
        (IRIs: the step the match is in, or for commentary the block's first step; None for a block from
        which no step is read), ``url`` (this API's page for that step, where the viewer shows the block
        and its commentary, or else the block's own page, ``/block/…``), ``block``, ``layer``
        and ``commentator`` (commentary), ``start`` and ``end`` (the match: code points into the text,
        0-based, end-exclusive), and ``before``, ``match``, ``after`` (the text as written around it).
        400 for an empty ``q`` (spaces only) or an unknown parameter; 404 for an unknown rite.
        """
        only_params(request, {"q", "rite", "edition", "limit", "offset"})
        if not "".join(q.split()):
            raise RequestError("q: give the characters to find (1 to 50), e.g. q=玄端")
        items, total = search.search(q, rite=name_filter(rite), edition=name_filter(edition), limit=limit, offset=offset)
        for item in items:
            # a block from which no step is read (a list of garments in the 記) is shown at its own IRI's path
            block = str(item["block_iri"])
            item["url"] = (
                step_url(service, str(item["step"]))
                if item["step"]
                else ("/" + block[len(service.base) :] if block.startswith(service.base) else None)
            )
        page = paged(request, items, total, limit, offset)
        return {"query": q, "folded": search.fold("".join(q.split())), **page}

    return router
