"""Acts: the steps of the graph as compact records, for comparing rites and searching step sequences.

An :class:`Act` holds what a step does (its action, its agents and recipients as concept keys, its cup
and place) and where to find it (its IRI and API path).  Acts come from extractions
(:func:`acts_from_extractions`, for the command line) or from a built store (:func:`acts_from_store`,
for the server: one query at the first use, the graph being read-only while served); both give the same
records for the same steps.  :class:`yili.graph.compare` aligns sequences of acts and
:mod:`yili.graph.patterns` indexes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote

from yili.ingest.pipeline import Extraction
from yili.ontology.errors import NotFoundError, UnknownTermError
from yili.ontology.namespaces import base_iri, mint


@dataclass(frozen=True)
class Act:
    """One step, as the comparison and the pattern search read it.

    Attributes
    ----------
    iri : str
        The step's IRI.
    path : str
        Its API path (``/steps/yanli/shuzhu-excerpt/24/1``).
    rite, edition : str
        Keys (``yanli``, ``shuzhu-excerpt``).
    sequence, block : int
        1-based order in the edition; classic block number.
    phase : int | None
        Number of the phase (section) it is in (1-based), None if none.
    phase_label : str | None
        The phase's label (``主人献賔``).
    text : str
        The step's clean text.
    action : str
        The action concept key (``action-xian``), ``""`` if not in the vocabulary.
    action_label : str
        The action as the edition writes it (献).
    agents, recipients : tuple[str, ...]
        Role concept keys, in the order the step names them.
    agent_label, recipient_label : str | None
        As written (``賔+卿``); None if none.
    vessel, location : str | None
        Concept keys of the cup and place, None if none.
    mode : str
        ``actual``, ``conditional`` or ``negated``.
    appendix : bool
        True for a step of the rite's 記 (notes and general rules, not in sequence with the story).
    """

    iri: str
    path: str
    rite: str
    edition: str
    sequence: int
    block: int
    phase: int | None
    phase_label: str | None
    text: str
    action: str
    action_label: str
    agents: tuple[str, ...]
    recipients: tuple[str, ...]
    agent_label: str | None
    recipient_label: str | None
    vessel: str | None
    location: str | None
    mode: str
    appendix: bool

    @property
    def where(self) -> str:
        """``rite/edition``: the sequence the act belongs to."""
        return f"{self.rite}/{self.edition}"

    def as_record(self) -> dict[str, object]:
        """A JSON-ready summary: ``id`` (IRI), ``url`` (API path), ``sequence``, ``block``, ``text``,
        ``agent``, ``action``, ``recipient`` (labels as written), ``phase_label``."""
        return {
            "id": self.iri,
            "url": self.path,
            "sequence": self.sequence,
            "block": self.block,
            "text": self.text,
            "agent": self.agent_label,
            "action": self.action_label,
            "recipient": self.recipient_label,
            "phase": self.phase_label,
        }


def acts_from_extractions(extractions: Iterable[Extraction], base: str | None = None) -> list[Act]:
    """The acts of every step of ``extractions``, edition by edition, each in its order.

    Parameters
    ----------
    extractions : iterable of Extraction
    base : str, optional
        Base IRI for the steps' IRIs (default :func:`~yili.ontology.namespaces.base_iri`).
    """
    out: list[Act] = []
    for e in extractions:
        phase_of: dict[int, tuple[int, str]] = {}
        for p in e.phases:
            for seq in range(p.first, p.last + 1):
                phase_of[seq] = (p.number, p.label)
        for s in e.steps:
            rite, edition = s.key.split("/")[:2]
            phase = phase_of.get(s.sequence)
            out.append(
                Act(
                    iri=str(mint("step", *s.key.split("/"), base=base)),
                    path="/steps/" + s.key,
                    rite=rite,
                    edition=edition,
                    sequence=s.sequence,
                    block=s.block,
                    phase=phase[0] if phase else None,
                    phase_label=phase[1] if phase else None,
                    text=s.text,
                    action=s.action.key,
                    action_label=s.action.label,
                    agents=tuple(t.key for t in s.agent if t.key),
                    recipients=tuple(t.key for t in s.recipient if t.key),
                    agent_label=s.agent_label,
                    recipient_label=s.recipient_label,
                    vessel=s.vessel.key if s.vessel and s.vessel.key else None,
                    location=s.location_term.key if s.location_term and s.location_term.key else None,
                    mode=s.mode,
                    appendix=s.part == "ji",
                )
            )
    return out


_STEPS = """
SELECT ?step ?edition ?sequence ?block ?text ?action_label ?modeIri WHERE {
  ?step a yk:Step ; yk:inEdition ?edition ; yk:sequence ?sequence ; yk:blockNumber ?block ; yk:text ?text ;
        yk:actionLabel ?action_label ; yk:mode ?modeIri .
}"""
"""The steps' own fields: one row per step (each of these is functional)."""

