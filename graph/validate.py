"""Validate a built graph against the SHACL shapes of ``ontology/shapes.ttl`` (pyshacl).

The data graph given to pyshacl is the built graph merged with the ontology and the vocabulary
(the shapes check that every term used is a concept of the right scheme, so the concepts must be
in the data graph; pyshacl would copy only the RDFS/OWL axioms of a separate ontology graph).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rdflib import Dataset, Graph
from rdflib.namespace import SH
from yili.ontology.errors import InputError
from yili.ontology.vocabulary import default_files, read_graph


@dataclass(frozen=True)
class ValidationResult:
    """The outcome of a SHACL validation.

    Attributes
    ----------
    conforms : bool
    results : list[tuple[str, str, str]]
        ``(focus node, path, message)`` for each violation.
    """

    conforms: bool
    results: list[tuple[str, str, str]]

    def format(self, most: int = 50) -> str:
        """A readable report: the verdict, then one line per violation (at most ``most``)."""
        if self.conforms:
            return "conforms: the graph satisfies every shape in ontology/shapes.ttl"
        lines = [f"does not conform: {len(self.results)} violation(s)"]
        for focus, path, message in self.results[:most]:
            lines.append(f"  {focus}  {path}: {message}")
        if len(self.results) > most:
            lines.append(f"  … and {len(self.results) - most} more")
        return "\n".join(lines)


def shapes_graph() -> Graph:
    """The SHACL shapes (``ontology/shapes.ttl``)."""
    return read_graph([Path(str(resources.files("yili.ontology") / "shapes.ttl"))])


def validate_graph(data: Graph) -> ValidationResult:
    """Validate ``data`` (merged with the ontology and vocabulary) against the shapes.

    Parameters
    ----------
    data : rdflib.Graph
        The built graph (all editions' triples in one graph).

    Returns
    -------
    ValidationResult
    """
    import pyshacl

    merged = Graph()
    for t in data:
        merged.add(t)
    for t in read_graph(default_files()):
        merged.add(t)
    conforms, report, _text = pyshacl.validate(merged, shacl_graph=shapes_graph(), inference="none", advanced=True)
    results = []
    for r in report.subjects(SH.resultSeverity, None):
        focus = report.value(r, SH.focusNode)
        path = report.value(r, SH.resultPath)
        messages = list(report.objects(r, SH.resultMessage))
        english = [str(m) for m in messages if getattr(m, "language", None) == "en"]
        others = sorted(str(m) for m in messages)
        en = english[0] if english else (others[0] if others else "")
        results.append((str(focus), str(path) if path is not None else "-", en))
    results.sort()
    return ValidationResult(bool(conforms), results)


def validate_file(path: str | Path) -> ValidationResult:
    """Validate a graph file (``.ttl``, ``.trig``, ``.nq``, ``.nt``).

    Raises
    ------
    InputError
        The file is missing or not valid RDF.
    """
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{p}: is a directory, not a graph file")
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    fmt = {".ttl": "turtle", ".trig": "trig", ".nq": "nquads", ".nt": "nt"}.get(p.suffix.lower())
    if fmt is None:
        raise InputError(f"{p}: unknown graph file type {p.suffix!r} (expected .ttl, .trig, .nq or .nt)")
    from yili.graph.store import load_file

    load_file(p)  # Oxigraph's parser names the line, the column and what is wrong (InputError)
    try:
        if fmt in ("trig", "nquads"):
            ds = Dataset()
            ds.parse(p, format=fmt)
            g = Graph()
            for s, pr, o, _c in ds.quads((None, None, None, None)):
                g.add((s, pr, o))
        else:
            g = Graph()
            g.parse(p, format=fmt)
    except Exception as exc:  # rdflib raises many parser error types
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{p}: not valid {fmt}: {msg}") from None
    return validate_graph(g)
