"""The lookups behind the REST API, written as SPARQL so they run on any SPARQL 1.1 store.

:class:`GraphQueries` asks its store only through :meth:`QueryBackend.select`, so the same REST
API runs over an external triplestore: :class:`OxigraphBackend` wraps either the embedded Oxigraph
store or a :class:`~yili.graph.remote.SparqlHttpStore`, which posts the query to a SPARQL 1.1
Protocol endpoint (``yili-kg serve --endpoint``).

Names given by users (``giver=賓``) are folded to concept IRIs through the vocabulary first, so
賔, 賓 and 宾 all find the guest.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol

import pyoxigraph
from yili.ontology.errors import NotFoundError, UnknownTermError
from yili.ontology.namespaces import DEFAULT_BASE, PREFIXES, base_iri
from yili.ontology.vocabulary import Vocabulary


def prefix_block(base: str | None = None) -> str:
    """SPARQL ``PREFIX`` lines for :data:`~yili.ontology.namespaces.PREFIXES`, with the project's own
    namespaces (``yk:``, ``ykv:``) moved under ``base`` when the graph was built with another base."""
    b = base or base_iri()
    lines = []
    for p, ns in PREFIXES.items():
        if ns.startswith(DEFAULT_BASE):
            ns = b + ns[len(DEFAULT_BASE) :]
        lines.append(f"PREFIX {p}: <{ns}>")
    return "\n".join(lines) + "\n"


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
  OPTIONAL { ?step yk:page ?page }
"""


def sparql_iri(iri: str) -> str:
    """``iri`` written as a SPARQL IRI term (``<…>``), for putting a caller's IRI into a query.

    Raises
    ------
    UnknownTermError
        ``iri`` holds a character an IRIREF may not (``<>"{}|^`\\``, a space, a line break): a
        hostile or broken IRI never reaches the query (SPARQL 1.1 grammar, IRIREF).
    """
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

    Attributes
    ----------
    sparql_prefixes : str
        The ``PREFIX`` lines every query of the graph starts with (:func:`prefix_block` of ``base``:
        ``yk:`` and ``ykv:`` under the base the graph was built with), for the other modules' queries
        (:mod:`yili.graph.commentary_queries`, :mod:`yili.graph.stages` …) too.
    """

    def __init__(self, backend: QueryBackend, vocabulary: Vocabulary, base: str | None = None) -> None:
        self.backend = backend
        self.vocabulary = vocabulary
        self.base = base or base_iri()
        # yk: and ykv: under the base the graph was built with (``--base-iri`` moves them)
        self.sparql_prefixes = prefix_block(self.base)
        self._index_lock = threading.Lock()
        self._toasts: list[dict[str, object]] | None = None
        self._steps: tuple[list[tuple[str, int, str]], dict[tuple[str, str], list[int]]] | None = None
        self._memo: dict[tuple[object, ...], object] = {}

    def _remembered(self, key: tuple[object, ...], compute):  # type: ignore[no-untyped-def]
        """``compute()`` once per ``key``: the graph is read-only while it is served, so a summary
        over all of it (the rites and their counts, the phases) is asked of the store only once."""
        if key not in self._memo:
            value = compute()
            with self._index_lock:
                self._memo.setdefault(key, value)
        return self._memo[key]

    def _concept_iri(self, name: str, kind: str) -> str:
        """Fold a user-given name to a concept IRI; raises UnknownTermError naming it."""
        c = self.vocabulary.lookup(name, kind)
        iri = c.iri
        if self.base != DEFAULT_BASE and iri.startswith(DEFAULT_BASE):
            iri = self.base + iri[len(DEFAULT_BASE) :]
        return iri

    def rite_iri(self, rite: str) -> str:
        """The IRI of the rite named ``rite`` (any written form: 燕禮, 燕礼, yanli, or a beginning that
        names one rite), under the graph's base.

        Raises
        ------
        UnknownTermError
            No rite has that name (HTTP 404, naming it).
        """
        from yili.ingest.rites import find_rite
        from yili.ontology.errors import InputError
        from yili.ontology.namespaces import mint

        try:
            profile = find_rite(rite, self.vocabulary)
        except InputError as exc:
            raise UnknownTermError(exc.message) from None
        return str(mint("rite", profile.key, base=self.base))

    def rite_filter(self, rite: str | None) -> str:
        """A graph pattern keeping the editions of ``rite`` (any written form: 燕禮, 燕礼, yanli).

        Raises
        ------
        UnknownTermError
            If no rite has that name (HTTP 404, naming it).
        """
        if not rite:
            return ""
        from yili.ingest.rites import find_rite
        from yili.ontology.errors import InputError
        from yili.ontology.namespaces import mint

        try:
            profile = find_rite(rite, self.vocabulary)
        except InputError as exc:
            raise UnknownTermError(exc.message) from None
        return f"?edition yk:editionOf {sparql_iri(str(mint('rite', profile.key, base=self.base)))} ."

    def rites(self) -> list[dict[str, object]]:
        """The rites in the graph, each with its editions and their counts.

        Returns
        -------
        list[dict]
            ``{"rite": IRI, "label": {"zh-Hant", "zh-Hans", "en"}, "editions": [{"edition": IRI,
            "source": file name, "steps": int, "toasts": int}]}``, in the order of the chapters of the
            儀禮 (``yk:chapter`` of the rite's profile in ``ontology/rites.ttl``; a rite with no profile
            last), each rite's editions in the order of their IRIs.
            Counted once (:meth:`_remembered`).
        """
        return self._remembered(("rites",), self._rites)  # type: ignore[no-any-return]

    def _rites(self) -> list[dict[str, object]]:
        rows = self.backend.select(
            self.sparql_prefixes
            + """
