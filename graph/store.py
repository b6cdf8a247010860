"""The queryable store: the built dataset loaded into Oxigraph (pyoxigraph).

Oxigraph parses, evaluates and serialises SPARQL natively, so the HTTP layer stays thin.  Data
lives in named graphs (one per edition, one for the vocabulary); queries that name no dataset see
their union as the default graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph
from yili.ontology.errors import InputError

if TYPE_CHECKING:
    from yili.graph.build import QuadBatch

FORMATS: dict[str, pyoxigraph.RdfFormat] = {
    ".ttl": pyoxigraph.RdfFormat.TURTLE,
    ".trig": pyoxigraph.RdfFormat.TRIG,
    ".nq": pyoxigraph.RdfFormat.N_QUADS,
    ".nt": pyoxigraph.RdfFormat.N_TRIPLES,
    ".rdf": pyoxigraph.RdfFormat.RDF_XML,
    ".owl": pyoxigraph.RdfFormat.RDF_XML,
}
"""File extensions :func:`load_file` reads, and their RDF syntax."""


def load_file(path: str | Path) -> pyoxigraph.Store:
    """Load a graph file written by ``yili-kg build`` (or any RDF file) into a new store.

    Parameters
    ----------
    path : str or Path
        ``.trig`` / ``.nq`` keep named graphs; ``.ttl`` / ``.nt`` / ``.rdf`` go to the default graph.

    Returns
    -------
    pyoxigraph.Store

    Raises
    ------
    InputError
        If the file is missing, of an unknown kind, or not valid in its syntax (the message
        gives the parser's complaint).
    """
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{p}: is a directory, not a graph file")
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise InputError(f"{p}: unknown RDF file type {p.suffix!r} (expected one of {', '.join(sorted(FORMATS))})")
    store = pyoxigraph.Store()
    try:
        store.bulk_load(path=str(p), format=fmt)
    except (SyntaxError, ValueError, OSError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{p}: not valid {fmt.name}: {msg}") from None
    return store


def write_files(store: pyoxigraph.Store, trig: str | Path, turtle: str | Path, prefixes: dict[str, str]) -> None:
    """Write the store as TriG (named graphs kept) and as Turtle (every triple in one graph).

    Oxigraph serialises natively, two orders of magnitude faster than rdflib's serialisers on
    these graphs.

    Parameters
    ----------
    store : pyoxigraph.Store
    trig, turtle : path
        Output files.
    prefixes : dict[str, str]
        Prefix → namespace IRI, used in both files.
    """
    write_trig(store, trig, prefixes)
    write_turtle(store, turtle, prefixes)


def write_trig(store: pyoxigraph.Store, trig: str | Path, prefixes: dict[str, str]) -> None:
    """Write the store as TriG, named graphs kept (Oxigraph's serialiser), with ``prefixes``
    (prefix → namespace IRI)."""
    store.dump(str(trig), pyoxigraph.RdfFormat.TRIG, prefixes=prefixes)


def write_turtle(store: pyoxigraph.Store, turtle: str | Path, prefixes: dict[str, str]) -> None:
    """Write every triple of the store as Turtle, in one graph, with ``prefixes``."""
    # every triple of every graph, in the store's own (sorted, deterministic) order; a triple that
    # two graphs hold is written twice, which a Turtle reader merges (a graph is a set)
    pyoxigraph.serialize((q.triple for q in store), str(turtle), pyoxigraph.RdfFormat.TURTLE, prefixes=prefixes)


STORE_MARKER = "CURRENT"
"""A file every Oxigraph (RocksDB) store folder holds; its absence means the folder is not a store."""


def write_store(store: pyoxigraph.Store, folder: str | Path) -> int:
    """Write ``store`` as an on-disk Oxigraph store (RocksDB) in ``folder``, all or nothing.

    The quads are bulk-loaded into a new store in a temporary folder beside ``folder``, which is
    compacted (``optimize``) and then renamed into place; an old store there is replaced only once
    the new one is complete.  ``yili-kg serve --store`` opens the result read-only
    (:func:`open_store`) in the server and in every SPARQL worker process, which then share the
    operating system's page cache instead of each holding a copy.

    Parameters
    ----------
    store : pyoxigraph.Store
        The graph (named graphs kept).
    folder : str or Path
        Where the store goes (``build/store``).

    Returns
    -------
    int
        The number of quads written.

    Raises
    ------
    InputError
        ``<folder>: cannot write the store: <reason>`` (a full disk, a read-only folder, a file in
        the way); nothing is left behind but the old store, if there was one.
    """
    return _write_atomically(folder, lambda tmp: fill_store(store, tmp))


def write_quad_batches(batches: Iterable[QuadBatch], folder: str | Path) -> int:
    """Write batches of quads (:func:`yili.graph.build.quad_batches`) as an on-disk Oxigraph store in
    ``folder``, all or nothing, as :func:`write_store` does; each batch is loaded on a thread of its own
    while the next is made (:class:`~yili.graph.loader.StoreLoader`).  Returns the number of quads written.

    Raises
    ------
    InputError
        As :func:`write_store`.
    """
    from yili.graph.loader import StoreLoader

    def fill(tmp: Path) -> int:
        with StoreLoader(tmp, name=folder) as loader:
            for batch in batches:
                loader.put(batch)
            return loader.close()

    return _write_atomically(folder, fill)


def _write_atomically(folder: str | Path, fill: Callable[[Path], int]) -> int:
    """Make a store with ``fill(tmp)`` in a temporary folder beside ``folder`` and rename it into place
    (see :func:`write_store`); ``fill``'s count of quads."""
    import shutil
    import tempfile

    target = Path(folder)
    if target.exists() and not (target.is_dir() and (target / STORE_MARKER).exists() or is_empty_dir(target)):
        raise InputError(f"{target}: exists and is not an Oxigraph store; remove it or choose another --out")
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    old: Path | None = None
    try:
        count = fill(tmp)
        if target.exists():
            old = target.with_name(f".{target.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
        tmp.rename(target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return count
    except BaseException as exc:
        # a failed write, or an interrupt (Ctrl-C): the half-written store goes, the old one stays
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and old.exists() and not target.exists():
            old.rename(target)
        if isinstance(exc, OSError):
            raise InputError(f"{target}: cannot write the store: {exc.strerror or exc}") from None
        raise


def fill_store(store: pyoxigraph.Store, folder: str | Path) -> int:
    """Bulk-load ``store`` into a new on-disk Oxigraph store in the (empty) ``folder``, compacted
    and closed; the number of quads written.

    Raises
    ------
    OSError
        The disk is full, or the folder cannot be written.
    """
    disk = pyoxigraph.Store(str(folder))
    disk.bulk_extend(store)
    disk.flush()
    disk.optimize()
    count = len(disk)
    del disk  # closes the database (pyoxigraph closes on release)
    return count


def is_empty_dir(path: Path) -> bool:
    """True if ``path`` is a folder with nothing in it (a build may be written there); False for a
    file, a missing path or a folder with anything in it."""
    return path.is_dir() and not any(path.iterdir())


def open_store(folder: str | Path) -> pyoxigraph.Store:
    """Open an on-disk store written by :func:`write_store` read-only (``folder`` may also be the
    build's output folder that holds it as ``store/``).

    Many processes may open the same store at once (no writer may run meanwhile); the data stays
    on disk, in the page cache the processes share.

    Raises
    ------
    InputError
        The folder is missing, is not an Oxigraph store, or cannot be opened (the reason given).
    """
    p = Path(folder)
    if (p / "store" / STORE_MARKER).exists():
        p = p / "store"  # the build's output folder was given
    if not p.exists():
        raise InputError(f"{p}: no such store folder (yili-kg build --out DIR writes DIR/store)")
    if not p.is_dir() or not (p / STORE_MARKER).exists():
        raise InputError(f"{p}: not an Oxigraph store folder (yili-kg build --out DIR writes DIR/store)")
    try:
        return pyoxigraph.Store.read_only(str(p))
    except OSError as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{p}: cannot open the store: {msg}") from None
