"""Benchmark: extraction, graph build, store load and query speed, and memory, in one run.

Numbers on these machines are noisy, so the interesting outputs are ratios measured in the same
run (Oxigraph vs rdflib on the same query; the whole corpus vs the excerpt).  Run with
``make bench`` (or ``.venv/bin/python benchmarks/bench.py``).
"""

from __future__ import annotations

import resource
import statistics
import time
import tracemalloc
from pathlib import Path

from yili.graph.build import build_dataset, build_store, union_graph
from yili.graph.queries import GraphQueries, OxigraphBackend
from yili.ingest.document import load_default, parse_text, read_file
from yili.ingest.pipeline import Extractor

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

WHO = """PREFIX yk: <https://w3id.org/yili-kg/ontology#>
SELECT ?seq ?g ?t ?r WHERE { ?s a yk:Toast ; yk:sequence ?seq ; yk:giverLabel ?g ; yk:toastTypeLabel ?t ;
yk:receiverLabel ?r } ORDER BY ?seq"""
HEAVY = """PREFIX yk: <https://w3id.org/yili-kg/ontology#>
SELECT ?a (COUNT(*) AS ?n) WHERE { ?s yk:agent ?a ; yk:next ?n1 . ?n1 yk:agent ?b . FILTER(?a != ?b) } GROUP BY ?a"""


def timed(fn, repeat: int = 5):  # type: ignore[no-untyped-def]
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    t0 = time.perf_counter()
    extractor = Extractor()
    t_init = time.perf_counter() - t0
    doc = load_default()
    t_extract, ex = timed(lambda: extractor.extract(doc))
    chars = sum(len(b.classic.text) for b in doc.blocks)
    t_build, store = timed(lambda: build_store([ex]), 3)
    t_rdflib, ds = timed(lambda: build_dataset([ex]), 3)
    graph = union_graph(ds)
    print(f"excerpt: {len(doc.blocks)} blocks, {chars} classic characters, {len(ex.steps)} steps, {len(store)} triples")
    print(f"  vocabulary + jieba dictionary: {t_init * 1000:.0f} ms (once per process)")
    print(f"  extraction: {t_extract * 1000:.0f} ms = {chars / t_extract:,.0f} classic characters/s")
    print(f"  graph build into Oxigraph: {t_build * 1000:.0f} ms; the same as an rdflib Dataset: {t_rdflib * 1000:.0f} ms")

    for name, q in (("who toasts whom", WHO), ("agent changes between consecutive steps", HEAVY)):
        t_ox, _ = timed(lambda q=q: list(store.query(q, use_default_graph_as_union=True)), 7)
        t_rdf, _ = timed(lambda q=q: list(graph.query(q)), 3)
        print(
            f"  query '{name}': Oxigraph {t_ox * 1000:.1f} ms, rdflib {t_rdf * 1000:.1f} ms -> "
            f"Oxigraph is {t_rdf / t_ox:.1f}x faster"
        )

    queries = GraphQueries(OxigraphBackend(store), extractor.vocabulary)
    t_rest, rows = timed(lambda: queries.toasts(receiver="賓"), 20)
    t_page, _ = timed(lambda: queries.steps(vessel="爵", limit=50), 20)
    print(f"  REST /toasts?receiver=賓 lookup: {t_rest * 1000:.2f} ms ({len(rows)} rows); /steps page: {t_page * 1000:.2f} ms")

    files = sorted(p for p in CORPUS.glob("*") if p.suffix in (".txt", ".xml")) if CORPUS.is_dir() else []
    if files:
        docs = [read_file(p) for p in files]
        all_chars = sum(len(b.classic.reading_text) for d in docs for b in d.blocks)
        t_all, exs = timed(lambda: [extractor.extract(d) for d in docs], 3)
        tracemalloc.start()
        t0 = time.perf_counter()
        store_all = build_store(exs)
        t_store_all = time.perf_counter() - t0
        _cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"corpus: {len(docs)} files, {all_chars} classic characters, {sum(len(e.steps) for e in exs)} steps, "
            f"{len(store_all)} triples"
        )
        print(
            f"  extraction {t_all * 1000:.0f} ms = {all_chars / t_all:,.0f} chars/s; "
            f"throughput ratio corpus/excerpt = {(all_chars / t_all) / (chars / t_extract):.2f}"
        )
        print(
            f"  graph build {t_store_all:.2f} s (traced by tracemalloc, so slower); Python heap peak "
            f"{peak / 2**20:.1f} MiB ({peak / len(store_all):.0f} bytes per triple, Oxigraph's own memory aside)"
        )
    # scaling: the excerpt's classic blocks repeated 40 times; time per character should stay flat
    body = doc.text.split("\n\n", 1)[1]
    big = parse_text(doc.text + ("\n\n" + body) * 39, source="<excerpt x40>")
    t_big, big_ex = timed(lambda: extractor.extract(big), 1)
    big_chars = sum(len(b.classic.text) for b in big.blocks)
    print(
        f"scaling: excerpt x40 = {big_chars} classic characters, {len(big_ex.steps)} steps in {t_big:.2f} s; "
        f"time per character x40 / x1 = {(t_big / big_chars) / (t_extract / chars):.2f}"
    )
    print(f"max resident set size of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    whole_corpus()


def whole_corpus() -> None:
    """`yili-kg build ../shared/corpus/kanripo/` (three editions, 13 rites) with --jobs 1 and --jobs 2,
    each in a process of its own: wall time, peak memory (max RSS of the child), and the speed-up."""
    import subprocess
    import sys
    import tempfile

    kanripo = CORPUS / "kanripo"
    if not kanripo.is_dir():
        return
    size = sum(p.stat().st_size for p in kanripo.rglob("*.txt"))
    runs = {}
    for jobs in (1, 2):
        with tempfile.TemporaryDirectory() as out:
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            t0 = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "yili.api.cli", "build", str(kanripo), "--out", out, "--jobs", str(jobs)],
                capture_output=True,
                text=True,
            )
            seconds = time.perf_counter() - t0
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            if proc.returncode != 0:
                print(f"whole corpus --jobs {jobs}: failed: {proc.stderr.strip().splitlines()[-1:]}")
                return
            runs[jobs] = seconds
            print(
                f"whole corpus (kanripo, {size / 2**20:.1f} MiB of text) --jobs {jobs}: {seconds:.1f} s, "
                f"{size / 2**20 / seconds:.2f} MiB/s; {proc.stdout.splitlines()[0].split(': ', 1)[1]}; "
                f"max RSS of the children so far {max(rss, before) / 1024:.0f} MiB"
            )
    print(f"  speed-up of --jobs 2 over --jobs 1: {runs[1] / runs[2]:.2f}x (extraction is the part spread; the store is filled in one process)")


if __name__ == "__main__":
    main()
