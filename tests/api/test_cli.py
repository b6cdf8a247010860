"""The yili-kg command: outputs with real values, and one-line errors with exit code 2."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path

import pytest
from yili.api.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(*args: str, timeout: int = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "yili.api.cli", *args], capture_output=True, text=True, timeout=timeout)


def test_build_writes_graph_and_jsonl(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["build", "--out", str(out)]) == 0
    summary = capsys.readouterr().out
    steps = [json.loads(line) for line in (out / "steps.jsonl").read_text(encoding="utf-8").splitlines()]
    assert f"1 edition(s), 112 blocks, {len(steps)} steps, 26 toasts" in summary and "triples" in summary
    first_toast = next(s for s in steps if s["action"] == "献")
    assert {k: first_toast[k] for k in ("text", "agent", "recipient", "vessel", "wine", "location", "mode")} == {
        "text": "主人筵前献賔",
        "agent": "主人",
        "recipient": "賔",
        "vessel": "觚",
        "wine": "膳",
        "location": "筵前",
        "mode": "actual",
    }
    assert set(steps[0]) >= {
        "id",
        "sequence",
        "block",
        "char_start",
        "char_end",
        "text",
        "agent",
        "action",
        "recipient",
        "object",
        "vessel",
        "wine",
        "location",
        "facing",
        "mode",
    }
    toasts = [json.loads(line) for line in (out / "toasts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert (toasts[0]["giver"], toasts[0]["type"], toasts[0]["receiver"]) == ("主人", "献", "賔")
    assert (out / "graph.ttl").stat().st_size > 100_000 and (out / "graph.trig").stat().st_size > 100_000
    assert main(["validate", str(out / "graph.trig")]) == 0
    assert "conforms" in capsys.readouterr().out


def test_user_vocabulary_adds_a_role(tmp_path, capsys):
    vocab = tmp_path / "mine.ttl"
    vocab.write_text(
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
        "@prefix ykv: <https://w3id.org/yili-kg/vocab/> .\n"
        "@prefix yk: <https://w3id.org/yili-kg/ontology#> .\n"
        'ykv:role-xianzhe a skos:Concept, yk:Role ; skos:inScheme ykv:roles ; skos:prefLabel "先生"@zh-Hant, "先生"@zh-Hans ;\n'
        '  skos:definition "a retired officer of the district"@en ; yk:rank 50 .\n',
        encoding="utf-8",
    )
    text = tmp_path / "t.txt"
    text.write_text("题\n\n先生升自西阶", encoding="utf-8")
    assert main(["steps", str(text), "--vocab", str(vocab)]) == 0
    step = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (step["agent"], step["action"], step["location"]) == ("先生", "升", "西阶")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["build", "missing.txt"], "missing.txt: no such file"),
        (["steps", "--vocab", "nope.ttl"], "nope.ttl: vocabulary file not found"),
        (["serve", "--graph", "nope.trig"], "nope.trig: no such file"),
        (["validate", "nope.ttl"], "nope.ttl: no such file"),
        (["eval", "no-gold-here"], "no-gold-here: no such file or folder"),
        # not the current folder, which '' would name for the file system
        (["steps", ""], "INPUT '': an empty file name; give a text file or a folder of them"),
        (["steps", "loop.txt"], "loop.txt: a symbolic link that leads nowhere (a loop, or its target is missing)"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(tmp_path, args, expected):
    (tmp_path / "loop.txt").symlink_to("loop.txt")  # a link to itself
    proc = subprocess.run(
        [sys.executable, "-m", "yili.api.cli", *args], capture_output=True, text=True, timeout=180, cwd=tmp_path
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [f"yili-kg: error: {expected}"]


def test_malformed_vocabulary_and_graph_files(tmp_path):
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle", encoding="utf-8")
    proc = run("steps", "--vocab", str(bad))
    assert proc.returncode == 2 and "not valid Turtle" in proc.stderr and "Traceback" not in proc.stderr
    unbound = tmp_path / "unbound.ttl"
    unbound.write_text('@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\nex:a skos:b "x .\n', encoding="utf-8")
    proc = run("steps", "--vocab", str(unbound))
    # the parser's complaint and where, without its quote of the raw bytes (b'...')
    assert proc.stderr == f'yili-kg: error: {unbound}: not valid Turtle: at line 2 of <>: Bad syntax (Prefix "ex:" not bound)\n'
    proc = run("serve", "--graph", str(bad), "--port", "1")
    assert proc.returncode == 2 and "not valid" in proc.stderr and "Traceback" not in proc.stderr


def test_empty_and_commentary_only_files(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    notes = tmp_path / "notes.txt"
    notes.write_text("题\n\n注曰只有注", encoding="utf-8")
    for f, message in ((empty, "the file is empty"), (notes, "no classic text")):
        proc = run("build", str(f), "--out", str(tmp_path / "o"))
        assert proc.returncode == 2 and proc.stderr.strip() == f"yili-kg: error: {f}: {message}" or message in proc.stderr


def test_steps_into_a_closed_pipe_is_quiet():
    proc = subprocess.run(
        f"{sys.executable} -m yili.api.cli steps | head -1", shell=True, capture_output=True, text=True, timeout=180
    )
    assert json.loads(proc.stdout)["text"] == "尔大夫"
    assert "Traceback" not in proc.stderr and "Broken pipe" not in proc.stderr


def test_export_for_gephi(tmp_path, capsys):
    out = tmp_path / "g.gexf"
    assert main(["export", "gexf", "--view", "steps", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").count("<node ") == 612  # one per step of the excerpt


def test_offsets_point_into_a_crlf_file_as_decoded(tmp_path, capsys):
    f = tmp_path / "crlf.txt"
    f.write_bytes("仪礼述注\r\n\r\n主人筵前献賔賔西阶上拜\r\n\r\n注曰某\r\n\r\n賔升\r\n".encode())
    assert main(["steps", str(f)]) == 0
    text = f.read_bytes().decode("utf-8")
    steps = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(s["text"], text[s["char_start"] : s["char_end"]]) for s in steps] == [
        ("主人筵前献賔", "主人筵前献賔"),
        ("賔西阶上拜", "賔西阶上拜"),
        ("賔升", "賔升"),
    ]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("Hello world, no ritual here.\n", "no ritual act of the vocabulary was recognised"),
        ("<TEI><text><body><p>公揖卿大夫</body></TEI>", "not well-formed XML: mismatched tag"),
        ("<TEI><p>公揖卿大夫</p></TEI>", "XML without KanripoXML line breaks"),
    ],
)
def test_texts_without_classic_acts_are_refused(tmp_path, content, expected):
    f = tmp_path / "x.txt"
    f.write_text(content, encoding="utf-8")
    proc = run("steps", str(f))
    assert proc.returncode == 2 and expected in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_two_inputs_that_would_share_iris_are_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    for d in (a, b):
        (d / "ch.txt").write_text("题\n\n主人升", encoding="utf-8")
    proc = run("build", str(a / "ch.txt"), str(b / "ch.txt"), "--out", str(tmp_path / "o"))
    assert proc.returncode == 2 and proc.stderr.strip() == (
        f"yili-kg: error: {b / 'ch.txt'}: and {a / 'ch.txt'} are the same edition of the same rite (ch/ch), "
        "and would mint the same IRIs; give each edition of a rite once"
    )
    proc = run("steps", str(a / "ch.txt"), str(a / "ch.txt"))
    assert proc.returncode == 2 and "is given twice" in proc.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["build", "--base-iri", "not an iri"],
            "base IRI 'not an iri': expected an absolute http(s)-style IRI without spaces, query or fragment, "
            "such as https://example.org/kg/",
        ),
        (["export", "dot", "--out", "."], "--out '.': give a file name, not a folder"),
        (["build", "--out", ""], "--out: an empty folder name"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path, args, expected):
    proc = subprocess.run(
        [sys.executable, "-m", "yili.api.cli", *args], capture_output=True, text=True, timeout=180, cwd=tmp_path
    )
    assert proc.returncode == 2 and proc.stderr.strip() == f"yili-kg: error: {expected}"


def test_serve_on_a_port_in_use_fails_in_one_line():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = run("serve", "--port", str(port))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"yili-kg: error: 127.0.0.1:{port}: cannot serve there: Address already in use"
    assert "serving on" not in proc.stdout


@pytest.mark.parametrize("base", ["https://example.org/kg#", "https://example.org/kg?x=1", "urn:x:"])
def test_bases_with_a_fragment_or_query_are_refused(base):
    proc = run("steps", "--base-iri", base)
    assert (
        proc.returncode == 2
        and proc.stderr.startswith(f"yili-kg: error: base IRI {base!r}: expected")
        and "Traceback" not in proc.stderr
    )


def test_base_iri_reaches_the_json_lines_too(capsys):
    assert main(["steps", "--base-iri", "https://example.org/kg"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["id"] == "https://example.org/kg/step/yanli/shuzhu-excerpt/1/1"


def test_eval_refuses_a_broken_or_foreign_gold(tmp_path):
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "toasts.jsonl").write_text("", encoding="utf-8")
    (gold / "steps.jsonl").write_text('{"block": 1}\n', encoding="utf-8")
    proc = run("eval", str(gold))
    assert proc.returncode == 2 and "steps.jsonl:1: the record has no 'char_start'" in proc.stderr
    row = {
        "block": 1,
        "char_start": 0,
        "char_end": 3,
        "span": "不在此",
        "agent": None,
        "action": "揖",
        "recipient": None,
        "object": None,
        "vessel": None,
        "wine": None,
        "location": None,
        "facing": None,
        "mode": "actual",
    }
    (gold / "steps.jsonl").write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    proc = run("eval", str(gold))
    assert proc.returncode == 2 and "the gold does not annotate" in proc.stderr and "1 of 1 spans differ" in proc.stderr


def test_eval_and_rite_refuse_bad_input_with_one_line(tmp_path):
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "steps_x.jsonl").write_text(
        '{"para": 1, "char_start": 0, "char_end": 2, "file": "KR9z9999_999.txt"}\n', encoding="utf-8"
    )
    proc = run("eval", str(gold))
    assert proc.returncode == 2 and proc.stderr.strip().endswith(
        "toasts_x.jsonl: no such file (each steps file needs its toasts file beside it)"
    )
    (gold / "toasts_x.jsonl").write_text("", encoding="utf-8")
    proc = run("eval", str(gold))
    assert proc.returncode == 2
    assert (
        "the annotated file KR9z9999_999.txt is not found: no corpus/ folder beside the gold (give --corpus DIR)" in proc.stderr
    )
    proc = run("steps", "--rite", "")
    assert proc.returncode == 2 and proc.stderr.startswith("yili-kg: error: unknown rite ''")
    title_only = tmp_path / "t.txt"
    title_only.write_text("士冠禮第一\n", encoding="utf-8")
    proc = run("steps", str(title_only))
    assert (
        proc.returncode == 2
        and proc.stderr.strip() == f"yili-kg: error: {title_only}: no classic text found (only the chapter title 士冠禮第一)"
    )
    assert len(proc.stderr.strip().splitlines()) == 1


def test_the_same_input_gives_the_same_steps_whatever_the_hash_seed():
    """No iteration over a set decides a result: the excerpt and a Kanripo chapter read the same under
    two hash seeds (大夫辩受酬如受賔酬之礼 once repeated step 298 or 340 by seed)."""
    import os

    from tests.conftest import shared_path

    chapter = str(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_015.txt"))
    outs = []
    for seed in ("0", "1"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        steps = subprocess.run(
            [sys.executable, "-m", "yili.api.cli", "steps"], capture_output=True, text=True, env=env, timeout=120
        )
        toasts = subprocess.run(
            [sys.executable, "-m", "yili.api.cli", "toasts", chapter], capture_output=True, text=True, env=env, timeout=120
        )
        assert steps.returncode == 0 and toasts.returncode == 0
        outs.append((steps.stdout, toasts.stdout))
    assert outs[0] == outs[1]
    assert '"repeats": 340' in outs[0][0]


def test_a_folder_builds_every_chapter_and_leaves_front_matter_out(tmp_path):
    """yili-kg build DIR: the chapters of the folder, one edition each, with a per-rite table; the
    front matter (提要, 疏序) is left out with a one-line note."""
    from tests.conftest import shared_path

    src = tmp_path / "src"
    src.mkdir()
    for name in ("KR1d0028_000.txt", "KR1d0028_001.txt", "KR1d0028_015.txt"):
        (src / name).write_bytes(shared_path("corpus", "kanripo", "KR1d0028", name).read_bytes())
    proc = run("build", str(src), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert (
        proc.stderr.strip()
        == f"yili-kg: note: {src / 'KR1d0028_000.txt'}: no ritual act in it (front or back matter: 提要, 序, 跋); left out"
    )
    lines = proc.stdout.splitlines()
    assert "2 edition(s)" in lines[0]
    assert lines[1].split() == ["rite", "edition", "blocks", "steps", "toasts", "seconds"]
    assert [ln.split()[:3] for ln in lines[2:4]] == [
        ["shiguanli", "士冠禮", "zhushu"],
        ["teshengkuishili", "特牲饋食禮", "zhushu"],
    ]


def test_the_same_input_gives_the_same_graph_whatever_the_seed_and_the_jobs(tmp_path):
    """graph.trig, graph.ttl and the JSON Lines are byte-identical under two hash seeds, with one or
    two processes and with the inputs in either order (rdflib's blank nodes and set orders decide
    nothing; the editions come in chapter order)."""
    import os

    from tests.conftest import shared_path

    files = [str(shared_path("corpus", "kanripo", "KR1d0040", f"KR1d0040_{n}.txt")) for n in ("003", "010")]
    outs = []
    for seed, jobs, order in (("0", "1", files), ("1", "2", files[::-1])):
        out = tmp_path / f"out{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run(
            [sys.executable, "-m", "yili.api.cli", "build", *order, "--out", str(out), "--jobs", jobs],
            capture_output=True,
            text=True,
            env=env,
            timeout=180,
        )
        assert proc.returncode == 0, proc.stderr
        outs.append([(out / name).read_bytes() for name in ("graph.trig", "graph.ttl", "steps.jsonl", "toasts.jsonl")])
    assert outs[0] == outs[1]
    proc = run("build", *files, "--jobs", "0")
    assert proc.returncode == 2 and proc.stderr == "yili-kg: error: --jobs: 0: give 1 to 64 processes\n"


def test_a_failed_build_leaves_the_old_files_whole(tmp_path, monkeypatch, capsys):
    """A full disk while writing (simulated: OSError ENOSPC) names the file in one line, exit 2, and
    leaves the files of the last build as they were, with no temporary file behind."""

    import yili.graph.store

    out = tmp_path / "out"
    assert main(["build", "--out", str(out)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    assert sorted(p.name for p in out.iterdir()) == ["graph.trig", "graph.ttl", "steps.jsonl", "store", "toasts.jsonl"]
    store_files = sorted(p.name for p in (out / "store").iterdir())

    def full_disk(store, path, prefixes):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, "No space left on device")  # as Oxigraph raises it: no file name

    monkeypatch.setattr(yili.graph.store, "write_turtle", full_disk)
    capsys.readouterr()
    assert main(["build", "--out", str(out)]) == 2
    assert capsys.readouterr().err == f"yili-kg: error: {out / 'graph.ttl'}: cannot write: No space left on device\n"
    assert sorted(p.name for p in out.iterdir()) == ["graph.trig", "graph.ttl", "steps.jsonl", "store", "toasts.jsonl"]
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in (out / "store").iterdir()) == store_files

    # the store is written last: when it fails, no file of the build is replaced either
    monkeypatch.undo()

    import yili.graph.loader

    load = yili.graph.loader.StoreLoader._load

    def store_full(loader, batch):  # type: ignore[no-untyped-def]
        if loader.folder is None:  # the store in memory the files are written from
            return load(loader, batch)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(yili.graph.loader.StoreLoader, "_load", store_full)
    assert main(["build", "--out", str(out)]) == 2
    assert capsys.readouterr().err == f"yili-kg: error: {out / 'store'}: cannot write the store: No space left on device\n"
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in out.iterdir()) == ["graph.trig", "graph.ttl", "steps.jsonl", "store", "toasts.jsonl"]


def test_a_full_standard_output_ends_in_one_line():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "yili.api.cli", "steps"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120
        )
    assert proc.returncode == 2
    assert proc.stderr == "yili-kg: error: standard output: No space left on device\n"


def test_an_export_to_a_disk_that_fills_up_is_an_error_not_a_cut_file(monkeypatch, capsys):
    """On a full disk a write of the whole export may write part and return a short count with no
    error; the rest must be written, or the next write's error reported (exit 2, one line)."""
    import io

    class FillsUp(io.RawIOBase):
        def __init__(self) -> None:
            self.room = 1000

        def writable(self) -> bool:
            return True

        def write(self, data) -> int:  # type: ignore[no-untyped-def, override]
            if not self.room:
                raise OSError(errno.ENOSPC, "No space left on device")
            n = min(self.room, len(data))
            self.room -= n
            return n

    class Out:
        buffer = FillsUp()

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stdout", Out())
    assert main(["export", "ntriples"]) == 2
    assert capsys.readouterr().err == "yili-kg: error: standard output: No space left on device\n"


