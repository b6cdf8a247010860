"""The pages for a browser, without a browser: who gets HTML and who gets JSON, the files under /static,
/docs with no CDN, the SPARQL service description, and the vendored JavaScript as pinned.
tests/api/test_browser.py drives the same pages in Chromium."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest
from rdflib import Graph, Namespace, URIRef
from rdflib.namespace import RDF

from tests.conftest import REPO

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
FORMATS = Namespace("http://www.w3.org/ns/formats/")
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
STATIC = REPO / "api" / "static"


@pytest.mark.parametrize(
    ("accept", "media"),
    [
        (None, "application/json"),
        ("*/*", "application/json"),
        ("application/json", "application/json"),
        ("application/json, text/html", "application/json"),
        ("image/png", "application/json"),
        (BROWSER, "text/html"),
        ("text/html", "text/html"),
    ],
)
def test_the_index_is_the_viewer_for_a_browser_and_json_otherwise(client, accept, media):
    r = client.get("/", headers={"Accept": accept} if accept else {})
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == media
    assert r.headers["vary"] == "Accept"
    if media == "text/html":
        assert '<script src="/static/viewer.js"' in r.text and "/static/vendor/cytoscape/cytoscape.min.js" in r.text
    else:
        assert r.json()["links"]["toasts"] == "/toasts"


def test_a_step_for_a_browser_is_the_viewer_and_an_unknown_step_a_404_page_naming_it(client):
    r = client.get("/steps/yanli/shuzhu-excerpt/24/1", headers={"Accept": BROWSER})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["vary"] == "Accept"
    missing = client.get("/steps/yanli/shuzhu-excerpt/1/99", headers={"Accept": BROWSER})
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert "no step with IRI https://w3id.org/yili-kg/step/yanli/shuzhu-excerpt/1/99" in missing.text
    assert client.get("/steps/yanli/shuzhu-excerpt/1/99").json()["error"] == "not_found"  # JSON for the others


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/steps/shiguanli/shuzhu/4/1", "unknown rite &#x27;shiguanli&#x27;: the graph holds yanli"),
        ("/steps/yanli/zhushu/24/1", "unknown edition &#x27;zhushu&#x27; of the rite yanli: it has shuzhu-excerpt"),
    ],
)
def test_an_unknown_rite_or_edition_is_a_404_page_naming_it(client, path, message):
    """A link to a rite or edition the graph does not hold is not answered with another rite's page."""
    page = client.get(path, headers={"Accept": BROWSER})
    assert page.status_code == 404 and message in page.text
    assert client.get(path).json()["message"] == message.replace("&#x27;", "'")


def test_a_step_names_its_concepts_with_their_english_labels(client):
    """Glosses by concept, never by label: 主人筵前献賔 names the host, the act 献 and the guest."""
    s = client.get("/steps/yanli/shuzhu-excerpt/24/1").json()
    glosses = {field: [c["en"] for c in cs] for field, cs in s["concepts"].items()}
    assert s["concepts"]["agent"][0]["iri"] == "https://w3id.org/yili-kg/vocab/role-zhuren"
    assert glosses["agent"] == glosses["giver"] == ["host"]
    assert glosses["recipient"] == glosses["receiver"] == ["guest"]
    assert s["block_mark"] == [0, 6]


def test_a_step_carries_the_text_of_its_block(client):
    """The step page shows the step in its block: the block's classic text, and its span there."""
    s = client.get("/steps/yanli/shuzhu-excerpt/24/1").json()
    assert s["block_text"] == "主人筵前献賔賔西阶上拜筵前受爵反位主人賔右拜送爵"
    start = s["char_start"] - s["block_char_start"]
    assert s["block_text"][start : start + len(s["text"])] == "主人筵前献賔"
    assert s["block_char_end"] - s["block_char_start"] == len(s["block_text"])


@pytest.mark.parametrize(
    ("path", "media"),
    [
        ("/static/viewer.js", "text/javascript"),
        ("/static/viewer.css", "text/css"),
        ("/static/sparql-examples.json", "application/json"),
        ("/static/vendor/cytoscape/cytoscape.min.js", "text/javascript"),
        ("/static/vendor/swagger-ui/swagger-ui-bundle.js", "text/javascript"),
        ("/static/vendor/swagger-ui/swagger-ui.css", "text/css"),
        ("/static/vendor/yasgui/yasgui.min.js", "text/javascript"),
        ("/static/vendor/yasgui/yasgui.min.css", "text/css"),
    ],
)
def test_static_files_are_served(client, path, media):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == media
    assert len(r.content) > 100


