"""graph/loader.py: batches of quads loaded on a thread give the store one load of them all gives."""

from __future__ import annotations

import errno

import pyoxigraph
import pytest
from yili.graph.build import quad_batches
from yili.graph.loader import StoreLoader
from yili.ingest.document import load_default
from yili.ingest.pipeline import Extractor
from yili.ontology.errors import InputError


@pytest.fixture(scope="module")
def batches():  # type: ignore[no-untyped-def]
    return list(quad_batches([Extractor().extract(load_default())]))


def test_the_loaded_store_is_the_one_of_all_quads_at_once(batches, tmp_path) -> None:
    # the vocabulary's batch holds the blank nodes, as pyoxigraph quads; the editions' are N-Quads text
    assert batches[0].quads and any(isinstance(q.subject, pyoxigraph.BlankNode) for q in batches[0].quads)
    assert all(not b.quads and b.nquads for b in batches[1:-1])
    at_once = pyoxigraph.Store()
    at_once.bulk_extend([q for b in batches for q in b.as_quads()])
    with StoreLoader(tmp_path / "store") as loader:
        for b in batches:
            loader.put(b)
        assert loader.close() == len(at_once) == 40156
    loaded = pyoxigraph.Store.read_only(str(tmp_path / "store"))
    nquads = pyoxigraph.RdfFormat.N_QUADS
    # the same quads, blank-node labels included (canonical: _:cb…); a store in memory lists them in
    # another order than one on disk
    lines = sorted(loaded.dump(format=nquads).splitlines())
    assert lines == sorted(at_once.dump(format=nquads).splitlines())
    assert any(line.startswith(b"_:cb") for line in lines)


def test_a_failed_load_is_said_with_the_store_name(batches, tmp_path, monkeypatch) -> None:
    def full(loader, batch):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(StoreLoader, "_load", full)
    loader = StoreLoader(tmp_path / "tmp", name=tmp_path / "store")
    loader.put(batches[1])
    with pytest.raises(InputError) as raised:
        loader.close()
    assert raised.value.message == f"{tmp_path / 'store'}: cannot write the store: No space left on device"
