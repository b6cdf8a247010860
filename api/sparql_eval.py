"""The evaluation side of the SPARQL endpoint (:mod:`yili.api.sparql`): the limits, a query operation
read from a request, content negotiation, and the evaluation of one query with pyoxigraph, with the
entry point of a worker process.

This module imports nothing but the standard library, pyoxigraph and the project's errors, so a
worker process (started with ``spawn``, which imports the module of its entry point) holds the
store and the evaluator alone, some 30 MiB, not the web framework: the server's own process is the
only one that imports FastAPI.  :mod:`yili.api.sparql` re-exports every name it defines.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import re
import signal
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import pyoxigraph
from pyoxigraph import QueryBoolean, QueryResultsFormat, QuerySolutions, RdfFormat
from yili.api.sparql_cheap import with_row_cap
from yili.ontology.errors import (
    NotAcceptableError,
    QueryError,
    QueryTimeoutError,
    ReadOnlyError,
    RequestTooLargeError,
    YiliError,
)

log = logging.getLogger("yili.api.sparql")


TRUNCATED_HEADER = "X-SPARQL-Results-Truncated"


WORKER_STACK_BYTES = 256 * 1024 * 1024
"""Stack of each evaluating thread: room for Oxigraph's recursion on ``SparqlLimits.max_brackets``."""


