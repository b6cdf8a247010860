"""The built graph: stable IRIs, SHACL conformance, SKOS terms, other RDF tools, exports."""

from __future__ import annotations

import pyoxigraph
import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import to_isomorphic
from rdflib.namespace import RDF, SKOS, XSD
from yili.graph.build import build_dataset, union_graph
from yili.graph.validate import validate_graph
from yili.ontology.namespaces import SPDX, YK
from yili.ontology.version import software_version

STEP_24 = URIRef("https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1")


def test_first_toast_in_the_graph(union):
    assert (STEP_24, RDF.type, YK.Toast) in union
    assert union.value(STEP_24, YK.text) == Literal("主人筵前献賔")
    assert union.value(STEP_24, YK.giver) == URIRef("https://w3id.org/yili-kg/vocab/role-zhuren")
    assert union.value(STEP_24, YK.receiver) == URIRef("https://w3id.org/yili-kg/vocab/role-bin")
    assert union.value(STEP_24, YK.toastType) == URIRef("https://w3id.org/yili-kg/vocab/action-xian")
    assert union.value(STEP_24, YK.charStart).toPython() == 1057
    assert union.value(STEP_24, YK.charEnd).toPython() == 1063
    nxt = union.value(STEP_24, YK.next)
    assert union.value(nxt, YK.text) == Literal("賔西阶上拜") and union.value(nxt, YK.previous) == STEP_24


def test_rebuilding_gives_the_same_graph_and_iris(extractor, document, union):
    again = union_graph(build_dataset([extractor.extract(document)]))
    assert to_isomorphic(again) == to_isomorphic(union)
    assert set(again.subjects(RDF.type, YK.Step)) == set(union.subjects(RDF.type, YK.Step))


def test_base_iri_is_configurable(extraction):
    g = union_graph(build_dataset([extraction], base="https://example.org/kg/"))
    steps = set(g.subjects(RDF.type, URIRef("https://example.org/kg/ontology#Step")))
    assert URIRef("https://example.org/kg/step/yanli/shuzhu-excerpt/24/1") in steps
    assert not any(str(s).startswith("https://w3id.org/") for s in g.subjects())


def test_graph_conforms_to_the_shapes(union):
    result = validate_graph(union)
    assert result.conforms, result.format()


def test_a_broken_graph_is_reported_with_the_right_message(union):
    broken = Graph()
    for t in union:
        broken.add(t)
    broken.add((STEP_24, YK.sequence, Literal(999)))
    broken.remove((STEP_24, YK.giver, None))
    result = validate_graph(broken)
    assert not result.conforms
    paths = {(focus, path) for focus, path, _m in result.results}
    assert (str(STEP_24), str(YK.sequence)) in paths and (str(STEP_24), str(YK.giver)) in paths
    messages = " ".join(m for _f, _p, m in result.results)
    assert "sequence" in messages and "giver" in messages


def test_every_term_used_is_a_skos_concept_with_labels_and_a_definition(union):
    props = [
        YK.agent,
        YK.recipient,
        YK.action,
        YK.vessel,
        YK.wine,
        YK.location,
        YK.facing,
        YK.rankOrder,
        YK.giver,
        YK.receiver,
        YK.toastType,
        YK.performedBy,
        YK.object,
        YK.mode,
    ]
    used = {o for p in props for o in union.objects(None, p)}
    assert len(used) > 60
    for term in used:
        assert (term, RDF.type, SKOS.Concept) in union, term
        # language tags are case-insensitive (BCP 47); Oxigraph writes them in lower case
        langs = {(lit.language or "").lower() for lit in union.objects(term, SKOS.prefLabel)}
        assert {"zh-hant", "zh-hans"} <= langs, term
        assert any((d.language or "").lower() == "en" for d in union.objects(term, SKOS.definition)), term


def test_variants_and_broader_terms_in_the_vocabulary(union):
    bin_ = URIRef("https://w3id.org/yili-kg/vocab/role-bin")
    pref = {(str(lit), (lit.language or "").lower()) for lit in union.objects(bin_, SKOS.prefLabel)}
    assert {("賓", "zh-hant"), ("宾", "zh-hans")} <= pref
    assert ("賔", "zh-hant") in {(str(lit), (lit.language or "").lower()) for lit in union.objects(bin_, SKOS.altLabel)}
    v = "https://w3id.org/yili-kg/vocab/"
    assert (URIRef(v + "vessel-xianggu"), SKOS.broader, URIRef(v + "vessel-gu")) in union
    assert (URIRef(v + "vessel-gu"), SKOS.broader, URIRef(v + "vessel-jue")) in union
    assert (URIRef(v + "action-zaibaiqishou"), SKOS.broader, URIRef(v + "action-bai")) in union


