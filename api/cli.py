"""The ``yili-kg`` command: build, inspect, score, validate and serve the graph.

Every user error (a missing file, a file that is not UTF-8, an empty file, a file with no classic
text, a malformed vocabulary or graph) ends with one line ``yili-kg: error: <file>: <problem>`` on
standard error and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from yili.ontology.errors import InputError, YiliError
from yili.ontology.version import software_version

# nothing heavier at the top: a SPARQL worker process (``spawn``) imports this module again as the
# server's main module, and should hold the store and the evaluator alone (see yili.api.sparql_eval)

EXIT_USAGE = 2


def _documents(inputs: Sequence[str]):  # type: ignore[no-untyped-def]
    """Read the inputs (default: the embedded excerpt).

    Raises
    ------
    InputError
        A file cannot be read, or two inputs would mint the same IRIs (the same file twice, or two
        files whose names give the same rite and edition keys).
    """
    from yili.ingest.document import load_default, read_file

    if not inputs:
        return [load_default()]
    seen: dict[tuple[str, str], str] = {}
    docs = []
    for p in _expand(inputs):
        try:
            doc = read_file(p)
        except InputError as exc:
            if p in _FOUND_IN_FOLDER and "no classic text" in exc.message:
                _front_matter_note(p)
                continue
            raise
        key = (doc.rite, doc.edition)
        if key in seen:
            same = Path(seen[key]).resolve() == Path(p).resolve()
            why = (
                "is given twice" if same else f"and {seen[key]} are the same edition of the same rite ({doc.rite}/{doc.edition})"
            )
            raise InputError(f"{p}: {why}, and would mint the same IRIs; give each edition of a rite once")
        seen[key] = p
        docs.append(doc)
    return docs


_FOUND_IN_FOLDER: set[str] = set()
"""The input files :func:`_expand` found in a folder given as INPUT (not named one by one): such a
file with no classic text of a rite (front or back matter: 提要, 序, 跋) is left out with a one-line
note, while a file named on the command line is refused (exit 2)."""


def _expand(inputs: Sequence[str]) -> list[str]:
    """The input files: a folder stands for its text files (``*.txt``, ``*.xml``, in its subfolders
    too), in path order; those are also recorded in :data:`_FOUND_IN_FOLDER`."""
    files: list[str] = []
    for p in inputs:
        if not p.strip():
            raise InputError(f"INPUT {p!r}: an empty file name; give a text file or a folder of them")
        path = Path(p)
        if path.is_dir():
            found = sorted(str(f) for f in path.rglob("*") if f.is_file() and f.suffix in (".txt", ".xml"))
            if not found:
                raise InputError(f"{path}: no text file (*.txt, *.xml) in the folder")
            files.extend(found)
            _FOUND_IN_FOLDER.update(found)
        else:
            files.append(p)
    return files


def _front_matter_note(path: str) -> None:
    """Say, in one line on standard error, that a file among others was left out as front matter."""
    print(f"yili-kg: note: {path}: no ritual act in it (front or back matter: 提要, 序, 跋); left out", file=sys.stderr)


_WORKER: dict[str, object] = {}


def _worker_init(vocab: Sequence[str]) -> None:
    """In a worker process: compile the vocabulary once."""
    from yili.ingest.pipeline import Extractor

    _WORKER["extractor"] = Extractor(extra_vocabulary=vocab)


def _worker_extract(job: tuple[object, str | None]):  # type: ignore[no-untyped-def]
    """In a worker process: extract one document, timed."""
    document, rite = job
    t0 = time.perf_counter()
    e = _WORKER["extractor"].extract(document, rite=rite)  # type: ignore[attr-defined]
    return replace(e, seconds=time.perf_counter() - t0)


def _extractions(extractor, docs, rite: str | None, vocab: Sequence[str], jobs: int | None):  # type: ignore[no-untyped-def]
    """Extract the documents in order: in ``jobs`` processes when there are several (the same
    extractions, in the same order, as in one), with a progress bar when standard error is a terminal."""
    from tqdm import tqdm

    n = min(jobs or os.cpu_count() or 1, len(docs))
    # kept on the terminal when done (leave=True): the build's phases follow it (cmd_build)
    bar = tqdm(
        total=len(docs), unit="text", desc="yili-kg: reading", disable=len(docs) < 2 or not sys.stderr.isatty(), leave=True
    )
    try:
        if n > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=n, initializer=_worker_init, initargs=(list(vocab),)) as pool:
                for e in pool.map(_worker_extract, [(d, rite) for d in docs]):
                    bar.update(1)
                    yield e
            return
        for d in docs:
            t0 = time.perf_counter()
            e = extractor.extract(d, rite=rite)
            bar.update(1)
            yield replace(e, seconds=time.perf_counter() - t0)
    finally:
        bar.close()


def extract_inputs(
    inputs: Sequence[str], vocab: Sequence[str], rite: str | None = None, jobs: int | None = 1, stages: str | None = None
):  # type: ignore[no-untyped-def]
    """Extract every input, read as ``rite`` if given (else each as the rite its title or cast
    names), in ``jobs`` processes (None: all cores); a text in which no ritual act is recognised is
    an error, and so are two inputs that would mint the same IRIs (the same rite and edition keys).
    The extractions come in the order of the chapters, then of the edition keys, whatever the order
    of the inputs.  With ``stages`` (a folder of 楊復's 儀禮圖), each edition of a rite it covers gets its
    stages (:func:`_with_stages`).

    Returns ``(extractor, extractions)``: the :class:`~yili.ingest.pipeline.Extractor` of this process,
    or None when the texts were read in worker processes and no extra vocabulary was given (making
    one costs a second or two of a build)."""
    from yili.ingest.pipeline import Extractor

    docs = _documents(inputs)
    # read in worker processes, each with its own extractor: this one is made only to check the extra
    # vocabulary here, in one line (a worker's error would break the pool), or to read in this process
    several = min(jobs or os.cpu_count() or 1, len(docs)) > 1
    extractor = Extractor(extra_vocabulary=vocab) if vocab or not several else None
    extractions = []
    seen: dict[tuple[str, str], str] = {}
    for d, e in zip(docs, _extractions(extractor, docs, rite, vocab, jobs), strict=True):
        if not e.steps or (len(docs) > 1 and (len(e.steps) < 10 or (e.profile.neutral and len(e.steps) < 30))):
            # prose with no (or a handful of stray) ritual acts and no rite: 提要, 疏序, 跋
            if d.source in _FOUND_IN_FOLDER:
                _front_matter_note(d.source)
                continue
            if not e.steps:
                raise InputError(f"{d.source}: no classic text found: no ritual act of the vocabulary was recognised in it")
            raise InputError(
                f"{d.source}: no classic text of a rite: only {len(e.steps)} ritual act(s) recognised in it, "
                f"{'and no rite named' if e.profile.neutral else 'too few for a chapter'} (front or back matter?)"
            )
        key = (e.document.rite, e.document.edition)
        if key in seen:
            same = Path(seen[key]).resolve() == Path(d.source).resolve()
            why = "is given twice" if same else f"and {seen[key]} are the same edition of the same rite ({key[0]}/{key[1]})"
            raise InputError(f"{d.source}: {why}, and would mint the same IRIs; give each edition of a rite once")
        seen[key] = d.source
        extractions.append(e)
    # one order whatever the order of the inputs: the chapters of the 儀禮 (a text of no known rite
    # last), then the edition key
    extractions.sort(key=lambda e: (e.profile.chapter or 99, e.document.rite, e.document.edition))
    if stages:
        extractions = _with_stages(extractions, stages)
    return extractor, extractions


def _with_stages(extractions, folder: str):  # type: ignore[no-untyped-def]
    """The extractions, each of a rite that 楊復's 儀禮圖 in ``folder`` covers with its stages
    (:func:`yili.ingest.stages.align`); the others as they were (their phases stand alone).

    Raises
    ------
    InputError
        ``folder`` is not a folder of 儀禮圖 text (:func:`yili.ingest.stages.read_stage_books`).
    """
    from dataclasses import replace

    from yili.ingest.stages import align, book_for, read_stage_books

    books = read_stage_books(folder)
    out = []
    for e in extractions:
        book = book_for(books, (*e.profile.title_forms, e.profile.hant)) if e.profile.key else None
        out.append(replace(e, stages=align(book, e.document.blocks, e.steps)) if book is not None else e)
    return out


def _jobs(value: str) -> int:
    """Check ``--jobs``: a whole number from 1 to 64.

    Raises
    ------
    InputError
        ``--jobs: <value>: …`` (one line, exit 2).
    """
    try:
        n = int(value)
    except ValueError:
        raise InputError(f"--jobs: {value!r} is not a whole number: give 1 to 64 processes") from None
    if not 1 <= n <= 64:
        raise InputError(f"--jobs: {n}: give 1 to 64 processes")
    return n


def _base(value: str | None) -> str | None:
    """Check ``--base-iri`` (see :func:`~yili.ontology.namespaces.check_base`); None keeps the default.

    Raises
    ------
    InputError
        If it is not a usable base IRI.
    """
    if value is None:
        return None
    from yili.ontology.namespaces import check_base

    return check_base(value)


def _out_dir(value: str) -> Path:
    """Check ``--out``: a folder name (created if missing), not an existing file."""
    if not value.strip():
        raise InputError("--out: an empty folder name")
    out = Path(value)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder")
    return out


@contextlib.contextmanager
def _atomic(folder: Path, names: Sequence[str]):  # type: ignore[no-untyped-def]
    """Write files all or nothing: yield temporary paths in ``folder`` (one per name), then rename
    them into place; on any failure (a full disk, a read-only folder) remove them, so the old files
    stay (or none), and raise :class:`InputError` naming the file.

    Raises
    ------
    InputError
        ``<file>: cannot write: <reason>``.
    """
    import tempfile

    temps: dict[str, Path] = {}
    try:
        for name in names:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            os.close(fd)
            temps[name] = Path(tmp)
        yield temps
        umask = os.umask(0)
        os.umask(umask)
        for name in names:
            os.chmod(temps[name], 0o666 & ~umask)  # as an ordinary file would be (mkstemp makes it 0600)
            os.replace(temps[name], folder / name)
    except OSError as exc:
        for t in temps.values():
            t.unlink(missing_ok=True)
        where = exc.filename or folder
        if isinstance(where, str) and Path(where).name.startswith("."):
            where = folder / Path(where).name[1:].rsplit(".", 2)[0]  # the file meant, not its temporary name
        raise InputError(f"{where}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        for t in temps.values():
            t.unlink(missing_ok=True)
        raise


def _write_jsonl(rows, out) -> None:  # type: ignore[no-untyped-def]
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")


def write_build(  # type: ignore[no-untyped-def]
    extractions,
    out: Path,
    *,
    base: str | None,
    vocab: Sequence[str],
    files: bool = True,
    commentary_counts: dict[tuple[str, str], dict[str, int]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write a build of ``extractions`` into the folder ``out`` (which must exist): ``store/``, the
    Oxigraph store on disk, and with ``files`` also graph.trig, graph.ttl, steps.jsonl and
    toasts.jsonl, all or nothing.

    Every file is written under a temporary name and renamed into place, the store last
    (:class:`~yili.graph.output.BuildFolder`): the folder always holds one build, and a build killed
    midway is finished or undone by the next.

    ``commentary_counts``, if given, is filled with (rite, edition) → the commentary's counts;
    ``progress``, if given, is called with the index in :data:`_BUILD_PHASES` of each phase done.

    Returns
    -------
    int
        The number of quads in the store.

    Raises
    ------
    InputError
        A file or the store cannot be written (named); the last build's files are left as they were.
    """
    from yili.graph import store as stores
    from yili.graph.build import prefixes_for, quad_batches
    from yili.graph.loader import StoreLoader
    from yili.graph.output import BuildFolder

    done = progress or (lambda k: None)
    batches = quad_batches(extractions, base=base, vocabulary_files=vocab, commentary_counts=commentary_counts)
    if not files:
        count = stores.write_quad_batches(batches, out / "store")
        done(0)
        return count
    # the on-disk store, and one in memory that the files are written from, are loaded on threads while
    # the quads of the next edition are made and the files written (graph/loader.py)
    with BuildFolder(out) as folder, folder.store_loader() as loader, StoreLoader(None) as memory:
        for batch in batches:
            memory.put(batch)
            loader.put(batch)
        store = memory.wait()
        done(0)
        with folder.writing("graph.trig") as path:
            stores.write_trig(store, path, prefixes_for(base))
        with folder.writing("graph.ttl") as path:
            stores.write_turtle(store, path, prefixes_for(base))
        done(1)
        with folder.writing("steps.jsonl") as path, open(path, "w", encoding="utf-8") as f:
            _write_jsonl((s.as_record(base) for e in extractions for s in e.steps), f)
        with folder.writing("toasts.jsonl") as path, open(path, "w", encoding="utf-8") as f:
            _write_jsonl((t.as_record(base) for e in extractions for t in e.toasts), f)
        done(2)
        del store
        count = folder.close_store(loader)
    done(3)
    return count


_BUILD_PHASES = ("building the graph", "writing graph.trig, graph.ttl", "writing steps, toasts", "writing the store")
"""The phases of ``yili-kg build`` after the texts are read, each a step of its progress bar."""


def cmd_build(args: argparse.Namespace) -> int:
    """``yili-kg build [INPUT ...] [--out DIR]``: write graph.ttl, graph.trig, steps.jsonl, toasts.jsonl and
    ``store/``, the Oxigraph store (RocksDB) that ``yili-kg serve --store DIR/store`` opens read-only."""
    t0 = time.perf_counter()
    base = _base(args.base_iri)
    out = _out_dir(args.out)
    _extractor, extractions = extract_inputs(
        args.inputs, args.vocab, args.rite, _jobs(args.jobs) if args.jobs is not None else None, stages=args.stages
    )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{out}: cannot create the output folder: {exc.strerror}") from None
    from tqdm import tqdm

    # the phases after the reading (most of a corpus build's time), on a bar of their own that stays
    phases = tqdm(
        total=len(_BUILD_PHASES), unit="phase", desc="yili-kg: " + _BUILD_PHASES[0], leave=True,
        disable=len(extractions) < 2 or not sys.stderr.isatty(), bar_format="{desc:<40} {bar} {n_fmt}/{total_fmt} [{elapsed}]",
    )  # fmt: skip

    def phase_done(k: int) -> None:
        phases.update(1)
        if k + 1 < len(_BUILD_PHASES):
            phases.set_description("yili-kg: " + _BUILD_PHASES[k + 1])

    commentary: dict[tuple[str, str], dict[str, int]] = {}
    try:
        triples = write_build(extractions, out, base=base, vocab=args.vocab, commentary_counts=commentary, progress=phase_done)
    finally:
        phases.close()
    seconds = time.perf_counter() - t0
    blocks = sum(len(e.document.blocks) for e in extractions)
    steps = sum(len(e.steps) for e in extractions)
    toasts = sum(len(e.toasts) for e in extractions)
    print(
        f"built {out}/graph.ttl, graph.trig, steps.jsonl, toasts.jsonl, store/: {len(extractions)} edition(s), "
        f"{blocks} blocks, {steps} steps, {toasts} toasts, {triples} triples, {seconds:.2f} s"
    )
    if len(extractions) > 1:
        print(_summary_table(extractions))
    from yili.api.commentary_table import commentary_table

    print("\n" + commentary_table(extractions, commentary))
    return 0


def _summary_table(extractions) -> str:  # type: ignore[no-untyped-def]
    """One row per edition: rite, edition, blocks, steps, toasts, seconds (of extraction)."""
    rows = [("rite", "edition", "blocks", "steps", "toasts", "seconds")]
    for e in extractions:
        name = f"{e.document.rite} {e.profile.hant}".strip()
        rows.append(
            (name, e.document.edition, str(len(e.document.blocks)), str(len(e.steps)), str(len(e.toasts)), f"{e.seconds:.2f}")
        )
    return format_table(rows)


def format_table(rows: list[tuple[str, ...]]) -> str:
    """Rows as a plain-text table: the first two columns left-aligned, the others right-aligned,
    a Chinese character counted two columns wide."""
    import unicodedata

    def width(cell: str) -> int:  # a Chinese character takes two columns of a terminal
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in cell)

    widths = [max(width(r[k]) for r in rows) for k in range(len(rows[0]))]

    def pad(cell: str, w: int, left: bool) -> str:
        fill = " " * (w - width(cell))
        return cell + fill if left else fill + cell

    return "\n".join("  ".join(pad(cell, w, k < 2) for k, (cell, w) in enumerate(zip(r, widths, strict=True))) for r in rows)


