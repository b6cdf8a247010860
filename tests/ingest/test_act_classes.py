"""The classes of acts are data (``ontology/act_classes.ttl``), read by the rules through one loader."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rdflib import Graph
from yili.ingest import cups, grammar, recipients, resolver, scenes
from yili.ontology.act_classes import ACT_CLASSES_FILE, act_class, act_classes, classes_from_graph
from yili.ontology.errors import VocabularyError
from yili.ontology.vocabulary import load_vocabulary

INGEST = Path(grammar.__file__).resolve().parent
_KEY = re.compile(r"^(action|object|vessel|role|place|wine|facing)-")


def test_every_member_is_a_concept_of_the_vocabulary_of_its_kind():
    vocabulary = load_vocabulary()
    classes = act_classes()
    assert len(classes) == 58
    for key, cls in classes.items():
        kinds = {vocabulary.concepts[m].kind for m in cls.members}
        assert kinds == {"action"} if key.startswith("acts-") else kinds <= {"object", "vessel"}, key


def test_each_class_has_an_english_name_and_a_definition_that_cites_the_text():
    for key, cls in act_classes().items():
        assert cls.label and cls.label.isascii(), key
        assert re.search(r"[\u4e00-\u9fff]", cls.definition), key  # the words of the text it rests on


def test_the_rules_read_the_classes_with_their_members():
    assert act_class("acts-pouring") == {"action-zhuo", "action-shi-fill"}
    # one class where four modules each wrote the same set
    assert grammar.FILLING is cups._POURING is resolver._POURING_ACTS is act_class("acts-pouring")
    assert recipients._BOWS is grammar.BOWS_FOR_A_GIFT
    assert {
        "action-sheng",
        "action-jiang",
        "action-ru",
        "action-chu",
        "action-jin",
        "action-shi-go",
        "action-fu-goback",
    } == grammar.MOTION_VERBS
    assert {"action-bu-spread", "action-she", "action-xi-mat"} == scenes._MAT_ACTIONS
    assert act_classes()["acts-motion"].label == "motion"
    assert act_classes()["things-meat-stand"].members == {"object-zu", "object-zhezu", "vessel-zu"}


def test_the_postures_are_the_concepts_the_vocabulary_flags_as_postures():
    flagged = {c.key for c in load_vocabulary().of_kind("action") if c.flag("posture")}
    assert grammar.POSTURES == flagged == {"action-zuo-sit", "action-xing", "action-li"}


def test_every_class_is_read_by_a_rule():
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(INGEST.glob("*.py")))
    unread = [k for k in act_classes() if f'act_class("{k}")' not in source]
    assert unread == []


def test_no_module_of_ingest_keeps_a_set_of_concept_keys():
    """A class of acts is said once, in ``act_classes.ttl``: no module-level name of ``ingest/`` is a
    literal set or tuple of two or more concept keys (relations between acts, dicts, are not classes)."""
    found = []
    for path in sorted(INGEST.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                continue
            value = node.value
            if isinstance(value, ast.Call) and value.args:  # frozenset({...})
                value = value.args[0]
            if isinstance(value, (ast.Set, ast.Tuple)) and any(
                isinstance(e, ast.Constant) and isinstance(e.value, str) and _KEY.match(e.value) for e in value.elts
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_an_unknown_class_is_a_one_line_error_naming_the_file():
    with pytest.raises(VocabularyError, match=r"^act_classes\.ttl: no class ykv:acts-flying$"):
        act_class("acts-flying")


def test_a_class_without_members_or_name_is_refused_with_its_iri():
    g = Graph().parse(
        data="""@prefix ykv: <https://w3id.org/yili-kg/vocab/> . @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
        ykv:acts-empty a skos:Collection ; skos:prefLabel "empty"@en ; skos:definition "坐"@en .""",
        format="turtle",
    )
    with pytest.raises(VocabularyError, match=rf"^{ACT_CLASSES_FILE}: https://w3id.org/yili-kg/vocab/acts-empty: .*skos:member"):
        classes_from_graph(g)
    g = Graph().parse(
        data="""@prefix ykv: <https://w3id.org/yili-kg/vocab/> . @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
        ykv:acts-odd a skos:Collection ; skos:prefLabel "odd"@en ; skos:definition "坐"@en ; skos:member "action-zuo" .""",
        format="turtle",
    )
    with pytest.raises(VocabularyError, match=r"skos:member action-zuo is not a concept of the vocabulary"):
        classes_from_graph(g)
