"""No leftovers (issue 28): ``serve INPUT`` removes its temporary store on SIGTERM, and the next start
removes one that a SIGKILL left; a build killed at any stage leaves a folder that is one build once
the next build has looked at it (graph/output.py), with no temporary file behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pyoxigraph
import pytest
from yili.graph.output import JOURNAL, STAGES, STOP_AT_ENVIRONMENT, leftovers, recover

from tests.conftest import shared_path

EXCERPT_EDITION = "https://w3id.org/yili-kg/text/yanli/shuzhu-excerpt"
XIANG_EDITION = "https://w3id.org/yili-kg/text/xiangyinjiuli/shuzhu"
FILES = ["graph.trig", "graph.ttl", "steps.jsonl", "store", "toasts.jsonl"]


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "yili.api.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def _editions(out: Path) -> dict[str, set[str]]:
    """The editions each part of a build folder holds (the files by their step records and RDF, the
    store by its named graphs' editions)."""
    found: dict[str, set[str]] = {}
    for name, field in (("steps.jsonl", "id"), ("toasts.jsonl", "step")):
        rows = [json.loads(line) for line in (out / name).read_text(encoding="utf-8").splitlines()]
        found[name] = {row[field].split("/step/")[1].rsplit("/", 2)[0] for row in rows}
    for name in ("graph.trig", "graph.ttl"):
        text = (out / name).read_text(encoding="utf-8")
        found[name] = {
            key for key in ("yanli/shuzhu-excerpt", "xiangyinjiuli/shuzhu") if f"/text/{key}>" in text or f"text:{key}" in text
        }
    store = pyoxigraph.Store.read_only(str(out / "store"))
    query = "SELECT DISTINCT ?e WHERE { GRAPH ?g { ?s <https://w3id.org/yili-kg/ontology#inEdition> ?e } }"
    found["store"] = {str(row["e"].value).split("/text/")[1] for row in store.query(query)}
    del store
    return found


def _one_build(out: Path, key: str) -> None:
    assert sorted(p.name for p in out.iterdir()) == FILES
    assert leftovers(out) == []
    assert _editions(out) == {name: {key} for name in ("steps.jsonl", "toasts.jsonl", "graph.trig", "graph.ttl", "store")}


@pytest.fixture(scope="module")
def last_build(tmp_path_factory) -> Path:
    """A build of the excerpt: the folder a killed build finds."""
    out = tmp_path_factory.mktemp("last") / "out"
    proc = _cli("build", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    _one_build(out, "yanli/shuzhu-excerpt")
    return out


@pytest.mark.parametrize("stage", STAGES)
def test_a_build_killed_at_any_stage_leaves_one_build_after_the_next(last_build, tmp_path, stage) -> None:
    out = tmp_path / "out"
    shutil.copytree(last_build, out)
    chapter = shared_path("corpus", "yili_shuzhu_04_xiangyinjiuli.kanripo.txt")
    killed = _cli("build", str(chapter), "--out", str(out), env={STOP_AT_ENVIRONMENT: stage})
    assert killed.returncode == -signal.SIGKILL
    left = leftovers(out)
    assert left, "a killed build leaves temporaries (or its journal) behind"
    assert (JOURNAL in left) == (stage != "temporaries")
    # what the next build does first: the killed build is finished if it had begun its renames,
    # else forgotten; either way the folder is one build, whole
    recover(out)
    _one_build(out, "yanli/shuzhu-excerpt" if stage == "temporaries" else "xiangyinjiuli/shuzhu")
    # and the next build itself
    again = _cli("build", "--out", str(out))
    assert again.returncode == 0, again.stderr
    _one_build(out, "yanli/shuzhu-excerpt")


def test_a_killed_builds_temporaries_are_removed_by_the_next_build(last_build, tmp_path) -> None:
    out = tmp_path / "out"
    shutil.copytree(last_build, out)
    killed = _cli("build", "--out", str(out), env={STOP_AT_ENVIRONMENT: "temporaries"})
    assert killed.returncode == -signal.SIGKILL
    assert sorted(name.split(".")[1] for name in leftovers(out)) == ["graph", "graph", "steps", "store", "toasts"]
    assert _cli("build", "--out", str(out)).returncode == 0
    _one_build(out, "yanli/shuzhu-excerpt")


# --------------------------------------------------------------------------------------------------
# serve INPUT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(temp: Path) -> tuple[subprocess.Popen[str], int]:
    port = _free_port()
    excerpt = shared_path("corpus", "yili_shuzhu_yanli_excerpt.txt")
    command = [sys.executable, "-m", "yili.api.cli", "serve", str(excerpt), "--port", str(port)]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(temp)}
    )
    deadline = time.monotonic() + 120
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        while True:
            try:
                answer = client.get("/sparql", params={"query": "ASK { ?s ?p ?o }"})  # the workers open the store
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "the server did not start in 120 s"
                time.sleep(0.2)
    assert answer.json()["boolean"] is True
    return server, port


def _stores(temp: Path) -> list[str]:
    return sorted(p.name for p in temp.glob("yili-kg-store-*"))


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="Linux signals")
def test_serve_input_removes_its_store_on_sigterm_and_the_next_start_one_a_sigkill_left(tmp_path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    server, _ = _serve(temp)
    try:
        (mine,) = _stores(temp)
        assert (temp / mine / "owner.pid").read_text() == str(server.pid)
        assert (temp / mine / "store" / "CURRENT").is_file()
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=60)
    assert status == 128 + signal.SIGTERM, server.stderr.read() if server.stderr else ""
    assert server.stderr is not None and "Traceback" not in server.stderr.read()
    assert _stores(temp) == []

    killed, _ = _serve(temp)
    (left,) = _stores(temp)
    killed.kill()
    killed.wait(timeout=60)
    assert _stores(temp) == [left]  # SIGKILL: nothing could run
    server, _ = _serve(temp)
    try:
        (mine,) = _stores(temp)  # the dead one's is gone
        assert mine != left
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    assert _stores(temp) == []