def test_a_vocabulary_value_the_rules_cannot_read_is_named_in_one_line(tmp_path):
    bad = tmp_path / "rank.ttl"
    bad.write_text(
        "@prefix ykv: <https://w3id.org/yili-kg/vocab/> .\n@prefix yk: <https://w3id.org/yili-kg/ontology#> .\n"
        'ykv:role-gong yk:rank "high" .\n',
        encoding="utf-8",
    )
    proc = run("steps", "--vocab", str(bad))
    assert proc.returncode == 2
    assert (
        proc.stderr
        == f"yili-kg: error: {bad}: ykv:role-gong: yk:rank must be an integer between -1,000,000 and 1,000,000, not 'high'\n"
    )


def test_pipes_devices_and_huge_files_are_refused_by_name(tmp_path):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = run("steps", str(fifo))
    assert (
        proc.returncode == 2
        and proc.stderr == f"yili-kg: error: {fifo}: not a regular file (a pipe or a device): give a text file\n"
    )
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(5 * 2**20)
    proc = run("steps", str(big))
    assert proc.returncode == 2 and "5.0 MiB is more than the 4 MiB a text may have" in proc.stderr


def test_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"yili-kg {version('yili-kg')}\n"


@pytest.mark.parametrize("chapter", [None, ("KR1d0040", "KR1d0040_005.txt"), "仪礼述注\n\n主人献\n", "献于某\n"])
def test_the_graph_holds_every_toast_of_toasts_jsonl(tmp_path, capsys, chapter):
    """Every toast written to toasts.jsonl is a yk:Toast in graph.trig, with or without a receiver
    the text names (one with none has no yk:receiver and a note that says so)."""
    import pyoxigraph

    from tests.conftest import shared_path

    if isinstance(chapter, str):  # toasts whose receiver, or giver and receiver, the text does not name
        (tmp_path / "t.txt").write_text(chapter, encoding="utf-8")
        inputs = [str(tmp_path / "t.txt")]
    else:
        inputs = [str(shared_path("corpus", "kanripo", *chapter))] if chapter else []
    out = tmp_path / "b"
    assert main(["build", *inputs, "--out", str(out)]) == 0
    listed = [json.loads(line) for line in (out / "toasts.jsonl").read_text(encoding="utf-8").splitlines()]
    store = pyoxigraph.Store()
    store.load(path=str(out / "graph.trig"), format=pyoxigraph.RdfFormat.TRIG)
    yk = "https://w3id.org/yili-kg/ontology#"
    rows = store.query(
        f"SELECT ?t ?r ?note WHERE {{ ?t a <{yk}Toast> OPTIONAL {{ ?t <{yk}receiver> ?r }} OPTIONAL {{ ?t <{yk}note> ?note }} }}",
        use_default_graph_as_union=True,
    )
    in_graph = {s["t"].value: (s["r"], s["note"]) for s in rows}
    assert sorted(in_graph) == sorted(t["step"] for t in listed)
    notes = []
    for t in listed:
        receiver, note = in_graph[t["step"]]
        assert (receiver is None) == (t["receiver"] is None)
        if note is not None:
            notes.append(note.value)
    if chapter == "献于某\n":
        assert [(t["giver"], t["receiver"]) for t in listed] == [(None, None)]
        assert notes == ["the giver and the receiver of this toast are not named in the text"]
    elif isinstance(chapter, str):
        assert [(t["giver"], t["receiver"]) for t in listed] == [("主人", None)]
        assert notes == ["the receiver of this toast is not named in the text"]


