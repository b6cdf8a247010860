"""The lookups behind the REST API, written as SPARQL so they run on any SPARQL 1.1 store.

:class:`GraphQueries` asks its store only through :meth:`QueryBackend.select`, so the same REST
API can later run over an external triplestore (a backend that posts the query to a SPARQL 1.1
Protocol endpoint) when a graph outgrows one process.  The built-in backend is Oxigraph in
process (:class:`OxigraphBackend`).

Names given by users (``giver=賓``) are folded to concept IRIs through the vocabulary first, so
賔, 賓 and 宾 all find the guest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pyoxigraph
from yili.ontology.errors import NotFoundError, UnknownTermError
from yili.ontology.namespaces import DEFAULT_BASE, PREFIXES, base_iri
from yili.ontology.vocabulary import Vocabulary

_PREFIX_BLOCK = "\n".join(f"PREFIX {p}: <{ns}>" for p, ns in PREFIXES.items()) + "\n"


class QueryBackend(Protocol):
    """What the lookups need from a store: run a SELECT, get rows of Python values."""

    def select(self, query: str) -> list[dict[str, object]]:
        """Run a SPARQL SELECT; return one dict per solution (variable → int, str or IRI str)."""
        ...


class OxigraphBackend:
    """A :class:`QueryBackend` over an in-process pyoxigraph store (default graph = union)."""

    def __init__(self, store: pyoxigraph.Store) -> None:
        self.store = store

    def select(self, query: str) -> list[dict[str, object]]:
        """Run a SELECT on the store.

        Returns
        -------
        list[dict[str, object]]
            Literals as Python values (xsd:integer → int), IRIs as strings.
        """
        results = self.store.query(query, use_default_graph_as_union=True)
        names = [v.value for v in results.variables]  # type: ignore[union-attr]
        rows = []
        for solution in results:  # type: ignore[union-attr]
            row: dict[str, object] = {}
            for name in names:
                term = solution[name]
                if term is None:
                    row[name] = None
                elif isinstance(term, pyoxigraph.Literal):
                    dt = term.datatype.value if term.datatype else ""
                    row[name] = int(term.value) if dt.endswith(("#integer", "#nonNegativeInteger", "#int")) else term.value
                else:
                    row[name] = term.value
            rows.append(row)
        return rows


@dataclass(frozen=True)
class Page:
    """One page of results.

    Attributes
    ----------
    items : list[dict]
    total : int
        How many results match, over all pages.
    limit, offset : int
    """

    items: list[dict[str, object]]
    total: int
    limit: int
    offset: int


STEP_FIELDS = """
  ?step yk:sequence ?sequence ; yk:blockNumber ?block ; yk:charStart ?char_start ; yk:charEnd ?char_end ;
        yk:text ?text ; yk:actionLabel ?action ; yk:mode ?modeIri ; yk:inEdition ?edition .
  OPTIONAL { ?step yk:agentLabel ?agent }
  OPTIONAL { ?step yk:recipientLabel ?recipient }
  OPTIONAL { ?step yk:objectLabel ?object }
  OPTIONAL { ?step yk:vesselLabel ?vessel }
  OPTIONAL { ?step yk:wineLabel ?wine }
  OPTIONAL { ?step yk:locationLabel ?location }
  OPTIONAL { ?step yk:facingLabel ?facing }