def test_a_missing_static_file_is_a_json_404(client):
    r = client.get("/static/nothing-here.js")
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"


def test_docs_load_swagger_ui_from_this_server_only(client):
    r = client.get("/docs")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    links = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    assert set(links) == {
        "/static/vendor/swagger-ui/swagger-ui.css",
        "/static/vendor/swagger-ui/favicon-32x32.png",
        "/static/vendor/swagger-ui/swagger-ui-bundle.js",
    }
    assert "http" not in r.text.replace("https://fastapi.tiangolo.com", "")
    assert '"validatorUrl": null' in r.text
    assert client.get("/redoc").status_code == 404


def test_the_pages_are_not_operations_of_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert not {"/docs", "/redoc", "/static"} & set(paths)
    # / and a step document their HTML answer
    assert set(paths["/"]["get"]["responses"]["200"]["content"]) == {"application/json", "text/html"}
    assert "text/html" in paths["/steps/{rite}/{edition}/{block}/{ordinal}"]["get"]["responses"]["200"]["content"]


def test_sparql_without_a_query_is_the_query_page_for_a_browser(client):
    r = client.get("/sparql", headers={"Accept": BROWSER})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["vary"] == "Accept"
    assert "/static/vendor/yasgui/yasgui.min.js" in r.text and "/static/sparql-page.js" in r.text


@pytest.mark.parametrize("accept", [None, "*/*", "application/sparql-results+json", "text/csv"])
def test_sparql_without_a_query_is_refused_as_before_otherwise(client, accept):
    r = client.get("/sparql", headers={"Accept": accept} if accept else {})
    assert r.status_code == 400
    assert r.json()["error"] == "query" and "No query" in r.json()["message"]


@pytest.mark.parametrize(
    ("accept", "reader"),
    [
        ("text/turtle", "turtle"),
        ("application/n-triples", "nt"),
        ("application/rdf+xml", "xml"),
        ("application/ld+json", "json-ld"),
        ("application/ld+json;q=0.5, text/turtle", "turtle"),
    ],
)
def test_sparql_without_a_query_describes_the_service(client, service, accept, reader):
    """SPARQL 1.1 Service Description: the endpoint as requested, the query language, every result
    format the endpoint answers in, the union default graph, and the named graphs of the store."""
    r = client.get("/sparql", headers={"Accept": accept})
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == accept.split(",")[-1].strip()
    assert r.headers["vary"] == "Accept"
    g = Graph().parse(data=r.text, format=reader)
    endpoint = g.value(predicate=RDF.type, object=SD.Service)
    assert g.value(endpoint, SD.endpoint) == URIRef("http://testserver/sparql")
    assert set(g.objects(endpoint, SD.supportedLanguage)) == {SD.SPARQL11Query}
    assert set(g.objects(endpoint, SD.feature)) == {SD.UnionDefaultGraph}
    assert set(g.objects(endpoint, SD.resultFormat)) == {
        FORMATS[name]
        for name in (
            "SPARQL_Results_JSON",
            "SPARQL_Results_XML",
            "SPARQL_Results_CSV",
            "SPARQL_Results_TSV",
            "Turtle",
            "N-Triples",
            "RDF_XML",
            "JSON-LD",
        )
    }
    dataset = g.value(endpoint, SD.defaultDataset)
    names = {g.value(named, SD.name) for named in g.objects(dataset, SD.namedGraph)}
    assert names == {URIRef(graph.value) for graph in service.store.named_graphs()}
    assert URIRef("https://w3id.org/yili-kg/graph/yanli/shuzhu-excerpt") in names


