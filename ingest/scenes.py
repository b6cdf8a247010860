"""Who is where at every step: the place and facing of each person present, by rules of the language and of
the ritual, each position marked ``written`` or ``inferred`` with the step and the rule that set it, and
the facing likewise (``facing_status``, ``facing_rule``).

The rules of place, in order (the first that answers decides; ``ontology/ground.ttl`` holds the motions
and whose steps each flight is, with the sentences they rest on):

1. ``climb``: 升 goes to the head of the steps: those written (升自阼階), else those he stands at the foot
   of, else his side's (阼階 the host's: 士冠禮注 阼猶酢也東階所以荅酢賓客也, quoted in 釋宫); a place
   written that is no flight of steps (升席, 升筵) is where he goes (rule 3).
2. ``descend``: 降 goes to the foot of the steps written, else of those he stands at the head of, else
   his side's; 降席, 降阶西: the place as written (rule 3).
3. ``written``: a written place (即位于門東, 主人筵前献賔) is where the agent is.
4. ``stand``: 即位, 立 with no place: his standing place (位), the last place he took with such a verb.
5. ``back``: 反, 反位 (with no place): back where he came from, the place before his last move (註 反還也;
   燕禮 賔西階上拜, 筵前受爵, 反位: to the head of the west steps).  ``return``: 復位, 復 (with no place, or
   其位): back to his standing place.  ``first-place``: 復初位 (初: at first): back to the first place he
   stood at (written, or taken with 即位 / 立) on the level he is on, the hall or below it (鄉飲酒禮
   賔介降衆賔皆降復初位: the 衆賔, gone down, go back to 門左, where they stood on entering; 士冠禮
   主人升復初位: the host, gone up, back to 序端, where he stood on the hall).
6. ``mat``: 就席 / 即席: to the mat laid for the rite (布席于…, 筵于…), else the guest's mat (戶牖間).
7. ``enter``: 入 inside the gate.  ``exit``: 出 with no place written takes him out of the scene (鄉飲酒禮
   賔出衆賔皆出主人送于門外再拜); with a place (出門左) he is there.  ``seen-off``: the one a step sees off
   (拜送, 送 with no cup or gift: 士冠禮 主人退賔拜送) leaves the scene too.  One who is out comes back
   with 入; if the text makes him act before that, he acts outside the gate (``outside``: 門外).
8. otherwise he stays where he was (``near`` for 進 退 辟 還: a short move).

A visit (``ykg:visit`` in ``ground.ttl``: 戒, 宿 the guest, with no place written) takes the scene to the
gate of the visited one's house: the visitor and the visited, while it lasts, are at ``賔之家門外`` (rule
``guest-house``; no point on the host's plan), and a gate place written for them is that house's
(士冠禮 乃宿賔 賔如主人服出門左西面再拜: 賔之家門左, not the host's 門左).  Once the visitor is seen
off or goes away (退), it ends at the first step that is not the visited one's bow or seeing off (鄉射禮
主人退 賔送 再拜: the guest bows at his own gate); it ends at once when a place away from the gate (or of
the temple, 廟) is written for either.  The visited one then stays at home, out of the scene
(``at-home``).  No visit opens in the 記 (司射前戒之: a warning, no visit), nor when the step's agent is
the one visited (an agent misread).

The rules of facing, in order (``facing_rule``):

- ``written``: a facing written at the step (西面).
- ``stand``, ``return``, ``back``, ``first-place``: 即位 / 立 with no place (or at the place of his standing
  place), 復位, 反位, 復初位 take the facing of the position they go back to (the standing place keeps the facing written when
  it was taken: 即位于門東西面).
- ``mat``: 即席 faces the way the mat was laid (士冠禮 布席于門中闑西閾外西面 … 即席坐西面).
- ``bow``: a bow (拜, 再拜, 荅拜, 拜送 …: ``ykg:bow``) by one at a place where the rite has already written
  the facing of his bow faces that way (鄉飲酒禮 主人阼階上北面再拜, his later bows at 阼階上: 北面).
- ``place``: one who arrives at a place that has a facing of its own (阼階上 西面, 西階上 東面, 阼階下
  西面, 西階下 東面: ``yk:facing`` in ``ground.ttl``, with its sentence) faces that way.
- ``front``: one who arrives in front of the guest's mat (筵前, 席前) faces it, north (鄉飲酒禮
  賔之席前西北面獻賔: ``yk:frontFacing``).
- ``enter``: 入 faces north, towards the hall (釋宫 宫必南鄉).
- otherwise the last facing holds (its status, rule and step unchanged).

An inferred facing is written in the script of the text: in simplified characters when the steps are
(the 燕禮 excerpt: 东面, not 東面; OpenCC's ``t2s`` table), as a written one is.

A person enters the scene the first time a step makes him its agent; no rule moves anyone who is not an
agent, except the one a step sees off.  Plain records only: no RDF.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

from yili.ingest.ground import Spot, resolve
from yili.ingest.reading import looks_traditional
from yili.ingest.steps import Step
from yili.ontology.act_classes import act_class
from yili.ontology.ground import Ground, load_ground

WRITTEN, INFERRED = "written", "inferred"
_MAT_ACTIONS = act_class("acts-laying-a-mat")
_MATS = ("席", "筵")
_OWN_PLACE = ("其位", "位")
_FIRST_PLACE = "初位"
"""復初位: the place first held (初: at first)."""
_FIRST_PLACE_SOURCE = "鄉飲酒禮 賔介降衆賔皆降復初位; 士冠禮 主人升復初位 (初位: the place he first stood at there, 初 at first)"


@cache
def _t2s():  # type: ignore[no-untyped-def]
    """OpenCC's traditional → simplified converter (loaded once)."""
    from opencc import OpenCC

    return OpenCC("t2s")


