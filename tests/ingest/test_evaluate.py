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


# Floors just under what the extractor reaches on each gold set (yili-kg eval ../shared/gold); a rule
# that breaks a chapter it was not written on fails here.  (field: (F1 floor)), toasts: (P, R).
FLOORS = {
    "excerpt": ({"agent": 0.99, "action": 0.99, "recipient": 0.98, "location": 0.98, "facing": 0.99}, (1.0, 1.0)),
    "shiguanli": (
        {"agent": 0.9, "action": 0.95, "recipient": 0.865, "object": 0.72, "location": 0.935, "facing": 0.91, "mode": 0.975},
        (0.99, 0.99),
    ),
    "teshengkuishi": (
        {"agent": 0.92, "action": 0.955, "recipient": 0.87, "object": 0.745, "location": 0.91, "facing": 0.99},
        (0.95, 0.91),
    ),
    # the four sets shared this round, at what the extractor reached when they came (raise as the work goes)
    "xiangsheli": (
        {"agent": 0.905, "action": 0.94, "recipient": 0.83, "object": 0.842, "location": 0.899, "facing": 0.934},
        (0.99, 0.99),
    ),
    "pinli": (
        {"agent": 0.896, "action": 0.917, "recipient": 0.836, "object": 0.666, "location": 0.877, "facing": 0.881},
        (0.99, 0.99),
    ),
    "shixiangjianli": (
        {"agent": 0.734, "action": 0.761, "recipient": 0.666, "object": 0.551, "location": 0.713, "facing": 0.666},
        (0.99, 0.99),
    ),
    "shisangli": (
        {"agent": 0.862, "action": 0.844, "recipient": 0.749, "object": 0.572, "location": 0.736, "facing": 0.779},
        (0.0, 0.0),
    ),
}


def test_every_gold_set_is_scored_above_its_floor(extractor):
    from yili.ingest.document import load_default, read_file
    from yili.ingest.evaluate import find_gold_sets, locate_text

    sets = {gs.name: gs for gs in find_gold_sets([shared_path("gold")])}
    assert sorted(sets) == ["excerpt", "pinli", "shiguanli", "shisangli", "shixiangjianli", "teshengkuishi", "xiangsheli"]
    assert sets["shiguanli"].unit == "para" and sets["shiguanli"].file == "KR1d0040_001.txt"
    for name, (fields, (p, r)) in FLOORS.items():
        path = locate_text(sets[name])
        doc = read_file(path) if path else load_default()
        report = evaluate(extractor.extract(doc), sets[name], extractor.vocabulary)
        for f, floor in fields.items():
            assert report.fields[f].f1 >= floor, (name, f, report.fields[f].f1)
        assert report.toasts.precision >= p and report.toasts.recall >= r, (name, report.toasts)


def test_eval_prints_one_table_per_chapter_and_an_overall_one(capsys):
    from yili.api.cli import main

    assert main(["eval", str(shared_path("gold"))]) == 0
    out = capsys.readouterr().out
    heads = [line.split(":")[0] for line in out.splitlines() if ": " in line and "gold" in line and "steps" in line]
    assert heads == ["excerpt", "pinli", "shiguanli", "shisangli", "shixiangjianli", "teshengkuishi", "xiangsheli", "overall"]
    assert "shiguanli: gold paras 3-113: 314 gold steps" in out
    assert "teshengkuishi: gold paras 69-122: 308 gold steps" in out
    assert "xiangsheli: gold paras 2-96: 539 gold steps" in out
    assert "overall: 7 gold sets: 2104 gold steps" in out


def test_a_toasts_file_of_the_annotated_paragraphs_scores_only_their_toasts(extractor):
    """kanripo/README: where a toasts file covers some paragraphs only, the predicted toasts of those
    paragraphs only are scored; 鄉射禮's toasts of 2-96 are all found, and the 記's are not counted."""
    from yili.ingest.document import read_file
    from yili.ingest.evaluate import find_gold_sets, locate_text

    sets = {gs.name: gs for gs in find_gold_sets([shared_path("gold")])}
    xs = sets["xiangsheli"]
    extraction = extractor.extract(read_file(locate_text(xs)))
    report = evaluate(extraction, xs, extractor.vocabulary)
    assert (report.toasts.tp, report.toasts.fp, report.toasts.fn) == (12, 0, 0)
    assert len(extraction.toasts) > 12  # the chapter has toasts past paragraph 96, left out of the score
    # a whole chapter's toasts (士冠禮: the 記 included, past the last annotated paragraph) are all scored
    sg = sets["shiguanli"]
    report = evaluate(extractor.extract(read_file(locate_text(sg))), sg, extractor.vocabulary)
    assert (report.toasts.tp, report.toasts.fn) == (11, 0)


def test_optional_gold_toasts_count_neither_way_and_alternatives_are_accepted(tmp_path, extractor):
    from tests.conftest import extract_text

    r = extract_text(extractor, "主人献賓\n\n賓酢主人")
    s1, s2 = r.steps
    steps = [{"para": 1, "char_start": s1.char_start, "char_end": s1.char_end, "agent": "主人", "action": "献"}]
    toasts = [
        # required, with the receiver as an alternative
        {
            "para": 1,
            "char_start": s1.char_start,
            "char_end": s1.char_end,
            "type": "献",
            "giver": "主人",
            "receiver": "介",
            "receiver_alt": ["賔"],
        },
        # optional: matched, counts neither way
        {
            "para": 2,
            "char_start": s2.char_start,
            "char_end": s2.char_end,
            "type": "酢",
            "giver": "賓",
            "receiver": "主人",
            "optional": True,
        },
        # optional and not matched: not missed
        {
            "para": 2,
            "char_start": s2.char_start,
            "char_end": s2.char_end,
            "type": "酬",
            "giver": "賓",
            "receiver": "主人",
            "implicit": True,
        },
    ]
    d = tmp_path / "gold"
    d.mkdir()
    (d / "steps_x.jsonl").write_text("\n".join(json.dumps(s, ensure_ascii=False) for s in steps), encoding="utf-8")
    (d / "toasts_x.jsonl").write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in toasts), encoding="utf-8")
    from yili.ingest.evaluate import find_gold_sets

    (gs,) = find_gold_sets([d])
    report = evaluate(r, gs, extractor.vocabulary)
    assert (report.toasts.tp, report.toasts.fp, report.toasts.fn) == (1, 0, 0)
    assert report.unit == "para" and report.name == "x"
