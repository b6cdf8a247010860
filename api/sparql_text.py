"""The OpenAPI description of ``/sparql`` (:func:`yili.api.sparql.make_sparql_router`), and the checks made
on a query's raw text before it is evaluated: brackets, and ``SERVICE`` (federated query), refused
before Oxigraph sees the query, because Oxigraph would otherwise call the remote endpoint over HTTP."""

from __future__ import annotations

import re
import threading
from typing import Any

from yili.api.sparql_eval import OPAQUE

FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
QUERY_MEDIA_TYPE = "application/sparql-query"


GET_PARAMETERS: list[dict[str, Any]] = [
    {
        "name": "query",
        "in": "query",
        "required": True,
        "schema": {"type": "string"},
        "description": "The SPARQL 1.1 query (SELECT, ASK, CONSTRUCT or DESCRIBE).",
        "example": "SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 10",
    },
]
"""The OpenAPI parameters of ``GET /sparql``: ``query``."""
DATASET_PARAMETERS: list[dict[str, Any]] = [
    {
        "name": "default-graph-uri",
        "in": "query",
        "required": False,
        "schema": {"type": "array", "items": {"type": "string"}},
        "description": "Graphs (already in the store) merged into the default graph; repeatable.",
    },
    {
        "name": "named-graph-uri",
        "in": "query",
        "required": False,
        "schema": {"type": "array", "items": {"type": "string"}},
        "description": "Graphs (already in the store) available to GRAPH patterns; repeatable.",
    },
    {
        "name": "format",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "Overrides Accept: json, xml, csv, tsv (SELECT, ASK); "
        "turtle, ntriples, rdfxml, jsonld, n3 (as Turtle) (CONSTRUCT, DESCRIBE), or a media type. "
        "Repeatable, and a value may list names with commas: the first one offered wins.",
    },
]
"""The OpenAPI parameters of the SPARQL Protocol's RDF dataset (``default-graph-uri``,
``named-graph-uri``) and of the answer format, for ``GET`` and ``POST /sparql``."""
POST_BODY: dict[str, Any] = {
    "required": True,
    "content": {
        FORM_MEDIA_TYPE: {
            "schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "default-graph-uri": {"type": "array", "items": {"type": "string"}},
                    "named-graph-uri": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["query"],
            }
        },
        QUERY_MEDIA_TYPE: {"schema": {"type": "string"}, "example": "ASK { ?s ?p ?o }"},
    },
}
"""The OpenAPI ``requestBody`` of ``POST /sparql``: a form (``query=`` or ``update=``) or a bare query."""
_ERROR_SCHEMA: dict[str, Any] = {
    "application/json": {
        "schema": {
            "type": "object",
            "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
        }
    }
}
SPARQL_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Query results (SELECT, ASK) or an RDF graph (CONSTRUCT, DESCRIBE).",
        "content": {
            "application/sparql-results+json": {},
            "application/sparql-results+xml": {},
            "text/csv": {},
            "text/tab-separated-values": {},
            "text/turtle": {},
            "application/n-triples": {},
            "application/rdf+xml": {},
            "application/ld+json": {},
        },
    },
    400: {"description": "Malformed, missing or repeated query; SERVICE", "content": _ERROR_SCHEMA},
    403: {"description": "A SPARQL Update: the endpoint is read-only", "content": _ERROR_SCHEMA},
    406: {"description": "No offered format satisfies Accept / format=", "content": _ERROR_SCHEMA},
    413: {"description": "Body, query or result over a limit", "content": _ERROR_SCHEMA},
    415: {"description": "POST body of an unsupported media type", "content": _ERROR_SCHEMA},
    500: {"description": "The evaluating worker crashed, or the endpoint failed", "content": _ERROR_SCHEMA},
    503: {"description": "The query ran past its time budget", "content": _ERROR_SCHEMA},
}
"""The OpenAPI ``responses`` of ``/sparql``: its answers and its error answers (JSON ``{"error", "message"}``)."""


def count_brackets(query: str) -> int:
    """How many ``{ ( [ <`` the query holds, strings, IRIs and comments included.

    An upper bound on the nesting depth Oxigraph's parser will reach, whatever the query means.

    >>> count_brackets("SELECT * { ?s ?p ?o FILTER(?o < 3) }")
    3
    """
    return sum(query.count(bracket) for bracket in "{([<")


