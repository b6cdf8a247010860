"""Shared fixtures: the excerpt is read, extracted and built once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from yili.ingest.document import Document, load_default
from yili.ingest.pipeline import Extraction, Extractor

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ``../shared`` (gold annotations, corpus).  If it is absent the test is skipped on
    a developer's machine, but fails under ``.ci/run`` (``YILI_REQUIRE_SHARED=1``): CI must not pass
    by skipping the gold and corpus tests."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        if os.environ.get("YILI_REQUIRE_SHARED"):
            pytest.fail(f"{p} is missing: CI needs ../shared (gold and corpus) beside the repository")
        pytest.skip(f"{p} is not available beside the repository")
    return p


def system_tool(name: str) -> str:
    """The path of a Debian-installed program the test needs (``dot``, ``chromium``).  Absent, the test
    is skipped on a developer's machine but fails under ``.ci/run`` (``YILI_REQUIRE_BROWSER=1``), which
    installs Graphviz and Chromium itself."""
    import shutil

    found = shutil.which(name)
    if found is None:
        if os.environ.get("YILI_REQUIRE_BROWSER"):
            pytest.fail(f"{name} is not installed: .ci/run installs it with apt-get")
        pytest.skip(f"{name} is not installed (apt-get install graphviz chromium fonts-noto-cjk)")
    return found


@pytest.fixture(scope="session")
def extractor() -> Extractor:
    return Extractor()


@pytest.fixture(scope="session")
def vocabulary(extractor: Extractor):
    return extractor.vocabulary


@pytest.fixture(scope="session")
def document() -> Document:
    return load_default()


@pytest.fixture(scope="session")
def extraction(extractor: Extractor, document: Document) -> Extraction:
    return extractor.extract(document)


@pytest.fixture(scope="session")
def dataset(extraction: Extraction):
    from yili.graph.build import build_dataset

    return build_dataset([extraction])


@pytest.fixture(scope="session")
def union(dataset):
    from yili.graph.build import union_graph

    return union_graph(dataset)


@pytest.fixture(scope="session")
def service(extraction: Extraction):
    from yili.api.service import service_from_extractions

    return service_from_extractions([extraction])


@pytest.fixture(scope="session")
def client(service):
    from fastapi.testclient import TestClient
    from yili.api.app import create_app

    return TestClient(create_app(service))


def step_at(extraction: Extraction, text: str, block: int | None = None):
    """The first step whose text is ``text`` (in ``block`` if given)."""
    for s in extraction.steps:
        if s.text == text and (block is None or s.block == block):
            return s
    raise AssertionError(f"no step {text!r}" + (f" in block {block}" if block else ""))


def extract_text(extractor: Extractor, text: str, rite: str | None = "yanli"):
    """Extract a small text written for a test (one classic block per paragraph)."""
    from yili.ingest.document import parse_text

    return extractor.extract(parse_text("测试\n\n" + text, source="<test>", edition="test"), rite=rite)


@pytest.fixture(scope="session")
def package_extractions(extractor: Extractor, extraction: Extraction) -> dict[tuple[str, str], Extraction]:
    """The texts in the package, each extracted once per session: the 燕禮 excerpt and the 13 chapters of the
    儀禮述註 (``ingest/data/kanripo``), by (rite, edition)."""
    from yili.api.default_corpus import embedded_corpus
    from yili.ingest.document import read_file

    out = {(extraction.document.rite, extraction.document.edition): extraction}
    for p in embedded_corpus():
        e = extractor.extract(read_file(p))
        out[(e.document.rite, e.document.edition)] = e
    return out
