"""Where a written location is on the plan of the ground (``ontology/ground.ttl``): ``西階上`` → the head of
the west steps, ``洗南`` → a little south of the basin, ``門東`` → the area east of the gate.

A rule of the language of the 儀禮: a location is a place, possibly followed by words that move from it
(上 on / at the head of steps, 下 below / at the foot of steps, 前 in front, 南 北 東 西); 釋宫 gives the
places (``ontology/ground.ttl`` cites the sentence for each), the words are data there too.  This module
holds no geometry of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from yili.ontology.ground import Feature, Ground, load_ground
from yili.ontology.variants import variant_forms

_LEAD = "于於"
"""Prepositions a written location may keep before its place (于西階上)."""


@dataclass(frozen=True)
class Spot:
    """A written location resolved on the plan.

    Attributes
    ----------
    written : str
        The location as written (``西階上``).
    feature : str
        The key of the place it is built on, after the relation words (``ground-xijie-top``).
    label : str
        That place's traditional form (``西階上``).
    x, y : float
        The point, in depths of the hall (x east, y north, from the middle of the hall's south edge).
    width, depth : float
        The area around the point the location names (0, 0 for a point).
    relations : tuple[str, ...]
        The relation words applied, in order (``("南",)`` for 洗南).
    source : str
        The 儀禮釋宫 sentence that places the feature.
    """

    written: str
    feature: str
    label: str
    x: float
    y: float
    width: float
    depth: float
    relations: tuple[str, ...]
    source: str

    def as_record(self) -> dict[str, object]:
        """The spot as a JSON-ready dict (all attributes)."""
        return {
            "written": self.written,
            "feature": self.feature,
            "label": self.label,
            "x": self.x,
            "y": self.y,
            "width": self.width,
            "depth": self.depth,
            "relations": list(self.relations),
            "source": self.source,
        }


def _fold(s: str) -> str:
    forms = variant_forms()
    return "".join((forms.get(c) or c)[0] for c in s)


def _index(ground: Ground) -> list[tuple[str, Feature]]:
    """Every written form of every feature, folded, longest first (then by key: one order always)."""
    out = [(_fold(label), f) for f in ground.features.values() for label in f.labels]
    return sorted(out, key=lambda lf: (-len(lf[0]), lf[1].key, lf[0]))


def resolve(location: str | None, ground: Ground | None = None) -> Spot | None:
    """Resolve a written location on the plan.

    The longest place the location begins with (after 于/於) is its base (``西階上`` is a place itself,
    the head of the west steps); each word after it that is a relation of ``ontology/ground.ttl`` moves
    the point (上 and 下 after a flight of steps go to its head and foot; 南 moves south of the place, or
    of an area's south edge: 堂下 is in the court); 之 may join them (東楹之西); any other word after the
    place, or a direction followed by 面 (``阼階上西面``: the facing), is not part of the location and
    stops the reading.  Variant
    characters are folded (``ontology/variants.tsv``) and simplified forms are labels too (西阶上).

    Parameters
    ----------
    location : str | None
        The location as written in a step (``Step.location``).
    ground : Ground, optional
        The plan (default: :func:`~yili.ontology.ground.load_ground`).

    Returns
    -------
    Spot | None
        None when no place of the plan begins the location (``其所``, ``席``: they depend on the rite).

    >>> resolve("西階上").label, resolve("西阶上").y > 0
    ('西階上', True)
    >>> s = resolve("洗南"); (s.label, s.relations, round(s.y, 2))
    ('洗', ('南',), -1.15)
    """
    if not location:
        return None
    ground = ground or load_ground()
    text = _fold(location.strip())
    while text and text[0] in _LEAD:
        text = text[1:]
    index = _cached_index(ground)
    for label, feature in index:  # noqa: B007  (the feature found is read after the break)
        if text.startswith(label):
            break
    else:
        return None
    x, y, width, depth, current = feature.x, feature.y, feature.width, feature.depth, feature
    applied: list[str] = []
    relations = {_fold(lab): r for r in ground.relations for lab in r.labels}
    rest = text[len(label) :]
    for k, ch in enumerate(rest):
        if ch == "之" and k + 1 < len(rest) and rest[k + 1] in relations:
            continue  # 東楹之西: 之 joins the place and the word that moves from it
        r = relations.get(ch)
        if r is None or rest[k + 1 : k + 2] == "面":
            break  # 西面 after a place is the facing, not the place (阼階上西面)
        end = getattr(current, r.use) if r.use else None
        if end and end in ground.features:
            current = ground.features[end]
            x, y, width, depth = current.x, current.y, current.width, current.depth
        elif r.dx or r.dy:
            # from the edge of an area the way the word goes (堂下: south of the hall's south edge)
            x = x + r.dx + (width / 2 if r.dx > 0 else -width / 2 if r.dx < 0 else 0.0)
            y = y + r.dy + (depth / 2 if r.dy > 0 else -depth / 2 if r.dy < 0 else 0.0)
            width, depth = 0.0, 0.0
        applied.append(r.labels[0])
    return Spot(
        written=location,
        feature=current.key,
        label=current.label,
        x=round(x, 4),
        y=round(y, 4),
        width=width,
        depth=depth,
        relations=tuple(applied),
        source=current.source,
    )


_INDEXES: dict[int, list[tuple[str, Feature]]] = {}


def _cached_index(ground: Ground) -> list[tuple[str, Feature]]:
    key = id(ground)
    if key not in _INDEXES:
        _INDEXES[key] = _index(ground)
    return _INDEXES[key]
