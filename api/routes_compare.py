"""Compare two rites and search the steps: ``/compare``, ``/patterns``, ``/next``, ``/ngrams``.

The logic is in :mod:`yili.graph.compare` and :mod:`yili.graph.patterns`; this router reads the acts of
the served graph once (:class:`Corpus`: the graph is read-only while served; in a thread started with
the server, :meth:`CompareRouter.preload`, or else at the first request) and answers from memory.
A browser (``Accept`` preferring ``text/html``) asking ``/compare`` or ``/patterns`` gets the viewer's
side-by-side or pattern page, which asks the same URL for JSON.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from yili.graph.acts import Act, acts_from_store, by_sequence, select_sequence
from yili.graph.compare import compare
from yili.graph.patterns import (
    DEFAULT_WITHIN,
    MAX_N,
    MAX_PATTERN,
    MAX_WITHIN,
    SEPARATORS,
    PatternIndex,
    ngrams_csv,
    parse_pattern,
    ranked,
)
from yili.ontology.errors import RequestError

_ELEMENT = "[^,，、…]"
SEQ_PATTERN = f"^{_ELEMENT}*([,，、…]+{_ELEMENT}*){{0,{MAX_PATTERN - 1}}}$"
"""What ``seq=`` may be (in the OpenAPI schema): at most :data:`~yili.graph.patterns.MAX_PATTERN` elements."""
ONE_ACT = f"^{_ELEMENT}*[^,，、…\\s]{_ELEMENT}*$"
"""What ``after=`` may be: one element."""

MAX_OCCURRENCES = 2000
"""Most occurrences a ``/patterns`` answer lists (``total`` counts them all)."""


class Corpus:
    """The acts of the served graph, read once, with their pattern index.

    Parameters
    ----------
    service : Service
        The app's service (its ``queries.backend.select`` runs the one query, its ``vocabulary`` folds names).
    """

    def __init__(self, service: Any) -> None:
        self.service = service
        self._lock = threading.Lock()
        self._acts: list[Act] | None = None
        self._groups: dict[str, list[Act]] | None = None
        self._index: PatternIndex | None = None

    def load(self) -> None:
        """Read the acts and build the index, once (later calls return at once)."""
        with self._lock:
            if self._acts is None:
                acts = acts_from_store(self.service.queries.backend.select, self.service.base)
                self._groups = by_sequence(acts)
                self._index = PatternIndex(acts, self.service.vocabulary)
                self._acts = acts

    @property
    def groups(self) -> dict[str, list[Act]]:
        """Acts by ``rite/edition`` (:func:`~yili.graph.acts.by_sequence`)."""
        self.load()
        assert self._groups is not None
        return self._groups

    @property
    def index(self) -> PatternIndex:
        """The :class:`~yili.graph.patterns.PatternIndex` over every act."""
        self.load()
        assert self._index is not None
        return self._index


class CompareRouter(APIRouter):
    """The router, with :meth:`preload` for the server's start."""

    def __init__(self, corpus: Corpus) -> None:
        super().__init__()
        self.corpus = corpus

    def preload(self) -> None:
        """Read the acts in a thread of their own (some seconds on the whole corpus), so that they are
        ready soon after the server starts rather than read in the first request; a request that
        comes first waits for them on the corpus's lock.  For ``app.router.on_startup``."""
        threading.Thread(target=self.corpus.load, name="yili-acts", daemon=True).start()


def _only(request: Request, allowed: set[str]) -> None:
    """400 for a parameter the resource does not take or one given twice (a typo would filter nothing)."""
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        raise RequestError(f"unknown parameter {unknown[0]!r} (this resource takes: {', '.join(sorted(allowed))})")
    names = [n for n, _ in request.query_params.multi_items()]
    if len(names) != len(set(names)):
        twice = sorted({n for n in names if names.count(n) > 1})[0]
        raise RequestError(f"parameter {twice!r} given more than once: give it once")


def _wants(request: Request, format_name: str | None, offers: tuple[str, ...]) -> str:
    """The format to answer in: ``format=`` (``json``, ``csv``, ``html``) or the best of ``Accept``."""
    from yili.api.resources import best_offer
    from yili.ontology.errors import NotAcceptableError

    names = {"application/json": "json", "text/csv": "csv", "text/html": "html"}
    if format_name is not None:
        wanted = format_name.strip().lower()
        if wanted not in {names[o] for o in offers}:
            raise NotAcceptableError(
                f"format={format_name[:40]!r} is not offered; use one of: {', '.join(names[o] for o in offers)}"
            )
        return wanted
    accept = request.headers.get("accept", "")
    chosen = best_offer(accept, offers) if accept else offers[0]
    if chosen is None:
        raise NotAcceptableError(f"Accept {accept[:80]!r}: this resource answers {', '.join(offers)}")
    return names[chosen]


def _rite_label(service: Any, key: str) -> str:
    r = service.vocabulary.rites.get(key)
    return r.hant if r is not None else key


