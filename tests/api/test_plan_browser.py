"""The floor plan page in Chromium: the ground draws, the slider moves the host up the east steps of the
士冠禮, and no request leaves the machine (the fixtures and checks of tests/api/test_browser.py)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn

from tests.api.test_browser import Tab, browser, monkeypatch_module, shoot, tab  # noqa: F401  (fixtures)
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def server(monkeypatch_module) -> Iterator[str]:  # noqa: F811
    """The app over the excerpt and the 述註's 士冠禮 with 楊復's stages, on a free loopback port."""
    from yili.api.app import create_app
    from yili.api.cli import extract_inputs
    from yili.api.service import service_from_extractions

    inputs = [
        str(shared_path("corpus", "yili_shuzhu_yanli_excerpt.txt")),
        str(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")),
    ]
    _e, extractions = extract_inputs(inputs, [], stages=str(shared_path("corpus", "reference", "KR1d0032")))
    service = service_from_extractions(extractions)
    for variable in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch_module.delenv(variable, raising=False)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(create_app(service), log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not srv.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        srv.should_exit = True
        thread.join(30)
        sock.close()


def _host(page: Any) -> dict[str, str] | None:
    return page.evaluate(
        "() => { const g = document.querySelector('#plan-svg g.person[data-person=\"主人\"]');"
        " return g ? {...g.dataset} : null; }"
    )


def _slide(page: Any, seq: int) -> None:
    page.eval_on_selector("#plan-slider", "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input')); }", seq)


def test_the_plan_draws_and_the_slider_moves_the_host_up_the_east_steps(tab: Tab, server: str) -> None:  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as api:
        steps = api.get("/steps", params={"rite": "shiguanli", "limit": 1000}).json()["items"]
    seq = {s["url"]: s["sequence"] for s in steps}
    page = tab.page
    page.goto(server + "/#plan?rite=shiguanli")
    tab.wait_rendered("plan")
    # the ground: its places, north up (the hall above the court, the court above the gate)
    keys = page.eval_on_selector_all("#plan-svg .feature", "fs => fs.map(f => f.dataset.key)")
    assert {"ground-tang", "ground-zuojie", "ground-xijie", "ground-ting", "ground-bei", "ground-xi", "ground-men"} <= set(keys)
    hall_y = float(page.get_attribute("#plan-svg [data-key=ground-tang]", "y"))
    gate_y = float(page.get_attribute("#plan-svg [data-key=ground-men]", "y"))
    assert hall_y < gate_y  # north is up: the hall is drawn above the gate
    # 入: the host inside the gate; 主人升: at the head of the east steps
    _slide(page, seq["/steps/shiguanli/shuzhu/44/2"])
    host = _host(page)
    assert host is not None and (host["place"], float(host["y"])) == ("門內", -2.6)
    _slide(page, seq["/steps/shiguanli/shuzhu/45/1"])
    host = _host(page)
    assert host is not None and (host["place"], float(host["x"]), float(host["y"])) == ("阼階上", 0.8, 0.08)
    assert (host["facing"], host["facingRule"]) == ("西面", "place")  # 阼階上 faces west (特牲 主人出立于阼階上西面)
    assert page.text_content("#plan-text") == "主人升"
    assert page.text_content("#plan-stage").endswith("迎賔")  # 楊復's stage of the step
    # a click on the host lists where he has been
    page.click('#plan-svg g.person[data-person="主人"]')
    history = page.eval_on_selector_all("#plan-history li", "lis => lis.map(li => li.textContent)")
    assert any("門東" in h for h in history) and "阼階上" in history[-1]
    shoot(tab, "plan")
    tab.assert_clean()


def _things(page: Any) -> dict[str, dict[str, str]]:
    return {
        f"{d['object']}@{d['place']}": d
        for d in page.eval_on_selector_all("#plan-svg g.furnishing", "gs => gs.map(g => ({...g.dataset}))")
    }


def test_the_plan_draws_the_vessels_and_mats_the_text_sets_out(tab: Tab, server: str) -> None:  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as api:
        steps = api.get("/steps", params={"rite": "shiguanli", "limit": 1000}).json()["items"]
    seq = {s["url"]: s["sequence"] for s in steps}
    page = tab.page
    page.goto(server + "/#plan?rite=shiguanli")
    tab.wait_rendered("plan")
    _slide(page, seq["/steps/shiguanli/shuzhu/6/1"] - 1)
    assert "席@門中闑西閾外" not in _things(page)  # not yet laid
    _slide(page, seq["/steps/shiguanli/shuzhu/6/1"])  # 布席於門中闑西閾外西面: the divination mat in the gate
    mat = _things(page)["席@門中闑西閾外"]
    assert (mat["kind"], float(mat["x"]), float(mat["y"]), mat["facing"]) == ("mat", 0.0, -3.0, "西面")
    _slide(page, seq["/steps/shiguanli/shuzhu/25/3"])  # 設洗直於東榮南北: the basin below the east eave
    basin = _things(page)["洗@東榮"]
    assert (basin["kind"], float(basin["x"]), float(basin["y"])) == ("vessel", 1.5, 0.0)
    drawn = page.eval_on_selector(
        '#plan-svg g.furnishing[data-object="洗"] rect', "r => [Number(r.getAttribute('x')), Number(r.getAttribute('y'))]"
    )
    assert drawn == [1.47, -0.03]  # centred on its point, north up (svg y = -y)
    _slide(page, seq["/steps/shiguanli/shuzhu/47/1"])  # 筵于東序少北西面: the capping mat
    assert _things(page)["筵@東序少北"]["facing"] == "西面"
    _slide(page, seq["/steps/shiguanli/shuzhu/59/1"])  # 徹皮弁冠櫛筵: cleared away
    assert "筵@東序少北" not in _things(page) and "洗@東榮" in _things(page)
    # 賔出 takes the guest off the plan; 賔禮辭 before any 入: he is drawn outside the gate
    guest = 'g.person[data-person="賔"]'
    with httpx.Client(base_url=server, timeout=30) as api:  # before it he is in the scene (賔降直西序東面: no point on the plan)
        before = api.get("/steps/shiguanli/shuzhu/69/3/scene").json()["persons"]
    assert [p["place"] for p in before if p["person"] == "賔"] == ["直西序"]
    _slide(page, seq["/steps/shiguanli/shuzhu/70/1"])
    assert page.eval_on_selector_all(f"#plan-svg {guest}", "gs => gs.length") == 0
    _slide(page, seq["/steps/shiguanli/shuzhu/71/2"])
    assert page.eval_on_selector(f"#plan-svg {guest}", "g => g.dataset.place") == "門外"
    tab.assert_clean()


def test_the_timeline_runs_by_yang_fus_stages_where_yilitu_covers_the_rite(tab: Tab, server: str) -> None:  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as api:
        stages = api.get("/stages", params={"rite": "shiguanli"}).json()
    page = tab.page
    page.goto(server + "/#timeline?rite=shiguanli")
    tab.wait_rendered("timeline")
    runs = page.eval_on_selector_all(
        "#timeline section.stage", "ss => ss.map(s => [s.dataset.stage, s.querySelector('li').dataset.url])"
    )
    # each stage heads the run that opens at its first step, in 楊復's order
    openings = [(st["title"], st["url"]) for st in stages]
    assert [r for r in runs if tuple(r) in set(map(tuple, openings))] == [list(o) for o in openings]
    assert runs[0] == ["筮于廟門", "/steps/shiguanli/shuzhu/2/1"]
    # 楊復 moves the 辭 of the 戒 into 戒賔: the stage heads a second run at the chapter's end
    assert sum(1 for title, _url in runs if title == "戒賔") >= 2
    # each step shows its phase beside it
    assert page.eval_on_selector_all("#timeline li .phase-tag", "ts => ts.length") > 300
    tab.assert_clean()


def test_the_plan_draws_the_things_set_relative_to_another(tab: Tab, server: str) -> None:  # noqa: F811
    """士冠禮 蒲筵二在南 (32/1), 側尊一甒醴在服北 (33/1): south and north of the clothes laid out in the 房
    (陳服於房中西墉下東領北上, 26/1), drawn from the step that sets them out."""
    with httpx.Client(base_url=server, timeout=30) as api:
        steps = api.get("/steps", params={"rite": "shiguanli", "limit": 1000}).json()["items"]
    seq = {s["url"]: s["sequence"] for s in steps}
    page = tab.page
    page.goto(server + "/#plan?rite=shiguanli")
    tab.wait_rendered("plan")
    _slide(page, seq["/steps/shiguanli/shuzhu/32/1"] - 1)
    assert "服@房中西墉下" in _things(page) and "蒲筵二@南" not in _things(page)
    _slide(page, seq["/steps/shiguanli/shuzhu/33/1"])
    things = _things(page)
    clothes, mats, jar = things["服@房中西墉下"], things["蒲筵二@南"], things["側尊一甒醴@服北"]
    assert (float(clothes["x"]), float(clothes["y"])) == (0.5, 1.5)
    assert (mats["kind"], float(mats["x"]), float(mats["y"])) == ("mat", 0.5, 1.35)
    assert (jar["kind"], float(jar["x"]), float(jar["y"])) == ("vessel", 0.5, 1.65)
    tab.assert_clean()


def test_at_the_guests_house_no_one_is_drawn_at_the_hosts_gate(tab: Tab, server: str) -> None:  # noqa: F811
    """士冠禮 乃宿賔 … 賔如主人服出門左 (18/2): host and guest meet at the guest's own gate, which is not on the
    host's plan: neither is drawn there, and the page lists where they are."""
    with httpx.Client(base_url=server, timeout=30) as api:
        steps = api.get("/steps", params={"rite": "shiguanli", "limit": 1000}).json()["items"]
    seq = {s["url"]: s["sequence"] for s in steps}
    page = tab.page
    page.goto(server + "/#plan?rite=shiguanli")
    tab.wait_rendered("plan")
    _slide(page, seq["/steps/shiguanli/shuzhu/18/2"])
    drawn = page.eval_on_selector_all("#plan-svg g.person", "gs => gs.map(g => g.dataset.person)")
    assert "賔" not in drawn and "主人" not in drawn
    away = page.eval_on_selector_all("#plan-elsewhere .elsewhere", "ss => ss.map(s => [s.dataset.person, s.dataset.place])")
    assert ["主人", "賔之家門外"] in away and ["賔", "賔之家門左"] in away
    _slide(page, seq["/steps/shiguanli/shuzhu/21/1"])  # 厥明夕為期於廟門之外: the host back at his temple's gate
    assert _host(page)["place"] == "廟門之外"
    assert "賔" not in page.eval_on_selector_all("#plan-elsewhere .elsewhere", "ss => ss.map(s => s.dataset.person)")
    tab.assert_clean()
