"""The commentary's terms as plain data: the authorities' names and the cited works' forms.

Read from ``ontology/commentary.ttl`` and ``ontology/yili.ttl`` (the ``ykv:authorities`` scheme, the
rite profiles' ``yk:citationForm``, the ``yk:CitedWork`` list) into :class:`CommentaryTerms`, which
:mod:`yili.ingest.commentary` uses without knowing RDF.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from rdflib import Graph, URIRef
from rdflib.namespace import RDF, SKOS
from yili.ontology.namespaces import YK, YKV
from yili.ontology.variants import spellings


@dataclass(frozen=True)
class CommentaryTerms:
    """What the commentary reader knows, as data.

    Attributes
    ----------
    authorities : dict[str, str]
        Every name an edition writes for an authority (注, 疏, 音義, 楊氏, 朱先生, 坡, 鄭玄…) → the
        authority's key (``person-zhengxuan``), the local name of its IRI in ``ykv:``.
    citation_forms : dict[str, tuple[str, str]]
        Every form under which the commentary cites a work (少牢, 鄉飲酒禮, 詩, 周禮, 曲禮), in
        every variant spelling → (``rite`` or ``work``, key): a chapter of the 儀禮 by its rite key
        (``shaolaokuishili``), another work by the local name of its IRI (``cited-liji``).
    """

    authorities: dict[str, str]
    citation_forms: dict[str, tuple[str, str]]


def _local(iri: object) -> str:
    return str(iri)[len(str(YKV)) :] if str(iri).startswith(str(YKV)) else str(iri)


def terms_from_graph(graph: Graph) -> CommentaryTerms:
    """Read :class:`CommentaryTerms` from a vocabulary graph (the packaged files, or with ``--vocab``).

    The first authority (in IRI order) wins a name two share; a citation form two works share goes to
    the first in IRI order (none do in the packaged data)."""
    authorities: dict[str, str] = {}
    for person in sorted(graph.subjects(SKOS.inScheme, YKV.authorities)):
        if isinstance(person, URIRef):
            for prop in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel):
                for label in sorted(graph.objects(person, prop)):
                    authorities.setdefault(str(label), _local(person))
    forms: dict[str, tuple[str, str]] = {}
    for subject in sorted(set(graph.subjects(YK.citationForm, None))):
        if (subject, RDF.type, YK.Rite) in graph:
            key = next((str(k) for k in sorted(graph.objects(subject, YK.riteKey))), _local(subject))
            target = ("rite", key)
        else:
            target = ("work", _local(subject))
        for form in sorted(graph.objects(subject, YK.citationForm)):
            for spelled in spellings(str(form)):
                forms.setdefault(spelled, target)
    return CommentaryTerms(authorities, forms)


@functools.cache
def default_terms() -> CommentaryTerms:
    """The :class:`CommentaryTerms` of the packaged ontology files (read once)."""
    from yili.ontology.vocabulary import default_files, read_graph

    return terms_from_graph(read_graph(default_files()))
