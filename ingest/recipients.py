"""To whom an act goes: written persons, alternatives, and the act's ``yk:recipientRule``: the rules
:data:`RECIPIENT_RULES`, tried in order by :func:`yili.ingest.rules.first_answer`, and the lookups they
make on the reading state (:class:`RecipientRules`)."""

from __future__ import annotations

from dataclasses import dataclass

from yili.ingest import grammar as g
from yili.ingest.clauses import Clause
from yili.ingest.discourse import set_
from yili.ingest.reading import Reader
from yili.ingest.rules import Decision, Rule, decision, first_answer, rule
from yili.ingest.steps import Term
from yili.ingest.tokens import (
    COND,
    OBJECT,
    OTHER,
    PLACE,
    ROLE,
    VESSEL,
    WINE,
    YU,
    ZHI,
    Token,
)
from yili.ontology.act_classes import act_class
from yili.ontology.vocabulary import Concept

_ANSWERS = {
    "action-dabai": frozenset({"action-bai"}),
    "action-dazaibai": frozenset({"action-bai"}),
    "action-dui": frozenset({"action-ci-decline", "action-ming", "action-jie", "action-su-lodge", "action-gao"}),
    "action-xu": frozenset({"action-ming", "action-qing", "action-ci-decline"}),
    "action-ming": frozenset({"action-qing"}),
}
"""What each answering act answers: a bow, a refusal, a command, a request."""

_PERSON_AS_RECIPIENT = act_class("acts-to-the-person-written")

_BOWS = act_class("acts-bowing-to-a-person")

# -- recipients decided in the resolver after RECIPIENT_RULES (overriding their answer) --
RECIPIENT_NAMED_BEFORE = decision(
    "recipient.named-before",
    "特牲 長兄弟西階前北面 衆賓長自左受旅",
    "受 with a person named apart before: received from him.",
    tags=("inferred",),
)
RECIPIENT_LAST_SPEAKER = decision(
    "recipient.last-speaker", "士冠 主人曰…: a reply", "Words said by a named speaker go to who spoke last.", tags=("inferred",)
)
RECIPIENT_WORDS_OF_ACT = decision(
    "recipient.words-of-act",
    "士冠 再加曰…: to the capped son",
    "The words of an act go to whom the act went.",
    tags=("inferred",),
)
RECIPIENT_MUTUAL = decision(
    "recipient.mutual",
    "鄉飲酒 三讓: the parties to each other",
    "A mutual act of several agents has no other recipient.",
    tags=("inferred",),
)
RECIPIENT_CAUSATIVE = decision(
    "recipient.causative", "大射礼 射人升賔 (摈者以命升賔)", "A causative motion: the person made to move is commanded."
)
RECIPIENT_SENT = decision(
    "recipient.sent",
    "士喪 君使人弔 … 弔者入 (註 使人士也)",
    "The 人 a pivot verb sends: the one named for the act (V者).",
    tags=("inferred",),
)
RECIPIENT_AS_AT_FIRST = decision(
    "recipient.as-at-first",
    "特牲 致于主人主婦 … 洗致如初",
    "An act done as at first (如初) goes to whom it went at first.",
    tags=("inferred", "as-at-first"),
)
RECIPIENT_FIRST_DOER = decision(
    "recipient.first-doer",
    "士冠 加皮弁如初儀: to the capped son",
    "An act whose doer is found as at first goes to whom it went then.",
    tags=("inferred", "as-at-first"),
)


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
            # (衣尸: the body clothed is the object of an act done to it, yk:onTheBody "object")
            or bool(
                action.flag("personObject")
                and action.flag("recipientRule") != "superior"
                and action.flag("onTheBody") != "object"
            )
        )

    def _recipient(self, query: RecipientQuery) -> tuple[Decision, Rule]:
        """To whom the act goes: the first of :data:`RECIPIENT_RULES` that answers (the last,
        :func:`none`, always does).

        Written persons first: the person object (献賔, 揖之), then a 于-person (献于公, 媵觚于賔).
        若X若Y gives alternatives (若賔若长唯公所酬). Else by the act's ``yk:recipientRule``:
        ``other-party`` (bows, 辞, 对, 受 from, 拜送 to), ``superior`` (请, 反命, 再拜稽首, 媵: to the
        most senior present), ``served`` (荐, 设: the one who has just been toasted),
        ``next-in-rank`` (旅酬: resolved later from who receives it).
        """
        found = first_answer(RECIPIENT_RULES, self, query)
        assert found is not None  # none() always answers
        return found

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
            if "action-toast" in self.vocabulary.broader_closure(s.action.key) and any(
                r.key == agent[0].key for r in s.recipient
            ):
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
                        (
                            r
                            for r in self.vocabulary.by_label.get("執" + label + "者", ())
                            if r.kind == "role" and self.profile.in_cast(r.key)
                        ),
                        None,
                    )
                    if keeper is not None:
                        return self.term(keeper)
        return None

    def _holding(self, agent: tuple[Term, ...], block: int) -> tuple[tuple[Term, ...], tuple[Term, str | None] | None] | None:
        """Who holds out the thing ``agent`` receives: another who has just taken it up, held it or
        brought it in this paragraph (特牲 宗婦執兩籩 户外坐 主婦受: from the 宗婦; 兄弟長以燔從 尸受: from
        the eldest brother), or before words only (士相見 擯者還其摯 … 賔對曰… | 再拜受: the words said
        between are passed over), before ``agent`` himself acted on it, and the thing he held out (term, as
        written) if his act was holding it out (執); None if no one."""
        if not agent:
            return None
        acts, words = 0, 0
        for s in reversed(self.steps[-18:]):
            said = self.vocabulary.concepts.get(s.action.key)
            if said is not None and said.flag("speech") and s.object_term is None:
                # 士相見 擯者還其摯 曰… 賔對曰… 擯者對曰… 賔對曰…敢不從 | 再拜受: the exchange of words
                # between the holding out and the receiving takes nothing in hand
                words += 1
                continue
            acts += 1
            if acts > 6 or (s.block != block and not (acts == 1 and words)):
                return None  # another paragraph, unless only words were said since the holding out
            toasted = "action-toast" in self.vocabulary.broader_closure(s.action.key) and any(
                r.key == agent[0].key for r in s.recipient
            )
            if s.agent[:1] == agent[:1] or toasted:
                return None  # he acted himself since, or a cup was given him (賔…以酢主人 | 主人拜受爵)
            if s.action.key in g.HOLDING_OUT and s.agent and s.object_term is not None and s.vessel is None:
                return s.agent[:1], (s.object_term, s.object)
        return None

    def _presented_before(self, key: str) -> tuple[Term, ...] | None:
        """Who was presented (獻) right before the person ``key`` in the last round that reached him,
        by the same giver; None if no round has."""
        xians = self.state.exchange.xians
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
            poured = k > 0 and recent[k - 1].action.key in g.FILLING and recent[k - 1].agent[:1] == s.agent[:1]
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
                s.action.key in g.GETTING_A_FULL_CUP
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


