"""DynamoDB persistence: the only module that knows the key schema.

| PK                  | SK                        | holds                                      |
|---------------------|---------------------------|--------------------------------------------|
| SESSION#<uid>#<sid> | MSG#<seq, 10 digits>      | one message: role, channel, at, ciphertext |
| SESSION#<uid>#<sid> | STATE (sorts after MSG#)  | sessionId, count, cursor, summary ct, times, forgotten seqs, forgetGen |
| USER#<uid>          | SESSION#<sid>             | the session's marker: sessionId, createdAt |
| USER#<uid>          | TURN#<sid>#<clientTurnId> | idempotency record of a turn               |
| USER#<uid>          | FACTS                     | version, count, ct of facts shard 0        |
| USER#<uid>          | FACTS#<n>                 | ct of facts shard n (1 .. facts_shards-1)  |
| USER#<uid>          | PROFILE                   | profile ct, refreshedAt, activeAt, dueShard|
| USER#<uid>          | ERASURE                   | state (erasing / erased), until, erasedAt  |
| USER#<uid>          | LIMIT#turns#<start>       | n, s<slice>: the user's turns in a window  |
| SOURCE#<hmac>       | LIMIT#visitors#<start>    | n, s<slice>: new visitors from one address |
| LEASE#<name>        | LEASE                     | owner, leaseUntil: one scheduled run a time|

**Sessions live inside their user.** A session is named by (user, sessionId): its partition key
carries both (ids are 1-128 of ``A-Za-z0-9._:-``, never ``#``, so the key splits one way only),
and two users' ``support`` are two unrelated partitions. Nothing is looked up by sessionId alone,
so another user's session of the same id is, to a caller, exactly a session that does not exist.
Why a partition per (user, session) rather than the session under the user's own partition
(``USER#<uid>`` / ``S#<sid>#MSG#...``):
- hot partitions: a session's turns, folds and facts cursor stay on their own partition, as
  before; one busy user with many sessions is spread over many partitions, not one;
- IAM: ``SESSION#*`` and ``USER#*`` stay two LeadingKeys patterns, so the fold function still
  reaches session items only (its one touch of a USER# item is the erasure ConditionCheck); under
  one user partition every function that folds would also reach the user's facts and profile;
- the list: still the ``ByOwner`` GSI (newest first, one Query a page);
- the erasure sweep: an index is eventually consistent, so it cannot be the only way to find a
  user's sessions. The first turn of a session writes its marker ``USER#<uid>`` /
  ``SESSION#<sid>`` in the same transaction as its first messages and STATE (and with the
  erasure ConditionCheck), and a session's delete removes STATE and marker in one transaction:
  a session exists exactly when its marker does. Erasure writes ``erasing`` first, then finds the
  sessions by a strongly consistent Query of the markers: a turn committed before the marker is
  found, one after it is refused. Warm turns write no marker (one TransactWriteItems still).

The user's session list is the ``ByOwner`` GSI over STATE items (``ownerKey`` = USER#<uid>,
``updatedAt``), so listing is one Query, newest first, with no index item to keep in step.

Every write of a user's data (the turn's commit, the fold's summary, the facts document, the
profile) is one transaction with a ConditionCheck on the user's ERASURE item: nothing written
in flight while DELETE /v1/me starts can land after it (ErasureInProgressError instead).

Limits per caller (``domain/rate_limits``) are counters in one item per fixed window, counted by
one conditional ``ADD`` (below the window's limit and the slice's burst): the turn's counter is the
last item of its commit transaction, so a refused turn writes nothing and the warm turn stays one
Query, one BatchGetItem (which reads the counter too) and one TransactWriteItems. A source address
is only ever stored as a keyed hash. Every counter carries ``expiresAt`` (the table's TTL).

A user's facts are one document with a version, split over a fixed number of shard items (by
fact id; each encrypted, at most FACTS_SHARD_MAX_BYTES): a merge writes the shards it changed
and the next version in one transaction conditioned on the version it read, so concurrent or
repeated facts jobs can never leave two current facts in one slot; a turn reads every shard in
its one BatchGetItem (a shard another merge is writing may be one version newer than the rest:
a fact lives in one shard, so it is never seen twice). The ``ProfileDue`` GSI is sparse: only
PROFILE items of users active since their last refresh carry ``dueShard`` (a few shards, so the
index has no single hot key), which the refresh removes.
"""

from __future__ import annotations

import base64
import json
import random
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from convmem.domain.models import SessionState, SessionSummary
from convmem.domain.rate_limits import Counted, LimitSlot
from convmem.errors import (
    ConcurrentUpdateError,
    DependencyUnavailableError,
    ErasureInProgressError,
    InvalidInputError,
    RateLimitedError,
)
from convmem.ports import DueUser, ProfileState, SessionSnapshot, StoredMessage, TurnClaim, UserMemory

STATE_SK = "STATE"
FACTS_SK = "FACTS"
# DynamoDB's item limit is 400 KB counted in UTF-8 bytes of names and values: a shard's ciphertext
# stays below this, with room for the key and the other attributes.
FACTS_SHARD_MAX_BYTES = 350_000
PROFILE_SK = "PROFILE"
ERASURE_SK = "ERASURE"
LEASE_SK = "LEASE"
ERASURE_TTL_SECONDS = 7 * 24 * 3600
OWNER_INDEX = "ByOwner"
DUE_INDEX = "ProfileDue"
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
# Batch reads and writes whose keys DynamoDB left unprocessed (throttled partitions) are retried
# after an exponential backoff with jitter, as DynamoDB asks: retried at once they meet the same
# throttling. Bounded: a turn waits at most about 0.75 s of these sleeps before answering 503.
BATCH_ATTEMPTS = 5
_BACKOFF_BASE_SECONDS = 0.05
_BACKOFF_CAP_SECONDS = 1.0
IDEMPOTENCY_TTL_SECONDS = 24 * 3600
# Messages read beyond the window in the first page; a pending backlog larger than this
# costs one more, exactly bounded, Query.
_PAGE_SLACK = 8


