"""To whom an act goes: written persons, alternatives, and the act's ``yk:recipientRule``."""

from __future__ import annotations

from yili.ingest import grammar as g
from yili.ingest.clauses import Clause
from yili.ingest.reading import Reader
from yili.ingest.steps import Term
from yili.ingest.tokens import (
    COND,
    OBJECT,
    OTHER,
    ROLE,
    VESSEL,
    YU,
    ZHI,
    Token,
)
from yili.ontology.vocabulary import Concept

_ANSWERS = {
    "action-dabai": frozenset({"action-bai"}),
    "action-dazaibai": frozenset({"action-bai"}),
    "action-dui": frozenset({"action-ci-decline", "action-ming", "action-jie", "action-su-lodge", "action-gao"}),
    "action-xu": frozenset({"action-ming", "action-qing", "action-ci-decline"}),
    "action-ming": frozenset({"action-qing"}),
}
"""What each answering act answers: a bow, a refusal, a command, a request."""

_PERSON_AS_RECIPIENT = frozenset(
    {
        "action-xian",
        "action-zuo",
        "action-chou",
        "action-ying",
        "action-lvchou",
        "action-ci",
        "action-yi",
        "action-na",
        "action-jian",
        "action-shou-hand",
        "action-xi-mat",
        "action-ming",
        "action-zuo-appoint",
    }
)
"""Acts whose written person is the recipient (献賔, 揖卿大夫, 纳賔, 命賔, 作下大夫二人)."""

_BOWS = frozenset({"action-bai", "action-zaibai", "action-zaibaiqishou"})
"""Bows whose written person is the one bowed to (拜侑, 再拜賔, 三拜衆賔)."""


