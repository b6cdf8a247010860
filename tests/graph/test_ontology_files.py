"""Tests of the ontology files in ``ontology/``: they parse, they agree with one another, the OWL is
consistent under OWL-RL, and the SHACL shapes accept a correct graph and catch a broken one with
messages a reader of the text understands.

The tiny graphs below define their own concepts (``ex:``), so these tests do not depend on the
lexicon in ``ontology/vocabulary.ttl``.  Validation is run the way the header of ``shapes.ttl`` says the
build must run it: the ontology merged into the data graph (with the concepts), no inference; the
result must not change with RDFS inference.
"""

from __future__ import annotations

import json
from pathlib import Path

import owlrl
import pyoxigraph
import pytest
import yili.ontology
from pyshacl import validate
from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import OWL, RDF, RDFS, SH, SKOS
from yili.ontology.namespaces import YK, YKV

ONTOLOGY_DIR = Path(yili.ontology.__file__).resolve().parent
TURTLE_FILES = ["yili.ttl", "alignments.ttl", "shapes.ttl"]
LANGUAGES = {"en", "zh-Hans", "zh-Hant"}
EX = Namespace("https://example.org/test/")
# (rdflib's XSD namespace object warns when pytest inspects module globals, so spell these out)
XSD_STRING = URIRef("http://www.w3.org/2001/XMLSchema#string")
XSD_INTEGER = URIRef("http://www.w3.org/2001/XMLSchema#integer")
XSD_BOOLEAN = URIRef("http://www.w3.org/2001/XMLSchema#boolean")
OWLRL_ERROR = URIRef("http://www.daml.org/2002/03/agents/agent-ont#ErrorMessage")

PROPERTY_TYPES = {OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty}

# The model as the brief for the build names it: every one of these must be declared in yili.ttl.
MODEL: dict[URIRef, list[str]] = {
    OWL.Class: [
        "Rite",
        "Edition",
        "Block",
        "Step",
        "Toast",
        "Phase",
        "Commentary",
        "Role",
        "Action",
        "Vessel",
        "Wine",
        "Place",
        "Facing",
        "Mode",
        "CommentaryLayer",
    ],
    OWL.ObjectProperty: [
        "agent",
        "recipient",
        "object",
        "vessel",
        "wine",
        "location",
        "facing",
        "rankOrder",
        "mode",
        "next",
        "previous",
        "partOfRite",
        "inEdition",
        "inBlock",
        "inPhase",
        "firstStep",
        "lastStep",
        "repeats",
        "giver",
        "receiver",
        "performedBy",
        "toastType",
        "toastTypeAlternative",
        "comments",
        "layer",
        "editionOf",
        "source",
        "action",
    ],
    OWL.DatatypeProperty: [
        "sequence",
        "blockNumber",
        "charStart",
        "charEnd",
        "text",
        "objectLabel",
        "locationLabel",
        "negated",
        "commentator",
        "note",
    ],
    OWL.AnnotationProperty: [
        "rank",
        "attendant",
        "cupAction",
        "posture",
        "responsive",
        "recipientRule",
        "doesNotPour",
        "personObject",
        "pivot",
        "defaultAgent",
    ],
}
SCHEMES = [
    "roles",
    "actions",
    "toast-types",
    "vessels",
    "wines",
    "places",
    "facings",
    "objects",
    "modes",
    "commentary-layers",
]
MODEL_CONCEPTS = {
    "modes": ["mode-actual", "mode-conditional", "mode-negated"],
    "commentary-layers": ["layer-jing", "layer-zhu", "layer-shu", "layer-other"],
}

PREAMBLE = """\
@prefix yk:   <https://w3id.org/yili-kg/ontology#> .
@prefix ykv:  <https://w3id.org/yili-kg/vocab/> .
@prefix ex:   <https://example.org/test/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix oa:   <http://www.w3.org/ns/oa#> .
@prefix xsd:  <http://www.w3.org/2001/XMLSchema#> .
"""

