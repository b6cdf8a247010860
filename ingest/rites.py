"""Which rite a text is: from its title line, as given, or from the cast it names.

The profiles themselves are data (``ontology/rites.ttl``, read by :mod:`yili.ontology.rites`); this
module only decides which one a document belongs to.
"""

from __future__ import annotations

import re

from yili.ingest.document import Document
from yili.ontology.errors import InputError
from yili.ontology.rites import NEUTRAL, RiteProfile
from yili.ontology.vocabulary import Vocabulary

_ORDINAL = "[第苐弟][一二三四五六七八九十]+"
"""第N after a chapter's name (士冠禮第一; 鄉射禮苐五 in 儀禮述註, where 苐 is written for 第)."""


def find_rite(name: str, vocabulary: Vocabulary) -> RiteProfile:
    """The profile named by ``name``: its key (``yanli``), a title form or a label in any script, or
    a beginning of one that names a single rite (``teshengkuishi``, ``特牲``).

    Raises
    ------
    InputError
        If no rite has that name (the message lists the keys).
    """
    wanted = name.strip()
    for r in vocabulary.rites.values():
        if wanted in (r.key, r.hant, r.hans, r.en) or wanted in r.title_forms or wanted.lower() == r.key:
            return r
    # a unique beginning of a key (two letters at least) or of a name (teshengkuishi, 特牲, 特)
    starts = [
        r
        for r in vocabulary.rites.values()
        if wanted
        and (
            (len(wanted) >= 2 and r.key.startswith(wanted.lower()))
            or any(n.startswith(wanted) for n in (r.hant, r.hans, *r.title_forms))
        )
    ]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        names = ", ".join(f"{r.key} ({r.hant})" for r in starts)
        raise InputError(f"rite {name!r} begins more than one rite: {names}; give more of the name")
    keys = ", ".join(vocabulary.rites)
    raise InputError(f"unknown rite {name!r}: give one of {keys}, or a chapter name such as 燕禮")


def rite_from_title(text: str, vocabulary: Vocabulary, head: int = 4000) -> RiteProfile | None:
    """The rite whose chapter name opens a line of the text's head followed by 第N (``士冠禮第一``).

    Only the first ``head`` code points are searched: the title stands before the classic, and a
    chapter name cited later in the commentary is not the text's own.
    """
    start = re.sub(r"<[^>]*>", "", text[:head])  # KanripoXML tags and page markers are layout
    for line in start.splitlines():
        body = line.lstrip("\u3000 \t#+TITLE:").strip()  # noqa: B005  (a set of characters to strip, as meant)
        for r in vocabulary.rites.values():
            for form in r.title_forms:
                m = re.match(_ORDINAL, body[len(form) :]) if body.startswith(form) else None
                # the ordinal must be the rite's own chapter: the 疏序 lists 既夕第五 (in 劉向's order)
                if m is not None and _numeral(m.group()[1:]) == r.chapter:
                    return r
    return None


def _numeral(text: str) -> int:
    """一 … 十七 as an integer (0 if it is not one)."""
    digits = {c: k for k, c in enumerate("一二三四五六七八九", 1)}
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + digits.get(text[1:], 0)
    if text.endswith("十"):
        return 10 * digits.get(text[:-1], 0)
    if "十" in text:
        a, b = text.split("十", 1)
        return 10 * digits.get(a, 0) + digits.get(b, 0)
    return digits.get(text, 0)


def rite_from_cast(document: Document, vocabulary: Vocabulary) -> RiteProfile | None:
    """The rite whose cast the classic text names best (the excerpt has no title: 公, 射人, 膳宰,
    媵爵者 … make it the 燕禮).

    Each role counts with the weight 1/df, df the number of rites whose cast it is in (a role of
    one rite says more than one of many); a rite scores the weights of its roles written in the
    classic text less the weights of those that are not.  Ties go to the earlier chapter.  Returns
    None when no rite has two of its roles named.
    """
    classic = "".join(b.classic.reading_text for b in document.blocks)
    df: dict[str, int] = {}
    for r in vocabulary.rites.values():
        for key in r.cast:
            df[key] = df.get(key, 0) + 1
    named_roles = {
        key for key in df if (c := vocabulary.concepts.get(key)) is not None and any(lbl in classic for lbl in sorted(c.labels))
    }
    best: tuple[float, int] | None = None
    choice: RiteProfile | None = None
    for r in vocabulary.rites.values():
        found = [k for k in r.cast if k in named_roles]
        score = sum(1 / df[k] for k in found) - sum(1 / df[k] for k in r.cast if k not in named_roles)
        if len(found) >= 2 and (best is None or (score, -r.chapter) > best):
            best, choice = (score, -r.chapter), r
    return choice


def identify(document: Document, vocabulary: Vocabulary, given: str | None = None) -> RiteProfile:
    """The profile of ``document``: the one given, else the one its title names, else the rite key
    the document was made with (``parse_text(..., rite="yanli")``), else the one its cast makes
    likeliest, else :data:`~yili.ontology.rites.NEUTRAL`.

    Raises
    ------
    InputError
        If ``given`` names no rite.
    """
    if given is not None:
        return find_rite(given, vocabulary)
    titled = rite_from_title(document.title, vocabulary) or rite_from_title(document.text, vocabulary)
    if titled is not None:
        return titled
    if document.rite_given and document.rite in vocabulary.rites:
        return vocabulary.rites[document.rite]
    return rite_from_cast(document, vocabulary) or NEUTRAL
