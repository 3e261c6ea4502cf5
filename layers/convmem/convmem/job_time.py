"""How long one background job may take, and SQS batches that stop before Lambda's timeout.

A job's worst case is the model operations it makes - each ends within ``model_deadline_s``
(retries stop starting then) plus the read timeout of an attempt still in flight - and an
allowance for its DynamoDB and KMS calls. template.yaml sizes each consumer's BatchSize,
Timeout and VisibilityTimeout from these numbers (tests/unit/test_template_build.py checks it),
and the handlers start a record only while one whole job still fits: the rest of the batch is
reported as failures instead of the invocation being killed with all of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from convmem.errors import OutOfTimeError
from convmem.observability import logger
from convmem.settings import Settings

STORAGE_ALLOWANCE_S = 10.0
"""DynamoDB and KMS calls of one job (a few calls, each 5 s read timeout, standard retries)."""
FOLD_MODEL_OPERATIONS = 1
"""A fold job: one fold_summary call."""
FACTS_MODEL_OPERATIONS = 2
"""A facts job for one visitor message: one extract_facts (at most two Converse calls under one
deadline) and one embed of the new statements (under its own deadline)."""
PROFILE_MODEL_OPERATIONS = 1
"""A profile job for one user: one write_profile call (the reads and the write are in the allowance)."""

R = TypeVar("R")


def model_operation_worst_s(settings: Settings) -> float:
    """Longest one model operation may take: retries start only before its deadline, and the
    attempt in flight then may run its whole read timeout."""
    return settings.model_deadline_s + settings.model_timeout_s


def job_worst_case_s(settings: Settings, model_operations: int) -> float:
    """Longest one job of ``model_operations`` model operations may take."""
    return model_operations * model_operation_worst_s(settings) + STORAGE_ALLOWANCE_S


def within_time(handle: Callable[[Any], R], context: Any, job_s: float) -> Callable[[Any], R]:
    """``handle``, started only while the Lambda ``context`` has at least ``job_s`` seconds left;
    else OutOfTimeError, which the batch processor reports as that record's failure. Time only
    runs out, so the failures are the batch's tail: with SqsFifoPartialProcessor no message is
    processed after an earlier one of its group failed."""

    def guarded(record: Any) -> R:
        left = context.get_remaining_time_in_millis() / 1000
        if left < job_s:
            logger.warning("job not started: out of time", extra={"left_s": round(left, 1), "job_s": job_s})
            raise OutOfTimeError(f"{left:.1f} s left, a job may take {job_s:.0f} s; the record is retried.")
        return handle(record)

    return guarded
