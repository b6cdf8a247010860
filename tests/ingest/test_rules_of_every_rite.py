"""Rules of the language that hold in every rite, pinned by sentences written in the classic's style
(traditional characters, as the Kanripo editions write them), read as a rite other than the banquet."""

from __future__ import annotations

from yili.ingest.document import parse_text


def read(extractor, text: str, rite: str):
    return extractor.extract(parse_text("題\n\n" + text, edition="t"), rite=rite)


def fields(r, *names):
    return [tuple(s.as_record()[n] for n in names) for s in r.steps]


def toasts(r):
    """(giver, type, receiver) with the type as its zh-Hant label (獻), whatever the script of the snippet."""
    return [
        (t.giver[0].label if t.giver else None, extractor_label(t.type.key), "+".join(x.label for x in t.receiver) or None)
        for t in r.toasts
    ]


def extractor_label(key: str) -> str:
    from yili.ontology.vocabulary import load_vocabulary

    global _VOC
    if "_VOC" not in globals():
        _VOC = load_vocabulary()
    return _VOC.concepts[key].hant


def test_a_word_that_is_an_act_and_a_thing_is_the_thing_after_a_verb(extractor):
    # 酌醴: pours the sweet wine (a thing); 乃醴賔: gives the guest the 醴 (a toast, a kind of 獻)
    r = read(extractor, "贊者酌醴\n\n乃醴賔以壹獻之禮", "shiguanli")
    assert fields(r, "text", "action", "object") == [("贊者酌醴", "酌", None), ("乃醴賔以壹獻之禮", "醴", "壹")]
    assert toasts(r) == [("主人", "獻", "賔")]  # the host toasts the chief guest; 壹獻之禮 is a noun phrase


def test_a_cup_presented_to_a_person_is_a_xian_whatever_the_verb(extractor):
    r = read(extractor, "主人洗角升酌酳尸尸拜受主人拜送", "teshengkuishili")
    assert toasts(r) == [("主人", "獻", "尸")]  # 注 酳猶衍也 是獻尸也
    assert r.toasts[0].step.action.label == "酳" and r.toasts[0].step.vessel.label == "角"


def test_zhi_jue_with_a_written_cup_is_a_toast_and_the_giver_pours_his_own_zuo(extractor):
    r = read(extractor, "主人降洗酌致爵于主婦主婦拜受爵主人西面答拜主人更爵酌醋卒爵", "teshengkuishili")
    assert toasts(r) == [("主人", "獻", "主婦"), ("主婦", "酢", "主人")]
    zuo = r.toasts[1]
    assert [p.label for p in zuo.performed_by] == ["主人"] and zuo.step.recipient[0].label == "主人"


def test_a_zuo_returns_the_xian_its_agent_received(extractor):
    r = read(extractor, "主人洗角升酌酳尸尸拜受主人拜送尸卒角祝酌授尸尸以醋主人", "teshengkuishili")
    assert toasts(r) == [("主人", "獻", "尸"), ("尸", "酢", "主人")]
    assert fields(r, "text", "agent")[7:9] == [("祝酌", "祝"), ("授尸", "祝")]  # 祝 the invocator, of the cast


def test_a_filled_cup_received_with_a_bow_is_an_implicit_xian(extractor):
    r = read(extractor, "贊者洗于房中側酌醴賔受醴於户東冠者筵西拜受觶賔東面答拜", "shiguanli")
    assert toasts(r) == [("賔", "獻", "冠者")]
    assert r.toasts[0].step.text == "冠者筵西拜受觶" and r.toasts[0].note.startswith("implicit")


def test_mutual_salutes_and_deferrals_are_both_parties(extractor):
    r = read(extractor, "主人揖賔先入毎曲揖至於階三讓主人升", "shiguanli")
    rows = fields(r, "text", "agent", "recipient")
    assert ("毎曲揖", "主人+賔", None) in rows and ("至於階三讓", "主人+賔", None) in rows  # on reaching the steps
    assert fields(r, "text", "location")[3] == ("至於階三讓", "階")


def test_the_person_after_ze_acts_not_the_one_in_the_condition(extractor):
    r = read(extractor, "若孤子則父兄戒宿", "shiguanli")
    assert fields(r, "text", "agent", "mode") == [("若孤子則父兄戒", "父兄", "conditional"), ("宿", "父兄", "conditional")]


def test_ru_chu_closes_its_clause_and_a_thing_carried_is_the_subject_of_cong(extractor):
    r = read(extractor, "賓三獻如初燔從如初爵止", "teshengkuishili")
    assert [s.text for s in r.steps] == ["賓三獻如初", "燔從如初", "爵止"]


def test_zu_after_an_act_closes_it_and_lv_before_an_act_is_in_turn(extractor):
    r = read(extractor, "筮人還東面旅占卒進告吉", "shiguanli")
    assert fields(r, "text", "action") == [("筮人還", "還"), ("東面旅占卒", "占"), ("進", "進"), ("告吉", "告")]
    assert not r.toasts  # 旅占 is no pledge


def test_place_phrases_chain_into_one_location(extractor):
    r = read(extractor, "有司布席於門中闑西閾外西面", "shiguanli")
    assert fields(r, "action", "object", "location", "facing") == [("布", "席", "門中闑西閾外", "西面")]


def test_a_junior_saluted_by_a_senior_moves(extractor):
    r = read(extractor, "賔揖冠者冠者即筵坐\n\n冠者興賔揖之適房", "shiguanli")
    assert fields(r, "text", "agent")[-1] == ("適房", "冠者")


def test_after_the_rite_closes_a_paragraph_opening_with_ruo_begins_a_variant(extractor):
    """士冠禮 80–99: once the guest has gone and been seen off, 若不醴則醮用酒 begins a variant, and the
    paragraphs after it are of it (冠者拜受, 主人紒而迎賔, with who acts written) until the words of
    the rite (戒賔曰)."""
    r = read(
        extractor,
        "賔出主人送于門外再拜\n\n若不醴則醮用酒\n\n冠者拜受賔答拜\n\n若孤子則父兄戒宿\n\n主人紒而迎賔\n\n戒賔曰某有子某",
        "shiguanli",
    )
    assert fields(r, "text", "mode") == [
        ("賔出", "actual"),
        ("主人送于門外", "actual"),
        ("再拜", "actual"),
        ("若不醴", "conditional"),
        ("則醮用酒", "conditional"),
        ("冠者拜受", "conditional"),
        ("賔答拜", "conditional"),
        ("若孤子則父兄戒", "conditional"),
        ("宿", "conditional"),
        ("主人紒而迎賔", "conditional"),
        ("戒賔曰某有子某", "actual"),
    ]


def test_before_the_rite_closes_a_ruo_keeps_to_its_own_steps(extractor):
    """A 若 in the middle of the rite is a condition on its own consequent: the next paragraph that
    names who acts is the rite again (燕禮 若有诸公 …; 特牲 若不吉)."""
    r = read(extractor, "若不吉則筮遠日\n\n主人再拜\n\n賔答拜", "shiguanli")
    assert [m for (m,) in fields(r, "mode")] == ["conditional", "actual", "actual"]


def test_a_thing_passes_hand_to_hand_and_a_dish_follows_the_cup(extractor):
    """特牲: what one person takes up (舉幹) the next receives (尸受) and handles (振, 祭, 嚌之) until it is
    put down; 以肝從 / 以燔從 is following the cup with the liver or the roast, which the 尸 receives."""

    def objects(text):
        return fields(read(extractor, text, "teshengkuishili"), "text", "object")

    assert objects("佐食舉幹尸受振祭嚌之佐食受加于肵俎") == [
        ("佐食舉幹", "幹"),
        ("尸受", "幹"),
        ("振", "幹"),
        ("祭", "幹"),
        ("嚌之", "幹"),
        ("佐食受", "幹"),
        ("加于肵俎", "幹"),
    ]
    assert objects("賓長以肝從尸左執角右取肝㨎于鹽振祭") == [
        ("賓長以肝從", "肝"),
        ("尸左執角", "角"),
        ("右取肝", "肝"),
        ("㨎于鹽", "肝"),
        ("振", "肝"),
        ("祭", "肝"),
    ]
    assert objects("兄弟長以燔從尸受振") == [("兄弟長以燔從", "燔"), ("尸受", "燔"), ("振", "燔")]


def test_a_speaker_with_no_verb_says_his_words(extractor):
    """士冠禮 辭: 主人曰… inside the 賔's reply is the host's own act of speaking (曰), to the 賔, and the
    replies after it go back to him; words that open with an act are that act (公曰命某為賔: 命)."""
    r = read(extractor, "主人戒賔\n\n賔對曰某不敏敢辭主人曰某猶願吾子之終教之賔對曰某敢不從", "shiguanli")
    assert fields(r, "text", "agent", "recipient") == [
        ("主人戒賔", "主人", "賔"),
        ("賔對曰某不敏敢辭", "賔", "主人"),
        ("主人曰某猶願吾子之終教之", "主人", "賔"),
        ("賔對曰某敢不從", "賔", "主人"),
    ]
    assert [s.action.key for s in r.steps] == ["action-jie", "action-dui", "action-yue", "action-dui"]
    said = read(extractor, "公曰命某為賔", "yanli")
    assert [(s.text, s.action.key) for s in said.steps] == [("公曰命某為賔", "action-ming")]


def test_the_words_of_the_rite_are_said_by_who_does_the_act_and_run_on_to_the_next_words(extractor):
    """士冠禮 辭: after the narrative has closed, a paragraph of words (宿曰…, 再加曰…, 醴辭曰…) is said
    by whoever does that act in the narrative, to whom it went; words said at an act that is no
    speech are 曰 (戒 and 宿 are acts of speaking); persons and acts inside the words are no steps
    (介爾景福), and a paragraph that goes on addressing someone (敬爾威儀) goes on with the words."""
    text = (
        "主人戒賔\n\n乃宿賔\n\n冠者即筵坐賔乃祝乃冠\n\n賔加之\n\n賔字之\n\n賔出主人送于外門外再拜\n\n"
        "宿曰某將加布于某之首賔對曰某敢不夙興\n\n始加祝曰令月吉日介爾景福\n\n再加曰吉月令辰乃申爾服\n\n"
        "敬爾威儀淑慎爾徳\n\n字辭曰禮儀旣備\n\n記冠義"
    )
    r = read(extractor, text, "shiguanli")
    words = [
        (s.text, s.agent[0].label, extractor_label(s.action.key), "+".join(p.label for p in s.recipient) or None)
        for s in r.steps[11:16]
    ]
    assert words == [
        ("宿曰某將加布于某之首", "主人", "宿", "賔"),
        ("賔對曰某敢不夙興", "賔", "對", "主人"),
        ("始加祝曰令月吉日介爾景福", "賔", "祝", "冠者"),
        ("再加曰吉月令辰乃申爾服", "賔", "曰", "冠者"),
        ("字辭曰禮儀旣備", "賔", "曰", "冠者"),
    ]
    assert all(s.mode == "actual" for s in r.steps[11:16]) and r.steps[16].text == "記冠義"
    # the same paragraph in the narrative, before the rite has closed, is read as it stands
    early = read(extractor, "敬爾威儀淑慎爾徳", "shiguanli")
    assert [s.text for s in early.steps] == ["敬爾威儀淑慎", "爾徳"]
    # a person who acts ends words that opened a paragraph (既夕 記 卜曰吉 … 主婦哭)
    told = read(extractor, "主人出送于門外\n\n卜曰吉吿從于主婦主婦哭", "jixili")
    assert [s.text for s in told.steps][-2:] == ["卜曰吉吿從于主婦", "主婦哭"]


def test_a_thing_at_a_place_in_a_setting_out_is_set_there(extractor):
    """士冠 設洗直于東榮 水在洗東: the water "is at" the east of the basin because it is set there (設,
    by whoever sets out); a person who 在 somewhere only stands there."""
    r = read(extractor, "設洗直于東榮水在洗東\n\n主人在阼階下", "shiguanli")
    assert [(s.text, s.action.key, s.location) for s in r.steps] == [
        ("設洗直于東榮", "action-she", "東榮"),
        ("水在洗東", "action-she", "洗東"),
        ("主人在阼階下", "action-zai-at", "阼階下"),
    ]
    assert r.steps[1].agent == r.steps[0].agent


def test_the_two_who_eat_the_leftovers_are_toasted_each_in_turn(extractor):
    """特牲 主人…酳上𧃊 … 酳下𧃊亦如之: 𧃊 is 餕 (註 古文𧃊皆作餕), a character outside the Basic
    Multilingual Plane that the word cutter must still read as part of 上𧃊; the rite reads 上餕 as
    the heir and 下餕 as the eldest kinsman (rites.ttl), and 亦如之 ("likewise") takes no object, so
    the second toast goes to the 下餕 written before it."""
    r = read(extractor, "主人升酌酳上𧃊上𧃊拜受爵主人答拜酳下𧃊亦如之", "teshengkuishili")
    assert [(t.giver[0].key, t.type.key, t.receiver[0].key) for t in r.toasts] == [
        ("role-zhuren", "action-xian", "role-sizi"),
        ("role-zhuren", "action-xian", "role-zhangxiongdi"),
    ]
    assert [s.text for s in r.steps][2:4] == ["酳上𧃊", "上𧃊拜受爵"]


def test_the_name_that_opens_the_chapter_is_its_heading(extractor):
    """有司徹 on its own line opens the chapter: a heading, not 有司 + 徹 (the officers clear away);
    the 鄭注 runs 士冠禮 on into the first sentence, 士冠禮筮于廟門: the 筮 is the host's."""
    r = read(extractor, "有司徹\n\n司宫攝酒", "yousiche")
    assert [(s.text, s.agent_label, s.action.key) for s in r.steps] == [("司宫攝酒", "司宫", "action-she-adjust")]
    r = read(extractor, "士冠禮筮于廟門", "shiguanli")
    assert fields(r, "text", "agent", "action") == [("士冠禮筮于廟門", "主人", "筮")]


def test_a_dish_follows_the_cup_to_the_one_who_drinks_brought_by_who_brought_it_before(extractor):
    """特牲: 賓長以肝從 takes the liver to the 尸 just toasted; a later bare 肝從 is the same 賓長's, to the
    one toasted then (the 祝), and the acts after it are still the drinker's (卒角)."""
    r = read(extractor, "主人洗角升酌酳尸尸拜受主人拜送賓長以肝從\n\n主人酌獻祝祝拜受角肝從卒角", "teshengkuishili")
    rows = {s.text: (s.agent_label, s.recipient_label, s.object) for s in r.steps}
    assert rows["賓長以肝從"] == ("賓長", "尸", "肝")
    assert rows["肝從"] == ("賓長", "祝", "肝")
    assert rows["卒角"][0] == "祝"


def test_only_the_last_send_off_closes_the_rite_and_the_next_day_ends_a_variant(extractor):
    """A send-off that closes one stage (士昏 納采 … 賔出主人送) is not the rite's close: a 若 after it
    keeps to its own paragraph; after the last one, 若孤子 begins a variant (冠者見于母 is of it) until
    the next day (明日…), when the rite goes on."""
    r = read(
        extractor,
        "賔出主人送于門外再拜\n\n若不醴則醮用酒\n\n主人升\n\n賔出主人送于外門外再拜\n\n若孤子則父兄戒\n\n冠者見于母\n\n明日主人朝服見賔",
        "shiguanli",
    )
    modes = {s.text: s.mode for s in r.steps}
    assert (modes["則醮用酒"], modes["主人升"]) == ("conditional", "actual")
    assert (modes["若孤子則父兄戒"], modes["冠者見于母"], modes["明日主人朝服見賔"]) == ("conditional", "conditional", "actual")


def test_a_zuo_after_a_later_xian_is_the_return_of_the_one_toasted_last(extractor):
    """特牲 107–108: the 尸 drinks the 主婦's 亞獻, the 祝 takes the cup, and 酢如主人儀 is the 尸's
    return toast to the 主婦 (注 自祝酌至尸拜送如酢主人也), not the 祝's (who was toasted earlier)."""
    text = "主人洗角升酌酳尸尸拜受主人拜送\n\n主人酌獻祝\n\n主婦洗爵于房酌亞獻尸尸拜受主婦北面拜送\n\n尸卒爵祝受爵\n\n酢如主人儀"
    assert toasts(read(extractor, text, "teshengkuishili"))[-1] == ("尸", "酢", "主婦")


