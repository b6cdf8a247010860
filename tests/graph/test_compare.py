"""Comparing rites and editions (graph/compare.py) and searching step sequences (graph/patterns.py) on the
shared Kanripo texts: KR1d0040 is the 儀禮述註, KR1d0028 the 儀禮注疏; file _004 is the 鄉飲酒禮, _005 the
鄉射禮, _014 the 士虞禮, _015 the 特牲饋食禮 (their title lines, 鄕飲酒禮第四 … 特牲饋食禮第十五)."""

from __future__ import annotations

import pytest
from yili.graph.acts import acts_from_extractions, by_sequence, select_sequence
from yili.graph.compare import Comparison, Signature, compare, signature
from yili.graph.patterns import PatternIndex, parse_pattern
from yili.ingest.document import read_file
from yili.ontology.comparison import load_parts
from yili.ontology.errors import NotFoundError, QueryError, UnknownTermError

from tests.conftest import shared_path

FILES = (
    "KR1d0040/KR1d0040_004",
    "KR1d0040/KR1d0040_005",
    "KR1d0040/KR1d0040_014",
    "KR1d0040/KR1d0040_015",
    "KR1d0028/KR1d0028_004",
    "KR1d0028/KR1d0028_014",
    "KR1d0028/KR1d0028_015",
)


@pytest.fixture(scope="session")
def kanripo_groups(extractor):
    """The acts of the seven chapter files, by ``rite/edition`` (each file read once per session)."""
    extractions = [extractor.extract(read_file(shared_path("corpus", "kanripo", f + ".txt"))) for f in FILES]
    return by_sequence(acts_from_extractions(extractions))


def _compare(groups, vocabulary, a: str, b: str) -> Comparison:
    name_a, acts_a = select_sequence(groups, a, vocabulary)
    name_b, acts_b = select_sequence(groups, b, vocabulary)
    return compare(acts_a, acts_b, vocabulary, names=(name_a, name_b))


def _pairs(c: Comparison) -> list[tuple[str, str, str, str, str, str, str]]:
    """Paired rows as (kind, A's text, agent, act, recipient, B's text, B's act)."""
    return [
        (r.kind, r.a.text, r.a.agent_label or "", r.a.action_label, r.a.recipient_label or "", r.b.text, r.b.action_label)
        for r in c.rows
        if r.a is not None and r.b is not None
    ]


def test_parts_come_from_the_profiles(vocabulary) -> None:
    parts, rites = load_parts(), vocabulary.rites
    # 主人 presides in the 鄉飲酒禮, the 公 in the 燕禮 (rites.ttl yk:presiding), where 主人 is only the host (注 主人宰夫也)
    assert parts.parts_of("role-zhuren", rites["xiangyinjiuli"]) == ("host", "presiding")
    assert parts.parts_of("role-gong", rites["yanli"]) == ("presiding",)
    assert parts.parts_of("role-zhuren", rites["yanli"]) == ("host",)
    assert parts.parts_of("role-shi-corpse", rites["teshengkuishili"]) == ("presiding",)
    assert parts.parts_of("role-zan", rites["shiguanli"]) == ("assistant",)
    assert parts.counts_as == {"action-shi-fill": "action-zhuo"}


def test_the_hosts_toasts_compare_by_part_across_rites(extraction, vocabulary) -> None:
    acts = {a.text: a for a in acts_from_extractions([extraction])}
    to_guest, to_ruler = signature(acts["主人筵前献賔"], vocabulary), signature(acts["东北面献于公"], vocabulary)
    assert to_guest == Signature("action-xian", ("host",), ("chief-guest",), "vessel-gu", "place-xi-mat")
    assert to_ruler == Signature("action-xian", ("host",), ("presiding",), "vessel-xianggu", None)