def test_graph_file_loads_in_oxigraph(tmp_path, union, dataset):
    ttl = tmp_path / "graph.ttl"
    union.serialize(ttl, format="turtle", encoding="utf-8")
    store = pyoxigraph.Store()
    store.bulk_load(path=str(ttl), format=pyoxigraph.RdfFormat.TURTLE)
    assert len(store) == len(union)
    trig = tmp_path / "graph.trig"
    dataset.serialize(trig, format="trig", encoding="utf-8")
    store2 = pyoxigraph.Store()
    store2.bulk_load(path=str(trig), format=pyoxigraph.RdfFormat.TRIG)
    graphs = {g.value for g in store2.named_graphs()}
    assert graphs == {"https://w3id.org/yili-kg/graph/yanli/shuzhu-excerpt", "https://w3id.org/yili-kg/graph/vocabulary"}


def test_ontology_passes_an_owl_rl_closure(union):
    import owlrl
    from rdflib.namespace import OWL
    from yili.ontology.vocabulary import default_files, read_graph

    g = read_graph(default_files())
    for t in list(union)[:3000]:
        g.add(t)
    for t in union.triples((STEP_24, None, None)):
        g.add(t)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(g)
    assert not list(g.subjects(RDF.type, OWL.Nothing))
    assert (STEP_24, RDF.type, YK.Step) in g  # a Toast is a Step


def _sha256_of_graph(union, rite: str, edition: str) -> str:
    checksum = URIRef(f"https://w3id.org/yili-kg/file/{rite}/{edition}/sha256")
    return str(union.value(checksum, SPDX.checksumValue))


def test_provenance_names_the_software_and_the_file_with_its_sha256(union):
    """PROV-O: the edition's graph was generated by a build of this yili-kg version that used the
    packaged excerpt, whose SHA-256 is the one of the file's bytes; no clock time is recorded."""
    import hashlib
    from importlib import resources

    from rdflib.namespace import DCTERMS, PROV

    graph = URIRef("https://w3id.org/yili-kg/graph/yanli/shuzhu-excerpt")
    build = URIRef("https://w3id.org/yili-kg/build/yanli/shuzhu-excerpt")
    source = URIRef("https://w3id.org/yili-kg/file/yanli/shuzhu-excerpt")
    assert union.value(graph, PROV.wasGeneratedBy) == build
    assert union.value(build, PROV.used) == source
    software = union.value(build, PROV.wasAssociatedWith)
    assert (software, RDF.type, PROV.SoftwareAgent) in union
    assert str(union.value(software, DCTERMS.hasVersion)) == software_version() != ""
    assert str(union.value(source, DCTERMS.title)) == "yili_shuzhu_yanli_excerpt.txt"
    raw = (resources.files("yili.ingest") / "data" / "yili_shuzhu_yanli_excerpt.txt").read_bytes()
    assert _sha256_of_graph(union, "yanli", "shuzhu-excerpt") == hashlib.sha256(raw).hexdigest()
    assert union.value(build, PROV.endedAtTime) is None


def test_the_checksum_is_of_the_bytes_read_and_the_time_comes_from_source_date_epoch(tmp_path, monkeypatch, extractor):
    """A file with a byte-order mark: the text (and every offset) starts after it, the checksum is
    the file's; SOURCE_DATE_EPOCH gives the build time, and a bad value is refused by name.  The
    text is the embedded excerpt's, so it keeps the excerpt's IRIs whatever the file is called."""
    import hashlib

    from rdflib.namespace import PROV
    from yili.ingest.document import load_default, read_file
    from yili.ontology.errors import InputError

    raw = "\ufeff".encode() + load_default().text.encode()
    path = tmp_path / "yanli_bom.txt"
    path.write_bytes(raw)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    union = union_graph(build_dataset([extractor.extract(read_file(path, rite="yanli"))]))
    assert _sha256_of_graph(union, "yanli", "shuzhu-excerpt") == hashlib.sha256(raw).hexdigest()
    build = URIRef("https://w3id.org/yili-kg/build/yanli/shuzhu-excerpt")
    assert union.value(build, PROV.endedAtTime) == Literal("2023-11-14T22:13:20Z", datatype=XSD.dateTime)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(InputError, match=r"SOURCE_DATE_EPOCH='yesterday': not a whole number of seconds"):
        build_dataset([extractor.extract(read_file(path, rite="yanli"))])


