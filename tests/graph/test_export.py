"""Exports: each file is read back by two independent readers, with the counts of the graph.

The toast network of the excerpt has exactly the toasts ``/toasts`` lists; the step chain has exactly
its steps.  GEXF is validated against the GEXF 1.3 schema (``../shared/conformance/gexf/``); DOT is
rendered by Graphviz's ``dot``.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess

import networkx as nx
import pytest
from yili.graph.export import FORMATS, export, step_chain, toast_network
from yili.ontology.errors import InputError, NotFoundError, UnknownTermError

from tests.conftest import shared_path, system_tool

STEP_70 = "https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/1"  # 主人筵前献賔
ZHUREN = "https://w3id.org/yili-kg/vocab/role-zhuren"
BIN = "https://w3id.org/yili-kg/vocab/role-bin"


@pytest.fixture(scope="module")
def toasts_listed(client):
    return client.get("/toasts", params={"limit": 1000}).json()["items"]


@pytest.fixture(scope="module")
def network(service):
    return toast_network(service.queries)


@pytest.fixture(scope="module")
def chain(service):
    return step_chain(service.queries)


def _bytes(service, fmt: str, view: str = "toasts", **kw) -> bytes:
    return export(service.queries, service.store, fmt, view, **kw).data


def test_the_toast_network_has_exactly_the_toasts_the_api_lists(network, toasts_listed):
    assert len(toasts_listed) == 26
    assert network.number_of_edges() == 26
    assert sorted(d["step"] for _, _, d in network.edges(data=True)) == sorted(t["step"] for t in toasts_listed)
    written = sorted((t["step"], t["giver"], t["receiver"]) for t in toasts_listed)
    assert sorted((d["step"], d["giver"], d["receiver"]) for *_, d in network.edges(data=True)) == written
    # one node per role concept: 下大夫二人 and 媵爵者 are one role, written two ways
    assert sorted(d["label"] for _, d in network.nodes(data=True)) == [
        "主人", "公", "卿", "士", "大夫", "媵爵者", "工", "旅食", "笙", "诸公", "賔"
    ]  # fmt: skip
    assert network.nodes["https://w3id.org/yili-kg/vocab/role-yingjuezhe"]["label_en"] == "cup presenters"


def test_a_toast_edge_carries_its_type_order_cup_wine_step_and_text(network):
    (edge,) = [d for u, v, d in network.edges(data=True) if d["step"] == STEP_70]
    assert edge == {
        "kind": "toast",
        "toast_type": "献",
        "label": "献",
        "label_en": "to present a cup",
        "order": 1,
        "giver": "主人",
        "receiver": "賔",
        "sequence": 70,
        "block": 24,
        "step": STEP_70,
        "text": "主人筵前献賔",
        "char_start": 1057,
        "char_end": 1063,
        "edition": "https://w3id.org/yili-kg/text/yanli/shuzhu-excerpt",
        "rite": "https://w3id.org/yili-kg/rite/yanli",
        "cup": "觚",
        "cup_en": "gu cup",
        "wine": "膳",
        "wine_en": "ruler's wine",
        "phase": "主人献賔",
    }
    assert network.has_edge(ZHUREN, BIN, key=STEP_70)
    assert network.nodes[ZHUREN] == {"kind": "role", "label": "主人", "label_en": "host", "iri": ZHUREN}
    assert network.nodes[BIN]["label"] == "賔"  # as the excerpt writes the guest, not 賓


def test_every_node_and_edge_has_an_english_gloss(network, chain):
    for g in (network, chain):
        for _, d in g.nodes(data=True):
            assert d["label_en"] and "no English gloss" not in d["label_en"], d
        for *_, d in g.edges(data=True):
            assert d["label_en"] and "no English gloss" not in d["label_en"], d


def test_the_step_chain_is_the_steps_in_order_with_no_role_hubs(chain, client):
    assert chain.number_of_nodes() == client.get("/steps").json()["total"] == 612
    assert chain.number_of_edges() == 611
    assert {d["kind"] for _, d in chain.nodes(data=True)} == {"step"}
    assert nx.is_directed_acyclic_graph(chain)
    path = nx.dag_longest_path(chain)
    assert [chain.nodes[n]["sequence"] for n in path] == list(range(1, 613))
    d = chain.nodes[STEP_70]
    assert (d["agent"], d["action"], d["recipient"], d["cup"], d["place"], d["phase"]) == (
        "主人",
        "献",
        "賔",
        "觚",
        "筵前",
        "主人献賔",
    )
    assert d["label_en"] == "host — to present a cup — guest"
    assert d["agent_en"] == "host" and d["cup_en"] == "gu cup"
    assert "facing" not in d  # the text does not say: absent, not an empty string


def test_graphml_is_read_by_networkx_and_igraph(service, network, chain, tmp_path):
    import igraph

    for view, g in (("toasts", network), ("steps", chain)):
        path = tmp_path / f"{view}.graphml"
        path.write_bytes(_bytes(service, "graphml", view))
        back = nx.read_graphml(path)
        assert (back.number_of_nodes(), back.number_of_edges()) == (g.number_of_nodes(), g.number_of_edges())
        ig = igraph.Graph.Read_GraphML(str(path))
        assert (ig.vcount(), ig.ecount()) == (g.number_of_nodes(), g.number_of_edges())
    ig = igraph.Graph.Read_GraphML(str(tmp_path / "toasts.graphml"))
    zhuren = ig.vs.find(label="主人").index
    bin_ = ig.vs.find(label="賔").index
    xian = [e for e in ig.es if e.source == zhuren and e.target == bin_ and e["text"] == "主人筵前献賔"]
    assert [(e["toast_type"], e["sequence"]) for e in xian] == [("献", 70)]


def test_gexf_is_valid_gexf_1_3_and_read_by_networkx(service, network, chain, tmp_path):
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(shared_path("conformance", "gexf", "1.3", "gexf.xsd"))))
    for view, g in (("toasts", network), ("steps", chain)):
        data = _bytes(service, "gexf", view)
        doc = etree.fromstring(data)
        assert schema.validate(doc), schema.error_log
        assert doc.get("version") == "1.3"
        ns = {"g": "http://gexf.net/1.3"}
        # the edge type is what GEXF reserves it for; the toast type is an attribute
        assert {e.get("type", "directed") for e in doc.iterfind(".//g:edge", ns)} == {"directed"}
        path = tmp_path / f"{view}.gexf"
        path.write_bytes(data)
        back = nx.read_gexf(path)
        assert (back.number_of_nodes(), back.number_of_edges()) == (g.number_of_nodes(), g.number_of_edges())
    back = nx.read_gexf(tmp_path / "toasts.gexf")
    assert back.nodes[ZHUREN]["label"] == "主人"
    assert [d["toast_type"] for u, v, d in back.edges(data=True) if d.get("text") == "主人筵前献賔"] == ["献"]


def test_cytoscape_json_names_nodes_by_their_label(service, network):
    data = json.loads(_bytes(service, "cytoscape"))
    names = {n["data"]["id"]: n["data"]["name"] for n in data["elements"]["nodes"]}
    assert names[ZHUREN] == "主人" and names[BIN] == "賔"
    back = nx.cytoscape_graph(data)
    assert (back.number_of_nodes(), back.number_of_edges()) == (network.number_of_nodes(), network.number_of_edges())
    assert len(data["elements"]["edges"]) == 26


def test_d3_node_link_json_is_read_back(service, chain):
    data = json.loads(_bytes(service, "d3", "steps"))
    assert len(data["nodes"]) == 612 and len(data["links"]) == 611
    back = nx.node_link_graph(data, edges="links")
    assert back.nodes[STEP_70]["text"] == "主人筵前献賔"
    assert back.has_edge(STEP_70, "https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/24/2")


def test_csv_has_a_bom_and_one_row_per_toast_or_step(service):
    toasts = _bytes(service, "csv", "toasts")
    assert toasts.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(toasts.decode("utf-8-sig"))))
    assert len(rows) == 26
    row = next(r for r in rows if r["step"] == STEP_70)
    assert (row["giver"], row["receiver"], row["toast_type"], row["cup"], row["order"]) == ("主人", "賔", "献", "觚", "1")
    assert (row["giver_en"], row["receiver_en"]) == ("host", "guest")
    steps = list(csv.DictReader(io.StringIO(_bytes(service, "csv", "steps").decode("utf-8-sig"))))
    assert len(steps) == 612
    assert [r["text"] for r in steps[:3]] == ["尔大夫", "大夫皆少进", "射人请賔"]
    assert next(r for r in steps if r["iri"] == STEP_70)["facing"] == ""


def test_mermaid_is_a_sequence_diagram_of_the_acts_between_two_parties(service, chain):
    text = _bytes(service, "mermaid").decode("utf-8")
    lines = text.splitlines()
    assert lines[0] == "sequenceDiagram"
    assert "    主人->>賔: 献 (觚)" in lines
    assert "    participant 主人" in lines and "    participant 公" in lines
    # one message per step with a written or carried agent and recipient, in order
    two_party = [
        d for _, d in sorted(chain.nodes(data=True), key=lambda nd: nd[1]["sequence"]) if d.get("agent") and d.get("recipient")
    ]
    messages = [line for line in lines if "->>" in line]
    assert len(messages) >= len(two_party)
    first = two_party[0]
    assert messages[0] == f"    {first['agent']}->>{first['recipient']}: {first['action']}"
    assert lines.index("    Note over 主人,賔: 主人献賔") < lines.index("    主人->>賔: 献 (觚)")


def test_rdf_exports_are_read_by_oxigraph_and_pyld(service):
    import pyoxigraph
    from pyld import jsonld

    turtle = _bytes(service, "turtle")
    triples = list(pyoxigraph.parse(turtle, format=pyoxigraph.RdfFormat.TURTLE))
    nt = _bytes(service, "ntriples")
    assert len(list(pyoxigraph.parse(nt, format=pyoxigraph.RdfFormat.N_TRIPLES))) == len(triples)
    # the excerpt's edition graph and the vocabulary graph, merged (the PROV graph terms included)
    assert len(triples) == len({(q.subject, q.predicate, q.object) for q in service.store})
    doc = json.loads(_bytes(service, "jsonld"))
    dataset = jsonld.to_rdf(doc, {"format": "application/n-quads"})
    assert len([line for line in dataset.splitlines() if line.strip()]) == len(triples)
    assert f'<{STEP_70}> <https://w3id.org/yili-kg/ontology#text> "主人筵前献賔" .' in dataset


def test_dot_of_the_excerpt_renders_in_graphviz_with_a_cjk_font(service, network, chain):
    dot = system_tool("dot")
    for view, g in (("toasts", network), ("steps", chain)):
        source = _bytes(service, "dot", view)
        assert b'fontname="Noto Sans CJK SC"' in source
        svg = subprocess.run([dot, "-Tsvg"], input=source, capture_output=True, timeout=30, check=True).stdout.decode()
        assert svg.count('class="node"') == g.number_of_nodes()
        assert svg.count('class="edge"') == g.number_of_edges()
    assert (
        "主人筵前献賔"
        in subprocess.run([dot, "-Tsvg"], input=_bytes(service, "dot", "steps"), capture_output=True, check=True).stdout.decode()
    )


@pytest.fixture(scope="module")
def corpus_service():
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file
    from yili.ingest.pipeline import Extractor

    folder = shared_path("corpus", "kanripo", "KR1d0040")
    extractor = Extractor()
    extractions = []
    for path in sorted(folder.glob("KR1d0040_0[0-9][0-9].txt")):
        if path.stem.endswith(("_000", "_018")):  # front and back matter (提要, 跋): refused by read_file
            continue
        doc = read_file(path)
        if not doc.title:
            continue
        e = extractor.extract(doc)
        if len(e.steps) >= 30 and not e.profile.neutral:
            extractions.append(e)
    return service_from_extractions(extractions)


def test_every_view_of_every_shared_rite_renders_in_dot_within_30_s(corpus_service):
    dot = system_tool("dot")
    rites = corpus_service.queries.rites()
    assert len(rites) == 13
    for rite in rites:
        key = str(rite["rite"]).rsplit("/", 1)[-1]
        for view in ("toasts", "steps"):
            g = toast_network(corpus_service.queries, key) if view == "toasts" else step_chain(corpus_service.queries, key)
            source = export(corpus_service.queries, corpus_service.store, "dot", view, rite=key).data
            svg = subprocess.run([dot, "-Tsvg"], input=source, capture_output=True, timeout=30, check=True).stdout.decode()
            assert svg.count('class="node"') == g.number_of_nodes(), (key, view)


def test_a_toast_network_of_one_rite_keeps_that_rite_only(corpus_service):
    g = toast_network(corpus_service.queries, "士冠禮")
    assert {d["rite"] for *_, d in g.edges(data=True)} == {"https://w3id.org/yili-kg/rite/shiguanli"}
    edges = sorted((d["order"], d["giver"], d["receiver"], d["toast_type"], d["text"]) for *_, d in g.edges(data=True))
    assert edges[:3] == [
        (1, "賔", "冠者", "獻", "冠者筵西拜受觶"),
        (2, "主人", "賔", "獻", "乃醴賔以壹獻之禮"),
        (3, "主人", "賔", "酬", "主人酬賔束帛儷皮"),
    ]
    assert {d["label"] for _, d in g.nodes(data=True)} == {"賔", "冠者", "主人"}  # the 述註 writes 賔


def test_bad_selections_are_one_line_errors(service):
    with pytest.raises(UnknownTermError, match="unknown rite '皇帝'"):
        export(service.queries, service.store, "csv", rite="皇帝")
    with pytest.raises(NotFoundError, match=r"no edition of 士冠禮 \(it holds: yanli/shuzhu-excerpt\)"):
        export(service.queries, service.store, "csv", rite="士冠禮")
    with pytest.raises(InputError, match="unknown export format 'svg'"):
        export(service.queries, service.store, "svg")
    with pytest.raises(InputError, match="unknown view 'roles'"):
        export(service.queries, service.store, "csv", "roles")


def test_export_over_http_names_the_file_and_its_media_type(client, service):
    r = client.get("/export/graphml", params={"rite": "燕禮"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/graphml+xml"
    assert r.headers["content-disposition"] == 'attachment; filename="yili-kg-yanli-toasts.graphml"'
    assert r.content == _bytes(service, "graphml", rite="燕禮")
    r = client.get("/export/csv", params={"view": "steps"})
    assert r.headers["content-type"] == "text/csv; charset=utf-8; header=present"
    assert r.headers["content-disposition"] == 'attachment; filename="yili-kg-all-steps.csv"'
    assert r.content.decode("utf-8-sig").count("\r\n") == 613
    assert client.get("/export/mermaid").headers["content-type"] == "text/vnd.mermaid; charset=utf-8"
    assert set(FORMATS) == {"graphml", "gexf", "cytoscape", "d3", "dot", "mermaid", "csv", "turtle", "ntriples", "jsonld"}


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/export/svg", 400, "format: Input should be"),
        ("/export/dot?view=roles", 400, "view: Input should be 'toasts' or 'steps'"),
        ("/export/dot?colour=red", 400, "unknown parameter 'colour'"),
        ("/export/dot?rite=皇帝", 404, "unknown rite '皇帝'"),
        ("/export/dot?rite=士冠禮", 404, "no edition of 士冠禮"),
    ],
)
def test_export_over_http_refuses_bad_requests_in_one_line(client, url, status, message):
    r = client.get(url)
    assert r.status_code == status
    assert message in r.json()["message"]


def test_every_concept_of_the_vocabulary_has_an_english_gloss(service):
    """Every skos:Concept (roles, acts, cups, places, …) has exactly one English skos:prefLabel, which
    the exports use as label_en."""
    rows = service.queries.backend.select(
        "PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?c (COUNT(?en) AS ?n) WHERE { ?c a skos:Concept . "
        "OPTIONAL { ?c skos:prefLabel ?en FILTER(LANG(?en) = 'en') } } GROUP BY ?c"
    )
    assert len(rows) > 390
    assert [r["c"] for r in rows if r["n"] != 1] == []
    labels = service.queries.concept_labels()
    assert labels["https://w3id.org/yili-kg/vocab/role-zhuren"]["en"] == "host"


def test_one_export_is_written_at_a_time_and_small_ones_are_kept(service):
    """While an export is being written, another is answered 503 busy with Retry-After; an export
    written once is answered again from memory (the graph is read-only while served)."""
    import threading

    import yili.api.exports as exports
    from fastapi.testclient import TestClient
    from yili.api.app import create_app

    started, release = threading.Event(), threading.Event()
    real = exports.export
    calls = []

    def slow_export(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[2])
        started.set()
        release.wait(10)
        return real(*args, **kwargs)

    exports.export = slow_export
    try:
        client = TestClient(create_app(service))
        first: list = []
        t = threading.Thread(target=lambda: first.append(client.get("/export/csv")))
        t.start()
        assert started.wait(10)
        busy = client.get("/export/gexf")
        assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
        assert busy.json()["error"] == "busy"
        release.set()
        t.join(10)
        assert first[0].status_code == 200
        again = client.get("/export/csv")
        assert again.content == first[0].content
        assert calls == ["csv"]  # the second csv came from memory
    finally:
        exports.export = real
