"""The scorer, on the gold annotations of blocks 1-56 and on a tiny case written for the test."""

from __future__ import annotations

import json

from yili.ingest.evaluate import evaluate

from tests.conftest import shared_path


def test_scores_on_the_gold_meet_the_targets(extraction, vocabulary):
    report = evaluate(extraction, shared_path("gold"), vocabulary)
    f = report.fields
    # issue targets (end-to-end: toasts >= 0.85, agent/action F1 >= 0.75; quality: the stricter ones)
    assert report.toasts.precision >= 0.95 and report.toasts.recall >= 0.95
    assert f["agent"].f1 >= 0.92 and f["action"].f1 >= 0.92
    assert f["recipient"].f1 >= 0.88 and f["vessel"].f1 >= 0.85 and f["location"].f1 >= 0.92
    assert f["facing"].f1 >= 0.95 and f["mode"].f1 >= 0.9
    assert report.gold_steps == 315 and report.blocks == (1, 56)


def _write_gold(tmp_path, steps, toasts):
    d = tmp_path / "gold"
    d.mkdir()
    (d / "steps.jsonl").write_text("\n".join(json.dumps(s, ensure_ascii=False) for s in steps), encoding="utf-8")
    (d / "toasts.jsonl").write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in toasts), encoding="utf-8")
    return d


def test_scorer_folds_variants_accepts_narrower_cups_and_counts_errors(tmp_path, extractor):
    from tests.conftest import extract_text

    r = extract_text(extractor, "主人取觚献賓")
    text = r.document.text
    s1, s2 = r.steps
    base = {"block": 1, "recipient": None, "object": None, "wine": None, "location": None, "facing": None, "mode": "actual"}
    gold_steps = [
        {
            **base,
            "char_start": s1.char_start,
            "char_end": s1.char_end,
            "span": s1.text,
            "agent": "主人",
            "action": "取",
            "object": "觚",
            "vessel": "爵",
        },  # 觚 is a narrower 爵: right
        {
            **base,
            "char_start": s2.char_start,
            "char_end": s2.char_end,
            "span": s2.text,
            "agent": "賔",
            "action": "献",
            "recipient": "宾",
            "vessel": None,
        },  # agent wrong; recipient 宾 = 賓
    ]
    assert text[s1.char_start : s1.char_end] == "主人取觚"
    gold_toasts = [{"block": 1, "span": "献賓", "type": "献", "giver": "主人", "receiver": "賔"}]
    report = evaluate(r, _write_gold(tmp_path, gold_steps, gold_toasts), extractor.vocabulary)
    f = report.fields
    assert (f["agent"].tp, f["agent"].fp, f["agent"].fn) == (1, 1, 1)
    assert (f["vessel"].tp, f["vessel"].fp, f["vessel"].fn) == (1, 0, 0)  # the 觚 of 献 is not counted wrong
    assert (f["recipient"].tp, f["recipient"].fn) == (1, 0)
    assert (report.toasts.tp, report.toasts.fp, report.toasts.fn) == (1, 0, 0)
    assert report.confusions[("agent", "賔", "主人")] == 1


def test_eval_command_prints_the_table(capsys):
    from yili.api.cli import main

    assert main(["eval", str(shared_path("gold"))]) == 0
    out = capsys.readouterr().out
    assert "toasts" in out and "agent" in out and "gold blocks 1-56" in out
