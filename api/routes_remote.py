"""``/sparql`` over a remote store (``yili-kg serve --endpoint URL``): the embedded endpoint's protocol,
limits and errors, the evaluation proxied to the remote SPARQL 1.1 endpoint.

The router is :func:`~yili.api.sparql.make_sparql_router`'s own, so the request is read and checked
exactly as over the embedded store (:func:`~yili.api.sparql.read_operation`): an update (``update=``,
an ``application/sparql-update`` body) is refused with 403 ``read_only``, ``SERVICE`` with 400, a
body, query or bracket count over :class:`~yili.api.sparql.SparqlLimits` with 413.  Only the
evaluation differs (:class:`RemoteEvaluator`): the query is sent to the remote endpoint only when its
form, after the prologue, is ``SELECT``, ``ASK``, ``CONSTRUCT`` or ``DESCRIBE``; a text that starts
as an update (``INSERT``, ``DELETE``, ``LOAD`` …) is refused 403 with the embedded endpoint's message,
anything else 400 ``query``, without reaching the store.  The answer is read back into pyoxigraph's
result objects (:meth:`~yili.graph.remote.SparqlHttpStore.query`) and then cut and serialised by the
embedded endpoint's own code (:func:`~yili.api.sparql_eval.evaluate_operation`): the same row cap
(``max_rows``, 413 or a truncated answer), the same formats and content negotiation, the same bytes
for the same solutions in the same order.  The dataset is the embedded one's: without ``FROM`` or
dataset parameters the default graph is the union of the store's named graphs (sent as
``default-graph-uri`` and ``named-graph-uri``); dataset parameters are passed on; a ``FROM`` is left to
the store.

The time budget (``timeout_s``) covers the wait for a free lane and the remote request (httpx's
timeout is the budget left): past it, 503 ``timeout``.  At most ``max_concurrent_queries`` requests
go to the store at once; a query that waits ``max_queue_wait_s`` for one is answered 503 ``busy`` with
``Retry-After`` (not sent).  A query the store refuses with a 4xx (its parser's error) is answered
400 ``query`` with the store's first line; a store that fails (5xx, unreachable) 502 ``remote_store``.
No answer is cached: the remote store may change while served.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi.responses import Response
from yili.api.sparql import SparqlLimits, SparqlRouter, make_sparql_router
from yili.api.sparql_eval import Operation, QueryAnswer, evaluate_operation, timeout_message
from yili.api.sparql_pool import release_frames
from yili.graph.remote import RemoteRefusedError, RemoteTimeoutError, RemoteTooLargeError, SparqlHttpStore
from yili.ontology.errors import EndpointBusyError, QueryTimeoutError, RequestTooLargeError

REMOTE_ANSWER_MAX_BYTES = 256 * 1024 * 1024
"""The largest answer (bytes) read from the remote store for one query; larger: 413 ``too_large``."""


class _Proxied:
    """The remote store as :func:`~yili.api.sparql_eval.evaluate_operation` asks a store: ``query`` with the
    embedded endpoint's dataset arguments, within the time left before ``deadline`` (monotonic s)."""

    def __init__(self, remote: SparqlHttpStore, deadline: float, limits: SparqlLimits) -> None:
        self._remote, self._deadline, self._limits = remote, deadline, limits

    def query(
        self,
        query: str,
        *,
        base_iri: str | None = None,
        use_default_graph_as_union: bool = False,
        default_graph: list[Any] | None = None,
        named_graphs: list[Any] | None = None,
    ) -> Any:
        """The remote answer as pyoxigraph's result objects.

        Raises
        ------
        SyntaxError
            Not one of the four query forms (``evaluate_operation`` answers 403 for an update, else 400), or
            refused by the store with a 4xx (its message).
        QueryTimeoutError, RequestTooLargeError
            The budget ran out; the answer is over :data:`REMOTE_ANSWER_MAX_BYTES`.
        """
        dataset: bool | tuple[list[str], list[str]]
        if default_graph is not None or named_graphs is not None:
            dataset = ([g.value for g in default_graph or []], [g.value for g in named_graphs or []])
        else:
            dataset = bool(use_default_graph_as_union)  # False: the query's own FROM
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise QueryTimeoutError(timeout_message(self._limits))
        try:
            return self._remote.query(query, base_iri=base_iri, dataset=dataset, timeout=left, max_bytes=REMOTE_ANSWER_MAX_BYTES)
        except RemoteRefusedError as error:
            raise SyntaxError(f"the store {self._remote.endpoint} refused it: {error.remote_message}") from None
        except RemoteTimeoutError:
            raise QueryTimeoutError(timeout_message(self._limits)) from None
        except RemoteTooLargeError:
            raise RequestTooLargeError(
                f"The remote store's answer is over {REMOTE_ANSWER_MAX_BYTES:,} bytes; add a LIMIT or narrow the pattern."
            ) from None


