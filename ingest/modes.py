"""Whether a step happens: the rules of the mode field (actual, conditional, negated), named, cited and
counted.  The resolver (:meth:`yili.ingest.resolver.StepResolver.resolve`) decides the mode from the
clause's condition and negation words and the conditions still open; the rule is recorded on the step.
"""

from __future__ import annotations

from yili.ingest.rules import decision

MODE_GENERAL = decision(
    "mode.general-rule", "鄉飲酒 凡旅不洗; 燕禮 凡拜北面于阼階上", "凡: a rule for every such act, not one act."
)
MODE_CONDITION = decision(
    "mode.condition",
    "士冠 若不醴則醮用酒; 燕禮 若有諸公則…",
    "若/則, a condition continuing, or a variant after the rite closed.",
)
MODE_NEGATED = decision("mode.negated", "鄉飲酒 主人不拜洗: 不, 無, 弗 before the act", "A negated act.")
MODE_ACTUAL = decision("mode.actual", "the narrative of the rite", "One act of the sequence.")
"""The note on a step of a general rule (see :data:`~yili.ingest.grammar.GENERAL_RULE`): it makes no toast."""
