"""The project's small error hierarchy, in the base layer so that every layer can raise it.

Every error a user can cause (a bad file, an unknown term, a bad query, a request too large) is a
:class:`YiliError`; the CLI turns it into a one-line message and exit code 2, the HTTP API into a
4xx JSON answer ``{"error": <kind>, "message": <text>}``.  Nothing else should reach a user as a
traceback.
"""

from __future__ import annotations


class YiliError(Exception):
    """Base of every error the project raises on purpose.

    Attributes
    ----------
    kind : str
        A short machine-readable name (``"input"``, ``"query"``, ``"not_found"``, ...), used as the
        ``error`` field of HTTP answers.
    status : int
        The HTTP status the API answers with.
    """

    kind = "error"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InputError(YiliError):
    """An input text or file cannot be read: missing, not UTF-8, empty, or with no classic text."""

    kind = "input"
    status = 400


class RequestError(YiliError):
    """A request is malformed: an unknown parameter, a value out of range."""

    kind = "invalid_request"
    status = 400


class VocabularyError(YiliError):
    """A vocabulary file is malformed, or names a term the project cannot place in a scheme."""

    kind = "vocabulary"
    status = 400


class UnknownTermError(YiliError):
    """A name (role, action, vessel, ...) given by a user is not in the vocabulary."""

    kind = "unknown_term"
    status = 404


class NotFoundError(YiliError):
    """A requested resource (a step IRI, a page) does not exist."""

    kind = "not_found"
    status = 404


class QueryError(YiliError):
    """A SPARQL query is malformed, is an update, or asks for something the endpoint refuses."""

    kind = "query"
    status = 400


class RequestTooLargeError(YiliError):
    """A request or its result exceeds a documented limit (query length, page size, result rows)."""

    kind = "too_large"
    status = 413


class QueryTimeoutError(YiliError):
    """A SPARQL query ran past the endpoint's time budget."""

    kind = "timeout"
    status = 503


class EndpointBusyError(YiliError):
    """The SPARQL endpoint has no worker for a query now (all busy, or the long-query lanes full):
    HTTP 503 with ``Retry-After`` (:attr:`retry_after_s` seconds); the query may be sent again."""

    kind = "busy"
    status = 503
    retry_after_s = 1


# The SPARQL 1.1 Protocol endpoint's refusals (api/sparql.py)


class ReadOnlyError(QueryError):
    """A SPARQL Update was sent to the read-only endpoint (HTTP 403)."""

    kind = "read_only"
    status = 403


class UnsupportedMediaTypeError(QueryError):
    """A POST body is neither a form nor a SPARQL query, or is not UTF-8 (HTTP 415)."""

    kind = "unsupported_media_type"
    status = 415


class NotAcceptableError(QueryError):
    """No format the endpoint offers satisfies ``Accept`` or ``format=`` (HTTP 406)."""

    kind = "not_acceptable"
    status = 406


class MethodNotAllowedError(QueryError):
    """The protocol's query operation takes GET and POST only (HTTP 405)."""

    kind = "method_not_allowed"
    status = 405


class StoreUnavailableError(YiliError):
    """The on-disk store the endpoint serves cannot be opened any more (moved or deleted while
    served): HTTP 503; queries answer again once it is back (or the server is restarted on another)."""

    kind = "store_unavailable"
    status = 503


class EvaluationCrashedError(YiliError):
    """The worker process evaluating the query died, most likely crashing in Oxigraph (HTTP 500).

    The worker is replaced; the message names how it ended (a signal such as SIGSEGV, or an exit
    status).
    """

    kind = "evaluation_crashed"
    status = 500
