"""Variant characters (異體字) of the editions, read from ``ontology/variants.tsv``, and the spellings
of a word they give: the vocabulary's labels, the rite profiles' readings and the grammar's words are
found in every spelling (答拜 = 荅拜, 如初 = 如𥘉), while the text is kept as written."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import resources
from typing import Any

from yili.ontology.errors import VocabularyError

VARIANTS_FILE = "variants.tsv"
"""The variant characters (異體字) of the editions, one character per line in all its forms."""

MAX_SPELLINGS = 64
"""The most spellings :func:`spellings` gives one word (a label of many variant characters)."""


@functools.cache
def variant_forms() -> dict[str, str]:
    """Each character of ``ontology/variants.tsv`` → all its forms, the usual one first (於 → 於于).

    Raises
    ------
    VocabularyError
        The file is missing, not UTF-8, or a line is not ``forms<TAB>where`` with two or more
        forms, or a character stands on two lines (the message names the file and the line).
    """
    path = resources.files("yili.ontology") / VARIANTS_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VocabularyError(f"{VARIANTS_FILE}: cannot read the variant characters: {exc}") from None
    forms: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 2 or len(cells[0]) < 2 or any(ch.isspace() or ch.isascii() for ch in cells[0]):
            raise VocabularyError(
                f"{VARIANTS_FILE}, line {number}: expected the forms of one character, a tab, and where they are seen"
            )
        for ch in cells[0]:
            if ch in forms:
                raise VocabularyError(f"{VARIANTS_FILE}, line {number}: {ch} is already on the line of {forms[ch]}")
            forms[ch] = cells[0]
    return forms


def spellings(word: str) -> tuple[str, ...]:
    """Every way the editions write ``word``, the word itself first, then in the order of the
    variant file's forms (at most :data:`MAX_SPELLINGS`).

    >>> spellings("答拜")
    ('答拜', '荅拜')
    >>> spellings("如初")
    ('如初', '如𥘉')
    >>> spellings("拜")
    ('拜',)
    """
    forms = variant_forms()
    out = [""]
    for ch in word:
        choices = forms.get(ch, ch)
        out = [prefix + c for prefix in out for c in choices][:MAX_SPELLINGS]
    rest = [w for w in out if w != word]
    return (word, *rest)


def spelled(words: Iterable[str]) -> frozenset[str]:
    """The words in all their spellings (:func:`spellings`): a word set of the grammar that also
    finds 如𥘉, 于, 凢 where the text writes them so."""
    return frozenset(s for w in words for s in spellings(w))


def spelled_keys(table: dict[str, object]) -> dict[str, Any]:
    """A table keyed by words, with each key in all its spellings (the value of the key as written)."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        for s in spellings(key):
            out.setdefault(s, value)
    return out


def fold(text: str) -> str:
    """``text`` with every variant character written in its usual form (賔 → 賓, 荅 → 答, 𧃊 → 餕);
    the same length, code point for code point.

    >>> fold("主人荅拜于西階上")
    '主人答拜於西階上'
    """
    forms = variant_forms()
    return "".join(forms.get(ch, ch)[0] for ch in text)
