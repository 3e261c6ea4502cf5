"""Domain errors. Each carries a stable ``code``; the HTTP layer maps classes to statuses in one place."""

from __future__ import annotations


class ConvmemError(Exception):
    """Base of every error convmem raises on purpose."""

    code = "internal_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class InvalidInputError(ConvmemError):
    """Malformed or out-of-contract input (HTTP 400)."""

    code = "invalid_request"


class UnauthorizedError(ConvmemError):
    """No, bad or expired credentials (HTTP 401)."""

    code = "unauthorized"


class ForbiddenError(ConvmemError):
    """The caller may not use this field or route (HTTP 403), e.g. ``knowledge`` from a visitor token."""

    code = "forbidden"


class NotFoundError(ConvmemError):
    """Unknown resource, or one the caller does not own (HTTP 404; existence is not revealed)."""

    code = "not_found"


class TurnInProgressError(ConvmemError):
    """The same clientTurnId is still being processed (HTTP 409)."""

    code = "turn_in_progress"


class ErasureInProgressError(ConvmemError):
    """The user's data is being erased; a new life may start once it is done (HTTP 409)."""

    code = "erasure_in_progress"


class MessageTooLargeError(ConvmemError):
    """The message alone does not fit the request budget or the byte limit (HTTP 413)."""

    code = "message_too_large"


class ThrottledError(ConvmemError):
    """The caller or a dependency is throttling (HTTP 429)."""

    code = "throttled"


class RateLimitedError(ThrottledError):
    """The caller went over its own limit (turns per user, new visitors per source address): nothing
    was written; ``retry_after_s`` says when the window frees (HTTP 429 with ``Retry-After``)."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after_s: int, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after_s = retry_after_s


class DependencyUnavailableError(ConvmemError):
    """A dependency (model, KMS, DynamoDB) failed; nothing was written and a retry is safe (HTTP 503)."""

    code = "dependency_unavailable"


class DeadlineExceededError(DependencyUnavailableError):
    """The turn's time ran out before the model (or a tool) answered; nothing was written (HTTP 503)."""

    code = "deadline_exceeded"


class ModelConfigurationError(ConvmemError):
    """The model refused the request itself (ValidationException, AccessDeniedException,
    ResourceNotFoundException): a misconfigured model id or parameters, or no access to the model.
    A retry gives the same answer; the deployment must be fixed (HTTP 500)."""

    code = "model_misconfigured"


class ReplyBlockedError(ConvmemError):
    """A content filter or guardrail blocked the reply (or the message); nothing was stored and the
    same message will be blocked again (HTTP 422)."""

    code = "reply_blocked"


class ConcurrentUpdateError(ConvmemError):
    """A conditional write lost a race; the caller reloads and retries."""

    code = "concurrent_update"


class KeyNotFoundError(ConvmemError):
    """The user has no branch key yet (or it was destroyed by erasure)."""

    code = "key_not_found"


class PayloadTooLargeError(MessageTooLargeError):
    """A response would exceed what one HTTP answer can carry (HTTP 413)."""

    code = "payload_too_large"


class KeyDestroyedError(DependencyUnavailableError):
    """A stored item's key no longer exists: its user was erased (crypto-shredded)."""

    code = "key_destroyed"


class OutOfTimeError(ConvmemError):
    """A background job was not started: what is left of the invocation cannot hold it (the
    record is reported as a batch item failure and comes back after the visibility timeout)."""

    code = "out_of_time"


class ClientTurnIdUsedError(ConvmemError):
    """The clientTurnId already named an exchange, whose record holds no reply a turn could
    return (HTTP 409): the caller must use a new id."""

    code = "client_turn_id_used"
