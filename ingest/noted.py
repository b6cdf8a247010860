"""The steps whose fields a rule decided from the commentary, and the note sentence each read.

Two rules of the extractor read 鄭玄's note rather than the classic:

- ``agent.noted-doers`` (:func:`yili.ingest.agents.noted_doers`): a note sentence ``V者X為之`` on the
  paragraph names who does its act V (士冠 徹皮弁冠櫛筵, 註曰徹者賛冠者主人之賛者為之: the 贊者 and
  the 主人之贊者; read by :func:`yili.ingest.pipeline.doers`);
- ``agent.named-in-note`` and ``recipient.named-in-note`` (registered here): a person written in the
  clause is read as the role a note sentence ``XY也`` names (特牲 利洗散, 註曰利佐食也: the 佐食; 士冠
  註 贊者衆賔也; read by :func:`yili.ingest.pipeline.identifications`, for the paragraph the note is on
  and, when X is no role of its own, for the paragraphs after it).  The written subject or object is
  first decided by the rule that reads the text (``agent.written``, ``recipient.person-object`` …);
  :func:`from_notes` then records that it is the note that names the role.

:func:`from_notes` gives each such step ``Step.noted``: (field, start, end) of the sentence of the note
read, in code points into the document (0-based, end-exclusive), for the field whose rule in
``Step.why`` is one of :data:`NOTE_RULES`.  The graph links the step to the commentary statement that
holds that sentence (:mod:`yili.graph.noted`: ``yk:agentFromNote``, a ``prov:wasDerivedFrom``).
Which sentence a step was read from is thus decided by the rule when it reads, never by matching the
wording of the notes afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from yili.ingest.rules import decision, redecide
from yili.ingest.steps import Step
from yili.ontology.vocabulary import Concept

NOTED_DOERS = "agent.noted-doers"
"""The agent rule of :func:`yili.ingest.agents.noted_doers` (a ``V者X為之`` sentence of the note)."""

AGENT_NAMED_IN_NOTE = decision(
    "agent.named-in-note",
    "特牲 利洗散, 註曰利佐食也: 利 is the 佐食",
    "The persons written before the act, one of them read as the role a note sentence XY也 names.",
)
RECIPIENT_NAMED_IN_NOTE = decision(
    "recipient.named-in-note",
    "士冠 註曰贊者衆賔也: the 贊者 of this paragraph are of the 衆賔",
    "The person written after the act, read as the role a note sentence XY也 names.",
)

NOTE_RULES: tuple[str, ...] = (NOTED_DOERS, AGENT_NAMED_IN_NOTE, RECIPIENT_NAMED_IN_NOTE)
"""Every rule that decides a field from the commentary, in the order of ``yili-kg rules``."""

_WRITTEN_BY = {
    "agent": (("agent.written", "agent.joined"), AGENT_NAMED_IN_NOTE),
    "recipient": (("recipient.person-object", "recipient.yu-person"), RECIPIENT_NAMED_IN_NOTE),
}
"""Field → (the rules that read the person written in the clause, the rule that takes over when the note
names him)."""


@dataclass
class NotesRead:
    """What the notes said that the extractor used, for one paragraph (block) of the classic.

    Attributes
    ----------
    doers : dict[str, tuple[int, int]]
        Action key → the span of the ``V者X為之`` sentence on this block that names its doers.
    names : dict[str, tuple[Concept, tuple[int, int]]]
        Written form → (the role a note names it, the span of that ``XY也`` sentence), for this block
        (the names held from notes on earlier blocks, and this block's own).

    Spans are code points into the document, 0-based, end-exclusive.
    """

    doers: dict[str, tuple[int, int]] = field(default_factory=dict)
    names: dict[str, tuple[Concept, tuple[int, int]]] = field(default_factory=dict)


def from_notes(step: Step, read: NotesRead) -> Step:
    """``step`` with ``noted`` set (and ``why`` redecided) for the fields a note decided.

    - The agent decided by ``agent.noted-doers``: the span of the sentence that names the doers of the
      step's act (``read.doers``).
    - An agent or recipient read from the clause (``agent.written``, ``agent.joined``,
      ``recipient.person-object``, ``recipient.yu-person``) one of whose roles is what a note names a form
      written in the step's text (and no label of that role is written there): the field is decided by
      ``agent.named-in-note`` / ``recipient.named-in-note``, and the span is that of the ``XY也``
      sentence (特牲 利洗散: 註曰利佐食也).

    Parameters
    ----------
    step : Step
    read : NotesRead
        What the notes on the step's block said (:func:`yili.ingest.pipeline.doers`,
        :func:`yili.ingest.pipeline.identifications` with their ``read`` argument).

    Returns
    -------
    Step
        ``step`` itself when no field was decided from a note.
    """
    noted: list[tuple[str, int, int]] = []
    why = step.why
    if step.decided("agent") == NOTED_DOERS and step.action.key in read.doers:
        noted.append(("agent", *read.doers[step.action.key]))
    for name, (written_rules, rule_id) in _WRITTEN_BY.items():
        if step.decided(name) not in written_rules:
            continue
        keys = {t.key for t in getattr(step, name)}
        for form, (role, span) in sorted(read.names.items(), key=lambda kv: (kv[1][1], kv[0])):
            if role.key in keys and form in step.text and not any(label in step.text for label in role.labels):
                noted.append((name, *span))
                why = redecide(why, name, rule_id)
                break
    if not noted:
        return step
    return replace(step, why=why, noted=tuple(noted))
