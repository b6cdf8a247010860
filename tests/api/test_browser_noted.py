"""The step page shows, under the rule that decided a field, the commentary statement the rule read (issue 25:
why the graph says so), in Chromium as tests/api/test_browser.py runs it, over the 特牲饋食禮 of the 述註."""

from __future__ import annotations

import httpx
import pytest

from tests.api.test_browser import Tab, api, browser, monkeypatch_module, server, tab  # noqa: F401  (fixtures)
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def service(extractor):
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file

    return service_from_extractions(
        [extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_015.txt")))]
    )


def test_the_step_page_shows_the_note_that_names_the_agent(tab: Tab, server: str, api: httpx.Client) -> None:
    page = tab.page
    path = "/steps/teshengkuishili/shuzhu/156/1"
    step = api.get(path).json()
    page.goto(server + path)
    tab.wait_rendered("step")
    assert page.text_content("h2.step-text") == step["text"] == "利洗散"
    rule = page.eval_on_selector_all(".rules dd code.rule-agent", "cs => cs.map(c => c.textContent)")
    assert rule == ["agent.named-in-note"]
    quotes = page.eval_on_selector_all(
        ".rules blockquote.from-note",
        "qs => qs.map(q => [q.dataset.statement, q.querySelector('.who').textContent, q.querySelector('.text').textContent])",
    )
    assert quotes == [
        [
            "https://w3id.org/yili-kg/statement/teshengkuishili/shuzhu/156/1",
            "鄭玄 注",
            "註曰利佐食也言利以今進酒也更言獻者以利侍尸禮將終宜一進酒嫌于加酒亦當三也不致爵禮又殺也",
        ]
    ]
    # the same statement is marked in the block's commentary, by authority
    marked = page.eval_on_selector_all(".commentary .statement.decides .text", "ps => ps.map(p => p.textContent)")
    assert marked == [quotes[0][2]]
    # a step no note decided shows no quotation
    page.goto(server + "/steps/teshengkuishili/shuzhu/156/2")
    tab.wait_rendered("step")
    page.wait_for_selector(".rules dd code.rule-agent")
    assert page.eval_on_selector_all(".rules blockquote.from-note", "qs => qs.length") == 0
