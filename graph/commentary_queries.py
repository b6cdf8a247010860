"""SPARQL lookups over the commentary written by :mod:`yili.graph.commentary`: glosses of a word,
citations of a chapter or work, and the statements on a step's block with their glosses.

Each function takes a :class:`~yili.graph.queries.GraphQueries` (for its backend, base IRI and
vocabulary) and returns plain dicts; offsets are Unicode code points, 0-based, end-exclusive, into the
edition text as decoded.  No HTTP here (``api/routes_commentary.py`` serves them).
"""

from __future__ import annotations

from yili.graph.queries import GraphQueries, Page, sparql_iri
from yili.ontology.commentary import default_terms
from yili.ontology.errors import UnknownTermError
from yili.ontology.namespaces import YKV
from yili.ontology.variants import spellings


def _literal(value: str) -> str:
    """A SPARQL string literal of ``value``: JSON's string escapes (quote, backslash, line breaks and
    other control characters as ``\\u00XX``) are SPARQL's too; other characters stay as they are."""
    import json

    return json.dumps(value, ensure_ascii=False)


def glosses(q: GraphQueries, term: str | None = None, rite: str | None = None, limit: int | None = None, offset: int = 0) -> Page:
    """The glosses of a word of the classic, across editions and authorities.

    Parameters
    ----------
    q : GraphQueries
    term : str, optional
        The word as written in any variant (酳; 賓 finds 賔), matched against the glosses' ``yk:lemma``;
        None lists every gloss.
    rite : str, optional
        Keep the editions of one rite (any written form; an unknown rite raises UnknownTermError).
    limit, offset : int
        The page.

    Returns
    -------
    Page
        Items ``{gloss, term, gloss_text, formula, motivation, authority, authority_iri, statement,
        rite, edition, block, char_start, char_end, target_start, target_end, target_text, concept}``
        ordered by edition then offset: ``char_start``/``char_end`` span the formula in the note,
        ``target_start``/``target_end`` the word in the classic.
    """
    term_filter = ""
    if term:
        forms = " ".join(_literal(f) for f in spellings(term))
        term_filter = f"VALUES ?term {{ {forms} }}"
    rows = q.backend.select(
        q.sparql_prefixes
        + f"""
PREFIX oa: <http://www.w3.org/ns/oa#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?g ?term ?body ?formula ?motivation ?who ?whoName ?st ?edition ?rite ?block ?cs ?ce ?ts ?te ?exact ?concept WHERE {{
  {term_filter}
  ?g a yk:Gloss ; yk:lemma ?term ; yk:formula ?formula ; oa:motivatedBy ?motivation ; yk:inStatement ?st ;
     yk:inEdition ?edition ; yk:charStart ?cs ; yk:charEnd ?ce ;
     oa:hasBody/rdf:value ?body ;
     oa:hasTarget ?t .
  {q.rite_filter(rite)}
  ?edition yk:editionOf ?rite .
  ?t oa:hasSource/yk:blockNumber ?block ; oa:hasSelector ?pos , ?quote .
  ?pos oa:start ?ts ; oa:end ?te . ?quote oa:exact ?exact .
  OPTIONAL {{ ?g dcterms:creator ?who .
              OPTIONAL {{ ?who skos:prefLabel ?whoName FILTER(langMatches(lang(?whoName), "zh-Hant")) }} }}
  OPTIONAL {{ ?g yk:glossedConcept ?concept }}
}} ORDER BY ?edition ?cs"""
    )
    items = [
        {
            "gloss": r["g"],
            "term": r["term"],
            "gloss_text": r["body"],
            "formula": r["formula"],
            "motivation": str(r["motivation"]).rsplit("#", 1)[-1],
            "authority": r.get("whoName"),
            "authority_iri": r.get("who"),
            "statement": r["st"],
            "rite": r["rite"],
            "edition": r["edition"],
            "block": r["block"],
            "char_start": r["cs"],
            "char_end": r["ce"],
            "target_start": r["ts"],
            "target_end": r["te"],
            "target_text": r["exact"],
            "concept": r.get("concept"),
        }
        for r in rows
    ]
    page = items[offset : None if limit is None else offset + limit]
    return Page(page, len(items), len(items) if limit is None else limit, offset)


