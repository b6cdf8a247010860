"""Function words of classical Chinese that the rules of the extractor read.

These are not ritual vocabulary (that lives in ``ontology/vocabulary.ttl``) but the grammar the
clauses are built with: adverbs that do not start a new actor, negators, the conditional 若…则, the
prepositions that introduce a place or a person, the object pronoun 之, and the direction words
that turn a place into a position (西阶 + 上 = 西阶上).  Each entry cites the text it is read from.

The words themselves are data, not Python: each list is read by its name from the tables of
``ontology/lzh/`` (:mod:`yili.ontology.lzh_words`: ``function_words.tsv``, ``idioms.tsv``), where every
word has its English gloss and the text it is read from.  Patterns and the logic of reading them stay here.

Every word set holds its words in all their spellings (:func:`~yili.ontology.vocabulary.spelled`,
from the variant characters of ``ontology/variants.tsv``): 如初 is also 如𥘉, 於 also 于, 凡 also 凢.

The classes of acts the rules read (:data:`MOTION_VERBS`, :data:`POSTURES`, :data:`SETTING_OUT` …) are
data, not Python: each is a class of ``ontology/act_classes.ttl``, named here by its key
(:func:`~yili.ontology.act_classes.act_class`), with its English name, its definition and the text it
rests on there.
"""

from __future__ import annotations

from yili.ontology import lzh_words as lzh
from yili.ontology.act_classes import act_class
from yili.ontology.variants import spelled, spelled_keys

ADVERBS: frozenset[str] = spelled(lzh.words("ADVERBS"))
"""Adverbs: they sit between a subject and its verb and never start a clause of their own."""

SUMMARY_ADVERBS: frozenset[str] = spelled(lzh.words("SUMMARY_ADVERBS"))
"""辩/徧 = 遍 "to each in turn": a clause that repeats a toast for the rest of a rank (辩献卿)."""

NEGATORS: frozenset[str] = spelled(lzh.words("NEGATORS"))
"""不拜, 不啐酒, 无加席: the act is left out, and that is what the rite prescribes."""

ABSENT: frozenset[str] = spelled(lzh.words("ABSENT"))
"""無 before a noun: "there is no …" (無司正, 無筭爵), a statement, not the negation of an act."""

CONDITIONAL: frozenset[str] = spelled(lzh.words("CONDITIONAL"))
"""若…则 "if … then"; 若賔若长 "either … or"; 唯公所酬 "whomever the ruler chooses"."""

THEN: frozenset[str] = spelled(lzh.words("THEN"))
"""则 closes the condition of 若…则 (若君命皆致则序进)."""

LOCATIVE_PREPOSITIONS: frozenset[str] = spelled(lzh.words("LOCATIVE_PREPOSITIONS"))
"""于 introduces where an act happens (奠觚于篚) or to whom it goes (献于公)."""

SOURCE_PREPOSITIONS: frozenset[str] = spelled(lzh.words("SOURCE_PREPOSITIONS"))
"""自 / 由 introduce the way taken: 升自西阶, 由楹内."""

INSTRUMENT: frozenset[str] = spelled(lzh.words("INSTRUMENT"))
"""以 "with, so as to": 以虚爵降, 以酬賔; it opens the next act."""

LINKER: frozenset[str] = spelled(lzh.words("LINKER"))
"""而 joins two verb phrases: 就其位而荐之 (one act, located at 其位)."""

GO_TO: frozenset[str] = spelled(lzh.words("GO_TO"))
"""就 X 而 V: going to X to do V is one act V at place X (主人就旅食之尊而献之)."""

CONJUNCTIONS: frozenset[str] = spelled(lzh.words("CONJUNCTIONS"))
"""与 / 及 join persons into a joint agent (賔及卿大夫皆坐); 及 before a place is "reaching" (賔入及庭)."""

WITH: frozenset[str] = spelled(lzh.words("WITH"))
"""與 joins a person to the persons before it: 獻工與笙 (to the musicians and the pipers)."""

REACHING: frozenset[str] = spelled(lzh.words("REACHING"))
"""及 + place = arriving at the place: 賔入及庭 (location 庭), 及阶揖."""

ARRIVING: frozenset[str] = spelled(lzh.words("ARRIVING"))
"""至於 + place before another act is "on reaching it", where that act is done: 至於廟門揖 (士冠: at
the temple gate they salute), 至於階三讓; the place is the act's location."""

