"""What the API refused, as exceptions carrying its stable ``code`` (API.md "Errors")."""

from __future__ import annotations


class ConvmemError(Exception):
    """An error answer from convmem, or no answer at all.

    ``status`` is the HTTP status (0 when no response arrived), ``code`` the API's stable error
    code (``rate_limited``, ``session_not_found``, ...: branch on it, never on ``message``),
    ``message`` the text for a person, ``retry_after`` the seconds the API asked to wait (429).
    """

    def __init__(self, status: int, code: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class BadRequestError(ConvmemError):
    """400: malformed body, missing or wrong-typed field, empty message, bad id."""


class AuthenticationError(ConvmemError):
    """401: no, bad or expired credentials (a visitor token expired: get a new one)."""


class PermissionDeniedError(ConvmemError):
    """403: the caller may not use this field or route (e.g. ``knowledge`` from a visitor token)."""


class NotFoundError(ConvmemError):
    """404: a session or fact the caller does not own, or an unknown route."""


class ConflictError(ConvmemError):
    """409: the same ``clientTurnId`` is still in progress."""


class PayloadTooLargeError(ConvmemError):
    """413: the message alone exceeds the request budget, or the body the byte limit."""


class RateLimitedError(ConvmemError):
    """429: throttled; ``retry_after`` says for how long."""


class UnavailableError(ConvmemError):
    """503: a dependency (model, KMS, DynamoDB) is unavailable; nothing was written."""


class ServerError(ConvmemError):
    """Any other 5xx."""


class ConvmemConnectionError(ConvmemError):
    """No HTTP answer (connection refused or reset, timeout) after the retries; status 0."""


_BY_STATUS: dict[int, type[ConvmemError]] = {
    400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError,
    409: ConflictError, 413: PayloadTooLargeError, 429: RateLimitedError, 503: UnavailableError,
}


def error_for(status: int, code: str, message: str, retry_after: float | None = None) -> ConvmemError:
    """The exception for an error answer of ``status``."""
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else ConvmemError)
    return cls(status, code, message, retry_after=retry_after)