class RemoteEvaluator:
    """Evaluates the endpoint's operations on a remote store (see the module), on
    ``limits.max_concurrent_queries`` threads of the server."""

    def __init__(self, remote: SparqlHttpStore, limits: SparqlLimits) -> None:
        self._remote = remote
        self._limits = limits
        self._lanes = threading.BoundedSemaphore(limits.max_concurrent_queries)
        self._threads = ThreadPoolExecutor(limits.max_concurrent_queries, thread_name_prefix="sparql-remote")

    def _run(self, operation: Operation, deadline: float) -> QueryAnswer:
        try:
            store = _Proxied(self._remote, deadline, self._limits)
            return evaluate_operation(lambda: store, operation, self._limits, deadline, threading.Event())
        except BaseException as error:  # its frames hold pyoxigraph's results, bound to this thread
            release_frames(error)
            raise
        finally:
            self._lanes.release()

    async def evaluate(self, operation: Operation) -> QueryAnswer:
        """The answer to ``operation`` from the remote store, serialised as the embedded endpoint's.

        Raises
        ------
        EndpointBusyError
            Every lane stayed taken for ``limits.max_queue_wait_s`` (the query was not sent).
        QueryTimeoutError
            The budget ran out.
        YiliError
            What :func:`~yili.api.sparql_eval.evaluate_operation` raises, and
            :class:`~yili.graph.remote.RemoteStoreError` (502) when the store fails.
        """
        limits = self._limits
        deadline = time.monotonic() + limits.timeout_s
        wait = min(limits.max_queue_wait_s, limits.timeout_s)
        if not self._lanes.acquire(blocking=False) and not await asyncio.to_thread(self._lanes.acquire, True, wait):
            raise EndpointBusyError(
                f"The SPARQL endpoint is busy: no lane to the remote store was free within {wait:g} s "
                "(SparqlLimits.max_queue_wait_s); the query was not sent. Send it again after the Retry-After delay."
            )
        try:
            future = self._threads.submit(self._run, operation, deadline)
        except BaseException:
            self._lanes.release()
            raise
        try:
            left = max(0.0, deadline - time.monotonic())
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=left)
        except TimeoutError:
            raise QueryTimeoutError(timeout_message(limits)) from None

    def close(self) -> None:
        """Stop taking queries; the requests still running end within their budget."""
        self._threads.shutdown(wait=False, cancel_futures=True)


def make_remote_sparql_router(
    store: SparqlHttpStore, limits: SparqlLimits | None = None, query_page: Callable[[], Response] | None = None
) -> SparqlRouter:
    """``GET|POST /sparql`` over ``store``, as :func:`~yili.api.sparql.make_sparql_router` over the
    embedded store (same parameters, limits, formats and errors; see the module).

    Parameters
    ----------
    store : SparqlHttpStore
        The remote store served (``serve --endpoint``).
    limits : SparqlLimits, optional
        Bounds on each request (``isolation`` is not used: nothing is evaluated here).
    query_page : callable () -> Response, optional
        The query page answered to a browser's ``GET /sparql`` without a query.
    """
    limits = limits or SparqlLimits()
    return make_sparql_router(lambda: store, limits=limits, query_page=query_page, evaluator=RemoteEvaluator(store, limits))
