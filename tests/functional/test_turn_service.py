"""The turn use case on real adapters under moto: rows, races, idempotency, call counts."""

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


def test_concurrent_turns_on_one_session_keep_seqs_contiguous(settings):
    from convmem.composition import build_api

    services = build_api(settings, clients={"dynamodb": SerialClient(boto3.client("dynamodb"))})
    turn(services, "alice", "s-race", "warm up")
    errors: list[Exception] = []
    replies: dict[int, str] = {}

    def one(i: int) -> None:
        try:
            result = turn(services, "alice", "s-race", f"concurrent {i}")
            replies[result.visitor_seq] = result.reply
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    items = message_items(settings, "s-race")
    assert [int(i["seq"]["N"]) for i in items] == list(range(1, 23))
    assert [i["role"]["S"] for i in items] == ["visitor", "agent"] * 11
    # each visitor message is directly followed by its own reply
    page = services.sessions.transcript("alice", "s-race", limit=50).messages
    for visitor, agent in zip(page[::2], page[1::2], strict=True):
        assert agent.seq == visitor.seq + 1 and visitor.text in agent.text


def test_a_failed_model_writes_nothing_and_frees_the_client_turn_id(services, settings, monkeypatch):
    from convmem.errors import DependencyUnavailableError

    def broken(_request):
        raise DependencyUnavailableError("model down", code="model_unavailable")

    real = services.turns._model.reply
    monkeypatch.setattr(services.turns._model, "reply", broken)
    try:
        turn(services, "alice", "s-f", "hello", client_turn_id="t-1")
    except DependencyUnavailableError:
        pass
    assert message_items(settings, "s-f") == []
    monkeypatch.setattr(services.turns._model, "reply", real)
    assert turn(services, "alice", "s-f", "hello", client_turn_id="t-1").visitor_seq == 1