SESSION_MARK = "SESSION#"


def _session_pk(user_id: str, session_id: str) -> str:
    """A session's partition: both ids, so the same sessionId under two users is two sessions.
    Neither id can hold ``#`` (validated at the edge; refused here too, as a key could otherwise
    be read two ways)."""
    if "#" in user_id or "#" in session_id:
        raise InvalidInputError("Ids may not contain '#'.")
    return f"{SESSION_MARK}{user_id}#{session_id}"


def _marker_sk(session_id: str) -> str:
    return f"{SESSION_MARK}{session_id}"


def _user_pk(user_id: str) -> str:
    return f"USER#{user_id}"


# The key of a ByOwner item (table key + index key): what a session-list cursor carries.
_OWNER_INDEX_KEY = ("PK", "SK", "ownerKey", "updatedAt")


def _session_cursor(item: dict[str, Any]) -> str:
    key = {k: item[k]["S"] for k in _OWNER_INDEX_KEY}
    return base64.urlsafe_b64encode(json.dumps(key, separators=(",", ":")).encode()).decode().rstrip("=")


def _session_cursor_key(cursor: str, user_id: str) -> dict[str, Any]:
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, TypeError):
        key = None
    if (not isinstance(key, dict) or set(key) != set(_OWNER_INDEX_KEY)
            or not all(isinstance(v, str) for v in key.values()) or key["ownerKey"] != _user_pk(user_id)
            or not key["PK"].startswith(f"{SESSION_MARK}{user_id}#")):
        raise InvalidInputError("after is not a cursor this list returned.", code="invalid_page")
    return {k: {"S": v} for k, v in key.items()}


def _limit_sk(slot: LimitSlot) -> str:
    return f"LIMIT#{slot.name}#{slot.window_start}"


def _counted(item: dict[str, Any] | None, slot: LimitSlot) -> Counted:
    """A counter item's window and slice counts (zero for no item)."""
    item = item or {}
    return Counted(total=int(item.get("n", {"N": "0"})["N"]), in_slice=int(item.get(f"s{slot.slice}", {"N": "0"})["N"]))


def _count_update(table: str, pk: str, slot: LimitSlot) -> dict[str, Any]:
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
        "Key": {"PK": {"S": pk}, "SK": {"S": _limit_sk(slot)}},
        "UpdateExpression": "ADD #n :one, #s :one SET expiresAt = :exp",
        "ConditionExpression": condition,
        "ExpressionAttributeNames": {"#n": "n", "#s": f"s{slot.slice}"},
        "ExpressionAttributeValues": values,
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
    }


def _limited(slot: LimitSlot, old: dict[str, Any] | None, now: datetime, what: str) -> RateLimitedError:
    retry = slot.retry_after(_counted(old, slot) if old else None, now.timestamp())
    return RateLimitedError(f"Too many {what}; retry in {retry} s.", retry_after_s=retry)


def _gen_condition(forget_gen: int) -> tuple[str, dict[str, Any]]:
    """The condition that no message of the session was forgotten since ``forget_gen`` was read."""
    if forget_gen == 0:
        return "attribute_not_exists(forgetGen)", {}
    return "forgetGen = :gen", {":gen": {"N": str(forget_gen)}}


def _msg_sk(seq: int) -> str:
    return f"MSG#{seq:010d}"


def _facts_sk(shard: int) -> str:
    return FACTS_SK if shard == 0 else f"{FACTS_SK}#{shard}"


