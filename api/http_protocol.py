"""The HTTP/1.1 protocol the server speaks: uvicorn's h11 protocol, with room for a long GET query
and a JSON answer for a request head too long to read.

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

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["MAX_REQUEST_HEAD_BYTES", "JsonErrorH11Protocol"]

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
