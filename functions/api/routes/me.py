"""What convmem holds on the caller: facts, profile, the export, and erasing it all."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.metrics import MetricUnit
from convmem import api_schemas as wire
from convmem.errors import PayloadTooLargeError
from convmem.http_errors import documented
from convmem.observability import metrics

from routes.common import AUTH_ERRORS, CALLER, Id, caller, services

router = Router()

# A Lambda response through API Gateway carries at most 6 MB; leave room for the envelope.
MAX_RESPONSE_BYTES = 5_500_000


@router.get("/v1/me/export", security=CALLER,
            responses=documented(200, "Everything held on the caller", *AUTH_ERRORS, 413))
def export_me() -> Response[wire.ExportOut]:
    export = wire.ExportOut.of(services(router).export.export(caller(router)))
    if len(export.model_dump_json(by_alias=True).encode("utf-8")) > MAX_RESPONSE_BYTES:
        raise PayloadTooLargeError(
            "The export is larger than one response can carry; read each session's transcript instead.")
    return Response(200, "application/json", export)


@router.delete("/v1/me", security=CALLER, responses=documented(202, "Erased, or erasing", *AUTH_ERRORS))
def erase_me() -> Response[wire.ErasureAccepted]:
    user_id = caller(router)
    progress = services(router).forget.erase(user_id)
    metrics.add_metric(name="UsersErased", unit=MetricUnit.Count, value=1)
    return Response(202, "application/json", wire.ErasureAccepted(user_id=user_id, status="erased" if progress.done else "erasing"))


@router.get("/v1/me/facts", security=CALLER, responses=documented(200, "The current facts", *AUTH_ERRORS))
def list_facts() -> wire.FactList:
    return wire.FactList(facts=[wire.FactOut.of(f) for f in services(router).facts.list_facts(caller(router))])


@router.delete("/v1/me/facts/<factId>", security=CALLER, responses=documented(204, "Forgotten", *AUTH_ERRORS, 404))
def forget_fact(factId: Id) -> Response[None]:  # noqa: N803
    services(router).facts.forget(caller(router), factId)
    return Response(status_code=204)


@router.get("/v1/me/profile", security=CALLER, responses=documented(200, "The short profile", *AUTH_ERRORS))
def get_profile() -> wire.ProfileOut:
    profile, refreshed_at = services(router).profile.get_profile(caller(router))
    return wire.ProfileOut(profile=profile, refreshed_at=wire.iso(refreshed_at))
