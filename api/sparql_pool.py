"""Where the SPARQL endpoint's queries are evaluated: worker processes (pebble's ``ProcessPool``) under
our own small policy, or threads of the server.

Oxigraph cannot be interrupted in the middle of one evaluation step (planning, a sort, an aggregate),
and some small queries spend minutes in one: on an empty store, a property path of 1,000 steps or 400
nested collections each take Oxigraph more than 30 s before the first row.  So queries are evaluated
in worker *processes* (``SparqlLimits.isolation = "process"``, the default), which can be killed.

The processes are a :class:`pebble.ProcessPool` of ``max_concurrent_queries`` workers, started with
the ``spawn`` method (forking a server that has threads and a live Oxigraph store is unsafe) at the
first query, and reused.  Pebble runs each query as a task with a timeout, kills the worker of a task
past it or cancelled (SIGTERM, then SIGKILL), reports a worker that died during a task
(``ProcessExpired``), and starts a new worker in place of each one that ended.  Each worker opens the
served store's folder read-only when it has one (``store_path``: ``yili-kg serve`` always gives one),
so the workers share the operating system's page cache and start in a fraction of a second; otherwise
each loads the whole dataset from an N-Quads dump of the store (named graphs kept) made once per pool.

The policy is ours (:class:`ProcessPool`):

- at most ``max_concurrent_queries`` queries are given to the workers at once, served in arrival
  order; one that waits ``max_queue_wait_s`` for its turn is answered 503 ``busy`` with
  ``Retry-After``, without having run (the pool's first start, bounded by
  :data:`WORKER_START_TIMEOUT_S`, does not count);
- a query still running after ``long_query_s`` is long: the thread evaluating it lowers its own CPU
  priority (``nice`` 19; Linux keeps one per thread, and each query has a thread of its own, which
  ends with it), and at most ``max_concurrent_queries - short_lane`` long queries run at once (one
  more is cancelled, which kills its worker, and answered ``busy``), so short queries always find a
  worker.  A query that ran long once is remembered: sent again, it takes a long lane at once, or is
  answered ``busy`` at once, without running, when they are all taken;
- the budget (``timeout_s``) covers the wait for a turn and the evaluation.  When it runs out the
  request is answered 503 at once; the worker checks the budget between result rows and so usually
  stops by itself and is kept, and otherwise pebble kills it :data:`KILL_GRACE_S` later and starts
  another, while the other workers go on serving;
- nothing is evaluated in the server process but a query whose parsed form proves it cheap
  (:func:`yili.api.sparql_cheap.is_cheap`: one star of triple patterns around a bound node, no
  path, plain comparisons, under the row cap; never because an earlier run was fast), on one of
  its threads (:class:`ThreadPool`); a repeated answer comes from a cache of the answer itself
  (``answer_cache_bytes``), keyed by the query text, the dataset and the format, since
  the store is read-only while it is served.  A query that uses a function whose value changes from
  one evaluation to the next (``NOW``, ``RAND``, ``UUID``, ``STRUUID``, ``BNODE``; see
  :func:`may_change`) is never kept, nor is a truncated answer;
- a worker that dies during a query (a crash in Oxigraph, its memory cap) gets that query a 500
  ``evaluation_crashed``; pebble replaces it;
- the router's lifespan stops the pool when the application shuts down, and :mod:`atexit` hooks (ours
  and pebble's) do so at interpreter exit; a worker also exits by itself if the server process
  disappears.  Start and stop are quiet, even when they overlap: the workers are stopped before
  pebble closes their channel (:class:`_WorkersFirstPool`), a query still waiting for them to start
  is told in one line that the endpoint is shutting down, and they start with SIGINT blocked
  (:func:`_sigint_blocked`), so that a terminal's Ctrl-C reaches the server alone.

The price is memory (each worker is an interpreter of some 50 MiB, plus its own copy of the store when
it has no folder on disk), a start of about 0.3 s per worker, and the copy of each query and answer
through a pipe.  Because workers are spawned, the server's main module is imported again in each of
them: a script that starts the server must do so under ``if __name__ == "__main__":``.

``SparqlLimits.isolation = "thread"`` evaluates on a pool of threads in the server process instead
(:class:`ThreadPool`; pyoxigraph releases the GIL while it evaluates): no start-up cost and no extra
memory, but a query past its budget only stops at its next result row, and meanwhile keeps its thread.
It suits tests and trusted users.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import multiprocessing
import os
import queue
import re
import signal
import sys
import threading
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Future, InvalidStateError
from concurrent.futures import TimeoutError as FutureTimeoutError
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import Any

import pebble
import pyoxigraph
from pyoxigraph import RdfFormat
from yili.api.sparql_cheap import is_cheap
from yili.api.sparql_eval import (
    Operation,
    QueryAnswer,
    SparqlLimits,
    answer_bytes,
    evaluate_operation,
    init_worker,
    ping_worker,
    run_task,
    start_with_large_stack,
    timeout_message,
)
from yili.ontology.errors import (
    EndpointBusyError,
    EvaluationCrashedError,
    NotAcceptableError,
    QueryError,
    QueryTimeoutError,
    RequestTooLargeError,
    StoreUnavailableError,
    YiliError,
)

log = logging.getLogger("yili.api.sparql")

SERVER_SWITCH_INTERVAL_S = 0.0005
"""The interpreter's thread switch interval in a server process (seconds; Python's default is 0.005).

