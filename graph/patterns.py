"""Search the step sequences: patterns of acts, what follows an act, the most frequent runs of acts.

The questions scholars ask of sequence ("what does the host do between washing the cup and presenting
it", "what always follows a 拜送") are answered from an index held in memory (:class:`PatternIndex`):
each edition's acts in order, and for each action concept (and every broader one: a 酳 is a 獻, 特牲
註 酳猶衍也 是獻尸也) the positions of the steps that do it.  A pattern looks up the steps of its first
act and walks forward a few steps for the others, so a pattern over the whole corpus costs
milliseconds, not a SPARQL property path per query.

Patterns are written as comma-separated elements, each ``[AGENT:]ACT[→RECIPIENT]`` (``洗,酌,獻``;
``主人:洗,主人:獻→賔``; ``->`` may stand for ``→``), every name in any written form (賔 = 賓 = 宾).
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from yili.graph.acts import Act, by_sequence
from yili.ontology.errors import QueryError, UnknownTermError
from yili.ontology.vocabulary import Vocabulary

MAX_PATTERN = 12
"""Most elements in a pattern."""
SEPARATORS = "[,，、…]+"
"""What separates the elements of a pattern (a regular expression)."""
MAX_WITHIN = 200
"""Widest window (steps) a pattern may span."""
DEFAULT_WITHIN = 25
"""Default widest span of a pattern, in steps: the host's washing, pouring and presenting of the cup to the
賓 in the 燕禮 span 22 (主人卒洗 … 主人酌膳 … 主人筵前獻賓), his bows and the guest's declining between.
"""
MAX_N = 8
"""Longest n-gram or continuation asked for."""


@dataclass(frozen=True)
class Element:
    """One element of a pattern.

    Attributes
    ----------
    act : str
        Action concept key; a step matches if its action is this or a narrower one.
    agent, recipient : str | None
        Role concept keys the step must name among its agents (recipients); None: any.
    written : str
        The element as given.
    """

    act: str
    agent: str | None
    recipient: str | None
    written: str

    def matches(self, act: Act, closure: dict[str, frozenset[str]]) -> bool:
        """Whether ``act`` does this (its action under :attr:`act`, the agent and recipient named)."""
        return (
            act.mode != "negated"
            and self.act in closure.get(act.action, frozenset())
            and (self.agent is None or self.agent in act.agents)
            and (self.recipient is None or self.recipient in act.recipients)
        )


def parse_pattern(text: str, vocabulary: Vocabulary) -> tuple[Element, ...]:
    """Read a pattern (``洗,酌,獻``, ``主人:洗,主人:獻→賔``; ``、``, ``，`` and ``…`` separate too).

    Raises
    ------
    QueryError
        Empty, longer than 400 characters, or more than :data:`MAX_PATTERN` elements.
    UnknownTermError
        A name the vocabulary does not know, or an element that is not ``[AGENT:]ACT[→RECIPIENT]``
        (HTTP 404, naming it).

    >>> from yili.ontology.vocabulary import load_vocabulary
    >>> [(e.agent, e.act, e.recipient) for e in parse_pattern("主人:洗, 獻→賔", load_vocabulary())]
    [('role-zhuren', 'action-xi', None), (None, 'action-xian', 'role-bin')]
    """
    if len(text) > 400:
        raise QueryError(f"pattern of {len(text)} characters: at most 400")
    pieces = [p.strip() for p in re.split(SEPARATORS, text) if p.strip()]
    if not pieces:
        raise QueryError("empty pattern: give acts separated by commas, e.g. 洗,酌,獻")
    if len(pieces) > MAX_PATTERN:
        raise QueryError(f"pattern of {len(pieces)} acts: at most {MAX_PATTERN}")
    out = []
    for p in pieces:
        m = re.fullmatch(r"(?:([^:：→>]+)[:：])?([^:：→\->]+)(?:(?:→|->)([^:：→>]+))?", p)
        if m is None:
            raise UnknownTermError(f"pattern element {p!r} names no act: write [AGENT:]ACT[→RECIPIENT], e.g. 主人:獻→賔")
        agent, act, recipient = (g.strip() if g else None for g in m.groups())
        out.append(
            Element(
                act=vocabulary.lookup(act or "", "action").key,
                agent=vocabulary.lookup(agent, "role").key if agent else None,
                recipient=vocabulary.lookup(recipient, "role").key if recipient else None,
                written=p,
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of a pattern: the steps that match its elements, in order.

    Attributes
    ----------
    where : str
        ``rite/edition``.
    steps : tuple[Act, ...]
        One per element.
    """

    where: str
    steps: tuple[Act, ...]

    @property
    def span(self) -> int:
        """Steps from the first matched to the last, inclusive."""
        return self.steps[-1].sequence - self.steps[0].sequence + 1


