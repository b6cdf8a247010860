"""The on-disk store: ``yili-kg build`` writes it, ``serve --store`` opens it read-only, and the API
over it answers what the API over the in-memory store answers."""

from __future__ import annotations

import pyoxigraph
import pytest
from yili.api.cli import main
from yili.graph.store import open_store, write_store
from yili.ontology.errors import InputError


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    assert main(["build", "--out", str(out)]) == 0
    return out


def test_build_writes_a_store_with_the_graph_of_the_trig(built):
    store = open_store(built / "store")
    trig = pyoxigraph.Store()
    trig.load(path=str(built / "graph.trig"), format=pyoxigraph.RdfFormat.TRIG)
    assert len(store) == len(trig) == 27497
    assert sorted(str(g) for g in store.named_graphs()) == [
        "<https://w3id.org/yili-kg/graph/vocabulary>",
        "<https://w3id.org/yili-kg/graph/yanli/shuzhu-excerpt>",
    ]
    assert open_store(built).named_graphs  # the build folder itself names its store


def test_a_read_only_store_refuses_writes(built):
    store = open_store(built / "store")
    with pytest.raises(RuntimeError, match="only possible on read-write instances"):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("o")))


def test_the_api_over_the_store_answers_as_over_memory(built, client):
    from fastapi.testclient import TestClient
    from yili.api.app import create_app
    from yili.api.service import service_from_store

    service = service_from_store(built / "store")
    assert service.store_path == str((built / "store").resolve())
    assert (service.summary["steps"], service.summary["toasts"], service.summary["triples"]) == (612, 26, 27497)
    over_disk = TestClient(create_app(service))
    for url in ("/toasts?giver=主人", "/steps?limit=5&offset=60", "/steps/yanli/shuzhu-excerpt/24/1", "/phases", "/rites"):
        assert over_disk.get(url).json() == client.get(url).json(), url


def test_store_folders_that_are_not_stores_are_named(tmp_path):
    with pytest.raises(InputError, match=r"nowhere: no such store folder"):
        open_store(tmp_path / "nowhere")
    (tmp_path / "plain").mkdir()
    with pytest.raises(InputError, match=r"plain: not an Oxigraph store folder"):
        open_store(tmp_path / "plain")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match=r"file: exists and is not an Oxigraph store"):
        write_store(pyoxigraph.Store(), tmp_path / "file")
    assert (tmp_path / "file").read_text() == "x"  # nothing lost


def test_rewriting_a_store_replaces_it_whole(tmp_path):
    q = pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("o"))
    one = pyoxigraph.Store()
    one.add(q)
    assert write_store(one, tmp_path / "store") == 1
    two = pyoxigraph.Store()
    two.add(pyoxigraph.Quad(q.subject, q.predicate, pyoxigraph.Literal("other")))
    two.add(pyoxigraph.Quad(q.subject, q.predicate, pyoxigraph.Literal("third")))
    assert write_store(two, tmp_path / "store") == 2
    assert sorted(str(x.object) for x in open_store(tmp_path / "store")) == ['"other"', '"third"']
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]  # no temporary folder left


def test_an_interrupted_store_write_leaves_the_old_store_and_no_temporary_folder(tmp_path):
    """Ctrl-C while the store is written (a build of a long text spends seconds there): the half
    written store is removed and the old one is kept as it was."""
    q = pyoxigraph.Quad(pyoxigraph.NamedNode("http://e/s"), pyoxigraph.NamedNode("http://e/p"), pyoxigraph.Literal("old"))
    one = pyoxigraph.Store()
    one.add(q)
    write_store(one, tmp_path / "store")

    def interrupted():  # bulk_extend reads the quads: the user presses Ctrl-C meanwhile
        yield q
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_store(interrupted(), tmp_path / "store")  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]
    assert [str(x.object) for x in open_store(tmp_path / "store")] == ['"old"']


def test_serve_names_a_bad_store_in_one_line(tmp_path, capsys):
    assert main(["serve", "--store", str(tmp_path), "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"yili-kg: error: {tmp_path}: not an Oxigraph store folder (yili-kg build --out DIR writes DIR/store)"


def test_serve_refuses_texts_with_a_built_graph(tmp_path, capsys):
    """serve --store DIR FILE used to serve DIR and drop FILE without a word."""
    assert main(["serve", "--store", str(tmp_path), "text.txt", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "yili-kg: error: INPUT is read when the graph is built; with --store the built graph is served as it is: "
        "give the texts to `yili-kg build` (or serve them without --graph/--store)"
    )
    assert main(["serve", "--graph", str(tmp_path / "g.trig"), "--vocab", "v.ttl", "--port", "1"]) == 2
    assert capsys.readouterr().err.strip().startswith("yili-kg: error: --vocab is read when the graph is built; with --graph")
