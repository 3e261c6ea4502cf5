"""Turn claims: the idempotency record of a clientTurnId, claimed before a turn runs and completed
in the turn's own commit transaction (``completed_claim``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from convmem.adapters.dynamodb.errors import condition_failed, translated
from convmem.adapters.dynamodb.keys import binary, claim_sk, key, user_pk
from convmem.adapters.dynamodb.table import Table
from convmem.ports import TurnClaim

IDEMPOTENCY_TTL_SECONDS = 24 * 3600


def claim_key(user_id: str, session_id: str, client_turn_id: str) -> dict[str, Any]:
    return key(user_pk(user_id), claim_sk(session_id, client_turn_id))


def completed_claim(table: str, user_id: str, session_id: str, client_turn_id: str, response_ct: bytes,
                    now: datetime) -> dict[str, Any]:
    """The Put (a TransactItems entry) that completes a claim with the turn's response."""
    return {"Put": {"TableName": table, "Item": {
        **claim_key(user_id, session_id, client_turn_id),
        "status": {"S": "completed"},
        "leaseUntil": {"N": "0"},
        "responseCt": {"B": response_ct},
        "expiresAt": {"N": str(int(now.timestamp()) + IDEMPOTENCY_TTL_SECONDS)},
    }}}


class ClaimsTable(Table):
    def claim_turn(
        self, user_id: str, session_id: str, client_turn_id: str, now: float, lease_seconds: int
    ) -> TurnClaim | None:
        claim = claim_key(user_id, session_id, client_turn_id)
        with translated("claim turn"):
            try:
                self._ddb.put_item(
                    TableName=self._table,
                    Item={
                        **claim,
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
                if not condition_failed(exc):
                    raise
                old = exc.response.get("Item") or self._ddb.get_item(
                    TableName=self._table, Key=claim, ConsistentRead=True).get("Item")
        if not old:  # released between our write and our read: claim again
            return self.claim_turn(user_id, session_id, client_turn_id, now, lease_seconds)
        return TurnClaim(status=old["status"]["S"], lease_until=float(old["leaseUntil"]["N"]),
                         response_ciphertext=binary(old, "responseCt"))

    def turn_responses(self, user_id: str, session_id: str) -> list[tuple[str, bytes]]:
        """(clientTurnId, response ciphertext) of the session's completed turn records (all pages, consistent)."""
        prefix = claim_sk(session_id, "")
        with translated("turn records"):
            items = self._query_all(
                ConsistentRead=True, ProjectionExpression="SK, responseCt",
                KeyConditionExpression="PK = :pk AND begins_with(SK, :p)",
                ExpressionAttributeValues={":pk": {"S": user_pk(user_id)}, ":p": {"S": prefix}},
            )
        return [(i["SK"]["S"].removeprefix(prefix), ct) for i in items if (ct := binary(i, "responseCt"))]

    def release_turn(self, user_id: str, session_id: str, client_turn_id: str) -> None:
        """Drop an in-progress claim (a completed one stays: its turn was answered)."""
        with translated("release turn"):
            try:
                self._ddb.delete_item(
                    TableName=self._table,
                    Key=claim_key(user_id, session_id, client_turn_id),
                    ConditionExpression="#s = :prog",
                    ExpressionAttributeNames={"#s": "status"},
                    ExpressionAttributeValues={":prog": {"S": "in_progress"}},
                )
            except ClientError as exc:
                if not condition_failed(exc):
                    raise
