"""``segment()`` in its three steps: re-tagging, acts and quoted speech, clause boundaries."""

from __future__ import annotations

import pytest
from yili.ingest.clauses import clause_bounds, normalise, segment
from yili.ingest.tokens import ACTION, Tokenizer


@pytest.fixture(scope="module")
def tokenizer(vocabulary):
    return Tokenizer(vocabulary)


def _texts(clauses):
    return ["".join(t.text for t in c.tokens) for c in clauses]


def test_the_excerpts_washing_is_cut_into_its_six_acts(tokenizer, vocabulary):
    tokens = tokenizer.tokenize("主人北面盥坐取觚洗賔少进辞洗")
    clauses = segment(tokens, 7, vocabulary)
    assert _texts(clauses) == ["主人北面盥", "坐", "取觚", "洗", "賔少进", "辞洗"]
    assert [c.block for c in clauses] == [7] * 6
    assert ["".join(c.tokens[c.head].text) for c in clauses] == ["盥", "坐", "取", "洗", "进", "辞"]


def test_clause_bounds_tile_the_block_between_its_heads(tokenizer, vocabulary):
    tokens, flags = normalise(tokenizer.tokenize("主人北面盥坐取觚洗賔少进辞洗"), vocabulary)
    heads = [i for i, t in enumerate(tokens) if t.kind == ACTION]
    bounds = clause_bounds(tokens, heads, flags)
    assert (bounds[0], bounds[-1], len(bounds)) == (0, len(tokens), len(heads) + 1)
    assert ["".join(t.text for t in tokens[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)] == [
        "主人北面盥",
        "坐",
        "取觚",
        "洗",
        "賔少进",
        "辞洗",
    ]


def test_words_said_after_an_act_are_a_clause_of_their_own(tokenizer, vocabulary):
    """士相見 主人復見之以其摯 | 曰…: the 曰 after the act's object opens the words (``words_after_act``)."""
    clauses = segment(tokenizer.tokenize("主人復見之以其摯曰嚮者吾子辱"), 1, vocabulary)
    assert _texts(clauses) == ["主人復見之以其摯", "曰嚮者吾子辱"]
    assert clauses[-1].flags == {"words_after_act": True, "quote": "嚮者吾子辱"}
