"""The erasure marker and the deletion of a user's own items (sessions go through ``sessions``)."""

from __future__ import annotations

from datetime import datetime

from convmem.adapters.dynamodb.errors import translated
from convmem.adapters.dynamodb.keys import ERASURE_SK, iso, key, parse_time, user_pk
from convmem.adapters.dynamodb.table import Table

ERASURE_TTL_SECONDS = 7 * 24 * 3600


class ErasureTable(Table):
    def delete_user_items(self, user_id: str, deadline: float) -> bool:
        """Every item under the user's key (facts, profile, markers, turn records, counters), never
        the erasure marker; False when the deadline came first (run again to finish)."""
        with translated("delete user items"):
            keys = [k for k in self._keys(user_pk(user_id)) if k["SK"]["S"] != ERASURE_SK]
            return self._delete_keys(keys, deadline)

    def get_erasure(self, user_id: str) -> tuple[str | None, datetime | None]:
        with translated("get erasure"):
            item = self._ddb.get_item(
                TableName=self._table, Key=key(user_pk(user_id), ERASURE_SK),
                ConsistentRead=True,  # a marker written a moment ago must be seen (it may refuse a new key)
            ).get("Item")
        if not item:
            return None, None
        return item["state"]["S"], parse_time(item["until"]["S"])

    def mark_erasure(self, user_id: str, *, state: str, until: datetime, now: datetime) -> None:
        with translated("mark erasure"):
            self._ddb.put_item(TableName=self._table, Item={
                **key(user_pk(user_id), ERASURE_SK), "state": {"S": state}, "until": {"S": iso(until)},
                "erasedAt": {"S": iso(now)}, "expiresAt": {"N": str(int(until.timestamp()) + ERASURE_TTL_SECONDS)},
            })
