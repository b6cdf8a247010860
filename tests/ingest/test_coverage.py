"""The vocabulary's report (ingest/coverage.py, ``yili-kg words``): the share of a chapter's classic
characters inside a recognised act or person, and the verb-like words the vocabulary does not know."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import shared_path
from yili.ingest.coverage import coverage, not_acts
from yili.ingest.document import parse_text, read_file


def test_a_word_standing_where_a_verb_stands_is_reported_with_its_context(extractor):
    doc = parse_text("儀禮\n\n主人揖賔賔嘫于門外主人揖", edition="t")  # 嘫: no word of the vocabulary
    c = coverage(doc, extractor.tokenizer, extractor.vocabulary, not_acts())
    assert [(v.word, v.count, v.contexts, v.decided) for v in c.verb_like] == [("嘫", 1, ["揖賔賔嘫于門外主人"], None)]
    # 12 characters; 主人 揖 賔 賔 … 主人 揖 (8) are persons and acts; 嘫, 于 and the place 門外 are not
    assert (c.characters, c.recognised) == (12, 8)
    assert [v.word for v in c.undecided] == ["嘫"]


def test_a_decided_word_is_reported_with_its_reading(extractor):
    doc = parse_text("儀禮\n\n賔對曰某不敢為儀", edition="t")
    c = coverage(doc, extractor.tokenizer, extractor.vocabulary, not_acts())
    dared = next(v for v in c.verb_like if v.word == "敢")
    assert dared.decided is not None and dared.decided.reading == "modal" and not c.undecided


def test_no_decided_word_is_also_an_act_of_the_vocabulary(vocabulary):
    acts = {label for c in vocabulary.concepts.values() if c.kind == "action" for label in c.labels}
    both = sorted(w for w in not_acts() if w in acts)
    assert both == [], f"decided not to be acts, yet acts of the vocabulary: {both}"


def test_shixiangjianli_report_counts_its_unknown_words(extractor):
    path = shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_003.txt")
    c = coverage(read_file(str(path)), extractor.tokenizer, extractor.vocabulary, not_acts())
    assert c.rite == "shixiangjianli" and 0.40 < c.share < 0.60
    words = {v.word: v for v in c.verb_like}
    assert words["疑"].count == 1 and words["疑"].contexts == ["正方不疑君"] and words["疑"].decided is None
    assert "舒" not in words  # 執玉者則唯舒武: an act of the vocabulary now (舒, to slow the step)
    assert words["敢"].decided.reading == "modal"  # 某不敢為儀: "dare", the act is 為
    assert "奉" not in words  # 左頭奉之: an act of the vocabulary now (奉, to hold up)


def test_words_command_prints_one_line_per_chapter_and_refuses_front_matter():
    run = [sys.executable, "-m", "yili.api.cli", "words"]
    chapter = str(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_003.txt"))
    out = subprocess.run([*run, chapter, "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    [rep] = json.loads(out.stdout)
    assert rep["rite"] == "shixiangjianli" and rep["characters"] > 1000
    assert {"word": "敢", "reading": next(v for v in rep["verb_like"] if v["word"] == "敢")["decided"]["reading"]} == {
        "word": "敢",
        "reading": "modal",
    }
    front = str(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_000.txt"))
    bad = subprocess.run([*run, front], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1
    assert "KR1d0040_000.txt" in bad.stderr and "Traceback" not in bad.stderr
