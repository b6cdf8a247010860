"""Which SPARQL queries are cheap enough to answer in the server process, decided on their parsed form.

The SPARQL endpoint evaluates queries in worker processes, which can be killed when a query runs past
its budget (:mod:`yili.api.sparql_pool`); the hop to a worker costs a point lookup most of its time.
A query may skip it only when its form proves that it is cheap, never because an earlier run was fast
(a query's cost can change with the clock, ``NOW()``, or with its data): :func:`is_cheap` reads the
query with a small parser of its own, which accepts only this form and nothing else (anything it does
not recognise is not cheap, so a mistake of this parser can only send a query to a worker):

- a prologue of ``PREFIX`` declarations only (no ``BASE``, no comment);
- ``SELECT`` with a list of variables or ``*`` (no ``DISTINCT``, no expression, no aggregate), an
  optional ``WHERE``;
- one basic graph pattern (W3C, *SPARQL 1.1 Query*, section 5.1.1) of at most
  :data:`MAX_PATTERNS` triple patterns (``;`` and ``,`` lists allowed) that all share one subject (a
  star), each with a bound subject or a bound object (an IRI, a prefixed name or a literal), whose
  predicate is an IRI, a prefixed name, ``a`` or a variable: no property path, no ``OPTIONAL``,
  ``UNION``, ``GRAPH``, ``BIND``, ``VALUES``, subquery or blank node;
- ``FILTER`` only as a plain comparison of a variable with a constant (``FILTER(?n < 3)``: ``=``,
  ``!=``, ``<``, ``>``, ``<=``, ``>=``), no function;
- an optional ``LIMIT`` (the endpoint's row cap, ``SparqlLimits.max_rows``, holds in any case); no
  ``ORDER BY``, ``GROUP BY``, ``OFFSET`` or ``HAVING``.

Each triple pattern then reads the triples around one bound node, joined on the one shared subject,
and the rows stream under the row cap: the store's indexes answer it in the time of the rows it gives.
"""

from __future__ import annotations

import re

MAX_PATTERNS = 8
"""The most triple patterns a cheap query may have."""

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    | (?P<var>[?$][A-Za-z0-9_]+)
    | (?P<string>"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
    | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
    | (?P<datatype>\^\^)
    | (?P<number>[+-]?[0-9]+(?:\.[0-9]+)?(?![0-9A-Za-z_.:]))
    | (?P<pname>(?:[A-Za-z][A-Za-z0-9_\-]*)?:(?:[A-Za-z0-9_](?:[A-Za-z0-9_\-.]*[A-Za-z0-9_\-])?)?)
    | (?P<word>[A-Za-z]+)
    | (?P<op><=|>=|!=|[=<>])
    | (?P<punct>[{}().;,*])
    )""",
    re.VERBOSE,
)


def _tokens(query: str) -> list[tuple[str, str]] | None:
    """The query as (kind, text) tokens, or None if any part of it is none of them (a comment, a
    long string, a path operator, an escape …)."""
    out: list[tuple[str, str]] = []
    position = 0
    end = len(query.rstrip())
    while position < end:
        match = _TOKEN.match(query, position)
        if match is None or match.end() == position:
            return None
        kind = match.lastgroup
        assert kind is not None
        out.append((kind, match.group(kind)))
        position = match.end()
    return out


class _Reader:
    """A cursor over the tokens; every method returns None (or False) at anything unexpected."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens, self.i = tokens, 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", "")

    def take(self, kind: str, text: str | None = None) -> str | None:
        token_kind, token_text = self.peek()
        if token_kind != kind or (text is not None and token_text.upper() != text):
            return None
        self.i += 1
        return token_text

    def constant(self) -> str | None:
        """An IRI, a prefixed name, a number or a literal (with its language or datatype)."""
        for kind in ("iri", "pname", "number"):
            value = self.take(kind)
            if value is not None:
                return value
        value = self.take("string")
        if value is None:
            return None
        lang = self.take("lang")
        if lang is not None:
            return value + lang
        if self.take("datatype") is not None:
            datatype = self.take("iri") or self.take("pname")
            return None if datatype is None else f"{value}^^{datatype}"
        return value