"""


def _sparql_iri(iri: str) -> str:
    if any(c in iri for c in '<>"{}|^`\\ \n'):
        raise UnknownTermError(f"not a usable IRI: {iri!r}")
    return f"<{iri}>"


class GraphQueries:
    """REST lookups over a :class:`QueryBackend`.

    Parameters
    ----------
    backend : QueryBackend
    vocabulary : Vocabulary
        For folding user-given names (any variant) to concept IRIs.
    base : str, optional
        The base IRI the graph was built with.
    """

    def __init__(self, backend: QueryBackend, vocabulary: Vocabulary, base: str | None = None) -> None:
        self.backend = backend
        self.vocabulary = vocabulary
        self.base = base or base_iri()

    def _concept_iri(self, name: str, kind: str) -> str:
        """Fold a user-given name to a concept IRI; raises UnknownTermError naming it."""
        c = self.vocabulary.lookup(name, kind)
        iri = c.iri
        if self.base != DEFAULT_BASE and iri.startswith(DEFAULT_BASE):
            iri = self.base + iri[len(DEFAULT_BASE) :]
        return iri

    def toasts(self, giver: str | None = None, receiver: str | None = None, type: str | None = None) -> list[dict[str, object]]:
        """Who toasts whom, in ritual order.

        Parameters
        ----------
        giver, receiver : str, optional
            A role in any variant form (賔, 賓, 宾 all name the guest).
        type : str, optional
            A toast type: 献/獻, 酢, 酬, 媵, 旅酬, 赐/賜.

        Returns
        -------
        list[dict]
            Each with ``giver``, ``receiver``, ``type``, ``performed_by``, ``step`` (IRI),
            ``sequence``, ``block``, ``text``, ``char_start``, ``char_end`` (code points, 0-based,
            end-exclusive, into the edition text), ``edition`` (IRI).

        Raises
        ------
        UnknownTermError
            A name is not in the vocabulary (HTTP 404, naming it).
        """
        filters = []
        if giver:
            filters.append(f"?step yk:giver {_sparql_iri(self._concept_iri(giver, 'role'))} .")
        if receiver:
            filters.append(f"?step yk:receiver {_sparql_iri(self._concept_iri(receiver, 'role'))} .")
        if type:
            wrong = UnknownTermError(f"unknown toast type {type!r}: expected one of 献, 酢, 酬, 媵, 旅酬, 赐")
            try:
                toast_type = self.vocabulary.lookup(type, "action")
            except UnknownTermError:
                raise wrong from None
            if "action-toast" not in self.vocabulary.broader_closure(toast_type.key) or toast_type.key == "action-toast":
                raise wrong
            filters.append(f"?step yk:toastType {_sparql_iri(self._concept_iri(type, 'action'))} .")
        q = (
            _PREFIX_BLOCK
            + f"""
SELECT ?step ?sequence ?block ?text ?char_start ?char_end ?giver ?receiver ?type ?performed_by ?edition WHERE {{
  ?step a yk:Toast ; yk:sequence ?sequence ; yk:blockNumber ?block ; yk:text ?text ;
        yk:charStart ?char_start ; yk:charEnd ?char_end ; yk:giverLabel ?giver ; yk:receiverLabel ?receiver ;
        yk:toastTypeLabel ?type ; yk:inEdition ?edition .
  OPTIONAL {{ ?step yk:performedByLabel ?performed_by }}
  {" ".join(filters)}
}} ORDER BY ?edition ?sequence"""
        )
        return self.backend.select(q)

    def steps(
        self,
        agent: str | None = None,
        action: str | None = None,
        vessel: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> Page:
        """The steps, in order, filtered and paginated.

        Parameters
        ----------
        agent, action, vessel : str, optional
            Names in any variant form; ``vessel`` matches the cup and every narrower cup
            (爵 finds 觚 and 象觚: skos:broader).
        limit : int
            Page size, 1–1000.
        offset : int
            How many matching steps to skip (≥ 0).

        Returns
        -------
        Page

        Raises
        ------
        UnknownTermError
            A name is not in the vocabulary.
        """
        filters = []
        if agent:
            filters.append(f"?step yk:agent {_sparql_iri(self._concept_iri(agent, 'role'))} .")
        if action:
            filters.append(f"?step yk:action/skos:broader* {_sparql_iri(self._concept_iri(action, 'action'))} .")
        if vessel:
            filters.append(f"?step yk:vessel/skos:broader* {_sparql_iri(self._concept_iri(vessel, 'vessel'))} .")
        where = f"?step a yk:Step ; yk:inEdition ?edition ; yk:sequence ?sequence . {' '.join(filters)}"
        total_rows = self.backend.select(_PREFIX_BLOCK + f"SELECT (COUNT(DISTINCT ?step) AS ?n) WHERE {{ {where} }}")
        total = int(str(total_rows[0]["n"])) if total_rows else 0
        q = (
            _PREFIX_BLOCK
            + f"""
