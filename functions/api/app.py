"""HTTP API (API Gateway HTTP API, payload 2.0): parse, call one service, shape the result."""

from __future__ import annotations

import json
from functools import lru_cache, partial
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.models import APIKey, APIKeyIn, HTTPBearer
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.shared.json_encoder import Encoder
from convmem import api_schemas as wire
from convmem.composition import ApiServices, build_api
from convmem.errors import ConvmemError, PayloadTooLargeError
from convmem.http_errors import (
    documented,
    error_response,
    headers_for,
    openapi_without_422,
    read_json_body,
    status_for,
    validation_error_response,
)
from convmem.observability import logger, metrics
from convmem.service.turn import TurnInput
from convmem.settings import Settings

# UTF-8 on the wire: Korean text is 3 bytes a character instead of a 6-byte \u escape.
app = APIGatewayHttpResolver(
    enable_validation=True,
    serializer=partial(json.dumps, separators=(",", ":"), cls=Encoder, ensure_ascii=False),
    json_body_deserializer=read_json_body,  # a JSON bomb is a 400, not a 500
)


# A Lambda response through API Gateway carries at most 6 MB; leave room for the envelope.
MAX_RESPONSE_BYTES = 5_500_000

# Who may call (API.md): the API key with x-user-id, or a visitor token. Declared in the OpenAPI
# document with every status a route answers, so clients and schemathesis know the contract.
SECURITY_SCHEMES = {
    "apiKey": APIKey(name="x-api-key", in_=APIKeyIn.header),
    "userId": APIKey(name="x-user-id", in_=APIKeyIn.header, description="the user a server-side caller acts as"),
    "bearer": HTTPBearer(description="a visitor token from POST /v1/visitors or POST /v1/tokens"),
}
CALLER = [{"apiKey": [], "userId": []}, {"bearer": []}]
AUTH_ERRORS = (400, 401, 429, 503)
Id = Annotated[str, Path(pattern=wire.PATH_ID_PATTERN)]  # anything else: 400 invalid_<name>


@lru_cache(maxsize=1)
def services() -> ApiServices:
    return build_api(Settings.from_env())


def caller() -> str:
    return services().auth.authenticate(app.current_event.headers)


@app.get("/v1/health", responses=documented(200, "Alive"))
def health() -> wire.Health:
    return wire.Health()


@app.get("/v1/openapi.json", include_in_schema=False)
def openapi() -> dict[str, Any]:
    doc = app.get_openapi_json_schema(title="convmem", version="1", security_schemes=SECURITY_SCHEMES)
    return openapi_without_422(json.loads(doc))


@app.post("/v1/visitors", responses=documented(201, "A new visitor and its token", 429, 503))
def new_visitor() -> Response[wire.TokenResponse]:
    source_ip = app.current_event.request_context.http.source_ip  # counted as a keyed hash, never stored
    return Response(201, "application/json", wire.TokenResponse.of(services().auth.issue_visitor(source_ip)))


@app.post("/v1/tokens", security=[{"apiKey": []}],
          responses=documented(201, "A widget token for the user", *AUTH_ERRORS))
def mint_token(body: Annotated[wire.TokenRequest, Body()]) -> Response[wire.TokenResponse]:
    issued = services().auth.issue_for_user(app.current_event.headers, body.user_id)
    return Response(201, "application/json", wire.TokenResponse.of(issued))


@app.post("/v1/sessions/<sessionId>/turns", security=CALLER,
          responses=documented(200, "The reply and what the request held", *AUTH_ERRORS, 403, 404, 409, 413, 422, 500))
def take_turn(sessionId: Id, turn: Annotated[TurnInput, Body()]) -> wire.TurnResponse:  # noqa: N803
    who = services().auth.identify(app.current_event.headers)
    time_left_s = app.lambda_context.get_remaining_time_in_millis() / 1000  # the turn ends before the function does
    result = services().turns.take_turn(who.user_id, sessionId, turn, server_side=who.server_side, time_left_s=time_left_s)
    metrics.add_metric(name="TurnsCommitted", unit=MetricUnit.Count, value=1)
    logger.info("turn committed", extra={"session_id": sessionId, "visitor_seq": result.visitor_seq})
    return wire.TurnResponse.model_validate(result.model_dump())


@app.get("/v1/sessions", security=CALLER, responses={
    **documented(200, "", *AUTH_ERRORS),  # the page's schema stated here: the body leaves out a null next
    200: {"description": "A page of the caller's sessions, newest first", "content": {"application/json": {"model": wire.SessionList}}},
})
def list_sessions(
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
    after: Annotated[str | None, Query(max_length=2048)] = None,
) -> Response[dict[str, Any]]:
    page = wire.SessionList.of(services().sessions.list_sessions(caller(), limit, after))
    return Response(200, "application/json", page.model_dump(by_alias=True, exclude_none=True))  # no next: last page


