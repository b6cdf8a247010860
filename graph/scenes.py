"""Who is where, in the graph: one ``yk:Placement`` per move (a person's place or facing changing at a
step, :func:`yili.ingest.scenes.moves`), so the graph grows by the moves, not by persons × steps.

A placement (``ontology/yili.ttl``) carries the step it happens at (``yk:atStep``), the person
(``yk:person``, the role concept, and ``yk:personLabel`` as written), the place (``yk:placeLabel``), its
point on the plan of ``ontology/ground.ttl`` (``yk:x``, ``yk:y``, ``xsd:decimal``, depths of the hall, x
east, y north), the facing (``yk:facingLabel``), ``yk:positionStatus`` (``written`` or ``inferred``),
the rule (``yk:positionRule``) and its source (``dcterms:source``); for the facing, ``yk:facingStatus``,
``yk:facingRule`` and the step that set it (``yk:facingSetAt``); a placement that takes the person out
(出, seen off) has ``yk:present false`` and no place.  The scene at a step is each person's
last placement at or before it (:func:`scene_rows`).  Its IRI is
``placement/{rite}/{edition}/{block}/{ordinal}/{person}``.
"""

from __future__ import annotations

from typing import Any

import pyoxigraph
from rdflib import URIRef
from yili.ingest.scenes import furnishings, moves
from yili.ingest.steps import Step
from yili.ontology.namespaces import mint

_DECIMAL = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#decimal")
_BOOLEAN = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#boolean")


def add_placements(
    add: Any, steps: tuple[Step, ...], iris: list[URIRef], yk: Any, base: str | None = None, vocab: str = ""
) -> int:
    """Write the moves of one edition into its graph.

    Parameters
    ----------
    add : callable
        ``add((s, p, o))`` of the edition's named graph.
    steps : tuple[Step, ...]
        The edition's steps; ``iris[i]`` is the IRI of ``steps[i]``.
    iris : list[URIRef]
    yk : namespace-like
        The ontology's terms under the build's base IRI.
    base : str, optional
        The base IRI placements are minted under.
    vocab : str
        The vocabulary namespace (``…/vocab/``) role concepts are in.

    Returns
    -------
    int
        How many placements were written.
    """
    from rdflib.namespace import DCTERMS, RDF

    n = 0
    for p in moves(steps):
        assert p.at is not None
        step = steps[p.at - 1]  # the step of the move: one placement per person and step
        rite, edition, block, ordinal = step.key.split("/")
        pi = mint("placement", rite, edition, block, ordinal, p.role, base=base)
        add((pi, RDF.type, yk.Placement))
        add((pi, yk.atStep, iris[p.at - 1]))
        if p.role.startswith("role-") and vocab:
            add((pi, yk.person, URIRef(vocab + p.role)))
        add((pi, yk.personLabel, pyoxigraph.Literal(p.person)))
        if p.place:
            add((pi, yk.placeLabel, pyoxigraph.Literal(p.place)))
        if p.x is not None and p.y is not None:
            add((pi, yk.x, pyoxigraph.Literal(repr(float(p.x)), datatype=_DECIMAL)))
            add((pi, yk.y, pyoxigraph.Literal(repr(float(p.y)), datatype=_DECIMAL)))
        if p.facing:
            add((pi, yk.facingLabel, pyoxigraph.Literal(p.facing)))
        if p.facing_status and p.facing_rule and p.facing_step:
            add((pi, yk.facingStatus, pyoxigraph.Literal(p.facing_status)))
            add((pi, yk.facingRule, pyoxigraph.Literal(p.facing_rule)))
            add((pi, yk.facingSetAt, iris[p.facing_step - 1]))
        if not p.present:
            add((pi, yk.present, pyoxigraph.Literal("false", datatype=_BOOLEAN)))
        add((pi, yk.positionStatus, pyoxigraph.Literal(p.status)))
        add((pi, yk.positionRule, pyoxigraph.Literal(p.rule)))
        if p.source:
            add((pi, DCTERMS.source, pyoxigraph.Literal(p.source)))
        n += 1
    return n