PRONOUN_OBJECT: frozenset[str] = spelled(lzh.words("PRONOUN_OBJECT"))
"""之 after a verb is the object: the last person named (公降一等揖之) or the cup in hand (实之)."""

GENITIVE: frozenset[str] = spelled(lzh.words("GENITIVE"))
"""之 between two nouns is the genitive: 东楹之东, 主人之左, 旅食之尊."""

SPEECH: frozenset[str] = spelled(lzh.words("SPEECH"))
"""曰 opens quoted words, which stay inside the speech act's span (对曰诺敢不安)."""

RELATIVE: frozenset[str] = spelled(lzh.words("RELATIVE"))
"""所 + verb is a relative clause, not an act: 取大夫所媵觯 (the cup the great officers presented)."""

WITH_WHAT: frozenset[str] = spelled(lzh.words("WITH_WHAT"))
"""用 X after the act's object is what it is done with, not what it is done to: 楔齒用角柶 (the teeth are
wedged with a horn spoon), 幠用斂衾 (covered with the shroud), 鬻餘飯用二鬲 (士喪; 註 用二鬲 … 以煑之)."""

THERE_IS: frozenset[str] = spelled(lzh.words("THERE_IS"))
"""有 X after the act's object says what there is with it, not what the act is done to: 三醮有乾肉折爼 (at
the third 醮 there is dried meat; 士冠), 兩甒有禁 (two jars, with a stand), 洗有篚 (the washing basin has a
basket by it)."""

COMPARISON: frozenset[str] = spelled(lzh.words("COMPARISON"))
"""如 X (如初, 如賔礼, 如献卿之礼): the act repeats an earlier one; the words after 如 are no acts."""

COMPARISON_ENDS: frozenset[str] = spelled(lzh.words("COMPARISON_ENDS"))
"""The words that close a 如-phrase: 如初, 如賔礼, 如主人服 (dressed as the host: 士冠 有司如主人服)."""

NOMINAL_HEADS: frozenset[str] = spelled(lzh.words("NOMINAL_HEADS"))
"""Nouns that make act + 之 + noun a noun phrase: 冠之日 (the day of the capping), 祭之日."""

MUTUAL_ACTS: frozenset[str] = act_class("acts-mutual")

COUNTED_SALUTES: frozenset[str] = spelled(lzh.words("COUNTED_SALUTES"))
"""A numbered salute (三揖, 壹揖, 每曲揖) is the mutual salute of host and guest (疏 主人在南賔在北俱東向是一曲故揖)."""

MOVES_AFTER_SALUTE: frozenset[str] = act_class("acts-moves-after-salute")

CUP_HANDLING: frozenset[str] = act_class("acts-on-a-cup")

MU: frozenset[str] = lzh.words("MU")
"""母, written for 毋 "do not" where no person can stand (士相見 母上於面: 儀禮 毋上於面)."""

FILLING: frozenset[str] = act_class("acts-pouring")

SETTING_OUT: frozenset[str] = act_class("acts-setting-out")

MAKING_A_PLACE: frozenset[str] = act_class("acts-making-a-place")
"""掘, 為, 築: the place word after them (掘坎, 為垼) is the thing made."""

THING_AS_SUBJECT: frozenset[str] = act_class("acts-thing-as-subject")

PLACEHOLDERS: frozenset[str] = spelled(lzh.words("PLACEHOLDERS"))
"""某 "so-and-so": a name left blank in the words spoken (公曰命某為賔 注曰某大夫也), never a role of the rite."""

DONE_TO_THE_PERSON: frozenset[str] = act_class("acts-done-to-the-person")

EATING: frozenset[str] = act_class("acts-eating")

SERVED_TO_EATERS: frozenset[str] = act_class("acts-served-to-eaters")

TAKING_A_SEAT: frozenset[str] = act_class("acts-taking-a-seat")

APPENDIX_MARK = lzh.sequence("APPENDIX_MARK")[0]
"""A classic paragraph opening with 記 begins the chapter's 記 (記冠義, 記鄉朝服而謀賔介): the appendix of
notes and general rules, read apart from the narrative."""

