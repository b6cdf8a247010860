"""Scenes on the shared gold: for each gold set, the agents of the steps with a written location, and
the share that stand at that location after the step (the issue asks ≥ 0.95), with the misses; and the
persons at two places or absent from the scene of a step they act in (both 0).

The gold's own steps are read as steps (agent, action, location, facing, mode as annotated) and played
through :func:`yili.ingest.scenes.scenes`.  Usage: ``python benchmarks/scenes.py [GOLD_DIR]``
(default ``../shared/gold``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from yili.ingest.pipeline import Extractor
from yili.ingest.scenes import check_scenes
from yili.ingest.steps import Step, Term


def gold_steps(rows: list[dict[str, object]], vocabulary) -> list[Step]:  # type: ignore[no-untyped-def]
    """The gold rows of one set as :class:`Step` records (agents joined by ``+`` or ``|``)."""

    def term(label: str) -> Term:
        try:
            return Term(vocabulary.lookup(label).key, label)
        except Exception:  # a word the vocabulary does not know: kept by name
            return Term("", label)

    out = []
    for i, g in enumerate(rows, 1):
        agents = tuple(term(a) for a in str(g["agent"] or "").replace("|", "+").split("+") if a)
        out.append(
            Step(f"r/e/{g.get('block', g.get('para'))}/{g['seq']}", i, 0,  # type: ignore[arg-type]
                 int(g["char_start"]), int(g["char_end"]), str(g["span"]),  # type: ignore[arg-type]
                 agents, True, term(str(g["action"])) if g["action"] else Term("", ""), location=g["location"],  # type: ignore[arg-type]
                 facing=Term("", str(g["facing"])) if g["facing"] else None, mode=str(g["mode"]))
        )  # fmt: skip
    return out


def main(gold: Path) -> int:
    """Print one line per gold set and the total; exit 2 with one line if the folder is missing."""
    if not gold.is_dir():
        print(f"scenes: {gold}: not a folder", file=sys.stderr)
        return 2
    vocabulary = Extractor().vocabulary
    files = [gold / "steps.jsonl", *sorted((gold / "kanripo").glob("steps_*.jsonl"))]
    print("gold set\twritten\tsame\tshare\ttwo places\tbefore entering\tmisses")
    total = same = 0
    for f in files:
        rows = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
        c = check_scenes(gold_steps(rows, vocabulary))
        total += c.total
        same += c.same
        misses = "; ".join(f"{k} {who} at {at} (written {w})" for k, who, at, w in c.misses)
        print(f"{f.relative_to(gold)}\t{c.total}\t{c.same}\t{c.share:.3f}\t{c.two_places}\t{c.before_entering}\t{misses}")
    print(f"all\t{total}\t{same}\t{same / total:.3f}\t\t\t")
    return 0


if __name__ == "__main__":
    here = Path(__file__).resolve().parents[2] / "shared" / "gold"
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else here))
