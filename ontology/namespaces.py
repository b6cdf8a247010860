"""Namespaces of the graph, declared once, and the one function that mints IRIs.

Every IRI the project writes is made here (``mint``) from stable keys: the rite, the edition (the
work's notation: ``shuzhu``), a place in the text's own structure (classic block, ordinal), a term id.
Rebuilding the same text therefore gives the same IRIs, and a scholar
can cite a step by its IRI.

The base IRI defaults to :data:`DEFAULT_BASE` and can be changed with the environment variable
``YILI_BASE_IRI`` or ``--base-iri`` on the CLI; the ontology (``yk:``) and vocabulary (``ykv:``)
IRIs in the Turtle files are written under the default base and are rewritten on load when another
base is chosen (see :func:`rebase`).
"""

from __future__ import annotations

import os
import re
from urllib.parse import quote

from rdflib import Namespace, URIRef
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SH, SKOS, XSD
from yili.ontology.errors import InputError

DEFAULT_BASE = "https://w3id.org/yili-kg/"
"""The default base IRI: every IRI the project mints starts with it."""

YK = Namespace(DEFAULT_BASE + "ontology#")
"""The ontology: classes and properties (``yk:Step``, ``yk:agent``, ...)."""

YKV = Namespace(DEFAULT_BASE + "vocab/")
"""The vocabulary: SKOS concepts for roles, actions, vessels, places, ... (``ykv:role-bin``)."""

OA = Namespace("http://www.w3.org/ns/oa#")
"""W3C Web Annotation vocabulary: text position and quote selectors for source spans."""

PPLAN = Namespace("http://purl.org/net/p-plan#")
"""P-Plan: a rite is a ``p-plan:Plan``, a step a ``p-plan:Step``."""

CRM = Namespace("http://www.cidoc-crm.org/cidoc-crm/")
"""CIDOC-CRM, for alignments only."""

CITO = Namespace("http://purl.org/spar/cito/")
"""CiTO, the Citation Typing Ontology: a commentary statement ``cito:cites`` the work and passage it quotes."""

SPDX = Namespace("http://spdx.org/rdf/terms#")
"""The SPDX vocabulary, for an input file's checksum (``spdx:checksum``, ``spdx:checksumValue``)."""

PREFIXES: dict[str, str] = {
    "yk": str(YK),
    "ykv": str(YKV),
    "skos": str(SKOS),
    "rdfs": str(RDFS),
    "rdf": str(RDF),
    "owl": str(OWL),
    "xsd": str(XSD),
    "prov": str(PROV),
    "p-plan": str(PPLAN),
    "oa": str(OA),
    "dcterms": str(DCTERMS),
    "sh": str(SH),
    "crm": str(CRM),
    "spdx": str(SPDX),
    "cito": str(CITO),
}
"""Prefixes bound in every graph and exported Turtle file, and offered to SPARQL users."""


_BASE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"{}|\\^`?#]+")


def check_base(value: str) -> str:
    """Check a base IRI and return it ending in ``/``.

    Every minted IRI is the base followed by a path (``step/yanli/…``) and the ontology's is the
    base followed by ``ontology#``, so the base must be a hierarchical IRI with no query or
    fragment: ``https://example.org/kg/``.  A missing final ``/`` is added.

    Raises
    ------
    InputError
        If ``value`` is not such an IRI (the message names it).

    Examples
    --------
    >>> check_base("https://example.org/kg")
    'https://example.org/kg/'
    """
    if not _BASE.fullmatch(value):
        raise InputError(
            f"base IRI {value!r}: expected an absolute http(s)-style IRI without spaces, query or fragment, "
            "such as https://example.org/kg/"
        )
    return value if value.endswith("/") else value + "/"


def base_iri() -> str:
    """Return the base IRI in force: ``$YILI_BASE_IRI`` if set, else :data:`DEFAULT_BASE`.

    Returns
    -------
    str
        An absolute IRI ending in ``/``.

    Raises
    ------
    InputError
        If ``$YILI_BASE_IRI`` is not a usable base (see :func:`check_base`).
    """
    return check_base(os.environ.get("YILI_BASE_IRI", DEFAULT_BASE))


def mint(kind: str, *keys: object, base: str | None = None) -> URIRef:
    """Mint the IRI of a resource from stable keys; the only place IRIs are made.

    Parameters
    ----------
    kind : str
        The resource type as a path segment: ``"rite"``, ``"text"`` (an edition of a rite),
        ``"block"``, ``"step"``, ``"commentary"``, ``"phase"``, ``"graph"`` (a named graph).
    *keys : object
        Stable keys, in order, e.g. ``("yanli", "shuzhu-excerpt", 3, 2)`` for the second step of
        classic block 3 of the 述注 excerpt of the 燕礼.  Each is percent-encoded as a segment.
    base : str, optional
        The base IRI; defaults to :func:`base_iri`.

    Returns
    -------
    rdflib.URIRef

    Examples
    --------
    >>> str(mint("step", "yanli", "shuzhu-excerpt", 3, 2, base="https://example.org/"))
    'https://example.org/step/yanli/shuzhu-excerpt/3/2'
    """
    root = base if base is not None else base_iri()
    parts = [k if type(k) is str and _UNRESERVED.match(k) else _segment(k) for k in keys]
    return URIRef(root + "/".join([kind, *parts]))


_UNRESERVED = re.compile(r"[A-Za-z0-9\-_.~]*\Z")
"""A key made of RFC 3986 unreserved characters only, which percent-encoding leaves as it is."""


def _segment(key: object) -> str:
    """A key percent-encoded as one path segment (RFC 3986: all but the unreserved characters)."""
    if type(key) is int:
        return str(key)  # digits and a minus sign: unreserved
    return quote(str(key), safe="-_.~")


def rebase(iri: str, base: str) -> str:
    """Rewrite an IRI minted under :data:`DEFAULT_BASE` to lie under ``base``; others unchanged.

    Parameters
    ----------
    iri : str
    base : str

    Returns
    -------
    str

    Examples
    --------
    >>> rebase("https://w3id.org/yili-kg/vocab/role-bin", "https://example.org/kg/")
    'https://example.org/kg/vocab/role-bin'
    """
    if base != DEFAULT_BASE and iri.startswith(DEFAULT_BASE):
        return base + iri[len(DEFAULT_BASE) :]
    return iri
