"""Score extracted steps and toasts against hand annotations (``shared/gold``).

Matching follows the gold's own README:

* each gold step is aligned with the predicted step whose span overlaps it most, and each field
  is compared after folding variants through the vocabulary (賔 = 賓 = 宾); ``A|B`` in the gold
  accepts either, ``A+B`` is compared as a set;
* for ``vessel`` a narrower cup counts as right (觚 where the gold says 爵; 象觚 for 觚), and a
  ``vessel`` or ``wine`` where the gold has none is not counted wrong;
* a predicted toast matches a gold toast with the same type (or the gold's ``type_alt``), giver
  and receiver (or the gold's ``giver_alt`` / ``receiver_alt``), one to one: within 3 blocks for a gold
  set numbered by block (the excerpt), nearest by offset within 150 code points for a whole chapter
  annotated by paragraph (``gold/kanripo``); a gold toast marked ``optional`` or ``implicit`` counts
  neither way when matched, and is not missed when not;
* a gold step's ``agent_alt`` lists other acceptable agents.

A *gold set* is a pair of files in one folder: ``steps.jsonl`` and ``toasts.jsonl`` (the excerpt,
which the embedded default is), or ``steps_NAME.jsonl`` and ``toasts_NAME.jsonl`` whose records name
the annotated ``file`` (a whole chapter of a Kanripo edition, found under a corpus folder).

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
from yili.ingest.steps import Step
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
        The first and last gold block (or paragraph) scored.
    name : str
        The gold set's name (``excerpt``, ``shiguanli``).
    unit : str
        ``block`` or ``para``: how the gold numbers its stretches of classic text.
    gold_steps, predicted_steps : int
    """

    fields: dict[str, Score]
    toasts: Score
    confusions: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    toast_errors: list[str] = field(default_factory=list)
    blocks: tuple[int, int] = (0, 0)
    gold_steps: int = 0
    predicted_steps: int = 0
    name: str = ""
    unit: str = "block"

    def format(self, worst: int = 15) -> str:
        """A plain-text table: field, precision, recall, F1, counts; then the worst confusions."""
        where = f"{self.name}: " if self.name else ""
        scope = f"{self.blocks[1]} gold sets" if self.unit == "set" else f"gold {self.unit}s {self.blocks[0]}-{self.blocks[1]}"
        lines = [
            f"{where}{scope}: {self.gold_steps} gold steps, {self.predicted_steps} predicted steps",
            f"{'field':<10} {'precision':>9} {'recall':>7} {'F1':>6}   tp   fp   fn",
        ]
        for name, s in [*self.fields.items(), ("toasts", self.toasts)]:
            if not (s.tp or s.fp or s.fn):
                lines.append(f"{name:<10} {'-':>9} {'-':>7} {'-':>6} {s.tp:4d} {s.fp:4d} {s.fn:4d}")  # nothing to score
                continue
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

        return {
            "name": self.name,
            "fields": {k: one(v) for k, v in self.fields.items()},
            "toasts": one(self.toasts),
            "gold_steps": self.gold_steps,
            "predicted_steps": self.predicted_steps,
        }


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
    """Fold labels to concept keys through the vocabulary (賔, 賓, 宾 → role-bin) and the rite's own
    readings (燕禮 致者 → role-yingjuezhe)."""

    def __init__(self, vocabulary: Vocabulary, readings: dict[str, str] | None = None) -> None:
        self.v = vocabulary
        self.readings = readings or {}

    def key(self, label: str, kind: str | None = None) -> str:
        if label in self.readings:
            return self.readings[label]
        cs = self.v.by_label.get(label, ())
        if kind is not None:
            cs = tuple(c for c in cs if c.kind == kind) or cs
        return cs[0].key if cs else label

    def value(self, text: object, kind: str | None) -> frozenset[str] | None:
        """A set of keys for a joint value (A+B); None for empty."""
        if text is None or text == "":
            return None
        return frozenset(self.key(p, kind) for p in str(text).split("+"))

    def same(self, gold: object, pred: object, kind: str | None, field_name: str, alts: object = None) -> bool:
        """True if ``pred`` is an accepted reading of ``gold`` (or of one of ``alts``, a list)."""
        if gold is None or pred is None:
            return False
        if isinstance(alts, list) and any(self.same(a, pred, kind, field_name) for a in alts if a):
            return True
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