# A few concepts of our own, standing in for the lexicon.
CONCEPTS = """\
ex:gong    a skos:Concept , yk:Role ; skos:inScheme ykv:roles ; skos:prefLabel "公"@zh-Hans .
ex:bin     a skos:Concept , yk:Role ; skos:inScheme ykv:roles ; skos:prefLabel "賔"@zh-Hans .
ex:zhuren  a skos:Concept , yk:Role ; skos:inScheme ykv:roles ; skos:prefLabel "主人"@zh-Hans .
ex:qing    a skos:Concept , yk:Role ; skos:inScheme ykv:roles ; skos:prefLabel "卿"@zh-Hans .
ex:dafu    a skos:Concept , yk:Role ; skos:inScheme ykv:roles ; skos:prefLabel "大夫"@zh-Hans .
ex:jiang   a skos:Concept , yk:Action ; skos:inScheme ykv:actions ; skos:prefLabel "降"@zh-Hans .
ex:bai     a skos:Concept , yk:Action ; skos:inScheme ykv:actions ; skos:prefLabel "拜"@zh-Hans .
ex:xian    a skos:Concept , yk:Action ; skos:inScheme ykv:actions , ykv:toast-types ;
           skos:prefLabel "献"@zh-Hans .
ex:zuo     a skos:Concept , yk:Action ; skos:inScheme ykv:actions , ykv:toast-types ;
           skos:prefLabel "酢"@zh-Hans .
ex:gu      a skos:Concept , yk:Vessel ; skos:inScheme ykv:vessels ; skos:prefLabel "觚"@zh-Hans .
ex:shan    a skos:Concept , yk:Wine ; skos:inScheme ykv:wines ; skos:prefLabel "膳"@zh-Hans .
ex:xijie   a skos:Concept , yk:Place ; skos:inScheme ykv:places ; skos:prefLabel "西阶"@zh-Hans .
ex:yan     a skos:Concept , yk:Place ; skos:inScheme ykv:places ; skos:prefLabel "筵"@zh-Hans .
ex:beimian a skos:Concept , yk:Facing ; skos:inScheme ykv:facings ; skos:prefLabel "北面"@zh-Hans .
ex:dongshang a skos:Concept , yk:Facing ; skos:inScheme ykv:facings ; skos:prefLabel "东上"@zh-Hans .
"""

VALID_GRAPH = (
    PREAMBLE
    + CONCEPTS
    + """\
ex:rite a yk:Rite .
ex:edition a yk:Edition ; yk:editionOf ex:rite .
ex:block1 a yk:Block ; yk:blockNumber 1 ; yk:inEdition ex:edition .
ex:note1 a yk:Commentary ; yk:layer ykv:layer-zhu ; yk:commentator "郑玄" ; yk:comments ex:block1 ;
    yk:inEdition ex:edition .
ex:phase1 a yk:Phase ; yk:firstStep ex:s1 ; yk:lastStep ex:s3 .

# A joint act: 卿 and 大夫 go down together.
ex:s1 a yk:Step ;
    yk:sequence 1 ;
    yk:agent ex:qing , ex:dafu ;
    yk:action ex:jiang ;
    yk:mode ykv:mode-actual ;
    yk:location ex:xijie ; yk:locationLabel "西阶" ;
    yk:facing ex:beimian ; yk:rankOrder ex:dongshang ;
    yk:charStart 10 ; yk:charEnd 14 ;
    yk:text "卿大夫降" ;
    yk:next ex:s2 ;
    yk:partOfRite ex:rite ; yk:inEdition ex:edition ; yk:inBlock ex:block1 ; yk:inPhase ex:phase1 ;
    yk:source [ a oa:SpecificResource ;
        oa:hasSource ex:edition ;
        oa:hasSelector [ a oa:TextPositionSelector ; oa:start 10 ; oa:end 14 ] ,
                       [ a oa:TextQuoteSelector ; oa:exact "卿大夫降" ] ] .

# A toast typed only as yk:Toast: the step shape must reach it through rdfs:subClassOf.
ex:s2 a yk:Toast ;
    yk:sequence 2 ;
    yk:agent ex:zhuren ; yk:recipient ex:bin ;
    yk:action ex:xian ; yk:toastType ex:xian ; yk:toastTypeAlternative ex:zuo ;
    yk:giver ex:zhuren ; yk:receiver ex:bin ; yk:performedBy ex:zhuren ;
    yk:vessel ex:gu ; yk:wine ex:shan ;
    yk:location ex:yan ; yk:locationLabel "筵前" ;
    yk:mode ykv:mode-conditional ; yk:negated false ;
    yk:charStart 14 ; yk:charEnd 20 ;
    yk:text "主人筵前献賔" ;
    yk:previous ex:s1 ; yk:next ex:s3 ;
    yk:partOfRite ex:rite ; yk:inEdition ex:edition ; yk:inBlock ex:block1 ; yk:inPhase ex:phase1 .

ex:s3 a yk:Step ;
    yk:sequence 3 ;
    yk:agent ex:bin ; yk:recipient ex:zhuren ;
    yk:action ex:bai ;
    yk:mode ykv:mode-negated ; yk:negated true ;
    yk:charStart 20 ; yk:charEnd 22 ;
    yk:text "不拜" ;
    yk:previous ex:s2 ;
    yk:repeats ex:s1 ;
    yk:note "a test step" .
"""
)

