"""The graph in a remote triplestore: a SPARQL 1.1 Protocol client, and the Graph Store push.

The API serves a graph through one interface, :class:`GraphStore`: what the routes ask of a store
(``query`` with the union of the named graphs as default graph, ``quads_for_pattern`` on a named
graph, ``len``).  It has two implementations, chosen when the server starts: the embedded Oxigraph
store (``pyoxigraph.Store``, on disk or in memory) and :class:`SparqlHttpStore`, which sends the same
queries to a SPARQL 1.1 endpoint over HTTP (httpx) and gives back the same pyoxigraph result types,
so that no route knows which it talks to.

The union default graph is asked for in the protocol's own terms, not a store's setting: every
query names the store's graphs as ``default-graph-uri`` and ``named-graph-uri`` (SPARQL 1.1
Protocol §2.1.4), so any conforming store (Oxigraph server, Virtuoso, Fuseki, GraphDB …) answers as
the embedded store does.

:func:`push` loads a built graph into a store with the SPARQL 1.1 Graph Store HTTP Protocol (``PUT``
of each named graph, indirect identification ``?graph=IRI``, §5.3).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlencode

import httpx
import pyoxigraph
from yili.ontology.errors import InputError

TIMEOUT = 300.0
"""Seconds to wait for the remote store's answer to one request (the lookups that read a whole
edition, the exports' step chain, take tens of seconds on Virtuoso over a few graphs)."""


class RemoteStoreError(InputError):
    """The remote store failed or could not be reached (the API answers 502 ``remote_store``; the
    command line ends with one line and exit code 2, as for any input error)."""

    kind = "remote_store"
    status = 502


class RemoteRefusedError(RemoteStoreError):
    """The remote store answered a query with a 4xx status (400: it could not parse it): the
    query's fault, not the store's.  ``remote_message`` holds the first line of its answer."""

    def __init__(self, message: str, remote_message: str = "") -> None:
        super().__init__(message)
        self.remote_message = remote_message


class RemoteTimeoutError(RemoteStoreError):
    """The remote store did not answer within the time given to the request."""


class RemoteTooLargeError(RemoteStoreError):
    """The remote store's answer was over the bytes the caller would read."""


class GraphStore(Protocol):
    """What the API asks of the store it serves (``pyoxigraph.Store`` has it; so does
    :class:`SparqlHttpStore`)."""

    def query(self, query: str, *, use_default_graph_as_union: bool = False) -> Any:
        """Evaluate a SPARQL query: ``QuerySolutions`` (SELECT), ``QueryTriples`` (CONSTRUCT, DESCRIBE)
        or ``QueryBoolean`` (ASK)."""
        ...

    def quads_for_pattern(self, subject: Any, predicate: Any, object: Any, graph_name: Any = None) -> Iterator[pyoxigraph.Quad]:
        """The quads matching a pattern (None is a wildcard)."""
        ...

    def __len__(self) -> int:
        """The number of quads."""
        ...


def parse_auth(value: str | None) -> tuple[str, str] | None:
    """``--auth user:pass`` as httpx's basic authentication pair (None when not given).

    Raises
    ------
    InputError
        ``--auth``: the value has no ``:`` between user and password.
    """
    if value is None:
        return None
    user, sep, password = value.partition(":")
    if not sep or not user:
        raise InputError("--auth: give user:password")
    return user, password


def check_url(url: str, option: str) -> str:
    """``url`` itself if it is an ``http://`` or ``https://`` URL with a host.

    Raises
    ------
    InputError
        It is not, naming ``option`` (the command-line option it came from) and the value.
    """
    if not re.match(r"^https?://[^\s/]+", url or ""):
        raise InputError(f"{option} {url!r}: not an http:// or https:// URL")
    return url


_FORM = re.compile(
    r"^(?:\s+|#[^\n]*|PREFIX\s+[^\s:]*:\s*<[^<>]*>|BASE\s*<[^<>]*>)*(SELECT|ASK|CONSTRUCT|DESCRIBE)\b", re.IGNORECASE
)
"""The form of a query: the keyword after its prologue (comments, PREFIX and BASE declarations)."""


def query_form(query: str) -> str | None:
    r"""The form of a SPARQL query, ``SELECT``, ``ASK``, ``CONSTRUCT`` or ``DESCRIBE``: the keyword
    after its prologue (comments, ``PREFIX`` and ``BASE``), upper-cased; None for anything else (an
    update, a store's own syntax, a malformed text).

    >>> query_form("PREFIX ex: <http://example.org/> # who\nselect * { ?s ?p ?o }")
    'SELECT'
    >>> query_form("INSERT DATA { <a> <b> <c> }") is None
    True
    """
    form = _FORM.match(query)
    return form.group(1).upper() if form else None


