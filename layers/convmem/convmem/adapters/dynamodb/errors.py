"""The one place where botocore's errors become the domain's.

Every DynamoDB request of the adapter runs inside ``translated(what, ...)``: a throttled table is
``storage_throttled``, anything else unavailable ``storage_unavailable`` (both 503, retry), a
lost race ``ConcurrentUpdateError`` (the caller reloads), and a transaction refused by its
erasure ConditionCheck ``ErasureInProgressError``. A method that treats one error as an answer
(a claim already held, a counter that is full) catches that ClientError inside the block and lets
every other one reach it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from convmem.errors import ConcurrentUpdateError, DependencyUnavailableError, ErasureInProgressError

_THROTTLE_CODES = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
}
# A lost race, not an outage (botocore retries neither): a condition another writer made false,
# or another writer touching the same item at that moment - a transaction cancelled with reason
# TransactionConflict, or TransactionConflictException for a single write while a transaction
# holds the item (two turns of one session; a fold moving the cursor while a turn commits).
_RACE_CODES = {"ConditionalCheckFailedException", "TransactionConflictException"}
_RACE_REASONS = {"ConditionalCheckFailed", "TransactionConflict"}


def error_code(exc: ClientError) -> str:
    return str(exc.response["Error"]["Code"])


def dependency_error(exc: Exception, what: str) -> DependencyUnavailableError:
    if isinstance(exc, ClientError) and error_code(exc) in _THROTTLE_CODES:
        return DependencyUnavailableError(f"DynamoDB is throttling ({what}); retry shortly.", code="storage_throttled")
    return DependencyUnavailableError(f"DynamoDB is unavailable ({what}); retry shortly.", code="storage_unavailable")


def reasons(exc: ClientError) -> list[str | None]:
    """The cancellation reason of each item of a cancelled transaction, in order."""
    return [r.get("Code") for r in exc.response.get("CancellationReasons", [])]


def lost_race(exc: ClientError) -> bool:
    """True when the write lost a race with another writer (the caller reloads and retries)."""
    if error_code(exc) == "TransactionCanceledException":
        return bool(_RACE_REASONS & set(reasons(exc)))
    return error_code(exc) in _RACE_CODES


def condition_failed(exc: ClientError) -> bool:
    """A single write whose own condition was false (not a conflict with a transaction)."""
    return error_code(exc) == "ConditionalCheckFailedException"


def erasure_refused(exc: ClientError) -> bool:
    """A transaction whose first item, the erasure ConditionCheck, failed: the user is being erased."""
    return error_code(exc) == "TransactionCanceledException" and reasons(exc)[:1] == ["ConditionalCheckFailed"]


def refused_item(exc: ClientError, index: int) -> dict[str, Any] | None:
    """The old item ({} when not returned) when the transaction's item ``index`` failed its
    condition; None when something else cancelled it."""
    if error_code(exc) != "TransactionCanceledException":
        return None
    cancelled = exc.response.get("CancellationReasons", [])
    if index < len(cancelled) and cancelled[index].get("Code") == "ConditionalCheckFailed":
        return cancelled[index].get("Item") or {}
    return None


def erasing() -> ErasureInProgressError:
    return ErasureInProgressError("This user's data is being erased; a new conversation can start in a minute.")


@contextmanager
def translated(what: str, race: str | None = None, *, erasure_checked: bool = False) -> Iterator[None]:
    """Run DynamoDB requests, turning their errors into the domain's (module docstring).
    ``race``: the message of the ConcurrentUpdateError a lost race raises; without it a lost
    race is an error like any other (the request had no condition to lose).
    ``erasure_checked``: the request is a transaction whose first item is the erasure check."""
    try:
        yield
    except ClientError as exc:
        if erasure_checked and erasure_refused(exc):
            raise erasing() from exc
        if race is not None and lost_race(exc):
            raise ConcurrentUpdateError(race) from exc
        raise dependency_error(exc, what) from exc
    except BotoCoreError as exc:
        raise dependency_error(exc, what) from exc
