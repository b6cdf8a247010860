"""The discourse state: what a reader of a rite remembers, in typed parts, changed in one place.

A reader of the 儀禮 keeps in mind who the topic is (the subject carried from clause to clause: 主人…
拜, 坐取爵 — the host still), which exchange is under way and between whom (the 獻 a 酢 returns),
what each person holds (the 觚 washed before is the cup of 主人筵前獻賔), and whether the text is
telling a condition (若…則), a variant of the rite or a general rule (凡…).  This module holds that
memory as five frozen parts of one :class:`DiscourseState`:

- :class:`Topic`: who the text is about (subject carried, persons named, last speaker, elders, owners);
- :class:`Exchange`: the toasts and exchanges so far (pairs, last toast, the 獻, the pledge rounds);
- :class:`Holdings`: what each person holds (cups, wine, things taken up);
- :class:`Conditions`: the mode the text is in (condition, variant, general rule, the rite closed);
- :class:`History`: who has acted, and the steps so far by act.

The rules (:mod:`yili.ingest.agents`, :mod:`~yili.ingest.recipients`, :mod:`~yili.ingest.cups`, the
object and place parts of :mod:`~yili.ingest.resolver`) only read it.  A rule that finds something the
reader must remember returns it (a :class:`Change`, as part of its answer); the runner
(:class:`~yili.ingest.resolver.StepResolver`) passes every change to :meth:`DiscourseState.apply`, the
one method that changes the state.  Every part is a frozen dataclass whose sequences are tuples, whose
sets are frozensets and whose mappings are read-only views (:class:`types.MappingProxyType`): a rule
that tried to write one would raise.  ``tests/ingest/test_discourse.py`` also scans ``ingest/`` for any
write to the state outside this module.

Persons are :class:`~yili.ingest.steps.Term` (a concept key, the label as written, the IRI); a
"key" below is a concept key (``role-zhuren``, ``action-xian``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from yili.ingest.steps import Step, Term

Persons = tuple[Term, ...]
"""Persons in the order written (the agent of a step, the receivers of a toast)."""

Toast = tuple[Persons, Persons]
"""A toast or exchange as (givers, receivers)."""


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Topic:
    """Who the text is about: the persons it carries from clause to clause.

    Serves the unwritten agent (a clause with no subject continues the last one: 主人…拜 | 坐取爵),
    之 and 一人 / 其他 (the person or group last named), a reply (曰… to the one who spoke last), 其長.

    Attributes
    ----------
    subject : tuple[Term, ...]
        The subject carried to the next clause (after a toast by a default agent, its receiver; after an
        attendant's service, the person served: 膳宰赞授肺 | 不拜酒: the ruler).
    mentions : tuple[Term, ...]
        Every person named or acting so far in the part (narrative or 記), in order, repeats kept.
    block_mentions : tuple[Term, ...]
        The same, since the start of the current paragraph.
    last_speaker : tuple[Term, ...]
        Who said the last words (in a dialogue the reply is to him: 士相見 曰某也使某還摯).
    elders : tuple[Term, ...]
        The persons 其長 last named (舉觶于其長): a bare 長 after it is they (長皆答拜).
    owners : tuple[Term, ...]
        The agents of the act being read: whose 其長 it is.
    served_by : tuple[Term, ...]
        The attendant who has just served the topic (膳宰), who may move on next (the server moves on).
    pivot_agent : tuple[Term, ...]
        The persons just commanded (公命小臣辭: the 小臣), who do the next act; empty once a step is read.
    pivot_commander : tuple[Term, ...]
        Who gave the last such command (the 公).
    """

    subject: Persons = ()
    mentions: Persons = ()
    block_mentions: Persons = ()
    last_speaker: Persons = ()
    elders: Persons = ()
    owners: Persons = ()
    served_by: Persons = ()
    pivot_agent: Persons = ()
    pivot_commander: Persons = ()


@dataclass(frozen=True)
class Exchange:
    """The toasts and exchanges so far: who is in an exchange with whom.

    Serves the recipient of bows, declining and answering (the other party of the exchange), a 酢
    (which 獻 it returns), a numbered presentation (亞獻, 三獻: to whom the first went), a pledge
    passed on (旅酬 rounds), and 唯公所賜 (the same persons as the 若賔若長 before).

    Attributes
    ----------
    pairs : tuple[tuple[str, str], ...]
        (agent key, recipient key) of each act between two principals that goes to the other party or a
        superior, and of each toast between principals, in order.
    last_toast : tuple[Persons, Persons] or None
        The latest toast (givers, receivers), any kind.
    last_toast_alternative : bool
        True if its receiver was one of two (若賔若長).
    last_xian : tuple[Persons, Persons] or None
        The latest presentation (獻).
    xians : tuple[tuple[Persons, Persons], ...]
        Every 獻 with a giver and a receiver, in order.
    rounds : tuple[tuple[Persons, Persons], ...]
        The pledges passed (旅酬) so far; kept into the 記.
    last_alternatives : tuple[Term, ...]
        The persons offered as either (若賔若長) by the last recipient rule that read them.
    """

    pairs: tuple[tuple[str, str], ...] = ()
    last_toast: Toast | None = None
    last_toast_alternative: bool = False
    last_xian: Toast | None = None
    xians: tuple[Toast, ...] = ()
    rounds: tuple[Toast, ...] = ()
    last_alternatives: Persons = ()


@dataclass(frozen=True)
class Holdings:
    """What each person holds: the cup, its wine, a thing taken up.

    Serves the cup and wine of a step (主人筵前獻賔: the 觚 washed before, with the wine poured), the
    object of 受, 授, 祭, 嚌 (the thing in hand), and the recipient of 受 (from the one who holds it).

    Attributes
    ----------
    holder : Mapping[str, Term]
        Person key → the cup he holds (taken up, received, not yet put away).
    wine_in : Mapping[str, Term]
        Person key → the wine in his cup (酌膳: 膳).
    last_holder : tuple[Term, ...]
        The agent of the last act that took or kept a cup in hand.
    things : Mapping[str, Term]
        Person key → the thing (肺, 黍, 卦) or dish he holds, the most recent holder last.
    thing_block : Mapping[str, int]
        For a dish brought after the cup (以肝從), the paragraph it was brought in.
    taken_at : Mapping[str, int]
        For a thing taken up or handed over (取肺, 摶黍, 授祝), how many steps had been read then.
    held_out : tuple[Term, str or None] or None
        While a step is read: the thing another held out to its agent (term, as written), found by the
        recipient rule that decided he receives from the one who holds it (特牲 宗婦執兩籩 … 主婦受: the 籩,
        the object received); None at the start of every step's recipient.
    """

    holder: Mapping[str, Term] = field(default_factory=_empty)
    wine_in: Mapping[str, Term] = field(default_factory=_empty)
    last_holder: Persons = ()
    things: Mapping[str, Term] = field(default_factory=_empty)
    thing_block: Mapping[str, int] = field(default_factory=_empty)
    taken_at: Mapping[str, int] = field(default_factory=_empty)
    held_out: tuple[Term, str | None] | None = None


@dataclass(frozen=True)
class Conditions:
    """The mode the text is in: a condition, a variant of the rite, a general rule.

    Serves the mode of a step (若…則: conditional; 凡: a general rule), and the agent after a condition
    (the subject before 若 carries past it).

    Attributes
    ----------
    condition_open : bool
        A condition (若, 則) is open: the steps are conditional.
    condition_continues : bool
        A 則 was read: the condition continues into the next paragraph if it writes no subject.
    before_condition : tuple[Term, ...]
        The subject before the condition opened (who acts again once it is past).
    variant_open : bool
        A variant of the rite (若… after the rite has closed) is being told.
    rite_closed : bool
        The host has seen the chief guest off in the closing paragraph.
    general_open : bool
        A general rule (凡…) has been read, in a rite whose rules are about one person
        (:attr:`~yili.ontology.rites.RiteProfile.general_subject`).
    attended : frozenset[str]
        Since then, the keys of the persons the general subject's acts were directed at (見於君).
    """

    condition_open: bool = False
    condition_continues: bool = False
    before_condition: Persons = ()
    variant_open: bool = False
    rite_closed: bool = False
    general_open: bool = False
    attended: frozenset[str] = frozenset()


@dataclass(frozen=True)
class History:
    """Who has acted, and the steps so far by act.

    Serves an act done again or completed (如初, 卒: by whom it was done before), the most senior person
    present (only one who has acted is present), and an unwritten agent kept to the rite's cast.

    Attributes
    ----------
    actors : frozenset[str]
        Keys of every person who has been the agent of a step.
    written : frozenset[str]
        Keys of every person written as a subject.
    by_action : Mapping[str, tuple[Step, ...]]
        Act key (as shown on the step) → its steps so far, in order.
    last_agent_of : Mapping[str, tuple[Term, ...]]
        Act key → the agent of its latest step (both the act as shown and as read: 命 for a causative).
    """

    actors: frozenset[str] = frozenset()
    written: frozenset[str] = frozenset()
    by_action: Mapping[str, tuple[Step, ...]] = field(default_factory=_empty)
    last_agent_of: Mapping[str, Persons] = field(default_factory=_empty)


PARTS: dict[str, type] = {
    "topic": Topic,
    "exchange": Exchange,
    "holdings": Holdings,
    "conditions": Conditions,
    "history": History,
}
"""The parts of the state, by the attribute of :class:`DiscourseState` that holds each."""

_FIELD_PART = {f.name: part for part, cls in PARTS.items() for f in fields(cls)}

OPS = ("set", "append", "put", "drop", "add", "restart")


@dataclass(frozen=True)
class Change:
    """One thing the reader must remember, found by a rule or by the runner: the data of an update.

    Attributes
    ----------
    op : str
        ``set`` (the field becomes ``value``), ``append`` (``value``, an iterable, is added at the end of
        a tuple field), ``put`` (``key`` → ``value`` in a mapping field, keeping its place if present),
        ``drop`` (``key`` leaves a mapping field, if there), ``add`` (``value``, an iterable of keys,
        joins a frozenset field), ``restart`` (every part anew but the fields named in ``value``).
    field : str
        A field of one of the parts (:data:`PARTS`); its part is found by the name.
    key : Any
        For ``put`` and ``drop``.
    value : Any
        A list, set or dict given to ``set`` is stored as a tuple, frozenset or read-only mapping.
    """

    op: str
    field: str = ""
    key: Any = None
    value: Any = None


def set_(name: str, value: Any) -> Change:
    """The field ``name`` becomes ``value``."""
    return Change("set", name, value=value)


def append(name: str, *items: Any) -> Change:
    """``items`` are added at the end of the tuple field ``name``."""
    return Change("append", name, value=items)


def put(name: str, key: Any, value: Any) -> Change:
    """``key`` → ``value`` in the mapping field ``name`` (an existing key keeps its place)."""
    return Change("put", name, key=key, value=value)


def drop(name: str, key: Any) -> Change:
    """``key`` leaves the mapping field ``name`` (nothing if it is not there)."""
    return Change("drop", name, key=key)


def add(name: str, keys: Iterable[str]) -> Change:
    """``keys`` join the frozenset field ``name``."""
    return Change("add", name, value=tuple(keys))


def restart(keep: Iterable[str] = ()) -> Change:
    """Every part anew, but the fields named in ``keep`` (the 記 begins: the pledge rounds are kept)."""
    return Change("restart", value=tuple(keep))


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType(dict(value))
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, list):
        return tuple(value)
    return value


class DiscourseState:
    """The reading state of one document: five frozen parts, changed only by :meth:`apply`.

    Attributes
    ----------
    topic : Topic
    exchange : Exchange
    holdings : Holdings
    conditions : Conditions
    history : History

    Assigning an attribute raises :class:`AttributeError`; reading a field by its bare name
    (``state.subject``) raises one that names its part (``state.topic.subject``).
    """

    __slots__ = tuple(PARTS)

    topic: Topic
    exchange: Exchange
    holdings: Holdings
    conditions: Conditions
    history: History

    def __init__(self) -> None:
        for name, cls in PARTS.items():
            object.__setattr__(self, name, cls())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"the discourse state changes only through DiscourseState.apply (not {name} = …)")

    def __getattr__(self, name: str) -> Any:
        part = _FIELD_PART.get(name)
        if part is not None:
            raise AttributeError(f"DiscourseState has no field {name!r}: it is state.{part}.{name}")
        raise AttributeError(name)

    def apply(self, *changes: Change) -> None:
        """Apply ``changes`` in order: the one place the discourse state changes.

        The runner (:class:`~yili.ingest.resolver.StepResolver`, and the toast pass through
        :meth:`~yili.ingest.resolver.StepResolver.note_toast`) calls it with what each part of a step found,
        as soon as the later parts of the same step must see it.

        Raises
        ------
        ValueError
            A change names no field of any part, or an unknown operation.
        """
        for c in changes:
            if c.op == "restart":
                kept = {name: getattr(getattr(self, _FIELD_PART[name]), name) for name in c.value}
                for name, cls in PARTS.items():
                    part = cls(**{k: v for k, v in kept.items() if _FIELD_PART[k] == name})
                    object.__setattr__(self, name, part)
                continue
            part_name = _FIELD_PART.get(c.field)
            if part_name is None or c.op not in OPS:
                raise ValueError(f"discourse state: no such change {c.op!r} of field {c.field!r}")
            part = getattr(self, part_name)
            old = part.__dict__[c.field]
            if c.op == "set":
                new = _frozen(c.value)
            elif c.op == "append":
                new = old + tuple(c.value) if c.value else old
            elif c.op == "add":
                new = old | frozenset(c.value)
            else:
                d = dict(old)
                if c.op == "put":
                    d[c.key] = c.value
                elif c.key in d:
                    del d[c.key]
                else:
                    continue  # nothing to drop
                new = MappingProxyType(d)
            if new is old:
                continue
            # a new part with the one field changed (what dataclasses.replace makes, without re-running
            # __init__ for every change of every step)
            changed = object.__new__(type(part))
            changed.__dict__.update(part.__dict__)
            changed.__dict__[c.field] = new
            object.__setattr__(self, part_name, changed)