def cited_iri(q: GraphQueries, to: str) -> str:
    """The IRI a citation of ``to`` cites: a rite (any written form: 少牢饋食禮, 少牢, shaolaokuishili),
    cited as its profile in the vocabulary (``ykv:rite-shaolaokuishili``), or a work the commentary
    cites (its key ``cited-liji``, or any form it is cited under: 禮記, 曲禮, 詩).

    Raises
    ------
    UnknownTermError
        If ``to`` names neither (HTTP 404, naming it).
    """
    from yili.ingest.rites import find_rite
    from yili.ontology.errors import InputError

    forms = default_terms().citation_forms
    if to in forms:
        kind, key = forms[to]
        return _work_iri(q, "rite-" + key if kind == "rite" else key)
    if to.startswith("cited-") and any(k == to for _kind, k in forms.values()):
        return _work_iri(q, to)
    try:
        profile = find_rite(to, q.vocabulary)
    except InputError:
        raise UnknownTermError(
            f"unknown chapter or work {to!r}: give a rite (shaolaokuishili, 少牢饋食禮) or a cited work (禮記, 詩, cited-liji)"
        ) from None
    return _work_iri(q, "rite-" + profile.key)


def _work_iri(q: GraphQueries, key: str) -> str:
    iri = str(YKV) + key
    from yili.ontology.namespaces import DEFAULT_BASE

    return q.base + iri[len(DEFAULT_BASE) :] if q.base != DEFAULT_BASE else iri


def citations(q: GraphQueries, to: str | None = None, rite: str | None = None, limit: int | None = None, offset: int = 0) -> Page:
    """The citations of a chapter or work, across editions and authorities.

    Parameters
    ----------
    q : GraphQueries
    to : str, optional
        What is cited (see :func:`cited_iri`); None lists every citation.
    rite : str, optional
        Keep the citing editions of one rite.
    limit, offset : int

    Returns
    -------
    Page
        Items ``{citation, cited_as, cites, passage, passage_rite, passage_edition, passage_block,
        quote, cited_start, cited_end, authority, statement, rite, edition, block, char_start, char_end}``
        (``passage`` and what follows it None when the quotation is not found in the graph), ordered by
        edition then offset.
    """
    cites = f"BIND({sparql_iri(cited_iri(q, to))} AS ?cites)" if to else ""
    rows = q.backend.select(
        q.sparql_prefixes
        + f"""
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX cito: <http://purl.org/spar/cito/>
SELECT ?c ?marker ?cites ?passage ?pBlock ?pEdition ?quote ?ps ?pe ?whoName ?st ?edition ?rite ?block ?cs ?ce WHERE {{
  {cites}
  ?c a yk:Citation ; cito:cites ?cites ; yk:citedAs ?marker ; yk:inStatement ?st ; yk:inEdition ?edition ;
     yk:charStart ?cs ; yk:charEnd ?ce .
  {q.rite_filter(rite)}
  ?edition yk:editionOf ?rite .
  ?st yk:comments/yk:blockNumber ?block .
  OPTIONAL {{ ?c yk:citedPassage ?passage . ?passage yk:blockNumber ?pBlock ; yk:inEdition ?pEdition .
             ?c yk:quote ?quote ; yk:citedStart ?ps ; yk:citedEnd ?pe }}
  OPTIONAL {{ ?c dcterms:creator/skos:prefLabel ?whoName FILTER(langMatches(lang(?whoName), "zh-Hant")) }}
}} ORDER BY ?edition ?cs"""
    )
    items = [
        {
            "citation": r["c"],
            "cited_as": r["marker"],
            "cites": r["cites"],
            "passage": r.get("passage"),
            "passage_edition": r.get("pEdition"),
            "passage_block": r.get("pBlock"),
            "quote": r.get("quote"),
            "cited_start": r.get("ps"),
            "cited_end": r.get("pe"),
            "authority": r.get("whoName"),
            "statement": r["st"],
            "rite": r["rite"],
            "edition": r["edition"],
            "block": r["block"],
            "char_start": r["cs"],
            "char_end": r["ce"],
        }
        for r in rows
    ]
    page = items[offset : None if limit is None else offset + limit]
    return Page(page, len(items), len(items) if limit is None else limit, offset)