@dataclass(frozen=True)
class GoldSet:
    """One gold set: the step and toast annotations of one text.

    Attributes
    ----------
    name : str
        ``excerpt`` for ``steps.jsonl``, else the ``NAME`` of ``steps_NAME.jsonl``.
    steps, toasts : list[dict]
        The records, as read (offsets are code points into the annotated file as decoded).
    file : str | None
        The annotated file's name as the records give it (``KR1d0040_001.txt``); None for the
        excerpt, which is the embedded default.
    folder : Path
        Where the files are.
    unit : str
        ``para`` when the records number classic paragraphs (whole chapters), else ``block``.
    """

    name: str
    steps: list[dict[str, object]]
    toasts: list[dict[str, object]]
    file: str | None
    folder: Path
    unit: str = "block"


def _read_set(folder: Path, steps_path: Path, toasts_path: Path, name: str) -> GoldSet:
    steps = read_jsonl(steps_path, ("char_start", "char_end"), ("char_start", "char_end"))
    if not steps:
        raise InputError(f"{steps_path}: no gold steps to score against")
    unit = "para" if all("para" in s for s in steps) else "block"
    for n, s in enumerate(steps, 1):
        if unit not in s or not isinstance(s[unit], int):
            raise InputError(f"{steps_path}:{n}: the record has no integer 'block' (or 'para')")
    if not toasts_path.is_file():
        raise InputError(f"{toasts_path}: no such file (each steps file needs its toasts file beside it)")
    toasts = read_jsonl(toasts_path, ("type", "giver", "receiver"))
    for n, t in enumerate(toasts, 1):
        if unit == "block" and not isinstance(t.get("block"), int):
            raise InputError(f"{toasts_path}:{n}: 'block' must be an integer, not {t.get('block')!r}")
        if unit == "para" and not isinstance(t.get("char_start"), int):
            raise InputError(f"{toasts_path}:{n}: 'char_start' must be an integer, not {t.get('char_start')!r}")
    files = sorted({str(s["file"]) for s in steps if s.get("file")})
    if len(files) > 1:
        raise InputError(f"{steps_path}: the records annotate more than one file ({', '.join(files)})")
    other = sorted({str(t["file"]) for t in toasts if t.get("file")} - set(files))
    if other:
        raise InputError(f"{toasts_path}: the toasts annotate {', '.join(other)}, not the file of {steps_path.name}")
    return GoldSet(name, steps, toasts, files[0] if files else None, folder, unit)


def find_gold_sets(paths: list[str | Path]) -> list[GoldSet]:
    """Every gold set in the given folders and their subfolders, in path order.

    Parameters
    ----------
    paths : list of str or Path
        Gold folders (``shared/gold``; its ``kanripo/`` subfolder is found too).

    Returns
    -------
    list[GoldSet]
        Sorted by folder, then name (the excerpt first in its folder).

    Raises
    ------
    InputError
        A path is not a folder, a folder holds no gold set, or a file is malformed.
    """
    sets: list[GoldSet] = []
    seen: set[Path] = set()
    for p in paths:
        root = Path(p)
        if not root.exists():
            raise InputError(f"{root}: no such folder")
        if not root.is_dir():
            raise InputError(f"{root}: not a directory with steps.jsonl and toasts.jsonl")
        found = 0
        for folder in [root, *sorted(d for d in root.rglob("*") if d.is_dir())]:
            if folder.resolve() in seen:
                found += 1
                continue  # the same gold given twice (a folder and its parent): scored once
            seen.add(folder.resolve())
            if (folder / "steps.jsonl").is_file():
                if not (folder / "toasts.jsonl").is_file():
                    raise InputError(f"{folder}: not a directory with steps.jsonl and toasts.jsonl")
                sets.append(_read_set(folder, folder / "steps.jsonl", folder / "toasts.jsonl", "excerpt"))
                found += 1
            for sp in sorted(folder.glob("steps_*.jsonl")):
                name = sp.stem.removeprefix("steps_")
                sets.append(_read_set(folder, sp, folder / f"toasts_{name}.jsonl", name))
                found += 1
        if not found:
            raise InputError(
                f"{root}: no gold set in it (steps.jsonl and toasts.jsonl, or steps_NAME.jsonl and toasts_NAME.jsonl)"
            )
    return sets