# Four faults, one per step; everything else about these steps is right.
BROKEN_GRAPH = (
    PREAMBLE
    + CONCEPTS
    + """\
# Two sequence numbers.
ex:b1 a yk:Step ;
    yk:sequence 1 , 2 ;
    yk:agent ex:zhuren ; yk:action ex:jiang ; yk:mode ykv:mode-actual ;
    yk:charStart 0 ; yk:charEnd 2 ; yk:text "主人" .

# A toast with no giver.
ex:b2 a yk:Toast ;
    yk:sequence 3 ;
    yk:agent ex:zhuren ; yk:recipient ex:bin ; yk:action ex:xian ; yk:mode ykv:mode-actual ;
    yk:toastType ex:xian ; yk:receiver ex:bin ;
    yk:charStart 2 ; yk:charEnd 8 ; yk:text "主人筵前献賔" .

# A span that ends where it starts.
ex:b3 a yk:Step ;
    yk:sequence 4 ;
    yk:agent ex:bin ; yk:action ex:bai ; yk:mode ykv:mode-actual ;
    yk:charStart 8 ; yk:charEnd 8 ; yk:text "拜" .

# An agent that is a place, not a role.
ex:b4 a yk:Step ;
    yk:sequence 5 ;
    yk:agent ex:xijie ; yk:action ex:jiang ; yk:mode ykv:mode-actual ;
    yk:charStart 9 ; yk:charEnd 12 ; yk:text "西阶降" .
"""
)

# (focus node, path, constraint component, words the English message must contain)
EXPECTED_FAULTS = {
    (EX.b1, YK.sequence, SH.MaxCountConstraintComponent): "exactly one sequence number",
    (EX.b2, YK.giver, SH.SPARQLConstraintComponent): "names its giver",
    (EX.b3, YK.charStart, SH.LessThanConstraintComponent): "must start before it ends",
    (EX.b4, YK.agent, SH.NodeConstraintComponent): "must be a role of the vocabulary",
}


# ---------------------------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------------------------


def _parse(name: str) -> Graph:
    return Graph().parse(ONTOLOGY_DIR / name, format="turtle")


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return _parse("yili.ttl")


@pytest.fixture(scope="module")
def alignments() -> Graph:
    return _parse("alignments.ttl")


@pytest.fixture(scope="module")
def shapes() -> Graph:
    return _parse("shapes.ttl")


