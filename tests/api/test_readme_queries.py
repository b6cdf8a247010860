"""Every SPARQL query of the README answers, on the inputs the README names, exactly the rows it prints."""

from __future__ import annotations

import re
from pathlib import Path

import pyoxigraph
import pytest
from conftest import shared_path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")

# the section each query is in -> the inputs its text names (None: the embedded excerpt)
INPUTS = {
    "SPARQL: who toasts whom": [None],  # `make serve` serves the excerpt
    "SPARQL: what one rite has that another lacks": ["yili_shuzhu_yanli_excerpt.txt", "yili_shuzhu_04_xiangyinjiuli.kanripo.txt"],
    "Provenance: what you queried": [None],  # "On the embedded excerpt that gives"
    "The commentary as data: who says it, what it glosses, which readings, what it cites": [
        "kanripo/KR1d0040/KR1d0040_015.txt",
        "kanripo/KR1d0028/KR1d0028_015.txt",
        "kanripo/KR1d0026/KR1d0026_015.txt",
    ],
    "Why the graph says so: the note a rule read": [
        "kanripo/KR1d0040/KR1d0040_001.txt",
        "kanripo/KR1d0040/KR1d0040_008.txt",
        "kanripo/KR1d0040/KR1d0040_015.txt",
    ],
    "How it is built": [None],  # the deciding rules: "On the embedded excerpt that gives"
}


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """The fenced code blocks of a Markdown text, in order: (info string, content)."""
    blocks, info, lines = [], None, []
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if info is None:
                info, lines = line[3:].strip(), []
            else:
                blocks.append((info, "".join(lines)))
                info = None
        elif info is not None:
            lines.append(line)
    return blocks


def readme_examples() -> list[tuple[str, str, str]]:
    """(section title, query, the CSV printed after it) for each ```sparql block of the README: the
    printed rows are the first block with no info string that follows the query in its section."""
    out = []
    for section in re.split(r"^## ", README, flags=re.M)[1:]:
        title = section.splitlines()[0].strip()
        blocks = fenced_blocks(section)
        for i, (info, query) in enumerate(blocks):
            if info == "sparql":
                printed = next((body for kind, body in blocks[i + 1 :] if kind == ""), None)
                assert printed is not None, f"README section {title!r}: no output printed after its query"
                out.append((title, query, printed))
    return out


EXAMPLES = readme_examples()


def test_every_readme_query_is_checked():
    assert [t for t, _q, _p in EXAMPLES] == list(INPUTS)


@pytest.fixture(scope="module")
def stores(extractor, extraction):
    from yili.graph.build import build_store
    from yili.ingest.document import read_file

    cache: dict[tuple, pyoxigraph.Store] = {}

    def store(inputs):
        key = tuple(inputs)
        if key not in cache:
            extractions = [
                extraction
                if f is None or f == "yili_shuzhu_yanli_excerpt.txt"
                else extractor.extract(read_file(shared_path("corpus", f)))
                for f in inputs
            ]
            cache[key] = build_store(extractions)
        return cache[key]

    return store


@pytest.mark.parametrize(("title", "query", "printed"), EXAMPLES, ids=[t for t, _q, _p in EXAMPLES])
def test_the_readme_query_returns_the_rows_it_prints(stores, title, query, printed):
    store = stores(INPUTS[title])
    result = store.query(query, use_default_graph_as_union=True)
    csv = result.serialize(format=pyoxigraph.QueryResultsFormat.CSV).decode("utf-8")
    assert csv.replace("\r\n", "\n").splitlines() == printed.splitlines()