def locate_text(gold: GoldSet, corpora: list[str | Path] = ()) -> Path | None:
    """The file a gold set annotates: ``gold.file`` looked up under the corpus folders.

    By default the corpus folders are the ``corpus/`` folders beside the gold folder or any of its
    parents (the workspace's ``shared/corpus``). Returns None for the excerpt (the embedded text).

    Raises
    ------
    InputError
        If the file is named but not found.
    """
    if gold.file is None:
        return None
    roots = [Path(c) for c in corpora] or [a / "corpus" for a in [gold.folder, *gold.folder.parents] if (a / "corpus").is_dir()]
    for root in roots:
        hits = sorted(root.rglob(gold.file))
        if hits:
            return hits[0]
    if not roots:
        raise InputError(
            f"{gold.folder}: the annotated file {gold.file} is not found: no corpus/ folder beside the gold (give --corpus DIR)"
        )
    where = ", ".join(str(r) for r in roots)
    raise InputError(f"{gold.folder}: the annotated file {gold.file} is not under {where} (give --corpus DIR)")


def evaluate(extraction: Extraction, gold: GoldSet | str | Path, vocabulary: Vocabulary) -> Report:
    """Score an extraction against one gold set.

    Parameters
    ----------
    extraction : Extraction
        Of the text the gold annotates (offsets must agree).
    gold : GoldSet, or a folder with ``steps.jsonl`` and ``toasts.jsonl``
    vocabulary : Vocabulary
        For folding variant labels.

    Returns
    -------
    Report
        Steps are scored in the stretches of classic text the gold annotates (each gold block or
        paragraph, from its first to its last annotated character); toasts in the gold's blocks
        (the excerpt) or over the whole file (a whole chapter's toasts).

    Raises
    ------
    InputError
        If the gold files are missing or malformed, or do not annotate this text.
    """
    if not isinstance(gold, GoldSet):
        folder = Path(gold)
        if not folder.is_dir():
            raise InputError(f"{folder}: not a directory with steps.jsonl and toasts.jsonl")
        gold = _read_set(folder, folder / "steps.jsonl", folder / "toasts.jsonl", "excerpt")
    gold_steps = gold.steps
    text = extraction.document.text
    differ = sum(
        1 for g in gold_steps if "span" in g and _clean(text[int(str(g["char_start"])) : int(str(g["char_end"]))]) != g["span"]
    )
    if differ > len(gold_steps) // 10:
        raise InputError(
            f"{gold.folder}: the gold does not annotate {extraction.document.source}: {differ} of {len(gold_steps)} "
            "spans differ from the text at their offsets"
        )
    fold = _Folder(vocabulary, extraction.profile.readings)
    unit = gold.unit
    # the stretches scored: each gold block / paragraph from its first to its last annotated character
    ranges: dict[int, list[int]] = {}
    for g in gold_steps:
        r = ranges.setdefault(int(str(g[unit])), [int(str(g["char_start"])), int(str(g["char_end"]))])
        r[0] = min(r[0], int(str(g["char_start"])))
        r[1] = max(r[1], int(str(g["char_end"])))
    spans = sorted(ranges.values())
    numbers = sorted(ranges) or [0]
    lo, hi = numbers[0], numbers[-1]

    def in_scope(s_start: int, s_end: int) -> bool:
        return any(min(b, s_end) - max(a, s_start) > 0 for a, b in spans)

    preds = [s for s in extraction.steps if in_scope(s.char_start, s.char_end)]
    records = [s.as_record() for s in preds]
    scores = {f: Score() for f in STEP_FIELDS}
    confusions: Counter[tuple[str, str, str]] = Counter()
    aligned: set[int] = set()
    for g, best in zip(gold_steps, align(gold_steps, preds), strict=True):
        pred = records[best] if best is not None else {}
        if best is not None:
            aligned.add(best)
        _score_fields(g, pred, fold, scores, confusions)
    for k, rec in enumerate(records):
        if k in aligned:
            continue
        for f in STEP_FIELDS:
            if rec.get(f) is not None and f not in NOT_PENALISED_WHEN_GOLD_EMPTY and f != "mode":
                scores[f].fp += 1
    if unit == "block":
        toast_preds = [t for t in extraction.toasts if lo <= t.step.block <= hi]
    elif all(lo <= int(str(t[unit])) <= hi for t in gold.toasts):
        # the toasts file covers the annotated paragraphs only (kanripo README: "Where a toasts file covers
        # some paragraphs only, score the predicted toasts of those paragraphs only")
        first, last = spans[0][0], spans[-1][1]
        toast_preds = [t for t in extraction.toasts if first <= t.step.char_start and t.step.char_end <= last]
    else:
        toast_preds = list(extraction.toasts)
    toast_score, errors = _score_toasts(toast_preds, gold.toasts, fold, unit)
    return Report(scores, toast_score, confusions, errors, (lo, hi), len(gold_steps), len(preds), gold.name, unit)