@pytest.fixture(scope="module")
def context() -> dict:
    with open(ONTOLOGY_DIR / "context.jsonld", encoding="utf-8") as f:
        return json.load(f)


def _yk_terms(graph: Graph) -> set[URIRef]:
    """Every yk: IRI that occurs anywhere in ``graph``."""
    return {term for triple in graph for term in triple if isinstance(term, URIRef) and str(term).startswith(str(YK))}


def _validate(data_turtle: str, ontology: Graph, shapes: Graph, inference: str) -> tuple[bool, Graph]:
    data = Graph().parse(data=data_turtle, format="turtle")
    data += ontology
    conforms, report, _ = validate(data, shacl_graph=shapes, inference=inference, allow_warnings=False, advanced=True)
    return conforms, report


def _results(report: Graph) -> dict[tuple, list[Literal]]:
    """Map (focus, path, component) of each top-level validation result to its messages."""
    found: dict[tuple, list[Literal]] = {}
    for result in report.objects(None, SH.result):
        key = (
            report.value(result, SH.focusNode),
            report.value(result, SH.resultPath),
            report.value(result, SH.sourceConstraintComponent),
        )
        found.setdefault(key, []).extend(report.objects(result, SH.resultMessage))
    return found


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", TURTLE_FILES)
def test_turtle_file_parses_with_rdflib(name: str) -> None:
    assert len(_parse(name)) > 0


@pytest.mark.parametrize("name", TURTLE_FILES)
def test_turtle_file_loads_in_oxigraph(name: str) -> None:
    store = pyoxigraph.Store()
    store.load(path=str(ONTOLOGY_DIR / name), format=pyoxigraph.RdfFormat.TURTLE)
    assert len(store) == len(_parse(name))


def test_context_loads_in_rdflib_and_oxigraph(context: dict) -> None:
    """A step written with the context gives the same triples in rdflib and Oxigraph."""
    with open(ONTOLOGY_DIR / "context.jsonld", "rb") as f:
        assert list(pyoxigraph.parse(f.read(), format=pyoxigraph.RdfFormat.JSON_LD)) == []
    doc = {
        **context,
        "id": "https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1",
        "type": ["Step", "Toast"],
        "sequence": 42,
        "agent": ["ykv:role-zhuren"],
        "recipient": ["ykv:role-bin"],
        "action": "ykv:action-xian",
        "toastType": "ykv:action-xian",
        "mode": "ykv:mode-actual",
        "negated": False,
        "charStart": 1057,
        "charEnd": 1063,
        "text": "主人筵前献賔",
        "next": "https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/2",
        "source": {
            "type": "SpecificResource",
            "hasSource": "https://w3id.org/yili-kg/text/yanli/shuzhu-excerpt",
            "hasSelector": [
                {"type": "TextPositionSelector", "start": 1057, "end": 1063},
                {"type": "TextQuoteSelector", "exact": "主人筵前献賔"},
            ],
        },
    }
    text = json.dumps(doc, ensure_ascii=False)
    from_rdflib = Graph().parse(data=text, format="json-ld")
    from_oxigraph = Graph()
    blanks: dict[str, BNode] = {}

    def convert(term: object) -> object:
        if isinstance(term, pyoxigraph.NamedNode):
            return URIRef(term.value)
        if isinstance(term, pyoxigraph.BlankNode):
            return blanks.setdefault(term.value, BNode())
        assert isinstance(term, pyoxigraph.Literal)
        if term.language:
            return Literal(term.value, lang=term.language)
        if term.datatype.value == str(XSD_STRING):
            return Literal(term.value)
        return Literal(term.value, datatype=URIRef(term.datatype.value))

    for t in pyoxigraph.parse(text.encode("utf-8"), format=pyoxigraph.RdfFormat.JSON_LD):
        from_oxigraph.add((convert(t.subject), convert(t.predicate), convert(t.object)))
    assert isomorphic(from_rdflib, from_oxigraph)

    step = URIRef(doc["id"])
    assert (step, YK.agent, YKV["role-zhuren"]) in from_rdflib
    assert (step, YK.mode, YKV["mode-actual"]) in from_rdflib
    assert (step, RDF.type, YK.Toast) in from_rdflib
    assert (step, YK.sequence, Literal(42)) in from_rdflib
    assert (step, YK.negated, Literal(False)) in from_rdflib
    assert (step, YK.text, Literal("主人筵前献賔")) in from_rdflib


