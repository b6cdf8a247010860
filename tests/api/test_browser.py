"""The viewer, /docs and the SPARQL page in a real browser: Debian's Chromium driven by Playwright,
against a real uvicorn server of the excerpt on a loopback port.

Every test fails on a console error, an uncaught page error, or a request to any host but the server
(such requests are aborted and recorded): the pages must work offline.  The tests also write the
screenshots the README shows (api/static/screenshots/, at 1280×800).
"""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
import pytest
import uvicorn
from rdflib import Graph, Namespace, URIRef
from rdflib.namespace import RDF

from tests.conftest import REPO, system_tool

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
SHOTS = REPO / "api" / "static" / "screenshots"
VIEWPORT = {"width": 1280, "height": 800}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def server(service, monkeypatch_module) -> Iterator[str]:
    """The app over the excerpt, served by uvicorn on a free loopback port; its base URL."""
    from yili.api.app import create_app

    for variable in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch_module.delenv(variable, raising=False)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(service), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    """A plain HTTP client of the same server: what the pages should show, from the JSON API."""
    with httpx.Client(base_url=server, headers={"Accept": "application/json"}, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = system_tool("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Tab:
    """A page in a fresh browser context, with what went wrong on it."""

    page: Any
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.outside == [], f"requests left the machine: {self.outside}"
        assert self.errors == [], f"errors in the page: {self.errors}"
        assert self.requests, "the page made no request at all"

    def wait_rendered(self, view: str) -> None:
        self.page.wait_for_selector(f"body[data-rendered={view}]", timeout=TIMEOUT_MS)


@pytest.fixture
def tab(browser: Any, server: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    state = Tab(page)
    host = urlsplit(server).netloc

    def route(route: Any) -> None:
        url = route.request.url
        state.requests.append(url)
        if urlsplit(url).scheme in ("http", "https", "ws", "wss") and urlsplit(url).netloc != host:
            state.outside.append(url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", route)
    page.on("console", lambda message: state.errors.append(f"console: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda error: state.errors.append(f"page error: {error}"))
    try:
        yield state
        state.assert_clean()
    finally:
        context.close()


def shoot(tab: Tab, name: str) -> None:
    """Take the screenshot ``name``: into api/static/screenshots (the README's) when
    ``YILI_UPDATE_SCREENSHOTS=1``, else into a temporary folder, so that a test run leaves the tree clean."""
    folder = SHOTS if os.environ.get("YILI_UPDATE_SCREENSHOTS") == "1" else Path(tempfile.gettempdir()) / "yili-kg-screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    tab.page.screenshot(path=str(folder / f"{name}.png"))


def roles(label: str | None) -> list[str]:
    """The roles in a label the API writes for several (賔+卿 together, 賔|长 either), as the viewer splits it;
    none for a party the text does not name (None)."""
    return [part for part in (label or "").replace("|", "+").split("+") if part]


# ---------------------------------------------------------------------------------------------------
# The toast network


def test_the_network_has_one_node_per_role_that_toasts(tab: Tab, server: str, api: httpx.Client) -> None:
    """One node per role concept, whatever the spelling, and one arrow per toast of the edition shown, as
    /export/cytoscape draws them; glosses by concept."""
    tab.page.goto(server + "/")
    tab.wait_rendered("network")
    nodes = tab.page.evaluate("window.cy.nodes().map(n => [n.id(), n.data('label')])")
    exported = api.get("/export/cytoscape", params={"rite": "yanli", "edition": "shuzhu-excerpt"}).json()["elements"]
    assert sorted(map(tuple, nodes)) == sorted((n["data"]["id"], n["data"]["label"]) for n in exported["nodes"])
    labels = [label for _id, label in nodes]
    assert len(labels) == len(set(labels))
    assert {"主人", "賔", "公", "卿", "大夫", "士"} <= set(labels)
    # an edge per toast, labelled with its type
    edges = tab.page.evaluate("window.cy.edges().map(e => [e.source().data('label'), e.data('label'), e.target().data('label')])")
    toasts = api.get("/toasts", params={"rite": "yanli", "limit": 1000}).json()
    assert len(edges) == toasts["total"] == 26
    named = {n["data"]["id"]: n["data"]["label"] for n in exported["nodes"]}
    assert sorted(map(tuple, edges)) == sorted(
        (named[e["data"]["source"]], e["data"]["toast_type"], named[e["data"]["target"]]) for e in exported["edges"]
    )
    # English glosses of the concepts under the names: 主人 is the host
    host = tab.page.evaluate("window.cy.nodes().filter(n => n.data('label') === '主人').data('display')")
    assert host == "主人\nhost"
    shoot(tab, "network")
    tab.assert_clean()


def test_clicking_the_hosts_xian_to_the_guest_opens_its_step(tab: Tab, server: str, api: httpx.Client) -> None:
    """A real click on the edge 主人 → 賔 (献), at its midpoint on the canvas, opens the step 主人筵前献賔
    with the commentary on its block."""
    page = tab.page
    page.goto(server + "/")
    tab.wait_rendered("network")
    point = page.evaluate(
        """() => {
          const edge = window.cy.edges().filter(e => e.source().data('label') === '主人'
                                               && e.target().data('label') === '賔' && e.data('type') === '献');
          const box = window.cy.container().getBoundingClientRect();
          const mid = edge.renderedMidpoint();
          return {count: edge.length, x: box.left + mid.x, y: box.top + mid.y, url: edge.data('url')};
        }"""
    )
    assert point["count"] == 1
    page.mouse.click(point["x"], point["y"])
    tab.wait_rendered("step")
    assert urlsplit(page.url).path == point["url"] == "/steps/yanli/shuzhu-excerpt/24/1"
    step = api.get(point["url"]).json()
    assert page.text_content("h2.step-text") == step["text"] == "主人筵前献賔"
    assert page.text_content(".classic mark") == "主人筵前献賔"
    assert page.text_content(".classic") == step["block_text"]
    commentary = page.text_content(".commentary")
    assert step["commentary"] and all(c["text"] in commentary for c in step["commentary"])
    assert "注曰賔既拜前受觚退复位" in commentary
    assert page.text_content(".field-vessel .zh") == step["vessel"] == "觚"
    assert page.text_content(".field-location .zh") == step["location"] == "筵前"
    # the gloss is the English label of the concept the step names (yk:location), not looked up by label
    assert page.text_content(".field-location .gloss") == step["concepts"]["location"][0]["en"]
    assert page.text_content("#step .phase") == step["phase"] == "主人献賔"
    # which rule decided each field: the agent is written, the cup the one in his hand (取觚 … 洗)
    assert page.text_content(".rules .rule-agent") == "agent.written"
    assert page.text_content(".rules .rule-vessel") == "vessel.in-hand"
    assert [r["rule"] for r in step["why"] if r["field"] == "recipient"] == ["recipient.person-object"]
    # its neighbours are a click away, and Back returns to the network
    page.click("a[rel=next]")
    tab.wait_rendered("step")
    assert urlsplit(page.url).path == step["links"]["next"]
    after = api.get(step["links"]["next"]).json()
    assert page.text_content("h2.step-text") == after["text"]
    assert (page.query_selector("#step .toast") is None) == (after["toast"] is None)
    assert "null" not in page.text_content("#step") and "undefined" not in page.text_content("#step")
    page.go_back()
    tab.wait_rendered("step")
    assert urlsplit(page.url).path == "/steps/yanli/shuzhu-excerpt/24/1"
    page.go_back()
    tab.wait_rendered("network")
    tab.assert_clean()


def test_a_step_url_loaded_directly_shows_that_step(tab: Tab, server: str, api: httpx.Client) -> None:
    page = tab.page
    url = "/steps/yanli/shuzhu-excerpt/38/5"
    response = page.goto(server + url)
    assert response is not None and response.headers["content-type"].startswith("text/html")
    tab.wait_rendered("step")
    step = api.get(url).json()
    assert page.text_content("h2.step-text") == step["text"] == "东北面献于公"
    assert page.text_content(".toast .arrow .zh") == step["toast"]["type"] == "献"
    assert page.eval_on_selector_all(".toast p > .term .zh", "zs => zs.map(z => z.textContent)") == ["主人", "公"]
    previous = api.get(step["links"]["previous"]).json()
    assert page.text_content("a[rel=prev] q") == previous["text"]
    # the glosses arrive from the vocabulary: the agent is the host
    page.wait_for_function("document.querySelector('.field-agent .gloss').textContent === 'host'")
    assert page.get_attribute(".field-agent .zh", "title").startswith("the host")
    page.reload()
    tab.wait_rendered("step")
    assert page.text_content("h2.step-text") == "东北面献于公"
    page.goto(server + "/steps/yanli/shuzhu-excerpt/24/1")
    tab.wait_rendered("step")
    page.set_viewport_size({"width": 1280, "height": 1200})
    shoot(tab, "step")
    tab.assert_clean()


# ---------------------------------------------------------------------------------------------------
# The timeline


def shown(tab: Tab) -> list[dict[str, str]]:
    return tab.page.eval_on_selector_all("#timeline li", "items => items.map(li => ({...li.dataset}))")


def wait_count(tab: Tab, count: int) -> None:
    tab.page.wait_for_function(
        "n => document.body.dataset.rendered === 'timeline' && document.querySelector('#timeline-count').dataset.count === String(n)",
        arg=count,
    )


def test_the_timeline_shows_every_step_by_phase_and_filters_as_the_api_does(tab: Tab, server: str, api: httpx.Client) -> None:
    page = tab.page
    page.goto(server + "/#timeline")
    tab.wait_rendered("timeline")
    everything = api.get("/steps", params={"rite": "yanli", "limit": 1000}).json()
    assert len(shown(tab)) == everything["total"] == 612
    # phases in order, each heading the run of steps from its first to its last
    phases = api.get("/phases", params={"rite": "yanli"}).json()
    sections = page.eval_on_selector_all(
        "#timeline section.phase", "ss => ss.map(s => [s.dataset.phase, s.querySelector('li').dataset.url])"
    )
    assert [(p["label"], "/steps/" + p["first"].split("/step/")[1]) for p in phases] == [
        (label, first) for label, first in sections if label
    ]
    # the selects hold what the steps hold
    agents = page.eval_on_selector_all("select[name=agent] option", "os => os.map(o => o.value).filter(Boolean)")
    assert {"主人", "賔", "公"} <= set(agents)
    shoot(tab, "timeline")

    def total(**filters: str) -> int:
        return api.get("/steps", params={"rite": "yanli", "limit": 1, **filters}).json()["total"]

    page.select_option("select[name=agent]", "主人")
    wait_count(tab, total(agent="主人"))
    rows = shown(tab)
    assert len(rows) == total(agent="主人") > 100
    assert all("主人" in roles(row["agent"]) for row in rows)

    page.select_option("select[name=action]", "拜")  # 拜 finds 再拜, 拜送 … as the API does
    wait_count(tab, total(agent="主人", action="拜"))
    rows = shown(tab)
    assert len(rows) == total(agent="主人", action="拜") > 0
    assert all("拜" in row["action"] for row in rows) and {row["action"] for row in rows} > {"拜"}

    page.click("button[type=reset]")
    wait_count(tab, 612)
    page.select_option("select[name=vessel]", "觚")
    wait_count(tab, total(vessel="觚"))
    rows = shown(tab)
    assert len(rows) == total(vessel="觚") > 0
    assert {row["vessel"] for row in rows} <= {"觚", "象觚"}
    # the filters are in the address, so a reload keeps them
    assert "vessel=%E8%A7%9A" in page.url
    page.reload()
    wait_count(tab, total(vessel="觚"))
    tab.assert_clean()


# ---------------------------------------------------------------------------------------------------
# /docs and the SPARQL page


def test_docs_render_the_operations_offline(tab: Tab, server: str) -> None:
    page = tab.page
    page.goto(server + "/docs")
    page.wait_for_selector(".opblock-summary-path[data-path='/toasts']")
    paths = page.eval_on_selector_all(".opblock-summary-path", "ps => ps.map(p => p.dataset.path)")
    assert {"/toasts", "/steps", "/steps/{rite}/{edition}/{block}/{ordinal}", "/sparql"} <= set(paths)
    assert all(urlsplit(url).path.startswith(("/static/vendor/swagger-ui/", "/docs", "/openapi.json")) for url in tab.requests)
    tab.assert_clean()


def test_the_query_page_runs_who_toasts_whom(tab: Tab, server: str) -> None:
    page = tab.page
    page.goto(server + "/sparql")
    tab.wait_rendered("sparql")
    # one tab per example query of the README, the first one open
    names = page.eval_on_selector_all(".tabsList .tab", "ts => ts.map(t => t.textContent.replace('✖', '').trim())")
    assert names == [
        "Who toasts whom",
        "What one rite has that another lacks",
        "Provenance: what you queried",
        "Every gloss of 酳",
        "Every step a note decided",
        "The steps whose receiver the rule of answers decided",
    ]
    assert page.text_content(".tabsList .tab.active").startswith("Who toasts whom")
    page.click(".tabPanel.active .yasqe_queryButton")
    page.wait_for_selector(".tabPanel.active .yasr table tbody tr td")
    rows = page.eval_on_selector_all(
        ".tabPanel.active .yasr table tbody tr", "rs => rs.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))"
    )
    assert len(rows) == 6  # LIMIT 6
    assert any("主人" in " ".join(row) and "賔" in " ".join(row) and "主人筵前献賔" in " ".join(row) for row in rows)
    # the screenshot leaves out how long the query took and the blinking cursor, so that it is the same
    # from run to run
    page.evaluate(
        "document.querySelectorAll('.yasr_response_chip').forEach(e => { e.innerText = e.innerText.replace(/ in [0-9.]+ seconds?/, ''); })"
    )
    page.add_style_tag(
        content=".CodeMirror-cursors { visibility: hidden !important; } "
        ".CodeMirror-activeline-background, .CodeMirror-matchingbracket { background: none !important; }"
    )
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 799)  # no hover highlight
    shoot(tab, "query")
    # the query went to this server's endpoint
    assert any(unquote(urlsplit(url).path) == "/sparql" for url in tab.requests[1:])
    tab.assert_clean()


def test_the_service_description_names_this_endpoint(server: str) -> None:
    r = httpx.get(server + "/sparql", headers={"Accept": "text/turtle"})
    assert r.status_code == 200
    g = Graph().parse(data=r.text, format="turtle")
    service = g.value(predicate=RDF.type, object=SD.Service)
    assert g.value(service, SD.endpoint) == URIRef(server + "/sparql")
    assert (service, SD.feature, SD.UnionDefaultGraph) in g


def test_a_step_shows_the_commentary_by_authority_and_the_glossed_words(tab: Tab, server: str, api: httpx.Client) -> None:
    """Block 1 of the excerpt: 注曰尔近也 glosses 尔 (爾) in the classic; the word is underlined with the
    gloss as its title, and the note is shown under its authority, 鄭玄."""
    page = tab.page
    page.goto(server + "/steps/yanli/shuzhu-excerpt/1/1")
    tab.wait_rendered("step")
    assert page.eval_on_selector_all(".block .classic .glossed", "xs => xs.map(x => [x.textContent, x.title])") == [
        ["尔", "鄭玄: 尔 近"]
    ]
    assert page.eval_on_selector_all(".commentary .statement .who", "xs => xs.map(x => x.textContent)")[0] == "鄭玄 注"
    assert page.text_content(".commentary .statement .glosses") == "尔：近"
    tab.assert_clean()
