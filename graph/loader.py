"""Write a new on-disk Oxigraph store while the build goes on: batches of quads bulk-loaded on a thread.

``yili-kg build`` makes its quads one edition at a time (:func:`yili.graph.build.quad_batches`), as
N-Quads text (and as pyoxigraph quads those with a blank node, whose labels a parser would change).
Loading them into a store (for an on-disk store, RocksDB: sorting, SST files, compaction) is work in
Rust that holds no Python lock, so :class:`StoreLoader` does it on a thread of its own while the build
makes the next edition's quads and writes its files: ``pyoxigraph.Store.bulk_load`` releases the
interpreter while it loads.  The store holds the same quads, blank-node labels included, as one
``bulk_extend`` of them all would (a quad two batches hold is kept once).
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph
from yili.ontology.errors import InputError

if TYPE_CHECKING:
    from yili.graph.build import QuadBatch

__all__ = ["StoreLoader"]


class StoreLoader:
    """Bulk-load batches of quads into a new store, on disk in ``folder`` (empty or missing) or in memory
    (``folder`` None), on a thread.

    ``put(batch)`` queues a :class:`~yili.graph.build.QuadBatch`; at most ``backlog`` batches wait
    (``put`` blocks past that, so the N-Quads waiting stay a few editions' worth).  ``wait()`` waits for
    every batch and returns the store (for one in memory); ``close()`` waits for the thread, compacts
    and closes the store and returns its number of quads;
    an error of the thread (a full disk: :class:`OSError`) is raised there, or at the next ``put``.
    ``abort()`` stops the thread and leaves the folder to the caller to remove.  Usable as a context
    manager that calls ``abort()`` when its block raises (call ``close()`` in the block).

    Parameters
    ----------
    folder : str or Path or None
        Where the store is made; None: in memory.
    backlog : int
        How many batches may wait for the thread (default 4).
    name : str or Path, optional
        The store's name for errors (the folder it will be renamed to).

    Raises
    ------
    OSError
        The folder cannot be written (at creation), or the thread's load failed (at ``put``, ``wait``
        or ``close``) and no ``name`` was given.
    InputError
        ``<name>: cannot write the store: <reason>``: the thread's load failed (a full disk), with ``name``.
    """

    def __init__(self, folder: str | Path | None, backlog: int = 4, name: str | Path | None = None) -> None:
        self.folder = folder
        self.name = name
        self._store: pyoxigraph.Store | None = pyoxigraph.Store(str(folder) if folder is not None else None)
        self._queue: queue.Queue[QuadBatch | None] = queue.Queue(maxsize=max(1, backlog))
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="yili-store-loader", daemon=True)
        self._thread.start()

    def _load(self, batch: QuadBatch) -> None:
        """Bulk-load one batch (on the loader's thread)."""
        assert self._store is not None
        batch.load_into(self._store)

    def _run(self) -> None:
        while True:
            batch = self._queue.get()
            if batch is None:  # after the last batch
                return
            if self._error is None:
                try:
                    self._load(batch)
                except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
                    self._error = error

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            if isinstance(error, OSError) and self.name is not None:
                raise InputError(f"{self.name}: cannot write the store: {error.strerror or error}") from None
            raise error

    def put(self, batch: QuadBatch) -> None:
        """Queue a batch to be loaded; blocks while ``backlog`` batches wait.

        Raises
        ------
        OSError
            An earlier batch failed to load.
        """
        self._raise()
        if batch.quads or batch.nquads:
            self._queue.put(batch)

    def wait(self) -> pyoxigraph.Store:
        """Wait for every batch; the store (the loader takes no more batches).

        Raises
        ------
        OSError
            A batch failed to load.
        """
        self._queue.put(None)
        self._thread.join()
        self._raise()
        assert self._store is not None
        return self._store

    def close(self) -> int:
        """Wait for every batch, compact and close the store; the number of quads it holds.

        Raises
        ------
        OSError
            A batch failed to load, or the store could not be flushed.
        """
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        self._raise()
        store, self._store = self._store, None
        assert store is not None
        store.flush()
        store.optimize()
        count = len(store)
        del store  # closes the database (pyoxigraph closes on release)
        return count

    def abort(self) -> None:
        """Stop loading: wait for the batch being loaded, drop the rest, close the store."""
        while True:  # drop what waits, so that the end (None) fits
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        self._error = None
        self._store = None

    def __enter__(self) -> StoreLoader:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is not None:
            self.abort()