def is_cheap(query: str) -> bool:
    """Whether ``query`` has the form the module describes (cheap whatever the data), read by this
    module's own parser; False for anything else, including any text it cannot read.

    >>> is_cheap("SELECT ?p ?o WHERE { <https://w3id.org/yili-kg/step/yanli/shuzhu/1/1> ?p ?o }")
    True
    >>> is_cheap("SELECT * { <http://example.org/a> <http://example.org/n> ?n FILTER(?n < 3) } LIMIT 10")
    True
    >>> is_cheap("SELECT ?s { ?s a <http://example.org/Step> ; <http://example.org/n> ?n }")  # ?n unbound: not proven
    False
    >>> is_cheap("SELECT ?s { ?s a <http://example.org/Step> ; <http://example.org/order> 1 }")
    True
    >>> is_cheap("SELECT ?s { ?s ?p ?o }")  # nothing bound
    False
    >>> is_cheap("SELECT ?o { <http://e/a> <http://e/p>/<http://e/q> ?o }")  # a property path
    False
    >>> is_cheap("SELECT ?a ?b { ?a a <http://e/C> . ?b a <http://e/C> }")  # a product: two subjects
    False
    >>> is_cheap("SELECT ?o { <http://e/a> ?p ?o } ORDER BY ?o")
    False
    """
    tokens = _tokens(query)
    if tokens is None:
        return False
    r = _Reader(tokens)
    while r.take("word", "PREFIX") is not None:
        if r.take("pname") is None or r.take("iri") is None:
            return False
    if r.take("word", "SELECT") is None:
        return False
    if r.take("punct", "*") is None:
        if r.take("var") is None:
            return False
        while r.take("var") is not None:
            pass
    r.take("word", "WHERE")
    if r.take("punct", "{") is None:
        return False
    patterns: list[tuple[str, str, str]] = []
    while True:
        if r.take("punct", "}") is not None:
            break
        if r.take("word", "FILTER") is not None:
            if not (r.take("punct", "(") and r.take("var") and r.take("op") and r.constant() and r.take("punct", ")")):
                return False
            continue
        subject = r.take("var") or r.take("iri") or r.take("pname")
        if subject is None:
            return False
        while True:  # predicate-object list
            predicate = r.take("var") or r.take("iri") or r.take("pname") or r.take("word", "A")
            if predicate is None:
                return False
            while True:  # object list
                obj = r.take("var") or r.constant()
                if obj is None:
                    return False
                patterns.append((subject, predicate, obj))
                if r.take("punct", ",") is None:
                    break
            if r.take("punct", ";") is None:
                break
            if r.peek() in (("punct", "."), ("punct", "}")):  # a trailing ';'
                break
        r.take("punct", ".")
    if r.take("word", "LIMIT") is not None and r.take("number") is None:
        return False
    if r.peek()[0] != "end" or not 0 < len(patterns) <= MAX_PATTERNS:
        return False
    subjects = {s for s, _, _ in patterns}
    bound = all(not s.startswith(("?", "$")) or not o.startswith(("?", "$")) for s, _, o in patterns)
    return len(subjects) == 1 and bound


_LIMIT = re.compile(r"\bLIMIT\s+([0-9]+)\s*$", re.IGNORECASE)


def with_row_cap(query: str, rows: int, proven: bool = False) -> str | None:
    """``query``, which :func:`is_cheap` accepts, with a ``LIMIT`` of at most ``rows`` (its own
    ``LIMIT`` if smaller, else ``rows``), so that its evaluation stops by itself after that many rows;
    None for a query it does not accept, or whose ``LIMIT`` is not a plain whole number.  With
    ``proven``, the caller has just had :func:`is_cheap` accept ``query``, and it is not read again.

    The form :func:`is_cheap` accepts ends with its optional ``LIMIT`` (SPARQL 1.1 Query, section
    15.5: a LIMIT bounds the number of solutions returned), so the cap is put there.

    >>> with_row_cap("SELECT ?o { <http://e/a> ?p ?o }", 11)
    'SELECT ?o { <http://e/a> ?p ?o }\\nLIMIT 11'
    >>> with_row_cap("SELECT ?o { <http://e/a> ?p ?o } LIMIT 5", 11)
    'SELECT ?o { <http://e/a> ?p ?o }\\nLIMIT 5'
    >>> with_row_cap("SELECT ?s { ?s ?p ?o }", 11) is None
    True
    """
    if not proven and not is_cheap(query):
        return None
    stripped = query.rstrip()
    own = _LIMIT.search(stripped)
    if own is not None:
        return f"{stripped[: own.start()].rstrip()}\nLIMIT {min(int(own.group(1)), rows)}"
    if re.search(r"\bLIMIT\b", stripped[-40:], re.IGNORECASE):  # a LIMIT is_cheap read but this cannot
        return None
    return f"{stripped}\nLIMIT {rows}"