# ---------------------------------------------------------------------------------------------
# The ontology declares the model, with labels
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(MODEL))
def test_model_terms_are_declared(ontology: Graph, kind: URIRef) -> None:
    missing = [name for name in MODEL[kind] if (YK[name], RDF.type, kind) not in ontology]
    assert not missing, f"not declared as {kind}: {missing}"


def test_every_declared_term_has_labels_and_comment(ontology: Graph) -> None:
    terms = {
        s
        for kind in (OWL.Class, *PROPERTY_TYPES)
        for s in ontology.subjects(RDF.type, kind)
        if isinstance(s, URIRef) and str(s).startswith(str(YK))
    }
    assert len(terms) >= sum(len(v) for v in MODEL.values())
    for term in terms:
        langs = {label.language for label in ontology.objects(term, RDFS.label)}
        assert langs >= LANGUAGES, f"{term} has labels only in {langs}"
        comments = [c for c in ontology.objects(term, RDFS.comment) if c.language == "en"]
        assert comments, f"{term} has no English rdfs:comment"


def test_schemes_and_model_concepts_are_declared(ontology: Graph) -> None:
    for name in SCHEMES:
        scheme = YKV[name]
        assert (scheme, RDF.type, SKOS.ConceptScheme) in ontology, name
        langs = {label.language for label in ontology.objects(scheme, SKOS.prefLabel)}
        assert langs >= LANGUAGES, f"{name} has labels only in {langs}"
    for scheme_name, concepts in MODEL_CONCEPTS.items():
        for name in concepts:
            concept = YKV[name]
            assert (concept, RDF.type, SKOS.Concept) in ontology, name
            assert (concept, SKOS.inScheme, YKV[scheme_name]) in ontology, name
            langs = {label.language for label in ontology.objects(concept, SKOS.prefLabel)}
            assert langs >= LANGUAGES, f"{name} has labels only in {langs}"
            assert ontology.value(concept, SKOS.definition) is not None, name


@pytest.mark.parametrize("name", ["shapes.ttl", "alignments.ttl"])
def test_yk_terms_used_elsewhere_are_declared_with_labels(ontology: Graph, name: str) -> None:
    """Every yk: term the shapes (or alignments) use is declared in yili.ttl, labelled in 3 languages."""
    used = _yk_terms(_parse(name))
    assert used
    for term in used:
        types = set(ontology.objects(term, RDF.type))
        assert types & ({OWL.Class} | PROPERTY_TYPES), f"{term} ({name}) is not declared in yili.ttl"
        langs = {label.language for label in ontology.objects(term, RDFS.label)}
        assert langs >= LANGUAGES, f"{term} has labels only in {langs}"


def test_schemes_used_in_shapes_are_declared(ontology: Graph, shapes: Graph) -> None:
    for scheme in shapes.objects(None, SH.hasValue):
        assert (scheme, RDF.type, SKOS.ConceptScheme) in ontology, scheme