def scene_rows(queries: Any, step_iri: str) -> list[dict[str, object]] | None:
    """Each person's position after the step ``step_iri``: the last placement of each at or before it.

    Returns
    -------
    list[dict] | None
        One dict per person present, in the order they entered: ``placement`` (the IRI of the
        yk:Placement that holds), ``person`` (as written), ``role``
        (concept IRI or None), ``place``, ``x``, ``y`` (floats or None), ``facing``, ``status``
        (``written``/``inferred``), ``rule``, ``source``, ``set_at`` (the IRI of the step that set it)
        and ``set_at_sequence``, ``facing_status``, ``facing_rule``, ``facing_set_at`` (IRI; None with
        no facing); None if no step has that IRI.  One whose last placement took him out is left out.
    """
    iri = f"<{step_iri}>"
    found = queries.backend.select(
        queries.sparql_prefixes + f"SELECT ?seq ?edition WHERE {{ {iri} yk:sequence ?seq ; yk:inEdition ?edition }}"
    )
    if not found:
        return None
    seq, edition = found[0]["seq"], found[0]["edition"]
    rows = queries.backend.select(
        queries.sparql_prefixes
        + f"""
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?p ?person ?role ?place ?x ?y ?facing ?status ?rule ?source ?at ?atseq ?fstatus ?frule ?fat ?present WHERE {{
  ?p a yk:Placement ; yk:atStep ?at ; yk:personLabel ?person ; yk:positionStatus ?status ; yk:positionRule ?rule .
  ?at yk:inEdition <{edition}> ; yk:sequence ?atseq .
  FILTER(?atseq <= {int(seq)})
  OPTIONAL {{ ?p yk:person ?role }} OPTIONAL {{ ?p yk:placeLabel ?place }} OPTIONAL {{ ?p yk:x ?x ; yk:y ?y }}
  OPTIONAL {{ ?p yk:facingLabel ?facing }} OPTIONAL {{ ?p dcterms:source ?source }}
  OPTIONAL {{ ?p yk:facingStatus ?fstatus ; yk:facingRule ?frule ; yk:facingSetAt ?fat }} OPTIONAL {{ ?p yk:present ?present }}
}} ORDER BY ?atseq ?p"""
    )
    last: dict[str, dict[str, object]] = {}
    first_seen: dict[str, int] = {}
    for r in rows:
        key = str(r["role"] or r["person"])
        first_seen.setdefault(key, len(first_seen))
        last[key] = {
            "placement": r["p"],
            "person": r["person"],
            "role": r["role"],
            "place": r["place"],
            "x": float(str(r["x"])) if r["x"] is not None else None,
            "y": float(str(r["y"])) if r["y"] is not None else None,
            "facing": r["facing"],
            "status": r["status"],
            "rule": r["rule"],
            "source": r["source"],
            "set_at": r["at"],
            "set_at_sequence": r["atseq"],
            "facing_status": r["fstatus"],
            "facing_rule": r["frule"],
            "facing_set_at": r["fat"],
            "present": str(r["present"]).lower() not in ("false", "0") if r["present"] is not None else True,
        }
    return [last[k] for k in sorted(last, key=lambda k: first_seen[k]) if last[k]["present"]]


def move_rows(queries: Any, rite: str | None = None, edition: str | None = None) -> list[dict[str, object]]:
    """Every placement (move) of the selected editions, in order (edition, step, person), for a client
    that replays the rite: ``person``, ``role``, ``place``, ``x``, ``y`` (floats or None), ``facing``,
    ``status``, ``rule``, ``step`` (IRI), ``sequence``, ``text`` (the step's), ``edition``,
    ``facing_status``, ``facing_rule`` (None with no facing) and ``present`` (False: the move takes
    him out of the scene).

    Raises
    ------
    UnknownTermError
        ``rite`` names no rite.
    """
    rows = queries.backend.select(
        queries.sparql_prefixes
        + f"""
SELECT ?person ?role ?place ?x ?y ?facing ?status ?rule ?step ?sequence ?text ?edition
       ?facing_status ?facing_rule ?present WHERE {{
  {queries.edition_selection(rite, edition)}
  ?p a yk:Placement ; yk:atStep ?step ; yk:personLabel ?person ; yk:positionStatus ?status ; yk:positionRule ?rule .
  ?step yk:inEdition ?edition ; yk:sequence ?sequence ; yk:text ?text .
  OPTIONAL {{ ?p yk:person ?role }} OPTIONAL {{ ?p yk:placeLabel ?place }} OPTIONAL {{ ?p yk:x ?x ; yk:y ?y }}
  OPTIONAL {{ ?p yk:facingLabel ?facing }}
  OPTIONAL {{ ?p yk:facingStatus ?facing_status ; yk:facingRule ?facing_rule }} OPTIONAL {{ ?p yk:present ?present }}
}} ORDER BY ?edition ?sequence ?p"""
    )
    for r in rows:
        # xsd:boolean: Virtuoso gives back false as 0
        r["present"] = str(r["present"]).lower() not in ("false", "0") if r["present"] is not None else True
        r["x"] = float(str(r["x"])) if r["x"] is not None else None
        r["y"] = float(str(r["y"])) if r["y"] is not None else None
    return rows