SELECT ?rite ?edition ?source (COUNT(DISTINCT ?step) AS ?steps) (COUNT(DISTINCT ?toast) AS ?toasts)
       (SAMPLE(?chapter) AS ?n) WHERE {
  ?edition a yk:Edition ; yk:editionOf ?rite .
  OPTIONAL { ?rite rdfs:seeAlso/yk:chapter ?chapter }
  OPTIONAL { ?edition dcterms:source ?source }
  OPTIONAL { ?step a yk:Step ; yk:inEdition ?edition . OPTIONAL { ?step a yk:Toast . BIND(?step AS ?toast) } }
} GROUP BY ?rite ?edition ?source"""
        )
        # in the order of the chapters, then of the IRIs (sorted here: some stores, Virtuoso, cannot
        # order by an expression over an aggregate)
        rows.sort(key=lambda r: (99 if r.get("n") is None else int(r["n"]), str(r["rite"]), str(r["edition"])))  # type: ignore[call-overload]
        labels = self.backend.select(
            self.sparql_prefixes
            + "SELECT ?rite ?label (LANG(?label) AS ?lang) WHERE { ?rite a yk:Rite ; rdfs:label ?label } ORDER BY ?rite ?lang"
        )
        out: dict[str, dict[str, object]] = {}
        for r in rows:
            entry = out.setdefault(str(r["rite"]), {"rite": r["rite"], "label": {}, "editions": []})
            entry["editions"].append(  # type: ignore[union-attr]
                {"edition": r["edition"], "source": r.get("source"), "steps": r["steps"], "toasts": r["toasts"]}
            )
        for lab in labels:
            if str(lab["rite"]) in out:
                lang = {"zh-hant": "zh-Hant", "zh-hans": "zh-Hans"}.get(str(lab["lang"]).lower(), str(lab["lang"]))
                out[str(lab["rite"])]["label"][lang] = lab["label"]  # type: ignore[index]
        return list(out.values())

    def check_edition(self, rite: str, edition: str) -> None:
        """Raise :class:`NotFoundError` (404) naming ``rite`` (a key: ``shiguanli``) if the graph holds no
        such rite, or ``edition`` (``zhushu``) if the rite has no such edition, listing what it holds."""
        keys = {str(r["rite"]).rsplit("/", 1)[-1]: r for r in self.rites()}
        if rite not in keys:
            raise NotFoundError(f"unknown rite {rite!r}: the graph holds {', '.join(keys) or 'no rite'}")
        editions = [str(e["edition"]).rsplit("/", 1)[-1] for e in keys[rite]["editions"]]  # type: ignore[union-attr]
        if edition not in editions:
            raise NotFoundError(f"unknown edition {edition!r} of the rite {rite}: it has {', '.join(editions)}")

    def _toast_index(self) -> list[dict[str, object]]:
        """Every toast of the graph, read once (one SPARQL query) and kept: the REST lookup
        ``/toasts`` filters this small list instead of asking the store each time.  The graph is
        read-only while it is served.  Rows are in ritual order (edition, then sequence) and carry
        the concept IRIs the filters match (``_giver``, ``_receiver``, ``_type``, ``_rite``)."""
        with self._index_lock:
            if self._toasts is None:
                rows = self.backend.select(
                    self.sparql_prefixes
                    + """