SELECT ?step ?sequence ?block ?char_start ?char_end ?text ?agent ?action ?recipient ?object ?vessel ?wine
       ?location ?facing ?modeIri ?edition WHERE {{
  {{ SELECT DISTINCT ?step ?edition ?sequence WHERE {{ {where} }}
     ORDER BY ?edition ?sequence LIMIT {int(limit)} OFFSET {int(offset)} }}
  {STEP_FIELDS}
}} ORDER BY ?edition ?sequence"""
        )
        items = [_step_row(r) for r in self.backend.select(q)]
        return Page(items, total, limit, offset)

    def step(self, iri: str) -> dict[str, object]:
        """One step with its neighbours, block, phase and commentary.

        Parameters
        ----------
        iri : str
            The step IRI.

        Returns
        -------
        dict
            The step fields plus ``previous``, ``next`` (IRIs or None), ``block_iri``, ``phase``
            (label), ``toast`` (giver/receiver/type or None) and ``commentary`` (list of
            ``{layer, commentator, text, char_start, char_end}``).

        Raises
        ------
        NotFoundError
            If no step has that IRI.
        """
        s = _sparql_iri(iri)
        rows = self.backend.select(
            _PREFIX_BLOCK
            + f"""
SELECT ?step ?sequence ?block ?char_start ?char_end ?text ?agent ?action ?recipient ?object ?vessel ?wine
       ?location ?facing ?modeIri ?edition ?prev ?next ?blockIri ?phase ?giver ?receiver ?type ?repeats WHERE {{
  BIND({s} AS ?step)
  {STEP_FIELDS}
  ?step yk:inBlock ?blockIri .
  OPTIONAL {{ ?step yk:previous ?prev }}
  OPTIONAL {{ ?step yk:next ?next }}
  OPTIONAL {{ ?step yk:inPhase/rdfs:label ?phase }}
  OPTIONAL {{ ?step yk:repeats ?repeats }}
  OPTIONAL {{ ?step a yk:Toast ; yk:giverLabel ?giver ; yk:receiverLabel ?receiver ; yk:toastTypeLabel ?type }}
}} LIMIT 1"""
        )
        if not rows:
            raise NotFoundError(f"no step with IRI {iri}")
        r = rows[0]
        out = _step_row(r)
        out.update(
            {
                "previous": r.get("prev"),
                "next": r.get("next"),
                "block_iri": r.get("blockIri"),
                "phase": r.get("phase"),
                "repeats": r.get("repeats"),
                "toast": {"giver": r["giver"], "receiver": r["receiver"], "type": r["type"]} if r.get("type") else None,
            }
        )
        comments = self.backend.select(
            _PREFIX_BLOCK
            + f"""
SELECT ?c ?layer ?commentator ?text ?char_start ?char_end WHERE {{
  {s} yk:inBlock ?b . ?c yk:comments ?b ; yk:layer/skos:notation ?layer ; yk:text ?text ;
     yk:charStart ?char_start ; yk:charEnd ?char_end .
  OPTIONAL {{ ?c yk:commentator ?commentator }}
}} ORDER BY ?char_start"""
        )
        out["commentary"] = [
            {k: c[k] for k in ("layer", "commentator", "text", "char_start", "char_end")} | {"iri": c["c"]} for c in comments
        ]
        return out

    def phases(self) -> list[dict[str, object]]:
        """The phases of every edition, in order, with their first and last step IRIs."""
        return self.backend.select(
            _PREFIX_BLOCK
            + """
SELECT ?phase ?label ?number ?first ?last ?edition WHERE {
  ?phase a yk:Phase ; rdfs:label ?label ; yk:sequence ?number ; yk:firstStep ?first ; yk:lastStep ?last ;
         yk:inEdition ?edition .
} ORDER BY ?edition ?number"""
        )


def _step_row(r: dict[str, object]) -> dict[str, object]:
    mode = str(r.get("modeIri") or "")
    return {
        "id": r["step"],
        "sequence": r["sequence"],
        "block": r["block"],
        "char_start": r["char_start"],
        "char_end": r["char_end"],
        "text": r["text"],
        "agent": r.get("agent"),
        "action": r.get("action"),
        "recipient": r.get("recipient"),
        "object": r.get("object"),
        "vessel": r.get("vessel"),
        "wine": r.get("wine"),
        "location": r.get("location"),
        "facing": r.get("facing"),
        "mode": mode.rsplit("mode-", 1)[-1] if mode else None,
        "edition": r.get("edition"),
    }