def cmd_steps(args: argparse.Namespace) -> int:
    """``yili-kg steps [INPUT ...]``: the steps as JSON Lines, one object per step, in order."""
    base = _base(args.base_iri)
    _e, extractions = extract_inputs(args.inputs, args.vocab, args.rite)
    _write_jsonl((s.as_record(base) for e in extractions for s in e.steps), sys.stdout)
    return 0


def cmd_toasts(args: argparse.Namespace) -> int:
    """``yili-kg toasts [INPUT ...]``: who toasts whom, as JSON Lines, in ritual order."""
    base = _base(args.base_iri)
    _e, extractions = extract_inputs(args.inputs, args.vocab, args.rite)
    _write_jsonl((t.as_record(base) for e in extractions for t in e.toasts), sys.stdout)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """``yili-kg rules [INPUT ...] [--format table|tsv|json] [--jobs N]``: every extraction rule, its field,
    its citation and how many times it decided a field in each rite (:mod:`yili.api.rules_table`).

    Each input file is extracted on its own, so that the three editions and loose copies of a chapter are
    counted together (``make rules``: the whole shared corpus); files that are no chapter (front matter,
    the reference works under a ``reference`` folder) are left out with a one-line note.  Default: the
    chapters of the 儀禮述註 in the package."""
    from yili.api.default_corpus import embedded_corpus
    from yili.api.rules_table import count_rules, rules_table
    from yili.ingest.document import read_file
    from yili.ingest.pipeline import Extractor

    inputs = args.inputs or [str(p) for p in embedded_corpus()]
    docs = []
    for p in _expand(inputs):
        if "reference" in Path(p).parts:
            continue  # 儀禮釋宫, 儀禮圖: no chapter of the 儀禮
        try:
            docs.append(read_file(p))
        except YiliError as exc:
            if p not in _FOUND_IN_FOLDER:
                raise  # a file named on the command line must be read (as by yili-kg steps)
            print(f"yili-kg: note: {exc}; left out", file=sys.stderr)
    extractor = Extractor(extra_vocabulary=args.vocab)
    jobs = _jobs(args.jobs) if args.jobs is not None else None
    kept = []
    for d, e in zip(docs, _extractions(extractor, docs, None, args.vocab, jobs), strict=True):
        if len(e.steps) >= 10:
            kept.append(e)
        elif d.source not in _FOUND_IN_FOLDER:
            raise InputError(f"{d.source}: no classic text of a rite: {len(e.steps)} ritual act(s) recognised in it")
        else:
            _front_matter_note(d.source)
    if not kept:
        raise InputError(f"{' '.join(inputs)}: no chapter of a rite to count the rules on")
    counts, rites = count_rules(kept)
    print(rules_table(counts, rites, args.format))
    return 0


