"""The ``/sparql`` route of a server over a remote store (``yili-kg serve --endpoint URL``).

The SPARQL endpoint of the embedded store (``yili.api.sparql``: read-only, a time budget and a row
cap per query, worker processes) is not proxied to a remote store yet: ``/sparql`` answers 501 and
names the store's own endpoint, which clients can query directly.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse


def make_remote_sparql_router(endpoint: str) -> APIRouter:
    """``GET|POST /sparql`` answering 501 ``{"error": "not_proxied", "message": …}`` naming ``endpoint``.

    Parameters
    ----------
    endpoint : str
        The remote store's SPARQL endpoint (``serve --endpoint``).
    """
    router = APIRouter()

    @router.api_route("/sparql", methods=["GET", "POST"], summary="SPARQL: not proxied to the remote store", status_code=501)
    def sparql() -> JSONResponse:
        """Answers 501: queries go to the remote store's own endpoint, named in the message."""
        message = f"this server serves the graph of {endpoint}; SPARQL queries are not proxied yet: send them to {endpoint}"
        return JSONResponse({"error": "not_proxied", "message": message}, status_code=501)

    return router
