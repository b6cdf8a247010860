"""Clause segmentation of unpunctuated classic text.

The classic text has no punctuation and strings acts together: ``主人北面盥坐取觚洗賔少进辞洗…``.
One clause is one act (a verb phrase), and the clauses tile the block: every character but the
section mark ``○`` belongs to exactly one clause.  Words that are not acts attach to a neighbour:

* what comes *before* an act and describes it is its prefix: the subject (主人), adverbs (皆, 遂,
  乃), negation (不), the condition words (若 … 则), the place and facing where it happens when
  they stand before the verb (賔西阶上北面坐), the instrument (以虚爵降);
* what comes *after* an act and completes it is its suffix: the object (取觚, 揖之), the person
  (献賔, 命小臣), a 于/自 phrase (奠觚于篚, 升自西阶), the goal of a motion (降阼阶下), a facing or
  a rank order after the position (立于尊南北面东上), a comparison (如初).

:func:`segment` decides, between two acts, where the suffix of the first ends and the prefix of
the second begins.  The rules are in the order they are tried, each a small function below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from yili.ingest import grammar as g
from yili.ingest.tokens import (
    ACTION,
    ADV,
    COND,
    CONJ,
    DIR,
    END,
    ER,
    FACING,
    FINAL,
    JIU,
    MARK,
    NEG,
    NUM,
    OBJECT,
    OTHER,
    PLACE,
    RANK,
    ROLE,
    RU,
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
    with_kind,
)
from yili.ontology.vocabulary import Concept, Vocabulary

PREFIX_KINDS = frozenset({ADV, NEG, COND, THEN, YI, ER, JIU, CONJ, DIR})
_THINGS = frozenset({OBJECT, OTHER, VESSEL})
"""Kinds of the words that name things (骼, 獸, 魚, 爵)."""
"""Words that always open the next act: adverbs, negation, condition, 以, 而, 就, 与/及, 左/右 (左执爵)."""

SKIP_TO_VERB = frozenset({ADV, NEG, COND, THEN, YI, ER, JIU, CONJ, DIR, PLACE, FACING, RANK, ROLE, NUM, TAIL, FINAL})
"""Words that may stand between a subject and its verb (賔西阶上北面坐, 卿大夫皆降, and a relative
phrase ending in 者: 士既献者立于东方, "the officers already toasted stand in the east")."""


@dataclass
class Clause:
    """One act of the classic text with the words attached to it.

    Attributes
    ----------
    tokens : list[Token]
        The clause's tokens in order (prefix, head, suffix); ``○`` is never included.
    head : int
        Index in ``tokens`` of the act.
    block : int
        The classic block number.
    flags : dict
        What segmentation learnt: ``completive`` (卒洗), ``verbal_object`` (the 降 of 辞降),
        ``causative`` (射人升賔), ``pivot_agent`` (the 小臣 of 公命小臣辞, agent of the next act),
        ``quote`` (the words after 曰), ``section_start`` (a ○ precedes), ``comparison`` (如初).
    """

    tokens: list[Token]
    head: int
    block: int
    flags: dict[str, object] = field(default_factory=dict)

    @property
    def verb(self) -> Token:
        """The head act's token."""
        return self.tokens[self.head]

    @property
    def start(self) -> int:
        """Offset of the clause's first character in the document (0-based)."""
        return self.tokens[0].start

    @property
    def end(self) -> int:
        """Offset just past the clause's last character (end-exclusive)."""
        return self.tokens[-1].end

    @property
    def text(self) -> str:
        """The clause as written (concatenated token texts; ``○`` excluded)."""
        return "".join(t.text for t in self.tokens)

    @property
    def prefix(self) -> list[Token]:
        """Tokens before the act."""
        return self.tokens[: self.head]

    @property
    def suffix(self) -> list[Token]:
        """Tokens after the act."""
        return self.tokens[self.head + 1 :]


@dataclass
class _Rereading:
    """The state of :func:`normalise`: the tokens read so far (``out``) and the flags for heads."""

    tokens: list[Token]
    vocabulary: Vocabulary | None
    out: list[Token] = field(default_factory=list)
    flags: dict[int, dict[str, object]] = field(default_factory=dict)
    comparisons: dict[int, str] = field(default_factory=dict)

    def next(self, i: int) -> Token | None:
        return self.tokens[i + 1] if i + 1 < len(self.tokens) else None

    def last(self) -> Token | None:
        return self.out[-1] if self.out else None

    def flag(self, index: int, name: str, value: object) -> None:
        self.flags.setdefault(index, {})[name] = value


def _is_act(tok: Token | None) -> bool:
    return tok is not None and tok.kind == ACTION and tok.concept is not None


def offering_portion(r: _Rereading, i: int) -> int | None:
    """祭 right after a dish or a food handed, taken or received, and before neither 之 nor a place, is
    the portion of it for the offering, one noun with it (特牲 祝賛籩祭 | 尸受 | 祭之, 註 籩祭棗栗之祭也;
    佐食取黍稷肺祭 | 授尸, 注 肺祭刌肺也); 取肺 坐 祭之, 擩于醢 祭 are offerings."""
    t, prev, nxt = r.tokens[i], r.last(), r.next(i)
    if not (_is_act(t) and t.concept is not None and t.concept.key == "action-ji" and prev is not None):
        return None
    if nxt is not None and nxt.kind in (ZHI, YU, WINE, VESSEL, OBJECT):
        return None  # 祭之, 祭于豆間, 祭酒: the act
    cup = prev.concept is not None and r.vocabulary is not None and r.vocabulary.is_cup(prev.concept.key)
    dish = prev.kind == VESSEL and prev.concept is not None and not cup
    if not (prev.kind == OBJECT or dish):
        return None
    k = len(r.out) - 2
    while k >= 0 and r.out[k].kind in (OBJECT, VESSEL, OTHER, NUM):
        k -= 1
    verb = r.out[k] if k >= 0 else None
    if not (_is_act(verb) and verb is not None and verb.concept is not None and verb.concept.key in g.HANDLING_A_PORTION):
        return None
    r.out[-1] = Token(prev.text + t.text, prev.start, t.end, OBJECT, prev.concept, prev.readings)
    return i + 1


def zhu_is_zhi_yu(r: _Rereading, i: int) -> int | None:
    """諸 between an act and a place is 之於, "it … at" (鄉射 每一人獻則薦諸其席, 註 諸於; 其笙則獻諸西階上):
    read as 於, so the place is where the act is done."""
    t, nxt, prev = r.tokens[i], r.next(i), r.last()
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    their_place = nxt is not None and nxt.text in g.THEIR and after is not None and any(c.kind == PLACE for c in after.readings)
    place_next = nxt is not None and (nxt.kind == PLACE or their_place)
    if t.text in g.ZHU and _is_act(prev) and place_next and nxt.text not in g.LORDS:  # 立諸侯: the lords
        r.out.append(with_kind(t, YU))
        return i + 1
    return None


def on_his_behalf(r: _Rereading, i: int) -> int | None:
    """為之 + an act is that act done for him (benefactive), not an act of "acting as" (鄉射 大師則為之洗:
    the host washes the cup for the grand music-master, 註 尊之也; 喪服 為之服)."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    acting_as = _is_act(t) and t.concept is not None and t.concept.key == "action-wei"
    if acting_as and nxt is not None and nxt.kind == ZHI and _is_act(after):
        r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ADV))
        return i + 2
    return None


def going_back(r: _Rereading, i: int) -> int | None:
    """復 right before a place is going back there (鄉射 大夫答拜主人復阼階揖降); before an act it is
    "again" (復釋獲), a word of that act."""
    t, nxt = r.tokens[i], r.next(i)
    if not (t.text in g.BACK and t.kind != ACTION and nxt is not None and r.vocabulary is not None):
        return None
    back = r.vocabulary.concepts.get("action-fu-goback")
    place = nxt.kind == PLACE or any(c.kind == PLACE for c in nxt.readings) and nxt.kind != ACTION
    if back is None or not place:
        return None
    r.out.append(Token(t.text, t.start, t.end, ACTION, back, (back,)))
    return i + 1


def clothing_the_body(r: _Rereading, i: int) -> int | None:
    """衣 right before the body (尸) is the act of clothing it, not the garment (士喪 受用篚升自阼階以衣尸,
    註 衣尸者覆之; 禭者入衣尸出: the envoy goes in, clothes the body, goes out).  Elsewhere 衣 is the garment
    (委衣于尸東牀上)."""
    t, nxt = r.tokens[i], r.next(i)
    if r.vocabulary is None or t.kind == ACTION or nxt is None or nxt.concept is None:
        return None
    dress = r.vocabulary.concepts.get("action-yi-dress")
    if dress is None or t.text not in dress.labels or nxt.concept.key != "role-shi-corpse":
        return None
    r.out.append(Token(t.text, t.start, t.end, ACTION, dress, (dress, *t.readings)))
    return i + 1


def act_after_all_or_then(r: _Rereading, i: int) -> int | None:
    """A word read as an act only by context (``yk:readByContext``) right after 皆 or 乃
    (:data:`~yili.ingest.grammar.BEFORE_AN_ACT`) is that act: done to every one of the things just listed
    (士喪 新盆槃瓶廢敦重鬲皆濯: the vessels are all rinsed, 註 濯滌溉也; elsewhere 濯 is the rinsing, a thing:
    特牲 視壺濯), or the next act (士喪 鬠用組乃笄: pins the hair; 乃屨: puts the shoes on)."""
    t, prev = r.tokens[i], r.last()
    if r.vocabulary is None or t.kind == ACTION or prev is None or prev.text not in g.BEFORE_AN_ACT:
        return None
    act = next((c for c in r.vocabulary.by_label.get(t.text, ()) if c.kind == ACTION and c.flag("readByContext")), None)
    if act is None or act.key in ("action-fu-goback", "action-xian-ahead", "action-jiu-go"):
        return None  # (復, 先, 就 have rules of their own)
    r.out.append(Token(t.text, t.start, t.end, ACTION, act, (act, *t.readings)))
    return i + 1


def length_not_elder(r: _Rereading, i: int) -> int | None:
    """長 before a measure (a number or 半 / 終 and a unit: 長三尺, 長半幅, 長終幅) is the length of the thing
    before it, not the elder (士喪 竹杠長三尺置于宇西階上; 為銘…長半幅䞓末長終幅廣三寸)."""
    t, nxt = r.tokens[i], r.next(i)
    if t.text not in g.ELDEST or t.kind != ROLE or nxt is None:
        return None
    j = i + 1
    while j < len(r.tokens) and (r.tokens[j].kind == NUM or r.tokens[j].text in g.MEASURE_PARTS):
        j += 1
    if j == i + 1 or j >= len(r.tokens) or r.tokens[j].text not in g.MEASURES:
        return None
    r.out.append(with_kind(t, TAIL))
    return i + 1


def going_to(r: _Rereading, i: int) -> int | None:
    """就 + a place, with no act after it (before the end of the paragraph or a person who acts next),
    is going there (士冠 賔禮辭許 | 賔就次, 註 次門外更衣處也); 就X而V is one act V at X (主人就旅食之尊而獻之)."""
    t = r.tokens[i]
    if not (t.kind == JIU and t.text in g.GO_TO and r.vocabulary is not None and "action-jiu-go" in r.vocabulary.concepts):
        return None
    j = i + 1
    while j < len(r.tokens) and j - i <= 3 and r.tokens[j].kind in (PLACE, OTHER, OBJECT):
        j += 1
    after = r.tokens[j] if j < len(r.tokens) else None
    ends = after is None or after.kind in (END, MARK, FINAL) or (after.kind == ROLE and _starts_subject(r.tokens, j))
    if j == i + 1 or not ends:
        return None
    go = r.vocabulary.concepts["action-jiu-go"]
    r.out.append(Token(t.text, t.start, t.end, ACTION, go, (go,)))
    where = r.tokens[i + 1 : j]  # where he goes (次, 西階): a place, whatever the lexicon calls the word
    place = next((c for w in where for c in w.readings if c.kind == PLACE), None)
    r.out.append(Token("".join(w.text for w in where), where[0].start, where[-1].end, PLACE, place))
    return j


def going_ahead(r: _Rereading, i: int) -> int | None:
    """先 right after a person, at the end of the paragraph or before another person who follows (從),
    is his act of going ahead (特牲 尸升入祝先主人從, 注 少牢 祝先入主人從; 少牢 祝先尸從, quoted in the
    特牲 註); elsewhere 先 is "first", a word of the act after it (樂正先升)."""
    t, prev, nxt = r.tokens[i], r.last(), r.next(i)
    if not (t.text in g.AHEAD and prev is not None and prev.kind == ROLE and r.vocabulary is not None):
        return None
    ahead = r.vocabulary.concepts.get("action-xian-ahead")
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    follows = (
        nxt is not None
        and nxt.kind == ROLE
        and after is not None
        and after.concept is not None
        and after.concept.key == "action-cong"
    )
    if ahead is None or not (nxt is None or nxt.kind in (END, MARK, FINAL) or follows):
        return None
    r.out.append(Token(t.text, t.start, t.end, ACTION, ahead, (ahead,)))
    return i + 1


def standing_without_a_verb(r: _Rereading, i: int) -> int | None:
    """A person, a place and a facing with no act: he stands there (士冠 賔西序東面, 註 主人賔俱升立相鄉;
    有司徹 主人立于洗東北西面 | 侑東面于西階西南; 尸與侑北面于廟門之外西上).  At the facing, when only a
    place (於 + place), a rank order (西上) follow it before the end of the paragraph or before a person
    who acts next, and a person stands before it with no act between, a zero-width 立 is read after the
    facing (after the place that follows it), the head of a clause of its own."""
    t = r.tokens[i]
    if t.kind != FACING or r.vocabulary is None or "action-li" not in r.vocabulary.concepts:
        return None
    # back over the place and adverbs before the facing to the person (尸與侑: persons joined)
    k = len(r.out) - 1
    while k >= 0 and r.out[k].kind in (PLACE, ADV, DIR):
        k -= 1
    if k < 0 or r.out[k].kind != ROLE:
        return None
    while k >= 2 and r.out[k - 1].kind == CONJ and r.out[k - 2].kind == ROLE:
        k -= 2
    before = r.out[k - 1] if k > 0 else None
    stood = before is not None and before.kind == ACTION and not before.text  # the 立 read for the one before
    # 栗階升 | 公西鄉 | 賔階上再拜稽首: after a motion, a person with his facing and then another person who acts
    # is no one made to move (升公) but a clause of his own (註 成拜: the 賔 goes up, the 公 faces west)
    moved = (
        before is not None
        and before.kind == ACTION
        and before.concept is not None
        and before.concept.key in g.MOTION_VERBS
        and k == len(r.out) - 1
        and i + 1 < len(r.tokens)
        and r.tokens[i + 1].kind == ROLE
        and _starts_subject(r.tokens, i + 1)
    )
    if (
        before is not None
        and not stood
        and not moved
        and (before.kind in (ACTION, YU, ZI, YI, ZHI, SUO, YUE, RU) or (before.kind == ROLE and before.text != r.out[k].text))
    ):
        return None  # the person is the object of an act, or a place's (拜衆賔 | 于門東)
    j = i + 1
    if j < len(r.tokens) and r.tokens[j].kind == YU and j + 1 < len(r.tokens) and r.tokens[j + 1].kind == PLACE:
        j += 2
    while j < len(r.tokens) and r.tokens[j].kind in (PLACE, RANK):
        j += 1
    after = r.tokens[j] if j < len(r.tokens) else None
    if not (
        after is None
        or after.kind in (END, MARK, FINAL)
        or (after.kind == ROLE and (_starts_subject(r.tokens, j) or _stands_placed(r.tokens, j)))
    ):
        return None
    r.out.extend(r.tokens[i:j])
    end = r.tokens[j - 1].end
    stand = r.vocabulary.concepts["action-li"]
    r.out.append(Token("", end, end, ACTION, stand, (stand,)))
    return j


def things_placed_without_a_verb(r: _Rereading, i: int) -> int | None:
    """A paragraph that opens with things only (no person, no act) and then 于/於 + where they go, with no verb,
    says where they are set out: a zero-width 設 is read before the 于 (士喪 沐巾一浴巾二皆用綌於笲 | 櫛於簞 |
    浴衣於篋, in the list of what is set out for the bath, 註 笲竹器名).  A first word that is an act and a thing
    (櫛: to comb, the comb) is the thing."""
    t, nxt = r.tokens[i], r.next(i)
    if t.kind != YU or nxt is None or nxt.kind not in (PLACE, OBJECT, VESSEL, OTHER) or not r.out:
        return None
    if r.vocabulary is None or "action-she" not in r.vocabulary.concepts:
        return None
    first = r.out[0]
    thing_first = next((c for c in first.readings if c.kind in (OBJECT, VESSEL)), None) if _is_act(first) else None
    rest = r.out[1:] if thing_first is not None else r.out
    if not all(x.kind in (OBJECT, VESSEL, WINE, NUM, OTHER, ADV) for x in rest):
        return None
    if thing_first is None and not any(x.kind in (OBJECT, VESSEL, WINE) for x in rest):
        return None
    if thing_first is not None:
        if rest:
            return None  # (櫛於簞 alone: 沐櫛 … 於 is an act)
        r.out[0] = with_kind(first, thing_first.kind, thing_first)
    at = t.start
    setting = r.vocabulary.concepts["action-she"]
    r.out.append(Token("", at, at, ACTION, setting, (setting,)))
    r.out.append(t)
    return i + 1


def _stands_placed(tokens: list[Token], j: int) -> bool:
    """True if the person at ``j`` is followed by a place and a facing only: the next of a list of persons
    who stand placed (士喪 衆婦人户外北面 | 衆兄弟堂下北面)."""
    k = j + 1
    while k < len(tokens) and tokens[k].kind in (PLACE, DIR, ADV):
        k += 1
    return k > j + 1 and k < len(tokens) and tokens[k].kind == FACING


def presented_next_after(r: _Rereading, i: int) -> int | None:
    """獻次X: "presented next after X", one act whose subject is the one presented (特牲記 公有司…獻次衆賓);
    the act is flagged ``next_after`` and the persons after it are those he comes after."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    if not (
        _is_act(t) and t.concept is not None and t.concept.key == "action-xian" and nxt is not None and nxt.text in g.NEXT_AFTER
    ):
        return None
    if after is None or after.kind != ROLE:
        return None
    r.flag(len(r.out), "next_after", True)
    r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ACTION, t.concept, t.readings))
    return i + 2


