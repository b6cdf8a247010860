"""Steps: one per clause, with who does what to whom, with which cup, where, facing where.

A :class:`Step` is a plain frozen record with the source offsets it came from; everything
downstream (the RDF graph, the API, the exports) is a view of steps.  They are made by
:class:`yili.ingest.resolver.StepResolver`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yili.ontology.namespaces import mint

ACTUAL, CONDITIONAL, NEGATED = "actual", "conditional", "negated"


@dataclass(frozen=True)
class Term:
    """A vocabulary term as it fills a field of a step.

    Attributes
    ----------
    key : str
        The concept key (``role-bin``), or ``""`` for a word that is not in the vocabulary.
    label : str
        The form to show: as written in this text where written (賔), else the form this text
        used last for the concept, else the concept's preferred label.
    iri : str | None
        The concept IRI.
    """

    key: str
    label: str
    iri: str | None = None


@dataclass(frozen=True)
class Step:
    """One ritual step (a clause-level event) of an edition.

    Attributes
    ----------
    key : str
        Stable key ``{rite}/{edition}/{block}/{ordinal}`` (``yanli/shuzhu-excerpt/3/2``: the second
        step read from classic block 3); the step's IRI is minted from it.
    sequence : int
        1-based order in the edition.
    block : int
        Classic block number.
    char_start, char_end : int
        Code points into the document text as decoded, 0-based, end-exclusive; ``source`` is exactly
        that slice.
    text : str
        The clean reading of the span: ``source`` with the print layout taken out (the ``¶`` line
        ends, line breaks, ``<pb:…>`` page markers, indentation, KanripoXML tags, the ``○`` section
        marks, the 鄭注's parenthesised notes and ``/`` column marks, and the 注疏's 疏 printed between a
        喪服 entry and its 傳, :func:`yili.ingest.layouts._continues_with_its_chuan`).  In the blank-line layout of the
        excerpt, where a span holds no layout, ``text == source``.
    agent : tuple[Term, ...]
        Who acts; several for a joint agent (卿+大夫) or for alternatives (see ``agent_alternative``).
    agent_explicit : bool
        True when the agent is written in the clause.
    action : Term
    recipient : tuple[Term, ...]
        To whom the act is directed (empty if none).
    recipient_alternative : bool
        True when the recipients are alternatives (若賔若长: either), not joint.
    object : str | None
        The object as written, or the antecedent of 之, or the cup for elided cup objects.
    object_term : Term | None
        The object's concept when it is a vocabulary term.
    vessel, wine : Term | None
    location : str | None
        The place as written (西阶上); ``location_term`` is the place it is built on (西阶).
    location_term : Term | None
    facing, rank_order : Term | None
    mode : str
        ``actual``, ``conditional`` or ``negated`` (conditional wins; ``negated`` keeps the negation).
    negated : bool
    repeats : int | None
        The sequence number of the earlier step this one repeats (如初, 如賔礼), if found.
    section_start : bool
        True if a ``○`` section mark precedes the step.
    summary : bool
        True for a clause that repeats the act for the rest of a group (辩献卿).
    part : str
        ``narrative`` for the rite's narrative, ``ji`` for its 記 (the appendix: notes, variants and
        general rules, not steps in sequence with the story).
    notes : tuple[str, ...]
        Which rules decided unwritten fields (``agent: carried``, ``recipient: other party``).
    page : str | None
        The edition's page on which the step begins, as its page marker names it
        (:func:`yili.ingest.layouts.page_at`); None for a text without page markers.
    why : tuple[tuple[str, str], ...]
        The rule that decided each field (field, rule id), in the order of :data:`yili.ingest.rules.FIELDS`
        (:mod:`yili.ingest.rules`: ``("agent", "agent.carried-over")``).
    noted : tuple[tuple[str, int, int], ...]
        For a field a rule decided from the commentary (:data:`yili.ingest.noted.NOTE_RULES`): (field,
        start, end) of the note sentence it read, code points into the document, 0-based, end-exclusive
        (特牲 利洗散: ``("agent", …)`` the span of 利佐食也).  Empty for most steps; not in
        :meth:`as_record` (the JSON Lines of ``yili-kg steps`` do not carry it; the graph links the
        step to the statement: ``yk:agentFromNote``).
    """

    key: str
    sequence: int
    block: int
    char_start: int
    char_end: int
    text: str
    agent: tuple[Term, ...]
    agent_explicit: bool
    action: Term
    recipient: tuple[Term, ...] = ()
    recipient_alternative: bool = False
    object: str | None = None
    object_term: Term | None = None
    vessel: Term | None = None
    wine: Term | None = None
    location: str | None = None
    location_term: Term | None = None
    facing: Term | None = None
    rank_order: Term | None = None
    mode: str = ACTUAL
    negated: bool = False
    repeats: int | None = None
    section_start: bool = False
    summary: bool = False
    agent_alternative: bool = False
    part: str = "narrative"
    source: str = ""
    notes: tuple[str, ...] = ()
    page: str | None = None
    why: tuple[tuple[str, str], ...] = ()
    noted: tuple[tuple[str, int, int], ...] = ()

    def decided(self, field: str) -> str | None:
        """The id of the rule that decided ``field`` (``agent``), or None if none is recorded."""
        return next((rid for f, rid in self.why if f == field), None)

    @property
    def agent_label(self) -> str | None:
        """Agents as one string: ``賔+卿+大夫`` (joint) or ``賔|长`` (either); None if unknown."""
        return _join(self.agent, self.agent_alternative)

    @property
    def recipient_label(self) -> str | None:
        """Recipients as one string (``+`` joint, ``|`` either); None if none."""
        return _join(self.recipient, self.recipient_alternative)

    def as_record(self, base: str | None = None) -> dict[str, Any]:
        """The step as a JSON-ready dict (term values are Chinese labels as the edition writes them;
        null where empty; ``id`` is the step's IRI, minted under ``base``, default
        :func:`~yili.ontology.namespaces.base_iri`)."""
        return {
            "id": str(mint("step", *self.key.split("/"), base=base)),
            "sequence": self.sequence,
            "block": self.block,
            "char_start": self.char_start,
            "char_end": self.char_end,
            "text": self.text,
            "source": self.source,
            "agent": self.agent_label,
            "agent_explicit": self.agent_explicit,
            "action": self.action.label,
            "recipient": self.recipient_label,
            "object": self.object,
            "vessel": self.vessel.label if self.vessel else None,
            "wine": self.wine.label if self.wine else None,
            "location": self.location,
            "facing": self.facing.label if self.facing else None,
            "rank_order": self.rank_order.label if self.rank_order else None,
            "mode": self.mode,
            "negated": self.negated,
            "repeats": self.repeats,
            "summary": self.summary,
            "part": self.part,
            "page": self.page,
            "why": dict(self.why),
        }


def _join(terms: tuple[Term, ...], alternative: bool) -> str | None:
    if not terms:
        return None
    return ("|" if alternative else "+").join(t.label for t in terms)