def cmd_words(args: argparse.Namespace) -> int:
    """``yili-kg words [INPUT ...] [--limit N] [--json]``: the vocabulary's report on each chapter
    (:mod:`yili.ingest.coverage`): the share of classic characters inside a recognised act or person,
    and the verb-like words the vocabulary does not know, undecided ones listed (a word is decided when
    it is a concept of the vocabulary or a row of ``ontology/not_acts.tsv``).  Default: the chapters of
    the 儀禮述註 in the package; front matter in a folder is left out with a one-line note."""
    import json

    from yili.api.default_corpus import embedded_corpus
    from yili.ingest.coverage import coverage, not_acts, report
    from yili.ingest.document import read_file
    from yili.ingest.pipeline import Extractor

    extractor = Extractor(extra_vocabulary=args.vocab)
    decided = not_acts()
    out = []
    for p in _expand(args.inputs or [str(p) for p in embedded_corpus()]):
        if "reference" in Path(p).parts:
            continue
        try:
            doc = read_file(p)
        except YiliError as exc:
            if p not in _FOUND_IN_FOLDER:
                raise
            print(f"yili-kg: note: {exc}; left out", file=sys.stderr)
            continue
        c = coverage(doc, extractor.tokenizer, extractor.vocabulary, decided)
        if c.recognised == 0:
            raise InputError(f"{p}: no classic text of a rite: no act or person recognised in it")
        out.append(c)
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "rite": c.rite,
                        "file": c.source,
                        "characters": c.characters,
                        "recognised": c.recognised,
                        "share": round(c.share, 4),
                        "verb_like": [
                            {
                                "word": v.word,
                                "count": v.count,
                                "contexts": v.contexts,
                                "decided": None if v.decided is None else {"reading": v.decided.reading, "note": v.decided.note},
                            }
                            for v in c.verb_like
                        ],
                    }
                    for c in out
                ],
                ensure_ascii=False,
                indent=1,
            )
        )
    else:
        print(report(out, limit=args.limit))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """``yili-kg compare A B [--stage S [--stage S]]``: align the steps of two texts (two rites, two
    editions of a rite, or two stages of one text: give the same file twice), by
    :func:`yili.graph.compare.compare`; a table (default), JSON or CSV on standard output."""
    from yili.graph.acts import acts_from_extractions, by_sequence, select_sequence
    from yili.graph.compare import compare

    stages = list(args.stage or [])
    if len(stages) > 2:
        raise InputError(f"--stage given {len(stages)} times: give it once (both sides) or twice (A, then B)")
    stage_a, stage_b = (stages + [None, None])[:2] if len(stages) != 1 else (stages[0], stages[0])
    files = [args.a] if Path(args.a).resolve() == Path(args.b).resolve() else [args.a, args.b]
    extractor, extractions = extract_inputs(files, args.vocab, args.rite)
    by_file = {str(Path(e.document.source).resolve()): e for e in extractions}
    groups = by_sequence(acts_from_extractions(extractions, _base(args.base_iri)))

    def side(path: str) -> str:
        e = by_file.get(str(Path(path).resolve()))
        if e is None:
            raise InputError(f"{path}: no classic text found in it to compare")
        return f"{e.document.rite}/{e.document.edition}"

    name_a, acts_a = select_sequence(groups, side(args.a), extractor.vocabulary, stage_a)
    name_b, acts_b = select_sequence(groups, side(args.b), extractor.vocabulary, stage_b)
    result = compare(acts_a, acts_b, extractor.vocabulary, names=(name_a, name_b), stages=(stage_a, stage_b))
    if args.format == "json":
        sys.stdout.write(json.dumps(result.as_json(), ensure_ascii=False, indent=1) + "\n")
    elif args.format == "csv":
        sys.stdout.write(result.as_csv())
    else:
        j = result.as_json()
        print(
            f"{name_a} ↔ {name_b}: similarity {j['similarity']}, {j['same']} same, {j['substitutions']} substituted, "
            f"{j['deletions']} only in A, {j['insertions']} only in B, {j['joined']} joined"
        )
        marks = {"same": "=", "substitution": "~", "deletion": "<", "insertion": ">", "joined": "+"}

        def cell(act) -> str:  # type: ignore[no-untyped-def]
            if act is None:
                return ""
            who = (act.agent_label or "") + (f"→{act.recipient_label}" if act.recipient_label else "")
            return f"{act.sequence} {who}:{act.action_label} {act.text}"

        for r in result.rows:
            print(f"{marks[r.kind]} {cell(r.a)}\t{cell(r.b)}")
    return 0


