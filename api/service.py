"""Assemble the :class:`~yili.api.app.Service` the app serves: from extractions, or from a graph file."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from yili.api.app import Service
from yili.graph.build import build_store
from yili.graph.queries import GraphQueries, OxigraphBackend, prefix_block
from yili.graph.store import load_file
from yili.ingest.pipeline import Extraction
from yili.ontology.namespaces import base_iri
from yili.ontology.vocabulary import load_vocabulary


def service_from_extractions(
    extractions: Sequence[Extraction], base: str | None = None, vocabulary_files: Iterable[str | Path] = ()
) -> Service:
    """Build the dataset from extractions, load it into Oxigraph and wrap it for the app.

    Parameters
    ----------
    extractions : sequence of Extraction
    base : str, optional
        Base IRI (default :func:`~yili.ontology.namespaces.base_iri`).
    vocabulary_files : iterable of path
        Extra vocabulary files (``--vocab``).

    Returns
    -------
    Service
    """
    files = list(vocabulary_files)
    base = base or base_iri()
    store = build_store(extractions, base=base, vocabulary_files=files)
    vocabulary = load_vocabulary(files)
    summary = {
        "editions": [f"{e.document.rite}/{e.document.edition}" for e in extractions],
        "blocks": sum(len(e.document.blocks) for e in extractions),
        "steps": sum(len(e.steps) for e in extractions),
        "toasts": sum(len(e.toasts) for e in extractions),
        "triples": len(store),
    }
    return Service(store, GraphQueries(OxigraphBackend(store), vocabulary, base), vocabulary, base, summary)


def service_from_store(path: str | Path, base: str | None = None) -> Service:
    """Serve an on-disk store written by ``yili-kg build`` (``DIR/store``), opened read-only: the
    server and every SPARQL worker process open the same folder and share its pages.

    Raises
    ------
    InputError
        If the folder is missing or is not an Oxigraph store.
    """
    from yili.graph.store import open_store

    store = open_store(path)
    folder = Path(path) / "store" if (Path(path) / "store" / "CURRENT").exists() else Path(path)
    service = _service_over(store, base, {"source": str(folder)})
    service.store_path = str(folder.resolve())
    service.opened_from_path = True
    return service


def _service_over(store, base: str | None, summary: dict) -> Service:  # type: ignore[no-untyped-def]
    vocabulary = load_vocabulary()
    base = base or base_iri()
    queries = GraphQueries(OxigraphBackend(store), vocabulary, base)
    counts = queries.backend.select(
        prefix_block(base) + "SELECT (COUNT(DISTINCT ?s) AS ?steps) "
        "(COUNT(DISTINCT ?t) AS ?toasts) WHERE { { ?s a yk:Step } UNION { ?t a yk:Toast } }"
    )
    summary = {**summary, "triples": len(store), **(counts[0] if counts else {})}
    return Service(store, queries, vocabulary, base, summary)


def service_from_file(path: str | Path, base: str | None = None) -> Service:
    """Serve a graph written by ``yili-kg build`` (``graph.trig`` keeps the named graphs).

    Raises
    ------
    InputError
        If the file is missing or not valid RDF.
    """
    store = load_file(path)
    return _service_over(store, base, {"source": str(path)})


def service_from_endpoint(endpoint: str, auth: tuple[str, str] | None = None, base: str | None = None) -> Service:
    """Serve the graph a remote SPARQL 1.1 endpoint holds (loaded by ``yili-kg push``): every REST
    route, the viewer and the exports ask it through :class:`~yili.graph.remote.SparqlHttpStore`.

    Raises
    ------
    InputError
        The endpoint cannot be reached, fails, or holds no named graph (named).
    """
    from yili.graph.remote import SparqlHttpStore
    from yili.ontology.errors import InputError
    from yili.ontology.namespaces import mint

    store = SparqlHttpStore(endpoint, auth=auth, graph_prefix=str(mint("graph", "x", base=base or base_iri()))[:-1])
    if not store.graphs:
        raise InputError(f"{endpoint}: the store holds no named graph; load the graph into it with `yili-kg push`")
    service = _service_over(store, base, {"source": endpoint})
    service.endpoint = endpoint
    return service
