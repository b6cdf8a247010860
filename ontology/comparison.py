"""How steps compare (``ontology/comparison.ttl``): parts in a rite (the host, the chief guest, the
presiding person, an assistant) and acts that count as another.

Two rites are compared by what their persons do in them, not by their names: the 主人 of the 鄉飲酒禮 and
the 公 of the 燕禮 both preside (their profiles in ``ontology/rites.ttl`` name them ``yk:presiding``).
This module reads which part each profile property stands for, and the parts some roles take in every
rite, and gives, for one rite, the parts of a role.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from rdflib import Graph, URIRef
from rdflib.namespace import SKOS
from yili.ontology.namespaces import YK, YKV
from yili.ontology.rites import RiteProfile


@dataclass(frozen=True)
class Parts:
    """The data of ``ontology/comparison.ttl``.

    Attributes
    ----------
    of_profile : dict[str, str]
        Profile field (``host``, ``chief_guest``, ``presiding``) → part notation (``host``, ``chief-guest``,
        ``presiding``).
    of_role : dict[str, str]
        Role key (``role-zan``) → the part it takes in every rite (``assistant``).
    labels : dict[str, dict[str, str]]
        Part notation → its preferred labels by language (``{"en": "presiding person", "zh-Hant": "尊者"}``).
    counts_as : dict[str, str]
        Action key → the action key it counts as (``action-shi-fill`` → ``action-zhuo``: 實 the cup is the pouring).
    """

    of_profile: dict[str, str]
    of_role: dict[str, str]
    labels: dict[str, dict[str, str]]
    counts_as: dict[str, str]

    def parts_of(self, role: str, profile: RiteProfile) -> tuple[str, ...]:
        """The parts ``role`` (a role key) takes in the rite of ``profile``, sorted; the role's own key
        when it takes none (``("role-zhufu",)``: the 主婦 compares as herself).

        >>> from yili.ontology.vocabulary import load_vocabulary
        >>> rites = load_vocabulary().rites
        >>> parts = load_parts()
        >>> parts.parts_of("role-zhuren", rites["xiangyinjiuli"]), parts.parts_of("role-gong", rites["yanli"])
        (('host', 'presiding'), ('presiding',))
        >>> parts.parts_of("role-zhuren", rites["yanli"]), parts.parts_of("role-zhufu", rites["shiyuli"])
        (('host',), ('role-zhufu',))
        """
        found = {part for field, part in self.of_profile.items() if getattr(profile, field, None) == role}
        if role in self.of_role:
            found.add(self.of_role[role])
        return tuple(sorted(found)) or (role,)


_FIELDS = {"host": "host", "chiefGuest": "chief_guest", "presiding": "presiding"}


@lru_cache(maxsize=1)
def load_parts() -> Parts:
    """Read ``ontology/comparison.ttl`` once (it is package data)."""
    graph = Graph()
    graph.parse(str(resources.files("yili.ontology") / "comparison.ttl"), format="turtle")
    notation = {s: str(o) for s, o in graph.subject_objects(SKOS.notation)}
    of_profile = {
        _FIELDS[str(p).removeprefix(str(YK))]: notation[o]
        for p, o in sorted(graph.subject_objects(YK.profilePart))
        if isinstance(p, URIRef) and str(p).removeprefix(str(YK)) in _FIELDS
    }
    of_role = {str(r).removeprefix(str(YKV)): notation[o] for r, o in sorted(graph.subject_objects(YK.part))}
    labels: dict[str, dict[str, str]] = {}
    for c, label in sorted(graph.subject_objects(SKOS.prefLabel)):
        if c in notation:
            labels.setdefault(notation[c], {}).setdefault(getattr(label, "language", None) or "", str(label))
    counts_as = {
        str(a).removeprefix(str(YKV)): str(b).removeprefix(str(YKV)) for a, b in sorted(graph.subject_objects(YK.countsAs))
    }
    return Parts(of_profile, of_role, labels, counts_as)
