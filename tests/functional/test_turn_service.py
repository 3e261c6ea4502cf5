"""The turn use case on real adapters under moto: rows, encryption, call counts (races and
idempotency run on the fakes: tests/service)."""

from __future__ import annotations

import threading

import boto3
from convmem.service.turn import TurnInput


def turn(services, user, session, text, **kw):
    return services.turns.take_turn(user, session, TurnInput(message=text, **kw))


def message_items(settings, session, user="alice"):
    items = boto3.client("dynamodb").query(
        TableName=settings.table_name,
        KeyConditionExpression="PK = :pk AND begins_with(SK, :m)",
        ExpressionAttributeValues={":pk": {"S": f"SESSION#{user}#{session}"}, ":m": {"S": "MSG#"}},
    )["Items"]
    return items


def test_each_turn_writes_exactly_two_encrypted_rows(services, settings):
    for i in range(3):
        turn(services, "alice", "s-1", f"plaintext-canary-{i}")
    items = message_items(settings, "s-1")
    assert [(int(i["seq"]["N"]), i["role"]["S"]) for i in items] == [
        (1, "visitor"), (2, "agent"), (3, "visitor"), (4, "agent"), (5, "visitor"), (6, "agent")]
    assert all("plaintext-canary" not in str(i) and b"canary" not in bytes(i["ct"]["B"]) for i in items)


def test_the_window_holds_the_last_twelve_and_the_current_message(services):
    for i in range(10):
        turn(services, "alice", "s-1", f"fact number {i}")
    result = turn(services, "alice", "s-1", "what did I say about fact number 3?")
    assert result.context.window_messages == 12
    assert result.context.pending_messages == 8  # nothing folds yet: all still sent
    assert "fact number 3" in result.reply


def test_a_warm_turn_makes_no_kms_call(services, counter):
    turn(services, "alice", "s-1", "first turn creates the key")
    turn(services, "alice", "s-1", "second turn decrypts the first")
    counter.reset()
    turn(services, "alice", "s-1", "a warm turn")
    assert counter.by_service("kms") == 0
    # The session (one Query) and the user's facts and profile (one BatchGetItem) are read
    # concurrently; the pair is committed in one transaction; the facts job is one send.
    assert dict(counter.calls) == {
        "dynamodb.Query": 1, "dynamodb.BatchGetItem": 1, "dynamodb.TransactWriteItems": 1, "sqs.SendMessage": 1}


class SerialClient:
    """A DynamoDB client whose calls run one at a time. moto applies a transaction by
    snapshot-and-restore, which concurrent threads can interleave; real DynamoDB is atomic."""

    _lock = threading.Lock()

    def __init__(self, client) -> None:
        self._client = client

    def __getattr__(self, name):
        attr = getattr(self._client, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            with self._lock:
                return attr(*args, **kwargs)

        return call
