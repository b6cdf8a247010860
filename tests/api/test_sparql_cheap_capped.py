"""A query proven cheap is evaluated under a LIMIT one row past the cap and written by pyoxigraph
without a Python object per row (api/sparql_eval.py, ``cheap=True``): the same bytes, in every
results format, as the rows read one at a time, and the same row cap (413, or truncation)."""

from __future__ import annotations

import threading
import time

import pyoxigraph
import pytest
from yili.api.sparql_cheap import with_row_cap
from yili.api.sparql_eval import Operation, SparqlLimits, evaluate_operation
from yili.ontology.errors import RequestTooLargeError

E = "http://example.org/"
FORMATS = ["application/sparql-results+json", "application/sparql-results+xml", "text/csv", "text/tab-separated-values"]


@pytest.fixture(scope="module")
def store() -> pyoxigraph.Store:
    s = pyoxigraph.Store()
    a, p, q = pyoxigraph.NamedNode(E + "a"), pyoxigraph.NamedNode(E + "p"), pyoxigraph.NamedNode(E + "q")
    graph = pyoxigraph.NamedNode(E + "g")
    for i in range(30):
        s.add(
            pyoxigraph.Quad(
                a, p, pyoxigraph.Literal(str(i), datatype=pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer")), graph
            )
        )
    s.add(pyoxigraph.Quad(a, q, pyoxigraph.Literal("主人\n筵前\t献賔", language="zh-hant"), graph))
    s.add(pyoxigraph.Quad(a, q, pyoxigraph.Literal('say "hi"'), graph))
    s.add(pyoxigraph.Quad(a, q, pyoxigraph.NamedNode(E + "b"), graph))
    s.add(pyoxigraph.Quad(a, q, pyoxigraph.BlankNode("x1"), graph))
    s.add(
        pyoxigraph.Quad(
            a, q, pyoxigraph.Literal("007", datatype=pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer")), graph
        )
    )
    return s


def _answer(store: pyoxigraph.Store, query: str, accept: str, limits: SparqlLimits, cheap: bool):  # type: ignore[no-untyped-def]
    operation = Operation(query, (), (), E, accept, None)
    try:
        answer = evaluate_operation(lambda: store, operation, limits, time.monotonic() + 30, threading.Event(), cheap=cheap)
    except RequestTooLargeError as error:
        return ("413", error.message)
    return (answer.body, answer.media_type, answer.headers)


@pytest.mark.parametrize("accept", FORMATS)
@pytest.mark.parametrize(
    "query",
    [
        f"SELECT ?p ?o WHERE {{ <{E}a> ?p ?o }}",
        f"SELECT * {{ <{E}a> <{E}q> ?o }}",
        f"SELECT ?o {{ <{E}a> <{E}p> ?o FILTER(?o < 7) }} LIMIT 5",
        f"SELECT ?s {{ ?s <{E}p> 3 }}",
    ],
)
@pytest.mark.parametrize("limits", [SparqlLimits(), SparqlLimits(max_rows=4), SparqlLimits(max_rows=4, truncate_results=True)])
def test_the_cheap_path_answers_as_the_rows_read_one_by_one(store, query: str, accept: str, limits: SparqlLimits) -> None:
    assert with_row_cap(query, limits.max_rows + 1) is not None
    assert _answer(store, query, accept, limits, cheap=True) == _answer(store, query, accept, limits, cheap=False)


def test_the_cap_holds_on_the_cheap_path(store) -> None:
    query = f"SELECT ?p ?o WHERE {{ <{E}a> ?p ?o }}"  # 35 rows
    assert _answer(store, query, FORMATS[3], SparqlLimits(max_rows=4), cheap=True) == (
        "413",
        "The answer has more rows than the limit of 4 (SparqlLimits.max_rows); add a LIMIT or narrow the pattern.",
    )
    body, _, headers = _answer(store, query, FORMATS[3], SparqlLimits(max_rows=4, truncate_results=True), cheap=True)
    assert headers == {"X-SPARQL-Results-Truncated": "4"}
    assert body.decode().splitlines()[0] == "?p\t?o" and len(body.decode().splitlines()) == 5
