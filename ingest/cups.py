"""Which cup, which wine, which thing: the state of what each person holds.

A small state machine per person (取觚 … 奠觚于篚) follows the cup through washing, filling,
presenting and receiving, so that 主人筵前献賔 knows its cup is the 觚 washed before; the wine
poured (酌膳, 实散) goes with the cup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice

from yili.ingest import grammar as g
from yili.ingest.clauses import Clause
from yili.ingest.discourse import Change, Holdings, set_
from yili.ingest.reading import Reader
from yili.ingest.rules import decision
from yili.ingest.steps import Term
from yili.ingest.tokens import (
    OBJECT,
    OTHER,
    PLACE,
    ROLE,
    VESSEL,
    WINE,
    YI,
    YU,
    Token,
)
from yili.ontology.act_classes import act_class
from yili.ontology.vocabulary import Concept

_HANDING = act_class("acts-handing-the-cup")
_PLEDGES = act_class("acts-pledge")

_CUP_CONTENTS = act_class("things-in-the-cup")

CUP_OBJECT_ACTS = act_class("acts-on-an-unwritten-cup")

_DRINK_CUP_ACTS = act_class("acts-only-on-the-cup")

BLOCK_LOOKBACK = 200
"""How many earlier steps of a block the cup rules look back over (a paragraph of the 儀禮 has a few
dozen; a text of one endless paragraph must not make each step cost as much as all before it)."""

THING_ACTS = act_class("acts-on-the-thing-in-hand")


_POURING = act_class("acts-pouring")


VESSEL_WRITTEN = decision("vessel.written", "鄉飲酒 主人坐取爵: the cup written", "The cup written in the clause.")
VESSEL_SENT = decision("vessel.sent", "鄉飲酒 拜送爵: the cup just sent, in the receiver's hands", "拜送爵: the cup sent.")
VESSEL_RECEIVED = decision(
    "vessel.received", "鄉飲酒 賔…拜受爵: the cup from the giver's hands (a generic 爵 is that cup)", "受: the giver's cup."
)
VESSEL_GENERIC_NAME = decision(
    "vessel.generic-name", "疏 觚亦称爵: a generic 爵 names the narrower cup in hand", "A generic 爵 for the cup in hand."
)
VESSEL_IN_HAND = decision(
    "vessel.in-hand", "燕禮 取觚 … 主人筵前獻賔: the cup taken up and not put away", "The cup the agent holds."
)
VESSEL_PLEDGED = decision("vessel.pledged", "鄉飲酒 主人…酬賔: the cup of the pledge", "A pledge's cup.")
VESSEL_OF_PARAGRAPH = decision(
    "vessel.of-paragraph", "鄉飲酒 坐奠觚于篚 興 對 卒洗: the same cup again", "The last cup written in the paragraph."
)
VESSEL_IN_ACT_WORD = decision(
    "vessel.in-act-word", "特牲 尸卒爵: the cup in the act's own word", "A cup in the act's word (卒爵, 卒角)."
)
WINE_WRITTEN = decision("wine.written", "燕禮 酌膳; 鄉射 實散", "The wine written in the clause.")
WINE_IN_CUP = decision("wine.in-cup", "燕禮 酌膳 … 獻: the wine poured is in the cup", "The wine of the cup in hand.")
WINE_RECEIVED = decision("wine.received", "鄉飲酒 受爵: the wine comes with the cup", "The wine of the cup received.")


@dataclass
class _CupReading:
    """What the cup rules read of one clause (:meth:`CupRules._cup`): the clause, its act, agent (``who``: the
    first agent's key), object tokens, prefix and recipient; the cups and wine written; and what they decide:
    the cup and wine, and the ids of the rules that decided them.  ``holder``, ``wine_in`` and ``last_holder``
    are the rules' own copy of the state's :class:`~yili.ingest.discourse.Holdings`, which they change as the
    cups pass; :meth:`CupRules._cup` returns them as what it found."""

    clause: Clause
    action: Concept
    agent: tuple[Term, ...]
    who: str
    object_tokens: list[Token]
    prefix: list[Token]
    recipient: tuple[Term, ...]
    written: list[Token] = field(default_factory=list)
    wine_tok: Token | None = None
    vessel: Term | None = None
    wine: Term | None = None
    vrule: str = VESSEL_WRITTEN
    wrule: str = WINE_WRITTEN
    holder: dict[str, Term] = field(default_factory=dict)
    wine_in: dict[str, Term] = field(default_factory=dict)
    last_holder: tuple[Term, ...] = ()
    held: Holdings | None = None


def _holdings(q: _CupReading) -> tuple[Change, ...]:
    """The cup rules' holdings after the clause, as changes of the discourse state (none for what did not
    change, in content and order)."""
    held = q.held
    assert held is not None  # set by CupRules._cup
    changes = []
    if list(q.holder.items()) != list(held.holder.items()):
        changes.append(set_("holder", q.holder))
    if list(q.wine_in.items()) != list(held.wine_in.items()):
        changes.append(set_("wine_in", q.wine_in))
    if q.last_holder is not held.last_holder:
        changes.append(set_("last_holder", q.last_holder))
    return tuple(changes)


class CupRules(Reader):
    """Which cup, which wine, which thing: the state of what each person holds."""

    def _cup(
        self,
        clause: Clause,
        action: Concept,
        agent: tuple[Term, ...],
        object_tokens: list[Token],
        prefix: list[Token],
        recipient: tuple[Term, ...],
    ) -> tuple[Term | None, Term | None, str, str, tuple[Change, ...]]:
        """The cup and the wine of a clause, the ids of the rules that decided them (``VESSEL_*``,
        ``WINE_*``: meaningful only for a cup or wine that is not None), and the holdings after the clause
        (changes of :class:`~yili.ingest.discourse.Holdings`: who holds which cup and wine, for the runner
        to apply; the rules write no state).

        The cup written in the clause (取觚, 以虚爵降); else, for an act with a cup
        (``yk:cupAction``), the cup the agent took up and has not put away (a state per person:
        取觚 … 奠觚于篚), so that 主人筵前献賔 knows the cup is the 觚 washed before; else the last
        cup written earlier in the block.  A cup handed over (献, 酢, 酬, 授) passes to the receiver.
        The wine written (酌膳, 实散) fills the agent's cup and goes with it to the toast; a pouring
        with no wine written (士虞 酌酒酳尸, 酒 being any wine) empties what was known of it.
        """
        q = _CupReading(clause, action, agent, agent[0].key if agent else "", object_tokens, prefix, recipient)
        q.held = held = self.state.holdings
        q.holder, q.wine_in, q.last_holder = dict(held.holder), dict(held.wine_in), held.last_holder
        q.written = [
            t for t in clause.tokens if t.kind == VESSEL and t.concept is not None and self.vocabulary.is_cup(t.concept.key)
        ]
        q.wine_tok = next((t for t in clause.tokens if t.kind == WINE and t.concept is not None), None)
        if q.written:
            self._cup_written(q)
        elif (
            action.flag("cupAction")
            and not self._names_other_thing(object_tokens)
            and not clause.flags.get("nominal_object")  # 受命: a command received, no cup
            and (action.key != "action-jiang" or (prefix and prefix[-1].kind == YI))
        ):
            self._cup_unwritten(q)
        self._wine(q)
        self._cups_change_hands(q)
        if not action.flag("cupAction"):
            return None, q.wine if q.wine_tok is not None else None, q.vrule, WINE_WRITTEN, _holdings(q)
        if q.vessel is None:
            # a cup written inside the act's own word (卒爵, 卒角) is written: 特牲 尸卒爵 after a 致爵
            # whose cup no one named
            q.vessel, q.vrule = self._cup_in_act_word(clause, action), VESSEL_IN_ACT_WORD
            if q.vessel is not None and q.who:
                q.holder[q.who] = q.vessel
        if q.vessel is None and q.wine_tok is None and any(t.kind in (OBJECT, OTHER) for t in object_tokens):
            q.wine = None  # 取脯, 祭脯醢, 易服: a thing handled, no cup, so no wine (士冠; 主人酌醴 | 授尸 keeps it)
        return q.vessel, q.wine, q.vrule, q.wrule, _holdings(q)

    def _cup_written(self, q: _CupReading) -> None:
        """The cup written in the clause: 拜送爵, the cup just sent, in the receiver's hands; 拜受爵 / 受爵, the cup
        from the giver's hands (a generic 爵 is that cup); else the cup written, or the narrower cup in hand it
        names (疏 觚亦称爵), which the agent now holds."""
        written, recipient, who, action = q.written, q.recipient, q.who, q.action
        if action.key == "action-baisong" and recipient and recipient[0].key in q.holder:
            sent = q.holder[recipient[0].key]
            q.vessel = sent if written[0].concept.key == "vessel-jue" else self.term(written[0].concept, written[0].text)  # type: ignore[union-attr, arg-type]
            q.vrule = VESSEL_SENT if q.vessel is sent else VESSEL_WRITTEN
        elif action.key in g.RECEIVING and recipient and recipient[0].key in q.holder:
            given = q.holder.pop(recipient[0].key)
            q.vessel = given if written[0].concept.key == "vessel-jue" else self.term(written[0].concept, written[0].text)  # type: ignore[union-attr, arg-type]
            q.vrule = VESSEL_RECEIVED if q.vessel is given else VESSEL_WRITTEN
            q.holder[who] = q.vessel
            if recipient[0].key in q.wine_in:
                q.wine_in[who] = q.wine_in.pop(recipient[0].key)
        else:
            t = written[0]
            q.vessel = self.term(t.concept, t.text)  # type: ignore[arg-type]
            held = q.holder.get(who)
            # (取爵於序端: a cup taken up from where it lies is that cup, not the one he held: 鄉射 the 爵 laid at
            # 序端, after the 觶 of the 酬 was set down)
            taken_from = action.key == "action-qu" and any(x.kind == YU for x in q.clause.suffix)
            if (
                held is not None
                and held.key != t.concept.key
                and t.concept.key in self.vocabulary.broader_closure(held.key)
                and action.key not in g.CHANGING_THE_CUP
                and not taken_from
            ):
                q.vessel, q.vrule = held, VESSEL_GENERIC_NAME
            elif action.key not in ("action-dian",) or who not in q.holder:
                q.holder[who] = q.vessel

    def _cup_unwritten(self, q: _CupReading) -> None:
        """An act with a cup and none written: the cup in the agent's hand (以降: going down with it); a thing
        taken up after the cup (取肺, 舉肺脊) is what the following acts handle until it is put down (特牲
        佐食舉肺脊授尸 尸受 振祭), a dish brought after the cup (以燔從) only in its paragraph (燔從如初 writes no
        hand-off); else the cup of a pledge, or the last cup written in the paragraph (坐奠觚于篚 兴 对 卒洗:
        finishing an interrupted act takes up the same cup again)."""
        st, who, block = self.state, q.who, q.clause.block
        handling_thing = who in st.holdings.things and st.holdings.thing_block.get(who, block) == block
        q.vessel = q.holder.get(who) if not handling_thing or q.action.key in _DRINK_CUP_ACTS else None
        q.vrule = VESSEL_IN_HAND
        if q.vessel is None and not handling_thing and q.action.key in _PLEDGES:
            q.vessel, q.vrule = self._pledged_cup(q, who, block), VESSEL_PLEDGED
        if q.vessel is None and not self._brought_dish(who, block):
            completing = bool(q.clause.flags.get("completive"))
            q.vessel, q.vrule = self._block_cup(block, through_basket=completing), VESSEL_OF_PARAGRAPH
            if completing and q.vessel is not None and who:
                q.holder[who] = q.vessel

    def _wine(self, q: _CupReading) -> None:
        """The wine: the one written fills the agent's cup (酌膳, 实散; one named where the jars are set out,
        鄉射 尊於賔席之東兩壺斯禁左𤣥酒, is in no one's hand); 酌 with no wine written is a new pouring, its wine
        unsaid (士虞 酌酒), and a cup washed is empty; else an act with the cup has the wine in it."""
        action, who = q.action, q.who
        if q.wine_tok is not None:
            q.wine = self.term(q.wine_tok.concept, q.wine_tok.text)  # type: ignore[arg-type]
            if action.flag("cupAction"):
                q.wine_in[who] = q.wine
        elif action.key in _POURING or action.key == "action-xi":
            q.wine_in.pop(who, None)
        elif action.flag("cupAction") and action.key != "action-jiang":
            q.wine, q.wrule = q.wine_in.get(who), WINE_IN_CUP
        if q.vessel is not None and who in q.holder and q.agent:
            q.last_holder = q.agent

    def _cups_change_hands(self, q: _CupReading) -> None:
        """Cups change hands: 拜送 sends off the cup its giver still held or set down for the other (燕禮 媵爵者…
        奠于薦南 … 再拜稽首送觶: the 公's; a pledge's cup passes here, not at 酬/媵); one handed over (献, 酢, 酬, 授)
        passes to the receiver; 受 takes it from the giver's hands; washing, changing the cup or putting it in
        the basket empties it."""
        action, recipient, who = q.action, q.recipient, q.who
        if (
            action.key == "action-baisong"
            and recipient
            and recipient[0].key != who
            and recipient[0].key not in q.holder
            and who in q.holder
            # 送觶, or 拜送 alone; not 送賔 (seeing a guest off) nor 送幣 (a gift)
            and not any(t.kind in (OBJECT, OTHER, ROLE) or (t.kind == VESSEL and t not in q.written) for t in q.object_tokens)
        ):
            if q.vessel is None:
                q.vessel, q.vrule = q.holder[who], VESSEL_IN_HAND  # the cup he sends off is the one in his hand
            q.holder[recipient[0].key] = q.holder.pop(who)
            if who in q.wine_in:
                q.wine_in[recipient[0].key] = q.wine_in.pop(who)
        if action.key in _HANDING and recipient and q.vessel is not None and recipient[0].key != who:
            q.holder[recipient[0].key] = q.vessel
            q.holder.pop(who, None)
            if q.wine is not None:
                q.wine_in[recipient[0].key] = q.wine
        if (
            action.key in g.RECEIVING
            and recipient
            and recipient[0].key in q.holder
            and not q.written
            and not self._names_other_thing(q.object_tokens)  # 受祭: the portion for the offering, not a cup
            and not self._passes_thing(recipient[0].key, q.clause.block)
        ):
            q.vessel, q.vrule = q.holder[recipient[0].key], VESSEL_RECEIVED
            q.holder[who] = q.vessel
            q.holder.pop(recipient[0].key, None)
            q.last_holder = q.agent
            if recipient[0].key in q.wine_in:
                q.wine, q.wrule = q.wine_in[recipient[0].key], WINE_RECEIVED
                q.wine_in[who] = q.wine
        if action.key in ("action-xi",):
            q.wine_in.pop(who, None)
        loc = " ".join(t.text for t in q.clause.tokens if t.kind == PLACE)
        if action.key == "action-dian" and "篚" in loc:
            q.holder.pop(who, None)
            q.wine_in.pop(who, None)
        if action.key in g.CHANGING_THE_CUP:
            q.wine_in.pop(who, None)

    def _brought_dish(self, who: str, block: int) -> bool:
        """Whether ``who``'s last act in this paragraph brought or served a dish (薦, 羞): what he sets down
        next is that dish, not a cup named earlier in the paragraph."""
        for s in islice(reversed(self.steps), BLOCK_LOOKBACK):
            if s.block != block:
                return False
            if s.agent and s.agent[0].key == who and s.action.key not in g.POSTURES:
                return s.action.key in g.SERVING_DISHES and bool(s.object)
        return False

    def _pledged_cup(self, q: _CupReading, who: str, block: int) -> Term | None:
        """The cup of the last pledge (酬, 旅酬, 媵) made to ``who`` in this paragraph or the three before,
        when its giver still has it: ``who`` pledges on with it, and it passes to him, in ``q``'s holdings
        (燕禮 公又行一爵 唯公所酬 | 以旅于西階上: the 賔 passes on the 公's cup).  None otherwise."""
        st = self.state
        pledges = [s for key in sorted(_PLEDGES) for s in st.history.by_action.get(key, ())[-1:]]
        last = max(pledges, key=lambda s: s.sequence, default=None)
        if last is None or last.block < block - 3 or not last.agent or all(r.key != who for r in last.recipient):
            return None
        giver = last.agent[0].key
        if giver == who or giver not in q.holder:
            return None
        cup = q.holder.pop(giver)
        q.holder[who] = cup
        if giver in q.wine_in:
            q.wine_in[who] = q.wine_in.pop(giver)
        return cup

    def _cup_in_act_word(self, clause: Clause, action: Concept) -> Term | None:
        """The cup named inside the word of the clause's act (卒爵 → 爵, 卒角 → 角), or None."""
        for t in clause.tokens:
            if t.concept is action:
                label = self._written_cup(t.text)
                if label is None:
                    return None
                cup = next((c for c in self.vocabulary.by_label.get(label, ()) if c.kind == VESSEL), None)
                return self.term(cup, label) if cup is not None else None
        return None

    def _passes_thing(self, giver: str, block: int) -> bool:
        """True if the last thing ``giver`` handled in this paragraph is not a cup: what he hands over
        is that thing (特牲 佐食舉幹 尸受 振祭嚌之 佐食受: the bone goes to the 尸 and back; the 觶
        the 尸 set down long before is not what is received)."""
        for s in islice(reversed(self.steps), BLOCK_LOOKBACK):
            if s.block != block:
                return False
            if not s.agent or s.agent[0].key != giver:
                continue
            if s.vessel is not None:
                return False
            if s.object_term is not None and s.object_term.key.startswith("object-"):
                return True
        return False

    def _names_other_thing(self, object_tokens: list[Token]) -> bool:
        """True if the clause's object is a thing that is not a cup nor its wine (授肺, 祭脯醢, 取俎; a
        vessel that is no cup: 特牲 宗婦執兩籩): then the act does not involve the cup in hand."""
        for t in object_tokens:
            if t.kind == OBJECT and t.concept is not None and t.concept.key not in _CUP_CONTENTS:
                return True
            if t.kind == VESSEL and t.concept is not None and not self.vocabulary.is_cup(t.concept.key):
                return True
            if t.kind == OTHER:
                return True
        return False

    def _block_cup(self, block: int, through_basket: bool = False) -> Term | None:
        """The last cup of an earlier step in the block, unless it was put away in the basket
        (``through_basket`` looks past that, for an act being completed)."""
        for s in islice(reversed(self.steps), BLOCK_LOOKBACK):
            if s.block != block:
                break
            if not through_basket and s.action.key == "action-dian" and s.location and s.location.endswith("篚"):
                return None  # 奠爵于篚 … 洗: the cup just put away is not the one washed
            if s.vessel is not None:
                return s.vessel
        return None

    def _surface_cup(self, clause: Clause, default: Term | None) -> str | None:
        """The cup as the text names it for an elided cup object: the last cup name written in
        the block up to this clause, else ``default``'s label (a cup put away in the basket is
        not the one meant, unless the act is being completed: 奠觚于篚 … 卒洗)."""
        completing = bool(clause.flags.get("completive"))
        for s in islice(reversed(self.steps), BLOCK_LOOKBACK):
            if s.block != clause.block:
                break
            if not completing and s.action.key == "action-dian" and s.location and s.location.endswith("篚"):
                break
            written = self._written_cup(s.text)
            if written:
                return written
        return default.label if default is not None else None

    def written_cup(self, text: str) -> str | None:
        """The longest cup name written in ``text`` (媵爵者 and 既爵 do not count), or None."""
        return self._written_cup(text)

    def _written_cup(self, text: str) -> str | None:
        """The longest cup name written in ``text``, not counting role names and idioms that
        contain one (媵爵者, 既爵)."""
        cups, masks = self._cup_names()
        for mask in masks:
            if mask in text:
                text = text.replace(mask, "")
        return next((label for label in cups if label in text), None)

    def _cup_names(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Cup labels, longest first, and the words that contain one without naming a cup."""
        cached = getattr(self, "_cup_name_cache", None)
        if cached is None:
            by_label = self.vocabulary.by_label
            cups = tuple(
                sorted(
                    (lb for lb, cs in by_label.items() if any(self.vocabulary.is_cup(c.key) for c in cs) and not lb.isascii()),
                    key=lambda lb: (-len(lb), lb),
                )
            )
            masks = tuple(
                lb
                for lb, cs in by_label.items()
                if len(lb) > 1 and any(c.kind == "role" for c in cs) and any(cup in lb for cup in cups)
            ) + tuple(g.IDIOMS)
            cached = (cups, masks)
            self._cup_name_cache = cached
        return cached

    def _instrument_cup(self, prefix: list[Token]) -> str | None:
        """The cup after 以 in the prefix (以虚爵降): its written name."""
        for k, t in enumerate(prefix):
            if t.kind == YI:
                rest = [x for x in prefix[k + 1 :] if x.kind in (VESSEL, OTHER)]
                if any(x.kind == VESSEL for x in rest):
                    return next(x.text for x in rest if x.kind == VESSEL)
        return None