def in_script(facing: str, traditional: bool) -> str:
    """``facing`` (as ``ontology/ground.ttl`` writes it, in traditional characters: 東面) in the script of
    a text: unchanged for a traditional text, in simplified characters otherwise (东面)."""
    return facing if traditional else _t2s().convert(facing)


@dataclass(frozen=True)
class Position:
    """Where one person is after a step.

    Attributes
    ----------
    person : str
        The role as the edition writes it (主人, 賔).
    role : str
        The role's concept key (``role-zhuren``).
    place : str | None
        The place: as written (門東), or the feature a rule names (阼階上); None if not known yet.
    x, y : float | None
        The point on the plan (depths of the hall, x east, y north); None off the plan (賔之家).
    facing : str | None
        As written (西面), or carried from an earlier step.
    status : str
        ``written`` (the place is written at the step that set it) or ``inferred`` (a rule set it).
    step : int
        The sequence number of the step that set the place.
    rule : str
        The rule that set it (``written``, ``climb``, ``return``…, see the module).
    source : str
        The sentence the rule or the place rests on.
    facing_status : str | None
        ``written`` (the facing is written at the step that set it) or ``inferred``; None with no facing.
    facing_rule : str | None
        The facing rule that set it (``written``, ``place``, ``bow``, ``stand``… see the module).
    facing_step : int | None
        The sequence number of the step that set the facing.
    facing_source : str
        The sentence the facing rule rests on ('' when written).
    present : bool
        False once the text has taken him out (rules ``exit``, ``seen-off``): he is in no scene until he
        enters again; ``place``, ``x``, ``y`` and ``facing`` are then None.
    at : int | None
        In :func:`moves` only: the sequence number of the step at which this change happens (the place
        may have been set earlier, at ``step``, and the facing at ``facing_step``); None in a scene.
    """

    person: str
    role: str
    place: str | None
    x: float | None
    y: float | None
    facing: str | None
    status: str
    step: int
    rule: str
    source: str
    facing_status: str | None = None
    facing_rule: str | None = None
    facing_step: int | None = None
    facing_source: str = ""
    present: bool = True
    at: int | None = None

    def as_record(self) -> dict[str, object]:
        """JSON-ready dict of every attribute."""
        return {k: getattr(self, k) for k in FIELDS}


FIELDS = ("person", "role", "place", "x", "y", "facing", "status", "step", "rule", "source", "facing_status", "facing_rule",
          "facing_step", "facing_source", "present", "at")  # fmt: skip
"""The attributes of :class:`Position`, in the order of :meth:`Position.as_record`."""


def _spot_of(key: str, ground: Ground) -> Spot | None:
    return resolve(ground.features[key].label, ground) if key in ground.features else None


def scenes(steps: tuple[Step, ...] | list[Step], ground: Ground | None = None) -> list[dict[str, Position]]:
    """The scene after each step: ``result[i]`` maps each person present (role key) to his position after
    ``steps[i]``, in the order they entered; one the text has taken out (``exit``, ``seen-off``) is in
    no scene until he enters again.

    Parameters
    ----------
    steps : sequence of Step
        An edition's steps in order.
    ground : Ground, optional
        The plan (default :func:`~yili.ontology.ground.load_ground`).

    Returns
    -------
    list[dict[str, Position]]
        One dict per step (the same length as ``steps``), keyed by the role's concept key, or by the
        name as written for a person the vocabulary does not know (復者).
    """
    return [{k: p for k, p in state.items() if p.present} for state in _states(steps, ground or load_ground())]