# -- the rules, in the order they are tried (RECIPIENT_RULES) ------------------------------------------
# Each takes (reader, query) and answers a Decision (the recipients, the note; alternative for 若…若) or None.


@dataclass(frozen=True)
class RecipientQuery:
    """What the recipient rules read of a clause: its act, its agent, the persons written after the verb
    (as object, and after 于), the object tokens, and the clause."""

    action: Concept
    agent: tuple[Term, ...]
    objects_persons: tuple[Term, ...]
    pp_persons: tuple[Term, ...]
    object_tokens: tuple[Token, ...]
    clause: Clause
    with_whom: tuple[Term, ...] = ()
    """The persons written after 與 before the act (與賔揖, 與君言): whom it is done with."""

    @property
    def raw_rule(self) -> str:
        """The act's ``yk:recipientRule`` as the vocabulary gives it (``none`` if none)."""
        return str(self.action.flag("recipientRule", "none"))

    @property
    def rule(self) -> str:
        """The recipient rule after the answering acts: an answer that found nothing goes to the other party."""
        return "other-party" if self.raw_rule == "answer" else self.raw_rule

    @property
    def served_rule(self) -> str:
        """:attr:`rule`, with 加之 (put it on the person) read as serving him."""
        q = self
        if (
            q.action.key == "action-jia"
            and not any(t.kind == YU for t in q.clause.suffix)
            and all(t.kind == ZHI for t in q.object_tokens)
        ):
            return "served"
        return self.rule


def _written_path(r: RecipientRules, q: RecipientQuery) -> bool:
    # (an act with no recipientRule flag at all takes this path too, as a written person decides first)
    return bool(r.person_is_recipient(q.action) or q.action.flag("personObject") or q.action.flag("recipientRule") != "none")


