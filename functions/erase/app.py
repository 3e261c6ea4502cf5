"""Erasure consumer (SQS FIFO, group = user): finishes deleting an erased user's items.

The user's branch key was destroyed by DELETE /v1/me before any job was sent, so what this
deletes is already unreadable ciphertext. Each job works until the function is about to time
out, then enqueues the rest."""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.utilities.batch import SqsFifoPartialProcessor, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from convmem.adapters.sqs_jobs import decode_erase
from convmem.composition import build_erase
from convmem.observability import logger, metrics
from convmem.service.forget import ForgetService
from convmem.settings import Settings

processor = SqsFifoPartialProcessor(skip_group_on_error=True)
processor.raise_on_entire_batch_failure = False  # see functions/fold/app.py
RESERVE_S = 5.0


@lru_cache(maxsize=1)
def service() -> ForgetService:
    return build_erase(Settings.from_env())


def handle(record: SQSRecord, deadline: float) -> None:
    job = decode_erase(record.body)
    done = service().continue_erasure(job.user_id, deadline, attempt=job.attempt, erasure_id=job.erasure_id)
    logger.info("erasure", extra={"user_id": job.user_id, "done": done})


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> PartialItemFailureResponse:
    deadline = time.monotonic() + context.get_remaining_time_in_millis() / 1000 - RESERVE_S
    return process_partial_response(
        event=event, record_handler=lambda record: handle(record, deadline), processor=processor, context=context
    )
