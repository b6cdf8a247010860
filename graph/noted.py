"""Why the graph says so: a step linked to the commentary statement a rule read to decide its field.

Where a rule of :data:`yili.ingest.noted.NOTE_RULES` decided a field of a step from a note sentence
(``Step.noted``: the field and the sentence's span, recorded by the rule when it read it), the step gets,
in its edition's named graph,

- ``yk:{field}FromNote`` (``yk:agentFromNote``, ``yk:recipientFromNote``; both sub-properties of
  ``yk:fromNote``, itself a sub-property of ``prov:wasDerivedFrom``) the ``yk:Statement`` that holds the
  sentence (:mod:`yili.graph.commentary`), beside the ``yk:{field}DecidedBy`` rule;
- ``prov:wasDerivedFrom`` that statement too (the store does no inference; PROV readers see it).

特牲 利洗散 (述註 block 156): ``yk:agentDecidedBy rule/agent.named-in-note``, ``yk:agentFromNote``
``statement/teshengkuishili/shuzhu/156/1``, whose text opens 註曰利佐食也.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

from rdflib import URIRef
from rdflib.namespace import PROV
from yili.ingest.steps import Step

FIELD_PROPERTIES = ("agent", "recipient")
"""The fields that have a ``yk:{field}FromNote`` property (the fields of :data:`yili.ingest.noted.NOTE_RULES`)."""


def statement_at(statements: Sequence[Any], starts: Sequence[int], start: int, end: int) -> Any | None:
    """The statement whose span holds ``[start, end)`` (code points into the document), or None.

    ``statements`` are sorted by their ``start`` (``starts`` is their list of starts) and do not overlap."""
    k = bisect.bisect_right(starts, start) - 1
    if k >= 0 and statements[k].start <= start and end <= statements[k].end:
        return statements[k]
    return None


def add_note_links(
    g: Any,
    steps: Sequence[Step],
    statements: Sequence[Any],
    statement_iri: Callable[[Any], URIRef],
    step_iri: Callable[[Step], URIRef],
    yk: Any,
) -> dict[str, int]:
    """Write the links of every step with ``noted`` spans to the statements that hold them.

    Parameters
    ----------
    g : yili.graph.build.GraphWriter
        The edition's named graph (``g.add((s, p, o))``).
    steps : sequence of Step
    statements : sequence of yili.ingest.commentary.Statement
        The edition's statements (``start``, ``end``: code points into the document).
    statement_iri, step_iri : callable
        The IRI of a statement, of a step.
    yk : rdflib.Namespace
        The ontology namespace, rebased as the builder's.

    Returns
    -------
    dict[str, int]
        Rule id → how many step fields it decided from a note that are linked to their statement, in the
        order first met; ``unplaced`` counts the spans no statement holds (none on the shared corpus).
    """
    ordered = sorted(statements, key=lambda st: (st.start, st.end))
    starts = [st.start for st in ordered]
    counts: dict[str, int] = {}
    derived = URIRef(str(PROV.wasDerivedFrom))
    for step in steps:
        for field, start, end in step.noted:
            st = statement_at(ordered, starts, start, end)
            if st is None:
                counts["unplaced"] = counts.get("unplaced", 0) + 1
                continue
            si, iri = statement_iri(st), step_iri(step)
            g.add((iri, getattr(yk, f"{field}FromNote"), si))
            g.add((iri, derived, si))
            rule_id = step.decided(field) or ""
            counts[rule_id] = counts.get(rule_id, 0) + 1
    return counts


def note_statements(q: Any, step_iri: str) -> dict[str, list[dict[str, object]]]:
    """The statements a step's fields were decided from (``yk:agentFromNote`` …), by field.

    Parameters
    ----------
    q : yili.graph.queries.GraphQueries
    step_iri : str

    Returns
    -------
    dict[str, list[dict]]
        Field (``agent``, ``recipient``) → ``[{statement, text, authority, authority_label, char_start,
        char_end, block}]`` in text order: the statement's IRI, its text, its author's name (zh-Hant
        label of its ``dcterms:creator``: 鄭玄) and the name as the edition marks it (注), its span (code
        points into the document) and the IRI of the block it comments on.  Empty for a step no note
        decided.
    """
    from yili.graph.queries import sparql_iri

    rows = q.backend.select(
        q.sparql_prefixes
        + f"""
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?p ?st ?text ?label ?who ?cs ?ce ?block WHERE {{
  VALUES (?p) {{ {" ".join(f"(yk:{f}FromNote)" for f in FIELD_PROPERTIES)} }}
  {sparql_iri(step_iri)} ?p ?st .
  ?st yk:text ?text ; yk:charStart ?cs ; yk:charEnd ?ce ; yk:comments ?block .
  OPTIONAL {{ ?st yk:authorityLabel ?label }}
  OPTIONAL {{ ?st dcterms:creator/skos:prefLabel ?who FILTER(langMatches(lang(?who), "zh-Hant")) }}
}} ORDER BY ?p ?cs"""
    )
    out: dict[str, list[dict[str, object]]] = {}
    for r in rows:
        field = str(r["p"]).rsplit("#", 1)[-1].removesuffix("FromNote")
        out.setdefault(field, []).append(
            {
                "statement": r["st"],
                "text": r["text"],
                "authority": r.get("who"),
                "authority_label": r.get("label"),
                "char_start": r["cs"],
                "char_end": r["ce"],
                "block": r["block"],
            }
        )
    return out
