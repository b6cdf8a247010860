"""Who acts when the text does not say: the rules for unwritten agents, :data:`AGENT_RULES`.

The classic leaves subjects out; these rules, in the order :data:`AGENT_RULES` lists them (tried by
:func:`yili.ingest.rules.first_answer`), find the agent from the pivot verb before, the act being
completed (卒), the act being answered (答拜, 对), the office (请, 命), the cup in hand (卒爵), the rite's
default agent (荐 → 膳宰), or the subject carried over.  :class:`AgentRules` holds the lookups they make
on the reading state.
"""

from __future__ import annotations

from itertools import islice

from yili.ingest import grammar as g
from yili.ingest.clauses import Clause
from yili.ingest.cups import BLOCK_LOOKBACK
from yili.ingest.reading import Reader
from yili.ingest.rules import Decision, Rule, decision, first_answer, rule
from yili.ingest.steps import Step, Term
from yili.ingest.tokens import (
    ACTION,
    ADV,
    COND,
    MARK,
    NUM,
    OBJECT,
    OTHER,
    PLACE,
    RANK,
    ROLE,
    TAIL,
    THEN,
    VESSEL,
    YU,
    ZHI,
    Token,
)
from yili.ontology.act_classes import act_class
from yili.ontology.vocabulary import Concept

_OFFICE_ACTS = act_class("acts-of-office")

_CUP_PREPARATION = act_class("acts-preparing-the-cup")

AS_AT_FIRST_SPAN = 40
"""How many steps back an act done "as at first" (如初) to other things may find its first doer: the
portions of one meal (特牲 佐食舉幹 … 舉骼及獸魚如初 … 舉肩及獸魚如初)."""

_DRINKING = act_class("acts-drinking")

_DRINK_BEGIN = act_class("acts-beginning-a-drink")

_TASTING = act_class("acts-tasting-with-the-cup")

_BEFORE_DRINKING = act_class("acts-before-drinking")

_NEW_CUP = act_class("acts-new-cup")
_PLACING = act_class("acts-setting-down")


AS_AT_FIRST = "did the same act on the same thing at first (如初)"
"""The note on an agent found by :meth:`AgentRules.first_time`."""

# -- agents decided in the resolver, not by AGENT_RULES (a written subject and its readings) --
AGENT_WRITTEN = decision("agent.written", "the text names him before the act", "The persons written before the act.")
AGENT_JOINED = decision(
    "agent.joined", "士冠 賔反入 及卿大夫皆説屦: 及 adds persons", "及 + persons: added to the one already acting."
)
AGENT_GOES_WITH = decision(
    "agent.goes-with", "主人揖讓 | 以大夫升 (註 以猶與也)", "以 + a person with a motion: the one acting goes with him."
)
AGENT_SAYS_WORDS = decision(
    "agent.says-words", "士冠 宿曰…: the host, who 宿賔", "The words of an act are said by who does it in the narrative."
)
AGENT_NEXT_AFTER = decision(
    "agent.next-after", "記 公有司…獻次衆賓 (注 獻在後者賤也)", "獻次X: presented next, by whoever presented to X."
)
AGENT_SERVES_TOPIC = decision(
    "agent.serves-topic",
    "燕禮 祝史小臣師亦就其位而薦之",
    "X…而V之: the persons named first are served, by the rite's default agent.",
    tags=("not-topic",),
)
AGENT_PASSIVE = decision(
    "agent.passive-toast", "鄉飲酒 主人獻衆賔 … 衆賔獻", "Persons named before a bare toast verb are toasted (passive)."
)


class AgentRules(Reader):
    """Who acts when the text does not say: the rules for unwritten agents."""

    def _unwritten_agent(self, clause: Clause, action: Concept) -> tuple[Decision, Rule]:
        """The agent of a clause with no written subject: the first of :data:`AGENT_RULES` that answers
        (the last, :func:`opener`, always does).  Returns the answer and the rule that gave it."""
        found = first_answer(AGENT_RULES, self, clause, action)
        assert found is not None  # opener always answers
        return found

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
            if handled and s.action.key == "action-cong" and acts[0] in g.SERVING_DISHES:
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
        for s in reversed(self.state.history.by_action.get(action.key, ())):
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
            and not self.state.history.by_action.get(action.key)
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
        in; 君使人禭 … 禭者左執領; failing such a role, the one named for the sending (使者), if the cast has
        him. Returns None when a person is named, or neither names a role.
        """
        if not action.flag("pivot") or persons or len(objects) != 1 or objects[0].text not in g.PERSON_WORD:
            return None
        nxt = self._lookahead.get(clause.start)
        act = self.vocabulary.concepts.get(nxt) if nxt else None
        named = self._role_named_for_act(act) if act is not None else None
        # else the one sent is named for the sending (使 → 使者: 士喪 庶兄弟襚使人以將命于室, 疏 使有司歸家
        # 取服致命於主人), when the rite's cast has him
        sent = named or self._role_named_for_act(action)
        return sent if sent is not None and (named is not None or self.profile.in_cast(sent.key)) else None

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
        for s in reversed(self.state.history.by_action.get(action.key, ())):
            if s.object_term is not None and s.object_term.key in things and s.agent:
                return s
        # 特牲 佐食舉幹 … 舉骼及獸魚如初: the same act to other portions, as its doer did it at first
        recent = self.steps[-1].sequence - AS_AT_FIRST_SPAN if self.steps else 0
        for s in reversed(self.state.history.by_action.get(action.key, ())):
            if s.sequence < recent:
                break
            if s.object and s.agent:
                return s
        return None

    def _changed_cup(self, clause: Clause) -> bool:
        """True if a cup was changed (更爵, 易) in this paragraph just before: the giver pours for himself."""
        return any(s.block == clause.block and s.action.key in g.CHANGING_THE_CUP for s in self.steps[-6:])

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
        if who not in self.state.holdings.holder:
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


# -- the rules, in the order they are tried (AGENT_RULES) -------------------------------------------
# Each takes (reader, clause, action) and answers a Decision (the agent, the note) or None.


def _last_here(r: AgentRules, clause: Clause) -> Step | None:
    last = r.steps[-1] if r.steps else None
    return last if last is not None and last.block == clause.block else None


@rule(
    "agent.general-subject",
    "士相見 若君賜之爵則下席再拜稽首受爵 (疏 以士為總號也): in the rules, the 士 acts unless another is named",
)
def general_subject(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """In a rite whose general rules are about one person (a ``GeneralSubjectFact``), from its first 凡
    on: an act with no written subject that opens its paragraph, or that follows an act of someone he
    attends (the ruler, the 君子 he was 見於 or 侍坐於), is that person's (若君賜之爵 則下席 …: the 士
    steps down from his mat, not the ruler)."""
    fact = r.profile.general_subject
    st = r.state
    if fact is None or fact.role not in r.vocabulary.concepts:
        return None
    if not (st.conditions.general_open or any(t.text in g.GENERAL_RULE for t in clause.prefix)):
        return None
    carried = st.topic.subject
    if _last_here(r, clause) is None or not carried or carried[0].key in st.conditions.attended:
        return Decision((r.term(r.vocabulary.concepts[fact.role]),), "the person the rite's general rules are about")
    return None


@rule("agent.pivot", "燕禮 公命小臣辭 | 小臣辭: the one commanded does the next act", tags=("pivot",))
def pivot(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The person a pivot verb just named (公命小臣 | 辞: the 小臣 declines); but the bow of sending off (拜送) is
    not his: the one sent goes, the one who sent him bows him off (士喪 主人西階東南面命赴者 | 拜送: the host
    sees the messenger off)."""
    if action.key == "action-baisong":
        return None
    return Decision(r.state.topic.pivot_agent, "named by the pivot verb before it") if r.state.topic.pivot_agent else None


