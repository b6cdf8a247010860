"""The pages a person reads in a browser, served from the package's own files: nothing is loaded from
another host, so they work offline.

- the viewer, ``static/viewer.html`` with ``viewer.js`` and ``viewer.css``: the toast network, the
  timeline of a rite's steps by phase, and one page per step.  ``GET /`` and ``GET
  /steps/{rite}/{edition}/{block}/{ordinal}`` answer it to a browser (``Accept`` preferring ``text/html``); the
  page then asks the same API for JSON;
- ``/docs``: Swagger UI over ``/openapi.json``, from the vendored ``swagger-ui-dist``;
- the SPARQL query page, ``static/sparql.html`` (YASGUI), answered to a browser's ``GET /sparql``
  without a query (see :func:`~yili.api.sparql.make_sparql_router`);
- ``/static/…``: these files and the vendored JavaScript under ``static/vendor`` (built by
  ``api/web/vendor.sh`` from the npm packages pinned in ``api/web/package-lock.json``).
"""

from __future__ import annotations

import html
from functools import cache
from importlib import resources

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC_URL = "/static"
SWAGGER_UI = f"{STATIC_URL}/vendor/swagger-ui"


def static_files() -> StaticFiles:
    """The package's ``static`` folder (the viewer's files and the vendored JavaScript) as an ASGI app.

    Raises
    ------
    RuntimeError
        The installed package holds no ``static`` folder (an install that left out its package data).
    """
    return StaticFiles(directory=str(resources.files("yili.api") / "static"))


@cache
def _page_text(name: str) -> str:
    return (resources.files("yili.api") / "static" / name).read_text(encoding="utf-8")


def html_page(name: str, headers: dict[str, str] | None = None) -> HTMLResponse:
    """One of the HTML pages in ``static`` (``viewer.html``, ``sparql.html``) as a response.

    Raises
    ------
    FileNotFoundError
        There is no such page in the package (a programming error, not a request's).
    """
    return HTMLResponse(_page_text(name), headers=headers)


def install_pages(app: FastAPI) -> None:
    """Mount ``/static`` and add ``/docs`` (Swagger UI from the vendored files) to ``app``, which must
    be created with ``docs_url=None``.  Neither appears in the OpenAPI schema."""
    app.mount(STATIC_URL, static_files(), name="static")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """Swagger UI over the OpenAPI schema, with no request to any other host (HTML)."""
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title}: API",
            swagger_js_url=f"{SWAGGER_UI}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER_UI}/swagger-ui.css",
            swagger_favicon_url=f"{SWAGGER_UI}/favicon-32x32.png",
            # the default validator is an online service (validator.swagger.io)
            swagger_ui_parameters={"validatorUrl": None},
        )


def not_found_page(message: str) -> HTMLResponse:
    """The 404 page a browser gets for a step, rite or edition the graph does not hold: the API's
    one-line message (which names what was asked for), escaped, with a link to the viewer; status 404,
    ``Vary: Accept`` (other clients get the same error as JSON)."""
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found · 儀禮 yili-kg</title>'
        '<link rel="stylesheet" href="/static/viewer.css"></head><body><main>'
        f'<h1>404 Not found</h1><p id="status" class="error" role="alert">{html.escape(message)}</p>'
        '<p><a href="/">儀禮 yili-kg: the rites the graph holds</a></p></main></body></html>'
    )
    return HTMLResponse(body, status_code=404, headers={"Vary": "Accept"})