_LINKS = {
    "action": "?step yk:action ?value",
    "agent": "?step yk:agent ?value",
    "recipient": "?step yk:recipient ?value",
    "vessel": "?step yk:vessel ?value",
    "location": "?step yk:location ?value",
    "appendix": "?step yk:inAppendix ?value",
    "agent_label": "?step yk:agentLabel ?value",
    "recipient_label": "?step yk:recipientLabel ?value",
    "phase": "?step yk:inPhase ?phase . ?phase yk:sequence ?value",
    "phase_label": "?step yk:inPhase ?phase . ?phase rdfs:label ?value",
}
"""The concepts and phase of each step, one simple query each (a join of all of them in one query, with
OPTIONAL and GROUP BY, takes Oxigraph half a minute on the whole corpus; these take seconds)."""


def acts_from_store(select, base: str | None = None) -> list[Act]:  # type: ignore[no-untyped-def]
    """The acts of every step of a built graph, edition by edition (by rite key, then edition key), each in its order.

    Parameters
    ----------
    select : callable
        ``select(query) -> list[dict]``: a SPARQL SELECT over the graph
        (:meth:`yili.graph.queries.OxigraphBackend.select`); the query is given the project's prefixes.
    base : str, optional
        The base IRI the graph was built with.

    Notes
    -----
    The graph does not keep the order in which a step names several agents, so here they are sorted;
    :func:`acts_from_extractions` keeps the written order.  Parts compare as sets, so the comparison is
    the same.
    """
    from yili.graph.queries import prefix_block

    root = base or base_iri()
    vocab = root + "vocab/"
    prefixes = prefix_block(root)

    def key(value: object) -> str:
        text = str(value)
        return text[len(vocab) :] if text.startswith(vocab) else text.rsplit("/", 1)[-1]

    linked: dict[str, dict[str, list[object]]] = {}
    for name, pattern in _LINKS.items():
        for r in select(prefixes + f"SELECT ?step ?value WHERE {{ ?step a yk:Step . {pattern} }}"):
            linked.setdefault(str(r["step"]), {}).setdefault(name, []).append(r["value"])

    def one(found: dict[str, list[object]], name: str) -> object | None:
        values = sorted(found.get(name, []), key=str)
        return values[0] if values else None

    rites = {
        str(r["edition"]): r["rite"] for r in select(prefixes + "SELECT ?edition ?rite WHERE { ?edition yk:editionOf ?rite }")
    }
    out: list[Act] = []
    for r in select(prefixes + _STEPS):
        iri = str(r["step"])
        found = linked.get(iri, {})
        path = "/steps/" + iri[len(root + "step/") :] if iri.startswith(root + "step/") else iri
        rite_iri = rites.get(str(r["edition"]))
        rite = unquote(str(rite_iri).rsplit("/", 1)[-1]) if rite_iri else path.split("/")[2]
        agent_label, recipient_label = one(found, "agent_label"), one(found, "recipient_label")
        phase = one(found, "phase")
        label = one(found, "phase_label")
        vessel, location, action = one(found, "vessel"), one(found, "location"), one(found, "action")
        out.append(
            Act(
                iri=iri,
                path=path,
                rite=rite,
                edition=unquote(str(r["edition"]).rsplit("/", 1)[-1]),
                sequence=int(str(r["sequence"])),
                block=int(str(r["block"])),
                phase=int(str(phase)) if phase is not None else None,
                phase_label=str(label) if label is not None else None,
                text=str(r["text"]),
                action=key(action) if action is not None else "",
                action_label=str(r["action_label"]),
                agents=tuple(sorted({key(x) for x in found.get("agent", [])})),
                recipients=tuple(sorted({key(x) for x in found.get("recipient", [])})),
                agent_label=str(agent_label) if agent_label else None,
                recipient_label=str(recipient_label) if recipient_label else None,
                vessel=key(vessel) if vessel is not None else None,
                location=key(location) if location is not None else None,
                mode=str(r.get("modeIri") or "").rsplit("mode-", 1)[-1] or "actual",
                # xsd:boolean: "true" or "1" (Virtuoso gives back the latter)
                appendix=str(one(found, "appendix") or "").lower() in ("true", "1"),
            )
        )
    out.sort(key=lambda a: (a.rite, a.edition, a.sequence, a.iri))
    return out


