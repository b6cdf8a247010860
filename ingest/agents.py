"""Who acts when the text does not say: the rules for unwritten agents.

The classic leaves subjects out; these rules, in the order :meth:`AgentRules._unwritten_agent`
tries them, find the agent from the pivot verb before, the act being completed (卒), the act being
answered (答拜, 对), the office (请, 命), the cup in hand (卒爵), the vocabulary's default agent
(荐 → 膳宰), or the subject carried over.
"""

from __future__ import annotations

from itertools import islice

from yili.ingest import grammar as g
from yili.ingest.clauses import Clause
from yili.ingest.cups import BLOCK_LOOKBACK
from yili.ingest.reading import Reader
from yili.ingest.steps import Step, Term
from yili.ingest.tokens import (
    COND,
    OBJECT,
    OTHER,
    ROLE,
    TAIL,
    THEN,
    VESSEL,
    ZHI,
    Token,
)
from yili.ontology.vocabulary import Concept

_OFFICE_ACTS = frozenset({"action-qing", "action-ming"})
"""Requests and commands, made by whoever holds that office in the rite (小臣请, 公命)."""

_CUP_PREPARATION = frozenset({"action-xi", "action-zhuo", "action-shi-fill", "action-guan"})
"""Washing, pouring, filling (and washing the hands for it): never the ruler's (注 君尊不酌)."""

AS_AT_FIRST_SPAN = 40
"""How many steps back an act done "as at first" (如初) to other things may find its first doer: the
portions of one meal (特牲 佐食舉幹 … 舉骼及獸魚如初 … 舉肩及獸魚如初)."""

_DRINKING = frozenset({"action-zujue", "action-yin", "action-cui"})
"""Drinking acts: done by whoever holds the cup."""

_DRINK_BEGIN = frozenset({"action-yin", "action-cui", "action-ji"})
"""Acts that begin a drink: 饮, 啐, 祭 (the libation before drinking)."""

_TASTING = frozenset({"action-ji-taste"})
"""Tasting (嚌) the food offered with the cup: done, as the drinking is, by whoever holds the cup."""

_BEFORE_DRINKING = frozenset({"action-zuo-sit", "action-li", "action-ji"})
"""Kneeling, standing and the libation, on the way to drinking (坐祭立飲)."""

_NEW_CUP = frozenset({"action-zhuo", "action-zuo", "action-geng"})
_PLACING = frozenset({"action-dian", "action-she"})
"""Setting a thing down (奠, 設): after serving a dish, the server's own act."""
"""Pouring, the return toast, changing the cup: a new cup, whose drinking is a new one."""


AS_AT_FIRST = "did the same act on the same thing at first (如初)"
"""The note on an agent found by :meth:`AgentRules.first_time`."""


