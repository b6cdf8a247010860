"""Views of the graph for graph tools and readers, and the files they are written to.

Two views are built with networkx from the RDF graph (through :class:`~yili.graph.queries.GraphQueries`,
so they work on any store the API serves):

* the **toast network** (:func:`toast_network`): roles as nodes, each toast (献, 酢, 酬 …) an edge from
  giver to receiver with its type, order, cup, wine, step IRI and text;
* the **step chain** (:func:`step_chain`): the steps of each edition as nodes in ritual order, linked by
  ``next``, with agent, action, recipient, cup, place, facing and phase as attributes (no role hubs).

Every node and edge has ``label`` (Chinese, as the edition writes it) and ``label_en`` (an English
gloss from the vocabulary's ``skos:prefLabel@en``).  Attribute values are strings or integers, one
type per attribute name, and absent (not empty) where the text says nothing, as GraphML and GEXF
require.

:data:`FORMATS` lists the files each view is written to; :func:`export` writes one.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

import pyoxigraph
from yili.graph.queries import GraphQueries
from yili.ontology.errors import InputError, NotFoundError

if TYPE_CHECKING:  # networkx is imported where a view is made: a server that exports nothing never loads it
    import networkx as nx

CJK_FONT = "Noto Sans CJK SC"
"""The font DOT files name for every label (Debian ``fonts-noto-cjk``; it covers traditional and
simplified characters).  Graphviz falls back to its default font where it is not installed."""

UNNAMED = "unnamed"
"""The node of the toast network that stands for a giver or receiver the text does not name (鄉射禮
獻獲者: whom the 司馬 presents to is read, but some toasts name only one party): every toast is an
edge, so a network has as many edges as ``/toasts`` lists toasts for its selection."""

VIEWS = ("toasts", "steps")
"""The two views: the toast network and the step chain."""

_EN_FALLBACK = "(no English gloss)"


def _en(labels: dict[str, dict[str, str]], iri: object) -> str:
    """The English prefLabel of a concept, or a marker that it has none (never empty)."""
    if iri is None:
        return ""
    return labels.get(str(iri), {}).get("en", _EN_FALLBACK)


def _clean(data: dict[str, Any]) -> dict[str, Any]:
    """Drop None values: an attribute the text does not give is absent, not an empty string."""
    return {k: v for k, v in data.items() if v is not None}


def toast_network(queries: GraphQueries, rite: str | None = None, edition: str | None = None) -> nx.MultiDiGraph:
    """The toast network: who toasts whom.

    Parameters
    ----------
    queries : GraphQueries
        The graph to read.
    rite : str, optional
        Only this rite (any written form: 燕禮, 燕礼, yanli).
    edition : str, optional
        Only the edition with this key (the last segment of its IRI, ``shuzhu-excerpt``).

    Returns
    -------
    networkx.MultiDiGraph
        Nodes are role concept IRIs with ``kind="role"``, ``label`` (the form the editions write most
        often: 賔), ``label_en`` (guest), ``iri``: one node per concept, whatever the spelling (賔 and
        賓 are one guest), and the node :data:`UNNAMED` (``kind="unnamed"``) for a party the text does
        not name.  Each toast is one edge (its one giver and one receiver),
        keyed by its step IRI, with ``kind="toast"``, ``toast_type`` and ``label`` (献 as written),
        ``label_en`` (the type's gloss), ``order`` (1, 2, … over the view, in ritual order),
        ``giver`` and ``receiver`` (the parties as this toast writes them: 下大夫二人 for the role 媵爵者),
        ``sequence`` (the step's number in its edition), ``block``, ``step`` (IRI), ``text``,
        ``char_start``/``char_end`` (code points into the edition), ``edition``, ``rite``, and where
        written ``cup``/``cup_en``, ``wine``/``wine_en``, ``phase``.  The graph attribute ``name``
        says what it is.

    Raises
    ------
    UnknownTermError
        ``rite`` names no rite.
    """
    import networkx as nx

    labels = queries.concept_labels()
    written = queries.written_role_labels(rite, edition)
    g = nx.MultiDiGraph(name=f"toast network ({_selection_name(rite, edition)})")
    order: dict[str, int] = {}
    for row in queries.network_toasts(rite, edition):
        step = str(row["step"])
        order.setdefault(step, len(order) + 1)
        giver = str(row["giver"]) if row.get("giver") else UNNAMED
        receiver = str(row["receiver"]) if row.get("receiver") else UNNAMED
        for role in (giver, receiver):
            if role not in g:
                if role == UNNAMED:
                    g.add_node(role, kind="unnamed", label=UNNAMED, label_en="a party the text does not name")
                    continue
                zh = written.get(role) or labels.get(role, {}).get("zh-Hant") or role.rsplit("/", 1)[-1]
                g.add_node(role, kind="role", label=zh, label_en=_en(labels, role), iri=role)
        g.add_edge(
            giver,
            receiver,
            key=step,
            **_clean(
                {
                    "kind": "toast",
                    "toast_type": row["type_label"],
                    "label": row["type_label"],
                    "label_en": _en(labels, row["type"]),
                    "order": order[step],
                    "giver": row["giver_label"],
                    "receiver": row["receiver_label"],
                    "sequence": row["sequence"],
                    "block": row["block"],
                    "step": step,
                    "text": row["text"],
                    "char_start": row["char_start"],
                    "char_end": row["char_end"],
                    "edition": row["edition"],
                    "rite": row["rite"],
                    "cup": row.get("vessel_label"),
                    "cup_en": _en(labels, row.get("vessel")) or None,
                    "wine": row.get("wine_label"),
                    "wine_en": _en(labels, row.get("wine")) or None,
                    "phase": row.get("phase_label"),
                }
            ),
        )
    return g


_CONCEPT_FIELDS = ("agent", "action", "recipient", "vessel", "wine", "location", "facing")


def step_chain(queries: GraphQueries, rite: str | None = None, edition: str | None = None) -> nx.DiGraph:
    """The step chain: the steps of each selected edition in ritual order.

    Parameters
    ----------
    queries : GraphQueries
    rite, edition : str, optional
        As for :func:`toast_network`.

    Returns
    -------
    networkx.DiGraph
        Nodes are step IRIs with ``kind="step"``, ``label`` (the step's text), ``label_en`` (agent —
        action — recipient glossed: ``host — xian (present a cup) — guest``), ``sequence``, ``block``,
        ``char_start``, ``char_end``, ``edition``, ``rite``, ``mode``, and where written ``agent``,
        ``action``, ``recipient``, ``object``, ``cup``, ``wine``, ``place``, ``facing`` (as written)
        with ``*_en`` glosses, ``phase`` (label) and ``phase_number``, ``stage`` (楊復's title) and
        ``stage_number`` where the graph has 儀禮圖's stages for the rite, and ``page`` (the edition's page
        the step begins on) where the edition marks its pages.  Edges ``next`` join each step
        to the one after it in the same edition (``label`` 次, ``label_en`` next).

    Raises
    ------
    UnknownTermError
        ``rite`` names no rite.
    """
    import networkx as nx

    labels = queries.concept_labels()
    concepts: dict[str, dict[str, list[str]]] = {}
    for row in queries.step_concepts(rite, edition):
        concepts.setdefault(str(row["step"]), {}).setdefault(str(row["property"]), []).append(str(row["concept"]))
    g = nx.DiGraph(name=f"step chain ({_selection_name(rite, edition)})")
    previous: tuple[object, str] | None = None
    for row in queries.chain_steps(rite, edition):
        step = str(row["id"])
        named = concepts.get(step, {})
        gloss = {f: "; ".join(_en(labels, c) for c in named.get(f, [])) or None for f in _CONCEPT_FIELDS}
        label_en = " — ".join(x for x in (gloss["agent"] or "?", gloss["action"], gloss["recipient"]) if x)
        g.add_node(step, **_step_node(row, step, gloss, label_en))
        if previous is not None and previous[0] == row["edition"]:
            g.add_edge(previous[1], step, kind="next", label="次", label_en="next")
        previous = (row["edition"], step)
    return g


def _step_node(row: dict[str, Any], step: str, gloss: dict[str, str | None], label_en: str) -> dict[str, Any]:
    """The attributes of the node of step ``step`` (its IRI) in :func:`step_chain`, from its row of
    :meth:`GraphQueries.chain_steps`, the English glosses of its concepts by field (``gloss``) and its
    English label; the fields the step lacks are left out (:func:`_clean`)."""
    return _clean(
        {
            "kind": "step",
            "label": row["text"],
            "label_en": label_en,
            "text": row["text"],
            "iri": step,
            "sequence": row["sequence"],
            "block": row["block"],
            "char_start": row["char_start"],
            "char_end": row["char_end"],
            "edition": row["edition"],
            "rite": row["rite"],
            "mode": row["mode"],
            "agent": row["agent"],
            "agent_en": gloss["agent"],
            "action": row["action"],
            "action_en": gloss["action"],
            "recipient": row["recipient"],
            "recipient_en": gloss["recipient"],
            "object": row["object"],
            "cup": row["vessel"],
            "cup_en": gloss["vessel"],
            "wine": row["wine"],
            "wine_en": gloss["wine"],
            "place": row["location"],
            "place_en": gloss["location"],
            "facing": row["facing"],
            "facing_en": gloss["facing"],
            "phase": row["phase_label"],
            "phase_number": row["phase_number"],
            "page": row["page"],
            # 楊復's stage (節), where the graph was built with 儀禮圖 and covers the rite
            **({"stage": row["stage_label"], "stage_number": row["stage_number"]} if row.get("stage_label") else {}),
        }
    )


def _selection_name(rite: str | None, edition: str | None) -> str:
    return " ".join(x for x in (rite, edition) if x) or "all rites"


def view(queries: GraphQueries, name: str, rite: str | None = None, edition: str | None = None) -> nx.Graph:
    """The view called ``name`` (``toasts`` or ``steps``).

    Raises
    ------
    InputError
        ``name`` is not a view.
    UnknownTermError
        ``rite`` names no rite.
    """
    if name == "toasts":
        return toast_network(queries, rite, edition)
    if name == "steps":
        return step_chain(queries, rite, edition)
    raise InputError(f"unknown view {name!r}: expected one of {', '.join(VIEWS)}")


# --- writers: each takes the view and returns the file's bytes -----------------------------------


def _xml_bytes(write: Callable[[io.BytesIO], None]) -> bytes:
    buf = io.BytesIO()
    write(buf)
    return buf.getvalue()


def write_graphml(g: nx.Graph) -> bytes:
    """GraphML (http://graphml.graphdrawing.org/specification.html), written by networkx.

    Each attribute name is declared once with one type (``int`` or ``string``), so python-igraph,
    Gephi, Cytoscape and yEd read it."""
    import networkx as nx

    return _xml_bytes(lambda buf: nx.write_graphml_xml(g, buf, encoding="utf-8", named_key_ids=True))


GEXF_13 = "http://gexf.net/1.3"
"""The GEXF 1.3 namespace (https://gexf.net/schema.html; schema https://gexf.net/1.3/gexf.xsd)."""


def write_gexf(g: nx.Graph) -> bytes:
    """GEXF 1.3 for Gephi (https://gexf.net/schema.html, ``specs/1.3/gexf.xsd`` of gephi/gexf).

    networkx writes GEXF 1.2draft; its file is rewritten to the 1.3 namespace and version, the
    ``name`` attribute of ``<graph>`` that neither schema allows is removed (the name goes into
    ``<meta><description>``), and the edge ``kind`` and ``label`` are kept as attributes.  The edge
    ``type`` attribute stays what GEXF reserves it for (``directed``): the toast type is the
    ``toast_type`` attribute."""
    import networkx as nx

    h = g.copy()
    h.graph = {}
    raw = _xml_bytes(lambda buf: nx.write_gexf(h, buf, encoding="utf-8", version="1.2draft"))
    text = raw.decode("utf-8")
    text = text.replace("http://www.gexf.net/1.2draft/viz", "http://gexf.net/1.3/viz")
    text = text.replace("http://www.gexf.net/1.2draft/gexf.xsd", "http://gexf.net/1.3/gexf.xsd")
    text = text.replace("http://www.gexf.net/1.2draft", GEXF_13)
    text = re.sub(r'<gexf ([^>]*)version="1\.2"', r'<gexf \1version="1.3"', text, count=1)
    text = re.sub(r"(<graph [^>]*?) name=\"[^\"]*\"", r"\1", text, count=1)
    description = ElementTree.Element("description")
    description.text = g.graph.get("name", "")
    desc = ElementTree.tostring(description, encoding="unicode")
    text = re.sub(r"(<meta [^>]*>)", lambda m: m.group(1) + desc, text, count=1)
    return text.encode("utf-8")


def write_cytoscape(g: nx.Graph) -> bytes:
    """Cytoscape.js JSON (https://js.cytoscape.org/#notation/elements-json), written by networkx's
    :func:`~networkx.cytoscape_data`: ``{"data": {...}, "elements": {"nodes": [...], "edges": [...]}}``
    with ``data.name`` = the node's label (Cytoscape shows ``name``) and ``data.id`` = its IRI."""
    import networkx as nx

    data = nx.cytoscape_data(g, name="label", ident="id")
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


def write_d3(g: nx.Graph) -> bytes:
    """D3 node-link JSON (the shape of https://observablehq.com/@d3/force-directed-graph:
    ``{"nodes": [{"id", ...}], "links": [{"source", "target", ...}]}``), written by networkx's
    :func:`~networkx.node_link_data`."""
    import networkx as nx

    data = nx.node_link_data(g, edges="links")
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


def _dot_id(i: int) -> str:
    return f"n{i}"


def write_dot(g: nx.Graph) -> bytes:
    """Graphviz DOT (https://graphviz.org/doc/info/lang.html), written by networkx and pydot.

    Node names are ``n0``, ``n1`` … (IRIs hold ``:``, which DOT reads as a port); the IRI is the
    ``URL`` attribute, so an SVG links back to the graph.  Every label names :data:`CJK_FONT`.  The
    toast network is drawn left to right with each toast's order and type on its edge; the step
    chain top to bottom, one cluster per phase of each edition, so ``dot`` lays out a few hundred
    steps in seconds."""
    import networkx as nx

    names = {n: _dot_id(i) for i, n in enumerate(g.nodes)}
    steps = isinstance(g, nx.DiGraph) and not g.is_multigraph()
    h = nx.MultiDiGraph() if g.is_multigraph() else nx.DiGraph()
    h.graph["graph"] = {"rankdir": "TB" if steps else "LR", "fontname": CJK_FONT, "charset": "UTF-8"}
    h.graph["node"] = {"fontname": CJK_FONT, "shape": "box" if steps else "ellipse"}
    h.graph["edge"] = {"fontname": CJK_FONT, "fontsize": "10"}
    for n, d in g.nodes(data=True):
        label = d.get("label", "")
        if steps:
            label = f"{d.get('sequence', '')}. {label}"
        h.add_node(names[n], label=_dot_string(label), tooltip=_dot_string(d.get("label_en", "")), URL=_dot_string(n))
    for u, v, d in g.edges(data=True):
        attrs = {"tooltip": _dot_string(d.get("label_en", ""))}
        if not steps:
            attrs["label"] = _dot_string(f"{d.get('order', '')} {d.get('label', '')}")
            attrs["URL"] = _dot_string(d.get("step", ""))
        h.add_edge(names[u], names[v], **attrs)
    dot = nx.nx_pydot.to_pydot(h)
    if steps:
        import pydot

        clusters: dict[tuple[str, str], pydot.Cluster] = {}
        for n, d in g.nodes(data=True):
            key = (str(d.get("edition", "")), str(d.get("phase_number", 0)))
            if key not in clusters:
                title = d.get("phase") or "—"
                cluster = pydot.Cluster(f"p{len(clusters)}", label=_dot_string(title), fontname=CJK_FONT, style="rounded")
                clusters[key] = cluster
                dot.add_subgraph(cluster)
            clusters[key].add_node(pydot.Node(names[n]))
    return dot.to_string().encode("utf-8")


def _dot_string(value: object) -> str:
    """A DOT double-quoted string (https://graphviz.org/doc/info/lang.html: ``\\"`` escapes a quote)."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'"{text}"'


def write_mermaid(g: nx.Graph) -> bytes:
    """A Mermaid sequence diagram (https://mermaid.js.org/syntax/sequenceDiagram.html) of one
    edition's step chain: participants are the roles in order of first appearance, messages are the
    acts between two parties in ritual order (``主人->>賔: 献 (觚)``), and each phase opens with a
    note over its first message's parties.

    Raises
    ------
    InputError
        The view is not a step chain of exactly one edition (a sequence diagram has one time line).
    """
    if g.is_multigraph():
        raise InputError("a Mermaid sequence diagram is drawn from the step chain: use view=steps")
    editions = sorted({str(d.get("edition")) for _, d in g.nodes(data=True)})
    if len(editions) != 1:
        raise InputError(
            f"a Mermaid sequence diagram draws one edition; this selection has {len(editions)}: "
            "choose one with --edition (or edition=)"
        )
    participants: list[str] = []
    lines: list[str] = []
    phase = None
    for _, d in sorted(g.nodes(data=True), key=lambda nd: nd[1]["sequence"]):
        agents, recipients = _parties(d.get("agent")), _parties(d.get("recipient"))
        if not agents or not recipients:
            continue
        if d.get("phase") and d.get("phase") != phase:
            phase = d["phase"]
            over = agents[0] if agents[0] == recipients[0] else f"{agents[0]},{recipients[0]}"
            lines.append(f"    Note over {over}: {_mermaid_text(str(phase))}")
        cup = f" ({d['cup']})" if d.get("cup") else ""
        for a in agents:
            for r in recipients:
                for p in (a, r):
                    if p not in participants:
                        participants.append(p)
                lines.append(f"    {a}->>{r}: {_mermaid_text(str(d.get('action', '')))}{_mermaid_text(cup)}")
    header = ["sequenceDiagram", f"    title {_mermaid_text(g.graph.get('name', ''))}"]
    header += [f"    participant {p}" for p in participants]
    return ("\n".join(header + lines) + "\n").encode("utf-8")


_MERMAID_NAME = re.compile(r"^[\w\u3400-\u9fff\U00020000-\U0002ffff]+$")


def _parties(written: object) -> list[str]:
    """The parties of a written label (``賔+卿+大夫`` → three; ``賔|长`` either → both), each a
    valid Mermaid participant name (letters, digits, CJK ideographs)."""
    if not written:
        return []
    return [p for p in re.split(r"[+|]", str(written)) if p and _MERMAID_NAME.match(p)]


def _mermaid_text(text: str) -> str:
    """Message text without Mermaid's separators (``;`` ends a statement, ``#`` starts an entity)."""
    return text.replace(";", "；").replace("#", "＃").replace("\n", " ")


_STEP_COLUMNS = (
    "iri", "rite", "edition", "page", "sequence", "block", "phase", "stage", "stage_number", "char_start", "char_end",
    "text", "mode",
    "agent", "agent_en", "action", "action_en", "recipient", "recipient_en", "object", "cup", "cup_en",
    "wine", "wine_en", "place", "place_en", "facing", "facing_en",
)  # fmt: skip
_TOAST_COLUMNS = (
    "step", "rite", "edition", "order", "sequence", "block", "phase", "giver", "giver_role", "giver_en", "receiver",
    "receiver_role", "receiver_en", "toast_type", "label_en", "cup", "cup_en",
    "wine", "wine_en", "text", "char_start", "char_end",
)  # fmt: skip


def write_csv(g: nx.Graph) -> bytes:
    """CSV (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180), UTF-8 with a byte order mark so
    spreadsheets open the Chinese: one row per step of the step chain, or per toast (one per giver
    and receiver) of the toast network, with a header row; empty cells where the text is silent."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    if g.is_multigraph():
        out.writerow(_TOAST_COLUMNS)
        for u, v, d in sorted(g.edges(data=True), key=lambda e: (e[2]["order"], e[0], e[1])):
            row = d | {
                "giver_role": g.nodes[u]["label"],
                "giver_en": g.nodes[u]["label_en"],
                "receiver_role": g.nodes[v]["label"],
                "receiver_en": g.nodes[v]["label_en"],
            }
            out.writerow([row.get(c, "") for c in _TOAST_COLUMNS])
    else:
        out.writerow(_STEP_COLUMNS)
        for _, d in g.nodes(data=True):
            out.writerow([d.get(c, "") for c in _STEP_COLUMNS])
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


# --- the RDF itself --------------------------------------------------------------------------------


def rdf_of(queries: GraphQueries, store: pyoxigraph.Store, rite: str | None, edition: str | None) -> pyoxigraph.QueryTriples:
    """The triples of the selected editions' named graphs and of the vocabulary graph, merged.

    Raises
    ------
    UnknownTermError
        ``rite`` names no rite.
    """
    graphs = [f"<{e['edition']}>" for e in queries.editions(rite, edition)]
    query = f"""
PREFIX yk: <{queries.base}ontology#>
CONSTRUCT {{ ?s ?p ?o }} WHERE {{
  {{ GRAPH <{queries.base}graph/vocabulary> {{ ?s ?p ?o }} }}
  UNION
  {{ VALUES ?edition {{ {" ".join(graphs)} }} GRAPH ?g {{ ?edition a yk:Edition }} GRAPH ?g {{ ?s ?p ?o }} }}
}}"""
    result = store.query(query)
    assert isinstance(result, pyoxigraph.QueryTriples)
    return result


def _rdf_writer(fmt: pyoxigraph.RdfFormat) -> Callable[[pyoxigraph.QueryTriples], bytes]:
    def write(triples: pyoxigraph.QueryTriples) -> bytes:
        return triples.serialize(format=fmt) or b""

    return write


@dataclass(frozen=True)
class Format:
    """An export format.

    Attributes
    ----------
    name : str
        As given to ``yili-kg export`` and ``/export/{format}``.
    media_type : str
        The HTTP ``Content-Type``.
    extension : str
        The download file's extension.
    spec : str
        Where the format is specified.
    write : callable
        Graph view → bytes (``rdf`` formats: triples → bytes).
    rdf : bool
        True if the format writes the RDF itself rather than a view.
    """

    name: str
    media_type: str
    extension: str
    spec: str
    write: Callable[[Any], bytes]
    rdf: bool = False


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            "graphml", "application/graphml+xml", "graphml", "http://graphml.graphdrawing.org/specification.html", write_graphml
        ),
        Format("gexf", "application/gexf+xml", "gexf", "https://gexf.net/schema.html (1.3)", write_gexf),
        Format("cytoscape", "application/json", "cyjs", "https://js.cytoscape.org/#notation/elements-json", write_cytoscape),
        Format("d3", "application/json", "json", "networkx node_link_data (D3 force layout)", write_d3),
        Format("dot", "text/vnd.graphviz; charset=utf-8", "gv", "https://graphviz.org/doc/info/lang.html", write_dot),
        Format(
            "mermaid",
            "text/vnd.mermaid; charset=utf-8",
            "mmd",
            "https://mermaid.js.org/syntax/sequenceDiagram.html",
            write_mermaid,
        ),
        Format("csv", "text/csv; charset=utf-8; header=present", "csv", "RFC 4180", write_csv),
        Format(
            "turtle",
            "text/turtle; charset=utf-8",
            "ttl",
            "https://www.w3.org/TR/turtle/",
            _rdf_writer(pyoxigraph.RdfFormat.TURTLE),
            True,
        ),
        Format(
            "ntriples",
            "application/n-triples",
            "nt",
            "https://www.w3.org/TR/n-triples/",
            _rdf_writer(pyoxigraph.RdfFormat.N_TRIPLES),
            True,
        ),
        Format(
            "jsonld",
            "application/ld+json",
            "jsonld",
            "https://www.w3.org/TR/json-ld11/",
            _rdf_writer(pyoxigraph.RdfFormat.JSON_LD),
            True,
        ),
    )
}
"""Export format name → :class:`Format`, in the order they are listed to users."""


@dataclass(frozen=True)
class Export:
    """A written export: its bytes, media type and a download file name."""

    data: bytes
    media_type: str
    filename: str


def export(
    queries: GraphQueries,
    store: pyoxigraph.Store,
    format: str,
    view_name: str = "toasts",
    rite: str | None = None,
    edition: str | None = None,
) -> Export:
    """Write one export of the graph.

    Parameters
    ----------
    queries : GraphQueries
        The lookups over ``store``.
    store : pyoxigraph.Store
        The graph (for the RDF formats).
    format : str
        A key of :data:`FORMATS`.
    view_name : str
        ``toasts`` (the toast network) or ``steps`` (the step chain); the Mermaid diagram is always
        drawn from the step chain; the RDF formats ignore it.
    rite, edition : str, optional
        Keep one rite (any written form) and/or one edition (its key).

    Returns
    -------
    Export
        The file name is ``yili-kg-{rite or all}-{view}.{extension}``.

    Raises
    ------
    InputError
        Unknown format or view, or a Mermaid diagram of several editions.
    UnknownTermError
        ``rite`` names no rite.
    NotFoundError
        The graph holds no edition of that rite, or none with that key.
    """
    if format not in FORMATS:
        raise InputError(f"unknown export format {format!r}: expected one of {', '.join(FORMATS)}")
    if view_name not in VIEWS:
        raise InputError(f"unknown view {view_name!r}: expected one of {', '.join(VIEWS)}")
    fmt = FORMATS[format]
    if format == "mermaid":
        view_name = "steps"
    selected = queries.editions(rite, edition)
    if (rite or edition) and not selected:
        held = ", ".join(
            sorted(
                {str(e["edition"]).rsplit("/", 2)[-2] + "/" + str(e["edition"]).rsplit("/", 1)[-1] for e in queries.editions()}
            )
        )
        raise NotFoundError(f"the graph holds no edition of {' '.join(x for x in (rite, edition) if x)} (it holds: {held})")
    rite_key = str(selected[0]["rite"]).rsplit("/", 1)[-1] if rite and selected else "all"
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", "-".join(x for x in (rite_key, edition) if x)).strip("-") or "selection"
    if fmt.rdf:
        data = fmt.write(rdf_of(queries, store, rite, edition))
        return Export(data, fmt.media_type, f"yili-kg-{stem}.{fmt.extension}")
    data = fmt.write(view(queries, view_name, rite, edition))
    return Export(data, fmt.media_type, f"yili-kg-{stem}-{view_name}.{fmt.extension}")
