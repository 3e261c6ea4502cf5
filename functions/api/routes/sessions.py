"""A user's conversations: take a turn (or, for an agent with its own model, get its context and
record its exchange), list and read sessions, forget one (or one message), with what was learnt from it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query
from aws_lambda_powertools.metrics import MetricUnit
from convmem import api_schemas as wire
from convmem.http_errors import documented
from convmem.observability import logger, metrics
from convmem.service.turn import ContextInput, ExchangeInput, TurnInput

from routes.common import AUTH_ERRORS, CALLER, Id, caller, services

router = Router()


@router.post("/v1/sessions/<sessionId>/turns", security=CALLER,
             responses=documented(200, "The reply and what the request held", *AUTH_ERRORS, 403, 404, 409, 413, 422, 500))
def take_turn(sessionId: Id, turn: Annotated[TurnInput, Body()]) -> wire.TurnResponse:  # noqa: N803
    who = services(router).auth.identify(router.current_event.headers)
    time_left_s = router.lambda_context.get_remaining_time_in_millis() / 1000  # the turn ends before the function does
    result = services(router).turns.take_turn(who.user_id, sessionId, turn, server_side=who.server_side,
                                              time_left_s=time_left_s)
    metrics.add_metric(name="TurnsCommitted", unit=MetricUnit.Count, value=1)
    logger.info("turn committed", extra={"session_id": sessionId, "visitor_seq": result.visitor_seq})
    return wire.TurnResponse.model_validate(result.model_dump())


@router.post("/v1/sessions/<sessionId>/context", security=CALLER,
             responses=documented(200, "The request a turn would send: its layers, or Converse's system and messages",
                                  *AUTH_ERRORS, 403, 404, 409, 413))
def context(
    sessionId: Id,  # noqa: N803
    body: Annotated[ContextInput, Body()],
    shape: Annotated[Literal["layers", "converse"], Query(alias="format")] = "layers",
) -> wire.ContextLayers | wire.ConverseContext:
    who = services(router).auth.identify(router.current_event.headers)
    assembled = services(router).turns.context(who.user_id, sessionId, body, server_side=who.server_side)
    return wire.ConverseContext.of(assembled) if shape == "converse" else wire.ContextLayers.of(assembled)


@router.post("/v1/sessions/<sessionId>/exchanges", security=CALLER,
             responses=documented(201, "Stored as the session's next two rows", *AUTH_ERRORS, 403, 404, 409, 413))
def record_exchange(sessionId: Id, exchange: Annotated[ExchangeInput, Body()]) -> Response[wire.ExchangeResponse]:  # noqa: N803
    who = services(router).auth.identify(router.current_event.headers)
    result = services(router).turns.record_exchange(who.user_id, sessionId, exchange, server_side=who.server_side)
    metrics.add_metric(name="ExchangesCommitted", unit=MetricUnit.Count, value=1)
    logger.info("exchange committed", extra={"session_id": sessionId, "visitor_seq": result.visitor_seq})
    return Response(201, "application/json", wire.ExchangeResponse.of(result))


@router.get("/v1/sessions", security=CALLER, responses={
    **documented(200, "", *AUTH_ERRORS),  # the page's schema stated here: the body leaves out a null next
    200: {"description": "A page of the caller's sessions, newest first", "content": {"application/json": {"model": wire.SessionList}}},
})
def list_sessions(
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
    after: Annotated[str | None, Query(max_length=2048)] = None,
) -> Response[dict[str, Any]]:
    page = wire.SessionList.of(services(router).sessions.list_sessions(caller(router), limit, after))
    return Response(200, "application/json", page.model_dump(by_alias=True, exclude_none=True))  # no next: last page


@router.get("/v1/sessions/<sessionId>", security=CALLER, responses=documented(200, "One session", *AUTH_ERRORS, 404))
def get_session(sessionId: Id) -> wire.SessionDetail:  # noqa: N803
    return wire.SessionDetail.of(services(router).sessions.get_session(caller(router), sessionId))


@router.get("/v1/sessions/<sessionId>/messages", security=CALLER,
            responses=documented(200, "A page of the transcript", *AUTH_ERRORS, 404))
def transcript(
    sessionId: Id,  # noqa: N803
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 100,
) -> wire.Transcript:
    return wire.Transcript.of(services(router).sessions.transcript(caller(router), sessionId, after, limit))


@router.delete("/v1/sessions/<sessionId>", security=CALLER, responses=documented(204, "Forgotten", *AUTH_ERRORS, 404, 409))
def forget_session(
    sessionId: Id,  # noqa: N803
    facts: Annotated[Literal["keep", "forget"], Query(description="forget: also what was learnt only from it")] = "keep",
) -> Response[None]:
    services(router).forget.forget_session(caller(router), sessionId, facts=facts)
    return Response(status_code=204)


@router.delete("/v1/sessions/<sessionId>/messages/<seq>", security=CALLER,
               responses=documented(204, "Forgotten, with its reply and what was learnt only from it", *AUTH_ERRORS, 404, 409))
def forget_message(sessionId: Id, seq: Annotated[int, Path(ge=1, le=10**10 - 1)]) -> Response[None]:  # noqa: N803
    services(router).forget.forget_message(caller(router), sessionId, seq)
    return Response(status_code=204)