def offering_place(r: _Rereading, i: int) -> int | None:
    """于 + a dish + 祭 ending the act: the offering place by that dish, a noun (有司徹 尸兼祭于豆祭: offers
    both at the offering place of the 豆; 主人同祭于豆祭), not a second offering."""
    t, prev = r.tokens[i], r.last()
    after = r.tokens[i + 1] if i + 1 < len(r.tokens) else None
    if not (
        t.kind == ACTION
        and t.concept is not None
        and t.concept.key == "action-ji"
        and t.text == "祭"
        and prev is not None
        and prev.kind in (VESSEL, OBJECT)
        and prev.end == t.start
        and len(r.out) >= 2
        and r.out[-2].kind == YU
        and (after is None or after.kind in (ACTION, MARK))
    ):
        return None
    place = next((c for c in prev.readings if c.kind == PLACE), None)
    r.out[-1] = Token(prev.text + t.text, prev.start, t.end, PLACE, place, prev.readings)
    return i + 1


def standing_at_while_acting(r: _Rereading, i: int) -> int | None:
    """A person 在 a place and then an act (with a facing or 以 between) says where he does the act: 在
    is "at", no act of its own (有司徹 主人在其右北面答拜: at his right, facing north, he answers the bow;
    尸在其右以授之)."""
    t, prev = r.tokens[i], r.last()
    being_at = t.kind == ACTION and t.concept is not None and t.concept.key in g.POSITION_VERBS
    if not (being_at and prev is not None and prev.kind == ROLE):
        return None
    k = i + 1
    if k >= len(r.tokens) or r.tokens[k].kind != PLACE:
        return None
    k += 1
    while k < len(r.tokens) and r.tokens[k].kind in (FACING, YI):
        k += 1
    relative = r.tokens[i + 1].text[:1] in g.THEIR  # 其右: at the other's right, where he acts
    if k >= len(r.tokens) or r.tokens[k].kind != ACTION or (k == i + 2 and not relative):
        return None
    r.out.append(with_kind(t, YU))
    return i + 1


def thing_and_side_after_being_at(r: _Rereading, i: int) -> int | None:
    """After 在 "is at", a thing and a direction are a place: the side of that thing (有司徹 蕡在䵄東:
    the hemp seeds east of the wheat; 糗在蕡西), not the thing the act is done to."""
    t, nxt, prev = r.tokens[i], r.next(i), r.last()
    if not (
        prev is not None
        and prev.kind == ACTION
        and prev.concept is not None
        and prev.concept.key in g.POSITION_VERBS
        and t.kind in (OTHER, OBJECT, VESSEL)
        and nxt is not None
        and nxt.kind == DIR
        and nxt.text[:1] in g.COMPASS
        and t.end == nxt.start
    ):
        return None
    place = next((c for c in t.readings if c.kind == PLACE), None)
    r.out.append(Token(t.text + nxt.text, t.start, nxt.end, PLACE, place, t.readings))
    return i + 2


def side_of_a_place(r: _Rereading, i: int) -> int | None:
    """A person whose name opens with 上/下 right after a place is the place's side and the person:
    阼階上賔 is 阼階上 | 賔 (the top of the east steps; the guest), not 阼階 | 上賔 (the chief guest)."""
    t, prev = r.tokens[i], r.last()
    if not (t.kind == ROLE and prev is not None and prev.kind == PLACE and len(t.text) > 1 and t.text[0] in g.UP_DOWN):
        return None
    if r.vocabulary is None:
        return None
    rest = next((c for c in r.vocabulary.by_label.get(t.text[1:], ()) if c.kind == ROLE), None)
    if rest is None:
        return None
    r.out[-1] = Token(prev.text + t.text[0], prev.start, t.start + 1, PLACE, prev.concept, prev.readings)
    r.out.append(Token(t.text[1:], t.start + 1, t.end, ROLE, rest, (rest,)))
    return i + 1


def not_reaching(r: _Rereading, i: int) -> int | None:
    """不及 + a person is "does not reach him" (特牲 為加爵如初儀 不及佐食: the added cup is not
    presented to the 佐食, 注 不及佐食無從殺也): no act and no subject, words of the act before."""
    t, prev, nxt = r.tokens[i], r.last(), r.next(i)
    if t.kind == CONJ and t.text in g.REACHING and prev is not None and prev.kind == NEG and nxt is not None and nxt.kind == ROLE:
        r.out[-1] = with_kind(prev, TAIL, prev.concept)
        r.out.append(with_kind(t, TAIL))
        r.out.append(with_kind(nxt, TAIL, nxt.concept))
        return i + 2
    return None


def comparison(r: _Rereading, i: int) -> int | None:
    """如 … 初/礼 is a comparison whose words are no acts: 拜洗如賔礼, 执幂如初, 如献卿之礼."""
    if r.tokens[i].kind != RU:
        return None
    ends = [
        k
        for k in range(i + 1, min(i + 9, len(r.tokens)))
        if r.tokens[k].kind == END or (r.tokens[k].text in g.COMPARISON_ENDS and k > i + 1 and r.tokens[k - 1].kind == ROLE)
    ]
    stop = ends[0] if ends else i
    while ends and stop + 1 < len(r.tokens) and r.tokens[stop + 1].kind == END:
        stop += 1  # 如初儀, 如初禮: "as the first rite", one comparison (特牲 為加爵如初儀 | 不及佐食)
    if not ends and i + 1 < len(r.tokens) and r.tokens[i + 1].kind == ROLE and not _starts_subject(r.tokens, i + 1):
        # 如 + a person who is the subject of no act: "as (in) X", no person of the rite (有司徹 …尸以醋
        # 主人亦如擯 | 主人答拜, 亦如擯其綏祭: as in the 儐尸)
        stop = i + 1
    elif (
        not ends and i + 2 < len(r.tokens) and r.tokens[i + 1].text in g.NUMBERED_PRESENTATIONS and r.tokens[i + 2].kind == ACTION
    ):
        stop = i + 2  # 如 + 再/三/亞 + an act: as at that one (士冠 三醮 攝酒如再醮: as at the second 醮)
    elif not ends and i + 1 < len(r.tokens) and r.tokens[i + 1].kind == ACTION:
        # 如 + an act and its object: 見姑姊如見母 (as he saw his mother): up to the next act or subject
        stop = i + 1
        while (
            stop + 1 < len(r.tokens)
            and r.tokens[stop + 1].kind in (OBJECT, OTHER, VESSEL, WINE, ZHI, NUM)
            or (stop + 1 < len(r.tokens) and r.tokens[stop + 1].kind == ROLE and stop == i + 1)
        ):
            stop += 1
    for k in range(i, stop + 1):
        r.out.append(with_kind(r.tokens[k], TAIL, r.tokens[k].concept))
    r.comparisons[len(r.out) - 1] = "".join(x.text for x in r.tokens[i : stop + 1])
    return stop + 1


def sending_off(r: _Rereading, i: int) -> int | None:
    """A bow followed by 送 is one act, the bow of sending off the cup: 再拜稽首送觯 = 拜送."""
    t, prev = r.tokens[i], r.last()
    if not (t.kind == ACTION and t.text in g.SENDING_OFF and _is_act(prev)):
        return None
    assert prev is not None and prev.concept is not None
    if "action-bai" not in prev.concept.broader and prev.concept.key != "action-bai":
        return None
    r.out[-1] = Token(prev.text + t.text, prev.start, t.end, ACTION, prev.concept, prev.readings)
    r.flag(len(r.out) - 1, "sending_off", True)
    return i + 1


def bow_on_receiving(r: _Rereading, i: int) -> int | None:
    """A bow followed by a bare 受, with the other party or the end of the passage after it, is one act, the
    bow of receiving:
    士相見 主人再拜受 | 賔再拜送摯 (the 摯 the other holds out), 賔再拜稽首受 (註 受摯); 覲禮 使者再拜受 |
    侯氏再拜送幣.  The counterpart of :func:`sending_off` (再拜送摯 = 拜送); with the thing written after 受
    (聘禮 公再拜受幣) the bow and the receiving stay two acts."""
    t, prev, nxt = r.tokens[i], r.last(), r.next(i)
    if r.vocabulary is None or not (_is_act(t) and _is_act(prev)):
        return None
    assert t.concept is not None and prev is not None and prev.concept is not None
    if t.concept.key != "action-shou":
        return None
    if "action-bai" not in prev.concept.broader and prev.concept.key != "action-bai":
        return None
    if prev.concept.key in ("action-baishou", "action-baisong") or r.flags.get(len(r.out) - 1, {}).get("sending_off"):
        return None
    if nxt is not None and nxt.kind not in (ROLE, END, MARK):
        # 公再拜受幣: the thing written, two acts; 特牲 主人左執角再拜稽首受 | 復位: his own next act follows,
        # the 受 of the 嘏 portion (two acts); the bow of receiving is followed by the other's act or the end
        return None
    both = r.vocabulary.concepts.get("action-baishou")
    if both is None:
        return None
    r.out[-1] = Token(prev.text + t.text, prev.start, t.end, ACTION, both, (both,))
    r.flag(len(r.out) - 1, "bow_on_receiving", True)
    return i + 1


