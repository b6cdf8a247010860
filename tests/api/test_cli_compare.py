"""``yili-kg compare`` and ``yili-kg ngrams`` (api/cli.py) on the excerpt."""

from __future__ import annotations

import csv
import io
import json

from yili.api.cli import main

from tests.conftest import shared_path


def test_compare_two_stages_of_one_text(capsys) -> None:
    excerpt = str(shared_path("corpus", "yili_shuzhu_yanli_excerpt.txt"))
    assert main(["compare", excerpt, excerpt, "--stage", "主人献賔", "--stage", "主人献公", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert (body["a"], body["stage_a"], body["stage_b"], body["steps_a"], body["steps_b"]) == (
        "yanli/shuzhu-excerpt",
        "主人献賔",
        "主人献公",
        49,
        26,
    )
    (xian,) = [r for r in body["rows"] if r["a"] and r["a"]["text"] == "主人筵前献賔"]
    assert (xian["kind"], xian["b"]["text"]) == ("substitution", "东北面献于公")
    assert main(["compare", excerpt, excerpt, "--stage", "1", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {r["kind"] for r in rows} == {"same"} and rows[0]["a_url"] == "/steps/yanli/shuzhu-excerpt/1/1"
    assert main(["compare", excerpt, excerpt, "--stage", "2"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("yanli/shuzhu-excerpt ↔ yanli/shuzhu-excerpt: similarity 1.0,")


def test_compare_errors_are_one_line(capsys) -> None:
    excerpt = str(shared_path("corpus", "yili_shuzhu_yanli_excerpt.txt"))
    assert main(["compare", excerpt, excerpt, "--stage", "99"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yili-kg: error: stage '99' selects no step of yanli/shuzhu-excerpt") and err.count("\n") == 1
    assert main(["compare", "/no/such.txt", excerpt]) == 2
    assert "/no/such.txt" in capsys.readouterr().err


def test_ngrams_of_the_excerpt(capsys) -> None:
    assert main(["ngrams", "--n", "3", "--top", "2"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "yanli/shuzhu-excerpt\t1\t7\t坐 奠 拜",
        "yanli/shuzhu-excerpt\t2\t7\t坐 祭 立",
    ]
    assert main(["ngrams", "--n", "2", "--top", "1", "--csv"]) == 0
    assert capsys.readouterr().out.splitlines() == ["sequence,rank,acts,count", 'yanli/shuzhu-excerpt,1,"坐,奠",18']
    assert main(["ngrams", "--n", "9"]) == 2
    assert "n=9: give 1 to 8" in capsys.readouterr().err