def test_context_terms_match_the_ontology(ontology: Graph, context: dict) -> None:
    """IRI-valued keys are @id-typed, integers and booleans are typed, every yk: IRI is declared."""
    ctx = context["@context"]
    assert ctx["@version"] == 1.1
    prefixes = {k: v for k, v in ctx.items() if isinstance(v, str) and v.endswith(("#", "/"))}

    def expand(curie: str) -> URIRef:
        prefix, _, local = curie.partition(":")
        return URIRef(prefixes[prefix] + local)

    for key in ("agent", "action", "recipient", "vessel", "wine", "location", "facing", "mode"):
        assert ctx[key]["@type"] == "@id", key
    for key, value in ctx.items():
        if key.startswith("@") or key in prefixes or value in ("@id", "@type"):
            continue
        iri = expand(value if isinstance(value, str) else value["@id"])
        if not str(iri).startswith(str(YK)):
            continue
        types = set(ontology.objects(iri, RDF.type))
        assert types & ({OWL.Class} | PROPERTY_TYPES), f"{key} -> {iri} is not declared"
        if OWL.ObjectProperty in types:
            assert value.get("@type") == "@id", f"{key} is IRI-valued"
        range_ = ontology.value(iri, RDFS.range)
        if range_ in (XSD_INTEGER, XSD_BOOLEAN):
            assert expand(value.get("@type", "")) == range_, f"{key} must be typed {range_}"


# ---------------------------------------------------------------------------------------------
# OWL-RL consistency
# ---------------------------------------------------------------------------------------------


def _owlrl_problems(graph: Graph) -> list[str]:
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
    problems = [str(s) for s in graph.subjects(RDF.type, OWL.Nothing)]
    problems += [str(o) for s in graph.subjects(RDF.type, OWLRL_ERROR) for o in graph.objects(s, None)]
    return problems


def test_ontology_and_alignments_are_owl_rl_consistent(ontology: Graph, alignments: Graph) -> None:
    graph = Graph()
    graph += ontology
    graph += alignments
    assert _owlrl_problems(graph) == []


def test_valid_tiny_graph_is_owl_rl_consistent_with_the_ontology(ontology: Graph, alignments: Graph) -> None:
    graph = Graph().parse(data=VALID_GRAPH, format="turtle")
    graph += ontology
    graph += alignments
    assert _owlrl_problems(graph) == []
    # and the alignments do their work: a step is a p-plan step, a rite a prov:Plan via p-plan:Plan
    assert (EX.s2, RDF.type, URIRef("http://purl.org/net/p-plan#Step")) in graph
    assert (EX.s1, URIRef("http://purl.org/net/p-plan#isStepOfPlan"), EX.rite) in graph


def test_owl_rl_catches_a_step_used_as_a_role(ontology: Graph) -> None:
    """The disjointness axioms have teeth: a step cannot be a concept (here, another step's agent)."""
    graph = Graph().parse(data=PREAMBLE + "ex:s1 a yk:Step . ex:s2 a yk:Step ; yk:agent ex:s1 .", format="turtle")
    graph += ontology
    assert _owlrl_problems(graph)


# ---------------------------------------------------------------------------------------------
# SHACL
# ---------------------------------------------------------------------------------------------


def test_shapes_are_well_formed_shacl(ontology: Graph, shapes: Graph) -> None:
    """pyshacl checks the shapes against SHACL's own shapes (shacl-shacl) first: the correct graph
    conforms only if the shapes graph is itself well formed."""
    data = Graph().parse(data=VALID_GRAPH, format="turtle")
    data += ontology
    conforms, _, text = validate(data, shacl_graph=shapes, meta_shacl=True)
    assert conforms, text


@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_shapes_accept_a_correct_graph(ontology: Graph, shapes: Graph, inference: str) -> None:
    conforms, report = _validate(VALID_GRAPH, ontology, shapes, inference)
    assert conforms, _results(report)


@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_shapes_catch_each_fault_with_a_readable_message(ontology: Graph, shapes: Graph, inference: str) -> None:
    conforms, report = _validate(BROKEN_GRAPH, ontology, shapes, inference)
    assert not conforms
    found = _results(report)
    assert set(found) == set(EXPECTED_FAULTS), found
    for key, words in EXPECTED_FAULTS.items():
        # pyshacl drops the language tag of a SPARQL constraint's messages in the report graph:
        # an untagged message is told apart by its script
        english = [str(m) for m in found[key] if m.language == "en" or (m.language is None and str(m).isascii())]
        chinese = [str(m) for m in found[key] if m.language == "zh-Hans" or (m.language is None and not str(m).isascii())]
        assert any(words in m for m in english), (key, english)
        assert chinese, key


