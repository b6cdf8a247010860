"""The rules registry (ingest/rules.py): every field decided by an ordered tuple of named rules, the deciding
rule recorded on every step, and every rule's examples (ingest/data/rule_examples.tsv) run as tests, one per
rule id: the data is the test."""

from __future__ import annotations

import json
import re

import pytest
from yili.ingest import rules
from yili.ingest.agents import AGENT_RULES
from yili.ingest.document import parse_text
from yili.ingest.recipients import RECIPIENT_RULES
from yili.ingest.rules import FIELDS, Decision, Rule, first_answer, registry

RULES = registry()
IDS = [r.id for r in RULES]


def test_every_rule_is_named_cited_and_has_an_example() -> None:
    assert len(IDS) == len(set(IDS)) >= 140
    for r in RULES:
        assert re.fullmatch(r"[a-z]+\.[a-z0-9-]+", r.id), r.id
        assert r.field in FIELDS and r.id.split(".")[0] == r.field
        assert len(r.cites) >= 4, r.id
        assert r.examples(), f"{r.id} has no example in {rules.EXAMPLES_FILE.name}"
    # every example names a registered rule
    assert set(rules.examples()) <= set(IDS)


def test_the_agent_and_recipient_rules_are_tried_in_their_order() -> None:
    assert [r.id for r in AGENT_RULES[:3]] == ["agent.general-subject", "agent.pivot", "agent.noted-doers"]
    assert AGENT_RULES[-2:][0].id == "agent.carried-over" and AGENT_RULES[-1].id == "agent.opener"
    assert RECIPIENT_RULES[-1].id == "recipient.none"
    # registry order: by field, each field's rules in the order tried
    agent_ids = [i for i in IDS if i.startswith("agent.")]
    assert [i for i in agent_ids if i in {r.id for r in AGENT_RULES}] == [r.id for r in AGENT_RULES]


def test_the_first_rule_that_answers_decides() -> None:
    calls: list[str] = []

    def make(name: str, answer: object) -> Rule:
        def fn(x: int) -> Decision | None:
            calls.append(name)
            return Decision(answer, name) if answer is not None else None

        return Rule(f"agent.{name}", "agent", "a test", fn)

    chain = (make("a", None), make("b", ("賔",)), make("c", ("主人",)))
    decision, rule = first_answer(chain, 1)  # type: ignore[misc]
    assert (decision.value, rule.id, calls) == (("賔",), "agent.b", ["a", "b"])
    assert first_answer(chain[:1], 1) is None


def test_a_rule_id_is_registered_once() -> None:
    with pytest.raises(ValueError, match="defined twice"):
        rules.decision("agent.written", "another citation", "another rule under the same id")
    with pytest.raises(ValueError, match="unknown field"):
        rules.decision("colour.red", "none", "no such field")


def _value(step, field: str) -> str:  # type: ignore[no-untyped-def]
    v = step.as_record().get(field)
    return "-" if v is None else str(v)


@pytest.mark.parametrize("rule_id", IDS)
def test_rule_examples(rule_id: str, package_extractions, extractor) -> None:  # type: ignore[no-untyped-def]
    r = rules.get(rule_id)
    for ex in r.examples():
        if ex.edition == "-":  # a passage of its own: the rule decides its last step
            e = extractor.extract(parse_text(ex.text, source="example", rite=ex.rite), rite=ex.rite)
            step = e.steps[-1]
        else:
            e = package_extractions[(ex.rite, ex.edition)]
            key = f"{ex.rite}/{ex.edition}/{ex.step}"
            found = [s for s in e.steps if s.key == key]
            assert found and found[0].text == ex.text, f"{rule_id}: step {key} is not {ex.text!r}"
            step = found[0]
        assert step.decided(r.field) == rule_id, f"{ex.text}: {r.field} decided by {step.decided(r.field)}"
        assert _value(step, r.field) == ex.value, f"{ex.text}: {r.field} is {_value(step, r.field)}, not {ex.value}"


def test_every_step_records_its_agent_action_and_mode_rules(extraction) -> None:
    for s in extraction.steps:
        why = dict(s.why)
        assert {"agent", "action", "mode"} <= set(why), s.text
        for field, rid in s.why:
            assert rid in IDS and rid.startswith(field + ".")
    host = next(s for s in extraction.steps if s.text == "主人筵前献賔")
    assert dict(host.why) == {
        "mode": "mode.actual",
        "action": "action.written",
        "agent": "agent.written",
        "recipient": "recipient.person-object",
        "vessel": "vessel.in-hand",
        "wine": "wine.in-cup",
        "location": "location.before-verb",
    }
    assert host.as_record()["why"]["vessel"] == "vessel.in-hand"


def test_the_graph_says_which_rule_decided(union) -> None:
    q = """PREFIX yk: <https://w3id.org/yili-kg/ontology#>
    PREFIX dcterms: <http://purl.org/dc/terms/>
    SELECT ?rule ?cites WHERE {
      ?s yk:source/<http://www.w3.org/ns/oa#hasSelector>/<http://www.w3.org/ns/oa#exact> "主人筵前献賔" ;
         yk:recipientDecidedBy ?rule .
      ?rule a yk:Rule ; dcterms:bibliographicCitation ?cites ; yk:field "recipient" .
    }"""
    rows = list(union.query(q))
    assert [str(r[0]).rsplit("/", 1)[1] for r in rows] == ["recipient.person-object"]
    assert "主人獻賔" in str(rows[0][1])


def test_rules_table_counts_by_rite_and_flags_single_passages(package_extractions) -> None:
    from yili.api.rules_table import count_rules, rules_table

    counts, rites = count_rules(package_extractions.values())
    assert (
        rites[:3] == ["shiguanli", "shixiangjianli", "xiangyinjiuli"] and len(rites) == 14
    )  # the excerpt's 燕禮 and 13 chapters
    opener = counts["agent.opener"]
    # once at the opening of the rite (士冠禮筮於廟門: the 主人), once at the opening of its 記
    assert opener.by_rite["yanli"] == 1 and opener.by_rite["shiguanli"] == 2
    # the example built for it is no passage of the package's texts: never decided there
    assert counts["location.thing-as-place"].flag == "never"
    noted = counts["agent.noted-doers"]  # 士冠 徹皮弁冠櫛筵, 註 徹者…主人之賛者為之: one passage
    assert (noted.total, noted.flag) == (1, "one passage")
    rows = json.loads(rules_table(counts, rites, "json"))
    row = next(x for x in rows if x["rule"] == "agent.noted-doers")
    assert row["by rite"] == {"shiguanli": 1} and row["field"] == "agent" and row["decided"] == 1


def test_a_fresh_process_lists_every_rule() -> None:
    """The registry is the same whatever was imported first (the graph's rule triples depend on it)."""
    import subprocess
    import sys

    code = "from yili.ingest.rules import registry; print('\\n'.join(r.id for r in registry()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout.split()
    assert out == IDS
    assert {"recipient.giver-of-presentation", "recipient.of-the-toast"} <= set(out)
