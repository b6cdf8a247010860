"""Where an act happens and which way its doer faces: the rules of the location and facing fields.

Each branch of the place decision in :meth:`yili.ingest.resolver.StepResolver.resolve` is registered
here (:func:`yili.ingest.rules.decision`); the last that set the place is recorded on the step
(``Step.why``).  Places are the vocabulary's ``place`` concepts (``ontology/vocabulary.ttl``), on the
ground of 李如圭's 儀禮釋宫 (``ontology/ground.ttl``).
"""

from __future__ import annotations

from yili.ingest.rules import decision

LOCATION_FROM_SIDE = decision("location.from-side", "燕禮 宰自右少退: from the right", "自 + a side.")
LOCATION_OF_PERSON = decision(
    "location.of-person",
    "士冠 告期於賔之家; 特牲 錯篚于尸左席上",
    "于 + a person + 之/a side + a place: a place named by a person.",
)
LOCATION_YU_PLACE = decision(
    "location.yu-place", "鄉飲酒 主人降自西階; 拜于阼階上", "自/于 + a place (a person's place, or where a motion starts)."
)
LOCATION_THING_AS_PLACE = decision(
    "location.thing-as-place", "鄉射 于洗南: a thing that is also a place", "于 + a thing read as a place."
)
LOCATION_YU_THING = decision(
    "location.yu-thing",
    "特牲 㨎于醢, 加于肵俎; 實于左袂",
    "于 + things or places: where the act puts it, the whole phrase with its modifiers.",
)
LOCATION_PLACE_WORD = decision("location.place-word", "燕禮 適阼階: a place after the verb", "A place word after the verb.")
LOCATION_SIDE_OF_BEING = decision("location.side-of-being", "士冠 卦者在左; 蒲筵二在南", "在 + a side.")
LOCATION_AFTER_BEING_AT = decision(
    "location.after-being-at", "士冠 側尊一甒醴在服北", "在 + a thing + a side: north of the garments."
)
LOCATION_BEFORE_VERB = decision("location.before-verb", "鄉飲酒 主人阼階上拜", "A place written before the verb.")
LOCATION_IN_ACT_WORD = decision("location.in-act-word", "士冠 即筵 (= 即席): the mat", "A place in the act's own word.")
FACING_WRITTEN = decision("facing.written", "鄉飲酒 主人西階上北面拜: 北面", "The facing written in the clause (東面, 北面 …).")
