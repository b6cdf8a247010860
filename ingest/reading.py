"""What a reader of a rite remembers, and the lookups the rules make on it.

:class:`Reader` holds the reading state (:class:`~yili.ingest.discourse.DiscourseState`: the subject
being carried, the persons named, who exchanges cups with whom, who holds which cup) and answers the questions every
rule asks of it: which concept a written person names, who the other party of an exchange is,
who is the most senior person present.  The rules themselves are in :mod:`yili.ingest.agents`,
:mod:`yili.ingest.recipients` and :mod:`yili.ingest.cups`; :mod:`yili.ingest.resolver` puts them
together.
"""

from __future__ import annotations

from yili.ingest import grammar as g
from yili.ingest.discourse import DiscourseState
from yili.ingest.document import Document
from yili.ingest.steps import Step, Term
from yili.ingest.tokens import (
    ROLE,
    Token,
)
from yili.ontology.rites import RiteProfile
from yili.ontology.vocabulary import Concept, Vocabulary


class Reader:
    """The reading state of one document and the lookups on it (base of the rule mixins).

    Attributes
    ----------
    vocabulary : Vocabulary
    document : Document
    state : DiscourseState
        What the reader remembers (read-only here: only the runner applies changes to it).
    spellings : dict[str, str]
        Concept key → how this text writes that name (賔 for 賓), learned as it is read (:meth:`term`);
        the orthography of the edition, not part of the discourse state.
    steps : list[Step]
        The steps made so far, in order.
    hant : bool
        True if the document is in traditional characters (for default labels).
    profile : RiteProfile
        The rite's facts: its cast, default agents, who does not pour.
    """

    vocabulary: Vocabulary
    document: Document
    state: DiscourseState
    spellings: dict[str, str]
    steps: list[Step]
    hant: bool
    profile: RiteProfile
    _lookahead: dict[int, str]
    _next_has_subject: dict[int, bool]
    _later_ascent: dict[int, str | None]
    _agent_from_pivot: bool

    def _role_terms(self, tokens: list[Token]) -> tuple[Term, ...]:
        """Persons written in ``tokens`` (a subject or an object), in order, resolved.  Reads the state
        only; the elders a 其長 names are remembered by the runner (:meth:`elders_named`)."""
        out: list[Term] = []
        elders = self.state.topic.elders
        for k, t in enumerate(tokens):
            if t.kind != ROLE:
                continue
            if t.concept is None and k > 0 and tokens[k - 1].kind == ROLE and t.text[-1:] in g.PERSON_WORD:
                continue  # 笙一人拜於下: one of the 笙 just named (their leader), no one else
            presenter = self.numbered_presenter(t.text) if t.concept is None else None
            if presenter is not None:
                out.append(presenter)
            elif t.concept is None and t.text[:1] in g.THEIR and t.text[1:] in g.ELDEST:
                elders = self._elders_of(self.state.topic.owners)
                out.extend(elders)
            elif t.concept is None and t.text in g.ELDEST and elders:
                out.extend(elders)
            elif t.concept is not None and (doers := self._doers_of_named_act(t)):
                out.extend(doers)
            elif t.concept is not None:
                # a word read as a role it does not spell (利 for 佐食, 主人 for 壻 after 註 主人壻也)
                # is shown by the role's own label
                out.append(self.term(t.concept, t.text if t.text in t.concept.labels else None))
            else:
                ref = self._group_reference(exclude=tuple(out))
                if ref is not None:
                    out.append(ref)
        seen: list[Term] = []
        for t in out:
            if all(t.key != s.key for s in seen):
                seen.append(t)
        return tuple(seen)

    def elders_named(self, tokens: list[Token]) -> tuple[Term, ...] | None:
        """The persons the last 其長 of ``tokens`` names (舉觶于其長: the elders of the state's
        :attr:`~yili.ingest.discourse.Topic.owners`), as :meth:`_role_terms` reads them; None if no 其長 is
        written.  The runner remembers them (:attr:`~yili.ingest.discourse.Topic.elders`)."""
        found = None
        for k, t in enumerate(tokens):
            if t.kind != ROLE or t.concept is not None or not (t.text[:1] in g.THEIR and t.text[1:] in g.ELDEST):
                continue
            if k > 0 and tokens[k - 1].kind == ROLE and t.text[-1:] in g.PERSON_WORD:
                continue
            if self.numbered_presenter(t.text) is None:
                found = self._elders_of(self.state.topic.owners)
        return found

    def _doers_of_named_act(self, t: Token) -> tuple[Term, ...]:
        """A role named for an act (act + thing + 者) that is not of the rite's cast is whoever did that
        act in this paragraph, if someone did: 特牲 賓弟子及兄弟弟子洗 … 舉觶于其長 … 舉觶者祭: the juniors;
        else nothing, and the role stands for itself (鄉射 一人洗舉觶於賔 … 舉觶者坐: the 舉觶者)."""
        if t.concept is None or self.profile.in_cast(t.concept.key) or not t.text.endswith("者") or len(t.text) < 3:
            return ()
        act = t.text[:-1]
        for s in reversed(self.steps[-12:]):
            if s.block != self.steps[-1].block:
                break
            verb = self.concept(s.action.key)
            done_to = (s.object or "") + (s.vessel.label if s.vessel else "")
            did_it = verb is not None and any(act.startswith(v) and act[len(v) :] in done_to for v in verb.labels if v)
            if did_it and s.agent and all(a.key != t.concept.key for a in s.agent):
                return s.agent
        return ()

    def _elders_of(self, persons: tuple[Term, ...]) -> tuple[Term, ...]:
        """Each person's elder, in order (其長): the juniors of a side (賓弟子, 兄弟弟子: :data:`JUNIORS`)
        have the elder of that side, 長 + the side (長兄弟) if the vocabulary names one, else the
        side's head (賓; 注 賓取觶酬兄弟之黨 長兄弟取觶酬賓之黨); anyone else, 長 + his name, or
        himself."""
        out: list[Term] = []
        for p in persons:
            side = p.label
            for suffix in g.JUNIORS:
                side = side.removesuffix(suffix)
            found = None
            for name in (f"長{side}", side) if side else ():
                concept = next((c for c in self.vocabulary.by_label.get(name, ()) if c.kind == "role"), None)
                if concept is not None and concept.key != p.key:
                    found = self.term(concept)
                    break
            if found is not None and all(found.key != o.key for o in out):
                out.append(found)
        return tuple(out)

    def numbered_presenter(self, text: str) -> Term | None:
        """三獻 / 亞獻 as a person: the giver of that presentation to whom the first went (the 尸),
        counting distinct givers in order; None if the text is no such word or not so many were told."""
        if len(text) != 2 or text[0] not in "亞再三" or not self.state.exchange.xians:
            return None
        n = 3 if text[0] == "三" else 2
        first_receiver = self.state.exchange.xians[0][1][:1]
        givers: list[Term] = []
        for giver, receiver in self.state.exchange.xians:
            if receiver[:1] == first_receiver and giver and all(giver[0].key != x.key for x in givers):
                givers.append(giver[0])
        return givers[n - 1] if len(givers) >= n else None

    def _group_reference(self, exclude: tuple[Term, ...] = ()) -> Term | None:
        """一人 / 二人 / 长 / 其他 refer to the group last named (一人拜受爵: the leader of the 工;
        其他不拜: the other 士)."""
        keys = {e.key for e in exclude}
        for t in reversed(self.state.topic.mentions):
            if t.key not in keys:
                return t
        return None

    def _last_person_other_than(self, agents: tuple[Term, ...], principal: bool = False) -> Term | None:
        """之 as a person: the last person named who is not the agent (公降一等揖之: the guest); with
        ``principal``, the last party of the rite (no attendant)."""
        keys = {a.key for a in agents}
        for t in reversed(self.state.topic.mentions):
            if t.key not in keys and (not principal or self._is_principal(t.key)):
                return t
        return None

    def returned_xian(self, agents: tuple[Term, ...]) -> tuple[str, tuple[Term, ...]] | None:
        """Which 獻 a 酢 by ``agents`` returns, and how.

        The latest 獻 the agent took part in decides: if he received it, the 酢 goes back to its giver
        (``("return", giver)``: 賔…以酢主人); if he gave it, he pours the return toast for himself in
        the name of the one he toasted (``("self", receiver)``: 燕禮 主人…更爵…酢于阼階下, 注 更爵者不敢襲至尊也;
        特牲 主人更爵酌醋, 賓…受爵酌酢 註 主人酌自酢).  None if he took part in none.
        """
        keys = {a.key for a in agents}
        for giver, receiver in reversed(self.state.exchange.xians):
            if keys & {r.key for r in receiver}:
                return "return", giver
            if keys & {g.key for g in giver}:
                return "self", receiver
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
            for t in reversed(self.state.topic.block_mentions):
                if t.key != a and self._is_principal(t.key):
                    return t
            if self.state.exchange.last_toast is not None:
                receivers = self.state.exchange.last_toast[1]
                if receivers and receivers[0].key != a:
                    return receivers[0]
        for x, y in reversed(self.state.exchange.pairs):
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
        # only persons who have acted count: one merely named is not present (若有诸公)
        for key in sorted(self.state.history.actors):
            c = self.concept(key)
            if c is None or c.key in keys or not self.profile.in_cast(c.key):
                continue  # a person outside the rite's cast (a slip of the edition: 王人 for 主人) is no superior
            if best is None or int(c.flag("rank", 0) or 0) > int(best.flag("rank", 0) or 0):
                best = c
        return self.term(best) if best is not None else self.other_party(agents)

    def term(self, concept: Concept, written: str | None = None) -> Term:
        """A :class:`Term` for ``concept``: labelled as written, else as this text last wrote it."""
        if written:
            if len(written) == len(concept.hant):
                # a variant of the name (賔 for 賓) is how this text writes it; a longer form (上賔, 將冠者)
                # names the person in that place only
                self.spellings[concept.key] = written
            return Term(concept.key, written, concept.iri)
        label = self.spellings.get(concept.key) or (concept.hant if self.hant else concept.hans)
        return Term(concept.key, label, concept.iri)

    def concept(self, key: str) -> Concept | None:
        return self.vocabulary.concepts.get(key)


def looks_traditional(text: str) -> bool:
    """True if the text writes mostly traditional characters (獻, 階, 東 rather than 献, 阶, 东)."""
    trad = sum(text.count(c) for c in "獻階東實爵觶揖禮賓")
    simp = sum(text.count(c) for c in "献阶东实觯礼宾")
    return trad > simp