def _score_fields(
    g: dict[str, object],
    pred: dict[str, object],
    fold: _Folder,
    scores: dict[str, Score],
    confusions: Counter[tuple[str, str, str]],
) -> None:
    """Score each field of one gold step against the predicted record aligned with it (``{}`` if none): a
    value the gold leaves empty and the prediction fills is a false positive (but for the cup and the wine,
    and the mode); a value the gold gives is a true positive if the prediction folds to it, else a false
    negative (and a false positive if the prediction has another value)."""
    for f in STEP_FIELDS:
        gv, pv = g.get(f), pred.get(f)
        if pv == "":
            pv = None
        sc = scores[f]
        if gv is None:
            if pv is not None and f not in NOT_PENALISED_WHEN_GOLD_EMPTY and f != "mode":
                sc.fp += 1
                confusions[(f, "-", str(pv))] += 1
            continue
        if fold.same(gv, pv, _KIND[f], f, g.get(f"{f}_alt")):
            sc.tp += 1
        else:
            sc.fn += 1
            if pv is not None:
                sc.fp += 1
            confusions[(f, str(gv), str(pv))] += 1


def align(gold_steps: list[dict[str, object]], preds: list[Step]) -> list[int | None]:
    """For each gold step, the index in ``preds`` (steps in text order) of the predicted step that overlaps it
    most (code points of ``char_start``/``char_end``; the first of equals), or None if none overlaps."""
    import bisect

    starts = [s.char_start for s in preds]
    out: list[int | None] = []
    for g in gold_steps:
        gs, ge = int(str(g["char_start"])), int(str(g["char_end"]))
        best, overlap = None, 0
        for k in range(max(0, bisect.bisect_left(starts, gs) - 8), len(preds)):
            s = preds[k]
            if s.char_start >= ge:
                break
            o = min(ge, s.char_end) - max(gs, s.char_start)
            if o > overlap:
                best, overlap = k, o
        out.append(best)
    return out


def agreement(extraction: Extraction, gold: GoldSet, vocabulary: Vocabulary) -> dict[int, dict[str, bool]]:
    """For each predicted step a gold step annotates (the one overlapping it most, as :func:`evaluate`
    aligns them), whether each field the gold gives agrees with the prediction.

    Returns
    -------
    dict
        Step sequence → {field → agrees}, for the fields of :data:`STEP_FIELDS` the gold step gives.
    """
    fold = _Folder(vocabulary, extraction.profile.readings)
    preds = extraction.steps
    out: dict[int, dict[str, bool]] = {}
    for g, best in zip(gold.steps, align(gold.steps, preds), strict=True):
        if best is None:
            continue
        rec = preds[best].as_record()
        fields = out.setdefault(preds[best].sequence, {})
        for f in STEP_FIELDS:
            if g.get(f) is not None:
                fields[f] = fold.same(g[f], rec.get(f) or None, _KIND[f], f, g.get(f"{f}_alt"))
    return out


