"""The corpus served: the 13 rites of the shared Kanripo folders, each edition its own named graph."""

from __future__ import annotations

import pytest
from conftest import shared_path

BASE = "https://w3id.org/yili-kg/"
CHAPTERS = [
    "shiguanli",
    "shixiangjianli",
    "xiangyinjiuli",
    "xiangsheli",
    "pinli",
    "gongshidafuli",
    "jinli",
    "sangfu",
    "shisangli",
    "jixili",
    "shiyuli",
    "teshengkuishili",
    "yousiche",
]


@pytest.fixture(scope="module")
def corpus(extractor):
    """The whole 鄭注 (KR1d0026, 13 chapters) with 特牲饋食禮 of the 述註 and the 注疏, served."""
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_extractions
    from yili.ingest.document import read_file

    folder = shared_path("corpus", "kanripo", "KR1d0026")
    files = [*sorted(folder.glob("*.txt")), shared_path("corpus", "kanripo", "KR1d0040", "KR1d0040_015.txt"),
             shared_path("corpus", "kanripo", "KR1d0028", "KR1d0028_015.txt")]
    extractions = [extractor.extract(read_file(f)) for f in files]
    return TestClient(create_app(service_from_extractions(extractions)))


def test_rites_lists_the_thirteen_rites_in_chapter_order(corpus):
    rites = corpus.get("/rites").json()
    assert [r["rite"].removeprefix(BASE + "rite/") for r in rites] == CHAPTERS
    tesheng = rites[CHAPTERS.index("teshengkuishili")]
    assert tesheng["label"]["zh-Hant"] == "特牲饋食禮"
    assert sorted(e["edition"].rsplit("/", 1)[1] for e in tesheng["editions"]) == ["shuzhu", "zhengzhu", "zhushu"]


@pytest.mark.parametrize(
    ("edition", "step", "page"),
    [
        ("shuzhu", "89/4", "KR1d0040_WYG_015-22b"),
        ("zhushu", "93/4", "KR1d0028_WYG_015-26b"),
        ("zhengzhu", "88/4", "KR1d0026_SBCK_015-9b"),
    ],
)
def test_the_first_toast_of_tesheng_in_each_edition_has_its_rite_and_page(corpus, edition, step, page):
    """酳尸, the host's toast to the 尸: the same toast in the three editions, each at its own block
    and page of its own print."""
    toasts = corpus.get("/toasts", params={"rite": "特牲", "limit": 1000}).json()["items"]
    first = next(t for t in toasts if t["edition"] == f"{BASE}text/teshengkuishili/{edition}")
    assert (first["text"], first["giver"], first["type"], first["receiver"]) == ("酳尸", "主人", "獻", "尸")
    assert first["step"] == f"{BASE}step/teshengkuishili/{edition}/{step}"
    described = corpus.get(first["url"]).json()
    assert (described["page"], described["rite"]) == (page, f"{BASE}rite/teshengkuishili")