def make_compare_router(service: Any) -> CompareRouter:
    """The router of ``/compare``, ``/patterns``, ``/next`` and ``/ngrams`` over ``service``'s graph."""
    from yili.api.common import error_responses  # the one description of error answers
    from yili.api.viewer import html_page

    def answers(*media: str) -> dict[int | str, dict[str, Any]]:
        return {200: {"description": "The answer, in the format negotiated", "content": {m: {} for m in media}}}

    corpus = Corpus(service)
    router = CompareRouter(corpus)
    vocabulary = service.vocabulary

    @router.get(
        "/compare",
        summary="Align the steps of two rites, editions or stages",
        response_model=None,
        responses={**answers("application/json", "text/csv", "text/html"), **error_responses(400, 404, 406)},
    )
    def compare_route(
        request: Request,
        a: Annotated[str | None, Query(max_length=100, description="rite or rite/edition (鄉射禮, xiangsheli/shuzhu)")] = None,
        b: Annotated[str | None, Query(max_length=100, description="the other side")] = None,
        stage_a: Annotated[
            str | None, Query(max_length=60, description="phase 3, phases 2-5, blocks b10-40 or a phase label")
        ] = None,
        stage_b: Annotated[str | None, Query(max_length=60, description="the stage of b")] = None,
        format: Annotated[Literal["json", "csv", "html"] | None, Query(description="json, csv or html")] = None,  # noqa: A002
    ) -> Response:
        """The alignment of two step sequences (:func:`yili.graph.compare.compare`): rows of ``same``,
        ``substitution``, ``deletion`` (only in a), ``insertion`` (only in b) and ``joined`` (a step whose words
        the other side prints within one step, ``within``) with each side's step (``id``, ``url``), the counts
        and the ``similarity`` (0–1); CSV with ``format=csv`` or ``Accept: text/csv``; the side-by-side page
        for a browser.  With a side missing, the sequences that can be compared (``{"sequences", "usage"}``).
        An unknown rite, or a stage that selects nothing, is 404."""
        _only(request, {"a", "b", "stage_a", "stage_b", "format"})
        kind = _wants(request, format, ("application/json", "text/csv", "text/html"))
        if kind == "html":
            return html_page("compare.html", {"Vary": "Accept"})
        if not a or not b:
            # nothing to compare yet: what could be compared, and how to ask
            return JSONResponse(
                {
                    "sequences": list(corpus.groups),
                    "usage": "/compare?a=鄉射禮&b=鄉飲酒禮 (a rite, or rite/edition; stage_a, stage_b)",
                },
                headers={"Vary": "Accept"},
            )
        name_a, acts_a = select_sequence(corpus.groups, a, vocabulary, stage_a)
        name_b, acts_b = select_sequence(corpus.groups, b, vocabulary, stage_b)
        result = compare(acts_a, acts_b, vocabulary, names=(name_a, name_b), stages=(stage_a, stage_b))
        if kind == "csv":
            return Response(result.as_csv(), media_type="text/csv; charset=utf-8", headers={"Vary": "Accept"})
        return JSONResponse(result.as_json(), headers={"Vary": "Accept"})

    @router.get(
        "/patterns",
        summary="Find a sequence of acts in every rite",
        response_model=None,
        responses={**answers("application/json", "text/html"), **error_responses(400, 404, 406)},
    )
    def patterns_route(
        request: Request,
        seq: Annotated[
            str | None,
            Query(max_length=400, pattern=SEQ_PATTERN, description="acts, [AGENT:]ACT[→RECIPIENT], comma-separated"),
        ] = None,
        within: Annotated[int, Query(ge=1, le=MAX_WITHIN, description="widest span in steps")] = DEFAULT_WITHIN,
        rite: Annotated[str | None, Query(max_length=100)] = None,
        format: Annotated[Literal["json", "html"] | None, Query(description="json or html")] = None,  # noqa: A002
    ) -> Response:
        """Every occurrence of a pattern (:meth:`yili.graph.patterns.PatternIndex.search`), grouped by
        rite: ``{"pattern": [{"agent", "act", "recipient"}], "within", "total", "truncated", "rites":
        [{"rite", "label", "count", "occurrences": [{"edition", "span", "steps": [step records with
        url]}]}]}`` (rites in chapter order; ``within`` is at least the pattern's length); with no
        ``seq``, no hits and a ``usage`` line; the pattern page for a browser.  An unknown name, or an
        element that is not ``[AGENT:]ACT[→RECIPIENT]``, is 404 naming it."""
        _only(request, {"seq", "within", "rite", "format"})
        if _wants(request, format, ("application/json", "text/html")) == "html":
            return html_page("patterns.html", {"Vary": "Accept"})
        if not seq or not any(p.strip() for p in re.split(SEPARATORS, seq)):
            return JSONResponse(
                {
                    "pattern": [],
                    "within": within,
                    "total": 0,
                    "truncated": False,
                    "rites": [],
                    "usage": "/patterns?seq=洗,酌,獻&within=25 (acts, each [AGENT:]ACT[→RECIPIENT])",
                },
                headers={"Vary": "Accept"},
            )
        pattern = parse_pattern(seq, vocabulary)
        within = max(within, len(pattern))  # a window narrower than the pattern is the pattern's own length
        found = corpus.index.search(pattern, within, rite)
        order = {k: i for i, k in enumerate(vocabulary.rites)}
        groups: dict[str, list[dict[str, Any]]] = {}
        for o in found[:MAX_OCCURRENCES]:
            groups.setdefault(o.where.split("/")[0], []).append(
                {"edition": o.where, "span": o.span, "steps": [s.as_record() for s in o.steps]}
            )
        counts = Counter(o.where.split("/")[0] for o in found)
        rites = [
            {"rite": key, "label": _rite_label(service, key), "count": counts[key], "occurrences": groups[key]}
            for key in sorted(groups, key=lambda k: (order.get(k, len(order)), k))
        ]
        return JSONResponse(
            {
                "pattern": [_element(e, vocabulary) for e in pattern],
                "within": within,
                "total": len(found),
                "truncated": len(found) > MAX_OCCURRENCES,
                "rites": rites,
            },
            headers={"Vary": "Accept"},
        )

    @router.get("/next", summary="What follows an act, per rite", responses=error_responses(400, 404))
    def next_route(
        request: Request,
        after: Annotated[str, Query(max_length=100, pattern=ONE_ACT, description="an act, [AGENT:]ACT[→RECIPIENT] (拜送)")],
        n: Annotated[int, Query(ge=1, le=MAX_N, description="how many following steps")] = 1,
        rite: Annotated[str | None, Query(max_length=100)] = None,
        top: Annotated[int, Query(ge=1, le=1000)] = 20,
    ) -> dict[str, Any]:
        """The distribution of the ``n`` acts that follow each step matching ``after``
        (:meth:`~yili.graph.patterns.PatternIndex.following`), per rite (its editions together):
        ``after`` is one element (no comma); an unknown name is 404.
        ``{"after", "n", "total", "rites": [{"rite", "label", "occurrences", "next": [{"acts": [...],
        "count", "share"}]}], "overall": [...]}``, most frequent first (ties in code point order), the
        ``top`` of each."""
        _only(request, {"after", "n", "rite", "top"})
        element = parse_pattern(after, vocabulary)
        table = corpus.index.following(element[0], n, rite)
        per_rite: dict[str, Counter[tuple[str, ...]]] = {}
        for where in sorted(table):
            per_rite.setdefault(where.split("/")[0], Counter()).update(table[where])
        overall: Counter[tuple[str, ...]] = Counter()
        order = {k: i for i, k in enumerate(vocabulary.rites)}
        rites = []
        for key in sorted(per_rite, key=lambda k: (order.get(k, len(order)), k)):
            counts = per_rite[key]
            overall.update(counts)
            rites.append({"rite": key, "label": _rite_label(service, key), **_distribution(counts, top)})
        return {
            "after": _element(element[0], vocabulary),
            "n": n,
            "total": sum(overall.values()),
            "rites": rites,
            "overall": _distribution(overall, top)["next"],
        }

    @router.get(
        "/ngrams",
        summary="The most frequent runs of acts, per rite",
        response_model=None,
        responses={**answers("application/json", "text/csv"), **error_responses(400, 404, 406)},
    )
    def ngrams_route(
        request: Request,
        n: Annotated[int, Query(ge=1, le=MAX_N)] = 3,
        rite: Annotated[str | None, Query(max_length=100)] = None,
        top: Annotated[int, Query(ge=1, le=10000)] = 20,
        format: Annotated[Literal["json", "csv"] | None, Query(description="json or csv")] = None,  # noqa: A002
    ) -> Response:
        """Each edition's ``top`` most frequent runs of ``n`` acts (zh-Hant labels of the action
        concepts): JSON ``{"n", "sequences": [{"edition", "steps", "ngrams": [{"acts", "count"}]}]}`` or
        CSV (``sequence, rank, acts, count``)."""
        _only(request, {"n", "rite", "top", "format"})
        kind = _wants(request, format, ("application/json", "text/csv"))
        table = corpus.index.ngrams(n, rite)
        if kind == "csv":
            return Response(ngrams_csv(table, top), media_type="text/csv; charset=utf-8", headers={"Vary": "Accept"})
        return JSONResponse(
            {
                "n": n,
                "sequences": [
                    {
                        "edition": key,
                        "steps": len(corpus.index.sequences[key]),
                        "ngrams": [{"acts": list(g), "count": c} for g, c in ranked(table[key], top)],
                    }
                    for key in sorted(table)
                ],
            },
            headers={"Vary": "Accept"},
        )

    return router


def _element(e: Any, vocabulary: Any) -> dict[str, Any]:
    """A pattern element as JSON: the concepts' zh-Hant labels (``{"agent": "主人", "act": "獻", "recipient": "賓"}``)."""

    def label(key: str | None) -> str | None:
        return vocabulary.concepts[key].hant if key else None

    return {"agent": label(e.agent), "act": label(e.act), "recipient": label(e.recipient), "written": e.written}


def _distribution(counts: Counter[tuple[str, ...]], top: int) -> dict[str, Any]:
    total = sum(counts.values())
    return {
        "occurrences": total,
        "next": [{"acts": list(g), "count": c, "share": round(c / total, 4)} for g, c in ranked(counts, top)],
    }
