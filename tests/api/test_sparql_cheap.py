"""A query that was cheap in a worker is, sent again, answered in the server process itself
(``SparqlLimits.cheap_query_s``): the store is read-only, so the same operation costs the same again.
What the server evaluates itself is seen by wrapping ``yili.api.sparql._evaluate``, which the worker
processes (other interpreters) never call."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from yili.api import sparql
from yili.api.sparql import SparqlLimits
from yili.api.sparql_eval import CHEAP_QUERY_CHARS, TRUNCATED_HEADER

from tests.api.test_sparql_isolation import EX, PREFIXES, STEP_LABELS, error, labels
from tests.api.test_sparql_lanes import make_app, on_disk  # noqa: F401 - a fixture

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="worker processes are watched through /proc")

LABELS = ["主人獻賓", "賓酢主人"]


@pytest.fixture
def in_server(monkeypatch) -> list[str]:
    """The queries the server process evaluated itself, in order."""
    evaluated: list[str] = []
    real: Callable[..., Any] = sparql._evaluate

    def recording(get_store, operation, *args, **kwargs):  # type: ignore[no-untyped-def]
        evaluated.append(operation.query)
        return real(get_store, operation, *args, **kwargs)

    monkeypatch.setattr(sparql, "_evaluate", recording)
    return evaluated


def ask(client: TestClient, query: str, accept: str = "application/sparql-results+json"):  # type: ignore[no-untyped-def]
    return client.get("/sparql", params={"query": query}, headers={"Accept": accept})


def test_a_query_cheap_in_a_worker_is_answered_in_the_server_the_next_time(on_disk, in_server) -> None:  # noqa: F811
    store, path = on_disk
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=2))) as client:
        first = ask(client, STEP_LABELS)
        assert labels(first) == LABELS
        assert in_server == []  # the first time, a worker evaluated it and measured its cost
        second = ask(client, STEP_LABELS)
        assert in_server == [STEP_LABELS]
        assert second.content == first.content
        assert second.headers["content-type"] == first.headers["content-type"] == "application/sparql-results+json"
        # the format is part of what was measured: CSV is a new operation, measured in a worker first
        as_csv = ask(client, STEP_LABELS, accept="text/csv")
        assert as_csv.text.splitlines() == ["label", *LABELS]
        assert in_server == [STEP_LABELS]
        assert ask(client, STEP_LABELS, accept="text/csv").text == as_csv.text
        assert in_server == [STEP_LABELS, STEP_LABELS]


def test_an_ask_and_a_construct_are_answered_alike_in_the_server(on_disk, in_server) -> None:  # noqa: F811
    store, path = on_disk
    construct = PREFIXES + "CONSTRUCT { ?s ex:actor ?a } WHERE { ?s ex:actor ?a }"
    ask_query = PREFIXES + "ASK { ex:step2 ex:actor ex:guest }"
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=2))) as client:
        forms = ((construct, "application/n-triples"), (ask_query, "application/sparql-results+json"))
        answers = [(ask(client, q, accept).text, ask(client, q, accept).text) for q, accept in forms]
        assert in_server == [construct, ask_query]
        (from_worker, from_server), (yes_worker, yes_server) = answers
        assert sorted(from_server.splitlines()) == sorted(from_worker.splitlines()) == [
            f"<{EX}step1> <{EX}actor> <{EX}host> .",
            f"<{EX}step2> <{EX}actor> <{EX}guest> .",
        ]
        assert yes_worker == yes_server == '{"head":{},"boolean":true}'


def test_with_cheap_query_s_0_every_query_goes_to_a_worker(on_disk, in_server) -> None:  # noqa: F811
    store, path = on_disk
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=2, cheap_query_s=0))) as client:
        for _ in range(3):
            assert labels(ask(client, STEP_LABELS)) == LABELS
    assert in_server == []


def test_a_query_that_cost_more_than_the_bound_stays_in_the_workers(on_disk, in_server) -> None:  # noqa: F811
    store, path = on_disk
    # no evaluation takes under a nanosecond of CPU time: nothing is cheap
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=2, cheap_query_s=1e-9))) as client:
        for _ in range(3):
            assert labels(ask(client, STEP_LABELS)) == LABELS
    assert in_server == []


def test_a_long_text_is_never_evaluated_on_the_servers_stack(on_disk, in_server) -> None:  # noqa: F811
    store, path = on_disk
    padded = STEP_LABELS + "\n#" + "x" * CHEAP_QUERY_CHARS  # a comment: cheap, but too long a text
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=2))) as client:
        for _ in range(2):
            assert labels(ask(client, padded)) == LABELS
    assert in_server == []


def test_a_truncated_answer_is_never_answered_whole_by_the_server(on_disk, in_server) -> None:  # noqa: F811
    store, path = on_disk
    limits = SparqlLimits(max_concurrent_queries=2, max_rows=1, truncate_results=True)
    with TestClient(make_app(store, path, limits)) as client:
        for _ in range(2):
            answer = ask(client, STEP_LABELS)
            assert labels(answer) == ["主人獻賓"]
            assert answer.headers[TRUNCATED_HEADER] == "1"
    assert in_server == []


def test_an_error_is_never_remembered_as_cheap(on_disk, in_server) -> None:  # noqa: F811
    store, path = on_disk
    with TestClient(make_app(store, path, SparqlLimits(max_concurrent_queries=2))) as client:
        for _ in range(2):
            assert "not valid SPARQL" in error(ask(client, "SELECT * WHERE { ?s ?p }"), 400, "query")
    assert in_server == []


def test_cheap_query_s_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="cheap_query_s must be at least 0, not -1"):
        SparqlLimits(cheap_query_s=-1)
