"""Text search over the classic and the commentary of every edition in the graph (``GET /search``).

The texts searched are the ``yk:text`` of the blocks (the classic, the print layout taken out) and of the
commentary pieces (注, 疏, 音義, other commentators), read from the store once: the graph is read-only
while it is served.  A query and the texts are compared *folded*, code point for code point:

* simplified characters are read as traditional (OpenCC's ``s2t`` character table, one character at a
  time: 献 → 獻, 宾 → 賓, 于 → 於);
* variant characters are written in their usual form (``ontology/variants.tsv``: 𤣥 → 玄, 賔 → 賓).

So ``玄端`` finds ``𤣥端`` (the 述註 avoids the character 玄, 避諱), and ``献宾`` finds ``獻賓`` and ``献賔``.
Folding keeps the length in code points, so a match in the folded text is the same span of the text as
written.  Character by character, a simplified form that stands for two traditional ones is read as the
first (后 → 後): the search may find a little more than was meant, never less.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache

from yili.graph.queries import GraphQueries
from yili.ontology.variants import variant_forms

SNIPPET = 30
"""Code points of context shown on either side of a match."""


@cache
def _s2t():  # type: ignore[no-untyped-def]
    from opencc import OpenCC

    return OpenCC("s2t")


class Folder:
    """Fold text for search, one code point to one code point (see the module's docstring); the fold of
    each distinct character is computed once."""

    def __init__(self) -> None:
        self._forms = variant_forms()
        self._chars: dict[str, str] = {}

    def char(self, ch: str) -> str:
        """The folded form of one character (a single code point)."""
        folded = self._chars.get(ch)
        if folded is None:
            t = _s2t().convert(ch)
            t = t if len(t) == 1 else ch
            folded = self._forms.get(t, t)[0]
            self._chars[ch] = folded
        return folded

    def __call__(self, text: str) -> str:
        """``text`` folded: the same length in code points, each character in its usual traditional form.

        >>> Folder()("玄端献宾于阶")
        '玄端獻賓於階'
        >>> Folder()("𤣥端")
        '玄端'
        """
        return "".join(self.char(ch) for ch in text)


@dataclass(frozen=True)
class _Text:
    kind: str  # "classic" or "commentary"
    rite: str  # IRI
    edition: str  # IRI
    block: int
    block_iri: str
    text: str
    folded: str
    layer: str | None = None
    commentator: str | None = None
    iri: str | None = None  # the commentary piece's IRI


class TextSearch:
    """Search the classic and commentary of the graph's editions.

    Parameters
    ----------
    queries : GraphQueries
        The graph served (its backend answers the SPARQL that loads the texts, once, at the first search).
    """

    def __init__(self, queries: GraphQueries) -> None:
        self.queries = queries
        self.fold = Folder()
        self._lock = threading.Lock()
        self._texts: list[_Text] | None = None
        self._steps: dict[str, list[tuple[int, int, str]]] = {}

    def _load(self) -> list[_Text]:
        with self._lock:
            if self._texts is not None:
                return self._texts
            q = self.queries
            blocks = q.backend.select(
                q.sparql_prefixes
                + """
SELECT ?block ?edition ?rite ?n ?text WHERE {
  ?block a yk:Block ; yk:blockNumber ?n ; yk:inEdition ?edition ; yk:text ?text .
  ?edition yk:editionOf ?rite .
} ORDER BY ?edition ?n"""
            )
            comments = q.backend.select(
                q.sparql_prefixes
                + """
SELECT ?c ?block ?layer ?commentator ?text ?start WHERE {
  ?c a yk:Commentary ; yk:comments ?block ; yk:text ?text ; yk:charStart ?start ; yk:layer/skos:notation ?layer .
  OPTIONAL { ?c yk:commentator ?commentator }
} ORDER BY ?block ?start ?c"""
            )
            steps = q.backend.select(
                q.sparql_prefixes + "SELECT ?step ?block ?sequence ?text WHERE { ?step a yk:Step ; yk:inBlock ?block ; "
                "yk:sequence ?sequence ; yk:text ?text } ORDER BY ?block ?sequence"
            )
            by_block: dict[str, list[tuple[int, str, str]]] = {}
            for r in steps:
                by_block.setdefault(str(r["block"]), []).append((int(str(r["sequence"])), str(r["step"]), str(r["text"])))
            texts: list[_Text] = []
            about: dict[str, tuple[str, str, int]] = {}
            for r in blocks:
                block = str(r["block"])
                about[block] = (str(r["rite"]), str(r["edition"]), int(str(r["n"])))
                text = str(r["text"])
                texts.append(_Text("classic", str(r["rite"]), str(r["edition"]), int(str(r["n"])), block, text, self.fold(text)))
                # where each step stands in the block's text: found in order, each after the one before
                at, marks = 0, []
                for _seq, step, step_text in sorted(by_block.get(block, [])):
                    found = text.find(step_text, at)
                    if found < 0:
                        found = text.find(step_text)
                    if found >= 0:
                        marks.append((found, found + len(step_text), step))
                        at = found + len(step_text)
                    elif not marks:
                        marks.append((0, 0, step))  # a link for the block even if its text was not found
                self._steps[block] = marks
            for r in comments:
                block = str(r["block"])
                if block not in about:
                    continue
                rite, edition, n = about[block]
                text = str(r["text"])
                texts.append(
                    _Text(
                        "commentary",
                        rite,
                        edition,
                        n,
                        block,
                        text,
                        self.fold(text),
                        str(r["layer"]),
                        r.get("commentator") and str(r["commentator"]),
                        str(r["c"]),
                    )
                )
            self._texts = texts
            return texts

    def search(
        self, q: str, rite: str | None = None, edition: str | None = None, limit: int = 50, offset: int = 0
    ) -> tuple[list[dict[str, object]], int]:
        """Every place the folded ``q`` occurs in a block's classic or a commentary piece, in the order of
        the editions (IRI), their blocks, and the classic before its commentary.

        Parameters
        ----------
        q : str
            What to find, in any script or variant (1–50 characters, spaces ignored).
        rite : str, optional
            Only this rite (any written form: 士冠禮, 士冠礼, shiguanli).
        edition : str, optional
            Only the editions with this key (``shuzhu``, ``zhushu``, ``zhengzhu``).
        limit, offset : int
            The page of matches.

        Returns
        -------
        (items, total)
            ``items``: ``{"kind": "classic" | "commentary", "rite", "edition", "block_iri" (IRIs),
            "block" (number), "step" (IRI of the step the match is in, for the classic; of the block's
            first step, for its commentary; None if the block has no step), "layer", "commentator",
            "commentary" (the piece's IRI) for commentary, "start", "end" (the match, code points into
            the text, 0-based, end-exclusive), "before", "match", "after" (the match as written, with up
            to :data:`SNIPPET` code points either side)}``; ``total``: the matches over all pages.

        Raises
        ------
        UnknownTermError
            ``rite`` names no rite (404).
        """
        wanted = self.fold("".join(q.split()))
        rite_iri = self.queries.rite_iri(rite) if rite else None
        found: list[dict[str, object]] = []
        if not wanted:
            return [], 0
        for t in self._load():
            if rite_iri and t.rite != rite_iri:
                continue
            if edition and t.edition.rsplit("/", 1)[-1] != edition:
                continue
            at = t.folded.find(wanted)
            while at >= 0:
                end = at + len(wanted)
                found.append(self._hit(t, at, end))
                at = t.folded.find(wanted, end)
        return found[offset : offset + limit], len(found)

    def _hit(self, t: _Text, start: int, end: int) -> dict[str, object]:
        marks = self._steps.get(t.block_iri, [])
        step = None
        if marks:
            step = marks[0][2]
            if t.kind == "classic":
                for a, b, iri in marks:
                    if a < end and start < b:
                        step = iri
                        break
                    if a <= start:
                        step = iri
        return {
            "kind": t.kind,
            "rite": t.rite,
            "edition": t.edition,
            "block": t.block,
            "block_iri": t.block_iri,
            "step": step,
            "layer": t.layer,
            "commentator": t.commentator,
            "commentary": t.iri,
            "start": start,
            "end": end,
            "before": t.text[max(0, start - SNIPPET) : start],
            "match": t.text[start:end],
            "after": t.text[end : end + SNIPPET],
        }
