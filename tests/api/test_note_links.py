"""Why the graph says so (issue 25): a step whose field a rule decided from the commentary is linked to the
statement it read (ingest/noted.py, graph/noted.py), on the 士冠禮 and 特牲饋食禮 of the 儀禮述註, and the
step page's JSON names that statement under the rule."""

from __future__ import annotations

import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import RDF

from tests.conftest import shared_path

BASE = "https://w3id.org/yili-kg/"
YK = "https://w3id.org/yili-kg/ontology#"
PREFIX = f"PREFIX yk: <{YK}>\nPREFIX prov: <http://www.w3.org/ns/prov#>\n"


@pytest.fixture(scope="module")
def extractions(extractor):
    from yili.ingest.document import read_file

    files = [("KR1d0040", "KR1d0040_001.txt"), ("KR1d0040", "KR1d0040_015.txt"), ("KR1d0026", "KR1d0026_015.txt")]
    return [extractor.extract(read_file(shared_path("corpus", "kanripo", ed, name))) for ed, name in files]


@pytest.fixture(scope="module")
def client(extractions):
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions

    return TestClient(create_app(service_from_extractions(extractions)))


def select(client, query: str) -> list[dict[str, str]]:
    r = client.get("/sparql", params={"query": PREFIX + query}, headers={"Accept": "application/sparql-results+json"})
    assert r.status_code == 200, r.text
    return [{k: v["value"] for k, v in b.items()} for b in r.json()["results"]["bindings"]]


def step_of(extractions, key: str):
    return next(s for e in extractions for s in e.steps if s.key == key)


def test_the_rule_records_the_note_sentence_it_read(extractions):
    """The span on the step is the sentence of 鄭玄's note the rule read, in the document's code points."""
    shiguan, tesheng, _zhengzhu = extractions
    che = step_of(extractions, "shiguanli/shuzhu/59/1")
    assert che.text == "徹皮弁冠櫛筵" and che.agent_label == "贊者+主人之贊者"
    assert che.decided("agent") == "agent.noted-doers"
    ((field, start, end),) = che.noted
    assert (field, shiguan.document.text[start:end]) == ("agent", "徹者賛冠者主人之賛者為之")
    li = step_of(extractions, "teshengkuishili/shuzhu/156/1")
    assert li.text == "利洗散" and li.agent_label == "佐食" and li.decided("agent") == "agent.named-in-note"
    ((field, start, end),) = li.noted
    assert (field, tesheng.document.text[start:end]) == ("agent", "利佐食也")
    # a written agent no note names is decided by the text alone, with no note
    host = step_of(extractions, "shiguanli/shuzhu/3/1")
    assert host.decided("agent") == "agent.written" and host.noted == ()


def test_a_step_whose_agent_the_note_names_links_to_exactly_that_statement(client):
    rows = select(
        client,
        f"""SELECT ?p ?st ?text ?rule WHERE {{
  <{BASE}step/teshengkuishili/shuzhu/156/1> ?p ?st ; yk:agentDecidedBy ?rule .
  FILTER(?p IN (yk:agentFromNote, yk:recipientFromNote, prov:wasDerivedFrom))
  ?st yk:text ?text }} ORDER BY ?p""",
    )
    statement = f"{BASE}statement/teshengkuishili/shuzhu/156/1"
    assert [(r["p"], r["st"], r["rule"]) for r in rows] == [
        ("http://www.w3.org/ns/prov#wasDerivedFrom", statement, f"{BASE}rule/agent.named-in-note"),
        (f"{YK}agentFromNote", statement, f"{BASE}rule/agent.named-in-note"),
    ]
    assert rows[0]["text"].startswith("註曰利佐食也言利以今進酒也")


def test_the_doers_the_note_names_link_to_their_statement(client):
    """士冠 徹皮弁冠櫛筵: 註曰徹者賛冠者主人之賛者為之 (statement 1 of block 59), by 鄭玄."""
    rows = select(
        client,
        f"""SELECT ?st ?text ?who WHERE {{
  <{BASE}step/shiguanli/shuzhu/59/1> yk:agentFromNote ?st ; yk:agentDecidedBy <{BASE}rule/agent.noted-doers> .
  ?st yk:text ?text ; <http://purl.org/dc/terms/creator> ?who }}""",
    )
    assert rows == [
        {
            "st": f"{BASE}statement/shiguanli/shuzhu/59/1",
            "text": "註曰徹者賛冠者主人之賛者為之",
            "who": f"{BASE}vocab/person-zhengxuan",
        }
    ]