pyoxigraph lets go of the interpreter lock while it evaluates and takes it again for each Python
object it makes, and a thread that asks for the lock while another runs Python waits up to the switch
interval for it.  In a server the event loop's thread is that other thread, so each point lookup on a
:class:`ThreadPool` thread waited several intervals: measured (2,000 point lookups of the 述註's steps,
pyoxigraph query and serialisation, beside one busy Python thread, on the shared 2-core machine) 4.30 s
at 5 ms, 1.36 s at 1 ms, 1.19 s at 0.2 ms, against 0.5-0.8 s alone."""

WORKER_START_TIMEOUT_S = 120.0
"""Longest the first start of the workers (opening or loading the dataset) is waited for (seconds)."""
KILL_GRACE_S = 0.25
"""How long a worker whose query ran out of time has to stop by itself before pebble kills it (s)."""

_ERRORS_BY_NAME: dict[str, type[YiliError]] = {
    error.__name__: error
    for error in (
        YiliError,
        QueryError,
        NotAcceptableError,
        RequestTooLargeError,
        QueryTimeoutError,
        EndpointBusyError,
        StoreUnavailableError,
    )
}
"""The errors a worker reports, rebuilt by name in the server."""


class ProcessPool:
    """``limits.max_concurrent_queries`` worker processes (a :class:`pebble.ProcessPool`) and the
    policy on them (see the module): turns, long-query lanes, the answer cache.

    Nothing starts until the first query.  :meth:`close` stops the workers; a query after that starts
    a new pool.  Used from any event loop and thread: the shared state is guarded by a lock.
    """

    def __init__(
        self, get_store: Callable[[], pyoxigraph.Store], limits: SparqlLimits, store_path: Callable[[], str | None] | None = None
    ) -> None:
        self._get_store, self._store_path, self._limits = get_store, store_path, limits
        self._lock = threading.Lock()
        self._pool: pebble.ProcessPool | None = None
        self._started: Future[None] | None = None
        self._source: tuple[str | None, bytes | None] | None = None
        self._turns = _Turns(limits.max_concurrent_queries)
        self._long = 0
        self._long_queries: OrderedDict[tuple[object, ...], None] = OrderedDict()
        self.answers = _AnswerCache(limits.answer_cache_bytes)
        self._said_missing = False  # whether the log has said that the store on disk is gone
        self._in_process = ThreadPool(get_store, limits)  # the queries sparql_cheap.is_cheap proves cheap

    def _running(self) -> tuple[pebble.ProcessPool, Future[None]]:
        """The pool, started at the first call: its workers spawned, and one task sent to each so
        that ``started`` is done when they have opened the dataset (or failed to: logged)."""
        with self._lock:
            if self._pool is None or self._started is None:
                if self._source is None:  # the store is read-only: dumped once, kept for restarts
                    path = self._store_path() if self._store_path is not None else None
                    nquads = None if path else answer_bytes(self._get_store().dump(format=RdfFormat.N_QUADS))
                    self._source = (path, nquads)
                limits = self._limits
                self._pool = _WorkersFirstPool(
                    max_workers=limits.max_concurrent_queries,
                    initializer=init_worker,
                    initargs=(*self._source, limits.max_worker_memory_bytes, _server_pid()),
                    context=_SPAWN,
                )
                with _sigint_blocked():  # the first task starts the pool: its workers and its threads
                    pings = [
                        self._pool.schedule(ping_worker, timeout=WORKER_START_TIMEOUT_S)
                        for _ in range(limits.max_concurrent_queries)
                    ]
                started: Future[None] = Future()
                left = [len(pings)]
                counting = threading.Lock()  # not self._lock, held here: a done ping calls back at once

                def one_ready(_: Future[Any]) -> None:
                    with counting:
                        left[0] -= 1
                        done = left[0] == 0
                    if done:
                        with contextlib.suppress(InvalidStateError):  # close() may have failed it meanwhile
                            started.set_result(None)

                for ping in pings:
                    ping.add_done_callback(one_ready)
                self._started = started
                atexit.register(self.close)
            return self._pool, self._started

    async def evaluate(self, operation: Operation) -> QueryAnswer:
        """Evaluate ``operation`` in a worker process within ``limits.timeout_s`` (see the module).

        A pool that pebble gave up (a worker ended while no task ran: ``All workers expired``, which a
        worker killed at a query's budget can race into) is stopped and replaced, and the query is sent
        once more to the new one; only a second broken pool answers 503 (:class:`EndpointBusyError`).

        Raises
        ------
        EndpointBusyError
            No turn within ``limits.max_queue_wait_s`` (it never ran), or it became long while the
            long lanes were full, or it ran long before and they are full now: 503 with Retry-After.
        QueryTimeoutError
            The budget ran out.
        EvaluationCrashedError
            The worker process died during the query.
        StoreUnavailableError
            The on-disk store served was moved or deleted (the workers cannot open it).
        YiliError
            Whatever :func:`~yili.api.sparql_eval.evaluate_operation` raises in the worker.
        RuntimeError
            Evaluation failed unexpectedly (logged).
        """
        try:
            return await self._evaluate(operation)
        except _PoolReplaced:
            try:
                return await self._evaluate(operation)
            except _PoolReplaced:
                raise EndpointBusyError(_RESTARTED) from None

    async def _evaluate(self, operation: Operation) -> QueryAnswer:
        """One try of :meth:`evaluate`; raises :class:`_PoolReplaced` when the pool was found broken (and is stopped)."""
        pool, started = self._running()
        if not started.done():
            try:
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(started)), WORKER_START_TIMEOUT_S)
            except TimeoutError:
                log.error("The SPARQL worker processes did not start within %g s", WORKER_START_TIMEOUT_S)
                raise RuntimeError("The SPARQL worker processes did not start; see the log.") from None
            except BrokenProcessPool:  # close() stopped the pool while its workers started
                raise QueryTimeoutError(_SHUTTING_DOWN) from None
        limits = self._limits
        kept = self.answers.get(operation)
        if kept is not None:
            return kept
        if is_cheap(operation.query):  # proven cheap by its form: on a thread of the server
            answer = await self._in_process.evaluate(operation, cheap=True)
            self.answers.put(operation, answer)
            return answer
        deadline = time.monotonic() + limits.timeout_s
        key = _operation_key(operation)
        # whether it holds a long lane, has left it, has ended
        state = {"long": key in self._long_queries, "left": False, "done": False}
        if state["long"] and not self._enter_long():
            raise EndpointBusyError(_lanes_message(limits, known=True))  # not run: the short lane stays free
        try:
            await self._turns.take(min(limits.max_queue_wait_s, limits.timeout_s), _busy_message(limits))
        except BaseException:
            if state["long"]:
                self._leave_long()
            raise
        try:
            task = self._dispatch(pool, operation, deadline, 0.0 if state["long"] else limits.long_query_s)
        except RuntimeError:  # pebble's pool was stopped (close) or is broken (a worker ended while idle)
            self._turns.give_back()
            if state["long"]:
                self._leave_long()
            raise await self._unusable(pool) from None

        def leave_lane() -> None:  # once, when the query ends or its request does, whichever is first
            with self._lock:
                if state["long"] and not state["left"]:
                    state["left"] = True
                    self._long -= 1

        def finished(_: Future[Any]) -> None:  # the worker is free again (pebble's thread)
            self._turns.give_back()
            with self._lock:
                state["done"] = True
            leave_lane()

        task.add_done_callback(finished)
        waiting = asyncio.shield(asyncio.wrap_future(task))  # a request that gives up cancels nothing
        try:
            if not state["long"] and limits.long_query_s < limits.timeout_s:
                done = await _ran_for(task, waiting, limits.long_query_s, deadline)
                if not done:  # long: it may hold a long lane, else it is stopped
                    self._remember_long(key)
                    with self._lock:
                        refused = not state["done"] and self._long >= _long_lanes(limits)
                        if not refused and not state["done"]:
                            self._long += 1
                            state["long"] = True
                    if refused:
                        task.cancel()  # pebble kills its worker
                        raise EndpointBusyError(_lanes_message(limits))
            reply = await asyncio.wait_for(waiting, timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            raise QueryTimeoutError(timeout_message(limits)) from None
        except (CancelledError, FutureTimeoutError):  # cancelled by close(), or killed at its timeout
            raise QueryTimeoutError(timeout_message(limits)) from None
        except pebble.ProcessExpired as expired:
            raise _died(expired.exitcode) from None
        except BrokenProcessPool:  # close() stopped the pool under it
            raise QueryTimeoutError(_SHUTTING_DOWN) from None
        finally:
            leave_lane()
        try:
            answer = _outcome(*reply)
        except StoreUnavailableError as error:
            if not self._said_missing:  # one line, not one per query
                self._said_missing = True
                log.error("SPARQL worker processes cannot start: %s", error.message)
            raise
        self.answers.put(operation, answer)
        return answer

    def _dispatch(self, pool: pebble.ProcessPool, operation: Operation, deadline: float, long_after_s: float) -> Future[Any]:
        """Give the query to a worker; pebble kills it :data:`KILL_GRACE_S` past the deadline."""
        left = max(0.0, deadline - time.monotonic())
        return pool.schedule(run_task, args=(operation, deadline, long_after_s, self._limits), timeout=left + KILL_GRACE_S)

    def _remember_long(self, key: tuple[object, ...]) -> None:
        """Remember a query that ran long (the last 1,024 such)."""
        with self._lock:
            self._long_queries[key] = None
            self._long_queries.move_to_end(key)
            while len(self._long_queries) > 1024:
                self._long_queries.popitem(last=False)

    def _enter_long(self) -> bool:
        """Count one more long query if a long lane is free (``max_concurrent_queries - short_lane``)."""
        with self._lock:
            if self._long >= _long_lanes(self._limits):
                return False
            self._long += 1
            return True

    def _leave_long(self) -> None:
        with self._lock:
            self._long -= 1

    async def _unusable(self, pool: pebble.ProcessPool) -> YiliError | _PoolReplaced:
        """The error for a query that found ``pool`` stopped or broken; a broken pool that is still
        the current one is stopped (on a thread: it waits for the workers to end), so that the next
        query starts a new one."""
        with self._lock:
            current = pool is self._pool
        if not current:
            return QueryTimeoutError(_SHUTTING_DOWN)
        log.error("The SPARQL worker pool broke (a worker process ended while idle); it is started again")
        await asyncio.to_thread(self.close)
        return _PoolReplaced()

    def close(self) -> None:
        """Stop every worker process and wait until each is reaped; idempotent.  A query waiting for
        the workers to start is answered at once (the endpoint is shutting down)."""
        with self._lock:
            pool, started, self._pool, self._started = self._pool, self._started, None, None
            atexit.unregister(self.close)
        if started is not None:
            with contextlib.suppress(InvalidStateError):
                started.set_exception(BrokenProcessPool("the pool was stopped"))
        if pool is not None:
            pool.stop()
            pool.join(timeout=10)


_SPAWN = multiprocessing.get_context("spawn")
_SHUTTING_DOWN = "The SPARQL endpoint is shutting down; the query was not finished."


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in the calling thread for the duration of the ``with`` block.

    A process started meanwhile inherits the blocked signal (POSIX keeps a thread's signal mask
    across ``fork`` and ``exec``, and Python leaves it), and so does a thread (it starts with its
    creator's mask).  So the worker processes start with SIGINT blocked, and so do pebble's
    threads, which start the workers that replace ended ones.  Ctrl-C in a terminal sends SIGINT to
    the whole process group: without this, a worker still importing the package (before pebble's
    ``worker_process`` and :func:`init_worker` ignore SIGINT) would print a ``KeyboardInterrupt``
    traceback and die, and the pool would report itself broken to the query waiting for it.  The
    server stops its workers itself (SIGTERM) when it shuts down.  A SIGINT sent to the server
    meanwhile is not lost: another thread takes it, or the calling thread when the block ends.

    The resource tracker of :mod:`multiprocessing` is started first: its start unblocks SIGINT in
    the thread that starts it (CPython 3.11-3.13, ``resource_tracker.ensure_running``).
    """
    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class _PoolReplaced(Exception):
    """Internal: the pool was found broken and has been stopped; the query may be sent once more."""


_RESTARTED = (
    "The SPARQL endpoint's worker processes are being started again; the query was not evaluated. "
    "Send it again after the Retry-After delay."
)


class _WorkersFirstPool(pebble.ProcessPool):
    """pebble's :class:`~pebble.ProcessPool`, whose stop ends the worker processes *before* it
    unlinks the semaphores of its channel.

    pebble (5.2) stops a pool by closing its channel, which unlinks the channel's named semaphores,
    and only then terminating the workers.  A worker still being spawned at that moment (the server
    told to stop just after its first query, while the workers import the package) then fails to
    open those semaphores when it unpickles its channel, and prints a ``FileNotFoundError`` traceback
    from ``multiprocessing.spawn`` on the server's standard error.  Ending the workers first
    (SIGTERM: a worker still starting has no handler yet and ends silently; a started one exits
    through pebble's handler) leaves no process to see the channel go.
    """

    def _stop_pool(self) -> None:
        loop = getattr(self, "_pool_manager_loop", None)
        workers = getattr(getattr(self, "_pool_manager", None), "worker_manager", None)
        if loop is not None:
            loop.join()  # the loop that replaces ended workers has stopped: none is started after this
        if workers is not None:
            workers.force_stop_workers()
        super()._stop_pool()


def tune_server_threads() -> None:
    """Set this process's thread switch interval to :data:`SERVER_SWITCH_INTERVAL_S`: called by the
    server processes of ``yili-kg serve``, which evaluate cheap queries on threads beside the event loop."""
    sys.setswitchinterval(SERVER_SWITCH_INTERVAL_S)


def _server_pid() -> int:
    return os.getpid()


async def _ran_for(task: Future[Any], waiting: asyncio.Future[Any], seconds: float, deadline: float) -> bool:
    """Whether ``task`` ended before it had run ``seconds`` in its worker: the time it waited for a
    worker (one being replaced, say) does not count, so a point lookup that waits for a new worker is
    not taken for a long query.  Gives up (False) at ``deadline``."""
    while not task.running() and not task.done() and time.monotonic() < deadline:
        await asyncio.wait({waiting}, timeout=0.02)
    if task.done():
        return True
    done, _ = await asyncio.wait({waiting}, timeout=seconds)
    return bool(done)


class _Turns:
    """``size`` turns at the workers, given in arrival order (thread-safe, any event loop)."""

    def __init__(self, size: int) -> None:
        self._free = size
        self._lock = threading.Lock()
        self._waiters: deque[Future[None]] = deque()

    async def take(self, timeout_s: float, busy: str) -> None:
        """Take a turn, waiting at most ``timeout_s``; EndpointBusyError past it."""
        with self._lock:
            if self._free > 0 and not self._waiters:
                self._free -= 1
                return
            waiter: Future[None] = Future()
            self._waiters.append(waiter)
        given = asyncio.wrap_future(waiter)
        try:
            done, _ = await asyncio.wait({given}, timeout=timeout_s)
        except BaseException:  # the request was cancelled: a turn it was given goes back
            if not waiter.cancel():
                waiter.add_done_callback(lambda _: self.give_back())
            raise
        if not done and waiter.cancel():
            raise EndpointBusyError(busy)

    def give_back(self) -> None:
        """Give a turn back: to the query that has waited longest, else to the free ones."""
        with self._lock:
            while self._waiters:
                waiter = self._waiters.popleft()
                if waiter.set_running_or_notify_cancel():
                    break
            else:
                self._free += 1
                return
        waiter.set_result(None)


def _outcome(tag: str, detail: Any) -> QueryAnswer:
    """The answer in a worker's reply (:func:`~yili.api.sparql_eval.run_task`), or its error raised."""
    if tag == "answer":
        return detail  # type: ignore[no-any-return]
    if tag == "error":
        name, kind, status, message = detail
        error = _ERRORS_BY_NAME.get(name, YiliError)(message)
        error.kind, error.status = kind, status
        raise error
    log.error("SPARQL evaluation failed in a worker process:\n%s", detail)
    raise RuntimeError("SPARQL evaluation failed; see the log.")


def _died(code: int | None) -> YiliError:
    """The error for a query whose worker process ended under it (exit ``code``; negative: a signal)."""
    how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
    log.error("A SPARQL worker process died during a query (%s); pebble starts another", how)
    return EvaluationCrashedError(
        f"The worker process evaluating this query died ({how}): it needed more than its memory cap "
        "(SparqlLimits.max_worker_memory_bytes), or the query engine crashed; it has been replaced. Large "
        "joins and sorts (a cross product ordered by its variables), very deep nesting or very long chains "
        "can do this: narrow or simplify the query."
    )


class ThreadPool:
    """A few daemon threads of the server that evaluate queries off the event loop
    (``isolation="thread"``).  Daemon threads, so a query Oxigraph cannot interrupt never holds up
    the process at exit.

    A query's answer comes back to the event loop as one callback (``call_soon_threadsafe``) that
    settles an asyncio future, and its budget is one timer of the loop: no concurrent future, task or
    :class:`threading.Event` is made per query (they cost a point lookup a tenth of its time)."""

    def __init__(self, get_store: Callable[[], pyoxigraph.Store], limits: SparqlLimits) -> None:
        self._get_store = get_store
        self._limits = limits
        self._jobs: queue.SimpleQueue[tuple[Callable[[], QueryAnswer], Callable[[Any, BaseException | None], None]]] = (
            queue.SimpleQueue()
        )
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def _submit(self, job: Callable[[], QueryAnswer], done: Callable[[Any, BaseException | None], None]) -> None:
        """Queue ``job``; ``done(answer, None)`` or ``done(None, error)`` is called on the worker thread."""
        if len(self._threads) < self._limits.max_concurrent_queries:
            with self._lock:
                if len(self._threads) < self._limits.max_concurrent_queries:
                    thread = threading.Thread(target=self._work, name=f"sparql-worker-{len(self._threads)}", daemon=True)
                    start_with_large_stack(thread)
                    self._threads.append(thread)
        self._jobs.put((job, done))

    def _work(self) -> None:
        while True:
            job, done = self._jobs.get()
            try:
                answer = job()
            except YiliError as error:
                release_frames(error)
                done(None, error)
            except Exception as error:
                log.exception("SPARQL evaluation failed")
                release_frames(error)
                done(None, RuntimeError("SPARQL evaluation failed; see the log."))
            else:
                done(answer, None)

    async def evaluate(self, operation: Operation, cheap: bool = False) -> QueryAnswer:
        """Evaluate ``operation`` on a worker thread within ``limits.timeout_s``; ``cheap``: it is one
        :func:`~yili.api.sparql_cheap.is_cheap` accepts (see :func:`evaluate_operation`).

        Raises
        ------
        QueryTimeoutError
            The budget ran out (the worker is told to stop at its next result row; a query still
            waiting for a thread is not started).
        YiliError
            Whatever :func:`~yili.api.sparql_eval.evaluate_operation` raises.
        """
        limits = self._limits
        deadline = time.monotonic() + limits.timeout_s
        stop = _StopFlag()
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[QueryAnswer] = loop.create_future()

        def settle(answer: Any, error: BaseException | None) -> None:  # on the event loop
            if waiter.done():
                return
            if error is not None:
                waiter.set_exception(error)
            else:
                waiter.set_result(answer)

        def done(answer: Any, error: BaseException | None) -> None:  # on the worker thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(settle, answer, error)

        self._submit(lambda: evaluate_operation(self._get_store, operation, limits, deadline, stop, cheap=cheap), done)
        timer = loop.call_later(limits.timeout_s, lambda: settle(None, QueryTimeoutError(timeout_message(limits))))
        try:
            return await waiter
        finally:
            timer.cancel()
            stop.set()  # nothing reads it once the query has ended; else it stops at its next row

    def close(self) -> None:
        """Nothing to stop: the threads are daemons, and a running query cannot be interrupted."""


class _StopFlag:
    """The stop signal of one query on a :class:`ThreadPool` thread: ``is_set()`` and ``set()`` as a
    :class:`threading.Event` has them (no one waits on it), without its lock and condition."""

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True


def release_frames(error: BaseException) -> None:
    """Clear the frames held by ``error`` and the errors chained to it, here on the worker thread.

    Those frames hold pyoxigraph's result iterators, which are bound to the thread that made them
    and must not be released on another one (the event loop's, which receives the error).
    """
    pending: list[BaseException] = [error]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current.__traceback__ is not None:
            traceback.clear_frames(current.__traceback__)
            current.__traceback__ = None
        pending.extend(chained for chained in (current.__cause__, current.__context__) if chained)


def _long_lanes(limits: SparqlLimits) -> int:
    """How many long queries may run at once: every worker but the short lane, and at least one."""
    return max(1, limits.max_concurrent_queries - limits.short_lane)


def _busy_message(limits: SparqlLimits) -> str:
    return (
        f"The SPARQL endpoint is busy: no worker was free within {limits.max_queue_wait_s:g} s "
        f"(SparqlLimits.max_queue_wait_s); the query was not evaluated. Send it again after the Retry-After delay."
    )


def _lanes_message(limits: SparqlLimits, known: bool = False) -> str:
    lanes = _long_lanes(limits)
    what = f"this query ran past {limits.long_query_s:g} s before" if known else f"this query ran past {limits.long_query_s:g} s"
    done = "it was not evaluated" if known else "it was stopped"
    return (
        f"The SPARQL endpoint is busy: {what} while {lanes} long queries were already running "
        f"(SparqlLimits.short_lane keeps {limits.short_lane} worker(s) for short queries); {done}. "
        "Send it again after the Retry-After delay, or narrow it."
    )


def _operation_key(operation: Operation) -> tuple[object, ...]:
    """What makes two queries the same for the long-query memory and the cache: text, dataset, format."""
    return (operation.query, operation.default_graphs, operation.named_graphs, operation.accept, operation.format)


_CHANGING = re.compile(r"(?<![A-Za-z0-9_])(?:NOW|RAND|UUID|STRUUID|BNODE)(?![A-Za-z0-9_])", re.IGNORECASE)
_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def may_change(query: str) -> bool:
    r"""Whether two evaluations of ``query`` on the same store may give different answers: whether it
    may call ``NOW``, ``RAND``, ``UUID``, ``STRUUID`` or ``BNODE`` (SPARQL 1.1 Query, sections
    17.4.3.10, 17.4.5.1 and 17.4.2.8-9: the functions whose value is new at each evaluation).

    Decided on the raw text, conservatively: ``\u``/``\U`` escapes are decoded first (SPARQL 1.1
    Query, section 19.2, allows them anywhere in a query), then any of those names standing as a
    word (any case; not inside a longer run of ASCII letters, digits and ``_``) counts, even in a
    string, a comment, an IRI or a variable name.  A false alarm only costs the cache a query.

    >>> may_change("SELECT (rand() AS ?r) {}")
    True
    >>> may_change("SELECT (\\u004Eow() AS ?t) {}")
    True
    >>> may_change("SELECT ?known ?brand WHERE { ?s ?p ?known }")
    False
    """

    def decode(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code < 0x110000 else match.group(0)

    return _CHANGING.search(_ESCAPE.sub(decode, query) if "\\" in query else query) is not None


class _AnswerCache:
    """The answers a server keeps (``SparqlLimits.answer_cache_bytes``), by operation
    (:func:`_operation_key`), the least recently used dropped first.

    Thread-safe.  Kept: whole answers (no header, so never a truncated one) of at most 1/16 of the
    bound each, to operations :func:`may_change` does not flag.  The store must be read-only for as
    long as the cache lives.
    """

    def __init__(self, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        self.answer_bytes = 0
        self._answers: OrderedDict[tuple[object, ...], QueryAnswer] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, operation: Operation) -> QueryAnswer | None:
        """The answer kept for ``operation``, or None."""
        if not self._answers:
            return None
        with self._lock:
            key = _operation_key(operation)
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
            return answer

    def put(self, operation: Operation, answer: QueryAnswer) -> None:
        """Keep ``answer`` to ``operation`` if it may be kept (see the class)."""
        size = len(answer.body)
        if answer.headers or size > self._max_bytes // 16 or may_change(operation.query):
            return
        with self._lock:
            key = _operation_key(operation)
            old = self._answers.pop(key, None)
            if old is not None:
                self.answer_bytes -= len(old.body)
            self._answers[key] = QueryAnswer(answer.body, answer.media_type, {})
            self.answer_bytes += size
            while self.answer_bytes > self._max_bytes:
                _, dropped = self._answers.popitem(last=False)
                self.answer_bytes -= len(dropped.body)