class AgentRules(Reader):
    """Who acts when the text does not say: the rules for unwritten agents."""

    def _unwritten_agent(self, clause: Clause, action: Concept) -> tuple[tuple[Term, ...], str]:
        """The agent of a clause with no written subject.

        In order (rules of the language; the rite's facts come from its profile, ``ontology/rites.ttl``):

        1. the person a pivot verb just named (公命小臣 | 辞: the 小臣 declines); the roles the note
           on the paragraph names for the act (註 徹者賛冠者主人之賛者為之); who did what a relative
           phrase before the act says (羞燔者受: who brought the roast);
        2. the rite's usual giver of an act to its usual receiver (士冠: the 賔 gives the 醮);
        3. the subject from before a condition, past 則 (公有命則不易不洗), unless the condition's own
           act was the officers' by a rite fact, no one named (若殺則…: they go on);
        4. the role named for the act, or for the act and the kind of things named before it
           (執冪 → 執冪者; 爵弁皮弁…執 → 執冠者), who drinks or tastes what he began (卒爵, 嚌), who
           does to the one who took the mat what he did before (冠者即筵坐 | 櫛: the 贊者), who holds
           the cup and kneels, offers and drinks after the other's answering bow, who thanks for the
           washing (拜洗), who salutes and goes up first (揖升); who brought a dish after the cup
           before brings it again (肝從);
        5. a 酢 is the return of the one toasted last, unless the giver changed the cup, or took it
           back and poured it himself (主婦答拜受爵酌醋), to pour it for himself;
        6. the host toasts the chief guest; the presenter of a round gives its 獻 (never the
           presiding person); the same kind of toast by the same giver (in a rite with one 獻主
           throughout; elsewhere within one exchange);
        7. 卒X completes the act X begun in this paragraph or the one before; a reply (答拜, 对) is the other party's when the
           carried subject made the act answered; mutual 讓 and numbered 揖 are both parties'; the
           junior saluted moves;
        8. a request or command of office opening a paragraph; the other party prepares the cup of
           one who does not pour (a rite fact: 君尊不酌); 反命 by whoever carried the command;
        9. the rite's default agent of the act (燕禮記 凡荐与羞者小膳宰也; an opening fact at a
           paragraph's or a new morning's opening: 夙興 設洗);
        10. the server moves on; the subject carried over (nobody presents a cup to himself);
        11. at the opening of a rite, the rite's opener.
        """
        st = self.state
        if st.pivot_agent:
            return st.pivot_agent, "named by the pivot verb before it"
        noted = self.noted_doers.get(action.key)
        if noted:
            # 士冠 徹皮弁冠櫛筵 註曰徹者賛冠者主人之賛者為之: the note says who does it
            return tuple(self.term(c) for c in noted), "the note on the paragraph says who does it"
        doer = self._relative_subject(clause)
        if doer is not None:
            return doer, "the one who did what the relative phrase says (V者)"
        usual = self.profile.default_agent(action.key)
        if usual is not None and usual.recipient and usual.role in self.vocabulary.concepts and not any(t.kind == ROLE for t in clause.suffix):
            # a rite fact of the act to its usual receiver (士冠: the 賔 gives the 醮 to the capped son),
            # whatever subject stood before a condition (若不醴則醮用酒)
            return (self.term(self.vocabulary.concepts[str(usual.role)]),), f"default agent of the rite ({usual.source})"
        last = self.steps[-1] if self.steps else None
        condition_by_fact = (
            last is not None
            and last.block == clause.block
            and not last.agent_explicit
            and any(n.startswith("agent: opening agent") for n in last.notes)
        )
        if any(t.kind == THEN for t in clause.prefix) and not any(t.kind == COND for t in clause.tokens) and st.before_condition:
            if condition_by_fact:
                # 若殺則特豚載合升: the officers, who do the slaughter the condition speaks of, go on
                return last.agent, "goes on from the condition, which no one else is named in"
            # 公有命则不易不洗: the condition's subject is not carried past 则
            return st.before_condition, "carried over from before the condition"
        named = self._role_named_for(clause)
        if named is not None:
            return (named,), "the role named for this act"
        again = self.first_time(clause, action)
        if again is not None:
            return again.agent, AS_AT_FIRST
        if action.key == "action-cong":
            # 肝從, 燔從如初: the dish follows the cup, brought by whoever brought it before (特牲 賓長以肝從 …
            # 肝從; 兄弟長以燔從 … 燔從如初)
            dish = next((t for t in reversed(clause.prefix) if t.kind == OBJECT and t.concept is not None), None)
            if dish is not None:
                for s in reversed(st.by_action.get("action-cong", ())):
                    if s.object_term is not None and s.object_term.key == dish.concept.key and s.agent:
                        return s.agent, "brings the dish he brought before"
        if action.key in g.DONE_TO_THE_PERSON and st.subject and self.steps and self.steps[-1].block == clause.block:
            # 冠者即筵坐 | 櫛設笄: the one seated is served; the act is by who did it before (贊者坐櫛)
            last = self.steps[-1]
            before = st.last_agent_of.get(action.key)
            took_the_mat = any(
                s.block == clause.block and s.action.key == "action-jiuxi" and s.agent[:1] == st.subject[:1] for s in self.steps[-4:]
            )
            if last.action.key in g.TAKING_A_SEAT and took_the_mat and before and before[0].key != st.subject[0].key:
                return before, "does to the one seated what he did before"
        if action.key in _DRINKING | _TASTING and st.subject:
            # 卒爵 completes the drinking begun (主人坐祭遂饮 賔辞 卒爵: the host drains the cup)
            for s in reversed(self.steps):
                if s.block != clause.block:
                    break
                if s.action.key in _NEW_CUP:
                    break  # 主人更爵酌醋 | 卒爵: a cup poured since, drunk by who poured it
                if s.action.key in _DRINK_BEGIN and s.agent:
                    if s.agent[0].key != st.subject[0].key:
                        return s.agent, "completes the drinking he began"
                    break
            if st.subject[0].key not in st.holder and st.last_holder and st.last_holder[0].key != st.subject[0].key:
                return st.last_holder, "holds the cup"
        if (
            (
                action.key in _BEFORE_DRINKING
                and self._lookahead.get(clause.start) in _BEFORE_DRINKING | _DRINKING
                or action.key == "action-jiang" and self._lookahead.get(clause.start) == "action-xi"
            )
            and st.subject
            and not self._cup_in_hand(st.subject[0].key)
            and st.last_holder
            and st.last_holder[0].key != st.subject[0].key
            and self.steps
            # the reply may close the paragraph before (a note of the 述註 between them: 鄉飲酒 …賔西階上答拜 | 坐祭)
            and self.steps[-1].block >= clause.block - 1
            and self._is_reply(self.steps[-1])
            and not any(t.text in g.ALL for t in clause.prefix)  # 皆坐: all of those carried over
        ):
            # 主婦…左執爵拜 主人答拜 | 坐祭立飲: after the other's answering bow, the one with the cup
            # kneels, offers and drinks
            return st.last_holder, "holds the cup"
        last_word = clause.prefix[-1] if clause.prefix else None
        cup_stops = last_word is not None and last_word.kind == VESSEL and self.vocabulary.is_cup(last_word.concept.key)
        if action.key == "action-zhi-stop" and cup_stops and st.last_toast is not None and st.last_toast[1]:
            # 爵止: the cup is left standing, undrunk, by the one it was presented to (特牲 賓三獻…爵止,
            # 註 三獻禮成欲神惠之均於室中 是以奠而待之: the 尸)
            return st.last_toast[1][:1], "leaves standing the cup presented to him"
        if action.key == "action-baixi":
            washer = st.last_agent_of.get("action-xi")
            if washer:
                thanked = self.other_party(washer)
                if thanked is not None:
                    return (thanked,), "thanks the other party for washing the cup"
        if action.key == "action-yi" and st.subject and self._next_is_ascent(clause):
            party = [st.subject[0], self.other_party(st.subject)]
            first = [p for p in party if p is not None and (c := self.concept(p.key)) is not None and c.flag("ascendsFirst")]
            if first:
                return (first[0],), "salutes and goes up first (注曰賔每先升尊也)"
        closure = self.vocabulary.broader_closure(action.key)
        carried_return = self.returned_xian(st.subject) if st.subject and action.key == "action-zuo" else None
        latest_to_him = st.last_xian is None or any(r.key == st.subject[0].key for r in st.last_xian[1]) if st.subject else False
        drank = bool(st.subject) and any(
            s.block == clause.block
            and s.agent[:1] == st.subject[:1]
            and (s.action.key in _DRINKING or s.agent_explicit)  # he drank, or he is named in this paragraph
            for s in self.steps[-8:]
        )
        if carried_return is not None and carried_return[0] == "return" and not self._changed_cup(clause) and (latest_to_him or drank):
            # 尸卒爵 | 酢: the one who has just drunk the 獻 he received (or is named in the paragraph:
            # 上餕洗爵升酌酢主人) returns it; not one who only handles the cup after a later 獻 to
            # another (特牲 尸卒爵 祝受爵 | 酢如主人儀: the 尸's 酢 to the 主婦)
            return st.subject, "returns the 獻 he received"
        if action.key == "action-zuo" and st.last_xian is not None and st.last_xian[1]:
            # 酢 is the return of the one toasted (尸…酢 after 主婦亞獻尸), unless the giver of the 獻
            # has just changed the cup to pour it for himself (更爵 … 酢于阼階下)
            changed = any(
                s.block == clause.block and s.action.key in ("action-geng", "action-yi-change") for s in self.steps[-6:]
            )
            # the giver named in this paragraph who takes the cup back and pours the 酢 pours it for
            # himself (特牲 主婦答拜受爵酌醋: 疏 主人酢主婦, poured by the 主婦)
            last = self.steps[-1] if self.steps else None
            giver_goes_on = (
                bool(st.subject)
                and st.last_xian[0][:1] == st.subject[:1]
                and last is not None
                and last.block == clause.block
                and last.agent[:1] == st.subject[:1]
                # he has taken the cup back, or poured, or filled it (鄉射 主人實爵以酢於西階上: the host pours
                # the 大夫's 酢 for himself)
                and last.action.key in ("action-zhuo", "action-shou", "action-shi-fill")
                and any(s.block == clause.block and s.agent_explicit and s.agent[:1] == st.subject[:1] for s in self.steps[-6:])
            )
            if not ((changed or giver_goes_on) and st.subject):
                return st.last_xian[1], "returns the 獻 he received"
        guest = self.profile.chief_guest
        if (
            "action-toast" in closure
            and action.key != "action-zuo"
            and guest
            and self.profile.host in self.vocabulary.concepts
            and any(t.kind == ROLE and t.concept is not None and t.concept.key == guest for t in clause.suffix)
            and not any(s.block == clause.block and s.agent_explicit for s in self.steps[-8:])
        ):
            # the rite's host presents the cup to its chief guest (主人獻賔; 士冠 乃醴賔, 註 主人禮賔),
            # unless a subject named earlier in the same paragraph goes on (公…取觶…以酬賔)
            return (self.term(self.vocabulary.concepts[str(self.profile.host)]),), "the host toasts the chief guest"
        if "action-toast" in closure and action.key != "action-zuo":
            if action.key == "action-lvchou" and st.last_toast is not None and st.last_toast[1]:
                # the pledge is passed on by the one who has just received it (以旅于西阶上)
                if st.last_toast_alternative:
                    return st.last_toast[1], "passes on the pledge he received (either)"
                return st.last_toast[1], "passes on the pledge he received"
            presenter = next(
                (giver for giver, receiver in reversed(st.xians) if receiver[:1] and receiver[0].key == self.profile.presiding),
                None,
            )
            if action.key == "action-xian" and st.subject and st.subject[0].key == self.profile.presiding and presenter:
                # the presiding person (the 尸, the ruler) receives the presentations; in a round the
                # presentations with no written giver are the presenter's, who presented to him last
                # (士虞 主婦…酌獻祝…獻佐食)
                return presenter, "the presenter of the round (the presiding person presents no 獻)"
            same_giver = self.profile.same_giver
            if same_giver is not None and same_giver.action not in closure:
                same_giver = None  # the fact is of the presentations (獻), not of every toast
            written = {t.concept.key for t in clause.suffix if t.kind == ROLE and t.concept is not None}
            for s in reversed(st.by_action.get(action.key, ())):
                named_since = any(
                    x.agent_explicit and x.agent[:1] != s.agent[:1]
                    for x in self.steps[-40:]
                    if x.sequence > s.sequence and x.block == clause.block
                )
                if s.agent and s.agent[0].key not in written and (same_giver is not None or (s.block == clause.block and not named_since)):
                    # a rite fact: one giver of the presentations throughout (燕禮 注曰主人宰夫也:
                    # 辩献卿 repeats 主人's 献); elsewhere only within the same exchange (its block)
                    why = same_giver.source if same_giver is not None else "within the same exchange"
                    return s.agent, f"gives this kind of toast, as before ({why})"
            host = self.profile.host
            if same_giver is not None and host in self.vocabulary.concepts and host not in written:
                # no presentation told yet (the 記 begins anew): the rite's 獻主 is its host
                return (self.term(self.vocabulary.concepts[str(host)]),), f"the giver of the presentations ({same_giver.source})"
        begun = st.by_action.get(action.key, ())
        if clause.flags.get("completive") and action.key in st.last_agent_of and begun and begun[-1].block >= clause.block - 1:
            # 卒洗: completes the washing begun in this paragraph or the one before, by its agent;
            # a washing told long before is another one (士冠 賔降取爵于篚辭降如初卒洗: the 賔's)
            return st.last_agent_of[action.key], "completes the act begun by its agent (卒)"
        if action.flag("responsive"):
            answered = self._answered(action)
            if answered is not None and st.subject and answered.agent and answered.agent[0].key == st.subject[0].key:
                replier: tuple[Term, ...] = answered.recipient[:1]
                if not replier:
                    someone = self.other_party(st.subject)
                    replier = (someone,) if someone is not None else ()
                if replier:
                    return replier, "reply by the other party"
        continues = any(t.text in ("乃", "遂") for t in clause.prefix)
        opens_block = not self.steps or self.steps[-1].block != clause.block
        mutual = action.key in g.MUTUAL_ACTS or (
            action.key == "action-yi" and any(t.text in g.COUNTED_SALUTES for t in clause.prefix) and not clause.suffix
        )
        if mutual and st.subject:
            # 三讓, 三揖, 每曲揖: host and guest to each other (疏 主人在南賔在北俱東向是一曲故揖)
            other = self.other_party(st.subject)
            if other is not None and other.key != st.subject[0].key:
                return (st.subject[0], other), "a mutual act of the two parties"
        last = self.steps[-1] if self.steps else None
        if (
            last is not None
            and last.block == clause.block
            and last.action.key == "action-yi"
            and len(last.recipient) == 1
            and last.agent
            and not continues
            and action.key in g.MOVES_AFTER_SALUTE
            and self._rank(last.recipient[0].key) < self._rank(last.agent[0].key)
            and not last.text.endswith(tuple(sorted(self.vocabulary.concepts["action-yi"].labels)))
        ):
            # 賔揖之 | 適房: the one saluted (a junior) goes where he is bidden (士冠 賔揖冠者 冠者即筵);
            # not when no one is written after 揖 (公食 公揖入 賔從: the ruler salutes and leads the way
            # in, 註 揖入道之)
            return last.recipient, "the one saluted moves"
        if action.key in _OFFICE_ACTS and not continues and (opens_block or any(t.kind == COND for t in clause.prefix)):
            # a paragraph (or a condition) that opens with 请 / 命 and no subject: by whoever made
            # the last such request or command (小臣请…, 公命…), within a few blocks; inside a
            # paragraph the actor goes on (升自西阶 … 请彻俎), and so after 乃/遂 (乃命执幂者)
            for s in reversed(st.by_action.get(action.key, ())):
                if s.block < clause.block - 4:
                    break
                if any(n.startswith("action: causative") for n in s.notes):
                    continue  # 射人升卿 is read as 命 but is no command of office
                if s.agent:
                    return s.agent, "makes this request or command, as before"
        exalted = next((f for a in st.subject if (f := self.profile.does_not_pour(a.key)) is not None), None)
        if action.key in _CUP_PREPARATION and st.subject and exalted is not None:
            # a rite fact: the ruler does not wash, fill or pour (燕禮 注 君尊不酌); the other party does
            preparer = self.other_party(st.subject)
            if preparer is not None:
                return (preparer,), f"does not prepare the cup ({exalted.source})"
        if action.key == "action-fanming":
            for s in reversed(st.by_action.get("action-ming", ())):
                if s.agent and s.agent[0].key != "role-gong":
                    return s.agent, "reports back the command he carried"
        default = self.profile.default_agent(action.key)
        if default is not None and default.recipient and any(t.kind == ROLE for t in clause.suffix):
            default = None  # the fact is of the act to its usual receiver (醮 of the capped son), not of 醴賔
        new_day = bool(self.steps) and self.steps[-1].block == clause.block and self.steps[-1].text.startswith(tuple(g.NEW_DAY))
        if default is not None and default.opening and not (opens_block or new_day):
            # a setting-out that opens its paragraph, or its day (士冠 …夙興 設洗: the officers);
            # inside one, the actor goes on
            default = None
        if default is not None and default.role in self.vocabulary.concepts:
            # an opening fact names who carries the paragraph on (its setting out); another only the act
            why = "opening agent of the rite" if default.opening else "default agent of the rite"
            return (self.term(self.vocabulary.concepts[str(default.role)]),), f"{why} ({default.source})"
        if st.served_by and action.key in g.MOTION_VERBS:
            # 膳宰设折俎 升自西阶: the server himself goes up
            return st.served_by, "the server moves on"
        brought_dish = (
            bool(st.served_by)
            and bool(self.steps)
            and self.steps[-1].agent[:1] == st.served_by[:1]
            and self.steps[-1].action.key in ("action-jian", "action-xiu")
            and bool(self.steps[-1].object)
        )
        kneels_to_place = action.key in g.POSTURES and self._lookahead.get(clause.start) in _PLACING
        if brought_dish and (action.key in _PLACING or kneels_to_place):
            # 有司徹 婦贊者薦韭菹醢 | 坐 | 奠于筵前: the server kneels and sets down what he brought
            return st.served_by, "the server sets down what he brought"
        if st.subject and "action-toast" in closure:
            receivers = {t.concept.key for t in clause.suffix if t.kind == ROLE and t.concept is not None}
            if st.subject[0].key in receivers:
                # nobody presents a cup to himself: the other party gives it (西階上獻賓 after 賓 washed)
                host = self.profile.host
                giver = self.other_party(st.subject)
                if host in self.vocabulary.concepts and host not in receivers:
                    return (self.term(self.vocabulary.concepts[str(host)]),), "nobody toasts himself: the host gives it"
                if giver is not None and giver.key not in receivers:
                    return (giver,), "nobody toasts himself: the other party gives it"
        if st.subject:
            return st.subject, "carried over"
        return self._opening_agent()

    def _relative_subject(self, clause: Clause) -> tuple[Term, ...] | None:
        """Who a relative phrase before the act names (特牲 羞燔者受: the one who served the roast, the
        eldest brother who brought it, 兄弟長以燔從): the agent of the last step of that act on the thing
        it names, or, for serving a dish, of bringing it after the cup.  None if the prefix is no such
        phrase, or names no thing (衆受酬者: a group, not one who acted before)."""
        pre = clause.prefix
        if len(pre) < 2 or pre[-1].text not in g.NOMINALISER or any(t.kind == ROLE for t in pre):
            return None
        words = [t for t in pre[:-1] if t.kind == TAIL and t.concept is not None]
        acts = [t.concept.key for t in words if t.concept.key.startswith("action-")]
        things = {t.concept.key for t in words if not t.concept.key.startswith("action-")}
        if not acts or not things:
            return None  # 衆受酬者: those who receive the pledge are a group, not one who did it before
        for s in reversed(self.steps[-40:]):
            if not s.agent:
                continue
            handled = s.object_term is not None and s.object_term.key in things
            if s.action.key == acts[0] and handled:
                return s.agent
            if handled and s.action.key == "action-cong" and acts[0] in ("action-xiu", "action-jian"):
                return s.agent  # 羞燔者: who served the roast is who brought it after the cup (以燔從)
        return None

    def _opening_agent(self) -> tuple[tuple[Term, ...], str]:
        """At the opening of a rite with nobody named yet: the rite's opener (the ruler of the 燕禮;
        the 主人 of a 士's capping and of a sacrifice, where the 尸 enters later), else the most
        senior person its classic names."""
        p = self.profile.opener
        if p and p in self.vocabulary.concepts:
            return (self.term(self.vocabulary.concepts[p]),), "the one who opens the rite"
        classic = self._classic_text()
        senior = max(
            (
                c
                for c in self.vocabulary.of_kind("role")
                if self.profile.in_cast(c.key) and any(lbl in classic for lbl in sorted(c.labels))
            ),
            key=lambda c: (int(c.flag("rank", 0) or 0), c.key),
            default=None,
        )
        return ((self.term(senior),) if senior else ()), "most senior person the classic names"

    def _classic_text(self) -> str:
        cached: str | None = getattr(self, "_classic_cache", None)
        if cached is None:
            cached = "".join(b.classic.reading_text for b in self.document.blocks)
            self._classic_cache = cached
        return cached

    def _passive_toast(
        self,
        action: Concept,
        agent: tuple[Term, ...],
        objects_persons: list[Term],
        pp_persons: list[Term],
        object_tokens: list[Token],
        written: bool = False,
    ) -> tuple[Term, ...] | None:
        """The giver, if a toast clause is passive: its subject received the last toast of this
        kind and no person follows the verb (主人獻衆賔 … 衆賔獻: the guests are toasted); or, in the 記
        (where the reading begins anew), no 獻 has been told there yet and the subject never gave one
        in the rite (記 宗人獻: the 宗人 is presented, by the host)."""
        if objects_persons or pp_persons or any(t.kind == ZHI for t in object_tokens) or not agent:
            return None
        if "action-toast" not in self.vocabulary.broader_closure(action.key) or action.key == "action-zuo":
            return None
        for s in reversed(self.state.by_action.get(action.key, ())):
            if s.recipient and s.agent:
                if s.recipient[0].key == agent[0].key and s.agent[0].key != agent[0].key:
                    return s.agent
                return None
        me = agent[0].key
        host = self.profile.host
        gave = any(s.action.key == action.key and s.agent[:1] and s.agent[0].key == me for s in self.steps)
        if (
            written
            and self.part == "ji"
            and action.key == "action-xian"
            and not self.state.by_action.get(action.key)
            and not gave
            and host in self.vocabulary.concepts
            and me != host
        ):
            # 記 宗人獻與旅齒於衆賓: with no presentation told (the 記 begins anew), one who never presents a
            # cup in the rite, written before a bare 獻, is presented it — by the rite's host
            return (self.term(self.vocabulary.concepts[str(host)]),)
        return None

    def _role_named_for(self, clause: Clause) -> Term | None:
        """A role whose name is the act + 者 does the act: 执幂 → 执幂者, 羞膳 → 羞膳者, 媵爵 → 媵爵者; so
        does one named for the act and the kind of the things named before it (爵弁皮弁…執 → 執冠者)."""
        verb = clause.verb
        rest = "".join(t.text for t in clause.suffix[:1] if t.kind in (OBJECT, OTHER, VESSEL, ROLE))
        # verb + object + 者 names who does it (執冪者, 羞膳者, 媵爵者); a bare verb + 者 may name the
        # one it is done to (冠者: the one capped), so only the rite's own reading counts (燕禮 致者)
        if rest:
            c = self._role_of_form(verb.text + rest + "者")
            if c is not None:
                return self.term(c)
        # things named before the act (爵弁皮弁緇布冠各一匴執: caps, held) name its role by their kind:
        # 執 + 冠 + 者, the cap-holder
        for t in clause.prefix:
            if t.kind != OBJECT or t.concept is None or any(x.kind == ROLE for x in clause.prefix):
                continue
            for key in sorted(self.vocabulary.broader_closure(t.concept.key)):
                kind = self.vocabulary.concepts.get(key)
                for label in sorted(kind.labels) if kind is not None else ():
                    c = self._role_of_form(verb.text + label + "者")
                    if c is not None:
                        return self.term(c)
        key = self.profile.readings.get(verb.text + "者")
        if key in self.vocabulary.concepts and self.vocabulary.concepts[key].kind == "role":
            return self.term(self.vocabulary.concepts[key])
        return None

    def _role_of_form(self, form: str) -> Concept | None:
        """The role of the rite's cast a written form names, by the vocabulary or the rite's own
        readings (燕禮 致者 = 媵爵者)."""
        key = self.profile.readings.get(form)
        cands = [self.vocabulary.concepts[key]] if key in self.vocabulary.concepts else []
        cands += [c for c in self.vocabulary.by_label.get(form, ()) if c.kind == "role"]
        return next((c for c in cands if c.kind == "role" and self.profile.in_cast(c.key)), None)

    def _role_named_for_act(self, act: Concept) -> Term | None:
        """The role named act + 者 (致 → 致者 = 媵爵者), if any."""
        for label in sorted(act.labels):
            c = self._role_of_form(label + "者")
            if c is not None:
                return self.term(c)
        return None

    def _someone_sent(self, action: Concept, persons: list[Term], objects: list[Token], clause: Clause) -> Term | None:
        """The person a pivot verb sends when the text says only 人, "someone" (君使人弔, 君使人禭): the
        role named for the act he is sent to do, act + 者 (弔者, 禭者), when the rite's cast has one.

        士喪 君使人弔 … 弔者入升自西階 (註 使人士也): the one sent to condole is written 弔者 when he comes
        in; 君使人禭 … 禭者左執領. Returns None when a person is named, or the next act names no role.
        """
        if not action.flag("pivot") or persons or len(objects) != 1 or objects[0].text not in g.PERSON_WORD:
            return None
        nxt = self._lookahead.get(clause.start)
        act = self.vocabulary.concepts.get(nxt) if nxt else None
        return self._role_named_for_act(act) if act is not None else None

    def first_time(self, clause: Clause, action: Concept) -> Step | None:
        """The step that did this act to the same thing before, for an act "as at first" (如初, 如初儀)
        that opens a paragraph with no doer written: 士冠 (醮) 加皮弁如初儀 … 加爵弁如初儀: the 賔's
        putting on of the 皮弁 and the 爵弁 for the capped son; its doer does it again, to the same
        person.  None if the clause is not such a repetition or the thing was not handled before."""
        last = self.steps[-1] if self.steps else None
        if "初" not in str(clause.flags.get("comparison") or "") or action.key in g.SETTING_OUT:
            return None  # (setting out has the rite's own doers: 陳鼎如初)
        if last is not None and last.block == clause.block:
            return None  # within a paragraph its subject goes on (士虞 尸…祭酒如初)
        if any(t.kind == ROLE for t in clause.prefix):
            return None
        things = {t.concept.key for t in clause.suffix if t.kind in (OBJECT, VESSEL) and t.concept is not None}
        if not things:
            return None
        for s in reversed(self.state.by_action.get(action.key, ())):
            if s.object_term is not None and s.object_term.key in things and s.agent:
                return s
        # 特牲 佐食舉幹 … 舉骼及獸魚如初: the same act to other portions, as its doer did it at first
        recent = self.steps[-1].sequence - AS_AT_FIRST_SPAN if self.steps else 0
        for s in reversed(self.state.by_action.get(action.key, ())):
            if s.sequence < recent:
                break
            if s.object and s.agent:
                return s
        return None

    def _changed_cup(self, clause: Clause) -> bool:
        """True if a cup was changed (更爵, 易) in this paragraph just before: the giver pours for himself."""
        return any(s.block == clause.block and s.action.key in ("action-geng", "action-yi-change") for s in self.steps[-6:])

    def _rank(self, key: str) -> int:
        c = self.concept(key)
        return int(c.flag("rank", 0) or 0) if c is not None else 0

    def _next_is_ascent(self, clause: Clause) -> bool:
        nxt = self._lookahead.get(clause.start)
        return nxt == "action-sheng"

    def _cup_in_hand(self, who: str) -> bool:
        """Whether ``who`` has a cup in hand: one he holds (``holder``) and did not set down in his last
        act with a cup (有司徹 尸奠爵于薦左, the cup of the 三獻 left standing: when the 主人 then 酬s him
        … 尸答拜 | 坐祭遂飲, it is the 主人 with the cup who kneels and drinks)."""
        if who not in self.state.holder:
            return False
        for s in islice(reversed(self.steps), BLOCK_LOOKBACK):
            if s.vessel is not None and s.agent[:1] and s.agent[0].key == who:
                return s.action.key != "action-dian"
        return True

    def _answered(self, action: Concept) -> Step | None:
        """The act a reply answers: the last bow for 答拜, the last 辞 for 对."""
        want = "action-ci-decline" if action.key == "action-dui" else "action-bai"
        for s in reversed(self.steps[-8:]):
            if want in self.vocabulary.broader_closure(s.action.key) and not self._is_reply(s):
                return s
        return None

    def _is_reply(self, step: Step) -> bool:
        c = self.concept(step.action.key)
        return bool(c is not None and c.flag("responsive"))