SPEECH_CLOSINGS: tuple[str, ...] = tuple(sorted(spelled(lzh.words("SPEECH_CLOSINGS")), key=lambda w: (-len(w), w)))
"""The set phrases that close a speech of declining or consenting (士相見 某也固辭不得命敢不敬從 | 出迎於門外;
某固辭不得命敢不從 | 再拜受; 臣不敢辭 | 再拜稽首受): an act right after them is done, not said."""

WORDS_OF: frozenset[str] = spelled(lzh.words("WORDS_OF"))
"""Act + 辭 + 曰 is "the words of the act" (醴辭曰), the act a noun."""

LEVEL_WITH: frozenset[str] = spelled(lzh.words("LEVEL_WITH"))
"""當 "level with, facing" before a place: part of where (聘禮 受幣當東楹北面 = 當東楹; 公當楣再拜)."""

ONLY_OR_BY: frozenset[str] = spelled(lzh.words("ONLY_OR_BY"))
"""唯 "only", 以 "by": before X命 + act they make 命 "X's command", a noun (唯君命出)."""

TRADITION: frozenset[str] = spelled(lzh.words("TRADITION"))
"""傳曰 (喪服): "the 傳 says", the words of the commentary written into the classic, no act of anyone."""

WINE_WORDS: frozenset[str] = spelled(lzh.words("WINE_WORDS"))
"""酒 after a toast word makes it a noun phrase: 兩壺獻酒 (the wine for the presentations)."""

GIFT_WORDS: frozenset[str] = act_class("acts-gift")

BOWS_FOR_A_GIFT: frozenset[str] = act_class("acts-bowing-to-a-person")

DONE_MARK: frozenset[str] = spelled(lzh.words("DONE_MARK"))
"""Act + 畢: "the act is over" (獻畢, 士虞 註 卒哭之祭既三獻也), a restatement, no new toast."""

NUMBERED_PRESENTATIONS: frozenset[str] = spelled(lzh.words("NUMBERED_PRESENTATIONS"))
"""亞獻, 三獻: the second and third presentations of a round, made to whom the first was (the 尸)."""

ADDRESS: frozenset[str] = spelled(lzh.words("ADDRESS"))
"""Words of address (爾 "you", 吾子 "you, sir", 某 "so-and-so", 我/吾 "I"): found in words spoken,
not in the narrative (女 is the bride of 士昏, 予 "to give", 厥 of 厥明 "the next day": left out).
A paragraph that goes on with such words after a paragraph of words goes on with the words (士冠
再加曰吉月令辰乃申爾服 | 敬爾威儀淑慎爾徳…)."""

EXISTENTIAL: frozenset[str] = spelled(lzh.words("EXISTENTIAL"))
"""有 "there is": 有 + a thing + an act makes the thing the topic of that act (士冠 醴在服北 | 有篚實勺觶角柶:
there is a basket, filled with the ladle, cup and spoon)."""

POSITION_WORDS: frozenset[str] = spelled(lzh.words("POSITION_WORDS"))
"""在 read as "at" (a person 在 a place, then his act: 主人在其右北面答拜)."""

BEING_AT: frozenset[str] = spelled(lzh.words("BEING_AT"))
"""有 "has", 在 "is at": after a word that opens its paragraph they make it a thing (洗有篚, 洗在阼階東南)."""

HOLDING_OUT: frozenset[str] = act_class("acts-holding-out")

SLIGHTLY: frozenset[str] = spelled(lzh.words("SLIGHTLY"))
"""少 "a little": 少退, 少進 (a little back, a little forward)."""

STEPPING: frozenset[str] = act_class("acts-stepping")

BEFORE_THE_DATE: frozenset[str] = spelled(lzh.words("BEFORE_THE_DATE"))
DATE: frozenset[str] = spelled(lzh.words("DATE"))
"""前期 "before the appointed day" (前期三日: three days before it) opens a time phrase, which dates the
act after it (士冠 前期三日筮賔)."""

ALL: frozenset[str] = spelled(lzh.words("ALL"))
"""皆 "all": the act is of every one of the group named or carried over (卿大夫皆降, 皆坐)."""

BEFORE_AN_ACT: frozenset[str] = spelled(lzh.words("BEFORE_AN_ACT"))
"""皆 and 乃: a word read as an act only by context (yk:readByContext) right after one is that act (皆濯, 乃笄)."""

