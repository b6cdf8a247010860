"""The step resolver: one step per clause, every field filled by the rules of the language.

:class:`StepResolver` walks the clauses of a document in text order and fills each field, keeping
the state a reader keeps (:class:`~yili.ingest.discourse.DiscourseState`): it is the runner, the one
caller of :meth:`~yili.ingest.discourse.DiscourseState.apply`, which it passes what each part of a step
found (the rules return it with their answers) as soon as the later parts must see it.  The rules for unwritten agents are in
:mod:`yili.ingest.agents`, for recipients in :mod:`yili.ingest.recipients`, for cups, wine and
things in hand in :mod:`yili.ingest.cups`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from yili.ingest import grammar as g
from yili.ingest.actions import (
    ACTION_BOW_ON_RECEIVING,
    ACTION_CAUSATIVE,
    ACTION_RECORDED_AS,
    ACTION_SAYING,
    ACTION_SENDING_OFF,
    ACTION_STANDS,
    ACTION_THING_IS_SET,
    ACTION_WORDS_AFTER_ACT,
    ACTION_WRITTEN,
)
from yili.ingest.agents import (
    AGENT_GOES_WITH,
    AGENT_JOINED,
    AGENT_NEXT_AFTER,
    AGENT_PASSIVE,
    AGENT_SAYS_WORDS,
    AGENT_SERVES_TOPIC,
    AGENT_WRITTEN,
    AgentRules,
    gone_out,
    opener,
)
from yili.ingest.clauses import Clause
from yili.ingest.cups import CUP_OBJECT_ACTS, THING_ACTS, CupRules
from yili.ingest.discourse import DiscourseState, add, append, drop, put, restart, set_
from yili.ingest.document import Document
from yili.ingest.modes import MODE_ACTUAL, MODE_CONDITION, MODE_GENERAL, MODE_NEGATED
from yili.ingest.objects import (
    OBJECT_BEFORE_INSTRUMENT,
    OBJECT_CAUSATIVE,
    OBJECT_COMMANDED_ACT,
    OBJECT_CUP_OF_ACT,
    OBJECT_CUP_OF_ZHI,
    OBJECT_CUP_TAKEN_ALONG,
    OBJECT_DECLINED_ACT,
    OBJECT_DISH_BROUGHT,
    OBJECT_DISH_FOLLOWS,
    OBJECT_FRONTED,
    OBJECT_HELD_OUT,
    OBJECT_HELD_UP,
    OBJECT_IMPLIED,
    OBJECT_IN_ACT_WORD,
    OBJECT_INSTRUMENT,
    OBJECT_JUST_NAMED,
    OBJECT_JUST_TAKEN,
    OBJECT_NOMINAL,
    OBJECT_PASSED_HAND,
    OBJECT_PERSONS_AS_THINGS,
    OBJECT_PLACEMENT_NOUN,
    OBJECT_THE_BODY,
    OBJECT_THING_IN_HAND,
    OBJECT_VERBAL,
    OBJECT_WRITTEN,
)
from yili.ingest.places import (
    FACING_WRITTEN,
    LOCATION_AFTER_BEING_AT,
    LOCATION_BEFORE_VERB,
    LOCATION_FROM_SIDE,
    LOCATION_IN_ACT_WORD,
    LOCATION_OF_PERSON,
    LOCATION_PLACE_WORD,
    LOCATION_SIDE_OF_BEING,
    LOCATION_THING_AS_PLACE,
    LOCATION_YU_PLACE,
    LOCATION_YU_THING,
)
from yili.ingest.reading import looks_traditional
from yili.ingest.recipients import (
    RECIPIENT_AS_AT_FIRST,
    RECIPIENT_CAUSATIVE,
    RECIPIENT_FIRST_DOER,
    RECIPIENT_LAST_SPEAKER,
    RECIPIENT_MUTUAL,
    RECIPIENT_NAMED_BEFORE,
    RECIPIENT_SENT,
    RECIPIENT_WORDS_OF_ACT,
    RecipientQuery,
    RecipientRules,
)
from yili.ingest.rules import FIELDS, inferred
from yili.ingest.steps import ACTUAL, CONDITIONAL, NEGATED, Step, Term
from yili.ingest.tokens import (
    ADV,
    COND,
    CONJ,
    DIR,
    ER,
    FACING,
    MARK,
    NEG,
    NUM,
    OBJECT,
    OTHER,
    PLACE,
    RANK,
    ROLE,
    SUO,
    TAIL,
    THEN,
    VESSEL,
    WINE,
    YI,
    YU,
    YUE,
    ZHI,
    ZI,
    Token,
)
from yili.ontology.act_classes import act_class
from yili.ontology.rites import NEUTRAL, RiteProfile
from yili.ontology.vocabulary import Concept, Vocabulary


@dataclass
class ClauseReading:
    """What the resolver has read of one clause so far, as its parts (:meth:`StepResolver.resolve`) fill it in:
    the act, the condition, the persons, the object, the place, the rules that decided them (``decided``), and
    at the end the step.  One per clause; none of it outlives the clause (the reading state does)."""

    action: Any = None
    action_rule: Any = None
    action_term: Any = None
    after: Any = None
    agent: Any = None
    agent_alternative: Any = None
    agent_explicit: Any = None
    apart: Any = None
    causative: Any = None
    conditional: Any = None
    decided: Any = None
    default_agent: Any = None
    facing: Any = None
    first_in_block: Any = None
    has_if: Any = None
    led_by: Any = None
    location: Any = None
    location_term: Any = None
    location_tok: Any = None
    mode: Any = None
    mutual: Any = None
    negated: Any = None
    notes: Any = None
    object_open: Any = None
    object_term: Any = None
    object_text: Any = None
    object_tokens: Any = None
    instrument_cut: bool = False
    used_first: bool = False
    objects_persons: Any = None
    pp_persons: Any = None
    rank: Any = None
    recipient: Any = None
    recipient_alt: Any = None
    recipient_why: Any = None
    recorded: Any = None
    repeats: Any = None
    said_at: Any = None
    step: Any = None
    subject: Any = None
    suffix: Any = None
    summary: Any = None
    topic: Any = None
    uttered: Any = None
    vessel: Any = None
    vessel_rule: Any = None
    wine: Any = None
    wine_rule: Any = None
    with_whom: Any = None


class StepResolver(AgentRules, RecipientRules, CupRules):
    """Fill the fields of each clause's step from the clause and the reading state.

    Parameters
    ----------
    vocabulary : Vocabulary
    document : Document
        The edition (for keys and the script of default labels).
    profile : RiteProfile
        The rite's facts (``ontology/rites.ttl``); :data:`~yili.ontology.rites.NEUTRAL` by default.
    """

    def __init__(self, vocabulary: Vocabulary, document: Document, profile: RiteProfile = NEUTRAL) -> None:
        self.vocabulary = vocabulary
        self.document = document
        self.profile = profile
        self.part = "narrative"
        self.state = DiscourseState()
        self.spellings: dict[str, str] = {}
        self.steps: list[Step] = []
        self.hant = looks_traditional(document.text)
        self._lookahead: dict[int, str] = {}
        self._next_has_subject: dict[int, bool] = {}
        self._next_elliptic: dict[int, tuple[str, ...]] = {}
        self._next_subject: dict[int, str] = {}  # the person written as subject of the next clause
        self._later_ascent: dict[int, str | None] = {}  # who goes up in one of the next two clauses (see set_lookahead)
        self.noted_doers: dict[str, tuple[Concept, ...]] = {}  # who the block's note says does an act
        self._agent_from_pivot = False
        self._ordinal = 0  # the last step's ordinal in its block
        self.closing_block: int | None = None  # the paragraph that closes the rite (see _note_closing)

    def begin_appendix(self) -> None:
        """The 記 begins: no narrative state carries into it (who acts, who holds which cup, the last
        toast); its steps are of part ``ji``.  The labels the text uses are kept, and so are the
        pledge rounds told (a 記 that places a person in a round names it: 宗人…與旅齒于衆賓)."""
        self.state.apply(restart(keep=("rounds",)))
        self.part = "ji"

    def set_lookahead(self, clauses: list[Clause]) -> None:
        """Tell the resolver the act that follows each clause in its block (for 揖升)."""
        for a, b in zip(clauses, clauses[1:], strict=False):
            if b.verb.concept is not None:
                self._lookahead[a.start] = b.verb.concept.key
                self._next_has_subject[a.start] = any(t.kind == ROLE for t in b.prefix)
                written = next((t for t in b.prefix if t.kind == ROLE and t.concept is not None), None)
                if written is not None:
                    self._next_subject[a.start] = written.concept.key
            if b.verb.concept is not None and b.block == a.block:
                self._note_later_ascent(a, [b, *clauses[clauses.index(b) + 1 : clauses.index(b) + 2]])
            if b.flags.get("elliptic"):
                # 酌獻 | 及佐食: the persons the act is repeated for next (see Reader.round_before)
                self._next_elliptic[a.start] = tuple(t.concept.key for t in b.tokens if t.kind == ROLE and t.concept is not None)

    def _note_later_ascent(self, clause: Clause, following: list[Clause]) -> None:
        """Record who goes up (升) in ``following`` (the next two clauses of ``clause``'s block): the person
        last written as a subject up to that 升, or None if nobody is; nothing if no 升 follows.  A bare 升 right
        after a mutual yielding is then one party's, not both (士冠 壹揖壹讓升 主人升: the first is the 賔's)."""
        written: str | None = None
        for b in following:
            if b.block != clause.block or b.verb.concept is None:
                return
            who = next((t.concept.key for t in b.prefix if t.kind == ROLE and t.concept is not None), None)
            written = who or written
            if b.verb.concept.key == "action-sheng":
                self._later_ascent[clause.start] = written
                return

    # -- terms ------------------------------------------------------------------------------
    def _persons(self, tokens: list[Token]) -> tuple[Term, ...]:
        """The persons written in ``tokens`` (:meth:`~yili.ingest.reading.Reader._role_terms`); the elders a
        其長 among them names are remembered (舉觶于其長 | 長皆答拜)."""
        elders = self.elders_named(tokens)
        out = self._role_terms(tokens)
        if elders is not None:
            self.state.apply(set_("elders", elders))
        return out

    def _mention(self, terms: tuple[Term, ...]) -> None:
        """Remember ``terms`` (those with a concept) as named, in the rite and in the paragraph."""
        named = tuple(t for t in terms if t.key)
        self.state.apply(append("mentions", *named), append("block_mentions", *named))

    # -- people ------------------------------------------------------------------------------

    # -- the main rule ------------------------------------------------------------------------
    def resolve(self, clause: Clause, first_in_block: bool) -> Step:
        """Make the step of one clause.

        Parameters
        ----------
        clause : Clause
        first_in_block : bool
            True for the first clause of a block (a condition may continue into it).

        Returns
        -------
        Step
        """
        cx = ClauseReading(first_in_block=first_in_block)
        self._read_act(clause, cx)
        self._read_condition(clause, cx)
        self._read_subject(clause, cx)
        self._read_agent(clause, cx)
        self._read_suffix(clause, cx)
        self._read_place_and_next_after(clause, cx)
        self._read_action_word(clause, cx)
        self._read_recipient(clause, cx)
        self._override_recipient(clause, cx)
        self._read_cup(clause, cx)
        self._object_written(clause, cx)
        self._object_from_context(clause, cx)
        self._object_in_hand(clause, cx)
        self._object_passed(clause, cx)
        self._read_place_facing_mode(clause, cx)
        self._make_step(clause, cx)
        self._update_state(clause, cx)
        return cx.step

    def _read_act(self, clause: Clause, cx: ClauseReading) -> None:
        """The act the clause tells: its verb's concept, re-read (a thing that is at a place is set there; words said)."""
        verb = clause.verb
        cx.action = verb.concept
        assert cx.action is not None
        cx.action_rule = ACTION_WRITTEN if verb.text else ACTION_THING_IS_SET if cx.action.key in g.SETTING_OUT else ACTION_STANDS
        if clause.flags.get("words_after_act"):
            cx.action_rule = ACTION_WORDS_AFTER_ACT
        if cx.action.key in g.POSITION_VERBS and "action-she" in self.vocabulary.concepts:
            before = [t for t in clause.prefix if t.kind not in (MARK, ADV)]
            things = any(t.kind in (OBJECT, VESSEL, WINE, OTHER) for t in before)
            if things and not any(t.kind == ROLE for t in before):
                # a thing "is at" a place in a setting out: it is set there (士冠 水在洗東, 𤣥酒在西; 特牲)
                cx.action = self.vocabulary.concepts["action-she"]
                cx.action_rule = ACTION_THING_IS_SET
        cx.notes = []
        _prefix, cx.suffix = clause.prefix, clause.suffix
        cx.uttered = clause.flags.get("utterance")
        cx.said_at = self._narrated(cx.uttered) if isinstance(cx.uttered, str) else None
        if (
            isinstance(cx.uttered, str)
            and not (cx.uttered == cx.action.key and cx.action.flag("speech"))
            and "action-yue" in self.vocabulary.concepts
        ):
            # 再加曰…, 醴辭曰…: the words said at an act that is no speech are an act of saying (戒賔曰 is 戒)
            cx.action = self.vocabulary.concepts["action-yue"]
            cx.action_rule = ACTION_SAYING

    def _read_condition(self, clause: Clause, cx: ClauseReading) -> None:
        """Whether the act happens: the condition (若…則), its continuation, the negation, a general rule (凡)."""
        st = self.state
        verb = clause.verb
        prefix = clause.prefix
        # condition and negation --------------------------------------------------------------
        if cx.first_in_block:
            st.apply(set_("block_mentions", []))
            written_subject = any(t.kind == ROLE for t in prefix)
            st.apply(set_("condition_open", st.conditions.condition_continues and not written_subject))
            if st.conditions.condition_open:
                cx.notes.append("mode: condition continues from the previous block")
            st.apply(set_("condition_continues", False))
            if cx.uttered is not None:
                st.apply(set_("condition_open", False))  # the words of the rite (戒賔曰…) are no consequent of what went before
            self._variant_section(clause)
        toks = clause.tokens
        either = [k for k, t in enumerate(toks) if t.text == "若" and k + 1 < len(toks) and toks[k + 1].kind in _EITHER_KINDS]
        # 若賔若长 is "either … or", not "if" (two 若, each before a person; 公食 鼏若束若編: tied or
        # woven, 註 長則束本短則編; 若九若十有一: nine or eleven)
        cx.has_if = any(
            t.kind == COND and t.text not in g.CHOICE and not (len(either) >= 2 and k in either) for k, t in enumerate(toks)
        )
        has_then = any(t.kind == THEN for t in clause.tokens)
        then_at = next((k for k, t in enumerate(prefix) if t.kind == THEN), -1)
        cx.topic = []
        if has_then and not cx.has_if and then_at > 0 and prefix[then_at - 1].kind == ROLE:
            # 其笙則獻諸西階上: a person right before 則 is the topic ("as for the 笙…"), not a condition
            cx.topic = [prefix[then_at - 1]]
            has_then = False
        last_here = self.steps[-1] if self.steps and self.steps[-1].block == clause.block else None
        if has_then and not cx.has_if and last_here is not None and last_here.text[:1] in g.EVERY:
            # 每一人獻則薦諸其席 (鄉射): "each time … then", a repeated act, no condition (疏 此還據堂上三人)
            has_then = False
        if cx.has_if and not st.conditions.condition_open:
            st.apply(set_("before_condition", st.topic.subject))
        elif has_then and not cx.has_if and self.steps and self.steps[-1].block == clause.block and len(self.steps) >= 2:
            # X有命则…: the clause before 则 was the condition; its subject is not carried past 则
            st.apply(set_("before_condition", self.steps[-2].agent))
        if cx.has_if or has_then:
            st.apply(set_("condition_open", True))
            if has_then:
                st.apply(set_("condition_continues", True))
                if not cx.has_if and self.steps and self.steps[-1].block == clause.block:
                    self._make_conditional(len(self.steps) - 1)
        cx.negated = any(t.kind == NEG for t in prefix) or any(t.kind == TAIL and t.text[:1] in g.NEGATORS for t in [verb])
        # 唯公所酬 (whomever the ruler chooses) is a choice within what happens, not a condition
        cx.conditional = st.conditions.condition_open or (cx.has_if and not has_then) or st.conditions.variant_open
        if any(t.text in g.GENERAL_RULE for t in prefix):
            # 凡拜北面于阼階上, 凡旅不洗: "whenever …", a rule for every such act, not one act of the sequence
            cx.conditional = True
            cx.notes.append(GENERAL_NOTE)
        if st.conditions.variant_open and not (st.conditions.condition_open or cx.has_if):
            cx.notes.append("mode: in a variant of the rite (若… after the rite has closed)")

    def _read_subject(self, clause: Clause, cx: ClauseReading) -> None:
        """The persons written as subject: those apart, those joined by 及, the one led (以)."""
        st = self.state
        prefix = clause.prefix
        # agent --------------------------------------------------------------------------------
        subject_tokens = self._subject_tokens(clause, cx)
        self._mention_persons_named(clause)
        cx.subject = self._persons(subject_tokens)
        st.apply(add("written", (t.key for t in cx.subject if t.key)))
        cx.agent_explicit = bool(cx.subject) and all(t.concept is not None for t in subject_tokens)
        addressed = cx.action.flag("recipientRule") == "other-party" or bool(cx.action.flag("speech"))
        someone = bool(st.topic.subject) or self.profile.general_subject is not None
        lead = next((t for t in prefix if t.kind != ADV and t.text not in g.GENERAL_RULE), None)  # (凡與大人言)
        if cx.subject and lead is not None and lead.text in g.WITH and someone and addressed:
            # 與賔揖: "(salutes) with the guest" — the person after 與 is whom the act goes to; so the
            # one spoken with (士相見 與君言, 凡與大人言: the 士 speaks to the ruler, to a man of rank)
            cx.with_whom = list(cx.subject)
            cx.subject, cx.agent_explicit = (), False
        else:
            cx.with_whom = []
        cx.led_by = ()
        cx.decided = {"action": cx.action_rule}
        if cx.subject:
            cx.decided["agent"] = AGENT_WRITTEN
        self._join_or_lead(clause, cx)

    def _subject_tokens(self, clause: Clause, cx: ClauseReading) -> list[Token]:
        """The tokens of the persons written as the clause's subject, in text order, and ``cx.apart``
        (set here): persons of the prefix written apart from the subject (賔如主人服 | 贊者𤣥端從之).  Not a
        person who owns the thing after 之 (士喪 婦人之帶…), nor one after 若 X 若 Y, 唯 X 所, 有 or 先
        (:data:`~yili.ingest.grammar.NOT_SUBJECT_BEFORE`); after 則, the person after it (若孤子則父兄戒);
        a topic no pronoun takes up again is the subject (大夫則辭)."""
        prefix = clause.prefix
        n_if = sum(1 for t in clause.tokens if t.text == "若")

        def not_subject(k: int) -> bool:
            if k + 2 < len(prefix) and prefix[k + 1].kind == ZHI and prefix[k + 2].kind in (OBJECT, OTHER, VESSEL, WINE):
                return True  # 士喪 婦人之帶牡麻結本在房: the person owns the thing named after 之, and does nothing
            why = g.NOT_SUBJECT_BEFORE.get(prefix[k - 1].text) if k > 0 else None
            # 若 X 若 Y is "either X or Y"; a single 若 is "if" and its person is the subject (若君命)
            if why == "chooser" and not any(t.kind == SUO for t in prefix[k:]):
                return False  # 唯主人不哭: "only the host does not wail" — he is the subject (no 所)
            return why is not None and not (why == "alternative" and n_if < 2)

        subject_tokens = [t for k, t in enumerate(prefix) if t.kind == ROLE and not not_subject(k) and t not in cx.topic]
        cx.apart = []
        roles_at = [k for k, t in enumerate(prefix) if t.kind == ROLE and not not_subject(k) and t not in cx.topic]
        if len(roles_at) > 1:
            # persons apart (not listed together, nor joined by 與/及) are not one subject: the last
            # is (賔如主人服 | 贊者𤣥端從之: the guest is dressed as the host; the assistant follows)
            group = [roles_at[-1]]
            for k in reversed(roles_at[:-1]):
                between = prefix[k + 1 : group[0]]
                if all(x.kind in (CONJ, ROLE, NUM, YI) or x.text in g.ADVERBS for x in between):
                    group.insert(0, k)
                else:
                    break
            subject_tokens = [prefix[k] for k in group]
            cx.apart = [prefix[k] for k in roles_at if k not in group]
        then_at = max((k for k, t in enumerate(prefix) if t.kind == THEN), default=-1)
        if then_at >= 0 and not cx.topic and (cx.has_if or any(t.kind == ROLE for t in prefix[then_at + 1 :])):
            # 若孤子則父兄戒: the person before 則 is the condition, the one after it acts
            subject_tokens = [t for k, t in enumerate(prefix) if k > then_at and t.kind == ROLE and not not_subject(k)]
        if (
            cx.topic
            and not subject_tokens
            and not any(t.kind == ZHI or t.text in g.ZHU or t.text[-1:] in g.PRONOUN_OBJECT for t in clause.tokens)
        ):
            # 大夫則辭, 執玉者則唯舒武: "as for the 大夫, he declines" — a topic no pronoun takes up
            # again (其笙則獻諸西階上: 諸 is the 笙, presented to; 大師則為之洗: washed for) is the subject
            subject_tokens = list(cx.topic)
        return subject_tokens

    def _mention_persons_named(self, clause: Clause) -> None:
        """Mention (:meth:`_mention`) the persons the clause names but who do not act: after 有 "there
        is" (若有諸公), and inside a place phrase (就旅食之尊而献之: 之 = the 旅食)."""
        prefix = clause.prefix
        for k, t in enumerate(prefix):
            if t.kind == ROLE and k > 0 and g.NOT_SUBJECT_BEFORE.get(prefix[k - 1].text) == "existential":
                self._mention(self._persons([t]))
        for t in clause.tokens:
            # a person inside a place phrase is named (就旅食之尊而献之: 之 = the 旅食)
            if t.kind == PLACE:
                self._mention(tuple(self.term(c) for c in t.readings if c.kind == "role"))

    def _join_or_lead(self, clause: Clause, cx: ClauseReading) -> None:
        """The written subject joined to, or led by, the one acting before (sets ``cx.subject``,
        ``cx.agent_explicit``, ``cx.led_by`` and ``cx.decided["agent"]``): 及 + persons adds them to him
        (賔反入 及卿大夫皆説屦); 以 + a person before a motion, he goes with them (以大夫升, 註 以猶與也);
        X 以 Y + a motion, X leads Y (主人以賔升)."""
        st = self.state
        prefix = clause.prefix
        if cx.subject and prefix and prefix[0].kind == CONJ and st.topic.subject:
            # 賔反入 及卿大夫皆説屦: 及 adds persons to the one already acting
            cx.subject = tuple(dict.fromkeys(st.topic.subject + cx.subject))
            cx.agent_explicit = False
            cx.decided["agent"] = AGENT_JOINED
        elif (
            cx.subject
            and len(prefix) > 1
            and prefix[0].kind == YI
            and prefix[1].kind == ROLE
            and st.topic.subject
            and cx.action.key in g.MOTION_VERBS
        ):
            # 主人揖讓 | 以大夫升 (註 以猶與也): he goes up with the 大夫; he leads, and goes on after it
            cx.led_by = tuple(p for p in st.topic.subject if all(p.key != q.key for q in cx.subject))
            cx.subject = tuple(dict.fromkeys(cx.led_by + cx.subject))
            cx.agent_explicit = False
            cx.decided["agent"] = AGENT_GOES_WITH
        elif cx.subject and cx.action.key in g.MOTION_VERBS:
            # 主人以賔升: the one before 以 leads the one after it (both go up)
            triples = zip(prefix, prefix[1:], prefix[2:], strict=False)
            leader = next((a for a, b, c in triples if a.kind == ROLE and b.kind == YI and c.kind == ROLE), None)
            cx.led_by = self._persons([leader]) if leader is not None else ()

    def _read_agent(self, clause: Clause, cx: ClauseReading) -> None:
        """The agent: written, the words of an act told before, or the first of AGENT_RULES that answers."""
        st = self.state
        cx.agent = cx.subject
        cx.default_agent = False
        cx.mutual = False
        cx.agent_alternative = False
        self._agent_from_pivot = False
        if not cx.agent and cx.said_at is not None:
            # the words of an act are said by who does it in the narrative (士冠 宿曰…: the host, who 宿賔)
            cx.agent, why = (
                cx.said_at.agent,
                f"says the words of the {cx.said_at.action.label} told before (block {cx.said_at.block})",
            )
            cx.notes.append(f"agent: {why}")
            cx.decided["agent"] = AGENT_SAYS_WORDS
        if not cx.agent:
            found, agent_rule = self._unwritten_agent(clause, cx.action)
            self.state.apply(*found.found)
            cx.agent, why, cx.agent_alternative = found.value, found.note, found.alternative
            if cx.agent and not all(self.profile.in_cast(a.key) or a.key in st.history.written for a in cx.agent if a.key):
                # an unwritten agent is never a role outside the rite's cast (or outside the persons the
                # text itself has written: a cast list is not the text)
                kept = tuple(a for a in cx.agent if not a.key or self.profile.in_cast(a.key) or a.key in st.history.written)
                if kept:
                    cx.agent = kept
                else:
                    cx.agent, why = self._opening_agent()
                    agent_rule, cx.agent_alternative = opener, False
            cx.decided["agent"] = agent_rule.id
            self._agent_from_pivot = "pivot" in agent_rule.tags
            # an act by an assistant the text does not name (a default agent, a dish brought again) does
            # not make him the subject of the acts that follow
            cx.default_agent = "not-topic" in agent_rule.tags
            cx.mutual = "mutual" in agent_rule.tags
            cx.notes.append(f"agent: {why}")
        st.apply(set_("pivot_agent", ()))
        if cx.subject or cx.action.key not in g.MOTION_VERBS:
            st.apply(set_("served_by", ()))

        # persons after the verb ----------------------------------------------------------------
        st.apply(set_("owners", cx.agent))  # 舉觶于其長: the elders of the ones who raise the cup

    def _read_suffix(self, clause: Clause, cx: ClauseReading) -> None:
        """The persons, things and place after the verb."""
        verb = clause.verb
        cx.objects_persons = []
        cx.pp_persons = []
        cx.location_tok = None
        cx.object_tokens = []
        cx.instrument_cut = False
        cx.used_first = False
        instrument = described = False  # after 用: what the act is done with (g.WITH_WHAT), up to a place or 于
        i = 0
        while i < len(cx.suffix):
            t = cx.suffix[i]
            if t.kind == OTHER and t.text in g.WITH_WHAT and not instrument and not cx.used_first:
                if not (cx.object_tokens or cx.objects_persons):
                    # 醮用脯醢, 享用琮: nothing written before 用, the thing used is read as the object
                    cx.used_first = True
                    i += 1
                    continue
                instrument = True
                cx.instrument_cut = True
            if t.kind == OTHER and t.text in g.THERE_IS:
                described = True  # 三醮有乾肉折爼, 兩甒有禁: what there is with it, not the object
            if t.kind in (YU, ZI, PLACE):
                instrument = False
            if t.kind == YI and cx.action.key in _DONE_TO_THAT and any(x.kind == ZHI for x in cx.object_tokens):
                # 飾之以布 (士相見): 之 is the thing, 以布 what it is wrapped with (not 見之以其摯: the gift)
                instrument = True
            if instrument or (described and t.kind in (OBJECT, OTHER, VESSEL, WINE, NUM)):
                i += 1
                continue  # 楔齒用角柶: the horn spoon is the instrument, 齒 the object
            if t.kind in (YU, ZI):
                i, cx.location_tok, cx.pp_persons = self._phrase_after(cx.suffix, i, cx.location_tok, cx.pp_persons, cx.decided)
                continue
            if (
                t.kind == ROLE
                and i + 1 < len(cx.suffix)
                and cx.suffix[i + 1].text in g.SPEECH
                and (i > 0 or cx.objects_persons or cx.action.flag("pivot"))
            ):
                # 命卿大夫君曰…, 皆命君曰無不醉: 君 is who the quoted words are from (a command in his name);
                # 戒賔曰…: 賔 is the one spoken to
                pass
            elif t.kind == ROLE and t.concept is None and self.person_is_recipient(cx.action):
                # 公命长: "the eldest" is what is commanded (choose the eldest), not a person addressed
                cx.object_tokens.append(t)
            elif t.kind == ROLE:
                for p in self._persons([t]):
                    if all(p.key != q.key for q in cx.objects_persons):
                        cx.objects_persons.append(p)
            elif t.kind == ZHI and i > 0 and cx.suffix[i - 1].text in g.COMPARISON:
                pass  # 亦如之: "likewise", no object (特牲 酳下餕亦如之: to the 下餕 written before it)
            elif t.kind == OTHER and t.text in g.LEVEL_WITH and i + 1 < len(cx.suffix) and cx.suffix[i + 1].kind == PLACE:
                pass  # 受幣當東楹: 當 "level with" the place (the location), not a thing
            elif t.kind == ZHI or t.kind in (OBJECT, OTHER, VESSEL, WINE):
                cx.object_tokens.append(t)
            elif (
                t.kind == NUM
                and t.text in g.COUNTS
                and i + 1 < len(cx.suffix)
                and cx.suffix[i + 1].kind in (OBJECT, VESSEL, OTHER)
            ):
                cx.object_tokens.append(t)  # 執兩籩: the number of the things (kept with them in the object)
            elif t.kind == PLACE and cx.location_tok is None:
                cx.location_tok = t
                cx.decided["location"] = LOCATION_PLACE_WORD
            elif (
                t.kind == DIR and i == 0 and cx.location_tok is None and verb.concept is not None and verb.concept.key in POSITION
            ):
                cx.location_tok = t  # 卦者在左: on the left; 蒲筵二在南 (set out to the south)
                cx.decided["location"] = LOCATION_SIDE_OF_BEING
            i += 1

    def _read_place_and_next_after(self, clause: Clause, cx: ClauseReading) -> None:
        """The place when no phrase gave one; a presentation next after the ones named (獻次X)."""
        verb = clause.verb
        prefix = clause.prefix
        cx.after = self._presented_next_after(cx.action, cx.suffix) if clause.flags.get("next_after") else None
        if cx.after is not None and cx.subject:
            # 公有司…獻次衆賓: "is presented next after the guests" — the one named is toasted, by
            # whoever presented to those he comes after (記 注 獻在後者賤也)
            cx.objects_persons = list(cx.subject)
            cx.agent, cx.agent_explicit = cx.after, False
            cx.suffix = [t for t in cx.suffix if t.kind != ROLE]  # those he comes after are not presented here
            cx.notes.append("agent: presents to him next after the ones named (獻次X)")
            cx.decided["agent"] = AGENT_NEXT_AFTER
        if cx.topic and not cx.objects_persons and not cx.pp_persons and self.person_is_recipient(cx.action):
            cx.objects_persons = list(self._persons(cx.topic))  # 其笙則獻…: the 笙 are the ones presented
        if cx.location_tok is None and verb.concept is not None and verb.concept.key in g.POSITION_VERBS:
            # 側尊一甒醴在服北: what follows "is at" is where (the north of the garments)
            where: list[Token] = []
            for t in cx.suffix:
                if t.kind not in (PLACE, OBJECT, OTHER, VESSEL, DIR) or (where and where[-1].kind == DIR and t.kind != DIR):
                    break
                where.append(t)
            if where and any(t.kind == DIR for t in where) and len(where) > 1:
                cx.location_tok = Token("".join(t.text for t in where), where[0].start, where[-1].end, PLACE, None)
                cx.decided["location"] = LOCATION_AFTER_BEING_AT
        if cx.location_tok is None:
            # 每門每曲揖: a place after 每 "every" says how often, not where (at every gate)
            cx.location_tok = next(
                (t for k, t in enumerate(prefix) if t.kind == PLACE and not (k and prefix[k - 1].text in g.EVERY)), None
            )
            cx.decided["location"] = LOCATION_BEFORE_VERB
        if cx.location_tok is None:
            # 宰自右少退賛命: from the right
            cx.location_tok = next(
                (
                    prefix[k + 1]
                    for k, t in enumerate(prefix[:-1])
                    if t.kind == ZI and prefix[k + 1].kind == DIR and prefix[k + 1].text not in g.WAY_ROUND
                ),
                None,
            )
            cx.decided["location"] = LOCATION_FROM_SIDE
        if (
            cx.location_tok is None
            and verb.text not in (cx.action.hant, cx.action.hans)
            and "action-she" not in self.vocabulary.broader_closure(cx.action.key)  # 無加席: the mat added, not where
        ):
            # 即筵 (= 即席): the act written with a place its name does not have says where (the mat)
            last = verb.text[-1:]
            place = next((c for c in self.vocabulary.by_label.get(last, ()) if c.kind == "place"), None)
            if place is not None and last not in cx.action.hant + cx.action.hans:
                cx.location_tok = Token(last, verb.end - 1, verb.end, PLACE, place)
                cx.decided["location"] = LOCATION_IN_ACT_WORD

    def _read_action_word(self, clause: Clause, cx: ClauseReading) -> None:
        """The act as shown (its concept's label), and the object its word carries (a causative, a verbal object)."""
        verb = clause.verb
        cx.causative = bool(clause.flags.get("causative"))
        # acts are shown by their concept's label (礼辞 → 辞, 至再拜 → 拜至, 吿 → 告); persons and cups
        # as written (賔, 爵)
        cx.action_term = self.term(cx.action)
        cx.recorded = cx.action.flag("recordedAs")
        if isinstance(cx.recorded, str) and cx.recorded in self.vocabulary.concepts:
            # 筵于户西: a placement noun used as a verb is a step of setting out (設)
            cx.action_term = self.term(self.vocabulary.concepts[cx.recorded])
            cx.decided["action"] = ACTION_RECORDED_AS
        cx.object_text = None
        cx.object_term = None
        if not verb.text:
            cx.notes.append("action: unwritten; a person with a place and a facing stands there (立)")
        if cx.causative:
            # 射人升賔: the usher has the guest come up (大射礼 摈者以命升賔)
            ming = self.concept("action-ming")
            if ming is not None:
                cx.action_term = self.term(ming)
                cx.object_text = verb.text
                cx.decided["object"] = OBJECT_CAUSATIVE
                cx.object_term = self.term(cx.action, verb.text)
                cx.notes.append("action: causative motion read as 命")
                cx.decided["action"] = ACTION_CAUSATIVE
        elif clause.flags.get("verbal_object"):
            vo: Concept = clause.flags["verbal_object"]  # type: ignore[assignment]
            cx.object_text = str(clause.flags.get("verbal_object_text") or vo.hans).lstrip("".join(g.ADVERBS))
            cx.decided["object"] = OBJECT_VERBAL
            cx.object_term = self.term(vo)
            if cx.action.key in g.VERBAL_OBJECT_HEADS:
                cx.object_text = vo.hans if vo.hans in cx.object_text else cx.object_text
        elif clause.flags.get("nominal_object"):
            cx.object_text = str(clause.flags["nominal_object"])
            cx.decided["object"] = OBJECT_NOMINAL
        if clause.flags.get("sending_off") and self.concept("action-baisong") is not None:
            cx.action = self.concept("action-baisong")  # type: ignore[assignment]
            cx.action_term = self.term(cx.action)
            cx.decided["action"] = ACTION_SENDING_OFF
        if clause.flags.get("bow_on_receiving"):
            cx.decided["action"] = ACTION_BOW_ON_RECEIVING

        # recipient -----------------------------------------------------------------------------
        if clause.flags.get("verbal_object"):
            cx.pp_persons = []  # 请羞于诸公卿者: the persons belong to the act requested
            vo_role = self._role_named_for_act(clause.flags["verbal_object"])  # type: ignore[arg-type]
            if vo_role is not None and not cx.objects_persons and cx.action.flag("pivot"):
                # 君命皆致: those commanded are the ones named for the act (致者), who act next
                cx.objects_persons = [vo_role]

    def _read_recipient(self, clause: Clause, cx: ClauseReading) -> None:
        """To whom the act goes: the rite's server of a topic, a passive toast, the first of RECIPIENT_RULES."""
        prefix = clause.prefix
        default_fact = self.profile.default_agent(cx.action.key)
        if (
            cx.subject
            and default_fact is not None
            and default_fact.role in self.vocabulary.concepts
            and any(t.kind == ER for t in prefix)
            and cx.object_tokens
            and cx.object_tokens[0].kind == ZHI
            and not cx.objects_persons
        ):
            # 祝史小臣师亦就其位而荐之: "as for X, (the server) serves them at their places" — 之 takes
            # up the persons named first; the act is the default agent's
            cx.objects_persons = list(cx.subject)
            cx.agent = (self.term(self.vocabulary.concepts[str(default_fact.role)]),)
            cx.agent_explicit = False
            cx.default_agent = True
            cx.object_tokens = [x for x in cx.object_tokens if x.kind != ZHI]
            cx.notes.append(
                f"agent: default agent of the rite ({default_fact.source}); the persons named first are served (topic)"
            )
            cx.decided["agent"] = AGENT_SERVES_TOPIC
        passive = self._passive_toast(
            cx.action, cx.agent, cx.objects_persons, cx.pp_persons, cx.object_tokens, written=bool(cx.subject)
        )
        if passive is not None:
            # 衆賔獻 / 每一人獻: "the guests (each) are toasted" — the person named has just been the
            # receiver of this kind of toast and nobody is named after the verb
            cx.objects_persons, cx.agent = list(cx.agent), passive
            cx.agent_explicit = False
            cx.notes.append("agent: toasted persons named before the verb (passive reading)")
            cx.decided["agent"] = AGENT_PASSIVE
        self.state.apply(set_("held_out", None))
        query = RecipientQuery(
            cx.action,
            cx.agent,
            tuple(cx.objects_persons),
            tuple(cx.pp_persons),
            tuple(cx.object_tokens),
            clause,
            tuple(cx.with_whom or ()),
        )
        found, recipient_rule = self._recipient(query)
        self.state.apply(*found.found)
        cx.recipient, cx.recipient_alt, cx.recipient_why = found.value, found.alternative, found.note or None
        cx.decided["recipient"] = recipient_rule.id

    def _override_recipient(self, clause: Clause, cx: ClauseReading) -> None:
        """The readings after RECIPIENT_RULES: the one named apart, the words' hearer, a mutual act, the one sent, a pivot."""
        st = self.state
        if cx.action.key in g.RECEIVING and cx.apart and not cx.objects_persons and not cx.pp_persons:
            # 長兄弟西階前北面 衆賓長自左受旅: the one named first, standing there, is whom he receives from
            cx.recipient, cx.recipient_alt, cx.recipient_why = (
                self._persons(cx.apart[:1]),
                False,
                "receives from the one named before him",
            )
            cx.decided["recipient"] = RECIPIENT_NAMED_BEFORE
        if (
            cx.uttered is not None
            and not cx.objects_persons
            and not cx.pp_persons
            and (not cx.subject or cx.action.key in _SPEAKING_TO_THE_LAST)
        ):
            # the words go to whom the act went (再加曰: to the capped son); a speaker named with no act
            # of his own (主人曰…) speaks to who spoke last
            replied = st.topic.last_speaker if cx.subject and st.topic.last_speaker[:1] != cx.agent[:1] else ()
            heard = replied or (cx.said_at.recipient if cx.said_at is not None and not cx.subject else ())
            if heard:
                cx.recipient, cx.recipient_alt = heard, False
                cx.recipient_why = (
                    "the words are said to the one who spoke last" if replied else "the words go to whom the act went"
                )
                cx.decided["recipient"] = RECIPIENT_LAST_SPEAKER if replied else RECIPIENT_WORDS_OF_ACT
        if (cx.uttered is not None or cx.action.key in _SPEAKING_TO_THE_LAST) and cx.agent:
            st.apply(set_("last_speaker", cx.agent))  # (曰… after an act of his: 士相見 還其摯 | 曰某也使某還摯)
        if cx.recipient_why:
            cx.notes.append(f"recipient: {cx.recipient_why}")
        if (
            len(cx.agent) > 1
            and cx.recipient
            and cx.action.flag("recipientRule") != "each-other"  # 交錯: the two sides, each the other's receiver
            and all(any(p.key == a.key for a in cx.agent) for p in cx.recipient)
        ):
            cx.recipient, cx.recipient_alt = (), False  # a mutual act (三讓): the parties to each other, no one else
            cx.decided["recipient"] = RECIPIENT_MUTUAL
        if cx.causative:
            cx.recipient = tuple(cx.objects_persons[:1])
            cx.decided["recipient"] = RECIPIENT_CAUSATIVE

        sent = self._someone_sent(cx.action, cx.objects_persons, cx.object_tokens, clause)
        if sent is not None:
            # 君使人弔 | 君使人禭 (士喪; 註 使人士也 … 弔者入): the "someone" sent is the one named for the
            # act he is sent to do (弔者, 禭者), commanded and the doer of the next act
            cx.objects_persons, cx.recipient = [sent], (sent,)
            cx.notes.append("recipient: the one sent, named for the act he is sent to do (V者)")
            cx.decided["recipient"] = RECIPIENT_SENT

        # pivot: 公命小臣辞 / 小臣作下大夫二人媵爵 — the person commanded is the agent of the next act
        if cx.action.flag("pivot") and cx.objects_persons:
            st.apply(set_("pivot_agent", tuple(cx.objects_persons)))
            st.apply(set_("pivot_commander", cx.agent))
            nxt = self._lookahead.get(clause.start)
            if (
                cx.action.key == "action-ming"
                and cx.object_text is None
                and nxt in self.vocabulary.concepts
                and not self._next_has_subject.get(clause.start, True)
            ):
                # 公命小臣辞: what is commanded is the next act
                cx.object_text = self.term(self.vocabulary.concepts[nxt]).label
                cx.decided["object"] = OBJECT_COMMANDED_ACT

    def _read_cup(self, clause: Clause, cx: ClauseReading) -> None:
        """The cup and wine, and the object written or held out."""
        verb = clause.verb
        prefix = clause.prefix
        # cups and wine --------------------------------------------------------------------------
        cx.vessel, cx.wine, cx.vessel_rule, cx.wine_rule, held = self._cup(
            clause, cx.action, cx.agent, cx.object_tokens, prefix, cx.recipient
        )
        self.state.apply(*held)

        # object ------------------------------------------------------------------------------------
        things_written = any(t.kind in (OBJECT, VESSEL, OTHER) for t in cx.object_tokens)
        if cx.object_text is None and isinstance(cx.recorded, str) and not things_written:
            # 筵于東序: the mat laid is what is set out (特牲 gold: 筵X / 席于X → 設, object 筵/席)
            thing = next((c for c in verb.readings if c.kind in ("place", "object")), None)
            cx.object_text = verb.text
            cx.decided["object"] = OBJECT_PLACEMENT_NOUN
            cx.object_term = self.term(thing, verb.text) if thing is not None else None
        if cx.object_text is None and self.state.holdings.held_out is not None and not cx.object_tokens:
            # 宗婦執兩籩 … 主婦受: what is received is what the other held out
            cx.object_term, cx.object_text = self.state.holdings.held_out
            cx.decided["object"] = OBJECT_HELD_OUT
            cx.vessel = None
        cx.object_open = cx.object_text is None  # (each part below asks it once, as one block did)

    def _object_written(self, clause: Clause, cx: ClauseReading) -> None:
        """The object written after the verb, or the thing 之 takes up."""
        st = self.state
        if cx.object_open:
            # a wine received, offered or sipped is what the act is done to (士冠 賔受醴, 祭醴, 啐醴); one
            # poured is the wine of the cup only (酌膳: the cup's wine, no object)
            handled = cx.action.flag("cupAction") or cx.action.key in g.SETTING_OUT or cx.action.key in _TASTING_ACTS
            kinds = (
                (OBJECT, OTHER, VESSEL, ROLE, WINE)
                if handled and cx.action.key not in _POURING_ACTS
                else (OBJECT, OTHER, VESSEL, ROLE)
            )
            written = [t for t in cx.object_tokens if t.kind in kinds]
            if written and written[0].kind == OTHER and written[0].text in g.THEIR:
                # 還其摯, 辭其摯 (士相見): 其 "his" names whose the thing is; the thing is 摯
                written = written[1:]
            body = self.profile.body
            if cx.used_first and body is not None and cx.action.flag("onTheBody") == "object":
                written = []  # 挋用巾, 幠用衾: what is done to the body is done with the towel (object.the-body)
            elif cx.used_first:
                cx.instrument_cut = True  # 醮用脯醢, 享用琮, 奠用特豚魚腊: what is used is what the act offers
            # 兩豆兩籩, 庶羞四豆: a number right before a thing counts it, and is written with it
            counts = {n.end: n.text for n in cx.object_tokens if n.kind == NUM and n.text in g.COUNTS}
            if written:
                cx.object_text = "".join(t.text for t in written)
                cx.decided["object"] = OBJECT_BEFORE_INSTRUMENT if cx.instrument_cut else OBJECT_WRITTEN
                in_its_dish = (
                    len(written) == 2
                    and written[0].kind == VESSEL
                    and written[0].concept is not None
                    and not self.vocabulary.is_cup(written[0].concept.key)
                    and written[1].kind == OBJECT
                    and not any(c.kind == VESSEL for c in written[1].readings)  # 籩爼: two things
                    and written[0].end == written[1].start
                )
                named = all(t.kind in (OBJECT, VESSEL, WINE) and t.concept is not None for t in written)
                if len(written) > 1 and not in_its_dish and named:
                    # things named one after another are each an object (服𤣥端爵韠: 𤣥端+爵韠; 束帛儷皮)
                    cx.object_text = "+".join(t.text for t in written)
                if in_its_dish and written[1].concept is not None:
                    # 士冠 取籩脯: the dried meat in its 籩, one object (the food)
                    cx.object_term = self.term(written[1].concept, cx.object_text)
                if len(written) == 1 and written[0].concept is not None:
                    cx.object_term = self.term(written[0].concept, written[0].text)
                elif (
                    len(written) == 2
                    and written[1].concept is not None
                    and written[1].kind in (OBJECT, VESSEL)
                    and written[0].kind == OTHER
                    and written[0].end == written[1].start
                ):
                    # a word the lexicon lacks, right before a thing, qualifies it (羊鉶: the mutton soup
                    # pot, a 鉶): the thing is the last word's (有司徹 取一羊鉶); not a list of names
                    # (燕禮 奏南陔白華華黍: songs, no millet)
                    cx.object_term = self.term(written[-1].concept, cx.object_text)
                if any(w.start in counts and w.kind != ROLE for w in written):
                    # 宗婦執兩籩, 設兩豆兩籩, 釋三个 (特牲): the things as counted
                    # (庶羞四豆: the delicacies, in four 豆, one object; 兩豆兩籩: two)
                    joint = "+" if "+" in cx.object_text and written[0].start in counts else ""
                    cx.object_text = joint.join(counts.get(w.start, "") + w.text for w in written)
                    if cx.object_term is not None:
                        cx.object_term = self.term(self.vocabulary.concepts[cx.object_term.key], cx.object_text)
            elif any(t.kind == ZHI for t in cx.object_tokens):
                taken = st.holdings.things.get(cx.agent[0].key) if cx.agent and cx.action.key in THING_ACTS else None
                just_taken = taken is not None and any(
                    s.block == clause.block and s.agent[:1] == cx.agent[:1] and s.action.key in _TAKING and s.object_term == taken
                    for s in self.steps[-3:]
                )
                if just_taken and taken is not None:
                    # 右取肺 坐祭之 (有司徹): 之 is the lung just taken up, not the cup in the other hand
                    cx.object_term, cx.object_text = taken, taken.label
                    cx.decided["object"] = OBJECT_JUST_TAKEN
                elif cx.action.flag("cupAction") and cx.vessel is not None and not cx.action.flag("personObject"):
                    cx.object_text = self._surface_cup(clause, cx.vessel)
                    cx.decided["object"] = OBJECT_CUP_OF_ZHI
                elif cx.recipient:
                    cx.object_text = None
                    cx.decided.pop("object", None)

    def _object_from_context(self, clause: Clause, cx: ClauseReading) -> None:
        """The object from before the verb, an instrument, the cup, the persons, the act's own word, the act declined."""
        verb = clause.verb
        prefix = clause.prefix
        body = self.profile.body
        if (
            cx.object_open
            and cx.object_text is None
            and body is not None
            and body.role in self.vocabulary.concepts
            and cx.action.flag("onTheBody") == "object"
            and not cx.objects_persons
        ):
            # 乃沐櫛, 挋用巾, 幠用衾 (士喪): what is washed, combed, covered is the body (尸)
            cx.object_term = self.term(self.vocabulary.concepts[body.role])
            cx.object_text = cx.object_term.label
            cx.decided["object"] = OBJECT_THE_BODY
        if cx.object_open:
            if (
                cx.object_text is None
                and not cx.objects_persons
                and cx.uttered is None
                and not any(t.kind in (ROLE, COND, THEN) for t in prefix)  # 若膳觯也則降: a condition, not the object
                and cx.action.key not in g.MOTION_VERBS
            ):
                # 筮與席所卦者具饌於西塾, 蒲筵二在南: things named before the act, with no one named, are
                # what it is done to (set out, held)
                fronted: list[Token] = []
                being_at = verb.concept is not None and verb.concept.key in g.POSITION_VERBS
                for k, t in enumerate(prefix):
                    if t.kind == YI or (k > 0 and prefix[k - 1].kind == YI):
                        break  # 以X: an instrument, not the object
                    # a word the lexicon lacks, right before 在, is the thing that is there (有司徹 昌在東方)
                    if t.kind in (OBJECT, VESSEL, WINE) or (being_at and t.kind == OTHER and k == len(prefix) - 1):
                        fronted.append(t)
                if fronted:
                    cx.object_text = "+".join(t.text for t in fronted)
                    cx.decided["object"] = OBJECT_FRONTED
                    if len(fronted) == 1 and fronted[0].concept is not None:
                        cx.object_term = self.term(fronted[0].concept, fronted[0].text)
        if cx.object_open:
            instrument = self._instrument_cup(prefix)
            if cx.object_text is None and instrument is not None and cx.action.key in g.MOTION_VERBS:
                cx.object_text = instrument  # 以虚爵降: he goes down with the empty cup
                cx.decided["object"] = OBJECT_INSTRUMENT
            if (
                cx.object_text is None
                and cx.vessel is not None
                and prefix
                and prefix[-1].kind == YI
                and cx.action.key in g.MOTION_VERBS
            ):
                cx.object_text = self._surface_cup(clause, cx.vessel)  # 受爵以降: goes down with it
                cx.decided["object"] = OBJECT_CUP_TAKEN_ALONG
            if (
                cx.object_text is None
                and cx.action.flag("cupAction")
                and cx.vessel is not None
                and cx.action.key in CUP_OBJECT_ACTS
            ):
                cx.object_text = self._surface_cup(clause, None)
                cx.decided["object"] = OBJECT_CUP_OF_ACT
            if cx.object_text is None and cx.objects_persons and not self.person_is_recipient(cx.action):
                cx.object_text = "+".join(p.label for p in cx.objects_persons)
                cx.decided["object"] = OBJECT_PERSONS_AS_THINGS
            if cx.object_text is None:
                inside = self._thing_in_act_word(verb)
                if inside is not None:
                    # 辯有脯醢 (薦): the 脯醢 written inside the act's word
                    cx.object_term, cx.object_text = inside
                    cx.decided["object"] = OBJECT_IN_ACT_WORD
            if cx.object_text is None:
                implied = cx.action.flag("impliedObject")
                if isinstance(implied, str) and implied in self.vocabulary.concepts:
                    # 举幂 / 反幂: the cover is in the word
                    c = self.vocabulary.concepts[implied]
                    cx.object_term = self.term(c)
                    cx.object_text = cx.object_term.label
                    cx.decided["object"] = OBJECT_IMPLIED

    def _thing_in_act_word(self, verb: Token) -> tuple[Term, str] | None:
        """The thing written inside an act's word as this text spells it, when the word is longer than
        the act's own name: 辯有脯醢 (an alternative label of 薦, "each has the dried meat and sauce")
        gives (the term of 脯醢, "脯醢").  The longest thing word inside, of two characters at least, wins,
        the first from the left among equals; None when the word is the act's name alone (薦) or holds
        no such word (加爵 names the cup of the act, 說決拾 one thing of two: not read here)."""
        c = verb.concept
        text = verb.text
        if c is None or len(text) <= 2 or text in (c.hant, c.hans):
            return None
        for n in range(len(text) - 1, 1, -1):
            for i in range(len(text) - n + 1):
                part = text[i : i + n]
                found = next((x for x in self.vocabulary.by_label.get(part, ()) if x.kind == "object"), None)
                if found is not None:
                    return self.term(found, part), part
        return None

    def _object_in_hand(self, clause: Clause, cx: ClauseReading) -> None:
        """The object in hand: the dish brought, the thing held, held up, or just named."""
        st = self.state
        if cx.object_open:
            if cx.object_text is None and cx.action.key == "action-ci-decline" and cx.recipient:
                cx.object_text = self._declined_act(cx.recipient)
                cx.decided["object"] = OBJECT_DECLINED_ACT
            if cx.object_text is None and cx.vessel is None and cx.action.key in g.SETTING_DOWN and cx.agent:
                brought = next(
                    (
                        x
                        for x in reversed(self.steps[-4:])
                        if x.block == clause.block and x.agent[:1] == cx.agent[:1] and x.action.key not in g.POSTURES
                    ),
                    None,
                )
                if brought is not None and brought.action.key in g.SERVING_DISHES and brought.object:
                    # 有司徹 婦贊者薦韭菹醢 坐 奠于筵前: what he sets down is the dish he brought
                    cx.object_term, cx.object_text = brought.object_term, brought.object
                    cx.decided["object"] = OBJECT_DISH_BROUGHT
        if cx.object_open:
            if cx.object_text is None and cx.action.key in THING_ACTS:
                held_thing = st.holdings.things.get(cx.agent[0].key) if cx.agent else None
                if held_thing is not None:
                    cx.object_term, cx.object_text = held_thing, held_thing.label  # 取肺 … 絶 祭 哜之 加于俎
                    cx.decided["object"] = OBJECT_THING_IN_HAND
            if cx.object_text is None and cx.vessel is None and cx.agent and cx.action.key in _HELD_UP:
                # 書卦 執 以示主人 主人受 眡: the 卦 written down, held up, shown, received and looked at
                held = st.holdings.things.get(cx.agent[0].key) if self._in_hand(cx.agent[0].key, clause.block) else None
                that = self._thing_just_named(clause.block) or ((held, held.label) if held is not None else None)
                if that is not None:
                    cx.object_term, cx.object_text = that
                    cx.decided["object"] = OBJECT_HELD_UP
                    if cx.object_term is not None and self._is_thing(cx.object_term) and cx.action.key != "action-shi-look":
                        st.apply(put("things", cx.agent[0].key, cx.object_term))  # held up to be shown and handed over
                        st.apply(put("taken_at", cx.agent[0].key, len(self.steps)))
            if cx.object_text is None and cx.action.key in _DONE_TO_THAT and any(t.kind == ZHI for t in cx.object_tokens):
                that = self._thing_just_named(clause.block)
                if that is not None:
                    cx.object_term, cx.object_text = that  # 尸祭鉶 | 嘗之: the 鉶; 加柶 | 覆之: the spoon
                    cx.decided["object"] = OBJECT_JUST_NAMED

    def _object_passed(self, clause: Clause, cx: ClauseReading) -> None:
        """The dish brought after the cup, the thing passed hand to hand; what stays in hand after the act."""
        st = self.state
        prefix = clause.prefix
        if cx.object_open:
            if cx.object_text is None and cx.action.key == "action-cong":
                # 以 X 從 / X 從: to follow with X, the dish brought after the cup (特牲 賓長以肝從, 肝從, 燔從)
                thing = next((t for t in reversed(prefix) if t.kind == OBJECT and t.concept is not None), None)
                if thing is not None:
                    cx.object_term, cx.object_text = self.term(thing.concept, thing.text), thing.text
                    cx.decided["object"] = OBJECT_DISH_FOLLOWS
                    # he brings it: it is in his hand to give, in this paragraph (燔從如初: no hand-off written)
                    st.apply(put("things", cx.agent[0].key, cx.object_term))
                    st.apply(put("thing_block", cx.agent[0].key, clause.block))
            if cx.object_text is None and cx.vessel is None and cx.agent and cx.action.key in _PASSING:
                # 佐食舉幹 尸受 … 佐食受 加于肵俎: what passes hand to hand is the thing last taken up
                last = self.steps[-1] if self.steps and self.steps[-1].block == clause.block else None
                handed = (
                    last is not None
                    and last.action.key == "action-shou-hand"
                    and last.recipient[:1] == cx.agent[:1]
                    and last.object_term is not None
                    and st.holdings.things.get(cx.agent[0].key) == last.object_term
                )
                giver = (
                    cx.agent[0].key
                    if cx.action.key == "action-shou-hand" or handed
                    else next(
                        (k for k in reversed(st.holdings.things) if k != cx.agent[0].key and self._in_hand(k, clause.block)),
                        None,
                    )
                )
                if giver is not None and giver in st.holdings.things:
                    cx.object_term = st.holdings.things[giver]
                    cx.object_text = cx.object_term.label
                    cx.decided["object"] = OBJECT_PASSED_HAND
                    if cx.action.key == "action-shou" and not handed:
                        st.apply(drop("things", giver))
                    elif cx.action.key == "action-shou-hand" and cx.recipient and cx.recipient[0].key != giver:
                        # 佐食摶黍授祝 祝授尸: handed over, it is in the receiver's hand
                        st.apply(drop("things", giver))
                        st.apply(put("things", cx.recipient[0].key, cx.object_term))
                        st.apply(put("taken_at", cx.recipient[0].key, len(self.steps)))
        if cx.object_text is None:
            cx.decided.pop("object", None)
        # a thing taken up stays in hand for the acts that follow, until it is put down
        if cx.agent and cx.action.key in _TAKING:
            st.apply(drop("thing_block", cx.agent[0].key))  # taken up, not a dish brought after the cup (從, above)
            if cx.object_term is not None and self._is_thing(cx.object_term):
                st.apply(drop("things", cx.agent[0].key))  # re-inserted last: the most recent holder comes last
                st.apply(put("things", cx.agent[0].key, cx.object_term))
                st.apply(put("taken_at", cx.agent[0].key, len(self.steps)))
        elif cx.agent and (
            cx.action.key in ("action-jia", "action-dian") or (cx.action.key == "action-zhi" and cx.vessel is not None)
        ):
            st.apply(drop("things", cx.agent[0].key))

    def _read_place_facing_mode(self, clause: Clause, cx: ClauseReading) -> None:
        """The place, facing, rank order, mode; an act done as at first."""
        prefix = clause.prefix
        # place and facing ------------------------------------------------------------------------
        cx.location = _place_label(cx.location_tok.text) if cx.location_tok is not None else None
        if cx.location is not None and cx.location_tok is not None:
            at = next((k for k, t in enumerate(clause.tokens) if t is cx.location_tok), None)
            if at and clause.tokens[at - 1].text in g.LEVEL_WITH:
                cx.location = clause.tokens[at - 1].text + cx.location  # 聘禮 受幣當東楹北面: level with the pillar
        if cx.location_tok is None:
            cx.decided.pop("location", None)
        cx.location_term = (
            self.term(cx.location_tok.concept)
            if cx.location_tok is not None and cx.location_tok.concept is not None and cx.location_tok.concept.kind == "place"
            else None
        )
        facing_tok = next((t for t in clause.tokens if t.kind == FACING), None)
        rank_tok = next((t for t in clause.tokens if t.kind == RANK), None)
        cx.facing = self.term(facing_tok.concept, facing_tok.text) if facing_tok and facing_tok.concept else None
        if cx.facing is not None:
            cx.decided["facing"] = FACING_WRITTEN
        if cx.vessel is not None:
            cx.decided["vessel"] = cx.vessel_rule
        if cx.wine is not None:
            cx.decided["wine"] = cx.wine_rule
        cx.rank = self.term(rank_tok.concept, rank_tok.text) if rank_tok and rank_tok.concept else None

        cx.summary = any(t.text in g.SUMMARY_ADVERBS for t in prefix)
        cx.mode = CONDITIONAL if cx.conditional else (NEGATED if cx.negated else ACTUAL)
        general = any(t.text in g.GENERAL_RULE for t in prefix)
        cx.decided["mode"] = (
            MODE_GENERAL if general else (MODE_CONDITION if cx.conditional else (MODE_NEGATED if cx.negated else MODE_ACTUAL))
        )
        cx.repeats = self._repeats(clause, cx.action_term, cx.agent)
        if (
            cx.repeats is not None
            and not cx.objects_persons
            and not cx.pp_persons
            and "初" in str(clause.flags.get("comparison") or "")
            and "action-toast" not in self.vocabulary.broader_closure(cx.action.key)  # a 獻 has its own rules (三獻如初)
        ):
            again = self.steps[cx.repeats - 1]
            if again.action.key == cx.action.key and again.recipient and not inferred(again, "recipient"):
                # 致如初: an act done as at first goes to whom it went at first (特牲 致于主人主婦 … 洗致如初)
                cx.recipient, cx.recipient_alt = again.recipient, False
                cx.notes[:] = [n for n in cx.notes if not n.startswith("recipient:")] + [
                    "recipient: as at first (如初): to whom it went then"
                ]
                cx.decided["recipient"] = RECIPIENT_AS_AT_FIRST

        if not cx.recipient and cx.decided.get("agent") == "agent.as-at-first":
            # 加皮弁如初儀: done as at first, to the one it was done to then (the capped son)
            first = self.first_time(clause, cx.action)
            if first is not None and first.recipient:
                cx.recipient, cx.recipient_alt = first.recipient, False
                cx.notes.append("recipient: as at first (如初): to whom it went then")
                cx.decided["recipient"] = RECIPIENT_FIRST_DOER

    def _make_step(self, clause: Clause, cx: ClauseReading) -> None:
        """The step, from what the parts read."""
        seq = len(self.steps) + 1
        # the step's place in the text's own structure: its classic block and its ordinal in it
        last = self.steps[-1] if self.steps else None
        ordinal = self._ordinal + 1 if last is not None and last.block == clause.block else 1
        self._ordinal = ordinal
        cx.step = Step(
            key=f"{self.document.rite}/{self.document.edition}/{clause.block}/{ordinal}",
            sequence=seq,
            block=clause.block,
            char_start=clause.start,
            char_end=clause.end,
            text=clause.text.translate(_NOT_READ),
            source=self.document.text[clause.start : clause.end],
            agent=cx.agent,
            agent_explicit=cx.agent_explicit,
            action=cx.action_term,
            recipient=cx.recipient,
            recipient_alternative=cx.recipient_alt,
            object=cx.object_text,
            object_term=cx.object_term,
            vessel=cx.vessel,
            wine=cx.wine,
            location=cx.location,
            location_term=cx.location_term,
            facing=cx.facing,
            rank_order=cx.rank,
            mode=cx.mode,
            negated=cx.negated,
            repeats=cx.repeats,
            section_start=bool(clause.flags.get("section_start")),
            summary=cx.summary,
            part=self.part,
            notes=tuple(cx.notes),
            why=tuple((f, cx.decided[f]) for f in FIELDS if f in cx.decided),
        )
        self.steps.append(cx.step)
        self._note_closing(cx.step)

    def _gone_out(self, persons: Sequence[Term]) -> bool:
        """True if the first of ``persons``, not the rite's opener, went out or withdrew (出, 退) in this paragraph or
        the one before and has not come back in (入) since (士喪 禭者入衣尸出 | 主人拜送如初): he has left the scene
        and does not do the next act (but one who only came down the steps, 降, is still there: 燕禮 笙…受爵降
        主人拜送爵 | 階前坐祭)."""
        if not persons or persons[0].key == self.profile.opener:
            return False  # (the rite's own opener goes on with it: 士冠 主人退 賔拜送 | 前期三日筮賔)
        return gone_out(self.steps, persons[0].key, 1)

    def _update_state(self, clause: Clause, cx: ClauseReading) -> None:
        """The reading state after the step: who is the topic, who gave what to whom."""
        st = self.state
        # update the reading state ---------------------------------------------------------------
        self._mention(cx.agent)
        st.apply(add("actors", (a.key for a in cx.agent if a.key)))
        self._mention(tuple(cx.objects_persons) + tuple(cx.pp_persons))
        stative = (
            cx.action.key in g.POSITION_VERBS
            and bool(st.topic.subject)
            and st.topic.subject[:1] != cx.agent[:1]
            and bool(cx.subject)
        )
        if cx.agent and cx.default_agent and cx.recipient and "action-toast" in self.vocabulary.broader_closure(cx.action.key):
            # 三醮 (by the rite's 賔, to the capped son): the one toasted goes on (嚌之 … 北面取脯)
            st.apply(set_("subject", cx.recipient))
        if cx.agent and not cx.default_agent and not cx.mutual and not stative:
            # after a mutual act (三讓) the actor before it goes on; so after where another stands (筮人
            # …即席坐西面 卦者在左 | 卒筮: the 筮人 completes the divining)
            st.apply(set_("subject", cx.led_by or cx.agent))  # (主人以賔升 | 拜至: the host, who led, bows)
            if cx.after is not None and cx.subject:
                st.apply(set_("subject", cx.subject))  # 私臣…獻次兄弟 | 升受降飲: the ones presented go up and receive
            if cx.action.key == "action-baisong" and cx.recipient and not cx.recipient_alt and not self._gone_out(cx.recipient):
                # the bow of sending off closes the giver's part: the receiver, cup in hand, goes on (but
                # one who has gone out is not there to go on: 士喪 禭者…出 | 主人拜送如初 | 唯君命出: the host)
                st.apply(set_("subject", cx.recipient))
            if (
                cx.action.key == "action-xu"
                and cx.recipient
                and not cx.recipient_alt
                and self._rank(cx.agent[0].key) > self._rank(cx.recipient[0].key)
            ):
                # 公许 告于賔: the ruler grants; the one who asked goes on (but 筮人許諾 | 右還: one who
                # accepts a charge from his senior goes on himself)
                st.apply(set_("subject", cx.recipient))
            if (
                not self._is_principal(cx.agent[0].key)
                and cx.recipient
                and self._is_principal(cx.recipient[0].key)
                and cx.action.key in _SERVING
                and not (self.profile.body is not None and cx.recipient[0].key == self.profile.body.role)  # the dead
            ):
                # an attendant's service (膳宰赞授肺) does not take over the topic: the person
                # served goes on (…不拜酒立卒爵: the ruler), unless the attendant moves next
                st.apply(set_("subject", cx.recipient))
                st.apply(set_("served_by", cx.agent))
        if cx.agent_alternative:
            cx.step = replace(cx.step, agent_alternative=True)
            self.steps[-1] = cx.step
        st.apply(put("last_agent_of", cx.action_term.key, cx.agent))
        if cx.action.key != "action-ming" or not cx.causative:
            st.apply(put("last_agent_of", cx.action.key, cx.agent))
        if (
            cx.agent
            and cx.recipient
            and not cx.recipient_alt
            and cx.action.flag("recipientRule") in ("other-party", "superior")
            and self._is_principal(cx.agent[0].key)
            and self._is_principal(cx.recipient[0].key)
            and cx.agent[0].key != cx.recipient[0].key
        ):
            st.apply(append("pairs", (cx.agent[0].key, cx.recipient[0].key)))
        if self.profile.general_subject is not None:
            if any(t.text in g.GENERAL_RULE for t in clause.prefix):
                st.apply(set_("general_open", True))
            if st.conditions.general_open and cx.agent:
                agents = {a.key for a in cx.agent}
                st.apply(
                    add(
                        "attended",
                        (t.key for t in (*(cx.pp_persons or ()), *(cx.objects_persons or ())) if t.key and t.key not in agents),
                    )
                )
        st.apply(put("by_action", cx.step.action.key, st.history.by_action.get(cx.step.action.key, ()) + (cx.step,)))
        return cx.step

    @staticmethod
    def _phrase_end(suffix: list[Token], i: int) -> int:
        """Where the 于/自 phrase opened at ``suffix[i]`` ends (exclusive): the persons, places and things after
        it, with a side of the thing or place (于醢北, 于阼階上, 筵于東序少北), not an extent (南北以堂深)."""
        t = suffix[i]
        j = i + 1
        while j < len(suffix) and (
            suffix[j].kind in (ROLE, PLACE, OTHER, OBJECT, VESSEL, ZHI, WINE)
            # 于醢北, 于阼階上, 實于左袂: a side of the thing or place is part of where
            or (
                suffix[j].kind == DIR
                and (j == i + 1 or (t.kind == YU and suffix[j - 1].kind in (PLACE, OBJECT, OTHER, VESSEL, ROLE)))
                # 於東榮 | 南北以堂深: two opposite directions are an extent, not a side (士冠)
                and not (
                    j + 1 < len(suffix)
                    and suffix[j].text + suffix[j + 1].text in g.EXTENTS
                    # 陳器于道東 西北上: a facing and rank order after the side, not an extent (既夕)
                    and not (j + 2 < len(suffix) and suffix[j + 2].kind in (RANK, DIR))
                )
            )
            # 筵于東序少北: "a little north of the east wall"
            or (
                t.kind == YU
                and suffix[j].text in g.SLIGHTLY
                and j + 1 < len(suffix)
                and suffix[j + 1].kind == DIR
                and suffix[j - 1].kind == PLACE
            )
            or (t.kind == YU and suffix[j].kind == DIR and suffix[j - 1].text in g.SLIGHTLY)
        ):
            j += 1
        return j

    def _phrase_after(
        self, suffix: list[Token], i: int, location_tok: Token | None, pp_persons: list[Term], decided: dict[str, str]
    ) -> tuple[int, Token | None, list[Term]]:
        """Read the 于/自 phrase at ``suffix[i]``: the persons it names go to ``pp_persons`` (献于公), the place it
        names is the location (拜于阼階上; 告期於賔之家; 㨎于醢: the whole phrase), the rule that set the place
        into ``decided``.  Returns the index after the phrase, the location token and the persons."""
        t = suffix[i]
        j = self._phrase_end(suffix, i)
        np = suffix[i + 1 : j]
        roles = self._persons(np)
        if roles and t.kind == YU:
            pp_persons.extend(roles)
        if t.kind == ZI and np and np[0].kind == DIR and location_tok is None:
            location_tok = np[0]  # 宰自右少退: from the right
            decided["location"] = LOCATION_FROM_SIDE
        if (
            t.kind == YU
            and len(np) >= 2
            and np[0].kind == ROLE
            and np[1].kind in (ZHI, DIR)
            and np[-1].kind in (PLACE, OTHER, DIR)
            and location_tok is None
        ):
            # 告期於賔之家 (to the guest, at his house), 錯篚于尸左席上 (on the mat at the 尸's
            # left): a place named by a person
            location_tok = Token("".join(x.text for x in np), np[0].start, np[-1].end, PLACE, np[-1].concept)
            decided["location"] = LOCATION_OF_PERSON
            if np[1].kind == DIR and roles:
                pp_persons = [p for p in pp_persons if p not in roles]  # 于尸左: a place, not a person
        for x in np:
            if x.kind == PLACE and location_tok is None:
                location_tok = x
                decided["location"] = LOCATION_YU_PLACE
            elif x.kind in (OBJECT, OTHER) and location_tok is None and any(c.kind == "place" for c in x.readings):
                location_tok = Token(x.text, x.start, x.end, PLACE, next(c for c in x.readings if c.kind == "place"))
                decided["location"] = LOCATION_THING_AS_PLACE
        if (
            t.kind == YU
            and not roles
            and np
            and all(x.kind in (PLACE, OTHER, OBJECT, VESSEL, DIR) or x.text in g.SLIGHTLY for x in np)
        ):
            # 于 + a thing is where the act puts it: 㨎于醢, 加于肵俎, 實于左袂 (the whole noun
            # phrase, its modifiers with it: 肵俎, not 俎)
            last_place = max((k for k, x in enumerate(np) if x.kind in (PLACE, DIR)), default=len(np) - 1)
            head = np[: last_place + 1]
            concept = location_tok.concept if location_tok is not None else None
            location_tok = Token("".join(x.text for x in head), head[0].start, head[-1].end, PLACE, concept)
            decided["location"] = LOCATION_YU_THING
        return max(j, i + 1), location_tok, pp_persons

    def _presented_next_after(self, action: Concept, suffix: list[Token]) -> tuple[Term, ...] | None:
        """The giver of a presentation written 獻次X ("presented next after X"): the one who presented
        to X last, else the rite's host; None if the clause is no such presentation."""
        if action.key != "action-xian" or not suffix or suffix[0].kind != ROLE:
            return None
        after = {c.key for c in suffix[0].readings if c.kind == "role"} or (
            {suffix[0].concept.key} if suffix[0].concept else set()
        )
        for giver, receiver in reversed(self.state.exchange.xians):
            if any(r.key in after for r in receiver) and giver:
                return giver
        host = self.profile.host
        return (self.term(self.vocabulary.concepts[host]),) if host in self.vocabulary.concepts else None

    def _narrated(self, act: str) -> Step | None:
        """The step of the narrative that the words of ``act`` go with: of the steps of that act told
        as done (not in a condition or variant; failing those, all of them), the one whose agent the
        text wrote last, else the most usual pair of agent and recipient, the later on a tie (士冠 宿曰…
        → 乃宿賔 by the host; 再加曰… → the 賔 who puts the cap on the capped son).  None if the act
        was not told."""
        told = [s for s in self._steps_of(act) if s.agent]
        done = [s for s in told if s.mode == ACTUAL] or told
        written = [s for s in done if s.agent_explicit]
        if written:
            return written[-1]
        count: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
        for s in done:
            pair = (tuple(t.key for t in s.agent), tuple(t.key for t in s.recipient))
            count[pair] = count.get(pair, 0) + 1
        best = None
        for s in done:  # in text order: the later of equals wins
            pair = (tuple(t.key for t in s.agent), tuple(t.key for t in s.recipient))
            if best is None or count[pair] >= count[(tuple(t.key for t in best.agent), tuple(t.key for t in best.recipient))]:
                best = s
        return best

    def _steps_of(self, act: str) -> list[Step]:
        """The steps so far of ``act`` (a concept key), in text order, not counting words said."""
        return [s for s in self.steps if s.action.key == act and s.decided("agent") != AGENT_SAYS_WORDS]

    def _variant_section(self, clause: Clause) -> None:
        """Open or close the variants of a rite at the head of a paragraph.

        Once the rite has closed (the chief guest has gone out and been seen off: 士冠 賔出主人送于外門外再拜),
        a paragraph that opens with 若 begins a variant of the rite (the 變禮: 若不醴則醮用酒, 若孤子,
        若庶子), and every paragraph after it is of that variant, whether or not it repeats the 若
        (士冠 81 尊于房户之間…, 84 冠者拜受…), until the next 若 opens another variant, or a paragraph
        of words (戒賔曰…, the 辭), the next day (公食 明日賔朝服以拜賜) or the 記 ends them.  Before the
        rite has closed, a 若 keeps to its clause and the block its consequent runs into (燕禮 若有诸公).
        """
        st = self.state
        if st.conditions.variant_open and any(t.kind == YUE for t in clause.tokens):
            st.apply(set_("variant_open", False))  # the words of the rite (戒賔曰…): not a variant's steps
        opening = "".join(t.text for t in clause.tokens[:3]).lstrip("○")
        if st.conditions.variant_open and any(opening.startswith(w) for w in g.NEW_DAY):
            st.apply(set_("variant_open", False))  # the next day (明日…): the rite goes on
        opens = next((t for t in clause.prefix if t.kind not in (MARK,)), None)
        if st.conditions.rite_closed and opens is not None and opens.kind == COND and opens.text not in g.CHOICE:
            st.apply(set_("variant_open", True))

    def _note_closing(self, step: Step) -> None:
        """The rite has closed when the host sees the chief guest off (送 with the chief guest as
        recipient, or after the guest has gone out: 士冠 賔出主人送于外門外, 鄉飲酒 賓出…主人送于門外) in
        the last paragraph of the narrative that does so (``closing_block``, found by the extractor
        before reading: an earlier send-off closes a stage, not the rite)."""
        guest = self.profile.chief_guest
        if self.part == "ji" or guest is None or step.action.key != "action-song" or step.block != self.closing_block:
            return
        if any(p.key == guest for p in step.recipient) or any(
            s.action.key == "action-chu" and any(p.key == guest for p in s.agent) for s in self.steps[-4:]
        ):
            self.state.apply(set_("rite_closed", True))

    def _make_conditional(self, index: int) -> None:

        s = self.steps[index]
        self.steps[index] = replace(s, mode=CONDITIONAL)

    # -- rules for unwritten fields ---------------------------------------------------------------

    def _is_thing(self, term: Term) -> bool:
        """A thing one takes up and passes on: a thing (肺, 黍, 卦) or a dish that is no cup (羊鉶, 豆, 籩:
        有司徹 取一羊鉶 坐 奠于韭菹西)."""
        return term.key.startswith("object-") or (term.key.startswith("vessel-") and not self.vocabulary.is_cup(term.key))

    def _in_hand(self, who: str, block: int) -> bool:
        """Whether the thing ``who`` holds (``things``) is still in his hand to pass on or show: a dish
        brought after the cup (以肝從) in this paragraph, or a thing taken up or handed to him at most
        :data:`HAND_SPAN` steps ago (士冠 書卦執以示主人 | 主人受 眡 反之, across a paragraph break);
        not a thing taken up long before (士喪 取醴酒 … 命筮者受: the 卦, not the wine)."""
        st = self.state
        if who not in st.holdings.things:
            return False
        if who in st.holdings.thing_block:
            return st.holdings.thing_block[who] == block
        return len(self.steps) - st.holdings.taken_at.get(who, -HAND_SPAN - 1) <= HAND_SPAN

    def _thing_just_named(self, block: int) -> tuple[Term | None, str] | None:
        """The thing the last steps of this paragraph were done to (a dish, a portion, a spoon: not a
        person, not a cup), as (term, written label), or None: what 之 refers to after 嘗, 覆, 執, 反 …
        (特牲 尸…祭鉶 | 嘗之: the soup pot; 士冠 加柶 | 覆之: the spoon)."""
        for s in islice(reversed(self.steps), 4):
            if s.block != block:
                return None
            term = s.object_term
            dish = term is not None and term.key.startswith("vessel-") and not self.vocabulary.is_cup(term.key)
            if term is not None and (term.key.startswith("object-") or dish) and s.object:
                return term, s.object
        return None

    def _repeats(self, clause: Clause, action: Term, agent: tuple[Term, ...]) -> int | None:
        """如初 / 如賔礼 / 如献卿之礼: the latest earlier step with the same act (or the act named in
        the comparison) and, if the comparison names a person, that person as agent or recipient."""
        text = clause.flags.get("comparison")
        if not text:
            return None
        named_roles = {c.key for lbl, cs in self.vocabulary.by_label.items() if lbl in str(text) for c in cs if c.kind == "role"}
        # the acts the comparison names, in the order it writes them (no set order decides: 如受賔酬之礼
        # names 受 and 酬; the step's own act, 受, is the one compared)
        named_acts = sorted(
            {
                (str(text).find(lbl), c.key)
                for lbl, cs in self.vocabulary.by_label.items()
                if lbl in str(text)
                for c in cs
                if c.kind == "action"
            }
        )
        keys = [k for _, k in named_acts]
        want_act = action.key if action.key in keys or not keys else keys[0]
        for s in reversed(self.state.history.by_action.get(want_act, ())):
            people = {t.key for t in s.agent + s.recipient}
            if named_roles and not (named_roles & people):
                continue
            return s.sequence
        return None

    def note_toast(self, giver: tuple[Term, ...], receiver: tuple[Term, ...], kind: str, alternative: bool = False) -> None:
        """Record a toast in the reading state (the served person, the 献 a 酢 returns)."""
        self.state.apply(set_("last_toast", (giver, receiver)))
        self.state.apply(set_("last_toast_alternative", alternative))
        if kind == "action-lvchou" and giver and receiver:
            self.state.apply(append("rounds", (giver, receiver)))
        if kind == "action-xian":
            self.state.apply(set_("last_xian", (giver, receiver)))
            if giver and receiver:
                self.state.apply(append("xians", (giver, receiver)))
        if giver and receiver and self._is_principal(giver[0].key) and self._is_principal(receiver[0].key):
            self.state.apply(append("pairs", (giver[0].key, receiver[0].key)))


