"""Dereferenceable IRIs: every IRI the graph mints answers at its own path, in the representation asked.

An IRI is the base IRI followed by a path (``rite/yanli``, ``text/yanli/shuzhu``,
``block/yanli/shuzhu/3``, ``vocab/role-bin``, ``ontology``); served with that base (the
default ``https://w3id.org/yili-kg/`` redirects to the server, or ``--base-iri`` names it), the
same path on this server describes the resource (W3C, *Cool URIs for the Semantic Web*, hash and
303 URIs; *Best Practice Recipes for Publishing RDF Vocabularies*).

- ``/{kind}/{key…}`` for ``rite``, ``text`` (an edition), ``block``, ``commentary``, ``phase``,
  ``graph`` (a named graph, with its provenance), ``file``, ``build``, ``software`` and
  ``vocab`` (a concept, a scheme, a person, a work, a rite profile): the resource's concise bounded
  description (Oxigraph's ``DESCRIBE``: its triples and those of the blank nodes it leads to).
- ``/ontology``: the ontology and the vocabulary, whole (``yk:`` terms are ``ontology#Term``, whose
  fragment a client resolves in this document); ``/ontology/alignments``: the alignments
  (``ontology/alignments.ttl``).
- ``/context.jsonld``: the JSON-LD context of the step JSON-LD and exports.
- A step's IRI path ``/step/…`` answers 303 See Other to ``/steps/…`` (:mod:`yili.api.app`).

Each representation is negotiated on ``Accept`` (``?format=`` overrides): JSON-LD, Turtle,
N-Triples, RDF/XML, or an HTML page for a browser; every answer says ``Vary: Accept``.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any
from urllib.parse import quote

import pyoxigraph
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from yili.api.sparql import media_ranges
from yili.graph.build import prefixes_for, vocabulary_graph_iri
from yili.ontology.errors import NotAcceptableError, NotFoundError, RequestError
from yili.ontology.namespaces import DEFAULT_BASE

KINDS: dict[str, str] = {
    "rite": "a rite (one chapter of the 儀禮)",
    "text": "an edition of a rite",
    "block": "a classic block (a paragraph of the 經) of an edition",
    "commentary": "a piece of commentary (注, 疏, a later authority) on a block",
    "phase": "a section of a rite (主人献賔, 賔酢主人, …)",
    "stage": "a stage (節) of a rite as 楊復's 儀禮圖 divides it (筮于廟門, 戒賔, …)",
    "placement": "a move: where a person stands and faces from a step on (who is where)",
    "furnishing": "a vessel, mat or thing the text sets out at a place, from a step on (設洗, 布席)",
    "statement": "what one authority says on a block (鄭玄's note, 賈公彦's 疏, 楊氏曰 …)",
    "gloss": "a gloss of a word of the classic, a Web Annotation (酳猶衍也)",
    "reading": "a variant reading of a word of the classic (古文X為Y)",
    "citation": "a citation of a chapter or work by the commentary (少牢云…)",
    "rule": "an extraction rule that decides a field of the steps (recipient.answers), with its citation",
    "graph": "a named graph, with its provenance (PROV-O)",
    "file": "an input file, with its SHA-256",
    "build": "the build that made a named graph",
    "software": "the version of yili-kg that built the graph",
    "vocab": "a vocabulary concept, scheme, person, work or rite profile",
}
"""The path segments under which the graph mints IRIs (:func:`~yili.ontology.namespaces.mint`),
other than ``step`` (see :mod:`yili.api.app`), with what they name."""

FORMATS: dict[str, str] = {
    "jsonld": "application/ld+json",
    "json": "application/json",
    "turtle": "text/turtle",
    "ntriples": "application/n-triples",
    "rdfxml": "application/rdf+xml",
    "html": "text/html",
}
"""The representations of a resource by their ``format=`` names; the first is the default (no
``Accept``, or ``*/*``); ``application/json`` gets the JSON-LD.  HTML comes last, so that ``*/*``
and ``text/*`` never choose it."""

_RDF_FORMATS = {
    "application/ld+json": pyoxigraph.RdfFormat.JSON_LD,
    "application/json": pyoxigraph.RdfFormat.JSON_LD,
    "text/turtle": pyoxigraph.RdfFormat.TURTLE,
    "application/n-triples": pyoxigraph.RdfFormat.N_TRIPLES,
    "application/rdf+xml": pyoxigraph.RdfFormat.RDF_XML,
}

_ERROR_BODY: dict[str, Any] = {
    "application/json": {
        "schema": {
            "type": "object",
            "required": ["error", "message"],
            "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
        }
    }
}

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The resource's description, in the representation negotiated",
        "content": {media: {} for media in FORMATS.values()},
    },
    400: {"description": "A parameter other than format=", "content": _ERROR_BODY},
    404: {"description": "The graph holds nothing about this IRI", "content": _ERROR_BODY},
    406: {"description": "No offered representation satisfies Accept / format=", "content": _ERROR_BODY},
}


def choose_format(accept: str, format_name: str | None, offers: dict[str, str] = FORMATS) -> str:
    """The media type to answer in: ``format=`` when given (a name of ``offers``), else the offer
    ``Accept`` ranks highest (:func:`best_offer`), the first offer when ``Accept`` is absent.

    Raises
    ------
    NotAcceptableError
        ``format=`` names no offer, or ``Accept`` excludes them all (406).

    >>> choose_format("text/html,application/xhtml+xml,*/*;q=0.8", None)
    'text/html'
    >>> choose_format("*/*", None)
    'application/ld+json'
    >>> choose_format("application/rdf+xml;q=0.9, text/turtle", None)
    'text/turtle'
    >>> choose_format("", "ntriples")
    'application/n-triples'
    """
    if format_name is not None:
        key = format_name.strip().lower().replace("-", "")
        if key in offers:
            return offers[key]
        raise NotAcceptableError(f"format={format_name[:40]!r} is not offered; use one of: {', '.join(offers)}")
    if not media_ranges(accept):
        return next(iter(offers.values()))
    chosen = best_offer(accept, tuple(offers.values()))
    if chosen is None:
        raise NotAcceptableError(f"Accept: {accept[:100]!r} allows none of {', '.join(offers.values())}")
    return chosen


def best_offer(accept: str, offers: tuple[str, ...]) -> str | None:
    """The offer with the highest q in ``Accept`` (RFC 9110 §12.5.1: the most specific range matching
    an offer decides its q; ties go to the more specific match, then to the earlier offer), or None
    if ``Accept`` allows none.

    >>> best_offer("text/html,application/xhtml+xml,*/*;q=0.8", ("application/json", "text/html"))
    'text/html'
    >>> best_offer("*/*", ("application/json", "text/html"))
    'application/json'
    >>> best_offer("image/png", ("application/json", "text/html")) is None
    True
    """
    ranges = media_ranges(accept)
    best: tuple[float, int, int] | None = None
    chosen = None
    for position, media in enumerate(offers):
        kind = media.split("/")[0]
        match = None
        for media_range, q in ranges:
            specificity = 3 if media_range == media else 2 if media_range == f"{kind}/*" else 1 if media_range == "*/*" else 0
            if specificity and (match is None or (specificity, q) > match):
                match = (specificity, q)
        if match is not None and match[1] > 0:
            rank = (match[1], match[0], -position)
            if best is None or rank > best:
                best, chosen = rank, media
    return chosen


def context_document() -> dict[str, Any]:
    """The JSON-LD context (``ontology/context.jsonld``) as a dict ``{"@context": {...}}``."""
    return json.loads((resources.files("yili.ontology") / "context.jsonld").read_text(encoding="utf-8"))


def represent(triples: list[pyoxigraph.Triple], media: str, *, iri: str, base: str, title: str, vary: dict[str, str]) -> Response:
    """``triples`` as a response in ``media`` (one of :data:`FORMATS`' values): an RDF
    serialization by Oxigraph with the project's prefixes, or an HTML page listing them."""
    if media == "text/html":
        return HTMLResponse(_html(triples, iri=iri, base=base, title=title), headers=vary)
    body = pyoxigraph.serialize(triples, format=_RDF_FORMATS[media], prefixes=prefixes_for(base))
    media_type = media + ("; charset=utf-8" if media.startswith("text/") else "")
    return Response(body, media_type=media_type, headers=vary)


def _html(triples: list[pyoxigraph.Triple], *, iri: str, base: str, title: str) -> str:
    """An HTML page of ``triples``: one table per subject, the resource's own first, every IRI
    under ``base`` linked to its path on this server, with links to the RDF representations."""
    prefixes = sorted(prefixes_for(base).items(), key=lambda kv: -len(kv[1]))

    def short(node: object) -> str:
        if isinstance(node, pyoxigraph.NamedNode):
            value = node.value
            label = next(
                (f"{p}:{value[len(ns) :]}" for p, ns in prefixes if value.startswith(ns) and len(value) > len(ns)), value
            )
            href = "/" + value[len(base) :] if value.startswith(base) else value
            return f'<a href="{html.escape(href)}">{html.escape(label)}</a>'
        if isinstance(node, pyoxigraph.Literal):
            lang = f' lang="{html.escape(node.language)}"' if node.language else ""
            tag = f" <small>@{html.escape(node.language)}</small>" if node.language else ""
            return f"<span{lang}>{html.escape(node.value)}</span>{tag}"
        return f"<code>_:{html.escape(str(getattr(node, 'value', node)))}</code>"

    by_subject: dict[str, list[pyoxigraph.Triple]] = {}
    for t in triples:
        by_subject.setdefault(str(t.subject), []).append(t)
    own = str(pyoxigraph.NamedNode(iri))
    order = sorted(by_subject, key=lambda s: (s != own, s))
    sections = []
    for subject in order:
        rows = "".join(
            f"<tr><td>{short(t.predicate)}</td><td>{short(t.object)}</td></tr>"
            for t in sorted(by_subject[subject], key=lambda t: (str(t.predicate), str(t.object)))
        )
        head = short(by_subject[subject][0].subject)
        sections.append(f"<h2>{head}</h2><table><tbody>{rows}</tbody></table>")
    alternates = " · ".join(f'<a href="?format={name}">{name}</a>' for name in FORMATS if name not in ("html", "json"))
    return (
        '<!doctype html><html lang="zh-Hant"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)} · yili-kg</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        + "".join(
            f'<link rel="alternate" type="{media}" href="?format={name}">'
            for name, media in FORMATS.items()
            if name not in ("html", "json")
        )
        + "<style>body{font-family:'Noto Sans CJK TC','Noto Sans CJK SC',sans-serif;margin:2em;max-width:70em}"
        "table{border-collapse:collapse;margin-bottom:1.5em}td{border-top:1px solid #ddd;padding:.2em .8em;vertical-align:top}"
        "h1{font-size:1.3em}h2{font-size:1em}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p><code>{html.escape(iri)}</code></p>"
        f'<p>Also as: {alternates} · <a href="/">viewer</a> · <a href="/sparql">SPARQL</a></p>'
        + "".join(sections)
        + "</body></html>"
    )


def _alignments(base: str) -> list[pyoxigraph.Triple]:
    """The triples of the packaged ``ontology/alignments.ttl``, with the IRIs under the default base
    moved under ``base``."""
    data = (resources.files("yili.ontology") / "alignments.ttl").read_bytes()

    def moved(node: Any) -> Any:
        if isinstance(node, pyoxigraph.NamedNode) and node.value.startswith(DEFAULT_BASE):
            return pyoxigraph.NamedNode(base + node.value[len(DEFAULT_BASE) :])
        return node

    triples = (
        pyoxigraph.Triple(moved(t.subject), moved(t.predicate), moved(t.object))
        for t in pyoxigraph.parse(data, format=pyoxigraph.RdfFormat.TURTLE)
    )
    return sorted(triples, key=lambda t: (str(t.subject), str(t.predicate), str(t.object)))


def _label(store: pyoxigraph.Store, iri: str) -> str:
    """The resource's label for a page title: skos:prefLabel or rdfs:label (zh-Hant first), else the IRI."""
    rows = store.query(
        "SELECT ?l WHERE { VALUES ?p { <http://www.w3.org/2004/02/skos/core#prefLabel> "
        "<http://www.w3.org/2000/01/rdf-schema#label> <http://purl.org/dc/terms/title> } "
        f"<{iri}> ?p ?l }} ORDER BY DESC(LANG(?l) = 'zh-hant') ?l LIMIT 1",
        use_default_graph_as_union=True,
    )
    for row in rows:  # type: ignore[union-attr]
        return str(row["l"].value)
    return iri


def _resource_handler(kind: str, what: str, answer: Any, describe: Any, store: Any, base: str) -> Any:
    """The route function for IRIs ``{base}{kind}/{key}`` (a function of ``key`` and the request only,
    so that FastAPI documents no other parameter)."""

    def resource(key: str, request: Request) -> Response:
        if not key or any(c in key for c in '<>"{}|\\^` \n'):
            raise NotFoundError(f"no resource /{kind}/{key[:80]}")
        # the path as decoded, re-encoded segment by segment as mint() encodes the keys
        iri = f"{base}{kind}/" + "/".join(quote(part, safe="-_.~") for part in key.split("/"))
        return answer(request, iri, lambda: describe(iri), lambda: _label(store(), iri))

    resource.__doc__ = (
        f"The IRI ``{{base}}{kind}/{{key}}``, {what}: its description (its triples and those of the blank "
        "nodes it leads to) as JSON-LD, Turtle, N-Triples, RDF/XML or an HTML page, chosen by ``Accept`` "
        "(``format=`` jsonld, turtle, ntriples, rdfxml, html overrides); ``Vary: Accept``.  404 if the graph "
        "holds nothing about it; 400 for a parameter other than ``format``; 406 if nothing offered is acceptable."
    )
    return resource


def make_resource_router(store: Any, base: str) -> APIRouter:
    """Routes that dereference the graph's IRIs (see the module docstring).

    Parameters
    ----------
    store : callable
        ``store()`` gives the :class:`pyoxigraph.Store` served.
    base : str
        The base IRI the graph was built with; the IRI of ``/rite/yanli`` is ``base + "rite/yanli"``.

    Returns
    -------
    fastapi.APIRouter
        ``GET /{kind}/{key:path}`` for each of :data:`KINDS`, ``GET /ontology`` and ``GET /context.jsonld``.
        Each answers 404 when the graph holds no triple about the IRI, 400 for a parameter other
        than ``format``, 406 when no representation is acceptable.
    """
    router = APIRouter()

    def answer(request: Request, iri: str, triples_of: Any, title_of: Any) -> Response:
        extra = sorted(set(request.query_params) - {"format"})
        if extra:
            raise RequestError(f"unknown parameter {extra[0]!r}: only format= is accepted here")
        media = choose_format(request.headers.get("accept", ""), request.query_params.get("format"))
        triples = triples_of()
        if not triples:
            raise NotFoundError(f"the graph holds nothing about <{iri}>")
        return represent(triples, media, iri=iri, base=base, title=title_of(), vary={"Vary": "Accept"})

    def describe(iri: str) -> list[pyoxigraph.Triple]:
        result = store().query(f"DESCRIBE <{iri}>", use_default_graph_as_union=True)
        # once each: Oxigraph gives a triple once per named graph that holds it
        return sorted(set(result), key=lambda t: (str(t.subject), str(t.predicate), str(t.object)))

    @router.get(
        "/graph/vocabulary",
        summary="The vocabulary's named graph: 303 See Other to /ontology",
        status_code=303,
        response_class=Response,
        responses={303: {"description": "The named graph's content is /ontology"}},
    )
    def vocabulary_graph(request: Request) -> Response:
        """``{base}graph/vocabulary``, the named graph that holds the ontology, the vocabulary and the
        rite profiles: it has no provenance of its own, and its content is what ``/ontology``
        serves, so it answers 303 See Other there (W3C, *Cool URIs for the Semantic Web*, 303 URIs),
        keeping the query (``?format=``)."""
        query = request.url.query
        return Response(status_code=303, headers={"Location": "/ontology" + (f"?{query}" if query else ""), "Vary": "Accept"})

    for kind, what in KINDS.items():
        router.add_api_route(
            f"/{kind}/{{key:path}}",
            _resource_handler(kind, what, answer, describe, store, base),
            methods=["GET"],
            summary=f"Dereference {what}",
            response_class=Response,
            responses=_RESPONSES,
            name=f"resource_{kind}",
        )

    @router.get("/ontology", summary="The ontology and vocabulary, whole", response_class=Response, responses=_RESPONSES)
    def ontology(request: Request) -> Response:
        """The ontology (``yk:``, ``{base}ontology``) with the vocabulary (``ykv:``) and the rite
        profiles: every triple of the vocabulary's named graph, as JSON-LD, Turtle, N-Triples, RDF/XML
        or HTML (``Accept``; ``format=`` overrides); ``Vary: Accept``."""
        graph = str(vocabulary_graph_iri(base))

        def triples() -> list[pyoxigraph.Triple]:
            quads = store().quads_for_pattern(None, None, None, pyoxigraph.NamedNode(graph))
            return sorted(
                (pyoxigraph.Triple(q.subject, q.predicate, q.object) for q in quads),
                key=lambda t: (str(t.subject), str(t.predicate), str(t.object)),
            )

        return answer(request, f"{base}ontology", triples, lambda: "yili-kg ontology and vocabulary")

    @router.get(
        "/ontology/alignments",
        summary="The ontology's alignments to other vocabularies",
        response_class=Response,
        responses=_RESPONSES,
    )
    def alignments(request: Request) -> Response:
        """``{base}ontology/alignments``: the packaged ``ontology/alignments.ttl`` (the ontology's
        alignments to PROV-O, P-Plan, Web Annotation, CIDOC-CRM and Dublin Core, kept out of the
        graph so that a reasoner loads them only when asked), as JSON-LD, Turtle, N-Triples, RDF/XML
        or HTML (``Accept``; ``format=`` overrides); ``Vary: Accept``."""
        return answer(request, f"{base}ontology/alignments", lambda: _alignments(base), lambda: "yili-kg ontology alignments")

    @router.get(
        "/context.jsonld",
        summary="The JSON-LD context",
        response_class=Response,
        responses={
            200: {"description": "The context", "content": {"application/ld+json": {}}},
            400: _RESPONSES[400],
            406: _RESPONSES[406],
        },
    )
    def context(request: Request) -> Response:
        """The JSON-LD 1.1 context (``{base}context.jsonld``) that maps the short keys of the step
        JSON-LD (``agent``, ``charStart``…) to the ontology's IRIs; ``application/ld+json``
        (or ``application/json`` when that is what ``Accept`` asks)."""
        if request.query_params:
            raise RequestError(f"unknown parameter {sorted(request.query_params)[0]!r}: this resource takes none")
        media = choose_format(
            request.headers.get("accept", ""), None, {"jsonld": "application/ld+json", "json": "application/json"}
        )
        body = json.dumps(context_document(), ensure_ascii=False, indent=2).encode()
        return Response(body, media_type=media, headers={"Vary": "Accept"})

    return router
