"""Domain errors to HTTP, in exactly one place (docs/api.md error shape and statuses)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from aws_lambda_powertools.event_handler import Response

from convmem import errors
from convmem.api_schemas import ErrorResponse
from convmem.domain.models import ID_RULE

_STATUS: list[tuple[type[errors.ConvmemError], int]] = [
    (errors.InvalidInputError, 400),
    (errors.UnauthorizedError, 401),
    (errors.ForbiddenError, 403),
    (errors.NotFoundError, 404),
    (errors.TurnInProgressError, 409),
    (errors.ErasureInProgressError, 409),
    (errors.ClientTurnIdUsedError, 409),
    (errors.MessageTooLargeError, 413),
    (errors.ReplyBlockedError, 422),
    (errors.ThrottledError, 429),
    (errors.ModelConfigurationError, 500),
    (errors.DependencyUnavailableError, 503),
]


def status_for(exc: errors.ConvmemError) -> int:
    for cls, status in _STATUS:
        if isinstance(exc, cls):
            return status
    return 500


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
    return Response(
        status_code=status,
        content_type="application/json",
        body=json.dumps({"error": {"code": code, "message": message}}),
        headers=headers,
    )


def headers_for(exc: errors.ConvmemError) -> dict[str, str] | None:
    """Headers an error answers with: ``Retry-After`` (seconds) when a limit refused the request."""
    if isinstance(exc, errors.RateLimitedError):
        return {"Retry-After": str(exc.retry_after_s)}
    return None


def read_json_body(text: str) -> Any:
    """``json.loads`` for request bodies. What else json raises on a hostile body (nesting past the
    recursion limit, an integer of more than 4,300 digits) becomes ``JSONDecodeError``, which
    Powertools turns into a validation error (400 ``malformed_json``) instead of a crash (500)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as exc:
        if isinstance(exc, UnicodeError):
            raise
        raise json.JSONDecodeError(f"unreadable JSON ({type(exc).__name__})", "", 0) from None


def validation_error_response(problems: Sequence[Any]) -> Response:
    """Powertools' validation errors (422 by default) as our 400, naming the fields but never echoing input.

    A bad id in the path is ``invalid_<name>`` (``invalid_sessionId``), as the services name it."""
    parts = []
    for p in problems[:5]:
        if p.get("type") == "json_invalid":
            return error_response(400, "malformed_json", "The request body is not valid JSON.")
        where = tuple(p.get("loc", ()))
        if where == ("path", "seq"):
            return error_response(400, "invalid_seq", "seq must be a message's seq: a whole number, 1 or more.")
        if len(where) == 2 and where[0] == "path":
            name = where[1]
            return error_response(400, f"invalid_{name}", f"{name} must be {ID_RULE} (not . or ..)")
        loc = ".".join(str(x) for x in where if x != "body") or "body"
        parts.append(f"{loc}: {p.get('msg', 'invalid')}")
    return error_response(400, "invalid_request", "; ".join(parts) or "The request is not valid.")


# What each error status means on this API (docs/api.md), for the OpenAPI document.
_WHEN = {
    400: "Malformed JSON, a missing or wrong-typed field (or an unknown one, on context and exchanges), an empty message, a bad id, knowledge beyond its "
         "limits, or an exchange's at in the future (at_in_future) or before the session's last message "
         "(at_before_last_message)",
    401: "No, bad or expired credentials",
    403: "The caller may not use this field or route (knowledge, or an exchange, from a visitor token)",
    404: "A session or fact the caller does not own, or a path no route has",
    409: "The same clientTurnId is still in progress (or named an exchange, when a turn reuses it), or the "
         "caller's data is being erased",
    413: "The message alone exceeds the request budget or the byte limit (or the export one response)",
    422: "A content filter or guardrail blocked the reply (code reply_blocked); nothing was stored, and the "
         "same message will be blocked again",
    429: "Throttled: this caller's limit (turns per user, new visitors per source address; code rate_limited) "
         "or the stage's; nothing was written. The Retry-After header gives the seconds until the window frees",
    500: "The model refused the request itself (code model_misconfigured: a wrong model id or parameters, or no "
         "model access); nothing was written, and a retry will not help until the deployment is fixed",
    503: "A dependency (model, KMS, DynamoDB) is unavailable; nothing was written and a retry is safe",
}


def documented(status: int, description: str, *error_statuses: int) -> dict[int, Any]:
    """A route's OpenAPI ``responses``: its success (the schema of the route's return type, no
    body for 204) and the ``{"error": {"code", "message"}}`` shape for each error status it answers."""
    out: dict[int, Any] = {status: {"description": description, **({"content": {}} if status == 204 else {})}}
    for code in error_statuses:
        out[code] = {"description": _WHEN[code], "content": {"application/json": {"model": ErrorResponse}}}
        if code == 429:
            out[code]["headers"] = {"Retry-After": {
                "description": "Seconds until the window that refused frees", "schema": {"type": "integer", "minimum": 1}}}
    return out


def openapi_without_422(doc: dict[str, Any]) -> dict[str, Any]:
    """The generated document without the 422 Powertools adds to every route: validation errors
    are answered 400 in our error shape (validation_error_response), never 422. A 422 a route
    documents itself (a blocked reply) stays."""
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.get("responses", {})
            if "HTTPValidationError" in json.dumps(responses.get("422", {})):
                responses.pop("422")
    text = json.dumps(doc.get("paths", {}))
    schemas = doc.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):
        if f"#/components/schemas/{name}" not in text and name in schemas:
            del schemas[name]
    return doc
