"""The commentary counts ``yili-kg build`` prints: one row per edition (rite, edition, statements by
authority, glosses, readings, citations, how many were resolved to a passage, and the step fields a rule
decided from a statement: ``from note``, :mod:`yili.graph.noted`)."""

from __future__ import annotations

from typing import Any

AUTHORITY_COLUMNS = ("注", "疏", "音義")
"""Authorities with a column of their own; the other authorities' statements (楊氏, 朱先生, 坡…) are
summed under ``others``."""


def commentary_table(extractions: list[Any], counts: dict[tuple[str, str], dict[str, int]]) -> str:
    """A table of the commentary read from each edition, with a total row.

    Parameters
    ----------
    extractions : list[Extraction]
        In build order (the rows follow it).
    counts : dict
        (rite, edition) → :meth:`yili.ingest.commentary.Commentary.counts`.

    Returns
    -------
    str
        Lines of text; columns: rite, edition, statements, 注, 疏, 音義, others, glosses, readings,
        citations, resolved, from note.
    """
    from yili.api.cli import format_table

    head = (
        "rite",
        "edition",
        "statements",
        *AUTHORITY_COLUMNS,
        "others",
        "glosses",
        "readings",
        "citations",
        "resolved",
        "from note",
    )
    rows: list[tuple[str, ...]] = [head]
    total = [0] * (len(head) - 2)
    for e in extractions:
        c = counts.get((e.document.rite, e.document.edition), {})
        by = [c.get(f"by:{a}", 0) for a in AUTHORITY_COLUMNS]
        others = c.get("statements", 0) - sum(by)
        values = [
            c.get("statements", 0),
            *by,
            others,
            c.get("glosses", 0),
            c.get("readings", 0),
            c.get("citations", 0),
            c.get("resolved", 0),
            c.get("from-note", 0),
        ]
        total = [t + v for t, v in zip(total, values, strict=True)]
        rows.append((f"{e.document.rite} {e.profile.hant}".strip(), e.document.edition, *map(str, values)))
    if len(extractions) > 1:
        rows.append(("total", "", *map(str, total)))
    return format_table(rows)