class PatternIndex:
    """The acts of every edition, indexed by action concept (with every broader concept).

    Parameters
    ----------
    acts : iterable of Act
        Every step (:func:`yili.graph.acts.acts_from_store` or :func:`~yili.graph.acts.acts_from_extractions`).
        The 記 (appendix) is left out: its steps are not in sequence with the story.
    vocabulary : Vocabulary
    """

    def __init__(self, acts: Iterable[Act], vocabulary: Vocabulary) -> None:
        from yili.ontology.comparison import load_parts

        self.vocabulary = vocabulary
        self.counts_as = load_parts().counts_as
        self.sequences: dict[str, list[Act]] = {k: [a for a in v if not a.appendix] for k, v in by_sequence(acts).items()}
        self.keys: list[str] = list(self.sequences)
        self.closure: dict[str, frozenset[str]] = {}
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for si, key in enumerate(self.keys):
            for pos, act in enumerate(self.sequences[key]):
                if act.action not in self.closure:
                    self.closure[act.action] = self._closure(act.action)
                for concept in sorted(self.closure[act.action]):
                    self.postings.setdefault(concept, []).append((si, pos))

    def _closure(self, action: str) -> frozenset[str]:
        """The acts a step doing ``action`` matches: itself, what it counts as (``ontology/comparison.ttl``:
        實 the cup counts as 酌) and everything broader of either (``skos:broader*``)."""
        found = {action} | self.vocabulary.broader_closure(action)
        if (other := self.counts_as.get(action)) is not None:
            found |= {other} | self.vocabulary.broader_closure(other)
        return frozenset(found)

    def rite_keys(self, rite: str | None) -> set[int]:
        """Indexes (into :attr:`keys`) of the sequences of ``rite`` (any written form), or of all.

        Raises
        ------
        UnknownTermError
            ``rite`` names no rite.
        """
        if not rite:
            return set(range(len(self.keys)))
        from yili.ingest.rites import find_rite
        from yili.ontology.errors import InputError, UnknownTermError

        try:
            key = find_rite(rite, self.vocabulary).key
        except InputError as exc:
            raise UnknownTermError(exc.message) from None
        return {i for i, k in enumerate(self.keys) if k.split("/")[0] == key}

    def search(self, pattern: Sequence[Element], within: int = DEFAULT_WITHIN, rite: str | None = None) -> list[Occurrence]:
        """Every occurrence of ``pattern``: for each step matching its first element, the earliest steps
        after it matching the others in turn, the last at most ``within - 1`` steps after the first; of
        the occurrences that end on one step, the one that starts latest.

        Parameters
        ----------
        pattern : sequence of Element
        within : int
            Widest span in steps, first to last inclusive (``len(pattern)`` to :data:`MAX_WITHIN`).
        rite : str, optional
            Keep the editions of one rite.

        Returns
        -------
        list[Occurrence]
            In edition order, then text order.

        Raises
        ------
        QueryError
            ``within`` is out of range.
        """
        if not len(pattern) <= within <= MAX_WITHIN:
            raise QueryError(f"within={within}: give {len(pattern)} to {MAX_WITHIN} steps for a pattern of {len(pattern)}")
        keep = self.rite_keys(rite)
        first, rest = pattern[0], pattern[1:]
        found: list[Occurrence] = []
        for si, pos in self.postings.get(first.act, ()):
            if si not in keep:
                continue
            seq = self.sequences[self.keys[si]]
            if not first.matches(seq[pos], self.closure):
                continue
            chosen = [seq[pos]]
            at = pos
            limit = min(len(seq), pos + within)
            for element in rest:
                at = next((k for k in range(at + 1, limit) if element.matches(seq[k], self.closure)), -1)
                if at < 0:
                    break
                chosen.append(seq[at])
            if len(chosen) == len(pattern):
                found.append(Occurrence(self.keys[si], tuple(chosen)))
        # of occurrences ending on one step keep the tightest (the latest start): 主人卒洗 … 酌 … 獻賓,
        # not each earlier 洗 of the same cup
        tightest: dict[tuple[str, int], Occurrence] = {}
        for o in found:
            end = (o.where, o.steps[-1].sequence)
            if end not in tightest or o.steps[0].sequence > tightest[end].steps[0].sequence:
                tightest[end] = o
        return sorted(tightest.values(), key=lambda o: (o.where, o.steps[0].sequence))

    def following(self, element: Element, n: int = 1, rite: str | None = None) -> dict[str, Counter[tuple[str, ...]]]:
        """What follows each step matching ``element``: the actions of the next ``n`` steps (their
        concepts' zh-Hant labels), counted per ``rite/edition``; a step too near the end is not counted.

        Raises
        ------
        QueryError
            ``n`` is not 1 to :data:`MAX_N`.
        """
        if not 1 <= n <= MAX_N:
            raise QueryError(f"n={n}: give 1 to {MAX_N}")
        keep = self.rite_keys(rite)
        out: dict[str, Counter[tuple[str, ...]]] = {}
        for si, pos in self.postings.get(element.act, ()):
            seq = self.sequences[self.keys[si]]
            if si not in keep or not element.matches(seq[pos], self.closure) or pos + n >= len(seq):
                continue
            out.setdefault(self.keys[si], Counter())[tuple(self.label(a) for a in seq[pos + 1 : pos + 1 + n])] += 1
        return out

    def ngrams(self, n: int = 3, rite: str | None = None) -> dict[str, Counter[tuple[str, ...]]]:
        """Every run of ``n`` consecutive acts (zh-Hant labels of their action concepts), counted per
        ``rite/edition``.

        Raises
        ------
        QueryError
            ``n`` is not 1 to :data:`MAX_N`.
        """
        if not 1 <= n <= MAX_N:
            raise QueryError(f"n={n}: give 1 to {MAX_N}")
        out: dict[str, Counter[tuple[str, ...]]] = {}
        for si in sorted(self.rite_keys(rite)):
            labels = [self.label(a) for a in self.sequences[self.keys[si]]]
            out[self.keys[si]] = Counter(tuple(labels[i : i + n]) for i in range(len(labels) - n + 1))
        return out

    def label(self, act: Act) -> str:
        """The act's action as its concept's zh-Hant label (獻, whatever the edition writes), with 不
        before a negated act; the written form if the action is not in the vocabulary."""
        c = self.vocabulary.concepts.get(act.action)
        word = c.hant if c is not None else act.action_label
        return ("不" + word) if act.mode == "negated" else word


def ranked(counts: Counter[tuple[str, ...]], top: int | None = None) -> list[tuple[tuple[str, ...], int]]:
    """``counts`` most frequent first, ties in code point order of the acts (same input, same order)."""
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return items[:top] if top else items


def ngrams_csv(table: dict[str, Counter[tuple[str, ...]]], top: int | None = None) -> str:
    """The n-grams of :meth:`PatternIndex.ngrams` as CSV (RFC 4180): ``sequence, rank, acts, count``,
    ``acts`` joined with ``,`` (one cell), each edition's ``top`` most frequent."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["sequence", "rank", "acts", "count"])
    for key in sorted(table):
        for rank, (gram, count) in enumerate(ranked(table[key], top), 1):
            w.writerow([key, rank, ",".join(gram), count])
    return out.getvalue()