def test_two_editions_of_one_rite_pair_their_steps_alike(kanripo_groups, vocabulary) -> None:
    """述註 against 注疏, narrative steps: the share of the 述註's steps paired with a step of the same
    signature, and the share paired at all.  The 鄉飲酒禮 reaches 0.95; in the 士虞禮 and the 特牲 the
    editions are read with a different agent for some steps (the extractor, not the alignment: 15 of the
    士虞禮's 29 substitutions differ in the agent only), so their floors are today's measures."""
    floors = {"xiangyinjiuli": (0.99, 0.995), "shiyuli": (0.92, 0.98), "teshengkuishili": (0.95, 0.98)}
    for rite, (identical, paired) in floors.items():
        c = _compare(kanripo_groups, vocabulary, f"{rite}/shuzhu", f"{rite}/zhushu")
        both = sum(1 for r in c.rows if r.a is not None and r.b is not None) / sum(1 for r in c.rows if r.a is not None)
        assert (c.identical_share >= identical, both >= paired) == (True, True), (rite, c.identical_share, both)


def test_the_archery_meeting_repeats_the_drinking_festivals_toasts_and_adds_the_archery(kanripo_groups, vocabulary) -> None:
    c = _compare(kanripo_groups, vocabulary, "鄉射禮", "鄉飲酒禮")
    assert (c.a, c.b) == ("xiangsheli/shuzhu", "xiangyinjiuli/shuzhu")
    toasts = [p for p in _pairs(c) if p[3] in ("獻", "酢", "酬") and p[4] in ("賓", "賔", "主人")]
    # the host's 獻 to the guest, the guest's 酢, the host's 酬, in order, each paired with its like
    assert toasts[:3] == [
        ("same", "賔席之前西北面獻賓", "主人", "獻", "賓", "賔之席前西北面獻賔", "獻"),
        ("same", "主人之席前東南面酢主人", "賔", "酢", "主人", "主人之席前東南面酢主人", "酢"),
        ("same", "酬之", "主人", "酬", "賔", "酬賔", "酬"),
    ]
    # and, after the archery, the guest's 酬 to the host that opens the 旅酬
    assert ("same", "阼階上北靣酬主人", "賔", "酬", "主人", "阼階上北面酬主人", "酬") in toasts
    # the archery (from the first shot to the last: 射器 … 右卒射如初) is paired with nothing
    a_rows = [r for r in c.rows if r.a is not None]
    shots = [k for k, r in enumerate(a_rows) if r.a.action == "action-she-shoot"]
    archery = a_rows[shots[0] : shots[-1] + 1]
    assert (archery[0].a.text, archery[-1].a.text, len(archery)) == ("射器", "右卒射如初", 742)
    assert all(r.b is None for r in archery)
    # two rites are not one text: no step is joined within the other's (主人坐 is no part of 主人阼階上北面奠爵)
    assert (c.count("joined"), [r.kind for r in archery].count("deletion")) == (0, 742)


def test_the_sacrifice_of_repose_pairs_with_the_single_victim_sacrifice(kanripo_groups, vocabulary) -> None:
    c = _compare(kanripo_groups, vocabulary, "士虞禮", "特牲饋食禮")
    assert (c.a, c.b) == ("shiyuli/shuzhu", "teshengkuishili/shuzhu")
    pairs = [p[1:] for p in _pairs(c)]
    wanted = [
        ("尸入門", "尸", "入", "", "尸入門左", "入"),  # the 尸 enters
        ("酳尸", "主人", "酳", "尸", "酳尸", "酳"),  # the host presents the cup to the 尸 (註 酳猶衍也 是獻尸也)
        ("尸以醋主人", "尸", "酢", "主人", "尸以醋主人", "酢"),  # the 尸's return toast
        ("亞獻尸如主人儀", "主婦", "獻", "尸", "亞獻尸", "獻"),  # the housewife's second presentation
        ("三獻燔", "賓長", "獻", "尸", "賓三獻如初", "獻"),  # the eldest guest's third
    ]
    positions = [pairs.index(w) for w in wanted]
    assert positions == sorted(positions)


