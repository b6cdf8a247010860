"""Steps → RDF: one named graph per edition, the ontology and vocabulary in a graph of their own.

The graph follows ``ontology/yili.ttl``: a :class:`~yili.ingest.steps.Step` becomes a ``yk:Step``
(and a ``yk:Toast`` when it is one) whose IRI is minted from the rite, the edition, the classic
block and the step's ordinal in it (:func:`step_iri`), so that rebuilding the same text gives the
same IRIs and an edit in one block renames nothing outside it.  Each step
keeps its source span twice: as plain integers (``yk:charStart``/``yk:charEnd``, easy to query)
and as a Web Annotation ``oa:SpecificResource`` with a ``oa:TextPositionSelector`` and a
``oa:TextQuoteSelector`` (what annotation tools read).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import pyoxigraph
from rdflib import BNode, Dataset, Graph, Literal, Namespace, URIRef
from rdflib.compare import to_canonical_graph
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, XSD
from yili.graph.scenes import add_furnishings, add_placements
from yili.graph.stages import add_stages
from yili.ingest.document import Document, commentary_statements, plain_reading
from yili.ingest.pipeline import Extraction
from yili.ingest.steps import Step, Term
from yili.ingest.toasts import Toast
from yili.ontology.errors import InputError
from yili.ontology.namespaces import DEFAULT_BASE, OA, PREFIXES, SPDX, YK, YKV, base_iri, mint
from yili.ontology.version import software_version
from yili.ontology.vocabulary import VOLUME, default_files, read_graph

MODES = {"actual": YKV["mode-actual"], "conditional": YKV["mode-conditional"], "negated": YKV["mode-negated"]}
LAYERS = {"jing": YKV["layer-jing"], "zhu": YKV["layer-zhu"], "shu": YKV["layer-shu"], "other": YKV["layer-other"]}


def build_time() -> datetime | None:
    """The build time to record, from ``SOURCE_DATE_EPOCH`` (seconds since 1970-01-01 UTC, the
    reproducible-builds convention, https://reproducible-builds.org/specs/source-date-epoch/), or
    ``None`` when it is not set: no clock time is recorded, so the same input gives the same graph.

    Raises
    ------
    InputError
        ``SOURCE_DATE_EPOCH`` is set but is not a whole number of seconds in range.
    """
    raw = os.environ.get("SOURCE_DATE_EPOCH")
    if raw is None or raw == "":
        return None
    try:
        return datetime.fromtimestamp(int(raw), tz=UTC)
    except (ValueError, OverflowError, OSError):
        raise InputError(
            f"SOURCE_DATE_EPOCH={raw[:40]!r}: not a whole number of seconds since 1970-01-01 UTC (in the years 1-9999)"
        ) from None


def prefixes_for(base: str | None = None) -> dict[str, str]:
    """The project's prefixes (:data:`~yili.ontology.namespaces.PREFIXES`) with ``yk:``/``ykv:``
    moved under ``base`` when another base IRI is chosen."""
    b = base or base_iri()
    return {p: (b + ns[len(DEFAULT_BASE) :] if ns.startswith(DEFAULT_BASE) else ns) for p, ns in PREFIXES.items()}


def vocabulary_graph_iri(base: str | None = None) -> URIRef:
    """IRI of the named graph that holds the ontology and the vocabulary."""
    return mint("graph", "vocabulary", base=base)


def edition_graph_iri(document: Document, base: str | None = None) -> URIRef:
    """IRI of the named graph that holds one edition's blocks, steps, toasts and commentary."""
    return mint("graph", document.rite, document.edition, base=base)


def _rebase_graph(graph: Graph, base: str) -> Graph:
    """Copy ``graph`` with IRIs under the default base moved under ``base``."""
    if base == DEFAULT_BASE:
        return graph
    out = Graph()

    def move(node):  # type: ignore[no-untyped-def]
        if isinstance(node, URIRef) and str(node).startswith(DEFAULT_BASE):
            return URIRef(base + str(node)[len(DEFAULT_BASE) :])
        if isinstance(node, Literal) and node.datatype is None and str(node).startswith(DEFAULT_BASE):
            return Literal(base + str(node)[len(DEFAULT_BASE) :], lang=node.language)
        return node

    for s, p, o in graph:
        out.add((move(s), move(p), move(o)))
    return out


def step_iri(step: Step, base: str | None = None) -> URIRef:
    """The IRI of a step: ``step/{rite}/{edition}/{block}/{ordinal}``, its rite, its edition and its
    place in the text's own structure (the classic block it is read from, and its 1-based ordinal
    among that block's steps), so that an edit in one block renames no step outside it.

    >>> from yili.ingest.pipeline import Extractor
    >>> from yili.ingest.document import load_default
    >>> str(step_iri(Extractor().extract(load_default()).steps[0], "https://example.org/"))
    'https://example.org/step/yanli/shuzhu-excerpt/1/1'
    """
    return mint("step", *step.key.split("/"), base=base)


def _iri(term: Term | None, base: str) -> URIRef | None:
    if term is None or not term.key or not term.iri:
        return None
    iri = term.iri
    if base != DEFAULT_BASE and iri.startswith(DEFAULT_BASE):
        iri = base + iri[len(DEFAULT_BASE) :]
    return URIRef(iri)


class Terms:
    """The IRIs of a namespace as attributes (``yk.Step``), each made once: an rdflib
    :class:`~rdflib.Namespace` makes and checks a new :class:`~rdflib.URIRef` at every access.

    ``Terms(RDF).type`` is the :class:`~rdflib.URIRef` ``rdf:type``; ``namespace`` is anything whose
    ``namespace[name]`` is the IRI of ``name`` (an rdflib ``Namespace`` or ``DefinedNamespace``).  An
    attribute the namespace does not define raises as ``namespace[name]`` does (``AttributeError``
    for a closed ``DefinedNamespace``).
    """

    def __init__(self, namespace: Any) -> None:
        self._namespace = namespace

    def __getattr__(self, name: str) -> URIRef:
        term = URIRef(self._namespace[name])
        setattr(self, name, term)
        return term


_RDF, _RDFS, _DCTERMS, _PROV, _OA, _SPDX, _XSD = (Terms(ns) for ns in (RDF, RDFS, DCTERMS, PROV, OA, SPDX, XSD))

_XSD_INTEGER = pyoxigraph.NamedNode(str(XSD.integer))
_XSD_BOOLEAN = pyoxigraph.NamedNode(str(XSD.boolean))


def literal(value: str | int | bool, datatype: URIRef | None = None) -> pyoxigraph.Literal:
    """The literal rdflib's ``Literal(value, datatype=datatype)`` stands for, made as a pyoxigraph
    term directly: a string as ``xsd:string``, an int as ``xsd:integer``, a bool as ``xsd:boolean``
    (``true``/``false``), or the lexical form ``value`` of ``datatype``.

    >>> literal(3)
    <Literal value=3 datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#integer>>
    """
    if datatype is not None:
        return pyoxigraph.Literal(str(value), datatype=pyoxigraph.NamedNode(str(datatype)))
    if isinstance(value, bool):
        return pyoxigraph.Literal("true" if value else "false", datatype=_XSD_BOOLEAN)
    if isinstance(value, int):
        return pyoxigraph.Literal(str(value), datatype=_XSD_INTEGER)
    return pyoxigraph.Literal(value)


class QuadBatch(NamedTuple):
    """Quads made by the builder, in two forms: ``quads``, pyoxigraph quads (those with a blank node,
    whose labels a parser would change, and the vocabulary's), and ``nquads``, the others as N-Quads
    text (UTF-8), which pyoxigraph loads without a Python object per term (:meth:`load_into`)."""

    quads: list[pyoxigraph.Quad]
    nquads: bytes

    def load_into(self, store: pyoxigraph.Store) -> None:
        """Bulk-load both parts into ``store``; the N-Quads text, written from terms already checked, is
        not checked again (``lenient``)."""
        if self.quads:
            store.bulk_extend(self.quads)
        if self.nquads:
            store.bulk_load(input=self.nquads, format=pyoxigraph.RdfFormat.N_QUADS, lenient=True)

    def as_quads(self) -> list[pyoxigraph.Quad]:
        """Every quad of the batch as a pyoxigraph quad: ``quads``, then ``nquads`` parsed (they hold no
        blank node, so no label changes)."""
        return [*self.quads, *pyoxigraph.parse(self.nquads, format=pyoxigraph.RdfFormat.N_QUADS)]


class _Output:
    """Where the builder's graph writers put what they write: ``quads`` (pyoxigraph quads) and ``lines``
    (N-Quads lines, ``str``); :meth:`take` empties both into a :class:`QuadBatch`."""

    def __init__(self) -> None:
        self.quads: list[pyoxigraph.Quad] = []
        self.lines: list[str] = []

    def take(self) -> QuadBatch:
        batch = QuadBatch(self.quads, "".join(self.lines).encode("utf-8"))
        self.quads, self.lines = [], []
        return batch


def _nt(term: Any) -> str | None:
    """A term in N-Triples syntax, or None for a blank node (kept as a pyoxigraph term)."""
    if isinstance(term, URIRef):
        return f"<{term}>"
    if isinstance(term, pyoxigraph.Literal | pyoxigraph.NamedNode):
        return str(term)
    if isinstance(term, Literal):
        return str(_ox(term))
    if isinstance(term, BNode | pyoxigraph.BlankNode):
        return None
    raise TypeError(f"not an RDF term: {term!r}")


class GraphWriter:
    """One named graph of the builder: ``add((s, p, o))`` with rdflib or pyoxigraph terms, written to an
    :class:`_Output` as N-Quads lines (each IRI's text made once per graph), or, with a blank node or
    with ``as_quads``, as pyoxigraph quads.

    Parameters
    ----------
    output : _Output
        Where the quads go (appended, in the order added): the builder's ``output``.
    name : URIRef
        The named graph they are in (an edition's, or the vocabulary's).
    as_quads : bool
        Keep every quad as a pyoxigraph quad (the vocabulary's, whose blank nodes keep their labels).
    """

    def __init__(self, output: _Output, name: URIRef, as_quads: bool = False) -> None:
        self._output = output
        self._name = pyoxigraph.NamedNode(str(name))
        self._end = f" <{name}> .\n"
        self._texts: dict[str, str] = {}
        self._as_quads = as_quads

    def _text(self, term: Any) -> str | None:
        if type(term) is URIRef:
            text = self._texts.get(term)
            if text is None:
                text = self._texts[term] = f"<{term}>"
            return text
        if type(term) is pyoxigraph.Literal:
            return str(term)
        return _nt(term)

    def add(self, triple: tuple[Any, Any, Any]) -> None:
        """Append ``(s, p, o)`` (rdflib or pyoxigraph terms; an rdflib blank node or literal is
        converted, see :func:`_ox`) as a quad of this graph.

        Raises
        ------
        TypeError
            A term is neither (``not an RDF term: …``).
        """
        s, p, o = triple
        if not self._as_quads:
            text = self._text
            ts, tp, to = text(s), text(p), text(o)
            if ts is not None and to is not None:
                self._output.lines.append(f"{ts} {tp} {to}{self._end}")
                return
        self._output.quads.append(pyoxigraph.Quad(_ox_term(s), _ox_term(p), _ox_term(o), self._name))


def _ox_term(term: Any) -> Any:
    """A term as a pyoxigraph term (pyoxigraph's own as they are)."""
    if isinstance(term, pyoxigraph.Literal | pyoxigraph.NamedNode | pyoxigraph.BlankNode):
        return term
    return _ox(term)


def _ox(term: Any) -> Any:
    """An rdflib term as the pyoxigraph term of the same value."""
    if isinstance(term, URIRef):
        return pyoxigraph.NamedNode(str(term))
    if isinstance(term, Literal):
        if term.language:
            return pyoxigraph.Literal(str(term), language=term.language)
        if term.datatype is not None:
            return pyoxigraph.Literal(str(term), datatype=pyoxigraph.NamedNode(str(term.datatype)))
        return pyoxigraph.Literal(str(term))
    if isinstance(term, BNode):
        return pyoxigraph.BlankNode(str(term))
    raise TypeError(f"not an RDF term: {term!r}")


class GraphBuilder:
    """Write extractions as quads for an Oxigraph store (one named graph per edition).

    Quads go straight to Oxigraph terms, which take a tenth of the memory of an rdflib graph;
    :func:`build_dataset` gives an rdflib view when one is wanted (validation, tests).

    Parameters
    ----------
    base : str, optional
        The base IRI (default :func:`~yili.ontology.namespaces.base_iri`).
    vocabulary_files : iterable of path, optional
        Extra vocabulary files (``--vocab``) to include in the vocabulary graph.
    """

    def __init__(self, base: str | None = None, vocabulary_files: Iterable[str | Path] = ()) -> None:
        self.base = base or base_iri()
        self.output = _Output()
        # the vocabulary as pyoxigraph quads: its blank nodes keep their canonical labels
        vocab = GraphWriter(self.output, vocabulary_graph_iri(self.base), as_quads=True)
        # canonical blank-node labels (rdflib mints random ones: the OWL lists, the SHACL shapes) and a
        # fixed order (rdflib's depends on the hash seed): the same files give the same graph
        source = to_canonical_graph(read_graph([*default_files(), *vocabulary_files], shared=True))  # read, not changed
        for triple in sorted(_rebase_graph(source, self.base), key=lambda t: tuple(x.n3() for x in t)):
            vocab.add(triple)
        self.source = source  # the ontology and vocabulary, read by graph/commentary.py
        self._layer_author, self._author_by_name = _authorities(source)
        self._work_by_title = _labels_of_scheme(source, "works")
        self.yk = Terms(Namespace(str(YK)) if self.base == DEFAULT_BASE else Namespace(self.base + str(YK)[len(DEFAULT_BASE) :]))
        self._add_rules(vocab)

    def _add_rules(self, g: GraphWriter) -> None:
        """The extraction rules (:func:`yili.ingest.rules.registry`), in the vocabulary graph: each a
        ``yk:Rule`` at ``rule/{id}`` with its id (``rdfs:label``), what it does (``rdfs:comment``), its
        citation (``dcterms:bibliographicCitation``) and its field (``yk:field``)."""
        from yili.ingest.rules import registry

        yk = self.yk
        for r in registry():
            iri = mint("rule", r.id, base=self.base)
            g.add((iri, _RDF.type, yk.Rule))
            g.add((iri, _RDFS.label, literal(r.id)))
            if r.doc:
                g.add((iri, _RDFS.comment, Literal(r.doc, lang="en")))
            g.add((iri, _DCTERMS.bibliographicCitation, literal(r.cites)))
            g.add((iri, yk.field, literal(r.field)))

    def add(self, extraction: Extraction) -> URIRef:
        """Add one edition's steps, toasts, phases, blocks and commentary.

        Parameters
        ----------
        extraction : Extraction

        Returns
        -------
        URIRef
            The IRI of the named graph written.
        """
        doc = extraction.document
        b = self.base
        yk = self.yk
        gid = edition_graph_iri(doc, b)
        g = GraphWriter(self.output, gid)
        rite = mint("rite", doc.rite, base=b)
        edition = mint("text", doc.rite, doc.edition, base=b)
        profile = extraction.profile
        g.add((rite, _RDF.type, yk.Rite))
        g.add((rite, _RDFS.label, Literal(profile.hant or doc.rite, lang="zh-Hant")))
        g.add((rite, _RDFS.label, Literal(profile.hans or doc.rite, lang="zh-Hans")))
        if profile.en:
            g.add((rite, _RDFS.label, Literal(profile.en, lang="en")))
        if profile.iri:
            # the rite's profile in the vocabulary: its cast and facts, with their sources
            g.add((rite, _RDFS.seeAlso, rebase(URIRef(profile.iri), b)))
        g.add((edition, _RDF.type, yk.Edition))
        g.add((edition, yk.editionOf, rite))
        g.add((edition, _DCTERMS.source, literal(Path(doc.source).name)))
        if doc.title:
            g.add((edition, _DCTERMS.title, literal(doc.title)))
            # the work the edition is of, by its title less the 卷 (儀禮述註卷三 → 儀禮述註)
            work = self._work_by_title.get(VOLUME.sub("", doc.title).strip())
            if work is not None:
                g.add((edition, _DCTERMS.isPartOf, rebase(work, b)))
        self._provenance(g, gid, doc)
        for block in doc.blocks:
            bi = mint("block", doc.rite, doc.edition, block.number, base=b)
            g.add((bi, _RDF.type, yk.Block))
            g.add((bi, yk.blockNumber, literal(block.number)))
            g.add((bi, yk.inEdition, edition))
            g.add((bi, yk.charStart, literal(block.classic.start)))
            g.add((bi, yk.charEnd, literal(block.classic.end)))
            # the text as read, with the print layout taken out (ingest/document.py), as a step's yk:text
            g.add((bi, yk.text, literal(block.classic.reading_text)))
            for k, piece in enumerate(commentary_statements(doc, block), start=1):
                ci = mint("commentary", doc.rite, doc.edition, block.number, k, base=b)
                g.add((ci, _RDF.type, yk.Commentary))
                g.add((ci, yk.comments, bi))
                g.add((ci, yk.inEdition, edition))
                g.add((ci, yk.layer, rebase(LAYERS[piece.layer], b)))
                if piece.commentator:
                    g.add((ci, yk.commentator, literal(piece.commentator)))
                author = self._layer_author.get(piece.layer) or self._author_by_name.get(piece.commentator or "")
                if author is not None:
                    g.add((ci, _DCTERMS.creator, rebase(author, b)))
                g.add((ci, yk.charStart, literal(piece.start)))
                g.add((ci, yk.charEnd, literal(piece.end)))
                g.add((ci, yk.text, literal(plain_reading(piece))))
        toasts = {t.step.sequence: t for t in extraction.toasts}
        steps = extraction.steps
        iris = [step_iri(s, b) for s in steps]
        for k, step in enumerate(steps):
            self._step(g, step, iris[k], rite, edition, doc)
            if k > 0:
                g.add((iris[k], yk.previous, iris[k - 1]))
                g.add((iris[k - 1], yk.next, iris[k]))
            if step.repeats:
                g.add((iris[k], yk.repeats, iris[step.repeats - 1]))
        for seq, toast in toasts.items():
            self._toast(g, toast, iris[seq - 1])
        named: dict[str, int] = {}
        for phase in extraction.phases:
            pi = mint("phase", doc.rite, doc.edition, _phase_key(phase, steps, named), base=b)
            g.add((pi, _RDF.type, yk.Phase))
            g.add((pi, _RDFS.label, literal(phase.label)))
            g.add((pi, yk.sequence, literal(phase.number)))
            g.add((pi, yk.firstStep, iris[phase.first - 1]))
            g.add((pi, yk.lastStep, iris[phase.last - 1]))
            g.add((pi, yk.inEdition, edition))
            for seq in range(phase.first, phase.last + 1):
                g.add((iris[seq - 1], yk.inPhase, pi))
        if extraction.stages is not None:  # 楊復's stages (節), beside the phases
            add_stages(g.add, extraction.stages, steps, iris, edition, yk, b)
        add_placements(g.add, steps, iris, yk, b, str(rebase(URIRef(str(YKV)), b)))  # who is where: the moves
        add_furnishings(g.add, steps, iris, yk, b)  # the vessels and mats set out
        return gid

    def _provenance(self, g: GraphWriter, gid: URIRef, doc: Document) -> None:
        """PROV-O: the named graph ``gid`` was generated by a build, by this version of yili-kg, that
        used the input file, identified by its name and SHA-256 (``spdx:checksum``); the build's end
        time only when ``SOURCE_DATE_EPOCH`` is set (:func:`build_time`)."""
        b = self.base
        version = software_version()
        software = mint("software", "yili-kg", version, base=b)
        activity = mint("build", doc.rite, doc.edition, base=b)
        source = mint("file", doc.rite, doc.edition, base=b)
        checksum = mint("file", doc.rite, doc.edition, "sha256", base=b)
        edition = mint("text", doc.rite, doc.edition, base=b)
        g.add((gid, _RDF.type, _PROV.Entity))
        g.add((gid, _PROV.wasGeneratedBy, activity))
        g.add((gid, _PROV.wasDerivedFrom, source))
        g.add((activity, _RDF.type, _PROV.Activity))
        g.add((activity, _PROV.used, source))
        g.add((activity, _PROV.wasAssociatedWith, software))
        when = build_time()
        if when is not None:
            g.add((activity, _PROV.endedAtTime, literal(when.strftime("%Y-%m-%dT%H:%M:%SZ"), _XSD.dateTime)))
        g.add((software, _RDF.type, _PROV.SoftwareAgent))
        g.add((software, _RDFS.label, literal(f"yili-kg {version}")))
        g.add((software, _DCTERMS.hasVersion, literal(version)))
        g.add((source, _RDF.type, _PROV.Entity))
        g.add((source, _DCTERMS.title, literal(Path(doc.source).name)))
        g.add((source, _DCTERMS.isFormatOf, edition))
        g.add((source, _SPDX.checksum, checksum))
        g.add((checksum, _RDF.type, _SPDX.Checksum))
        g.add((checksum, _SPDX.algorithm, _SPDX.checksumAlgorithm_sha256))
        g.add((checksum, _SPDX.checksumValue, literal(doc.digest, _XSD.hexBinary)))

    def _step(self, g: GraphWriter, s: Step, iri: URIRef, rite: URIRef, edition: URIRef, doc: Document) -> None:
        yk, b = self.yk, self.base
        g.add((iri, _RDF.type, yk.Step))
        g.add((iri, yk.sequence, literal(s.sequence)))
        g.add((iri, yk.partOfRite, rite))
        g.add((iri, yk.inEdition, edition))
        g.add((iri, yk.inBlock, mint("block", doc.rite, doc.edition, s.block, base=b)))
        g.add((iri, yk.charStart, literal(s.char_start)))
        g.add((iri, yk.charEnd, literal(s.char_end)))
        g.add((iri, yk.text, literal(s.text)))
        g.add((iri, _RDFS.label, literal(f"{s.sequence}. {s.text}")))
        # labels as written in this edition (賔, not 宾), for display and exports
        for prop, value in (
            (yk.agentLabel, s.agent_label),
            (yk.recipientLabel, s.recipient_label),
            (yk.actionLabel, s.action.label),
            (yk.vesselLabel, s.vessel.label if s.vessel else None),
            (yk.wineLabel, s.wine.label if s.wine else None),
            (yk.facingLabel, s.facing.label if s.facing else None),
            (yk.page, s.page),
        ):
            if value:
                g.add((iri, prop, literal(value)))
        g.add((iri, yk.blockNumber, literal(s.block)))
        for t in s.agent:
            if (x := _iri(t, b)) is not None:
                g.add((iri, yk.agent, x))
        if (x := _iri(s.action, b)) is not None:
            g.add((iri, yk.action, x))
        for t in s.recipient:
            if (x := _iri(t, b)) is not None:
                g.add((iri, yk.recipient, x))
        if s.object:
            g.add((iri, yk.objectLabel, literal(s.object)))
        if (x := _iri(s.object_term, b)) is not None:
            g.add((iri, yk.object, x))
        for prop, term in ((yk.vessel, s.vessel), (yk.wine, s.wine), (yk.facing, s.facing), (yk.rankOrder, s.rank_order)):
            if (x := _iri(term, b)) is not None:
                g.add((iri, prop, x))
        if s.location:
            g.add((iri, yk.locationLabel, literal(s.location)))
        if (x := _iri(s.location_term, b)) is not None:
            g.add((iri, yk.location, x))
        g.add((iri, yk.mode, rebase(MODES[s.mode], b)))
        if s.negated:
            g.add((iri, yk.negated, literal(True)))
        if s.part == "ji":
            g.add((iri, yk.inAppendix, literal(True)))
        # the source span, as Web Annotation selectors
        span = URIRef(str(iri) + "#source")
        pos, quote = URIRef(str(iri) + "#position"), URIRef(str(iri) + "#quote")
        g.add((iri, yk.source, span))
        g.add((span, _RDF.type, _OA.SpecificResource))
        g.add((span, _OA.hasSource, edition))
        g.add((span, _OA.hasSelector, pos))
        g.add((span, _OA.hasSelector, quote))
        g.add((pos, _RDF.type, _OA.TextPositionSelector))
        g.add((pos, _OA.start, literal(s.char_start, _XSD.nonNegativeInteger)))
        g.add((pos, _OA.end, literal(s.char_end, _XSD.nonNegativeInteger)))
        g.add((quote, _RDF.type, _OA.TextQuoteSelector))
        g.add((quote, _OA.exact, literal(s.text)))
        if s.notes:
            g.add((iri, yk.note, literal("; ".join(s.notes))))
        for field, rule_id in s.why:  # the rule that decided each field (yk:agentDecidedBy …)
            g.add((iri, getattr(yk, f"{field}DecidedBy"), mint("rule", rule_id, base=b)))

    def _toast(self, g: GraphWriter, t: Toast, iri: URIRef) -> None:
        yk, b = self.yk, self.base
        givers = [x for x in (_iri(p, b) for p in t.giver) if x is not None]
        receivers = [x for x in (_iri(p, b) for p in t.receiver) if x is not None]
        # every toast is in the graph; one whose giver or receiver cannot be named has none, and says so
        g.add((iri, _RDF.type, yk.Toast))
        if (x := _iri(t.type, b)) is not None:
            g.add((iri, yk.toastType, x))
        if (x := _iri(t.type_alternative, b)) is not None:
            g.add((iri, yk.toastTypeAlternative, x))
        # one giver and one receiver per toast (yk:giver is functional); joint or alternative
        # parties are spelt out in a note
        if givers:
            g.add((iri, yk.giver, givers[0]))
        if receivers:
            g.add((iri, yk.receiver, receivers[0]))
        for p in t.performed_by:
            if (x := _iri(p, b)) is not None:
                g.add((iri, yk.performedBy, x))
        rec = t.as_record()
        for prop, value in (
            (yk.giverLabel, rec["giver"]),
            (yk.receiverLabel, rec["receiver"]),
            (yk.performedByLabel, rec["performed_by"]),
            (yk.toastTypeLabel, rec["type"]),
        ):
            if value:
                g.add((iri, prop, literal(value)))
        unnamed = [who for who, named in (("giver", givers), ("receiver", receivers)) if not named]
        if unnamed:
            g.add(
                (
                    iri,
                    yk.note,
                    literal(
                        f"the {' and the '.join(unnamed)} of this toast {'are' if len(unnamed) > 1 else 'is'} not named in the "
                        "text"
                    ),
                )
            )
        elif len(t.giver) > 1 or len(t.receiver) > 1 or t.note:
            parts = [f"{rec['giver']} {rec['type']} {rec['receiver']}"] + ([t.note] if t.note else [])
            g.add((iri, yk.note, literal("; ".join(parts))))


def _authorities(vocabulary: Graph) -> tuple[dict[str, URIRef], dict[str, URIRef]]:
    """The authority list of ``ontology/yili.ttl`` (``ykv:authorities``) as two maps: a layer's
    notation (``zhu``) → its author (``yk:layerAuthor``, 鄭玄), and every name an edition writes
    before 曰 (the authority's labels: 楊氏, 朱先生, 音義) → the authority."""
    layer_author = {
        str(notation): author
        for layer, author in sorted(vocabulary.subject_objects(YK.layerAuthor))
        for notation in vocabulary.objects(layer, SKOS.notation)
        if isinstance(author, URIRef)
    }
    return layer_author, _labels_of_scheme(vocabulary, "authorities")


def _labels_of_scheme(vocabulary: Graph, scheme: str) -> dict[str, URIRef]:
    """Every label (pref, alt, hidden; any language) of the concepts of ``ykv:<scheme>`` → the
    concept; the first concept in IRI order wins a label two share."""
    by_name: dict[str, URIRef] = {}
    for concept in sorted(vocabulary.subjects(SKOS.inScheme, YKV[scheme])):
        if isinstance(concept, URIRef):
            for prop in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel):
                for label in sorted(vocabulary.objects(concept, prop)):
                    by_name.setdefault(str(label), concept)
    return by_name


