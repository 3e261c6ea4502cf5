"""Limits per caller and run leases: counters in one item per fixed window, and one lease item per
scheduled run (``domain/rate_limits``; the module docstring of ``keys`` has the data model)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from convmem.adapters.dynamodb.errors import condition_failed, translated
from convmem.adapters.dynamodb.keys import LEASE_SK, counted, key, limit_sk
from convmem.adapters.dynamodb.table import Table
from convmem.domain.rate_limits import LimitSlot
from convmem.errors import ConcurrentUpdateError, RateLimitedError

LEASE_TTL_MARGIN_SECONDS = 24 * 3600


def count_update(table: str, pk: str, slot: LimitSlot) -> dict[str, Any]:
    """The conditional Update that counts one more in ``slot``'s window: refused (condition false)
    when the window holds ``per_window`` or the slice ``burst`` already. Returns the old item on
    refusal, so the answer's Retry-After knows which limit refused without another read."""
    condition = "(attribute_not_exists(#n) OR #n < :limit)"
    values = {":one": {"N": "1"}, ":limit": {"N": str(slot.per_window)}, ":exp": {"N": str(slot.expires_at)}}
    if slot.burst:
        condition += " AND (attribute_not_exists(#s) OR #s < :burst)"
        values[":burst"] = {"N": str(slot.burst)}
    return {
        "TableName": table,
        "Key": key(pk, limit_sk(slot)),
        "UpdateExpression": "ADD #n :one, #s :one SET expiresAt = :exp",
        "ConditionExpression": condition,
        "ExpressionAttributeNames": {"#n": "n", "#s": f"s{slot.slice}"},
        "ExpressionAttributeValues": values,
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
    }


def limited(slot: LimitSlot, old: dict[str, Any] | None, now: datetime, what: str) -> RateLimitedError:
    retry = slot.retry_after(counted(old, slot) if old else None, now.timestamp())
    return RateLimitedError(f"Too many {what}; retry in {retry} s.", retry_after_s=retry)


class LimitsTable(Table):
    def count_new_visitor(self, source_key: str, slot: LimitSlot, now: datetime) -> None:
        """Count one new visitor from the source address whose keyed hash is ``source_key``.
        RateLimitedError (nothing counted) when its window or slice is full."""
        with translated("count new visitor"):
            try:
                self._ddb.update_item(**count_update(self._table, f"SOURCE#{source_key}", slot))
            except ClientError as exc:
                if not condition_failed(exc):
                    raise
                raise limited(slot, exc.response.get("Item") or {}, now, "new visitors from this address") from exc


class LeasesTable(Table):
    @staticmethod
    def _lease_key(name: str) -> dict[str, Any]:
        return key(f"LEASE#{name}", LEASE_SK)

    def acquire_lease(self, name: str, *, owner: str, now: datetime, until: datetime) -> bool:
        """One conditional put: the lease is taken when nobody holds it or its holder's time is over."""
        try:
            self._conditional(
                "put_item", "acquire lease", "lease held",
                Item={
                    **self._lease_key(name), "owner": {"S": owner},
                    "leaseUntil": {"N": str(int(until.timestamp()) + 1)},
                    "expiresAt": {"N": str(int(until.timestamp()) + LEASE_TTL_MARGIN_SECONDS)},
                },
                ConditionExpression="attribute_not_exists(PK) OR leaseUntil <= :now",
                ExpressionAttributeValues={":now": {"N": str(int(now.timestamp()))}},
            )
        except ConcurrentUpdateError:
            return False
        return True

    def release_lease(self, name: str, *, owner: str) -> None:
        """Free the lease if ``owner`` still holds it (a later holder's lease is left alone)."""
        try:
            self._conditional(
                "delete_item", "release lease", "lease taken over", Key=self._lease_key(name),
                ConditionExpression="#o = :me", ExpressionAttributeNames={"#o": "owner"},
                ExpressionAttributeValues={":me": {"S": owner}},
            )
        except ConcurrentUpdateError:
            pass
