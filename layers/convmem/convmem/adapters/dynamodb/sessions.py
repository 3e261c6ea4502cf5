"""Conversations: a session's STATE and messages in its own partition, its marker in its user's,
the user's list through the ``ByOwner`` index (the data model is in ``keys``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from convmem.adapters.dynamodb.claims import claim_key, completed_claim
from convmem.adapters.dynamodb.errors import erasure_refused, lost_race, refused_item, translated
from convmem.adapters.dynamodb.keys import (
    MAX_SEQ,
    MSG_MARK,
    OWNER_INDEX,
    SESSION_MARK,
    STATE_SK,
    claim_sk,
    iso,
    key,
    marker_sk,
    message_item,
    msg_sk,
    session_cursor,
    session_cursor_key,
    session_pk,
    to_message,
    to_state,
    to_summary,
    user_pk,
)
from convmem.adapters.dynamodb.limits import count_update, limited
from convmem.adapters.dynamodb.table import Table
from convmem.domain.models import SessionState, SessionSummary
from convmem.domain.rate_limits import LimitSlot
from convmem.errors import DependencyUnavailableError
from convmem.ports import SessionSnapshot, StoredMessage

# Messages read beyond the window in the first page; a pending backlog larger than this
# costs one more, exactly bounded, Query.
_PAGE_SLACK = 8


def _gen_condition(forget_gen: int) -> tuple[str, dict[str, Any]]:
    """The condition that no message of the session was forgotten since ``forget_gen`` was read."""
    if forget_gen == 0:
        return "attribute_not_exists(forgetGen)", {}
    return "forgetGen = :gen", {":gen": {"N": str(forget_gen)}}


class SessionsTable(Table):
    # --- reads -------------------------------------------------------------------------
    def load_session(self, user_id: str, session_id: str) -> SessionSnapshot:
        """One descending Query returns STATE first, then the newest messages; a second,
        exactly bounded Query fetches the rest of a pending backlog when there is one."""
        pk = session_pk(user_id, session_id)
        with translated("load session"):
            page = self._ddb.query(
                TableName=self._table,
                KeyConditionExpression="PK = :pk",
                ExpressionAttributeValues={":pk": {"S": pk}},
                ScanIndexForward=False,
                Limit=1 + self._window + _PAGE_SLACK,
            )
        items = page["Items"]
        if not items or items[0]["SK"]["S"] != STATE_SK:
            return SessionSnapshot(state=None, messages=[])
        state, summary_ct = to_state(items[0], user_id)
        cursor = state.summarized_through
        messages = [to_message(i) for i in items[1:] if int(i["seq"]["N"]) > cursor]
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
        return self._between(session_pk(user_id, session_id), low, high, consistent=True)

    def _between(self, pk: str, low: int, high: int, *, consistent: bool) -> list[StoredMessage]:
        with translated("load messages"):
            items = self._query_all(
                KeyConditionExpression="PK = :pk AND SK BETWEEN :lo AND :hi",
                ExpressionAttributeValues={":pk": {"S": pk}, ":lo": {"S": msg_sk(low)}, ":hi": {"S": msg_sk(high)}},
                ConsistentRead=consistent,
            )
        return [to_message(i) for i in items]

    def get_state(self, user_id: str, session_id: str) -> tuple[SessionState | None, bytes | None]:
        """The STATE item, read consistently: every caller decides on it right after a write.
        The fold and facts jobs take their range from its count and cursors (a stale count skips
        the message just committed; a stale cursor loses every conditional write on it), and a
        turn that lost its commit reloads it to find the next free seqs."""
        with translated("get session"):
            item = self._ddb.get_item(
                TableName=self._table, Key=key(session_pk(user_id, session_id), STATE_SK), ConsistentRead=True,
            ).get("Item")
        return to_state(item, user_id) if item else (None, None)

    def list_sessions(self, user_id: str, limit: int) -> list[SessionSummary]:
        return self.page_sessions(user_id, limit)[0]

    def page_sessions(self, user_id: str, limit: int, after: str | None = None) -> tuple[list[SessionSummary], str | None]:
        """One page of the user's sessions, newest first, and the opaque cursor of the next page
        (None on the last). One Query of ``limit + 1`` items: the extra one only says more exist.
        A cursor that is not one this user was given: InvalidInputError (never another user's index)."""
        start = session_cursor_key(after, user_id) if after is not None else None
        with translated("list sessions"):
            page = self._ddb.query(
                TableName=self._table,
                IndexName=OWNER_INDEX,
                KeyConditionExpression="ownerKey = :o",
                ExpressionAttributeValues={":o": {"S": user_pk(user_id)}},
                ScanIndexForward=False,
                Limit=limit + 1,
                **({"ExclusiveStartKey": start} if start else {}),
            )
        items = page["Items"]
        more = len(items) > limit or "LastEvaluatedKey" in page  # the second: a page cut at 1 MB
        items = items[:limit]
        return [to_summary(i) for i in items], (session_cursor(items[-1]) if more and items else None)

    def list_messages(self, user_id: str, session_id: str, after: int, limit: int) -> list[StoredMessage]:
        with translated("list messages"):
            page = self._ddb.query(
                TableName=self._table,
                KeyConditionExpression="PK = :pk AND SK BETWEEN :lo AND :hi",
                ExpressionAttributeValues={
                    ":pk": {"S": session_pk(user_id, session_id)},
                    ":lo": {"S": msg_sk(after + 1)},
                    ":hi": {"S": msg_sk(MAX_SEQ)},
                },
                Limit=limit,
            )
        return [to_message(i) for i in page["Items"]]

    def recent_messages(self, user_id: str, session_id: str, limit: int) -> list[StoredMessage]:
        with translated("recent messages"):
            page = self._ddb.query(
                TableName=self._table,
                KeyConditionExpression="PK = :pk AND begins_with(SK, :m)",
                ExpressionAttributeValues={":pk": {"S": session_pk(user_id, session_id)}, ":m": {"S": MSG_MARK}},
                ScanIndexForward=False,
                Limit=limit,
            )
        return [to_message(i) for i in page["Items"]]

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
        in_order: bool = False,
    ) -> None:
        pk = session_pk(user_id, session_id)
        when = iso(now)
        puts = [{"Put": {"TableName": self._table, "Item": message_item(pk, m),
                         "ConditionExpression": "attribute_not_exists(PK)"}} for m in messages]
        if expected_count == 0:
            condition = "attribute_not_exists(PK)"
            values: dict[str, Any] = {}
        else:
            condition = "messageCount = :expected"
            values = {":expected": {"N": str(expected_count)}}
            if in_order:  # an imported time: not before the session's last message (as to_state reads it)
                condition += " AND (lastAt <= :lastAt OR (attribute_not_exists(lastAt) AND updatedAt <= :lastAt))"
        state_update = {
            "Update": {
                "TableName": self._table,
                "Key": key(pk, STATE_SK),
                "UpdateExpression": (
                    "SET messageCount = :count, updatedAt = :now, lastAt = :lastAt, sessionId = :sid, "
                    "ownerKey = :ownerKey, createdAt = if_not_exists(createdAt, :now), "
                    "#cursor = if_not_exists(#cursor, :zero)"
                ),
                "ConditionExpression": condition,
                "ExpressionAttributeNames": {"#cursor": "cursor"},
                "ExpressionAttributeValues": {
                    **values,
                    ":count": {"N": str(expected_count + len(messages))},
                    ":now": {"S": when},
                    ":lastAt": {"S": iso(messages[-1].at)},
                    ":sid": {"S": session_id},
                    ":ownerKey": {"S": user_pk(user_id)},
                    ":zero": {"N": "0"},
                },
            }
        }
        # The erasure check first: its index tells an erasure from a lost race when cancelled.
        items: list[dict[str, Any]] = [self._erasure_check(user_id, now), *puts, state_update]
        if expected_count == 0:  # the session's first turn: its marker, found by erasure (keys' docstring)
            items.append(self._marker_put(user_id, session_id, when))
        if client_turn_id is not None:
            items.append(completed_claim(self._table, user_id, session_id, client_turn_id, response_ciphertext or b"", now))
        if turn_slot is not None:  # last: its cancellation reason says the user's limit refused
            items.append({"Update": count_update(self._table, user_pk(user_id), turn_slot)})
        with translated("commit turn", "The session changed while this turn ran.", erasure_checked=True):
            try:
                self._ddb.transact_write_items(TransactItems=items)
            except ClientError as exc:
                refused = None if erasure_refused(exc) or turn_slot is None else refused_item(exc, len(items) - 1)
                if turn_slot is not None and refused is not None:
                    raise limited(turn_slot, refused, now, "turns for this user") from exc
                raise

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
                "Key": key(session_pk(user_id, session_id), STATE_SK),
                "UpdateExpression": "SET #cursor = :new, summaryCt = :ct, summarizedAt = :now",
                "ConditionExpression": f"#cursor = :old AND messageCount >= :new AND {gen_condition}",
                "ExpressionAttributeNames": {"#cursor": "cursor"},
                "ExpressionAttributeValues": {
                    ":new": {"N": str(new_cursor)},
                    ":old": {"N": str(old_cursor)},
                    ":ct": {"B": summary_ciphertext},
                    ":now": {"S": iso(now)},
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
        pk = session_pk(user_id, session_id)
        gen_condition, gen_values = _gen_condition(forget_gen)
        summary = "SET summaryCt = :ct, summarizedAt = :now" if summary_ciphertext else "REMOVE summaryCt"
        values: dict[str, Any] = {":seqs": {"NS": [str(s) for s in seqs]}, ":one": {"N": "1"},
                                  ":cursor": {"N": str(cursor)}, **gen_values}
        if summary_ciphertext:
            values.update({":ct": {"B": summary_ciphertext}, ":now": {"S": iso(now)}})
        update = {"Update": {
            "TableName": self._table, "Key": key(pk, STATE_SK),
            "UpdateExpression": f"ADD forgotten :seqs, forgetGen :one {summary}",
            "ConditionExpression": f"#cursor = :cursor AND {gen_condition}",
            "ExpressionAttributeNames": {"#cursor": "cursor"},
            "ExpressionAttributeValues": values,
        }}
        deletes = [{"Delete": {"TableName": self._table, "Key": key(pk, msg_sk(s))}} for s in seqs]
        deletes += [{"Delete": {"TableName": self._table, "Key": claim_key(user_id, session_id, c)}}
                    for c in client_turn_ids]
        self._write_unless_erasing(user_id, now, [update, *deletes], "forget messages",
                                   "The session's summary moved while the message was forgotten.")

    def advance_facts_cursor(self, user_id: str, session_id: str, *, old: int, new: int) -> None:
        """Move the facts cursor from ``old`` to ``new``; ConcurrentUpdateError if it moved."""
        self._conditional(
            "update_item", "advance facts cursor", "The facts cursor moved.",
            Key=key(session_pk(user_id, session_id), STATE_SK),
            UpdateExpression="SET factsThrough = :new",
            # attribute_exists: a session deleted meanwhile must not come back as a bare cursor.
            ConditionExpression=(
                "attribute_exists(PK) AND ((attribute_not_exists(factsThrough) AND :old = :zero) OR factsThrough = :old)"
            ),
            ExpressionAttributeValues={":new": {"N": str(new)}, ":old": {"N": str(old)}, ":zero": {"N": "0"}},
        )

    def _marker_put(self, user_id: str, session_id: str, when: str) -> dict[str, Any]:
        """The session's marker in its user's partition. Unconditional: the STATE condition of the
        same transaction already decides whether this turn creates the session."""
        return {"Put": {"TableName": self._table, "Item": {
            **key(user_pk(user_id), marker_sk(session_id)), "sessionId": {"S": session_id}, "createdAt": {"S": when}}}}

    # --- forgetting ----------------------------------------------------------------------
    def all_session_ids(self, user_id: str) -> list[str]:
        """Every session of the user, from their markers by a strongly consistent Query (all pages):
        never the ByOwner index alone, which may not show yet a session created a moment ago."""
        with translated("list sessions"):
            return [k["SK"]["S"].removeprefix(SESSION_MARK) for k in self._keys(user_pk(user_id), SESSION_MARK)]

    def delete_session(self, session_id: str, user_id: str, deadline: float) -> bool:
        """Messages and turn records first; the STATE item and the session's marker last, together
        (one transaction) and only if no turn slipped in meanwhile: an interrupted delete leaves the
        session listed, so running it again finishes, and a session never outlives its marker."""
        pk = session_pk(user_id, session_id)
        marker = key(user_pk(user_id), marker_sk(session_id))
        with translated("delete session"):
            for _ in range(5):
                state, _ = self.get_state(user_id, session_id)
                if state is None:  # leftovers of an earlier attempt
                    return self._delete_keys([*self._keys(pk), marker], deadline)
                messages = [k for k in self._keys(pk) if k["SK"]["S"] != STATE_SK]
                claims = self._keys(user_pk(user_id), claim_sk(session_id, ""))
                if not self._delete_keys(messages + claims, deadline):
                    return False
                try:
                    self._ddb.transact_write_items(TransactItems=[
                        {"Delete": {
                            "TableName": self._table, "Key": key(pk, STATE_SK),
                            "ConditionExpression": "messageCount = :n",
                            "ExpressionAttributeValues": {":n": {"N": str(state.message_count)}},
                        }},
                        {"Delete": {"TableName": self._table, "Key": marker}},
                    ])
                    return True
                except ClientError as exc:
                    if not lost_race(exc):
                        raise
            raise DependencyUnavailableError("The session kept changing while it was deleted; retry.", code="session_busy")
