"""Fold consumer (SQS FIFO, group = one user's session): rolling-summary folds with partial batch failures."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import SqsFifoPartialProcessor, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from convmem.adapters.sqs_jobs import decode_fold
from convmem.composition import build_fold
from convmem.job_time import FOLD_MODEL_OPERATIONS, job_worst_case_s, within_time
from convmem.observability import logger, metrics
from convmem.service.fold import FoldService
from convmem.settings import Settings

# Only the failing session's later jobs are retried; other sessions in the batch go on.
processor = SqsFifoPartialProcessor(skip_group_on_error=True)
# A batch whose every job failed is reported item by item, not as a crashed invocation
# (the FIFO processor's constructor does not take this flag; the base class honours it).
processor.raise_on_entire_batch_failure = False


@lru_cache(maxsize=1)
def settings() -> Settings:
    return Settings.from_env()


@lru_cache(maxsize=1)
def service() -> FoldService:
    return build_fold(settings())


def _targets(records: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
    """Highest throughSeq per (user, session) in this batch: several jobs of one session fold once
    (a session is named by both ids: two users' "support" are two sessions)."""
    out: dict[tuple[str, str], int] = {}
    for r in records:
        try:
            job = decode_fold(r["body"])
            key = (job.user_id, job.session_id)
            out[key] = max(out.get(key, 0), job.through_seq)
        except (ValueError, KeyError, TypeError):
            continue  # a malformed job fails on its own in handle(), then goes to the DLQ
    return out


def handle(record: SQSRecord, targets: dict[tuple[str, str], int]) -> None:
    job = decode_fold(record.body)
    through = targets.get((job.user_id, job.session_id), job.through_seq)
    outcome = service().fold(job.session_id, job.user_id, through)
    logger.info("fold", extra={"session_id": outcome.session_id, "cursor": outcome.cursor_after, "folded": outcome.folded})
    metrics.add_metric(name="MessagesFolded", unit=MetricUnit.Count, value=outcome.folded)


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> PartialItemFailureResponse:
    targets = _targets(event.get("Records", []))
    # A job starts only while a whole one still fits; the rest of the batch comes back later.
    job_s = job_worst_case_s(settings(), FOLD_MODEL_OPERATIONS)
    record_handler = within_time(lambda record: handle(record, targets), context, job_s)
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