def block_statements(q: GraphQueries, block_iri: str) -> list[dict[str, object]]:
    """The statements on a classic block, by authority, each with the glosses and readings read in it.

    Returns
    -------
    list[dict]
        In text order: ``{statement, authority, authority_label, text, char_start, char_end, glosses:
        [{term, gloss_text, formula, target_start, target_end}], readings: [{witness, term, variant,
        target_start, target_end}]}``; ``target_start``/``target_end`` place the word in the classic.
    """
    b = sparql_iri(block_iri)
    statements = q.backend.select(
        q.sparql_prefixes
        + f"""
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?st ?label ?whoName ?text ?cs ?ce WHERE {{
  ?st a yk:Statement ; yk:comments {b} ; yk:text ?text ; yk:charStart ?cs ; yk:charEnd ?ce .
  OPTIONAL {{ ?st yk:authorityLabel ?label }}
  OPTIONAL {{ ?st dcterms:creator/skos:prefLabel ?whoName FILTER(langMatches(lang(?whoName), "zh-Hant")) }}
}} ORDER BY ?cs"""
    )
    notes = q.backend.select(
        q.sparql_prefixes
        + f"""
PREFIX oa: <http://www.w3.org/ns/oa#>
SELECT ?st ?kind ?term ?body ?formula ?witness ?variant ?ts ?te WHERE {{
  ?st a yk:Statement ; yk:comments {b} .
  ?a yk:inStatement ?st ; yk:lemma ?term ; oa:hasTarget/oa:hasSelector ?pos .
  ?pos oa:start ?ts ; oa:end ?te .
  {{ ?a a yk:Gloss ; yk:formula ?formula ; oa:hasBody/rdf:value ?body . BIND("gloss" AS ?kind) }}
  UNION {{ ?a a yk:VariantReading ; yk:witness ?witness ; yk:variant ?variant . BIND("reading" AS ?kind) }}
}} ORDER BY ?ts ?term"""
    )
    out = []
    for s in statements:
        mine = [n for n in notes if n["st"] == s["st"]]
        out.append(
            {
                "statement": s["st"],
                "authority": s.get("whoName"),
                "authority_label": s.get("label"),
                "text": s["text"],
                "char_start": s["cs"],
                "char_end": s["ce"],
                "glosses": [
                    {
                        "term": n["term"],
                        "gloss_text": n["body"],
                        "formula": n["formula"],
                        "target_start": n["ts"],
                        "target_end": n["te"],
                    }
                    for n in mine
                    if n["kind"] == "gloss"
                ],
                "readings": [
                    {
                        "witness": n["witness"],
                        "term": n["term"],
                        "variant": n["variant"],
                        "target_start": n["ts"],
                        "target_end": n["te"],
                    }
                    for n in mine
                    if n["kind"] == "reading"
                ],
            }
        )
    return out


def derived_from(q: GraphQueries, step_iri: str) -> list[str]:
    """The statements a step's fields were read from (``prov:wasDerivedFrom``: the note on its block
    that names its agent, 特牲 註 利佐食也), as IRIs in order; empty for most steps."""
    rows = q.backend.select(
        q.sparql_prefixes
        + f"""
PREFIX prov: <http://www.w3.org/ns/prov#>
SELECT ?st WHERE {{ {sparql_iri(step_iri)} prov:wasDerivedFrom ?st . ?st a yk:Statement ; yk:charStart ?cs }} ORDER BY ?cs"""
    )
    return [str(r["st"]) for r in rows]
