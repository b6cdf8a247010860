"""The viewer over one rite in two editions, in Chromium (as tests/api/test_browser.py, whose fixtures it
uses): the edition selector, a 注疏 step page with the step marked and no print layout on screen, the search
box finding 玄端 written 𤣥端, and the glyph of 𤣥 drawn from the vendored font."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import httpx
import pytest

from tests.api.test_browser import Tab, api, browser, monkeypatch_module, server, tab  # noqa: F401  (fixtures)
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def service(extractor):
    """士冠禮 in the 述註 (which writes 玄 as 𤣥) and in the 注疏 (run-on notes, parenthesised 疏)."""
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file

    files = [
        shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt"),
        shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_001.txt"),
    ]
    return service_from_extractions([extractor.extract(read_file(f)) for f in files])


def _edges(tab: Tab) -> int:
    return tab.page.evaluate("window.cy.edges().length")


def test_the_edition_selector_shows_one_edition_at_a_time(tab: Tab, server: str, api: httpx.Client) -> None:
    page = tab.page
    page.goto(server + "/#network?rite=shiguanli")
    tab.wait_rendered("network")
    options = page.eval_on_selector_all("#edition option", "os => os.map(o => o.value)")
    assert options == ["shuzhu", "zhushu"]
    assert page.input_value("#edition") == "shuzhu"  # the 述註 by default
    toasts = api.get("/toasts", params={"rite": "shiguanli", "limit": 1000}).json()["items"]
    by_edition = {key: sum(1 for t in toasts if t["edition"].endswith("/" + key)) for key in options}
    assert _edges(tab) == by_edition["shuzhu"]
    labels = page.evaluate("window.cy.nodes().map(n => n.data('label'))")
    assert len(labels) == len(set(labels))  # one node per role concept
    page.select_option("#edition", "zhushu")
    page.wait_for_function("location.hash.includes('edition=zhushu')")
    tab.wait_rendered("network")
    page.wait_for_function(f"window.cy && window.cy.edges().length === {by_edition['zhushu']}")
    rows = page.eval_on_selector_all("#toast-list a", "as => as.map(a => a.getAttribute('href'))")
    assert len(rows) == by_edition["zhushu"] and all(r.startswith("/steps/shiguanli/zhushu/") for r in rows)


def test_an_unknown_rite_is_named_not_replaced(tab: Tab, server: str) -> None:
    tab.page.goto(server + "/#network?rite=dasheyi")
    tab.page.wait_for_selector("#status.error")
    assert "unknown rite 'dasheyi'" in tab.page.text_content("#status")
    tab.errors.clear()  # the message is the page's answer, not a fault of it


def test_a_zhushu_step_page_marks_its_step_and_shows_no_print_layout(tab: Tab, server: str, api: httpx.Client) -> None:
    page = tab.page
    path = "/steps/shiguanli/zhushu/4/1"
    step = api.get(path).json()
    page.goto(server + path)
    tab.wait_rendered("step")
    assert page.text_content(".classic mark") == step["text"] == "有司如主人服即位于西方東面北上"
    shown = page.inner_text("#step .classic") + page.inner_text("#step .commentary")
    for layout in ("¶", "<pb:", "(", ")", "/"):
        assert layout not in shown, layout
    assert "¶" not in page.inner_text("body") and "<pb:" not in page.inner_text("body")
    assert page.input_value("#edition") == "zhushu"
    # the commentary by authority: the 疏 of 賈公彦 is one statement, however many lines it was printed on
    shu = page.eval_on_selector_all(
        ".comment",
        "ds => ds.filter(d => d.classList.contains('layer-shu') || /賈公[彦彥]/.test(d.querySelector('.who').textContent))"
        " .map(d => d.querySelector('.text').textContent)",
    )
    assert len(shu) == 1 and "此論主人有司從主人有事故立位于庿門外西方東面以待事也" in shu[0]


def test_searching_xuanduan_finds_it_written_with_the_avoided_character(tab: Tab, server: str) -> None:
    page = tab.page
    page.goto(server + "/")
    tab.wait_rendered("network")
    page.fill("#search-form input", "玄端")
    page.press("#search-form input", "Enter")
    tab.wait_rendered("search")
    assert unquote(urlsplit(page.url).fragment) == "search?q=玄端"
    marks = page.eval_on_selector_all(".hit[data-rite=shiguanli][data-edition=shuzhu] mark", "ms => ms.map(m => m.textContent)")
    assert "𤣥端" in marks
    # the 注疏's too
    assert page.eval_on_selector_all(".hit[data-edition=zhushu] mark", "ms => ms.map(m => m.textContent)")


def test_the_glyph_of_xuan_is_drawn_from_the_vendored_font(tab: Tab, server: str) -> None:
    """𤣥 (U+248E5) is outside the BMP: the page's font "Yili Rare" serves it, and it is drawn a character
    wide, as 玄 is, not as a box."""
    page = tab.page
    page.goto(server + "/#search?q=玄端")
    tab.wait_rendered("search")
    page.wait_for_function("""document.fonts.check('16px "Yili Rare"', '\\u{248E5}')""")
    # the match as the page shows it: 𤣥端 two characters wide, each as wide as 端
    widths = page.evaluate(
        """() => {
             const mark = [...document.querySelectorAll('.hit mark')].find(m => m.textContent === '\\u{248E5}端');
             const probe = (t) => { const s = document.createElement('span'); s.textContent = t;
               mark.parentNode.append(s); const w = s.getBoundingClientRect().width; s.remove(); return w; };
             return [mark.getBoundingClientRect().width, probe('\\u{248E5}'), probe('端')];
           }"""
    )
    both, rare, common = widths
    assert abs(rare - common) < 1.5 and abs(both - 2 * common) < 1.5 and common > 10
    fonts = [u for u in tab.requests if u.endswith("-yili.woff")]
    assert any(u.endswith("/static/vendor/hanazono/HanaMinB-yili.woff") for u in fonts)
    loaded = page.evaluate(
        """[...document.fonts].filter(f => f.family.replace(/"/g, '') === 'Yili Rare' && f.status === 'loaded').length"""
    )
    assert loaded >= 1
