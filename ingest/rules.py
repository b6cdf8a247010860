"""The rules registry: every field of a step decided by an ordered tuple of small named rules.

A :class:`Rule` has an id (``agent.pivot``), the field it decides, the function that tries it, the text or
commentary that justifies it, and examples (:class:`Example`: a clause of a rite, the value the rule gives
it).  A field's rules are tried in order by :func:`first_answer`; the first that answers decides, and its
id is recorded on the step (``Step.why``: field → rule id), in the JSON Lines and in the graph
(``yk:decidedBy``).  The shape is spaCy's rule components (an ordered list of small callables over one
document), and :data:`yili.ingest.clauses.REREADING_RULES` before it.

Rules that are one branch of a larger decision still written inline (a step's mode, its object, its place)
are registered with :func:`decision` so that they are named, cited and counted like the others.

:func:`registry` lists every rule of every field, in order; :func:`count_decisions` counts how often each
decided something, by rite, over a set of steps (``yili-kg rules``).  The examples are kept as data in
``ingest/data/rule_examples.tsv`` and run as tests (``tests/ingest/test_rules.py``), one per rule id.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIELDS = ("mode", "action", "agent", "recipient", "vessel", "wine", "object", "location", "facing")
"""The fields of a step a rule may decide, in the order the resolver fills them."""

EXAMPLES_FILE = Path(__file__).with_name("data") / "rule_examples.tsv"
"""The rules' examples, a TSV with a header row: ``rule``, ``rite``, ``edition``, ``step`` (``block/ordinal``,
the step's place in its edition; ``-`` for a passage of its own), ``text`` (the clause as read), ``value`` (the
rule's field on that step as ``yili-kg steps`` prints it, ``-`` for none), ``check`` (``gold``: the hand
annotation of ``../shared/gold`` gives the same value; ``text``: read against the text).

