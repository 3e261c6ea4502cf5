"""Profile refresh consumer (SQS, standard queue): one job per due user, queued by the profile
tick; partial batch failures (a failing user is retried, then dead-lettered, alone)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from convmem.adapters.sqs_jobs import decode_profile
from convmem.composition import build_profile
from convmem.job_time import PROFILE_MODEL_OPERATIONS, job_worst_case_s, within_time
from convmem.observability import logger, metrics
from convmem.service.profile import ProfileService
from convmem.settings import Settings

processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


@lru_cache(maxsize=1)
def settings() -> Settings:
    return Settings.from_env()


@lru_cache(maxsize=1)
def service() -> ProfileService:
    return build_profile(settings())


def handle(record: SQSRecord) -> None:
    job = decode_profile(record.body)
    refreshed = service().refresh_job(job.user_id, job.active_at)
    metrics.add_metric(name="ProfilesRefreshed" if refreshed else "ProfileJobsSkipped", unit=MetricUnit.Count, value=1)


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> PartialItemFailureResponse:
    # A job starts only while a whole one still fits; the rest of the batch comes back later.
    record_handler = within_time(handle, context, job_worst_case_s(settings(), PROFILE_MODEL_OPERATIONS))
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