def test_validate_names_where_a_file_is_broken_and_warns_on_a_graph_without_steps(tmp_path, capsys):
    broken = tmp_path / "broken.ttl"
    broken.write_text('@prefix ex: <http://e/> .\nex:a ex:b "unterminated .\n', encoding="utf-8")
    assert main(["validate", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"yili-kg: error: {broken}: not valid Turtle: Parser error between line 2 column 11")
    assert err.count("\n") == 1
    empty = tmp_path / "empty.ttl"
    empty.write_text("", encoding="utf-8")
    assert main(["validate", str(empty)]) == 0
    out = capsys.readouterr()
    assert out.err == f"yili-kg: warning: {empty} holds no yili-kg steps: nothing in it was checked against the step shapes\n"


def test_rules_refuses_a_file_it_cannot_count_on(tmp_path):
    """``yili-kg rules`` as ``yili-kg steps``: a file named on the command line that cannot be read, or holds no
    chapter, is an error of one line (exit 2), not a table of zeros."""
    (tmp_path / "latin.txt").write_text("Gallia est omnis divisa in partes tres.\n", encoding="utf-8")
    (tmp_path / "gbk.txt").write_bytes("主人獻賔".encode("gbk"))
    for name, expected in (
        ("nosuch.txt", "nosuch.txt: no such file"),
        ("gbk.txt", "gbk.txt: not UTF-8 text (invalid byte 0xd6 at byte offset 0)"),
        ("latin.txt", "latin.txt: no classic text of a rite: 0 ritual act(s) recognised in it"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "yili.api.cli", "rules", "--jobs", "1", name],
            capture_output=True,
            text=True,
            timeout=180,
            cwd=tmp_path,
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip().splitlines() == [f"yili-kg: error: {expected}"]


def test_rules_counts_the_excerpt(capsys):
    """On the excerpt alone: the opener decided once (尔大夫: the 公), no rule is flagged ``one rite``."""
    assert (
        main(["rules", "--format", "json", "--jobs", "1", str(REPO / "ingest" / "data" / "yili_shuzhu_yanli_excerpt.txt")]) == 0
    )
    rows = {r["rule"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["agent.opener"]["decided"] == 1 and rows["agent.opener"]["by rite"] == {"yanli": 1}
    assert rows["agent.written"]["decided"] == 212
    assert not any(r["flag"] == "one rite" for r in rows.values())