def by_sequence(acts: Iterable[Act]) -> dict[str, list[Act]]:
    """Acts grouped by ``rite/edition``, each group in its order, the groups in key order."""
    groups: dict[str, list[Act]] = {}
    for a in acts:
        groups.setdefault(a.where, []).append(a)
    return {k: sorted(v, key=lambda a: a.sequence) for k, v in sorted(groups.items())}


def select_sequence(
    groups: dict[str, list[Act]],
    name: str,
    vocabulary,
    stage: str | None = None,  # type: ignore[no-untyped-def]
) -> tuple[str, list[Act]]:
    """The acts one side of a comparison names: ``RITE`` or ``RITE/EDITION`` (the rite in any written
    form: 鄉射禮, 乡射礼, xiangsheli, 鄉射), narrowed to a ``stage``.

    Parameters
    ----------
    groups : dict
        :func:`by_sequence` of the acts available.
    name : str
        A rite with no edition takes its first edition in key order (``shuzhu`` before ``zhushu``);
        ``rite/edition`` names one.
    vocabulary : Vocabulary
        For the rite's names.
    stage : str, optional
        A phase number (``3``), a range of phase numbers (``2-5``, inclusive), a range of classic blocks
        (``b10-40``, inclusive), or a phase label (``主人獻賓``: every phase with that label, variants folded).
        The 記 (appendix) is left out unless a stage of blocks takes it in.

    Returns
    -------
    (str, list[Act])
        The ``rite/edition`` key chosen and its acts in order.

    Raises
    ------
    UnknownTermError
        No rite or edition of that name is among the acts.
    NotFoundError
        The stage selects no step (a stage that is none of the forms is read as a phase label).
    """
    from yili.ingest.rites import find_rite
    from yili.ontology.errors import InputError
    from yili.ontology.variants import fold

    wanted = name.strip()
    rite_name, _, edition = wanted.partition("/")
    try:
        rite = find_rite(rite_name, vocabulary).key
    except InputError as exc:
        # a rite key the vocabulary lacks may still be in the graph (a text read with no profile)
        if not any(k.split("/")[0] == rite_name for k in groups):
            raise UnknownTermError(exc.message) from None
        rite = rite_name
    keys = [k for k in groups if k.split("/")[0] == rite and (not edition or k.split("/", 1)[1] == edition)]
    if not keys:
        have = ", ".join(groups) or "none"
        raise UnknownTermError(f"no steps of {wanted!r} in the graph (editions read: {have})")
    chosen = keys[0]
    acts = groups[chosen]
    if stage is None or not stage.strip():
        return chosen, [a for a in acts if not a.appendix]
    spec = stage.strip()
    import re

    if m := re.fullmatch(r"[bB](\d+)(?:-(\d+))?", spec):
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        picked = [a for a in acts if lo <= a.block <= hi]
    elif m := re.fullmatch(r"(\d+)(?:-(\d+))?", spec):
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        picked = [a for a in acts if a.phase is not None and lo <= a.phase <= hi and not a.appendix]
    else:
        picked = [a for a in acts if a.phase_label and fold(a.phase_label) == fold(spec) and not a.appendix]
    if not picked:
        raise NotFoundError(
            f"stage {spec[:60]!r} selects no step of {chosen}: give a phase number, a range 2-5, blocks b10-40 or a phase label"
        )
    return chosen, picked