SELECT ?step ?sequence ?block ?text ?char_start ?char_end ?giver ?receiver ?type ?performed_by ?edition
       ?_giver ?_receiver ?_type ?_rite WHERE {
  ?step a yk:Toast ; yk:sequence ?sequence ; yk:blockNumber ?block ; yk:text ?text ;
        yk:charStart ?char_start ; yk:charEnd ?char_end ; yk:toastTypeLabel ?type ; yk:inEdition ?edition .
  OPTIONAL { ?edition yk:editionOf ?_rite }
  OPTIONAL { ?step yk:giver ?_giver }
  OPTIONAL { ?step yk:receiver ?_receiver }
  OPTIONAL { ?step yk:toastType ?_type }
  OPTIONAL { ?step yk:giverLabel ?giver }
  OPTIONAL { ?step yk:receiverLabel ?receiver }
  OPTIONAL { ?step yk:performedByLabel ?performed_by }
} ORDER BY ?edition ?sequence ?step"""
                )
                self._toasts = rows
            return self._toasts

    def toasts(
        self,
        giver: str | None = None,
        receiver: str | None = None,
        type: str | None = None,
        rite: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> Page:
        """Who toasts whom, in ritual order, one page at a time.

        Parameters
        ----------
        giver, receiver : str, optional
            A role in any variant form (賔, 賓, 宾 all name the guest).
        type : str, optional
            A toast type: 献/獻, 酢, 酬, 媵, 旅酬, 赐/賜.
        rite : str, optional
            Only the toasts of this rite (燕禮, 燕礼, yanli).
        limit : int, optional
            Page size (default: every match).
        offset : int
            How many matches to skip.

        Returns
        -------
        Page
            ``items``: each with ``giver``, ``receiver`` (None when the text does not name one),
            ``type``, ``performed_by`` (labels as the edition writes them), ``step`` (IRI),
            ``sequence``, ``block``, ``text``, ``char_start``, ``char_end`` (code points, 0-based,
            end-exclusive, into the edition text), ``edition`` (IRI); ``total``: the matches over all
            pages.

        Raises
        ------
        UnknownTermError
            A name is not in the vocabulary (HTTP 404, naming it).
        """
        wanted: dict[str, str] = {}
        if giver:
            wanted["_giver"] = self._concept_iri(giver, "role")
        if receiver:
            wanted["_receiver"] = self._concept_iri(receiver, "role")
        if type:
            wrong = UnknownTermError(f"unknown toast type {type!r}: expected one of 献, 酢, 酬, 媵, 旅酬, 赐")
            try:
                toast_type = self.vocabulary.lookup(type, "action")
            except UnknownTermError:
                raise wrong from None
            if "action-toast" not in self.vocabulary.broader_closure(toast_type.key) or toast_type.key == "action-toast":
                raise wrong
            wanted["_type"] = self._concept_iri(type, "action")
        if rite:
            wanted["_rite"] = self.rite_iri(rite)
        found = [r for r in self._toast_index() if all(r.get(k) == v for k, v in wanted.items())]
        page = found[offset : None if limit is None else offset + limit]
        items = [{k: v for k, v in r.items() if not k.startswith("_")} for r in page]
        return Page(items, len(found), len(found) if limit is None else limit, offset)

    def steps(
        self,
        agent: str | None = None,
        action: str | None = None,
        vessel: str | None = None,
        limit: int = 50,
        offset: int = 0,
        rite: str | None = None,
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
        rite : str, optional
            Only the steps of this rite (燕禮, 燕礼, yanli).

        Returns
        -------
        Page

        Raises
        ------
        UnknownTermError
            A name is not in the vocabulary.
        """
        wanted: list[tuple[str, str]] = []
        if agent:
            wanted.append(("agent", self._concept_iri(agent, "role")))
        if action:
            wanted.append(("action", self._concept_iri(action, "action")))
        if vessel:
            wanted.append(("vessel", self._concept_iri(vessel, "vessel")))
        if rite:
            wanted.append(("rite", self.rite_iri(rite)))
        steps, postings = self._step_index()
        if wanted:
            matching = set(postings.get(wanted[0], ()))
            for criterion in wanted[1:]:
                matching &= set(postings.get(criterion, ()))
            found = [steps[i] for i in sorted(matching)]
        else:
            found = steps
        chosen = found[offset : offset + limit]
        if not chosen:
            return Page([], len(found), limit, offset)
        values = " ".join(sparql_iri(step) for _edition, _sequence, step in chosen)
        q = (
            self.sparql_prefixes
            + f"""
SELECT ?step ?sequence ?block ?char_start ?char_end ?text ?agent ?action ?recipient ?object ?vessel ?wine
       ?location ?facing ?modeIri ?edition ?page WHERE {{
  VALUES ?step {{ {values} }}
  {STEP_FIELDS}
}} ORDER BY ?edition ?sequence"""
        )
        items = [_step_row(r) for r in self.backend.select(q)]
        return Page(items, len(found), limit, offset)

    def _step_index(self) -> tuple[list[tuple[str, int, str]], dict[tuple[str, str], list[int]]]:
        """Every step of the graph in ritual order (edition IRI, then sequence, then IRI), and for each
        concept the ``/steps`` filters match, the positions of the steps that name it: ``("agent",
        role)``, ``("action", act)`` and ``("vessel", cup)`` with everything broader
        (``skos:broader*``: a 觚 is also a 爵), ``("rite", rite)``.  Read once (the graph is read-only
        while served), so a filtered page costs one small query for its own rows."""
        with self._index_lock:
            if self._steps is None:
                keys: dict[str, tuple[str, int, str]] = {}
                named: dict[str, dict[str, set[str]]] = {}
                for r in self.backend.select(
                    self.sparql_prefixes
                    + "SELECT ?step ?edition ?sequence ?rite WHERE { ?step a yk:Step ; yk:inEdition ?edition ; "
                    "yk:sequence ?sequence . OPTIONAL { ?edition yk:editionOf ?rite } }"
                ):
                    step = str(r["step"])
                    keys[step] = (str(r["edition"]), int(str(r["sequence"])), step)
                    if r.get("rite"):
                        named.setdefault(step, {}).setdefault("rite", set()).add(str(r["rite"]))
                for kind, path in (
                    ("agent", "yk:agent"),
                    ("action", "yk:action/skos:broader*"),
                    ("vessel", "yk:vessel/skos:broader*"),
                ):
                    for r in self.backend.select(
                        self.sparql_prefixes + f"SELECT ?step ?c WHERE {{ ?step a yk:Step ; {path} ?c }}"
                    ):
                        named.setdefault(str(r["step"]), {}).setdefault(kind, set()).add(str(r["c"]))
                ordered = sorted(keys.values())
                postings: dict[tuple[str, str], list[int]] = {}
                for i, (_edition, _sequence, step) in enumerate(ordered):
                    for kind, iris in sorted(named.get(step, {}).items()):
                        for iri in sorted(iris):
                            postings.setdefault((kind, iri), []).append(i)
                self._steps = (ordered, postings)
            return self._steps

    def step(self, iri: str) -> dict[str, object]:
        """One step with its neighbours, block, phase and commentary.

        Parameters
        ----------
        iri : str
            The step IRI.

        Returns
        -------
        dict
            The step fields plus ``previous``, ``next`` (IRIs or None), ``block_iri``, ``block_text``
            (the classic text of its block), ``block_char_start`` and ``block_char_end`` (the block's
            span, so that ``char_start - block_char_start`` places the step in ``block_text`` when it
            holds no print layout; None if the graph lacks them), ``block_mark`` (``[start, end]``: the
            step in ``block_text``, code points, end-exclusive, whatever the layout; see
            :meth:`_mark_in_block`), ``why`` (the rules that decided its fields: :meth:`_step_rules`),
            ``phase`` (label), ``rite`` (IRI), ``toast``
            (giver/receiver/type or None), ``concepts`` (the concepts it names, with English labels:
            :meth:`_step_concepts`) and ``commentary`` (list of
            ``{layer, commentator, text, char_start, char_end}``).

        Raises
        ------
        NotFoundError
            If no step has that IRI.
        """
        s = sparql_iri(iri)
        # the step's IRI written into every pattern, not BIND to ?step: with BIND, Oxigraph joins the
        # OPTIONALs before it narrows ?step to the one step (370 ms on the three-edition corpus; 5 ms so)
        body = f"""
  {STEP_FIELDS}
  ?step yk:inBlock ?blockIri .
  OPTIONAL {{ ?step yk:partOfRite ?rite }}
  # three OPTIONALs, not one of three patterns: Oxigraph plans the joint one as a scan of every
  # block's text (3.8 s on the three-edition corpus), the separate ones as three lookups (13 ms)
  OPTIONAL {{ ?blockIri yk:text ?blockText }}
  OPTIONAL {{ ?blockIri yk:charStart ?blockStart }}
  OPTIONAL {{ ?blockIri yk:charEnd ?blockEnd }}
  OPTIONAL {{ ?step yk:previous ?prev }}
  OPTIONAL {{ ?step yk:next ?next }}
  OPTIONAL {{ ?step yk:inPhase/rdfs:label ?phase }}
  OPTIONAL {{ ?step yk:repeats ?repeats }}
  OPTIONAL {{ ?step a yk:Toast ; yk:toastTypeLabel ?type
             OPTIONAL {{ ?step yk:giverLabel ?giver }} OPTIONAL {{ ?step yk:receiverLabel ?receiver }} }}
""".replace("?step", s)
        rows = self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?sequence ?block ?char_start ?char_end ?text ?agent ?action ?recipient ?object ?vessel ?wine
       ?location ?facing ?modeIri ?edition ?page ?prev ?next ?blockIri ?blockText ?blockStart ?blockEnd ?phase ?giver ?receiver
       ?type ?repeats ?rite WHERE {{ {body} }} LIMIT 1"""
        )
        for r in rows:
            r["step"] = iri
        if not rows:
            raise NotFoundError(f"no step with IRI {iri}")
        r = rows[0]
        out = _step_row(r)
        out.update(
            {
                "previous": r.get("prev"),
                "next": r.get("next"),
                "block_iri": r.get("blockIri"),
                "block_text": r.get("blockText"),
                "block_char_start": r.get("blockStart"),
                "block_char_end": r.get("blockEnd"),
                "phase": r.get("phase"),
                "rite": r.get("rite"),
                "repeats": r.get("repeats"),
                "toast": {"giver": r.get("giver"), "receiver": r.get("receiver"), "type": r["type"]} if r.get("type") else None,
            }
        )
        out["concepts"] = self._step_concepts(iri)
        out["why"] = self._step_rules(iri)
        out["block_mark"] = self._mark_in_block(iri, out.get("block_iri"), out.get("block_text"))
        out["commentary"] = self._block_commentary(s)
        return out

    def _block_commentary(self, step: str) -> list[dict[str, object]]:
        """The commentary on the block of the step written ``step`` (a SPARQL IRI term,
        :func:`sparql_iri`), in the order of its offsets: ``[{"layer", "commentator", "text",
        "char_start", "char_end", "iri"}]`` (offsets in code points, end-exclusive)."""
        comments = self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?c ?layer ?commentator ?text ?char_start ?char_end WHERE {{
  {step} yk:inBlock ?b . ?c yk:comments ?b ; yk:layer/skos:notation ?layer ; yk:text ?text ;
     yk:charStart ?char_start ; yk:charEnd ?char_end .
  OPTIONAL {{ ?c yk:commentator ?commentator }}
}} ORDER BY ?char_start"""
        )
        return [{k: c[k] for k in ("layer", "commentator", "text", "char_start", "char_end")} | {"iri": c["c"]} for c in comments]

    def _step_rules(self, iri: str) -> list[dict[str, object]]:
        """The rules that decided the step's fields (``yk:decidedBy`` and its sub-properties), in the order
        of the fields (:data:`yili.ingest.rules.FIELDS`): ``[{"field", "rule", "iri", "doc", "cites"}]``."""
        from yili.ingest.rules import FIELDS

        rows = self.backend.select(
            self.sparql_prefixes
            + f"""
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?field ?rule ?id ?doc ?cites WHERE {{
  {sparql_iri(iri)} ?p ?rule . ?rule a yk:Rule ; yk:field ?field ; rdfs:label ?id .
  OPTIONAL {{ ?rule rdfs:comment ?doc }} OPTIONAL {{ ?rule dcterms:bibliographicCitation ?cites }}
}}"""
        )
        order = {f: k for k, f in enumerate(FIELDS)}
        out = [
            {"field": r["field"], "rule": r["id"], "iri": r["rule"], "doc": r.get("doc"), "cites": r.get("cites")} for r in rows
        ]
        return sorted(out, key=lambda x: (order.get(str(x["field"]), 99), str(x["rule"])))

    def _step_concepts(self, iri: str) -> dict[str, list[dict[str, object]]]:
        """The concepts the step names, by field, with their English label and definition: ``{field:
        [{"iri", "en", "definition"}]}`` for the fields agent, action, recipient, object, vessel, wine,
        location, facing, and, for a toast, giver, receiver and type; several for a joint party, in IRI
        order; a field the step leaves empty is absent.  The viewer glosses a term by this concept, never
        by its written label (媵 is a role and an act, 祝 a person and a verb)."""
        rows = self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?field ?concept ?en ?definition WHERE {{
  VALUES (?p ?field) {{ (yk:agent "agent") (yk:action "action") (yk:recipient "recipient") (yk:object "object")
                       (yk:vessel "vessel") (yk:wine "wine") (yk:location "location") (yk:facing "facing")
                       (yk:giver "giver") (yk:receiver "receiver") (yk:toastType "type") }}
  {sparql_iri(iri)} ?p ?concept .
  OPTIONAL {{ ?concept skos:prefLabel ?en FILTER(LANG(?en) = "en") }}
  OPTIONAL {{ ?concept skos:definition ?definition }}
}} ORDER BY ?field ?concept ?en ?definition"""
        )
        out: dict[str, list[dict[str, object]]] = {}
        for r in rows:
            found = out.setdefault(str(r["field"]), [])
            if not found or found[-1]["iri"] != r["concept"]:
                found.append({"iri": r["concept"], "en": r.get("en"), "definition": r.get("definition")})
        return out

    def _mark_in_block(self, iri: str, block: object, block_text: object) -> list[int] | None:
        """Where the step ``iri`` stands in the text of its block (``yk:text``, the layout taken out):
        ``[start, end]``, code points into ``block_text``, 0-based, end-exclusive; None when the graph
        lacks the block's text or the step's text is not in it.

        The block's steps are found in it in their order, each from where the one before ended, so a
        step whose words come twice in the block (拜 … 拜) is marked where it stands, not at the first.
        The offsets of the file (``char_start``) cannot place it: the layout taken out shifts them."""
        if not block or not isinstance(block_text, str):
            return None
        rows = self.backend.select(
            self.sparql_prefixes
            + f"SELECT ?step ?text WHERE {{ ?step yk:inBlock {sparql_iri(str(block))} ; yk:sequence ?sequence ; "
            "yk:text ?text } ORDER BY ?sequence"
        )
        at = 0
        for r in rows:
            found = block_text.find(str(r["text"]), at)
            if found < 0:
                found = block_text.find(str(r["text"]))
                if found < 0:
                    continue
            end = found + len(str(r["text"]))
            if r["step"] == iri:
                return [found, end]
            at = end
        return None

    def phases(self, rite: str | None = None) -> list[dict[str, object]]:
        """The phases of every edition (or of one rite's editions), in order, with their first and
        last step IRIs.

        Raises
        ------
        UnknownTermError
            If ``rite`` names no rite.
        """
        pattern = self.rite_filter(rite)  # an unknown rite raises here, before anything is remembered
        return self._remembered(("phases", pattern), lambda: self._phases(pattern))  # type: ignore[no-any-return]

    def _phases(self, rite_pattern: str) -> list[dict[str, object]]:
        return self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?phase ?label ?number ?first ?last ?edition WHERE {{
  ?phase a yk:Phase ; rdfs:label ?label ; yk:sequence ?number ; yk:firstStep ?first ; yk:lastStep ?last ;
         yk:inEdition ?edition .
  {rite_pattern}
}} ORDER BY ?edition ?number"""
        )

    def edition_selection(self, rite: str | None, edition: str | None) -> str:
        """A graph pattern binding ``?edition`` and ``?rite`` to the editions selected by ``rite`` and
        ``edition`` (the edition's key, the last segment of its IRI: ``shuzhu-excerpt``), for a query's
        ``WHERE`` clause; both None select every edition.

        Raises
        ------
        UnknownTermError
            No rite has the name ``rite`` (HTTP 404, naming it).
        """
        pattern = "?edition a yk:Edition ; yk:editionOf ?rite . " + self.rite_filter(rite)
        if edition:
            pattern += f" FILTER(STRENDS(STR(?edition), {_sparql_string('/' + edition)}))"
        return pattern

    def editions(self, rite: str | None = None, edition: str | None = None) -> list[dict[str, object]]:
        """The editions selected by ``rite`` and ``edition``: ``{"edition": IRI, "rite": IRI}`` in IRI order.

        Raises
        ------
        UnknownTermError
            ``rite`` names no rite.
        """
        return self.backend.select(
            self.sparql_prefixes + f"SELECT ?edition ?rite WHERE {{ {self.edition_selection(rite, edition)} }} ORDER BY ?edition"
        )

    def network_toasts(self, rite: str | None = None, edition: str | None = None) -> list[dict[str, object]]:
        """Every toast of the selected editions with the concept IRIs of its parties, one row per
        toast (``yk:giver`` and ``yk:receiver`` are functional), in ritual order (edition, then
        sequence): the edges of the toast network.  A toast whose giver or receiver the text does not
        name is here too, with None for that party.

        Returns
        -------
        list[dict]
            ``step``, ``edition``, ``rite`` (IRIs), ``sequence``, ``block``, ``text``, ``char_start``,
            ``char_end`` (code points), ``giver``, ``receiver`` (concept IRIs, None if not named),
            ``type`` (concept IRI), ``type_label``
            (as written: 献), ``giver_label`` and ``receiver_label`` (the toast's parties as written,
            ``下大夫二人``, joint ones as ``賔+卿``), ``vessel`` / ``vessel_label`` and ``wine`` / ``wine_label`` (None if not
            written), ``phase_label``.

        Raises
        ------
        UnknownTermError
            ``rite`` names no rite.
        """
        chosen = self.editions(rite, edition)
        if not chosen:
            return []
        # the selected editions as VALUES: with the selection's FILTER in the same pattern, Oxigraph read
        # every toast of the corpus first (1.1 s for one edition); so, a few milliseconds
        values = " ".join(f"({sparql_iri(str(e['edition']))} {sparql_iri(str(e['rite']))})" for e in chosen)
        return self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?step ?edition ?rite ?sequence ?block ?text ?char_start ?char_end ?giver ?receiver ?type ?type_label
       ?giver_label ?receiver_label ?vessel ?vessel_label ?wine ?wine_label ?phase_label WHERE {{
  VALUES (?edition ?rite) {{ {values} }}
  ?step a yk:Toast ; yk:inEdition ?edition ; yk:sequence ?sequence ; yk:blockNumber ?block ; yk:text ?text ;
        yk:charStart ?char_start ; yk:charEnd ?char_end ; yk:toastType ?type ; yk:toastTypeLabel ?type_label .
  # every toast, also one whose giver or receiver the text does not name (no yk:giver / yk:receiver)
  OPTIONAL {{ ?step yk:giver ?giver }}
  OPTIONAL {{ ?step yk:receiver ?receiver }}
  OPTIONAL {{ ?step yk:giverLabel ?giver_label }}
  OPTIONAL {{ ?step yk:receiverLabel ?receiver_label }}
  OPTIONAL {{ ?step yk:vessel ?vessel ; yk:vesselLabel ?vessel_label }}
  OPTIONAL {{ ?step yk:wine ?wine ; yk:wineLabel ?wine_label }}
  OPTIONAL {{ ?step yk:inPhase/rdfs:label ?phase_label }}
}} ORDER BY ?edition ?sequence ?giver ?receiver"""
        )

    def chain_steps(self, rite: str | None = None, edition: str | None = None) -> list[dict[str, object]]:
        """Every step of the selected editions, in order (edition, then sequence), with its fields as
        written (:data:`STEP_FIELDS`), its phase (``phase``, ``phase_number``, ``phase_label``), its
        stage of 楊復's 儀禮圖 where the graph has one (``stage``, ``stage_number``, ``stage_label``; None
        otherwise) and ``rite``: the nodes of the step chain.  The concepts behind the written labels come from
        :meth:`step_concepts`.

        Raises
        ------
        UnknownTermError
            ``rite`` names no rite.
        """
        rows = self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?step ?sequence ?block ?char_start ?char_end ?text ?agent ?action ?recipient ?object ?vessel ?wine
       ?location ?facing ?modeIri ?edition ?page ?rite ?phase ?phase_number ?phase_label
       ?stage ?stage_number ?stage_label WHERE {{
  {self.edition_selection(rite, edition)}
  ?step a yk:Step ; yk:inEdition ?edition .
  {STEP_FIELDS}
  OPTIONAL {{ ?step yk:inPhase ?phase . ?phase yk:sequence ?phase_number ; rdfs:label ?phase_label }}
  OPTIONAL {{ ?step yk:inStage ?stage . ?stage yk:sequence ?stage_number ; rdfs:label ?stage_label }}
}} ORDER BY ?edition ?sequence"""
        )
        keys = ("rite", "phase", "phase_number", "phase_label", "stage", "stage_number", "stage_label")
        return [_step_row(r) | {k: r.get(k) for k in keys} for r in rows]

    def step_concepts(self, rite: str | None = None, edition: str | None = None) -> list[dict[str, object]]:
        """The concepts each selected step names: ``{"step", "property", "concept"}`` (IRIs; property
        one of agent, action, recipient, vessel, wine, location, facing), sorted.

        Raises
        ------
        UnknownTermError
            ``rite`` names no rite.
        """
        rows = self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?step ?property ?concept WHERE {{
  {self.edition_selection(rite, edition)}
  ?step a yk:Step ; yk:inEdition ?edition .
  VALUES (?p ?property) {{ (yk:agent "agent") (yk:action "action") (yk:recipient "recipient") (yk:vessel "vessel")
                          (yk:wine "wine") (yk:location "location") (yk:facing "facing") }}
  ?step ?p ?concept .
}} ORDER BY ?step ?property ?concept"""
        )
        return rows

    def written_role_labels(self, rite: str | None = None, edition: str | None = None) -> dict[str, str]:
        """Role concept IRI → the form the selected editions write most often for it, counted where a
        step names that role alone as its agent or recipient (賔 in the excerpt, 賓 in a traditional
        text); ties go to the first in code point order.

        Raises
        ------
        UnknownTermError
            ``rite`` names no rite.
        """
        chosen = self.editions(rite, edition)
        if not chosen:
            return {}
        values = " ".join(sparql_iri(str(e["edition"])) for e in chosen)  # as in network_toasts
        rows = self.backend.select(
            self.sparql_prefixes
            + f"""
