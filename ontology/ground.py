"""The ritual ground, read from ``ontology/ground.ttl``: the places of the vocabulary on a north-up plan of
a 士's 寢 or 廟, each with the sentence of 李如圭's 儀禮釋宫 that places it, and the words written after a
place (上, 下, 南, 北, 東, 西, 前) that move a point.

Coordinates are in depths of the hall (堂深), x to the east, y to the north, from the middle of the
hall's south edge (堂㢘); see the file's header for how each number follows from its sentence.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from yili.ontology.errors import VocabularyError

GROUND_FILE = "ground.ttl"
MOTION_KINDS = ("ascend", "descend", "enter", "exit", "stand", "return", "back", "mat", "near")
"""What a movement verb can do to where its agent stands (``yk:motionKind`` in ``ground.ttl``)."""
_YK = "https://w3id.org/yili-kg/ontology#"
_RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
_SOURCE = "http://purl.org/dc/terms/source"


@dataclass(frozen=True)
class Feature:
    """A place on the plan.

    Attributes
    ----------
    key : str
        The IRI's last part (``ground-zuojie``).
    labels : tuple[str, ...]
        Its written forms, traditional first (阼階, 阼阶).
    x, y : float
        Its point, in depths of the hall (x east, y north).
    width, depth : float
        Its extent east-west and north-south, centred on the point (0 for a point; one of them 0 for a line).
    place : str | None
        The IRI of the vocabulary place it is (``ykv:place-zuojie``), if any.
    source : str
        The 儀禮釋宫 sentence (and classic) that places it.
    derivation : str
        How the numbers follow from the sentence.
    top, foot : str | None
        For a flight of steps, the keys of the features at its head and its foot.
    facing, facing_source : str | None
        The way one stands at this place when the text writes none (阼階上 西面), and the sentence that
        says so (``yk:facing``, ``yk:facingSource``); None for most places.
    front_facing : str | None
        The way one faces in front of it (筵前: 北面, ``yk:frontFacing``; its sentence is ``facing_source``).
    """

    key: str
    labels: tuple[str, ...]
    x: float
    y: float
    width: float
    depth: float
    place: str | None
    source: str
    derivation: str
    top: str | None = None
    foot: str | None = None
    facing: str | None = None
    facing_source: str | None = None
    front_facing: str | None = None

    @property
    def label(self) -> str:
        """The traditional form (阼階)."""
        return self.labels[0]


@dataclass(frozen=True)
class Relation:
    """A word written after a place that moves the point (南: south of it).

    Attributes
    ----------
    labels : tuple[str, ...]
    dx, dy : float
        The move, in depths of the hall.
    use : str | None
        ``top`` or ``foot``: after a flight of steps, go to that end of it instead (上, 下).
    source, derivation : str
    """

    labels: tuple[str, ...]
    dx: float
    dy: float
    use: str | None
    source: str
    derivation: str


@dataclass(frozen=True)
class Motion:
    """What a movement verb does to where its agent stands.

    Attributes
    ----------
    action : str
        The action concept's key (``action-sheng``).
    kind : str
        ``ascend``, ``descend``, ``enter``, ``exit``, ``stand``, ``return``, ``mat`` or ``near`` (the
        header of ``ontology/motion`` in ``ground.ttl`` says what each does).
    source : str
        The sentence it rests on.
    facing, facing_source : str | None
        The way the verb turns its agent when the text writes none (入: 北面, towards the hall), and the
        sentence that says so; None if it turns no one.
    """

    action: str
    kind: str
    source: str
    facing: str | None = None
    facing_source: str | None = None


@dataclass(frozen=True)
class Ground:
    """The plan: its features by key, the relations, the motions by action key, and whose steps each
    flight is (role key → the key of the steps' feature; a role not listed takes the west steps).

    ``bows`` are the action keys of a bow, whose facing the text writes once at a place and then leaves
    out (``ykg:bow``, with ``bow_source``); ``see_off`` the action keys by which one sees another off,
    who then leaves the scene (``ykg:see-off``, with ``see_off_source``); ``set_out`` the acts that set
    out a vessel, a mat or a thing at a written place (``ykg:set-out``) and ``clear`` those that clear
    them away (``ykg:clear-away``), each with its sentence; ``vessel_words`` the words that make what is
    set out a vessel (``yk:vesselWord``); ``visit`` the acts by which one goes to another's house (戒, 宿, 速
    the guest: ``ykg:visit``, with ``visit_source``), after which the two meet at that house's gate, and
    ``visit_end`` the visitor's acts of going away (退).  All sorted."""

    features: dict[str, Feature]
    relations: tuple[Relation, ...]
    motions: dict[str, Motion]
    stairs_of: dict[str, str]
    stairs_source: str
    bows: tuple[str, ...] = ()
    bow_source: str = ""
    see_off: tuple[str, ...] = ()
    see_off_source: str = ""
    set_out: tuple[str, ...] = ()
    set_out_source: str = ""
    clear: tuple[str, ...] = ()
    clear_source: str = ""
    vessel_words: tuple[str, ...] = ()
    visit: tuple[str, ...] = ()
    visit_source: str = ""
    visit_end: tuple[str, ...] = ()


