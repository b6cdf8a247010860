"""Exports of the step graph for graph tools: Gephi (GEXF), GraphML, Cytoscape.js JSON, Graphviz DOT.

One networkx graph (:func:`step_network`) is the view every format writes: ritual steps linked in
order, the roles that perform them and receive them, and the toasts between roles.  Each writer
is one small function over networkx's own reader/writer for the format.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import networkx as nx
from yili.ingest.pipeline import Extraction
from yili.ontology.errors import InputError


def step_network(extractions: Sequence[Extraction]) -> nx.MultiDiGraph:
    """The step graph as a networkx multigraph.

    Nodes
    -----
    * ``step:{rite}/{edition}/{char_start}`` with ``kind="step"``, ``label`` (the text), ``sequence``,
      ``block``, ``agent``, ``action``, ``recipient``, ``vessel``, ``location``, ``facing``, ``mode``,
      ``char_start``, ``char_end``;
    * ``role:{key}`` with ``kind="role"``, ``label`` (the form the texts write most often).

    Edges
    -----
    ``next`` (step → step, in order), ``performs`` (role → step), ``directed_to`` (step → role),
    ``toast`` (giver role → receiver role, with ``type``, ``sequence``, ``text``).

    Returns
    -------
    networkx.MultiDiGraph
        Attribute values are strings or integers (no None), as GEXF and GraphML require.

    Examples
    --------
    >>> from yili.ingest.pipeline import Extractor
    >>> from yili.ingest.document import load_default
    >>> g = step_network([Extractor().extract(load_default())])
    >>> g.nodes["role:role-zhuren"]["label"]
    '主人'
    """
    g = nx.MultiDiGraph()
    # a role node is labelled with the form the texts use most for it (大夫, not 大夫长)
    counts: dict[str, Counter[str]] = {}
    for e in extractions:
        for s in e.steps:
            for t in (*s.agent, *s.recipient):
                if t.key:
                    counts.setdefault(t.key, Counter())[t.label] += 1
    label = {key: c.most_common(1)[0][0] for key, c in counts.items()}
    for e in extractions:
        prev = None
        for s in e.steps:
            node = f"step:{s.key}"
            rec = s.as_record()
            g.add_node(
                node,
                kind="step",
                label=s.text,
                **{
                    k: (v if isinstance(v, int) and not isinstance(v, bool) else str(v) if v is not None else "")
                    for k, v in rec.items()
                    if k not in ("id", "text")
                },
            )
            if prev is not None:
                g.add_edge(prev, node, kind="next")
            prev = node
            for a in s.agent:
                if a.key:
                    g.add_node(f"role:{a.key}", kind="role", label=label.get(a.key, a.label))
                    g.add_edge(f"role:{a.key}", node, kind="performs")
            for r in s.recipient:
                if r.key:
                    g.add_node(f"role:{r.key}", kind="role", label=label.get(r.key, r.label))
                    g.add_edge(node, f"role:{r.key}", kind="directed_to")
        for t in e.toasts:
            for giver in t.giver:
                for receiver in t.receiver:
                    if giver.key and receiver.key:
                        g.add_node(f"role:{giver.key}", kind="role", label=label.get(giver.key, giver.label))
                        g.add_node(f"role:{receiver.key}", kind="role", label=label.get(receiver.key, receiver.label))
                        g.add_edge(
                            f"role:{giver.key}",
                            f"role:{receiver.key}",
                            kind="toast",
                            type=t.type.label,
                            sequence=t.step.sequence,
                            label=t.type.label,
                            text=t.step.text,
                        )
    return g


def _writable(path: Path) -> None:
    if path.parent and not path.parent.exists():
        raise InputError(f"{path}: the folder {path.parent} does not exist")


def write_gexf(extractions: Sequence[Extraction], path: Path) -> None:
    """Write GEXF 1.2 for Gephi (https://gexf.net/schema.html) with networkx."""
    _writable(path)
    nx.write_gexf(step_network(extractions), path)


def write_graphml(extractions: Sequence[Extraction], path: Path) -> None:
    """Write GraphML (http://graphml.graphdrawing.org/specification.html) with networkx."""
    _writable(path)
    nx.write_graphml(step_network(extractions), path)


def write_cytoscape(extractions: Sequence[Extraction], path: Path) -> None:
    """Write Cytoscape.js JSON (``elements`` with ``nodes`` and ``edges``; https://js.cytoscape.org/#notation/elements-json)."""
    _writable(path)
    data = nx.cytoscape_data(step_network(extractions))
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def write_dot(extractions: Sequence[Extraction], path: Path) -> None:
    """Write Graphviz DOT (https://graphviz.org/doc/info/lang.html) with networkx and pydot."""
    _writable(path)
    g = step_network(extractions)
    h = nx.MultiDiGraph()
    for n, d in g.nodes(data=True):
        h.add_node(
            n.replace(":", "_").replace("/", "_"),
            label=json.dumps(d.get("label", ""), ensure_ascii=False),
            shape="box" if d.get("kind") == "step" else "ellipse",
        )
    for u, v, d in g.edges(data=True):
        h.add_edge(
            u.replace(":", "_").replace("/", "_"),
            v.replace(":", "_").replace("/", "_"),
            label=json.dumps(d.get("label", d.get("kind", "")), ensure_ascii=False),
        )
    nx.drawing.nx_pydot.write_dot(h, path)


EXPORTERS: dict[str, Callable[[Sequence[Extraction], Path], None]] = {
    "gexf": write_gexf,
    "graphml": write_graphml,
    "cytoscape": write_cytoscape,
    "dot": write_dot,
}
"""Export format name → writer."""
