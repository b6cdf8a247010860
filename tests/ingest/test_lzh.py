"""The word lists of the classical language (ontology/lzh/*.tsv), read by the grammar by name."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from yili.ingest import grammar as g
from yili.ontology import lzh_words as lzh
from yili.ontology.errors import VocabularyError

ROOT = Path(__file__).resolve().parents[2]
LZH = ROOT / "ontology" / "lzh"
GRAMMAR = ROOT / "ingest" / "grammar.py"


def _reads() -> dict[str, str]:
    """The lists ingest/grammar.py reads: name → how (``words``, ``sequence``, ``table``)."""
    out: dict[str, str] = {}
    for node in ast.walk(ast.parse(GRAMMAR.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "lzh"
        ):
            assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), ast.unparse(node)
            out[node.args[0].value] = node.func.attr
    return out


def test_every_lzh_file_parses():
    """Each file has the header and parses on its own; together they hold the grammar's 89 lists."""
    files = sorted(LZH.glob("*.tsv"))
    assert [f.name for f in files] == ["function_words.tsv", "idioms.tsv"]
    for f in files:
        assert lzh.read_lists([(f.name, f.read_text(encoding="utf-8"))])
    assert len(lzh.entries()) == 89
    assert sum(len(es) for es in lzh.entries().values()) == 270


def test_each_name_the_grammar_reads_exists_and_every_list_is_read():
    reads = _reads()
    assert set(reads) == set(lzh.entries())
    assert reads["JUNIORS"] == "sequence" and reads["IDIOMS"] == reads["NOT_SUBJECT_BEFORE"] == "table"


def test_the_grammar_reads_the_words_of_the_data():
    """The grammar's names give the words of the files, with their variant spellings added."""
    single = ("THEIR", "ELDEST", "INSTRUMENT", "WITH_WHAT", "THERE_IS", "PERSON_WORD", "LOCATIVE_PREPOSITIONS")
    assert {name: sorted(getattr(g, name)) for name in single} == {
        "THEIR": ["其"],
        "ELDEST": ["長"],
        "INSTRUMENT": ["以"],
        "WITH_WHAT": ["用"],
        "THERE_IS": ["有"],
        "PERSON_WORD": ["人"],
        "LOCATIVE_PREPOSITIONS": sorted(["于", "於", "乎"]),
    }
    assert {"如初", "如𥘉"} <= {"如" + w for w in g.COMPARISON_ENDS}
    assert g.JUNIORS == ("弟子", "之後生者")  # in file order: the first suffix that matches is taken off
    assert g.SPEECH_CLOSINGS[:2] == ("不敢固辭", "敢不敬從")  # the longest first
    assert g.IDIOMS["既爵"] == "tail" and g.IDIOMS["寡小君"] == "tail"
    assert (g.NOT_SUBJECT_BEFORE["若"], g.NOT_SUBJECT_BEFORE["唯"], g.NOT_SUBJECT_BEFORE["有"]) == (
        "alternative",
        "chooser",
        "existential",
    )
    assert g.APPENDIX_MARK == "記"
    assert g.is_number("兩") and g.is_number("十") and not g.is_number("人")


def test_no_duplicates_and_every_entry_glossed():
    """Read as plain tab-separated text: no word twice in a list, a gloss for every entry, a reading exactly
    for the words of a table, each list in one file."""
    reads = _reads()
    home: dict[str, str] = {}
    for f in sorted(LZH.glob("*.tsv")):
        rows = [line.split("\t") for line in f.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
        assert rows[0] == ["name", "word", "reading", "gloss", "source"]
        seen: set[tuple[str, str]] = set()
        for name, word, reading, gloss, _source in rows[1:]:
            assert (name, word) not in seen, (f.name, name, word)
            seen.add((name, word))
            assert gloss.strip(), (f.name, name, word)
            assert bool(reading) == (reads[name] == "table"), (f.name, name, word)
            assert home.setdefault(name, f.name) == f.name
    assert lzh.entries()["WITH_WHAT"][0].source.startswith("楔齒用角柶")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name\tword\treading\tgloss\tsource\nTHEIR\t其\t\ttheir\t\nTHEIR\t其\t\ttheir\t\n",
            "bad.tsv, line 3: 其 is twice in list THEIR",
        ),
        ("name\tword\treading\tgloss\tsource\nTHEIR\t其\t\t\t\n", "bad.tsv, line 2: THEIR 其 has no English gloss"),
        ("name\tword\treading\tgloss\tsource\nTHEIR\t其\ttheir\n", "bad.tsv, line 2: expected 5 tab-separated columns, got 3"),
        ("THEIR\t其\t\ttheir\t\n", "bad.tsv, line 1: expected the header"),
        ("name\tword\treading\tgloss\tsource\ntheir\t其\t\ttheir\t\n", "bad.tsv, line 2: 'their' is no list name"),
        ("# only comments\n", "bad.tsv: no header line"),
    ],
)
def test_a_bad_list_is_refused_naming_the_file_and_line(text, message):
    with pytest.raises(VocabularyError, match=message.replace("(", r"\(")):
        lzh.read_lists([("bad.tsv", text)])


def test_a_list_in_two_files_and_an_unknown_name_are_refused():
    one = "name\tword\treading\tgloss\tsource\nTHEIR\t其\t\ttheir\t\n"
    with pytest.raises(VocabularyError, match="b.tsv, line 2: list THEIR is already in a.tsv"):
        lzh.read_lists([("a.tsv", one), ("b.tsv", one)])
    with pytest.raises(VocabularyError, match="no word list named NOSUCH"):
        lzh.words("NOSUCH")
    with pytest.raises(VocabularyError, match="THEIR 其 has no reading"):
        lzh.table("THEIR")


def test_the_lists_ship_with_the_package():
    """pyproject's package-data includes ontology/lzh/*.tsv (checked by a built wheel when it was added)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "lzh/*.tsv" in data["tool"]["setuptools"]["package-data"]["yili.ontology"]


def test_the_grammar_holds_no_word_lists_of_its_own():
    """No module-level set, tuple, list or dict literal of the grammar holds Chinese words: they are data.
    (The tables keyed by concept keys, NOUN_AFTER and the like, hold no Chinese.)"""
    tree = ast.parse(GRAMMAR.read_text(encoding="utf-8"))
    literal = (ast.Set, ast.Tuple, ast.List, ast.Dict)
    chinese = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for sub in ast.walk(node.value):
                if isinstance(sub, literal):
                    words = [c.value for c in ast.walk(sub) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                    chinese += [w for w in words if any(ord(ch) > 0x2E80 for ch in w)]
    assert chinese == []
