"""Compare two step sequences: two rites, two editions of one rite, or two stages, aligned act by act.

Scholars read the 儀禮 comparatively: the 鄉射禮 repeats the 鄉飲酒禮's toasts before its archery
(鄉射禮 註 "如鄉飲酒之禮"), the 少牢 is the 特牲 of a higher rank.  Two steps are compared by what they
do, not by their words (:func:`signature`): the action concept, the agent and the recipient by their
**part** in their own rite (``ontology/comparison.ttl`` over the profiles of ``ontology/rites.ttl``: the 主人
of the 鄉飲酒禮 and the 公 of the 燕禮 both preside), the cup and the place as weaker evidence
(:func:`pair_score`).  The alignment itself is Biopython's :class:`Bio.Align.PairwiseAligner`
(Needleman–Wunsch–Gotoh: global, affine gaps) over the two sequences of signatures, with a substitution
matrix over the signatures that occur.
"""

from __future__ import annotations

import csv
import difflib
import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from Bio.Align import PairwiseAligner, substitution_matrices
from yili.graph.acts import Act
from yili.ontology.comparison import Parts, load_parts
from yili.ontology.rites import NEUTRAL
from yili.ontology.variants import fold
from yili.ontology.vocabulary import Vocabulary

ACTION_SAME = 3.0
"""Score of two steps doing the same act (same action concept)."""
ACTION_NEAR = 2.0
"""Score of two acts one of which is a kind of the other (``skos:broader``): 酳 is a 獻 (特牲 主人洗角升酌酳尸
註 酳猶衍也 是獻尸也)."""
ACTION_OTHER = -2.0
"""Score of two different acts, whatever their persons."""
PARTY_SAME, PARTY_OTHER = 1.0, -1.0
"""Agent (or recipient) parts that meet / that are both known and do not meet."""
WEAK_SAME, WEAK_OTHER = 0.5, -0.25
"""Cup (or place) the same / both written and different: weaker evidence."""
GAP_OPEN, GAP_EXTEND = -3.0, -0.5
"""Affine gap scores (the first step of a gap, each further step): a run of steps one side lacks (the
archery of the 鄉射禮) costs little more per step than one."""


@dataclass(frozen=True)
class Signature:
    """What a step does, as the comparison reads it (hashable; equal signatures are "the same step").

    Attributes
    ----------
    action : str
        Action concept key (the one it counts as, ``ontology/comparison.ttl``: 實 → 酌), with ``!`` after
        it for a negated act (不拜).
    agent, recipient : tuple[str, ...]
        The parts of the agents (recipients) in their rite (:meth:`Parts.parts_of`), sorted, unique.
    vessel, location : str | None
        Concept keys.
    """

    action: str
    agent: tuple[str, ...]
    recipient: tuple[str, ...]
    vessel: str | None
    location: str | None

    def token(self) -> str:
        """The signature as one string (a letter of the aligner's alphabet)."""
        return "|".join((self.action, "+".join(self.agent), "+".join(self.recipient), self.vessel or "", self.location or ""))


def signature(act: Act, vocabulary: Vocabulary, parts: Parts | None = None) -> Signature:
    """The :class:`Signature` of ``act``, its persons read as their parts in the act's own rite."""
    parts = parts or load_parts()
    profile = vocabulary.rites.get(act.rite, NEUTRAL)

    def of(roles: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted({p for r in roles for p in parts.parts_of(r, profile)}))

    # an act that counts as another (實 the cup is the pouring, 酌) is read as that one
    action = parts.counts_as.get(act.action, act.action) or f"written:{act.action_label}"
    if act.mode == "negated":
        action += "!"
    return Signature(action, of(act.agents), of(act.recipients), act.vessel, act.location)