def rebase(iri: URIRef, base: str) -> URIRef:
    """``iri`` moved under ``base`` when it is under the default base
    (:data:`~yili.ontology.namespaces.DEFAULT_BASE`), else ``iri`` itself: the graph of a build with
    ``--base-iri`` names its own vocabulary, rules and rites.

    >>> str(rebase(URIRef("https://w3id.org/yili-kg/vocab/role-bin"), "https://example.org/"))
    'https://example.org/vocab/role-bin'
    """
    s = str(iri)
    if base != DEFAULT_BASE and s.startswith(DEFAULT_BASE):
        return URIRef(base + s[len(DEFAULT_BASE) :])
    return iri


def build_store(
    extractions: Iterable[Extraction],
    base: str | None = None,
    vocabulary_files: Iterable[str | Path] = (),
    commentary_counts: dict[tuple[str, str], dict[str, int]] | None = None,
) -> pyoxigraph.Store:
    """Build the graph of several editions in a new in-memory Oxigraph store.

    One named graph per edition (``{base}graph/{rite}/{edition}``) and one for the ontology and
    vocabulary (``{base}graph/vocabulary``).

    Parameters
    ----------
    extractions : iterable of Extraction
    base : str, optional
        The base IRI (default :func:`~yili.ontology.namespaces.base_iri`).
    vocabulary_files : iterable of path, optional
        Extra vocabulary files (``--vocab``).
    commentary_counts : dict, optional
        If given, filled with (rite, edition) → the commentary's counts (statements by authority,
        glosses, readings, citations; :func:`yili.graph.commentary.add_commentary`).

    Returns
    -------
    pyoxigraph.Store
    """
    store = pyoxigraph.Store()
    for batch in quad_batches(extractions, base, vocabulary_files, commentary_counts):
        batch.load_into(store)
    return store