def cmd_ngrams(args: argparse.Namespace) -> int:
    """``yili-kg ngrams [INPUT ...] --n 3 [--rite R] [--top 20] [--csv]``: each edition's most frequent
    runs of ``n`` acts (:meth:`yili.graph.patterns.PatternIndex.ngrams`)."""
    from yili.graph.acts import acts_from_extractions
    from yili.graph.patterns import PatternIndex, ngrams_csv, ranked

    extractor, extractions = extract_inputs(args.inputs, args.vocab, None)
    index = PatternIndex(acts_from_extractions(extractions), extractor.vocabulary)
    try:
        table = index.ngrams(args.n, args.rite)
    except YiliError as exc:
        raise InputError(exc.message) from None
    if args.csv:
        sys.stdout.write(ngrams_csv(table, args.top))
        return 0
    for key in sorted(table):
        for rank, (gram, count) in enumerate(ranked(table[key], args.top), 1):
            print(f"{key}\t{rank}\t{count}\t{' '.join(gram)}")
    return 0


def cmd_scenes(args: argparse.Namespace) -> int:
    """``yili-kg scenes [INPUT ...]``: who is where, as CSV (RFC 4180, UTF-8): one row per move, each
    person's place, point on the plan of ``ontology/ground.ttl`` (x east, y north, in depths of the hall),
    facing, ``written`` or ``inferred``, and the rule that set it (:mod:`yili.ingest.scenes`), then the
    facing's status and rule and ``present`` (``false``: the move takes him out of the scene: 出, seen
    off).  The scene at a step is the last row of each person up to it."""
    import csv

    from yili.graph.build import step_iri
    from yili.ingest.scenes import moves

    base = _base(args.base_iri)
    _e, extractions = extract_inputs(args.inputs, args.vocab, args.rite)
    out = csv.writer(sys.stdout, lineterminator="\r\n")
    out.writerow(
        [
            "step",
            "sequence",
            "person",
            "place",
            "x",
            "y",
            "facing",
            "status",
            "rule",
            "source",
            "facing_status",
            "facing_rule",
            "present",
        ]
    )
    for e in extractions:
        for p in moves(e.steps):
            step = e.steps[(p.at or p.step) - 1]
            out.writerow([str(step_iri(step, base)), p.at or p.step, p.person, p.place or "", "" if p.x is None else p.x,
                          "" if p.y is None else p.y, p.facing or "", p.status, p.rule, p.source, p.facing_status or "",
                          p.facing_rule or "", "true" if p.present else "false"])  # fmt: skip
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """``yili-kg eval GOLD [GOLD ...] [INPUT] [--corpus DIR]``: precision, recall and F1 per field for
    every gold set found in the GOLD folders (one table each, then an overall one), and the worst errors.

    A gold set that names its annotated file (``gold/kanripo``) is scored on that file, found under
    ``--corpus`` (default: the ``corpus/`` folder beside the gold); the excerpt's gold on INPUT, or on
    the embedded default.
    """
    from yili.ingest.document import load_default, read_file
    from yili.ingest.evaluate import evaluate, find_gold_sets, locate_text, overall
    from yili.ingest.pipeline import Extractor

    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise InputError(f"{missing[0]}: no such file or folder")
    golds = [p for p in args.paths if Path(p).is_dir()]
    inputs = [p for p in args.paths if not Path(p).is_dir()]
    if not golds:
        raise InputError(f"{args.paths[0]}: not a directory with steps.jsonl and toasts.jsonl")
    if len(inputs) > 1:
        raise InputError(f"{inputs[1]}: give at most one INPUT (the text the excerpt's gold annotates)")
    sets = find_gold_sets(golds)
    extractor = Extractor(extra_vocabulary=args.vocab)
    reports = []
    for gs in sets:
        path = locate_text(gs, args.corpus)
        if path is not None:
            doc = read_file(path)
        elif inputs:
            doc = read_file(inputs[0])
        else:
            doc = load_default()
        reports.append(evaluate(extractor.extract(doc, rite=args.rite), gs, extractor.vocabulary))
    if len(reports) > 1:
        reports.append(overall(reports))
    if args.json:
        print(
            json.dumps([r.as_dict() for r in reports] if len(reports) > 1 else reports[0].as_dict(), ensure_ascii=False, indent=2)
        )
    else:
        print("\n\n".join(r.format(args.worst) for r in reports))
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    """``yili-kg validate [GRAPH]``: check the graph against ontology/shapes.ttl with pyshacl."""
    from yili.graph.validate import validate_file, validate_graph

    if args.graph:
        result = validate_file(args.graph)
    else:
        from yili.graph.build import build_dataset, union_graph

        _e, extractions = extract_inputs([], [])
        result = validate_graph(union_graph(build_dataset(extractions)))
    print(result.format())
    if result.conforms and args.graph and not _holds_steps(args.graph):
        print(
            f"yili-kg: warning: {args.graph} holds no yili-kg steps: nothing in it was checked against the step shapes",
            file=sys.stderr,
        )
    return 0 if result.conforms else 1