_WORD = re.compile(r"\w+")
SERVICE_WORD = re.compile("service", re.IGNORECASE)
"""The word ``service`` in any case: a query without it holds no SERVICE clause (a cheap first test)."""
_SERVICE_KEYWORD = re.compile(r"(?<![\w?$:])SERVICE(?![\w:])", re.IGNORECASE)
_PARSE_LIMIT = 20_000
"""The longest query (characters) read with rdflib's parser for SERVICE; a longer one that mentions
the word is judged by the conservative :func:`_mentions_service`."""
_PARSER_LOCK = threading.Lock()  # pyparsing's packrat cache is not thread-safe


def has_service(query: str) -> bool:
    """Whether the query holds a ``SERVICE`` clause (W3C, *SPARQL 1.1 Federated Query*), decided on
    the parsed query: the word in a string, a comment, an IRI, a variable or a prefixed name is not
    a clause.

    A query without the letters ``service`` (any case) has none.  Otherwise it is parsed with
    rdflib's SPARQL 1.1 grammar and refused if the parse holds a ``ServiceGraphPattern``; and, since
    two parsers could read one text two ways, also if ``SERVICE`` stands as a keyword once
    comments, IRIs and strings are blanked.  A query rdflib cannot parse, or one longer than
    :data:`_PARSE_LIMIT`, falls back on :func:`_mentions_service`, which refuses the word anywhere
    but in a variable or a prefixed name's local part.

    >>> has_service("SELECT * { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    True
    >>> has_service('PREFIX sv: <http://example.org/service#> SELECT * { ?s sv:p "self-service" } # a service')
    False
    >>> has_service("SELECT * { ?s ?p ex:a\\\\# . SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    True
    """
    if not SERVICE_WORD.search(query):
        return False
    if len(query) > _PARSE_LIMIT:
        return _mentions_service(query)
    from rdflib.plugins.sparql.parser import parseQuery

    try:
        with _PARSER_LOCK:
            tree = parseQuery(query)
    except Exception:  # noqa: BLE001 - any failure of the other parser: judge conservatively
        return _mentions_service(query)
    if _tree_has(tree, "ServiceGraphPattern"):
        return True

    def blank(match: re.Match[str]) -> str:
        return " " if match.lastgroup == "comment" else "<>" if match.lastgroup == "iri" else '""'

    return _SERVICE_KEYWORD.search(OPAQUE.sub(blank, query)) is not None


def _tree_has(node: object, name: str) -> bool:
    """Whether a pyparsing parse tree (rdflib's ``CompValue`` nodes, lists, dicts) holds a node named ``name``."""
    stack = [node]
    while stack:
        item = stack.pop()
        if getattr(item, "name", None) == name:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)) or type(item).__name__ == "ParseResults":
            stack.extend(list(item))
    return False


def _mentions_service(query: str) -> bool:
    """Whether the query may hold a ``SERVICE`` clause (W3C, *SPARQL 1.1 Federated Query*).

    Conservative on purpose.  A word (a run of letters, digits and ``_``) containing ``service`` in
    any case is harmless only right after ``?`` or ``$`` (a variable: ``?service``) or ``:`` (the
    local part of a prefixed name: ``ex:fooService``), because Oxigraph reads those names greedily
    and no keyword can start inside them.  Every other occurrence counts, even in a string, an IRI
    or a comment: Oxigraph reads the keyword without a word boundary (``1SERVICE <x> {}`` and
    ``ex:.SERVICE <x> {}`` both call ``<x>``), and a lexer of our own could disagree with Oxigraph's
    about where a string ends.

    >>> _mentions_service("SELECT * { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    True
    >>> _mentions_service("SELECT ?service { ?service a ex:Service }")
    False
    >>> _mentions_service('SELECT * { ?s ?p "self-service" }')
    True
    """
    for word in _WORD.finditer(query):
        if SERVICE_WORD.search(word.group()) and (word.start() == 0 or query[word.start() - 1] not in ":?$"):
            return True
    return False
