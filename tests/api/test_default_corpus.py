"""The default of ``yili-kg serve``: the 13 rites of the 儀禮述註 shipped in the package, built once
into a cache keyed by the texts' and the package's hashes (yili.api.default_corpus)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from conftest import shared_path
from yili.api import default_corpus
from yili.api.default_corpus import cache_key, cache_root, cached_build, embedded_corpus
from yili.graph.store import open_store

CHAPTERS = ["001", "003", "004", "005", "008", "009", "010", "011", "012", "013", "014", "015", "017"]


def test_the_package_ships_the_13_rites_of_the_shuzhu_unchanged():
    files = embedded_corpus()
    assert [f.name for f in files] == [f"KR1d0040_{n}.txt" for n in CHAPTERS]
    shared = shared_path("corpus", "kanripo", "KR1d0040")
    for f in files:
        assert hashlib.sha256(f.read_bytes()).digest() == hashlib.sha256((shared / f.name).read_bytes()).digest(), f.name
    # the front and back matter (提要, 跋) are not shipped
    assert not (files[0].parent / "KR1d0040_000.txt").exists() and not (files[0].parent / "KR1d0040_018.txt").exists()
    credits = (files[0].parent.parent / "SOURCES.md").read_text(encoding="utf-8")
    assert "Kanseki Repository" in credits and "0c4df1f2746f82b4440d8fbb9ac6294062b93613" in credits and "CC BY-SA 4.0" in credits


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("YILI_KG_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "yili-kg"
    monkeypatch.setenv("YILI_KG_CACHE", str(tmp_path / "mine"))
    assert cache_root() == tmp_path / "mine"
    monkeypatch.delenv("YILI_KG_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "yili-kg"


def test_a_build_is_reused_by_its_key_and_a_changed_text_or_package_builds_again(tmp_path, monkeypatch):
    """Two small chapters (士相見禮, 覲禮): built once, found again by the hash of the texts and the
    package, built again when a text or the package changes; the old build goes."""
    texts = tmp_path / "texts"
    texts.mkdir()
    for n in ("003", "010"):
        shutil.copy(embedded_corpus()[CHAPTERS.index(n)], texts / f"KR1d0040_{n}.txt")
    files = sorted(texts.iterdir())
    root = tmp_path / "cache"
    first = cached_build(files, root=root, jobs=1)
    assert not first.reused
    assert first.folder == root / cache_key(files, extra="\0\0" + "0")
    assert [(r["rite"], r["hant"], r["steps"], r["toasts"]) for r in first.summary["rites"]] == [
        ("shixiangjianli", "士相見禮", 185, 1),
        ("jinli", "覲禮", 152, 3),
    ]
    store = open_store(first.store)
    assert len(store) == first.summary["triples"]
    del store
    assert json.loads((first.folder / "summary.json").read_text(encoding="utf-8")) == first.summary

    again = cached_build(files, root=root, jobs=1)
    assert again.reused and again.folder == first.folder and again.summary == first.summary

    # a changed text: another key, a new build, and the old one removed
    files[1].write_text(files[1].read_text(encoding="utf-8") + "\n", encoding="utf-8")
    third = cached_build(files, root=root, jobs=1)
    assert not third.reused and third.folder != first.folder
    assert sorted(p.name for p in root.iterdir()) == [third.folder.name]

    # a changed package (code or vocabulary): another key too
    monkeypatch.setattr(default_corpus, "package_digest", lambda: "another package")
    fourth = cached_build(files, root=root, jobs=1)
    assert not fourth.reused and fourth.folder != third.folder
    assert sorted(p.name for p in root.iterdir()) == [fourth.folder.name]


def test_the_package_digest_covers_code_and_vocabulary():
    from yili.api.default_corpus import package_digest

    assert len(package_digest()) == 64 and package_digest() == package_digest()


def test_the_package_digest_covers_the_zhushu_models(monkeypatch):
    """The 注疏 reader's shipped models (``ingest/data/zhushu_bigrams.json``) decide its cuts, so a new
    model is a new build: without the ``.json`` files the digest is another."""
    from yili.api import default_corpus

    with_models = default_corpus.package_digest()
    monkeypatch.setattr(default_corpus, "_PACKAGE_SUFFIXES", tuple(s for s in default_corpus._PACKAGE_SUFFIXES if s != ".json"))
    assert default_corpus.package_digest() != with_models


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(cache: Path, port: int) -> tuple[subprocess.Popen[str], list[str], float]:
    """Start ``yili-kg serve`` (no input) and read its standard output until it is ready."""
    env = {**os.environ, "YILI_KG_CACHE": str(cache)}
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "yili.api.cli", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if "serving on" in line:
            return proc, lines, time.monotonic() - t0
    proc.wait()
    raise AssertionError(f"serve stopped: {lines} {proc.stderr.read() if proc.stderr else ''}")


def test_make_serve_builds_the_13_rites_once_then_starts_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    port = _free_port()
    proc, lines, _ = _serve(cache, port)
    try:
        rites = [line for line in lines if line.startswith("  ")]
        assert len(rites) == 13
        assert rites[0] == "  士冠禮 (shiguanli, shuzhu): 350 steps, 13 toasts"
        assert "  鄉射禮 (xiangsheli, shuzhu): 1679 steps, 26 toasts" in rites
        assert rites[-1] == "  有司徹 (yousiche, shuzhu): 1309 steps, 55 toasts"
        assert lines[1].startswith("yili-kg: serving 13 editions (built in ")
        assert lines[-1].startswith("yili-kg: 9120 steps, 204 toasts, ")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            page = client.get("/toasts", params={"rite": "鄉射禮", "limit": 1}).json()
            assert page["total"] == 26
            first = page["items"][0]
            assert (first["giver"], first["type"], first["receiver"], first["text"]) == ("主人", "獻", "賓", "賔席之前西北面獻賓")
            assert first["url"] == "/steps/xiangsheli/shuzhu/30/4"
            assert len(client.get("/rites").json()) == 13
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    proc, lines, seconds = _serve(cache, port)
    try:
        assert lines[1].startswith(f"yili-kg: serving 13 editions (reused, {cache}/")
        assert seconds < 30  # the issue asks under 10 s; a loaded test machine gets some room
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            assert client.get("/toasts", params={"rite": "鄉射", "limit": 1}).json()["total"] == 26
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_excerpt_and_corpus_are_options_of_serve(capsys):
    from yili.api.cli import main

    assert main(["serve", "--excerpt", "--corpus", "x", "--port", "1"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "yili-kg: error: give one of --graph FILE, --store DIR, --corpus DIR, --excerpt, --endpoint URL, not --corpus and --excerpt"
    )
    assert main(["serve", "--excerpt", "some.txt", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == "yili-kg: error: give INPUT files or --excerpt, not both"
    assert main(["serve", "--corpus", "/nonexistent/folder", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == "yili-kg: error: --corpus /nonexistent/folder: no such folder"
