"""Scheduled profile tick (EventBridge): queue one refresh job for every user active since their
last refresh; the refresh function (functions/refresh) works through them with bounded concurrency."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from convmem.composition import build_profile
from convmem.observability import logger, metrics
from convmem.service.profile import ProfileService
from convmem.settings import Settings


@lru_cache(maxsize=1)
def service() -> ProfileService:
    return build_profile(Settings.from_env())


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    tick = service().enqueue_due(time_left_s=lambda: context.get_remaining_time_in_millis() / 1000)
    metrics.add_metric(name="ProfileJobsEnqueued", unit=MetricUnit.Count, value=tick.enqueued)
    logger.info("profile tick", extra={"enqueued": tick.enqueued, "failed": tick.failed, "complete": tick.complete,
                                       "skipped": tick.skipped})
    return {"enqueued": tick.enqueued, "failed": tick.failed, "complete": tick.complete, "skipped": tick.skipped}
