"""Load the SKOS vocabulary (``ontology/vocabulary.ttl`` and user files) into plain Python objects.

The vocabulary is data: the roles, actions, vessels, wines, places, facings and objects of the 儀禮
with their variant characters.  This module reads it once with rdflib and hands the rest of the
pipeline a :class:`Vocabulary` of frozen :class:`Concept` records, so that nothing downstream keeps
a second list of terms in Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import SKOS
from yili.ontology.errors import UnknownTermError, VocabularyError
from yili.ontology.namespaces import YK, YKV
from yili.ontology.rites import RiteProfile, rites_from_graph
from yili.ontology.variants import spellings

SCHEMES: dict[str, str] = {
    "roles": "role",
    "actions": "action",
    "vessels": "vessel",
    "wines": "wine",
    "places": "place",
    "facings": "facing",
    "objects": "object",
}
"""Concept scheme local names (under ``ykv:``) and the kind of term each holds."""

ONTOLOGY_FILES: tuple[str, ...] = ("yili.ttl", "vocabulary.ttl", "rites.ttl", "commentary.ttl")
"""The Turtle files of the package read for the vocabulary, in order."""


@dataclass(frozen=True)
class Concept:
    """One term of the vocabulary.

    Attributes
    ----------
    iri : str
        The concept IRI (``https://w3id.org/yili-kg/vocab/role-bin``).
    key : str
        The IRI's local name, stable across builds (``role-bin``).
    kind : str
        ``role``, ``action``, ``vessel``, ``wine``, ``place``, ``facing`` or ``object``.
    hant, hans : str
        ``skos:prefLabel`` in zh-Hant (賓) and zh-Hans (宾).
    labels : frozenset[str]
        Every written form: pref, alt and hidden labels, in both scripts.
    broader : tuple[str, ...]
        Keys of ``skos:broader`` concepts.
    definition : str | None
        The English gloss (``skos:definition``).
    flags : dict
        The ``yk:`` annotation properties that rules read (``rank``, ``attendant``, ``cupAction``,
        ``posture``, ``responsive``, ``speech``, ``recipientRule``, ``doesNotPour``, ``defaultAgent``).
    """

    iri: str
    key: str
    kind: str
    hant: str
    hans: str
    labels: frozenset[str]
    broader: tuple[str, ...] = ()
    definition: str | None = None
    flags: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def flag(self, name: str, default: object = None) -> object:
        """Return the ``yk:NAME`` annotation of this concept, or ``default``."""
        return self.flags.get(name, default)


@dataclass(frozen=True)
class Vocabulary:
    """All concepts, indexed by key and by written form.

    Attributes
    ----------
    concepts : dict[str, Concept]
        By key (``role-bin``).
    by_label : dict[str, tuple[Concept, ...]]
        Every written form (賔, 賓, 宾) to the concepts it can name (one form can name a role and
        an action: 相; a place and an action: 席).
    sources : tuple[str, ...]
        The files read.
    rites : dict[str, RiteProfile]
        The rite profiles (``ontology/rites.ttl``), by key, in chapter order.
    works : dict[str, str]
        Every label of a work of ``ykv:works`` (儀禮述註, 儀禮注疏, 儀禮) → the work's
        ``skos:notation`` (``shuzhu``, ``zhushu``, ``zhengzhu``): the edition key of a text whose
        title names that work (:meth:`edition_key`).
    """

    concepts: dict[str, Concept]
    by_label: dict[str, tuple[Concept, ...]]
    sources: tuple[str, ...]
    rites: dict[str, RiteProfile] = field(default_factory=dict)
    works: dict[str, str] = field(default_factory=dict)

    def edition_key(self, title: str | None) -> str | None:
        """The edition key for a text of this title: the ``skos:notation`` of the work the title
        names, less its 卷 (儀禮述註卷三 → ``shuzhu``; 儀禮注疏 → ``zhushu``), else None.

        >>> load_vocabulary().edition_key("儀禮述註卷三")
        'shuzhu'
        >>> load_vocabulary().edition_key("禮記正義") is None
        True
        """
        if not title:
            return None
        return self.works.get(VOLUME.sub("", title.strip()).strip())

    def of_kind(self, kind: str) -> Iterator[Concept]:
        """Yield the concepts of one kind (``role``, ``action``, ...)."""
        return (c for c in self.concepts.values() if c.kind == kind)

    def lookup(self, name: str, kind: str | None = None) -> Concept:
        """Resolve a written form or a key to its concept, folding variants (賔 = 賓 = 宾).

        Parameters
        ----------
        name : str
            A label in any script or variant, or a concept key.
        kind : str, optional
            Restrict to one kind of term.

        Returns
        -------
        Concept

        Raises
        ------
        UnknownTermError
            If no concept of that kind has that label or key.
        """
        name = name.strip()
        found = [c for c in self.by_label.get(name, ()) if kind is None or c.kind == kind]
        if not found and name in self.concepts and (kind is None or self.concepts[name].kind == kind):
            found = [self.concepts[name]]
        if not found:
            what = f"{kind} " if kind else ""
            raise UnknownTermError(f"unknown {what}name {name!r}: not a label of any {what}concept in the vocabulary")
        return found[0]

    def is_cup(self, key: str) -> bool:
        """True for a drinking cup: a vessel under ``vessel-jue`` (爵, 觚, 觶, 角, 散 …), not a dish,
        a jar or a stand."""
        c = self.concepts.get(key)
        return c is not None and c.kind == "vessel" and "vessel-jue" in self.broader_closure(key)

    def broader_closure(self, key: str) -> set[str]:
        """Return ``key`` and the keys of all its broader concepts (transitively); a fresh set each call."""
        cache: dict[str, frozenset[str]] = self.__dict__.setdefault("_closure_cache", {})
        if key in cache:
            return set(cache[key])
        seen: set[str] = set()
        todo = [key]
        while todo:
            k = todo.pop()
            if k in seen or k not in self.concepts:
                continue
            seen.add(k)
            todo.extend(self.concepts[k].broader)
        cache[key] = frozenset(seen)
        return seen


def _literal_value(node: object) -> object:
    return node.toPython() if isinstance(node, Literal) else node


_INTEGER_FLAGS = frozenset({"rank"})
_BOOLEAN_FLAGS = frozenset(
    {"ascendsFirst", "attendant", "cupAction", "personObject", "speech", "responsive", "posture", "pivot", "readByContext"}
)
_RECIPIENT_RULES = frozenset({"none", "other-party", "superior", "served", "next-in-rank", "answer", "each-other"})
_ON_THE_BODY = frozenset({"object", "recipient"})
_MAX_RANK = 1_000_000


def _checked_flag(key: str, name: str, value: object, sources: tuple[str, ...]) -> object:
    """``value`` of the annotation ``yk:name`` on concept ``key``, if it has the type the rules read
    (``yk:rank`` an integer, ``yk:cupAction`` … a boolean, ``yk:recipientRule`` one of its rules).

    Raises
    ------
    VocabularyError
        ``<files>: ykv:<key>: yk:<name> must be …, not '<value>'``: a user file (``--vocab``) gave a
        value the rules cannot read; the message names the files read besides the packaged ones.
    """
    problem = None
    if name in _INTEGER_FLAGS and (isinstance(value, bool) or not isinstance(value, int) or abs(value) > _MAX_RANK):
        problem = f"an integer between -{_MAX_RANK:,} and {_MAX_RANK:,}"
    elif name in _BOOLEAN_FLAGS and not isinstance(value, bool):
        problem = "true or false"
    elif name == "recipientRule" and value not in _RECIPIENT_RULES:
        problem = "one of " + ", ".join(sorted(_RECIPIENT_RULES))
    elif name == "onTheBody" and value not in _ON_THE_BODY:
        problem = "one of " + ", ".join(sorted(_ON_THE_BODY))
    if problem is None:
        return value
    packaged = {str(f) for f in default_files()}
    named = ", ".join(f for f in sources if f not in packaged) or "the vocabulary"
    shown = str(value)[:60]
    raise VocabularyError(f"{named}: ykv:{key}: yk:{name} must be {problem}, not '{shown}'")


def _local(iri: URIRef) -> str:
    s = str(iri)
    return s.removeprefix(str(YKV))


def default_files() -> list[Path]:
    """Return the paths of the packaged ontology and vocabulary Turtle files."""
    root = resources.files("yili.ontology")
    return [Path(str(root / name)) for name in ONTOLOGY_FILES if (root / name).is_file()]


def read_graph(paths: Iterable[Path | str], shared: bool = False) -> Graph:
    """Parse Turtle files into one rdflib graph.

    With ``shared``, the graph of the same files, unchanged since (path, size, modification time), is
    parsed once per process and the same graph object returned to every such call: a build reads the
    vocabulary twice (the extractor's concepts, the graph's vocabulary), and rdflib's Turtle parser
    takes a second over it.  A caller that asks for it only reads it; without ``shared`` the graph
    is a new one, the caller's to change.

    Raises
    ------
    VocabularyError
        If a file is missing or is not valid Turtle (the message names the file and the parser's
        complaint).
    """
    paths = [Path(path) for path in paths]
    for p in paths:
        if p.is_dir():
            raise VocabularyError(f"{p}: is a directory, not a vocabulary file")
        if not p.is_file():
            raise VocabularyError(f"{p}: vocabulary file not found")
    if not shared:
        return _parse_graph(paths)
    try:
        key = tuple((str(p.resolve()), p.stat().st_size, p.stat().st_mtime_ns) for p in paths)
    except OSError:
        return _parse_graph(paths)
    graph = _GRAPHS.get(key)
    if graph is None:
        graph = _GRAPHS[key] = _parse_graph(paths)
        while len(_GRAPHS) > 8:
            _GRAPHS.pop(next(iter(_GRAPHS)))
    return graph


_GRAPHS: dict[tuple[tuple[str, int, int], ...], Graph] = {}
"""The graphs :func:`read_graph` parsed, by their files' (path, size, modification time); the last 8."""


def _parse_graph(paths: list[Path]) -> Graph:
    """Parse the Turtle files ``paths`` (checked to exist) into a new graph (see :func:`read_graph`)."""
    graph = Graph()
    for p in paths:
        try:
            graph.parse(p, format="turtle")
        except Exception as exc:  # rdflib raises many parser types; the message is what matters
            detail = " ".join(str(exc).split())
            # rdflib's Turtle parser quotes the raw input as Python bytes after "at ^ in:": dropped
            detail = detail.split(" at ^ in:", 1)[0][:300] or type(exc).__name__
            raise VocabularyError(f"{p}: not valid Turtle: {detail}") from None
    return graph


def load_vocabulary(extra: Iterable[Path | str] = ()) -> Vocabulary:
    """Load the packaged vocabulary plus any user vocabulary files (``--vocab FILE``).

    A user file adds concepts, or labels to existing concepts, in the same SKOS form as
    ``ontology/vocabulary.ttl``: ``ykv:X a skos:Concept ; skos:inScheme ykv:roles ;
    skos:prefLabel "…"@zh-Hant, "…"@zh-Hans``.

    Parameters
    ----------
    extra : iterable of path
        User Turtle files, read after the packaged ones.

    Returns
    -------
    Vocabulary

    Raises
    ------
    VocabularyError
        A file is unreadable or not Turtle, or a concept has no scheme we know or no label.
    """
    files = [*default_files(), *(Path(p) for p in extra)]
    graph = read_graph(files, shared=True)  # only read
    return vocabulary_from_graph(graph, tuple(str(f) for f in files))


def vocabulary_from_graph(graph: Graph, sources: tuple[str, ...] = ()) -> Vocabulary:
    """Build a :class:`Vocabulary` from an rdflib graph holding SKOS concepts.

    Raises
    ------
    VocabularyError
        A concept in one of our schemes has no label.
    """
    concepts: dict[str, Concept] = {}
    for scheme, kind in SCHEMES.items():
        # sorted: rdflib's iteration order depends on the hash seed, the vocabulary must not
        for subject in sorted(set(graph.subjects(SKOS.inScheme, YKV[scheme]))):
            if not isinstance(subject, URIRef):
                continue
            key = _local(subject)
            if key in concepts:
                continue
            pref = {lit.language: str(lit) for lit in graph.objects(subject, SKOS.prefLabel) if isinstance(lit, Literal)}
            labels = {
                str(lit) for prop in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel) for lit in graph.objects(subject, prop)
            }
            if not labels:
                raise VocabularyError(f"concept {subject} in ykv:{scheme} has no skos:prefLabel")
            hant = pref.get("zh-Hant") or pref.get("zh-Hans") or sorted(labels)[0]
            hans = pref.get("zh-Hans") or hant
            flags = {}
            for p, o in sorted(graph.predicate_objects(subject)):
                if str(p).startswith(str(YK)):
                    name = str(p)[len(str(YK)) :]
                    flags[name] = _checked_flag(key, name, _local(o) if isinstance(o, URIRef) else _literal_value(o), sources)
            definition = min((str(d) for d in graph.objects(subject, SKOS.definition)), default=None)
            broader = tuple(sorted(_local(b) for b in graph.objects(subject, SKOS.broader) if isinstance(b, URIRef)))
            concepts[key] = Concept(
                iri=str(subject),
                key=key,
                kind=kind,
                hant=hant,
                hans=hans,
                labels=frozenset(labels),
                broader=broader,
                definition=definition,
                flags=flags,
            )
    by_label: dict[str, list[Concept]] = {}
    for c in concepts.values():
        for label in c.labels:
            by_label.setdefault(label, []).append(c)
    # every other spelling of a label (荅拜 for 答拜, 賛者 for 贊者) names the same concepts, unless it
    # is a label of its own
    spelled_as: dict[str, list[Concept]] = {}
    for label in sorted(by_label):
        for s in spellings(label)[1:]:
            if s not in by_label:
                for c in by_label[label]:
                    if c not in spelled_as.setdefault(s, []):
                        spelled_as[s].append(c)
    by_label.update(spelled_as)
    works: dict[str, str] = {}
    for work in sorted(set(graph.subjects(SKOS.inScheme, YKV["works"]))):
        notation = min((str(n) for n in graph.objects(work, SKOS.notation)), default=None)
        if notation is None:
            continue
        for prop in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel):
            for label in sorted(str(x) for x in graph.objects(work, prop)):
                works.setdefault(label, notation)
    return Vocabulary(concepts, {k: tuple(v) for k, v in sorted(by_label.items())}, sources, rites_from_graph(graph), works)


VOLUME = re.compile(r"卷[第苐]?[一二三四五六七八九十百]+$")
"""A 卷 number ending a title (儀禮述註卷三)."""
