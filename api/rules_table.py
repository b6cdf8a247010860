"""``yili-kg rules``: every extraction rule, its field, its citation, and how often it decided a field in
each rite of a build.

A rule that decides in one passage only (the defect this project fights: a rule written while looking at
one chapter) shows as such (``one passage``); a rule that never decides shows ``never``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass
class RuleCount:
    """How often one rule decided a field: ``by_rite`` (rite key → count), the passages it decided in
    (``(rite, edition, block)``)."""

    by_rite: dict[str, int] = field(default_factory=dict)
    passages: set[tuple[str, str, int]] = field(default_factory=set)
    rites_counted: int = 0
    """How many rites the count is over: ``one rite`` is said only when there were several."""

    @property
    def total(self) -> int:
        """All the decisions, in every rite."""
        return sum(self.by_rite.values())

    @property
    def flag(self) -> str:
        """``never``; ``one passage`` (one rite, and in each of its editions one paragraph); ``one rite`` (when
        several rites were counted); or ``""``."""
        if not self.by_rite:
            return "never"
        per_edition: dict[str, set[tuple[str, int]]] = {}
        for rite, edition, block in self.passages:
            per_edition.setdefault(edition, set()).add((rite, block))
        if len(self.by_rite) == 1 and max(len(v) for v in per_edition.values()) == 1:
            return "one passage"
        return "one rite" if len(self.by_rite) == 1 and self.rites_counted > 1 else ""


def count_rules(extractions: Iterable) -> tuple[dict[str, RuleCount], list[str]]:  # type: ignore[type-arg]
    """Count the deciding rules (``Step.why``) of the extractions' steps.

    Returns
    -------
    counts : dict
        Rule id → :class:`RuleCount`, for every registered rule (:func:`yili.ingest.rules.registry`), in
        its order.
    rites : list[str]
        The rites met, in the order of the chapters of the 儀禮.
    """
    from yili.ingest.rules import registry

    counts = {r.id: RuleCount() for r in registry()}
    order: dict[str, int] = {}
    for e in extractions:
        rite, edition = e.document.rite, e.document.edition
        order.setdefault(rite, e.profile.chapter or 99)
        for s in e.steps:
            for _f, rid in s.why:
                c = counts.setdefault(rid, RuleCount())
                c.by_rite[rite] = c.by_rite.get(rite, 0) + 1
                c.passages.add((rite, edition, s.block))
    rites = sorted(order, key=lambda r: (order[r], r))
    for c in counts.values():
        c.rites_counted = len(rites)
    return counts, rites


def rules_table(counts: dict[str, RuleCount], rites: Sequence[str], fmt: str = "table") -> str:
    """The table of rules: ``table`` (plain text), ``tsv`` or ``json``.

    Columns: rule id, field, decisions in all, rites it decided in, passages (distinct paragraphs), the
    flag (:attr:`RuleCount.flag`), the count in each rite (``rite:n``, chapters in order; in JSON an object
    rite → count, the counts as numbers), the citation.
    """
    from yili.api.cli import format_table
    from yili.ingest.rules import get

    rows = []
    for rid, c in counts.items():
        r = get(rid)
        per = " ".join(f"{rite}:{c.by_rite[rite]}" for rite in rites if rite in c.by_rite)
        rows.append((rid, r.field, str(c.total), str(len(c.by_rite)), str(len(c.passages)), c.flag, per, r.cites))
    head = ("rule", "field", "decided", "rites", "passages", "flag", "by rite", "citation")
    if fmt == "json":
        numbers = {"decided", "rites", "passages"}
        out = [{k: int(v) if k in numbers else v for k, v in zip(head, row, strict=True)} for row in rows]
        for item, c in zip(out, counts.values(), strict=True):
            item["by rite"] = {rite: c.by_rite[rite] for rite in rites if rite in c.by_rite}
        return json.dumps(out, ensure_ascii=False, indent=1)
    if fmt == "tsv":
        return "\n".join("\t".join(row) for row in [head, *rows])
    never = sum(1 for c in counts.values() if c.flag == "never")
    one = sum(1 for c in counts.values() if c.flag == "one passage")
    one_rite = sum(1 for c in counts.values() if c.flag == "one rite")
    summary = (
        f"{len(counts)} rules; {never} never decided, {one} decided in one passage only, {one_rite} in one rite only "
        f"({len(rites)} rites: {' '.join(rites)})"
    )
    # the plain table leaves the long columns (by rite, citation) to the TSV and JSON forms
    return format_table([head[:6], *(row[:6] for row in rows)]) + "\n" + summary