def negated_bow_on_receiving(r: _Rereading, i: int) -> int | None:
    """不拜受爵 is two acts, the bow left out and the cup received: 众工不拜 | 受爵."""
    t, prev = r.tokens[i], r.last()
    if r.vocabulary is None or not _is_act(t) or prev is None or prev.kind != NEG:
        return None
    assert t.concept is not None
    if t.concept.key not in g.SPLIT_WHEN_NEGATED:
        return None
    first, second = (r.vocabulary.concepts.get(k) for k in g.SPLIT_WHEN_NEGATED[t.concept.key])
    if first is None or second is None:
        return None
    cut = t.start + 1  # one code point: 拜
    r.out.append(Token(t.text[0], t.start, cut, ACTION, first, (first,)))
    r.out.append(Token(t.text[1:], cut, t.end, ACTION, second, (second,)))
    return i + 1


def completive(r: _Rereading, i: int) -> int | None:
    """卒 + act is that act, completed (卒洗, 卒盥, 卒歌): one act flagged ``completive``; but 卒 right
    after an act, before one not begun in the block, closes the act before it (士冠 旅占卒 | 進,
    賔盥卒 | 壹揖: 註 卒已也), while an act interrupted by a reply or a posture is resumed (燕禮 …洗
    賔…辞洗 …兴对 | 卒洗)."""
    t, nxt = r.tokens[i], r.next(i)
    counted = (
        nxt is not None
        and (nxt.kind == NUM or nxt.text in g.COUNTED_SALUTES)
        and i + 2 < len(r.tokens)
        and r.tokens[i + 2].kind == ACTION
    )
    if t.kind == ACTION and t.text in g.COMPLETIVE and counted and _is_act(r.last()):
        r.out.append(with_kind(t, TAIL))  # 賔盥卒 | 壹揖 | 壹讓: 卒 before a counted act closes the act before
        return i + 1
    if not (t.kind == ACTION and t.text in g.COMPLETIVE and nxt is not None and nxt.kind == ACTION):
        return None
    prev = r.last()
    begun = nxt.concept is not None and any(x.kind == ACTION and x.concept == nxt.concept for x in r.out)
    interlude = (
        prev is not None and prev.concept is not None and (prev.concept.flag("responsive") or prev.concept.key in g.POSTURES)
    )
    if _is_act(prev) and not begun and not interlude:
        r.out.append(with_kind(t, TAIL))
        return i + 1
    r.flag(len(r.out), "completive", True)
    r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ACTION, nxt.concept, nxt.readings))
    return i + 2


def cup_not_wine(r: _Rereading, i: int) -> int | None:
    """A form that names a wine and a cup (散) is the cup after an act done to a cup (特牲 利洗散:
    washes the 散 cup), and the wine after 酌/實 (燕禮 酌散: pours the officers' wine)."""
    t, prev = r.tokens[i], r.last()
    cup = next((c for c in t.readings if c.kind == VESSEL), None)
    if t.kind == WINE and cup is not None and _is_act(prev):
        assert prev is not None and prev.concept is not None
        if prev.concept.key in g.CUP_HANDLING:
            r.out.append(with_kind(t, VESSEL, cup))
            return i + 1
    return None


def filled_with(r: _Rereading, i: int) -> int | None:
    """以 + a word that names a wine and an act (醴), after filling or pouring a cup, is what the cup is
    filled with, the instrument, not an act: 聘 宰夫實觶以醴 (fills the cup with sweet wine; 註 酌以授君也),
    士冠 實觶以醴; but 以醴賔 would name the person toasted after it."""
    t, prev, nxt = r.tokens[i], r.last(), r.next(i)
    wine = next((c for c in t.readings if c.kind == WINE), None)
    if not (_is_act(t) and wine is not None and prev is not None and prev.kind == YI):
        return None
    if nxt is not None and nxt.kind == ROLE:
        return None
    k = len(r.out) - 2
    while k >= 0 and r.out[k].kind in (VESSEL, OBJECT, OTHER, WINE):
        k -= 1
    verb = r.out[k] if k >= 0 else None
    if not (_is_act(verb) and verb is not None and verb.concept is not None and verb.concept.key in g.FILLING):
        return None
    # 以 here ends the filling (a tail of it), not the prefix of the next act; the wine is its thing
    r.out[-1] = with_kind(prev, TAIL)
    r.out.append(with_kind(t, WINE, wine))
    return i + 1


def mu_written_for_wu(r: _Rereading, i: int) -> int | None:
    """母 written for 毋 "do not" (the two are one graph in the editions): before 上/下 + 於 it is no
    mother but the negation of a motion, "not above …, not below …" (士相見 若父則遊目母上於面母下於帶,
    儀禮 毋上於面毋下於帶)."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    if t.text in g.MU and t.kind == ROLE and nxt is not None and nxt.text in g.UP_DOWN and after is not None and after.kind == YU:
        r.out.append(with_kind(t, NEG, None))
        return i + 1
    return None


def in_turn(r: _Rereading, i: int) -> int | None:
    """旅 right before another act is "in turn, all of them" (士冠 旅占 註 旅衆也), not the pledge."""
    t, nxt = r.tokens[i], r.next(i)
    if t.text in g.IN_TURN and t.kind == ACTION and _is_act(nxt):
        r.out.append(with_kind(t, ADV, None))
        return i + 1
    return None


def adverb_not_place(r: _Rereading, i: int) -> int | None:
    """A form that is an adverb and a place (序) is the adverb before an act: 序进 "advance in
    order" (注曰序次第也), not 序 the side wall (序内)."""
    t, nxt = r.tokens[i], r.next(i)
    if t.kind == PLACE and t.concept is not None and t.text in g.ADVERBS and nxt is not None and nxt.kind == ACTION:
        r.out.append(with_kind(t, ADV, None))
        return i + 1
    return None


def counted_persons(r: _Rereading, i: int) -> int | None:
    """Numeral + 人 names persons of the group last named: 一人拜受爵 (the leader of the 工)."""
    t, nxt = r.tokens[i], r.next(i)
    if t.kind == NUM and nxt is not None and nxt.text in g.PERSON_WORD:
        prev = r.last()
        doer = _doer_named_later(r, i + 2) if prev is None or prev.kind != ROLE else None
        r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ROLE, doer, (doer,) if doer is not None else ()))
        return i + 2
    return None


def _doer_named_later(r: _Rereading, k: int) -> Concept | None:
    """For 一人 / 二人 with no group before them, the role named for what they go on to do, act + thing +
    者 (鄉射 一人洗舉觶於賔 … 舉觶者坐: 註 一人主人之吏, the 舉觶者; 有司徹 二人洗觶 … 舉觶者), looked for
    in the acts that follow until another person acts; None if none is so named."""
    if r.vocabulary is None:
        return None
    for j in range(k, min(len(r.tokens) - 1, k + 12)):
        a, b = r.tokens[j], r.tokens[j + 1]
        if a.kind == ROLE:
            return None
        if a.kind == ACTION and b.kind in (VESSEL, OBJECT):
            role = next((c for c in r.vocabulary.by_label.get(a.text + b.text + "者", ()) if c.kind == ROLE), None)
            if role is not None:
                return role
    return None


def noun_after_verb(r: _Rereading, i: int) -> int | None:
    """An act word read as a noun after certain verbs: 大夫祭荐 (荐 = the served dishes); a place word
    right after an act of setting in place or of making a place, before 于, is the thing set or made (錯篚于尸左:
    the basket; 士喪 掘坎于階間: the pit)."""
    t, prev = r.tokens[i], r.last()
    nxt_tok = r.next(i)
    if (
        t.kind == PLACE
        and _is_act(prev)
        and prev is not None
        and prev.concept is not None
        and (prev.concept.key in g.SETTING_OUT or prev.concept.key in g.MAKING_A_PLACE)
        and nxt_tok is not None
        and nxt_tok.kind == YU
    ):
        r.out.append(with_kind(t, OBJECT, t.concept))
        return i + 1
    giver = r.out[-2] if len(r.out) >= 2 else None
    if _is_act(t) and prev is not None and prev.kind == ZHI and _is_act(giver) and giver is not None:
        # 賜之食: gives him food (之 the person, 食 the thing: two objects), for a verb that takes that thing
        assert t.concept is not None and giver.concept is not None
        if giver.concept.key == "action-ci" and t.concept.key in g.NOUN_AFTER.get(giver.concept.key, ()):
            r.out.append(with_kind(t, OBJECT))
            return i + 1
    if _is_act(t) and _is_act(prev):
        assert t.concept is not None and prev is not None and prev.concept is not None
        if t.concept.key in g.NOUN_AFTER.get(prev.concept.key, ()) and not (nxt_tok is not None and nxt_tok.kind == ZHI):
            # (受祭之: receives, and offers it, 特牲 尸受 | 祭之: 之 makes the word the act)
            r.out.append(with_kind(t, OBJECT))
            return i + 1
        # a word that names an act and a thing (醴: to toast with sweet wine, the sweet wine) is the
        # thing right after a verb that takes one: 酌醴, 受醴, 啐醴 (but 乃醴賔: the act)
        thing = next((c for c in t.readings if c.kind in (OBJECT, WINE, VESSEL)), None)
        nxt = r.next(i)
        if thing is None and prev.concept.key in g.SETTING_OUT:
            # 設洗: the basin set out (洗 the place), 陳服: the garments laid out
            thing = next((c for c in t.readings if c.kind == PLACE), None)
        if thing is None and nxt is not None and nxt.kind == YU and prev.concept.key not in g.POSTURES:
            # 布席於門中: the mat laid (席 the noun, before 於 and its place)
            thing = next((c for c in t.readings if c.kind == PLACE), None)
        if (
            thing is not None
            and prev.concept.key not in g.MOTION_VERBS
            and prev.concept.key not in g.POSTURES  # 坐櫛: kneels and combs
            and not prev.concept.flag("personObject")
            # 士喪 乃沐櫛: an act done to the body takes the body, not a thing: it washes the hair, then combs
            and prev.concept.flag("onTheBody") != "object"
        ):
            # a place noun so read is the thing acted on (布席: the mat), not where
            r.out.append(with_kind(t, OBJECT if thing.kind == PLACE else thing.kind, thing))
            return i + 1
    # … and right after a noun it qualifies, inside a noun phrase: 側尊一甒醴 (a jar of sweet wine),
    # 服𤣥冠 (the black cap)
    person_next = r.next(i) is not None and r.next(i).kind == ROLE  # 前期三日筮賔: divines (for) the guest
    doubled = prev is not None and prev.text == t.text  # 士冠 乃易服 | 服𤣥冠: the garments, then "wears"
    if (
        _is_act(t)
        and prev is not None
        and not person_next
        and not doubled
        and (
            (prev.kind in (VESSEL, NUM, OTHER) and r.out[:-1] and r.out[-2].kind in (ACTION, VESSEL, NUM, OTHER))
            or (prev.kind == OBJECT and (len(r.out) < 2 or r.out[-2].kind not in (ROLE, PLACE)))
        )
    ):
        thing = next((c for c in t.readings if c.kind in (OBJECT, WINE, VESSEL)), None)
        if thing is None and prev.kind == OBJECT and not (r.next(i) is not None and r.next(i).kind == YU):
            # 徹皮弁冠櫛筵: the mat, last of the things cleared (not 筵于户西, the mat laid there)
            thing = next((c for c in t.readings if c.kind == PLACE), None)
        if thing is not None:
            r.out.append(with_kind(t, OBJECT if thing.kind == PLACE else thing.kind, thing))
            return i + 1
    return None


def act_as_noun_phrase(r: _Rereading, i: int) -> int | None:
    """Act + 之 + 禮/儀/日 is a noun phrase, "the rite (day) of …", not an act: 以壹獻之禮 (士冠),
    如獻卿之禮, 冠之日 (the day of the capping)."""
    t = r.tokens[i]
    after = r.tokens[i + 1 : i + 3]
    if _is_act(t) and len(after) == 2 and after[0].kind == ZHI and (after[1].kind == END or after[1].text in g.NOMINAL_HEADS):
        r.out.extend(with_kind(x, TAIL) for x in (t, *after))
        return i + 3
    return None


def nominalised_act(r: _Rereading, i: int) -> int | None:
    """Act + 者 is the person who does it, not an act: 士既献者 (the officers already toasted); so is
    a relative phrase of acts and things before 者: 受賜爵者 (the one who received the granted cup)."""
    t, nxt = r.tokens[i], r.next(i)
    if t.kind == ACTION and nxt is not None and nxt.text in g.NOMINALISER:
        r.out.append(with_kind(t, TAIL))
        return i + 1
    k = i
    while k < len(r.tokens) and k - i < 4 and r.tokens[k].kind in (ACTION, VESSEL, OBJECT, OTHER, WINE):
        k += 1
    if _is_bow(r, t) and nxt is not None and nxt.kind == ACTION:
        return None  # 長皆答拜 | 舉觶者祭: a bow takes no act as its object; the phrase begins after it
    if t.kind == ACTION and k > i + 1 and k < len(r.tokens) and r.tokens[k].text in g.NOMINALISER:
        if _says_what_they_do(r, i, k):
            return None
        r.out.extend(with_kind(x, TAIL) for x in r.tokens[i:k])
        return k
    return None


def _says_what_they_do(r: _Rereading, i: int, k: int) -> bool:
    """True if the relative phrase ``tokens[i:k]`` + 者 after a person is followed by the way or the place (自, 于,
    a place) and no act of its own before the next person or the end of the paragraph: "the 士 who receive the
    skins, from behind, right of the guest"
    says that they receive them, its act is the clause's (聘禮 士受皮者自後右客: 註 由客後西居其左受皮也; not 士受馬者
    自前還: they turn, 還 is the act)."""
    if not r.out or r.out[-1].kind != ROLE or k + 1 >= len(r.tokens) or r.tokens[k + 1].kind not in (ZI, YU, PLACE):
        return False  # 覲禮 儐使者諸公賜服者束帛四馬: a thing after it, the phrase names whom he gives it to
    for x in r.tokens[k + 1 :]:
        if x.kind == ACTION:
            return False
        if x.kind == ROLE:
            break
    return True


