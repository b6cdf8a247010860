"""Propose examples for the rules that have none in ``ingest/data/rule_examples.tsv``.

For each such rule: the steps it decided in the 儀禮述註 chapters in the package and the 燕禮 excerpt,
preferring, in order, steps where the hand annotation (``../shared/gold``) gives the field and agrees
with the value (``check`` = ``gold``), then steps the gold does not annotate (``check`` = ``text``: to be
read against the text before the row is kept).  A step where the gold disagrees is never proposed: an
example is a claim about the text, not a copy of the output.  At most two per rule, from two rites::

    python benchmarks/rule_examples.py [GOLD_DIR] >> ingest/data/rule_examples.tsv
"""

from __future__ import annotations

import sys
from pathlib import Path

from yili.api.default_corpus import embedded_corpus
from yili.ingest.document import load_default, read_file
from yili.ingest.evaluate import agreement, find_gold_sets
from yili.ingest.pipeline import Extractor
from yili.ingest.rules import examples, registry


def field_value(record: dict, field: str) -> str:
    """The field's value in a step record as ``yili-kg steps`` prints it; ``-`` for none."""
    v = record.get(field)
    return "-" if v is None else str(v)


def main(argv: list[str]) -> int:
    """Print TSV rows ``rule rite edition step text value check`` for rules with no example yet."""
    gold_dir = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "shared" / "gold"
    ex = Extractor()
    golds = {g.file: g for g in find_gold_sets([gold_dir])} if gold_dir.is_dir() else {}
    docs = [(load_default(), None), *((read_file(str(p)), p.name) for p in embedded_corpus())]
    have = examples()
    wanted = [r.id for r in registry() if r.id not in have]
    cands: dict[str, list[tuple]] = {}
    for d, name in docs:
        e = ex.extract(d)
        gold = golds.get(name)
        agree = agreement(e, gold, ex.vocabulary) if gold is not None else {}
        for s in e.steps:
            rec = s.as_record()
            for field, rid in s.why:
                verdict = agree.get(s.sequence, {}).get(field)
                if verdict is False:
                    continue
                row = (
                    e.document.rite,
                    e.document.edition,
                    s.key.split("/", 2)[2],
                    s.text,
                    field_value(rec, field),
                    "gold" if verdict else "text",
                )
                cands.setdefault(rid, []).append(row)
    for rid in wanted:
        rows = sorted(cands.get(rid, []), key=lambda r: r[-1] != "gold")  # stable: text order within each kind
        chosen: list[tuple] = []
        for r in rows:
            if len(chosen) < 2 and all(c[0] != r[0] for c in chosen):
                chosen.append(r)
        for r in chosen:
            print("\t".join([rid, *map(str, r)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