def test_the_giver_who_takes_the_cup_back_and_pours_pours_his_own_zuo(extractor):
    """特牲 119: 主婦答拜受爵酌醋 — the 主婦, who presented the cup, takes it back and pours the 主人's
    return toast for herself (疏 主人酢主婦); the acts after it are hers until the 主人 is named."""
    text = "主婦洗爵酌致爵于主人主人拜受爵主婦拜送爵\n\n主人坐祭卒爵拜\n\n主婦答拜受爵酌醋左執爵拜"
    r = read(extractor, text, "teshengkuishili")
    assert toasts(r) == [("主婦", "獻", "主人"), ("主人", "酢", "主婦")]
    assert [p.label for p in r.toasts[1].performed_by] == ["主婦"]
    assert fields(r, "text", "agent")[-3:] == [("醋", "主婦"), ("左執爵", "主婦"), ("拜", "主婦")]


def test_an_act_as_at_first_goes_where_it_went_and_bu_ji_is_not_reaching(extractor):
    """特牲 138: 長兄弟洗觚為加爵如初儀 不及佐食 洗致如初 — 如初儀 closes its clause, 不及佐食 "does not
    reach the 佐食" names no subject, and 致如初 presents the cup to whom the 致 went at first (注 致致于
    主人主婦); 及祝如初儀 after a 酢 extends the presentation (獻), not the 酢."""
    text = "主人洗角升酌酳尸\n\n賓洗爵酌致于主人主婦\n\n長兄弟洗觚為加爵如初儀不及佐食洗致如初無從"
    r = read(extractor, text, "teshengkuishili")
    assert fields(r, "text", "agent")[-5:] == [
        ("長兄弟洗觚", "長兄弟"),
        ("為加爵如初儀", "長兄弟"),
        ("不及佐食洗", "長兄弟"),
        ("致如初", "長兄弟"),
        ("無從", "長兄弟"),
    ]
    assert toasts(r)[-2:] == [("長兄弟", "獻", "尸"), ("長兄弟", "獻", "主人+主婦")]
    r = read(extractor, "佐食洗散獻于尸酢及祝如初儀", "teshengkuishili")
    assert toasts(r) == [("佐食", "獻", "尸"), ("尸", "酢", "佐食"), ("佐食", "獻", "祝")]


def test_a_xian_with_its_receiver_left_out_before_ji_goes_to_who_came_before_in_the_last_round(extractor):
    """特牲 121: 尸卒爵酢 酌獻及佐食 — the 賓 presents to the one presented before the 佐食 in the round
    before (主婦 獻祝 … 及佐食如初: the 祝), and then to the 佐食."""
    text = "主婦洗爵酌獻祝及佐食如初\n\n賓三獻尸\n\n尸卒爵酢酌獻及佐食"
    assert toasts(read(extractor, text, "teshengkuishili"))[-2:] == [("賓", "獻", "祝"), ("賓", "獻", "佐食")]


def test_things_set_out_serve_nobody_and_a_basin_that_has_a_basket_is_a_thing(extractor):
    """士冠 81–83 (若不醴): the officers set out the jars and the ladle for nobody, though the capped son
    was just toasted; 洗有篚在西南 is the basin that has its basket to the south-west (a setting out,
    not a washing); 卒洗 later completes the 賔's own washing, not one told paragraphs before."""
    text = "贊者洗于房中\n\n賔醮冠者\n\n尊于房户之間兩甒有禁𤣥酒在西加勺南枋\n\n洗有篚在西南\n\n賔降取爵于篚卒洗升酌"
    r = read(extractor, text, "shiguanli")
    assert fields(r, "text", "agent", "action", "recipient")[2:] == [
        ("尊于房户之間兩甒有禁𤣥酒在西", "有司", "設", None),
        ("加勺南枋", "有司", "加", None),
        ("洗有篚在西南", "有司", "設", None),
        ("賔降", "賔", "降", None),
        ("取爵于篚", "賔", "取", None),
        ("卒洗", "賔", "洗", None),
        ("升", "賔", "升", None),
        ("酌", "賔", "酌", None),
    ]


def test_one_receives_from_who_holds_it_out_or_gives_the_cup_and_a_command_goes_to_its_doer(extractor):
    """特牲: 宗婦執兩籩…主婦受 (from the 宗婦 who holds them); 祝命爾敦 佐食爾黍稷 (the command goes to the
    佐食, who does it next); 祝酌授尸 尸以醋主人 主人拜受角 (from the 尸 who returns the toast, not the
    祝 who poured it)."""
    r = read(extractor, "宗婦執兩籩户外坐主婦受\n\n祝命爾敦佐食爾黍稷于席上\n\n祝酌授尸尸以醋主人主人拜受角", "teshengkuishili")
    got = {s.text: (s.agent[0].label, "+".join(p.label for p in s.recipient) or None) for s in r.steps}
    assert got["主婦受"] == ("主婦", "宗婦")
    assert got["祝命爾敦"] == ("祝", "佐食")
    assert got["主人拜受角"] == ("主人", "尸")


def test_where_another_stands_does_not_take_over_and_things_listed_with_yu_are_things(extractor):
    """士冠 6–11: 筮與席所卦者具饌於西塾 lists things (the stalks, the mat, what the diagram is drawn with)
    set out by the officers; 卦者在左 says where the 卦者 stands, and the 筮人 goes on: he completes the
    divining, writes the diagram and shows it to the host."""
    text = (
        "筮與席所卦者具饌於西塾\n\n筮人執筴進受命於主人\n\n宰自右少退賛命\n\n筮人許諾右還即席坐西面卦者在左\n\n卒筮書卦執以示主人"
    )
    r = read(extractor, text, "shiguanli")
    first = r.steps[0]
    assert (first.agent[0].label, first.action.key, first.object) == ("有司", "action-zhuan", "筮+卦者")
    assert fields(r, "text", "agent", "recipient")[-4:] == [
        ("卒筮", "筮人", None),
        ("書卦", "筮人", None),
        ("執", "筮人", None),
        ("以示主人", "筮人", "主人"),
    ]


def test_time_words_places_and_a_new_morning(extractor):
    """士冠 17–26: 前期三日筮賔 — after "three days before" 筮 with a person after it is the divining, not
    a noun; 兄弟在其南少退 and 宰自右少退賛命 — 少退 after a place is where one stands, not a step; after
    夙興 (the next morning) the setting out is the officers' (有司), though the 擯者 acted before it."""
    text = "主人退賔拜送前期三日筮賔如求日之儀\n\n兄弟在其南少退西面北上\n\n擯者告期於賔之家夙興設洗直於東榮"
    r = read(extractor, text, "shiguanli")
    assert fields(r, "text", "agent", "action")[1:] == [
        ("賔拜送", "賔", "拜送"),
        ("前期三日筮賔如求日之儀", "主人", "筮"),
        ("兄弟在其南少退西面北上", "兄弟", "在"),
        ("擯者告期於賔之家", "擯者", "告"),
        ("夙興", "擯者", "興"),
        ("設洗直於東榮", "有司", "設"),
    ]


def test_who_served_the_roast_receives_and_the_one_with_the_cup_drinks_after_a_reply(extractor):
    """特牲 107–119: 羞燔者受 — "the one who served the roast" (the eldest brother, who brought it) takes
    it back; 主婦…左執爵拜 主人答拜 坐祭立飲 — after the host's answering bow, the one holding the cup
    kneels, offers and drinks; 主人更爵酌醋 卒爵 — the host drains the cup he poured himself."""
    text = (
        "主婦洗爵酌致爵于主人主人拜受爵主婦拜送爵\n\n兄弟長以燔從主人受振祭嚌之反之羞燔者受加于俎出\n\n主人卒爵拜\n\n"
        "主婦答拜受爵酌醋左執爵拜主人答拜坐祭立飲卒爵拜主人答拜\n\n主人降洗酌致爵于主婦主婦拜受爵主人答拜\n\n主人更爵酌醋卒爵降"
    )
    r = read(extractor, text, "teshengkuishili")
    got = fields(r, "text", "agent", "recipient")
    assert got[6] == ("主人受", "主人", "兄弟長")
    assert got[11:14] == [("羞燔者受", "兄弟長", "主人"), ("加于俎", "兄弟長", None), ("出", "兄弟長", None)]
    assert [a for _, a, _ in got[23:28]] == ["主婦"] * 5  # 坐 祭 立 飲 卒爵
    assert got[-2:] == [("卒爵", "主人", None), ("降", "主人", None)]


def test_the_note_on_a_paragraph_says_who_does_an_act(extractor):
    """士冠 60: 徹皮弁冠櫛筵入於房, 註曰徹者賛冠者主人之賛者為之 — the clearing is done by the capping
    assistant and the host's assistant, who go on into the chamber; a note that names no act changes
    nothing."""
    from yili.ingest.document import parse_text

    text = "題\n\n主人之贊者筵于東序\n\n賔揖之\n\n徹皮弁冠櫛筵入於房\n\n註曰徹者賛冠者主人之賛者為之"
    r = extractor.extract(parse_text(text, edition="t"), rite="shiguanli")
    assert fields(r, "text", "agent")[-2:] == [("徹皮弁冠櫛筵", "贊者+主人之贊者"), ("入於房", "贊者+主人之贊者")]
    plain = extractor.extract(parse_text(text.replace("徹者賛冠者主人之賛者為之", "徹去也"), edition="t"), rite="shiguanli")
    assert fields(plain, "agent")[-2][0] != "贊者+主人之贊者"


def test_the_rest_of_a_rank_receive_the_presentation_their_leader_received(extractor):
    """特牲 124–128: 主人…獻賓 … 衆賓升拜受爵 — the other guests receive with a bow the 主人's
    presentation, its giver unwritten (註 衆賓立飲賤不備禮); they receive it from the 主人."""
    text = "主人洗爵酌西階上獻賓賓北面拜受爵主人答拜\n\n賓坐祭卒爵拜主人答拜\n\n衆賓升拜受爵坐祭立飲"
    r = read(extractor, text, "teshengkuishili")
    assert toasts(r) == [("主人", "獻", "賓"), ("主人", "獻", "衆賓")]
    assert ("拜受爵", "主人") in fields(r, "text", "recipient")[-6:]


def test_a_person_before_a_bow_bows_after_an_act_done_for_another(extractor):
    """特牲 81: 尸三飯告飽 祝侑 主人拜 — the 祝 urges the 尸 to eat (侑 goes to the one eating), and the
    host bows; after a salute the person is the one saluted (主人揖賔 | 拜: the host bows to him)."""
    r = read(extractor, "尸三飯告飽祝侑主人拜", "teshengkuishili")
    assert fields(r, "text", "agent", "recipient")[-2] == ("祝侑", "祝", "尸")
    assert fields(r, "text", "agent")[-1] == ("主人拜", "主人")
    r = read(extractor, "主人揖賔拜", "shiguanli")
    assert fields(r, "text", "agent", "recipient") == [("主人揖賔", "主人", "賔"), ("拜", "主人", "賔")]


def test_yu_before_the_same_act_again_names_whom_it_goes_to(extractor):
    """士冠 43: 主人揖贊者 與賔揖 — the host salutes the assistant, and salutes with the guest: 與 a person
    before the act again is whom that act goes to, not a second actor; 士冠 見姑姊, 鄉大夫鄉先生: persons
    of the capping's cast."""
    r = read(extractor, "主人揖贊者與賔揖\n\n冠者入見姑姊如見母\n\n遂以摰見於鄉大夫鄉先生", "shiguanli")
    assert fields(r, "text", "agent", "recipient") == [
        ("主人揖贊者", "主人", "贊者"),
        ("與賔揖", "主人", "賔"),
        ("冠者入", "冠者", None),
        ("見姑姊如見母", "冠者", "姑+姊"),
        ("遂以摰見於鄉大夫鄉先生", "冠者", "鄉大夫+鄉先生"),
    ]


def test_a_side_of_a_place_goes_with_the_place(extractor):
    """士冠 96: 凡拜北面于阼階上賔亦北面于西階上答拜 — 阼階上 | 賔 (the top of the east steps; the guest),
    not 阼階 | 上賔; 特牲 設大羹湆于醢北 — where is the north of the sauce, its side with it."""
    r = read(extractor, "主人拜北面于阼階上賔亦北面于西階上答拜", "shiguanli")
    assert fields(r, "text", "agent", "location") == [
        ("主人拜北面于阼階上", "主人", "阼階上"),
        ("賔亦北面于西階上答拜", "賔", "西階上"),
    ]
    r = read(extractor, "佐食設大羹湆于醢北", "teshengkuishili")
    assert fields(r, "location") == [("醢北",)]


def test_a_bare_note_in_parentheses_says_who_a_word_names(extractor):
    """特牲 157 in the 鄭注 (四部叢刊): 利洗散獻于尸(利佐食也…) — the note in parentheses has no 註曰 and still
    says that 利 is the 佐食."""
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    r = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0026", "KR1d0026_015.txt")))
    li = next(t for t in r.toasts if t.step.text == "獻于尸")
    assert (li.giver[0].label, li.type.label, li.receiver[0].label) == ("佐食", "獻", "尸")
    assert "利" in r.steps[li.step.sequence - 2].text  # 利洗散 | 獻于尸: the 利 who washed the cup


def test_the_order_words_of_the_ji_presented_next_after_ranked_among_and_a_group_round(extractor):
    """特牲記: 公有司門西北面東上獻次衆賓 — the 公有司 are presented next after the guests (by the host who
    presented to them); 宗人獻與旅齒于衆賓 — the 宗人 is presented, and takes his turn in the pledge round
    among the guests (they pass it to him); 主婦及内賓宗婦亦旅 — a group passes the pledge among itself."""
    from yili.ingest.document import parse_text

    narrative = "主人洗爵獻衆賓\n\n"
    text = (
        "題\n\n"
        + narrative
        + "記特牲饋食\n\n宗人獻與旅齒于衆賓\n\n主婦及内賓宗婦亦旅西面\n\n公有司門西北面東上獻次衆賓私臣門東北面西上獻次兄弟"
    )
    r = extractor.extract(parse_text(text, edition="t"), rite="teshengkuishili")
    assert toasts(r)[1:] == [
        ("主人", "獻", "宗人"),
        ("衆賓", "旅酬", "宗人"),
        ("主婦", "旅酬", "内賓+宗婦"),
        ("主人", "獻", "公有司"),
        ("主人", "獻", "私臣"),
    ]


def test_where_a_thing_is_at_from_a_side_and_at_someones_house(extractor):
    """士冠 9, 26, 34, 48: 宰自右少退賛命 (from the right); 擯者告期於賔之家 (to the guest, at his house);
    側尊一甒醴在服北 (where: north of the garments); 主人之贊者筵于東序少北 (a little north of the wall)."""
    r = read(extractor, "宰自右少退賛命\n\n擯者告期於賔之家\n\n側尊一甒醴在服北\n\n主人之贊者筵于東序少北西面", "shiguanli")
    assert fields(r, "text", "location") == [
        ("宰自右少退賛命", "右"),
        ("擯者告期於賔之家", "賔之家"),
        ("側尊一甒醴在服北", "服北"),
        ("主人之贊者筵于東序少北西面", "東序少北"),
    ]
    assert fields(r, "recipient")[1] == ("賔",)


def test_the_role_named_for_holding_the_things_and_the_one_toasted_goes_on(extractor):
    """士冠 35: 爵弁皮弁緇布冠各一匴執以待 — the caps are held by the one named for holding caps (執冠者),
    who waits; 賔降二等受皮弁 — the 賔 receives the cap from him; 三醮…嚌之…北面取脯 — after the 賔's
    醮 (a fact of the rite), the capped son tastes and takes the dried meat."""
    r = read(extractor, "爵弁皮弁緇布冠各一匴執以待於西坫南", "shiguanli")
    assert fields(r, "text", "agent") == [("爵弁皮弁緇布冠各一匴執", "執冠者"), ("以待於西坫南", "執冠者")]
    r = read(extractor, "賔降二等受皮弁", "shiguanli")
    assert [p.key for p in r.steps[-1].recipient] == ["role-zhiguanzhe"]
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    r = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_001.txt")))
    got = [(s.text, s.agent_label) for s in r.steps]
    at = got.index(("嚌之其他如初", "冠者"))
    assert got[at + 1 : at + 3] == [("北面取脯", "冠者"), ("見于母", "冠者")]


