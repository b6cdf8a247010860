"""Classes of acts that the rules of the extractor ask about (motion, posture, setting out, pouring …),
read from ``ontology/act_classes.ttl``.

A class is a ``skos:Collection`` of concepts of the vocabulary (``ontology/vocabulary.ttl``), with an
English name (``skos:prefLabel``), what it is for and the text it rests on (``skos:definition``), and its
members (``skos:member``).  The rules hold no list of concept keys of their own: each asks
:func:`act_class` for a class by its key (``acts-motion``), so that a class is said once, in data, and
a search for its key finds every rule that reads it::

    MOTION_VERBS = act_class("acts-motion")

The file is read once, at the first call (with rdflib), apart from the published vocabulary: it is not part
of the graph a build writes, and a user vocabulary (``--vocab``) does not change it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from rdflib import Graph, Literal, URIRef
from yili.ontology.errors import VocabularyError

ACT_CLASSES_FILE = "act_classes.ttl"
"""The file of the classes, in the package ``yili.ontology``."""

_YKV = "https://w3id.org/yili-kg/vocab/"
_SKOS = "http://www.w3.org/2004/02/skos/core#"
_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


@dataclass(frozen=True)
class ActClass:
    """One class of acts (or of things).

    Attributes
    ----------
    key : str
        The IRI's local name under ``ykv:`` (``acts-motion``, ``things-meat-stand``).
    label : str
        The English name (``skos:prefLabel`` in ``@en``): ``motion``.
    definition : str
        What the class is for in the rules and the text it is read from (``skos:definition``).
    members : frozenset[str]
        The concept keys of its members (``action-sheng``, ``action-jiang`` …).
    """

    key: str
    label: str
    definition: str
    members: frozenset[str]


@functools.cache
def act_classes() -> dict[str, ActClass]:
    """Every class of ``ontology/act_classes.ttl``, by key, in key order.

    Returns
    -------
    dict[str, ActClass]

    Raises
    ------
    VocabularyError
        The file is missing or not valid Turtle, or a class lacks its English name, its definition or
        its members, or has a member that is not a concept IRI of the vocabulary (``ykv:…``); the
        message names the file and the class.
    """
    path = resources.files("yili.ontology") / ACT_CLASSES_FILE
    g = Graph()
    try:
        g.parse(data=path.read_text(encoding="utf-8"), format="turtle")
    except Exception as exc:  # rdflib raises many kinds on bad Turtle; OSError for a missing file
        detail = " ".join(str(exc).split()).split(" at ^ in:", 1)[0][:300] or type(exc).__name__
        raise VocabularyError(f"{ACT_CLASSES_FILE}: cannot read the classes of acts: {detail}") from None
    return classes_from_graph(g)


def classes_from_graph(g: Graph) -> dict[str, ActClass]:
    """The classes (``skos:Collection``) of an rdflib graph ``g``, by key, in key order.

    Raises
    ------
    VocabularyError
        A class is not under ``ykv:``, lacks an English ``skos:prefLabel``, a ``skos:definition`` or a
        ``skos:member``, or has a member that is not a ``ykv:`` IRI (the message names the class).
    """
    found: dict[str, ActClass] = {}
    for s in sorted(g.subjects(URIRef(_RDF_TYPE), URIRef(_SKOS + "Collection"))):
        where = f"{ACT_CLASSES_FILE}: {s}"
        if not isinstance(s, URIRef) or not str(s).startswith(_YKV):
            raise VocabularyError(f"{where}: a class of acts needs an IRI under {_YKV}")
        key = str(s)[len(_YKV) :]
        labels = sorted(
            str(o) for o in g.objects(s, URIRef(_SKOS + "prefLabel")) if isinstance(o, Literal) and o.language == "en"
        )
        definitions = sorted(str(o) for o in g.objects(s, URIRef(_SKOS + "definition")))
        members = sorted(g.objects(s, URIRef(_SKOS + "member")))
        if not labels or not definitions or not members:
            raise VocabularyError(f"{where}: a class of acts needs an English skos:prefLabel, a skos:definition and skos:member")
        bad = [str(m) for m in members if not isinstance(m, URIRef) or not str(m).startswith(_YKV)]
        if bad:
            raise VocabularyError(f"{where}: skos:member {bad[0]} is not a concept of the vocabulary ({_YKV}…)")
        found[key] = ActClass(key, labels[0], definitions[0], frozenset(str(m)[len(_YKV) :] for m in members))
    return found


def act_class(key: str) -> frozenset[str]:
    """The concept keys of the members of class ``key`` (``acts-pouring`` → ``{"action-zhuo",
    "action-shi-fill"}``), to test membership with ``in``; never iterate it where order matters.

    >>> sorted(act_class("acts-pouring"))
    ['action-shi-fill', 'action-zhuo']

    Raises
    ------
    VocabularyError
        ``act_classes.ttl: no class ykv:KEY``: no such class (a misspelt key in a rule), or the file
        cannot be read (:func:`act_classes`).
    """
    try:
        return act_classes()[key].members
    except KeyError:
        raise VocabularyError(f"{ACT_CLASSES_FILE}: no class ykv:{key}") from None