def _is_bow(r: _Rereading, t: Token) -> bool:
    """True for a bow (拜, 答拜, 再拜稽首: a kind of ``action-bai``), an act complete in itself."""
    if t.kind != ACTION or t.concept is None or r.vocabulary is None:
        return False
    return "action-bai" in r.vocabulary.broader_closure(t.concept.key)


def elliptic_repeat(r: _Rereading, i: int) -> int | None:
    """及 + a person + 如初 after a toast repeats that toast for the person, the verb left out:
    獻祝 … 及佐食如初 (特牲: and to the 佐食, as before); so does 及 + a person right after a 獻 whose
    receiver is left out (特牲 酌獻及佐食: presents, and to the 佐食).  The 及 stands for the act repeated."""
    t = r.tokens[i]
    if not (t.kind == CONJ and t.text in g.REACHING and i + 1 < len(r.tokens)):
        return None
    k = i + 1
    while k < len(r.tokens) and r.tokens[k].kind == ROLE:
        k += 1
    # 酌獻及佐食: 及 right after a presentation with no receiver written is the same act, to another
    right_after = _is_act(r.last()) and r.last().concept is not None and r.last().concept.key == "action-xian"
    if k == i + 1 or r.vocabulary is None or not (right_after or (k < len(r.tokens) and r.tokens[k].kind == RU)):
        return None
    toast = next(
        (
            x
            for x in reversed(r.out)
            if x.kind == ACTION
            and x.concept is not None
            and "action-toast" in r.vocabulary.broader_closure(x.concept.key)
            and x.concept.key != "action-zuo"  # a 酢 goes back to one giver; 及 extends the presentations
        ),
        None,
    )
    if toast is None:
        return None
    r.flag(len(r.out), "elliptic", True)
    r.out.append(Token(t.text, t.start, t.end, ACTION, toast.concept, (toast.concept,) if toast.concept else ()))
    return i + 1


def numbered_presenter(r: _Rereading, i: int) -> int | None:
    """A numbered presentation followed by another act names its presenter: 三獻作止爵 (特牲: the
    third presenter, the 賓, raises the stopped cup; 記疏 接尸者賓為三獻).  A person token, resolved
    from the presentations told so far (:meth:`Reader.numbered_presenter`)."""
    t, nxt = r.tokens[i], r.next(i)
    prev = r.last()
    if (
        t.kind == NUM
        and t.text in g.NUMBERED_PRESENTATIONS
        and _is_act(nxt)
        and nxt is not None
        and nxt.concept is not None
        and nxt.concept.key == "action-xian"
        and _is_act(_act_after_position(r.tokens, i + 2))
        and not (prev is not None and prev.kind == ROLE)
    ):
        r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ROLE, None))
        return i + 2
    return None


def _act_after_position(tokens: list[Token], k: int) -> Token | None:
    """The token at ``k`` or, past a facing, a place or an adverb, the first one after them (三獻北面答拜:
    the 答拜)."""
    while k < len(tokens) and tokens[k].kind in (FACING, PLACE, ADV, DIR):
        k += 1
    return tokens[k] if k < len(tokens) else None


def accompanying(r: _Rereading, i: int) -> int | None:
    """從 + a toast word + a dish or 皆 is "what goes with the presentation", a noun phrase: 從獻豆兩
    (士虞: the two dishes that go with it), 從獻皆如主人 (特牲); but 燔從 | 獻佐食 is two acts."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    if (
        _is_act(t)
        and t.concept is not None
        and t.concept.key == "action-cong"
        and _is_act(nxt)
        and nxt is not None
        and nxt.concept is not None
        and r.vocabulary is not None
        and "action-toast" in r.vocabulary.broader_closure(nxt.concept.key)
        and (after is None or after.kind == VESSEL or after.text in ("皆",))
    ):
        r.out.extend(with_kind(x, TAIL) for x in (t, nxt))
        return i + 2
    return None


def toast_word_as_noun(r: _Rereading, i: int) -> int | None:
    """A toast word between a vessel (or a number) and the wine it holds names the wine, not an act:
    兩壺獻酒 (the two jars of wine for the presentations); after 拜 a 賜 is the gift bowed for (拜賜); 亞/三
    + 獻 + (之) + a cup received names the cup of that presentation (有司徹 受三獻爵)."""
    t, prev, nxt = r.tokens[i], r.last(), r.next(i)
    if not _is_act(t) or r.vocabulary is None or t.concept is None:
        return None
    if "action-toast" not in r.vocabulary.broader_closure(t.concept.key):
        return None
    between_noun_and_wine = (
        prev is not None and prev.kind in (VESSEL, NUM, OTHER) and nxt is not None and nxt.text in g.WINE_WORDS
    )
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    # 醴辭曰, 醮辭曰: "the words of the 醴" (士冠: the 辭 said with it), not a toast
    words_of = nxt is not None and nxt.text in g.WORDS_OF and after is not None and after.kind == YUE
    # 拜賜: the gift bowed for (but 拜獻尸: bows and presents to the 尸, two acts)
    after_bow = (
        _is_act(prev)
        and prev is not None
        and prev.concept is not None
        and prev.concept.key in g.BOWS_FOR_A_GIFT
        and t.concept.key in g.GIFT_WORDS
    )
    # 受三獻爵 (有司徹 尸降筵受三獻爵 酌以酢之): "the cup of the third presentation", received, not a
    # presentation (作三獻之爵, raising that cup again, restates the presentation: 特牲 gold 作止爵)
    cup_of = (
        prev is not None
        and prev.kind == NUM
        and prev.text in g.NUMBERED_PRESENTATIONS
        and len(r.out) >= 2
        and _is_act(r.out[-2])
        and r.out[-2].concept is not None
        and r.out[-2].concept.key in g.RECEIVING
        and nxt is not None
        and (nxt.kind == VESSEL or (nxt.kind == ZHI and after is not None and after.kind == VESSEL))
    )
    if cup_of:
        r.out[-1] = with_kind(r.out[-1], TAIL)
        r.out.append(with_kind(t, TAIL))  # what is handled is the cup (爵)
        return i + 1
    if between_noun_and_wine or after_bow or words_of:
        r.out.append(with_kind(t, OBJECT))
        return i + 1
    return None


def relative_clause(r: _Rereading, i: int) -> int | None:
    """所 + act is a relative clause, not an act: 取大夫所媵觯 (the cup the great officers presented);
    so is 所 + a name in 者 (所卦者: what the diagram is drawn with); but 唯X所V is "whomever X
    chooses to V" (唯公所酬), and V is the act."""
    t, nxt = r.tokens[i], r.next(i)
    chooser = len(r.out) >= 2 and r.out[-1].kind == ROLE and r.out[-2].text in g.CHOICE
    if t.kind == SUO and nxt is not None and nxt.kind == ROLE and nxt.text.endswith("者") and not chooser:
        # 所卦者: "what the diagram is drawn with" (士冠 筮與席所卦者), no person
        r.out.append(t)
        r.out.append(with_kind(nxt, OBJECT, None))
        return i + 2
    if t.kind == SUO and nxt is not None and nxt.kind == ACTION and not chooser:
        r.out.append(t)
        r.out.append(with_kind(nxt, TAIL, None))
        return i + 2
    return None


def reaching_a_place(r: _Rereading, i: int) -> int | None:
    """及 + place is reaching the place, one place phrase: 賔入及庭 (location 庭)."""
    t, nxt = r.tokens[i], r.next(i)
    if t.kind == CONJ and t.text in g.REACHING and nxt is not None and nxt.kind == PLACE:
        r.out.append(Token(t.text + nxt.text, t.start, nxt.end, PLACE, nxt.concept, nxt.readings))
        return i + 2
    # 至於廟門 + act: "on reaching the temple gate", where the act is done
    after = r.tokens[i + 1 : i + 4]
    if (
        _is_act(t)
        and len(after) == 3
        and t.text + after[0].text in g.ARRIVING
        and after[1].kind == PLACE
        and after[2].kind == ACTION
    ):
        r.out.append(
            Token(t.text + after[0].text + after[1].text, t.start, after[1].end, PLACE, after[1].concept, after[1].readings)
        )
        return i + 3
    return None


def placement_noun(r: _Rereading, i: int) -> int | None:
    """A place noun used as a verb (筵于户西: lays the mat, a 設) is a verb only before 于/於 or the
    person it is laid for (席工); elsewhere it is the mat (徹…櫛筵, 筵尊不徹: 士冠)."""
    t, nxt = r.tokens[i], r.next(i)
    if not (_is_act(t) and t.concept is not None and t.concept.flag("recordedAs")):
        return None
    place = next((c for c in t.readings if c.kind == PLACE), None)
    if place is None or (nxt is not None and nxt.kind in (YU, ROLE)):
        return None
    prev = r.last()
    listed = prev is not None and prev.kind == OBJECT  # 徹皮弁冠櫛筵: the last of the things cleared
    r.out.append(with_kind(t, OBJECT if listed else PLACE, place))
    return i + 1


def thing_that_is_somewhere(r: _Rereading, i: int) -> int | None:
    """A word that is an act and a thing, opening its words and followed by 有 "has" or 在 "is at", is
    the thing (士冠 洗有篚在西南: the basin has a basket to its south-west; 特牲 洗在阼階東南), not the
    act of washing."""
    t, nxt = r.tokens[i], r.next(i)
    prev = r.last()
    if not (_is_act(t) and nxt is not None and nxt.text in g.BEING_AT):
        return None
    if prev is not None and prev.kind not in (MARK,):
        return None
    thing = next((c for c in t.readings if c.kind in (PLACE, OBJECT, VESSEL)), None)
    if thing is None:
        return None
    r.out.append(with_kind(t, PLACE if thing.kind == PLACE else OBJECT, thing))
    return i + 1


def thing_in_a_list(r: _Rereading, i: int) -> int | None:
    """A word that is an act and a thing, joined by 與 to a thing after it, is a thing in a list (士冠
    筮與席所卦者具饌於西塾: the stalks, the mat and the diagram things), not the act of divining; so is
    an act that is also a wine right before another wine (士喪 醴酒錯于豆南: the 醴 and the 酒)."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    wine = next((c for c in t.readings if c.kind == WINE), None) if _is_act(t) else None
    if (
        wine is not None
        and nxt is not None
        and any(c.key == "object-jiu" or c.kind == WINE for c in (*nxt.readings, nxt.concept) if c)
    ):
        # 醴酒: the sweet wine and the wine, two things set out (士喪 醴酒錯于豆南), not the act of 醴
        r.out.append(with_kind(t, WINE, wine))
        return i + 1
    if not (_is_act(t) and nxt is not None and nxt.kind == CONJ and nxt.text in g.WITH and after is not None):
        return None
    if after.kind not in (OBJECT, VESSEL, PLACE, WINE) and not (_is_act(after) and any(c.kind != ACTION for c in after.readings)):
        return None
    thing = next((c for c in t.readings if c.kind in (PLACE, OBJECT, VESSEL)), None)
    if thing is None:
        return None
    r.out.append(with_kind(t, PLACE if thing.kind == PLACE else OBJECT, thing))
    return i + 1


def slightly_back_from_a_place(r: _Rereading, i: int) -> int | None:
    """少退 / 少進 right after a place or a side says where one stands, "a little back" from it, not a
    move (士冠 兄弟在其南少退, 宰自右少退賛命: the 宰, from the right and a little back, conveys the
    command); after a person it is the move (賔少進)."""
    t, nxt, prev = r.tokens[i], r.next(i), r.last()
    if not (t.kind == ADV and t.text in g.SLIGHTLY and _is_act(nxt) and prev is not None and prev.kind in (PLACE, DIR)):
        return None
    assert nxt is not None and nxt.concept is not None
    if nxt.concept.key not in g.STEPPING:
        return None
    r.out.append(with_kind(t, TAIL))
    r.out.append(with_kind(nxt, TAIL, nxt.concept))
    return i + 2


def their_elder(r: _Rereading, i: int) -> int | None:
    """其 + 長 is one person, "their elder", the elder of each of those just named (特牲 賓弟子及兄弟
    弟子…舉觶于其長; 有司徹 主人答其長拜): 其 opens the noun, so no clause ends on it."""
    t, nxt = r.tokens[i], r.next(i)
    if t.text in g.THEIR and nxt is not None and nxt.kind == ROLE and nxt.concept is None and nxt.text in g.ELDEST:
        r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ROLE, None))
        return i + 2
    return None


def elder_of(r: _Rereading, i: int) -> int | None:
    """X 之 長 is one person, the eldest of the X, who is the role 長X or X長 where the vocabulary has it
    (有司徹 獻兄弟于阼階上 兄弟之長升拜受爵: the 長兄弟; 鄉飲酒 衆賔之長: the 衆賔長), so no clause
    ends on 之."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    if not (
        r.vocabulary is not None
        and t.kind == ROLE
        and nxt is not None
        and nxt.kind == ZHI
        and after is not None
        and after.kind == ROLE
        and after.text in g.ELDEST
        and t.end == nxt.start
        and nxt.end == after.start
        # 獻衆賔 衆賔之長升拜受者三人 (鄉飲酒): right after the group itself, "those of them who…"
        and not (r.last() is not None and r.last().kind == ROLE and r.last().text == t.text)
    ):
        return None
    role = next(
        (
            c
            for label in (after.text + t.text, t.text + after.text)
            for c in r.vocabulary.by_label.get(label, ())
            if c.kind == ROLE
        ),
        None,
    )
    if role is None:
        return None
    end, k = after.end, i + 3
    one, person = (r.tokens[k], r.tokens[k + 1]) if k + 1 < len(r.tokens) else (None, None)
    counted = one is not None and person is not None and one.kind == NUM and person.text == "人"
    if counted and one.start == end and person.start == one.end:  # type: ignore[union-attr]
        end, k = person.end, k + 2  # 衆賔之長一人辭洗 (鄉飲酒 記): one of them, the same person
    r.out.append(Token("".join(x.text for x in r.tokens[i:k]), t.start, end, ROLE, role, (role,)))
    return k


