"""The SPARQL 1.1 Service Description of the endpoint: what ``GET /sparql`` without a query answers
to a client that asks for RDF.

W3C, *SPARQL 1.1 Service Description*, https://www.w3.org/TR/sparql11-service-description/ (section 2:
"a SPARQL service description ... returned by dereferencing the endpoint URL"); the result formats are
named by the W3C's unique URIs for file formats, https://www.w3.org/ns/formats/.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, XSD

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
FORMATS = Namespace("http://www.w3.org/ns/formats/")
VOID = Namespace("http://rdfs.org/ns/void#")
ENTAILMENT = Namespace("http://www.w3.org/ns/entailment/")

FORMAT_IRIS: dict[str, URIRef] = {
    "application/sparql-results+json": FORMATS["SPARQL_Results_JSON"],
    "application/sparql-results+xml": FORMATS["SPARQL_Results_XML"],
    "text/csv": FORMATS["SPARQL_Results_CSV"],
    "text/tab-separated-values": FORMATS["SPARQL_Results_TSV"],
    "text/turtle": FORMATS["Turtle"],
    "application/n-triples": FORMATS["N-Triples"],
    "application/rdf+xml": FORMATS["RDF_XML"],
    "application/ld+json": FORMATS["JSON-LD"],
    "application/n-quads": FORMATS["N-Quads"],
    "application/trig": FORMATS["TriG"],
}
"""The W3C format URI of each media type an endpoint may answer in (https://www.w3.org/ns/formats/)."""

SERIALIZATIONS: dict[str, str] = {
    "text/turtle": "turtle",
    "application/n-triples": "nt",
    "application/rdf+xml": "xml",
    "application/ld+json": "json-ld",
}
"""The media types a description is served in, with rdflib's name for each serializer."""


def service_description(
    endpoint: str,
    result_formats: Iterable[str],
    named_graphs: Sequence[tuple[str, int]],
    *,
    union_default_graph: bool,
) -> Graph:
    """Describe a read-only SPARQL 1.1 query service as an RDF graph.

    Parameters
    ----------
    endpoint : str
        The endpoint's URL as the client reached it (``sd:endpoint``).
    result_formats : iterable of str
        Media types the endpoint answers in (``sd:resultFormat``, by their W3C format URIs); a media
        type :data:`FORMAT_IRIS` does not know is left out.
    named_graphs : sequence of (str, int)
        The named graphs of the default dataset, each with its number of triples (``void:triples``).
    union_default_graph : bool
        True if a query without ``FROM`` sees the union of the named graphs as its default graph
        (``sd:feature sd:UnionDefaultGraph``).

    Returns
    -------
    rdflib.Graph
        One ``sd:Service`` (a blank node) with ``sd:endpoint``, ``sd:supportedLanguage
        sd:SPARQL11Query`` (no update), its result formats, its features, the simple entailment regime,
        and ``sd:defaultDataset``: an ``sd:Dataset`` whose ``sd:namedGraph`` entries name each graph.

    References
    ----------
    W3C, *SPARQL 1.1 Service Description*, sections 3.2.1 (sd:Service), 3.4 (sd:UnionDefaultGraph),
    https://www.w3.org/TR/sparql11-service-description/

    Examples
    --------
    >>> g = service_description("http://127.0.0.1:8000/sparql", ["text/csv"], [("https://example.org/g", 3)],
    ...                         union_default_graph=True)
    >>> service = g.value(predicate=RDF.type, object=SD.Service)
    >>> str(g.value(service, SD.endpoint))
    'http://127.0.0.1:8000/sparql'
    >>> (service, SD.feature, SD.UnionDefaultGraph) in g
    True
    >>> g.value(service, SD.resultFormat) == FORMATS["SPARQL_Results_CSV"]
    True
    """
    g = Graph()
    g.bind("sd", SD)
    g.bind("formats", FORMATS)
    g.bind("void", VOID)
    g.bind("ent", ENTAILMENT)
    service = BNode("service")
    g.add((service, RDF.type, SD.Service))
    g.add((service, SD.endpoint, URIRef(endpoint)))
    g.add((service, SD.supportedLanguage, SD.SPARQL11Query))
    g.add((service, SD.defaultEntailmentRegime, ENTAILMENT.Simple))
    for media_type in result_formats:
        iri = FORMAT_IRIS.get(media_type.split(";")[0].strip().lower())
        if iri is not None:
            g.add((service, SD.resultFormat, iri))
    if union_default_graph:
        g.add((service, SD.feature, SD.UnionDefaultGraph))
    dataset = BNode("dataset")
    g.add((service, SD.defaultDataset, dataset))
    g.add((dataset, RDF.type, SD.Dataset))
    default = BNode("default")
    g.add((dataset, SD.defaultGraph, default))
    g.add((default, RDF.type, SD.Graph))
    for number, (name, triples) in enumerate(named_graphs):
        named, graph = BNode(f"named{number}"), BNode(f"graph{number}")
        g.add((dataset, SD.namedGraph, named))
        g.add((named, RDF.type, SD.NamedGraph))
        g.add((named, SD.name, URIRef(name)))
        g.add((named, SD.graph, graph))
        g.add((graph, RDF.type, SD.Graph))
        g.add((graph, VOID.triples, Literal(triples, datatype=XSD.integer)))
    return g
