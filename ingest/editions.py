"""How closely two editions of one rite agree: their classic text, their steps, their toasts.

The same chapter of the 儀禮 read from two editions (the 述註, the 注疏, the 鄭注) should give the same
classic text and so the same steps; what differs should be the editions' own text (variant
characters, a character left out or added, a page missing from a file).  Each measure aligns two
sequences with :class:`difflib.SequenceMatcher` (no junk heuristic) after folding the variant
characters of ``ontology/variants.tsv`` (荅 = 答, 于 = 於), and gives the share of the first
sequence that the alignment matches.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from yili.ingest.document import Document
from yili.ingest.pipeline import Extraction
from yili.ontology.variants import fold

_LAYOUT = re.compile(r"[○\u3000 ]")


def share_matched(a: Sequence[object], b: Sequence[object]) -> float:
    """The share of ``a`` (0–1) that an alignment with ``b`` matches; 1.0 for an empty ``a``.

    >>> share_matched("主人獻賓", "主人獻衆賓")
    1.0
    >>> share_matched(["a", "b", "c", "d"], ["a", "x", "c", "d"])
    0.75
    """
    if not a:
        return 1.0
    blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    return sum(m.size for m in blocks) / len(a)


def classic_text(document: Document) -> str:
    """The classic text of a document as read (its blocks' readings), without the section marks and
    spaces, with the variant characters folded."""
    return fold(_LAYOUT.sub("", "".join(b.classic.reading_text for b in document.blocks)))


@dataclass(frozen=True)
class Agreement:
    """How closely ``other`` agrees with ``reference`` (each a share of the reference's, 0–1).

    Attributes
    ----------
    classic : float
        Of the reference's classic characters, the share the other's classic text aligns with.
    read_as_classic : float
        Of the other's classic characters, the share that aligns with the reference's: below 1 where
        the other reads a note as classic text (or has text the reference lacks).
    steps : float
        Of the reference's steps, the share aligned with a step of the other with the same folded
        text, agent, act and recipients.
    toasts : float
        Of the reference's toasts, the share aligned, in order, with a toast of the other with the
        same giver, type and receiver.
    """

    classic: float
    read_as_classic: float
    steps: float
    toasts: float


def agreement(reference: Extraction, other: Extraction) -> Agreement:
    """Compare two extractions of one rite from two editions (see the module docstring)."""
    a, b = classic_text(reference.document), classic_text(other.document)
    matched = share_matched(a, b) * len(a)

    def steps(e: Extraction) -> list[tuple[object, ...]]:
        return [(fold(s.text), tuple(p.key for p in s.agent), s.action.key, tuple(p.key for p in s.recipient)) for s in e.steps]

    def toasts(e: Extraction) -> list[tuple[object, ...]]:
        return [
            (tuple(p.key for p in t.giver), t.type.key if t.type else None, tuple(p.key for p in t.receiver)) for t in e.toasts
        ]

    return Agreement(
        classic=matched / len(a) if a else 1.0,
        read_as_classic=matched / len(b) if b else 1.0,
        steps=share_matched(steps(reference), steps(other)),
        toasts=share_matched(toasts(reference), toasts(other)),
    )