An example of the 儀禮述註 (edition ``shuzhu``) or of the 燕禮 excerpt (``shuzhu-excerpt``) is a clause of
the text in the package; an example of edition ``-`` is a passage of its own, read as one paragraph of
the rite, whose last step the rule decides (for a rule the texts at hand never call on)."""


@dataclass(frozen=True)
class Example:
    """A clause a rule decides, and what it gives.

    Attributes
    ----------
    rite : str
        The rite's key (``shiguanli``).
    edition : str
        The edition's key (``shuzhu``, ``zhushu``, ``zhengzhu``, ``shuzhu-excerpt``).
    step : str
        ``block/ordinal``: the classic block (paragraph) the clause is in and its ordinal there (the end of the
        step's key, ``yanli/shuzhu-excerpt/32/4``); ``-`` for a passage of its own.
    text : str
        The clause as read (``Step.text``).
    value : str
        The field's value on that step as ``yili-kg steps`` prints it (``主人``, ``賔+主人``; ``-`` for none).
    check : str
        ``gold`` (the hand annotation agrees) or ``text`` (read against the text).
    """

    rite: str
    edition: str
    step: str
    text: str
    value: str
    check: str = "text"


@dataclass(frozen=True)
class Decision:
    """What a rule answers: the field's value, the note for people, whether the persons are alternatives
    (若賔若長: either), and what the reader must remember of it (``found``: a tuple of
    :class:`~yili.ingest.discourse.Change`, which the runner applies to the discourse state; no rule
    writes the state itself)."""

    value: Any
    note: str
    alternative: bool = False
    found: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Rule:
    """One named rule of the language or of the ritual.

    Attributes
    ----------
    id : str
        ``field.name`` (``recipient.answering-bow``); unique.
    field : str
        The step field it decides (one of :data:`FIELDS`).
    cites : str
        The text or commentary that justifies it (``燕禮 注曰主人宰夫也``).
    fn : Callable | None
        The function :func:`first_answer` calls (``fn(reader, *args) -> Decision | None``); None for a
        branch registered with :func:`decision`.
    doc : str
        One line on what it does.
    tags : frozenset[str]
        What the resolver does with its answer (``not-topic``: the agent found does not become the topic;
        ``mutual``: the two parties of an exchange; ``pivot``: the person a pivot verb named; ``inferred``:
        a value not written in the clause).
    """

    id: str
    field: str
    cites: str
    fn: Callable[..., Decision | None] | None = None
    doc: str = ""
    tags: frozenset[str] = field(default_factory=frozenset)

    def examples(self) -> tuple[Example, ...]:
        """This rule's examples, from :data:`EXAMPLES_FILE`."""
        return examples().get(self.id, ())


_REGISTRY: dict[str, Rule] = {}


def _register(r: Rule) -> Rule:
    if r.field not in FIELDS:
        raise ValueError(f"rule {r.id}: unknown field {r.field!r}")
    if not r.id.startswith(r.field + ".") and not r.id.startswith(("action.", "mode.")):
        raise ValueError(f"rule {r.id}: its id does not begin with its field {r.field!r}")
    old = _REGISTRY.get(r.id)
    if old is not None and old != r:
        raise ValueError(f"rule {r.id} is defined twice")
    _REGISTRY[r.id] = r
    return r


def rule(rule_id: str, cites: str, tags: Iterable[str] = ()) -> Callable[[Callable[..., Decision | None]], Rule]:
    """Decorator: make a function a :class:`Rule` with id ``rule_id`` (its field is the id's first part) and
    register it.  The function's docstring's first line is the rule's ``doc``."""

    def wrap(fn: Callable[..., Decision | None]) -> Rule:
        doc = (fn.__doc__ or "").strip().split("\n")[0]
        return _register(Rule(rule_id, rule_id.split(".")[0], cites, fn, doc, frozenset(tags)))

    return wrap


def decision(rule_id: str, cites: str, doc: str, tags: Iterable[str] = ()) -> str:
    """Register a branch of an inline decision as a rule (no function of its own) and return its id, which
    the resolver records on the step when the branch decides."""
    _register(Rule(rule_id, rule_id.split(".")[0], cites, None, doc, frozenset(tags)))
    return rule_id


def first_answer(rules: Sequence[Rule], *args: Any) -> tuple[Decision, Rule] | None:
    """Try ``rules`` in order with ``args``; the first that answers (not None) decides.

    Returns
    -------
    (Decision, Rule) or None
        The answer and the rule that gave it; None if no rule answers.
    """
    for r in rules:
        assert r.fn is not None, r.id
        d = r.fn(*args)
        if d is not None:
            return d, r
    return None


def registry() -> list[Rule]:
    """Every registered rule, by field (in :data:`FIELDS` order) and, within a field, in the order tried.

    Importing :mod:`yili.ingest.pipeline` (the resolver, the toasts and the pipeline's own) registers them all,
    whatever the caller imported before."""
    import yili.ingest.pipeline  # noqa: F401  (registers every field's rules)

    order = {f: k for k, f in enumerate(FIELDS)}
    return sorted(_REGISTRY.values(), key=lambda r: order[r.field])  # stable: registration order kept


def get(rule_id: str) -> Rule:
    """The rule with this id.  Raises KeyError if there is none."""
    registry()
    return _REGISTRY[rule_id]


_EXAMPLES: dict[str, tuple[Example, ...]] | None = None


def examples() -> dict[str, tuple[Example, ...]]:
    """Rule id → its examples, read once from :data:`EXAMPLES_FILE` (a TSV with a header row)."""
    global _EXAMPLES
    if _EXAMPLES is None:
        out: dict[str, list[Example]] = {}
        with open(EXAMPLES_FILE, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                ex = Example(row["rite"], row["edition"], row["step"], row["text"], row["value"], row["check"])
                out.setdefault(row["rule"], []).append(ex)
        _EXAMPLES = {k: tuple(v) for k, v in out.items()}
    return _EXAMPLES


def redecide(why: tuple[tuple[str, str], ...], field: str, rule_id: str) -> tuple[tuple[str, str], ...]:
    """``why`` (a step's (field, rule id) pairs) with ``field`` now decided by ``rule_id``, in
    :data:`FIELDS` order.  Raises KeyError if no such rule is registered."""
    if rule_id not in _REGISTRY:
        raise KeyError(rule_id)
    d = dict(why)
    d[field] = rule_id
    return tuple((f, d[f]) for f in FIELDS if f in d)


def inferred(step: Any, field: str, *, but: str = "") -> bool:
    """True if ``step``'s ``field`` was decided by a rule tagged ``inferred`` (the value is not the one
    written in the clause), and, with ``but``, not by one also tagged ``but`` (``as-at-first``)."""
    rid = step.decided(field)
    r = _REGISTRY.get(rid) if rid else None
    return r is not None and "inferred" in r.tags and not (but and but in r.tags)


def count_decisions(steps: Iterable[tuple[str, Any]]) -> dict[str, dict[str, int]]:
    """How many times each rule decided a field, by rite.

    Parameters
    ----------
    steps : iterable of (rite key, Step)

    Returns
    -------
    dict
        rule id → {rite key → count}; rites in the order first met, rules as :func:`registry` lists them
        (a rule that never decided anything is present with no rites).
    """
    counts: dict[str, dict[str, int]] = {r.id: {} for r in registry()}
    for rite, step in steps:
        for _field, rid in step.why:
            per = counts.setdefault(rid, {})
            per[rite] = per.get(rite, 0) + 1
    return counts
