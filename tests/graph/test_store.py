"""The on-disk store: ``yili-kg build`` writes it, ``serve --store`` opens it read-only, and the API
over it answers what the API over the in-memory store answers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pyoxigraph
import pytest
from yili.api.cli import main
from yili.graph.store import open_store, write_store
from yili.ontology.errors import InputError


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    assert main(["build", "--out", str(out)]) == 0
    return out


def test_build_writes_a_store_with_the_graph_of_the_trig(built):
    store = open_store(built / "store")
    trig = pyoxigraph.Store()
    trig.load(path=str(built / "graph.trig"), format=pyoxigraph.RdfFormat.TRIG)
    assert len(store) == len(trig) == 40156
    assert sorted(str(g) for g in store.named_graphs()) == [
        "<https://w3id.org/yili-kg/graph/vocabulary>",
        "<https://w3id.org/yili-kg/graph/yanli/shuzhu-excerpt>",
    ]
    assert open_store(built).named_graphs  # the build folder itself names its store


def test_a_read_only_store_refuses_writes(built):
    store = open_store(built / "store")
    with pytest.raises(RuntimeError, match="only possible on read-write instances"):
        store.add(
            pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("o"))
        )


def test_the_api_over_the_store_answers_as_over_memory(built, client):
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_store

    service = service_from_store(built / "store")
    assert service.store_path == str((built / "store").resolve())
    assert (service.summary["steps"], service.summary["toasts"], service.summary["triples"]) == (612, 26, 40156)
    over_disk = TestClient(create_app(service))
    for url in ("/toasts?giver=主人", "/steps?limit=5&offset=60", "/steps/yanli/shuzhu-excerpt/24/1", "/phases", "/rites"):
        assert over_disk.get(url).json() == client.get(url).json(), url


def test_store_folders_that_are_not_stores_are_named(tmp_path):
    with pytest.raises(InputError, match=r"nowhere: no such store folder"):
        open_store(tmp_path / "nowhere")
    (tmp_path / "plain").mkdir()
    with pytest.raises(InputError, match=r"plain: not an Oxigraph store folder"):
        open_store(tmp_path / "plain")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match=r"file: exists and is not an Oxigraph store"):
        write_store(pyoxigraph.Store(), tmp_path / "file")
    assert (tmp_path / "file").read_text() == "x"  # nothing lost


def test_rewriting_a_store_replaces_it_whole(tmp_path):
    q = pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("o"))
    one = pyoxigraph.Store()
    one.add(q)
    assert write_store(one, tmp_path / "store") == 1
    two = pyoxigraph.Store()
    two.add(pyoxigraph.Quad(q.subject, q.predicate, pyoxigraph.Literal("other")))
    two.add(pyoxigraph.Quad(q.subject, q.predicate, pyoxigraph.Literal("third")))
    assert write_store(two, tmp_path / "store") == 2
    assert sorted(str(x.object) for x in open_store(tmp_path / "store")) == ['"other"', '"third"']
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]  # no temporary folder left


def test_an_interrupted_store_write_leaves_the_old_store_and_no_temporary_folder(tmp_path):
    """Ctrl-C while the store is written (a build of a long text spends seconds there): the half
    written store is removed and the old one is kept as it was."""
    q = pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("old"))
    one = pyoxigraph.Store()
    one.add(q)
    write_store(one, tmp_path / "store")

    def interrupted():  # bulk_extend reads the quads: the user presses Ctrl-C meanwhile
        yield q
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_store(interrupted(), tmp_path / "store")  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]
    assert [str(x.object) for x in open_store(tmp_path / "store")] == ['"old"']


def test_serve_names_a_bad_store_in_one_line(tmp_path, capsys):
    assert main(["serve", "--store", str(tmp_path), "--port", "1"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"yili-kg: error: {tmp_path}: not an Oxigraph store folder (yili-kg build --out DIR writes DIR/store)"
    )


def test_serve_refuses_texts_with_a_built_graph(tmp_path, capsys):
    """serve --store DIR FILE used to serve DIR and drop FILE without a word."""
    assert main(["serve", "--store", str(tmp_path), "text.txt", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "yili-kg: error: INPUT is read when the graph is built; with --store the built graph is served as it is: "
        "give the texts to `yili-kg build` (or serve them without --graph/--store)"
    )
    assert main(["serve", "--graph", str(tmp_path / "g.trig"), "--vocab", "v.ttl", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip().startswith("yili-kg: error: --vocab is read when the graph is built; with --graph")


def test_serve_from_several_processes_needs_a_store(capsys):
    assert main(["serve", "--excerpt", "--processes", "2", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "yili-kg: error: --processes 2 needs --store DIR: the processes share a store built by `yili-kg build` "
        "(serve the excerpt or --graph from one process)"
    )
    for bad, why in (("0", "must be from 1 to 64, not 0"), ("two", "must be a whole number of processes, not 'two'")):
        with pytest.raises(SystemExit) as stop:
            main(["serve", "--store", "x", "--processes", bad])
        assert stop.value.code == 2
        assert capsys.readouterr().err.strip().endswith(f"argument --processes: {why}")


def test_front_app_is_only_made_by_serve(monkeypatch):
    from yili.api.cli import front_app

    monkeypatch.delenv("YILI_KG_SERVE_FRONT", raising=False)
    with pytest.raises(InputError, match="front_app serves `yili-kg serve --processes N`; YILI_KG_SERVE_FRONT is not set"):
        front_app()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return sorted(found)


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="watches processes through Linux's /proc")
def test_serve_from_two_processes_answers_rest_and_sparql_and_stops_whole(built):
    """``serve --store DIR --processes 2``: one supervisor holding no graph, two serving processes,
    each with its own SPARQL workers; SIGTERM stops every one of them."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "yili.api.cli", "serve", "--store", str(built), "--port", str(port), "--processes", "2"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            deadline = time.monotonic() + 60
            while True:
                try:
                    toasts = client.get("/toasts", params={"giver": "主人", "limit": 1})
                    break
                except httpx.TransportError:
                    assert server.poll() is None, server.stderr.read() if server.stderr else ""
                    assert time.monotonic() < deadline, "the server did not start in 60 s"
                    time.sleep(0.2)
            assert toasts.status_code == 200
            first = toasts.json()["items"][0]
            assert (first["giver"], first["receiver"], first["type"], first["text"]) == ("主人", "賔", "献", "主人筵前献賔")
            query = "PREFIX yk: <https://w3id.org/yili-kg/ontology#> SELECT (COUNT(*) AS ?n) WHERE { ?t a yk:Toast }"
            for _ in range(4):  # each process evaluates it in a worker once, then answers it from its cache
                answer = client.get("/sparql", params={"query": query}, headers={"Accept": "text/csv"})
                assert answer.text.splitlines() == ["n", "26"]
        # the supervisor (this very process, become uvicorn's) holds no graph; two processes serve
        fronts = [pid for pid in _children(server.pid) if "resource_tracker" not in _command(pid)]
        assert len(fronts) == 2
        assert "uvicorn yili.api.cli:front_app --factory --workers 2" in _command(server.pid)
        everyone = [server.pid, *fronts, *(w for f in fronts for w in _children(f))]
        workers = [w for f in fronts for w in _children(f)]
        # two SPARQL workers (pebble's, started at a process's first query) under each serving process
        # that got one: the queries above may all have gone to one of them (one kept-alive connection)
        assert len(workers) in (2, 4) and all(len(_children(f)) in (0, 2) for f in fronts), {f: _children(f) for f in fronts}
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert server.stdout is not None
    printed = server.stdout.read().splitlines()
    assert printed[0].startswith(f"yili-kg: serving {built} from 2 processes on http://127.0.0.1:{port}")
    ready = sorted(line.split(" ready: ")[1] for line in printed[1:] if " ready: " in line)
    assert ready == ["612 steps, 26 toasts, 40156 triples"] * 2  # one line from each serving process

    def gone(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            return True

    deadline = time.monotonic() + 10  # a worker whose server is gone ends itself within a second
    while not all(gone(pid) for pid in everyone) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in everyone if not gone(pid)] == []


def test_a_serving_process_that_cannot_open_the_store_stops_them_all_in_one_line(tmp_path):
    """The store moved or deleted between ``serve``'s check and a process's start: each process names
    it in one line and the supervisor stops, instead of restarting processes that cannot serve."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    gone = tmp_path / "gone"
    environment = {**os.environ, "YILI_KG_SERVE_FRONT": json.dumps({"store": str(gone), "base": None, "processes": 2})}
    command = [sys.executable, "-m", "uvicorn", "yili.api.cli:front_app", "--factory", "--workers", "2", "--port", str(port)]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
    lines = [line for line in done.stderr.splitlines() if line.startswith("yili-kg")]
    assert lines and set(lines) == {f"yili-kg: error: {gone}: no such store folder (yili-kg build --out DIR writes DIR/store)"}
    assert "Traceback" not in done.stderr


def test_the_address_printed_brackets_an_ipv6_host():
    from yili.api.cli import address_url

    assert address_url("::1", 8862) == "http://[::1]:8862"  # RFC 3986: a bare ::1:8862 is no URL
    assert address_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