def test_the_service_description_names_each_result_format_the_endpoint_answers(client):
    """Every format the description lists is one the endpoint really answers a query in."""
    asks = {
        "SPARQL_Results_JSON": ("SELECT * WHERE { ?s ?p ?o } LIMIT 1", "application/sparql-results+json"),
        "SPARQL_Results_XML": ("SELECT * WHERE { ?s ?p ?o } LIMIT 1", "application/sparql-results+xml"),
        "SPARQL_Results_CSV": ("SELECT * WHERE { ?s ?p ?o } LIMIT 1", "text/csv"),
        "SPARQL_Results_TSV": ("SELECT * WHERE { ?s ?p ?o } LIMIT 1", "text/tab-separated-values"),
        "Turtle": ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1", "text/turtle"),
        "N-Triples": ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1", "application/n-triples"),
        "RDF_XML": ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1", "application/rdf+xml"),
        "JSON-LD": ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1", "application/ld+json"),
    }
    g = Graph().parse(data=client.get("/sparql", headers={"Accept": "text/turtle"}).text, format="turtle")
    listed = {str(o).removeprefix(str(FORMATS)) for o in g.objects(None, SD.resultFormat)}
    assert listed == set(asks)
    for query, media in asks.values():
        r = client.get("/sparql", params={"query": query}, headers={"Accept": media})
        assert r.status_code == 200 and r.headers["content-type"].split(";")[0] == media


def test_the_example_queries_are_the_readmes():
    """The query page's tabs hold the README's SPARQL examples, in order, as written there."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    examples = json.loads((STATIC / "sparql-examples.json").read_text(encoding="utf-8"))["examples"]
    assert [e["query"] for e in examples] == re.findall(r"^```sparql\n(.*?)^```", readme, flags=re.M | re.S)
    assert examples[0]["title"] == "Who toasts whom"


def test_the_vendored_files_are_the_pinned_packages():
    """api/static/vendor holds what api/web/vendor.sh copies from the versions api/web pins, with their
    licences, and no node_modules is committed."""
    package = json.loads((REPO / "api" / "web" / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((REPO / "api" / "web" / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    for name, version in package["dependencies"].items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is not pinned to one version: {version}"
        assert lock[f"node_modules/{name}"]["version"] == version
    assert package["dependencies"]["cytoscape"].startswith("3.")
    assert package["dependencies"]["swagger-ui-dist"].startswith("5.")
    assert package["dependencies"]["@zazuko/yasgui"].startswith("4.")
    readme = (STATIC / "vendor" / "README").read_text(encoding="utf-8")
    for name, version in package["dependencies"].items():
        assert f"{name} {version}" in readme
    vendor = STATIC / "vendor"
    for folder in ("cytoscape", "swagger-ui", "yasgui"):
        assert (vendor / folder / "LICENSE").is_file()
    assert len(list((vendor / "yasgui" / "licenses").iterdir())) > 10
    assert not (REPO / "api" / "web" / "node_modules").exists()


def test_docstring_examples():
    from yili.api import app, routes_steps, service_description, sparql

    for module in (app, routes_steps, service_description, sparql):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0, module.__name__


def test_the_screenshots_the_readme_shows_exist():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shots = re.findall(r"\]\((api/static/screenshots/[^)]+\.png)\)", readme)
    assert len(shots) == 7  # network, timeline, step, query, floor plan, the side-by-side comparison, the pattern search
    for shot in shots:
        assert Path(REPO / shot).stat().st_size > 10_000


def test_the_rare_character_font_holds_exactly_the_corpus_characters_outside_the_bmp(client):
    """vendor/hanazono (api/web/rare_font.py): the corpus's characters outside the BMP (𤣥 …), each drawn
    by one of the two subset fonts, which the stylesheet names first for Chinese, with the fonts' licence."""
    from fontTools.ttLib import TTFont

    from tests.conftest import shared_path

    folder = STATIC / "vendor" / "hanazono"
    listed = set((folder / "characters.txt").read_text(encoding="utf-8").strip())
    corpus = set()
    for path in sorted(shared_path("corpus").rglob("*.txt")):
        corpus |= {ch for ch in path.read_text(encoding="utf-8", errors="replace") if ord(ch) > 0xFFFF}
    assert "𤣥" in corpus
    assert {ch for ch in listed if ord(ch) > 0xFFFF} == corpus
    drawn = set()
    for name in ("HanaMinA-yili.woff", "HanaMinB-yili.woff"):
        drawn |= {chr(cp) for cp in TTFont(str(folder / name)).getBestCmap()}
        served = client.get(f"/static/vendor/hanazono/{name}")
        assert served.status_code == 200 and served.content == (folder / name).read_bytes()
    assert listed <= drawn
    css = (folder / "rare.css").read_text(encoding="utf-8")
    assert "U+24CE5" not in css and "U+248E5" in css  # 𤣥 is U+248E5
    assert "SIL Open Font License" in (folder / "LICENSE").read_text(encoding="utf-8")
    assert '@import url("/static/vendor/hanazono/rare.css")' in (STATIC / "viewer.css").read_text(encoding="utf-8")