SELECT ?concept ?label (COUNT(*) AS ?n) WHERE {{
  VALUES ?edition {{ {values} }}
  ?step yk:inEdition ?edition .
  {{ ?step yk:agent ?concept ; yk:agentLabel ?label }} UNION {{ ?step yk:recipient ?concept ; yk:recipientLabel ?label }}
  FILTER(!CONTAINS(?label, "+") && !CONTAINS(?label, "|"))
}} GROUP BY ?concept ?label ORDER BY ?concept DESC(?n) ?label"""
        )
        best: dict[str, str] = {}
        for r in rows:
            best.setdefault(str(r["concept"]), str(r["label"]))
        return best

    def concept_labels(self) -> dict[str, dict[str, str]]:
        """Every concept's ``skos:prefLabel`` by language: IRI → ``{"en": …, "zh-Hant": …, …}`` (one
        label per language, the first in code point order when there are several).  Read once
        (:meth:`_remembered`): the graph is read-only while served."""
        return self._remembered(("concept_labels",), self._concept_labels)  # type: ignore[no-any-return]

    def _concept_labels(self) -> dict[str, dict[str, str]]:
        rows = self.backend.select(
            self.sparql_prefixes
            + "SELECT ?c ?label (LANG(?label) AS ?lang) WHERE { ?c skos:prefLabel ?label } ORDER BY ?c ?lang ?label"
        )
        out: dict[str, dict[str, str]] = {}
        for r in rows:
            out.setdefault(str(r["c"]), {}).setdefault(str(r["lang"]), str(r["label"]))
        return out


def _sparql_string(value: str) -> str:
    """A SPARQL string literal for any text (quotes, backslashes and line ends escaped)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


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
        "page": r.get("page"),
    }