@dataclass
class _Scene:
    """What :func:`_states` carries from one step to the next: where each one is (``here``), where
    each last stood (``standing``), the places each stood at in order (``held``: written, or by 即位 /
    立; for 復初位), where each was before his last move (``previous``), the facing last written for a
    person's bow at a place (``bowed``: "person feature relations" → (facing, step)), the mat last laid
    and its facing, the visit under way, and whether the text is in traditional characters."""

    traditional: bool
    here: dict[str, Position] = field(default_factory=dict)
    standing: dict[str, Position] = field(default_factory=dict)
    held: dict[str, list[Position]] = field(default_factory=dict)
    previous: dict[str, Position] = field(default_factory=dict)
    bowed: dict[str, tuple[str, int]] = field(default_factory=dict)
    mat: Spot | None = None
    mat_facing: tuple[str, int] | None = None
    visit: _Visit | None = None


def _states(steps: tuple[Step, ...] | list[Step], ground: Ground) -> list[dict[str, Position]]:
    """As :func:`scenes`, with those who went out kept (``present`` False)."""
    scene = _Scene(traditional=looks_traditional("".join(s.text for s in steps)))
    out: list[dict[str, Position]] = []
    for step in steps:
        actual = step.mode == "actual"
        _begin_visit(scene, step, ground)
        if (
            actual
            and step.action.key in _MAT_ACTIONS
            and step.location
            and ((step.object or "").endswith(_MATS) or step.action.key == "action-xi-mat")
        ):
            scene.mat = resolve(step.location, ground)
            scene.mat_facing = (step.facing.label, step.sequence) if step.facing else None
        elsewhere = False  # a place away from the visited house written for one of the two
        if actual and not step.summary:
            agents = set()
            for term in step.agent:
                if term.key and not term.key.startswith("role-"):
                    continue
                who = term.key or term.label  # a person the vocabulary does not know is kept by name
                agents.add(who)
                away = _move_agent(scene, step, who, term.label, ground)
                elsewhere = elsewhere or away
            if step.action.key in ground.see_off and not step.object and step.vessel is None:
                for term in step.recipient:
                    who = term.key or term.label
                    seen = scene.here.get(who)
                    if seen is not None and seen.present and who not in agents:
                        scene.previous[who] = seen
                        scene.here[who] = _gone(seen, step, "seen-off", ground.see_off_source)
        _end_or_leave_visit(scene, step, ground, elsewhere)
        out.append(dict(scene.here))
    return out


def _begin_visit(scene: _Scene, step: Step, ground: Ground) -> None:
    """Before ``step`` moves anyone: end the visit whose visitor went away once the visited one has
    answered, and begin the visit ``step`` makes (an act of ``ground.visit`` with an agent and a
    recipient, no place, in the narrative: 乃宿賔), unless it goes on the same one."""
    actual = step.mode == "actual"
    visit = scene.visit
    if actual and not step.summary and visit is not None and visit.left and not _answers(step, visit, ground):
        _end_visit(scene.here, visit, step, ground)  # the visitor went away (退) and the visited one has answered
        scene.visit = visit = None
    if (
        actual
        and not step.summary
        and step.action.key in ground.visit
        and step.recipient
        and step.agent
        and not step.location
        and step.part == "narrative"
    ):
        guest, host = step.recipient[0], step.agent[0]
        new = _Visit(host.key or host.label, guest.key or guest.label, guest.label + _HOUSE)
        same = visit is not None and (visit.visitor, visit.visited) == (new.visitor, new.visited)
        # no one visits himself (an agent misread); 乃宿賔 … 乃宿賔 賔許: the same visit goes on
        if new.visitor != new.visited and not same:
            if visit is not None:
                _end_visit(scene.here, visit, step, ground)
            scene.visit = new


