"""No private name (``_x``) is used across modules: what one module of ``graph/`` or ``api/`` takes from
another is public, with a docstring (issue 21)."""

from __future__ import annotations

import ast
from pathlib import Path

import yili.graph

ROOT = Path(yili.graph.__file__).resolve().parent.parent
PACKAGES = ("ingest", "graph", "api", "ontology")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_a_private_name_of_another():
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.module}.{alias.name}"
        for package in PACKAGES
        for path in sorted((ROOT / package).glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("yili")
        for alias in node.names
        if _private(alias.name)
    ]
    assert found == []


def _outside_modules(tree: ast.AST) -> set[str]:
    """The names a module binds with ``import x`` for a module not of yili (``os``, ``h11``): their
    private names are their own business (h11 has no public name for its default buffer size)."""
    return {
        (alias.asname or alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if not alias.name.startswith("yili")
    }


def test_graph_and_api_read_no_private_attribute_of_another_object():
    """``x._name`` only on ``self`` or ``cls``: not ``queries._prefix_block`` (now ``sparql_prefixes``)."""
    found = []
    for package in ("graph", "api"):
        for path in sorted((ROOT / package).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            allowed = {"self", "cls"} | _outside_modules(tree)
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno} {node.value.id}.{node.attr}"
                for node in ast.walk(tree)
                if isinstance(node, ast.Attribute)
                and _private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id not in allowed
            ]
    assert found == []


def test_the_names_graph_commentary_takes_from_graph_build_are_public_and_documented():
    from yili.graph import build
    from yili.graph.queries import GraphQueries
    from yili.graph.store import is_empty_dir

    for thing in (build.GraphWriter, build.GraphWriter.add, build.Terms, build.literal, build.rebase):
        assert thing.__doc__ and len(thing.__doc__) > 40, thing
    for method in (GraphQueries.rite_iri, GraphQueries.rite_filter, GraphQueries.edition_selection):
        assert "UnknownTermError" in (method.__doc__ or ""), method
    assert is_empty_dir.__doc__
    assert str(build.literal(True)) == '"true"^^<http://www.w3.org/2001/XMLSchema#boolean>'