def test_the_officers_named_by_a_condition_of_theirs_go_on_past_ze(extractor):
    """士冠 89: 若殺則特豚載合升離肺實于鼎 — the slaughter is the officers' (a fact of the rite), and with
    no one named the consequent is theirs too; 公有命則不易不洗 (a person named in the condition) still
    leaves the consequent to the one acting before it."""
    r = read(extractor, "冠者奠觶于薦東\n\n若殺則特豚載合升離肺實于鼎", "shiguanli")
    # 載 (lays on the stand) is an act of its own since the vocabulary has it: five steps, all the officers'
    assert [a for _, a in fields(r, "text", "agent")][1:] == ["有司"] * 5


def test_a_new_pouring_with_no_wine_written_leaves_the_wine_unsaid(extractor):
    """士虞: the sweet wine poured once (醴) is not the wine of every later cup: a pouring with no wine
    written (主人…酌酳尸: 酒) leaves the wine unsaid, while the cup poured goes on with its wine."""
    r = read(extractor, "主人酌醴授尸尸拜受\n\n主人洗角升酌酳尸尸拜受", "shiyuli")
    wines = [(s.text, s.wine.label if s.wine else None) for s in r.steps]
    assert wines[:2] == [("主人酌醴", "醴"), ("授尸", "醴")]
    assert [t for t, _ in wines[3:]] == ["主人洗角", "升", "酌", "酳尸", "尸拜受"]
    assert all(w is None for _, w in wines[3:])


def test_the_bow_after_draining_a_cup_goes_to_who_gave_it(extractor):
    """特牲 101 / 士虞 66: 主人酌獻祝 祝拜受角 … 卒角拜 — the 祝 bows to the 主人 who gave him the cup."""
    r = read(
        extractor,
        "主人酌獻祝祝拜受角主人拜送\n\n賓長以肝從\n\n祝左執角祭豆興取肺坐祭嚌之興加于俎卒角拜主人答拜",
        "teshengkuishili",
    )
    got = fields(r, "text", "agent", "recipient")
    at = [t for t, _, _ in got].index("卒角")
    assert got[at + 1] == ("拜", "祝", "主人")


def test_words_of_the_words_section_and_delivering_a_message(extractor):
    """士昏 (the messenger's words, in the 記): 昏辭曰… is 曰 (辭 is "the words", not a declining);
    致命曰敢納采 is the 致命 the narrative told (the 賓 to the 主人); 東面致命 is one act, delivering the
    message, and the 主人 who bows after it is a new subject."""
    text = (
        "主人以賓升西面賓升西階當阿東面致命主人阼階上北面再拜\n\n賓出主人送于門外再拜\n\n記士昏禮凡行事必用昏昕\n\n"
        "昏辭曰吾子有惠貺室某也請納采對曰某不敢辭致命曰敢納采"
    )
    r = read(extractor, text, "shihunli")
    got = [(s.text, s.agent_label, extractor_label(s.action.key), s.recipient_label) for s in r.steps]
    assert got[1:4] == [
        ("賓升西階當阿", "賓", "升", None),
        ("東面致命", "賓", "致命", "主人"),
        ("主人阼階上北面再拜", "主人", "再拜", "賓"),
    ]
    assert [(t, a) for t, _, a, _ in got[-3:]] == [
        ("昏辭曰吾子有惠貺室某也請納采", "曰"),
        ("對曰某不敢辭", "對"),
        ("致命曰敢納采", "致命"),
    ]
    assert got[-1][1] == "賓" and got[-1][3] == "主人"


def test_dian_after_taking_or_lifting_is_the_cup_set_down(extractor):
    """特牲 140 嗣舉奠盥入, 士虞 尸取奠: 奠 after 舉 or 取 is the cup set down (註 舉猶飲也), one act."""
    r = read(extractor, "嗣舉奠盥入北面再拜稽首", "teshengkuishili")
    assert [(s.text, extractor_label(s.action.key), s.object) for s in r.steps][:2] == [
        ("嗣舉奠", "舉", "奠"),
        ("盥", "盥", None),
    ]


def test_cuo_sets_a_thing_in_a_place_named_by_a_person(extractor):
    """士虞 從者錯篚于尸左席上: 錯 sets the basket (the thing) on the mat at the 尸's left (a place named
    by a person, not the 尸 as a recipient); 交錯 "alternately" is no act."""
    r = read(extractor, "從者錯篚于尸左席上", "shiyuli")
    assert fields(r, "text", "agent", "object", "location", "recipient") == [
        ("從者錯篚于尸左席上", "從者", "篚", "尸左席上", None)
    ]
    r = read(extractor, "衆賓及衆兄弟交錯以辯", "teshengkuishili")
    assert [extractor_label(s.action.key) for s in r.steps] != ["錯"]


def test_presenting_after_a_bow_a_numbered_presenter_who_bows_and_a_cup_given_back(extractor):
    """有司徹: 西面拜獻尸 — bows and presents to the 尸 (two acts; 拜賜 keeps its gift); 三獻北面答拜 — the
    third presenter bows, no new 獻; 尸卒爵 … 尸酌 主人拜受爵 — the one just presented pours the cup back:
    his 酢, though no 酢 is written."""
    r = read(extractor, "主婦洗于房中出實爵尊南西面拜獻尸尸拜于筵上受", "yousiche")
    assert toasts(r) == [("主婦", "獻", "尸")]
    r = read(extractor, "主人洗爵升酌獻尸尸拜受爵主人拜送尸卒爵拜主人答拜受爵尸酌主人拜受爵尸答拜", "yousiche")
    assert toasts(r) == [("主人", "獻", "尸"), ("尸", "酢", "主人")]
    r = read(extractor, "上賔洗爵以升酌獻尸尸拜受爵三獻北面答拜", "yousiche")
    assert toasts(r) == [("上賔", "獻", "尸")]


def test_the_sacrifices_bin_zhang_is_the_bin_a_fact_of_the_rite(extractor):
    """特牲 (a rite fact with its 疏: 賓長以肝從…明亦賓長可知; 記疏 接尸者賓為三獻): the 賓長 who follows the
    cup with the liver is the 賓, the third presenter; the 衆賓長 stays another man."""
    r = read(extractor, "賓長以肝從\n\n衆賓長為加爵如初", "teshengkuishili")
    assert [s.agent[0].key for s in r.steps] == ["role-bin", "role-zhongbinzhang"]


def test_qi_zhang_is_their_elders_and_no_clause_ends_on_qi(extractor):
    """其 opens a noun: 舉觶于其長 is "to their elders", the elder of each side (特牲 註 賓取觶酬兄弟之黨
    長兄弟取觶酬賓之黨: the 賓 and the 長兄弟); a bare 長 after it is they (長皆答拜); a bow takes no
    act as its object, so 舉觶者 after it is the subject of what follows."""
    r = read(extractor, "賓弟子及兄弟弟子洗各酌于其尊中庭北面西上舉觶于其長奠觶拜長皆答拜舉觶者祭卒觶", "teshengkuishili")
    assert [(t.giver and "+".join(x.label for x in t.giver), "+".join(x.label for x in t.receiver)) for t in r.toasts] == [
        ("賓弟子+兄弟弟子", "賓+長兄弟")
    ]
    assert extractor_label(r.toasts[0].type.key) == "媵"  # 舉觶 = 媵, the cup raised to an elder
    assert fields(r, "text", "agent")[2:6] == [
        ("舉觶于其長", "賓弟子+兄弟弟子"),
        ("奠觶", "賓弟子+兄弟弟子"),
        ("拜", "賓弟子+兄弟弟子"),
        ("長皆答拜", "賓+長兄弟"),
    ]
    assert fields(r, "text", "agent")[6] == ("舉觶者祭", "賓弟子+兄弟弟子")
    # 有司徹 writes the juniors 兄弟之後生者 (註 弟子後生也): their elder is the 長兄弟
    r = read(extractor, "兄弟之後生者舉觶于其長洗升酌降北面立于阼階南長在左", "yousiche")
    assert toasts(r) == [("兄弟之後生者", "媵", "長兄弟")]  # shown as written, the role of 兄弟弟子
    assert r.toasts[0].giver[0].key == "role-xiongdidizi"
    assert fields(r, "text", "agent")[-1] == ("長在左", "長兄弟")


def test_jiaocuo_is_the_pledge_passed_between_two_sides_each_to_the_other(extractor):
    """交錯 (註 交錯猶言東西): the two sides pass the pledge back and forth, each giving and receiving;
    one named in the 記 as ranked in the round (與旅齒于衆賓, 佐食于旅齒于兄弟) has it from that round."""
    r = read(extractor, "長兄弟北面答拜揖復位衆賓及衆兄弟交錯以辯皆如初儀", "teshengkuishili")
    assert fields(r, "text", "agent", "action", "recipient")[-1] == (
        "衆賓及衆兄弟交錯以辯皆如初儀",
        "衆賓+衆兄弟",
        "交錯",
        "衆賓+衆兄弟",
    )
    assert toasts(r) == [("衆賓", "旅酬", "衆賓+衆兄弟")]
    assert [p.label for p in r.toasts[0].giver] == ["衆賓", "衆兄弟"]
    # the 記 as the 述註 prints it, two paragraphs (KR1d0040_015)
    r = read(extractor, "衆賓及衆兄弟交錯以辯\n\n記凢祝呼佐食許諾宗人獻與旅齒于衆賓\n\n佐食于旅齒于兄弟", "teshengkuishili")
    assert [("+".join(x.label for x in t.giver), "+".join(x.label for x in t.receiver)) for t in r.toasts[-2:]] == [
        ("衆賓+衆兄弟", "宗人"),
        ("衆賓+衆兄弟", "佐食"),
    ]
    # 有司徹 交錯其酬: their pledges (其 + an act word after an act is a thing)
    r = read(extractor, "賔兄弟交錯其酬無算爵", "yousiche")
    assert fields(r, "text", "action") == [("賔兄弟交錯其酬無算爵", "交錯")]
    assert r.steps[0].object.startswith("酬")  # the pledges are what is passed (其 "their" is not the thing), not a clause
    assert toasts(r) == [("賔", "旅酬", "賔+兄弟")]


def test_the_zhushu_bare_zhu_opens_a_note_that_names_a_word(extractor):
    """注疏 ``○利洗散獻于尸 … 注利佐食也``: a note opening with the bare 注 reads 利 as the 佐食, as the
    述註's 註曰利佐食也 does: the three editions give the 佐食's presentation to the 尸."""
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    for edition in ("KR1d0040", "KR1d0028", "KR1d0026"):
        r = extractor.extract(read_file(shared_path("corpus", "kanripo", edition, f"{edition}_015.txt")))
        found = next(t for t in r.toasts if t.step.text == "獻于尸" and t.step.action.key == "action-xian")
        assert ([p.label for p in found.giver], [p.label for p in found.receiver]) == (["佐食"], ["尸"]), edition


def test_officers_of_the_kitchen_and_the_second_guest_are_one_person_each(extractor):
    """有司徹 次賔 (the second guest), 婦贊者 (the women assisting the 主婦), 雍正, 雍府; 公食大夫 旅人 (註
    旅人雍人之屬): each one person, not 次 + 賔, 婦 + 贊者, or the pledge 旅 (no toast in 旅人南面加匕于鼎)."""
    r = read(extractor, "次賔羞匕湆如尸禮\n\n婦贊者執昌菹醢以授主婦\n\n雍正執一匕以從雍府執二匕以從", "yousiche")
    assert fields(r, "text", "agent") == [
        ("次賔羞匕湆如尸禮", "次賔"),
        ("婦贊者執昌菹醢", "婦贊者"),
        ("以授主婦", "婦贊者"),
        ("雍正執一匕", "雍正"),
        ("以從", "雍正"),
        ("雍府執二匕", "雍府"),
        ("以從", "雍府"),
    ]
    r = read(extractor, "雍人以俎入陳于鼎南旅人南面加匕于鼎退", "gongshidafuli")
    assert list(r.toasts) == []
    assert ("旅人南面加匕于鼎", "旅人", "加") in fields(r, "text", "agent", "action")


def test_ru_and_a_person_who_does_nothing_is_a_comparison_not_a_subject(extractor):
    """有司徹 ``尸以醋主人亦如擯 其綏祭…`` and ``…亦如擯 主人答拜``: 如擯 is "as in the 儐尸" (擯 for 儐), not the
    usher 擯者 as the subject of what follows: the host presents the 祝 and answers the bow."""
    r = read(extractor, "祝酌授尸尸以醋主人亦如擯主人答拜", "yousiche")
    assert fields(r, "text", "agent", "action")[-1] == ("亦如擯主人答拜", "主人", "答拜")
    text = "主人洗酌酳尸賔羞肝皆如儐禮卒爵主人拜祝受尸爵尸答拜祝酌授尸尸以醋主人亦如擯其綏祭其嘏亦如儐"
    r = read(extractor, text + "\n\n其獻祝與二佐食其位其薦脀皆如儐", "yousiche")  # KR1d0040_017, paragraphs 140-141
    assert [(t.giver[0].label, extractor_label(t.type.key), t.receiver[0].label) for t in r.toasts] == [
        ("主人", "獻", "尸"),
        ("尸", "酢", "主人"),
        ("主人", "獻", "祝"),
    ]


def test_yi_li_is_standing_still_one_act_of_its_subject(extractor):
    """疑立 (註 疑正立自定之貌) is one act, to stand still: 主人阼階東疑立 is the host's, a clause of its own,
    not the object of the 設 before it (鄉飲酒 乃設折俎 | 主人阼階東疑立 | 賓坐左執爵)."""
    r = read(extractor, "乃設折俎主人阼階東疑立賓坐左執爵祭脯醢", "xiangyinjiuli")
    assert fields(r, "text", "action")[0] == ("乃設折俎", "設")
    assert fields(r, "text", "agent", "action")[1:3] == [("主人阼階東疑立", "主人", "立"), ("賓坐", "賓", "坐")]


def test_li_before_jiu_is_the_sweet_wine_not_a_presentation(extractor):
    """士喪 醴酒錯于豆南, 醴酒北面: the 醴 and the 酒 set out for the dead, two wines, no toast; 主人醴賓 is
    still the host's 醴 of the guest (a presentation)."""
    r = read(extractor, "奠由楹内入于室醴酒北面\n\n豆錯爼錯于豆東立于爼北西上醴酒錯于豆南", "shisangli")
    assert list(r.toasts) == []
    assert all(s.action.label != "醴" for s in r.steps)
    r = read(extractor, "主人醴賓", "shiguanli")
    assert toasts(r) == [("主人", "獻", "賓")]


def test_a_person_and_a_quarter_after_yu_is_a_place_and_a_cup_poured_back_is_a_zuo(extractor):
    """有司徹: 尸酌 … 主婦…西面拜受爵 尸北面于侑東答拜: 于侑東 is "east of the 侑", a place, so the 尸 bows
    and the 主婦 receives from him: his return toast for her presentation (註 將酢主婦); 尸…取爵酌 |
    司宮設席 | 主人…拜受爵: the 尸's 酢 of the host, though the host presented the 侑 in between."""
    r = read(extractor, "主婦洗爵于房中出酌入户西面拜獻尸尸拜受\n\n尸酌主婦出于房西面拜受爵尸北面于侑東答拜", "yousiche")
    assert [(t.giver[0].label, extractor_label(t.type.key), t.receiver[0].label) for t in r.toasts][-1] == ("尸", "酢", "主婦")
    assert fields(r, "text", "agent", "recipient")[-1] == ("尸北面于侑東答拜", "尸", "主婦")  # the 尸 opens his own clause
    r = read(
        extractor,
        "主人酌獻尸尸拜受\n\n主人酌獻侑侑拜受\n\n尸升坐取爵酌\n\n司宫設席于東序西面\n\n主人東楹東北面拜受爵",
        "yousiche",
    )
    assert [(t.giver[0].label, extractor_label(t.type.key), t.receiver[0].label) for t in r.toasts] == [
        ("主人", "獻", "尸"),
        ("主人", "獻", "侑者"),
        ("尸", "酢", "主人"),
    ]


