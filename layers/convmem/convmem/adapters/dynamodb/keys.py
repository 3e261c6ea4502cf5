"""The table's key schema and item codecs: the only module that knows how items are keyed.


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
from datetime import datetime
from typing import Any, cast

from convmem.domain.models import Role, SessionState, SessionSummary
from convmem.domain.models import iso_utc as iso  # times are stored as the API answers them
from convmem.domain.rate_limits import Counted, LimitSlot
from convmem.errors import InvalidInputError
from convmem.ports import StoredMessage

STATE_SK = "STATE"
FACTS_SK = "FACTS"
PROFILE_SK = "PROFILE"
ERASURE_SK = "ERASURE"
LEASE_SK = "LEASE"
SESSION_MARK = "SESSION#"
MSG_MARK = "MSG#"
OWNER_INDEX = "ByOwner"
DUE_INDEX = "ProfileDue"
MAX_SEQ = 10**10 - 1


def session_pk(user_id: str, session_id: str) -> str:
    """A session's partition: both ids, so the same sessionId under two users is two sessions.
    Neither id can hold ``#`` (validated at the edge; refused here too, as a key could otherwise
    be read two ways)."""
    if "#" in user_id or "#" in session_id:
        raise InvalidInputError("Ids may not contain '#'.")
    return f"{SESSION_MARK}{user_id}#{session_id}"


def user_pk(user_id: str) -> str:
    return f"USER#{user_id}"


def marker_sk(session_id: str) -> str:
    return f"{SESSION_MARK}{session_id}"


def msg_sk(seq: int) -> str:
    return f"{MSG_MARK}{seq:010d}"


def facts_sk(shard: int) -> str:
    return FACTS_SK if shard == 0 else f"{FACTS_SK}#{shard}"


def facts_shard(sk: str) -> int:
    return int(sk.split("#", 1)[1]) if "#" in sk else 0


def claim_sk(session_id: str, client_turn_id: str) -> str:
    return f"TURN#{session_id}#{client_turn_id}"


def limit_sk(slot: LimitSlot) -> str:
    return f"LIMIT#{slot.name}#{slot.window_start}"


def key(pk: str, sk: str) -> dict[str, Any]:
    return {"PK": {"S": pk}, "SK": {"S": sk}}


def parse_time(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


# --- session-list cursors: the key of a ByOwner item (table key + index key) -------------
_OWNER_INDEX_KEY = ("PK", "SK", "ownerKey", "updatedAt")


def session_cursor(item: dict[str, Any]) -> str:
    fields = {k: item[k]["S"] for k in _OWNER_INDEX_KEY}
    return base64.urlsafe_b64encode(json.dumps(fields, separators=(",", ":")).encode()).decode().rstrip("=")


def session_cursor_key(cursor: str, user_id: str) -> dict[str, Any]:
    """The ExclusiveStartKey of a cursor this user was given; InvalidInputError for any other."""
    try:
        fields = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, TypeError):
        fields = None
    if (not isinstance(fields, dict) or set(fields) != set(_OWNER_INDEX_KEY)
            or not all(isinstance(v, str) for v in fields.values()) or fields["ownerKey"] != user_pk(user_id)
            or not fields["PK"].startswith(f"{SESSION_MARK}{user_id}#")):
        raise InvalidInputError("after is not a cursor this list returned.", code="invalid_page")
    return {k: {"S": v} for k, v in fields.items()}


# --- item codecs ---------------------------------------------------------------------------
def message_item(pk: str, m: StoredMessage) -> dict[str, Any]:
    return {**key(pk, msg_sk(m.seq)), "seq": {"N": str(m.seq)}, "role": {"S": m.role}, "channel": {"S": m.channel},
            "at": {"S": iso(m.at)}, "ct": {"B": m.ciphertext}}


def to_message(item: dict[str, Any]) -> StoredMessage:
    return StoredMessage(
        seq=int(item["seq"]["N"]),
        role=cast(Role, item["role"]["S"]),
        channel=item["channel"]["S"],
        at=parse_time(item["at"]["S"]),
        ciphertext=bytes(item["ct"]["B"]),
    )


def to_state(item: dict[str, Any], user_id: str) -> tuple[SessionState, bytes | None]:
    state = SessionState(
        session_id=item["sessionId"]["S"],
        owner=user_id,  # the key says whose it is
        message_count=int(item["messageCount"]["N"]),
        summarized_through=int(item.get("cursor", {"N": "0"})["N"]),
        facts_through=int(item.get("factsThrough", {"N": "0"})["N"]),
        forgotten_seqs=frozenset(int(n) for n in item.get("forgotten", {}).get("NS", [])),
        forget_gen=int(item.get("forgetGen", {"N": "0"})["N"]),
        created_at=parse_time(item["createdAt"]["S"]),
        updated_at=parse_time(item["updatedAt"]["S"]),
        # A session last written before lastAt existed: its last message was said when it was updated.
        last_at=parse_time(item.get("lastAt", item["updatedAt"])["S"]),
    )
    summary = item.get("summaryCt", {}).get("B")
    return state, (bytes(summary) if summary is not None else None)


def to_summary(item: dict[str, Any]) -> SessionSummary:
    return SessionSummary(
        session_id=item["sessionId"]["S"],
        message_count=int(item["messageCount"]["N"]),
        created_at=parse_time(item["createdAt"]["S"]),
        updated_at=parse_time(item["updatedAt"]["S"]),
    )


def counted(item: dict[str, Any] | None, slot: LimitSlot) -> Counted:
    """A counter item's window and slice counts (zero for no item)."""
    item = item or {}
    return Counted(total=int(item.get("n", {"N": "0"})["N"]), in_slice=int(item.get(f"s{slot.slice}", {"N": "0"})["N"]))


def binary(item: dict[str, Any], name: str) -> bytes | None:
    value = item.get(name, {}).get("B")
    return bytes(value) if value is not None else None


def time_attr(item: dict[str, Any], name: str) -> datetime | None:
    value = item.get(name, {}).get("S")
    return parse_time(value) if value else None