def _holds_steps(path: str) -> bool:
    """Whether a graph file holds at least one yk:Step."""
    from yili.graph.store import load_file

    store = load_file(path)
    return bool(store.query("ASK { ?s a <https://w3id.org/yili-kg/ontology#Step> }", use_default_graph_as_union=True))


def cmd_serve(args: argparse.Namespace) -> int:
    """``yili-kg serve [--store DIR | --graph FILE | --corpus DIR | --excerpt | INPUT ...]``: build (or
    load) the graph and serve it over HTTP.

    With no INPUT, ``--store``, ``--graph`` or ``--excerpt``, it serves the 13 rites of the 儀禮述註
    shipped in the package, built once into the cache (:mod:`yili.api.default_corpus`); ``--corpus
    DIR`` serves every text under DIR the same way (e.g. the three editions of the Kanripo corpus).
    """
    import uvicorn
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions, service_from_file, service_from_store

    t0 = time.perf_counter()
    base = _base(args.base_iri)
    built = [x for x in ("--graph", "--store", "--corpus", "--excerpt", "--endpoint") if getattr(args, x[2:])]
    if len(built) > 1:
        raise InputError(
            f"give one of --graph FILE, --store DIR, --corpus DIR, --excerpt, --endpoint URL, not {' and '.join(built)}"
        )
    if args.endpoint and (args.inputs or args.vocab or args.rite or args.processes > 1):
        given = "INPUT" if args.inputs else "--vocab" if args.vocab else "--rite" if args.rite else "--processes"
        raise InputError(f"{given}: with --endpoint the graph the remote store holds is served as it is, from one process")
    if args.auth and not args.endpoint:
        raise InputError("--auth is for the remote store of --endpoint URL")
    if (args.graph or args.store) and (args.inputs or args.vocab or args.rite):
        # a built graph is served as it was built: text, vocabulary and rite were read by `build`
        given = "INPUT" if args.inputs else "--vocab" if args.vocab else "--rite"
        raise InputError(
            f"{given} is read when the graph is built; with {'--graph' if args.graph else '--store'} the built graph is "
            "served as it is: give the texts to `yili-kg build` (or serve them without --graph/--store)"
        )
    if args.inputs and (args.corpus or args.excerpt):
        raise InputError(f"give INPUT files or {built[0]}, not both")
    if args.graph and not Path(args.graph).exists():
        raise InputError(f"{args.graph}: no such file")  # the input is named before the port is tried
    cached = args.corpus is not None or not (args.inputs or args.graph or args.store or args.excerpt or args.endpoint)
    if args.processes > 1 and not (args.store or cached):
        raise InputError(
            f"--processes {args.processes} needs --store DIR: the processes share a store built by `yili-kg build` "
            "(serve the excerpt or --graph from one process)"
        )
    if args.store:
        from yili.graph.store import open_store

        open_store(args.store)  # a bad folder is named before the port is tried
    files: list[str] = []
    if cached:
        from yili.api.default_corpus import embedded_corpus

        if args.corpus is not None and not Path(args.corpus).is_dir():
            raise InputError(f"--corpus {args.corpus}: no such folder")
        files = _expand([args.corpus]) if args.corpus is not None else [str(f) for f in embedded_corpus()]
    _check_address(args.host, args.port)
    if cached:
        from yili.api.default_corpus import cache_root, cached_build, rite_table

        root = cache_root()
        what = f"the {len(files)} texts under {args.corpus}" if args.corpus else "the 13 rites of the 儀禮述註"
        jobs = _jobs(args.jobs) if args.jobs is not None else None
        print(f"yili-kg: {what}: looking for their build in {root}", flush=True)
        from yili.api.default_corpus import embedded_stages

        # 楊復's stages: those shipped in the package, unless --stages names another 儀禮圖
        stages = args.stages or embedded_stages()
        build = cached_build(files, base=base, vocab=args.vocab, rite=args.rite, jobs=jobs, root=root, stages=stages)
        how = "reused" if build.reused else f"built in {build.summary['seconds']:.1f} s"
        print(f"yili-kg: serving {len(build.summary['rites'])} editions ({how}, {build.folder}):", flush=True)
        print(rite_table(build.summary), flush=True)
        args.store = str(build.store)
    if args.processes > 1:
        return _serve_processes(args, base, t0)
    if args.endpoint:
        from yili.api.service import service_from_endpoint
        from yili.graph.remote import parse_auth

        service = service_from_endpoint(args.endpoint, auth=parse_auth(args.auth), base=base)
    elif args.store:
        service = service_from_store(args.store, base=base)
    elif args.graph:
        service = service_from_file(args.graph, base=base)
    else:
        _extractor, extractions = extract_inputs(args.inputs, args.vocab, args.rite, stages=args.stages)
        service = service_from_extractions(extractions, base=base, vocabulary_files=args.vocab)
    if service.store_path is None and service.endpoint is None:
        _share_on_disk(service)
    s = service.summary
    if not s.get("steps"):
        print(
            f"yili-kg: warning: {args.graph or args.store} holds no yili-kg steps; only SPARQL will find anything",
            file=sys.stderr,
        )
    app = create_app(service)
    from yili.api.sparql_pool import tune_server_threads

    tune_server_threads()
    ready = (
        f"yili-kg: {s.get('steps', '?')} steps, {s.get('toasts', '?')} toasts, {s['triples']} triples "
        f"ready in {time.perf_counter() - t0:.2f} s; serving on {address_url(args.host, args.port)} "
        f"(SPARQL at /sparql, docs at /docs)"
    )
    app.router.on_startup.append(lambda: print(ready, flush=True))
    # no access log: at this level it is never shown, yet each request would still gather its fields
    from yili.api.http_protocol import MAX_REQUEST_HEAD_BYTES, http_protocol

    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        http=http_protocol(),  # httptools; a long GET query is read, and a head too long for it answered in JSON
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,
    )
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    """``yili-kg push URL [--graph-store URL] [--auth USER:PASS] [--store DIR | --graph FILE | --excerpt | INPUT ...]``:
    load the graph, every named graph (one per edition, and the vocabulary), into a triplestore with
    the SPARQL 1.1 Graph Store HTTP Protocol (:func:`~yili.graph.remote.push`), then count what the
    store's SPARQL endpoint URL holds.  With no input it pushes the 13 rites of the 儀禮述註 in the
    package (the cached build of ``serve``).

    Raises
    ------
    InputError
        A bad option, input or URL; the store cannot be reached or refuses a graph (named).
    """
    from yili.graph.remote import SparqlHttpStore, check_url, parse_auth, push

    base = _base(args.base_iri)
    auth = parse_auth(args.auth)
    check_url(args.url, "URL")
    given = [x for x in ("--graph", "--store", "--excerpt") if getattr(args, x[2:])]
    if len(given) > 1 or (given and args.inputs):
        raise InputError(
            "give INPUT files or one of --graph FILE, --store DIR, --excerpt, not "
            f"{' and '.join(given + (['INPUT'] if args.inputs else []))}"
        )
    if args.store:
        from yili.graph.store import open_store

        store = open_store(args.store)
    elif args.graph:
        from yili.graph.store import load_file

        store = load_file(args.graph)
    elif args.inputs or args.excerpt:
        from yili.graph.build import build_store

        _e, extractions = extract_inputs(args.inputs, args.vocab, args.rite, _jobs(args.jobs) if args.jobs is not None else None)
        store = build_store(extractions, base=base, vocabulary_files=args.vocab)
    else:
        from yili.api.default_corpus import cached_build, embedded_corpus
        from yili.graph.store import open_store

        build = cached_build(
            embedded_corpus(), base=base, vocab=args.vocab, rite=args.rite, jobs=_jobs(args.jobs) if args.jobs else None
        )
        store = open_store(build.store)
    graph_store = args.graph_store or args.url
    sent = push(store, graph_store, auth=auth)
    from yili.ontology.namespaces import base_iri, mint

    remote = SparqlHttpStore(args.url, auth=auth, graph_prefix=str(mint("graph", "x", base=base or base_iri()))[:-1])
    held = len(remote)
    remote.close()
    print(
        f"yili-kg: pushed {len(sent)} graphs, {sum(n for _, n in sent)} triples to {graph_store}; "
        f"{args.url} holds {held} triples in {len(remote.graphs)} named graphs"
    )
    return 0