def _move_agent(scene: _Scene, step: Step, who: str, label: str, ground: Ground) -> bool:
    """Move ``who`` (a role key, or a name as written), an agent of ``step`` written ``label``, to
    where ``step`` puts him facing where it turns him (:func:`_move`, :func:`_face`), and keep what
    later steps read of it.  True if he is one of a visit's two and the place written is away from
    the visited house (the visit is over)."""
    visit, here = scene.visit, scene.here
    before = here.get(who)
    came_from = scene.previous.get(who)
    first = _first_place(scene.held.get(who, ()), before)
    pos = _move(step, who, label, before, scene.standing.get(who), scene.mat, ground, came_from, first)
    elsewhere = False
    at_house = visit is not None and who in (visit.visitor, visit.visited)
    if at_house and visit is not None:
        pos = _at_house(step, pos, before, visit, ground)
        if not (pos.place or "").startswith(visit.house):
            at_house, elsewhere = False, True  # a place away from the gate: the visit is over (below)
        elif before is None or before.place != pos.place:
            before = None  # come to the house: no facing carried from elsewhere
    pos = _face(step, pos, before, scene.standing.get(who), came_from, scene.mat_facing, scene.bowed, ground)
    if pos.rule == "first-place" and pos.step == step.sequence and not step.facing and first and first.facing:
        why = f"{_FIRST_PLACE_SOURCE}; the facing of {first.place}"
        pos = replace(pos, facing=first.facing, facing_status=INFERRED, facing_rule="first-place",
                      facing_step=step.sequence, facing_source=why)  # fmt: skip
    if pos.facing and pos.facing_status == INFERRED and pos.facing_step == step.sequence:
        pos = replace(pos, facing=in_script(pos.facing, scene.traditional))
    if pos.present and pos.y is not None and pos.step == step.sequence and pos.rule in ("written", "stand"):
        scene.held.setdefault(who, []).append(pos)
    here[who] = pos
    if at_house:
        return elsewhere  # the guest's house is no place to come back to on the host's plan
    if before is not None and before.place != pos.place:
        scene.previous[who] = before
    motion = ground.motions.get(step.action.key)
    if motion is not None and motion.kind == "stand" and pos.place is not None:
        scene.standing[who] = pos
    elif (before is None or not before.present) and pos.place is not None and step.location:
        scene.standing.setdefault(who, pos)
    if step.facing and step.action.key in ground.bows and pos.present:
        spot = resolve(pos.place, ground) if pos.place else None
        if spot is not None:
            scene.bowed[who + " " + _where(spot)] = (step.facing.label, step.sequence)
    return elsewhere


def _end_or_leave_visit(scene: _Scene, step: Step, ground: Ground, elsewhere: bool) -> None:
    """After ``step`` moved its agents: end the visit if a place away from the house was written for
    one of its two (``elsewhere``) or the visitor is somewhere else; mark the visitor gone (``left``)
    if he was seen off or went away (退), so that the visited one may still answer."""
    visit = scene.visit
    if visit is not None and step.mode == "actual" and not step.summary:
        v = scene.here.get(visit.visitor)
        if elsewhere or (v is not None and v.present and not (v.place or "").startswith(visit.house)):
            _end_visit(scene.here, visit, step, ground)  # a place away from the house written for one of them
            scene.visit = None
        elif v is None or not v.present or (step.action.key in ground.visit_end and _by(step, visit.visitor)):
            scene.visit = replace(visit, left=True)  # seen off, or gone away (退): the visited one may still answer


_HOUSE = "之家"
"""賔之家: the house of the visited one, as the text names it (士冠禮 擯者告期于賔之家)."""
_TEMPLE = "廟"
"""A place of the temple (廟門之外) is the host's: a visit is over when the text writes one for the visitor."""


@dataclass(frozen=True)
class _Visit:
    """A visit under way: the visitor and the visited (role keys), the house (賔之家), whether the
    visitor has gone away (退)."""

    visitor: str
    visited: str
    house: str
    left: bool = False


def _answers(step: Step, visit: _Visit, ground: Ground) -> bool:
    """Whether ``step`` is the visited one's answer to the visitor going away: his bow or seeing off, with no
    place written (士冠禮 賔拜送; 鄉射禮 賔送 | 再拜; 鄉飲酒禮 賔拜辱)."""
    answer = step.action.key in ground.bows or step.action.key in ground.see_off
    return _by(step, visit.visited) and not step.location and answer


def _by(step: Step, who: str) -> bool:
    """Whether ``who`` (a role key or a name as written) is an agent of ``step``."""
    return any((t.key or t.label) == who for t in step.agent)


def _at_house(step: Step, pos: Position, before: Position | None, visit: _Visit, ground: Ground) -> Position:
    """``pos`` of the visitor or the visited during a visit: a gate place written for him is at the house's
    gate (門左: 賔之家門左), a place of the temple is his own (the visit is over), any other place at the
    house's gate (賔之家門外: rule ``guest-house``)."""
    loc = step.location or ""
    if pos.step == step.sequence and pos.rule == "written" and loc:
        if _TEMPLE in loc or "門" not in loc:
            return pos
        return replace(pos, place=visit.house + loc, x=None, y=None, source=ground.visit_source)
    if before is not None and before.present and (before.place or "").startswith(visit.house):
        return before  # at the house already (賔之家門左): he stays there
    gate = visit.house + "門外"
    return Position(pos.person, pos.role, gate, None, None, None, INFERRED, step.sequence, "guest-house", ground.visit_source)


