"""The HTTP protocol of yili-kg serve (api/http_protocol.py): httptools, and h11 for a long request head."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import quote

from yili.api.http_protocol import SWITCH_HEAD_BYTES, JsonErrorHttpToolsProtocol, http_protocol

from tests.api.test_small_items import built, served  # noqa: F401 - the served excerpt, a fixture


def test_the_server_speaks_httptools() -> None:
    assert http_protocol() is JsonErrorHttpToolsProtocol


def _answers(sock: socket.socket, count: int) -> list[tuple[int, dict]]:
    """Read ``count`` HTTP/1.1 answers (with Content-Length) from ``sock``: (status, JSON body) each."""
    data, answers = b"", []
    while len(answers) < count:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, "the server closed the connection"
            data += chunk
        head, data = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        length = int(next(line.split(":", 1)[1] for line in lines if line.lower().startswith("content-length:")))
        while len(data) < length:
            data += sock.recv(65536)
        body, data = data[:length], data[length:]
        answers.append((int(lines[0].split()[1]), json.loads(body)))
    return answers


def _get(path: str, host: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: application/sparql-results+json\r\n\r\n".encode()


def test_one_connection_carries_short_and_long_heads_in_turn(served) -> None:  # noqa: F811
    """On one keep-alive connection: a short query (httptools), a query whose head is over
    SWITCH_HEAD_BYTES and httptools' 64 KiB (handed to h11, sent in pieces), then a short one again
    (h11 goes on)."""
    client, _, _ = served
    host, port = client.base_url.host, client.base_url.port
    short = "/sparql?query=" + quote("ASK { ?s ?p ?o }", safe="")
    # over SWITCH_HEAD_BYTES and over the 64 KiB httptools reads: only the h11 protocol answers it
    long = "/sparql?query=" + quote("ASK { ?s ?p ?o } #" + "x" * (SWITCH_HEAD_BYTES + 40_000), safe="")
    with socket.create_connection((host, port), timeout=60) as sock:
        sock.sendall(_get(short, host))
        assert _answers(sock, 1) == [(200, {"head": {}, "boolean": True})]
        request = _get(long, host)
        for k in range(0, len(request), 10_000):  # in several reads, as a slow client sends it
            sock.sendall(request[k : k + 10_000])
            time.sleep(0.05)
        assert _answers(sock, 1) == [(200, {"head": {}, "boolean": True})]
        sock.sendall(_get(short, host))
        assert _answers(sock, 1) == [(200, {"head": {}, "boolean": True})]