def test_the_links_per_rule_over_each_chapter(client):
    rows = select(
        client,
        """SELECT ?edition ?rule (COUNT(*) AS ?n) WHERE {
  ?s yk:agentFromNote ?st ; yk:agentDecidedBy ?rule ; yk:inEdition ?edition } GROUP BY ?edition ?rule ORDER BY ?edition ?rule""",
    )
    assert [(r["edition"].removeprefix(BASE + "text/"), r["rule"].removeprefix(BASE + "rule/"), int(r["n"])) for r in rows] == [
        ("shiguanli/shuzhu", "agent.named-in-note", 1),  # 贊者皆與贊冠者為介, 註 贊者衆賔也
        ("shiguanli/shuzhu", "agent.noted-doers", 1),  # 徹皮弁冠櫛筵
        ("teshengkuishili/shuzhu", "agent.named-in-note", 1),  # 利洗散, 註 利佐食也
        ("teshengkuishili/zhengzhu", "agent.named-in-note", 1),  # the same, (利佐食也…) in parentheses
    ]
    # every link is from a step whose rule is one of the commentary's, never from another rule
    others = select(
        client,
        """SELECT ?s WHERE { ?s yk:agentFromNote ?st ; yk:agentDecidedBy ?rule .
  FILTER(?rule NOT IN (<https://w3id.org/yili-kg/rule/agent.named-in-note>, <https://w3id.org/yili-kg/rule/agent.noted-doers>)) }""",
    )
    assert others == []


def test_the_step_json_names_the_statement_under_its_rule(client):
    step = client.get("/steps/shiguanli/shuzhu/77/1").json()
    assert step["text"] == "贊者皆與贊冠者為介" and step["agent"] == "眾賓+贊冠者"
    agent = next(w for w in step["why"] if w["field"] == "agent")
    assert agent["rule"] == "agent.named-in-note"
    (st,) = agent["statements"]
    assert (st["statement"], st["authority"], st["authority_label"], st["text"]) == (
        f"{BASE}statement/shiguanli/shuzhu/77/1",
        "鄭玄",
        "注",
        "註曰贊者衆賔也皆與亦飲酒為衆賔介賔之輔",
    )
    assert step["derived_from"] == [st["statement"]]
    assert all(w["statements"] == [] for w in step["why"] if w["field"] != "agent")


def test_the_shapes_allow_one_statement_per_field():
    from yili.graph.validate import validate_graph

    g = Graph()
    yk = lambda name: URIRef(YK + name)  # noqa: E731
    bad, good = URIRef(BASE + "step/x/y/1/1"), URIRef(BASE + "step/x/y/1/2")
    one, two = URIRef(BASE + "statement/x/y/1/1"), URIRef(BASE + "statement/x/y/1/2")
    for st in (one, two):
        g.add((st, RDF.type, yk("Statement")))
    for s in (bad, good):
        g.add((s, RDF.type, yk("Step")))
    g.add((bad, yk("agentFromNote"), one))
    g.add((bad, yk("agentFromNote"), two))
    g.add((bad, yk("recipientFromNote"), BNode()))
    g.add((good, yk("agentFromNote"), one))
    g.add((good, yk("text"), Literal("利洗散")))
    result = validate_graph(g)
    paths = {(focus, path) for focus, path, _m in result.results}
    assert (str(bad), YK + "agentFromNote") in paths and (str(bad), YK + "recipientFromNote") in paths
    assert (str(good), YK + "agentFromNote") not in paths


def test_a_parenthesised_note_printed_over_two_columns_is_linked_too(extractions, client):
    """The 鄭注 (四部叢刊) prints 利洗散獻于尸(利佐/食也…): the sentence the rule read runs over a column mark,
    and the statement that holds it is found all the same."""
    zhengzhu = extractions[2]
    li = step_of(extractions, "teshengkuishili/zhengzhu/151/1")
    ((field, start, end),) = li.noted
    assert (li.text, field, zhengzhu.document.text[start:end]) == ("利洗散", "agent", "利佐/食也")
    rows = select(
        client,
        f"""SELECT ?st ?text WHERE {{ <{BASE}step/teshengkuishili/zhengzhu/151/1> yk:agentFromNote ?st . ?st yk:text ?text }}""",
    )
    assert [r["st"] for r in rows] == [f"{BASE}statement/teshengkuishili/zhengzhu/151/1"]
    assert rows[0]["text"].startswith("利佐食也")