def _end_visit(here: dict[str, Position], visit: _Visit, step: Step, ground: Ground) -> None:
    """The visit is over at ``step``: whoever is still at the visited house's gate goes out of the scene
    (the visited one stays at home, rule ``at-home``)."""
    for who in (visit.visited, visit.visitor):
        p = here.get(who)
        if p is not None and p.present and (p.place or "").startswith(visit.house):
            here[who] = _gone(p, step, "at-home", ground.visit_source)


def _first_place(held: list[Position] | tuple[()], now: Position | None) -> Position | None:
    """The first of the places ``held`` (in order) on the level ``now`` is on: the hall and the rooms
    behind it (y ≥ 0), or below it (the court, the gate); None if he held none there or is nowhere."""
    if now is None or not now.present or now.y is None:
        return None
    up = now.y >= 0
    return next((p for p in held if (p.y is not None and p.y >= 0) == up), None)


def _where(spot: Spot) -> str:
    """The key of a resolved place for the ``bow`` rule: its feature and the relation words applied."""
    return spot.feature + "".join(spot.relations)


def _gone(p: Position, step: Step, rule: str, source: str) -> Position:
    """``p``'s person taken out of the scene at ``step``."""
    return Position(p.person, p.role, None, None, None, None, INFERRED, step.sequence, rule, source, present=False)


def _face(
    step: Step,
    pos: Position,
    before: Position | None,
    standing: Position | None,
    came_from: Position | None,
    mat_facing: tuple[str, int] | None,
    bowed: dict[str, tuple[str, int]],
    ground: Ground,
) -> Position:
    """``pos`` with its facing set by the facing rules of the module, in order."""
    from dataclasses import replace

    if not pos.present:
        return pos

    def face(facing: str | None, status: str, rule: str, source: str) -> Position:
        return replace(pos, facing=facing, facing_status=status if facing else None, facing_rule=rule if facing else None,
                       facing_step=step.sequence if facing else None, facing_source=source if facing else "")  # fmt: skip

    if step.facing:
        return face(step.facing.label, WRITTEN, "written", "")
    moved = before is None or not before.present or before.place != pos.place or pos.step == step.sequence
    motion = ground.motions.get(step.action.key)
    if pos.step == step.sequence and pos.rule in ("stand", "return", "back"):
        went = came_from if pos.rule == "back" else standing
        if went is not None and went.facing:
            return face(
                went.facing,
                INFERRED,
                pos.rule,
                (motion.source if motion else "") + "; the facing of " + (went.place or "his place"),
            )
    if (pos.step == step.sequence and pos.rule == "written" and motion is not None and motion.kind == "stand"
            and standing is not None and standing.place == pos.place and standing.facing):  # fmt: skip
        return face(standing.facing, INFERRED, "stand", motion.source + "; the facing of his standing place " + (pos.place or ""))
    if pos.step == step.sequence and pos.rule == "mat" and mat_facing is not None:
        why = (motion.source + "; ") if motion else ""
        return face(mat_facing[0], INFERRED, "mat", f"{why}the mat laid facing {mat_facing[0]} (step {mat_facing[1]})")
    spot = resolve(pos.place, ground) if pos.place else None
    mine = pos.role + " " + _where(spot) if spot is not None else ""
    if step.action.key in ground.bows and mine in bowed:
        facing, at = bowed[mine]
        return face(facing, INFERRED, "bow", f"{ground.bow_source}; as written for a bow at {pos.place} (step {at})")
    if moved and spot is not None and not spot.relations and ground.features[spot.feature].facing:
        feature = ground.features[spot.feature]
        return face(feature.facing, INFERRED, "place", feature.facing_source or "")
    if moved and spot is not None and spot.relations == ("前",) and ground.features[spot.feature].front_facing:
        feature = ground.features[spot.feature]
        return face(feature.front_facing, INFERRED, "front", feature.facing_source or "")
    if motion is not None and motion.kind == "enter" and motion.facing:
        return face(motion.facing, INFERRED, "enter", motion.facing_source or "")
    if before is not None and before.present and before.facing:
        return replace(pos, facing=before.facing, facing_status=before.facing_status, facing_rule=before.facing_rule,
                       facing_step=before.facing_step, facing_source=before.facing_source)  # fmt: skip
    return face(None, INFERRED, "", "")


def _inside(p: Position | None, ground: Ground) -> bool:
    """Whether ``p`` is in the 室 or the 房 (north of the hall's back 楣): 出 there leads to the hall."""
    hall = ground.features["ground-tang"]
    return p is not None and p.y is not None and p.y > hall.y + hall.depth / 2