def build_quads(
    extractions: Iterable[Extraction],
    base: str | None = None,
    vocabulary_files: Iterable[str | Path] = (),
    commentary_counts: dict[tuple[str, str], dict[str, int]] | None = None,
) -> list[pyoxigraph.Quad]:
    """The quads of :func:`build_store`, not yet in a store: every batch of :func:`quad_batches` in order.

    ``commentary_counts``, if given, is filled as by :func:`build_store`.

    Returns
    -------
    list[pyoxigraph.Quad]
        The vocabulary graph's quads, then each edition's, then the commentary's, in the order written
        (a quad may repeat: a store keeps one).
    """
    return [q for batch in quad_batches(extractions, base, vocabulary_files, commentary_counts) for q in batch.as_quads()]


def quad_batches(
    extractions: Iterable[Extraction],
    base: str | None = None,
    vocabulary_files: Iterable[str | Path] = (),
    commentary_counts: dict[tuple[str, str], dict[str, int]] | None = None,
) -> Iterator[QuadBatch]:
    """The quads of :func:`build_store` in batches, each made when asked for: the vocabulary graph's, then
    one batch per edition (in the order of ``extractions``), then the commentary's (which reads every
    edition: a note may cite another rite).  ``yili-kg build`` loads each into its on-disk store while it
    makes the next (:class:`~yili.graph.loader.StoreLoader`).

    ``commentary_counts``, if given, is filled as by :func:`build_store` once the last batch is taken.

    Yields
    ------
    QuadBatch
        A batch (a quad may repeat, in a batch or across them: a store keeps one).
    """
    from yili.graph.commentary import add_commentary

    builder = GraphBuilder(base, vocabulary_files)
    extractions = list(extractions)

    yield builder.output.take()
    for e in extractions:
        builder.add(e)
        yield builder.output.take()
    counts = add_commentary(builder, extractions, builder.source)
    if commentary_counts is not None:
        commentary_counts.update(counts)
    yield builder.output.take()