_FRONT_ENVIRONMENT = "YILI_KG_SERVE_FRONT"
"""The variable through which ``yili-kg serve --processes N`` tells each serving process what to
serve (JSON: the store's folder, the base IRI and the number of processes)."""


def _serve_processes(args: argparse.Namespace, base: str | None, t0: float) -> int:
    """``yili-kg serve --store DIR --processes N``: this process becomes uvicorn's supervisor (a fresh
    interpreter, :func:`os.execv`, that imports uvicorn alone and holds no graph), which binds the
    port once and runs N processes that accept on it, each made by :func:`front_app`, and restarts
    one that dies.  Never returns."""
    import json

    front = {"store": str(Path(args.store).resolve()), "base": base, "processes": args.processes}
    os.environ[_FRONT_ENVIRONMENT] = json.dumps(front)
    print(
        f"yili-kg: serving {args.store} from {args.processes} processes on {address_url(args.host, args.port)} "
        f"(SPARQL at /sparql, docs at /docs); checked in {time.perf_counter() - t0:.2f} s",
        flush=True,
    )
    sys.stderr.flush()
    command = [sys.executable, "-m", "uvicorn", "yili.api.cli:front_app", "--factory", "--workers", str(args.processes)]
    command += ["--host", args.host, "--port", str(args.port), "--log-level", "warning", "--no-access-log"]
    from yili.api.http_protocol import http_protocol

    protocol = f"yili.api.http_protocol:{http_protocol().__name__}"
    command += ["--http", protocol, "--h11-max-incomplete-event-size", str(2 * 1024 * 1024)]
    os.execv(sys.executable, command)