THE_REST: frozenset[str] = spelled(lzh.words("THE_REST"))
"""衆 + a rank: the rest of that rank after its leader (衆賓 after the 賓, 衆兄弟 after the 長兄弟)."""

COMPASS: frozenset[str] = spelled(lzh.words("COMPASS"))
"""The four quarters: after a person in a 于-phrase, the place on that side of him (于侑東)."""

ELDEST: frozenset[str] = spelled(lzh.words("ELDEST"))
"""長 after a group: its eldest, one person (衆賔長, 兄弟長)."""

MEASURES: frozenset[str] = spelled(lzh.words("MEASURES"))
"""Units of length (尺, 寸, 幅): 長 before a number and one of them is a length (長三尺), not the elder."""

MEASURE_PARTS: frozenset[str] = spelled(lzh.words("MEASURE_PARTS"))
"""半 and 終 before a unit (長半幅, 長終幅): part of a measure."""

THEIR: frozenset[str] = spelled(lzh.words("THEIR"))
"""其 before a person: "their", the person of each of those just named (舉觶于其長: to their elders)."""

JUNIORS: tuple[str, ...] = lzh.sequence("JUNIORS")
"""What names the juniors of a side (賓弟子, 兄弟弟子, 兄弟之後生者: 注 弟子後生也): their elder is the
elder of that side."""

UP_DOWN: frozenset[str] = spelled(lzh.words("UP_DOWN"))
"""上/下 after a place is its top or foot (西階上, 阼階下); as motions, "go above / below" (士相見 毋上於面
毋下於帶)."""

NEXT_AFTER: frozenset[str] = spelled(lzh.words("NEXT_AFTER"))
"""次 after a presentation: "next after" (特牲記 公有司…獻次衆賓: presented after the guests)."""

RANKED_AMONG: frozenset[str] = spelled(lzh.words("RANKED_AMONG"))
"""齒 "ranked by age among": 旅齒于衆賓 (takes his turn in the pledge round among the guests)."""

MANNER: frozenset[str] = spelled(lzh.words("MANNER"))
"""縮 "lengthwise", 横 "crosswise" before an act say how it is done (縮執俎, 縮奠俎; 有司徹 司馬横執羊俎); elsewhere
(西縮) they describe a placing. 逆 "in the reverse order" before a motion (聘禮 介逆出, 鄉飲酒 逆降, 特牲 逆退; 註 逆出
由便也): the ones who came in first go out last."""

RANK_WORDS: frozenset[str] = spelled(lzh.words("RANK_WORDS"))
"""爵 after 以其 is the rank ("by his rank"), not the cup."""

TIME_FINALS: frozenset[str] = spelled(lzh.words("TIME_FINALS"))
"""也 after 於 + an act makes the phrase a time, "at the …" (古者於旅也語), not the act."""

GENERAL_RULE: frozenset[str] = spelled(lzh.words("GENERAL_RULE"))
"""凡 "whenever" opens a general rule (凡拜北面于阼階上, 凡奠爵), not a step of the sequence told before."""

NEW_DAY: frozenset[str] = spelled(lzh.words("NEW_DAY"))
"""Words that open the next day's paragraph: 公食 明日賔朝服以拜賜于朝, 士冠 厥明夕為期, 夙興 "rising
early" (the rite goes on, whatever variant was being told before; a setting-out right after it is the
officers' as at a paragraph's opening: 士冠 擯者告期於賔之家 夙興 設洗)."""

AFTER_DONE: frozenset[str] = spelled(lzh.words("AFTER_DONE"))
"""既 + act: "when the act is done", a temporal clause that restates an act already told (既獻, 既旅):
no new toast."""

POSTURES: frozenset[str] = act_class("acts-posture")

POSITION_VERBS: frozenset[str] = act_class("acts-being-at")

EXTENTS: frozenset[str] = spelled(lzh.words("EXTENTS"))
"""Two opposite directions together are an extent ("from north to south": 南北以堂深), not a side."""

OPPOSITE: frozenset[str] = spelled(lzh.words("OPPOSITE"))
"""直 + place: right opposite it (士冠 立於阼階下直東序; 賔降直西序東面)."""

HANDS: frozenset[str] = spelled(lzh.words("HANDS"))