def _move(
    step: Step,
    role: str,
    label: str,
    before: Position | None,
    standing: Position | None,
    mat: Spot | None,
    ground: Ground,
    came_from: Position | None = None,
    first: Position | None = None,
) -> Position:
    """The position of ``role`` after ``step`` (the rules of place of the module, in order; the facing is
    left to :func:`_face`); ``first`` is the first place he held (for 復初位)."""
    motion = ground.motions.get(step.action.key)
    kind = motion.kind if motion else None
    written = resolve(step.location, ground) if step.location and step.location not in _OWN_PLACE else None
    out = before is not None and not before.present

    def at(place: str | None, spot: Spot | None, status: str, rule: str, source: str) -> Position:
        return Position(
            label, role, place, spot.x if spot else None, spot.y if spot else None, None, status, step.sequence, rule, source
        )

    on_stairs = written is not None and bool(ground.features[written.feature].top)
    if kind in ("ascend", "descend") and (not step.location or on_stairs) and not out:  # 升席, 降阶西: the place as written
        end = "top" if kind == "ascend" else "foot"
        stairs = None
        status = INFERRED
        if written is not None and on_stairs:
            stairs, status = ground.features[written.feature], WRITTEN
        elif before is not None and before.place:
            b = resolve(before.place, ground)
            for f in ground.features.values():
                if f.top and b is not None and b.feature in (f.top, f.foot, f.key):
                    stairs = f
                    break
        why = motion.source if motion else ""
        if stairs is None and written is None:
            stairs = ground.features.get(ground.stairs_of.get(role, "ground-xijie"))
            why += "; " + ground.stairs_source  # his side's steps
        if stairs is not None:
            target = _spot_of(getattr(stairs, end), ground)
            assert target is not None
            rule = "climb" if kind == "ascend" else "descend"
            return at(target.label, target, status, rule, why)
    if step.location and step.location not in _OWN_PLACE:
        return at(step.location, written, WRITTEN, "written", written.source if written else "the place as written")
    if kind == "exit" and not out:
        if _inside(before, ground):  # 出 from the 室 or 房: onto the hall
            spot = resolve("堂", ground)
            return at("堂", spot, INFERRED, "exit-room", motion.source if motion else "")
        gone = before or at(None, None, INFERRED, "exit", "")
        return _gone(gone, step, "exit", motion.source if motion else "")
    if kind == "enter":
        spot = resolve("門內", ground)
        return at("門內", spot, INFERRED, "enter", motion.source if motion else "")
    if out:  # the text makes him act before it brings him in: he is outside the gate
        spot = resolve("門外", ground)
        return at("門外", spot, INFERRED, "outside", "he went out (出) and the text has not brought him in (入)")
    if kind in ("stand", "return") and _FIRST_PLACE in step.text and first is not None and not step.location:
        return at(first.place, _spot(first), INFERRED, "first-place", _FIRST_PLACE_SOURCE)
    if kind == "back" and came_from is not None and came_from.present:
        return at(came_from.place, _spot(came_from), INFERRED, "back", motion.source if motion else "")
    if kind in ("stand", "return", "back") and standing is not None:
        return at(
            standing.place, _spot(standing), INFERRED, "return" if kind == "return" else "stand", motion.source if motion else ""
        )
    if kind == "mat":
        spot = mat or resolve("筵", ground)
        return at(spot.label if spot else "筵", spot, INFERRED, "mat", motion.source if motion else "")
    if before is not None:
        return before
    return at(None, None, INFERRED, "unknown", "")


def _spot(p: Position) -> Spot | None:
    return None if p.x is None else Spot(p.place or "", "", p.place or "", p.x, p.y or 0.0, 0.0, 0.0, (), p.source)


def moves(steps: tuple[Step, ...] | list[Step], ground: Ground | None = None) -> list[Position]:
    """Only the changes: each position a step sets (place or facing, or his leaving: ``present`` False),
    in order; what the graph and the CSV hold (the scene at a step is the last change of each person up
    to it, leaving out those whose last change took them out).  Each has ``at``, the step of the change:
    at most one change per person and step."""
    from dataclasses import replace

    out: list[Position] = []
    last: dict[str, Position] = {}
    for step, scene in zip(steps, _states(steps, ground or load_ground()), strict=True):
        for role, pos in scene.items():
            if last.get(role) != pos:
                out.append(replace(pos, at=step.sequence))
                last[role] = pos
    return out


MAT, VESSEL, THING = "mat", "vessel", "thing"