def absence(r: _Rereading, i: int) -> int | None:
    """無 + a noun (a person, a thing, a cup) says that there is none, and negates no act: 無司正 (there
    is no 司正, 鄉射 記), 無筭爵 (the cups without count), 無介 | 不殺, 無爼 | 賓酢主人."""
    t, nxt = r.tokens[i], r.next(i)
    if not (t.kind == NEG and t.text in g.ABSENT and nxt is not None and nxt.kind in (ROLE, OBJECT, VESSEL, OTHER, WINE)):
        return None
    k = i + 1
    while k < len(r.tokens) and (
        r.tokens[k].kind in (OBJECT, VESSEL, OTHER, WINE)
        or (k == i + 1 and r.tokens[k].kind == ROLE)
        # 無腊與膚 (有司徹: neither the dried meat nor the skin): 與/及 + a thing is still what is lacking
        or (
            r.tokens[k].kind == CONJ
            and k + 1 < len(r.tokens)
            and r.tokens[k + 1].kind in (OBJECT, VESSEL, OTHER, WINE)
            and k > i + 1
        )
    ):
        k += 1
    r.out.extend(with_kind(x, TAIL) for x in r.tokens[i:k])
    return k


def possessed_act_word(r: _Rereading, i: int) -> int | None:
    """Act + 其 + act word: the second is a thing, "their X", the object of the first (有司徹 賔及兄弟
    交錯其酬: pass their pledges back and forth; 鄉射 獲者執其薦: his dishes)."""
    t, nxt, prev = r.tokens[i], r.next(i), r.last()
    if t.text in g.THEIR and _is_act(prev) and _is_act(nxt):
        assert nxt is not None
        r.out.append(t)
        r.out.append(with_kind(nxt, OBJECT))
        return i + 2
    return None


def ruler_s_command(r: _Rereading, i: int) -> int | None:
    """唯 / 以 + person + 命 + act: "(only) at X's command" — 命 is a noun and X owns it; neither is the act
    nor its subject (士喪 唯君命出: the host goes out only for the ruler's envoy; 士相見 非以君命使)."""
    t, nxt, prev = r.tokens[i], r.next(i), r.last()
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    if (
        t.kind == ROLE
        and prev is not None
        and prev.text in g.ONLY_OR_BY
        and _is_act(nxt)
        and nxt is not None
        and nxt.concept is not None
        and nxt.concept.key == "action-ming"
        and _is_act(after)
    ):
        r.out.append(with_kind(t, OTHER))
        r.out.append(with_kind(nxt, TAIL))
        return i + 2
    return None


def the_rest(r: _Rereading, i: int) -> int | None:
    """其他 + 如… is "the rest (of the procedure) as …", not persons: 嚌之其他如初 (士冠)."""
    t, nxt = r.tokens[i], r.next(i)
    if t.kind == ROLE and t.concept is None and t.text == "其他" and nxt is not None and nxt.kind == RU:
        r.out.append(with_kind(t, TAIL))
        return i + 1
    return None


def act_as_object(r: _Rereading, i: int) -> int | None:
    """请 / 命 / 相 take the act after them (adverbs between) as their object: 请彻俎, 请立司正,
    君命皆致 (the ruler commands that both deliver), 使人相祭."""
    t = r.tokens[i]
    if not _is_act(t):
        return None
    k = len(r.out) - 1
    while k >= 0 and r.out[k].kind == ADV:
        k -= 1
    head = r.out[k] if k >= 0 else None
    if not _is_act(head) or head is None or head.concept is None:
        return None
    if head.concept.key not in g.ANY_ACT_OBJECT_HEADS or "verbal_object" in r.flags.get(k, {}):
        return None
    went_out = k > 0 and _is_act(r.out[k - 1]) and r.out[k - 1].concept.key == "action-chu"  # type: ignore[union-attr]
    if went_out and k == len(r.out) - 1 and t.concept is not None and t.concept.key == "action-ru":
        return None  # 擯者出請 | 入告: goes out, asks, comes back in and reports (not "asks to enter")
    r.flag(k, "verbal_object", t.concept)
    r.flag(k, "verbal_object_text", "".join(x.text for x in r.out[k + 1 :]) + t.text)
    r.out[k + 1 :] = [with_kind(x, TAIL) for x in r.out[k + 1 :]]
    r.out.append(with_kind(t, TAIL))
    return i + 1


def received_thing(r: _Rereading, i: int) -> int | None:
    """受 takes a toast or a command as the thing received: 受旅, 受酬, 受命 (one act 受); so 聽命 (one
    act 聽, the command heard: :data:`~yili.ingest.grammar.NOMINAL_ACT_OBJECTS`)."""
    t, prev = r.tokens[i], r.last()
    if _is_act(t) and _is_act(prev):
        assert t.concept is not None and prev is not None and prev.concept is not None
        if t.concept.key in g.NOMINAL_ACT_OBJECTS.get(prev.concept.key, ()):
            r.flag(len(r.out) - 1, "nominal_object", t.text)
            r.out.append(with_kind(t, TAIL))
            return i + 1
    return None


def declined_act(r: _Rereading, i: int) -> int | None:
    """辞 + 降 / 洗 / 拜: the act declined is the object, not an act (辞降: decline the other's
    coming down; 辞洗)."""
    t, prev = r.tokens[i], r.last()
    if _is_act(t) and _is_act(prev):
        assert t.concept is not None and prev is not None and prev.concept is not None
        if prev.concept.key in g.VERBAL_OBJECT_HEADS and t.concept.key in g.VERBAL_OBJECTS:
            r.flag(len(r.out) - 1, "verbal_object", t.concept)
            r.flag(len(r.out) - 1, "verbal_object_text", t.text)
            r.out.append(with_kind(t, TAIL))
            return i + 1
    return None


def goal_of_motion(r: _Rereading, i: int) -> int | None:
    """After a motion verb a form that can be a place is the goal: 升席, 降筵 (the mat); but 降洗 is
    "go down and wash" (洗 is an act with a cup).  After 適 "to go to", which always names where, it is
    the goal even so: 鄉射, 鄉飲酒 主人坐取爵興適洗 (goes to the washing basin; 註 適洗 … 南面 at the 洗)."""
    t, prev = r.tokens[i], r.last()
    if not (_is_act(prev) and prev is not None and prev.concept is not None and prev.concept.key in g.MOTION_VERBS):
        return None
    if t.kind not in (ACTION, OBJECT) or not any(c.kind == PLACE for c in t.readings):
        return None
    going_to = prev.concept.key == "action-shi-go"
    if t.kind == ACTION and t.concept is not None and t.concept.flag("cupAction") and not going_to:
        return None
    r.out.append(with_kind(t, PLACE, next(c for c in t.readings if c.kind == PLACE)))
    return i + 1


def time_of_an_act(r: _Rereading, i: int) -> int | None:
    """於 / 于 + an act + 也 is a time ("at the …"), the act a noun: 鄉射記 古者於旅也語 (in old times, at
    the pledge round, they talked) names no pledge; so does 於其 + an act + 也 (士相見 於其入也: at his
    coming in)."""
    t, nxt, prev = r.tokens[i], r.next(i), r.last()
    before = r.out[-2] if len(r.out) >= 2 else None
    # 士相見 終辭其摯於其入也一拜其辱也: 於其入也, "at his coming in" (其 "his" between, 註 入一拜正禮也)
    his = prev is not None and prev.text in g.THEIR and before is not None and before.kind == YU
    if _is_act(t) and prev is not None and (prev.kind == YU or his) and nxt is not None and nxt.text in g.TIME_FINALS:
        if his:
            # the whole phrase is the time: no place (於 其) of the act before
            r.out[-2], r.out[-1] = with_kind(r.out[-2], TAIL), with_kind(r.out[-1], TAIL)
        r.out.append(with_kind(t, TAIL))
        return i + 1
    return None


def means_after_zhi_yi(r: _Rereading, i: int) -> int | None:
    """V之以X: X is what the act is done with, a thing, though its form is also an act (士相見 飾之以布:
    wraps it with cloth, 布 not "to spread"; 維之以索).  Not a motion (執之以降, 以 "and then")."""
    t, prev = r.tokens[i], r.last()
    before = r.out[-2] if len(r.out) >= 2 else None
    if not (_is_act(t) and prev is not None and prev.kind == YI and before is not None and before.kind == ZHI):
        return None
    assert t.concept is not None
    if t.concept.key in g.MOTION_VERBS or len(t.text) > 1 or len(r.out) < 3 or not _is_act(r.out[-3]):
        return None  # 搢之以反位 (鄉射): 反位, a compound act, "and returns to his place"
    nxt = r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    if nxt is not None and nxt.kind not in (ACTION, END, MARK, FINAL, NUM):
        return None  # 以X + its own object or place: an act (之以授, 之以酬 …)
    if nxt is not None and nxt.kind == ACTION and (after is None or after.kind != ZHI):
        return None  # 執之以逆出, 搢之以反位: 以 "and then", an act; 飾之以布 | 維之: the next act has its own 之
    r.out.append(Token(t.text, t.start, t.end, OTHER))
    return i + 1


def manner_before_an_act(r: _Rereading, i: int) -> int | None:
    """縮 (lengthwise) right before an act is how it is done, a word of the act that follows, not the
    end of the thing before (有司徹 司馬羞羊肉湇 | 縮執俎: holds the stand lengthwise)."""
    t, nxt, prev = r.tokens[i], r.next(i), r.last()
    placed = prev is not None and prev.kind in (DIR, PLACE)  # 士虞 席上東縮 | 降: laid lengthwise, east
    if t.kind == OTHER and t.text in g.MANNER and _is_act(nxt) and not placed:
        r.out.append(with_kind(t, ADV))
        return i + 1
    return None