BOTH: frozenset[str] = spelled(lzh.words("BOTH"))
"""二手 / 兩手: with both hands (有司徹 二手横執几)."""

HANDLING_A_PORTION: frozenset[str] = act_class("acts-handling-a-portion")

COUNTS: frozenset[str] = spelled(lzh.words("COUNTS"))
"""Numbers that count the thing written right after them (兩籩, 四豆, 三个); 一 ("one", "the same") is not kept."""

EVERY: frozenset[str] = spelled(lzh.words("EVERY"))
"""每 X 則 Y: each time X, Y (鄉射 每一人獻則薦諸其席), a repeated act, not a condition."""

ZHU: frozenset[str] = spelled(lzh.words("ZHU"))
"""諸 before a place is 之於 (薦諸其席: serves it at his mat)."""

LORDS: frozenset[str] = spelled(lzh.words("LORDS"))
"""諸侯 is "the lords" (士冠記 繼世以立諸侯), not 之於 + the target 侯."""

BACK: frozenset[str] = spelled(lzh.words("BACK"))
"""復 before a place: going back there (復阼階); before an act: again (復釋獲)."""

AHEAD: frozenset[str] = spelled(lzh.words("AHEAD"))
"""先 "first" (樂正先升); after a person, with no act of his after it, "goes ahead" (祝先主人從)."""

PALMS: frozenset[str] = spelled(lzh.words("PALMS"))
"""郤手 / 覆手: with the palm up / down (有司徹 尸郤手受匕枋, 覆手以授賔; 註 郤仰也), a word of the act after it."""
"""Person + 右/左 + 手 is the subject acting with that hand, not a position: 賔右手執項 (士冠)."""

IN_TURN: frozenset[str] = spelled(lzh.words("IN_TURN"))
"""旅 right before another act is "in turn, all of them" (旅占: 註 旅衆也), not the pledge 旅酬."""

DEMONSTRATIVE_PLACE: frozenset[str] = spelled(lzh.words("DEMONSTRATIVE_PLACE"))
"""其 + direction is a position by the thing or person just named: 兄弟在其南 (士冠), 其西."""

FRONT_BACK: frozenset[str] = spelled(lzh.words("FRONT_BACK"))
"""前/後 right before a place after 自/于 is its front or back part, one place with it (士喪 升自前東榮, 降自後西榮)."""

WAY_ROUND: frozenset[str] = spelled(lzh.words("WAY_ROUND"))
"""自前 / 自後 with no place after them: the way one goes round (by the front, from behind), a path, not the place
of the act (聘禮 士受馬者自前還, 牽馬者自前西乃出; not 燕禮 宰自右少退, a side where he stands)."""

FINALS: frozenset[str] = spelled(lzh.words("FINALS"))
"""Sentence-final particles (若膳觯也则…)."""

DIRECTIONS: frozenset[str] = spelled(lzh.words("DIRECTIONS"))
"""Direction words that follow a place and make a position of it: 西阶上, 洗南, 筵前, 荐右, 序内."""

SIDE_OF_PERSON: frozenset[str] = spelled(lzh.words("SIDE_OF_PERSON"))
"""A person followed by 右/左 is a position: 賔右 (on the guest's right), 賔左."""

MOTION_VERBS: frozenset[str] = act_class("acts-motion")

CAUSATIVE_MOTION: frozenset[str] = act_class("acts-causative-motion")

VERBAL_OBJECT_HEADS: frozenset[str] = act_class("acts-taking-an-act")

ANY_ACT_OBJECT_HEADS: frozenset[str] = act_class("acts-taking-any-act")

NOMINAL_ACT_OBJECTS: dict[str, frozenset[str]] = {
    "action-shou": frozenset({"action-lvchou", "action-chou", "action-ming"}),
    "action-ting": frozenset({"action-ming"}),
}
"""受 takes a toast or a command as a thing received: 受旅, 受酬, 受命 (one act 受, object 旅/酬/命); 聽
hears the command: 聽命 (聘禮 栗階升聽命, one act 聽)."""

NOMINALISER: frozenset[str] = spelled(lzh.words("NOMINALISER"))
"""act + 者 is the person who does it, not an act: 士既献者 (the officers already toasted), 立于洗南者."""

