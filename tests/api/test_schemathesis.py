"""Every REST route, fuzzed from its own OpenAPI schema (schemathesis): no 5xx, and every answer's
status, content type and body are the ones the schema documents.  ``/sparql`` has its own protocol
tests (the W3C manifest); it is left out here because each of its queries runs in a worker process."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from yili.api.resources import KINDS


def test_rest_routes_answer_as_their_schema_says(service):
    from yili.api.app import create_app

    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(service)).exclude(path="/sparql")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert sorted(op.label for op in operations) == sorted(
        [
            "GET /",
            "GET /citations",
            "GET /compare",
            "GET /context.jsonld",
            "GET /export/{format}",
            "GET /glosses",
            "GET /next",
            "GET /ngrams",
            "GET /graph/vocabulary",
            "GET /ontology",
            "GET /ontology/alignments",
            "GET /patterns",
            "GET /phases",
            "GET /stages",
            "GET /moves",
            "GET /furnishings",
            "GET /ground",
            "GET /steps/{rite}/{edition}/{block}/{ordinal}/scene",
            "GET /rites",
            "GET /search",
            "GET /step/{rite}/{edition}/{block}/{ordinal}",
            "GET /steps",
            "GET /steps/{rite}/{edition}/{block}/{ordinal}",
            "GET /terms/{name}",
            "GET /toasts",
            *(f"GET /{kind}/{{key}}" for kind in KINDS),
        ]
    )
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def answers_as_documented(case):  # type: ignore[no-untyped-def]
            case.call_and_validate()

        answers_as_documented()
