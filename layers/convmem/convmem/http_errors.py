"""Domain errors to HTTP, in exactly one place (API.md error shape and statuses)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from aws_lambda_powertools.event_handler import Response

from convmem import errors

_STATUS: list[tuple[type[errors.ConvmemError], int]] = [
    (errors.InvalidInputError, 400),
    (errors.UnauthorizedError, 401),
    (errors.NotFoundError, 404),
    (errors.TurnInProgressError, 409),
    (errors.ErasureInProgressError, 409),
    (errors.MessageTooLargeError, 413),
    (errors.ThrottledError, 429),
    (errors.DependencyUnavailableError, 503),
]


def status_for(exc: errors.ConvmemError) -> int:
    for cls, status in _STATUS:
        if isinstance(exc, cls):
            return status
    return 500


def error_response(status: int, code: str, message: str) -> Response:
    return Response(
        status_code=status,
        content_type="application/json",
        body=json.dumps({"error": {"code": code, "message": message}}),
    )


def validation_error_response(problems: Sequence[Any]) -> Response:
    """Powertools' validation errors (422 by default) as our 400, naming the fields but never echoing input."""
    parts = []
    for p in problems[:5]:
        loc = ".".join(str(x) for x in p.get("loc", ()) if x != "body") or "body"
        if p.get("type") == "json_invalid":
            return error_response(400, "malformed_json", "The request body is not valid JSON.")
        parts.append(f"{loc}: {p.get('msg', 'invalid')}")
    return error_response(400, "invalid_request", "; ".join(parts) or "The request is not valid.")