def test_commentary_is_attributed_to_its_authors(union):
    """注 is 鄭玄's, 疏 賈公彥's, 杨氏曰 楊復's: the authority list of ontology/yili.ttl, not the
    layer names (the excerpt's block 2: 注曰命当由君出也○疏曰燕礼以因燕而射礼轻…)."""
    from rdflib.namespace import DCTERMS

    rows = union.query(
        """SELECT ?text ?who WHERE {
             ?c a yk:Commentary ; yk:text ?text ; dcterms:creator ?who .
             FILTER(STRSTARTS(?text, "注曰命当由君出也") || STRSTARTS(?text, "○疏曰燕礼以因燕而射礼轻")
                    || STRSTARTS(?text, "○杨氏曰")) } ORDER BY ?text""",
        initNs={"yk": YK, "dcterms": DCTERMS},
    )
    by_start = {str(text)[:3]: str(who).rsplit("/", 1)[1] for text, who in rows}
    assert by_start == {"注曰命": "person-zhengxuan", "○疏曰": "person-jiagongyan", "○杨氏": "person-yangfu"}
    zheng = URIRef("https://w3id.org/yili-kg/vocab/person-zhengxuan")
    assert union.value(zheng, SKOS.prefLabel, any=True) is not None
    assert Literal("鄭玄", lang="zh-Hant") in set(union.objects(zheng, SKOS.prefLabel))


def test_the_shuzhu_quotes_are_attributed_by_the_name_before_yue(extractor):
    """In the 述註 (KR1d0040) ○朱先生曰 is 朱熹 and ○䟽曰 (䟽 a variant of 疏) is the 疏 layer,
    賈公彥's."""
    from rdflib.namespace import DCTERMS
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    doc = read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_003.txt"))
    pieces = [p for block in doc.blocks for p in block.commentary]
    assert {p.layer for p in pieces if p.text.startswith("○䟽曰")} == {"shu"}
    union = union_graph(build_dataset([extractor.extract(doc)]))
    creators = {
        str(text).split("曰", 1)[0]: str(who).rsplit("/", 1)[1]
        for c in union.subjects(RDF.type, YK.Commentary)
        for text in union.objects(c, YK.text)
        for who in union.objects(c, DCTERMS.creator)
        if str(text).startswith(("○朱先生曰", "○䟽曰"))
    }
    assert creators == {"○朱先生": "person-zhuxi", "○䟽": "person-jiagongyan"}


@pytest.mark.parametrize(
    ("path", "work", "creators"),
    [
        (("kanripo", "KR1d0040", "KR1d0040_003.txt"), "work-shuzhu", ["person-liguangpo"]),
        (("kanripo", "KR1d0026", "KR1d0026_003.txt"), "work-zhengzhu", ["person-zhengxuan"]),
        (("kanripo", "KR1d0028", "KR1d0028_003.txt"), "work-zhushu", ["person-jiagongyan", "person-zhengxuan"]),
        (("yili_shuzhu_03_shixiangjianli.kanripoxml-tei-fragment.xml",), "work-shuzhu", ["person-liguangpo"]),
    ],
)
def test_an_edition_is_part_of_the_work_its_title_names(extractor, path, work, creators):
    """儀禮述註 (卷三 left out) is 李光坡's; 儀禮注疏 鄭玄's and 賈公彥's; 儀禮 (KR1d0026) 鄭玄's."""
    from rdflib.namespace import DCTERMS
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    union = union_graph(build_dataset([extractor.extract(read_file(shared_path("corpus", *path)))]))
    editions = list(union.subjects(RDF.type, YK.Edition))
    assert len(editions) == 1
    got = union.value(editions[0], DCTERMS.isPartOf)
    assert str(got).rsplit("/", 1)[1] == work
    assert sorted(str(p).rsplit("/", 1)[1] for p in union.objects(got, DCTERMS.creator)) == creators
