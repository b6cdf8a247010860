"""Bad input is refused with one line and exit 2 (issue 28): malformed KanripoXML, checked by an XML
parser before anything is read, and a file with no classic text of a rite (front or back matter),
alone or among others.  A folder given as INPUT leaves its front matter out with a one-line note."""

from __future__ import annotations

import shutil

import pytest

from tests.api.test_cli import run
from tests.conftest import shared_path

TEI = '<TEI><text><body><p>主人獻賓<pc n="lb"/>賓拜受爵<pc n="lb"/></p></body></text></TEI>'


def test_well_formed_kanripo_xml_is_read() -> None:
    """The control: the same text, closed, gives the steps it holds."""
    from yili.ingest.document import parse_text

    document = parse_text(TEI, source="ok.xml")
    assert [b.classic.reading_text for b in document.blocks] == ["主人獻賓賓拜受爵"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        # the file: its closing tags missing
        (
            '<TEI><text><body><p>主人獻賓<pc n="lb"/>賓拜受爵<pc n="lb"/></p></body>',
            "the file ends inside an element (a closing tag is missing) (line 1, column 64)",
        ),
        # one </p> changed to </q>
        (TEI.replace("</p>", "</q>"), "mismatched tag (line 1, column 55)"),
        # a broken attribute quote
        (TEI.replace('<pc n="lb"/>賓', '<pc n="lb/>賓', 1), "not well-formed (invalid token) (line 1, column 40)"),
        # a stray ampersand, on the second line
        (
            '<TEI><text><body>\n<p>主人 & 賓<pc n="lb"/></p></body></text></TEI>',
            "not well-formed (invalid token) (line 2, column 8)",
        ),
    ],
)
def test_malformed_xml_is_refused_in_one_line_naming_the_file(tmp_path, content, problem) -> None:
    f = tmp_path / "broken.xml"
    f.write_text(content, encoding="utf-8")
    proc = run("steps", str(f))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [f"yili-kg: error: {f}: not well-formed XML: {problem}"]


@pytest.mark.parametrize(
    ("folder", "name", "juan"),
    [
        ("KR1d0040", "KR1d0040_000.txt", "提要"),
        ("KR1d0040", "KR1d0040_018.txt", "跋"),
        ("KR1d0028", "KR1d0028_000.txt", "儀禮疏序"),
    ],
)
def test_front_or_back_matter_is_refused_alone_and_among_others(folder, name, juan) -> None:
    path = shared_path("corpus", "kanripo", folder, name)
    chapter = shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")
    expected = [f"yili-kg: error: {path}: no classic text of a rite: front or back matter (its header says JUAN {juan})"]
    for inputs in ((str(path),), (str(chapter), str(path))):
        proc = run("steps", *inputs)
        assert (proc.returncode, proc.stdout, proc.stderr.splitlines()) == (2, "", expected)


def test_a_named_text_with_a_few_stray_acts_among_others_is_refused(tmp_path) -> None:
    """Without a Kanripo header: prose of no rite with a stray act, named beside a chapter."""
    prose = tmp_path / "prose.txt"
    prose.write_text("題\n\n先生升自西階", encoding="utf-8")
    chapter = shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")
    proc = run("steps", str(chapter), str(prose))
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        f"yili-kg: error: {prose}: no classic text of a rite: only 1 ritual act(s) recognised in it, and no rite named (front or back matter?)"
    ]
    alone = run("steps", str(prose))  # alone, a paragraph with one act is a text of its own
    assert alone.returncode == 0 and '"text": "先生升自西階"' in alone.stdout


def test_a_folder_leaves_its_front_and_back_matter_out_with_a_note(tmp_path) -> None:
    src = tmp_path / "KR1d0040"
    src.mkdir()
    for name in ("KR1d0040_000.txt", "KR1d0040_015.txt", "KR1d0040_018.txt"):
        shutil.copy(shared_path("corpus", "kanripo", "KR1d0040", name), src / name)
    proc = run("build", str(src), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"yili-kg: note: {src / name}: no ritual act in it (front or back matter: 提要, 序, 跋); left out"
        for name in ("KR1d0040_000.txt", "KR1d0040_018.txt")
    ]
    steps = (tmp_path / "out" / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    assert steps[0].startswith('{"id": "https://w3id.org/yili-kg/step/teshengkuishili/shuzhu/2/1"')
    assert all("/teshengkuishili/shuzhu/" in line.split('"', 4)[3] for line in steps)