@functools.cache
def load_ground() -> Ground:
    """Read ``ontology/ground.ttl``.

    Raises
    ------
    VocabularyError
        The file is missing or not valid Turtle, or a feature lacks its point or its 釋宫 sentence (the
        message names the file and the feature).
    """
    from rdflib import Graph, Literal, URIRef

    path = resources.files("yili.ontology") / GROUND_FILE
    g = Graph()
    try:
        g.parse(data=path.read_text(encoding="utf-8"), format="turtle")
    except Exception as exc:  # rdflib raises many kinds on bad Turtle
        raise VocabularyError(f"{GROUND_FILE}: cannot read the ground: {exc}") from None

    def one(s: URIRef, p: str) -> object | None:
        v = g.value(s, URIRef(p))
        return v.toPython() if isinstance(v, Literal) else (str(v) if v is not None else None)

    def labels(s: URIRef) -> tuple[str, ...]:
        found = sorted(
            (o for o in g.objects(s, URIRef(_RDFS_LABEL)) if isinstance(o, Literal)),
            key=lambda o: (o.language != "zh-Hant", len(str(o)), str(o)),
        )
        return tuple(dict.fromkeys(str(o) for o in found))

    features: dict[str, Feature] = {}
    for s in sorted(g.subjects(URIRef(str(_rdf_type())), URIRef(_YK + "GroundFeature"))):
        key = str(s).rsplit("/", 1)[-1]
        x, y, source = one(s, _YK + "x"), one(s, _YK + "y"), one(s, _SOURCE)
        if x is None or y is None or not source:
            raise VocabularyError(f"{GROUND_FILE}: {key} needs yk:x, yk:y and its 釋宫 sentence (dcterms:source)")
        top, foot = one(s, _YK + "top"), one(s, _YK + "foot")
        features[key] = Feature(
            key=key,
            labels=labels(s),
            x=float(x),  # type: ignore[arg-type]
            y=float(y),  # type: ignore[arg-type]
            width=float(one(s, _YK + "width") or 0.0),  # type: ignore[arg-type]
            depth=float(one(s, _YK + "depth") or 0.0),  # type: ignore[arg-type]
            place=one(s, _YK + "place"),  # type: ignore[arg-type]
            source=str(source),
            derivation=str(one(s, _YK + "derivation") or ""),
            top=str(top).rsplit("/", 1)[-1] if top else None,
            foot=str(foot).rsplit("/", 1)[-1] if foot else None,
            facing=one(s, _YK + "facing"),  # type: ignore[arg-type]
            facing_source=one(s, _YK + "facingSource"),  # type: ignore[arg-type]
            front_facing=one(s, _YK + "frontFacing"),  # type: ignore[arg-type]
        )
    relations = []
    for s in sorted(g.subjects(URIRef(str(_rdf_type())), URIRef(_YK + "LocationRelation"))):
        use = one(s, _YK + "use")
        relations.append(
            Relation(
                labels=labels(s),
                dx=float(one(s, _YK + "dx") or 0.0),  # type: ignore[arg-type]
                dy=float(one(s, _YK + "dy") or 0.0),  # type: ignore[arg-type]
                use=str(use).rsplit("#", 1)[-1] if use else None,
                source=str(one(s, _SOURCE) or ""),
                derivation=str(one(s, _YK + "derivation") or ""),
            )
        )
    motions: dict[str, Motion] = {}
    for s in sorted(g.subjects(URIRef(str(_rdf_type())), URIRef(_YK + "Motion"))):
        action = str(one(s, _YK + "action") or "").rsplit("/", 1)[-1]
        kind = str(one(s, _YK + "motionKind") or "")
        if kind not in MOTION_KINDS or not action:
            raise VocabularyError(
                f"{GROUND_FILE}: {s}: a motion needs yk:action and a yk:motionKind of {', '.join(MOTION_KINDS)}"
            )
        motions[action] = Motion(
            action=action, kind=kind, source=str(one(s, _SOURCE) or ""),
            facing=one(s, _YK + "facing"), facing_source=one(s, _YK + "facingSource"),  # type: ignore[arg-type]
        )  # fmt: skip
    stairs_of: dict[str, str] = {}
    stairs_source = ""
    for s, role in sorted(g.subject_objects(URIRef(_YK + "usedBy"))):
        stairs_of[str(role).rsplit("/", 1)[-1]] = str(s).rsplit("/", 1)[-1]
        stairs_source = str(one(s, _YK + "usedBySource") or stairs_source)

    def acts(cls: str) -> tuple[tuple[str, ...], str]:
        keys: set[str] = set()
        source = ""
        for s in sorted(g.subjects(URIRef(str(_rdf_type())), URIRef(_YK + cls))):
            keys.update(str(o).rsplit("/", 1)[-1] for o in g.objects(s, URIRef(_YK + "action")))
            source = str(one(s, _SOURCE) or source)
        return tuple(sorted(keys)), source

    bows, bow_source = acts("FacingRule")
    see_off, see_off_source = acts("LeaveRule")
    set_out, set_out_source = acts("SetOutRule")
    clear, clear_source = acts("ClearRule")
    visit, visit_source = acts("VisitRule")
    visit_end = tuple(sorted({str(o).rsplit("/", 1)[-1] for o in g.objects(None, URIRef(_YK + "endAction"))}))
    vessel_words = tuple(sorted({str(o) for o in g.objects(None, URIRef(_YK + "vesselWord"))}))
    return Ground(
        features=features, relations=tuple(relations), motions=motions, stairs_of=stairs_of, stairs_source=stairs_source,
        bows=bows, bow_source=bow_source, see_off=see_off, see_off_source=see_off_source,
        set_out=set_out, set_out_source=set_out_source, clear=clear, clear_source=clear_source, vessel_words=vessel_words,
        visit=visit, visit_source=visit_source, visit_end=visit_end,
    )  # fmt: skip


def _rdf_type() -> str:
    return "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
