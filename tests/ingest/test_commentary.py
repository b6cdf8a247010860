"""The commentary read as data (ingest/commentary.py): real glosses, readings and citations, and the
precision measured on a hand-checked sample (tests/ingest/data/commentary_sample.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import shared_path
from tests.ingest.commentary_corpus import corpus, record

SAMPLE = Path(__file__).parent / "data" / "commentary_sample.jsonl"

FLOORS = {"gloss": 0.95, "reading": 0.95, "citation": 0.95}
"""Precision floors (the issue's 0.95). Measured on the sample: glosses 198/200 = 0.99, readings 97/100,
citations 99/100.

How the sample was drawn: ``random.Random(25)`` drew 200 glosses, then 100 readings, then 100 citations
from the records of the 39 chapters (``commentary_corpus.corpus``), each checked by hand against the
text (``correct``).  The first gloss rules measured 0.83; the X，Y也 rule was tightened twice, each
time on the errors seen; after the first change the glosses were drawn again (``random.Random(2025)``)
and checked; after the second, the 12 sampled glosses no longer produced (9 of them errors) were
replaced by the first 12 new records of a ``random.Random(20251)`` shuffle, checked by hand too.  When
the 注疏's blocks became the classic up to its commentary (a ○ in the classic starts no block) and its run-on
notes were cut by shipped models (issue 28), the 注疏 records took their new block numbers (99 rows, the
records otherwise the same); 疏 鄉飲酒云賓及衆賓皆從之 (鄉射禮, 3949) now finds the passage in its own
edition, the 注疏's 鄉飲酒禮 (block 13); and the one record no longer produced (特牲 注 受行酬也, whose
note is now cut before it) was replaced by the first gloss of a ``random.Random(20251)`` shuffle of those
not in the sample (鄭注 鄉射禮 相扶工也, checked: 相 of 瑟先相者).  When the 注疏's 喪服 read an entry and its 傳
with no 鄭注 between as one block (issue 24), its 14 records and the one citation of its 記 (士喪禮 疏 喪服記云)
took their new block numbers, the records otherwise the same."""


@pytest.fixture(scope="module")
def read():
    return corpus(shared_path("corpus", "kanripo"))


def _records(read):
    out = set()
    for name, doc, c in read:
        for kind, items in (("gloss", c.glosses), ("reading", c.readings), ("citation", c.citations)):
            for it in items:
                out.add(json.dumps(record(kind, name, doc, it), ensure_ascii=False, sort_keys=True))
    return out


def test_the_sample_is_still_produced_and_precise_enough(read):
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    assert [sum(1 for r in rows if r["kind"] == k) for k in ("gloss", "reading", "citation")] == [200, 100, 100]
    produced = _records(read)
    for r in rows:
        key = json.dumps({k: v for k, v in r.items() if k != "correct"}, ensure_ascii=False, sort_keys=True)
        assert key in produced, f"no longer produced: {key}"
    for kind, floor in FLOORS.items():
        verdicts = [r["correct"] for r in rows if r["kind"] == kind]
        assert sum(verdicts) / len(verdicts) >= floor, kind
    assert len({r["rite"] for r in rows}) == 13 and {r["edition"] for r in rows} == {"shuzhu", "zhushu", "zhengzhu"}


def test_zheng_glosses_you_as_yan_in_the_teshengkuishili(read):
    doc, c = next((d, c) for name, d, c in read if name == "KR1d0040_015.txt")
    g = next(g for g in c.glosses if g.term == "酳")
    assert (g.formula, g.gloss, g.statement.authority, g.statement.label) == ("猶", "衍", "person-zhengxuan", "注")
    assert doc.text[g.target.start : g.target.end] == "酳" and g.target.start == 7393
    assert doc.text[g.start : g.end] == "酳猶衍也"
    block = doc.block(g.statement.block).classic
    assert block.start <= g.target.start < block.end


def test_an_old_text_reading_in_the_shiguanli(read):
    doc, c = next((d, c) for name, d, c in read if name == "KR1d0040_001.txt")
    r = next(r for r in c.readings if r.witness == "古文")
    assert (r.term, r.variant, r.formula, r.statement.label) == ("袗", "均", "為", "注")
    assert doc.text[r.target.start : r.target.end] == "袗"


def test_a_shu_citation_of_another_chapter_is_resolved_to_its_passage(read):
    doc, c = next((d, c) for name, d, c in read if name == "KR1d0028_015.txt")
    cites = [x for x in c.citations if x.marker == "士冠禮云" and x.passage and x.passage.quote.startswith("主人")]
    assert cites, "the 特牲 疏 cites 士冠禮 主人𤣥冠朝服…"
    x = cites[0]
    assert x.statement.label == "疏" and x.statement.authority == "person-jiagongyan"
    p = x.passage
    assert (p.rite, p.edition, p.block, p.quote) == ("shiguanli", "zhushu", 3, "主人𤣥冠朝服緇帶素韠")
    cited = next(d for name, d, _ in read if name == "KR1d0028_001.txt")
    assert cited.text[p.start : p.end].replace("¶", "").replace("\n", "").startswith("主人𤣥冠")