def hand_before_an_act(r: _Rereading, i: int) -> int | None:
    """左手 / 右手 / 二手 / 郤手 / 覆手 right before an act (or before 縮/横 and an act) is the hand it is done with, a word
    of that act (士冠 賔右手執項 左手執前: holds the back with the right hand, the front with the left;
    有司徹 主人受 二手横執几: takes it, and holds the stand crosswise with both hands), not the end of the
    thing before (項手)."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    manner = r.tokens[i + 3] if i + 3 < len(r.tokens) else None
    both = t.kind == NUM and t.text in g.BOTH  # 二手: with both hands (有司徹 主人受 | 二手横執几)
    palm = t.text in g.PALMS  # 郤手 / 覆手: palm up / down (有司徹 尸郤手受匕枋; 覆手以授賔)
    if (t.kind == DIR and t.text in g.SIDE_OF_PERSON or both or palm) and nxt is not None and nxt.text in g.HANDS:
        if palm and after is not None and after.kind == YI and _is_act(manner):
            r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ADV))  # 覆手 | 以授賔
            return i + 2
        if _is_act(after):
            r.out.append(Token(t.text + nxt.text, t.start, nxt.end, ADV))
            return i + 2
        if after is not None and after.text in g.MANNER and _is_act(manner):
            r.out.append(Token(t.text + nxt.text + after.text, t.start, after.end, ADV))  # 二手横執几: crosswise
            return i + 3
    return None


def by_rank(r: _Rereading, i: int) -> int | None:
    """以其爵 is "by his rank" (爵 the rank, not the cup): 公食 戒各以其爵 (each invited by one of his
    rank, 註 必使同班敵者); 聘禮 各以其爵朝服致之."""
    t = r.tokens[i]
    if t.kind == VESSEL and t.text in g.RANK_WORDS and len(r.out) >= 2 and r.out[-1].text in g.THEIR and r.out[-2].kind == YI:
        r.out[-1] = with_kind(r.out[-1], TAIL)
        r.out.append(with_kind(t, TAIL))
        return i + 1
    return None


def opposite_before_a_place(r: _Rereading, i: int) -> int | None:
    """直 "right opposite" before 於/于 and a place is a word of that location, not the end of the thing
    before it (士冠 設洗直於東榮: the basin, in line with the east eave; the place is 東榮)."""
    t, nxt = r.tokens[i], r.next(i)
    after = r.tokens[i + 2] if i + 2 < len(r.tokens) else None
    before_a_place = nxt is not None and nxt.kind == YU and after is not None and after.kind == PLACE
    if t.kind == OTHER and t.text in g.OPPOSITE and before_a_place:
        r.out.append(with_kind(t, TAIL))
        return i + 1
    return None


REREADING_RULES: tuple[Callable[[_Rereading, int], int | None], ...] = (
    going_ahead,
    going_to,
    act_after_all_or_then,
    length_not_elder,
    clothing_the_body,
    going_back,
    on_his_behalf,
    zhu_is_zhi_yu,
    offering_portion,
    standing_without_a_verb,
    opposite_before_a_place,
    elder_of,
    offering_place,
    standing_at_while_acting,
    thing_and_side_after_being_at,
    by_rank,
    time_of_an_act,
    means_after_zhi_yi,
    manner_before_an_act,
    hand_before_an_act,
    side_of_a_place,
    presented_next_after,
    their_elder,
    absence,
    possessed_act_word,
    the_rest,
    ruler_s_command,
    elliptic_repeat,
    numbered_presenter,
    accompanying,
    toast_word_as_noun,
    comparison,
    act_as_noun_phrase,
    placement_noun,
    things_placed_without_a_verb,
    thing_that_is_somewhere,
    thing_in_a_list,
    slightly_back_from_a_place,
    cup_not_wine,
    filled_with,
    mu_written_for_wu,
    in_turn,
    sending_off,
    bow_on_receiving,
    negated_bow_on_receiving,
    completive,
    not_reaching,
    adverb_not_place,
    counted_persons,
    noun_after_verb,
    nominalised_act,
    relative_clause,
    reaching_a_place,
    act_as_object,
    received_thing,
    declined_act,
    goal_of_motion,
)
"""The rules of :func:`normalise`, tried in this order at each token; the first that applies wins."""


def normalise(tokens: list[Token], vocabulary: Vocabulary | None = None) -> tuple[list[Token], dict[int, dict[str, object]]]:
    """Re-read tokens by context before segmentation, applying :data:`REREADING_RULES` in order.

    Parameters
    ----------
    tokens : list[Token]
    vocabulary : Vocabulary, optional
        For rules that need other concepts (splitting 拜受 into 拜 and 受).

    Returns
    -------
    tokens : list[Token]
    flags : dict[int, dict]
        Per head token index, flags to copy onto its clause (``completive``, ``verbal_object``,
        ``nominal_object``, ``sending_off``, ``bow_on_receiving``, ``comparison``).
    """
    r = _Rereading(tokens, vocabulary)
    i = 0
    while i < len(tokens):
        for rule in REREADING_RULES:
            nxt = rule(r, i)
            if nxt is not None:
                i = nxt
                break
        else:
            r.out.append(tokens[i])
            i += 1
    # a comparison qualifies the act before it (拜洗如賔礼, 执幂如初)
    for pos, text in r.comparisons.items():
        before = [k for k in range(pos) if r.out[k].kind == ACTION]
        if before:
            r.flag(before[-1], "comparison", text)
    return r.out, r.flags


def _starts_subject(tokens: list[Token], i: int) -> bool:
    """True if the role at ``i`` is the subject of a following act: only subject-side words
    (adverbs, places, facings, other persons joined by 与/及) stand between it and a verb."""
    j = i + 1
    while j < len(tokens) and (
        tokens[j].kind in SKIP_TO_VERB
        # 賔亦北面于西階上答拜: a place introduced by 于 between the person and his act
        or (
            tokens[j].kind == YU
            and j + 1 < len(tokens)
            and tokens[j + 1].kind == PLACE
            and (j > i + 1 or tokens[j].text in g.POSITION_WORDS)
        )
        or (tokens[j].kind == ZI and (j > i + 1 or (j + 1 < len(tokens) and tokens[j + 1].kind == PLACE)))
        # 賔西階上當楣北面答再拜: after his place, 當 "level with" another (鄉射)
        or (
            tokens[j].text in g.LEVEL_WITH and tokens[j - 1].kind == PLACE and j + 1 < len(tokens) and tokens[j + 1].kind == PLACE
        )
    ):
        if tokens[j].kind == ROLE and not _joined(tokens, j):
            return False
        if tokens[j].kind == ZI:
            # a way taken between the person and his act: 公食 賔北面自間坐 (the guest kneels, going
            # between the two rows of dishes); 有司徹 宰夫自東房薦脯醢 (from the east room)
            j = _noun_phrase_end(tokens, j + 1, len(tokens))
            continue
        if tokens[j].kind == YI:
            if j + 1 < len(tokens) and tokens[j + 1].kind == ACTION:
                return True  # 以 + verb: 尸以醋主人 (the 尸, thereupon, returns the toast)
            # an instrument between subject and verb: 主人以虚爵降
            j = _noun_phrase_end(tokens, j + 1, len(tokens))
            continue
        j += 1
    return j < len(tokens) and (tokens[j].kind == ACTION or _said(tokens, j))


def _own_subject(tokens: list[Token], i: int) -> bool:
    """A person in a list who is the subject of what follows, not through 乃/遂 (which may
    continue the first actor: 公揖卿大夫乃升) but directly (辩献卿主人以虚爵降: the host goes down)."""
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return nxt is not None and nxt.text not in ("乃", "遂") and _starts_subject(tokens, i)


def _rank(tok: Token) -> int:
    value = tok.concept.flag("rank", 0) if tok.concept is not None else 0
    return int(value) if isinstance(value, int) else 0


def _joined(tokens: list[Token], j: int) -> bool:
    """True if the person at ``j`` continues a list of persons begun before it.

    Persons are listed from senior to junior (卿大夫, 賔及卿大夫) or joined by 与/及; a more senior
    person right after another (媵爵者公命长) starts a new subject instead.
    """
    prev = tokens[j - 1]
    if prev.kind == CONJ:
        return True
    if prev.kind == ROLE:
        same = prev.text == tokens[j].text or (prev.concept is not None and prev.concept == tokens[j].concept)
        return not same and _rank(tokens[j]) <= _rank(prev)
    return False


def _leads_to_verb(tokens: list[Token], i: int) -> bool:
    """True if from ``i`` on only prefix words (no person) stand before the next act."""
    j = i
    while j < len(tokens) and tokens[j].kind in (PLACE, FACING, ADV, NEG, DIR, COND, THEN, YI, ER, JIU, TAIL):
        j += 1
    return j < len(tokens) and tokens[j].kind == ACTION


def _takes_person(tok: Token) -> bool:
    return bool(tok.concept is not None and tok.concept.flag("personObject"))


def _noun_phrase_end(tokens: list[Token], i: int, stop: int) -> int:
    """End (exclusive) of the one noun phrase starting at ``i``: a person (with 之 + place: 旅食之尊),
    a place phrase, or a run of other nouns (cups, things, unknown words, numerals)."""
    if i >= stop:
        return i
    t = tokens[i]
    if t.kind == ROLE and i + 1 < stop and tokens[i + 1].kind == DIR and tokens[i + 1].text in g.COMPASS:
        return i + 2  # 于侑東: east of the 侑, a place (有司徹 尸北面于侑東答拜); 左/右 after him is a hand
    if t.kind in (ROLE, PLACE):
        return i + 1
    j = i
    while j < stop and tokens[j].kind in (OTHER, OBJECT, VESSEL, NUM, DIR, ZHI, WINE):
        j += 1
    return max(j, i + 1)


def _thing_subject(tokens: list[Token], h1: int, h2: int) -> int:
    """Where the things that are the subject of 在 begin, or ``h2``: in a setting out, a thing right
    before 在 is what is placed, not the object of the act before (士冠 設洗直于東榮 | 水在洗東)."""
    verb = tokens[h2]
    if verb.concept is None or verb.concept.key not in g.POSITION_VERBS:
        return h2
    k = h2
    while k - 1 > h1 and tokens[k - 1].kind in (OBJECT, VESSEL, WINE, NUM, OTHER):
        k -= 1
    if k == h1 + 1 and h2 - k >= 2 and tokens[h2 - 1].kind in (OBJECT, VESSEL, WINE) and tokens[h1].concept is not None:
        if tokens[h1].concept.key in g.SETTING_OUT | {"action-jian"}:
            # 薦脯醢 | 醢在西 (有司徹): the act before keeps what it sets out; the last thing is the one placed
            return h2 - 1
    return k


def _is_relative_subject(tokens: list[Token], i: int, h2: int) -> bool:
    """True if ``tokens[i:h2]`` is an act (and its things) + 者 right before the act at ``h2``: a
    relative phrase naming who did it, subject of that act (特牲 羞燔者受: the one who served the roast
    receives)."""
    return (
        h2 - i >= 2
        and tokens[h2 - 1].text in g.NOMINALISER
        and all(t.kind == TAIL for t in tokens[i : h2 - 1])
        and tokens[i].concept is not None
        and tokens[i].concept.key.startswith("action-")
    )


class _Between:
    """The words between two acts being split (:func:`_split_after`): the tokens, the first act ``h1`` and the
    second ``h2``, and what the scan has found (``has_person_object``)."""

    def __init__(self, tokens: list[Token], h1: int, h2: int) -> None:
        self.tokens, self.h1, self.h2 = tokens, h1, h2
        self.verb = tokens[h1]
        self.is_motion = self.verb.concept is not None and self.verb.concept.key in g.MOTION_VERBS
        self.takes_person = _takes_person(self.verb)
        self.has_person_object = False

    def next_of(self, i: int) -> Token | None:
        """The token after ``i``, if any."""
        return self.tokens[i + 1] if i + 1 < len(self.tokens) else None

    def second_is(self, keys: frozenset[str] | set[str]) -> bool:
        """True if the second act's concept is one of ``keys``."""
        c = self.tokens[self.h2].concept
        return c is not None and c.key in keys

    def first_is(self, keys: frozenset[str] | set[str]) -> bool:
        """True if the first act's concept is one of ``keys``."""
        return self.verb.concept is not None and self.verb.concept.key in keys


@dataclass(frozen=True)
class Cut:
    """A boundary rule's answer: the second act's prefix begins at ``at``."""

    at: int


@dataclass(frozen=True)
class Skip:
    """A boundary rule's answer: the words up to ``to`` (exclusive) stay with the first act; scan on from there."""

    to: int


BoundaryRule = Callable[[_Between, int], "Cut | Skip | None"]


def section_mark(b: _Between, i: int) -> Cut | None:
    """A ``○`` ends the suffix (a section boundary: 奠于膳篚○更爵)."""
    return Cut(i) if b.tokens[i].kind == MARK else None


def date_phrase(b: _Between, i: int) -> Cut | None:
    """前期三日 | 筮賔: a time phrase opens the act it dates."""
    nxt = b.next_of(i)
    return Cut(i) if b.tokens[i].text in g.BEFORE_THE_DATE and nxt is not None and nxt.text in g.DATE else None


def existential_topic(b: _Between, i: int) -> Cut | None:
    """醴在服北 | 有篚實勺觶角柶: "there is a basket" opens the act it is the topic of."""
    nxt = b.next_of(i)
    if (
        b.tokens[i].text in g.EXISTENTIAL
        and i > b.h1 + 1
        and i + 2 == b.h2
        and nxt is not None
        and nxt.kind in (PLACE, VESSEL, OBJECT)
        and not b.second_is(g.POSITION_VERBS)
    ):
        return Cut(i)
    return None


def existential_condition(b: _Between, i: int) -> Cut | None:
    """有 + a person or a thing + 則 is a condition, "if there is …, then": it opens the act after 則, whatever
    stands before it (士喪 遂拜賔 | 有大夫則特拜之, 註 特拜别於士旅拜; as 有賔則拜之 opening its paragraph)."""
    t = b.tokens[i]
    if t.text not in g.EXISTENTIAL or i <= b.h1:
        return None
    j = i + 1
    while j < b.h2 and j - i <= 2 and b.tokens[j].kind in (ROLE, OBJECT, VESSEL, OTHER, NUM):
        j += 1
    if j == i + 1 or j >= b.h2 or b.tokens[j].kind != THEN:
        return None
    return Cut(i)


def relative_subject(b: _Between, i: int) -> Cut | None:
    """反之 | 羞燔者受: "the one who served the roast" is the subject of what follows."""
    t = b.tokens[i]
    return Cut(i) if t.kind == TAIL and t.concept is not None and _is_relative_subject(b.tokens, i, b.h2) else None


def preposition_phrase(b: _Between, i: int) -> Skip | None:
    """于 / 自 and the one noun phrase they introduce stay with the first act (奠觚于篚, 升自西阶, 献于公)."""
    return Skip(_noun_phrase_end(b.tokens, i + 1, b.h2)) if b.tokens[i].kind in (YU, ZI) else None


def means_phrase(b: _Between, i: int) -> Skip | None:
    """以 + a thing stays with the first act when it is that act's means: right after its 之 (士相見 飾之以布,
    維之以索: wraps it with cloth), or when the second act has a means of its own after its 之 (下大夫相見以鴈 |
    飾之以布: he visits with a goose; one clause, one 以 phrase).  以 before a motion (執之以降) opens it."""
    tokens = b.tokens
    if tokens[i].kind != YI or i + 1 >= b.h2:
        return None
    # 飾之以布 | 維之以索: the next act has its 之 too, or the means is a known thing; not 執之以逆 | 出 (既夕),
    # 搢之以反位 (鄉射): 以 "and then"
    parallel = b.h2 + 1 < len(tokens) and tokens[b.h2 + 1].kind == ZHI
    thing = tokens[i + 1].kind in (OBJECT, VESSEL, WINE)
    after_zhi = i == b.h1 + 2 and tokens[b.h1 + 1].kind == ZHI and (parallel or thing)
    second_has_means = b.h2 + 2 < len(tokens) and tokens[b.h2 + 1].kind == ZHI and tokens[b.h2 + 2].kind == YI
    if not (after_zhi or second_has_means):
        return None
    end = _noun_phrase_end(tokens, i + 1, b.h2)
    return Skip(end) if end > i + 1 else None


def rank_order(b: _Between, i: int) -> Skip | None:
    """A rank order (东上, 北上) describes the line just formed and stays with the first act (立于尊南北面东上)."""
    return Skip(i + 1) if b.tokens[i].kind == RANK else None


def goal_of_motion(b: _Between, i: int) -> Skip | None:
    """A place right after a motion verb is its goal (降阼阶下, 降筵西), also the place a negated motion does not
    reach (鄉射 盡階不升堂 | 受爵); but a position (a place with its side: 階上) after a negated motion is where
    he stays and does the next act (聘禮 北面設几不降 | 階上答再拜稽首, 註 不降以主人禮未成也)."""
    t = b.tokens[i]
    stays = b.h1 > 0 and b.tokens[b.h1 - 1].kind == NEG and t.text[-1:] in g.DIRECTIONS
    return Skip(i + 1) if t.kind == PLACE and b.is_motion and i == b.h1 + 1 and not stays else None


