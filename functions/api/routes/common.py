"""What every route module shares: who may call, the statuses every authenticated route answers,
the id pattern of a path segment, and the services of this instance (put in the resolver's
context by ``app.lambda_handler``, so a test can replace them)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.models import APIKey, APIKeyIn, HTTPBearer, SecurityScheme
from aws_lambda_powertools.event_handler.openapi.params import Path
from convmem import api_schemas as wire
from convmem.composition import ApiServices

# Who may call (docs/api.md): the API key with x-user-id, or a visitor token. Declared in the
# OpenAPI document with every status a route answers, so clients and schemathesis know the contract.
SECURITY_SCHEMES: dict[str, SecurityScheme] = {
    "apiKey": APIKey(name="x-api-key", in_=APIKeyIn.header),
    "userId": APIKey(name="x-user-id", in_=APIKeyIn.header, description="the user a server-side caller acts as"),
    "bearer": HTTPBearer(description="a visitor token from POST /v1/visitors or POST /v1/tokens"),
}
CALLER: list[dict[str, list[str]]] = [{"apiKey": [], "userId": []}, {"bearer": []}]
AUTH_ERRORS = (400, 401, 429, 503)
Id = Annotated[str, Path(pattern=wire.PATH_ID_PATTERN)]  # anything else: 400 invalid_<name>


def services(router: Router) -> ApiServices:
    return router.context["services"]()


def caller(router: Router) -> str:
    """The user the request acts for (the API key's x-user-id, or the visitor token's user)."""
    return services(router).auth.authenticate(router.current_event.headers)
