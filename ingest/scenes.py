"""Who is where at every step: the place and facing of each person present, by rules of the language and of
the ritual, each position marked ``written`` or ``inferred`` with the step and the rule that set it.

The rules, in order (the first that answers decides; ``ontology/ground.ttl`` holds the motions and whose
steps each flight is, with the sentences they rest on):

1. ``climb``: 升 goes to the head of the steps: those written (升自阼階), else those he stands at the foot
   of, else his side's (阼階 the host's: 士冠禮注 阼猶酢也東階所以荅酢賓客也, quoted in 釋宫); a place
   written that is no flight of steps (升席, 升筵) is where he goes (rule 3).
2. ``descend``: 降 goes to the foot of the steps written, else of those he stands at the head of, else
   his side's; 降席, 降阶西: the place as written (rule 3).
3. ``written``: a written place (即位于門東, 主人筵前献賔) is where the agent is.
4. ``stand``: 即位, 立 with no place: his standing place (位), the last place he took with such a verb.
5. ``back``: 反, 反位 (with no place): back where he came from, the place before his last move (註 反還也;
   燕禮 賔西階上拜, 筵前受爵, 反位: to the head of the west steps).  ``return``: 復位, 復 (with no place, or
   其位): back to his standing place.
6. ``mat``: 就席 / 即席: to the mat laid for the rite (布席于…, 筵于…), else the guest's mat (戶牖間).
7. ``enter`` / ``exit``: 入 inside the gate, 出 outside it (unless a place is written).
8. otherwise he stays where he was (``near`` for 進 退 辟 還: a short move).

A written facing (西面) sets the facing; otherwise the last one holds.  A person enters the scene the first
time a step makes him its agent; no rule moves anyone who is not an agent.  Plain records only: no RDF.
"""

from __future__ import annotations

from dataclasses import dataclass

from yili.ingest.ground import Spot, resolve
from yili.ingest.steps import Step
from yili.ontology.ground import Ground, load_ground

WRITTEN, INFERRED = "written", "inferred"
_MAT_ACTIONS = ("action-bu-spread", "action-she", "action-xi-mat")
"""Acts that lay a mat when their object is a mat (布席于門中, 設席, 筵于戶西)."""
_MATS = ("席", "筵")
_OWN_PLACE = ("其位", "位")


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

    def as_record(self) -> dict[str, object]:
        """JSON-ready dict of every attribute."""
        return {k: getattr(self, k) for k in ("person", "role", "place", "x", "y", "facing", "status", "step", "rule", "source")}


def _spot_of(key: str, ground: Ground) -> Spot | None:
    return resolve(ground.features[key].label, ground) if key in ground.features else None


def scenes(steps: tuple[Step, ...] | list[Step], ground: Ground | None = None) -> list[dict[str, Position]]:
    """The scene after each step: ``result[i]`` maps each person present (role key) to his position after
    ``steps[i]``, in the order they entered.

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
    ground = ground or load_ground()
    here: dict[str, Position] = {}
    standing: dict[str, Position] = {}
    previous: dict[str, Position] = {}  # where each one was before his last move
    mat: Spot | None = None
    out: list[dict[str, Position]] = []
    for step in steps:
        if step.mode == "actual" and step.action.key in _MAT_ACTIONS and step.location and (step.object or "").endswith(_MATS) or step.mode == "actual" and step.action.key in _MAT_ACTIONS and step.location and step.action.key == "action-xi-mat":
            mat = resolve(step.location, ground)
        if step.mode == "actual" and not step.summary:
            for term in step.agent:
                if term.key and not term.key.startswith("role-"):
                    continue
                who = term.key or term.label  # a person the vocabulary does not know is kept by name
                before = here.get(who)
                came_from = previous.get(who)
                pos = _move(step, who, term.label, before, standing.get(who), mat, ground, came_from)
                if before is not None and before.place != pos.place:
                    previous[who] = before
                here[who] = pos
                motion = ground.motions.get(step.action.key)
                if motion is not None and motion.kind == "stand" and pos.place is not None:
                    standing[who] = pos
                elif before is None and pos.place is not None and step.location:
                    standing.setdefault(who, pos)
        out.append(dict(here))
    return out


def _move(
    step: Step, role: str, label: str, before: Position | None, standing: Position | None, mat: Spot | None, ground: Ground,
    came_from: Position | None = None,
) -> Position:
    """The position of ``role`` after ``step`` (the rules of the module, in order)."""
    facing = step.facing.label if step.facing else (before.facing if before else None)
    motion = ground.motions.get(step.action.key)
    kind = motion.kind if motion else None
    written = resolve(step.location, ground) if step.location and step.location not in _OWN_PLACE else None

    def at(place: str | None, spot: Spot | None, status: str, rule: str, source: str) -> Position:
        return Position(label, role, place, spot.x if spot else None, spot.y if spot else None, facing, status, step.sequence, rule, source)

    on_stairs = written is not None and bool(ground.features[written.feature].top)
    if kind in ("ascend", "descend") and (not step.location or on_stairs):  # 升席, 降阶西: the place as written
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
    if kind == "back" and came_from is not None:
        return at(came_from.place, _spot(came_from), INFERRED, "back", motion.source if motion else "")
    if kind in ("stand", "return", "back") and standing is not None:
        return at(standing.place, _spot(standing), INFERRED, "return" if kind == "return" else "stand", motion.source if motion else "")
    if kind == "mat":
        spot = mat or resolve("筵", ground)
        return at(spot.label if spot else "筵", spot, INFERRED, "mat", motion.source if motion else "")
    if kind == "enter":
        spot = resolve("門內", ground)
        return at("門內", spot, INFERRED, "enter", motion.source if motion else "")
    if kind == "exit":
        spot = resolve("門外", ground)
        return at("門外", spot, INFERRED, "exit", motion.source if motion else "")
    if before is not None:
        from dataclasses import replace

        return replace(before, facing=facing)
    return at(None, None, INFERRED, "unknown", "")


def _spot(p: Position) -> Spot | None:
    return None if p.x is None else Spot(p.place or "", "", p.place or "", p.x, p.y or 0.0, 0.0, 0.0, (), p.source)


def moves(steps: tuple[Step, ...] | list[Step], ground: Ground | None = None) -> list[Position]:
    """Only the changes: each position a step sets (place or facing), in order; what the graph and the
    CSV hold (the scene at a step is the last change of each person up to it)."""
    out: list[Position] = []
    last: dict[str, Position] = {}
    for scene in scenes(steps, ground):
        for role, pos in scene.items():
            if last.get(role) != pos:
                out.append(pos)
                last[role] = pos
    return out