def place_of_being(b: _Between, i: int) -> Skip | None:
    """昌在東方 | 興 (有司徹): the place after 在 is where the thing is, not where the next act is."""
    return Skip(i + 1) if b.tokens[i].kind == PLACE and i == b.h1 + 1 and b.first_is(g.POSITION_VERBS) else None


def person_answering(b: _Between, i: int) -> Cut | None:
    """有司徹 三拜 | 衆賔門東北面皆答壹拜: the person between a bow and an answering bow answers it."""
    tokens, second = b.tokens, b.tokens[b.h2].concept
    if (
        tokens[i].kind == ROLE
        and i == b.h1 + 1
        and b.first_is(g.BOWS_FOR_A_GIFT)
        and second is not None
        and bool(second.flag("responsive"))
        and not any(x.kind in (ROLE, ACTION) for x in tokens[i + 1 : b.h2])
        and _starts_subject(tokens, i)
    ):
        return Cut(i)
    return None


def _doubled(b: _Between, i: int) -> bool:
    """A person written twice (献賔賔…, 射人升賔賔升): object of the first act, subject of the second."""
    t, nxt = b.tokens[i], b.next_of(i)
    return nxt is not None and nxt.kind == ROLE and (nxt.text == t.text or (nxt.concept is not None and nxt.concept == t.concept))


def person_made_to_move(b: _Between, i: int) -> Cut | None:
    """乃升長賔 | 主人酌: the person after 升 is the one made to come up (causative), the next person acts next
    (有司徹, 註 言升長賔則有賛呼之); not 主人升 | 尸侑升, the two going up, listed."""
    nxt = b.next_of(i)
    if (
        b.tokens[i].kind == ROLE
        and i == b.h1 + 1
        and b.first_is(g.CAUSATIVE_MOTION)
        and nxt is not None
        and nxt.kind == ROLE
        and not _doubled(b, i)
        and _starts_subject(b.tokens, i + 1)
        and b.tokens[b.h2].concept != b.verb.concept
    ):
        return Cut(i + 1)
    return None


def _joins_object(b: _Between, i: int) -> bool:
    """True if the word at ``i`` continues the person object (揖卿大夫, 请执幂者与羞膳者)."""
    tokens = b.tokens
    if tokens[i].kind == ROLE:
        # after 與 the person is joined to the object, even before an act (獻工與笙 | 取爵)
        return _joined(tokens, i) and (not _own_subject(tokens, i) or tokens[i - 1].text in g.WITH)
    return (
        tokens[i].kind == CONJ
        and i + 1 < b.h2
        and tokens[i + 1].kind == ROLE
        # 主人揖贊者 | 與賔揖: 與 a person before the same act again opens that act
        and not (tokens[i].text in g.WITH and tokens[b.h2].concept is not None and tokens[b.h2].concept == b.verb.concept)
    )


def person_object(b: _Between, i: int) -> Skip | None:
    """A person right after an act that takes a person object (献, 揖, 命, 请, 作…) is its object, with the persons
    listed after it; not a person right before a bow after an act done for someone other than the other
    party (祝侑 | 主人拜: the 祝 urges the 尸, the host bows)."""
    if b.tokens[i].kind != ROLE or not b.takes_person or b.has_person_object or i != b.h1 + 1:
        return None
    bows_next = i + 1 == b.h2 and b.second_is(g.BOWS_FOR_A_GIFT)
    addressed = b.verb.concept is not None and b.verb.concept.flag("recipientRule") == "other-party"
    if bows_next and not addressed:
        return None
    j = i + 1
    while j < b.h2 and _joins_object(b, j):
        j += 1
    b.has_person_object = True
    return Skip(j)


def person_repeated(b: _Between, i: int) -> Skip | None:
    """A person written twice: the first is the object of the first act (献賔賔…)."""
    if b.tokens[i].kind == ROLE and _doubled(b, i):
        b.has_person_object = True
        return Skip(i + 1)
    return None


def person_opens_act(b: _Between, i: int) -> Cut | Skip | None:
    """A person who starts a subject opens the second act (主人辞 | 賔对); any other person is an object."""
    if b.tokens[i].kind != ROLE:
        return None
    if _starts_subject(b.tokens, i):
        return Cut(i)
    b.has_person_object = True
    return Skip(i + 1)


def place_or_facing(b: _Between, i: int) -> Cut | Skip | None:
    """A place or facing from which only prefix words lead to the second act opens it (賔西阶上拜 | 筵前受爵);
    one followed by a person, a rank order or nothing closes the first (洗洗南西北面; 立于洗南西面北上)."""
    if b.tokens[i].kind not in (PLACE, FACING):
        return None
    return Cut(i) if _leads_to_verb(b.tokens, i) else Skip(i + 1)


def side(b: _Between, i: int) -> Skip | None:
    """A side (東, 西) not right before an act, or right after 在, stays with the first act."""
    nxt = b.next_of(i)
    if b.tokens[i].kind == DIR and (
        not (nxt is not None and nxt.kind == ACTION) or (i == b.h1 + 1 and b.first_is(g.POSITION_VERBS))
    ):
        return Skip(i + 1)
    return None


def comparison_closes(b: _Between, i: int) -> Cut | None:
    """如初 / 如X之儀 / 如初儀 closes its clause: what follows opens the next act (賓三獻如初 | 燔從如初)."""
    tokens, t = b.tokens, b.tokens[i]
    if (
        t.kind == TAIL
        and i > b.h1
        and t.text[-1:] in g.COMPARISON_ENDS
        and any(x.text in g.COMPARISON for x in tokens[b.h1 : i + 1])
    ):
        j = i + 1
        while j < b.h2 and tokens[j].kind == TAIL and tokens[j].text in g.COMPARISON_ENDS:
            j += 1
        return Cut(j)
    return None


def things_joined(b: _Between, i: int) -> Skip | None:
    """舉骼及獸魚, 取粱與醬: 及 / 與 between two things joins them, the act's objects (not 執其薦 | 與俎從之: a
    thing right before 從 is what follows, not a second object)."""
    tokens, nxt = b.tokens, b.next_of(i)
    if (
        tokens[i].kind == CONJ
        and i > b.h1 + 1
        and tokens[i - 1].kind in _THINGS
        and nxt is not None
        and nxt.kind in _THINGS
        and any(x.kind in _THINGS for x in tokens[b.h1 + 1 : i])
        and not (i + 2 == b.h2 and b.second_is(g.THING_AS_SUBJECT))
    ):
        return Skip(i + 1)
    return None


def comparison_then_person(b: _Between, i: int) -> Cut | None:
    """舉骼及獸魚如初 | 尸又三飯: 如初 closes its act; the person after it acts next."""
    tokens, t, nxt = b.tokens, b.tokens[i], b.next_of(i)
    if (
        t.kind == END
        and t.text[-1:] in g.COMPARISON_ENDS
        and any(x.text in g.COMPARISON for x in tokens[b.h1 + 1 : i])
        and nxt is not None
        and nxt.kind == ROLE
        and _starts_subject(tokens, i + 1)
    ):
        return Cut(i + 1)
    return None


def second_person_bowed(b: _Between, i: int) -> Skip | None:
    """拜侑與長賔: 與 joins a second person to the one bowed to (not 賔與大夫之弓: whose bows)."""
    tokens, t, nxt = b.tokens, b.tokens[i], b.next_of(i)
    if (
        t.kind == CONJ
        and t.text in g.WITH
        and b.has_person_object
        and tokens[i - 1].kind == ROLE
        and nxt is not None
        and nxt.kind == ROLE
        and not _starts_subject(tokens, i + 1)
        and not (i + 2 < len(tokens) and tokens[i + 2].kind == ZHI)
    ):
        return Skip(i + 2)
    return None


def likewise_then_person(b: _Between, i: int) -> Cut | None:
    """拜侑與長賔亦如之 | 衆賔從: (亦)如之, "(likewise) as that", closes its act when a person who acts next follows
    (有司徹)."""
    tokens, t = b.tokens, b.tokens[i]
    if t.kind not in (ADV, TAIL, RU):
        return None
    k = i + 1 if t.kind == ADV and tokens[i + 1 : i + 2] and tokens[i + 1].text in g.COMPARISON else i
    if (
        tokens[k].text in g.COMPARISON
        and k + 2 < b.h2
        and tokens[k + 1].kind == ZHI
        and tokens[k + 2].kind == ROLE
        and _starts_subject(tokens, k + 2)
    ):
        return Cut(k + 2)
    return None


def prefix_word(b: _Between, i: int) -> Cut | None:
    """Adverbs, negation, condition words, 以, 而, 就 right before the act open the second act."""
    return Cut(i) if b.tokens[i].kind in PREFIX_KINDS else None


def thing_as_subject(b: _Between, i: int) -> Cut | None:
    """加于俎 | 燔從: the thing carried is the subject of 從 (not the last of a list of things right after the act:
    徹皮弁冠櫛筵 | 入於房)."""
    tokens, t = b.tokens, b.tokens[i]
    if (
        i == b.h2 - 1
        and i > b.h1 + 1
        and t.kind in (OBJECT, OTHER, VESSEL, PLACE)
        and b.second_is(g.THING_AS_SUBJECT)
        and not (i - b.h1 >= 3 and all(x.kind == OBJECT for x in tokens[b.h1 + 1 : i + 1]))
    ):
        return Cut(i)
    return None


def zhi_object(b: _Between, i: int) -> None:
    """之 is the first act's object (the scan goes on: a person after it is no object of the act)."""
    if b.tokens[i].kind == ZHI:
        b.has_person_object = True


def number_before_person(b: _Between, i: int) -> Cut | None:
    """A numeral before a person counts the persons who act next (二人 …)."""
    return Cut(i) if b.tokens[i].kind == NUM and i + 1 < b.h2 and b.tokens[i + 1].kind == ROLE else None


def number_of_dishes(b: _Between, i: int) -> Cut | None:
    """公食 薦豆六 | 設于醬東: the numeral counts the dishes, before a setting out."""
    tokens, t = b.tokens, b.tokens[i]
    if t.kind == NUM and i + 1 == b.h2 and i > b.h1 + 1 and tokens[i - 1].kind in _THINGS and b.second_is(g.SETTING_OUT):
        return Cut(b.h2)
    return None


def number_of_acts(b: _Between, i: int) -> Cut | None:
    """洗繶爵 | 三獻: the numeral counts the act after it."""
    t = b.tokens[i]
    return Cut(i) if (t.kind == NUM or t.text in g.COUNTED_SALUTES) and i + 1 == b.h2 else None


BOUNDARY_RULES: tuple[BoundaryRule, ...] = (
    section_mark,
    date_phrase,
    existential_topic,
    existential_condition,
    relative_subject,
    preposition_phrase,
    means_phrase,
    rank_order,
    goal_of_motion,
    place_of_being,
    person_answering,
    person_made_to_move,
    person_object,
    person_repeated,
    person_opens_act,
    place_or_facing,
    side,
    comparison_closes,
    things_joined,
    comparison_then_person,
    second_person_bowed,
    likewise_then_person,
    prefix_word,
    thing_as_subject,
    zhi_object,
    number_before_person,
    number_of_dishes,
    number_of_acts,
)
"""The clause-boundary rules, in the order :func:`_split_after` tries them at each word between two acts: the first
that answers decides (:class:`Cut`: the second act begins here; :class:`Skip`: the words up to there stay with
the first act); a word no rule answers for stays with the first act (objects, cups, unknown words)."""


def _split_after(tokens: list[Token], h1: int, h2: int) -> int:
    """Index where the suffix of the act at ``h1`` ends and the prefix of the act at ``h2`` begins: the words
    between them scanned left to right, each word asked of :data:`BOUNDARY_RULES` in order."""
    b = _Between(tokens, h1, h2)
    i = h1 + 1
    while i < h2:
        for boundary in BOUNDARY_RULES:
            out = boundary(b, i)
            if isinstance(out, Cut):
                return out.at
            if isinstance(out, Skip):
                i = out.to
                break
        else:
            i += 1
    return h2


def _said(tokens: list[Token], i: int) -> bool:
    """True if the 曰 at ``i`` is the speaker's act: a person stands right before it (adverbs
    between) and no verb, so the words are the act (士冠 辭: 賔對曰… 主人曰某猶願吾子之終教之).  When
    the words open with an act, that act is what is said and done (燕禮 公曰命某为賔: the ruler commands)."""
    if tokens[i].kind != YUE or tokens[i].concept is None:
        return False
    if i + 1 < len(tokens) and tokens[i + 1].kind == ACTION:
        return False
    k = i - 1
    while k >= 0 and tokens[k].kind in (ADV, THEN):
        k -= 1  # 大夫士則曰寡君之老: "as for …, he says" (則 between the speaker and his words)
    if k < 0 or tokens[k].kind != ROLE:
        return False
    # in a dialogue (words already opened in the paragraph: …敢辭主人曰) he speaks next; after an act
    # with no words yet, the person and his 曰 belong to that act: its object (戒賔曰…: the host warns
    # the guest, saying) or the words it reports (司正命卿大夫君曰…: the ruler's words, in the command)
    earlier = tokens[:k]
    return any(t.kind == YUE for t in earlier) or not any(t.kind == ACTION for t in earlier)