@dataclass(frozen=True)
class Item:
    """A vessel, mat or thing set out at a written place, drawn on the plan from its step on.

    Attributes
    ----------
    step : int
        The sequence number of the step that sets it out.
    object : str
        What is set out, as written (洗, 席, 筵, 服); joint objects joined by ``+`` as in the step.
    kind : str
        ``mat`` (席, 筵), ``vessel`` (a vessel of the vocabulary, or the basin 洗, the jar 尊, the basket 篚)
        or ``thing``.
    place : str
        The location as written (東榮, 門中闑西閾外).
    x, y : float
        Its point on the plan (depths of the hall, x east, y north), by :func:`~yili.ingest.ground.resolve`.
    facing : str | None
        The way a mat is laid, as written (西面: one sitting on it faces west).
    removed : int | None
        The sequence number of the step that clears it away (徹 naming it), if any.
    source : str
        The sentence of the rule of setting out (``ykg:set-out`` in ``ground.ttl``).
    """

    step: int
    object: str
    kind: str
    place: str
    x: float
    y: float
    facing: str | None
    removed: int | None
    source: str


def _kind(step: Step, ground: Ground) -> str:
    """``mat``, ``vessel`` or ``thing`` for what ``step`` sets out (``yk:vesselWord`` in ``ground.ttl``)."""
    obj = step.object or ""
    key = step.object_term.key if step.object_term else ""
    if key == "place-xi-mat" or obj.endswith(_MATS):
        return MAT
    if key.startswith("vessel-") or step.vessel is not None or any(w in obj for w in ground.vessel_words):
        return VESSEL
    return THING


def furnishings(steps: tuple[Step, ...] | list[Step], ground: Ground | None = None) -> list[Item]:
    """The vessels, mats and things the text sets out at a place, in order: each actual step whose act
    sets out (``ykg:set-out``: 設, 陳, 布, 筵, 具饌) with an object and a written location that resolves on
    the plan.  A location set relative to a thing set out before (:func:`relative_to_item`: 士冠禮
    側尊一甒醴在服北, north of the clothes laid out in the 房; 蒲筵二在南, south of the last thing set out)
    is placed from that thing; what is set there is the object, or, when the clause reads ``X在…``, X as
    written (側尊一甒醴, 蒲筵二).  A later actual step that clears away (徹) an object of the same name marks
    the last such item not yet cleared ``removed`` at that step.

    Returns
    -------
    list[Item]
        In the order of the steps; a step with a location that neither resolves nor names a thing set out
        (其所), or with nothing set out, gives none.
    """
    ground = ground or load_ground()
    out: list[Item] = []
    for step in steps:
        if step.mode != "actual":
            continue
        if step.action.key in ground.set_out and step.location:
            spot = resolve(step.location, ground)
            name = step.object
            source = ground.set_out_source
            if spot is not None:
                x, y = spot.x, spot.y
            else:
                found = relative_to_item(step.location, out, ground)
                if found is None:
                    continue
                anchor, x, y = found
                thing = _thing_before(step)
                if thing and (not name or name in step.location):
                    name = thing  # 側尊一甒醴在服北: the jar, not the 服 it is north of
                source += f"; placed from the {anchor.object} set out at {anchor.place} (step {anchor.step})"
            if not name:
                continue
            facing = step.facing.label if step.facing else None
            out.append(Item(step.sequence, name, _kind_of(name, step, ground), step.location, x, y, facing, None, source))
        elif step.action.key in ground.clear and step.object:
            for name in step.object.split("+"):
                for k in range(len(out) - 1, -1, -1):
                    item = out[k]
                    if item.removed is None and (item.object == name or item.object.split("+")[-1] == name):
                        out[k] = Item(
                            item.step, item.object, item.kind, item.place, item.x, item.y, item.facing, step.sequence, item.source
                        )
                        break
    return out


