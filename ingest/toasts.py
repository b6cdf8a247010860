"""Toasts ("who toasts whom") and the phases of a rite derived from them.

A toast is a step whose act is a toast type (献, 酢, 酬, 媵, 旅酬, 赐: the concepts under
``ykv:action-toast``).  Its giver and receiver are the *nominal* parties; ``performed_by`` is who
actually pours or hands the cup, which differs in the 燕礼 where the ruler is too exalted to pour
(注 君尊不酌) and the host pours the ruler's return toast for himself (注 更爵者不敢袭至尊也).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from yili.ingest import grammar as g
from yili.ingest.modes import MODE_GENERAL
from yili.ingest.resolver import StepResolver
from yili.ingest.rules import decision, inferred, redecide
from yili.ingest.steps import Step, Term
from yili.ontology.act_classes import act_class

TOAST_ROOT = "action-toast"


RECIPIENT_GIVER = decision(
    "recipient.giver-of-presentation",
    "燕禮 辯獻大夫: the rest of the rank receive the presentation their leader received",
    "A rank presented in turn receives from the giver of the presentation.",
    tags=("inferred",),
)


@dataclass(frozen=True)
class Toast:
    """One toast relation.

    Attributes
    ----------
    step : Step
        The step that expresses it (its span, sequence and block).
    type : Term
        献, 酢, 酬, 媵, 旅酬 or 赐.
    giver, receiver : tuple[Term, ...]
        Nominal parties; several receivers when ``receiver_alternative`` (若賔若长: either).
    performed_by : tuple[Term, ...]
        Who pours or hands the cup.
    type_alternative : Term | None
        An accepted other reading (媵 for the host's 酬 of the guest written 媵觚于賔).
    summary : bool
        The toast is repeated for the rest of a group (辩献卿, 众工…受爵).
    receiver_alternative : bool
    vessel, wine : Term | None
        The cup and wine of the step (followed from earlier clauses when not written).
    """

    step: Step
    type: Term
    giver: tuple[Term, ...]
    receiver: tuple[Term, ...]
    performed_by: tuple[Term, ...]
    type_alternative: Term | None = None
    summary: bool = False
    receiver_alternative: bool = False
    note: str | None = None

    def as_record(self, base: str | None = None) -> dict[str, object]:
        """The toast as a JSON-ready dict."""
        join = "|".join if self.receiver_alternative else "+".join
        giver_join = "|".join if self.step.agent_alternative and self.giver == self.step.agent else "+".join
        return {
            "giver": giver_join(t.label for t in self.giver) or None,
            "receiver": join(t.label for t in self.receiver) or None,
            "type": self.type.label,
            "type_alternative": self.type_alternative.label if self.type_alternative else None,
            "performed_by": (
                giver_join if self.performed_by == self.giver else join if self.performed_by == self.receiver else "+".join
            )(t.label for t in self.performed_by)
            or None,
            "step": self.step.as_record(base)["id"],
            "sequence": self.step.sequence,
            "block": self.step.block,
            "text": self.step.text,
            "char_start": self.step.char_start,
            "char_end": self.step.char_end,
            "vessel": self.step.vessel.label if self.step.vessel else None,
            "wine": self.step.wine.label if self.step.wine else None,
            "location": self.step.location,
            "mode": self.step.mode,
            "summary": self.summary,
            "note": self.note,
        }


@dataclass(frozen=True)
class Phase:
    """A section of the rite, named for the toast it is built around (主人献賔, 賔酢主人, …).

    Attributes
    ----------
    number : int
        1-based, in order.
    label : str
        ``{giver}{type}{receiver}``, or ``始`` for the steps before the first toast.
    first, last : int
        Sequence numbers of the first and last step (inclusive).
    toast : Toast | None
    """

    number: int
    label: str
    first: int
    last: int
    toast: Toast | None = None


def toast_of(resolver: StepResolver, step: Step, upcoming: list[Step]) -> Toast | None:
    """Read a step as a toast, if its act is a toast type.

    Rules
    -----
    * 酢 is the return toast: its giver is the one who received the last 献, its receiver the one
      who gave it, whoever performs it (以酢主人于西阶上: 賔 → 主人; the 燕礼's 酢于阼阶下 is
      公 → 主人, performed by 主人).
    * 媵 means presenting a cup *up* to a superior (媵爵 to the ruler); the host's 媵觚于賔 to the
      guest is functionally his 酬 (注 此降于正主酬也), so it is typed 酬 with 媵 as alternative.
    * the ruler does not pour (注57 君尊不酌): for a toast given by a role with ``yk:doesNotPour``
      and performed by that role, the receiver performs it (公…以酬賔: the 賔 refills the cup).
    * 旅酬 (the pledge passed down) with no written receiver goes to whoever next receives the
      pledge (射人作大夫长升受旅) or, failing that, to the next other person who acts.
    * a 受 of the pledge "in turn" (大夫辩受酬) is the 旅酬 passed along a rank: X → X.

    Parameters
    ----------
    resolver : StepResolver
    step : Step
    upcoming : list[Step]
        The steps after it (to find who receives a 旅).

    Returns
    -------
    Toast | None
    """
    voc = resolver.vocabulary
    step, closure = _with_cup_as_toast(resolver, step)
    if TOAST_ROOT not in closure or step.action.key == TOAST_ROOT:
        return _pledge_received(resolver, step)
    if _no_toast(step):
        return None
    kind = step.action.key
    type_term = step.action
    toast_type = _toast_type(voc, kind)
    if toast_type is not None and toast_type != kind:
        # a cup presented to a person is a 獻 whatever the verb (酳: 注 酳猶衍也 是獻尸也; 醴, 醮 of a
        # person; 致爵): the type is the toast type the verb is a kind of, the verb stays the step's
        type_term = resolver.term(voc.concepts[toast_type])
        kind = toast_type
    type_alt: Term | None = None
    giver, receiver = step.agent, step.recipient
    note = None
    self_poured = False
    if kind == "action-zuo":
        giver, receiver, self_poured = _return_parties(resolver, step)
    if kind == "action-ying":
        type_term, type_alt, note = _ying_as_chou(resolver, giver, receiver, type_term)
    if kind == "action-lvchou":
        giver, receiver = _pledge_parties(resolver, step, giver, receiver)
    if giver and receiver and not self_poured and {t.key for t in receiver} <= {t.key for t in giver} and kind != "action-lvchou":
        # nobody toasts himself but in the self-poured 酢: a receiver found by rule that is the giver
        # is no receiver (it is read from what follows, or left open)
        receiver = ()
    if kind == "action-lvchou" and not receiver:
        receiver = next_receiver(step, upcoming)
    if not receiver and kind in ("action-ci", "action-chou"):
        receiver = next_receiver(step, upcoming)
    performed = step.agent
    if self_poured:
        note = "a self-poured return toast: the one who gave the 獻 pours it in the other's name (更爵 … 自酢)"
    exalted = next((f for t in giver if (f := resolver.profile.does_not_pour(t.key)) is not None), None)
    if exalted is not None and [t.key for t in performed] == [t.key for t in giver] and receiver:
        performed = receiver[:1]
        note = (note + "; " if note else "") + f"the giver does not pour ({exalted.source})"
    alternative = step.recipient_alternative and receiver == step.recipient
    toast = Toast(step, type_term, giver, receiver, performed, type_alt, step.summary, alternative, note)
    resolver.note_toast(giver, receiver, kind, toast.receiver_alternative)
    return toast


def _with_cup_as_toast(resolver: StepResolver, step: Step) -> tuple[Step, frozenset[str] | set[str]]:
    """致爵于主人, 舉觶于長兄弟: a cup written (or the cup in hand, to a person written after the act: 特牲 洗爵酌 |
    致于主人主婦) and a person it goes to make the act the toast its ``yk:toastWithCup`` names.  Returns the
    step (its act that toast, if so) and the broader closure of its act."""
    voc = resolver.vocabulary
    closure = voc.broader_closure(step.action.key)
    with_cup = voc.concepts[step.action.key].flag("toastWithCup") if step.action.key in voc.concepts else None
    if (
        isinstance(with_cup, str)
        and with_cup in voc.concepts
        and step.recipient
        and not step.negated
        and (
            resolver.written_cup(step.text) is not None
            or (step.vessel is not None and not inferred(step, "recipient", but="as-at-first"))
        )
    ):
        closure = voc.broader_closure(with_cup)
        step = replace(step, action=resolver.term(voc.concepts[with_cup]))
    return step, closure


def _pledge_received(resolver: StepResolver, step: Step) -> Toast | None:
    """A 受 that is a pledge received: in turn along a rank (大夫辩受酬: X → X), or from the one written before
    (衆賓長自左受旅); None for any other act that is no toast."""
    voc = resolver.vocabulary
    lv = voc.concepts.get("action-lvchou")
    if lv is None or step.action.key != "action-shou":
        return None
    if step.summary and step.object in ("酬", "旅"):
        return Toast(
            step,
            resolver.term(lv),
            step.agent,
            step.agent,
            step.agent,
            summary=True,
            note="the pledge received in turn along the rank",
        )
    if step.object in ("旅",) and step.agent_explicit and step.recipient and not step.negated:
        if step.recipient[0].key != step.agent[0].key:
            toast = Toast(step, resolver.term(lv), step.recipient[:1], step.agent, step.recipient[:1], note="the pledge received")
            resolver.note_toast(step.recipient[:1], step.agent, "action-lvchou")
            return toast
    return None


def _no_toast(step: Step) -> bool:
    """True for a toast act that gives no toast: negated (不献, 若不醴), a general rule (凡旅, 凡獻: no giver,
    no receiver), a restatement (既旅, 既獻: "when it is done") or an end (獻畢)."""
    if step.mode == "negated" or step.negated or step.decided("mode") == MODE_GENERAL:
        return True
    if (
        step.action.key == "action-ci"
        and step.vessel is None
        and step.object_term is not None
        and step.object_term.key == "action-shi-eat"
    ):
        return True  # 士相見 若君賜之食: food is given, no cup (the cup is 若君賜之爵)
    if step.text.startswith(tuple(g.AFTER_DONE)) or any(f"{w}{step.action.label}" in step.text for w in g.AFTER_DONE):
        return True
    return any(f"{step.action.label}{w}" in step.text for w in g.DONE_MARK)


def _return_parties(resolver: StepResolver, step: Step) -> tuple[tuple[Term, ...], tuple[Term, ...], bool]:
    """The giver and receiver of a 酢, and whether it is self-poured: the return of the 獻 the agent received
    (以酢主人: 賔 → 主人); poured by the one who gave the 獻, in the name of the one he toasted (更爵 … 自酢; 特牲
    酢于主人: of those he presented, the one the text names); else the return of the last 獻."""
    returned = resolver.returned_xian(step.agent)
    if returned is not None and returned[0] == "return":
        return step.agent, returned[1], False
    if returned is not None:
        written = tuple(r for r in step.recipient if all(r.key != a.key for a in step.agent))
        named = tuple(r for r in returned[1] if r.label in step.text)
        return written or named or returned[1], step.agent, True
    if resolver.state.exchange.last_xian is not None:
        xian_giver, xian_receiver = resolver.state.exchange.last_xian
        return xian_receiver, xian_giver, False
    return step.agent, step.recipient, False


def _ying_as_chou(
    resolver: StepResolver, giver: tuple[Term, ...], receiver: tuple[Term, ...], type_term: Term
) -> tuple[Term, Term | None, str | None]:
    """媵 to one who is not a superior is the 酬 of the exchange (注 此降于正主酬也): the type 酬, 媵 its
    alternative, and a note; otherwise the type as it was."""
    voc = resolver.vocabulary
    top = max(
        (voc.concepts[t.key] for t in receiver if t.key in voc.concepts), key=lambda c: int(c.flag("rank", 0) or 0), default=None
    )
    giver_rank = max((int(voc.concepts[t.key].flag("rank", 0) or 0) for t in giver if t.key in voc.concepts), default=0)
    if top is not None and int(top.flag("rank", 0) or 0) <= giver_rank + 10 and not resolver.profile.does_not_pour(top.key):
        chou = voc.concepts.get("action-chou")
        if chou is not None:
            return resolver.term(chou), type_term, "媵 to one who is not a superior: the 酬 of the exchange (注 此降于正主酬也)"
    return type_term, None, None


def _pledge_parties(
    resolver: StepResolver, step: Step, giver: tuple[Term, ...], receiver: tuple[Term, ...]
) -> tuple[tuple[Term, ...], tuple[Term, ...]]:
    """Who passes a 旅酬 to whom: one who takes his place among a rank (佐食于旅齒于兄弟) receives it from those who
    pass it in that rank's round; 交錯 is each side to the other; a group with no receiver written passes it
    among itself, from the first named on (主婦及内賓宗婦亦旅)."""
    voc = resolver.vocabulary
    if giver and receiver and any(w in step.text for w in g.RANKED_AMONG):
        among = {t.key for t in receiver} | {  # 旅齒于兄弟: the 兄弟 of the round are its 衆兄弟
            c.key for t in receiver for w in g.THE_REST for c in voc.by_label.get(w + t.label, ()) if c.kind == "role"
        }
        joined = next(
            (gv for gv, rv in reversed(resolver.state.exchange.rounds) if len(gv) > 1 and among & {t.key for t in (*gv, *rv)}),
            None,
        )
        return joined or receiver, giver
    if _each_other(voc, step.action.key):
        return giver, receiver  # 交錯: each side gives and receives (衆賓及衆兄弟交錯以辯)
    if len(giver) >= 2 and not step.agent_alternative and _no_written_receiver(step):
        return giver, giver[1:]
    return giver, receiver


def _each_other(voc, key: str) -> bool:  # type: ignore[no-untyped-def]
    """True for an act done by several persons to each other (``yk:recipientRule "each-other"``: 交錯)."""
    return key in voc.concepts and voc.concepts[key].flag("recipientRule") == "each-other"


def _toast_type(voc, key: str) -> str | None:  # type: ignore[no-untyped-def]
    """The toast type (a concept right under ``action-toast``: 獻, 酢, 酬, 媵, 旅酬, 賜) that the act
    ``key`` is or is a kind of; None if it is no toast."""
    seen: set[str] = set()
    todo = [key]
    while todo:
        k = todo.pop(0)
        if k in seen or k not in voc.concepts:
            continue
        seen.add(k)
        c = voc.concepts[k]
        if TOAST_ROOT in c.broader:
            return k
        todo.extend(sorted(c.broader))
    return None


def next_receiver(step: Step, upcoming: list[Step]) -> tuple[Term, ...]:
    giver_keys = {t.key for t in step.agent}
    for s in upcoming:
        if s.block > step.block + 3:
            break
        if s.action.key in g.RECEIVING and s.agent and s.agent[0].key not in giver_keys:
            return s.agent
    for s in upcoming:
        if s.block > step.block + 3:
            break
        if s.agent and s.agent[0].key not in giver_keys and s.agent_explicit:
            return s.agent
    return ()


_FILLING = act_class("acts-pouring")


def _no_written_receiver(step: Step) -> bool:
    """True if no person is written after the step's act (its receiver, if any, was found by rule)."""
    return not step.recipient or inferred(step, "recipient")


def _bowed_before_receiving(resolver: StepResolver, step: Step) -> bool:
    """True for a 受 whose doer bowed, earlier in the same paragraph and with only his own acts between,
    to the one he receives from: 賔…壹拜 | 進筵前 | 受醴 (聘), the 拜受 written in two."""
    if step.action.key != "action-shou" or not step.recipient:
        return False
    for s in reversed(resolver.steps[-6:-1]):
        if s.block != step.block or s.agent[:1] != step.agent[:1]:
            return False
        if "action-bai" in resolver.vocabulary.broader_closure(s.action.key) and not s.negated:
            return s.recipient[:1] == step.recipient[:1]
    return False


def received_toast(resolver: StepResolver, step: Step, toasts: list[Toast]) -> Toast | None:
    """A cup received with a bow after it was filled, with no toast written for it: the 獻 of the one
    who hands it (士冠 贊者…酌醴 賔…面枋 冠者筵西拜受觶: the 賔 presents the 醴 to the capped son;
    特牲 衆賓升拜受爵: the 主人's presentation to the guests).

    Only a 拜受 (the bow of receiving a presented cup, not a plain 受 from an attendant) of a cup,
    from a known other person, after a 酌/實 in the last three blocks with no toast since, and no
    toast written to him last or in the last two blocks.  The bow of receiving may be written apart,
    before the 受 of the same paragraph, to the one he receives from (聘 賔不降壹拜進筵前受醴 … 公拜送醴:
    the 公's 醴 of the envoy, 註 禮賔); a 受 with no bow (公側受醴, from the 宰夫 who poured) is no toast.
    """
    if step.vessel is None or step.negated or not step.agent:
        return None
    if step.action.key != "action-baishou" and not _bowed_before_receiving(resolver, step):
        return None
    giver = step.recipient[:1]
    if not giver or giver[0].key == step.agent[0].key:
        return None
    last_toast = toasts[-1].step.sequence if toasts else 0
    me = step.agent[0].key
    if any((t is toasts[-1] or t.step.block >= step.block - 2) and any(r.key == me for r in t.receiver) for t in toasts[-4:]):
        return None  # the cup of a toast already written to him (賔以旅 … 實散 大夫拜受)
    if toasts and not toasts[-1].receiver:
        return None  # a pledge whose receiver is read from what follows: this is its receiving
    if toasts and toasts[-1].type.key == "action-lvchou" and toasts[-1].step.block >= step.block - 2:
        return None  # in a pledge round (衆賓長自左受旅 … 立受旅者拜受): the pledge received, no new 獻
    for s in reversed(resolver.steps[:-1]):
        if s.block < step.block - 3 or s.sequence <= last_toast:
            return None
        if s.action.key in _FILLING:
            break
    else:
        return None
    kind = "action-xian"
    for t in reversed(toasts[-4:]):
        if t.step.block < step.block - 30:  # 有司徹: some twenty paragraphs of dishes between 獻尸 and its 酢
            break
        if t.type.key == "action-zuo" and any(g_.key == giver[0].key for g_ in t.giver):
            break  # he has returned a presentation since
        if (
            t.type.key == "action-xian"
            and any(r.key == giver[0].key for r in t.receiver)
            and any(g_.key == step.agent[0].key for g_ in t.giver)
        ):
            # 有司徹 主人…獻尸 尸卒爵 … 尸酌 主人拜受爵: the one presented pours the cup back to who
            # presented him — his return toast (酢), though no 酢 is written, also when the presenter
            # has presented another since (主人獻侑 … 尸…酌 主人拜受爵)
            kind = "action-zuo"
            break
    concept = resolver.vocabulary.concepts.get(kind)
    if concept is None:
        return None
    toast = Toast(
        step,
        resolver.term(concept),
        giver,
        step.agent[:1],
        giver,
        note="implicit: a filled cup received with a bow, no toast verb written"
        + ("; the cup given back by the one just presented: his 酢" if kind == "action-zuo" else ""),
    )
    resolver.note_toast(giver, step.agent[:1], kind)
    return toast


def group_summary_toast(resolver: StepResolver, step: Step, last: Toast | None) -> Toast | None:
    """众工…受爵: the rest of a group receive the cup the leader received, a summary 献.

    A 受 of a cup by a group written with 众 (众工, 众笙: "the rest of the musicians"), after a
    toast to that group, repeats that toast for the rest.
    """
    if last is None or step.action.key not in g.RECEIVING:
        return None
    if not any(t.label[:1] in ("众", "衆", "眾") for t in step.agent):
        return None
    if not step.agent or not last.receiver or step.agent[0].key != last.receiver[0].key:
        return None
    return Toast(
        step,
        last.type,
        last.giver,
        step.agent,
        last.performed_by,
        summary=True,
        note="the rest of the group receive as the leader did",
    )


def group_after_leader_toast(resolver: StepResolver, step: Step, toasts: list[Toast]) -> Toast | None:
    """衆賓升拜受爵: the rest of a rank (衆X) receive with a bow the presentation their leader (X) was
    given, its giver unwritten (特牲 主人…獻賓 … 衆賓升拜受爵坐祭立飲: the 主人's presentation to the
    guests, 註 衆賓立飲賤不備禮).

    A 拜受 of a cup by persons written 衆/眾 + the name of a role, with no toast to them yet in the last
    twelve blocks, after a 獻 to that role in them: a 獻 by the same giver to the group.
    """
    if step.action.key != "action-baishou" or step.vessel is None or step.negated or not step.agent:
        return None
    label = step.agent[0].label
    if label[:1] not in g.THE_REST or len(label) < 2 or label[-1:] in g.ELDEST:
        return None  # 衆賔長: the eldest of the rest is one person, toasted on his own
    leader = {c.key for c in resolver.vocabulary.by_label.get(label[1:], ()) if c.kind == "role"}
    for t in reversed(toasts):
        if t.step.block < step.block - 12:
            return None
        if any(r.key == step.agent[0].key for r in t.receiver):
            return None  # already toasted: this is that toast's receiving
        if t.type.key == "action-xian" and t.receiver and t.receiver[0].key in leader and t.giver:
            resolver.note_toast(t.giver, step.agent[:1], "action-xian")
            if resolver.steps and resolver.steps[-1].sequence == step.sequence:
                # they receive it from its giver (not from the other party of the exchange before)
                step = replace(
                    step,
                    recipient=t.giver,
                    notes=(*step.notes, "recipient: the giver of the presentation"),
                    why=redecide(step.why, "recipient", RECIPIENT_GIVER),
                )
                resolver.steps[-1] = step
            return Toast(
                step,
                t.type,
                t.giver,
                step.agent[:1],
                t.giver,
                note="the rest of the rank receive the presentation their leader received",
            )
    return None


def phases_of(steps: list[Step], toasts: list[Toast]) -> list[Phase]:
    """Group the steps into the sections of the rite, one per toast.

    A phase begins where its toast's performer begins to prepare the cup (the first 盥, 洗, 取,
    更 or 易 he does after the previous toast), else at the toast itself; it ends where the next
    phase begins.  Steps before the first phase form phase ``始``.

    Returns
    -------
    list[Phase]
    """
    prep = act_class("acts-preparing-a-toast")
    starts: list[tuple[int, Toast]] = []
    prev_seq = 0
    for t in toasts:
        if t.summary and starts and starts[-1][1].step.sequence == t.step.sequence:
            continue
        seq = t.step.sequence
        performer = {p.key for p in t.performed_by} | {p.key for p in t.step.agent}
        start = seq
        for s in steps[prev_seq : seq - 1]:
            if s.action.key in prep and s.agent and s.agent[0].key in performer and s.block >= t.step.block - 8:
                start = s.sequence
                break
        if starts and start <= starts[-1][0]:
            start = max(seq, starts[-1][0] + 1)
        starts.append((start, t))
        prev_seq = seq
    phases: list[Phase] = []
    if not steps:
        return phases
    if not starts or starts[0][0] > 1:
        first_end = (starts[0][0] - 1) if starts else steps[-1].sequence
        phases.append(Phase(1, "始", 1, first_end, None))
    for n, (start, t) in enumerate(starts):
        end = starts[n + 1][0] - 1 if n + 1 < len(starts) else steps[-1].sequence
        label = "".join(x.label for x in t.giver[:1]) + t.type.label + "".join(x.label for x in t.receiver[:1])
        phases.append(Phase(len(phases) + 1, label, start, max(start, end), t))
    return phases
