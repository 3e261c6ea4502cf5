"""The user's durable layers: the facts document (versioned, sharded, each shard encrypted) and
the profile with its sparse ``ProfileDue`` index (the data model is in ``keys``)."""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from convmem.adapters.dynamodb.errors import translated
from convmem.adapters.dynamodb.keys import (
    DUE_INDEX,
    ERASURE_SK,
    FACTS_SK,
    PROFILE_SK,
    binary,
    counted,
    facts_shard,
    facts_sk,
    iso,
    key,
    limit_sk,
    parse_time,
    time_attr,
    user_pk,
)
from convmem.adapters.dynamodb.table import Table
from convmem.domain.rate_limits import Counted, LimitSlot
from convmem.errors import ConcurrentUpdateError, DependencyUnavailableError
from convmem.ports import DueUser, ProfileState, UserMemory

# DynamoDB's item limit is 400 KB counted in UTF-8 bytes of names and values: a shard's ciphertext
# stays below this, with room for the key and the other attributes.
FACTS_SHARD_MAX_BYTES = 350_000


class MemoryTable(Table):
    def _facts_sks(self) -> list[str]:
        return [facts_sk(i) for i in range(self._facts_shards)]

    @staticmethod
    def _shards(by_sk: dict[str, dict[str, Any]]) -> dict[int, bytes]:
        return {facts_shard(sk): bytes(i["ct"]["B"]) for sk, i in by_sk.items()
                if sk.startswith(FACTS_SK) and "ct" in i}

    def load_user_memory(self, user_id: str, turn_slot: LimitSlot | None = None) -> UserMemory:
        """Every facts shard, PROFILE, the erasure marker (and the turn counter of ``turn_slot``) in one BatchGetItem."""
        counter = [limit_sk(turn_slot)] if turn_slot is not None else []
        by_sk = self._batch_get(user_id, [*self._facts_sks(), PROFILE_SK, ERASURE_SK, *counter], "load user memory")
        facts, profile, erasure = (by_sk.get(k, {}) for k in (FACTS_SK, PROFILE_SK, ERASURE_SK))
        return UserMemory(
            facts_version=int(facts.get("version", {"N": "0"})["N"]),
            facts_shards=self._shards(by_sk),
            profile_ciphertext=binary(profile, "profileCt"),
            profile_refreshed_at=time_attr(profile, "refreshedAt"),
            erasure_state=erasure.get("state", {}).get("S"),
            erasure_until=time_attr(erasure, "until"),
            turns_counted=counted(by_sk.get(counter[0]), turn_slot) if turn_slot is not None else Counted(),
        )

    def get_facts(self, user_id: str) -> tuple[int, dict[int, bytes]]:
        """(version, ciphertext by shard) of the facts document, read consistently (for a conditional write)."""
        by_sk = self._batch_get(user_id, self._facts_sks(), "get facts", consistent=True)
        head = by_sk.get(FACTS_SK)
        return (int(head["version"]["N"]) if head else 0), self._shards(by_sk)

    def put_facts(
        self, user_id: str, *, expected_version: int, shards: Mapping[int, bytes], count: int, now: datetime
    ) -> None:
        """The changed shards and the next version on the head item (shard 0), in one transaction
        conditioned on the version read and on the user not being erased."""
        for i, ct in shards.items():
            if not 0 <= i < self._facts_shards or len(ct) > FACTS_SHARD_MAX_BYTES:
                raise ValueError(f"facts shard {i} is out of range or over {FACTS_SHARD_MAX_BYTES} bytes")
        pk = user_pk(user_id)
        values: dict[str, Any] = {}
        if expected_version == 0:
            condition = "attribute_not_exists(PK)"
        else:
            condition, values[":expected"] = "version = :expected", {"N": str(expected_version)}
        values.update({":v": {"N": str(expected_version + 1)}, ":count": {"N": str(count)}, ":now": {"S": iso(now)}})
        set_ct = ", ct = :ct" if 0 in shards else ""
        if 0 in shards:
            values[":ct"] = {"B": shards[0]}
        head = {
            "TableName": self._table, "Key": key(pk, FACTS_SK),
            "UpdateExpression": f"SET version = :v, #count = :count, updatedAt = :now{set_ct}",
            "ExpressionAttributeNames": {"#count": "count"},
            "ConditionExpression": condition, "ExpressionAttributeValues": values,
        }
        others = [{"Put": {"TableName": self._table, "Item": {
            **key(pk, facts_sk(i)), "ct": {"B": ct}, "updatedAt": {"S": iso(now)}}}}
            for i, ct in sorted(shards.items()) if i != 0]
        self._write_unless_erasing(user_id, now, [{"Update": head}, *others], "put facts",
                                   "The user's facts changed while this merge ran.")

    def _due_shard(self, user_id: str) -> str:
        return f"DUE#{zlib.crc32(user_id.encode('utf-8')) % self._due_shards}"

    def mark_active(self, user_id: str, now: datetime) -> None:
        with translated("mark active"):
            self._ddb.update_item(
                TableName=self._table,
                Key=key(user_pk(user_id), PROFILE_SK),
                UpdateExpression="SET activeAt = :now, dueShard = :shard",
                ExpressionAttributeValues={":now": {"S": iso(now)}, ":shard": {"S": self._due_shard(user_id)}},
            )

    def due_user_pages(self) -> Iterator[list[DueUser]]:
        """Every shard of the sparse ``ProfileDue`` index, every page of ``due_page_size`` users
        (a hundred SendMessageBatch requests each), oldest activity first within a shard."""
        for shard in range(self._due_shards):
            kwargs: dict[str, Any] = {
                "TableName": self._table, "IndexName": DUE_INDEX, "KeyConditionExpression": "dueShard = :s",
                "ExpressionAttributeValues": {":s": {"S": f"DUE#{shard}"}}, "Limit": self._due_page_size,
            }
            while True:
                with translated("due users"):
                    page = self._ddb.query(**kwargs)
                if page["Items"]:
                    yield [DueUser(i["PK"]["S"].removeprefix("USER#"), parse_time(i["activeAt"]["S"]))
                           for i in page["Items"]]
                if "LastEvaluatedKey" not in page:
                    break
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def profile_state(self, user_id: str) -> ProfileState:
        item = self._batch_get(user_id, [PROFILE_SK], "profile state", consistent=True).get(PROFILE_SK, {})
        return ProfileState(ciphertext=binary(item, "profileCt"), due="dueShard" in item,
                            active_at=time_attr(item, "activeAt"))

    def put_profile(self, user_id: str, *, ciphertext: bytes, now: datetime, active_at: datetime) -> None:
        """Raises ErasureInProgressError when the user is being erased (nothing written)."""
        values = {":ct": {"B": ciphertext}, ":now": {"S": iso(now)}}

        def update(expression: str, condition: str, extra: dict[str, Any]) -> dict[str, Any]:
            return {"Update": {
                "TableName": self._table, "Key": key(user_pk(user_id), PROFILE_SK),
                "UpdateExpression": expression, "ConditionExpression": condition,
                "ExpressionAttributeValues": {**values, **extra},
            }}

        seen = {":seen": {"S": iso(active_at)}}
        try:
            self._write_unless_erasing(user_id, now, update(
                "SET profileCt = :ct, refreshedAt = :now REMOVE dueShard", "activeAt = :seen",
                seen), "put profile", "The user was active again while the profile was written.")
        except ConcurrentUpdateError:
            # Active again while the profile was written: store it, and stay due for the next
            # run - unless the item is gone (erased meanwhile: nothing to revive) or the profile
            # was reset by a forget after this refresh began (it may hold what was forgotten).
            try:
                self._write_unless_erasing(user_id, now, update(
                    "SET profileCt = :ct, refreshedAt = :now",
                    "attribute_exists(PK) AND (attribute_not_exists(forgotAt) OR forgotAt <= :seen)", seen),
                    "put profile", "The profile item is gone, or was reset.")
            except ConcurrentUpdateError:
                pass

    def reset_profile(self, user_id: str, now: datetime) -> None:
        """Drop the profile and make the user due, so the next refresh writes it anew from the
        messages left (never from the old profile). A refresh that began before this cannot
        write its profile after it (``put_profile``). ErasureInProgressError during an erasure."""
        try:
            self._write_unless_erasing(user_id, now, {"Update": {
                "TableName": self._table, "Key": key(user_pk(user_id), PROFILE_SK),
                "UpdateExpression": "SET activeAt = :now, dueShard = :shard, forgotAt = :now REMOVE profileCt, refreshedAt",
                "ExpressionAttributeValues": {":now": {"S": iso(now)}, ":shard": {"S": self._due_shard(user_id)}},
            }}, "reset profile", "The profile changed while it was reset.")
        except ConcurrentUpdateError:
            # The only race: another writer held the item at that moment (no condition here).
            raise DependencyUnavailableError("The profile was busy; retry.", code="profile_busy") from None
