"""Clause boundaries read in the mission and court rites (聘禮, 公食大夫禮, 覲禮): rules of the language that the
聘禮 gold showed wrong, each asserted on its sentence and on a sentence where it must not fire."""

from __future__ import annotations

import pytest
from yili.ingest.clauses import segment
from yili.ingest.tokens import PLACE, ROLE, Tokenizer

CAST = frozenset({"role-gong", "role-bin", "role-binzhe", "role-shi", "role-shangjie"})


@pytest.fixture(scope="module")
def tokenizer(vocabulary):
    return Tokenizer(vocabulary)


def _texts(clauses):
    return ["".join(t.text for t in c.tokens) for c in clauses]


def _heads(clauses):
    return [c.tokens[c.head].concept.key for c in clauses]


def test_a_position_after_a_negated_motion_opens_the_next_act(tokenizer, vocabulary):
    """聘禮 北面設几不降階上答再拜稽首: he does not go down; on top of the steps he bows (註 不降以主人禮未成也)."""
    clauses = segment(tokenizer.tokenize("北面設几不降階上答再拜稽首", cast=CAST), 145, vocabulary)
    assert _texts(clauses) == ["北面設几", "不降", "階上答再拜稽首"]


def test_a_bare_place_after_a_negated_motion_is_the_place_not_reached(tokenizer, vocabulary):
    """鄉射 盡階不升堂受爵: 堂 is where he does not go up to; 受爵 has no place."""
    clauses = segment(tokenizer.tokenize("盡階不升堂受爵"), 91, vocabulary)
    assert _texts(clauses)[-2:] == ["不升堂", "受爵"]


def test_li_jie_is_a_manner_of_going_up_not_a_place(tokenizer, vocabulary):
    """栗階升 (註 栗階趨君命尚疾不連歩): 栗階 is no place of the 升."""
    tokens = tokenizer.tokenize("栗階升聼命", cast=CAST)
    assert [t.text for t in tokens][:2] == ["栗階", "升"]
    assert all(t.kind != PLACE for t in tokens)


def test_a_facing_closes_its_persons_clause(tokenizer, vocabulary):
    """聘禮 栗階升公西鄉賔階上再拜稽首 (註 成拜): the 公 stands facing west, the 賔 bows on top of the steps; 賔階
    is not read as the guest's steps, and 升公 is no causative."""
    tokens = tokenizer.tokenize("栗階升公西鄉賔階上再拜稽首", cast=CAST)
    assert [(t.text, t.kind) for t in tokens][-3:] == [("賔", ROLE), ("階上", PLACE), ("再拜稽首", "action")]
    clauses = segment(tokens, 180, vocabulary)
    assert _texts(clauses) == ["栗階升", "公西鄉", "賔階上再拜稽首"]
    assert _heads(clauses) == ["action-sheng", "action-li", "action-zaibaiqishou"]
    assert not clauses[0].flags.get("causative")


def test_without_a_facing_the_guests_steps_stay_a_place(tokenizer):
    """由賔階升: after 由 the words are the west steps (賓階), no person."""
    tokens = tokenizer.tokenize("由賔階升", cast=CAST)
    assert [t.kind for t in tokens if t.text.startswith("賔")] == [PLACE]


def test_the_ones_who_receive_receive(tokenizer, vocabulary):
    """聘禮 公再拜受幣士受皮者自後右客 (註 由客後西居其左受皮也): the 士 who receive the skins are a clause of
    their own, whose act is the 受 of the phrase."""
    clauses = segment(tokenizer.tokenize("公再拜受幣士受皮者自後右客", cast=CAST), 128, vocabulary)
    assert _texts(clauses) == ["公再拜", "受幣", "士受皮者自後右客"]
    assert _heads(clauses)[-1] == "action-shou"


def test_a_phrase_in_zhe_before_a_thing_stays_a_person(tokenizer, vocabulary):
    """覲禮 再拜儐使者諸公賜服者束帛四馬: the lords who brought the garments are given the silk and horses; the
    phrase is no act of its own (and 士受馬者自前還: 還 is the act)."""
    clauses = segment(tokenizer.tokenize("再拜儐使者諸公賜服者束帛四馬", cast=CAST), 39, vocabulary)
    assert "賜" not in [c.tokens[c.head].text for c in clauses]
    clauses = segment(tokenizer.tokenize("士受馬者自前還", cast=CAST), 175, vocabulary)
    assert _texts(clauses) == ["士受馬者自前還"] and _heads(clauses) == ["action-huan"]