def _as_boolean(solutions: pyoxigraph.QuerySolutions) -> pyoxigraph.QueryBoolean:
    """An ASK answered as a table (Virtuoso, given dataset parameters, answers one row of one integer
    ``__ask_retval``, 1 or 0) as the boolean it means: true when its first value is neither absent, 0
    nor false."""
    value = "0"
    for row in solutions:
        term = row[0]
        value = term.value if term is not None else "0"
        break
    answer = b"false" if value in ("0", "false", "") else b"true"
    parsed = pyoxigraph.parse_query_results(b'{"head":{},"boolean":' + answer + b"}", format=pyoxigraph.QueryResultsFormat.JSON)
    assert isinstance(parsed, pyoxigraph.QueryBoolean)
    return parsed


_DESCRIBE_ONE = re.compile(r"^\s*DESCRIBE\s+<([^<>\"{}|^`\\\s]*)>\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class _Reply:
    """An endpoint's answer, read whole: status, headers and body bytes."""

    status_code: int
    headers: httpx.Headers
    content: bytes


class SparqlHttpStore:
    """A read-only SPARQL 1.1 endpoint seen as a ``pyoxigraph.Store`` (:class:`GraphStore`).

    Parameters
    ----------
    endpoint : str
        The query endpoint (``http://host:7878/query`` for the Oxigraph server, ``http://host:8890/sparql``
        for Virtuoso).
    auth : (str, str), optional
        HTTP basic authentication.
    graph_prefix : str
        Serve the named graphs whose IRIs start with this (``{base}graph/``: yili-kg's), as the union
        of the queries' dataset; default every graph.

    Raises
    ------
    RemoteStoreError
        The endpoint cannot be reached or does not answer a SPARQL query (at creation: it lists the
        store's named graphs; later, at any query: the API answers 502).
    """

    def __init__(
        self, endpoint: str, auth: tuple[str, str] | None = None, timeout: float = TIMEOUT, graph_prefix: str = ""
    ) -> None:
        self.endpoint = check_url(endpoint, "--endpoint")
        self._client = httpx.Client(auth=auth, timeout=timeout, follow_redirects=True)
        self._timeout = timeout
        self.graphs: list[str] = []
        rows = self._post(
            "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g", "application/sparql-results+json", dataset=False
        )
        solutions = pyoxigraph.parse_query_results(rows.content, format=pyoxigraph.QueryResultsFormat.JSON)
        named = (s["g"] for s in solutions)  # type: ignore[index]
        # the graphs served: those under graph_prefix (a store's own system graphs, Virtuoso's, are left out)
        self.graphs = sorted(g.value for g in named if isinstance(g, pyoxigraph.NamedNode) and g.value.startswith(graph_prefix))

    def _post(
        self,
        query: str,
        accept: str,
        dataset: bool | tuple[Sequence[str], Sequence[str]] = True,
        timeout: float | None = None,
        max_bytes: int | None = None,
    ) -> _Reply:
        """POST the query (SPARQL 1.1 Protocol §2.1.2, URL-encoded) and read the answer.

        ``dataset``: True sends the store's graphs as ``default-graph-uri`` and ``named-graph-uri``
        (the union of the named graphs as default graph); a pair ``(default graphs, named graphs)``
        sends those IRIs; False sends none (the query's own ``FROM`` applies).  ``timeout``: seconds
        for the whole request (the client's default if None).  ``max_bytes``: the largest answer read.

        Raises
        ------
        RemoteTimeoutError
            No answer within ``timeout``.
        RemoteTooLargeError
            The answer is over ``max_bytes``.
        RemoteRefusedError
            A 4xx answer (the query refused), its first line named.
        RemoteStoreError
            The endpoint cannot be reached, or a 5xx answer (named).
        """
        form: list[tuple[str, str]] = [("query", query)]
        if dataset is True:
            form += [("default-graph-uri", g) for g in self.graphs] + [("named-graph-uri", g) for g in self.graphs]
        elif dataset is not False:
            form += [("default-graph-uri", g) for g in dataset[0]] + [("named-graph-uri", g) for g in dataset[1]]
        body = urlencode(form).encode("ascii")
        headers = {"Accept": accept, "Content-Type": "application/x-www-form-urlencoded"}
        try:
            request = self._client.build_request(
                "POST", self.endpoint, content=body, headers=headers, timeout=timeout if timeout is not None else self._timeout
            )
            answer = self._client.send(request, stream=True)
            try:
                chunks: list[bytes] = []
                size = 0
                for chunk in answer.iter_bytes():
                    size += len(chunk)
                    if max_bytes is not None and size > max_bytes:
                        raise RemoteTooLargeError(f"{self.endpoint}: the answer is over {max_bytes:,} bytes")
                    chunks.append(chunk)
            finally:
                answer.close()
            reply = _Reply(answer.status_code, answer.headers, b"".join(chunks))
        except httpx.TimeoutException:
            raise RemoteTimeoutError(
                f"{self.endpoint}: the SPARQL endpoint did not answer within {timeout or self._timeout:g} s"
            ) from None
        except httpx.HTTPError as exc:
            raise RemoteStoreError(f"{self.endpoint}: the SPARQL endpoint cannot be reached: {exc}") from None
        if reply.status_code >= 400:
            text = reply.content.decode("utf-8", "replace").strip()
            first = text.splitlines()[0][:200] if text else ""
            message = f"{self.endpoint}: the SPARQL endpoint answered {reply.status_code}: {first}"
            if reply.status_code < 500:
                raise RemoteRefusedError(message, first)
            raise RemoteStoreError(message)
        return reply

    def query(
        self,
        query: str,
        *,
        use_default_graph_as_union: bool = False,
        base_iri: str | None = None,
        dataset: bool | tuple[Sequence[str], Sequence[str]] = True,
        timeout: float | None = None,
        max_bytes: int | None = None,
        **_: Any,
    ) -> Any:
        """Evaluate ``query`` on the endpoint and give the result as pyoxigraph gives it:
        ``QuerySolutions``, ``QueryBoolean`` or ``QueryTriples``.

        The dataset is the union of the store's named graphs (whatever ``use_default_graph_as_union``
        says) unless ``dataset`` says otherwise (see :meth:`_post`: a pair of IRI lists, or False for
        the query's own ``FROM``).  ``base_iri``, if given, is declared as the query's ``BASE``.
        ``DESCRIBE <iri>`` is asked as the CONSTRUCT of Oxigraph's own description (the IRI's triples
        and those of the blank nodes they lead to, three levels deep), since stores describe differently.

        Raises
        ------
        SyntaxError
            The query is none of SELECT, ASK, CONSTRUCT and DESCRIBE (after its prologue): it is not
            sent.
        RemoteStoreError
            The endpoint fails (named); its subclasses as :meth:`_post` says.
        """
        one = _DESCRIBE_ONE.match(query)
        if one:
            iri = one.group(1)
            query = (
                f"CONSTRUCT {{ <{iri}> ?p ?o . ?o ?p2 ?o2 . ?o2 ?p3 ?o3 }} WHERE {{ <{iri}> ?p ?o "
                "OPTIONAL { ?o ?p2 ?o2 FILTER(isBlank(?o)) OPTIONAL { ?o2 ?p3 ?o3 FILTER(isBlank(?o2)) } } }"
            )
        kind = query_form(query)
        if base_iri:
            query = f"BASE <{base_iri}>\n{query}"
        if kind in ("SELECT", "ASK"):
            answer = self._post(query, "application/sparql-results+json", dataset, timeout, max_bytes)
            results = pyoxigraph.parse_query_results(answer.content, format=pyoxigraph.QueryResultsFormat.JSON)
            if kind == "ASK" and isinstance(results, pyoxigraph.QuerySolutions):
                results = _as_boolean(results)
            return results
        if kind in ("CONSTRUCT", "DESCRIBE"):
            answer = self._post(query, "application/n-triples, text/plain;q=0.9, text/turtle;q=0.8", dataset, timeout, max_bytes)
            media = answer.headers.get("content-type", "").split(";")[0].strip()
            fmt = pyoxigraph.RdfFormat.TURTLE if media == "text/turtle" else pyoxigraph.RdfFormat.N_TRIPLES
            local = pyoxigraph.Store()
            local.bulk_extend(
                pyoxigraph.Quad(t.subject, t.predicate, t.object) for t in pyoxigraph.parse(answer.content, format=fmt)
            )
            return local.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
        raise SyntaxError("only SELECT, ASK, CONSTRUCT and DESCRIBE queries are sent to a remote store")

    def named_graphs(self) -> Iterator[pyoxigraph.NamedNode]:
        """The named graphs served (those under ``graph_prefix``), in IRI order."""
        return iter([pyoxigraph.NamedNode(g) for g in self.graphs])

    def graph_sizes(self) -> list[tuple[str, int]]:
        """Each named graph served and its number of triples, in IRI order (one query)."""
        answer = self._post(
            "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g", "application/sparql-results+json"
        )
        counts = {
            s["g"].value: int(s["n"].value)  # type: ignore[index,union-attr]
            for s in pyoxigraph.parse_query_results(answer.content, format=pyoxigraph.QueryResultsFormat.JSON)
        }
        return [(g, counts.get(g, 0)) for g in self.graphs]

    def quads_for_pattern(self, subject: Any, predicate: Any, object: Any, graph_name: Any = None) -> Iterator[pyoxigraph.Quad]:
        """The quads of one named graph (``graph_name``; subject, predicate and object must be None:
        the only pattern the API asks for)."""
        if subject is not None or predicate is not None or object is not None or not isinstance(graph_name, pyoxigraph.NamedNode):
            raise NotImplementedError("a remote store is asked for whole named graphs only")
        result = self.query(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{graph_name.value}> {{ ?s ?p ?o }} }}")
        for t in result:
            yield pyoxigraph.Quad(t.subject, t.predicate, t.object, graph_name)

    def __len__(self) -> int:
        """The number of triples in the store's named graphs (a triple two graphs hold counts twice)."""
        answer = self._post("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }", "application/sparql-results+json")
        for s in pyoxigraph.parse_query_results(answer.content, format=pyoxigraph.QueryResultsFormat.JSON):
            return int(s["n"].value)  # type: ignore[index,union-attr]
        return 0

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()