def _words_after_act(tokens: list[Token], heads: list[int]) -> list[int]:
    """The 曰 that open words said after an act that is no speech and has words of its own between
    (an object, a place): the saying is an act of its own, done by the same person (士相見 左頭奉之 |
    曰某也願見…; 主人復見之以其摯 | 曰曏者…; 擯者還其摯於門外 | 曰某也使某還摯; 士喪 北面招以衣 | 曰臯某復).
    Words right after the act (再加曰, 卜曰吉), words after a speech act (賔對曰, 戒賔曰, 告於樂正曰) and
    the 傳's words (喪服 …傳曰) stay with it."""
    out: list[int] = []
    for i, t in enumerate(tokens):
        if t.kind != YUE or t.concept is None or i in heads:
            continue
        before = [h for h in heads if h < i]
        if not before:
            continue
        h = before[-1]
        verb = tokens[h].concept
        if verb is None or verb.flag("speech") or any(x.kind == YUE for x in tokens[h + 1 : i]):
            continue
        if tokens[i - 1].text[-1:] in g.TRADITION:
            continue  # 喪服 …傳曰: the words of the 傳, no one's act
        between = [x for x in tokens[h + 1 : i] if x.kind not in (ADV, MARK)]
        if between and not any(x.kind == ROLE for x in between):
            out.append(i)
    return out


def _speaks(tokens: list[Token], j: int) -> bool:
    """True if the person or act at ``j`` introduces speech: 曰 follows (adverbs and the reply 對 between)."""
    k = j + 1
    while k < len(tokens) and (tokens[k].kind in (ADV, NEG) or (tokens[k].kind == ACTION and tokens[j].kind == ROLE)):
        k += 1
    return k < len(tokens) and tokens[k].kind == YUE


def _quote_heads(
    tokens: list[Token], heads: list[int], words: str | None = None
) -> tuple[list[int], dict[int, dict[str, object]]]:
    """See :func:`_quote_spans`; also turns the quoted words into ``tail`` tokens in place."""
    out, flags, spans = _quote_spans(tokens, heads, words)
    for a, b in spans:
        for k in range(a, b):
            if k not in out:
                tokens[k] = with_kind(tokens[k], TAIL)
    return out, flags


def _speech_opening(tokens: list[Token], i: int) -> int:
    """Where the introduction of the words at the 曰 ``i`` begins: back over the speaker, the act
    and what it names (始加祝曰, 戒賔曰, 醴辭曰, 賔對曰), to the end of the words before or the block's
    start."""
    k = i
    while k > 0 and i - (k - 1) <= 4:
        t = tokens[k - 1]
        named = t.kind in (OBJECT, OTHER) and tokens[k].kind == ACTION and tokens[k].text in g.WORDS_OF
        counted = t.text in g.NUMBERED_PRESENTATIONS and tokens[k].kind == ACTION  # 再加曰, 三醮曰
        if not (t.kind in (ROLE, ACTION, NUM, ADV, NEG) or named or counted):
            break
        k -= 1
    return k


def goes_on_with_words(tokens: list[Token]) -> bool:
    """True if a paragraph, read after a paragraph of words, goes on with those words: before any new
    introduction of words (X曰), it has a word of address (爾, 吾子, 某: :data:`~yili.ingest.grammar.ADDRESS`)
    and no person who acts (士冠 嘉薦伊脯乃申爾服…三醮曰…, but not 既夕 啓之昕外内不哭)."""
    toks = [t for t in tokens if t.kind != MARK]
    end = next((k for k, t in enumerate(toks) if t.kind == YUE), len(toks))
    end = _speech_opening(toks, end) if end < len(toks) else end
    before = toks[:end]
    if any(t.kind == ROLE and _starts_subject(toks, k) for k, t in enumerate(before)):
        return False
    text = "".join(t.text for t in before)
    return any(w in text for w in g.ADDRESS)


def opens_with_words(tokens: list[Token]) -> bool:
    """True if a block opens with the introduction of words, nothing before it but who speaks and
    the act the words go with: 戒賔曰…, 再加曰…, 醴辭曰…, 賔對曰… (士冠 and 士昏 the 辭)."""
    toks = [t for t in tokens if t.kind != MARK]
    i = next((k for k, t in enumerate(toks) if t.kind == YUE), None)
    return i is not None and i > 0 and _speech_opening(toks, i) == 0


def _quote_spans(
    tokens: list[Token], heads: list[int], words: str | None = None
) -> tuple[list[int], dict[int, dict[str, object]], list[tuple[int, int]]]:
    """Drop the acts inside quoted speech (after 曰) from the heads.

    The quote runs from 曰 to the next person who starts a subject (卿大夫皆对) or the block's end.
    If the speaker's clause has no act of its own (公曰命某为賔), the first act of the quote is the
    clause's act.

    In the words of a rite (``words`` is ``"open"`` or ``"continued"``: the paragraphs of 辭 that follow
    its narrative, see :func:`opens_with_words`), a quote ends only where the next words are
    introduced (主人曰…, 宿曰…): the words name persons and acts of their own (介爾景福, 兄弟具在).
    Only the last act of an introduction heads its clause (始加祝曰: the blessing at the first capping),
    and its flag ``utterance`` names the act the words go with (醴辭曰: the 醴).  A ``"continued"``
    block goes on with the words of the block before until the next introduction (士冠 嘉薦伊脯…
    三醮曰…).
    """
    flags: dict[int, dict[str, object]] = {}
    out: list[int] = []
    quoted: set[int] = set()
    spans: list[tuple[int, int]] = []

    def ends_quote(j: int) -> bool:
        # another speaker or speech act: 主人曰…, 賔對曰…, 宿曰… (士冠 the 辭)
        if tokens[j].kind in (ROLE, ACTION) and _speaks(tokens, j):
            return True
        # a person who acts ends the words (卜曰吉 … 主婦哭), except in the words of a rite a name
        # before 爾 "you" (介爾景福: 介 "to increase", not the 介)
        addressed = words is not None and j + 1 < len(tokens) and tokens[j + 1].text in g.ADDRESS
        return tokens[j].kind == ROLE and _starts_subject(tokens, j) and not addressed

    yues = [i for i, t in enumerate(tokens) if t.kind == YUE]
    if words is not None:
        for i in yues:
            a = _speech_opening(tokens, i)
            intro = [h for h in heads if a <= h < i]
            if intro or i in heads:
                quoted.update(intro[:-1])  # 始加祝曰: 始加 is when; the 祝 is the act
                head = i if i in heads else intro[-1]
                flags.setdefault(head, {})["utterance"] = _uttered_act(tokens, a, i)
        if words == "continued":
            j = 0
            while j < len(tokens) and not ends_quote(j):
                j += 1
            said = next((y for y in yues if y >= j), None)
            opening = min(j, _speech_opening(tokens, said)) if j < len(tokens) and said is not None else j
            quoted.update(h for h in heads if h < opening)
            spans.append((0, opening))
    for i, t in enumerate(tokens):
        if t.kind != YUE:
            continue
        j = i + 1
        while j < len(tokens) and not (j > i + 1 and (ends_quote(j) or _closes_speech(tokens, i, j))):
            j += 1
        inside = [h for h in heads if i < h < j]
        before = [h for h in heads if h < i]
        own = i in heads  # 主人曰: the 曰 is the act (see _said)
        speaker_has_act = own or (
            bool(before) and not any(tokens[q].kind == ROLE and _starts_subject(tokens, q) for q in range(before[-1] + 1, i))
        )
        if not speaker_has_act and inside:
            inside = inside[1:]
        quoted.update(inside)
        spans.append((i + 1, j))
        if speaker_has_act:
            flags.setdefault(i if own else before[-1], {})["quote"] = "".join(x.text for x in tokens[i + 1 : j])
    out = [h for h in heads if h not in quoted]
    return out, flags, spans


def _closes_speech(tokens: list[Token], i: int, j: int) -> bool:
    """True if the words after the 曰 at ``i`` end right before the act at ``j``: they close with a set
    phrase of declining or consenting (:data:`~yili.ingest.grammar.SPEECH_CLOSINGS`: 敢不敬從, 敢辭), and
    what follows is an act (士相見 主人對曰…敢不敬從 | 出迎於門外)."""
    if tokens[j].kind != ACTION:
        return False
    said = "".join(t.text for t in tokens[i + 1 : j])
    return any(said.endswith(c) for c in g.SPEECH_CLOSINGS)


def _uttered_act(tokens: list[Token], a: int, i: int) -> str:
    """The key of the act the words introduced at ``tokens[a:i]`` go with: the last act named other
    than 辭 "the words" (醴 of 醴辭曰, 加 of 再加曰, 祝 of 始加祝曰 after the time 始加), or
    ``action-yue`` when only a speaker stands there (主人曰)."""
    acts = [t.concept.key for t in tokens[a:i] if t.concept is not None and t.concept.key.startswith("action-")]
    if acts and tokens[i - 1].text in g.WORDS_OF:
        acts = acts[:-1]  # 醴辭曰, 昏辭曰: 辭 is "the words", not the act of declining
    return acts[-1] if acts else "action-yue"


def segment(tokens: list[Token], block: int, vocabulary: Vocabulary | None = None, words: str | None = None) -> list[Clause]:
    """Split the tokens of one classic block into clauses, one per act, tiling the block.

    Three steps, each a function of its own: the re-tagging (:func:`normalise`, the ordered
    :data:`REREADING_RULES`), the acts and the quoted speech (:func:`_act_heads`, :func:`_quote_heads`:
    which acts head a clause, the words said inside a speech act's span), and the clause boundaries
    (:func:`clause_bounds`, the ordered :data:`BOUNDARY_RULES`); :func:`_clause` makes each clause.

    Parameters
    ----------
    tokens : list[Token]
        The block's tokens (from :meth:`Tokenizer.tokenize`).
    block : int
        The block number, copied onto each clause.
    vocabulary : Vocabulary, optional
        For the rereadings that need it (a toast word as a noun).
    words : {None, "open", "continued"}
        ``"open"`` for a paragraph of the rite's words (戒賔曰…), ``"continued"`` for one that goes on
        with the words of the paragraph before (see :func:`_quote_spans`); None for narrative.

    Returns
    -------
    list[Clause]
        In text order.  Words before the first act join the first clause; words after the last act
        join the last.  A block with no act gives a single clause headed by its first word only if
        that word is a term; otherwise no clause.

    Examples
    --------
    The excerpt's ``主人北面盥坐取觚洗賔少进辞洗`` gives 主人北面盥 | 坐 | 取觚 | 洗 | 賔少进 | 辞洗.
    """
    tokens, pre_flags = normalise(tokens, vocabulary)  # re-tagging
    heads, quote_flags = _quote_heads(tokens, _act_heads(tokens, pre_flags, words), words)  # quoted speech
    if not heads:
        return []
    bounds = clause_bounds(tokens, heads, pre_flags)  # clause boundaries (BOUNDARY_RULES)
    return [
        _clause(tokens, h, bounds[n], bounds[n + 1], n == 0, block, {**pre_flags.get(h, {}), **quote_flags.get(h, {})})
        for n, h in enumerate(heads)
    ]


def _act_heads(tokens: list[Token], pre_flags: dict[int, dict[str, object]], words: str | None) -> list[int]:
    """The indexes of the tokens that head a clause, in order: each act (an ``ACTION`` token, or a
    speaker's 曰 that is his act, :func:`_said`) and, in narrative (``words`` None), the 曰 of words said
    after an act with its object or place between (:func:`_words_after_act`; 主人復見之以其摯 | 曰…),
    which it marks ``words_after_act`` in ``pre_flags`` (updated in place)."""
    heads = [i for i, t in enumerate(tokens) if t.kind == ACTION or _said(tokens, i)]
    if words is None:
        for i in _words_after_act(tokens, heads):
            heads.append(i)
            pre_flags.setdefault(i, {})["words_after_act"] = True
        heads.sort()
    return heads


def clause_bounds(tokens: list[Token], heads: list[int], pre_flags: dict[int, dict[str, object]]) -> list[int]:
    """Where each clause of ``tokens`` begins, and the end: ``len(heads) + 1`` token indexes, the
    first 0 and the last ``len(tokens)``; clause ``n`` is ``tokens[bounds[n]:bounds[n + 1]]``, headed
    by ``heads[n]`` (non-empty, ascending).

    Between two heads the cut is where :data:`BOUNDARY_RULES` put it (:func:`_split_after`), or
    earlier where a thing before the second act is its subject (:func:`_thing_subject`: 燔從); before
    words said after an act (``words_after_act`` in ``pre_flags``) it is right before the 曰, or before
    the 則 (or adverb, condition, negation) that opens the saying: 以其摯 | 曰…, 則曰.
    """
    bounds = [0]
    for h1, h2 in zip(heads, heads[1:], strict=False):
        if pre_flags.get(h2, {}).get("words_after_act"):
            k = h2  # 以其摯 | 曰…: the words between belong to the act before, but 則曰 opens the saying
            while k > h1 + 1 and tokens[k - 1].kind in (ADV, THEN, COND, NEG):
                k -= 1
            bounds.append(k)
            continue
        bounds.append(min(_split_after(tokens, h1, h2), _thing_subject(tokens, h1, h2)))
    bounds.append(len(tokens))
    return bounds


def _clause(tokens: list[Token], h: int, a: int, b: int, first: bool, block: int, flags: dict[str, object]) -> Clause:
    """The clause of ``tokens[a:b]`` headed by ``tokens[h]``, without its section marks (○): a mark
    before the head, or right before the clause (not the block's first), sets ``section_start``;
    a motion verb with a person right after it is ``causative`` (射人升賔: the usher has the guest
    come up).  ``flags`` (the re-tagging's and the quoted speech's of the head) are copied."""
    section = False
    while a < h and tokens[a].kind == MARK:
        a += 1
        section = True
    part = [t for t in tokens[a:b] if t.kind != MARK]
    if not first and tokens[a - 1].kind == MARK:
        section = True
    head = h - a - sum(1 for t in tokens[a:h] if t.kind == MARK)
    flags = dict(flags)
    if section:
        flags["section_start"] = True
    verb = part[head]
    if (
        verb.concept is not None
        and verb.concept.key in g.CAUSATIVE_MOTION
        and head + 1 < len(part)
        and part[head + 1].kind == ROLE
    ):
        flags["causative"] = True
    return Clause(part, head, block, flags)
