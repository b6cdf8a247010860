"""The commentary as RDF: statements by authority, glosses, variant readings and citations.

What :mod:`yili.ingest.commentary` reads is written into each edition's named graph:

- ``statement/{rite}/{edition}/{block}/{n}`` a ``yk:Statement``: ``dcterms:creator`` the authority
  (``ykv:person-zhengxuan``), ``yk:authorityLabel`` the name as marked, ``yk:statementOf`` each
  commentary piece it lies in, ``yk:comments`` the block, ``yk:charStart``/``yk:charEnd``, ``yk:text``,
  ``yk:page``; ``cito:cites`` every work, chapter and passage it quotes;
- ``gloss/{rite}/{edition}/{block}/{n}`` a ``yk:Gloss`` and ``oa:Annotation`` (W3C Web Annotation),
  ``oa:motivatedBy oa:describing`` (``oa:classifying`` where the gloss names a concept of the
  vocabulary: 註 利佐食也), ``oa:hasBody`` a ``oa:TextualBody`` whose ``rdf:value`` is the gloss,
  ``oa:hasTarget`` the word in the classic (``oa:SpecificResource`` on the block with a
  ``oa:TextPositionSelector``, code points into the edition's text, and a ``oa:TextQuoteSelector``),
  ``dcterms:creator`` the authority, ``yk:inStatement``, ``yk:lemma``, ``yk:formula``,
  ``yk:glossedConcept`` where the word is a vocabulary label;
- ``reading/…/{n}`` a ``yk:VariantReading`` (also an ``oa:Annotation``, target as above):
  ``yk:witness`` 古文/今文/或, ``yk:lemma``, ``yk:variant``, ``yk:formula``;
- ``citation/…/{n}`` a ``yk:Citation``: ``cito:cites`` the chapter (its rite profile in the vocabulary,
  ``ykv:rite-shaolaokuishili``, held by every graph) or the work (``ykv:cited-liji``),
  ``yk:citedPassage`` the block quoted with ``yk:citedStart``/``yk:citedEnd``
  and ``yk:quote``, when the chapter is in the build and the words are found there;
- ``step yk:agentFromNote statement`` (and ``prov:wasDerivedFrom``) where a rule decided the step's field
  from a sentence of that statement (:mod:`yili.graph.noted`).

The selectors, bodies and targets are IRIs of their own (the annotation's IRI with ``#body``,
``#target``, ``#position``, ``#quote``), so the same input gives the same graph, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rdflib import Graph, URIRef
from rdflib.namespace import SKOS
from yili.ingest.commentary import Commentary, Occurrence, PassageIndex, read_commentary, resolve_citations
from yili.ingest.pipeline import Extraction
from yili.ontology.commentary import CommentaryTerms, terms_from_graph
from yili.ontology.namespaces import CITO, OA, YKV, mint

CONCEPT_SCHEMES = ("roles", "actions", "vessels", "wines", "places", "facings", "objects")
"""The vocabulary schemes a glossed word is looked up in for ``yk:glossedConcept``."""


def concept_labels(vocabulary: Graph) -> dict[str, URIRef]:
    """Every label of a concept of :data:`CONCEPT_SCHEMES` → the concept (the first in IRI order
    wins a label two share)."""
    out: dict[str, URIRef] = {}
    for scheme in CONCEPT_SCHEMES:
        for concept in sorted(vocabulary.subjects(SKOS.inScheme, YKV[scheme])):
            if isinstance(concept, URIRef):
                for prop in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel):
                    for label in sorted(vocabulary.objects(concept, prop)):
                        out.setdefault(str(label), concept)
    return out


def read_all(extractions: Iterable[Extraction], terms: CommentaryTerms) -> list[Commentary]:
    """Read the commentary of every extraction's document, with citations resolved against all of
    them (a 疏 of the 注疏 of 鄉射禮 quoting 鄉飲酒禮 is resolved in the 注疏 of 鄉飲酒禮 if it is in
    the build, else in another edition of it)."""
    extractions = list(extractions)
    index = PassageIndex(e.document for e in extractions)
    return [resolve_citations(read_commentary(e.document, terms), e.document, index) for e in extractions]


def add_commentary(builder: Any, extractions: list[Extraction], vocabulary: Graph) -> dict[tuple[str, str], dict[str, int]]:
    """Write the commentary of every extraction into its edition's named graph.

    Parameters
    ----------
    builder : yili.graph.build.GraphBuilder
        The builder whose quads receive the triples (its editions already added).
    extractions : list[Extraction]
    vocabulary : rdflib.Graph
        The ontology and vocabulary (authorities, citation forms, concepts).

    Returns
    -------
    dict[tuple[str, str], dict[str, int]]
        (rite, edition) → the counts of :meth:`~yili.ingest.commentary.Commentary.counts`, and ``from-note``:
        the step fields a rule decided from a statement, linked to it (:mod:`yili.graph.noted`).
    """

    terms = terms_from_graph(vocabulary)
    concepts = concept_labels(vocabulary)
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for extraction, commentary in zip(extractions, read_all(extractions, terms), strict=True):
        doc = extraction.document
        counts[(doc.rite, doc.edition)] = commentary.counts()
        links = _add_edition(builder, extraction, commentary, concepts, vocabulary)
        counts[(doc.rite, doc.edition)]["from-note"] = sum(n for rule, n in links.items() if rule != "unplaced")
    return counts


def _add_edition(
    builder: Any, extraction: Extraction, commentary: Commentary, concepts: dict[str, URIRef], vocabulary: Graph
) -> dict[str, int]:
    """The commentary of one edition into ``builder``'s quads (its statements, glosses, readings, citations and the
    statements its steps are derived from: :mod:`yili.graph.noted`), in the edition's named graph.  Returns rule
    id → the step fields it decided from a note, linked to their statement (:func:`yili.graph.noted.add_note_links`)."""
    from rdflib.namespace import DCTERMS, RDF
    from yili.graph.build import GraphWriter, Terms, edition_graph_iri, literal, rebase
    from yili.ingest.layouts import page_at, page_markers

    b = builder.base
    yk = builder.yk
    rdf, dcterms = Terms(RDF), Terms(DCTERMS)
    rdf_value = URIRef(str(rdf.type).replace("type", "value"))
    doc = extraction.document
    g = GraphWriter(builder.output, edition_graph_iri(doc, b))
    edition = mint("text", doc.rite, doc.edition, base=b)
    # IRIs under {kind}/{rite}/{edition}/ made by appending the integer keys (mint percent-encodes
    # each key; integers need none): the same IRIs, minted once per edition and kind
    roots = {
        kind: str(mint(kind, doc.rite, doc.edition, base=b)) + "/"
        for kind in ("statement", "block", "commentary", "gloss", "reading", "citation")
    }

    def iri(kind: str, *keys: int) -> URIRef:
        return URIRef(roots[kind] + "/".join(map(str, keys)))

    markers = page_markers(doc.text)
    st_iri: dict[tuple[int, int], URIRef] = {}

    def person(key: str) -> URIRef | None:
        return rebase(URIRef(str(YKV) + key), b) if key else None

    for st in commentary.statements:
        si = iri("statement", st.block, st.ordinal)
        st_iri[(st.block, st.ordinal)] = si
        block = iri("block", st.block)
        g.add((si, rdf.type, yk.Statement))
        g.add((si, yk.comments, block))
        g.add((si, yk.inEdition, edition))
        for k in st.pieces:
            g.add((si, yk.statementOf, iri("commentary", st.block, k)))
        if (who := person(st.authority)) is not None:
            g.add((si, dcterms.creator, who))
        if st.label:
            g.add((si, yk.authorityLabel, literal(st.label)))
        g.add((si, yk.charStart, literal(st.start)))
        g.add((si, yk.charEnd, literal(st.end)))
        g.add((si, yk.text, literal(st.text)))
        if (page := page_at(markers, st.start)) is not None:
            g.add((si, yk.page, literal(page)))

    def target(ai: URIRef, block_number: int, occ: Occurrence) -> None:
        ti, pi, qi = URIRef(ai + "#target"), URIRef(ai + "#position"), URIRef(ai + "#quote")
        g.add((ai, OA.hasTarget, ti))
        g.add((ti, rdf.type, OA.SpecificResource))
        g.add((ti, OA.hasSource, iri("block", block_number)))
        g.add((ti, OA.hasSelector, pi))
        g.add((ti, OA.hasSelector, qi))
        g.add((pi, rdf.type, OA.TextPositionSelector))
        g.add((pi, OA.start, literal(occ.start)))
        g.add((pi, OA.end, literal(occ.end)))
        g.add((qi, rdf.type, OA.TextQuoteSelector))
        g.add((qi, OA.exact, literal(occ.text)))

    def annotation(ai: URIRef, kind: URIRef, st_key: tuple[int, int], authority: str, start: int, end: int) -> None:
        g.add((ai, rdf.type, kind))
        g.add((ai, rdf.type, OA.Annotation))
        g.add((ai, yk.inStatement, st_iri[st_key]))
        g.add((ai, yk.inEdition, edition))
        if (who := person(authority)) is not None:
            g.add((ai, dcterms.creator, who))
        g.add((ai, yk.charStart, literal(start)))
        g.add((ai, yk.charEnd, literal(end)))

    numbers: dict[tuple[str, int], int] = {}

    def next_iri(kind: str, block_number: int) -> URIRef:
        n = numbers[(kind, block_number)] = numbers.get((kind, block_number), 0) + 1
        return iri(kind, block_number, n)

    for gl in commentary.glosses:
        st = gl.statement
        ai = next_iri("gloss", st.block)
        annotation(ai, yk.Gloss, (st.block, st.ordinal), st.authority, gl.start, gl.end)
        concept = concepts.get(gl.term)
        named = concepts.get(gl.gloss)
        g.add((ai, OA.motivatedBy, OA.classifying if named is not None else OA.describing))
        g.add((ai, yk.lemma, literal(gl.term)))
        g.add((ai, yk.formula, literal(gl.formula)))
        if concept is not None:
            g.add((ai, yk.glossedConcept, rebase(concept, b)))
        body = URIRef(ai + "#body")
        g.add((ai, OA.hasBody, body))
        g.add((body, rdf.type, OA.TextualBody))
        g.add((body, rdf_value, literal(gl.gloss)))
        if named is not None:
            g.add((body, dcterms.subject, rebase(named, b)))
        target(ai, st.block, gl.target)
    for rd in commentary.readings:
        st = rd.statement
        ai = next_iri("reading", st.block)
        annotation(ai, yk.VariantReading, (st.block, st.ordinal), st.authority, rd.start, rd.end)
        g.add((ai, OA.motivatedBy, OA.describing))
        g.add((ai, yk.witness, literal(rd.witness)))
        g.add((ai, yk.lemma, literal(rd.term)))
        g.add((ai, yk.variant, literal(rd.variant)))
        g.add((ai, yk.formula, literal(rd.formula)))
        target(ai, st.block, rd.target)
    for ct in commentary.citations:
        st = ct.statement
        ci = next_iri("citation", st.block)
        si = st_iri[(st.block, st.ordinal)]
        g.add((ci, rdf.type, yk.Citation))
        g.add((ci, yk.inStatement, si))
        g.add((ci, yk.inEdition, edition))
        g.add((ci, yk.citedAs, literal(ct.marker)))
        g.add((ci, yk.charStart, literal(ct.start)))
        g.add((ci, yk.charEnd, literal(ct.end)))
        if (who := person(st.authority)) is not None:
            g.add((ci, dcterms.creator, who))
        # a chapter is cited as the rite's profile in the vocabulary (ykv:rite-shaolaokuishili), which
        # every graph holds, whether or not an edition of that chapter is built
        work = rebase(URIRef(str(YKV) + ("rite-" + ct.key if ct.kind == "rite" else ct.key)), b)
        g.add((ci, CITO.cites, work))
        g.add((si, CITO.cites, work))
        if ct.passage is not None:
            p = ct.passage
            passage = mint("block", p.rite, p.edition, p.block, base=b)
            g.add((ci, yk.citedPassage, passage))
            g.add((si, CITO.cites, passage))
            g.add((ci, yk.citedStart, literal(p.start)))
            g.add((ci, yk.citedEnd, literal(p.end)))
            g.add((ci, yk.quote, literal(p.quote)))
    from yili.graph.build import step_iri
    from yili.graph.noted import add_note_links

    # the statements the rules of the commentary read (Step.noted): yk:agentFromNote, prov:wasDerivedFrom
    return add_note_links(
        g, extraction.steps, commentary.statements, lambda st: st_iri[(st.block, st.ordinal)], lambda s: step_iri(s, b), yk
    )