class RecipientRules(Reader):
    """To whom an act goes: written persons, alternatives, and the act's ``yk:recipientRule``."""

    def person_is_recipient(self, action: Concept) -> bool:
        """True if a person written after the act is its recipient: 献賔, 揖卿大夫, 命賔, and every
        kind of toast (醴賔, 醮之, 酳尸: a cup presented to a person)."""
        return (
            action.key in _PERSON_AS_RECIPIENT
            or "action-toast" in self.vocabulary.broader_closure(action.key)
            or bool(action.flag("toastWithCup"))  # 舉觶于長兄弟: the cup raised to him
            # 主人又拜侑 (有司徹), 拜衆賔于門東: the person bowed to (a person who answers, 主人拜 | 尸答拜,
            # is the subject of the answer: the clause ends before him)
            or action.key in _BOWS
            # 迎賔, 戒賔, 見贊者: the person after an act that takes one is its recipient, but the person
            # after 請 is the one asked for (射人請賔: of the ruler)
            or bool(action.flag("personObject") and action.flag("recipientRule") != "superior")
        )

    def _recipient(
        self,
        action: Concept,
        agent: tuple[Term, ...],
        objects_persons: list[Term],
        pp_persons: list[Term],
        object_tokens: list[Token],
        clause: Clause,
    ) -> tuple[tuple[Term, ...], bool, str | None]:
        """To whom the act goes.

        Written persons first: the person object (献賔, 揖之), then a 于-person (献于公, 媵觚于賔).
        若X若Y gives alternatives (若賔若长唯公所酬). Else by the act's ``yk:recipientRule``:
        ``other-party`` (bows, 辞, 对, 受 from, 拜送 to), ``superior`` (请, 反命, 再拜稽首, 媵: to the
        most senior present), ``served`` (荐, 设: the one who has just been toasted),
        ``next-in-rank`` (旅酬: resolved later from who receives it).
        """
        if action.key == "action-cong" and self.state.last_toast is not None and self.state.last_toast[1]:
            if any(t.kind == OBJECT for t in clause.prefix):
                # 以肝從: the dish follows the cup to the one who drinks it (特牲 賓長以肝從: to the 尸)
                return self.state.last_toast[1], False, "the dish follows the cup to the one who drinks"
        following = self._next_elliptic.get(clause.start, ())
        if action.key == "action-xian" and following and not objects_persons and not pp_persons:
            before = self._presented_before(following[0])
            if before is not None:
                # 酌獻及佐食: the one presented before the 佐食 in the round before (特牲 獻祝…及佐食如初)
                return before, False, "presented before the next one, as in the round before"
        zhi_first = bool(object_tokens) and object_tokens[0].kind == ZHI
        as_recipient = self.person_is_recipient(action)
        if as_recipient or action.flag("personObject") or action.flag("recipientRule") != "none":
            if objects_persons and as_recipient and not (zhi_first and action.flag("personObject")):
                return tuple(objects_persons), False, None
            if pp_persons and action.key == "action-zuo" and not objects_persons:
                returned = self.returned_xian(agent)
                presented = {p.key for p in returned[1]} if returned is not None else set()
                if returned is not None and returned[0] != "return" and {p.key for p in pp_persons} <= presented:
                    # 有司徹 主人酌酢于長賔: the 主人 pours for himself the 酢 of the 長賔 he presented (註
                    # 主人酌自酢 序賔意 賔卑不敢酢); the cup stays in his hand (燕禮 41's 酢 likewise)
                    return agent, False, "a self-poured return toast, in the name of the one written (酢于X)"
            if pp_persons:
                return tuple(pp_persons), False, None
            if any(t.kind == ZHI for t in object_tokens) and action.flag("personObject"):
                # a salute goes to a party of the rite, not to an assistant named in between (士冠 賔揖之:
                # the capped son, not the 贊者 who tied his strings)
                p = self._last_person_other_than(agent, principal=action.key == "action-yi")
                if p is not None:
                    return (p,), False, "之 = the last person named"
        if (
            "action-xian" in self.vocabulary.broader_closure(action.key)
            and self.state.xians
            and any(t.text in g.NUMBERED_PRESENTATIONS for t in clause.prefix[-1:])
            or (
                action.key == "action-xian"
                and (clause.verb.text[:1] in g.NUMBERED_PRESENTATIONS or clause.verb.text.endswith("加爵"))
                and self.state.xians
            )
        ):
            # 亞獻, 三獻, 為加爵: the further presentations go to whom the first went (the 尸)
            return self.state.xians[0][1], False, "a numbered presentation, to the receiver of the first"
        if action.key == "action-shou-hand" and not objects_persons and not pp_persons:
            taker = self._next_subject.get(clause.start)
            if taker and taker in self.vocabulary.concepts and all(a.key != taker for a in agent):
                # 公食 宰夫自東房授醯醬 | 公設之: handed to the one who takes it up next (註 授授公也)
                return (self.term(self.vocabulary.concepts[taker]),), False, "handed to the one who acts on it next"
        alternatives = self._alternatives(clause)
        if alternatives:
            self.state.last_alternatives = alternatives
            return alternatives, True, "either of the persons after 若…若"
        if any(t.text in g.CHOICE for t in clause.tokens) and self.state.last_alternatives:
            # 唯公所赐 again: the ruler chooses among the same persons as before (若賔若长)
            return self.state.last_alternatives, True, "either of the persons offered before"
        default = self.profile.default_agent(action.key)
        if default is not None and default.recipient in self.vocabulary.concepts and not any(t.kind == ZHI for t in object_tokens):
            # a rite fact: the act goes to its usual receiver (士冠: the 醮 of the capped son)
            return (self.term(self.vocabulary.concepts[str(default.recipient)]),), False, f"the rite's receiver ({default.source})"
        rule = action.flag("recipientRule", "none")
        if action.flag("speech") and action.flag("personObject") and rule in ("none", "other-party"):
            # 若孤子則父兄戒宿: an invitation with no one named goes to whom the rite invites (主人戒賔)
            invited = next((s.recipient for s in reversed(self.steps[-300:]) if s.action.key == action.key and s.recipient), ())
            if invited and all(a.key != invited[0].key for a in agent):
                return invited[:1], False, "the one this act goes to in the rite"
        if action.key in ("action-shou", "action-baishou") and objects_persons and not pp_persons:
            # 受 + a person + a thing: the thing is his, received from him (有司徹 尸…受主人爵, 主人降受宰几)
            after_verb = list(clause.suffix)
            thing_after = (
                len(after_verb) >= 2 and after_verb[0].kind == ROLE and after_verb[1].kind in (VESSEL, OBJECT, OTHER)
            )  # the person right after 受, and his thing right after him
            if thing_after and all(a.key != p.key for a in agent for p in objects_persons):
                return tuple(objects_persons[:1]), False, "receives the thing of the person written with it"
        if action.key in ("action-shou", "action-baishou"):
            nominal = clause.flags.get("nominal_object")
            if nominal in ("命",):
                p = self.superior(agent)
                return ((p,) if p else ()), False, "a command is received from the superior"
            holder = self._holding(agent, clause.block)
            if holder is not None:
                return holder, False, "receives from the one who holds it"
            keeper = self._keeper_of(object_tokens)
            if keeper is not None and all(a.key != keeper.key for a in agent):
                # 賔降二等受皮弁: from the 執冠者, the one named for holding the caps
                return (keeper,), False, "receives from the one named for holding it (執X者)"
            cup = any(t.kind == VESSEL and t.concept is not None and self.vocabulary.is_cup(t.concept.key) for t in clause.tokens)
            hander = self._handed_to(agent, clause.block, cup)
            if hander is not None:
                return hander, False, "receives from the one who handed it (授)"
            lt = self.state.last_toast
            if lt is not None and lt[0] and agent and (nominal in ("旅", "酬") or any(self._one_of(agent[0], r) for r in lt[1])):
                if lt[0][0].key != agent[0].key:
                    return lt[0][:1], False, "receives from the giver of the toast"
            if lt is not None and lt[0] and lt[1] and agent and lt[0][0].key == agent[0].key and lt[1][0].key != agent[0].key:
                # the giver takes the emptied cup back from the one he toasted (特牲 主人…獻祝 … 受角)
                return lt[1][:1], False, "takes the cup back from the one he toasted"
        if action.key == "action-baisong" and agent:
            # the bow of sending off the cup goes to the one it was sent to
            for s in reversed(self.steps[-8:]):
                if "action-toast" in self.vocabulary.broader_closure(s.action.key) and s.agent[:1] == agent[:1] and s.recipient:
                    return s.recipient[:1], False, "to the one the cup was sent to"
        if action.key == "action-zuo":
            returned = self.returned_xian(agent)
            if returned is not None and returned[0] == "return":
                return returned[1], False, "the return toast goes to who gave the 献"
            if returned is not None:
                return agent, False, "a self-poured return toast (更爵 … 自酢)"
            if self.state.last_xian is not None:
                return self.state.last_xian[0], False, "the return toast goes to who gave the last 献"
        if rule == "each-other" and len(agent) >= 2:
            # 衆賓及衆兄弟交錯以辯: the two sides pass the pledge to each other (註 交錯猶言東西)
            return agent, False, "each side to the other"
        if rule == "answer":
            # 答拜 answers a bow, 对 a 辞, 许 a 命/请, 命 a 请 — each directed at the agent
            # (射人命賔 … 许诺: to the 射人; 射人请賔 公曰命某为賔: to the 射人)
            keys = {a.key for a in agent}
            wanted = _ANSWERS.get(action.key, frozenset())
            for s in reversed(self.steps[-12:]):
                fam = self.vocabulary.broader_closure(s.action.key)
                if not (fam & wanted) or self._is_reply(s):
                    continue
                if s.agent and keys & {r.key for r in s.recipient} and not (keys & {a.key for a in s.agent}):
                    return s.agent[:1], False, "answers the last act directed at him"
            if action.key == "action-ming":
                doer = self._next_subject.get(clause.start)
                if clause.flags.get("verbal_object") and doer and doer not in {a.key for a in agent} and doer in self.vocabulary.concepts:
                    # 祝命爾敦 | 佐食爾黍稷: a command of an act goes to whoever does it next
                    return (self.term(self.vocabulary.concepts[doer]),), False, "commanded to the one who does it next"
                return (), False, None
            rule = "other-party"
        if rule == "other-party" and self._agent_from_pivot:
            # 公命小臣辞: the servant declines, for the ruler, to the ruler's other party
            p = self.other_party(self.state.pivot_commander)
            if p is not None and all(p.key != a.key for a in agent):
                return (p,), False, "to the other party of the one who commanded it"
        if rule == "other-party" and action.key == "action-gao" and agent and not self._is_principal(agent[0].key):
            # an officer announces to the one he serves (士冠 宗人告事畢, 擯者告: to the host)
            opener = self.profile.opener
            if opener in self.vocabulary.concepts and opener != agent[0].key:
                return (self.term(self.vocabulary.concepts[str(opener)]),), False, "an officer announces to the one he serves"
        if action.key == "action-ci-decline" and agent:
            # 賔降 主人降 賔辭: one declines the act the other has just done
            for s in reversed(self.steps[-3:]):
                if s.block != clause.block:
                    break
                if s.agent and s.agent[0].key != agent[0].key and self._is_principal(s.agent[0].key):
                    return s.agent[:1], False, "declines the other's act just done"
        if rule == "other-party" and agent and "action-bai" in self.vocabulary.broader_closure(action.key):
            giver = self._giver_of_drained_cup(agent, clause.block)
            if giver is not None:
                # 卒爵拜: the bow after draining the cup goes to whoever gave it (士虞 主人…獻祝 祝…卒爵拜)
                return giver, False, "bows to the one who gave the cup he drained"
        if rule == "other-party":
            p = self.other_party(agent)
            return ((p,) if p else ()), False, "other party of the exchange"
        if rule == "superior":
            p = self.superior(agent)
            return ((p,) if p else ()), False, "the most senior person present"
        setting = self.profile.default_agent(action.key)
        if rule == "served" and setting is not None and setting.opening and agent and agent[0].key == setting.role:
            # the officers setting out the rite's things (士冠 有司…尊于房户之間): nobody is served by it
            return (), False, None
        if rule == "served" and self.state.last_toast is not None and self._toasted_lately(clause.block):
            return self.state.last_toast[1], False, "the one just toasted is served"
        if action.key == "action-jia" and not any(t.kind in (YU,) for t in clause.suffix) and all(t.kind == ZHI for t in object_tokens):
            rule = "served"  # 加之: put it on the person (加于俎: onto the stand; 加柶: the spoon into the cup)
        if rule == "served" and action.key in g.DONE_TO_THE_PERSON:
            served = self._person_served(agent, clause.block)
            if served is not None:
                return served
        if rule == "served":
            # 贊者坐櫛設纚 (士冠): the person being served is the party named last; 羞 is not served to
            # whoever was named last (燕禮 笙入 … 膳宰羞庶羞: not to the pipers)
            keys = {a.key for a in agent}
            earlier = list(reversed(self.state.mentions[-40:])) if action.key in g.DONE_TO_THE_PERSON else []
            named = [] if action.key in g.SERVED_TO_EATERS else [*reversed(self.state.block_mentions), *earlier]
            for t in named:
                if t.key not in keys and self._is_principal(t.key):
                    return (t,), False, "the one being served, named last"
            eater = self._eating(agent, clause.block)
            if eater is not None:
                return eater, False, "the one eating is served"
            if self.state.last_toast is not None and action.key not in g.SERVED_TO_EATERS:
                return self.state.last_toast[1], False, "the one last toasted is served"
        return (), False, None

    def _eating(self, agent: tuple[Term, ...], block: int) -> tuple[Term, ...] | None:
        """The one who has been eating (食, 飯, 嚌) in this paragraph or the two before, not ``agent``:
        dishes set out or served then are his (特牲 尸…嚌之 | 設大羹湆于醢北, 主人羞肵俎于腊北: the 尸's,
        注 肵俎主于尸); None if no one has."""
        keys = {a.key for a in agent}
        for s in reversed(self.steps[-30:]):
            if s.block < block - 2:
                return None
            if s.action.key in g.EATING and s.agent and s.agent[0].key not in keys and self._is_principal(s.agent[0].key):
                return s.agent[:1]
        return None

    def _giver_of_drained_cup(self, agent: tuple[Term, ...], block: int) -> tuple[Term, ...] | None:
        """The giver of the cup ``agent`` has just drained (卒爵 right before, in this paragraph), from
        the last toast he received; None if he has not just drained one."""
        last = self.steps[-1] if self.steps else None
        if last is None or last.block != block or last.action.key != "action-zujue" or last.agent[:1] != agent[:1]:
            return None
        for s in reversed(self.steps[-40:]):
            if "action-toast" in self.vocabulary.broader_closure(s.action.key) and any(r.key == agent[0].key for r in s.recipient):
                return s.agent[:1] if s.agent and s.agent[0].key != agent[0].key else None
        return None

    def _keeper_of(self, object_tokens: list[Token]) -> Term | None:
        """The role of the rite's cast named for holding the thing received, or its kind (執冠者 for
        皮弁, a cap: ``skos:broader``), if any."""
        for t in object_tokens:
            if t.concept is None or t.kind not in (OBJECT, VESSEL):
                continue
            for key in [t.concept.key, *sorted(self.vocabulary.broader_closure(t.concept.key) - {t.concept.key})]:
                c = self.vocabulary.concepts.get(key)
                for label in sorted(c.labels) if c is not None else ():
                    keeper = next(
                        (r for r in self.vocabulary.by_label.get("執" + label + "者", ()) if r.kind == "role" and self.profile.in_cast(r.key)),
                        None,
                    )
                    if keeper is not None:
                        return self.term(keeper)
        return None

    def _holding(self, agent: tuple[Term, ...], block: int) -> tuple[Term, ...] | None:
        """Who holds out the thing ``agent`` receives: another who has just taken it up, held it or
        brought it in this paragraph (特牲 宗婦執兩籩 户外坐 主婦受: from the 宗婦; 兄弟長以燔從 尸受: from
        the eldest brother), before ``agent`` himself acted on it; None if no one."""
        if not agent:
            return None
        for s in reversed(self.steps[-6:]):
            if s.block != block:
                return None
            toasted = "action-toast" in self.vocabulary.broader_closure(s.action.key) and any(r.key == agent[0].key for r in s.recipient)
            if s.agent[:1] == agent[:1] or toasted:
                return None  # he acted himself since, or a cup was given him (賔…以酢主人 | 主人拜受爵)
            if s.action.key in g.HOLDING_OUT and s.agent and s.object_term is not None and s.vessel is None:
                self.held_out = (s.object_term, s.object)
                return s.agent[:1]
        return None

    def _presented_before(self, key: str) -> tuple[Term, ...] | None:
        """Who was presented (獻) right before the person ``key`` in the last round that reached him,
        by the same giver; None if no round has."""
        xians = self.state.xians
        for n in range(len(xians) - 1, 0, -1):
            giver, receiver = xians[n]
            if any(r.key == key for r in receiver):
                prev_giver, prev_receiver = xians[n - 1]
                if prev_giver[:1] == giver[:1] and prev_receiver and all(r.key != key for r in prev_receiver):
                    return prev_receiver
                return None
        return None

    def _person_served(self, agent: tuple[Term, ...], block: int) -> tuple[tuple[Term, ...], bool, str] | None:
        """Who an act done to a person (櫛, 冠, 祝, 加: :data:`~yili.ingest.grammar.DONE_TO_THE_PERSON`) is
        done to: the one who has just sat down for it in this paragraph (士冠 冠者即筵坐 櫛), else the
        one the last such act was done to (乃祝 … 乃冠: the same capped son), never its agent."""
        keys = {a.key for a in agent}
        for s in reversed(self.steps[-12:]):
            if s.block != block:
                break
            if s.action.key in g.TAKING_A_SEAT and s.agent and s.agent[0].key not in keys:
                return s.agent[:1], False, "the one seated to be served"
        for s in reversed(self.steps[-60:]):
            if s.action.key in g.DONE_TO_THE_PERSON and s.recipient and s.recipient[0].key not in keys:
                return s.recipient[:1], False, "the person served before"
        return None

    @staticmethod
    def _one_of(person: Term, party: Term) -> bool:
        """Whether ``person`` is ``party`` or the one of that group who acts for it, named after it (長兄弟
        of the 兄弟, 衆賔長 of the 衆賔: 有司徹 獻兄弟 | 兄弟之長升拜受爵)."""
        return person.key == party.key or (len(party.label) >= 2 and party.label in person.label)

    def _handed_to(self, agent: tuple[Term, ...], block: int, cup: bool = False) -> tuple[Term, ...] | None:
        """Who last handed (授) something to ``agent`` in this block or the two before, if anyone:
        佐食授挼祭 尸受 (特牲: the 尸 receives from the 佐食); 有司徹 尸…取爵酌 | 司宮設席于東序 | 主人…拜受爵:
        from the 尸 who poured, a paragraph of setting the mat between.  ``cup``: the receiving names
        a cup (受爵), so one who last received a dish is not the one it comes from."""
        if not agent:
            return None
        recent = self.steps[-6:]
        for k in range(len(recent) - 1, -1, -1):
            s = recent[k]
            if s.block < block - 2:
                return None
            if s.action.key == "action-shou-hand" and s.agent and any(r.key == agent[0].key for r in s.recipient):
                return s.agent[:1]
            poured = k > 0 and recent[k - 1].action.key in ("action-zhuo", "action-shi-fill") and recent[k - 1].agent[:1] == s.agent[:1]
            if s.action.key == "action-shou-hand" and poured and s.recipient and all(r.key != agent[0].key for r in s.recipient):
                # 祝酌授尸 賔拜受爵: a cup poured and handed to another is his to give (有司徹: the 尸's)
                return s.recipient[:1]
            if (
                "action-toast" in self.vocabulary.broader_closure(s.action.key)
                and s.agent
                and any(r.key == agent[0].key for r in s.recipient)
            ):
                # 祝酌授尸 尸以醋主人 主人拜受角: from the one who gives him the cup, not its pourer
                return s.agent[:1]
            if (
                s.action.key in ("action-zhuo", "action-shi-fill", "action-shou")
                and s.agent
                and s.agent[0].key != agent[0].key
                and (s.action.key != "action-shou" or not cup or s.vessel is not None or s.wine is not None)
            ):
                # 贊者…酌醴 賔受醴: from the one who poured it, or who last received the cup (賔受醴 … 冠者
                # 拜受); not who received a dish (特牲 羞燔者受 … 主婦答拜受爵: from the 主人, not the 兄弟長)
                return s.agent[:1]
        return None

    def _toasted_lately(self, block: int) -> bool:
        """True if the last toast was made in this block or the three before (its receiver is the one served)."""
        for s in reversed(self.steps):
            if s.block < block - 3:
                return False
            if "action-toast" in self.vocabulary.broader_closure(s.action.key):
                return True
        return False

    def _alternatives(self, clause: Clause) -> tuple[Term, ...]:
        """若X若Y: either X or Y.  A relative word among them (长, the eldest) stays as written,
        since it names whoever is eldest, not a person already named."""
        toks = clause.tokens
        out: list[Term] = []
        for i, t in enumerate(toks[:-1]):
            if t.kind == COND and t.text == "若" and toks[i + 1].kind == ROLE:
                nxt = toks[i + 1]
                out.extend(self._role_terms([nxt]) if nxt.concept is not None else (Term("", nxt.text),))
        return tuple(out) if len(out) >= 2 else ()

    def _declined_act(self, recipient: tuple[Term, ...]) -> str | None:
        """What a bare 辞 declines: the other's last act, if it is coming down, washing or bowing
        (賔降 主人辞: the descent; 賔下拜 小臣辞: the bow)."""
        for s in reversed(self.steps[-6:]):
            if s.agent and s.agent[0].key == recipient[0].key:
                if "拜" in s.text or "action-bai" in self.vocabulary.broader_closure(s.action.key):
                    return "拜"
                if s.action.key in g.VERBAL_OBJECTS:
                    return s.action.label
                return None
        return None
