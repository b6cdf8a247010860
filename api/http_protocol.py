"""The HTTP/1.1 protocol the server speaks: uvicorn's httptools protocol (llhttp, in C), with a bound on
a request's head and a JSON answer for a head over it; and uvicorn's h11 protocol (pure Python) with the
same bound and answer, for a machine without httptools.

:class:`JsonErrorHttpToolsProtocol` is the one ``yili-kg serve`` uses: it costs a request a fraction of
h11's parsing in Python (rotating point lookups, one process, four pairs of runs on a loaded 2-core
machine: 1.0-1.9x the requests a second of the same server on h11, 1.3x in the middle).  httptools
refuses a head over 64 KiB, so a request whose head is longer than :data:`SWITCH_HEAD_BYTES` is handed
to :class:`JsonErrorH11Protocol`, which reads it as below.

h11 refuses a request whose head (request line and headers) it cannot parse within its buffer
(``h11_max_incomplete_event_size``, 16 KiB by default), and uvicorn then answers a plain-text 400
``Invalid HTTP request received.``.  A SPARQL query sent with GET travels in the request line,
percent-encoded (up to 12 bytes per character of Chinese text), and the endpoint accepts queries of
``SparqlLimits.max_query_length`` characters; so the server reads heads up to
:data:`MAX_REQUEST_HEAD_BYTES`, and a longer head gets the project's JSON error, 413 ``too_large``,
naming the bound and the remedy (POST), like every other refusal of the API.
"""

from __future__ import annotations

import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["MAX_REQUEST_HEAD_BYTES", "SWITCH_HEAD_BYTES", "JsonErrorH11Protocol", "JsonErrorHttpToolsProtocol", "http_protocol"]

MAX_REQUEST_HEAD_BYTES = 2 * 1024 * 1024
"""The longest request head (request line and headers, bytes) read: room for a GET query of
``SparqlLimits.max_query_length`` (100,000) characters, each percent-encoded in up to 12 bytes."""


LINGER_S = 5.0
"""How long the server reads and drops the rest of a request it answered 413 before closing (seconds)."""


class JsonErrorH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, answering a request head over its buffer with 413 and the project's
    JSON error body (``{"error": "too_large", "message": ...}``) instead of a plain-text 400.

    Use with ``h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES`` (``uvicorn.run(..., http=
    JsonErrorH11Protocol, h11_max_incomplete_event_size=...)``, or ``--http
    yili.api.http_protocol:JsonErrorH11Protocol`` on uvicorn's command line).  Other malformed
    requests keep uvicorn's 400.
    """

    def send_400_response(self, msg: str) -> None:
        """Answer a request h11 could not read: 413 JSON when its head outgrew the buffer, else uvicorn's 400."""
        limit = self.config.h11_max_incomplete_event_size or h11._connection.DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
        if len(self.conn.trailing_data[0]) <= limit:
            super().send_400_response(msg)
            return
        body = json.dumps(
            {
                "error": "too_large",
                "message": (
                    f"The request's head (its URL and headers) is over {limit:,} bytes; "
                    "send a long SPARQL query with POST (application/sparql-query, or a form) instead of GET."
                ),
            }
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        for event in (
            h11.Response(status_code=413, headers=headers, reason=b"Content Too Large"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        # a lingering close (RFC 9112 section 9.6): the client may still be sending the rest of the
        # head; closing now, with its bytes unread, would reset the connection and lose the answer.
        # So the answer is sent, the rest read and dropped, and the connection closed when the client
        # is done or after LINGER_S.
        self._lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_S, self.transport.close)

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does, or drop what comes after a 413 (see :meth:`send_400_response`)."""
        if getattr(self, "_lingering", False):
            return
        super().data_received(data)

    def eof_received(self) -> None:
        """The client is done sending: after a 413, close now."""
        if getattr(self, "_lingering", False):
            self.transport.close()
            return
        super().eof_received()


SWITCH_HEAD_BYTES = 32 * 1024
"""A request head longer than this (bytes) is read by :class:`JsonErrorH11Protocol`, not by httptools (whose
parser refuses heads over 64 KiB with a plain-text 400)."""

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # no httptools: the h11 protocol serves
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


if HttpToolsProtocol is not None:

    class JsonErrorHttpToolsProtocol(HttpToolsProtocol):  # type: ignore[misc,valid-type]
        """uvicorn's httptools protocol for requests whose head (request line and headers) is at most
        :data:`SWITCH_HEAD_BYTES`; a connection whose next request has a longer head is handed, with the
        bytes of that request read so far, to :class:`JsonErrorH11Protocol` (as uvicorn hands a WebSocket
        upgrade to its WebSocket protocol), which reads heads up to :data:`MAX_REQUEST_HEAD_BYTES` and
        answers a longer one with the JSON 413.

        The hand-over happens only between requests, when no answer is being sent: a long head that
        follows another request in the same read (HTTP pipelining) is left to httptools (a head over
        64 KiB then gets its plain-text 400).
        """

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._args, self._kwargs = args, kwargs
            self._in_message = False  # between on_message_begin and on_message_complete
            self._in_head = False  # between on_message_begin and on_headers_complete
            self._completed = 0  # messages completed (to see one end within a read)
            self._head: bytes | None = None  # the bytes of the request being read, while its head is

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_message = self._in_head = True

        def on_headers_complete(self) -> None:
            self._in_head = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_message = False
            self._completed += 1
            super().on_message_complete()

        def data_received(self, data: bytes) -> None:
            """Read as uvicorn does, or hand a request with a long head to :class:`JsonErrorH11Protocol`."""
            answering = self.cycle is not None and not self.cycle.response_complete
            if not self._in_message and not answering:
                read = data  # the read begins a request
            elif self._in_head and self._head is not None:
                read = self._head + data
            else:
                read = None
            if read is not None:
                end = read.find(b"\r\n\r\n")
                if (end if end >= 0 else len(read)) > SWITCH_HEAD_BYTES:
                    self._hand_over(read)
                    return
            completed = self._completed
            super().data_received(data)
            keep = read is not None and self._in_head and self._completed == completed
            self._head = read if keep else None

        def _hand_over(self, read: bytes) -> None:
            """Give the connection to :class:`JsonErrorH11Protocol`, with ``read``, the request so far."""
            if self.timeout_keep_alive_task is not None:
                self.timeout_keep_alive_task.cancel()
                self.timeout_keep_alive_task = None
            self.connections.discard(self)
            protocol = JsonErrorH11Protocol(*self._args, **self._kwargs)
            protocol.connection_made(self.transport)
            self.transport.set_protocol(protocol)
            protocol.data_received(read)

else:  # pragma: no cover - httptools is installed with uvicorn[standard]
    JsonErrorHttpToolsProtocol = None  # type: ignore[assignment,misc]


def http_protocol() -> type:
    """The protocol class ``yili-kg serve`` runs uvicorn with: :class:`JsonErrorHttpToolsProtocol`, or
    :class:`JsonErrorH11Protocol` without httptools; either with ``h11_max_incomplete_event_size=
    MAX_REQUEST_HEAD_BYTES`` (for the h11 protocol a long head is read with)."""
    return JsonErrorHttpToolsProtocol if JsonErrorHttpToolsProtocol is not None else JsonErrorH11Protocol
