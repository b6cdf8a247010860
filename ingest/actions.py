"""Which act a clause tells: the rules of the action field, named, cited and counted.

The act is the concept of the clause's verb (:mod:`yili.ingest.clauses`), re-read by these rules in
:meth:`yili.ingest.resolver.StepResolver.resolve`; the one that decided is recorded on the step.
"""

from __future__ import annotations

from yili.ingest.rules import decision

ACTION_WRITTEN = decision("action.written", "the verb of the clause, as the vocabulary reads it", "The act written.")
ACTION_STANDS = decision(
    "action.stands", "鄉射 主人阼階上西面: a person with a place and a facing stands there (立)", "No verb: he stands there."
)
ACTION_THING_IS_SET = decision(
    "action.thing-is-set",
    "士冠 水在洗東, 𤣥酒在西; 士喪 櫛於簞: a thing that is at a place is set there",
    "A thing 在 a place, or things and 于 + where with no verb: 設.",
)
ACTION_SAYING = decision("action.saying", "士冠 再加曰…, 醴辭曰…", "The words said at an act that is no speech: 曰.")
ACTION_WORDS_AFTER_ACT = decision(
    "action.words-after-act",
    "士相見 左頭奉之曰某也願見…; 士喪 北面招以衣曰臯某復",
    "曰 after an act that is no speech, with its object or place between: the saying is an act of its own (曰).",
)
ACTION_RECORDED_AS = decision(
    "action.recorded-as", "特牲 筵于户西: a placement noun used as a verb (設)", "The vocabulary's yk:recordedAs."
)
ACTION_SENDING_OFF = decision("action.sending-off", "鄉飲酒 拜送爵", "拜 … 送: the bow of sending off (拜送).")
ACTION_BOW_ON_RECEIVING = decision(
    "action.bow-on-receiving",
    "士相見 主人再拜受 賔再拜送摯; 覲禮 使者再拜受 侯氏再拜送幣",
    "A bow + a bare 受, the other party or the end after it: the bow of receiving (拜受).",
)
ACTION_CAUSATIVE = decision(
    "action.causative", "大射礼 射人升賔 (摈者以命升賔)", "A motion verb with a person after it: he is commanded to move (命)."
)
