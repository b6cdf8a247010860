"""Helpers shared by the REST routes of :mod:`yili.api.app` and its routers (``routes_*``,
:mod:`yili.api.exports`): the documented error answers, the check of query parameters, pages,
name filters and the URL of a step.

They live here, not in :mod:`yili.api.app`, so that a router can import them at module level
(``app`` imports the routers).  No HTTP state: each is a function of its arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import Request
from yili.api.resources import context_document
from yili.ontology.errors import RequestError

if TYPE_CHECKING:
    from yili.api.app import Service

_ERROR_BODY: dict[str, Any] = {
    "application/json": {
        "schema": {
            "type": "object",
            "required": ["error", "message"],
            "properties": {
                "error": {"type": "string", "description": "the kind of error: invalid_request, not_found, unknown_term, ..."},
                "message": {"type": "string", "description": "what is wrong, in one line"},
            },
        }
    }
}

_ERROR_TEXT = {
    400: "An unknown or invalid parameter (the message names it)",
    404: "No such step, term or rite",
    406: "No representation of the step satisfies Accept / format=",
    503: "Busy: another export is being written; retry after the Retry-After delay",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a REST route's error answers, each ``{"error", "message"}``.

    Parameters
    ----------
    *statuses : int
        HTTP statuses among 400, 404, 406 and 503.

    Returns
    -------
    dict
        ``{status: {"description": str, "content": {"application/json": {"schema": …}}}}``, to pass
        (or spread) as a route's ``responses=``.

    Raises
    ------
    KeyError
        A status with no description here (a programming error, met when the app is built).
    """
    return {status: {"description": _ERROR_TEXT[status], "content": _ERROR_BODY} for status in statuses}


def paged(request: Request, items: list[dict[str, Any]], total: int, limit: int, offset: int) -> dict[str, Any]:
    """A page: ``{"items", "total", "limit", "offset", "next", "previous"}``, where ``next`` and
    ``previous`` are relative URLs (the request's path and query, with ``offset`` moved; the Host
    header is not echoed back) or None at either end.

    Parameters
    ----------
    request : Request
        The request answered (its path and query parameters make the links).
    items : list of dict
        This page's items.
    total : int
        How many items all pages hold.
    limit, offset : int
        The page size and the index (0-based) of this page's first item among all.
    """

    def link(off: int) -> str:
        url = request.url.include_query_params(offset=off, limit=limit)
        return f"{url.path}?{url.query}"

    last_page = max(0, total - limit)
    return {
        "items": items,
        "total": total,
        "limit": limit,
        "offset": offset,
        "next": link(offset + limit) if offset + limit < total else None,
        "previous": link(min(max(0, offset - limit), last_page)) if offset > 0 else None,
    }


def only_params(request: Request, allowed: set[str]) -> None:
    """Refuse query parameters the resource does not know (a typo would otherwise filter nothing).

    Parameters
    ----------
    request : Request
    allowed : set of str
        The query parameter names the resource takes.

    Raises
    ------
    RequestError
        400, naming the unknown parameter and the known ones, or a parameter given twice.
    """
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        takes = ", ".join(sorted(allowed)) or "no parameters"
        raise RequestError(f"unknown parameter {unknown[0]!r} (this resource takes: {takes})")
    names = [name for name, _value in request.query_params.multi_items()]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        # agent=公&agent=賓 would otherwise keep one of the two without a word
        raise RequestError(f"parameter {repeated[0]!r} given more than once: give it once")


def name_filter(value: str | None) -> str | None:
    """A name parameter (``agent=``, ``rite=`` …) with surrounding white space removed; None when it
    is absent or empty (no filter)."""
    if value is None:
        return None
    value = value.strip()
    return value or None


def step_url(service: Service, iri: str) -> str | None:
    """This API's URL path for a step IRI (``/steps/yanli/shuzhu-excerpt/3/2``), or None for an IRI
    that is not a step under ``service.base``."""
    prefix = service.base + "step/"
    return "/steps/" + iri[len(prefix) :] if iri.startswith(prefix) else None


def jsonld_context() -> dict[str, Any]:
    """The JSON-LD ``@context`` object of the graph's terms (that of ``/context.jsonld``,
    :func:`yili.api.resources.context_document`), for compacting a step's JSON-LD."""
    return context_document()["@context"]
