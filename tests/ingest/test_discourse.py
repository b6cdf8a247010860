"""The discourse state (ingest/discourse.py): typed frozen parts, changed in one place, written by no rule."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from yili.ingest import pipeline
from yili.ingest.discourse import (
    PARTS,
    Conditions,
    DiscourseState,
    Exchange,
    History,
    Holdings,
    Topic,
    add,
    append,
    drop,
    put,
    restart,
    set_,
)
from yili.ingest.resolver import StepResolver
from yili.ingest.steps import Term

from tests.conftest import extract_text

INGEST = Path(__file__).resolve().parents[2] / "ingest"

MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "add", "discard", "update", "setdefault"}
"""Methods that change a list, dict or set in place."""

RUNNER = "resolver.py"
"""The one module whose code passes changes to DiscourseState.apply (the runner, StepResolver)."""


def _touches_state(node: ast.AST, aliases: set[str]) -> bool:
    """Whether an expression reaches into the state: ``….state…`` or a local alias of it (``st``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == "state":
            return True
        if isinstance(sub, ast.Name) and sub.id in aliases:
            return True
    return False


def _state_writes(path: Path) -> list[str]:
    """Every statement of ``path`` that writes the discourse state: an assignment, augmented assignment or
    ``del`` whose target reaches into it, or a mutating method call on it, or a call of its ``apply``
    outside the runner; ``self.state = DiscourseState()`` in an ``__init__`` is the state's creation."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        aliases: set[str] = set()
        for node in ast.walk(fn):  # st = self.state; st, x = r.state, …
            if isinstance(node, ast.Assign) and _touches_state(node.value, set()):
                for target in node.targets:
                    names = target.elts if isinstance(target, ast.Tuple) else [target]
                    values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                    for name, value in zip(names, values, strict=False):
                        if isinstance(name, ast.Name) and isinstance(value, ast.Attribute) and value.attr == "state":
                            aliases.add(name.id)
        for node in ast.walk(fn):
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = list(node.targets)
            for t in targets:
                created = (
                    fn.name == "__init__"
                    and isinstance(t, ast.Attribute)
                    and t.attr == "state"
                    and isinstance(node, (ast.Assign, ast.AnnAssign))
                )
                if created:
                    continue
                for part in t.elts if isinstance(t, ast.Tuple) else [t]:
                    if isinstance(part, (ast.Attribute, ast.Subscript)) and _touches_state(part, aliases):
                        found.append(f"{path.name}:{node.lineno} {ast.unparse(node)[:80]}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                on_state = _touches_state(node.func.value, aliases)
                if on_state and node.func.attr in MUTATORS:
                    found.append(f"{path.name}:{node.lineno} {ast.unparse(node)[:80]}")
                if on_state and node.func.attr == "apply" and path.name != RUNNER:
                    found.append(f"{path.name}:{node.lineno} {ast.unparse(node)[:80]} (apply outside the runner)")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
                if node.args and _touches_state(node.args[0], aliases):
                    found.append(f"{path.name}:{node.lineno} {ast.unparse(node)[:80]}")
    return found


def test_no_rule_writes_the_discourse_state():
    """Outside ingest/discourse.py no code assigns, deletes or mutates anything of the state, and only the
    runner (resolver.py) passes changes to DiscourseState.apply."""
    files = sorted(p for p in INGEST.glob("*.py") if p.name != "discourse.py")
    assert {p.name for p in files} >= {"agents.py", "recipients.py", "cups.py", "resolver.py", "reading.py", "toasts.py"}
    writes = [w for p in files for w in _state_writes(p)]
    assert writes == []


def test_the_scan_finds_a_write(tmp_path):
    """The scan above is no vacuous pass: each kind of write it looks for, written in a rule, is found."""
    rule = tmp_path / "rule.py"
    rule.write_text(
        "def a(r):\n    r.state.topic.subject = ()\n"
        "def b(self):\n    st = self.state\n    st.holdings.holder['x'] = 1\n"
        "def c(r):\n    r.state.exchange.xians.append(1)\n"
        "def d(self):\n    st, q = self.state, 1\n    st.holdings.holder.pop('x')\n"
        "def e(r):\n    r.state.apply()\n"
        "def f(r):\n    setattr(r.state, 'topic', 1)\n",
        encoding="utf-8",
    )
    assert [w.split()[0] for w in _state_writes(rule)] == [
        "rule.py:2",
        "rule.py:5",
        "rule.py:7",
        "rule.py:10",
        "rule.py:12",
        "rule.py:14",
    ]


def test_the_parts_are_frozen_and_read_only():
    """Each part is a frozen dataclass; its mappings refuse item assignment; the state refuses attributes."""
    st = DiscourseState()
    assert [type(getattr(st, name)) for name in PARTS] == [Topic, Exchange, Holdings, Conditions, History]
    for name in PARTS:
        part = getattr(st, name)
        assert dataclasses.is_dataclass(part) and type(part).__dataclass_params__.frozen  # type: ignore[attr-defined]
        field = dataclasses.fields(part)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(part, field, None)
    with pytest.raises(TypeError):
        st.holdings.holder["role-zhuren"] = Term("vessel-gu", "觚")  # type: ignore[index]
    with pytest.raises(AttributeError, match="only through DiscourseState.apply"):
        st.topic = Topic()  # type: ignore[misc]
    with pytest.raises(AttributeError, match=r"state\.topic\.subject"):
        _ = st.subject  # type: ignore[attr-defined]


def test_apply_changes_the_parts_in_order():
    """put keeps a key's place and drop + put moves it last (the most recent holder of a thing comes last);
    append, add and set build new tuples, frozensets and read-only mappings; restart keeps what it names."""
    host, guest, gu = Term("role-zhuren", "主人"), Term("role-bin", "賔"), Term("vessel-gu", "觚")
    st = DiscourseState()
    before = st.holdings
    st.apply(put("things", "a", gu), put("things", "b", gu), put("things", "a", gu))
    assert list(st.holdings.things) == ["a", "b"]
    st.apply(drop("things", "a"), put("things", "a", gu), drop("things", "nobody"))
    assert list(st.holdings.things) == ["b", "a"]
    assert before.things == {}  # the old part is untouched: a part once read never changes
    st.apply(append("xians", ((host,), (guest,))), append("rounds", ((guest,), (host,))), add("actors", ["role-bin"]))
    st.apply(set_("subject", [guest]), set_("holder", {"role-bin": gu}))
    assert st.exchange.xians == (((host,), (guest,)),)
    assert st.history.actors == frozenset({"role-bin"})
    assert st.topic.subject == (guest,)
    assert dict(st.holdings.holder) == {"role-bin": gu}
    with pytest.raises(TypeError):
        st.holdings.holder["role-zhuren"] = gu  # type: ignore[index]
    st.apply(restart(keep=("rounds",)))
    assert st.exchange.rounds == (((guest,), (host,)),)
    assert (st.exchange.xians, st.topic.subject, dict(st.holdings.things), st.history.actors) == ((), (), {}, frozenset())
    with pytest.raises(ValueError, match="no such change 'set' of field 'labels'"):
        st.apply(set_("labels", {}))


def test_the_state_a_reader_keeps_through_a_toast(extractor, monkeypatch):
    """Read step by step (燕禮: the host takes the 觚, fills it, presents it to the guest, who receives it): the
    cup is the host's until the guest receives it, then the guest's; the 獻 is remembered from the step after it
    (the toast pass notes it); after the bow of sending off the guest, cup in hand, is the topic.  Each step's
    parts are kept as read: frozen, a later step cannot change them."""
    seen = []

    class Recording(StepResolver):
        def resolve(self, clause, first_in_block):
            step = super().resolve(clause, first_in_block)
            seen.append((step.text, self.state.topic, self.state.exchange, self.state.holdings))
            return step

    monkeypatch.setattr(pipeline, "StepResolver", Recording)
    extract_text(extractor, "主人坐取觚洗 賔降 主人升 實觚 主人筵前獻賔 賔西階上拜 筵前受爵 反位 主人賔右拜送爵")
    at = {text.strip(): (topic, exchange, holdings) for text, topic, exchange, holdings in seen}
    holders = {text: {k: v.key for k, v in at[text][2].holder.items()} for text in at}
    assert holders["取觚"] == {"role-zhuren": "vessel-gu"}
    assert holders["主人筵前獻賔"] == {"role-zhuren": "vessel-gu"}
    assert holders["筵前受爵"] == {"role-bin": "vessel-gu"}
    assert at["主人筵前獻賔"][1].last_xian is None
    xian = at["賔西階上拜"][1].last_xian
    assert xian is not None and ([t.key for t in xian[0]], [t.key for t in xian[1]]) == (["role-zhuren"], ["role-bin"])
    assert [t.key for t in at["主人升"][0].subject] == ["role-zhuren"]
    assert [t.key for t in at["主人賔右拜送爵"][0].subject] == ["role-bin"]