def test_agent_without_a_scheme_and_a_bad_mode_are_caught(ontology: Graph, shapes: Graph) -> None:
    """A value that is no concept at all, or a concept of another scheme, is reported on its path."""
    data = (
        PREAMBLE
        + CONCEPTS
        + """\
ex:x a yk:Step ; yk:sequence 1 ; yk:agent ex:nobody ; yk:action ex:bai ; yk:mode ex:gu ;
    yk:vessel ex:shan ; yk:charStart 0 ; yk:charEnd 1 ; yk:text "拜" .
"""
    )
    conforms, report = _validate(data, ontology, shapes, "none")
    assert not conforms
    paths = {path for (_, path, _) in _results(report)}
    assert paths == {YK.agent, YK.mode, YK.vessel}


def test_every_concept_has_one_preferred_label_per_language():
    """SKOS integrity (S14: at most one skos:prefLabel per language tag): two concepts written with one
    IRI in ``vocabulary.ttl`` would merge silently in the graph (負 and 復 once did, as ykv:action-fu-back)."""
    g = Graph()
    for name in ("vocabulary.ttl", "rites.ttl", "yili.ttl"):
        g.parse(ONTOLOGY_DIR / name, format="turtle")
    doubled = sorted(
        f"{c} {lang}"
        for c in set(g.subjects(RDF.type, SKOS.Concept))
        for lang in LANGUAGES
        if sum(1 for lit in g.objects(c, SKOS.prefLabel) if (lit.language or "") == lang) > 1
    )
    assert doubled == []


def test_no_label_is_shared_by_two_concepts_of_one_scheme():
    """A written form (or English label) names one concept of its scheme: two places or two persons given
    one label are merged for every reader of the graph (the east and west pillars, 東楹 and 西楹, were once
    one concept; 西方 an altLabel of "east side").  Across schemes a form may name a role and an act (媵, 祝):
    the step's own concept says which, and the viewer glosses by it."""
    g = Graph()
    for name in ("vocabulary.ttl", "rites.ttl", "yili.ttl"):
        g.parse(ONTOLOGY_DIR / name, format="turtle")
    named: dict[tuple[str, str, str], set[str]] = {}
    for c in set(g.subjects(RDF.type, SKOS.Concept)):
        for prop in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel):
            for label in g.objects(c, prop):
                for scheme in g.objects(c, SKOS.inScheme):
                    named.setdefault((str(scheme), str(label), label.language or ""), set()).add(str(c))
    shared = sorted(f"{label}@{lang} in {scheme}: {sorted(cs)}" for (scheme, label, lang), cs in named.items() if len(cs) > 1)
    assert shared == []


@pytest.mark.parametrize(
    ("west", "east", "west_en", "east_en"),
    [
        ("西楹", "東楹", "west pillar", "east pillar"),
        ("西塾", "東塾", "west gate chamber", "east gate chamber"),
        ("西方", "東方", "west side", "east side"),
    ],
)
def test_east_and_west_places_are_two_concepts(vocabulary, west, east, west_en, east_en):
    w, e = vocabulary.lookup(west, "place"), vocabulary.lookup(east, "place")
    assert w.iri != e.iri
    assert (w.hant, e.hant) == (west, east) and west not in e.labels and east not in w.labels
    g = Graph().parse(ONTOLOGY_DIR / "vocabulary.ttl", format="turtle")
    english = {c.iri: {str(x) for x in g.objects(URIRef(c.iri), SKOS.prefLabel) if x.language == "en"} for c in (w, e)}
    assert (english[w.iri], english[e.iri]) == ({west_en}, {east_en})