def build_dataset(
    extractions: Iterable[Extraction], base: str | None = None, vocabulary_files: Iterable[str | Path] = ()
) -> Dataset:
    """The same graph as :func:`build_store`, as an rdflib :class:`~rdflib.Dataset` (prefixes bound).

    Returns
    -------
    rdflib.Dataset
    """
    store = build_store(extractions, base, vocabulary_files)
    dataset = Dataset()
    for prefix, ns in prefixes_for(base).items():
        dataset.bind(prefix, ns)
    dataset.parse(data=store.dump(format=pyoxigraph.RdfFormat.N_QUADS), format="nquads")
    return dataset


def union_graph(dataset: Dataset) -> Graph:
    """All triples of all named graphs in one rdflib :class:`~rdflib.Graph` (prefixes kept)."""
    g = Graph()
    for prefix, ns in dataset.namespaces():
        g.bind(prefix, ns)
    for s, p, o, _c in dataset.quads((None, None, None, None)):
        g.add((s, p, o))
    return g


def _phase_key(phase, steps, named: dict[str, int]) -> str:  # type: ignore[no-untyped-def]
    """The last segment of a phase's IRI, ``{block}-{ordinal}`` of the step that names it: its toast's
    step (a phase is built around its toast, :func:`~yili.ingest.toasts.phases_of`), or for the
    opening phase 始 its first step.  So a phase's IRI depends on that one step's block alone, and an
    edit elsewhere renames no phase (issue 28; numbering them through the edition renamed every later
    one).  A second phase named by the same step (two toasts read from one step) gets ``-2``, and
    so on; ``named`` counts the keys given so far in the edition.
    """
    step = phase.toast.step if phase.toast is not None else steps[phase.first - 1]
    block, ordinal = step.key.rsplit("/", 2)[-2:]
    key = f"{block}-{ordinal}"
    named[key] = named.get(key, 0) + 1
    return key if named[key] == 1 else f"{key}-{named[key]}"
