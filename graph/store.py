"""The queryable store: the built dataset loaded into Oxigraph (pyoxigraph).

Oxigraph parses, evaluates and serialises SPARQL natively, so the HTTP layer stays thin.  Data
lives in named graphs (one per edition, one for the vocabulary); queries that name no dataset see
their union as the default graph.
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph
from yili.ontology.errors import InputError

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
    store.dump(str(trig), pyoxigraph.RdfFormat.TRIG, prefixes=prefixes)
    merged = pyoxigraph.Store()
    merged.bulk_extend(pyoxigraph.Quad(q.subject, q.predicate, q.object, pyoxigraph.DefaultGraph()) for q in store)
    merged.dump(str(turtle), pyoxigraph.RdfFormat.TURTLE, from_graph=pyoxigraph.DefaultGraph(), prefixes=prefixes)
