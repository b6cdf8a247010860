"""Steps: one per clause, with who does what to whom, with which cup, where, facing where.

:class:`StepResolver` walks the clauses of a document in text order and fills each field by the
rules of the language, keeping the state a reader keeps: who is the subject being carried, who is
exchanging cups with whom, which cup each person holds, which wine is in it, whether a condition
is open.  Each rule is a method with the text or commentary that justifies it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yili.ingest import grammar as g
from yili.ingest.clauses import Clause
from yili.ingest.document import Document
from yili.ingest.tokens import (
    COND,
    CONJ,
    ER,
    FACING,
    NEG,
    OBJECT,
    OTHER,
    PLACE,
    RANK,
    ROLE,
    TAIL,
    THEN,
    VESSEL,
    WINE,
    YI,
    YU,
    ZHI,
    ZI,
    Token,
)
from yili.ontology.namespaces import mint
from yili.ontology.vocabulary import Concept, Vocabulary

ACTUAL, CONDITIONAL, NEGATED = "actual", "conditional", "negated"


@dataclass(frozen=True)
class Term:
    """A vocabulary term as it fills a field of a step.

    Attributes
    ----------
    key : str
        The concept key (``role-bin``), or ``""`` for a word that is not in the vocabulary.
    label : str
        The form to show: as written in this text where written (賔), else the form this text
        used last for the concept, else the concept's preferred label.
    iri : str | None
        The concept IRI.
    """

    key: str
    label: str
    iri: str | None = None


@dataclass(frozen=True)
class Step:
    """One ritual step (a clause-level event) of an edition.

    Attributes
    ----------
    key : str
        Stable key ``{rite}/{edition}/{char_start}``; the step's IRI is minted from it.
    sequence : int
        1-based order in the edition.
    block : int
        Classic block number.
    char_start, char_end : int
        Code points into the document text, 0-based, end-exclusive; ``text`` is that slice.
    text : str
    agent : tuple[Term, ...]
        Who acts; several for a joint agent (卿+大夫) or for alternatives (see ``agent_alternative``).
    agent_explicit : bool
        True when the agent is written in the clause.
    action : Term
    recipient : tuple[Term, ...]
        To whom the act is directed (empty if none).
    recipient_alternative : bool
        True when the recipients are alternatives (若賔若长: either), not joint.
    object : str | None
        The object as written, or the antecedent of 之, or the cup for elided cup objects.
    object_term : Term | None
        The object's concept when it is a vocabulary term.
    vessel, wine : Term | None
    location : str | None
        The place as written (西阶上); ``location_term`` is the place it is built on (西阶).
    location_term : Term | None
    facing, rank_order : Term | None
    mode : str
        ``actual``, ``conditional`` or ``negated`` (conditional wins; ``negated`` keeps the negation).
    negated : bool
    repeats : int | None
        The sequence number of the earlier step this one repeats (如初, 如賔礼), if found.
    section_start : bool
        True if a ``○`` section mark precedes the step.
    summary : bool
        True for a clause that repeats the act for the rest of a group (辩献卿).
    notes : tuple[str, ...]
        Which rules decided unwritten fields (``agent: carried``, ``recipient: other party``).
    """

    key: str
    sequence: int
    block: int
    char_start: int
    char_end: int
    text: str
    agent: tuple[Term, ...]
    agent_explicit: bool
    action: Term
    recipient: tuple[Term, ...] = ()
    recipient_alternative: bool = False
    object: str | None = None
    object_term: Term | None = None
    vessel: Term | None = None
    wine: Term | None = None
    location: str | None = None
    location_term: Term | None = None
    facing: Term | None = None
    rank_order: Term | None = None
    mode: str = ACTUAL
    negated: bool = False
    repeats: int | None = None
    section_start: bool = False
    summary: bool = False
    agent_alternative: bool = False
    notes: tuple[str, ...] = ()

    @property
    def agent_label(self) -> str | None:
        """Agents as one string: ``賔+卿+大夫`` (joint) or ``賔|长`` (either); None if unknown."""
        return _join(self.agent, self.agent_alternative)

    @property
    def recipient_label(self) -> str | None:
        """Recipients as one string (``+`` joint, ``|`` either); None if none."""
        return _join(self.recipient, self.recipient_alternative)

    def as_record(self) -> dict[str, Any]:
        """The step as a JSON-ready dict (term values are Chinese labels as the edition writes them;
        null where empty; ``id`` is the step's IRI)."""
        return {
            "id": str(mint("step", *self.key.split("/"))),
            "sequence": self.sequence,
            "block": self.block,
            "char_start": self.char_start,
            "char_end": self.char_end,
            "text": self.text,
            "agent": self.agent_label,
            "agent_explicit": self.agent_explicit,
            "action": self.action.label,
            "recipient": self.recipient_label,
            "object": self.object,
            "vessel": self.vessel.label if self.vessel else None,
            "wine": self.wine.label if self.wine else None,
            "location": self.location,
            "facing": self.facing.label if self.facing else None,
            "rank_order": self.rank_order.label if self.rank_order else None,
            "mode": self.mode,
            "negated": self.negated,
            "repeats": self.repeats,
            "summary": self.summary,
        }


def _join(terms: tuple[Term, ...], alternative: bool) -> str | None:
    if not terms:
        return None
    return ("|" if alternative else "+").join(t.label for t in terms)


@dataclass
class _State:
    """What a reader remembers while reading a rite in order."""

    subject: tuple[Term, ...] = ()
    mentions: list[Term] = field(default_factory=list)
    block_mentions: list[Term] = field(default_factory=list)
    before_condition: tuple[Term, ...] = ()
    pairs: list[tuple[str, str]] = field(default_factory=list)
    last_agent_of: dict[str, tuple[Term, ...]] = field(default_factory=dict)
    holder: dict[str, Term] = field(default_factory=dict)
    things: dict[str, Term] = field(default_factory=dict)
    last_holder: tuple[Term, ...] = ()
    served_by: tuple[Term, ...] = ()
    wine_in: dict[str, Term] = field(default_factory=dict)
    last_toast: tuple[tuple[Term, ...], tuple[Term, ...]] | None = None
    last_toast_alternative: bool = False
    last_xian: tuple[tuple[Term, ...], tuple[Term, ...]] | None = None
    pivot_agent: tuple[Term, ...] = ()
    pivot_commander: tuple[Term, ...] = ()
    last_alternatives: tuple[Term, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)
    condition_open: bool = False
    condition_continues: bool = False


class StepResolver:
    """Fill the fields of each clause's step from the clause and the reading state.

    Parameters
    ----------
    vocabulary : Vocabulary
    document : Document
        The edition (for keys and the script of default labels).
    """

    def __init__(self, vocabulary: Vocabulary, document: Document) -> None:
        self.vocabulary = vocabulary
        self.document = document
        self.state = _State()
        self.steps: list[Step] = []
        self.hant = _looks_traditional(document.text)
        self._lookahead: dict[int, str] = {}
        self._next_has_subject: dict[int, bool] = {}
        self._agent_from_pivot = False

    def set_lookahead(self, clauses: list[Clause]) -> None:
        """Tell the resolver the act that follows each clause in its block (for 揖升)."""
        for a, b in zip(clauses, clauses[1:], strict=False):
            if b.verb.concept is not None:
                self._lookahead[a.start] = b.verb.concept.key
                self._next_has_subject[a.start] = any(t.kind == ROLE for t in b.prefix)

    # -- terms ------------------------------------------------------------------------------
    def term(self, concept: Concept, written: str | None = None) -> Term:
        """A :class:`Term` for ``concept``: labelled as written, else as this text last wrote it."""
        if written:
            self.state.labels[concept.key] = written
            return Term(concept.key, written, concept.iri)
        label = self.state.labels.get(concept.key) or (concept.hant if self.hant else concept.hans)
        return Term(concept.key, label, concept.iri)

    def concept(self, key: str) -> Concept | None:
        return self.vocabulary.concepts.get(key)

    # -- people ------------------------------------------------------------------------------
    def _mention(self, terms: tuple[Term, ...]) -> None:
        for t in terms:
            if t.key:
                self.state.mentions.append(t)
                self.state.block_mentions.append(t)

    def _role_terms(self, tokens: list[Token]) -> tuple[Term, ...]:
        """Persons written in ``tokens`` (a subject or an object), in order, resolved."""
        out: list[Term] = []
        for t in tokens:
            if t.kind != ROLE:
                continue
            if t.concept is not None:
                out.append(self.term(t.concept, t.text))
            else:
                ref = self._group_reference(exclude=tuple(out))
                if ref is not None:
                    out.append(ref)
        seen: list[Term] = []
        for t in out:
            if all(t.key != s.key for s in seen):
                seen.append(t)
        return tuple(seen)

    def _group_reference(self, exclude: tuple[Term, ...] = ()) -> Term | None:
        """一人 / 二人 / 长 / 其他 refer to the group last named (一人拜受爵: the leader of the 工;
        其他不拜: the other 士)."""
        keys = {e.key for e in exclude}
        for t in reversed(self.state.mentions):
            if t.key not in keys:
                return t
        return None

    def _last_person_other_than(self, agents: tuple[Term, ...]) -> Term | None:
        """之 as a person: the last person named who is not the agent (公降一等揖之: the guest)."""
        keys = {a.key for a in agents}
        for t in reversed(self.state.mentions):
            if t.key not in keys:
                return t
        return None

    def _is_principal(self, key: str) -> bool:
        c = self.concept(key)
        return c is not None and not c.flag("attendant", False)

    def other_party(self, agents: tuple[Term, ...]) -> Term | None:
        """The other party of the exchange the agent is in.

        The latest pair of principals who bowed, toasted, declined or answered each other and that
        includes the agent gives the other; an attendant (膳宰, 小臣) acts for the person being
        served (the receiver of the latest toast); failing both, the last person named.
        """
        if not agents:
            return None
        a = agents[0].key
        if not self._is_principal(a):
            for t in reversed(self.state.block_mentions):
                if t.key != a and self._is_principal(t.key):
                    return t
            if self.state.last_toast is not None:
                receivers = self.state.last_toast[1]
                if receivers and receivers[0].key != a:
                    return receivers[0]
        for x, y in reversed(self.state.pairs):
            if x == a and y != a:
                return self._term_for_key(y)
            if y == a and x != a:
                return self._term_for_key(x)
        return self._last_person_other_than(agents)

    def _term_for_key(self, key: str) -> Term | None:
        c = self.concept(key)
        return self.term(c) if c is not None else None

    def superior(self, agents: tuple[Term, ...]) -> Term | None:
        """The most senior person named so far who is not the agent: to whom 请, 反命, 再拜稽首 go
        (注曰再拜稽首拜君命也)."""
        keys = {a.key for a in agents}
        best: Concept | None = None
        actors = {a.key for s in self.steps for a in s.agent}
        for t in self.state.mentions:
            if t.key not in actors:
                continue  # named but not present in person (若有诸公)
            c = self.concept(t.key)
            if c is None or c.key in keys:
                continue
            if best is None or int(c.flag("rank", 0) or 0) > int(best.flag("rank", 0) or 0):
                best = c
        return self.term(best) if best is not None else self.other_party(agents)

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
        st = self.state
        verb = clause.verb
        action = verb.concept
        assert action is not None
        notes: list[str] = []
        prefix, suffix = clause.prefix, clause.suffix

        # condition and negation --------------------------------------------------------------
        if first_in_block:
            st.block_mentions = []
            written_subject = any(t.kind == ROLE for t in prefix)
            st.condition_open = st.condition_continues and not written_subject
            if st.condition_open:
                notes.append("mode: condition continues from the previous block")
            st.condition_continues = False
        has_if = any(t.kind == COND and t.text not in g.CHOICE for t in clause.tokens)
        has_then = any(t.kind == THEN for t in clause.tokens)
        choice = any(t.text in g.CHOICE for t in clause.tokens)
        if has_if and not st.condition_open:
            st.before_condition = st.subject
        elif has_then and not has_if and self.steps and self.steps[-1].block == clause.block and len(self.steps) >= 2:
            # X有命则…: the clause before 则 was the condition; its subject is not carried past 则
            st.before_condition = self.steps[-2].agent
        if has_if or has_then:
            st.condition_open = True
            if has_then:
                st.condition_continues = True
                if not has_if and self.steps and self.steps[-1].block == clause.block:
                    self._make_conditional(len(self.steps) - 1)
        negated = any(t.kind == NEG for t in prefix) or any(t.kind == TAIL and t.text[:1] in g.NEGATORS for t in [verb])
        conditional = st.condition_open or choice or (has_if and not has_then)

        # agent --------------------------------------------------------------------------------
        n_if = sum(1 for t in clause.tokens if t.text == "若")

        def not_subject(k: int) -> bool:
            why = g.NOT_SUBJECT_BEFORE.get(prefix[k - 1].text) if k > 0 else None
            # 若 X 若 Y is "either X or Y"; a single 若 is "if" and its person is the subject (若君命)
            return why is not None and not (why == "alternative" and n_if < 2)

        subject_tokens = [t for k, t in enumerate(prefix) if t.kind == ROLE and not not_subject(k)]
        for k, t in enumerate(prefix):
            if t.kind == ROLE and k > 0 and g.NOT_SUBJECT_BEFORE.get(prefix[k - 1].text) == "existential":
                self._mention(self._role_terms([t]))
        for t in clause.tokens:
            # a person inside a place phrase is named (就旅食之尊而献之: 之 = the 旅食)
            if t.kind == PLACE:
                self._mention(tuple(self.term(c) for c in t.readings if c.kind == "role"))
        subject = self._role_terms(subject_tokens)
        agent_explicit = bool(subject) and all(t.concept is not None for t in subject_tokens)
        if subject and prefix and prefix[0].kind == CONJ and st.subject:
            # 賔反入 及卿大夫皆説屦: 及 adds persons to the one already acting
            subject = tuple(dict.fromkeys(st.subject + subject))
            agent_explicit = False
        agent = subject
        default_agent = False
        agent_alternative = False
        self._agent_from_pivot = False
        if not agent:
            agent, why = self._unwritten_agent(clause, action)
            self._agent_from_pivot = why.startswith("named by the pivot")
            default_agent = why.startswith("default agent")
            agent_alternative = why.endswith("(either)")
            notes.append(f"agent: {why}")
        st.pivot_agent = ()
        if subject or action.key not in g.MOTION_VERBS:
            st.served_by = ()

        # persons after the verb ----------------------------------------------------------------
        objects_persons: list[Term] = []
        pp_persons: list[Term] = []
        location_tok: Token | None = None
        object_tokens: list[Token] = []
        i = 0
        while i < len(suffix):
            t = suffix[i]
            if t.kind in (YU, ZI):
                j = i + 1
                while j < len(suffix) and suffix[j].kind in (ROLE, PLACE, OTHER, OBJECT, VESSEL, ZHI, WINE):
                    j += 1
                np = suffix[i + 1 : j]
                roles = self._role_terms(np)
                if roles and t.kind == YU:
                    pp_persons.extend(roles)
                for x in np:
                    if x.kind == PLACE and location_tok is None:
                        location_tok = x
                    elif x.kind in (OBJECT, OTHER) and location_tok is None and any(c.kind == "place" for c in x.readings):
                        location_tok = Token(x.text, x.start, x.end, PLACE, next(c for c in x.readings if c.kind == "place"))
                i = max(j, i + 1)
                continue
            if t.kind == ROLE and i + 1 < len(suffix) and suffix[i + 1].text in g.SPEECH:
                pass  # 命卿大夫君曰…: 君 is who the quoted words are from
            elif t.kind == ROLE and t.concept is None and action.key in _PERSON_AS_RECIPIENT:
                # 公命长: "the eldest" is what is commanded (choose the eldest), not a person addressed
                object_tokens.append(t)
            elif t.kind == ROLE:
                for p in self._role_terms([t]):
                    if all(p.key != q.key for q in objects_persons):
                        objects_persons.append(p)
            elif t.kind == ZHI or t.kind in (OBJECT, OTHER, VESSEL, WINE):
                object_tokens.append(t)
            elif t.kind == PLACE and location_tok is None:
                location_tok = t
            i += 1
        if location_tok is None:
            location_tok = next((t for t in prefix if t.kind == PLACE), None)

        causative = bool(clause.flags.get("causative"))
        # acts are shown by their concept's label (礼辞 → 辞, 至再拜 → 拜至, 吿 → 告); persons and cups
        # as written (賔, 爵)
        action_term = self.term(action)
        object_text: str | None = None
        object_term: Term | None = None
        if causative:
            # 射人升賔: the usher has the guest come up (大射礼 摈者以命升賔)
            ming = self.concept("action-ming")
            if ming is not None:
                action_term = self.term(ming)
                object_text = verb.text
                object_term = self.term(action, verb.text)
                notes.append("action: causative motion read as 命")
        elif clause.flags.get("verbal_object"):
            vo: Concept = clause.flags["verbal_object"]  # type: ignore[assignment]
            object_text = str(clause.flags.get("verbal_object_text") or vo.hans).lstrip("".join(g.ADVERBS))
            object_term = self.term(vo)
            if action.key in g.VERBAL_OBJECT_HEADS:
                object_text = vo.hans if vo.hans in object_text else object_text
        elif clause.flags.get("nominal_object"):
            object_text = str(clause.flags["nominal_object"])
        if clause.flags.get("sending_off") and self.concept("action-baisong") is not None:
            action = self.concept("action-baisong")  # type: ignore[assignment]
            action_term = self.term(action)

        # recipient -----------------------------------------------------------------------------
        if clause.flags.get("verbal_object"):
            pp_persons = []  # 请羞于诸公卿者: the persons belong to the act requested
            vo_role = self._role_named_for_act(clause.flags["verbal_object"])  # type: ignore[arg-type]
            if vo_role is not None and not objects_persons and action.flag("pivot"):
                # 君命皆致: those commanded are the ones named for the act (致者), who act next
                objects_persons = [vo_role]
        if (
            subject
            and isinstance(action.flag("defaultAgent"), str)
            and any(t.kind == ER for t in prefix)
            and object_tokens
            and object_tokens[0].kind == ZHI
            and not objects_persons
        ):
            # 祝史小臣师亦就其位而荐之: "as for X, (the server) serves them at their places" — 之 takes
            # up the persons named first; the act is the default agent's
            objects_persons = list(subject)
            agent = (self.term(self.vocabulary.concepts[str(action.flag("defaultAgent"))]),)
            agent_explicit = False
            default_agent = True
            object_tokens = [x for x in object_tokens if x.kind != ZHI]
            notes.append("agent: default agent; the persons named first are served (topic)")
        passive = self._passive_toast(action, agent, objects_persons, pp_persons, object_tokens)
        if passive is not None:
            # 衆賔獻 / 每一人獻: "the guests (each) are toasted" — the person named has just been the
            # receiver of this kind of toast and nobody is named after the verb
            objects_persons, agent = list(agent), passive
            agent_explicit = False
            notes.append("agent: toasted persons named before the verb (passive reading)")
        recipient, recipient_alt, recipient_why = self._recipient(
            action, agent, objects_persons, pp_persons, object_tokens, clause
        )
        if recipient_why:
            notes.append(f"recipient: {recipient_why}")
        if causative or (action.key == "action-ming" and objects_persons):
            recipient = tuple(objects_persons[:1]) if causative else recipient

        # pivot: 公命小臣辞 / 小臣作下大夫二人媵爵 — the person commanded is the agent of the next act
        if action.flag("pivot") and objects_persons:
            st.pivot_agent = tuple(objects_persons)
            st.pivot_commander = agent
            nxt = self._lookahead.get(clause.start)
            if (
                action.key == "action-ming"
                and object_text is None
                and nxt in self.vocabulary.concepts
                and not self._next_has_subject.get(clause.start, True)
            ):
                # 公命小臣辞: what is commanded is the next act
                object_text = self.term(self.vocabulary.concepts[nxt]).label

        # cups and wine --------------------------------------------------------------------------
        vessel, wine = self._cup(clause, action, agent, object_tokens, prefix, recipient)

        # object ------------------------------------------------------------------------------------
        if object_text is None:
            written = [t for t in object_tokens if t.kind in (OBJECT, OTHER, VESSEL, ROLE)]
            if written:
                object_text = "".join(t.text for t in written)
                if len(written) == 1 and written[0].concept is not None:
                    object_term = self.term(written[0].concept, written[0].text)
            elif any(t.kind == ZHI for t in object_tokens):
                if action.flag("cupAction") and vessel is not None and not action.flag("personObject"):
                    object_text = self._surface_cup(clause, vessel)
                elif recipient:
                    object_text = None
            instrument = self._instrument_cup(prefix)
            if object_text is None and instrument is not None and action.key in g.MOTION_VERBS:
                object_text = instrument  # 以虚爵降: he goes down with the empty cup
            if object_text is None and vessel is not None and prefix and prefix[-1].kind == YI and action.key in g.MOTION_VERBS:
                object_text = self._surface_cup(clause, vessel)  # 受爵以降: goes down with it
            if object_text is None and action.flag("cupAction") and vessel is not None and action.key in _CUP_OBJECT_ACTS:
                object_text = self._surface_cup(clause, None)
            if object_text is None and objects_persons and action.key not in _PERSON_AS_RECIPIENT:
                object_text = "+".join(p.label for p in objects_persons)
            if object_text is None:
                implied = action.flag("impliedObject")
                if isinstance(implied, str) and implied in self.vocabulary.concepts:
                    # 举幂 / 反幂: the cover is in the word
                    c = self.vocabulary.concepts[implied]
                    object_term = self.term(c)
                    object_text = object_term.label
            if object_text is None and action.key == "action-ci-decline" and recipient:
                object_text = self._declined_act(recipient)
            if object_text is None and action.key in _THING_ACTS:
                held_thing = st.things.get(agent[0].key) if agent else None
                if held_thing is not None:
                    object_term, object_text = held_thing, held_thing.label  # 取肺 … 絶 祭 哜之 加于俎
        # a thing taken up stays in hand for the acts that follow, until it is put down
        if agent and action.key == "action-qu" and object_term is not None and object_term.key.startswith("object-"):
            st.things[agent[0].key] = object_term
        elif agent and (action.key in ("action-jia", "action-dian") or (action.key == "action-zhi" and vessel is not None)):
            st.things.pop(agent[0].key, None)

        # place and facing ------------------------------------------------------------------------
        location = _place_label(location_tok.text) if location_tok is not None else None
        location_term = (
            self.term(location_tok.concept)
            if location_tok is not None and location_tok.concept is not None and location_tok.concept.kind == "place"
            else None
        )
        facing_tok = next((t for t in clause.tokens if t.kind == FACING), None)
        rank_tok = next((t for t in clause.tokens if t.kind == RANK), None)
        facing = self.term(facing_tok.concept, facing_tok.text) if facing_tok and facing_tok.concept else None
        rank = self.term(rank_tok.concept, rank_tok.text) if rank_tok and rank_tok.concept else None

        summary = any(t.text in g.SUMMARY_ADVERBS for t in prefix)
        mode = CONDITIONAL if conditional else (NEGATED if negated else ACTUAL)
        repeats = self._repeats(clause, action_term, agent)

        seq = len(self.steps) + 1
        step = Step(
            key=f"{self.document.rite}/{self.document.edition}/{clause.start}",
            sequence=seq,
            block=clause.block,
            char_start=clause.start,
            char_end=clause.end,
            text=clause.text,
            agent=agent,
            agent_explicit=agent_explicit,
            action=action_term,
            recipient=recipient,
            recipient_alternative=recipient_alt,
            object=object_text,
            object_term=object_term,
            vessel=vessel,
            wine=wine,
            location=location,
            location_term=location_term,
            facing=facing,
            rank_order=rank,
            mode=mode,
            negated=negated,
            repeats=repeats,
            section_start=bool(clause.flags.get("section_start")),
            summary=summary,
            notes=tuple(notes),
        )
        self.steps.append(step)

        # update the reading state ---------------------------------------------------------------
        self._mention(agent)
        self._mention(tuple(objects_persons) + tuple(pp_persons))
        if agent and not default_agent:
            st.subject = agent
            if action.key == "action-baisong" and recipient and not recipient_alt:
                # the bow of sending off closes the giver's part: the receiver, cup in hand, goes on
                st.subject = recipient
            if action.key == "action-xu" and recipient and not recipient_alt:
                # 公许 告于賔: the ruler grants; the one who asked goes on
                st.subject = recipient
            if (
                not self._is_principal(agent[0].key)
                and recipient
                and self._is_principal(recipient[0].key)
                and action.key in _SERVING
            ):
                # an attendant's service (膳宰赞授肺) does not take over the topic: the person
                # served goes on (…不拜酒立卒爵: the ruler), unless the attendant moves next
                st.subject = recipient
                st.served_by = agent
        if agent_alternative:
            from dataclasses import replace as _replace

            step = _replace(step, agent_alternative=True)
            self.steps[-1] = step
        st.last_agent_of[action_term.key] = agent
        if action.key != "action-ming" or not causative:
            st.last_agent_of[action.key] = agent
        if (
            agent
            and recipient
            and not recipient_alt
            and action.flag("recipientRule") in ("other-party", "superior")
            and self._is_principal(agent[0].key)
            and self._is_principal(recipient[0].key)
            and agent[0].key != recipient[0].key
        ):
            st.pairs.append((agent[0].key, recipient[0].key))
        return step

    def _make_conditional(self, index: int) -> None:
        from dataclasses import replace

        s = self.steps[index]
        self.steps[index] = replace(s, mode=CONDITIONAL)

    # -- rules for unwritten fields ---------------------------------------------------------------
    def _unwritten_agent(self, clause: Clause, action: Concept) -> tuple[tuple[Term, ...], str]:
        """The agent of a clause with no written subject.

        In order:

        1. the person a pivot verb just named (公命小臣 | 辞: the 小臣 declines);
        2. 卒X completes the act X begun by someone (主人盥 … 賔对 卒盥: the host finishes washing);
        3. a reply (答拜, 对) answers the act of the other party: if the carried subject made the act
           being answered, the reply is the other party's (賔拜洗 主人 … 答拜 stays with the host;
           主人辞降 … 对 is the guest's);
        4. 反命 (report back) is by whoever carried the command (射人命賔 … 反命);
        5. a default agent given in the vocabulary for the act (荐 → 膳宰, after 燕礼记
           凡荐与羞者小膳宰也; 席 → 司宫);
        6. the subject carried over from the last clause (主人北面盥 | 坐 | 取觚: all the host's);
        7. at the opening of a rite with nobody named yet, the most senior person of the text.
        """
        st = self.state
        if st.pivot_agent:
            return st.pivot_agent, "named by the pivot verb before it"
        if any(t.kind == THEN for t in clause.prefix) and not any(t.kind == COND for t in clause.tokens) and st.before_condition:
            # 公有命则不易不洗: the condition's subject is not carried past 则
            return st.before_condition, "carried over from before the condition"
        named = self._role_named_for(clause)
        if named is not None:
            return (named,), "default agent: the role named for this act"
        if action.key in _DRINKING and st.subject:
            # 卒爵 completes the drinking begun (主人坐祭遂饮 賔辞 卒爵: the host drains the cup)
            for s in reversed(self.steps):
                if s.block != clause.block:
                    break
                if s.action.key in _DRINK_BEGIN and s.agent:
                    if s.agent[0].key != st.subject[0].key:
                        return s.agent, "completes the drinking he began"
                    break
            if st.subject[0].key not in st.holder and st.last_holder and st.last_holder[0].key != st.subject[0].key:
                return st.last_holder, "holds the cup"
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
        if "action-toast" in closure and action.key != "action-zuo":
            if action.key == "action-lvchou" and st.last_toast is not None and st.last_toast[1]:
                # the pledge is passed on by the one who has just received it (以旅于西阶上)
                if st.last_toast_alternative:
                    return st.last_toast[1], "passes on the pledge he received (either)"
                return st.last_toast[1], "passes on the pledge he received"
            for s in reversed(self.steps):
                if s.action.key == action.key and s.agent:
                    # the same toast is given by the same giver until another is named
                    # (主人 is the 献主 throughout: 注曰主人宰夫也; 辩献卿 repeats 主人's 献)
                    return s.agent, "gives this kind of toast, as before"
        if clause.flags.get("completive") and action.key in st.last_agent_of:
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
        if action.key in _OFFICE_ACTS and not continues and (opens_block or any(t.kind == COND for t in clause.prefix)):
            # a paragraph (or a condition) that opens with 请 / 命 and no subject: by whoever made
            # the last such request or command (小臣请…, 公命…), within a few blocks; inside a
            # paragraph the actor goes on (升自西阶 … 请彻俎), and so after 乃/遂 (乃命执幂者)
            for s in reversed(self.steps):
                if s.block < clause.block - 4:
                    break
                if any(n.startswith("action: causative") for n in s.notes):
                    continue  # 射人升卿 is read as 命 but is no command of office
                if s.action.key == action.key and s.agent:
                    return s.agent, "makes this request or command, as before"
        if (
            action.key in _CUP_PREPARATION
            and st.subject
            and any((c := self.concept(a.key)) is not None and c.flag("doesNotPour") for a in st.subject)
        ):
            # 君尊不酌: the ruler does not wash, fill or pour; the other party does
            preparer = self.other_party(st.subject)
            if preparer is not None:
                return (preparer,), "the ruler does not prepare the cup (注 君尊不酌)"
        if action.key == "action-fanming":
            for s in reversed(self.steps):
                if s.action.key == "action-ming" and s.agent and s.agent[0].key != "role-gong":
                    return s.agent, "reports back the command he carried"
        default = action.flag("defaultAgent")
        if isinstance(default, str) and default in self.vocabulary.concepts:
            return (self.term(self.vocabulary.concepts[default]),), "default agent"
        if st.served_by and action.key in g.MOTION_VERBS:
            # 膳宰设折俎 升自西阶: the server himself goes up
            return st.served_by, "the server moves on"
        if st.subject:
            return st.subject, "carried over"
        senior = max(
            (c for c in self.vocabulary.of_kind("role") if any(lbl in self.document.text for lbl in c.labels)),
            key=lambda c: int(c.flag("rank", 0) or 0),
            default=None,
        )
        return ((self.term(senior),) if senior else ()), "most senior person of the text"

    def _passive_toast(
        self,
        action: Concept,
        agent: tuple[Term, ...],
        objects_persons: list[Term],
        pp_persons: list[Term],
        object_tokens: list[Token],
    ) -> tuple[Term, ...] | None:
        """The giver, if a toast clause is passive: its subject received the last toast of this
        kind and no person follows the verb (主人獻衆賔 … 衆賔獻: the guests are toasted)."""
        if objects_persons or pp_persons or any(t.kind == ZHI for t in object_tokens) or not agent:
            return None
        if "action-toast" not in self.vocabulary.broader_closure(action.key) or action.key == "action-zuo":
            return None
        for s in reversed(self.steps):
            if s.action.key == action.key and s.recipient and s.agent:
                if s.recipient[0].key == agent[0].key and s.agent[0].key != agent[0].key:
                    return s.agent
                return None
        return None

    def _role_named_for(self, clause: Clause) -> Term | None:
        """A role whose name is the act + 者 does the act: 执幂 → 执幂者, 羞膳 → 羞膳者, 媵爵 → 媵爵者."""
        verb = clause.verb
        rest = "".join(t.text for t in clause.suffix[:1] if t.kind in (OBJECT, OTHER, VESSEL, ROLE))
        for form in (verb.text + rest,) if rest else (verb.text,):
            cs = self.vocabulary.by_label.get(form + "者", ())
            for c in cs:
                if c.kind == "role":
                    return self.term(c)
        return None

    def _role_named_for_act(self, act: Concept) -> Term | None:
        """The role named act + 者 (致 → 致者 = 媵爵者), if any."""
        for label in act.labels:
            for c in self.vocabulary.by_label.get(label + "者", ()):
                if c.kind == "role":
                    return self.term(c)
        return None

    def _next_is_ascent(self, clause: Clause) -> bool:
        nxt = self._lookahead.get(clause.start)
        return nxt == "action-sheng"

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
        zhi_first = bool(object_tokens) and object_tokens[0].kind == ZHI
        if action.key in _PERSON_AS_RECIPIENT or action.flag("personObject") or action.flag("recipientRule") != "none":
            if objects_persons and action.key in _PERSON_AS_RECIPIENT and not (zhi_first and action.flag("personObject")):
                return tuple(objects_persons), False, None
            if pp_persons:
                return tuple(pp_persons), False, None
            if any(t.kind == ZHI for t in object_tokens) and action.flag("personObject"):
                p = self._last_person_other_than(agent)
                if p is not None:
                    return (p,), False, "之 = the last person named"
        alternatives = self._alternatives(clause)
        if alternatives:
            self.state.last_alternatives = alternatives
            return alternatives, True, "either of the persons after 若…若"
        if any(t.text in g.CHOICE for t in clause.tokens) and self.state.last_alternatives:
            # 唯公所赐 again: the ruler chooses among the same persons as before (若賔若长)
            return self.state.last_alternatives, True, "either of the persons offered before"
        rule = action.flag("recipientRule", "none")
        if action.key in ("action-shou", "action-baishou"):
            nominal = clause.flags.get("nominal_object")
            if nominal in ("命",):
                p = self.superior(agent)
                return ((p,) if p else ()), False, "a command is received from the superior"
            lt = self.state.last_toast
            if lt is not None and lt[0] and agent and (nominal in ("旅", "酬") or any(r.key == agent[0].key for r in lt[1])):
                if lt[0][0].key != agent[0].key:
                    return lt[0][:1], False, "receives from the giver of the toast"
        if action.key == "action-zuo" and self.state.last_xian is not None:
            giver, _receiver = self.state.last_xian
            return giver, False, "the return toast goes to who gave the 献"
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
                return (), False, None
            rule = "other-party"
        if rule == "other-party" and self._agent_from_pivot:
            # 公命小臣辞: the servant declines, for the ruler, to the ruler's other party
            p = self.other_party(self.state.pivot_commander)
            if p is not None and all(p.key != a.key for a in agent):
                return (p,), False, "to the other party of the one who commanded it"
        if rule == "other-party":
            p = self.other_party(agent)
            return ((p,) if p else ()), False, "other party of the exchange"
        if rule == "superior":
            p = self.superior(agent)
            return ((p,) if p else ()), False, "the most senior person present"
        if rule == "served" and self.state.last_toast is not None:
            return self.state.last_toast[1], False, "the one just toasted is served"
        return (), False, None

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

    def _cup(
        self,
        clause: Clause,
        action: Concept,
        agent: tuple[Term, ...],
        object_tokens: list[Token],
        prefix: list[Token],
        recipient: tuple[Term, ...],
    ) -> tuple[Term | None, Term | None]:
        """The cup and the wine of a clause.

        The cup written in the clause (取觚, 以虚爵降); else, for an act with a cup
        (``yk:cupAction``), the cup the agent took up and has not put away (a state per person:
        取觚 … 奠觚于篚), so that 主人筵前献賔 knows the cup is the 觚 washed before; else the last
        cup written earlier in the block.  A cup handed over (献, 酢, 酬, 授) passes to the receiver.
        The wine written (酌膳, 实散) fills the agent's cup and goes with it to the toast.
        """
        st = self.state
        who = agent[0].key if agent else ""
        written = [t for t in clause.tokens if t.kind == VESSEL and t.concept is not None]
        wine_tok = next((t for t in clause.tokens if t.kind == WINE and t.concept is not None), None)
        vessel: Term | None = None
        if written and action.key == "action-baisong" and recipient and recipient[0].key in st.holder:
            # 拜送爵: the cup named is the one just sent, now in the receiver's hands
            sent = st.holder[recipient[0].key]
            vessel = sent if written[0].concept.key == "vessel-jue" else self.term(written[0].concept, written[0].text)  # type: ignore[union-attr, arg-type]
        elif written and action.key in ("action-shou", "action-baishou") and recipient and recipient[0].key in st.holder:
            # 拜受爵 / 受爵: the cup comes from the giver's hands (a generic 爵 is that cup)
            given = st.holder.pop(recipient[0].key)
            vessel = given if written[0].concept.key == "vessel-jue" else self.term(written[0].concept, written[0].text)  # type: ignore[union-attr, arg-type]
            st.holder[who] = vessel
            if recipient[0].key in st.wine_in:
                st.wine_in[who] = st.wine_in.pop(recipient[0].key)
        elif written:
            t = written[0]
            vessel = self.term(t.concept, t.text)  # type: ignore[arg-type]
            held = st.holder.get(who)
            # a generic 爵 names the cup in hand when that is a narrower cup (疏 觚亦称爵)
            if (
                held is not None
                and t.concept.key == "vessel-jue"
                and held.key != "vessel-jue"
                and action.key not in ("action-geng", "action-yi-change")
            ):
                vessel = held
            elif action.key not in ("action-dian",) or who not in st.holder:
                st.holder[who] = vessel
        elif (
            action.flag("cupAction")
            and not self._names_other_thing(object_tokens)
            and (action.key != "action-jiang" or (prefix and prefix[-1].kind == YI))
        ):
            # (以降: going down with it, the cup in hand)
            vessel = st.holder.get(who)
            if vessel is None:
                # 坐奠觚于篚 兴 对 卒洗: finishing an interrupted act takes up the same cup again
                completing = bool(clause.flags.get("completive"))
                vessel = self._block_cup(clause.block, through_basket=completing)
                if completing and vessel is not None and who:
                    st.holder[who] = vessel
        wine: Term | None = None
        if wine_tok is not None:
            wine = self.term(wine_tok.concept, wine_tok.text)  # type: ignore[arg-type]
            st.wine_in[who] = wine
        elif action.flag("cupAction") and action.key != "action-jiang":
            wine = st.wine_in.get(who)
        if vessel is not None and who in st.holder and agent:
            st.last_holder = agent
        # cups change hands
        if action.key in _HANDING and recipient and vessel is not None and recipient[0].key != who:
            st.holder[recipient[0].key] = vessel
            st.holder.pop(who, None)
            if wine is not None:
                st.wine_in[recipient[0].key] = wine
        if action.key in ("action-shou", "action-baishou") and recipient and recipient[0].key in st.holder and not written:
            vessel = st.holder[recipient[0].key]
            st.holder[who] = vessel
            st.holder.pop(recipient[0].key, None)
            st.last_holder = agent
            if recipient[0].key in st.wine_in:
                wine = st.wine_in[recipient[0].key]
                st.wine_in[who] = wine
        if action.key in ("action-xi",):
            st.wine_in.pop(who, None)
        loc = " ".join(t.text for t in clause.tokens if t.kind == PLACE)
        if action.key == "action-dian" and "篚" in loc:
            st.holder.pop(who, None)
            st.wine_in.pop(who, None)
        if action.key in ("action-geng", "action-yi-change"):
            st.wine_in.pop(who, None)
        if not action.flag("cupAction"):
            return None, wine if wine_tok is not None else None
        return vessel, wine

    @staticmethod
    def _names_other_thing(object_tokens: list[Token]) -> bool:
        """True if the clause's object is a thing that is not a cup nor its wine (授肺, 祭脯醢, 取俎):
        then the act does not involve the cup in hand."""
        for t in object_tokens:
            if t.kind == OBJECT and t.concept is not None and t.concept.key not in _CUP_CONTENTS:
                return True
            if t.kind == OTHER:
                return True
        return False

    def _block_cup(self, block: int, through_basket: bool = False) -> Term | None:
        """The last cup of an earlier step in the block, unless it was put away in the basket
        (``through_basket`` looks past that, for an act being completed)."""
        for s in reversed(self.steps):
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
        for s in reversed(self.steps):
            if s.block != clause.block:
                break
            if not completing and s.action.key == "action-dian" and s.location and s.location.endswith("篚"):
                break
            written = self._written_cup(s.text)
            if written:
                return written
        return default.label if default is not None else None

    def _written_cup(self, text: str) -> str | None:
        """The longest cup name written in ``text``, not counting role names and idioms that
        contain one (媵爵者, 既爵)."""
        for label, cs in self.vocabulary.by_label.items():
            if any(c.kind == "role" for c in cs) and len(label) > 1:
                text = text.replace(label, "")
        for idiom in g.IDIOMS:
            text = text.replace(idiom, "")
        found = None
        for label, cs in self.vocabulary.by_label.items():
            if any(c.kind == "vessel" for c in cs) and label in text and (found is None or len(label) > len(found)):
                found = label
        return found

    def _instrument_cup(self, prefix: list[Token]) -> str | None:
        """The cup after 以 in the prefix (以虚爵降): its written name."""
        for k, t in enumerate(prefix):
            if t.kind == YI:
                rest = [x for x in prefix[k + 1 :] if x.kind in (VESSEL, OTHER)]
                if any(x.kind == VESSEL for x in rest):
                    return next(x.text for x in rest if x.kind == VESSEL)
        return None

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

    def _repeats(self, clause: Clause, action: Term, agent: tuple[Term, ...]) -> int | None:
        """如初 / 如賔礼 / 如献卿之礼: the latest earlier step with the same act (or the act named in
        the comparison) and, if the comparison names a person, that person as agent or recipient."""
        text = clause.flags.get("comparison")
        if not text:
            return None
        named_roles = {c.key for lbl, cs in self.vocabulary.by_label.items() if lbl in str(text) for c in cs if c.kind == "role"}
        named_acts = {c.key for lbl, cs in self.vocabulary.by_label.items() if lbl in str(text) for c in cs if c.kind == "action"}
        want_act = next(iter(named_acts), action.key)
        for s in reversed(self.steps):
            if s.action.key != want_act:
                continue
            people = {t.key for t in s.agent + s.recipient}
            if named_roles and not (named_roles & people):
                continue
            return s.sequence
        return None

    def note_toast(self, giver: tuple[Term, ...], receiver: tuple[Term, ...], kind: str, alternative: bool = False) -> None:
        """Record a toast in the reading state (the served person, the 献 a 酢 returns)."""
        self.state.last_toast = (giver, receiver)
        self.state.last_toast_alternative = alternative
        if kind == "action-xian":
            self.state.last_xian = (giver, receiver)
        if giver and receiver and self._is_principal(giver[0].key) and self._is_principal(receiver[0].key):
            self.state.pairs.append((giver[0].key, receiver[0].key))


_HANDING = frozenset(
    {"action-xian", "action-zuo", "action-chou", "action-ying", "action-shou-hand", "action-ci", "action-lvchou"}
)
"""Acts that put the cup in the receiver's hands."""

_ANSWERS = {
    "action-dabai": frozenset({"action-bai"}),
    "action-dazaibai": frozenset({"action-bai"}),
    "action-dui": frozenset({"action-ci-decline", "action-ming"}),
    "action-xu": frozenset({"action-ming", "action-qing", "action-ci-decline"}),
    "action-ming": frozenset({"action-qing"}),
}
"""What each answering act answers: a bow, a refusal, a command, a request."""

_OFFICE_ACTS = frozenset({"action-qing", "action-ming"})
"""Requests and commands, made by whoever holds that office in the rite (小臣请, 公命)."""

_CUP_PREPARATION = frozenset({"action-xi", "action-zhuo", "action-shi-fill", "action-guan"})
"""Washing, pouring, filling (and washing the hands for it): never the ruler's (注 君尊不酌)."""

_THING_ACTS = frozenset({"action-jue", "action-ji", "action-ji-taste", "action-jia", "action-dian"})
"""Acts on the thing in hand (取肺 … 絶 祭 哜之 加于俎: the lung)."""

_DRINKING = frozenset({"action-zujue", "action-yin", "action-cui"})
"""Drinking acts: done by whoever holds the cup."""

_CUP_CONTENTS = frozenset({"object-jiu", "object-zhi-fine"})
"""Objects that are what is in the cup (祭酒, 啐酒, 告旨): the cup is still involved."""

_DRINK_BEGIN = frozenset({"action-yin", "action-cui", "action-ji"})
"""Acts that begin a drink: 饮, 啐, 祭 (the libation before drinking)."""

_SERVING = frozenset({"action-shou-hand", "action-jian", "action-she"})
"""An attendant's service to a person: 授 (赞授), 荐, 设."""

_CUP_OBJECT_ACTS = frozenset(
    {
        "action-dian",
        "action-xi",
        "action-shi-fill",
        "action-zhi",
        "action-shou",
        "action-shou-hand",
        "action-qu",
        "action-ju",
        "action-geng",
        "action-yi-change",
        "action-baishou",
        "action-baisong",
    }
)
"""Acts whose elided object is the cup (奠, 洗, 实, 执, 受, 授, 取, 举, 更, 易; 拜受爵, 拜送爵)."""

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


def _person_object_keys(vocabulary: Vocabulary) -> frozenset[str]:
    return frozenset(c.key for c in vocabulary.of_kind("action") if c.flag("personObject"))


def _place_label(text: str) -> str:
    """A written place as the location label: 及庭 → 庭 (及 is 'reaching')."""
    for lead in g.REACHING:
        if text.startswith(lead) and len(text) > len(lead):
            return text[len(lead) :]
    return text


def _looks_traditional(text: str) -> bool:
    """True if the text writes mostly traditional characters (獻, 階, 東 rather than 献, 阶, 东)."""
    trad = sum(text.count(c) for c in "獻階東實爵觶揖禮賓")
    simp = sum(text.count(c) for c in "献阶东实觯礼宾")
    return trad > simp