_EITHER_KINDS = frozenset({ROLE, OTHER, OBJECT, VESSEL, NUM})
"""Words that 若 X 若 Y chooses between (persons, things, numbers): "either … or", not "if"."""

_DONE_TO_THAT = act_class("acts-done-to-that")

_POURING_ACTS = act_class("acts-pouring")

_TASTING_ACTS = act_class("acts-tasting")

_NOT_READ = str.maketrans("", "", "○\u3000")
"""Print layout a token may still hold, taken out of a step's ``text``: the ``○`` section mark and
the full-width space (U+3000) of indentation or of a gap in the line (有司徹 皆如儐禮　主人洗)."""

GENERAL_NOTE = "mode: a general rule (凡: whenever), not one act of the sequence"
POSITION = g.POSITION_VERBS
"""Verbs of being at a place (在): a bare direction after one is where (卦者在左)."""

_TAKING = act_class("acts-taking-up")

HAND_SPAN = 12
"""How many steps a thing taken up stays in hand to be passed on (受 from him) or shown: a paragraph's
worth of acts; a hand-off is written within a few (佐食摶黍 授祝 祝授尸 尸受)."""

_HELD_UP = act_class("acts-showing")

_PASSING = act_class("acts-passing")

_SERVING = act_class("acts-serving-a-person")


def _place_label(text: str) -> str:
    """A written place as the location label: 及庭 → 庭 (及 is 'reaching'), 至於廟門 → 廟門."""
    for lead in (*sorted(g.ARRIVING), *g.REACHING):
        if text.startswith(lead) and len(text) > len(lead):
            return text[len(lead) :]
    return text


_SPEAKING_TO_THE_LAST = act_class("acts-speaking-to-the-last")
