"""What every part of the DynamoDB adapter shares: the client and table, conditional writes guarded
by the erasure check, batch reads and deletes with backoff, consistent key listing."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from convmem.adapters.dynamodb.errors import translated
from convmem.adapters.dynamodb.keys import ERASURE_SK, iso, key, user_pk
from convmem.errors import DependencyUnavailableError

# Batch reads and writes whose keys DynamoDB left unprocessed (throttled partitions) are retried
# after an exponential backoff with jitter, as DynamoDB asks: retried at once they meet the same
# throttling. Bounded: a turn waits at most about 0.75 s of these sleeps before answering 503.
BATCH_ATTEMPTS = 5
_BACKOFF_BASE_SECONDS = 0.05
_BACKOFF_CAP_SECONDS = 1.0


def backoff_seconds(retry: int) -> float:
    """The sleep before the ``retry``-th retry (0 first): "equal jitter", a random point in the
    upper half of an exponentially growing, capped interval, so sleeps spread out callers that
    collided yet each is at least as long as the one before."""
    ceiling = min(_BACKOFF_CAP_SECONDS, _BACKOFF_BASE_SECONDS * 2**retry)
    return ceiling / 2 + random.uniform(0, ceiling / 2)


class Table:
    """One DynamoDB table through the low-level client (exact control of every request)."""

    def __init__(
        self, table_name: str, client: Any | None = None, window: int = 12, due_shards: int = 4, facts_shards: int = 1,
        sleep: Callable[[float], None] = time.sleep, due_page_size: int = 1000,
    ) -> None:
        if client is None:
            import boto3

            client = boto3.client("dynamodb")
        self._ddb = client
        self._table = table_name
        self._window = window
        self._due_shards = due_shards
        self._sleep = sleep
        self._facts_shards = facts_shards
        self._due_page_size = due_page_size

    def _conditional(self, operation: str, what: str, race: str, **kwargs: Any) -> None:
        """One conditional write: ConcurrentUpdateError (``race``) when its condition fails."""
        with translated(what, race):
            getattr(self._ddb, operation)(TableName=self._table, **kwargs)

    def _erasure_check(self, user_id: str, now: datetime) -> dict[str, Any]:
        """A ConditionCheck that the user's erasure marker does not block writes at ``now``
        (the same rule as ports.erasure_blocks: no marker, or erased and ``until`` passed)."""
        return {
            "ConditionCheck": {
                "TableName": self._table,
                "Key": key(user_pk(user_id), ERASURE_SK),
                "ConditionExpression": "attribute_not_exists(PK) OR (#st <> :erasing AND #until <= :now)",
                "ExpressionAttributeNames": {"#st": "state", "#until": "until"},
                "ExpressionAttributeValues": {":erasing": {"S": "erasing"}, ":now": {"S": iso(now)}},
            }
        }

    def _write_unless_erasing(self, user_id: str, now: datetime, write: dict[str, Any] | list[dict[str, Any]],
                              what: str, race: str) -> None:
        """Conditional writes (TransactItems entries) together with the erasure check, in one
        transaction. ErasureInProgressError when the user is being erased; ConcurrentUpdateError
        (``race``) when a write's own condition fails or another write held the item then."""
        writes = write if isinstance(write, list) else [write]
        with translated(what, race, erasure_checked=True):
            self._ddb.transact_write_items(TransactItems=[self._erasure_check(user_id, now), *writes])

    def _batch_get(self, user_id: str, sks: list[str], what: str, consistent: bool = False) -> dict[str, dict[str, Any]]:
        """The user's items with these sort keys, by sort key: one BatchGetItem. Keys DynamoDB
        leaves unprocessed are asked again after a jittered, growing backoff, BATCH_ATTEMPTS calls
        in all (at most ~0.75 s of sleeps); then DependencyUnavailableError (storage_throttled)."""
        request: dict[str, Any] = {self._table: {"Keys": [key(user_pk(user_id), sk) for sk in sks],
                                                 **({"ConsistentRead": True} if consistent else {})}}
        items: list[dict[str, Any]] = []
        with translated(what):
            for attempt in range(BATCH_ATTEMPTS):
                if attempt:
                    self._sleep(backoff_seconds(attempt - 1))
                page = self._ddb.batch_get_item(RequestItems=request)
                items.extend(page.get("Responses", {}).get(self._table, []))
                request = page.get("UnprocessedKeys") or {}
                if not request:
                    break
            else:
                raise DependencyUnavailableError(f"DynamoDB kept deferring the read ({what}).", code="storage_throttled")
        return {i["SK"]["S"]: i for i in items}

    def _query_all(self, **kwargs: Any) -> list[dict[str, Any]]:
        """Every item of a Query, all pages."""
        out: list[dict[str, Any]] = []
        while True:
            page = self._ddb.query(TableName=self._table, **kwargs)
            out.extend(page["Items"])
            if "LastEvaluatedKey" not in page:
                return out
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _keys(self, pk: str, sk_prefix: str | None = None) -> list[dict[str, Any]]:
        """Every (PK, SK) under ``pk`` (optionally only SKs with ``sk_prefix``), all pages, read
        consistently: what a delete or an erasure must not miss was committed a moment ago."""
        items = self._query_all(
            ProjectionExpression="PK, SK", ConsistentRead=True,
            KeyConditionExpression="PK = :pk" + (" AND begins_with(SK, :p)" if sk_prefix else ""),
            ExpressionAttributeValues={":pk": {"S": pk}, **({":p": {"S": sk_prefix}} if sk_prefix else {})},
        )
        return [{"PK": i["PK"], "SK": i["SK"]} for i in items]

    def _delete_keys(self, keys: list[dict[str, Any]], deadline: float) -> bool:
        """BatchWriteItem deletes, 25 a request, unprocessed ones retried after a growing
        backoff (uncapped in number: the deadline bounds it); False at the deadline."""
        pending = list(keys)
        deferred = 0  # batches in a row with unprocessed items
        while pending:
            if time.monotonic() >= deadline:
                return False
            batch, pending = pending[:25], pending[25:]
            response = self._ddb.batch_write_item(
                RequestItems={self._table: [{"DeleteRequest": {"Key": k}} for k in batch]}
            )
            left = response.get("UnprocessedItems", {}).get(self._table, [])
            if left:
                pending = [r["DeleteRequest"]["Key"] for r in left] + pending
                self._sleep(backoff_seconds(deferred))
                deferred += 1
            else:
                deferred = 0
        return True