def push(
    store: pyoxigraph.Store, graph_store: str, auth: tuple[str, str] | None = None, timeout: float = 600.0
) -> list[tuple[str, int]]:
    """Load every named graph of ``store`` into a triplestore with the SPARQL 1.1 Graph Store HTTP
    Protocol: one ``PUT {graph_store}?graph=IRI`` per graph (§5.3, indirect identification), its
    triples as N-Triples (``application/n-triples``), replacing what the store held in that graph.

    Parameters
    ----------
    store : pyoxigraph.Store
        The built graph (one named graph per edition and one for the vocabulary).
    graph_store : str
        The store's Graph Store Protocol endpoint (``http://host:7878/store`` for the Oxigraph
        server, ``http://host:8890/sparql-graph-crud-auth`` for Virtuoso).
    auth : (str, str), optional
        HTTP basic authentication; refused (401), the same pair is sent as digest authentication
        (Virtuoso's ``-auth`` endpoints ask for digest).

    Returns
    -------
    list[(str, int)]
        Each graph's IRI and the number of triples sent, in IRI order.

    Raises
    ------
    InputError
        The store cannot be reached or refuses a graph (the graph and the status named).
    """
    check_url(graph_store, "--graph-store")
    graphs = sorted(g.value for g in store.named_graphs() if isinstance(g, pyoxigraph.NamedNode))
    sent = []
    with httpx.Client(timeout=timeout, follow_redirects=True) as client:
        how: Any = httpx.BasicAuth(*auth) if auth else None
        for g in graphs:
            triples = (
                pyoxigraph.Triple(q.subject, q.predicate, q.object)
                for q in store.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(g))
            )
            body = pyoxigraph.serialize(triples, format=pyoxigraph.RdfFormat.N_TRIPLES)
            assert body is not None
            try:
                answer = client.put(
                    graph_store, params={"graph": g}, content=body, headers={"Content-Type": "application/n-triples"}, auth=how
                )
                if answer.status_code == 401 and auth and isinstance(how, httpx.BasicAuth):
                    # refused in basic: the same pair in digest (Virtuoso's -auth endpoints ask for it,
                    # and answer a basic attempt with no challenge at all)
                    how = httpx.DigestAuth(*auth)
                    answer = client.put(
                        graph_store,
                        params={"graph": g},
                        content=body,
                        headers={"Content-Type": "application/n-triples"},
                        auth=how,
                    )
            except httpx.HTTPError as exc:
                raise InputError(f"{graph_store}: the graph store cannot be reached: {exc}") from None
            if answer.status_code >= 400:
                first = answer.text.strip().splitlines()[0][:200] if answer.text.strip() else ""
                raise InputError(f"{graph_store}: PUT of the graph <{g}> answered {answer.status_code}: {first}")
            sent.append((g, body.count(b"\n")))
    return sent