@app.get("/v1/sessions/<sessionId>", security=CALLER, responses=documented(200, "One session", *AUTH_ERRORS, 404))
def get_session(sessionId: Id) -> wire.SessionDetail:  # noqa: N803
    return wire.SessionDetail.of(services().sessions.get_session(caller(), sessionId))


@app.get("/v1/sessions/<sessionId>/messages", security=CALLER,
         responses=documented(200, "A page of the transcript", *AUTH_ERRORS, 404))
def transcript(
    sessionId: Id,  # noqa: N803
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 100,
) -> wire.Transcript:
    return wire.Transcript.of(services().sessions.transcript(caller(), sessionId, after, limit))


@app.delete("/v1/sessions/<sessionId>", security=CALLER, responses=documented(204, "Forgotten", *AUTH_ERRORS, 404, 409))
def forget_session(
    sessionId: Id,  # noqa: N803
    facts: Annotated[Literal["keep", "forget"], Query(description="forget: also what was learnt only from it")] = "keep",
) -> Response[None]:
    services().forget.forget_session(caller(), sessionId, facts=facts)
    return Response(status_code=204)


@app.delete("/v1/sessions/<sessionId>/messages/<seq>", security=CALLER,
            responses=documented(204, "Forgotten, with its reply and what was learnt only from it", *AUTH_ERRORS, 404, 409))
def forget_message(sessionId: Id, seq: Annotated[int, Path(ge=1, le=10**10 - 1)]) -> Response[None]:  # noqa: N803
    services().forget.forget_message(caller(), sessionId, seq)
    return Response(status_code=204)


@app.get("/v1/me/export", security=CALLER,
         responses=documented(200, "Everything held on the caller", *AUTH_ERRORS, 413))
def export_me() -> Response[wire.ExportOut]:
    export = wire.ExportOut.of(services().export.export(caller()))
    if len(export.model_dump_json(by_alias=True).encode("utf-8")) > MAX_RESPONSE_BYTES:
        raise PayloadTooLargeError(
            "The export is larger than one response can carry; read each session's transcript instead.")
    return Response(200, "application/json", export)


@app.delete("/v1/me", security=CALLER, responses=documented(202, "Erased, or erasing", *AUTH_ERRORS))
def erase_me() -> Response[wire.ErasureAccepted]:
    user_id = caller()
    progress = services().forget.erase(user_id)
    metrics.add_metric(name="UsersErased", unit=MetricUnit.Count, value=1)
    return Response(202, "application/json", wire.ErasureAccepted(user_id=user_id, status="erased" if progress.done else "erasing"))


@app.get("/v1/me/facts", security=CALLER, responses=documented(200, "The current facts", *AUTH_ERRORS))
def list_facts() -> wire.FactList:
    return wire.FactList(facts=[wire.FactOut.of(f) for f in services().facts.list_facts(caller())])


@app.delete("/v1/me/facts/<factId>", security=CALLER,
            responses=documented(204, "Forgotten", *AUTH_ERRORS, 404))
def forget_fact(factId: Id) -> Response[None]:  # noqa: N803
    services().facts.forget(caller(), factId)
    return Response(status_code=204)


@app.get("/v1/me/profile", security=CALLER, responses=documented(200, "The short profile", *AUTH_ERRORS))
def get_profile() -> wire.ProfileOut:
    profile, refreshed_at = services().profile.get_profile(caller())
    return wire.ProfileOut(profile=profile, refreshed_at=wire.iso(refreshed_at))


@app.exception_handler(ConvmemError)
def domain_error(exc: ConvmemError) -> Response:
    if status_for(exc) >= 500:
        logger.warning("dependency failure", extra={"code": exc.code, "cause": type(exc.__cause__).__name__})
    return error_response(status_for(exc), exc.code, exc.message, headers_for(exc))


@app.exception_handler(RequestValidationError)
def invalid_request(exc: RequestValidationError) -> Response:
    return validation_error_response(exc.errors())


@app.exception_handler(UnicodeDecodeError)
def undecodable_body(_exc: UnicodeDecodeError) -> Response:
    return error_response(400, "malformed_json", "The request body is not valid UTF-8 JSON.")


@app.not_found
def not_found(_exc: Exception) -> Response:
    return error_response(404, "not_found", "No such route.")


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP, log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    # The API is JSON only (API.md): a body is parsed as JSON whatever content-type was sent,
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
    """An API.md error as a payload-2.0 response, for what is refused before routing."""
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps({"error": {"code": code, "message": message}}),
        "isBase64Encoded": False,
    }
