"""The commentary in the excerpt's graph (graph/commentary.py): the gloss 尔近也 as a Web Annotation on
尔 in block 1, the statements by authority, and the SHACL shapes that catch a broken gloss or citation."""

from __future__ import annotations

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF
from yili.graph.validate import validate_graph
from yili.ontology.namespaces import CITO, OA, YK, YKV

BASE = "https://w3id.org/yili-kg/"
GLOSS = URIRef(BASE + "gloss/yanli/shuzhu-excerpt/1/1")


def test_the_gloss_of_er_is_a_web_annotation_on_the_word(union, document):
    assert (GLOSS, RDF.type, YK.Gloss) in union and (GLOSS, RDF.type, OA.Annotation) in union
    assert union.value(GLOSS, OA.motivatedBy) == OA.describing
    assert union.value(GLOSS, DCTERMS.creator) == YKV["person-zhengxuan"]
    assert str(union.value(union.value(GLOSS, OA.hasBody), RDF.value)) == "近"
    assert str(union.value(GLOSS, YK.lemma)) == "尔" and union.value(GLOSS, YK.glossedConcept) == YKV["action-er"]
    target = union.value(GLOSS, OA.hasTarget)
    assert union.value(target, OA.hasSource) == URIRef(BASE + "block/yanli/shuzhu-excerpt/1")
    starts = [
        union.value(sel, OA.start) for sel in union.objects(target, OA.hasSelector) if union.value(sel, OA.start) is not None
    ]
    (start,) = [s.toPython() for s in starts]
    assert document.text[start : start + 1] == "尔"
    statement = union.value(GLOSS, YK.inStatement)
    assert (
        str(union.value(statement, YK.text)).startswith("注曰尔近也") and str(union.value(statement, YK.authorityLabel)) == "注"
    )


def test_the_yang_statements_are_yang_fus(union):
    yang = [s for s in union.subjects(YK.authorityLabel, Literal("杨氏"))]
    assert yang and all(union.value(s, DCTERMS.creator) == YKV["person-yangfu"] for s in yang)


def test_a_citation_cites_the_chapter_as_its_rite_profile(union):
    cites = {str(union.value(c, YK.citedAs)): union.value(c, CITO.cites) for c in union.subjects(RDF.type, YK.Citation)}
    assert cites["大射礼曰"] == YKV["rite-dasheyi"]


def test_the_shapes_catch_a_gloss_without_body_and_a_citation_citing_nothing(union):
    broken = Graph()
    for t in union:
        broken.add(t)
    broken.remove((GLOSS, OA.hasBody, None))
    citation = next(iter(union.subjects(RDF.type, YK.Citation)))
    broken.remove((citation, CITO.cites, None))
    result = validate_graph(broken)
    assert not result.conforms
    paths = {(focus, path) for focus, path, _m in result.results}
    assert (str(GLOSS), str(OA.hasBody)) in paths and (str(citation), str(CITO.cites)) in paths