def pair_score(a: Signature, b: Signature, vocabulary: Vocabulary) -> float:
    """The score of aligning two steps: the act first, then the persons, then the cup and the place.

    Two different acts score :data:`ACTION_OTHER` whoever does them.  The same act scores
    :data:`ACTION_SAME` (one a kind of the other, :data:`ACTION_NEAR`), plus for the agent and for the
    recipient :data:`PARTY_SAME` if their parts meet, :data:`PARTY_OTHER` if both are known and do not
    (nothing when either is unknown), plus for the cup and for the place :data:`WEAK_SAME` or
    :data:`WEAK_OTHER` when both are written.

    >>> from yili.ontology.vocabulary import load_vocabulary
    >>> v = load_vocabulary()
    >>> host_to_guest = Signature("action-xian", ("host", "presiding"), ("chief-guest",), "vessel-jue", None)
    >>> to_ruler = Signature("action-xian", ("host",), ("presiding",), None, None)
    >>> pair_score(host_to_guest, host_to_guest, v), pair_score(host_to_guest, to_ruler, v)
    (5.5, 3.0)
    >>> pair_score(host_to_guest, Signature("action-zuo", ("chief-guest",), ("host",), None, None), v)
    -2.0
    """
    if a.action == b.action:
        score = ACTION_SAME
    elif _near(a.action, b.action, vocabulary):
        score = ACTION_NEAR
    else:
        return ACTION_OTHER
    for x, y in ((a.agent, b.agent), (a.recipient, b.recipient)):
        if x and y:
            score += PARTY_SAME if set(x) & set(y) else PARTY_OTHER
    for u, w in ((a.vessel, b.vessel), (a.location, b.location)):
        if u and w:
            score += WEAK_SAME if u == w else WEAK_OTHER
    return score


def _near(x: str, y: str, vocabulary: Vocabulary) -> bool:
    """One act a kind of the other (``skos:broader*``), both affirmed or both negated."""
    if x.endswith("!") != y.endswith("!"):
        return False
    x, y = x.rstrip("!"), y.rstrip("!")
    return x in vocabulary.broader_closure(y) or y in vocabulary.broader_closure(x)


@dataclass(frozen=True)
class Row:
    """One row of an alignment.

    Attributes
    ----------
    kind : str
        ``same`` (two steps with one signature), ``substitution`` (paired, signatures differ),
        ``deletion`` (a step of A that B lacks), ``insertion`` (a step of B that A lacks), or ``joined``
        (a step of one side whose text the other side prints within the step it pairs with this
        step's neighbour: one step there, two here, :func:`_join_cut_steps`).
    a, b : Act | None
        The steps of each side (None on the side that lacks it; for ``joined``, on the side that prints the
        step within another).
    score : float
        :func:`pair_score` of the pair (0.0 for an unpaired or joined step).
    within : Act | None
        For ``joined``: the other side's step that holds this step's text (it is paired in the row next to
        this one's run); None otherwise.
    """

    kind: str
    a: Act | None
    b: Act | None
    score: float
    within: Act | None = None