def test_a_cup_poured_and_handed_to_another_is_received_from_him(extractor):
    """有司徹 (述註, KR1d0040_017) 尸作止爵…賔拜祝受爵尸答拜 | 祝酌授尸賔拜受爵: the 祝 pours and hands the
    cup to the 尸, and the 賓 receives it from the 尸: the 尸's return toast (酢) for the 賓's third
    presentation; the pourer is not the giver."""
    from yili.ingest.document import read_file

    from tests.conftest import shared_path

    r = extractor.extract(read_file(shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_017.txt")))
    at = next(k for k, s in enumerate(r.steps) if s.text == "祝酌" and r.steps[k + 2].text == "賔拜受爵")
    assert [(s.text, s.agent[0].label, s.recipient[0].label) for s in r.steps[at + 1 : at + 3]] == [
        ("授尸", "祝", "尸"),
        ("賔拜受爵", "賔", "尸"),
    ]
    toast = next(t for t in r.toasts if t.step.sequence == r.steps[at + 2].sequence)
    assert (toast.giver[0].label, extractor_label(toast.type.key), toast.receiver[0].label) == ("尸", "酢", "賔")


def test_places_of_the_hall_and_the_archers_and_the_losers_are_words_of_their_own(extractor):
    """上篚 (the basket on the hall), 兩楹間, 射位 are places; 不勝者 (the losers) is a person, not a negated
    act (鄉射 不勝者執弛弓升飲: they drink the penalty cup)."""
    r = read(extractor, "取爵于上篚獻工\n\n三耦及衆射者皆與其耦進立于射位北上\n\n一耦進不勝者執弛弓升飲", "xiangsheli")
    assert fields(r, "text", "location")[:2] == [("取爵于上篚", "上篚"), ("獻工", None)]
    assert ("立于射位北上", "射位") in fields(r, "text", "location")
    assert fields(r, "text", "agent", "negated")[-3:-1] == [("不勝者執弛弓", "不勝者", False), ("升", "不勝者", False)]


def test_wu_before_a_noun_says_there_is_none_and_negates_no_act(extractor):
    """鄉射 記 無爼賓酢主人 (there is no stand; the guest returns the host's toast), 無介不殺, 一人舉觶遂無筭爵
    無司正 (there is no 司正: no one to toast)."""
    r = read(extractor, "無爼賓酢主人主人不崇酒\n\n一人舉觶遂無筭爵無司正", "xiangsheli")
    assert toasts(r) == [("賓", "酢", "主人")]
    assert fields(r, "text", "agent", "negated")[0] == ("無爼賓酢主人", "賓", False)
    assert all("司正" not in s.as_record()["recipient"] for s in r.steps if s.as_record()["recipient"])
    r = read(extractor, "無介不殺", "xiangsheli")
    assert fields(r, "text", "negated") == [("無介不殺", True)]  # 不 still negates 殺


def test_the_host_who_fills_the_cup_pours_the_zuo_for_himself(extractor):
    """鄉射 大夫授主人爵於兩楹間復位 主人實爵以酢於西階上: the 大夫's return toast, filled and drunk by the
    host himself (giver 大夫, performed by 主人), and the host sits and bows after it."""
    text = "主人以爵降大夫降主人辭降卒洗主人盥\n\n揖讓升大夫授主人爵於兩楹間復位主人實爵以酢於西階上坐奠爵拜大夫答拜"
    r = read(
        extractor, "主人洗升實爵席前獻於大夫大夫西階上拜進受爵反位主人大夫之右拜送\n\n大夫坐祭立飲卒爵\n\n" + text, "xiangsheli"
    )
    zuo = r.toasts[-1]
    assert (zuo.giver[0].label, extractor_label(zuo.type.key), zuo.receiver[0].label, zuo.performed_by[0].label) == (
        "大夫",
        "酢",
        "主人",
        "主人",
    )
    assert fields(r, "text", "agent")[-5:-3] == [("以酢於西階上", "主人"), ("坐", "主人")]


def test_a_wine_named_where_the_jars_are_set_is_in_no_ones_cup(extractor):
    """鄉射 尊於賔席之東兩壺斯禁左𤣥酒 (the 玄酒, water set for form, beside the wine): no cup handled after
    it holds 玄酒; a wine written with the pouring is in the cup (酌醴)."""
    r = read(extractor, "尊於賔席之東兩壺斯禁左𤣥酒皆加勺\n\n主人坐取爵于篚降洗賔降主人坐奠爵于篚下盥洗", "xiangsheli")
    assert [w for w in (s.as_record()["wine"] for s in r.steps[1:]) if w] == []
    r = read(extractor, "贊者洗于房中側酌醴加柶覆之面葉", "shiguanli")
    assert [(s.action.label, s.as_record()["wine"]) for s in r.steps[:2]] == [("洗", None), ("酌", "醴")]


def test_a_dish_passed_hand_to_hand_is_not_the_cup_set_down_before(extractor):
    """特牲 佐食舉幹 尸受 振祭嚌之 佐食受 加于肵俎: what the 佐食 takes back is the bone (幹) he handed
    over, not the 觶 the 尸 held a paragraph before; so the 主人's 角 stays the cup he offers from."""
    text = (
        "尸左執觶右取菹㨎于醢祭于豆間\n\n佐食舉幹尸受振祭嚌之佐食受加于肵俎\n\n"
        "主人拜受角尸拜送主人退佐食授挼祭\n\n主人坐左執角受祭祭之祭酒啐酒"
    )
    r = read(extractor, text, "teshengkuishili")
    got = {(b, t): (o, v) for b, t, o, v in ((s.block, *fields_of(s, "text", "object", "vessel")) for s in r.steps)}
    assert got[(2, "佐食受")] == ("幹", None)
    assert got[(4, "受祭")] == ("祭", None)
    assert got[(4, "祭酒")] == ("酒", "角")


def test_a_cup_written_in_the_act_s_word_is_written_and_is_received_from_the_drinker(extractor):
    """特牲 108: 尸卒爵 names its cup in the word 卒爵 (the 主婦's 亞獻 named none), and 祝受爵 takes it
    from the 尸 who drained it, not from the 兄弟長 who took back the roast (羞燔者受)."""
    text = "主婦亞獻尸尸拜受主婦拜送尸祭酒啐酒\n\n兄弟長以燔從尸受振祭嚌之反之羞燔者受加于俎出\n\n尸卒爵祝受爵命送如初"
    r = read(extractor, text, "teshengkuishili")
    got = fields(r, "text", "agent", "recipient", "vessel")
    assert got[-3:-1] == [("尸卒爵", "尸", None, "爵"), ("祝受爵", "祝", "尸", "爵")]


def fields_of(step, *names):
    record = step.as_record()
    return tuple(record[n] for n in names)


def test_dishes_served_go_to_whom_the_text_names_or_to_the_one_eating(extractor):
    """羞 (to serve delicacies) and 設 go to the one eating when no one is named (特牲 尸…嚌之 … 乃食 |
    主人羞肵俎于腊北: the 尸's, 注 肵俎主于尸; 佐食羞庶羞四豆 設于左: his too), to those written after 于
    (有司徹 司士羞庶羞于尸侑主人主婦), and not to whoever was named last (燕禮 笙入 … 膳宰羞庶羞)."""
    r = read(
        extractor,
        "佐食舉肺脊以授尸尸受振祭嚌之左執之\n\n乃食食舉\n\n主人羞肵俎于腊北\n\n佐食羞庶羞四豆設于左南上有醢",
        "teshengkuishili",
    )
    assert fields(r, "text", "agent", "recipient")[-3:] == [
        ("主人羞肵俎于腊北", "主人", "尸"),
        ("佐食羞庶羞四豆", "佐食", "尸"),
        ("設于左南上有醢", "佐食", "尸"),
    ]
    r = read(extractor, "司士羞庶羞于尸侑主人主婦皆左之", "yousiche")
    assert fields(r, "agent", "recipient") == [("司士", "尸+侑者+主人+主婦")]
    r = read(extractor, "笙入立于縣中奏南陔白華華黍\n\n膳宰羞庶羞", "yanli")
    assert fields(r, "text", "recipient")[-1] == ("膳宰羞庶羞", None)


def test_an_act_as_at_first_opening_a_paragraph_is_by_who_did_it_to_the_same_thing(extractor):
    """士冠 (醮): 賔…加之 (the 皮弁), 賔…加之 (the 爵弁) … then paragraphs that open 加皮弁如初儀 and
    加爵弁如初儀, no doer written: the 賔 again, who put on those caps at first, on the capped son;
    within a paragraph its subject goes on instead."""
    text = (
        "冠者即筵坐\n\n賔降二等受皮弁右執項左執前進祝加之如初\n\n賔降三等受爵弁加之\n\n"
        "冠者拜受賔答拜冠者升筵坐\n\n加皮弁如初儀\n\n冠者拜受賔答拜\n\n加爵弁如初儀"
    )
    r = read(extractor, text, "shiguanli")
    got = fields(r, "text", "agent", "recipient")
    assert [x for x in got if x[0].startswith("加") and "如初儀" in x[0]] == [
        ("加皮弁如初儀", "賔", "冠者"),  # to the capped son, as at first
        ("加爵弁如初儀", "賔", "冠者"),
    ]


def test_and_between_two_things_joins_them_and_as_at_first_closes_before_a_person(extractor):
    """及 / 與 between two things joins the act's objects (特牲 舉骼及獸魚: the shoulder bone and the game
    and fish; 公食大夫 取粱與醬), not persons into a subject; 如初 closes its act, and the person after
    it acts next (尸又三飯: the 尸 eats, not the 祝 and the 尸); a thing before 從 follows (與俎從之)."""
    r = read(extractor, "佐食舉骼及獸魚如初尸又三飯告飽", "teshengkuishili")
    assert fields(r, "text", "agent", "object") == [
        ("佐食舉骼及獸魚如初", "佐食", "骼獸魚"),
        ("尸又三飯", "尸", None),
        ("告飽", "尸", "飽"),
    ]
    assert [s.action.key for s in r.steps] == ["action-ju", "action-fan-eat", "action-gao"]
    r = read(extractor, "賔北面坐取粱與醬以降", "gongshidafuli")
    assert fields(r, "text", "object")[1:] == [("取粱與醬", "粱醬"), ("以降", None)]
    r = read(extractor, "獲者執其薦與俎從之", "xiangsheli")
    assert [(s.text, s.action.key) for s in r.steps][-2:] == [("獲者執其薦", "action-zhi"), ("與俎從之", "action-cong")]


def test_a_general_rule_is_no_act_of_the_sequence_and_makes_no_toast(extractor):
    """凡 "whenever" opens a rule for every such act (鄉飲酒記 凡旅不洗: no washing in any pledge round;
    聘禮記 凡獻): the step is conditional and names no toast, since no giver nor receiver is meant."""
    r = read(extractor, "賔酬主人主人拜受\n\n凡旅不洗不洗者不祭", "xiangyinjiuli")
    general = next(s for s in r.steps if s.text == "凡旅")
    assert general.mode == "conditional"
    assert [(t.step.text, t.type.key) for t in r.toasts] == [("賔酬主人", "action-chou")]


def test_an_act_after_yu_and_before_ye_is_a_time(extractor):
    """於 + an act + 也 is "at the …", a time (鄉射記 古者於旅也語: in old times they talked at the
    pledge round): no pledge is passed, so no toast and no step of 旅."""
    r = read(extractor, "賔酬主人主人拜受\n\n古者於旅也語", "xiangsheli")
    assert [s.text for s in r.steps if "旅" in s.text] == []
    assert [(t.step.text, t.type.key) for t in r.toasts] == [("賔酬主人", "action-chou")]


def test_lengthwise_before_an_act_is_how_it_is_done(extractor):
    """縮 "lengthwise" before an act is a word of that act (有司徹 司馬羞羊肉湇 | 縮執俎; 司馬縮奠俎: the
    司馬 sets the stand down, not the 尸 named before); after a direction it describes a placing that
    ends its clause (士虞 設于几東席上東縮 | 降)."""
    r = read(extractor, "司馬羞羊肉湇縮執俎尸坐取肺坐祭加于俎司馬縮奠俎于羊湇俎南", "yousiche")
    got = fields(r, "text", "agent", "object")
    assert got[:2] == [("司馬羞羊肉湇", "司馬", "羊肉湇"), ("縮執俎", "司馬", "俎")]
    assert got[-1] == ("司馬縮奠俎于羊湇俎南", "司馬", "俎")
    r = read(extractor, "祝設于几東席上東縮降", "shiyuli")
    assert [s.text for s in r.steps] == ["祝設于几東席上東縮", "降"]


def test_a_vessel_that_is_no_cup_is_not_the_cup_in_hand(extractor):
    """特牲 主婦…亞獻尸 … 宗婦執兩籩户外坐 主婦受: the 宗婦 holds the two 籩 (a dish, not the 爵 of the
    presentation), and the 主婦 receives them from her; 祭鉶 (the soup pot) involves no cup."""
    r = read(extractor, "主婦洗爵于房酌亞獻尸尸拜受主婦北面拜送宗婦執兩籩户外坐主婦受設于敦南", "teshengkuishili")
    got = {s.text: (s.as_record()["recipient"], s.as_record()["vessel"]) for s in r.steps}
    assert got["宗婦執兩籩"] == (None, None)
    assert got["主婦受"] == ("宗婦", None)


def test_two_opposite_directions_are_an_extent_not_a_side(extractor):
    """士冠 設洗直於東榮 南北以堂深: the basin is set in line with the east eave, "north to south as deep
    as the hall" — the place is 東榮, not 東榮南北; 鄉飲酒 設洗於阼階東南 南北以堂深: 阼階東南; but
    既夕 陳器于道東 西北上 keeps its side (西北上 is a facing and a rank order)."""
    where = lambda text, rite: [s.location for s in read(extractor, text, rite).steps][0]  # noqa: E731
    assert where("設洗直於東榮南北以堂深水在洗東", "shiguanli") == "東榮"
    assert where("設洗於阼階東南南北以堂深東西當東榮", "xiangyinjiuli") == "阼階東南"
    assert where("陳器于道東西北上", "jixili") == "道東"


def test_a_wine_received_or_offered_is_the_object_a_wine_poured_is_not(extractor):
    """士冠 贊者酌醴 (the wine poured: the cup's wine, no object) … 賔受醴於户東, 以柶祭醴, 啐醴: the 醴
    is what is received, offered and sipped (gold: object and wine 醴); 士虞 尸嘗醴: what is tasted."""
    r = read(
        extractor,
        "贊者酌醴加柶覆之面葉\n\n賔揖冠者就筵\n\n賔受醴於户東加柶面枋\n\n冠者即筵坐左執觶右祭脯醢以柶祭醴三興筵末坐啐醴",
        "shiguanli",
    )
    got = {s.text: (s.as_record()["object"], s.as_record()["wine"]) for s in r.steps}
    assert got["贊者酌醴"] == (None, "醴")
    assert got["賔受醴於户東"] == ("醴", "醴")
    assert got["以柶祭醴"][0] == "醴" and got["啐醴"][0] == "醴"


def test_the_hand_before_an_act_is_the_hand_it_is_done_with(extractor):
    """左手 / 右手 before an act is a word of that act (鄉飲酒 右手取肺 郤左手執本: takes the lung with the
    right hand, holds its root with the left), not the end of the thing before (士冠 執項左手 → 項手)."""
    r = read(extractor, "賔坐左執爵祭脯醢奠爵于薦西興右手取肺郤左手執本", "xiangyinjiuli")
    # (郤 = 卻, "turns up" the left hand: an act of its own)
    assert fields(r, "text", "object")[-3:] == [("右手取肺", "肺"), ("郤", None), ("左手執本", "本")]
    r = read(extractor, "賔右手執項左手執前進容", "shiguanli")
    assert fields(r, "text", "object")[0] == ("賔右手執項", "項")


def test_humble_forms_in_words_spoken_are_no_persons_and_counted_steps_are_no_objects(extractor):
    """公食 公降一等 辭曰寡君從子雖將拜興也: 寡君 ("our lord") inside the words is no person who acts, so
    the words run on to their end (no act 從 by a 君); 公升二等: how far he goes up, not an object."""
    r = read(extractor, "公降一等辭曰寡君從子雖將拜興也賔西階東北面答拜", "gongshidafuli")
    assert [s.text for s in r.steps] == ["公降一等", "辭曰寡君從子雖將拜興也", "賔西階東北面答拜"]
    r = read(extractor, "公升二等賔升", "gongshidafuli")
    assert fields(r, "text", "object") == [("公升二等", None), ("賔升", None)]


def test_either_or_between_things_is_no_condition(extractor):
    """若 X 若 Y is "either X or Y" between things as between persons (公食 設扄鼏 鼏若束若編: the covers
    tied or woven, 註 長則束本短則編; 聘禮記 筮一尸若昭若穆): the act is done, not conditional."""
    r = read(extractor, "甸人陳鼎七當門南面西上設扄鼏鼏若束若編", "gongshidafuli")
    assert fields(r, "text", "mode")[-1] == ("設扄鼏鼏若束若編", "actual")


def test_by_his_rank_is_no_cup(extractor):
    """以其爵 is "by his rank" (公食 戒各以其爵, 註 必使同班敵者): no object, and no cup that the 大夫's
    later acts would carry (大夫既匕匕奠于鼎: no 爵)."""
    r = read(extractor, "使大夫戒各以其爵\n\n大夫既匕匕奠于鼎逆退復位", "gongshidafuli")
    got = {s.text: (s.as_record()["object"], s.as_record()["vessel"]) for s in r.steps}
    assert got["戒各以其爵"] == (None, None)
    assert got["大夫既匕匕奠于鼎"][1] is None
    assert got["逆退"] == (None, None)  # 逆 "in reverse order" is how they withdraw (grammar.MANNER)


def test_one_who_salutes_no_one_written_moves_himself(extractor):
    """公食 及廟門公揖入 賔入: the ruler salutes and goes in first, leading the guest (註 揖入道之); the
    one saluted moves only when he is written after 揖 (士冠 賔揖冠者 冠者即筵)."""
    r = read(extractor, "賔入門左\n\n公揖入賔從及廟門公揖入賔入三揖至于階", "gongshidafuli")
    assert fields(r, "text", "agent")[1:7] == [
        ("公揖", "公"),
        ("入", "公"),
        ("賔從及廟門", "賔"),
        ("公揖", "公"),
        ("入", "公"),
        ("賔入", "賔"),
    ]


def test_a_numeral_after_a_thing_before_a_setting_out_counts_the_thing(extractor):
    """公食 宰夫自東房薦豆六 設于醬東: six dishes are brought, then set out (the numeral is not the
    count of the act after it, as in 洗繶爵 | 三獻)."""
    r = read(extractor, "宰夫自東房薦豆六設于醬東西上", "gongshidafuli")
    assert [s.text for s in r.steps] == ["宰夫自東房薦豆六", "設于醬東西上"]


def test_the_bearers_of_the_cauldrons_are_persons(extractor):
    """公食 甸人陳鼎七 (the steward of the fields sets out seven cauldrons), 右人抽扄 … 左人待載 (the bearer
    on the right draws out the pole, the one on the left waits to load): each does his own act."""
    r = read(
        extractor,
        "甸人陳鼎七當門南面西上\n\n士舉鼎去鼏於外次入陳鼎于碑南南面西上右人抽扄坐奠于鼎西南順出自鼎西左人待載",
        "gongshidafuli",
    )
    got = fields(r, "text", "agent")
    assert got[0] == ("甸人陳鼎七當門南面西上", "甸人")
    assert ("右人抽扄", "右人") in got
    assert got[-2:] == [("左人待", "左人"), ("載", "左人")]  # waits, to load: a purpose verb is an act of its own


def test_moving_and_opening_are_acts(extractor):
    """遷 (to move) and 啟 / 啓 (to open) are acts of their own (公食 賔辭 坐遷之; 特牲 佐食啟會; 聘禮
    賈人…坐啓櫝), not the object of the act before (坐 + 遷)."""
    r = read(extractor, "賔辭坐遷之", "gongshidafuli")
    assert [(s.text, s.action.key) for s in r.steps] == [
        ("賔辭", "action-ci-decline"),
        ("坐", "action-zuo-sit"),
        ("遷之", "action-qian"),
    ]
    r = read(extractor, "佐食啟會郤于敦南出立于户西南面", "teshengkuishili")
    assert [(s.text, s.action.key) for s in r.steps[:2]] == [("佐食啟會", "action-qi-open"), ("郤于敦南", "action-que")]


def test_a_person_after_a_bow_who_steps_aside_or_kneels_acts_himself(extractor):
    """A bow takes no person object: the one written after it, with an act of his own, is its subject
    (公食 公再拜 | 賔辟 | 再拜稽首: the guest draws back, 註 辟逡遁不敢當君拜也, and bows; 公答再拜 |
    賔北面自間坐: the guest kneels, going between the dishes, and takes the millet down)."""
    r = read(extractor, "公再拜賔辟再拜稽首", "gongshidafuli")
    assert fields(r, "text", "agent") == [("公再拜", "公"), ("賔辟", "賔"), ("再拜稽首", "賔")]
    r = read(extractor, "公答再拜賔北面自間坐左擁簋粱右執湆以降", "gongshidafuli")
    assert fields(r, "text", "agent") == [
        ("公答再拜", "公"),
        ("賔北面自間坐", "賔"),
        ("左擁簋粱", "賔"),  # 擁 an act of the vocabulary (註 擁抱也), from the vocabulary's report (issue 22)
        ("右執湆", "賔"),
        ("以降", "賔"),
    ]


def test_going_out_to_ask_and_coming_in_to_report_are_four_acts(extractor):
    """擯者出請 入告 (公食, 聘禮, 士喪): goes out, asks (the business of the visit, 註 問所以為來事),
    comes back in and reports — 入 is no act asked for ("asks to enter")."""
    r = read(extractor, "上介出請入告三辭", "gongshidafuli")
    assert [(s.text, s.action.key) for s in r.steps][:4] == [
        ("上介出", "action-chu"),
        ("請", "action-qing"),
        ("入", "action-ru"),
        ("告", "action-gao"),
    ]


def test_zhi_after_handling_acts_is_the_thing_just_named(extractor):
    """之 after 嘗, 覆, 執, 反 is the thing the paragraph has just handled (特牲 尸…祭鉶 嘗之: the soup
    pot; 士冠 加柶 覆之: the spoon; 特牲 舉肺脊 … 左執之: the lung and spine), not a person."""
    r = read(extractor, "尸祭之祭酒啐酒祭鉶嘗之", "teshengkuishili")
    assert fields(r, "text", "object")[-1] == ("嘗之", "鉶")
    r = read(extractor, "贊者洗于房中側酌醴加柶覆之面葉", "shiguanli")
    assert ("覆之", "柶") in fields(r, "text", "object")


def test_handed_with_no_one_written_goes_to_whoever_takes_it_up_next(extractor):
    """授 with no receiver written goes to the person written as the next clause's subject (公食
    宰夫自東房授醯醬 公設之: to the ruler, 註 授授公也; 有司徹 宰授几 主人受: to the host)."""
    r = read(extractor, "宰夫自東房授醯醬公設之", "gongshidafuli")
    assert fields(r, "text", "recipient")[0] == ("宰夫自東房授醯醬", "公")
    r = read(extractor, "宰授几主人受二手横執几", "yousiche")
    assert fields(r, "text", "agent", "recipient")[:2] == [("宰授几", "宰", "主人"), ("主人受", "主人", "宰")]


def test_together_opens_the_act_it_qualifies(extractor):
    """兼 "together" sits before its verb, as 遂 and 乃 do (士冠 筮人執筴 抽上韇 兼執之: draws off the
    upper case, then holds stalks and case together; 鄉射 大夫 … 坐兼取乘矢)."""
    r = read(extractor, "筮人執筴抽上韇兼執之進受命於主人", "shiguanli")
    assert fields(r, "text", "object")[1:3] == [("抽上韇", "韇"), ("兼執之", "韇")]
    r = read(extractor, "大夫進坐兼取乘矢", "xiangshe")
    assert fields(r, "text", "action")[-1] == ("兼取乘矢", "取")


def test_there_is_a_thing_opens_the_act_it_is_the_topic_of(extractor):
    """有 + a thing + an act: "there is a basket, filled with…" (士冠 側尊一甒醴在服北 有篚實勺觶角柶);
    有 is no word of the thing before it."""
    r = read(extractor, "側尊一甒醴在服北有篚實勺觶角柶", "shiguanli")
    assert fields(r, "text", "action", "object", "location") == [
        ("側尊一甒醴在服北", "設", "服", "服北"),
        ("有篚實勺觶角柶", "實", "勺+觶+角+柶", "篚"),
    ]


def test_as_at_the_second_presentation_is_a_comparison_not_an_act(extractor):
    """如 + 再/三/亞 + an act is "as at that one" (士冠 三醮 攝酒如再醮: stirs the wine as at the second
    醮): the act inside is neither a step nor a toast."""
    r = read(extractor, "攝酒如再醮加爼", "shiguanli")
    assert [(s.text, s.action.key, s.object) for s in r.steps] == [
        ("攝酒如再醮", "action-she-adjust", "酒"),
        ("加爼", "action-jia", "爼"),
    ]
    assert toasts(r) == []


def test_right_opposite_before_a_place_belongs_to_the_location(extractor):
    """直於 + a place: "in line with" it (士冠 設洗直於東榮); 直 is no word of the thing set out."""
    r = read(extractor, "設洗直於東榮南北以堂深水在洗東", "shiguanli")
    assert fields(r, "text", "object", "location")[0] == ("設洗直於東榮南北", "洗", "東榮")


def test_archery_holds_and_tucks_are_acts(extractor):
    """挾 (holds an arrow between the fingers) and 搢 (sticks arrows into the belt) are acts (鄉射
    三耦皆袒決遂執弓 搢三而挾一个: three in the belt, one held; 司射 … 兼挾乘矢)."""
    r = read(extractor, "三耦皆袒決遂執弓搢三而挾一个", "xiangshe")
    assert [(s.text, s.as_record()["agent"], s.action.key) for s in r.steps][-2:] == [
        ("搢三", "三耦", "action-jin-tuck"),
        ("而挾一个", "三耦", "action-xie-hold"),
    ]
    r = read(extractor, "司射取弓於階西兼挾乘矢升自西階", "xiangshe")
    assert [(s.text, s.action.key, s.object) for s in r.steps][1:] == [
        ("兼挾乘矢", "action-xie-hold", "乘矢"),
        ("升自西階", "action-sheng", None),
    ]


def test_one_who_passes_a_dish_in_assisting_is_whom_it_is_received_from(extractor):
    """賛 + a thing passes it on: the next 受 of a thing is from the assistant, and receives that thing
    (特牲 宗婦賛豆如初 主婦受: the 主婦 takes the 豆 from the 宗婦, not from the 主人 toasted before)."""
    r = read(extractor, "主婦洗爵酌致爵于主人主人拜受爵主婦拜送爵宗婦賛豆如初主婦受設兩豆兩籩", "teshengkuishili")
    assert fields(r, "text", "agent", "recipient", "object", "vessel")[-3:-1] == [
        ("宗婦賛豆如初", "宗婦", "主婦", "豆", None),
        ("主婦受", "主婦", "宗婦", "豆", None),
    ]


def test_the_giver_of_a_pledge_drinks_first_after_the_answering_bow(extractor):
    """A pledge (酬) does not put the cup in the receiver's hands: its giver drinks first (鄉飲酒
    主人實觶酬賔 … 賔西階上答拜 坐祭遂飲卒觶: the 主人 kneels, offers and drinks, 註 酬勸酒也; 有司徹 主人
    實爵酬尸 … 尸…答拜 坐祭遂飲卒爵拜 尸答拜), even when a note of the 述註 parts the bow from the drinking."""
    r = read(extractor, "主人實觶酬賔阼階上北面坐奠觶遂拜執觶興賔西階上答拜\n\n坐祭遂飲卒觶興坐奠觶遂拜", "xiangyinjiuli")
    assert fields(r, "text", "agent", "recipient")[-9:] == [
        ("賔西階上答拜", "賔", "主人"),
        ("坐", "主人", None),
        ("祭", "主人", None),
        ("遂飲", "主人", None),
        ("卒觶", "主人", None),
        ("興", "主人", None),
        ("坐", "主人", None),
        ("奠觶", "主人", None),
        ("遂拜", "主人", "賔"),
    ]
    assert toasts(r) == [("主人", "酬", "賔")]
    r = read(extractor, "主人實爵酬尸東楹東北面坐奠爵拜尸西楹西北面答拜坐祭遂飲卒爵拜尸答拜", "yousiche")
    assert [a for _, a in fields(r, "text", "agent")][-7:] == ["尸", "主人", "主人", "主人", "主人", "主人", "尸"]


def test_the_person_bowed_to_is_the_recipient_of_the_bow(extractor):
    """拜 + a person: the one bowed to (有司徹 主人又拜侑 侑答拜: to the 侑, not the 尸 bowed to before); a
    person who answers right after the bow is the subject of the answer (主人拜 | 尸答拜)."""
    r = read(extractor, "主人出迎尸主人拜尸答拜主人又拜侑侑答拜", "yousiche")
    assert fields(r, "text", "agent", "recipient", "object")[-4:] == [
        ("主人拜", "主人", "尸", None),
        ("尸答拜", "尸", "主人", None),
        ("主人又拜侑", "主人", "侑者", None),
        ("侑答拜", "侑者", "主人", None),
    ]


def test_the_cup_set_before_the_ruler_is_his_when_its_bearers_bow_it_off(extractor):
    """A raised cup (媵) stays with its bearers, who drink first; their 拜送 (送觶) sends it to the one it
    was raised to, who pledges with it and whose pledge goes on with it (燕禮 媵爵者…洗象觶 升實之 坐奠于
    薦南 … 再拜稽首送觶 | 公坐取大夫所媵觶 興以酬賔 | 賔…以旅: the 象觶 throughout)."""
    r = read(
        extractor,
        "下大夫二人媵爵于公媵爵者洗象觶升實之坐奠于薦南降與立于洗南者二人皆再拜稽首送觶公答再拜\n\n"
        "公坐取大夫所媵觶興以酬賔賔降西階下再拜稽首",
        "yanli",
    )
    cups = {s.text: s.as_record()["vessel"] for s in r.steps}
    assert cups["二人皆再拜稽首送觶"] == "象觶"
    assert cups["取大夫所媵觶"] == "象觶"
    assert cups["以酬賔"] == "象觶"


def test_zhi_after_an_offering_is_the_thing_just_taken_up_not_the_cup(extractor):
    """之 after 祭 is what the offerer has just taken up (有司徹 尸…右取肺 坐祭之: the lung, the cup being
    in his left hand; 士虞 … 取脯 … 祭之), not the cup."""
    r = read(extractor, "尸取爵祭酒興右取肺坐祭之執爵興", "yousiche")
    assert fields(r, "text", "object", "vessel")[-3:] == [("祭之", "肺", "爵"), ("執爵", "爵", "爵"), ("興", None, None)]


def test_what_is_lacking_goes_on_over_and(extractor):
    """無 X 與 Y: neither X nor Y (有司徹 乃升羊豕魚三鼎 無腊與膚 | 乃設扄鼏, 註 腊為庶羞 膚從豕); the clause
    after it opens at 乃, not at 與."""
    r = read(extractor, "乃升羊豕魚三鼎無腊與膚乃設扄鼏", "yousiche")
    assert fields(r, "text") == [("乃升羊豕魚三鼎無腊與膚",), ("乃設扄鼏",)]


def test_what_is_at_a_place_is_the_thing_and_the_place_after_it(extractor):
    """N 在 P is a setting out of N at P (gold: placements without a verb count as 設): the place after 在
    stays with it (有司徹 昌在東方 | 興), a thing and a side after 在 are a place (蕡在䵄東: east of the
    wheat), and a word the lexicon lacks right before 在 is the thing (昌, 蕡)."""
    r = read(extractor, "主婦不興受陪設于南昌在東方興蕡在䵄東", "yousiche")
    assert fields(r, "text", "action", "object", "location")[-3:] == [
        ("昌在東方", "設", "昌", "東方"),
        ("興", "興", None, None),
        ("蕡在䵄東", "設", "蕡", "䵄東"),
    ]


def test_a_person_at_a_place_then_acting_does_one_act_there(extractor):
    """Person + 在 + place + (facing | 以) + act: 在 is "at", the act's place, no act of its own (有司徹
    主人在其右北面答拜; 尸在其右以授之); a person right before 自 + place + act is its subject (宰夫自東房
    薦脯醢), and a setting out keeps its things but the last, which is the one placed (| 醢在西)."""
    r = read(extractor, "衆賔長升拜受爵主人在其右北面答拜宰夫自東房薦脯醢醢在西", "yousiche")
    assert fields(r, "text", "agent", "action", "object", "location")[-3:] == [
        ("主人在其右北面答拜", "主人", "答拜", None, "其右"),
        ("宰夫自東房薦脯醢", "宰夫", "薦", "脯醢", "東房"),
        ("醢在西", fields(r, "agent")[-1][0], "設", "醢", "西"),
    ]
    r = read(extractor, "上賔拜受爵尸在其右以授之", "yousiche")
    assert fields(r, "text", "agent", "action", "location")[-1] == ("尸在其右以授之", "尸", "授", "其右")


def test_the_eldest_of_a_group_is_one_person(extractor):
    """X 之 長 is the eldest of the X, the role 長X or X長 (有司徹 獻兄弟于阼階上 兄弟之長升拜受爵: the
    長兄弟, who receives from the 主人; 鄉飲酒 記 衆賔之長一人辭洗: the 衆賔長 alone)."""
    r = read(extractor, "獻兄弟于阼階上兄弟之長升拜受爵主人在其右答拜", "yousiche")
    assert fields(r, "text", "agent", "recipient") == [
        ("獻兄弟于阼階上", "主人", "兄弟"),
        ("兄弟之長升", "長兄弟", None),
        ("拜受爵", "長兄弟", "主人"),
        ("主人在其右答拜", "主人", "長兄弟"),
    ]
    r = read(extractor, "衆賔之長一人辭洗如賔禮", "xiangyinjiuli")
    assert fields(r, "text", "agent") == [("衆賔之長一人辭洗如賔禮", "眾賓長")]  # the role's label


def test_waiting_ladling_laying_on_the_stand_and_laying_down_are_acts(extractor):
    """俟 is 待 (to wait: 有司徹 侑出 俟于廟門之外); 朼 (ladles the meat out) and 載 (lays it on the stand)
    are the officers' acts of the sacrifice (有司徹 司馬朼羊 亦司馬載); 委 lays a thing down (鄉射 坐委餘獲)."""
    r = read(extractor, "侑出俟于廟門之外", "yousiche")
    assert [(s.text, s.action.key, s.as_record()["location"]) for s in r.steps] == [
        ("侑出", "action-chu", None),
        ("俟于廟門之外", "action-dai", "廟門之外"),
    ]
    r = read(extractor, "司馬朼羊亦司馬載", "yousiche")
    assert [(s.text, s.as_record()["agent"], s.action.key, s.object) for s in r.steps] == [
        ("司馬朼羊", "司馬", "action-bi-ladle", "羊"),
        ("亦司馬載", "司馬", "action-zai-load", None),
    ]
    r = read(extractor, "釋獲者坐委餘獲於中西", "xiangshe")
    assert [(s.action.key, s.object) for s in r.steps][-1] == ("action-wei-lay", "餘獲")


def test_one_who_brings_a_dish_sets_that_dish_down(extractor):
    """After an assistant serves a dish (薦, 羞), a subjectless 坐 and 奠/設 are still his, and what he sets
    down is the dish, not the cup toasted before (有司徹 主婦…獻尸 婦贊者薦韭菹醢 坐 奠于筵前 菹在西方)."""
    r = read(extractor, "主婦受爵酌獻尸婦贊者薦韭菹醢坐奠于筵前菹在西方", "yousiche")
    assert fields(r, "text", "agent", "object", "vessel")[-4:] == [
        ("婦贊者薦韭菹醢", "婦贊者", "韭菹醢", None),
        ("坐", "婦贊者", None, None),
        ("奠于筵前", "婦贊者", "韭菹醢", None),
        ("菹在西方", "婦贊者", "菹", None),
    ]


def test_the_offering_place_of_a_dish_is_a_noun(extractor):
    """于 + a dish + 祭 ending the act is the offering place by the dish (有司徹 尸兼祭于豆祭: offers both at
    the 豆's offering place), one step, not a second 祭."""
    r = read(extractor, "尸兼祭于豆祭祭酒啐酒", "yousiche")
    assert fields(r, "text", "action", "location") == [("尸兼祭于豆祭", "祭", "豆祭"), ("祭酒", "祭", None), ("啐酒", "啐", None)]


def test_the_cup_of_a_presentation_received_is_no_presentation(extractor):
    """受 + 三獻爵: receives the cup of the third presentation (有司徹 尸降筵 受三獻爵 酌以酢之): no 獻 step
    and no toast of its own; the receiver pours the return himself."""
    r = read(extractor, "尸降筵受三獻爵酌以酢之", "yousiche")
    assert fields(r, "text", "agent", "action")[:3] == [("尸降筵", "尸", "降"), ("受三獻爵", "尸", "受"), ("酌", "尸", "酌")]
    assert [t for t in toasts(r) if t[1] == "獻"] == []


def test_both_hands_and_crosswise_belong_to_the_act_after_them(extractor):
    """二手 (with both hands) and 横 (crosswise), like 左手 and 縮, are words of the act after them (有司徹
    主人受 | 二手横執几; 尸進 | 二手受于手間; 侑升筵自北方 | 司馬横執羊俎 以升)."""
    r = read(extractor, "主人受二手横執几", "yousiche")
    assert fields(r, "text", "object") == [("主人受", None), ("二手横執几", "几")]
    r = read(extractor, "侑升筵自北方司馬横執羊爼以升設于豆東", "yousiche")
    assert fields(r, "text", "agent")[1:] == [("司馬横執羊爼", "司馬"), ("以升", "司馬"), ("設于豆東", "司馬")]


def test_a_thing_received_with_its_owner_written_comes_from_him(extractor):
    """受 + a person + a thing: his thing, received from him (有司徹 尸降筵受主人爵; 主人降受宰几; 尸受侑爵)."""
    r = read(extractor, "尸降筵受主人爵尸降洗", "yousiche")
    assert fields(r, "text", "recipient", "object")[1] == ("受主人爵", "主人", "爵")
    r = read(extractor, "主人降受宰几", "yousiche")
    assert fields(r, "text", "recipient", "object")[1] == ("受宰几", "宰", "几")


def test_a_bow_of_receiving_or_sending_off_has_the_cup_for_object_only_where_written(extractor):
    # 特牲 主人酌獻祝祝拜受角主人拜送: the bow of sending off is to the 祝; its cup (vessel) is the 角
    r = read(extractor, "主人洗角升酌獻祝祝拜受角主人拜送", "teshengkuishili")
    assert fields(r, "text", "action", "recipient", "object", "vessel")[-2:] == [
        ("祝拜受角", "拜受", "主人", "角", "角"),
        ("主人拜送", "拜送", "祝", None, "角"),
    ]


def test_a_thing_written_down_is_held_up_shown_received_and_looked_at(extractor):
    # 士冠 卒筮書卦執以示主人主人受眡反之 (註 筮人以方寫所得之卦): every act is done to the 卦
    r = read(extractor, "筮人許諾右還即席坐西面卒筮書卦執以示主人主人受眡反之", "shiguanli")
    assert fields(r, "text", "agent", "action", "recipient", "object")[-6:] == [
        ("書卦", "筮人", "书", None, "卦"),  # act labels are the vocabulary's (zh-Hans)
        ("執", "筮人", "执", None, "卦"),
        ("以示主人", "筮人", "示", "主人", "卦"),
        ("主人受", "主人", "受", "筮人", "卦"),
        ("眡", "主人", "视", None, "卦"),
        ("反之", "主人", "反", None, "卦"),
    ]


def test_a_thing_handed_on_is_in_the_hand_of_the_one_it_was_handed_to(extractor):
    # 特牲 佐食摶黍授祝祝授尸尸受以菹豆執: the ball of millet goes 佐食 → 祝 → 尸
    r = read(extractor, "佐食摶黍授祝祝授尸尸受", "teshengkuishili")
    assert fields(r, "text", "agent", "recipient", "object") == [
        ("佐食摶黍", "佐食", None, "黍"),
        ("授祝", "佐食", "祝", "黍"),
        ("祝授尸", "祝", "尸", "黍"),
        ("尸受", "尸", "祝", "黍"),
    ]


def test_a_thing_taken_up_long_before_is_not_what_is_received(extractor):
    near = read(extractor, "佐食取肺主人升主人降尸受", "teshengkuishili")
    assert fields(near, "text", "object")[-1] == ("尸受", "肺")
    # past a paragraph's worth of acts (HAND_SPAN steps) the lung is no longer in hand (士喪 取醴酒 … 命筮者受)
    far = read(extractor, "佐食取肺" + "主人升主人降" * 7 + "尸受", "teshengkuishili")
    assert fields(far, "text", "object")[-1] == ("尸受", None)


def test_after_an_answering_bow_the_one_with_the_cup_drinks_though_the_other_left_a_cup_standing(extractor):
    # 有司徹: the 尸 set down the 三獻's cup (尸奠爵于薦左); when the 主人 then 酬s him, it is the 主人
    # who kneels, offers, drinks and goes down to wash (註 降洗者主人)
    r = read(
        extractor,
        "上賔洗爵以升酌獻尸尸拜受爵賔西楹西北面拜送爵尸奠爵于薦左賔降\n\n"
        "主人實爵酬尸東楹東北面坐奠爵拜尸西楹西北面答拜坐祭遂飲卒爵拜尸答拜降洗",
        "yousiche",
    )
    assert fields(r, "text", "agent")[-9:] == [
        ("尸西楹西北面答拜", "尸"),
        ("坐", "主人"),
        ("祭", "主人"),
        ("遂飲", "主人"),
        ("卒爵", "主人"),
        ("拜", "主人"),
        ("尸答拜", "尸"),
        ("降", "主人"),
        ("洗", "主人"),
    ]


def test_a_person_with_a_place_and_a_facing_and_no_act_stands_there(extractor):
    # 士冠 主人升立於序端西面賔西序東面 (註 主人賔俱升立相鄉): the guest's 立 is unwritten
    r = read(extractor, "主人升立於序端西面賔西序東面", "shiguanli")
    assert fields(r, "text", "agent", "action", "location", "facing") == [
        ("主人升", "主人", "升", None, None),
        ("立於序端西面", "主人", "立", "序端", "西面"),
        ("賔西序東面", "賔", "立", "西序", "東面"),
    ]
    assert r.steps[2].notes == ("action: unwritten; a person with a place and a facing stands there (立)",)
    # 有司徹 主人立于洗東北西面侑東面于西階西南: the 侑's place is his own, not the host's object
    r = read(extractor, "主人立于洗東北西面侑東面于西階西南", "yousiche")
    assert fields(r, "text", "agent", "object", "location", "facing") == [
        ("主人立于洗東北西面", "主人", None, "洗東北", "西面"),
        ("侑東面于西階西南", "侑者", None, "西階西南", "東面"),  # the role as the rite names it
    ]
    # a person after an act is its object, not one standing (主人拜衆賔門東北面 … is not read here)
    r = read(extractor, "主人揖賔北面", "shiguanli")
    assert fields(r, "text", "action") == [("主人揖賔北面", "揖")]


def test_yu_a_person_and_a_direction_is_a_place_by_him(extractor):
    # 有司徹 主婦出于房西面拜受爵尸北面于侑東答拜: 侑東 is east of the 侑 (not the act 侑); the 尸 answers
    r = read(extractor, "主婦出于房西面拜受爵尸北面于侑東答拜", "yousiche")
    assert fields(r, "text", "agent", "action", "location", "facing") == [
        ("主婦出于房", "主婦", "出", "房", None),
        ("西面拜受爵", "主婦", "拜受", None, "西面"),
        ("尸北面于侑東答拜", "尸", "答拜", "侑東", "北面"),
    ]


def test_the_person_between_a_bow_and_an_answering_bow_answers_it(extractor):
    # 有司徹 主人…三拜衆賔門東北面皆答壹拜 (註 言三拜者衆賔賤旅之也): the 衆賔 answer with one bow each
    r = read(extractor, "主人降南面拜衆賔于門東三拜衆賔門東北面皆答壹拜", "yousiche")
    assert fields(r, "text", "agent", "action", "recipient", "location", "facing")[-2:] == [
        ("三拜", "主人", "拜", "衆賔", None, None),
        ("衆賔門東北面皆答壹拜", "衆賔", "答拜", "主人", "門東", "北面"),
    ]
    # 鄉飲酒 主人西南面三拜衆賔衆賔皆答壹拜: the person written twice, object then subject
    r = read(extractor, "主人西南面三拜衆賔衆賔皆答壹拜", "xiangyinjiuli")
    assert fields(r, "text", "agent", "action", "recipient") == [
        ("主人西南面三拜衆賔", "主人", "拜", "衆賔"),
        ("衆賔皆答壹拜", "衆賔", "答拜", "主人"),
    ]


def test_likewise_closes_its_act_before_a_person_who_acts_next(extractor):
    # 有司徹 拜侑與長賔亦如之衆賔從 (註 從者不拜送也): the host bows to the 侑 and the 長賔 likewise;
    # the 衆賔 follow
    r = read(extractor, "主人送于廟門之外拜尸不顧拜侑與長賔亦如之衆賔從", "yousiche")
    assert fields(r, "text", "agent", "action", "recipient")[-2:] == [
        ("不顧拜侑與長賔亦如之", "主人", "拜", "侑者+長賔"),
        ("衆賔從", "衆賔", "从", None),
    ]


def test_a_dish_taken_up_is_what_is_set_down_and_a_word_before_a_thing_qualifies_it(extractor):
    # 有司徹 入于房取一羊鉶坐奠于韭菹西: the mutton soup pot (a 鉶, no cup) is taken and set down
    r = read(extractor, "入于房取一羊鉶坐奠于韭菹西", "yousiche")
    assert fields(r, "text", "object", "vessel") == [
        ("入于房", None, None),
        ("取一羊鉶", "羊鉶", None),
        ("坐", None, None),
        ("奠于韭菹西", "羊鉶", None),
    ]
    assert r.steps[1].object_term.key == "vessel-xing"  # the thing is a 鉶 (a soup pot), qualified by 羊


def test_palm_up_or_down_belongs_to_the_act_after_it(extractor):
    # 有司徹 以授尸尸郤手受匕枋 … 覆手以授賔 (註 郤仰也): the 尸 receives the spoon palm up
    r = read(extractor, "次賔羞匕湆以授尸尸郤手受匕枋坐祭嚌之覆手以授賔", "yousiche")
    assert fields(r, "text", "agent", "action", "recipient", "object")[1:3] == [
        ("以授尸", "次賔", "授", "尸", None),
        ("尸郤手受匕枋", "尸", "受", "次賔", "匕枋"),
    ]
    assert fields(r, "text", "agent", "action", "recipient")[-1] == ("覆手以授賔", "尸", "授", "賔")


def test_served_dishes_held_and_a_place_by_the_offerings(extractor):
    # 有司徹 宰夫執薦以從設于祭東: holds the served dishes (薦, a noun after 執) and sets them east of
    # the offerings (祭東, a place after 于)
    r = read(extractor, "宰夫執薦以從設于祭東", "yousiche")
    assert fields(r, "text", "agent", "action", "object", "location") == [
        ("宰夫執薦", "宰夫", "執", "薦", None),
        ("以從", "宰夫", "從", None, None),
        ("設于祭東", "宰夫", "設", None, "祭東"),
    ]


def test_the_person_made_to_come_up_and_a_return_toast_poured_in_his_name(extractor):
    # 有司徹 主人…獻賔 … 乃升長賔主人酌酢于長賔西階上北面 (註 主人酌自酢 序賔意 賔卑不敢酢; 言升長賔
    # 則有賛呼之): the 長賔 is made to come up; the host pours the 長賔's 酢 for himself
    r = read(
        extractor,
        "主人洗爵長賔辭主人奠爵于篚興對卒洗升酌獻賔于西階上長賔升拜受爵主人在其右北面答拜\n\n"
        "乃升長賔主人酌酢于長賔西階上北面賔在左",
        "yousiche",
    )
    assert fields(r, "text", "agent", "action", "recipient", "object")[-4:-1] == [
        ("乃升長賔", "主人", "命", "長賔", "升"),
        ("主人酌", "主人", "酌", None, None),
        ("酢于長賔西階上北面", "主人", "酢", "主人", None),
    ]
    zuo = r.toasts[-1]
    assert (zuo.giver[0].label, zuo.type.label, zuo.receiver[0].label, zuo.performed_by[0].label) == ("賔", "酢", "主人", "主人")


def test_xian_after_a_person_before_one_who_follows_is_going_ahead(extractor):
    # 特牲 尸升入祝先主人從 (注 少牢 祝先入主人從): the 祝 goes ahead, the host follows
    r = read(extractor, "尸至于階祝延尸尸升入祝先主人從", "teshengkuishili")
    assert fields(r, "text", "agent", "action")[-3:] == [("入", "尸", "入"), ("祝先", "祝", "先"), ("主人從", "主人", "從")]
    # elsewhere 先 is "first", a word of the act after it (鄉飲酒 樂正先升)
    r = read(extractor, "樂正先升", "xiangyinjiuli")
    assert fields(r, "text", "action") == [("樂正先升", "升")]


def test_a_cup_left_standing_is_left_by_the_one_it_was_presented_to(extractor):
    # 特牲 賓三獻如初燔從如初爵止 (註 三獻禮成欲神惠之均於室中 是以奠而待之): the 尸 leaves it standing
    r = read(extractor, "主人洗角升酌酳尸尸拜受主人拜送\n\n賓三獻如初燔從如初爵止", "teshengkuishili")
    assert fields(r, "text", "agent", "action")[-1] == ("爵止", "尸", "止")
    # 止 of a person stopping at a place keeps its subject (士喪 止于西階之下)
    r = read(extractor, "主人升止于西階之下", "shisangli")
    assert fields(r, "text", "agent", "action")[-1] == ("止于西階之下", "主人", "止")


def test_an_act_as_at_first_to_other_portions_is_done_by_its_first_doer(extractor):
    # 特牲 佐食舉幹 … 祝侑之如初 | 舉骼及獸魚如初 (註 獸魚如初者獸骼魚一也): the 佐食, not the 祝 who urged
    r = read(
        extractor,
        "佐食舉幹尸受振祭嚌之佐食受加于肵俎\n\n尸又三飯告飽祝侑之如初\n\n舉骼及獸魚如初",
        "teshengkuishili",
    )
    assert fields(r, "text", "agent", "action")[-1] == ("舉骼及獸魚如初", "佐食", "举")


def test_the_portion_for_the_offering_is_one_noun_with_its_dish(extractor):
    # 特牲 祝賛籩祭尸受祭之 (註 籩祭棗栗之祭也; 其祭之亦于豆祭): the 祝 hands the 籩 portion, the 尸 receives
    # it and offers it
    r = read(extractor, "祝賛籩祭尸受祭之", "teshengkuishili")
    assert fields(r, "text", "agent", "recipient", "object") == [
        ("祝賛籩祭", "祝", None, "籩祭"),
        ("尸受", "尸", "祝", "籩祭"),
        ("祭之", "尸", None, "籩祭"),
    ]
    # 特牲 佐食取黍稷肺祭授尸 (注 肺祭刌肺也)
    r = read(extractor, "佐食取黍稷肺祭授尸尸祭之", "teshengkuishili")
    assert fields(r, "text", "object")[:2] == [("佐食取黍稷肺祭", "黍稷+肺祭"), ("授尸", None)]
    # after a place, or with 之, 祭 is the act (右取肺坐祭之)
    r = read(extractor, "右取肺坐祭之", "teshengkuishili")
    assert fields(r, "text", "action", "object")[-1] == ("祭之", "祭", "肺")


def test_a_number_before_a_thing_is_written_with_it(extractor):
    # 特牲 宗婦執兩籩 … 主婦受; 設兩豆兩籩; 佐食羞庶羞四豆 (the delicacies, in four 豆: one object)
    r = read(extractor, "宗婦執兩籩户外坐主婦受", "teshengkuishili")
    assert fields(r, "text", "object") == [("宗婦執兩籩", "兩籩"), ("户外坐", None), ("主婦受", "兩籩")]
    assert r.steps[0].object_term.key == "vessel-bian"  # still the 籩, counted
    r = read(extractor, "設兩豆兩籩\n\n佐食羞庶羞四豆", "teshengkuishili")
    assert fields(r, "text", "object") == [("設兩豆兩籩", "兩豆+兩籩"), ("佐食羞庶羞四豆", "庶羞四豆")]


def test_a_mat_word_used_as_a_verb_sets_out_that_mat(extractor):
    # 士冠 主人之贊者筵于東序少北西面 (筵 as a verb = 布席, 註): a 設 whose object is the mat
    r = read(extractor, "主人之贊者筵于東序少北西面", "shiguanli")
    assert fields(r, "text", "agent", "action", "object", "location") == [
        ("主人之贊者筵于東序少北西面", "主人之贊者", "設", "筵", "東序少北")
    ]


def test_a_word_written_twice_is_the_thing_then_the_act(extractor):
    # 士冠 乃易服服𤣥冠𤣥端爵韠: changes his clothes (服 the garments), wears (服) the black cap …
    r = read(extractor, "乃易服服𤣥冠𤣥端爵韠奠摯見於君", "shiguanli")
    assert fields(r, "text", "action", "object")[:2] == [("乃易服", "易", "服"), ("服𤣥冠𤣥端爵韠", "服", "𤣥冠+𤣥端+爵韠")]


def test_jiu_and_a_place_with_no_act_after_it_is_going_there(extractor):
    # 士冠 賔禮辭許賔就次 (註 次門外更衣處也): the guest goes to the robing hut
    r = read(extractor, "請醴賔賔禮辭許賔就次", "shiguanli")
    assert fields(r, "text", "agent", "action", "location")[-2:] == [("許", "賔", "許", None), ("賔就次", "賔", "就", "次")]
    # 就X而V is one act V at X (燕禮 主人就旅食之尊而獻之)
    r = read(extractor, "主人就旅食之尊而獻之", "yanli")
    assert fields(r, "text", "action") == [("主人就旅食之尊而獻之", "獻")]


def test_a_thing_handled_with_no_cup_has_no_wine(extraction):
    # 燕禮 (the excerpt) 26: the 賔 with the cup of 膳 in his left hand offers the 脯醢 and takes the lung
    # with his right; those acts hold no wine, the cup does
    from tests.conftest import step_at

    wine = {t: (lambda s: s.wine.label if s.wine else None)(step_at(extraction, t, 26)) for t in ("左执爵", "右祭脯醢", "取肺")}
    assert wine == {"左执爵": "膳", "右祭脯醢": None, "取肺": None}


def test_a_food_in_its_dish_is_one_object(extractor):
    # 士冠 卒醮取籩脯以降如初: the dried meat in its 籩; 特牲 主婦設兩敦黍稷 (the millet in two 敦), 佐食設豆鹽
    r = read(extractor, "卒醮取籩脯以降如初\n\n主婦設兩敦黍稷于俎南西上", "shiguanli")
    assert [o for _, o in fields(r, "text", "object") if o] == ["籩脯", "兩敦黍稷"]
    assert r.steps[1].object_term.key == "object-fu"  # the 脯
    # two dishes are two things (士喪 取豆籩爼)
    r = read(extractor, "取豆籩爼", "shisangli")
    assert fields(r, "object") == [("豆+籩+爼",)]


def test_one_man_with_no_group_before_him_is_the_one_named_for_what_he_does(extractor):
    # 鄉射 衆賔皆升就席 | 一人洗舉觶於賔 (註 一人主人之吏) … 舉觶者坐祭: not one of the 衆賔, the 舉觶者
    r = read(extractor, "衆賔皆升就席一人洗舉觶於賔升實觶西階上坐奠觶拜執觶興賔席末答拜舉觶者坐祭遂飲卒觶", "xiangsheli")
    agents = dict(fields(r, "text", "agent"))
    assert (agents["一人洗"], agents["舉觶於賔"], agents["舉觶者坐"], agents["卒觶"]) == ("舉觶者",) * 4
    assert toasts(r) == [("舉觶者", "媵", "賔")]
    # a group written before the number keeps it (燕禮 工四人 … 一人拜受爵: the leader of the 工)
    r = read(extractor, "工四人二瑟\n\n工歌卒\n\n主人洗升獻工工不興左瑟一人拜受爵", "yanli")
    assert fields(r, "text", "agent")[-1] == ("一人拜受爵", "工")


def test_yi_a_person_before_going_up_is_with_him_and_the_leader_goes_on(extractor):
    # 鄉射 主人揖讓以大夫升拜至大夫答拜 (註 以猶與也): the host goes up with the 大夫, then bows
    r = read(extractor, "主人揖讓以大夫升拜至大夫答拜", "xiangsheli")
    assert fields(r, "text", "agent", "recipient")[-3:] == [
        ("以大夫升", "主人+大夫", None),
        ("拜至", "主人", "大夫"),
        ("大夫答拜", "大夫", "主人"),
    ]
    r = read(extractor, "主人以賔升拜至賔答拜", "xiangsheli")
    assert fields(r, "text", "agent")[:2] == [("主人以賔升", "主人+賔"), ("拜至", "主人")]


def test_a_cup_taken_up_from_where_it_lies_is_that_cup(extractor):
    # 鄉射 主人實觶酬賔 … 奠觶 … | 主人取爵於序端洗 … 獻衆賔: the 爵 laid at the end of the wall, not the 觶
    r = read(extractor, "主人實觶酬賔坐奠觶\n\n主人取爵於序端洗升實爵西階上獻衆賔", "xiangsheli")
    vessels = {s.text: s.vessel.label for s in r.steps if s.vessel is not None}
    assert (vessels["主人取爵於序端"], vessels["洗"], vessels["西階上獻衆賔"]) == ("爵", "爵", "爵")


def test_each_time_then_is_a_repeated_act_not_a_condition(extractor):
    # 鄉射 每一人獻則薦諸其席 (疏 此還據堂上三人): each one presented is served at his mat, every time
    r = read(extractor, "衆賔皆不拜受爵坐祭立飲每一人獻則薦諸其席", "xiangsheli")
    assert [s.as_record()["mode"] for s in r.steps[-2:]] == ["actual", "actual"]
    # a 若 … 則 stays a condition
    r = read(extractor, "賔若有遵者則入門左", "xiangsheli")
    assert {s.as_record()["mode"] for s in r.steps} == {"conditional"}


def test_the_archers_gear_is_put_on_and_taken_off(extractor):
    # 鄉射 司射適堂西袒决遂取弓于階西 (註 遂射韝也): 遂 is the arm-guard, not "then"; 襲説决拾 (註 拾遂也)
    r = read(extractor, "司射適堂西袒决遂取弓于階西\n\n司射釋弓于堂西襲説决拾", "xiangsheli")
    assert fields(r, "text", "action") == [
        ("司射適堂西", "適"),
        ("袒", "袒"),
        ("决遂", "决遂"),
        ("取弓于階西", "取"),
        ("司射釋弓于堂西", "釋"),
        ("襲", "襲"),
        ("説决拾", "説决拾"),
    ]


def test_a_number_of_men_after_a_group_is_some_of_that_group_and_no_one_else(extractor):
    # 鄉射 笙一人拜於下盡階不升堂受爵: the leader of the 笙 (gold: 一人 (leader) → 笙), from the host
    r = read(extractor, "主人獻笙于西階上笙一人拜於下盡階不升堂受爵", "xiangsheli")
    assert fields(r, "text", "agent", "recipient")[-4:] == [
        ("笙一人拜於下", "笙", "主人"),
        ("盡階", "笙", None),
        ("不升堂", "笙", None),
        ("受爵", "笙", "主人"),
    ]


def test_fu_before_a_place_is_going_back_there(extractor):
    # 鄉射 大夫答拜主人復阼階揖降 (註 將升賔): the host goes back to the east steps, salutes, goes down
    r = read(extractor, "大夫答拜主人復阼階揖降", "xiangsheli")
    assert fields(r, "text", "agent", "action", "location") == [
        ("大夫答拜", "大夫", "答拜", None),
        ("主人復阼階", "主人", "復", "阼階"),
        ("揖", "主人", "揖", None),
        ("降", "主人", "降", None),
    ]
    # before an act, 復 is "again" (鄉射 司射復釋獲)
    assert fields(read(extractor, "司射復釋獲", "xiangsheli"), "text", "action") == [("司射復釋獲", "释获")]


def test_wei_zhi_before_an_act_is_that_act_done_for_him(extractor):
    # 鄉射 大師則為之洗 (註 尊之也): the host washes the cup for the grand music-master
    r = read(extractor, "主人取爵于上篚獻工大師則為之洗賔降", "xiangsheli")
    assert fields(r, "text", "agent", "action")[2:4] == [("大師則為之洗", "主人", "洗"), ("賔降", "賔", "降")]


def test_zhu_before_a_place_is_zhi_yu(extractor):
    # 鄉射 每一人獻則薦諸其席 (註 諸於): served at his own mat; 諸 is no object
    r = read(extractor, "衆賔皆不拜受爵坐祭立飲每一人獻則薦諸其席", "xiangsheli")
    assert fields(r, "text", "object", "location")[-1] == ("則薦諸其席", None, "其席")
    r = read(extractor, "其笙則獻諸西階上", "xiangsheli")
    assert fields(r, "text", "object", "location") == [("其笙則獻諸西階上", None, "西階上")]


def test_an_act_of_the_mourning_vocabulary_opens_a_clause_of_its_own(extractor):
    # 士喪 甸人掘坎于階間 (dig), 楔齒用角柶 (註 為將含恐其口閉急也), 綴足用燕几 (註 綴猶拘也), 帷堂:
    # each a verb of the vocabulary, so its object and place are not glued to a neighbour (帷堂 opens its
    # paragraph: after a thing, 帷 is the curtain)
    r = read(extractor, "甸人掘坎于階間楔齒用角柶綴足用燕几\n\n帷堂", "shisangli")
    assert fields(r, "text", "action") == [("甸人掘坎于階間", "掘"), ("楔齒用角柶", "楔"), ("綴足用燕几", "綴"), ("帷堂", "帷")]
    assert fields(r, "agent", "object", "location")[0] == ("甸人", "坎", "階間")


def test_shi_zuo_sitting_in_attendance_is_one_act(extractor):
    # 士相見 凡侍坐於君子 / 夜侍坐: 侍坐 is one act (侍), not 侍 | 坐
    r = read(extractor, "士侍坐於君子", "shixiangjianli")
    assert fields(r, "text", "action") == [("士侍坐於君子", "侍")]


def test_someone_sent_is_the_one_named_for_the_act_he_is_sent_to_do(extractor):
    # 士喪 君使人弔 … 弔者入 (註 使人士也): the 人 sent is the 弔者, commanded, and the doer of 弔; 徹帷:
    # 帷 after a verb is the curtain, not the act of curtaining (帷堂); the 弔 goes to the mourner (the host), and
    # the envoy just sent is on his way: the house's officers clear the curtain before he comes (agent.errand-done)
    r = read(extractor, "君使人弔徹帷主人迎于寢門外", "shisangli")
    keys = [(s.text, s.agent[0].key, s.action.key, [p.key for p in s.recipient]) for s in r.steps]
    assert keys[0] == ("君使人", "role-gong", "action-ming", ["role-diaozhe"])
    assert keys[1] == ("弔", "role-diaozhe", "action-diao", ["role-zhuren"])
    assert keys[2][:3] == ("徹帷", "role-yousi", "action-che")
    assert keys[3][1:] == ("role-zhuren", "action-ying-welcome", ["role-diaozhe"])
    assert fields(r, "object")[2] == ("帷",)


def test_the_guides_of_the_musicians_are_named_by_the_rite(extractor):
    # 鄉射 使人相祭 (注疏 疏 人相者則弟子相之): the 弟子; 燕禮 小臣左何瑟 (注 扶工者): the 小臣
    r = read(extractor, "工坐主人獻工使人相祭", "xiangsheli")
    assert fields(r, "text", "agent", "action", "recipient")[2:] == [("使人", "主人", "命", "弟子"), ("相祭", "弟子", "相", None)]
    r = read(extractor, "工坐主人獻工使人相祭", "yanli")
    assert fields(r, "text", "agent", "action")[3:] == [("相祭", "小臣", "相")]


def test_a_cup_filled_with_li_is_filled_and_the_bow_of_receiving_may_be_written_apart(extractor):
    # 聘 宰夫實觶以醴: 以醴 says what the cup is filled with (no toast by the pourer); 賔…壹拜 | 進筵前 |
    # 受醴 … 公拜送醴: the envoy bows to the ruler, then receives the cup from him: the ruler's 獻 (禮賔)
    r = read(extractor, "宰夫實觶以醴加柶於觶面枋公側受醴賔不降壹拜進筵前受醴復位公拜送醴", "pinli")
    assert fields(r, "text", "agent", "action", "object", "wine")[0] == ("宰夫實觶以醴", "宰夫", "實", "觶", "醴")
    assert fields(r, "text", "agent", "action", "recipient")[3] == ("公側受醴", "公", "受", "宰夫")
    assert toasts(r) == [("公", "獻", "賔")]
    assert r.toasts[0].step.text == "受醴"


def test_in_the_mourning_rite_the_attendants_do_what_is_done_to_the_body_of_the_dead(extractor):
    # 士喪 楔齒用角柶 綴足用燕几 (喪大記 小臣楔齒…綴足; 註 外御小臣侍從者): the 外御, to the dead (尸);
    # 招 (註 復者有司招魂復魄也): the 復者 calls the dead man's soul; 沐: the 外御
    r = read(extractor, "復者升自前東榮北面招以衣\n\n楔齒用角柶綴足用燕几\n\n乃沐櫛", "shisangli")
    keys = [(s.text, s.agent[0].key, s.action.key, [p.key for p in s.recipient]) for s in r.steps]
    assert keys[1][1:] == ("role-fuzhe", "action-zhao-call", ["role-shi-corpse"])
    assert keys[2:4] == [
        ("楔齒用角柶", "role-waiyu", "action-xie-wedge", ["role-shi-corpse"]),
        ("綴足用燕几", "role-waiyu", "action-zhui-fasten", ["role-shi-corpse"]),
    ]
    assert keys[4][1:3] == ("role-waiyu", "action-mu-hair")


def test_in_the_mourning_rite_a_paragraph_that_opens_with_setting_out_is_the_officers(extractor):
    # 士喪 陳襲事于房中 … 貝三實于笲 … 皆饌于西序下: no one named, the household officers (有司), not
    # whoever acted last (the 甸人 who dug the pit)
    r = read(extractor, "甸人掘坎于階間少西\n\n陳襲事于房中西領南上\n\n貝三實于笲", "shisangli")
    assert fields(r, "agent", "action") == [("甸人", "掘"), ("有司", "陳"), ("有司", "實")]


def test_the_cast_of_the_mission_names_its_keeper_of_goods_and_horse_leaders(extractor):
    # 聘 賈人西面坐啟櫝取圭 (註 賈人在官知物價者); 牽馬者自前西乃出 (註 於是牽馬者四人): persons of the
    # cast, the doers of the acts after them, not the usher or the envoy carried over
    r = read(extractor, "擯者入告\n\n賈人西面坐啟櫝取圭\n\n牽馬者自前西乃出", "pinli")
    keys = [(s.agent[0].key, s.action.key) for s in r.steps]
    assert keys[2:5] == [("role-jiaren", "action-zuo-sit"), ("role-jiaren", "action-qi-open"), ("role-jiaren", "action-qu")]
    assert keys[-1] == ("role-qianmazhe", "action-chu")


def read_hant(extractor, text: str, rite: str):
    """Like :func:`read`, with a title in traditional characters (the labels follow the text's script)."""
    return extractor.extract(parse_text("儀禮\n\n" + text, edition="t"), rite=rite)


def test_words_said_after_an_act_with_its_object_are_an_act_of_saying(extractor):
    # 士相見: the visitor holds the gift, then speaks; the saying is an act of its own, to the same party
    r = read_hant(extractor, "賔奉摯入主人再拜受\n\n主人復見之以其摯曰曏者吾子辱使某見請還摯於將命者", "shixiangjianli")
    assert fields(r, "text", "action", "agent", "recipient")[-2:] == [
        ("主人復見之以其摯", "見", "主人", "賔"),
        ("曰曏者吾子辱使某見請還摯於將命者", "曰", "主人", "賔"),
    ]
    assert dict(r.steps[-1].why)["action"] == "action.words-after-act"
    # words right after a speech act, right after the act, or the 傳's words stay with the act
    assert [s.text for s in read_hant(extractor, "賔對曰某不以摯不敢見", "shixiangjianli").steps] == ["賔對曰某不以摯不敢見"]
    assert [s.text for s in read_hant(extractor, "再加曰吉月令辰乃申爾服", "shiguanli").steps] == ["再加曰吉月令辰乃申爾服"]
    assert [s.action.label for s in read_hant(extractor, "為人後者傳曰何以三年也", "sangfu").steps] == ["為"]


def test_then_before_the_words_opens_the_saying(extractor):
    r = read_hant(extractor, "賔出擯者還其摯於門外則曰某也使某還摯", "shixiangjianli")
    assert fields(r, "text", "action")[1:] == [("擯者還其摯於門外", "還"), ("則曰某也使某還摯", "曰")]


def test_the_host_bows_to_the_visitor_who_has_just_done_his_errand(extractor):
    # 士喪: the envoy of condolence delivers his message; the host's bows go to him, not to the 賓 bowed to before
    text = "主人拜賓賓答拜\n\n君使人弔主人迎于寢門外弔者入升自西階東面主人進中庭弔者致命主人哭拜稽顙成踊"
    r = read_hant(extractor, text, "shisangli")
    got = {s.text: (s.as_record()["recipient"], dict(s.why).get("recipient")) for s in r.steps}
    assert got["拜稽顙"] == ("弔者", "recipient.other-party")  # the pair (主人, 弔者) is made by his errand
    assert got["弔者致命"][0] == "主人"


def test_in_the_rules_of_a_rite_about_one_person_he_acts_unless_another_is_named(extractor):
    # 士相見 (疏 以士為總號也): after 若君賜之爵 the 士 steps down and bows, not the ruler; after 君卒爵
    # the 士 hands back the empty cup
    r = read_hant(
        extractor, "凡燕見於君必辯君之南面\n\n若君賜之爵則下席再拜稽首受爵升席祭卒爵而俟君卒爵然後授虚爵", "shixiangjianli"
    )
    got = [(s.text, s.as_record()["agent"], dict(s.why)["agent"]) for s in r.steps]
    assert got[0] == ("凡燕見於君必辯君之南面", "士", "agent.general-subject")
    assert ("若君賜之爵", "君", "agent.written") in got
    assert ("則下席再拜稽首", "士", "agent.general-subject") in got
    assert [a for t, a, _ in got if t in ("受爵", "升席", "祭", "卒爵")] == ["士"] * 4
    assert got[-1] == ("後授虚爵", "士", "agent.general-subject")
    # a rite with no such fact reads the same words by carrying the subject over
    r = read_hant(extractor, "若君賜之爵則下席再拜稽首", "yanli")
    assert [s.as_record()["agent"] for s in r.steps][-1] != "士"


def test_a_person_before_ze_is_the_subject_unless_a_pronoun_takes_him_up(extractor):
    # 鄉飲酒 衆工則不拜受爵 (as for the musicians, they do not bow); 大師則為之洗 (washed for him)
    r = read_hant(extractor, "主人獻工衆工則不拜受爵", "xiangyinjiuli")
    assert [(s.text, s.as_record()["agent"]) for s in r.steps][-2:] == [("衆工則不拜", "衆工"), ("受爵", "衆工")]
    r = read_hant(extractor, "主人取爵于上篚獻工大師則為之洗", "xiangsheli")
    assert [(s.text, s.as_record()["agent"]) for s in r.steps][-1] == ("大師則為之洗", "主人")


def test_a_person_before_zhi_and_a_thing_owns_it_and_does_not_act(extractor):
    # 士喪 婦人之帶牡麻結本在房: the women's belt is set out; the women do nothing
    r = read_hant(extractor, "有司陳襲事于房中\n\n婦人之帶牡麻結本在房", "shisangli")
    assert r.steps[-1].as_record()["agent"] != "婦人"


def test_someone_sent_is_the_messenger_when_no_role_is_named_for_his_errand(extractor):
    # 士喪 庶兄弟襚使人以將命于室 (疏 使有司歸家取服致命於主人): the one sent is the 使者
    r = read_hant(extractor, "庶兄弟襚使人以將命于室主人拜于位", "shisangli")
    got = {s.text: s.as_record() for s in r.steps}
    assert (got["使人"]["recipient"], got["以將命于室"]["agent"]) == ("使者", "使者")
    assert got["以將命于室"]["action"] == "將命"


def test_after_the_presiding_person_declines_the_one_declined_goes_up_and_bows(extractor):
    # 聘禮 公降一等辭 | 栗階升聽命 降拜 公辭 | 升再拜稽首: the envoy, not the ruler, goes up and bows
    r = read_hant(extractor, "賔降公降一等辭\n\n栗階升聽命\n\n降拜公辭\n\n升再拜稽首", "pinli")
    got = [(s.text, s.as_record()["agent"]) for s in r.steps]
    assert got[3:] == [
        ("栗階升", "賔"),
        ("聽命", "賔"),
        ("降", "賔"),
        ("拜", "賔"),
        ("公辭", "公"),
        ("升", "賔"),
        ("再拜稽首", "賔"),
    ]
    assert got[2] == ("辭", "公") and dict(r.steps[3].why)["agent"] == "agent.declined-by-the-presiding"


def test_a_setting_out_that_opens_its_paragraph_and_says_where_is_the_officers(extractor):
    # 鄉射 乃席賔南面東上 | 席主人於阼階上西面: no one is named; the officers (有司) lay the mats
    r = read_hant(extractor, "主人戒賔賔出迎再拜\n\n乃席賔南面東上\n\n席主人於阼階上西面", "xiangsheli")
    got = [(s.text, s.as_record()["agent"], dict(s.why)["agent"]) for s in r.steps][-2:]
    assert got == [("乃席賔南面東上", "有司", "agent.officers-set-out"), ("席主人於阼階上西面", "有司", "agent.officers-set-out")]
    # 士喪 設韐帶 (dressing the body: no place, no order) is not a setting out of the officers
    r = read_hant(extractor, "商祝襲祭服\n\n設韐帶搢笏", "shisangli")
    assert [s.as_record()["agent"] for s in r.steps][-2:] == ["商祝", "商祝"]


def test_who_served_the_dishes_sets_the_meat_stand_after_them(extractor):
    # 鄉射 薦脯醢 賔升席自西方 乃設折俎 (註曰 爼者主人賛者設之): the host's assistants, not the guest
    r = read_hant(extractor, "主人西階上拜送爵賔少退\n\n薦脯醢賔升席自西方\n\n乃設折俎", "xiangsheli")
    got = {s.text: (s.as_record()["agent"], dict(s.why)["agent"]) for s in r.steps}
    assert got["薦脯醢"] == ("主人之贊者", "agent.default-fact")
    assert got["乃設折俎"] == ("主人之贊者", "agent.stand-after-dishes")


def test_only_at_the_ruler_s_command_the_ruler_is_no_subject(extractor):
    # 士喪 唯君命出 (the host goes out only for the ruler's envoy): 君命 is "the ruler's command"
    r = read_hant(extractor, "主人拜送于外門外\n\n唯君命出升降自西階", "shisangli")
    assert [(s.text, s.as_record()["agent"], s.action.label) for s in r.steps][1:] == [
        ("唯君命出", "主人", "出"),
        ("升", "主人", "升"),
        ("降自西階", "主人", "降"),
    ]


def test_the_one_spoken_with_is_not_a_subject(extractor):
    # 士相見 凡與大人言始視面: the 士 speaks with a man of rank and looks at his face; 大人 does not act
    r = read_hant(extractor, "凡與大人言始視面中視抱", "shixiangjianli")
    assert [s.as_record()["agent"] for s in r.steps] == ["士"] * len(r.steps)


def test_level_with_a_place_is_part_of_where(extractor):
    # 聘禮 受幣當東楹北面: where is 當東楹 (level with the east pillar), as written
    r = read_hant(extractor, "公側授宰幣賔受幣當東楹北面", "pinli")
    assert (r.steps[-1].text, r.steps[-1].location, r.steps[-1].as_record()["facing"]) == ("賔受幣當東楹北面", "當東楹", "北面")
    # 庭實 is a thing (the courtyard display), no place 庭
    r = read_hant(extractor, "庭實皮則攝之", "pinli")
    assert r.steps[0].location is None


def test_words_of_consent_end_at_their_set_phrase_and_the_acts_after_are_done(extractor):
    # 士相見 主人對曰某也固辭不得命敢不敬從 | 出 | 迎於門外 | 再拜: 敢不敬從 closes the reply
    r = read(extractor, "主人對曰某也固辭不得命敢不敬從出迎於門外再拜", "shixiangjianli")
    assert fields(r, "text", "action") == [
        ("主人對曰某也固辭不得命敢不敬從", "对"),
        ("出", "出"),
        ("迎於門外", "迎"),
        ("再拜", "再拜"),
    ]
    # without the set phrase the words run on: 曰 … 出迎 is still said
    r = read(extractor, "主人對曰某也願見出迎於門外", "shixiangjianli")
    assert fields(r, "action") == [("对",)]


def test_what_is_used_after_the_object_is_the_instrument_and_the_body_is_washed(extractor):
    # 士喪 楔齒用角柶: the teeth are wedged (object 齒) for the body (尸), with the horn spoon
    r = read(extractor, "楔齒用角柶", "shisangli")
    assert fields(r, "action", "object", "recipient") == [("楔", "齒", "尸")]
    # 挋用巾: the body is dried with the towel (object 尸, no recipient); 醮用脯醢 (士冠): the dishes used
    r = read(extractor, "外御挋用巾", "shisangli")
    assert fields(r, "agent", "action", "object", "recipient") == [("外御", "挋", "尸", None)]
    r = read(extractor, "外御挋用巾", "shiguanli")  # no body in the capping: the thing used is the object
    assert fields(r, "object") == [("巾",)]
    r = read(extractor, "醮用脯醢", "shiguanli")
    assert fields(r, "action", "object") == [("醮", "脯醢")]


def test_what_there_is_with_a_thing_is_not_the_object_and_odes_are_things(extractor):
    # 士冠 三醮有乾肉折爼: at the third 醮 there is dried meat (有 X: what there is, not what is given)
    r = read(extractor, "三醮有乾肉折爼", "shiguanli")
    assert fields(r, "action", "object") == [("醮", None)]
    # 鄉飲酒 歌南有嘉魚 笙崇丘: the odes are things, their titles whole (南有嘉魚, not 有 + 嘉魚)
    r = read(extractor, "乃間歌魚麗笙由庚歌南有嘉魚笙崇丘", "xiangyinjiuli")
    assert fields(r, "action", "object") == [("歌", "魚麗+由庚"), ("歌", "南有嘉魚+崇丘")]  # 間歌: sung in turn, a 歌


def test_a_person_with_his_place_level_with_another_starts_his_own_act(extractor):
    # 鄉射 主人阼階上當楣北面再拜 | 賔西階上當楣北面答再拜: the guest, at the top of the west steps, level
    # with the lintel, answers; he is not the one the host bowed to in the same words
    r = read(extractor, "主人阼階上當楣北面再拜賔西階上當楣北面答再拜", "xiangsheli")
    assert fields(r, "text", "agent", "location") == [
        ("主人阼階上當楣北面再拜", "主人", "阼階上"),
        ("賔西階上當楣北面答再拜", "賔", "西階上"),
    ]


def test_mourning_rite_words_read_by_their_place(extractor):
    # 士喪 禭者入衣尸出 (註 衣尸者覆之): 衣 before the body is the act, the body its object, and the envoy goes out;
    # the host sees him off and goes on himself (唯君命出); 有大夫則特拜之 is a condition; 雖 is a word of 不辭
    r = read(extractor, "主人拜如初禭者入衣尸出主人拜送如初唯君命出遂拜賔有大夫則特拜之大夫雖不辭入也", "shisangli")
    got = fields(r, "text", "agent", "action", "object")
    assert got[1:5] == [
        ("禭者入", "禭者", "入", None),
        ("衣尸", "禭者", "衣", "尸"),
        ("出", "禭者", "出", None),
        ("主人拜送如初", "主人", "拜送", None),
    ]
    assert fields(r, "recipient")[4] == ("禭者",)
    assert got[5][1:3] == ("主人", "出")
    assert [g[0] for g in got[6:]] == ["遂拜賔", "有大夫則特拜之", "大夫雖不辭", "入也"]
    assert got[8][1:3] == ("大夫", "辞")  # (the act's label)
    # 長 before a measure is a length (竹杠長三尺), not the elder; 皆濯 and 乃笄 are acts after 皆 and 乃
    r = read(extractor, "朋友禭竹杠長三尺置于宇西階上", "shisangli")
    assert fields(r, "agent", "action")[1] == ("朋友", "置")  # (the one carried over: no 長 "elder" as subject)
    assert fields(r, "location")[1] == ("宇西階上",)
    r = read(extractor, "新盆槃瓶廢敦重鬲皆濯造于西階下", "shisangli")
    assert fields(r, "agent", "action") == [("有司", "濯"), ("有司", "造")]
    assert fields(read(extractor, "鬠用組乃笄設明衣裳", "shisangli"), "action")[:2] == [("鬠",), ("笄",)]
