"""What an act is done to: the rules of the object field, named, cited and counted.

Each branch of the object decision in :meth:`yili.ingest.resolver.StepResolver.resolve` is registered
here (:func:`yili.ingest.rules.decision`); the resolver records the id of the one that decided on the
step (``Step.why``).  Tried in this order: the object carried by the act's word (a causative motion, a
verbal or nominal object, the act commanded next), then the objects section in order.
"""

from __future__ import annotations

from yili.ingest.rules import decision

OBJECT_CAUSATIVE = decision(
    "object.causative", "大射礼 射人升賔: 升 is what is commanded", "The motion commanded is the object of 命."
)
OBJECT_VERBAL = decision(
    "object.verbal", "燕禮 請羞于諸公卿者: the act requested", "An act word after a verb of asking or commanding."
)
OBJECT_NOMINAL = decision("object.nominal", "聘禮 受命: the command received", "An act word used as a noun after the verb.")
OBJECT_COMMANDED_ACT = decision(
    "object.commanded-act", "燕禮 公命小臣辭: 辭 is what is commanded", "命 + a person: the next act."
)
OBJECT_PLACEMENT_NOUN = decision(
    "object.placement-noun", "特牲 筵于東序: the mat laid (gold: 筵X → 設, 筵)", "A mat word used as a verb."
)
OBJECT_HELD_OUT = decision("object.held-out", "特牲 宗婦執兩籩 … 主婦受: the 籩", "What is received is what the other held out.")
OBJECT_WRITTEN = decision(
    "object.written", "士冠 取籩脯; 特牲 設兩豆兩籩: the things written after the act", "The things written after the verb."
)
OBJECT_JUST_TAKEN = decision(
    "object.just-taken", "有司徹 右取肺 坐祭之: 之 is the lung", "之 after a thing just taken up is that thing."
)
OBJECT_CUP_OF_ZHI = decision("object.cup-of-zhi", "鄉飲酒 主人坐取爵 … 洗之: the cup", "之 after an act with a cup: the cup.")
OBJECT_FRONTED = decision("object.fronted", "士冠 筮與席所卦者具饌於西塾", "Things named before the act, with no person named.")
OBJECT_INSTRUMENT = decision("object.instrument", "鄉飲酒 以虚爵降: the empty cup", "以X + a motion: he moves with X.")
OBJECT_CUP_TAKEN_ALONG = decision(
    "object.cup-taken-along", "鄉飲酒 受爵以降: goes down with it", "以 + a motion after a cup: that cup."
)
OBJECT_CUP_OF_ACT = decision("object.cup-of-act", "鄉飲酒 卒爵: the cup drained", "An act done to a cup, with the cup in hand.")
OBJECT_PERSONS_AS_THINGS = decision(
    "object.persons", "士喪 襲尸: persons an act is done to, not its receivers", "Persons after an act that has no receiver."
)
OBJECT_BEFORE_INSTRUMENT = decision(
    "object.before-instrument",
    "士喪 楔齒用角柶, 幠用斂衾, 鬻餘飯用二鬲: 用 X is what the act is done with; 士冠 醮用脯醢",
    "The object written ends at 用: what follows it, up to a place or 于, is the instrument; with nothing"
    " written before 用, the thing used is the object (醮用脯醢, 享用琮).",
)
OBJECT_THE_BODY = decision(
    "object.the-body",
    "士喪 乃沐櫛, 挋用巾, 幠用衾 (記 遷尸于牀幠用斂衾: the body, 尸, is washed, combed and covered)",
    'An act done to the body itself (yk:onTheBody "object"), in a rite where the body is present, with no thing'
    " written before 用: the body.",
)
OBJECT_IMPLIED = decision(
    "object.implied", "燕禮 舉冪, 反冪: the cover is in the word", "The thing the act's word implies (vocabulary)."
)
OBJECT_DECLINED_ACT = decision("object.declined-act", "鄉飲酒 賔辭洗: the act the other has just done", "辭: the act declined.")
OBJECT_DISH_BROUGHT = decision(
    "object.dish-brought", "有司徹 婦贊者薦韭菹醢 坐 奠于筵前", "What a server sets down is the dish he brought."
)
OBJECT_THING_IN_HAND = decision("object.thing-in-hand", "鄉飲酒 取肺 … 絶 祭 嚌之 加于俎: the lung", "The thing in hand.")
OBJECT_HELD_UP = decision("object.held-up", "士冠 書卦 執以示主人 主人受 眡: the 卦", "What is held up, shown and looked at.")
OBJECT_JUST_NAMED = decision("object.just-named", "特牲 尸祭鉶 嘗之: the 鉶", "之 after an act done to the thing just named.")
OBJECT_DISH_FOLLOWS = decision(
    "object.dish-follows", "特牲 賓長以肝從: the liver", "以X從 / X從: the dish brought after the cup."
)
OBJECT_PASSED_HAND = decision(
    "object.passed-hand", "特牲 佐食舉幹 尸受 … 佐食受 加于肵俎", "What passes hand to hand is the thing last taken up."
)
OBJECT_IN_ACT_WORD = decision(
    "object.in-act-word",
    "鄉射 衆賔辯有脯醢, 辯有脯醢 (鄉飲酒, 燕禮, 大射): the dried meat and sauce served to each",
    "A thing written inside the act's word as this text spells it (辯有脯醢, a way of writing 薦): that thing.",
)