CHOICE: frozenset[str] = spelled(lzh.words("CHOICE"))
"""唯 X 所 V: "whomever X chooses to V" (唯公所酬, 唯公所赐): V is an act, its recipient open."""

RELATIVE_PERSONS: frozenset[str] = spelled(lzh.words("RELATIVE_PERSONS"))
"""Words for persons of the group last named: 长 (the eldest of them), 其他 (the others):
士坐祭立饮不拜既爵其他不拜 (其他 = the other officers)."""

COMPLETIVE: frozenset[str] = spelled(lzh.words("COMPLETIVE"))
"""卒 + act = the act is completed (卒洗, 卒盥, 卒歌): the same act, by whoever began it."""

IDIOMS: dict[str, str] = spelled_keys(dict(lzh.table("IDIOMS")))
"""Fixed expressions read as one word that is neither a term nor an act."""


NUMERALS: frozenset[str] = lzh.words("NUMERALS")
"""The numerals that count persons (一人, 二人, 下大夫二人, 工四人), one character each."""


def is_number(ch: str) -> bool:
    """True for the numerals that count persons (一人, 二人, 下大夫二人, 工四人)."""
    return ch in NUMERALS


VERBAL_OBJECTS: frozenset[str] = act_class("acts-declined")

PERSON_WORD: frozenset[str] = spelled(lzh.words("PERSON_WORD"))
"""Numeral + 人 refers to persons of the group last named: 一人拜受爵 (the leader of the 工)."""

NOT_SUBJECT_BEFORE: dict[str, str] = spelled_keys(dict(lzh.table("NOT_SUBJECT_BEFORE")))
"""Words after which a person is not the subject of the clause."""

PERSONAL_PLACES: frozenset[str] = spelled(lzh.words("PERSONAL_PLACES"))
"""Place nouns that a person before them owns: 賔席之前 (before the guest's mat)."""

SENDING_OFF: frozenset[str] = spelled(lzh.words("SENDING_OFF"))
"""A bow followed by 送 is the bow of sending off the cup: 再拜稽首送觯 = 拜送."""

SPLIT_WHEN_NEGATED: dict[str, tuple[str, str]] = {"action-baishou": ("action-bai", "action-shou")}
"""不拜受爵 is "receive the cup without bowing": the negation takes the bow only (众工不拜受爵)."""

NOUN_AFTER: dict[str, frozenset[str]] = {
    "action-ji": frozenset({"action-jian"}),  # 祭荐: offer from the served dishes (荐 the dishes)
    # the portion for the offering (祭), the cup set down (奠), the lifted portion (舉), the blessing (嘏),
    # as things: 特牲 受祭, 宗人賛祭, 右撫祭, 佐食授挼祭, 執奠, 尸實舉于菹豆, 食舉, 聴嘏
    # (士喪 外御受沐入, 註 沐管人所煑潘也: the water for washing the hair, received)
    "action-shou": frozenset({"action-ji", "action-ruoji", "action-mu-hair"}),
    "action-shou-hand": frozenset({"action-ji", "action-ruoji"}),
    "action-zan-assist": frozenset({"action-ji"}),
    "action-fu-touch": frozenset({"action-ji"}),
    "action-zhi": frozenset({"action-dian", "action-jian"}),  # 執奠; 有司徹 宰夫執薦以從 (the dishes)
    "action-qu": frozenset({"action-dian"}),  # 士虞 尸取奠: takes the cup set down
    "action-ju": frozenset({"action-dian"}),  # 特牲 嗣舉奠: the heir lifts (drinks) the cup set down
    "action-shi-fill": frozenset({"action-ju"}),
    "action-shi-eat": frozenset({"action-ju"}),
    "action-ting": frozenset({"action-gu-bless"}),
    "action-ci": frozenset({"action-shi-eat"}),  # 士相見 若君賜之食: food given (註 賜之食 … 不祭), not a cup
}
"""An act word read as a noun after certain verbs, the thing the verb takes."""

RECEIVING: frozenset[str] = act_class("acts-receiving")
CHANGING_THE_CUP: frozenset[str] = act_class("acts-changing-the-cup")
SERVING_DISHES: frozenset[str] = act_class("acts-serving-dishes")
GETTING_A_FULL_CUP: frozenset[str] = act_class("acts-getting-a-full-cup")
SETTING_DOWN: frozenset[str] = act_class("acts-setting-down")