@rule("recipient.with-whom", "士冠 與賔揖; 士相見 與君言, 與大人言, 凡與大人言始視面: the one the act is done with")
def with_whom(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """The persons written after 與 before an act addressed to someone (a salute, words): the act goes to them
    (士相見 與君言言使臣: the 士 speaks to the ruler)."""
    return Decision(q.with_whom, "") if q.with_whom and not q.objects_persons and not q.pp_persons else None


@rule("recipient.hears-the-speaker", "聘禮 擯者…請禮賔 | 賔禮辭 | 聽命; 賔西階上聽命 (from the ruler's words)")
def hears_the_speaker(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """An act of hearing (``acts-of-hearing``: 聽命) with no person written goes to whoever last spoke to him: the
    agent of the latest act of speech (``yk:speech``) by another, in this paragraph or the one before."""
    if q.action.key not in _HEARING or not q.agent or q.objects_persons or q.pp_persons:
        return None
    keys = {a.key for a in q.agent}
    for s in reversed(r.steps[-8:]):
        if s.block < q.clause.block - 1:
            break
        said = r.vocabulary.concepts.get(s.action.key)
        if said is not None and said.flag("speech") and s.agent and not keys & {a.key for a in s.agent}:
            return Decision(s.agent, "hears the one who spoke last")
    return None


_HEARING = act_class("acts-of-hearing")


@rule("recipient.words-after-act", "士喪 北面招以衣 | 曰臯某復: the words go to the one the act before was done to")
def words_after_act(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """曰 said after an act of the same person (see :func:`yili.ingest.clauses._words_after_act`): the
    words are addressed to the recipient of that act (the dead called back by name; the host the gift is
    returned to)."""
    if not q.clause.flags.get("words_after_act") or not r.steps:
        return None
    before = r.steps[-1]
    if before.block == q.clause.block and before.recipient and before.agent == q.agent:
        return Decision(before.recipient, "to the one the act before the words was done to")
    return None


@rule("recipient.dish-follows-cup", "特牲 賓長以肝從: to the 尸, who drinks", tags=("inferred",))
def dish_follows_cup(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """以X從: the dish follows the cup to the one who drinks it."""
    lt = r.state.exchange.last_toast
    if q.action.key == "action-cong" and lt is not None and lt[1] and any(t.kind == OBJECT for t in q.clause.prefix):
        return Decision(lt[1], "the dish follows the cup to the one who drinks")
    return None


@rule("recipient.presented-before-next", "特牲 獻祝…及佐食如初: the one presented before the 佐食", tags=("inferred",))
def presented_before_next(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """酌獻 | 及X: the one presented before X in the round before."""
    following = r._next_elliptic.get(q.clause.start, ())
    if q.action.key == "action-xian" and following and not q.objects_persons and not q.pp_persons:
        before = r._presented_before(following[0])
        if before is not None:
            return Decision(before, "presented before the next one, as in the round before")
    return None


@rule("recipient.person-object", "鄉飲酒 主人獻賔; 揖卿大夫; 命賔: the person written after the act")
def person_object(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """The person written after an act that takes one as its recipient."""
    zhi_first = bool(q.object_tokens) and q.object_tokens[0].kind == ZHI
    as_recipient = r.person_is_recipient(q.action)
    if _written_path(r, q) and q.objects_persons and as_recipient and not (zhi_first and q.action.flag("personObject")):
        return Decision(q.objects_persons, "")
    return None


@rule("recipient.self-poured-in-name", "有司徹 主人酌酢于長賔, 註 主人酌自酢 序賔意 賔卑不敢酢", tags=("inferred",))
def self_poured_in_name(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """酢于X, X one he presented: he pours the 酢 for himself, in X's name."""
    if _written_path(r, q) and q.pp_persons and q.action.key == "action-zuo" and not q.objects_persons:
        returned = r.returned_xian(q.agent)
        presented = {p.key for p in returned[1]} if returned is not None else set()
        if returned is not None and returned[0] != "return" and {p.key for p in q.pp_persons} <= presented:
            return Decision(q.agent, "a self-poured return toast, in the name of the one written (酢于X)")
    return None


@rule("recipient.yu-person", "燕禮 獻于公, 媵觚于賔: the person after 于")
def yu_person(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """The person written after 于."""
    return Decision(q.pp_persons, "") if _written_path(r, q) and q.pp_persons else None


@rule(
    "recipient.the-body",
    "士喪 楔齒用角柶, 綴足用燕几, 奠脯醢醴酒 (the body, 尸, receives what is put on or into it, and the offering;"
    " 註 遷尸於襲上而衣之)",
)
def the_body(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """In a rite where the dead man's body is present (:attr:`~yili.ontology.rites.RiteProfile.body`), with no
    person written after the act: an act that puts a thing on or into the body (``yk:onTheBody "recipient"``:
    楔齒, 綴足, 搢笏), an offering set down with its drink (奠醴酒, 奠脯醢醴酒: a wine written, no vessel), and
    設, 襲, 實 with no place written while the body is being dressed (the class ``acts-dressing-the-body``, the
    body acted on in the last three steps: 乃笄 | 設明衣裳) go to the body; an act done to the body itself
    (``yk:onTheBody "object"``: 沐, 櫛, 幠) has it as its object and no recipient."""
    body = r.profile.body
    if body is None or body.role is None or q.objects_persons or q.pp_persons:
        return None
    how = q.action.flag("onTheBody")
    if how == "object":
        return Decision((), "")
    offering = (
        q.action.key == "action-dian"
        and any(t.kind == WINE or any(c.kind == WINE for c in t.readings) for t in q.object_tokens)
        and not any(t.kind == VESSEL for t in q.object_tokens)
    )
    dressing = (
        q.action.key in _DRESSING
        and not any(t.kind == PLACE for t in q.clause.suffix)
        and not _undoes_own(r, q)
        and _body_at_hand(r, q, body.role)
    )
    if (how == "recipient" or offering or dressing) and body.role in r.vocabulary.concepts:
        return Decision((r.term(r.vocabulary.concepts[body.role]),), "the body, 尸, receives it")
    return None


_DRESSING = act_class("acts-dressing-the-body")


def _body_at_hand(r: RecipientRules, q: RecipientQuery, body: str) -> bool:
    """Whether the body is being dressed: of the acts of dressing or on the body (the class
    ``acts-dressing-the-body``, or an act with ``yk:onTheBody``) read in this paragraph or the
    :data:`_DRESSING_REACH` before it, the last that was done to anyone was done to the body (its object or
    recipient); one done to nobody (主人襲: his own arm) does not end it. The dressing goes on across the
    fetching of things in between (士喪 設明衣裳 | 主人出 … 洗貝 … 商祝執巾從入 | 設巾 … 實于右三 … 設幎目 乃屨 …
    設韐帶 搢笏 設决; 註 遷尸於襲上而衣之)."""
    for s in reversed(r.steps):
        if s.block < q.clause.block - _DRESSING_REACH:
            return False
        said = r.vocabulary.concepts.get(s.action.key)
        if s.action.key in _DRESSING or (said is not None and said.flag("onTheBody")):
            if any(p.key == body for p in s.recipient) or (s.object_term is not None and s.object_term.key == body):
                return True
            if s.recipient:
                return False  # done to another person: the dressing is over
    return False


def _undoes_own(r: RecipientRules, q: RecipientQuery) -> bool:
    """Whether the act undoes (``yk:undoes``) the last of the two its agent did: 主人左袒 … 主人襲 is the host
    covering his own arm again, not a dressing of the body (士喪; 鄉射 袒決遂 … 襲)."""
    undone = q.action.flag("undoes")
    if not undone or not q.agent:
        return False
    keys = {a.key for a in q.agent}
    for s in reversed(r.steps):
        if s.action.key in (undone, q.action.key) and keys & {a.key for a in s.agent}:
            return s.action.key == undone
    return False


_DRESSING_REACH = 6
"""How many paragraphs back the dressing of a body may have begun (士喪 64 設明衣裳 … 68 設巾: four)."""


_DIALOGUE = act_class("acts-dialogue")


@rule(
    "recipient.dialogue",
    "聘禮 擯者請事 | 賔告事畢 (to the 擯者); 士相見 擯者對曰… | 賔對曰…: words answer the words just said to him",
    tags=("inferred",),
)
def dialogue(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """Words of a dialogue (:data:`_DIALOGUE`: 請, 告, 辭, 對, 許, 曰) with no person written, right after words said to its agent
    by someone else (the step before, in this paragraph or the one before): it goes back to that speaker (the
    guest answers the usher who brought the host's words, not the host)."""
    if q.action.key not in _DIALOGUE or not r.steps or not q.agent:
        return None
    last = r.steps[-1]
    keys = {a.key for a in q.agent}
    said = r.vocabulary.concepts.get(last.action.key)
    if last.block < q.clause.block - 1 or not last.agent or said is None or not said.flag("speech"):
        return None
    if keys & {a.key for a in last.agent} or not keys & {p.key for p in last.recipient}:
        return None
    return Decision(last.agent[:1], "answers the words just said to him")


@rule(
    "recipient.usher-speaks-to-guest",
    "聘禮 擯者請事, 擯者告; 士相見 擯者還其摯 曰…: the usher (擯者) speaks for the host to the guest",
    tags=("inferred",),
)
def usher_speaks_to_guest(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """The usher's (擯者) speech acts with no person written go to the rite's chief guest, whom he receives for
    the host (聘禮 擯者請事: he asks the guest his business; 註 擯者出請事)."""
    guest = r.profile.chief_guest
    if not q.action.flag("speech") or not q.agent or q.agent[0].key != "role-binzhe" or guest is None:
        return None
    if not r.profile.in_cast(guest) or guest not in r.vocabulary.concepts:
        return None
    return Decision((r.term(r.vocabulary.concepts[guest]),), "the usher speaks to the guest")


@rule("recipient.zhi-last-person", "士冠 賔揖之: the capped son, not the 贊者 who tied his strings", tags=("inferred",))
def zhi_last_person(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """之 after an act that takes a person: the last person named (a party of the rite, for a salute)."""
    if _written_path(r, q) and any(t.kind == ZHI for t in q.object_tokens) and q.action.flag("personObject"):
        p = r._last_person_other_than(q.agent, principal=q.action.key == "action-yi")
        if p is not None:
            return Decision((p,), "之 = the last person named")
    return None


@rule("recipient.numbered-presentation", "特牲 亞獻, 三獻, 為加爵: to the receiver of the first (the 尸)", tags=("inferred",))
def numbered_presentation(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """A numbered presentation goes to whom the first went."""
    st, verb = r.state, q.clause.verb
    if (
        "action-xian" in r.vocabulary.broader_closure(q.action.key)
        and st.exchange.xians
        and any(t.text in g.NUMBERED_PRESENTATIONS for t in q.clause.prefix[-1:])
        or (
            q.action.key == "action-xian"
            and (verb.text[:1] in g.NUMBERED_PRESENTATIONS or verb.text.endswith("加爵"))
            and st.exchange.xians
        )
    ):
        return Decision(st.exchange.xians[0][1], "a numbered presentation, to the receiver of the first")
    return None


@rule("recipient.handed-to-next", "公食 宰夫自東房授醯醬 | 公設之, 註 授授公也", tags=("inferred",))
def handed_to_next(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """授 with no one named: to the one who takes it up next."""
    if q.action.key == "action-shou-hand" and not q.objects_persons and not q.pp_persons:
        taker = r._next_subject.get(q.clause.start)
        if taker and taker in r.vocabulary.concepts and all(a.key != taker for a in q.agent):
            return Decision((r.term(r.vocabulary.concepts[taker]),), "handed to the one who acts on it next")
    return None


@rule("recipient.either", "燕禮 若賔若長唯公所酬: either of the persons after 若…若", tags=("inferred",))
def either(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """若X若Y: alternatives (remembered for a later 唯公所賜)."""
    alternatives = r._alternatives(q.clause)
    if alternatives:
        # remembered for a later 唯公所賜 (either-again)
        return Decision(
            alternatives, "either of the persons after 若…若", alternative=True, found=(set_("last_alternatives", alternatives),)
        )
    return None


@rule("recipient.either-again", "燕禮 唯公所賜: among the same persons as before (若賔若長)", tags=("inferred",))
def either_again(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """唯公所X again: the ruler chooses among the same persons as before."""
    if any(t.text in g.CHOICE for t in q.clause.tokens) and r.state.exchange.last_alternatives:
        return Decision(r.state.exchange.last_alternatives, "either of the persons offered before", alternative=True)
    return None


@rule("recipient.rite-receiver", "士冠 醮: to the capped son (a rite fact)", tags=("inferred",))
def rite_receiver(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """A rite fact: the act goes to its usual receiver."""
    default = r.profile.default_agent(q.action.key)
    if default is not None and default.recipient in r.vocabulary.concepts and not any(t.kind == ZHI for t in q.object_tokens):
        return Decision((r.term(r.vocabulary.concepts[str(default.recipient)]),), f"the rite's receiver ({default.source})")
    return None


@rule("recipient.invited", "士冠 若孤子則父兄戒宿: to whom the rite invites (主人戒賔)", tags=("inferred",))
def invited(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """An invitation with no one named goes to whom the rite invites."""
    if q.action.flag("speech") and q.action.flag("personObject") and q.raw_rule in ("none", "other-party"):
        found = next((s.recipient for s in reversed(r.steps[-300:]) if s.action.key == q.action.key and s.recipient), ())
        if found and all(a.key != found[0].key for a in q.agent):
            return Decision(found[:1], "the one this act goes to in the rite")
    return None


_RECEIVING = g.RECEIVING


@rule(
    "recipient.thing-of-person", "有司徹 尸…受主人爵, 主人降受宰几: received from the person written with it", tags=("inferred",)
)
def thing_of_person(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """受 + a person + a thing: the thing is his, received from him."""
    if q.action.key in _RECEIVING and q.objects_persons and not q.pp_persons:
        after_verb = list(q.clause.suffix)
        thing_after = len(after_verb) >= 2 and after_verb[0].kind == ROLE and after_verb[1].kind in (VESSEL, OBJECT, OTHER)
        if thing_after and all(a.key != p.key for a in q.agent for p in q.objects_persons):
            return Decision(q.objects_persons[:1], "receives the thing of the person written with it")
    return None


@rule("recipient.command-from-superior", "聘禮 受命: a command is received from the superior", tags=("inferred",))
def command_from_superior(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """受命: from the most senior person present."""
    if q.action.key in _RECEIVING and q.clause.flags.get("nominal_object") in ("命",):
        p = r.superior(q.agent)
        return Decision((p,) if p else (), "a command is received from the superior")
    return None


@rule("recipient.from-holder", "鄉飲酒 主人坐取爵…賔…受: from the one who holds it", tags=("inferred",))
def from_holder(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """受: from the one who holds the thing."""
    if q.action.key in _RECEIVING:
        found = r._holding(q.agent, q.clause.block)
        if found is not None:
            holder, held_out = found
            # what he held out is what is received (object.held-out)
            return Decision(holder, "receives from the one who holds it", found=(set_("held_out", held_out),))
    return None


@rule("recipient.from-keeper", "士冠 賔降二等受皮弁: from the 執冠者", tags=("inferred",))
def from_keeper(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """受X: from the one named for holding X (執X者)."""
    if q.action.key in _RECEIVING:
        keeper = r._keeper_of(list(q.object_tokens))
        if keeper is not None and all(a.key != keeper.key for a in q.agent):
            return Decision((keeper,), "receives from the one named for holding it (執X者)")
    return None


@rule("recipient.from-hander", "特牲 佐食授挼祭 尸受: from the one who handed it (授)", tags=("inferred",))
def from_hander(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """受: from the one who handed it over."""
    if q.action.key in _RECEIVING:
        cup = any(t.kind == VESSEL and t.concept is not None and r.vocabulary.is_cup(t.concept.key) for t in q.clause.tokens)
        hander = r._handed_to(q.agent, q.clause.block, cup)
        if hander is not None:
            return Decision(hander, "receives from the one who handed it (授)")
    return None


@rule("recipient.from-toast-giver", "鄉飲酒 賔…受爵: from the giver of the toast", tags=("inferred",))
def from_toast_giver(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """受 by the one toasted: from the giver of the toast."""
    lt, agent = r.state.exchange.last_toast, q.agent
    nominal = q.clause.flags.get("nominal_object")
    if q.action.key in _RECEIVING and lt is not None and lt[0] and agent:
        if (nominal in ("旅", "酬") or any(r._one_of(agent[0], x) for x in lt[1])) and lt[0][0].key != agent[0].key:
            return Decision(lt[0][:1], "receives from the giver of the toast")
    return None


@rule("recipient.cup-back", "特牲 主人…獻祝 … 受角: the giver takes the emptied cup back", tags=("inferred",))
def cup_back(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """受 by the giver of the last toast: from the one he toasted."""
    lt, agent = r.state.exchange.last_toast, q.agent
    if q.action.key in _RECEIVING and lt is not None and lt[0] and lt[1] and agent:
        if lt[0][0].key == agent[0].key and lt[1][0].key != agent[0].key:
            return Decision(lt[1][:1], "takes the cup back from the one he toasted")
    return None


@rule("recipient.sent-to", "鄉飲酒 主人…拜送爵: to the one the cup was sent to", tags=("inferred",))
def sent_to(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """拜送: to the one the cup was sent to."""
    if q.action.key == "action-baisong" and q.agent:
        for s in reversed(r.steps[-8:]):
            if "action-toast" in r.vocabulary.broader_closure(s.action.key) and s.agent[:1] == q.agent[:1] and s.recipient:
                return Decision(s.recipient[:1], "to the one the cup was sent to")
    return None


@rule(
    "recipient.seen-off",
    "士喪 賔出 … 主人拜送于門外; 禭者入衣尸出 主人拜送如初: the bow of sending off is to the one who went out",
    tags=("inferred",),
)
def seen_off(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """拜送 with no cup sent and no one written: to the one who has just gone out (出, 退) in this paragraph or the
    one before, not to an earlier partner (士喪 賔出 婦人踊 主人拜送于門外: the guest)."""
    if q.action.key != "action-baisong" or not q.agent:
        return None
    for s in reversed(r.steps[-6:]):
        if s.block < q.clause.block - 1:
            break
        if s.action.key in ("action-chu", "action-tui") and s.mode != "negated" and len(s.agent) == 1:
            if s.agent[0].key in {a.key for a in q.agent}:
                return None
            return Decision(s.agent[:1], "to the one who has just gone out")
    return None


@rule("recipient.return-to-giver", "鄉飲酒 賔…以酢主人: the 酢 goes back to who gave the 獻", tags=("inferred",))
def return_to_giver(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """酢: to who gave the 獻 the agent received."""
    if q.action.key == "action-zuo":
        returned = r.returned_xian(q.agent)
        if returned is not None and returned[0] == "return":
            return Decision(returned[1], "the return toast goes to who gave the 献")
    return None


@rule("recipient.self-poured", "燕禮 主人…更爵…酢于阼階下, 注 更爵者不敢襲至尊也", tags=("inferred",))
def self_poured(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """酢 by the one who gave the 獻: he pours it for himself."""
    if q.action.key == "action-zuo":
        returned = r.returned_xian(q.agent)
        if returned is not None and returned[0] != "return":
            return Decision(q.agent, "a self-poured return toast (更爵 … 自酢)")
    return None


@rule("recipient.last-xian-giver", "a 酢 returns the last 獻: to its giver", tags=("inferred",))
def last_xian_giver(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """酢 by one in no 獻: to who gave the last 獻."""
    if q.action.key == "action-zuo" and r.returned_xian(q.agent) is None and r.state.exchange.last_xian is not None:
        return Decision(r.state.exchange.last_xian[0], "the return toast goes to who gave the last 献")
    return None


@rule("recipient.each-other", "特牲 衆賓及衆兄弟交錯以辯, 註 交錯猶言東西", tags=("inferred",))
def each_other(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """交錯: the two sides pass the pledge to each other."""
    if q.raw_rule == "each-other" and len(q.agent) >= 2:
        return Decision(q.agent, "each side to the other")
    return None


@rule("recipient.answers", "燕禮 射人命賔 … 許諾; 射人請賔 公曰命某為賔: to the one who asked", tags=("inferred",))
def answers(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """答拜 answers a bow, 對 a 辭, 許 a 命/請, 命 a 請: to the one whose act was directed at the agent."""
    if q.raw_rule != "answer":
        return None
    keys = {a.key for a in q.agent}
    wanted = _ANSWERS.get(q.action.key, frozenset())
    for s in reversed(r.steps[-12:]):
        fam = r.vocabulary.broader_closure(s.action.key)
        if not (fam & wanted) or r._is_reply(s):
            continue
        if s.agent and keys & {x.key for x in s.recipient} and not (keys & {a.key for a in s.agent}):
            return Decision(s.agent[:1], "answers the last act directed at him")
    return None


@rule("recipient.command-to-doer", "特牲 祝命爾敦 | 佐食爾黍稷: to whoever does it next", tags=("inferred",))
def command_to_doer(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """命 answering no request: a command of an act goes to whoever does it next (else to no one)."""
    if q.raw_rule != "answer" or q.action.key != "action-ming":
        return None
    doer = r._next_subject.get(q.clause.start)
    if q.clause.flags.get("verbal_object") and doer and doer not in {a.key for a in q.agent} and doer in r.vocabulary.concepts:
        return Decision((r.term(r.vocabulary.concepts[doer]),), "commanded to the one who does it next")
    return Decision((), "")


@rule(
    "recipient.errand-to-host",
    "士喪 君使人弔 | 弔; 君使人禭 | 禭者…入升致命: the envoy's errand goes to the mourner, the house's host (註 主人)",
    tags=("inferred",),
)
def errand_to_host(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """In a rite where the dead lies (the profile's body: 士喪, 既夕), an errand (an act the vocabulary marks
    ``yk:errand``: 弔, 襚, 致命, 賵) done with no person written by one who is not the rite's host, and not sent by
    the host, goes to the host (the chief mourner, whose house he comes to),
    not to an earlier partner: 士喪 君使人弔 | 弔 (to the 主人, not the ruler who sent him); the host's own
    envoy (聘禮 公使卿勞) is left to the later rules."""
    host = r.profile.host
    if r.profile.body is None:
        return None  # (only where the dead lies and visitors come to the mourner: in 聘禮 the host sends envoys out too)
    if not q.action.flag("errand") or host is None or not q.agent or host not in r.vocabulary.concepts:
        return None
    if not r.profile.in_cast(host) or any(a.key == host for a in q.agent):
        return None
    if r._agent_from_pivot and any(c.key == host for c in r.state.topic.pivot_commander):
        return None
    return Decision((r.term(r.vocabulary.concepts[host]),), "an errand goes to the host of the house")


@rule("recipient.for-commander", "燕禮 公命小臣辭: the servant declines, for the ruler, to his other party", tags=("inferred",))
def for_commander(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """An act commanded by a pivot verb goes to the commander's other party."""
    if q.rule == "other-party" and r._agent_from_pivot:
        p = r.other_party(r.state.topic.pivot_commander)
        if p is not None and all(p.key != a.key for a in q.agent):
            return Decision((p,), "to the other party of the one who commanded it")
    return None


@rule("recipient.officer-announces", "士冠 宗人告事畢, 擯者告: to the host", tags=("inferred",))
def officer_announces(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """An officer announces to the one he serves (the rite's opener)."""
    agent = q.agent
    if q.rule == "other-party" and q.action.key == "action-gao" and agent and not r._is_principal(agent[0].key):
        opener = r.profile.opener
        if opener in r.vocabulary.concepts and opener != agent[0].key:
            return Decision((r.term(r.vocabulary.concepts[str(opener)]),), "an officer announces to the one he serves")
    return None


@rule("recipient.declines-act", "鄉飲酒 賔降 主人降 賔辭: one declines the act the other has just done", tags=("inferred",))
def declines_act(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """辭: to the principal whose act was just done."""
    if q.action.key == "action-ci-decline" and q.agent:
        for s in reversed(r.steps[-3:]):
            if s.block != q.clause.block:
                break
            if s.agent and s.agent[0].key != q.agent[0].key and r._is_principal(s.agent[0].key):
                return Decision(s.agent[:1], "declines the other's act just done")
    return None


@rule("recipient.drained-cup-giver", "士虞 主人…獻祝 祝…卒爵拜: to the one who gave the cup", tags=("inferred",))
def drained_cup_giver(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """The bow after draining the cup goes to whoever gave it."""
    if q.rule == "other-party" and q.agent and "action-bai" in r.vocabulary.broader_closure(q.action.key):
        giver = r._giver_of_drained_cup(q.agent, q.clause.block)
        if giver is not None:
            return Decision(giver, "bows to the one who gave the cup he drained")
    return None


@rule(
    "recipient.party-who-came",
    "士喪 弔者致命 主人哭拜稽顙: the bow is to the visitor who has just done his errand, not an earlier partner",
    tags=("inferred",),
)
def party_who_came(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """A bow, a 辭 or an answer goes to the visitor who has just done his errand to the agent (an act
    the vocabulary marks ``yk:errand``: 致命, 弔, 襚, 賵, 勞) in this paragraph or the one before, when
    the agent has exchanged nothing with him yet: the host bows to the envoy of condolence who has
    just spoken (士喪 弔者致命 主人哭拜稽顙), whoever he bowed to before; the parties of a section are
    the ones in it."""
    if q.rule != "other-party" or len(q.agent) != 1 or q.action.flag("errand"):
        return None  # (a visitor's own errand goes to the one he visits, not to the visitor before him)
    a = q.agent[0].key
    for s in reversed(r.steps[-8:]):
        if s.block < q.clause.block - 1:
            break
        act = r.concept(s.action.key) if s.action is not None else None
        if len(s.agent) != 1 or s.agent[0].key == a or act is None or not act.flag("errand"):
            continue
        x = s.agent[0].key
        if any(p in ((a, x), (x, a)) for p in r.state.exchange.pairs):
            return None  # an exchange already under way: the other-party rule knows it
        return Decision(s.agent[:1], "to the visitor who has just done his errand")
    return None


@rule("recipient.other-party", "鄉飲酒 主人拜 賔答拜: bows, 辭, 對, 受, 拜送 go to the other party", tags=("inferred",))
def other_party(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """``yk:recipientRule other-party``: the other party of the exchange."""
    if q.rule == "other-party":
        p = r.other_party(q.agent)
        return Decision((p,) if p else (), "other party of the exchange")
    return None


@rule("recipient.superior", "燕禮 小臣請; 反命; 再拜稽首; 媵: to the most senior present", tags=("inferred",))
def superior(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """``yk:recipientRule superior``: the most senior person present."""
    if q.rule == "superior":
        p = r.superior(q.agent)
        return Decision((p,) if p else (), "the most senior person present")
    return None


@rule("recipient.none-setting-out", "士冠 有司…尊于房户之間: nobody is served by the officers' setting out")
def none_setting_out(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """The officers setting out the rite's things serve nobody."""
    setting = r.profile.default_agent(q.action.key)
    if q.rule == "served" and setting is not None and setting.opening and q.agent and q.agent[0].key == setting.role:
        return Decision((), "")
    return None


@rule("recipient.just-toasted", "燕禮 膳宰薦脯醢: to the one just toasted", tags=("inferred",))
def just_toasted(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """``served``: the one just toasted is served."""
    if q.rule == "served" and r.state.exchange.last_toast is not None and r._toasted_lately(q.clause.block):
        return Decision(r.state.exchange.last_toast[1], "the one just toasted is served")
    return None


@rule("recipient.person-served", "士冠 冠者即筵坐 贊者…櫛: the one seated to be served", tags=("inferred",))
def person_served(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """An act done to the person: the one seated, or the person served before."""
    if q.served_rule == "served" and q.action.key in g.DONE_TO_THE_PERSON:
        served = r._person_served(q.agent, q.clause.block)
        if served is not None:
            return Decision(served[0], served[2], served[1])
    return None


@rule("recipient.served-named-last", "士冠 贊者坐櫛設纚: the party named last (not 燕禮 笙入 … 羞庶羞)", tags=("inferred",))
def served_named_last(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """``served``: the principal named last who is not the agent."""
    if q.served_rule != "served":
        return None
    keys = {a.key for a in q.agent}
    st = r.state
    earlier = list(reversed(st.topic.mentions[-40:])) if q.action.key in g.DONE_TO_THE_PERSON else []
    named = [] if q.action.key in g.SERVED_TO_EATERS else [*reversed(st.topic.block_mentions), *earlier]
    for t in named:
        if t.key not in keys and r._is_principal(t.key):
            return Decision((t,), "the one being served, named last")
    return None


@rule("recipient.eater", "特牲 佐食…: the one eating is served", tags=("inferred",))
def eater(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """``served``: the one eating."""
    if q.served_rule == "served":
        found = r._eating(q.agent, q.clause.block)
        if found is not None:
            return Decision(found, "the one eating is served")
    return None


@rule("recipient.last-toasted", "``served``: the one last toasted", tags=("inferred",))
def last_toasted(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """``served``: the one last toasted (not for dishes served to the eaters)."""
    if q.served_rule == "served" and r.state.exchange.last_toast is not None and q.action.key not in g.SERVED_TO_EATERS:
        return Decision(r.state.exchange.last_toast[1], "the one last toasted is served")
    return None


@rule("recipient.none", "no person written and no rule of the act's recipient applies")
def none(r: RecipientRules, q: RecipientQuery) -> Decision | None:
    """Nobody: the act goes to no one the text or the rules name."""
    return Decision((), "")


RECIPIENT_RULES: tuple[Rule, ...] = (
    with_whom,
    hears_the_speaker,
    words_after_act,
    dish_follows_cup,
    presented_before_next,
    person_object,
    self_poured_in_name,
    yu_person,
    the_body,
    zhi_last_person,
    numbered_presentation,
    handed_to_next,
    either,
    either_again,
    rite_receiver,
    invited,
    thing_of_person,
    command_from_superior,
    from_holder,
    from_keeper,
    from_hander,
    from_toast_giver,
    cup_back,
    sent_to,
    seen_off,
    return_to_giver,
    self_poured,
    last_xian_giver,
    each_other,
    answers,
    command_to_doer,
    errand_to_host,
    for_commander,
    officer_announces,
    declines_act,
    drained_cup_giver,
    usher_speaks_to_guest,
    dialogue,
    party_who_came,
    other_party,
    superior,
    none_setting_out,
    just_toasted,
    person_served,
    served_named_last,
    eater,
    last_toasted,
    none,
)
"""The rules for to whom an act goes, in the order they are tried (:func:`~yili.ingest.rules.first_answer`)."""
