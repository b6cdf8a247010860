"""The stages (節) of 楊復's 儀禮圖 in the graph: one ``yk:Stage`` per stage that holds steps of an edition.

A stage (``ontology/yili.ttl``, ``yk:Stage``, a kind of ``yk:Phase``) carries its title as 楊復 writes it
(``rdfs:label``, zh-Hant), his order (``yk:sequence``), its first and last step (``yk:firstStep``,
``yk:lastStep``), its edition (``yk:inEdition``), its source (``dcterms:source``: ``儀禮圖 卷一
KR1d0032_WYG_001-2b``, and the page alone as ``yk:sourcePage``) and 楊復's remark on the title, if any
(``rdfs:comment``); each of its steps points to it (``yk:inStage``).  Its IRI is
``stage/{rite}/{edition}/{block}-{ordinal}`` of its first step, so it depends on that step only, not on how
the stages before it are numbered.  The stages themselves are found by :mod:`yili.ingest.stages`.
"""

from __future__ import annotations

from typing import Any

import pyoxigraph
from rdflib import URIRef
from yili.ingest.stages import WORK, EditionStage, StageAlignment
from yili.ingest.steps import Step
from yili.ontology.namespaces import mint

_XSD_INTEGER = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer")


def stage_iri(first: Step, base: str | None = None) -> URIRef:
    """The IRI of the stage whose first step is ``first``: ``stage/{rite}/{edition}/{block}-{ordinal}``.

    >>> from yili.ingest.steps import Step, Term
    >>> s = Step("shiguanli/shuzhu/4/1", 9, 4, 0, 1, "主", (), False, Term("", "戒"))
    >>> str(stage_iri(s, base="https://example.org/"))
    'https://example.org/stage/shiguanli/shuzhu/4-1'
    """
    rite, edition, block, ordinal = first.key.split("/")
    return mint("stage", rite, edition, f"{block}-{ordinal}", base=base)


def source_text(stage: EditionStage) -> str:
    """The stage's source as one citation: work, 卷 and the page of the title line
    (``儀禮圖 卷一 KR1d0032_WYG_001-2b``)."""
    return " ".join(x for x in (WORK, stage.juan, stage.page) if x)


def add_stages(
    add: Any,
    alignment: StageAlignment,
    steps: tuple[Step, ...],
    iris: list[URIRef],
    edition: URIRef,
    yk: Any,
    base: str | None = None,
) -> int:
    """Write the stages of one edition into a graph.

    Parameters
    ----------
    add : callable
        ``add((s, p, o))`` of the edition's named graph (rdflib or pyoxigraph terms).
    alignment : StageAlignment
        The edition's stages (:func:`yili.ingest.stages.align`).
    steps : tuple[Step, ...]
        The edition's steps; ``iris[i]`` is the IRI of ``steps[i]``.
    iris : list[URIRef]
    edition : URIRef
        The edition's IRI.
    yk : namespace-like
        ``yk.Stage`` etc. under the build's base IRI.
    base : str, optional
        The base IRI stage IRIs are minted under.

    Returns
    -------
    int
        How many stages were written.
    """
    from rdflib.namespace import DCTERMS, RDF, RDFS

    for stage in alignment.stages:
        si = stage_iri(steps[stage.first - 1], base)
        add((si, RDF.type, yk.Stage))
        add((si, RDFS.label, pyoxigraph.Literal(stage.title, language="zh-Hant")))
        add((si, yk.sequence, pyoxigraph.Literal(str(stage.number), datatype=_XSD_INTEGER)))
        add((si, yk.firstStep, iris[stage.first - 1]))
        add((si, yk.lastStep, iris[stage.last - 1]))
        add((si, yk.inEdition, edition))
        add((si, DCTERMS.source, pyoxigraph.Literal(source_text(stage), language="zh-Hant")))
        if stage.page:
            add((si, yk.sourcePage, pyoxigraph.Literal(stage.page)))
        if stage.remark:
            add((si, RDFS.comment, pyoxigraph.Literal(stage.remark, language="zh-Hant")))
        for seq in stage.steps:
            add((iris[seq - 1], yk.inStage, si))
    return len(alignment.stages)


def stage_rows(queries: Any, rite: str | None = None, edition: str | None = None) -> list[dict[str, object]]:
    """The stages of the selected editions, in edition order then 楊復's order.

    Parameters
    ----------
    queries : yili.graph.queries.Queries
        The graph's query object (its backend, prefixes and edition selection are used).
    rite : str, optional
        Keep one rite (any written form: ``士冠禮``, ``shiguanli``).
    edition : str, optional
        Keep one edition (its key, the last segment of its IRI: ``shuzhu``).

    Returns
    -------
    list[dict]
        One dict per stage: ``stage`` (IRI), ``title`` (as 楊復 writes it), ``number`` (his order),
        ``first``/``last`` (step IRIs), ``first_sequence``/``last_sequence`` (ints), ``first_text``
        (the first step's text), ``steps`` (how many steps it holds), ``source`` (work, 卷, page),
        ``page``, ``remark`` (楊復's remark on the title, or None), ``edition`` and ``rite`` (IRIs), and
        ``members``: the IRIs of its steps in the edition's order (not always consecutive: 楊復 moves
        the 辭 and the 記 into the stage they belong to).
        Empty for an edition without stages (a rite 儀禮圖 does not cover keeps its phases only).

    Raises
    ------
    UnknownTermError
        ``rite`` names no rite.
    """
    selection = queries.edition_selection(rite, edition)
    rows = queries.backend.select(
        queries.sparql_prefixes
        + f"""
SELECT ?stage ?title ?number ?first ?last ?first_sequence ?last_sequence ?first_text ?source ?page ?remark ?edition ?rite
       (COUNT(?member) AS ?steps) WHERE {{
  {selection}
  ?stage a yk:Stage ; yk:inEdition ?edition ; rdfs:label ?title ; yk:sequence ?number ; yk:firstStep ?first ;
         yk:lastStep ?last ; dcterms:source ?source .
  ?first yk:sequence ?first_sequence ; yk:text ?first_text .
  ?last yk:sequence ?last_sequence .
  ?member yk:inStage ?stage .
  OPTIONAL {{ ?stage yk:sourcePage ?page }}
  OPTIONAL {{ ?stage rdfs:comment ?remark }}
}} GROUP BY ?stage ?title ?number ?first ?last ?first_sequence ?last_sequence ?first_text ?source ?page ?remark ?edition ?rite
ORDER BY ?edition ?number"""
    )
    members = queries.backend.select(
        queries.sparql_prefixes
        + f"""
SELECT ?stage ?member WHERE {{
  {selection}
  ?stage a yk:Stage ; yk:inEdition ?edition .
  ?member yk:inStage ?stage ; yk:sequence ?sequence .
}} ORDER BY ?stage ?sequence"""
    )
    by_stage: dict[object, list[object]] = {}
    for m in members:
        by_stage.setdefault(m["stage"], []).append(m["member"])
    return [r | {"members": by_stage.get(r["stage"], [])} for r in rows]
