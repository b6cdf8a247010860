"""Score extracted steps and toasts against hand annotations (``shared/gold``).

Matching follows the gold's own README:

* each gold step is aligned with the predicted step whose span overlaps it most, and each field
  is compared after folding variants through the vocabulary (賔 = 賓 = 宾); ``A|B`` in the gold
  accepts either, ``A+B`` is compared as a set;
* for ``vessel`` a narrower cup counts as right (觚 where the gold says 爵; 象觚 for 觚), and a
  ``vessel`` or ``wine`` where the gold has none is not counted wrong;
* a predicted toast matches a gold toast with the same type (or the gold's ``type_alt``), giver
  and receiver within 3 blocks, one to one.

Per field: a true positive is a non-empty predicted value equal to a non-empty gold value; a
false positive a non-empty predicted value that is wrong (or where the gold is empty); a false
negative a non-empty gold value not predicted right.  Predicted steps in the scored blocks that no
gold step aligns with count their non-empty fields as false positives.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from yili.ingest.pipeline import Extraction
from yili.ontology.errors import InputError
from yili.ontology.vocabulary import Vocabulary

STEP_FIELDS = ("agent", "action", "recipient", "object", "vessel", "wine", "location", "facing", "mode")
"""The step fields scored, in report order."""

NOT_PENALISED_WHEN_GOLD_EMPTY = frozenset({"vessel", "wine"})


@dataclass
class Score:
    """Counts for one field, with precision, recall and F1."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        """tp / (tp + fp); 1.0 when nothing was predicted."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """tp / (tp + fn); 1.0 when the gold is empty."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Report:
    """The result of :func:`evaluate`.

    Attributes
    ----------
    fields : dict[str, Score]
        Per step field.
    toasts : Score
        Toasts matched on type, giver and receiver.
    confusions : Counter
        ``(field, gold, predicted)`` → count, for the error list.
    blocks : tuple[int, int]
        The first and last gold block scored.
    gold_steps, predicted_steps : int
    """

    fields: dict[str, Score]
    toasts: Score
    confusions: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    toast_errors: list[str] = field(default_factory=list)
    blocks: tuple[int, int] = (0, 0)
    gold_steps: int = 0
    predicted_steps: int = 0

    def format(self, worst: int = 15) -> str:
        """A plain-text table: field, precision, recall, F1, counts; then the worst confusions."""
        lines = [
            f"gold blocks {self.blocks[0]}-{self.blocks[1]}: {self.gold_steps} gold steps, "
            f"{self.predicted_steps} predicted steps",
            f"{'field':<10} {'precision':>9} {'recall':>7} {'F1':>6}   tp   fp   fn",
        ]
        for name, s in [*self.fields.items(), ("toasts", self.toasts)]:
            lines.append(f"{name:<10} {s.precision:9.3f} {s.recall:7.3f} {s.f1:6.3f} {s.tp:4d} {s.fp:4d} {s.fn:4d}")
        if self.confusions:
            lines.append("worst confusions (field: gold -> predicted  count):")
            for (f, gv, pv), n in self.confusions.most_common(worst):
                lines.append(f"  {f}: {gv} -> {pv}  {n}")
        for e in self.toast_errors[:worst]:
            lines.append(f"  toast: {e}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, object]:
        """The scores as a JSON-ready dict."""

        def one(s: Score) -> dict[str, float | int]:
            return {
                "precision": round(s.precision, 4),
                "recall": round(s.recall, 4),
                "f1": round(s.f1, 4),
                "tp": s.tp,
                "fp": s.fp,
                "fn": s.fn,
            }

        return {"fields": {k: one(v) for k, v in self.fields.items()}, "toasts": one(self.toasts)}


def read_jsonl(path: Path, required: tuple[str, ...] = (), integers: tuple[str, ...] = ()) -> list[dict[str, object]]:
    """Read a JSON Lines file of records.

    Parameters
    ----------
    path : Path
    required : tuple[str, ...]
        Keys every record must have.
    integers : tuple[str, ...]
        Keys whose values must be integers.

    Raises
    ------
    InputError
        If the file is missing or not UTF-8, a line is not a JSON object, or a record lacks a key or
        has a non-integer offset (the message gives the line number).
    """
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (invalid byte at byte offset {exc.start})") from None
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{n}: not JSON: {exc.msg}") from None
        if not isinstance(row, dict):
            raise InputError(f"{path}:{n}: a line must be a JSON object")
        for key in required:
            if key not in row:
                raise InputError(f"{path}:{n}: the record has no {key!r}")
        for key in integers:
            if not isinstance(row.get(key), int) or isinstance(row.get(key), bool):
                raise InputError(f"{path}:{n}: {key!r} must be an integer, not {row.get(key)!r}")
        rows.append(row)
    return rows


class _Folder:
    """Fold labels to concept keys through the vocabulary (賔, 賓, 宾 → role-bin)."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.v = vocabulary

    def key(self, label: str, kind: str | None = None) -> str:
        cs = self.v.by_label.get(label, ())
        if kind is not None:
            cs = tuple(c for c in cs if c.kind == kind) or cs
        return cs[0].key if cs else label

    def value(self, text: object, kind: str | None) -> frozenset[str] | None:
        """A set of keys for a joint value (A+B); None for empty."""
        if text is None or text == "":
            return None
        return frozenset(self.key(p, kind) for p in str(text).split("+"))

    def same(self, gold: object, pred: object, kind: str | None, field_name: str) -> bool:
        if gold is None or pred is None:
            return False
        pv = self.value(pred, kind)
        for alt in str(gold).split("|"):
            gv = self.value(alt, kind)
            if gv == pv:
                return True
            if field_name == "vessel" and gv and pv and len(gv) == 1 and len(pv) == 1:
                (g1,), (p1,) = tuple(gv), tuple(pv)
                if g1 in self.v.broader_closure(p1):
                    return True
        # a predicted alternative that includes the gold value
        if "|" in str(pred):
            return any(self.same(gold, p, kind, field_name) for p in str(pred).split("|"))
        return False


_KIND = {
    "agent": "role",
    "recipient": "role",
    "action": "action",
    "vessel": "vessel",
    "wine": "wine",
    "facing": "facing",
    "object": None,
    "location": None,
    "mode": None,
}


def evaluate(extraction: Extraction, gold_dir: str | Path, vocabulary: Vocabulary) -> Report:
    """Score an extraction against ``GOLD_DIR/steps.jsonl`` and ``GOLD_DIR/toasts.jsonl``.

    Parameters
    ----------
    extraction : Extraction
        Of the same text the gold annotates (offsets must agree).
    gold_dir : str or Path
    vocabulary : Vocabulary
        For folding variant labels.

    Returns
    -------
    Report

    Raises
    ------
    InputError
        If the gold files are missing or malformed.
    """
    gold_dir = Path(gold_dir)
    if not gold_dir.is_dir():
        raise InputError(f"{gold_dir}: not a directory with steps.jsonl and toasts.jsonl")
    # fields other than these may be left out of a record (a missing field is an empty one)
    gold_steps = read_jsonl(gold_dir / "steps.jsonl", ("block", "char_start", "char_end"), ("block", "char_start", "char_end"))
    gold_toasts = read_jsonl(gold_dir / "toasts.jsonl", ("block", "type", "giver", "receiver"), ("block",))
    if not gold_steps:
        raise InputError(f"{gold_dir / 'steps.jsonl'}: no gold steps to score against")
    text = extraction.document.text
    differ = sum(1 for g in gold_steps if "span" in g and text[int(str(g["char_start"])) : int(str(g["char_end"]))] != g["span"])
    if differ > len(gold_steps) // 10:
        raise InputError(
            f"{gold_dir}: the gold does not annotate {extraction.document.source}: {differ} of {len(gold_steps)} "
            "spans differ from the text at their offsets"
        )
    fold = _Folder(vocabulary)
    blocks = sorted({int(str(g["block"])) for g in gold_steps}) or [0]
    lo, hi = blocks[0], blocks[-1]
    preds = [s for s in extraction.steps if lo <= s.block <= hi]
    records = [s.as_record() for s in preds]
    scores = {f: Score() for f in STEP_FIELDS}
    confusions: Counter[tuple[str, str, str]] = Counter()
    aligned: set[int] = set()
    for gold in gold_steps:
        gs, ge = int(str(gold["char_start"])), int(str(gold["char_end"]))
        best, overlap = None, 0
        for k, s in enumerate(preds):
            o = min(ge, s.char_end) - max(gs, s.char_start)
            if o > overlap:
                best, overlap = k, o
        pred = records[best] if best is not None else {}
        if best is not None:
            aligned.add(best)
        for f in STEP_FIELDS:
            gv, pv = gold.get(f), pred.get(f)
            if pv == "":
                pv = None
            sc = scores[f]
            if gv is None:
                if pv is not None and f not in NOT_PENALISED_WHEN_GOLD_EMPTY and f != "mode":
                    sc.fp += 1
                    confusions[(f, "-", str(pv))] += 1
                continue
            if fold.same(gv, pv, _KIND[f], f):
                sc.tp += 1
            else:
                sc.fn += 1
                if pv is not None:
                    sc.fp += 1
                confusions[(f, str(gv), str(pv))] += 1
    for k, rec in enumerate(records):
        if k in aligned:
            continue
        for f in STEP_FIELDS:
            if rec.get(f) is not None and f not in NOT_PENALISED_WHEN_GOLD_EMPTY and f != "mode":
                scores[f].fp += 1
    toast_score, errors = _score_toasts(extraction, gold_toasts, fold, lo, hi)
    return Report(scores, toast_score, confusions, errors, (lo, hi), len(gold_steps), len(preds))


def _score_toasts(
    extraction: Extraction, gold: list[dict[str, object]], fold: _Folder, lo: int, hi: int
) -> tuple[Score, list[str]]:
    preds = [t for t in extraction.toasts if lo <= t.step.block <= hi]
    used: set[int] = set()
    score = Score()
    errors: list[str] = []
    for g in gold:
        types = [str(g["type"])] + ([str(g["type_alt"])] if g.get("type_alt") else [])
        hit = None
        for k, t in enumerate(preds):
            if k in used or abs(t.step.block - int(str(g["block"]))) > 3:
                continue
            rec = t.as_record()
            type_ok = any(fold.same(ty, rec["type"], "action", "type") for ty in types) or (
                rec.get("type_alternative") is not None
                and any(fold.same(ty, rec["type_alternative"], "action", "type") for ty in types)
            )
            if (
                type_ok
                and fold.same(g["giver"], rec["giver"], "role", "giver")
                and fold.same(g["receiver"], rec["receiver"], "role", "receiver")
            ):
                hit = k
                break
        if hit is None:
            score.fn += 1
            errors.append(f"missed {g['giver']} {g['type']} {g['receiver']} (block {g['block']}: {g.get('span', '')})")
        else:
            used.add(hit)
            score.tp += 1
    for k, t in enumerate(preds):
        if k not in used:
            score.fp += 1
            r = t.as_record()
            errors.append(f"extra {r['giver']} {r['type']} {r['receiver']} (block {t.step.block}: {t.step.text})")
    return score, errors
