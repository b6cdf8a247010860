"""IRIs a scholar can cite: named by rite, edition and the text's own structure, stable under edits elsewhere."""

from __future__ import annotations

import pytest
from conftest import shared_path
from rdflib import URIRef
from yili.graph.build import build_dataset, step_iri
from yili.ingest.document import load_default, parse_text, read_file

BASE = "https://w3id.org/yili-kg/"


def _steps_by_iri(extraction) -> dict[str, str]:
    return {str(step_iri(s)): s.text for s in extraction.steps}


def _minted(extraction) -> set[str]:
    """Every IRI under the base that the edition's graph holds (subjects and objects)."""
    graph = build_dataset([extraction])
    return {str(x).split("#")[0] for s, p, o, _g in graph.quads() for x in (s, o) if isinstance(x, URIRef) and str(x).startswith(BASE)}


def test_a_step_is_named_by_its_block_and_its_place_in_it(extraction):
    """主人筵前献賔 is the first step of classic block 24 of the excerpt; 賔西阶上拜 the second."""
    named = {s.text: str(step_iri(s)) for s in extraction.steps if s.block == 24}
    assert named["主人筵前献賔"] == BASE + "step/yanli/shuzhu-excerpt/24/1"
    assert named["賔西阶上拜"] == BASE + "step/yanli/shuzhu-excerpt/24/2"


@pytest.mark.parametrize("block", [3, 24, 80])
def test_inserting_a_character_in_one_block_renames_nothing_outside_it(extractor, block):
    """One character (之) inserted in the middle of classic block N shifts every later offset, yet
    every step, block, commentary and phase IRI outside block N is the same, naming the same text."""
    doc = load_default()
    target = next(b for b in doc.blocks if b.number == block)
    at = target.classic.start + len(target.classic.text) // 2
    edited = doc.text[:at] + "之" + doc.text[at:]
    before = extractor.extract(parse_text(doc.text, rite="yanli", edition="shuzhu-excerpt"))
    after = extractor.extract(parse_text(edited, rite="yanli", edition="shuzhu-excerpt"))
    assert [s.char_start for s in after.steps if s.block > block][:1] == [
        s.char_start + 1 for s in before.steps if s.block > block
    ][:1]  # the offsets did move

    def outside(iris):
        return {i for i in iris if f"shuzhu-excerpt/{block}/" not in i and not i.endswith(f"shuzhu-excerpt/{block}")}

    steps_before = {i: t for i, t in _steps_by_iri(before).items() if i in outside([i])}
    steps_after = {i: t for i, t in _steps_by_iri(after).items() if i in outside([i])}
    assert len(steps_before) > 550
    assert steps_after == steps_before
    assert outside(_minted(after)) == outside(_minted(before))


@pytest.mark.parametrize(
    ("path", "key"),
    [
        (("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt"), "shiguanli/shuzhu"),
        (("corpus", "kanripo", "KR1d0028", "KR1d0028_001.txt"), "shiguanli/zhushu"),
        (("corpus", "kanripo", "KR1d0026", "KR1d0026_001.txt"), "shiguanli/zhengzhu"),
        (("corpus", "yili_shuzhu_03_shixiangjianli.kanripoxml-tei-fragment.xml"), "shixiangjianli/shuzhu"),
        (("corpus", "yili_zhushu_04_xiangyinjiuli.kanripo.txt"), "xiangyinjiuli/zhushu"),
    ],
)
def test_rite_and_edition_keys_come_from_the_title_not_the_file_name(extractor, tmp_path, path, key):
    """The rite's key from the chapter title, the edition's from the work the #+TITLE names (a
    skos:notation in ykv:works): the same IRIs whatever the file is called."""
    source = shared_path(*path)
    renamed = tmp_path / "anything.txt"
    renamed.write_bytes(source.read_bytes())
    for p in (source, renamed):
        first = extractor.extract(read_file(p)).steps[0]
        assert first.key.startswith(key + "/")
        assert str(step_iri(first)) == f"{BASE}step/{first.key}"
    assert extractor.extract(read_file(renamed)).document.source.endswith("anything.txt")


def test_a_title_that_names_no_known_work_keeps_the_file_key(extractor, tmp_path):
    """A text whose title is not a work of the vocabulary: the file name is the only key there is."""
    path = tmp_path / "My_Edition.txt"
    path.write_text("某書\n\n主人升\n\n賓降", encoding="utf-8")
    assert extractor.extract(read_file(path), rite="yanli").document.edition == "my_edition"
