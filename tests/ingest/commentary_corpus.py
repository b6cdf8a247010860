"""The corpus's commentary read as the build reads it, for the precision sample (shared by
``tests/ingest/test_commentary.py`` and the script that drew the sample)."""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

from yili.ingest.commentary import Commentary, PassageIndex, read_commentary, resolve_citations
from yili.ingest.document import Document, read_file
from yili.ingest.rites import identify
from yili.ontology.vocabulary import load_vocabulary

EDITIONS = ("KR1d0040", "KR1d0028", "KR1d0026")


def keyed(path: Path) -> Document:
    """The document with the rite and edition keys the extractor gives it (shiguanli, shuzhu)."""
    vocabulary = _vocabulary()
    doc = read_file(path)
    profile = identify(doc, vocabulary, None)
    edition = vocabulary.edition_key(doc.title) or doc.edition
    return replace(doc, rite=profile.key or doc.rite, edition=edition)


@functools.cache
def _vocabulary():  # type: ignore[no-untyped-def]
    return load_vocabulary()


def corpus(root: Path) -> list[tuple[str, Document, Commentary]]:
    """(file name, document, commentary with citations resolved) for every chapter of the three
    editions under ``root`` (``shared/corpus/kanripo``), front and back matter left out."""
    docs = []
    for ed in EDITIONS:
        for path in sorted((root / ed).glob("*.txt")):
            if path.stem.endswith(("_000", "_018")):
                continue
            docs.append((path.name, keyed(path)))
    index = PassageIndex(d for _, d in docs)
    return [(name, d, resolve_citations(read_commentary(d), d, index)) for name, d in docs]


def record(kind: str, name: str, doc: Document, item) -> dict:  # type: ignore[no-untyped-def]
    """The fields of a gloss, reading or citation that the hand check judged, as a dict."""
    st = item.statement
    out = {
        "kind": kind,
        "file": name,
        "rite": doc.rite,
        "edition": doc.edition,
        "block": st.block,
        "authority": st.label,
        "start": item.start,
        "end": item.end,
    }
    if kind == "gloss":
        out.update(term=item.term, gloss=item.gloss, formula=item.formula, target=[item.target.start, item.target.end])
    elif kind == "reading":
        out.update(
            witness=item.witness,
            term=item.term,
            variant=item.variant,
            formula=item.formula,
            target=[item.target.start, item.target.end],
        )
    else:
        p = item.passage
        out.update(
            cites=[item.kind, item.key],
            marker=item.marker,
            passage=None if p is None else [p.rite, p.edition, p.block, p.start, p.end, p.quote],
        )
    return out