def test_a_stage_narrows_a_side_and_a_bad_one_is_refused(extraction, vocabulary) -> None:
    groups = by_sequence(acts_from_extractions([extraction]))
    name, acts = select_sequence(groups, "燕礼", vocabulary, "主人献賔")
    assert (name, acts[0].phase_label, acts[-1].phase_label) == ("yanli/shuzhu-excerpt", "主人献賔", "主人献賔")
    assert "主人筵前献賔" in [a.text for a in acts]
    assert [a.block for a in select_sequence(groups, "yanli", vocabulary, "b24-25")[1]][:1] == [24]
    with pytest.raises(NotFoundError, match="selects no step"):
        select_sequence(groups, "yanli", vocabulary, "99")
    with pytest.raises(UnknownTermError, match="no steps of '鄉射'"):
        select_sequence(groups, "鄉射", vocabulary)


def test_the_patterns_wash_pour_present_find_the_hosts_toasts_to_the_guest_and_the_ruler(extraction, vocabulary) -> None:
    index = PatternIndex(acts_from_extractions([extraction]), vocabulary)
    found = index.search(parse_pattern("洗,酌,獻", vocabulary))
    rows = [[(s.agent_label, s.text, s.path) for s in o.steps] for o in found]
    assert rows[0] == [
        ("主人", "主人卒洗", "/steps/yanli/shuzhu-excerpt/20/1"),
        ("主人", "主人酌膳", "/steps/yanli/shuzhu-excerpt/23/2"),
        ("主人", "主人筵前献賔", "/steps/yanli/shuzhu-excerpt/24/1"),
    ]
    assert rows[1] == [  # 實之: the filling of the cup counts as the pouring (ontology/comparison.ttl)
        ("主人", "洗象觚", "/steps/yanli/shuzhu-excerpt/38/2"),
        ("主人", "实之", "/steps/yanli/shuzhu-excerpt/38/4"),
        ("主人", "东北面献于公", "/steps/yanli/shuzhu-excerpt/38/5"),
    ]
    hosts = index.search(parse_pattern("主人:洗,主人:獻→賓", vocabulary), within=25)
    assert [o.steps[-1].text for o in hosts] == ["主人筵前献賔"]
    assert [o.steps[-1].text for o in index.search(parse_pattern("洗,酌,獻", vocabulary), within=5)] == [
        "东北面献于公",
        "献卿于西阶上",
    ]
    with pytest.raises(QueryError, match="within=2"):
        index.search(parse_pattern("洗,酌,獻", vocabulary), within=2)
    with pytest.raises(UnknownTermError, match="write \\[AGENT:\\]ACT"):
        parse_pattern("主人:→賓", vocabulary)


def test_what_follows_a_bow_of_sending_and_the_frequent_runs(extraction, vocabulary) -> None:
    index = PatternIndex(acts_from_extractions([extraction]), vocabulary)
    after = index.following(parse_pattern("拜送", vocabulary)[0], 1)
    assert sorted(after["yanli/shuzhu-excerpt"].items(), key=lambda kv: (-kv[1], kv[0]))[:3] == [
        (("坐",), 4),
        (("薦",), 3),
        (("答再拜",), 2),
    ]
    grams = index.ngrams(3)["yanli/shuzhu-excerpt"]
    assert (grams[("坐", "奠", "拜")], grams[("洗", "升", "實")]) == (7, 5)


def test_docstring_examples() -> None:
    import doctest

    from yili.graph import compare as compare_module
    from yili.graph import patterns
    from yili.ontology import comparison

    for module in (compare_module, patterns, comparison):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0, module.__name__


# all steps (記 included) of 述註 against 注疏, chapter by chapter: the share of the 述註's steps paired with a
# step of the same signature, or joined within one paired so (floors at today's measures, three decimals down;
# issue 24 asks ≥ 0.95 of each)
EDITION_FLOORS = {
    "001": 0.974,
    "003": 0.994,
    "004": 0.993,
    "005": 0.956,
    "008": 0.953,
    "009": 0.970,
    "010": 1.000,
    "011": 0.982,
    "012": 0.993,
    "013": 0.962,
    "014": 0.955,
    "015": 0.966,
    "017": 0.977,
}