def relative_to_item(location: str, items: list[Item], ground: Ground) -> tuple[Item, float, float] | None:
    """A location set relative to a thing already set out: the name of an item not cleared away followed
    by relation words (服北: north of the 服), or relation words alone (南: from the last item not cleared
    away, as the text lists things in order: 櫛實于簞 蒲筵二在南).  A rule of the language of the 儀禮
    (士冠禮 側尊一甒醴在服北; 蒲筵二在南).

    Parameters
    ----------
    location : str
        ``Step.location`` (a location :func:`~yili.ingest.ground.resolve` does not place).
    items : list[Item]
        The items set out so far, in order.
    ground : Ground

    Returns
    -------
    (Item, x, y) or None
        The item it is placed from and the point (depths of the hall: x east, y north), moved from the
        item's point by each relation word (``ontology/ground.ttl``: 北 one way, 南 the other …); None
        if the location names no item, or has a word after it that is no relation (上 and 下 of a flight
        of steps are none here).
    """
    relations = {lab: r for r in ground.relations for lab in r.labels}
    standing = [it for it in items if it.removed is None]
    candidates: list[tuple[int, Item, str]] = []
    for it in standing:
        for name in {it.object, *it.object.split("+")}:
            if name and location.startswith(name):
                candidates.append((len(name), it, location[len(name) :]))
    if candidates:
        _n, anchor, rest = max(candidates, key=lambda c: (c[0], c[1].step))  # the longest name, the latest item
    elif standing:
        anchor, rest = standing[-1], location
    else:
        return None
    rest = rest.removeprefix("之")
    if not rest or any(ch not in relations or relations[ch].use for ch in rest):
        return None
    x, y = anchor.x, anchor.y
    for ch in rest:
        x, y = x + relations[ch].dx, y + relations[ch].dy
    return anchor, round(x, 4), round(y, 4)


def _thing_before(step: Step) -> str | None:
    """X of a clause ``X在<location>`` (蒲筵二在南: 蒲筵二), as written; None if the clause is not so."""
    at = step.text.find("在" + (step.location or ""))
    return step.text[:at] or None if at > 0 else None


def _kind_of(name: str, step: Step, ground: Ground) -> str:
    """The kind of what is set out under ``name``: the object's (:func:`_kind`) when it is the step's
    object, else by the words of ``name`` (蒲筵二 a mat, 側尊一甒醴 a vessel)."""
    if name == step.object:
        return _kind(step, ground)
    if any(m in name for m in _MATS):
        return MAT
    return VESSEL if any(w in name for w in ground.vessel_words) else THING


@dataclass(frozen=True)
class SceneCheck:
    """How the scenes of a run of steps agree with what the text writes.

    Attributes
    ----------
    total : int
        Agents of actual steps with a written location (one per agent).
    same : int
        Of them, how many stand at that location after the step (the same text, or a place of the plan
        that is, or lies in, the written one: 阼階上 for 阼階).
    misses : tuple[tuple[str, str, str | None, str], ...]
        (step key, person, place after the step, location written) for each one that does not.
    two_places : int
        Persons found at two places after one step (a role and its name as written both present): 0.
    before_entering : int
        Agents of actual steps absent from the scene after the step, the step not taking them out (0).
    """

    total: int
    same: int
    misses: tuple[tuple[str, str, str | None, str], ...]
    two_places: int
    before_entering: int

    @property
    def share(self) -> float:
        """``same / total`` (1.0 with nothing to check)."""
        return self.same / self.total if self.total else 1.0


def same_place(place: str | None, written: str, ground: Ground | None = None) -> bool:
    """Whether a scene's ``place`` is the location ``written``: the same text, or the feature it resolves
    to is the written one's or one of its parts (阼階上 of 阼階); at a visited house, the place written there
    (賔之家門左 is 門左)."""
    if place == written or (place and _HOUSE in place and place.split(_HOUSE, 1)[1] == written):
        return True
    ground = ground or load_ground()
    want, got = resolve(written, ground), resolve(place, ground)
    return bool(want and got and (got.feature == want.feature or got.feature.startswith(want.feature + "-")))


def check_scenes(steps: tuple[Step, ...] | list[Step], ground: Ground | None = None) -> SceneCheck:
    """Check the scenes of ``steps`` against their written locations (:class:`SceneCheck`): the measure
    ``benchmarks/scenes.py`` reports on the shared gold and ``tests/ingest/test_scenes.py`` holds."""
    ground = ground or load_ground()
    total = same = two = before = 0
    misses: list[tuple[str, str, str | None, str]] = []
    for step, scene in zip(steps, scenes(steps, ground), strict=True):
        names: dict[str, int] = {}
        for key, p in scene.items():
            names[p.person] = names.get(p.person, 0) + 1
            two += key != p.role  # a position filed under another person's key
        two += sum(n - 1 for n in names.values())
        if step.mode != "actual" or step.summary:
            continue
        leaves = ground.motions.get(step.action.key) is not None and ground.motions[step.action.key].kind == "exit"
        for t in step.agent:
            if t.key and not t.key.startswith("role-"):
                continue
            p = scene.get(t.key or t.label)
            before += p is None and not leaves
            if step.location:
                total += 1
                if p is not None and same_place(p.place, step.location, ground):
                    same += 1
                else:
                    misses.append((step.key, t.label, p.place if p else None, step.location))
    return SceneCheck(total, same, tuple(misses), two, before)
