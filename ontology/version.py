"""The software's own version, recorded in the graph's provenance and printed by ``yili-kg --version``."""

from __future__ import annotations


def software_version() -> str:
    """The installed version of yili-kg (``0.1.0``), or ``unknown`` when run from a source tree
    that is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("yili-kg")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree that is not installed
        return "unknown"
