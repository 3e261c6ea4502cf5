"""Health, new visitors and widget tokens: the routes a caller uses before it is anyone."""

from __future__ import annotations

from typing import Annotated, cast

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2
from convmem import api_schemas as wire
from convmem.http_errors import documented

from routes.common import AUTH_ERRORS, services

router = Router()


@router.get("/v1/health", responses=documented(200, "Alive"))
def health() -> wire.Health:
    return wire.Health()


@router.post("/v1/visitors", responses=documented(201, "A new visitor and its token", 429, 503))
def new_visitor() -> Response[wire.TokenResponse]:
    event = cast(APIGatewayProxyEventV2, router.current_event)  # an HTTP API (payload 2.0) event
    source_ip = event.request_context.http.source_ip  # counted as a keyed hash, never stored
    return Response(201, "application/json", wire.TokenResponse.of(services(router).auth.issue_visitor(source_ip)))


@router.post("/v1/tokens", security=[{"apiKey": []}],
             responses=documented(201, "A widget token for the user", *AUTH_ERRORS))
def mint_token(body: Annotated[wire.TokenRequest, Body()]) -> Response[wire.TokenResponse]:
    issued = services(router).auth.issue_for_user(router.current_event.headers, body.user_id)
    return Response(201, "application/json", wire.TokenResponse.of(issued))
