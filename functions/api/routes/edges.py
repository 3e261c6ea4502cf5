"""The edges of every request: errors as the documented JSON, and what is refused or rewritten
before routing (a JSON-only body, control characters in the path, HEAD as GET without a body)."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from convmem.errors import ConvmemError
from convmem.http_errors import error_response, headers_for, status_for, validation_error_response
from convmem.observability import logger

router = Router()


@router.exception_handler(ConvmemError)
def domain_error(exc: ConvmemError) -> Response:
    if status_for(exc) >= 500:
        logger.warning("dependency failure", extra={"code": exc.code, "cause": type(exc.__cause__).__name__})
    return error_response(status_for(exc), exc.code, exc.message, headers_for(exc))


@router.exception_handler(RequestValidationError)
def invalid_request(exc: RequestValidationError) -> Response:
    return validation_error_response(exc.errors())


@router.exception_handler(UnicodeDecodeError)
def undecodable_body(_exc: UnicodeDecodeError) -> Response:
    return error_response(400, "malformed_json", "The request body is not valid UTF-8 JSON.")


def not_found(_exc: Exception) -> Response:
    return error_response(404, "not_found", "No such route.")


def resolve(app: APIGatewayHttpResolver, event: dict[str, Any], context: Any) -> dict[str, Any]:
    # The API is JSON only (docs/api.md): a body is parsed as JSON whatever content-type was sent,
    # so a caller who forgot the header gets a JSON verdict, not a form-field one.
    if event.get("body") and isinstance(event.get("headers"), dict):
        event["headers"]["content-type"] = "application/json"
    # The path arrives percent-decoded. A control character in it (%00, %0A) is never part of an
    # id, and a route pattern's "$" would quietly match before a trailing newline: refuse it here.
    if any(ord(c) < 32 or ord(c) == 127 for c in str(event.get("rawPath", ""))):
        return _plain_error(400, "invalid_path", "The path holds a control character.")
    http = event.get("requestContext", {}).get("http", {})
    if http.get("method") != "HEAD":
        return app.resolve(event, context)
    # HEAD is GET without the body (RFC 9110 9.3.2): same status and headers, on every GET route.
    http["method"] = "GET"
    return {**app.resolve(event, context), "body": "", "isBase64Encoded": False}


def _plain_error(status: int, code: str, message: str) -> dict[str, Any]:
    """An error as a payload-2.0 response, for what is refused before routing."""
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps({"error": {"code": code, "message": message}}),
        "isBase64Encoded": False,
    }
