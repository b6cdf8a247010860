"""Rite profiles: the facts of one rite of the 儀禮, read from ``ontology/rites.ttl``.

A rule of the language holds in every chapter and lives in ``ingest/``; what holds in one rite only
(its cast, who is host, the default agents its 記 names, 君尊不酌 "the ruler does not pour") is data
on that rite, with the sentence of the text or commentary that says so.  This module turns the Turtle
into frozen :class:`RiteProfile` records; :data:`NEUTRAL` is the profile of a text that matches no rite
(no cast restriction, no rite facts).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, SKOS
from yili.ontology.namespaces import YK, YKV
from yili.ontology.variants import spellings


@dataclass(frozen=True)
class RiteFact:
    """One fact of a rite.

    Attributes
    ----------
    kind : str
        ``DefaultAgentFact``, ``DoesNotPourFact``, ``SameGiverFact``, ``GeneralSubjectFact``, ``BodyFact``,
        ``ReadingFact`` or ``CastFact`` (a cast member, ``role``, with the first sentence that writes it).
    source : str
        The text or commentary that states it (``燕禮記 凡薦與羞者小膳宰也``).
    action, role, concept : str | None
        Concept keys (``action-jian``, ``role-shanzai``).
    recipient : str | None
        For a default agent: the role the act goes to when no one is named after the verb.
    opening : bool
        For a default agent: it holds only for an act that opens its paragraph.
    label : str | None
        For a reading: the written form read as ``concept`` in this rite (``致者``).
    """

    kind: str
    source: str
    action: str | None = None
    role: str | None = None
    label: str | None = None
    concept: str | None = None
    recipient: str | None = None
    opening: bool = False


@dataclass(frozen=True)
class RiteProfile:
    """What the extractor knows of one rite.

    Attributes
    ----------
    key : str
        Stable key used in IRIs (``yanli``, ``shiguanli``); ``""`` for the neutral profile.
    iri : str | None
    chapter : int
        1–17 in the received order; 0 for the neutral profile.
    hant, hans, en : str
        The rite's name (燕禮, 燕礼, The Banquet).
    title_forms : tuple[str, ...]
        The chapter names the editions write before 第N.
    cast : tuple[str, ...]
        Role keys of the persons who take part (empty: no restriction).
    host, chief_guest, presiding : str | None
        Role keys: who is 主人, the chief guest, the most honoured person present.
    opener : str | None
        Role key of who acts at the opening when no one is named (default: ``presiding``).
    facts : tuple[RiteFact, ...]
    """

    key: str
    iri: str | None = None
    chapter: int = 0
    hant: str = ""
    hans: str = ""
    en: str = ""
    title_forms: tuple[str, ...] = ()
    cast: tuple[str, ...] = ()
    host: str | None = None
    chief_guest: str | None = None
    presiding: str | None = None
    facts: tuple[RiteFact, ...] = field(default=())
    opener: str | None = None

    @property
    def neutral(self) -> bool:
        """True for the profile of a text that matches no rite."""
        return not self.key

    def in_cast(self, role_key: str) -> bool:
        """True if the role takes part in the rite (always, for a profile with no cast)."""
        return not self.cast or role_key in self.cast

    def default_agent(self, action_key: str) -> RiteFact | None:
        """The fact naming who does ``action_key`` when the text names no one, if the rite has one."""
        return next((f for f in self.facts if f.kind == "DefaultAgentFact" and f.action == action_key), None)

    def does_not_pour(self, role_key: str) -> RiteFact | None:
        """The fact that ``role_key`` is too exalted to pour in this rite (注 君尊不酌), if any."""
        return next((f for f in self.facts if f.kind == "DoesNotPourFact" and f.role == role_key), None)

    @property
    def same_giver(self) -> RiteFact | None:
        """The fact that one giver (the 獻主) gives the presentations throughout, if the rite has it
        (its ``action`` is the toast it is about: 獻)."""
        return next((f for f in self.facts if f.kind == "SameGiverFact"), None)

    @property
    def general_subject(self) -> RiteFact | None:
        """The fact naming the person the rite's general rules (凡…) are about, if it has one (士相見禮
        疏 以士為總號也: its ``role`` is ``role-shi``)."""
        return next((f for f in self.facts if f.kind == "GeneralSubjectFact"), None)

    @property
    def body(self) -> RiteFact | None:
        """The fact that the dead man's body is present in this rite, as the role it names (士喪禮 衣尸,
        遷尸: ``role-shi-corpse``), if it has one."""
        return next((f for f in self.facts if f.kind == "BodyFact"), None)

    def cast_source(self, role_key: str) -> RiteFact | None:
        """The fact giving where cast member ``role_key`` is first written in the chapter (its ``source``:
        ``筮人執筴抽上韇兼執之進受命於主人 (KR1d0040_001.txt block 12)``), if the profile has one."""
        return next((f for f in self.facts if f.kind == "CastFact" and f.role == role_key), None)

    @property
    def readings(self) -> dict[str, str]:
        """Written forms read as another concept in this rite, in every spelling of the editions
        (:func:`~yili.ontology.variants.spellings`): ``{"致者": "role-yingjuezhe"}``, ``{"上餕": …, "上𧃊": …}``."""
        out: dict[str, str] = {}
        for f in self.facts:
            if f.kind == "ReadingFact" and f.label and f.concept:
                for form in spellings(f.label):
                    out.setdefault(form, f.concept)
        return out


NEUTRAL = RiteProfile(key="")
"""The profile of a text that matches no rite: no cast restriction and no rite facts."""


def _key(node: object) -> str | None:
    return str(node).removeprefix(str(YKV)) if isinstance(node, URIRef) else None


def rites_from_graph(graph: Graph) -> dict[str, RiteProfile]:
    """Read every ``yk:Rite`` with a ``yk:riteKey`` in ``graph`` into profiles, by key.

    Returns
    -------
    dict[str, RiteProfile]
        In chapter order (then key).
    """
    out: list[RiteProfile] = []
    for rite in graph.subjects(RDF.type, YK.Rite):
        key = graph.value(rite, YK.riteKey)
        if key is None:
            continue
        labels = {lit.language: str(lit) for lit in graph.objects(rite, SKOS.prefLabel) if isinstance(lit, Literal)}
        facts: list[RiteFact] = []
        for node in graph.objects(rite, YK.riteFact):
            kind = str(graph.value(node, RDF.type) or "").rsplit("#", 1)[-1]
            facts.append(
                RiteFact(
                    kind=kind,
                    source=str(graph.value(node, DCTERMS.source) or ""),
                    action=_key(graph.value(node, YK.factAction)),
                    role=_key(graph.value(node, YK.factRole)),
                    label=str(graph.value(node, YK.factLabel)) if graph.value(node, YK.factLabel) is not None else None,
                    concept=_key(graph.value(node, YK.factConcept)),
                    recipient=_key(graph.value(node, YK.factRecipient)),
                    opening=bool(graph.value(node, YK.factOpening)),
                )
            )
        facts.sort(key=lambda f: (f.kind, f.action or "", f.role or "", f.label or ""))
        chapter = graph.value(rite, YK.chapter)
        out.append(
            RiteProfile(
                key=str(key),
                iri=str(rite),
                chapter=int(chapter.toPython()) if isinstance(chapter, Literal) else 0,
                hant=labels.get("zh-Hant", ""),
                hans=labels.get("zh-Hans", ""),
                en=labels.get("en", ""),
                title_forms=tuple(sorted((str(t) for t in graph.objects(rite, YK.titleForm)), key=lambda s: (-len(s), s))),
                cast=tuple(sorted(k for c in graph.objects(rite, YK.cast) if (k := _key(c)))),
                host=_key(graph.value(rite, YK.host)),
                chief_guest=_key(graph.value(rite, YK.chiefGuest)),
                presiding=_key(graph.value(rite, YK.presiding)),
                opener=_key(graph.value(rite, YK.opener)) or _key(graph.value(rite, YK.presiding)),
                facts=tuple(facts),
            )
        )
    out.sort(key=lambda r: (r.chapter, r.key))
    return {r.key: r for r in out}
