"""Facts consumer (SQS FIFO, group = user): extract facts from one visitor message per job and
merge them, with partial batch failures (a failing job is retried, then dead-lettered)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import SqsFifoPartialProcessor, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from convmem.adapters.sqs_jobs import decode_facts
from convmem.composition import build_facts
from convmem.job_time import FACTS_MODEL_OPERATIONS, job_worst_case_s, within_time
from convmem.observability import logger, metrics
from convmem.service.facts import FactsService
from convmem.settings import Settings

# Only the failing user's later jobs wait; other users in the batch go on.
processor = SqsFifoPartialProcessor(skip_group_on_error=True)
processor.raise_on_entire_batch_failure = False  # see functions/fold/app.py


@lru_cache(maxsize=1)
def settings() -> Settings:
    return Settings.from_env()


@lru_cache(maxsize=1)
def service() -> FactsService:
    return build_facts(settings())


def handle(record: SQSRecord) -> None:
    job = decode_facts(record.body)
    outcome = service().process(job)
    logger.info("facts", extra={"user_id": job.user_id, "candidates": outcome.candidates, "actions": list(outcome.actions)})
    metrics.add_metric(name="FactsLearnt", unit=MetricUnit.Count, value=outcome.learnt)


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> PartialItemFailureResponse:
    # A job starts only while a whole one still fits; the rest of the batch comes back later.
    record_handler = within_time(handle, context, job_worst_case_s(settings(), FACTS_MODEL_OPERATIONS))
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