def front_app():  # type: ignore[no-untyped-def]
    """The application of one of the processes of ``yili-kg serve --store DIR --processes N`` (a
    uvicorn factory): the store opened read-only, and a share of the SPARQL workers, so that the N
    processes together run :class:`~yili.api.sparql.SparqlLimits`' default ``max_concurrent_queries``
    (at least two each: a short lane and a long one).

    Each process says in one line when it is ready (its pid, and the steps, toasts and triples it
    serves).  A store that cannot be opened any more (moved or deleted since ``serve`` checked it,
    and a process has to start again) is named in one line on standard error, and the supervisor is
    told to stop (SIGTERM), so that it does not restart processes that cannot serve, and the others
    stop with it; this process then exits with status 2.

    Raises
    ------
    InputError
        Called outside ``yili-kg serve`` (the variable :data:`_FRONT_ENVIRONMENT` is not set).
    """
    import json
    import signal

    from yili.api.app import create_app
    from yili.api.service import service_from_store
    from yili.api.sparql import SparqlLimits
    from yili.api.sparql_pool import tune_server_threads

    setting = os.environ.get(_FRONT_ENVIRONMENT)
    if not setting:
        raise InputError(f"front_app serves `yili-kg serve --processes N`; {_FRONT_ENVIRONMENT} is not set")
    front = json.loads(setting)
    default = SparqlLimits()
    per_process = max(2, default.max_concurrent_queries // front["processes"])
    limits = SparqlLimits(max_concurrent_queries=per_process, short_lane=max(1, default.short_lane // front["processes"]))
    try:
        service = service_from_store(front["store"], base=front["base"])
    except YiliError as exc:
        print(f"yili-kg: error: {exc.message}", file=sys.stderr, flush=True)
        os.kill(os.getppid(), signal.SIGTERM)  # the supervisor stops the others: none of them can serve
        os._exit(EXIT_USAGE)
    app = create_app(service, sparql_limits=limits)
    tune_server_threads()
    s = service.summary
    if not s.get("steps"):
        print(f"yili-kg: warning: {front['store']} holds no yili-kg steps; only SPARQL will find anything", file=sys.stderr)
    print(
        f"yili-kg: process {os.getpid()} ready: {s.get('steps', '?')} steps, {s.get('toasts', '?')} toasts, "
        f"{s['triples']} triples",
        flush=True,
    )
    return app


def address_url(host: str, port: int) -> str:
    """The URL of ``host``:``port``, an IPv6 address in brackets (RFC 3986 §3.2.2: ``http://[::1]:8000``).

    >>> address_url("127.0.0.1", 8000), address_url("::1", 8000)
    ('http://127.0.0.1:8000', 'http://[::1]:8000')
    """
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _processes(value: str) -> int:
    """``--processes``: a whole number from 1 to 64."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of processes, not {value!r}") from None
    if not 1 <= number <= 64:
        raise argparse.ArgumentTypeError(f"must be from 1 to 64, not {number}")
    return number


_STORE_PREFIX = "yili-kg-store-"
"""The name of the temporary folders that ``serve INPUT`` writes its store to (in the system's
temporary folder); each holds :data:`_OWNER`, the id of the process that serves it."""
_OWNER = "owner.pid"


def _share_on_disk(service) -> None:  # type: ignore[no-untyped-def]
    """Write the served graph to a temporary on-disk store, which the SPARQL worker processes open
    read-only: they share its pages instead of each loading a copy.

    The folder is removed at exit, also on SIGTERM (what systemd and docker send: it is made to
    end the process as Ctrl-C does, through the interpreter's exit); one left by a process that was
    killed outright (SIGKILL, a crash) is removed by the next start (:func:`_remove_stale_stores`).
    """
    import atexit
    import shutil
    import signal
    import tempfile

    from yili.graph.store import write_store

    _remove_stale_stores()
    folder = Path(tempfile.mkdtemp(prefix=_STORE_PREFIX))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    (folder / _OWNER).write_text(str(os.getpid()), encoding="ascii")
    write_store(service.store, folder / "store")
    service.store_path = str(folder / "store")


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    """End the process on SIGTERM through :class:`SystemExit` (exit status 143, 128 + 15), so that
    :mod:`atexit` hooks run: uvicorn shuts down gracefully on SIGTERM, then raises it again for the
    handler it found installed, this one."""
    raise SystemExit(128 + signum)


def _remove_stale_stores() -> None:
    """Remove the temporary stores of ``serve INPUT`` processes that no longer run (killed with
    SIGKILL, or crashed), found by the process id each folder records.  A folder whose owner cannot
    be told (no id recorded yet: a start in progress) is left alone."""
    import shutil
    import tempfile

    for folder in sorted(Path(tempfile.gettempdir()).glob(_STORE_PREFIX + "*")):
        try:
            pid = int((folder / _OWNER).read_text(encoding="ascii"))
        except (OSError, ValueError):
            continue
        if pid == os.getpid() or _running(pid):
            continue
        shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether a process with this id exists (one that is not ours to signal counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _check_address(host: str, port: int) -> None:
    """Fail early, in one line, if the address cannot be bound (in use, or not a local address).

    Raises
    ------
    InputError
        The host is unknown, or the port is in use or not allowed.
    """
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise InputError(f"--host {host!r}: unknown host ({exc.strerror})") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            raise InputError(f"{host}:{port}: cannot serve there: {exc.strerror}") from None


def cmd_export(args: argparse.Namespace) -> int:
    """``yili-kg export FORMAT [INPUT ...] [--view toasts|steps] [--rite R] [--edition E] [-o FILE]``:
    a view of the graph (or the RDF itself) for graph tools, spreadsheets and triplestores.  Without
    ``-o`` the file goes to standard output; with it, it is written all or nothing."""
    from yili.api.service import service_from_extractions, service_from_file
    from yili.graph.export import export

    out = Path(args.out) if args.out is not None else None
    if out is not None and (not args.out.strip() or out.is_dir()):
        raise InputError(f"--out {args.out!r}: give a file name, not a folder")
    if out is not None and not out.parent.is_dir():
        raise InputError(f"{out}: the folder {out.parent} does not exist")
    base = _base(args.base_iri)
    if args.graph:
        if not Path(args.graph).exists():
            raise InputError(f"{args.graph}: no such file")
        service = service_from_file(args.graph, base=base)
    else:
        _e, extractions = extract_inputs(args.inputs, args.vocab, stages=args.stages)
        service = service_from_extractions(extractions, base=base, vocabulary_files=args.vocab)
    result = export(service.queries, service.store, args.format, args.view, rite=args.rite, edition=args.edition)
    if out is None:
        _write_all(sys.stdout.buffer, result.data)
        return 0
    if out.exists() and not out.is_file():
        # a device or a pipe (/dev/stdout, a FIFO): written in place, never replaced by a file
        try:
            with open(out, "wb") as f:
                f.write(result.data)
        except OSError as exc:
            raise InputError(f"{out}: cannot write: {exc.strerror or exc}") from None
        return 0
    with _atomic(out.parent, [out.name]) as temps:
        temps[out.name].write_bytes(result.data)
    print(f"yili-kg: wrote {out} ({args.format}, {len(result.data)} bytes)", file=sys.stderr)
    return 0


def _write_all(stream, data: bytes) -> None:  # type: ignore[no-untyped-def]
    """Write all of ``data`` to a binary stream, or raise ``OSError``: a write to a file on a full
    disk may write part and return a short count without an error (the next write raises ENOSPC)."""
    view = memoryview(data)
    while view:
        n = stream.write(view)
        if not n:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[n:]


def _export_formats() -> list[str]:
    from yili.graph.export import FORMATS

    return list(FORMATS)


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1-65535)")
    return port


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``yili-kg`` (one sub-command per task)."""
    p = argparse.ArgumentParser(prog="yili-kg", description="A knowledge graph of the ritual steps of the 儀禮.")
    p.add_argument("--version", action="version", version=f"yili-kg {software_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp: argparse.ArgumentParser, inputs: bool = True) -> None:
        if inputs:
            sp.add_argument(
                "inputs",
                nargs="*",
                metavar="INPUT",
                help="text files (blank-line blocks, Kanripo mandoku, KanripoXML) or folders; default: the embedded excerpt",
            )
        sp.add_argument(
            "--vocab", action="append", default=[], metavar="FILE", help="an extra SKOS vocabulary file in Turtle (repeatable)"
        )
        sp.add_argument("--base-iri", default=None, help="base IRI for minted IRIs (default https://w3id.org/yili-kg/)")
        sp.add_argument(
            "--stages",
            default=None,
            metavar="DIR",
            help="楊復's 儀禮圖 (Kanripo KR1d0032 text): cut each rite it covers into his stages (節)",
        )
        sp.add_argument(
            "--rite",
            default=None,
            help="read the inputs as this rite (its key or its name, in either script); default: from each title or cast",
        )

    b = sub.add_parser("build", help="build the graph and write graph.ttl, graph.trig, steps.jsonl, toasts.jsonl, store/")
    common(b)
    b.add_argument("--out", default="build", metavar="DIR", help="output folder (default: build)")
    b.add_argument(
        "--jobs",
        default=None,
        metavar="N",
        help="processes to extract many files in (1-64; default: all cores); the same graph as one",
    )
    b.set_defaults(func=cmd_build)

    s = sub.add_parser("steps", help="print the steps as JSON Lines")
    common(s)
    s.set_defaults(func=cmd_steps)

    t = sub.add_parser("toasts", help="print who toasts whom as JSON Lines")
    common(t)
    t.set_defaults(func=cmd_toasts)

    ru = sub.add_parser("rules", help="every extraction rule, its citation, and how often it decided something in each rite")
    ru.add_argument(
        "inputs", nargs="*", metavar="INPUT",
        help="text files or folders, each file extracted on its own; default: the 儀禮述註 chapters in the package",
    )  # fmt: skip
    ru.add_argument("--format", choices=["table", "tsv", "json"], default="table", help="plain table (default), TSV or JSON")
    ru.add_argument("--jobs", default=None, help="processes to read the texts in (default: all cores)")
    ru.add_argument(
        "--vocab", action="append", default=[], metavar="FILE", help="an extra SKOS vocabulary file in Turtle (repeatable)"
    )
    ru.set_defaults(func=cmd_rules)

    wd = sub.add_parser(
        "words", help="the vocabulary's report: share of each chapter recognised, verb-like words it does not know"
    )
    wd.add_argument(
        "inputs", nargs="*", metavar="INPUT", help="text files or folders; default: the 儀禮述註 chapters in the package"
    )
    wd.add_argument("--limit", type=int, default=20, help="undecided words listed per chapter (default 20)")
    wd.add_argument("--json", action="store_true", help="every verb-like word of every chapter as JSON")
    wd.add_argument(
        "--vocab", action="append", default=[], metavar="FILE", help="an extra SKOS vocabulary file in Turtle (repeatable)"
    )
    wd.set_defaults(func=cmd_words)

    cp = sub.add_parser("compare", help="align the steps of two texts (two rites, two editions, or two stages)")
    cp.add_argument("a", metavar="A", help="a text file (one edition of a rite)")
    cp.add_argument("b", metavar="B", help="the other text file (the same file again to compare two stages of it)")
    cp.add_argument(
        "--stage",
        action="append",
        metavar="STAGE",
        help="a phase number (3), phases (2-5), blocks (b10-40) or a phase label; once for both sides, twice for A then B",
    )
    cp.add_argument("--format", choices=["table", "json", "csv"], default="table", help="output format (default: table)")
    common(cp, inputs=False)
    cp.set_defaults(func=cmd_compare)

    ng = sub.add_parser("ngrams", help="the most frequent runs of n acts in each edition")
    ng.add_argument("inputs", nargs="*", metavar="INPUT", help="text files or folders; default: the embedded excerpt")
    ng.add_argument("--n", type=int, default=3, help="acts in a run (1-8; default 3)")
    ng.add_argument("--rite", default=None, help="keep the editions of one rite (its key or its name)")
    ng.add_argument("--top", type=int, default=20, help="how many runs per edition (default 20)")
    ng.add_argument("--csv", action="store_true", help="write CSV (sequence, rank, acts, count)")
    ng.add_argument("--vocab", action="append", default=[], metavar="FILE", help="an extra SKOS vocabulary file in Turtle")
    ng.set_defaults(func=cmd_ngrams)

    sc = sub.add_parser(
        "scenes", help="print who is where at each move as CSV (step, person, place, x, y, facing, written|inferred)"
    )
    common(sc)
    sc.set_defaults(func=cmd_scenes)

    e = sub.add_parser("eval", help="score the extractor against gold annotations")
    e.add_argument(
        "paths",
        nargs="+",
        metavar="GOLD_DIR|INPUT",
        help="gold folders (steps.jsonl/toasts.jsonl, steps_NAME.jsonl/toasts_NAME.jsonl; subfolders too), "
        "and at most one INPUT, the text the excerpt's gold annotates (default: the embedded excerpt)",
    )
    e.add_argument("--corpus", action="append", default=[], metavar="DIR", help="where annotated files are found")
    e.add_argument("--rite", default=None, help="read every annotated text as this rite (default: each from its title or cast)")
    e.add_argument("--json", action="store_true", help="print the scores as JSON")
    e.add_argument("--worst", type=int, default=15, help="how many confusions to list")
    e.add_argument("--vocab", action="append", default=[], metavar="FILE")
    e.set_defaults(func=cmd_eval)

    v = sub.add_parser("validate", help="validate a graph against the SHACL shapes")
    v.add_argument("graph", nargs="?", metavar="GRAPH", help="a .ttl/.trig/.nq file (default: build from the excerpt)")
    v.set_defaults(func=cmd_validate)

    sv = sub.add_parser(
        "serve",
        help="serve the REST and SPARQL API: by default the 13 rites of the 儀禮述註 in the package, built once into a cache",
    )
    common(sv)
    sv.add_argument("--graph", metavar="FILE", help="serve this graph file (.trig/.nq/.ttl) instead of building")
    sv.add_argument(
        "--store", metavar="DIR", help="serve this on-disk store (DIR/store of yili-kg build --out DIR), opened read-only"
    )
    sv.add_argument(
        "--corpus",
        metavar="DIR",
        help="serve every text under DIR (e.g. ../shared/corpus/kanripo, the three editions), built once into the cache",
    )
    sv.add_argument(
        "--excerpt", action="store_true", help="serve the embedded 燕禮 excerpt (112 blocks), built in memory at each start"
    )
    sv.add_argument("--jobs", default=None, metavar="N", help="processes to read the chapters in when the cache is built (1-64)")
    sv.add_argument(
        "--endpoint",
        metavar="URL",
        help="serve the graph a remote SPARQL 1.1 endpoint holds (loaded with yili-kg push): "
        "every REST route, the viewer, the exports",
    )
    sv.add_argument("--auth", metavar="USER:PASS", help="HTTP authentication for --endpoint")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=_port, default=8000, help="TCP port, 1-65535 (default 8000)")
    sv.add_argument(
        "--processes",
        type=_processes,
        default=1,
        metavar="N",
        help="with --store: serve from N processes that share the port, each opening the store read-only "
        "(default 1; the machine's cores is the most that helps)",
    )
    sv.set_defaults(func=cmd_serve)

    ps = sub.add_parser(
        "push", help="load the graph (every named graph, the vocabulary) into a triplestore (SPARQL 1.1 Graph Store Protocol)"
    )
    ps.add_argument("url", metavar="URL", help="the store's SPARQL query endpoint (checked after the push)")
    common(ps)
    ps.add_argument("--graph-store", metavar="URL", help="the store's Graph Store Protocol endpoint (default: URL)")
    ps.add_argument("--auth", metavar="USER:PASS", help="HTTP authentication for the store")
    ps.add_argument("--store", metavar="DIR", help="push this built store (yili-kg build --out DIR)")
    ps.add_argument("--graph", metavar="FILE", help="push this graph file (.trig/.nq)")
    ps.add_argument("--excerpt", action="store_true", help="push the embedded 燕禮 excerpt")
    ps.add_argument("--jobs", default=None, metavar="N", help="processes to read the chapters in (1-64)")
    ps.set_defaults(func=cmd_push)

    x = sub.add_parser("export", help="export a view of the graph (or its RDF) for graph tools and spreadsheets")
    x.add_argument(
        "format",
        choices=list(_export_formats()),
        help="graphml, gexf (Gephi, GEXF 1.3), cytoscape (Cytoscape.js JSON), d3 (node-link JSON), dot (Graphviz), "
        "mermaid (sequence diagram of one edition), csv, turtle, ntriples, jsonld",
    )
    x.add_argument(
        "inputs",
        nargs="*",
        metavar="INPUT",
        help="text files (blank-line blocks, Kanripo mandoku, KanripoXML) or folders; default: the embedded excerpt",
    )
    x.add_argument("--view", choices=["toasts", "steps"], default="toasts", help="the toast network (default) or the step chain")
    x.add_argument("--rite", default=None, help="keep one rite (its key or its name, in either script); default: every rite read")
    x.add_argument("--edition", default=None, help="keep one edition (its key, the last segment of its IRI: shuzhu-excerpt)")
    x.add_argument("--graph", metavar="FILE", help="export this graph file (.trig/.nq/.ttl) instead of building")
    x.add_argument("--vocab", action="append", default=[], metavar="FILE", help="an extra SKOS vocabulary file in Turtle")
    x.add_argument("--base-iri", default=None, help="base IRI for minted IRIs (default https://w3id.org/yili-kg/)")
    x.add_argument("--stages", default=None, metavar="DIR", help="楊復's 儀禮圖 (KR1d0032 text): his stages (節) in the exports")
    x.add_argument("-o", "--out", default=None, metavar="FILE", help="write here (default: standard output)")
    x.set_defaults(func=cmd_export)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``yili-kg``; returns the exit code (0 ok, 1 validation failed, 2 user error)."""
    p = parser()
    args, extra = p.parse_known_args(argv)
    if extra:
        # INPUT files may come after options (yili-kg export dot --out x.dot FILE)
        if hasattr(args, "inputs") and not any(x.startswith("-") for x in extra):
            args.inputs = [*args.inputs, *extra]
        else:
            p.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        code = int(args.func(args))
        sys.stdout.flush()  # a full or closed standard output fails here, not at exit
        return code
    except YiliError as exc:
        print(f"yili-kg: error: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    except (IsADirectoryError, NotADirectoryError, PermissionError, FileNotFoundError) as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"yili-kg: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader stopped early (yili-kg steps | head): not an error
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stdout must stay open until exit
        return 0
    except OSError as exc:
        # standard output full (> /dev/full) or another write that failed: one line, exit 2
        where = exc.filename or "standard output"
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - nothing more can be written there
        print(f"yili-kg: error: {where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
