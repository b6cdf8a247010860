"""The cheap-query path: a query whose parsed form proves it cheap (one star of triple patterns around a
bound node, no path, plain comparisons) is answered on a thread of the server; every other query goes to
a worker process, however fast it ran before."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from yili.api.sparql import SparqlLimits
from yili.api.sparql_cheap import is_cheap

from tests.api.test_sparql_cache import in_server, in_workers  # noqa: F401 - fixtures
from tests.api.test_sparql_isolation import EX, PREFIXES, STEP_LABELS, labels
from tests.api.test_sparql_lanes import make_app, on_disk  # noqa: F401 - a fixture

STEP1 = f"<{EX}step1>"

CHEAP = [
    PREFIXES + f"SELECT ?p ?o WHERE {{ {STEP1} ?p ?o }}",
    PREFIXES + f"SELECT * {{ {STEP1} rdfs:label ?l ; ex:order ?n . }} LIMIT 5",
    PREFIXES + "SELECT ?s WHERE { ?s a ex:Step ; ex:order 2 }",
    PREFIXES + 'SELECT ?s { ?s rdfs:label "主人獻賓"@zh , "x"^^<http://www.w3.org/2001/XMLSchema#string> }',
    PREFIXES + f"SELECT ?o {{ {STEP1} ?p ?o FILTER(?o != ex:host) }}",
]
NOT_CHEAP = {
    "unbound": "SELECT * { ?s ?p ?o }",
    "a bound pattern and an unbound one": PREFIXES + "SELECT * { ?s a ex:Step ; ex:order ?n }",
    "two subjects (a product)": PREFIXES + "SELECT * { ?a a ex:Step . ?b a ex:Step }",
    "a path": PREFIXES + f"SELECT ?o {{ {STEP1} ex:actor/rdfs:label ?o }}",
    "an inverse path": PREFIXES + "SELECT ?o { ex:host ^ex:actor ?o }",
    "a repeated path": PREFIXES + f"SELECT ?o {{ {STEP1} ex:actor* ?o }}",
    "a function in a filter": PREFIXES + f"SELECT ?o {{ {STEP1} ?p ?o FILTER(STRLEN(?o) > 1) }}",
    "NOW": PREFIXES + f"SELECT ?o {{ {STEP1} ?p ?o FILTER(?o < NOW()) }}",
    "ORDER BY": PREFIXES + f"SELECT ?o {{ {STEP1} ?p ?o }} ORDER BY ?o",
    "DISTINCT": PREFIXES + f"SELECT DISTINCT ?o {{ {STEP1} ?p ?o }}",
    "OFFSET": PREFIXES + f"SELECT ?o {{ {STEP1} ?p ?o }} OFFSET 1",
    "OPTIONAL": PREFIXES + f"SELECT ?o {{ {STEP1} ?p ?o OPTIONAL {{ ?o ?q ?r }} }}",
    "GRAPH": PREFIXES + f"SELECT ?o {{ GRAPH ?g {{ {STEP1} ?p ?o }} }}",
    "VALUES": PREFIXES + "SELECT ?o { VALUES ?s { ex:step1 } ?s ?p ?o }",
    "a blank node": PREFIXES + "SELECT ?o { [] ex:actor ?o }",
    "a comment": PREFIXES + f"SELECT ?o {{ {STEP1} ?p ?o }} # cheap?",
    "a long string": PREFIXES + '''SELECT ?s { ?s rdfs:label """x""" }''',
    "an aggregate": PREFIXES + f"SELECT (COUNT(*) AS ?n) {{ {STEP1} ?p ?o }}",
    "ASK": f"ASK {{ {STEP1} ?p ?o }}",
    "CONSTRUCT": f"CONSTRUCT {{ {STEP1} ?p ?o }} WHERE {{ {STEP1} ?p ?o }}",
    "BASE": f"BASE <{EX}> SELECT ?o {{ <step1> ?p ?o }}",
    "the step labels (ORDER BY)": STEP_LABELS,
    "a subquery": f"SELECT ?o {{ {{ SELECT ?o {{ {STEP1} ?p ?o }} }} }}",
    "a union": f"SELECT ?o {{ {{ {STEP1} ?p ?o }} UNION {{ {STEP1} ?p ?o }} }}",
    "nine patterns": PREFIXES + "SELECT * { ex:step1 " + " ; ".join(f"?p{i} ?o{i}" for i in range(9)) + " }",
}


@pytest.mark.parametrize("query", CHEAP)
def test_a_star_around_a_bound_node_is_cheap(query: str) -> None:
    assert is_cheap(query)


@pytest.mark.parametrize("why", list(NOT_CHEAP))
def test_anything_else_is_not_cheap(why: str) -> None:
    assert not is_cheap(NOT_CHEAP[why])


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="worker processes are watched through /proc")


def test_a_cheap_query_is_answered_in_the_server_and_the_rest_in_workers(on_disk, in_server, in_workers) -> None:  # noqa: F811
    store, path = on_disk
    lookup = CHEAP[1]
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=1, answer_cache_bytes=0))) as client:
        for _ in range(3):
            r = client.get("/sparql", params={"query": lookup}, headers={"Accept": "text/csv"})
            assert r.status_code == 200 and r.text.splitlines() == ["l,n", "主人獻賓,1"]
        # fast every time, and still never evaluated in the server: its form is not proven cheap
        for _ in range(3):
            assert labels(client.get("/sparql", params={"query": STEP_LABELS})) == ["主人獻賓", "賓酢主人"]
    assert in_server == [lookup] * 3
    assert [q for q in in_workers if q != "ASK {}"] == [STEP_LABELS] * 3


def test_a_cheap_query_answers_the_same_bytes_as_on_a_thread(on_disk) -> None:  # noqa: F811
    store, path = on_disk
    query = CHEAP[0]
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=1, isolation="thread"))) as threads:
        expected = threads.get("/sparql", params={"query": query}, headers={"Accept": "text/tab-separated-values"})
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=1))) as client:
        r = client.get("/sparql", params={"query": query}, headers={"Accept": "text/tab-separated-values"})
    assert r.status_code == expected.status_code == 200 and r.content == expected.content
    assert sorted(r.text.splitlines()[1:]) == sorted(
        [
            f"<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>\t<{EX}Step>",
            '<http://www.w3.org/2000/01/rdf-schema#label>\t"主人獻賓"@zh',
            f"<{EX}actor>\t<{EX}host>",
            f"<{EX}order>\t1",
        ]
    )


def test_docstring_examples_of_the_endpoint_modules() -> None:
    import doctest

    from yili.api import sparql_cheap, sparql_pool, sparql_text
    from yili.graph import remote

    for module in (sparql_cheap, sparql_pool, sparql_text, remote):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0, module.__name__