def placement_triples(store: Any, placements: list[str]) -> str:
    """The triples of the placements ``placements`` (IRIs) as N-Triples, in a stable order (sorted
    lines): what a scene's JSON-LD is made from (the graph's own statements, nothing added)."""
    if not placements:
        return ""
    values = " ".join(f"<{p}>" for p in placements)
    triples = store.query(
        f"CONSTRUCT {{ ?p ?q ?o }} WHERE {{ VALUES ?p {{ {values} }} ?p ?q ?o }}", use_default_graph_as_union=True
    )
    text = triples.serialize(format=pyoxigraph.RdfFormat.N_TRIPLES)
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return "".join(sorted(text.splitlines(keepends=True)))


def add_furnishings(add: Any, steps: tuple[Step, ...], iris: list[URIRef], yk: Any, base: str | None = None) -> int:
    """Write the vessels, mats and things set out (:func:`yili.ingest.scenes.furnishings`) into an
    edition's graph: one ``yk:Furnishing`` per step that sets one out, IRI
    ``furnishing/{rite}/{edition}/{block}/{ordinal}``, with ``yk:atStep``, ``yk:objectLabel`` (as written),
    ``yk:furnishingKind`` (``mat``, ``vessel``, ``thing``), ``yk:placeLabel``, ``yk:x``, ``yk:y``
    (``xsd:decimal``), ``yk:facingLabel`` (a mat's, when written), ``yk:removedAt`` (the step that clears
    it away, 徹) and ``dcterms:source``.

    Returns
    -------
    int
        How many were written.
    """
    from rdflib.namespace import DCTERMS, RDF

    n = 0
    for it in furnishings(steps):
        step = steps[it.step - 1]
        fi = mint("furnishing", *step.key.split("/"), base=base)
        add((fi, RDF.type, yk.Furnishing))
        add((fi, yk.atStep, iris[it.step - 1]))
        add((fi, yk.objectLabel, pyoxigraph.Literal(it.object)))
        add((fi, yk.furnishingKind, pyoxigraph.Literal(it.kind)))
        add((fi, yk.placeLabel, pyoxigraph.Literal(it.place)))
        add((fi, yk.x, pyoxigraph.Literal(repr(float(it.x)), datatype=_DECIMAL)))
        add((fi, yk.y, pyoxigraph.Literal(repr(float(it.y)), datatype=_DECIMAL)))
        if it.facing:
            add((fi, yk.facingLabel, pyoxigraph.Literal(it.facing)))
        if it.removed:
            add((fi, yk.removedAt, iris[it.removed - 1]))
        add((fi, DCTERMS.source, pyoxigraph.Literal(it.source)))
        n += 1
    return n


def furnishing_rows(queries: Any, rite: str | None = None, edition: str | None = None) -> list[dict[str, object]]:
    """Every furnishing (vessel, mat, thing set out) of the selected editions, in order (edition, step):
    ``object``, ``kind``, ``place``, ``x``, ``y`` (floats), ``facing`` (or None), ``step`` (IRI),
    ``sequence``, ``removed_sequence`` (the sequence of the step that clears it away, or None),
    ``edition``.

    Raises
    ------
    UnknownTermError
        ``rite`` names no rite.
    """
    rows = queries.backend.select(
        queries.sparql_prefixes
        + f"""
SELECT ?object ?kind ?place ?x ?y ?facing ?step ?sequence ?removed_sequence ?edition WHERE {{
  {queries.edition_selection(rite, edition)}
  ?f a yk:Furnishing ; yk:atStep ?step ; yk:objectLabel ?object ; yk:furnishingKind ?kind ; yk:placeLabel ?place ;
     yk:x ?x ; yk:y ?y .
  ?step yk:inEdition ?edition ; yk:sequence ?sequence .
  OPTIONAL {{ ?f yk:facingLabel ?facing }}
  OPTIONAL {{ ?f yk:removedAt ?gone . ?gone yk:sequence ?removed_sequence }}
}} ORDER BY ?edition ?sequence"""
    )
    for r in rows:
        r["x"] = float(str(r["x"]))
        r["y"] = float(str(r["y"]))
        r["sequence"] = int(str(r["sequence"]))
        r["removed_sequence"] = int(str(r["removed_sequence"])) if r["removed_sequence"] is not None else None
    return rows
