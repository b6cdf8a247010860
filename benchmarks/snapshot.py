"""The extraction of every text of the shared corpus, one JSON Lines file of steps and one of toasts
per input file, exactly as ``yili-kg steps FILE`` and ``yili-kg toasts FILE`` print them.

Used to show that a change which should not move the extraction (a refactoring of the rules) leaves
every file's output byte for byte the same::

    python benchmarks/snapshot.py OUT_DIR [--corpus ../shared/corpus] [--drop why]
    diff -r OLD_DIR NEW_DIR

``--drop KEY`` leaves a record key out (to compare outputs across a commit that adds a field).
Files that are not texts (SOURCES.md, the reference works) are skipped.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from types import SimpleNamespace


def main(argv: list[str] | None = None) -> int:
    """Write ``OUT/<relative path>.steps.jsonl`` and ``.toasts.jsonl`` for every text of the corpus."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "corpus")
    p.add_argument("--drop", action="append", default=[], help="a record key to leave out (repeatable)")
    args = p.parse_args(argv)
    import json

    from yili.api import cli
    from yili.ontology.errors import YiliError

    files = sorted(
        f for f in args.corpus.rglob("*") if f.is_file() and f.suffix in (".txt", ".xml") and "reference" not in f.parts
    )
    for f in files:
        rel = f.relative_to(args.corpus)
        for kind, cmd in (("steps", cli.cmd_steps), ("toasts", cli.cmd_toasts)):
            buf = io.StringIO()
            ns = SimpleNamespace(inputs=[str(f)], vocab=[], rite=None, base_iri=None, stages=None)
            old, sys.stdout = sys.stdout, buf
            try:
                cmd(ns)
            except YiliError as exc:  # front matter, a refused file: its message is its output
                buf.write(f"error: {exc}\n")
            finally:
                sys.stdout = old
            text = buf.getvalue()
            if args.drop:
                rows = [json.loads(line) if line.startswith("{") else line for line in text.splitlines()]
                for r in rows:
                    for k in args.drop:
                        r.pop(k, None) if isinstance(r, dict) else None
                text = "".join((json.dumps(r, ensure_ascii=False) if isinstance(r, dict) else r) + "\n" for r in rows)
            target = args.out / f"{rel}.{kind}.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        print(rel, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