def test_each_chapter_pairs_its_two_editions_steps_alike(extractor, vocabulary) -> None:
    """Every chapter of the issue reaches 0.95: the 覲禮 (010) pairs every step since the 注疏's 疏 printed
    for 注 opens a note, the 有司徹 (017) since a note closed by a ○ gives back the classic run on into it,
    the 特牲 (015) and the 士虞禮 (014) since the models that cut the run-on notes also know the 鄭注's
    classic and notes.  What remains is mostly the two texts (士虞 簞巾/簞布, 述註 取奠觶/注疏 祝取奠觶), notes
    quoting the classic (士虞 注宗人詔主人降…), and the extractor reading the same words with another agent.
    The 喪服 (011), 0.897 before, pairs 0.932 of its steps with a step of the same signature since an entry
    and its 傳 with no 鄭注 between are one block in the 注疏 as mostly in the 述註, and 0.982 with the steps
    that the 述註 prints apart and the 注疏 within one step (joined: the 16 entries the 述註 prints apart from
    their 傳, where it keeps a 疏 on the entry alone)."""
    measured = {}
    for number in EDITION_FLOORS:
        a, b = (
            acts_from_extractions([extractor.extract(read_file(shared_path("corpus", "kanripo", ed, f"{ed}_{number}.txt")))])
            for ed in ("KR1d0040", "KR1d0028")
        )
        measured[number] = round(compare(a, b, vocabulary).identical_share, 3)
    assert {n: measured[n] >= f for n, f in EDITION_FLOORS.items()} == dict.fromkeys(EDITION_FLOORS, True), measured
    assert (measured["010"], measured["014"], measured["015"], measured["017"]) == (1.0, 0.955, 0.966, 0.977)
    assert min(measured.values()) >= 0.95


def test_a_step_one_edition_prints_as_two_is_joined_within_the_others_one(extractor, vocabulary) -> None:
    """喪服: the 述註 prints 母為長子 and its 傳 apart (李光坡's 疏 on the entry between them), the 注疏 in one run
    (母爲長子疏(…)傳曰…): the 傳 is joined within the 注疏's one step, which pairs with the entry; the 述註's
    袒 (朋友皆在他邦袒免), which the 注疏 prints 祖 (…他邦祖免), is held by no step there and stays a deletion."""
    a, b = (
        acts_from_extractions([extractor.extract(read_file(shared_path("corpus", "kanripo", ed, f"{ed}_011.txt")))])
        for ed in ("KR1d0040", "KR1d0028")
    )
    c = compare(a, b, vocabulary)
    rows = {r.a.text: r for r in c.rows if r.a is not None}
    entry, chuan = rows["母為長子"], rows["𫝊曰何以三年也父之所不降母亦不敢降也"]
    assert (entry.kind, entry.b.text) == ("same", "母爲長子傳曰何以三年也父之所不降母亦不敢降也")
    assert (chuan.kind, chuan.b, chuan.within) == ("joined", None, entry.b)
    # the other way: the 述註's one step (its 傳 run on into the next entry's head), the 注疏's two
    (head,) = [r for r in c.rows if r.b is not None and r.b.text == "從祖昆弟之子"]
    assert (head.kind, head.a, head.within.text) == ("joined", None, "傳曰何以緦也以名服也從祖昆弟之子")
    assert rows["袒"].kind == "deletion" and rows["袒"].within is None
    same, joined, steps = c.count("same"), sum(1 for r in c.rows if r.kind == "joined" and r.a), len(a)
    assert (same, joined, steps, round(c.identical_share, 3)) == (321, 17, 344, 0.983)
    assert c.as_json()["joined"] == c.count("joined") == 23