def _clean(source: str) -> str:
    """A span of the file with the print layout taken out (``¶``, line breaks, page markers), as
    the gold's ``span`` is written."""
    import re

    return re.sub(r"<pb:[^>]*>|¶|\r|\n", "", source)


def _score_toasts(preds: list, gold: list[dict[str, object]], fold: _Folder, unit: str) -> tuple[Score, list[str]]:  # type: ignore[type-arg]
    used: set[int] = set()
    score = Score()
    errors: list[str] = []
    recs = [t.as_record() for t in preds]

    def accepts(g: dict[str, object], rec: dict[str, object]) -> bool:
        types = [str(g["type"])] + [str(x) for x in _as_list(g.get("type_alt"))]
        type_ok = any(fold.same(ty, rec["type"], "action", "type") for ty in types) or (
            rec.get("type_alternative") is not None
            and any(fold.same(ty, rec["type_alternative"], "action", "type") for ty in types)
        )
        return (
            type_ok
            and fold.same(g["giver"], rec["giver"], "role", "giver", _as_list(g.get("giver_alt")))
            and fold.same(g["receiver"], rec["receiver"], "role", "receiver", _as_list(g.get("receiver_alt")))
        )

    def distance(g: dict[str, object], t) -> int:  # type: ignore[no-untyped-def]
        if unit == "block":
            return abs(t.step.block - int(str(g["block"])))
        gs = int(str(g["char_start"]))
        ge = int(str(g.get("char_end", gs)))
        if t.step.char_end > gs and t.step.char_start < ge:
            return 0
        return min(abs(t.step.char_start - ge), abs(gs - t.step.char_end))

    limit = 3 if unit == "block" else 150
    # required toasts first, so that an optional one does not take a prediction a required one needs
    order = sorted(range(len(gold)), key=lambda i: (_optional(gold[i]), i))
    for i in order:
        g = gold[i]
        cands = [(distance(g, t), k) for k, t in enumerate(preds) if k not in used and accepts(g, recs[k])]
        cands = [c for c in cands if c[0] <= limit]
        if not cands:
            if not _optional(g):
                score.fn += 1
                where = g.get(unit, g.get("block"))
                errors.append(f"missed {g['giver']} {g['type']} {g['receiver']} ({unit} {where}: {g.get('span', '')})")
            continue
        _, hit = min(cands)
        used.add(hit)
        if not _optional(g):
            score.tp += 1
    for k, t in enumerate(preds):
        if k not in used:
            score.fp += 1
            r = recs[k]
            errors.append(f"extra {r['giver']} {r['type']} {r['receiver']} (block {t.step.block}: {t.step.text})")
    return score, errors


def _as_list(value: object) -> list[object]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _optional(g: dict[str, object]) -> bool:
    return bool(g.get("optional")) or bool(g.get("implicit"))


def overall(reports: list[Report]) -> Report:
    """The reports added up (counts summed over gold sets: micro-averaged scores)."""
    fields = {f: Score() for f in STEP_FIELDS}
    toasts = Score()
    confusions: Counter[tuple[str, str, str]] = Counter()
    for r in reports:
        for f, s in r.fields.items():
            fields[f].tp += s.tp
            fields[f].fp += s.fp
            fields[f].fn += s.fn
        toasts.tp += r.toasts.tp
        toasts.fp += r.toasts.fp
        toasts.fn += r.toasts.fn
    return Report(
        fields,
        toasts,
        confusions,
        [],
        (1, len(reports)),
        sum(r.gold_steps for r in reports),
        sum(r.predicted_steps for r in reports),
        "overall",
        "set",
    )