def _facts_shard(sk: str) -> int:
    return int(sk.split("#", 1)[1]) if "#" in sk else 0


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _parse(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def _dependency_error(exc: Exception, what: str) -> Exception:
    if isinstance(exc, ClientError) and exc.response["Error"]["Code"] in _THROTTLE_CODES:
        return DependencyUnavailableError(f"DynamoDB is throttling ({what}); retry shortly.", code="storage_throttled")
    return DependencyUnavailableError(f"DynamoDB is unavailable ({what}); retry shortly.", code="storage_unavailable")


def _lost_race(exc: ClientError) -> bool:
    """True when the write lost a race with another writer (the caller reloads and retries)."""
    code = exc.response["Error"]["Code"]
    if code == "TransactionCanceledException":
        return bool(_RACE_REASONS & set(_reasons(exc)))
    return code in _RACE_CODES


def backoff_seconds(retry: int) -> float:
    """The sleep before the ``retry``-th retry (0 first): "equal jitter", a random point in the
    upper half of an exponentially growing, capped interval, so sleeps spread out callers that
    collided yet each is at least as long as the one before."""
    ceiling = min(_BACKOFF_CAP_SECONDS, _BACKOFF_BASE_SECONDS * 2**retry)
    return ceiling / 2 + random.uniform(0, ceiling / 2)


def _reasons(exc: ClientError) -> list[str | None]:
    """The cancellation reason of each item of a cancelled transaction, in order."""
    return [r.get("Code") for r in exc.response.get("CancellationReasons", [])]


def _erasure_refused(exc: ClientError) -> bool:
    """A transaction whose first item, the erasure ConditionCheck, failed: the user is being erased."""
    return exc.response["Error"]["Code"] == "TransactionCanceledException" and _reasons(exc)[:1] == ["ConditionalCheckFailed"]


def _limit_refused(exc: ClientError, index: int) -> dict[str, Any] | None:
    """The counter's old item ({} when not returned) when the transaction's item ``index``, a
    limit counter, failed its condition; None when something else cancelled it."""
    if exc.response["Error"]["Code"] != "TransactionCanceledException":
        return None
    reasons = exc.response.get("CancellationReasons", [])
    if index < len(reasons) and reasons[index].get("Code") == "ConditionalCheckFailed":
        return reasons[index].get("Item") or {}
    return None


def _erasing() -> ErasureInProgressError:
    return ErasureInProgressError("This user's data is being erased; a new conversation can start in a minute.")


def _to_message(item: dict[str, Any]) -> StoredMessage:
    return StoredMessage(
        seq=int(item["seq"]["N"]),
        role=item["role"]["S"],  # type: ignore[arg-type]
        channel=item["channel"]["S"],
        at=_parse(item["at"]["S"]),
        ciphertext=bytes(item["ct"]["B"]),
    )


def _to_state(item: dict[str, Any], user_id: str) -> tuple[SessionState, bytes | None]:
    state = SessionState(
        session_id=item["sessionId"]["S"],
        owner=user_id,  # the key says whose it is
        message_count=int(item["messageCount"]["N"]),
        summarized_through=int(item.get("cursor", {"N": "0"})["N"]),
        facts_through=int(item.get("factsThrough", {"N": "0"})["N"]),
        forgotten_seqs=frozenset(int(n) for n in item.get("forgotten", {}).get("NS", [])),
        forget_gen=int(item.get("forgetGen", {"N": "0"})["N"]),
        created_at=_parse(item["createdAt"]["S"]),
        updated_at=_parse(item["updatedAt"]["S"]),
    )
    summary = item.get("summaryCt", {}).get("B")
    return state, (bytes(summary) if summary is not None else None)


class DynamoDBStore:
    """Store port on one DynamoDB table (low-level client: exact control of every request)."""

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
        try:
            getattr(self._ddb, operation)(TableName=self._table, **kwargs)
        except ClientError as exc:
            if _lost_race(exc):
                raise ConcurrentUpdateError(race) from exc
            raise _dependency_error(exc, what) from exc
        except BotoCoreError as exc:
            raise _dependency_error(exc, what) from exc

    def _erasure_check(self, user_id: str, now: datetime) -> dict[str, Any]:
        """A ConditionCheck that the user's erasure marker does not block writes at ``now``
        (the same rule as ports.erasure_blocks: no marker, or erased and ``until`` passed)."""
        return {
            "ConditionCheck": {
                "TableName": self._table,
                "Key": {"PK": {"S": _user_pk(user_id)}, "SK": {"S": ERASURE_SK}},
                "ConditionExpression": "attribute_not_exists(PK) OR (#st <> :erasing AND #until <= :now)",
                "ExpressionAttributeNames": {"#st": "state", "#until": "until"},
                "ExpressionAttributeValues": {":erasing": {"S": "erasing"}, ":now": {"S": _iso(now)}},
            }
        }

    def _write_unless_erasing(self, user_id: str, now: datetime, write: dict[str, Any] | list[dict[str, Any]],
                              what: str, race: str) -> None:
        """One conditional write (a TransactItems entry) together with the erasure check.
        ErasureInProgressError when the user is being erased; ConcurrentUpdateError (``race``)
        when the write's own condition fails or another write held the item at that moment."""
        try:
            writes = write if isinstance(write, list) else [write]
            self._ddb.transact_write_items(TransactItems=[self._erasure_check(user_id, now), *writes])
        except ClientError as exc:
            if _erasure_refused(exc):
                raise _erasing() from exc
            if _lost_race(exc):
                raise ConcurrentUpdateError(race) from exc
            raise _dependency_error(exc, what) from exc
        except BotoCoreError as exc:
            raise _dependency_error(exc, what) from exc

    # --- reads -------------------------------------------------------------------------
    def load_session(self, user_id: str, session_id: str) -> SessionSnapshot:
        """One descending Query returns STATE first, then the newest messages; a second,
        exactly bounded Query fetches the rest of a pending backlog when there is one."""
        pk = _session_pk(user_id, session_id)
        try:
            page = self._ddb.query(
                TableName=self._table,
                KeyConditionExpression="PK = :pk",
                ExpressionAttributeValues={":pk": {"S": pk}},
                ScanIndexForward=False,
                Limit=1 + self._window + _PAGE_SLACK,
            )
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "load session") from exc
        items = page["Items"]
        if not items or items[0]["SK"]["S"] != STATE_SK:
            return SessionSnapshot(state=None, messages=[])
        state, summary_ct = _to_state(items[0], user_id)
        cursor = state.summarized_through
        messages = [_to_message(i) for i in items[1:] if int(i["seq"]["N"]) > cursor]
        oldest = messages[-1].seq if messages else state.message_count + 1
        if page.get("LastEvaluatedKey") and oldest > cursor + 1:
            messages.extend(self._between(pk, cursor + 1, oldest - 1, consistent=False))
        messages.sort(key=lambda m: m.seq)
        return SessionSnapshot(state=state, messages=messages, summary_ciphertext=summary_ct)

    def messages_between(self, user_id: str, session_id: str, low: int, high: int) -> list[StoredMessage]:
        """Messages with low <= seq <= high, ascending (every page), read consistently.

        The fold and facts jobs call it right after the turn that committed ``high``: an
        eventually consistent Query can still lack those rows, and the job would then fold a gap
        (fold_gap, a failed job) or move the facts cursor past a message it never read (a fact
        never learnt). A strongly consistent read sees every committed row."""
        return self._between(_session_pk(user_id, session_id), low, high, consistent=True)

    def _between(self, pk: str, low: int, high: int, *, consistent: bool) -> list[StoredMessage]:
        out: list[StoredMessage] = []
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "PK = :pk AND SK BETWEEN :lo AND :hi",
            "ExpressionAttributeValues": {":pk": {"S": pk}, ":lo": {"S": _msg_sk(low)}, ":hi": {"S": _msg_sk(high)}},
            "ConsistentRead": consistent,
        }
        try:
            while True:
                page = self._ddb.query(**kwargs)
                out.extend(_to_message(i) for i in page["Items"])
                if "LastEvaluatedKey" not in page:
                    return out
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "load messages") from exc

    def get_state(self, user_id: str, session_id: str) -> tuple[SessionState | None, bytes | None]:
        """The STATE item, read consistently: every caller decides on it right after a write.
        The fold and facts jobs take their range from its count and cursors (a stale count skips
        the message just committed; a stale cursor loses every conditional write on it), and a
        turn that lost its commit reloads it to find the next free seqs."""
        try:
            item = self._ddb.get_item(
                TableName=self._table, Key={"PK": {"S": _session_pk(user_id, session_id)}, "SK": {"S": STATE_SK}},
                ConsistentRead=True,
            ).get("Item")
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "get session") from exc
        return _to_state(item, user_id) if item else (None, None)

    def list_sessions(self, user_id: str, limit: int) -> list[SessionSummary]:
        return self.page_sessions(user_id, limit)[0]

    def page_sessions(self, user_id: str, limit: int, after: str | None = None) -> tuple[list[SessionSummary], str | None]:
        """One page of the user's sessions, newest first, and the opaque cursor of the next page
        (None on the last). One Query of ``limit + 1`` items: the extra one only says more exist.
        A cursor that is not one this user was given: InvalidInputError (never another user's index)."""
        start = _session_cursor_key(after, user_id) if after is not None else None
        try:
            page = self._ddb.query(
                TableName=self._table,
                IndexName=OWNER_INDEX,
                KeyConditionExpression="ownerKey = :o",
                ExpressionAttributeValues={":o": {"S": _user_pk(user_id)}},
                ScanIndexForward=False,
                Limit=limit + 1,
                **({"ExclusiveStartKey": start} if start else {}),
            )
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "list sessions") from exc
        items = page["Items"]
        more = len(items) > limit or "LastEvaluatedKey" in page  # the second: a page cut at 1 MB
        items = items[:limit]
        sessions = [
            SessionSummary(
                session_id=i["sessionId"]["S"],
                message_count=int(i["messageCount"]["N"]),
                created_at=_parse(i["createdAt"]["S"]),
                updated_at=_parse(i["updatedAt"]["S"]),
            )
            for i in items
        ]
        return sessions, (_session_cursor(items[-1]) if more and items else None)

    def list_messages(self, user_id: str, session_id: str, after: int, limit: int) -> list[StoredMessage]:
        try:
            page = self._ddb.query(
                TableName=self._table,
                KeyConditionExpression="PK = :pk AND SK BETWEEN :lo AND :hi",
                ExpressionAttributeValues={
                    ":pk": {"S": _session_pk(user_id, session_id)},
                    ":lo": {"S": _msg_sk(after + 1)},
                    ":hi": {"S": _msg_sk(10**10 - 1)},
                },
                Limit=limit,
            )
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "list messages") from exc
        return [_to_message(i) for i in page["Items"]]

    # --- writes ------------------------------------------------------------------------
    def commit_turn(
        self,
        *,
        user_id: str,
        session_id: str,
        expected_count: int,
        messages: tuple[StoredMessage, StoredMessage],
        now: datetime,
        client_turn_id: str | None = None,
        response_ciphertext: bytes | None = None,
        turn_slot: LimitSlot | None = None,
    ) -> None:
        pk = _session_pk(user_id, session_id)
        when = _iso(now)
        puts = [
            {
                "Put": {
                    "TableName": self._table,
                    "Item": {
                        "PK": {"S": pk},
                        "SK": {"S": _msg_sk(m.seq)},
                        "seq": {"N": str(m.seq)},
                        "role": {"S": m.role},
                        "channel": {"S": m.channel},
                        "at": {"S": _iso(m.at)},
                        "ct": {"B": m.ciphertext},
                    },
                    "ConditionExpression": "attribute_not_exists(PK)",
                }
            }
            for m in messages
        ]
        if expected_count == 0:
            condition = "attribute_not_exists(PK)"
            values: dict[str, Any] = {}
        else:
            condition = "messageCount = :expected"
            values = {":expected": {"N": str(expected_count)}}
        state_update = {
            "Update": {
                "TableName": self._table,
                "Key": {"PK": {"S": pk}, "SK": {"S": STATE_SK}},
                "UpdateExpression": (
                    "SET messageCount = :count, updatedAt = :now, sessionId = :sid, "
                    "ownerKey = :ownerKey, createdAt = if_not_exists(createdAt, :now), "
                    "#cursor = if_not_exists(#cursor, :zero)"
                ),
                "ConditionExpression": condition,
                "ExpressionAttributeNames": {"#cursor": "cursor"},
                "ExpressionAttributeValues": {
                    **values,
                    ":count": {"N": str(expected_count + len(messages))},
                    ":now": {"S": when},
                    ":sid": {"S": session_id},
                    ":ownerKey": {"S": _user_pk(user_id)},
                    ":zero": {"N": "0"},
                },
            }
        }
        # The erasure check first: its index tells an erasure from a lost race when cancelled.
        items: list[dict[str, Any]] = [self._erasure_check(user_id, now), *puts, state_update]
        if expected_count == 0:  # the session's first turn: its marker, found by erasure (module docstring)
            items.append(self._marker_put(user_id, session_id, when))
        if client_turn_id is not None:
            items.append(self._complete_claim(user_id, session_id, client_turn_id, response_ciphertext or b"", now))
        if turn_slot is not None:  # last: its cancellation reason says the user's limit refused
            items.append({"Update": _count_update(self._table, _user_pk(user_id), turn_slot)})
        try:
            self._ddb.transact_write_items(TransactItems=items)
        except ClientError as exc:
            if _erasure_refused(exc):
                raise _erasing() from exc
            if turn_slot is not None and (refused := _limit_refused(exc, len(items) - 1)) is not None:
                raise _limited(turn_slot, refused, now, "turns for this user") from exc
            if _lost_race(exc):
                raise ConcurrentUpdateError("The session changed while this turn ran.") from exc
            raise _dependency_error(exc, "commit turn") from exc
        except BotoCoreError as exc:
            raise _dependency_error(exc, "commit turn") from exc

    def advance_summary(
        self, session_id: str, *, user_id: str, old_cursor: int, new_cursor: int, summary_ciphertext: bytes, now: datetime,
        forget_gen: int = 0,
    ) -> None:
        """Write the new summary and cursor only if the cursor is still ``old_cursor``, no message
        was forgotten since the fold read ``forget_gen``, and the user is not being erased.

        Raises ConcurrentUpdateError when another fold moved it first (the cursor never moves
        back and never skips: it only moves from the value this fold read) or a message was
        forgotten meanwhile (the fold read it: folding again leaves it out), ErasureInProgressError.
        """
        if new_cursor <= old_cursor:
            raise ValueError("the cursor only moves forward")
        gen_condition, gen_values = _gen_condition(forget_gen)
        self._write_unless_erasing(user_id, now, {
            "Update": {
                "TableName": self._table,
                "Key": {"PK": {"S": _session_pk(user_id, session_id)}, "SK": {"S": STATE_SK}},
                "UpdateExpression": "SET #cursor = :new, summaryCt = :ct, summarizedAt = :now",
                "ConditionExpression": f"#cursor = :old AND messageCount >= :new AND {gen_condition}",
                "ExpressionAttributeNames": {"#cursor": "cursor"},
                "ExpressionAttributeValues": {
                    ":new": {"N": str(new_cursor)},
                    ":old": {"N": str(old_cursor)},
                    ":ct": {"B": summary_ciphertext},
                    ":now": {"S": _iso(now)},
                    **gen_values,
                },
            }
        }, "advance summary", "The summary cursor moved while this fold ran.")

    def forget_messages(
        self, session_id: str, *, user_id: str, seqs: tuple[int, ...], cursor: int, forget_gen: int,
        summary_ciphertext: bytes | None, now: datetime, client_turn_ids: tuple[str, ...] = (),
    ) -> None:
        """Delete the messages ``seqs``, record them as forgotten and write the summary folded
        again without them (None: no summary left), all in one transaction, only if the cursor
        and the forget count are still those read (a fold that moved the cursor, or a forget
        that came first: ConcurrentUpdateError, fold again) and the user is not being erased.
        ``client_turn_ids``: the turn records holding those messages' reply (deleted too)."""
        pk = {"S": _session_pk(user_id, session_id)}
        gen_condition, gen_values = _gen_condition(forget_gen)
        summary = "SET summaryCt = :ct, summarizedAt = :now" if summary_ciphertext else "REMOVE summaryCt"
        values = {":seqs": {"NS": [str(s) for s in seqs]}, ":one": {"N": "1"}, ":cursor": {"N": str(cursor)}, **gen_values}
        if summary_ciphertext:
            values.update({":ct": {"B": summary_ciphertext}, ":now": {"S": _iso(now)}})
        update = {"Update": {
            "TableName": self._table, "Key": {"PK": pk, "SK": {"S": STATE_SK}},
            "UpdateExpression": f"ADD forgotten :seqs, forgetGen :one {summary}",
            "ConditionExpression": f"#cursor = :cursor AND {gen_condition}",
            "ExpressionAttributeNames": {"#cursor": "cursor"},
            "ExpressionAttributeValues": values,
        }}
        deletes = [{"Delete": {"TableName": self._table, "Key": {"PK": pk, "SK": {"S": _msg_sk(s)}}}} for s in seqs]
        deletes += [{"Delete": {"TableName": self._table, "Key": self._claim_key(user_id, session_id, c)}}
                    for c in client_turn_ids]
        self._write_unless_erasing(user_id, now, [update, *deletes], "forget messages",
                                   "The session's summary moved while the message was forgotten.")

    def _marker_put(self, user_id: str, session_id: str, when: str) -> dict[str, Any]:
        """The session's marker in its user's partition. Unconditional: the STATE condition of the
        same transaction already decides whether this turn creates the session."""
        return {"Put": {"TableName": self._table, "Item": {
            "PK": {"S": _user_pk(user_id)}, "SK": {"S": _marker_sk(session_id)},
            "sessionId": {"S": session_id}, "createdAt": {"S": when}}}}

    # --- idempotency -------------------------------------------------------------------
    @staticmethod
    def _claim_key(user_id: str, session_id: str, client_turn_id: str) -> dict[str, Any]:
        return {"PK": {"S": _user_pk(user_id)}, "SK": {"S": f"TURN#{session_id}#{client_turn_id}"}}

    def _complete_claim(
        self, user_id: str, session_id: str, client_turn_id: str, response_ct: bytes, now: datetime
    ) -> dict[str, Any]:
        return {
            "Put": {
                "TableName": self._table,
                "Item": {
                    **self._claim_key(user_id, session_id, client_turn_id),
                    "status": {"S": "completed"},
                    "leaseUntil": {"N": "0"},
                    "responseCt": {"B": response_ct},
                    "expiresAt": {"N": str(int(now.timestamp()) + IDEMPOTENCY_TTL_SECONDS)},
                },
            }
        }

    def claim_turn(
        self, user_id: str, session_id: str, client_turn_id: str, now: float, lease_seconds: int
    ) -> TurnClaim | None:
        key = self._claim_key(user_id, session_id, client_turn_id)
        try:
            self._ddb.put_item(
                TableName=self._table,
                Item={
                    **key,
                    "status": {"S": "in_progress"},
                    "leaseUntil": {"N": str(int(now) + lease_seconds)},
                    "expiresAt": {"N": str(int(now) + IDEMPOTENCY_TTL_SECONDS)},
                },
                # A crashed turn's lease runs out, then the key may be claimed again.
                ConditionExpression="attribute_not_exists(PK) OR (#s = :prog AND leaseUntil < :now)",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues={":prog": {"S": "in_progress"}, ":now": {"N": str(int(now))}},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
            return None
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise _dependency_error(exc, "claim turn") from exc
            old = exc.response.get("Item") or self._ddb.get_item(TableName=self._table, Key=key, ConsistentRead=True).get("Item")
        except BotoCoreError as exc:
            raise _dependency_error(exc, "claim turn") from exc
        if not old:  # released between our write and our read: claim again
            return self.claim_turn(user_id, session_id, client_turn_id, now, lease_seconds)
        ct = old.get("responseCt", {}).get("B")
        return TurnClaim(
            status=old["status"]["S"],
            lease_until=float(old["leaseUntil"]["N"]),
            response_ciphertext=bytes(ct) if ct is not None else None,
        )

    def turn_responses(self, user_id: str, session_id: str) -> list[tuple[str, bytes]]:
        """(clientTurnId, response ciphertext) of the session's completed turn records (all pages, consistent)."""
        kwargs: dict[str, Any] = {
            "TableName": self._table, "ConsistentRead": True, "ProjectionExpression": "SK, responseCt",
            "KeyConditionExpression": "PK = :pk AND begins_with(SK, :p)",
            "ExpressionAttributeValues": {":pk": {"S": _user_pk(user_id)}, ":p": {"S": f"TURN#{session_id}#"}},
        }
        out: list[tuple[str, bytes]] = []
        try:
            while True:
                page = self._ddb.query(**kwargs)
                out.extend((i["SK"]["S"].removeprefix(f"TURN#{session_id}#"), bytes(i["responseCt"]["B"]))
                           for i in page["Items"] if i.get("responseCt", {}).get("B"))
                if "LastEvaluatedKey" not in page:
                    return out
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "turn records") from exc

    def release_turn(self, user_id: str, session_id: str, client_turn_id: str) -> None:
        try:
            self._ddb.delete_item(
                TableName=self._table,
                Key=self._claim_key(user_id, session_id, client_turn_id),
                ConditionExpression="#s = :prog",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues={":prog": {"S": "in_progress"}},
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise _dependency_error(exc, "release turn") from exc

    # --- run leases --------------------------------------------------------------------
    @staticmethod
    def _lease_key(name: str) -> dict[str, Any]:
        return {"PK": {"S": f"LEASE#{name}"}, "SK": {"S": LEASE_SK}}

    def acquire_lease(self, name: str, *, owner: str, now: datetime, until: datetime) -> bool:
        """One conditional put: the lease is taken when nobody holds it or its holder's time is over."""
        try:
            self._conditional(
                "put_item", "acquire lease", "lease held",
                Item={
                    **self._lease_key(name), "owner": {"S": owner},
                    "leaseUntil": {"N": str(int(until.timestamp()) + 1)},
                    "expiresAt": {"N": str(int(until.timestamp()) + IDEMPOTENCY_TTL_SECONDS)},
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

    # --- the user's durable layers -------------------------------------------------------
    def _facts_sks(self) -> list[str]:
        return [_facts_sk(i) for i in range(self._facts_shards)]

    def _batch_get(self, user_id: str, sks: list[str], what: str, consistent: bool = False) -> dict[str, dict[str, Any]]:
        """The user's items with these sort keys, by sort key: one BatchGetItem. Keys DynamoDB
        leaves unprocessed are asked again after a jittered, growing backoff, BATCH_ATTEMPTS calls
        in all (at most ~0.75 s of sleeps); then DependencyUnavailableError (storage_throttled)."""
        pk = {"S": _user_pk(user_id)}
        request: dict[str, Any] = {self._table: {"Keys": [{"PK": pk, "SK": {"S": sk}} for sk in sks],
                                                 **({"ConsistentRead": True} if consistent else {})}}
        items: list[dict[str, Any]] = []
        try:
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
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, what) from exc
        return {i["SK"]["S"]: i for i in items}

    @staticmethod
    def _shards(by_sk: dict[str, dict[str, Any]]) -> dict[int, bytes]:
        return {_facts_shard(sk): bytes(i["ct"]["B"]) for sk, i in by_sk.items()
                if sk.startswith(FACTS_SK) and "ct" in i}

    def load_user_memory(self, user_id: str, turn_slot: LimitSlot | None = None) -> UserMemory:
        """Every facts shard, PROFILE, the erasure marker (and the turn counter of ``turn_slot``) in one BatchGetItem."""
        counter = [_limit_sk(turn_slot)] if turn_slot is not None else []
        by_sk = self._batch_get(user_id, [*self._facts_sks(), PROFILE_SK, ERASURE_SK, *counter], "load user memory")
        facts, profile, erasure = (by_sk.get(k, {}) for k in (FACTS_SK, PROFILE_SK, ERASURE_SK))
        refreshed = profile.get("refreshedAt", {}).get("S")
        return UserMemory(
            facts_version=int(facts.get("version", {"N": "0"})["N"]),
            facts_shards=self._shards(by_sk),
            profile_ciphertext=bytes(profile["profileCt"]["B"]) if "profileCt" in profile else None,
            profile_refreshed_at=_parse(refreshed) if refreshed else None,
            erasure_state=erasure.get("state", {}).get("S"),
            erasure_until=_parse(erasure["until"]["S"]) if "until" in erasure else None,
            turns_counted=_counted(by_sk.get(counter[0]), turn_slot) if turn_slot is not None else Counted(),
        )

    # --- limits per caller -------------------------------------------------------------------
    def count_new_visitor(self, source_key: str, slot: LimitSlot, now: datetime) -> None:
        """Count one new visitor from the source address whose keyed hash is ``source_key``.
        RateLimitedError (nothing counted) when its window or slice is full."""
        update = _count_update(self._table, f"SOURCE#{source_key}", slot)
        try:
            self._ddb.update_item(**update)
        except ClientError as exc:
            if exc.response["Error"]["Code"] == "ConditionalCheckFailedException":
                raise _limited(slot, exc.response.get("Item") or {}, now, "new visitors from this address") from exc
            raise _dependency_error(exc, "count new visitor") from exc
        except BotoCoreError as exc:
            raise _dependency_error(exc, "count new visitor") from exc

    def advance_facts_cursor(self, user_id: str, session_id: str, *, old: int, new: int) -> None:
        """Move the facts cursor from ``old`` to ``new``; ConcurrentUpdateError if it moved."""
        self._conditional(
            "update_item", "advance facts cursor", "The facts cursor moved.",
            Key={"PK": {"S": _session_pk(user_id, session_id)}, "SK": {"S": STATE_SK}},
            UpdateExpression="SET factsThrough = :new",
            # attribute_exists: a session deleted meanwhile must not come back as a bare cursor.
            ConditionExpression=(
                "attribute_exists(PK) AND ((attribute_not_exists(factsThrough) AND :old = :zero) OR factsThrough = :old)"
            ),
            ExpressionAttributeValues={":new": {"N": str(new)}, ":old": {"N": str(old)}, ":zero": {"N": "0"}},
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
        pk = {"S": _user_pk(user_id)}
        if expected_version == 0:
            condition: dict[str, Any] = {"ConditionExpression": "attribute_not_exists(PK)"}
        else:
            condition = {"ConditionExpression": "version = :expected",
                         "ExpressionAttributeValues": {":expected": {"N": str(expected_version)}}}
        values = {":v": {"N": str(expected_version + 1)}, ":count": {"N": str(count)}, ":now": {"S": _iso(now)},
                  **condition.get("ExpressionAttributeValues", {})}
        set_ct = ", ct = :ct" if 0 in shards else ""
        if 0 in shards:
            values[":ct"] = {"B": shards[0]}
        head = {
            "TableName": self._table, "Key": {"PK": pk, "SK": {"S": FACTS_SK}},
            "UpdateExpression": f"SET version = :v, #count = :count, updatedAt = :now{set_ct}",
            "ExpressionAttributeNames": {"#count": "count"},
            "ConditionExpression": condition["ConditionExpression"], "ExpressionAttributeValues": values,
        }
        others = [{"Put": {"TableName": self._table, "Item": {
            "PK": pk, "SK": {"S": _facts_sk(i)}, "ct": {"B": ct}, "updatedAt": {"S": _iso(now)}}}}
            for i, ct in sorted(shards.items()) if i != 0]
        self._write_unless_erasing(user_id, now, [{"Update": head}, *others], "put facts",
                                   "The user's facts changed while this merge ran.")

    def _due_shard(self, user_id: str) -> str:
        return f"DUE#{zlib.crc32(user_id.encode('utf-8')) % self._due_shards}"

    def mark_active(self, user_id: str, now: datetime) -> None:
        try:
            self._ddb.update_item(
                TableName=self._table,
                Key={"PK": {"S": _user_pk(user_id)}, "SK": {"S": PROFILE_SK}},
                UpdateExpression="SET activeAt = :now, dueShard = :shard",
                ExpressionAttributeValues={":now": {"S": _iso(now)}, ":shard": {"S": self._due_shard(user_id)}},
            )
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "mark active") from exc

    def due_user_pages(self) -> Iterator[list[DueUser]]:
        """Every shard of the sparse ``ProfileDue`` index, every page of ``due_page_size`` users
        (a hundred SendMessageBatch requests each), oldest activity first within a shard."""
        for shard in range(self._due_shards):
            kwargs: dict[str, Any] = {
                "TableName": self._table, "IndexName": DUE_INDEX, "KeyConditionExpression": "dueShard = :s",
                "ExpressionAttributeValues": {":s": {"S": f"DUE#{shard}"}}, "Limit": self._due_page_size,
            }
            while True:
                try:
                    page = self._ddb.query(**kwargs)
                except (ClientError, BotoCoreError) as exc:
                    raise _dependency_error(exc, "due users") from exc
                if page["Items"]:
                    yield [DueUser(i["PK"]["S"].removeprefix("USER#"), _parse(i["activeAt"]["S"])) for i in page["Items"]]
                if "LastEvaluatedKey" not in page:
                    break
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def profile_state(self, user_id: str) -> ProfileState:
        item = self._batch_get(user_id, [PROFILE_SK], "profile state", consistent=True).get(PROFILE_SK, {})
        active = item.get("activeAt", {}).get("S")
        return ProfileState(
            ciphertext=bytes(item["profileCt"]["B"]) if "profileCt" in item else None,
            due="dueShard" in item, active_at=_parse(active) if active else None,
        )

    def put_profile(self, user_id: str, *, ciphertext: bytes, now: datetime, active_at: datetime) -> None:
        """Raises ErasureInProgressError when the user is being erased (nothing written)."""
        values = {":ct": {"B": ciphertext}, ":now": {"S": _iso(now)}}

        def update(expression: str, condition: str, extra: dict[str, Any]) -> dict[str, Any]:
            return {"Update": {
                "TableName": self._table, "Key": {"PK": {"S": _user_pk(user_id)}, "SK": {"S": PROFILE_SK}},
                "UpdateExpression": expression, "ConditionExpression": condition,
                "ExpressionAttributeValues": {**values, **extra},
            }}

        seen = {":seen": {"S": _iso(active_at)}}
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
                "TableName": self._table, "Key": {"PK": {"S": _user_pk(user_id)}, "SK": {"S": PROFILE_SK}},
                "UpdateExpression": "SET activeAt = :now, dueShard = :shard, forgotAt = :now REMOVE profileCt, refreshedAt",
                "ExpressionAttributeValues": {":now": {"S": _iso(now)}, ":shard": {"S": self._due_shard(user_id)}},
            }}, "reset profile", "The profile changed while it was reset.")
        except ConcurrentUpdateError:
            # The only race: another writer held the item at that moment (no condition here).
            raise DependencyUnavailableError("The profile was busy; retry.", code="profile_busy") from None

    def recent_messages(self, user_id: str, session_id: str, limit: int) -> list[StoredMessage]:
        try:
            page = self._ddb.query(
                TableName=self._table,
                KeyConditionExpression="PK = :pk AND begins_with(SK, :m)",
                ExpressionAttributeValues={":pk": {"S": _session_pk(user_id, session_id)}, ":m": {"S": "MSG#"}},
                ScanIndexForward=False,
                Limit=limit,
            )
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "recent messages") from exc
        return [_to_message(i) for i in page["Items"]]

    # --- forgetting ------------------------------------------------------------------------
    def all_session_ids(self, user_id: str) -> list[str]:
        """Every session of the user, from their markers by a strongly consistent Query (all pages):
        never the ByOwner index alone, which may not show yet a session created a moment ago."""
        try:
            return [k["SK"]["S"].removeprefix(SESSION_MARK) for k in self._keys(_user_pk(user_id), SESSION_MARK)]
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "list sessions") from exc

    def _keys(self, pk: str, sk_prefix: str | None = None) -> list[dict[str, Any]]:
        """Every (PK, SK) under ``pk`` (optionally only SKs with ``sk_prefix``), all pages, read
        consistently: what a delete or an erasure must not miss was committed a moment ago."""
        kwargs: dict[str, Any] = {
            "TableName": self._table, "ProjectionExpression": "PK, SK", "ConsistentRead": True,
            "KeyConditionExpression": "PK = :pk" + (" AND begins_with(SK, :p)" if sk_prefix else ""),
            "ExpressionAttributeValues": {":pk": {"S": pk}, **({":p": {"S": sk_prefix}} if sk_prefix else {})},
        }
        out: list[dict[str, Any]] = []
        while True:
            page = self._ddb.query(**kwargs)
            out.extend({"PK": i["PK"], "SK": i["SK"]} for i in page["Items"])
            if "LastEvaluatedKey" not in page:
                return out
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

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

    def delete_session(self, session_id: str, user_id: str, deadline: float) -> bool:
        """Messages and turn records first; the STATE item and the session's marker last, together
        (one transaction) and only if no turn slipped in meanwhile: an interrupted delete leaves the
        session listed, so running it again finishes, and a session never outlives its marker."""
        pk = _session_pk(user_id, session_id)
        marker = {"PK": {"S": _user_pk(user_id)}, "SK": {"S": _marker_sk(session_id)}}
        try:
            for _ in range(5):
                state, _ = self.get_state(user_id, session_id)
                if state is None:  # leftovers of an earlier attempt
                    return self._delete_keys([*self._keys(pk), marker], deadline)
                messages = [k for k in self._keys(pk) if k["SK"]["S"] != STATE_SK]
                claims = self._keys(_user_pk(user_id), f"TURN#{session_id}#")
                if not self._delete_keys(messages + claims, deadline):
                    return False
                try:
                    self._ddb.transact_write_items(TransactItems=[
                        {"Delete": {
                            "TableName": self._table, "Key": {"PK": {"S": pk}, "SK": {"S": STATE_SK}},
                            "ConditionExpression": "messageCount = :n",
                            "ExpressionAttributeValues": {":n": {"N": str(state.message_count)}},
                        }},
                        {"Delete": {"TableName": self._table, "Key": marker}},
                    ])
                    return True
                except ClientError as exc:
                    if not _lost_race(exc):
                        raise
            raise DependencyUnavailableError("The session kept changing while it was deleted; retry.", code="session_busy")
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "delete session") from exc

    def delete_user_items(self, user_id: str, deadline: float) -> bool:
        try:
            keys = [k for k in self._keys(_user_pk(user_id)) if k["SK"]["S"] != ERASURE_SK]
            return self._delete_keys(keys, deadline)
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "delete user items") from exc

    def get_erasure(self, user_id: str) -> tuple[str | None, datetime | None]:
        try:
            item = self._ddb.get_item(
                TableName=self._table, Key={"PK": {"S": _user_pk(user_id)}, "SK": {"S": ERASURE_SK}},
                ConsistentRead=True,  # a marker written a moment ago must be seen (it may refuse a new key)
            ).get("Item")
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "get erasure") from exc
        if not item:
            return None, None
        return item["state"]["S"], _parse(item["until"]["S"])

    def mark_erasure(self, user_id: str, *, state: str, until: datetime, now: datetime) -> None:
        try:
            self._ddb.put_item(
                TableName=self._table,
                Item={
                    "PK": {"S": _user_pk(user_id)}, "SK": {"S": ERASURE_SK}, "state": {"S": state},
                    "until": {"S": _iso(until)}, "erasedAt": {"S": _iso(now)},
                    "expiresAt": {"N": str(int(until.timestamp()) + ERASURE_TTL_SECONDS)},
                },
            )
        except (ClientError, BotoCoreError) as exc:
            raise _dependency_error(exc, "mark erasure") from exc
