"""Scheduled profile refresh (EventBridge): users active since their last refresh get a new one."""

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
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, int]:
    run = service().refresh_due(time_left_s=lambda: context.get_remaining_time_in_millis() / 1000)
    metrics.add_metric(name="ProfilesRefreshed", unit=MetricUnit.Count, value=run.refreshed)
    logger.info("profile refresh", extra={"refreshed": run.refreshed, "failed": run.failed, "left": run.left_for_next_run,
                                          "skipped": run.skipped})
    return {"refreshed": run.refreshed, "failed": run.failed, "leftForNextRun": run.left_for_next_run, "skipped": run.skipped}
