"""HTTP API (API Gateway HTTP API, payload 2.0): one resolver, a Router module per resource."""

from __future__ import annotations

import json
from functools import lru_cache, partial
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.shared.json_encoder import Encoder
from convmem.composition import ApiServices, build_api
from convmem.http_errors import openapi_without_422, read_json_body
from convmem.observability import logger, metrics
from convmem.settings import Settings
from convmem.snapstart import prime_at_init, warm_route
from routes import access, edges, me, sessions
from routes.common import SECURITY_SCHEMES

# UTF-8 on the wire: Korean text is 3 bytes a character instead of a 6-byte \u escape.
app = APIGatewayHttpResolver(
    enable_validation=True,
    serializer=partial(json.dumps, separators=(",", ":"), cls=Encoder, ensure_ascii=False),
    json_body_deserializer=read_json_body,  # a JSON bomb is a 400, not a 500
)
for module in (access, sessions, me, edges):
    app.include_router(module.router)
app.not_found(edges.not_found)


@lru_cache(maxsize=1)
def services() -> ApiServices:
    return build_api(Settings.from_env())


@app.get("/v1/openapi.json", include_in_schema=False)
def openapi() -> dict[str, Any]:
    doc = app.get_openapi_json_schema(title="convmem", version="1", security_schemes=SECURITY_SCHEMES)
    return openapi_without_422(json.loads(doc))


def resolve(event: dict[str, Any], context: Any) -> dict[str, Any]:
    app.append_context(services=services)  # called by the first route that needs them
    return edges.resolve(app, event, context)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP, log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return resolve(event, context)


# A SnapStart snapshot's init builds the services and warms every lazy path; on-demand inits stay lazy.
prime_at_init(services, warm_route(resolve, "POST", "/v1/sessions/priming/turns", '{"message": "priming"}'))