@rule("agent.noted-doers", "士冠 徹皮弁冠櫛筵 註曰徹者賛冠者主人之賛者為之")
def noted_doers(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The roles the note on the paragraph names for the act."""
    noted = r.noted_doers.get(action.key)
    return Decision(tuple(r.term(c) for c in noted), "the note on the paragraph says who does it") if noted else None


@rule("agent.relative-subject", "特牲 羞燔者受: who served the roast (兄弟長以燔從)")
def relative_subject(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """Who did what a relative phrase before the act says (V者)."""
    doer = r._relative_subject(clause)
    return Decision(doer, "the one who did what the relative phrase says (V者)") if doer is not None else None


@rule("agent.usual-giver", "士冠 若不醴則醮用酒 (the 賔 gives the 醮 to the capped son): a rite fact", tags=("not-topic",))
def usual_giver(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The rite's usual giver of an act to its usual receiver, whatever subject stood before a condition."""
    usual = r.profile.default_agent(action.key)
    if (
        usual is not None
        and usual.recipient
        and usual.role in r.vocabulary.concepts
        and not any(t.kind == ROLE for t in clause.suffix)
    ):
        return Decision((r.term(r.vocabulary.concepts[str(usual.role)]),), f"default agent of the rite ({usual.source})")
    return None


def _past_condition(r: AgentRules, clause: Clause) -> bool:
    return (
        any(t.kind == THEN for t in clause.prefix)
        and not any(t.kind == COND for t in clause.tokens)
        and bool(r.state.conditions.before_condition)
    )


@rule("agent.condition-by-fact", "若殺則特豚載合升 (士冠): the officers who slaughter go on")
def condition_by_fact(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """Past 則, the officers go on when the condition's act was theirs by a rite fact and no one was named."""
    last = _last_here(r, clause)
    if (
        _past_condition(r, clause)
        and last is not None
        and not last.agent_explicit
        and last.decided("agent") == "agent.opening-fact"
    ):
        return Decision(last.agent, "goes on from the condition, which no one else is named in")
    return None


@rule("agent.before-condition", "燕禮 公有命則不易不洗: the condition's subject is not carried past 則")
def before_condition(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """Past 則, the subject from before the condition."""
    return (
        Decision(r.state.conditions.before_condition, "carried over from before the condition")
        if _past_condition(r, clause)
        else None
    )


@rule("agent.named-for-act", "燕禮 執冪者, 羞膳者, 媵爵者; 士冠 爵弁皮弁緇布冠各一匴執 (執冠者)")
def named_for_act(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The role named for the act (act + 者), or for the act and the kind of things named before it."""
    named = r._role_named_for(clause)
    return Decision((named,), "the role named for this act") if named is not None else None


@rule("agent.as-at-first", "士冠 加皮弁如初儀: the 賔 again, as at the first capping")
def as_at_first(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """An act done "as at first" (如初) opening a paragraph: its first doer does it again."""
    again = r.first_time(clause, action)
    return Decision(again.agent, AS_AT_FIRST) if again is not None else None


@rule("agent.brings-dish-again", "特牲 賓長以肝從 … 肝從; 兄弟長以燔從 … 燔從如初", tags=("not-topic",))
def brings_dish_again(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The dish follows the cup, brought by whoever brought it before (以X從 / X從)."""
    if action.key != "action-cong":
        return None
    dish = next((t for t in reversed(clause.prefix) if t.kind == OBJECT and t.concept is not None), None)
    if dish is not None:
        for s in reversed(r.state.history.by_action.get("action-cong", ())):
            if s.object_term is not None and s.object_term.key == dish.concept.key and s.agent:
                return Decision(s.agent, "brings the dish he brought before")
    return None


@rule("agent.serves-the-seated", "士冠 冠者即筵坐 | 櫛設笄: the 贊者 who combed him before")
def serves_the_seated(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """An act done to the person who has just taken the mat is by who did it to him before."""
    st = r.state
    if action.key in g.DONE_TO_THE_PERSON and st.topic.subject and _last_here(r, clause) is not None:
        last = r.steps[-1]
        before = st.history.last_agent_of.get(action.key)
        took_the_mat = any(
            s.block == clause.block and s.action.key == "action-jiuxi" and s.agent[:1] == st.topic.subject[:1]
            for s in r.steps[-4:]
        )
        if last.action.key in g.TAKING_A_SEAT and took_the_mat and before and before[0].key != st.topic.subject[0].key:
            return Decision(before, "does to the one seated what he did before")
    return None


@rule("agent.completes-drinking", "鄉飲酒 主人坐祭遂飲 賔辭 卒爵: the host drains the cup")
def completes_drinking(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """卒爵 (or 嚌) completes the drinking begun in the paragraph, by whoever began it."""
    st = r.state
    if action.key not in _DRINKING | _TASTING or not st.topic.subject:
        return None
    for s in reversed(r.steps):
        if s.block != clause.block:
            break
        if s.action.key in _NEW_CUP:
            break  # 主人更爵酌醋 | 卒爵: a cup poured since, drunk by who poured it
        if s.action.key in _DRINK_BEGIN and s.agent:
            if s.agent[0].key != st.topic.subject[0].key:
                return Decision(s.agent, "completes the drinking he began")
            break
    return None


@rule("agent.holds-cup", "鄉飲酒 卒爵: drunk by the one who holds the cup")
def holds_cup(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """A drinking act is done by whoever holds the cup, when the topic does not."""
    st = r.state
    if action.key in _DRINKING | _TASTING and st.topic.subject:
        if (
            st.topic.subject[0].key not in st.holdings.holder
            and st.holdings.last_holder
            and st.holdings.last_holder[0].key != st.topic.subject[0].key
        ):
            return Decision(st.holdings.last_holder, "holds the cup")
    return None


@rule("agent.drinks-after-reply", "特牲 主婦…左執爵拜 主人答拜 | 坐祭立飲")
def drinks_after_reply(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """After the other's answering bow, the one with the cup kneels, offers and drinks."""
    st = r.state
    nxt = r._lookahead.get(clause.start)
    if (
        (
            action.key in _BEFORE_DRINKING
            and nxt in _BEFORE_DRINKING | _DRINKING
            or action.key == "action-jiang"
            and nxt == "action-xi"
        )
        and st.topic.subject
        and not r._cup_in_hand(st.topic.subject[0].key)
        and st.holdings.last_holder
        and st.holdings.last_holder[0].key != st.topic.subject[0].key
        and r.steps
        # the reply may close the paragraph before (a note of the 述註 between them: 鄉飲酒 …賔西階上答拜 | 坐祭)
        and r.steps[-1].block >= clause.block - 1
        and r._is_reply(r.steps[-1])
        and not any(t.text in g.ALL for t in clause.prefix)  # 皆坐: all of those carried over
    ):
        return Decision(st.holdings.last_holder, "holds the cup")
    return None


@rule("agent.cup-left-standing", "特牲 賓三獻…爵止, 註 三獻禮成欲神惠之均於室中 是以奠而待之")
def cup_left_standing(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """爵止: the cup is left standing, undrunk, by the one it was presented to."""
    last_word = clause.prefix[-1] if clause.prefix else None
    cup_stops = last_word is not None and last_word.kind == VESSEL and r.vocabulary.is_cup(last_word.concept.key)
    st = r.state
    if action.key == "action-zhi-stop" and cup_stops and st.exchange.last_toast is not None and st.exchange.last_toast[1]:
        return Decision(st.exchange.last_toast[1][:1], "leaves standing the cup presented to him")
    return None


@rule("agent.thanks-for-washing", "鄉飲酒 賔西階上北面拜洗: the other party thanks the washer")
def thanks_for_washing(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """拜洗 is the other party's, who thanks the one who washed the cup."""
    if action.key == "action-baixi":
        washer = r.state.history.last_agent_of.get("action-xi")
        thanked = r.other_party(washer) if washer else None
        if thanked is not None:
            return Decision((thanked,), "thanks the other party for washing the cup")
    return None


@rule("agent.goes-up-first", "鄉飲酒 主人揖 先升, 注曰賔每先升尊也")
def goes_up_first(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """Of the two parties, the one who goes up first salutes before the ascent (揖升)."""
    st = r.state
    if action.key == "action-yi" and st.topic.subject and r._next_is_ascent(clause):
        party = [st.topic.subject[0], r.other_party(st.topic.subject)]
        first = [p for p in party if p is not None and (c := r.concept(p.key)) is not None and c.flag("ascendsFirst")]
        if first:
            return Decision((first[0],), "salutes and goes up first (注曰賔每先升尊也)")
    return None


@rule("agent.returns-own-xian", "特牲 尸卒爵 | 酢; 上餕洗爵升酌酢主人")
def returns_own_xian(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """酢 by the one who has just drunk the 獻 he received, or is named in the paragraph."""
    st = r.state
    carried_return = r.returned_xian(st.topic.subject) if st.topic.subject and action.key == "action-zuo" else None
    if carried_return is None or carried_return[0] != "return" or r._changed_cup(clause):
        return None
    latest_to_him = st.exchange.last_xian is None or any(x.key == st.topic.subject[0].key for x in st.exchange.last_xian[1])
    drank = any(
        s.block == clause.block
        and s.agent[:1] == st.topic.subject[:1]
        and (s.action.key in _DRINKING or s.agent_explicit)  # he drank, or he is named in this paragraph
        for s in r.steps[-8:]
    )
    return Decision(st.topic.subject, "returns the 獻 he received") if latest_to_him or drank else None


@rule("agent.returns-last-xian", "特牲 主婦亞獻尸 … 尸酢; 疏 主人酢主婦 (poured by the 主婦)")
def returns_last_xian(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """酢 is the return of the one toasted last, unless the giver changed the cup or took it back to pour."""
    st = r.state
    if action.key != "action-zuo" or st.exchange.last_xian is None or not st.exchange.last_xian[1]:
        return None
    changed = any(s.block == clause.block and s.action.key in g.CHANGING_THE_CUP for s in r.steps[-6:])
    last = r.steps[-1] if r.steps else None
    giver_goes_on = (
        bool(st.topic.subject)
        and st.exchange.last_xian[0][:1] == st.topic.subject[:1]
        and last is not None
        and last.block == clause.block
        and last.agent[:1] == st.topic.subject[:1]
        # he has taken the cup back, or poured, or filled it (鄉射 主人實爵以酢於西階上)
        and last.action.key in g.GETTING_A_FULL_CUP
        and any(s.block == clause.block and s.agent_explicit and s.agent[:1] == st.topic.subject[:1] for s in r.steps[-6:])
    )
    if not ((changed or giver_goes_on) and st.topic.subject):
        return Decision(st.exchange.last_xian[1], "returns the 獻 he received")
    return None


def _toast_not_return(r: AgentRules, action: Concept) -> bool:
    return "action-toast" in r.vocabulary.broader_closure(action.key) and action.key != "action-zuo"


@rule("agent.host-toasts-guest", "鄉飲酒 主人獻賔; 士冠 乃醴賔, 註 主人禮賔")
def host_toasts_guest(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The rite's host presents the cup to its chief guest, unless a subject named in the paragraph goes on."""
    guest = r.profile.chief_guest
    if (
        _toast_not_return(r, action)
        and guest
        and r.profile.host in r.vocabulary.concepts
        and any(t.kind == ROLE and t.concept is not None and t.concept.key == guest for t in clause.suffix)
        and not any(s.block == clause.block and s.agent_explicit for s in r.steps[-8:])
    ):
        return Decision((r.term(r.vocabulary.concepts[str(r.profile.host)]),), "the host toasts the chief guest")
    return None


@rule("agent.passes-pledge", "鄉飲酒 賔…以旅于西階上: the pledge passed on by the one who received it")
def passes_pledge(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """旅酬 is passed on by the one who has just received the pledge (either of them, if alternatives)."""
    st = r.state
    if (
        _toast_not_return(r, action)
        and action.key == "action-lvchou"
        and st.exchange.last_toast is not None
        and st.exchange.last_toast[1]
    ):
        if st.exchange.last_toast_alternative:
            return Decision(st.exchange.last_toast[1], "passes on the pledge he received (either)", alternative=True)
        return Decision(st.exchange.last_toast[1], "passes on the pledge he received")
    return None


@rule("agent.round-presenter", "士虞 主婦…酌獻祝…獻佐食: the presiding person presents no 獻")
def round_presenter(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """In a round, a presentation with no written giver is the presenter's, who presented to the presiding."""
    st = r.state
    if not _toast_not_return(r, action) or action.key != "action-xian":
        return None
    presenter = next(
        (giver for giver, receiver in reversed(st.exchange.xians) if receiver[:1] and receiver[0].key == r.profile.presiding),
        None,
    )
    if st.topic.subject and st.topic.subject[0].key == r.profile.presiding and presenter:
        return Decision(presenter, "the presenter of the round (the presiding person presents no 獻)")
    return None


def _same_giver(r: AgentRules, action: Concept):  # type: ignore[no-untyped-def]
    same_giver = r.profile.same_giver
    if same_giver is not None and same_giver.action not in r.vocabulary.broader_closure(action.key):
        return None  # the fact is of the presentations (獻), not of every toast
    return same_giver


@rule("agent.same-giver", "燕禮 注曰主人宰夫也 (辩献卿 repeats 主人's 献); elsewhere within one exchange")
def same_giver(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The same kind of toast by the same giver: throughout a rite with one 獻主, else within one exchange."""
    if not _toast_not_return(r, action):
        return None
    fact = _same_giver(r, action)
    written = {t.concept.key for t in clause.suffix if t.kind == ROLE and t.concept is not None}
    for s in reversed(r.state.history.by_action.get(action.key, ())):
        named_since = any(
            x.agent_explicit and x.agent[:1] != s.agent[:1]
            for x in r.steps[-40:]
            if x.sequence > s.sequence and x.block == clause.block
        )
        if s.agent and s.agent[0].key not in written and (fact is not None or (s.block == clause.block and not named_since)):
            why = fact.source if fact is not None else "within the same exchange"
            return Decision(s.agent, f"gives this kind of toast, as before ({why})")
    return None


@rule("agent.xian-host", "燕禮 注曰主人宰夫也: the rite's 獻主, when no presentation is told yet (記)")
def xian_host(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """No presentation told yet (the 記 begins anew): the rite's 獻主 is its host."""
    if not _toast_not_return(r, action):
        return None
    fact = _same_giver(r, action)
    host = r.profile.host
    written = {t.concept.key for t in clause.suffix if t.kind == ROLE and t.concept is not None}
    if fact is not None and host in r.vocabulary.concepts and host not in written:
        return Decision((r.term(r.vocabulary.concepts[str(host)]),), f"the giver of the presentations ({fact.source})")
    return None


@rule("agent.completes-act", "士冠 賔降取爵于篚辭降如初卒洗: 卒 completes the act begun by its agent")
def completes_act(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """卒X completes the act X begun in this paragraph or the one before, by its agent."""
    st = r.state
    begun = st.history.by_action.get(action.key, ())
    if (
        clause.flags.get("completive")
        and action.key in st.history.last_agent_of
        and begun
        and begun[-1].block >= clause.block - 1
    ):
        return Decision(st.history.last_agent_of[action.key], "completes the act begun by its agent (卒)")
    return None


@rule("agent.reply", "鄉飲酒 主人拜 賔答拜: a reply (答拜, 對) is the other party's")
def reply(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """A reply is the other party's when the carried subject made the act answered."""
    st = r.state
    if not action.flag("responsive"):
        return None
    answered = r._answered(action)
    if answered is not None and st.topic.subject and answered.agent and answered.agent[0].key == st.topic.subject[0].key:
        replier: tuple[Term, ...] = answered.recipient[:1]
        if not replier:
            someone = r.other_party(st.topic.subject)
            replier = (someone,) if someone is not None else ()
        if replier:
            return Decision(replier, "reply by the other party")
    return None


@rule(
    "agent.declines-the-offer",
    "士相見 士見於大夫 | 終辭其摯 (the 大夫 declines the gift: 註 辭其摯為其大崇也); 聘禮 賔… | 辭",
    tags=("inferred",),
)
def declines_the_offer(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """辭 "to decline" with no one written, right after the carried subject did an act to one other person in the
    same paragraph that offers something (a visit, a request, a gift; not a bow, a receiving or a reply): the one it
    was done to declines it (what is offered is declined by whom it is offered to; 聘禮 擯者…請受 | 賔固辭)."""
    last = _last_here(r, clause)
    st = r.state
    if action.key != "action-ci-decline" or last is None or not st.topic.subject or len(last.recipient) != 1:
        return None
    if not last.agent or last.agent[0].key != st.topic.subject[0].key or last.recipient[0].key == last.agent[0].key:
        return None
    body = r.profile.body
    if body is not None and last.recipient[0].key == body.role:
        return None
    said = r.vocabulary.concepts.get(last.action.key)
    bowed = "action-bai" in r.vocabulary.broader_closure(last.action.key)
    if bowed or last.action.key in g.RECEIVING or (said is not None and said.flag("responsive")):
        return None  # 使者再拜稽首辭, 介受賔禮 無辭: a bow, a receiving or a reply offers nothing; he declines himself
    return Decision(last.recipient, "the one it was offered to declines")


@rule("agent.mutual", "鄉飲酒 三讓, 三揖; 疏 主人在南賔在北俱東向是一曲故揖", tags=("mutual",))
def mutual(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """Mutual 讓 and numbered 揖 are both parties', to each other: the subject in force and the other party of his
    exchange; but when the subject in force is a group that came in behind the two (皆: 聘禮 介皆入門左北面西上 |
    三揖 | 至於階三讓, 疏 公皆向賔揖之), the salutes are the rite's host's and chief guest's (``yk:host``,
    ``yk:chiefGuest`` in ontology/rites.ttl)."""
    st = r.state
    is_mutual = action.key in g.MUTUAL_ACTS or (
        action.key == "action-yi" and any(t.text in g.COUNTED_SALUTES for t in clause.prefix) and not clause.suffix
    )
    host, guest = r.profile.host, r.profile.chief_guest
    subject = st.topic.subject[0].key if st.topic.subject else None
    named = next((s for s in reversed(r.steps[-4:]) if s.agent and s.agent[0].key == subject and s.agent_explicit), None)
    if (
        is_mutual
        and named is not None
        and any(t in named.text for t in g.ALL)
        and host in r.vocabulary.concepts
        and guest in r.vocabulary.concepts
        and st.topic.subject[0].key not in (host, guest)
    ):
        pair = (r.term(r.vocabulary.concepts[str(host)]), r.term(r.vocabulary.concepts[str(guest)]))
        return Decision(pair, "a group behind them is no party: the host's and the chief guest's mutual act")
    if is_mutual and st.topic.subject:
        other = r.other_party(st.topic.subject)
        if other is not None and other.key != st.topic.subject[0].key:
            return Decision((st.topic.subject[0], other), "a mutual act of the two parties")
    return None


@rule(
    "agent.both-go-up",
    "鄉射 主人揖 讓 升 (主人與賔俱升); 聘禮 揖讓如初 升 (公與賔); 士冠 壹揖壹讓升 主人升 (the first 升 the 賔's)",
    tags=("mutual",),
)
def both_go_up(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """A bare 升 right after the two parties' mutual yielding (讓, :data:`~yili.ingest.grammar.MUTUAL_ACTS`) in
    the same paragraph: both go up, unless one of them goes up in the next two clauses (主人升, or 賔厭衆賔 | 升),
    when this 升 is the other's."""
    last = _last_here(r, clause)
    if action.key != "action-sheng" or last is None or last.action.key not in g.MUTUAL_ACTS or len(last.agent) != 2:
        return None
    keys = [a.key for a in last.agent]
    if clause.start not in r._later_ascent:
        return Decision(last.agent, "both parties go up after yielding to each other")
    later = r._later_ascent[clause.start]
    if later in keys:
        return Decision(tuple(a for a in last.agent if a.key != later), "the other party goes up first")
    return None


def _continues(clause: Clause) -> bool:
    return any(t.text in ("乃", "遂") for t in clause.prefix)


@rule("agent.saluted-moves", "士冠 賔揖冠者 冠者即筵; not 公食 公揖入 賔從 (註 揖入道之)")
def saluted_moves(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The junior saluted goes where he is bidden."""
    last = _last_here(r, clause)
    if (
        last is not None
        and last.action.key == "action-yi"
        and len(last.recipient) == 1
        and last.agent
        and not _continues(clause)
        and action.key in g.MOVES_AFTER_SALUTE
        and r._rank(last.recipient[0].key) < r._rank(last.agent[0].key)
        and not last.text.endswith(tuple(sorted(r.vocabulary.concepts["action-yi"].labels)))
    ):
        return Decision(last.recipient, "the one saluted moves")
    return None


@rule("agent.office", "燕禮 小臣請…, 公命…: a request or command of office opening a paragraph")
def office(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """A 請 / 命 opening a paragraph (or a condition) is by whoever made the last such one, within a few blocks;
    not by the rite's chief guest, who asks for himself and holds no office in the host's house (聘禮 賔…以請覿 |
    擯者入告出辭 | 請禮賔: the usher, who has just declined for the host, asks to give the guest his 禮,
    疏 未禮賔故止客請覿而先行賔禮也)."""
    opens_block = not r.steps or r.steps[-1].block != clause.block
    guest = r.profile.chief_guest
    if action.key in _OFFICE_ACTS and not _continues(clause) and (opens_block or any(t.kind == COND for t in clause.prefix)):
        for s in reversed(r.state.history.by_action.get(action.key, ())):
            if s.block < clause.block - 4:
                break
            if s.decided("action") == "action.causative":
                continue  # 射人升卿 is read as 命 but is no command of office
            if s.agent and s.agent[0].key == guest:
                continue
            if s.agent:
                return Decision(s.agent, "makes this request or command, as before")
    return None


@rule("agent.does-not-pour", "燕禮 注 君尊不酌: the other party washes, fills and pours for the ruler")
def does_not_pour(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """A rite fact: the exalted person does not prepare the cup; the other party does."""
    st = r.state
    exalted = next((f for a in st.topic.subject if (f := r.profile.does_not_pour(a.key)) is not None), None)
    if action.key in _CUP_PREPARATION and st.topic.subject and exalted is not None:
        preparer = r.other_party(st.topic.subject)
        if preparer is not None:
            return Decision((preparer,), f"does not prepare the cup ({exalted.source})")
    return None


@rule("agent.reports-back", "聘禮 反命: by whoever carried the command")
def reports_back(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """反命 is by whoever carried the command."""
    if action.key == "action-fanming":
        for s in reversed(r.state.history.by_action.get("action-ming", ())):
            if s.agent and s.agent[0].key != "role-gong":
                return Decision(s.agent, "reports back the command he carried")
    return None


def _default_fact(r: AgentRules, clause: Clause, action: Concept):  # type: ignore[no-untyped-def]
    default = r.profile.default_agent(action.key)
    if default is not None and default.recipient and any(t.kind == ROLE for t in clause.suffix):
        return None  # the fact is of the act to its usual receiver (醮 of the capped son), not of 醴賔
    opens_block = not r.steps or r.steps[-1].block != clause.block
    new_day = bool(r.steps) and r.steps[-1].block == clause.block and r.steps[-1].text.startswith(tuple(g.NEW_DAY))
    if default is not None and default.opening and not (opens_block or new_day):
        return None  # inside a paragraph, the actor goes on
    return default if default is not None and default.role in r.vocabulary.concepts else None


@rule("agent.opening-fact", "士冠 …夙興 設洗: the officers set out, opening the paragraph or the day (a rite fact)")
def opening_fact(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """A setting-out that opens its paragraph or its day: the rite's opening agent, who carries it on."""
    d = _default_fact(r, clause, action)
    if d is not None and d.opening:
        return Decision((r.term(r.vocabulary.concepts[str(d.role)]),), f"opening agent of the rite ({d.source})")
    return None


@rule("agent.default-fact", "燕禮記 凡荐与羞者小膳宰也 (a rite fact)", tags=("not-topic",))
def default_fact(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The rite's default agent of the act; he does not become the topic."""
    d = _default_fact(r, clause, action)
    if d is not None and not d.opening:
        return Decision((r.term(r.vocabulary.concepts[str(d.role)]),), f"default agent of the rite ({d.source})")
    return None


_OFFICERS_SET_OUT = act_class("acts-set-out-by-officers")


@rule(
    "agent.officers-set-out",
    "士冠 有司如主人服 註 有司主人之吏所自辟除府史以下; 鄉射 乃席賔南面東上: the officers lay the mats",
)
def officers_set_out(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The work of the rite's officers (有司), when its cast has them, at the opening of a paragraph with no
    one named:

    - things listed with 皆 or counted, named before the act (士喪 新盆槃瓶廢敦重鬲皆濯, 貝三實于笲);
    - a setting out (設, 陳, 布, 饌, 錯, 席) that says where (于 + a place) or in what order (東上);
    - 陳 or 布 with a thing of the vocabulary right after it, in a rite with no body present (聘禮 乃陳幣;
      in 士喪 設韐帶 dresses the body).

    They carry on through the paragraph (鄉射 乃席賔南面東上 … 席主人於阼階上西面 … 尊於賔席之東 …
    設洗于阼階東南).  A rite fact of the act (燕禮 司宮 lays the mats) answers before this rule."""
    if not r.profile.in_cast("role-yousi") or "role-yousi" not in r.vocabulary.concepts:
        return None
    if r.steps and r.steps[-1].block == clause.block:
        return None  # inside a paragraph, the actor goes on
    fronted = [t for t in clause.prefix if t.kind not in (ADV, MARK)]
    things = any(t.kind in (OBJECT, VESSEL) for t in fronted)
    # a list of things with 皆 "all", or a thing counted (貝三): no one is named, the things are
    listed = any(t.text in g.ALL for t in clause.prefix) or any(t.kind == NUM for t in fronted)
    if (
        listed
        and things
        and all(t.kind in (OBJECT, VESSEL, OTHER, NUM) and t.text not in g.WITH_WHAT for t in fronted)
        and action.key not in g.MOTION_VERBS
    ):
        # 新盆槃瓶廢敦重鬲皆濯, 貝三實于笲 (士喪): the things are named first, nobody: the officers prepare them
        return Decision((r.term(r.vocabulary.concepts["role-yousi"]),), "the officers prepare the things named")
    if action.key not in _OFFICERS_SET_OUT:
        return None
    toks = clause.tokens
    placed = any(t.kind == RANK for t in toks) or any(
        a.kind == YU and b.kind == PLACE for a, b in zip(toks, toks[1:], strict=False)
    )
    # 乃陳幣, 布幕: a thing of the vocabulary right after the act
    laid_out = action.key != "action-she" and bool(clause.suffix) and clause.suffix[0].kind in (OBJECT, VESSEL)
    if not (placed or (laid_out and r.profile.body is None)):
        return None  # a setting out says where (于阼階東南) or in what order (東上); 設韐帶 dresses the body
    return Decision((r.term(r.vocabulary.concepts["role-yousi"]),), "the officers set out")


_MEAT_STANDS = act_class("things-meat-stand")


@rule("agent.stand-after-dishes", "鄉射 薦脯醢 … 乃設折俎 (註曰 爼者主人賛者設之): who served the dishes sets the stand")
def stand_after_dishes(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The meat stand set right after the dishes (薦脯醢 … 乃設折俎), no one named: whoever served the
    dishes sets it; a server named for the dishes by a rite fact is not carried over by himself."""
    if action.key != "action-she" or not any(t.concept is not None and t.concept.key in _MEAT_STANDS for t in clause.suffix):
        return None
    for s in reversed(r.steps[-4:]):  # (the dishes, then the guest's bows: 薦脯醢 賔升席自西方 乃設折俎)
        if s.block < clause.block - 2:
            break
        if s.action.key == "action-jian":
            return Decision(s.agent, "who served the dishes sets the stand after them") if s.agent else None
    return None


@rule("agent.server-moves", "燕禮 膳宰設折俎 升自西階: the server himself goes up")
def server_moves(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The server moves on."""
    st = r.state
    return Decision(st.topic.served_by, "the server moves on") if st.topic.served_by and action.key in g.MOTION_VERBS else None


@rule("agent.server-sets-down", "有司徹 婦贊者薦韭菹醢 | 坐 | 奠于筵前")
def server_sets_down(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The server kneels and sets down what he brought."""
    st = r.state
    brought_dish = (
        bool(st.topic.served_by)
        and bool(r.steps)
        and r.steps[-1].agent[:1] == st.topic.served_by[:1]
        and r.steps[-1].action.key in g.SERVING_DISHES
        and bool(r.steps[-1].object)
    )
    kneels_to_place = action.key in g.POSTURES and r._lookahead.get(clause.start) in _PLACING
    if brought_dish and (action.key in _PLACING or kneels_to_place):
        return Decision(st.topic.served_by, "the server sets down what he brought")
    return None


@rule("agent.nobody-toasts-himself", "鄉射 西階上獻賓 (after the 賓 washed): the other party gives it")
def nobody_toasts_himself(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """Nobody presents a cup to himself: the host, or the other party, gives it."""
    st = r.state
    if not st.topic.subject or "action-toast" not in r.vocabulary.broader_closure(action.key):
        return None
    receivers = {t.concept.key for t in clause.suffix if t.kind == ROLE and t.concept is not None}
    if st.topic.subject[0].key in receivers:
        host = r.profile.host
        giver = r.other_party(st.topic.subject)
        if host in r.vocabulary.concepts and host not in receivers:
            return Decision((r.term(r.vocabulary.concepts[str(host)]),), "nobody toasts himself: the host gives it")
        if giver is not None and giver.key not in receivers:
            return Decision((giver,), "nobody toasts himself: the other party gives it")
    return None


@rule("agent.declined-by-the-presiding", "聘禮 公降一等辭 | 栗階升聽命: the one the ruler declines to goes on")
def declined_by_the_presiding(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """Right after the rite's presiding person declines someone's act (公辭: he will not have the guest
    come down to bow), that person, not the ruler, does the next act no one is named for (聘禮 公降一等辭
    栗階升聽命 降拜 公辭 升再拜稽首: the envoy hurries up, hears the command, comes down to bow)."""
    last = r.steps[-1] if r.steps else None  # (in this paragraph or at the end of the one before)
    presiding = r.profile.presiding
    if (
        last is None
        or last.block < clause.block - 1
        or presiding is None
        or last.action.key != "action-ci-decline"
        or [a.key for a in last.agent] != [presiding]
        or len(last.recipient) != 1
        or last.recipient[0].key == presiding
    ):
        return None
    # only his going up or down, his bow or his hearing the command: what the ruler declined (降拜) is
    # done anyway, in the way the ruler allows; the ruler's own acts (卒盥, 揖讓) go on as before
    own = action.key in g.MOTION_VERBS or action.key == "action-ting" or "action-bai" in r.vocabulary.broader_closure(action.key)
    return Decision(last.recipient, "the one the presiding person declined to goes on") if own else None


@rule(
    "agent.errand-done",
    "士喪 復者 … 降自後西榮 | 奠脯醢醴酒 (註 復者有司; the officers set the offering); 弔者 … 出 | 徹帷",
    tags=("inferred",),
)
def errand_done(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """At the opening of a paragraph with no one written, when the one carried over is named for an errand (act +
    者: 復者, 弔者, 襚者) and left the scene last (``acts-of-leaving``: 出, 退, 降, 反命): his part is over, and
    the work of the rite (``acts-of-service``: setting out, clearing, laying down, receiving) is the officers'
    (有司) when the cast has them; so too anywhere right after he is sent on his errand (君使人弔 | 徹帷: he is
    on his way, :func:`_on_his_way`).  Another act is left to the later rules."""
    st = r.state
    if len(st.topic.subject) != 1 or action.key not in _SERVICE:
        return None
    who = st.topic.subject[0].key
    errand = _errand_of(r, who)
    if errand is None or not r.profile.in_cast("role-yousi") or "role-yousi" not in r.vocabulary.concepts:
        return None
    officers = (r.term(r.vocabulary.concepts["role-yousi"]),)
    if _on_his_way(r, who, errand):
        return Decision(officers, "the one just sent is on his way: the officers serve")
    if r.steps and r.steps[-1].block == clause.block:
        return None
    last = next((s for s in reversed(r.steps) if any(a.key == who for a in s.agent)), None)
    if last is None or last.action.key not in _LEAVING:
        return None
    return Decision(officers, "the one sent has gone: the officers serve")


def _on_his_way(r: AgentRules, who: str, errand: Concept) -> bool:
    """True if the last two steps are a sending of ``who`` (君使人弔: 命, the person sent its recipient) and his
    errand named in it (弔): the heading of his mission, done when he arrives, so he is not there yet
    (士喪 君使人弔 | 徹帷 | 主人迎于寢門外: the curtain is cleared by the house before the envoy comes)."""
    if len(r.steps) < 2:
        return False
    sent, heading = r.steps[-2], r.steps[-1]
    return (
        sent.action.key == "action-ming"
        and any(p.key == who for p in sent.recipient)
        and heading.action.key == errand.key
        and [a.key for a in heading.agent] == [who]
    )


@rule(
    "agent.giver-lays-down",
    "士喪 朋友禭親以進 主人拜 委衣如初 (記 禭者委衣于牀不坐): the one who brought the clothes lays them down",
    tags=("inferred",),
)
def giver_lays_down(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """委 (to lay down what one brought) with no one written, after the host's bow to a visitor's errand: the
    visitor who brought it, the last one to do an errand (``yk:errand``: 襚, 致命) or to carry it in (將命) in
    this paragraph or the one before (士喪 庶兄弟禭使人以將命于室 主人拜于位 | 委衣于尸東牀上: the one sent;
    記 禭者委衣于牀不坐), not the host who bowed."""
    if action.key != "action-wei-lay":
        return None
    for s in reversed(r.steps[-8:]):
        if s.block < clause.block - 1:
            break
        act = r.vocabulary.concepts.get(s.action.key)
        if len(s.agent) == 1 and act is not None and (act.flag("errand") or act.key == "action-jiangming"):
            if r.state.topic.subject[:1] == s.agent[:1]:
                return None  # (he goes on anyway: the carried-over rule says so)
            return Decision(s.agent[:1], "the one who brought it lays it down")
    return None


_SERVICE = act_class("acts-of-service")
_LEAVING = act_class("acts-of-leaving")


def _errand_of(r: AgentRules, role_key: str) -> Concept | None:
    """The act a role is named for (復者 → 復, 弔者 → 弔), if one of its names is an act of the vocabulary + 者."""
    role = r.vocabulary.concepts.get(role_key)
    if role is None:
        return None
    for label in sorted(role.labels):
        if len(label) >= 2 and label.endswith("者"):
            act = next((c for c in r.vocabulary.by_label.get(label[:-1], ()) if c.kind == ACTION), None)
            if act is not None:
                return act
    return None


def gone_out(steps: list[Step], who: str, lookback: int, last_act: bool = False) -> bool:
    """True if ``who`` (a role key) went out or withdrew (出, 退, not negated) and has not come back in (入) since,
    looking back through ``steps`` to his last going out or coming in, at most ``lookback`` paragraphs before the
    last step's (士喪 禭者入衣尸出 | 主人拜送如初; 主人皆出户外北面 … 乃笄: he is outside while the body is washed
    and dressed, 註 象平生沐浴裸裎子孫不在旁).  With ``last_act``, going out must be his last act: one who has
    acted since is there (士虞 尸 … 即席 坐 … 拜受)."""
    block = steps[-1].block if steps else 0
    for s in reversed(steps):
        if s.block < block - lookback:
            break
        if any(a.key == who for a in s.agent) and s.mode != "negated":
            if s.action.key in _GONE_OUT:
                return True
            if s.action.key == "action-ru" or last_act:
                return False
    return False


_OUT_LOOKBACK = 6
"""How many paragraphs back one who went out is still out (the washing and dressing of 士喪 58–64)."""
_GONE_OUT = frozenset({"action-chu", "action-tui"}) & act_class("acts-of-leaving")


@rule(
    "agent.present-doer",
    "士喪 主人皆出户外北面 (註 子孫不在旁) … 鬠用組 | 乃笄設明衣裳 | 主人入即位: the attendants who wash the body go on",
    tags=("inferred",),
)
def present_doer(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """With no one written, when the one carried over has gone out (:func:`gone_out`) and the step before was done
    in this paragraph by someone else who is still there (an attendant named by a rite fact, who does not take the topic): he goes
    on, not the one outside (士喪 外御 … 鬠用組 | 乃笄 | 設明衣裳, while the 主人 is out of the room)."""
    st = r.state
    if len(st.topic.subject) != 1 or not r.steps:
        return None
    last = r.steps[-1]
    who = st.topic.subject[0].key
    if len(last.agent) != 1 or last.agent[0].key == who or last.block != clause.block:
        return None
    if last.action.key == "action-baisong":
        return None  # (士冠 主人退 賔拜送 | 前期三日筮賔: the one seen off goes on with his rite elsewhere)
    if not gone_out(r.steps, who, _OUT_LOOKBACK, last_act=True) or gone_out(r.steps, last.agent[0].key, _OUT_LOOKBACK):
        return None
    return Decision(last.agent, "the one outside does not act: who acted last, still there, goes on")


@rule("agent.carried-over", "the classic leaves out a subject that goes on (主人…降洗 升 實爵)")
def carried_over(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """The subject carried over from the clause before."""
    return Decision(r.state.topic.subject, "carried over") if r.state.topic.subject else None


@rule("agent.opener", "the rite's opener (燕禮 the ruler; 士冠, 特牲 the 主人), else the most senior person named")
def opener(r: AgentRules, clause: Clause, action: Concept) -> Decision | None:
    """At the opening of a rite with nobody named yet: the rite's opener, else the most senior person."""
    agent, why = r._opening_agent()
    return Decision(agent, why)


AGENT_RULES: tuple[Rule, ...] = (
    general_subject,
    pivot,
    noted_doers,
    relative_subject,
    usual_giver,
    condition_by_fact,
    before_condition,
    named_for_act,
    as_at_first,
    brings_dish_again,
    serves_the_seated,
    completes_drinking,
    holds_cup,
    drinks_after_reply,
    cup_left_standing,
    thanks_for_washing,
    goes_up_first,
    returns_own_xian,
    returns_last_xian,
    host_toasts_guest,
    passes_pledge,
    round_presenter,
    same_giver,
    xian_host,
    completes_act,
    reply,
    declines_the_offer,
    mutual,
    both_go_up,
    saluted_moves,
    office,
    does_not_pour,
    reports_back,
    opening_fact,
    default_fact,
    officers_set_out,
    stand_after_dishes,
    server_moves,
    server_sets_down,
    nobody_toasts_himself,
    declined_by_the_presiding,
    errand_done,
    giver_lays_down,
    present_doer,
    carried_over,
    opener,
)
"""The rules for an unwritten agent, in the order they are tried (:func:`~yili.ingest.rules.first_answer`)."""