@dataclass(frozen=True)
class Comparison:
    """The alignment of two step sequences.

    Attributes
    ----------
    a, b : str
        The ``rite/edition`` of each side.
    stage_a, stage_b : str | None
        The stage each side was narrowed to (see :func:`yili.graph.acts.select_sequence`).
    rows : tuple[Row, ...]
        In order of both sequences.
    score : float
        The alignment's score (sum of pair scores and gap scores).
    similarity : float
        0–1: twice the sum, over the pairs, of each pair's score over the better of its two steps' scores
        with themselves (1 for a step paired with its like, 0 if it scores nothing), divided by the steps
        of both sides.
    """

    a: str
    b: str
    stage_a: str | None
    stage_b: str | None
    rows: tuple[Row, ...]
    score: float
    similarity: float

    def count(self, kind: str) -> int:
        """The number of rows of ``kind`` (same, substitution, deletion, insertion)."""
        return sum(1 for r in self.rows if r.kind == kind)

    @property
    def identical_share(self) -> float:
        """Of the steps of A, the share paired with a step of B of the same signature, counting a step of A
        ``joined`` within a step of B that is itself paired with a step of A of the same signature (the two
        editions print the same text, one as two steps, the other as one: :func:`_join_cut_steps`); 1.0 if A
        is empty."""
        n = sum(1 for r in self.rows if r.a is not None)
        same_b = {id(r.b) for r in self.rows if r.kind == "same"}
        joined = sum(1 for r in self.rows if r.kind == "joined" and r.a is not None and id(r.within) in same_b)
        return (self.count("same") + joined) / n if n else 1.0

    def as_json(self) -> dict[str, object]:
        """``{"a", "b", "stage_a", "stage_b", "steps_a", "steps_b", "same", "substitutions", "deletions",
        "insertions", "joined", "similarity", "identical_share", "score", "rows": [{"kind", "score", "a", "b",
        "within"}]}``, each side of a row (and ``within``, the step a ``joined`` row's step is printed within)
        the step's record (:meth:`Act.as_record`: its ``id``, ``url``, text and labels) or null."""
        return {
            "a": self.a,
            "b": self.b,
            "stage_a": self.stage_a,
            "stage_b": self.stage_b,
            "steps_a": sum(1 for r in self.rows if r.a is not None),
            "steps_b": sum(1 for r in self.rows if r.b is not None),
            "same": self.count("same"),
            "substitutions": self.count("substitution"),
            "deletions": self.count("deletion"),
            "insertions": self.count("insertion"),
            "joined": self.count("joined"),
            "similarity": round(self.similarity, 4),
            "identical_share": round(self.identical_share, 4),
            "score": self.score,
            "rows": [
                {
                    "kind": r.kind,
                    "score": r.score,
                    "a": r.a.as_record() if r.a else None,
                    "b": r.b.as_record() if r.b else None,
                    "within": r.within.as_record() if r.within else None,
                }
                for r in self.rows
            ],
        }

    def as_csv(self) -> str:
        """The rows as CSV (RFC 4180, header first): ``kind, score``, then for each side ``sequence,
        block, agent, action, recipient, text, url``, then ``within_sequence, within_url`` (the step a
        ``joined`` row's step is printed within, empty otherwise)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\r\n")
        fields = ("sequence", "block", "agent", "action", "recipient", "text", "url")
        w.writerow(["kind", "score", *(f"a_{f}" for f in fields), *(f"b_{f}" for f in fields), "within_sequence", "within_url"])
        for r in self.rows:
            cells: list[object] = [r.kind, r.score]
            for act in (r.a, r.b):
                rec = act.as_record() if act else {}
                cells += ["" if rec.get(f) is None else rec.get(f) for f in fields]
            cells += [r.within.sequence, r.within.path] if r.within else ["", ""]
            w.writerow(cells)
        return out.getvalue()


def compare(
    a: Sequence[Act],
    b: Sequence[Act],
    vocabulary: Vocabulary,
    *,
    names: tuple[str, str] | None = None,
    stages: tuple[str | None, str | None] = (None, None),
) -> Comparison:
    """Align two sequences of acts (global alignment with affine gaps, Biopython's PairwiseAligner).

    Parameters
    ----------
    a, b : sequence of Act
        Each in its order (:func:`yili.graph.acts.select_sequence`).
    vocabulary : Vocabulary
        For the rite profiles (parts) and the broader acts.
    names : (str, str), optional
        The ``rite/edition`` of each side (default: that of their first step).
    stages : (str | None, str | None)
        The stages the sides were narrowed to, to record.

    Returns
    -------
    Comparison
        Among alignments of the best score, the one the aligner gives first (deterministic for the
        same input); for two editions of one rite, with the steps one prints within another's step
        ``joined`` (:func:`_join_cut_steps`; two rites, or two stages of one edition, are not one text).
    """
    parts = load_parts()
    sig_a = [signature(x, vocabulary, parts) for x in a]
    sig_b = [signature(x, vocabulary, parts) for x in b]
    name_a = names[0] if names else (a[0].where if a else "")
    name_b = names[1] if names else (b[0].where if b else "")
    if not a or not b:
        ends = tuple(Row("deletion", x, None, 0.0) for x in a) + tuple(Row("insertion", None, y, 0.0) for y in b)
        return Comparison(name_a, name_b, stages[0], stages[1], ends, GAP_OPEN if ends else 0.0, 0.0)
    distinct = sorted({s.token(): s for s in (*sig_a, *sig_b)}.items())
    alphabet = tuple(t for t, _ in distinct)
    index = {t: i for i, t in enumerate(alphabet)}
    data = np.full((len(alphabet), len(alphabet)), ACTION_OTHER)
    by_action: dict[str, list[int]] = {}
    for i, (_, s) in enumerate(distinct):
        by_action.setdefault(s.action, []).append(i)
    actions = sorted(by_action)
    for x in actions:
        for y in actions:
            if x == y or _near(x, y, vocabulary):
                for i in by_action[x]:
                    for j in by_action[y]:
                        data[i, j] = pair_score(distinct[i][1], distinct[j][1], vocabulary)
    matrix = substitution_matrices.Array(alphabet=alphabet, dims=2, data=data)
    aligner = PairwiseAligner(mode="global", substitution_matrix=matrix, open_gap_score=GAP_OPEN, extend_gap_score=GAP_EXTEND)
    tokens_a, tokens_b = [s.token() for s in sig_a], [s.token() for s in sig_b]
    alignment = aligner.align(tokens_a, tokens_b)[0]
    rows: list[Row] = []
    i = j = 0
    for (a0, a1), (b0, b1) in zip(*alignment.aligned, strict=True):
        rows += [Row("deletion", a[k], None, 0.0) for k in range(i, a0)]
        rows += [Row("insertion", None, b[k], 0.0) for k in range(j, b0)]
        for k in range(a1 - a0):
            ta, tb = tokens_a[a0 + k], tokens_b[b0 + k]
            score = float(data[index[ta], index[tb]])
            rows.append(Row("same" if ta == tb else "substitution", a[a0 + k], b[b0 + k], score))
        i, j = a1, b1
    rows += [Row("deletion", a[k], None, 0.0) for k in range(i, len(a))]
    rows += [Row("insertion", None, b[k], 0.0) for k in range(j, len(b))]
    if a[0].rite == b[0].rite and a[0].edition != b[0].edition:
        rows = _join_cut_steps(rows)  # two editions of one text: the same words, cut into blocks differently
    credit = _credit(rows, sig_a, sig_b, a, b, vocabulary)
    similarity = 2 * credit / (len(a) + len(b))
    return Comparison(name_a, name_b, stages[0], stages[1], tuple(rows), float(alignment.score), similarity)


_LAYOUT = "○\u3000 "
"""Section marks and spaces, left out of a step's text where two texts are matched (:func:`_held_characters`)."""


def _held_characters(texts: Sequence[str], whole: str) -> list[tuple[int, int]]:
    """For each of ``texts``, read one after the other: ``(held, length)``, how many of its characters an
    alignment of their concatenation with ``whole`` matches (:class:`difflib.SequenceMatcher`, no junk
    heuristic) and how many it has, after folding the variant characters (``ontology/variants.tsv``:
    爲 = 為, 𫝊 = 傳) and leaving out the section marks and spaces.

    >>> _held_characters(["母為長子", "𫝊曰何以三年也"], "母爲長子傳曰何以三年也")
    [(4, 4), (7, 7)]
    >>> _held_characters(["主人獻賓", "○賓拜"], "主人獻賓")
    [(4, 4), (0, 2)]
    """
    clean = [fold("".join(c for c in t if c not in _LAYOUT)) for t in texts]
    owner = [k for k, t in enumerate(clean) for _ in t]
    held = [0] * len(texts)
    matcher = difflib.SequenceMatcher(None, "".join(clean), fold("".join(c for c in whole if c not in _LAYOUT)), autojunk=False)
    for block in matcher.get_matching_blocks():
        for i in range(block.a, block.a + block.size):
            held[owner[i]] += 1
    return [(h, len(t)) for h, t in zip(held, clean, strict=True)]


def _join_cut_steps(rows: list[Row]) -> list[Row]:
    """``rows`` with each unpaired step that the other side prints within a neighbouring step made ``joined``.

    Applied to two editions of one rite only.  Two editions cut one text into blocks differently, and a step
    never crosses a block: where the 述註
    sets 李光坡's commentary between an entry of the 喪服 and its 傳 (``母為長子`` / ``疏曰…`` / ``𫝊曰何以三年
    也…``), it has two steps, and the 注疏, which prints the entry and its 傳 in one run (``母爲長子疏(…)傳曰何以
    三年也…``, the 鄭注 too: ``母爲長子傳曰何以三年也``), one.  The aligner pairs the entry with the entry and
    leaves the 傳 unpaired, though the other side holds its very words.  So, for each run of unpaired rows
    between two paired rows, the steps of one side next to a paired row (after the one before the run, or
    before the one after it, counted outward from it without a gap: :func:`_held_run`) are ``joined`` within
    the other side's step of that row when it holds more than half of each, and more than half of its own
    partner's, read in their order (:func:`_held_characters`): the other side's one step is this side's two
    or more.  A step held so by both neighbours goes with the one before.  What the step then does is told
    by the other side's step, which the comparison pairs with the neighbour.
    """
    out = list(rows)
    paired = [k for k, r in enumerate(rows) if r.a is not None and r.b is not None]
    bounds = [-1, *paired, len(rows)]
    for before, after in zip(bounds, bounds[1:], strict=False):
        run = range(before + 1, after)
        for side in ("a", "b"):
            other = "b" if side == "a" else "a"
            ks = [k for k in run if getattr(rows[k], side) is not None]
            if not ks:
                continue
            within: dict[int, Act] = {}
            for n, outward in ((after, ks[::-1]), (before, ks)):  # the row before the run last: it wins a tie
                if not 0 <= n < len(rows):
                    continue
                mine, theirs = getattr(rows[n], side), getattr(rows[n], other)
                held = _held_run(mine, [getattr(rows[k], side) for k in outward], theirs, first=n == before)
                within.update((k, theirs) for k in outward[:held])
            for k, theirs in sorted(within.items()):
                r = rows[k]
                out[k] = Row("joined", r.a, r.b, 0.0, theirs)
    return out


def _held_run(mine: Act, run: list[Act], theirs: Act, *, first: bool) -> int:
    """How many steps of ``run`` (this side's unpaired steps, counted outward from ``mine``, the step paired with
    ``theirs``) ``theirs`` holds together with ``mine``: the texts of ``mine`` and the run, in the text's order
    (``mine`` first if ``first``, else last), aligned with ``theirs`` (:func:`_held_characters`), more than half
    of ``mine`` and of each step of the run, up to the first it does not hold.  Only steps whose lengths add up
    to at most twice the length of ``theirs`` are read (more could not each be more than half held)."""
    room = 2 * len(theirs.text)
    taken: list[Act] = []
    for act in run:
        room -= len(act.text)
        if room < 0:
            break
        taken.append(act)
    if not taken:
        return 0
    texts = [mine.text, *(x.text for x in taken)] if first else [*(x.text for x in reversed(taken)), mine.text]
    held = _held_characters(texts, theirs.text)
    own, steps = (held[0], held[1:]) if first else (held[-1], held[-2::-1])
    if 2 * own[0] <= own[1]:
        return 0
    count = 0
    for h, length in steps:
        if 2 * h <= length:
            break
        count += 1
    return count


def _credit(rows, sig_a, sig_b, a, b, vocabulary) -> float:  # type: ignore[no-untyped-def]
    """Sum over the pairs of each pair's score over the better self-score of its two steps (0–1 each)."""
    pos_a = {id(x): k for k, x in enumerate(a)}
    pos_b = {id(y): k for k, y in enumerate(b)}
    total = 0.0
    for r in rows:
        if r.a is None or r.b is None or r.score <= 0:
            continue
        sa, sb = sig_a[pos_a[id(r.a)]], sig_b[pos_b[id(r.b)]]
        best = max(pair_score(sa, sa, vocabulary), pair_score(sb, sb, vocabulary))
        total += min(1.0, r.score / best)
    return total
