"""The document model: blocks, layers, offsets, and clear errors for bad files."""

from __future__ import annotations

import subprocess
import sys

import pytest
from yili.ingest.document import parse_text, read_file
from yili.ontology.errors import InputError


def test_excerpt_has_112_classic_blocks_numbered_as_the_gold(document):
    assert len(document.blocks) == 112
    assert [b.number for b in document.blocks[:3]] == [1, 2, 3]
    assert document.block(1).classic.text == "尔大夫大夫皆少进"
    assert document.block(24).classic.text.startswith("主人筵前献賔")
    assert document.title == "仪礼述注"


def test_every_piece_round_trips_to_its_offsets(document):
    pieces = [p for b in document.blocks for p in (b.classic, *b.commentary)]
    assert len(pieces) > 200
    for p in pieces:
        assert document.text[p.start : p.end] == p.text


def test_commentary_layers_are_split_and_attached(document):
    b2 = document.block(2)
    assert [(p.layer, p.text[:3]) for p in b2.commentary] == [("zhu", "注曰命"), ("shu", "○疏曰")]
    # an inline note: 执幂者升自西阶立于尊南北面东上注曰以公命…
    b11 = document.block(11)
    assert b11.classic.text.endswith("北面东上")
    assert b11.commentary[0].text.startswith("注曰以公命")
    others = [p for b in document.blocks for p in b.commentary if p.layer == "other"]
    assert others and {p.commentator for p in others} == {"杨氏"}


def test_inline_and_separate_commentary_go_to_the_block_before():
    doc = parse_text("题\n\n甲升乙降注曰某也\n\n注曰又一注○疏曰疏也\n\n丙坐")
    assert [b.classic.text for b in doc.blocks] == ["甲升乙降", "丙坐"]
    assert [p.layer for p in doc.blocks[0].commentary] == ["zhu", "zhu", "shu"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"\n\n  \n", "the file is empty"),
        ("仪礼述注\n\n注曰只有注".encode(), "no classic text"),
        (b"\xff\xfe\x00bad", "not UTF-8"),
        ("题\n\n坐\x00".encode(), "binary file"),
    ],
)
def test_bad_files_give_an_error_naming_the_file(tmp_path, content, message):
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    with pytest.raises(InputError) as err:
        read_file(f)
    assert str(f) in err.value.message and message in err.value.message


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_file(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_file(tmp_path)


def test_cli_reports_bad_input_in_one_line_with_exit_code_2(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("主人".encode("gb18030"))
    for args, expected in [
        ([str(tmp_path / "missing.txt")], "no such file"),
        ([str(bad)], "not UTF-8"),
    ]:
        proc = subprocess.run([sys.executable, "-m", "yili.api.cli", "steps", *args], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("yili-kg: error: ") and expected in lines[0]
        assert "Traceback" not in proc.stderr and proc.stdout == ""