@dataclass(frozen=True)
class SparqlLimits:
    """Bounds on what one request may cost the endpoint.

    Parameters
    ----------
    max_query_length : int, default 100_000
        Longest query accepted, in characters (after form decoding); longer: 413 ``too_large``.
    max_body_bytes : int, default 1_000_000
        Largest POST body read, in bytes; larger (by ``Content-Length`` or as it streams in): 413.
    timeout_s : float, default 10.0
        Time budget per query in seconds, from the moment the request is queued for evaluation to
        the last byte serialised; past it: 503 ``timeout``, with a message naming this limit.
    max_rows : int, default 100_000
        Most solutions (``SELECT``) or triples (``CONSTRUCT`` / ``DESCRIBE``) one answer may hold.
    truncate_results : bool, default False
        What happens past ``max_rows``: ``False`` answers 413 ``too_large`` (a client never mistakes
        a partial answer for a whole one); ``True`` answers 200 with the first ``max_rows`` rows and
        the header ``X-SPARQL-Results-Truncated: <max_rows>``.
    max_brackets : int, default 10_000
        Most brackets (``{ ( [ <``, counted in the raw text) a query may hold; more: 413.  Nesting
        depth cannot exceed it, so with :data:`WORKER_STACK_BYTES` of stack Oxigraph's recursive
        parser cannot overflow (it needs about 4 KiB per level, 40 MiB at this bound).
    max_concurrent_queries : int, default 4
        Workers (processes or threads) evaluating queries; further queries wait for a free worker,
        and the wait counts against their time budget.
    max_queue_wait_s : float, default 2.0
        With ``isolation="process"``, the longest a query waits for a free worker; past it the
        query is answered 503 ``busy`` with ``Retry-After`` (it never ran), not ``timeout``.
    long_query_s : float, default 0.5
        With ``isolation="process"``, a query still running after this many seconds in its worker
        is *long*: the thread evaluating it lowers its CPU priority (``nice`` 19) so that short
        queries on the other workers come first.
    short_lane : int, default 2
        With ``isolation="process"``, workers that long queries cannot hold: at most
        ``max_concurrent_queries - short_lane`` long queries run at once, and a query that becomes
        long when they are all taken is stopped and answered 503 ``busy`` with ``Retry-After``.
        Point lookups thus always find a worker, whatever slow queries arrive.  With a single
        worker there is no short lane (one long query at a time).
    answer_cache_bytes : int, default 32 MiB
        With ``isolation="process"``, how many bytes of answers the server keeps, so that the same
        operation sent again (the same text, dataset and format) is answered from memory, without
        evaluating anything: the store is read-only while it is served, so a query that gives the
        same answer every time gives the same bytes.  Only whole answers (not truncated, at most
        1/16 of this bound each) of queries that use none of ``NOW``, ``RAND``, ``UUID``,
        ``STRUUID`` or ``BNODE`` are kept (the functions whose value changes from one evaluation
        to the next, SPARQL 1.1 Query sections 17.4.3.10, 17.4.5.1, 17.4.2.8-9), the least recently
        used going first.  Nothing is evaluated in the server process itself but the queries
        :func:`yili.api.sparql_cheap.is_cheap` proves cheap by their form.  0 turns the cache off.
    max_worker_memory_bytes : int, default 2 GiB
        With ``isolation="process"``, how much more address space a worker may take while it
        evaluates (``RLIMIT_AS`` over what it holds at start).  A query that needs more (a huge
        sort or join) fails in its worker, which is replaced, and the request gets a 500 JSON
        answer ``evaluation_crashed``; the other workers and the server are unaffected.
    isolation : {"process", "thread"}, default "process"
        Where queries are evaluated.  ``"process"``: in worker processes, each holding a copy of
        the store, killed when a query runs past its budget (so a hostile query costs its worker at
        most ``timeout_s`` plus :data:`~yili.api.sparql_pool.KILL_GRACE_S` and a restart); the safe choice for a public
        endpoint.  ``"thread"``: on threads of the server process, with no start-up cost and no
        copy, but a query past its budget stops only at its next result row and may hold its
        thread for minutes meanwhile; for tests and trusted users.

    Raises
    ------
    ValueError
        If a bound is not positive, or ``isolation`` is neither ``"process"`` nor ``"thread"``.

    Examples
    --------
    >>> SparqlLimits().max_rows
    100000
    >>> SparqlLimits(timeout_s=2.5).timeout_s
    2.5
    >>> SparqlLimits().isolation
    'process'
    """

    max_query_length: int = 100_000
    max_body_bytes: int = 1_000_000
    timeout_s: float = 10.0
    max_rows: int = 100_000
    truncate_results: bool = False
    max_brackets: int = 10_000
    max_concurrent_queries: int = 4
    max_worker_memory_bytes: int = 2 * 1024**3
    isolation: Literal["process", "thread"] = "process"
    max_queue_wait_s: float = 2.0
    long_query_s: float = 0.5
    short_lane: int = 2
    answer_cache_bytes: int = 32 * 1024**2

    def __post_init__(self) -> None:
        bounds = ("max_query_length", "max_body_bytes", "timeout_s", "max_rows", "max_brackets")
        for name in (*bounds, "max_concurrent_queries", "max_worker_memory_bytes", "max_queue_wait_s", "long_query_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"SparqlLimits.{name} must be positive, not {getattr(self, name)!r}")
        if not self.answer_cache_bytes >= 0:
            raise ValueError(f"SparqlLimits.answer_cache_bytes must be at least 0, not {self.answer_cache_bytes!r}")
        if self.short_lane < 0:
            raise ValueError(f"SparqlLimits.short_lane must be at least 0, not {self.short_lane!r}")
        if self.isolation not in ("process", "thread"):
            raise ValueError(f"SparqlLimits.isolation must be 'process' or 'thread', not {self.isolation!r}")


@dataclass(frozen=True)
class Operation:
    """One query operation, read from the request and checked, ready to evaluate."""

    query: str
    default_graphs: tuple[str, ...]
    named_graphs: tuple[str, ...]
    base_iri: str
    accept: str
    format: str | None


# Comments, IRIs and strings, in the order a SPARQL lexer tries them (SPARQL 1.1 Query, 19.8).
_IRIREF = r"""<(?:[^<>"{}|^`\\\x00-\x20]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>"""


_STRING = (
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
)


OPAQUE = re.compile(rf"(?P<comment>#[^\n\r]*)|(?P<iri>{_IRIREF})|(?P<string>{_STRING})", re.DOTALL)
"""The parts of a query in which a keyword is no keyword: a comment, an IRI, a string (named groups
``comment``, ``iri``, ``string``; SPARQL 1.1 grammar, IRIREF and the four STRING productions)."""


_FROM = re.compile(r"(?<![\w:?$@.\-])FROM(?:\s+NAMED)?\s*(?:<>|[\w.\-]*:)", re.IGNORECASE)


def _declares_dataset(query: str) -> bool:
    """Whether the query has a ``FROM`` or ``FROM NAMED`` clause (SPARQL 1.1 Query, section 13.2).

    Comments, IRIs and strings are blanked first, so ``"quoted from the commentary"`` does not count.
    Used only to decide whether the default graph is the union of all graphs; a wrong guess changes
    which graph is queried, never what the endpoint is allowed to do.

    >>> _declares_dataset("SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }")
    True
    >>> _declares_dataset('SELECT * WHERE { ?s ?p "from" } # FROM <x>')
    False
    """

    def blank(match: re.Match[str]) -> str:
        return " " if match.lastgroup == "comment" else "<>" if match.lastgroup == "iri" else '""'

    return _FROM.search(OPAQUE.sub(blank, query)) is not None


RESULTS_FORMATS: tuple[QueryResultsFormat, ...] = (
    QueryResultsFormat.JSON,
    QueryResultsFormat.XML,
    QueryResultsFormat.CSV,
    QueryResultsFormat.TSV,
)
"""The answer formats of SELECT and ASK (W3C SPARQL 1.1 Query Results JSON, XML, CSV and TSV);
the first is the default."""


_RESULTS_NAMES: dict[str, QueryResultsFormat] = {
    "json": QueryResultsFormat.JSON,
    "srj": QueryResultsFormat.JSON,
    "xml": QueryResultsFormat.XML,
    "srx": QueryResultsFormat.XML,
    "csv": QueryResultsFormat.CSV,
    "tsv": QueryResultsFormat.TSV,
}


GRAPH_FORMATS: tuple[RdfFormat, ...] = (
    RdfFormat.TURTLE,
    RdfFormat.N_TRIPLES,
    RdfFormat.RDF_XML,
    RdfFormat.JSON_LD,
)
"""The answer formats of CONSTRUCT and DESCRIBE (Turtle, N-Triples, RDF/XML, JSON-LD); the first
is the default."""


_GRAPH_NAMES: dict[str, RdfFormat] = {
    "turtle": RdfFormat.TURTLE,
    "ttl": RdfFormat.TURTLE,
    "ntriples": RdfFormat.N_TRIPLES,
    "n-triples": RdfFormat.N_TRIPLES,
    "nt": RdfFormat.N_TRIPLES,
    "rdfxml": RdfFormat.RDF_XML,
    "rdf+xml": RdfFormat.RDF_XML,
    "rdf": RdfFormat.RDF_XML,
    "xml": RdfFormat.RDF_XML,
    "jsonld": RdfFormat.JSON_LD,
    "json-ld": RdfFormat.JSON_LD,
    "json": RdfFormat.JSON_LD,
    # N3 is a superset of Turtle, so a Turtle answer is an N3 answer (SPARQLWrapper's N3 asks format=n3)
    "n3": RdfFormat.TURTLE,
    "text/n3": RdfFormat.TURTLE,
    "text/rdf+n3": RdfFormat.TURTLE,
}


_Format = TypeVar("_Format", QueryResultsFormat, RdfFormat)


_CHOSEN: dict[tuple[str, str | None, str], _Format] = {}
"""Formats :func:`_negotiate` chose, by (``Accept``, ``format=``, query form): clients send the same
few headers again and again.  Only choices are kept (a refusal is worked out again), at most
:data:`_CHOSEN_KEPT`."""
_CHOSEN_KEPT = 256


def _negotiate(
    accept: str,
    format_name: str | None,
    offered: Sequence[_Format],
    names: Mapping[str, _Format],
    from_media_type: Callable[[str], _Format | None],
    what: str,
) -> _Format:
    """Choose the answer's format: ``format=`` if given, else the best match for ``Accept``.

    ``format_name`` is every ``format=`` value joined with commas; its first name or media type that
    is offered for this query form wins.

    Each offered format gets the q-value of the most specific media range that matches it (exact,
    then ``type/*``, then ``*/*``); the highest q wins, then the most specific range, then the order
    of ``offered`` (whose first entry is the default, also used when ``Accept`` is absent).

    Raises
    ------
    NotAcceptableError
        ``format=`` names nothing offered for this query form, or ``Accept`` excludes every offer.
    """
    key = (accept, format_name, what)
    chosen = _CHOSEN.get(key)
    if chosen is None:
        chosen = _choose(accept, format_name, offered, names, from_media_type, what)
        if len(_CHOSEN) >= _CHOSEN_KEPT:
            _CHOSEN.clear()
        _CHOSEN[key] = chosen
    return chosen


def _choose(
    accept: str,
    format_name: str | None,
    offered: Sequence[_Format],
    names: Mapping[str, _Format],
    from_media_type: Callable[[str], _Format | None],
    what: str,
) -> _Format:
    """:func:`_negotiate`'s choice, worked out (the same arguments and errors)."""
    if format_name is not None and format_name.strip():
        for part in format_name.split(","):
            key = part.split(";")[0].strip().lower()
            chosen = names.get(key) or (_lookup(from_media_type, key) if "/" in key else None)
            if chosen is not None and chosen in offered:
                return chosen
        raise NotAcceptableError(f"format={format_name[:40]!r} is not available for {what}; use one of: {', '.join(names)}.")
    ranges = media_ranges(accept)
    if not ranges:
        return offered[0]
    best: tuple[float, int, int] | None = None
    chosen_format: _Format | None = None
    for position, offer in enumerate(offered):
        offer_type = offer.media_type.split(";")[0].split("/")[0]
        match: tuple[int, float] | None = None  # (specificity, q) of the most specific range
        for media_range, q in ranges:
            if media_range == "*/*":
                specificity = 1
            elif media_range.endswith("/*"):
                if media_range[:-2] != offer_type:
                    continue
                specificity = 2
            elif _lookup(from_media_type, media_range) == offer:
                specificity = 3
            else:
                continue
            if match is None or (specificity, q) > match:
                match = (specificity, q)
        if match is None or match[1] <= 0:
            continue
        rank = (match[1], match[0], -position)
        if best is None or rank > best:
            best, chosen_format = rank, offer
    if chosen_format is None:
        offers = ", ".join(offer.media_type.split(";")[0] for offer in offered)
        raise NotAcceptableError(f"Accept: {accept[:100]!r} allows no format offered for {what} ({offers}).")
    return chosen_format


def _lookup(from_media_type: Callable[[str], _Format | None], media_type: str) -> _Format | None:
    """pyoxigraph's format for a media type (with its aliases), or None."""
    try:
        return from_media_type(media_type)
    except (ValueError, TypeError):
        return None


def media_ranges(accept: str) -> list[tuple[str, float]]:
    """The ``(media range, q)`` pairs of an Accept header; ranges with a malformed q are dropped.

    >>> media_ranges("text/csv;q=0.5, application/sparql-results+json")
    [('text/csv', 0.5), ('application/sparql-results+json', 1.0)]
    """
    ranges = []
    for part in accept.split(","):
        media_range, *parameters = part.split(";")
        media_range = media_range.strip().lower()
        if "/" not in media_range:
            continue
        q = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = min(max(float(value.strip()), 0.0), 1.0)
                except ValueError:
                    q = -1.0
        if q >= 0:
            ranges.append((media_range, q))
    return ranges


@dataclass(frozen=True)
class QueryAnswer:
    """A serialised answer: body bytes, media type and extra headers; ``cpu_s``, the CPU time (seconds)
    its evaluation took on the evaluating thread, when a worker process measured it (else 0)."""

    body: bytes
    media_type: str
    headers: dict[str, str]
    cpu_s: float = 0.0


_WORKER: dict[str, Any] = {}
"""In a worker process: its ``store``, or the ``error`` that kept it from opening one."""


def init_worker(path: str | None, nquads: bytes | None, max_memory_bytes: int, server_pid: int) -> None:
    """Start a worker process (pebble's ``initializer``): cap its memory, watch the server, and open
    the store's folder read-only (``path``) or load ``nquads`` into a store of its own.

    Never raises (a failing initializer would make pebble start worker after worker): a store that
    cannot be opened is kept as an error that each query then reports (:func:`run_task`).
    :func:`pyoxigraph.parse` keeps blank node labels (which ``Store.load`` would rename), so answers
    are the same as from the server's own store.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the workers too: the server stops them
    _cap_memory(max_memory_bytes)
    threading.Thread(target=_exit_with_server, args=(server_pid,), name="sparql-server-watch", daemon=True).start()
    try:
        if path is not None:
            _WORKER["store"] = pyoxigraph.Store.read_only(path)
        else:
            store = pyoxigraph.Store()
            store.bulk_extend(pyoxigraph.parse(nquads or b"", format=RdfFormat.N_QUADS))
            _WORKER["store"] = store
    except OSError as exc:  # moved or deleted: named in one line, no traceback
        missing = path is not None and not (Path(path) / "CURRENT").is_file()
        _WORKER["error"] = (
            "missing" if missing else "failed",
            f"The store {path} that this endpoint serves cannot be opened: it was moved or deleted while served. "
            "Put it back, or restart the server on another (yili-kg serve --store DIR)."
            if missing
            else f"cannot open the store: {exc}",
        )
    except Exception:
        _WORKER["error"] = ("failed", traceback.format_exc())


def ping_worker() -> int:
    """A task that only says its worker has started (its process id)."""
    return os.getpid()


def run_task(operation: Operation, deadline: float, long_after_s: float, limits: SparqlLimits) -> tuple[str, Any]:
    """Evaluate one query in a worker process (a pebble task), on a thread of its own with a
    :data:`WORKER_STACK_BYTES` stack, until ``deadline`` (:func:`time.monotonic`, system-wide on
    Linux).  After ``long_after_s`` seconds that thread lowers its CPU priority to ``nice`` 19 (Linux
    keeps one per thread; the thread ends with the query, so the worker's next query starts at 0).

    Returns ``("answer", QueryAnswer)`` with the CPU time its evaluation took, ``("error", (name, kind,
    status, message))`` for a :class:`YiliError` (a store that cannot be opened: a
    ``StoreUnavailableError``), or ``("failed", traceback text)``: plain data, whatever pickles.
    """
    if "error" in _WORKER:
        how, text = _WORKER["error"]
        if how == "missing":
            return "error", ("StoreUnavailableError", "store_unavailable", 503, text)
        return "failed", text
    store = _WORKER["store"]
    reply: list[tuple[str, Any]] = []

    def evaluate() -> None:
        started = time.thread_time()
        try:
            answer = evaluate_operation(lambda: store, operation, limits, deadline, _NEVER)
            reply.append(("answer", dataclasses.replace(answer, cpu_s=time.thread_time() - started)))
        except YiliError as error:
            reply.append(("error", (type(error).__name__, error.kind, error.status, error.message)))
        except Exception:
            reply.append(("failed", traceback.format_exc()))

    thread = threading.Thread(target=evaluate, name="sparql-evaluator")
    start_with_large_stack(thread)
    thread.join(long_after_s)
    if thread.is_alive():
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, thread.native_id or 0, 19)
        thread.join()
    return reply[0]


_NEVER = threading.Event()
"""The stop signal of a worker's evaluation: never set (the deadline suffices, and pebble kills past it)."""


def _cap_memory(extra_bytes: int) -> None:
    """Cap this worker's address space at what it holds now plus ``extra_bytes`` (``RLIMIT_AS``),
    so one query cannot take the machine's memory; a no-op where the limit cannot be set."""
    try:
        import resource

        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
        current = pages * os.sysconf("SC_PAGE_SIZE")
        limit = current + extra_bytes + WORKER_STACK_BYTES
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError):
        log.warning("could not cap the memory of a SPARQL worker")


def _exit_with_server(server_pid: int) -> None:
    """End this worker process once its parent, the server, is gone (checked every second)."""
    while os.getppid() == server_pid:
        time.sleep(1.0)
    os._exit(0)


_STACK_SIZE_LOCK = threading.Lock()


def start_with_large_stack(thread: threading.Thread) -> None:
    """Start ``thread`` with a :data:`WORKER_STACK_BYTES` stack (the default elsewhere is unchanged).

    :func:`threading.stack_size` is process-wide, so it is set just for this start and restored.
    """
    with _STACK_SIZE_LOCK:
        try:
            previous = threading.stack_size(WORKER_STACK_BYTES)
        except (ValueError, RuntimeError):  # a platform that cannot size thread stacks
            thread.start()
            return
        try:
            thread.start()
        finally:
            threading.stack_size(previous)


def timeout_message(limits: SparqlLimits) -> str:
    """The one-line message of a query stopped at ``limits.timeout_s`` (seconds), for its 503 answer."""
    return (
        f"The query ran past the time budget of {limits.timeout_s:g} s (SparqlLimits.timeout_s); "
        "narrow the pattern or add a LIMIT."
    )


def evaluate_operation(
    get_store: Callable[[], pyoxigraph.Store],
    operation: Operation,
    limits: SparqlLimits,
    deadline: float,
    stop: threading.Event | Any,
    cheap: bool = False,
) -> QueryAnswer:
    """Evaluate one query with pyoxigraph and serialise its answer (on a worker's large-stack thread).

    Results are read one row at a time; reading stops as soon as the budget is spent (``deadline``,
    on this process's :func:`time.monotonic` clock, or ``stop`` set: anything with ``is_set()``) or ``limits.max_rows`` is
    passed.  pyoxigraph's result objects never leave this thread.

    With ``cheap`` (a query :func:`~yili.api.sparql_cheap.is_cheap` has accepted: only then), the query is evaluated
    with a ``LIMIT`` of one row past the cap (:func:`~yili.api.sparql_cheap.with_row_cap`) and its
    rows written by pyoxigraph as they come, without a Python object per row
    (:func:`_serialize_capped`); the budget is checked before and after.  The answer is byte for byte
    the one the rows read one at a time give.

    Raises
    ------
    QueryError
        The query does not parse (the parser's message), a dataset IRI is invalid, or evaluation fails.
    NotAcceptableError
        No offered format for this query form satisfies ``Accept`` / ``format=``.
    RequestTooLargeError
        More than ``limits.max_rows`` rows, unless ``limits.truncate_results``.
    QueryTimeoutError
        The budget ran out between rows.
    """

    def check_budget() -> None:
        if stop.is_set() or time.monotonic() > deadline:
            raise QueryTimeoutError(timeout_message(limits))

    check_budget()
    store = get_store()
    capped = with_row_cap(operation.query, limits.max_rows + 1, proven=True) if cheap else None
    # a query is_cheap accepts has no FROM (its form has none): only the protocol's parameters name a dataset
    dataset = _dataset(operation) if capped is None or operation.default_graphs or operation.named_graphs else _UNION
    try:
        results = store.query(capped or operation.query, base_iri=operation.base_iri, **dataset)
        check_budget()
        headers: dict[str, str] = {}
        if isinstance(results, QueryBoolean):
            results_format = _results_format(operation, "ASK results")
            return QueryAnswer(answer_bytes(results.serialize(format=results_format)), results_format.media_type, {})
        if isinstance(results, QuerySolutions):
            results_format = _results_format(operation, "SELECT results")
            if capped is not None:
                body = _serialize_under_cap(results, limits, results_format)
                if body is None:  # too long to be sure it is under the cap: evaluated again, its rows counted
                    check_budget()
                    results = store.query(capped, base_iri=operation.base_iri, **dataset)
                    assert isinstance(results, QuerySolutions)
                    body = _serialize_capped(results, limits, results_format, headers)
                check_budget()
                return QueryAnswer(body, results_format.media_type, headers)
            variables = [str(variable) for variable in results.variables]
            rows = _take(results, limits, check_budget, headers)
            body = _serialize_solutions(variables, rows, results_format)
            check_budget()
            return QueryAnswer(body, results_format.media_type, headers)
        graph_format = _negotiate(
            operation.accept,
            operation.format,
            GRAPH_FORMATS,
            _GRAPH_NAMES,
            RdfFormat.from_media_type,
            "CONSTRUCT and DESCRIBE results",
        )
        # a graph is a set: a DESCRIBE over the union of the named graphs gives a triple once per
        # graph that holds it (Oxigraph), CONSTRUCT once; each is written once, in first-seen order
        triples = list(dict.fromkeys(_take(results, limits, check_budget, headers)))
        body = answer_bytes(pyoxigraph.serialize(triples, format=graph_format))
        check_budget()
        return QueryAnswer(body, graph_format.media_type, headers)
    except YiliError:
        raise
    except SyntaxError as error:
        if _looks_like_update(operation.query):
            raise ReadOnlyError(
                "This SPARQL endpoint is read-only: the query is a SPARQL Update (INSERT, DELETE, LOAD, "
                "CLEAR, CREATE, DROP, COPY, MOVE or ADD), which is not accepted."
            ) from None
        raise QueryError(f"The query is not valid SPARQL 1.1: {error}") from None
    except (RuntimeError, ValueError, TypeError) as error:
        # pyoxigraph's evaluation errors; an OSError (the storage failing) is the server's fault,
        # not the client's, and goes on to be logged and answered 500.
        raise QueryError(f"The query could not be evaluated: {error}") from None


def _results_format(operation: Operation, what: str) -> QueryResultsFormat:
    """The negotiated format of SELECT or ASK results (see :func:`_negotiate`)."""
    return _negotiate(
        operation.accept,
        operation.format,
        RESULTS_FORMATS,
        _RESULTS_NAMES,
        QueryResultsFormat.from_media_type,
        what,
    )


_UNION: dict[str, Any] = {"use_default_graph_as_union": True}


def _dataset(operation: Operation) -> dict[str, Any]:
    """pyoxigraph's dataset arguments for an operation (SPARQL 1.1 Protocol 2.1.4).

    Protocol parameters, when given, replace the query's dataset entirely (an absent
    ``default-graph-uri`` means an empty default graph).  Otherwise a query without ``FROM`` sees the
    union of all graphs as its default graph.
    """
    if operation.default_graphs or operation.named_graphs:
        return {
            "default_graph": [_graph_name(iri, "default-graph-uri") for iri in operation.default_graphs],
            "named_graphs": [_graph_name(iri, "named-graph-uri") for iri in operation.named_graphs],
        }
    if _declares_dataset(operation.query):
        return {}
    return _UNION


def _graph_name(iri: str, parameter: str) -> pyoxigraph.NamedNode:
    try:
        return pyoxigraph.NamedNode(iri)
    except ValueError as error:
        raise QueryError(f"{parameter} {iri!r} is not a valid IRI: {error}") from None


def _take(results: Any, limits: SparqlLimits, check_budget: Callable[[], None], headers: dict[str, str]) -> list[Any]:
    """Read at most ``limits.max_rows`` rows lazily, checking the budget before each one.

    One row past the cap means the answer is too large: RequestTooLargeError, or, with
    ``limits.truncate_results``, the first ``max_rows`` rows and a truncation header.
    """
    rows: list[Any] = []
    for row in results:
        if len(rows) == limits.max_rows:
            if not limits.truncate_results:
                raise RequestTooLargeError(_too_many_rows(limits))
            headers[TRUNCATED_HEADER] = str(limits.max_rows)
            break
        rows.append(row)
        check_budget()
    return rows


_MIN_ROW_BYTES = 2
"""The fewest bytes pyoxigraph writes for one solution in SPARQL Results JSON (``{}``), XML
(``<result/>`` or longer) and CSV (a line break, ``\r\n``): a body shorter than this times one row
past the cap holds no more rows than the cap."""


def _serialize_under_cap(results: QuerySolutions, limits: SparqlLimits, results_format: QueryResultsFormat) -> bytes | None:
    """The answer of a query already capped at ``limits.max_rows + 1`` rows, written by pyoxigraph in
    ``results_format`` straight from the live result, when it is sure to hold at most
    ``limits.max_rows`` rows; else None (the caller then counts them: :func:`_serialize_capped`).

    Sure: in TSV, its lines counted (a line break in a term is escaped: one line a row, after the
    header line); in the other formats, a body shorter than :data:`_MIN_ROW_BYTES` times
    ``limits.max_rows + 1`` bytes (a point lookup's is a few KiB, the bound 200 KB at the default
    cap).  The bytes are those of :func:`_serialize_capped`, which writes the rows as TSV, parses
    them and writes them in ``results_format`` (checked on every step's lookup of the 述註 in each
    format, ``tests/api/test_sparql_cheap_capped.py``).
    """
    body = answer_bytes(results.serialize(format=results_format))
    if results_format == QueryResultsFormat.TSV:
        return body if body.count(b"\n") - 1 <= limits.max_rows else None
    return body if len(body) < _MIN_ROW_BYTES * (limits.max_rows + 1) else None


def _serialize_capped(
    results: QuerySolutions, limits: SparqlLimits, results_format: QueryResultsFormat, headers: dict[str, str]
) -> bytes:
    """The answer of a query already capped at ``limits.max_rows + 1`` rows: its solutions written by
    pyoxigraph as SPARQL Results TSV (one line a row, after the header line; a line break in a term is
    escaped), counted, cut at the cap as :func:`_take` does, then parsed and written in
    ``results_format`` as :func:`_serialize_solutions` does.

    Raises
    ------
    RequestTooLargeError
        More than ``limits.max_rows`` rows, unless ``limits.truncate_results``.
    """
    tsv = answer_bytes(results.serialize(format=QueryResultsFormat.TSV))
    lines = tsv.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if len(lines) - 1 > limits.max_rows:
        if not limits.truncate_results:
            raise RequestTooLargeError(_too_many_rows(limits))
        headers[TRUNCATED_HEADER] = str(limits.max_rows)
        tsv = b"\n".join(lines[: limits.max_rows + 1]) + b"\n"
    parsed = pyoxigraph.parse_query_results(tsv, format=QueryResultsFormat.TSV)
    return answer_bytes(parsed.serialize(format=results_format))


def _too_many_rows(limits: SparqlLimits) -> str:
    return (
        f"The answer has more rows than the limit of {limits.max_rows:,} "
        "(SparqlLimits.max_rows); add a LIMIT or narrow the pattern."
    )


def _serialize_solutions(variables: Sequence[str], rows: Sequence[Any], results_format: QueryResultsFormat) -> bytes:
    """Serialise solutions already read, with pyoxigraph's serialiser for ``results_format``.

    pyoxigraph serialises only a live result iterator, which the row cap and the time budget cannot
    stop midway; so the rows read are handed back to pyoxigraph as SPARQL Results TSV (W3C, *SPARQL
    1.1 Query Results CSV and TSV Formats*, section 3), whose terms are written in pyoxigraph's own
    N-Triples syntax, parsed with :func:`pyoxigraph.parse_query_results` and serialised from there.
    """
    lines = ["\t".join(variables)]
    lines.extend("\t".join("" if term is None else _term_text(term) for term in row) for row in rows)
    tsv = ("\n".join(lines) + "\n").encode("utf-8")
    parsed = pyoxigraph.parse_query_results(tsv, format=QueryResultsFormat.TSV)
    return answer_bytes(parsed.serialize(format=results_format))


def _term_text(term: Any) -> str:
    """A term in SPARQL / N-Triples syntax; a triple term as ``<<( s p o )>>`` (RDF 1.2)."""
    if isinstance(term, pyoxigraph.Triple):
        return f"<<( {_term_text(term.subject)} {_term_text(term.predicate)} {_term_text(term.object)} )>>"
    return str(term)


def answer_bytes(serialized: bytes | None) -> bytes:
    """pyoxigraph's serialisers return None only when given an output file; never here."""
    return serialized if serialized is not None else b""


_UPDATE_START = re.compile(
    r"^(?:\s|#[^\n]*\n|(?:PREFIX\s+[^:\s]*:\s*<[^>]*>)|(?:BASE\s*<[^>]*>))*"
    r"(INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)\b",
    re.IGNORECASE,
)


def _looks_like_update(query: str) -> bool:
    """True if the text, after its prologue (PREFIX, BASE, comments), starts with an update verb:
    an update sent where a query belongs gets the read-only refusal, not a syntax error."""
    return bool(_UPDATE_START.match(query))
