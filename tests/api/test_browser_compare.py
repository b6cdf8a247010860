"""The side-by-side comparison page and the pattern page in Chromium (Debian's, with Playwright), against
a uvicorn server of the excerpt, with the fixtures of test_browser.py: every test fails on a console
error, a page error or a request to another host."""

from __future__ import annotations

import httpx

from tests.api.test_browser import Tab, api, browser, monkeypatch_module, server, shoot, tab  # noqa: F401  (fixtures)


def test_the_side_by_side_page_aligns_two_stages_and_links_each_row(tab: Tab, server: str, api: httpx.Client) -> None:  # noqa: F811
    page = tab.page
    page.goto(server + "/compare")
    page.fill("input[name=a]", "燕禮")
    page.fill("input[name=stage_a]", "主人献賔")
    page.fill("input[name=b]", "yanli")
    page.fill("input[name=stage_b]", "主人献公")
    page.click("button[type=submit]")
    tab.wait_rendered("compare")
    expected = api.get("/compare", params={"a": "燕禮", "stage_a": "主人献賔", "b": "yanli", "stage_b": "主人献公"}).json()
    rows = page.locator("table.alignment tbody tr")
    assert rows.count() == len(expected["rows"]) == 62
    kinds = [rows.nth(i).get_attribute("data-kind") for i in range(rows.count())]
    assert kinds == [r["kind"] for r in expected["rows"]]
    # the host's 獻 to the guest, beside his 獻 to the ruler, marked as a substitution, each side a link to its step
    row = page.locator("tr", has=page.locator("td.a a", has_text="主人筵前献賔"))
    assert row.get_attribute("data-kind") == "substitution"
    assert row.locator("td.a a").get_attribute("href") == "/steps/yanli/shuzhu-excerpt/24/1"
    assert row.locator("td.b a").get_attribute("href") == "/steps/yanli/shuzhu-excerpt/38/5"
    assert row.locator("td.b a").inner_text() == "东北面献于公"
    assert "similarity" in page.locator("#summary").inner_text()
    # the form is kept in the address: the same comparison loads from it directly
    assert "stage_b=" in page.url
    shoot(tab, "compare")
    page.goto(page.url)
    tab.wait_rendered("compare")
    assert page.locator("table.alignment tbody tr").count() == 62
    # only the differences
    page.check("input[name=diff]")
    page.click("button[type=submit]")
    tab.wait_rendered("compare")
    assert page.locator("table.alignment tbody tr").count() == 62 - expected["same"]
    # a link opens the step
    page.click("tr[data-kind=substitution] td.a a >> text=主人筵前献賔")
    page.wait_for_url("**/steps/yanli/shuzhu-excerpt/24/1")


def test_the_pattern_page_lists_the_hits_by_rite_with_links(tab: Tab, server: str, api: httpx.Client) -> None:  # noqa: F811
    page = tab.page
    page.goto(server + "/patterns?seq=洗,酌,獻")
    tab.wait_rendered("patterns")
    expected = api.get("/patterns", params={"seq": "洗,酌,獻"}).json()
    section = page.locator("section.rite-hits[data-rite=yanli]")
    assert section.locator("h2").inner_text() == f"燕禮 ({expected['total']})"
    hits = section.locator("li")
    assert hits.count() == expected["total"]
    first = hits.nth(0).locator("a")
    assert [first.nth(i).inner_text() for i in range(3)] == ["主人卒洗", "主人酌膳", "主人筵前献賔"]
    assert first.nth(2).get_attribute("href") == "/steps/yanli/shuzhu-excerpt/24/1"
    second = hits.nth(1).locator("a")
    assert [second.nth(i).inner_text() for i in range(3)] == ["洗象觚", "实之", "东北面献于公"]
    shoot(tab, "patterns")
    # a pattern with roles, typed in the form
    page.fill("input[name=seq]", "主人:洗,主人:獻→賓")
    page.click("button[type=submit]")
    tab.wait_rendered("patterns")
    assert page.locator("section.rite-hits li").count() == 1
    assert page.locator("section.rite-hits li a").nth(1).inner_text() == "主人筵前献賔"
    # an unknown act: the message, no hits
    page.fill("input[name=seq]", "洗,皇帝")
    page.click("button[type=submit]")
    page.wait_for_selector("#status.error")  # not the "searching…" shown while the answer comes
    assert "皇帝" in page.locator("#status").inner_text()
    assert page.locator("section.rite-hits").count() == 0
    # the browser logs the 404 it was answered, as it should: that one is expected
    assert tab.errors == ["console: Failed to load resource: the server responded with a status of 404 (Not Found)"]
    tab.errors.clear()
