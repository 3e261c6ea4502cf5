"""What real DynamoDB does that moto never does, produced at the HTTP layer of the real boto3
clients (see test_faults.py): transactions cancelled by a conflicting writer, eventually
consistent reads that lag behind a commit, BatchGetItem leaving keys unprocessed, and the 400 KB
item limit counted in UTF-8 bytes.

Each test checks what a user would notice: a turn answered instead of a 503, a fact learnt
instead of lost, a facts job that does not end in the dead-letter queue."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from botocore.awsrequest import AWSResponse
from convmem.adapters.dynamodb_store import BATCH_ATTEMPTS, DynamoDBStore
from convmem.adapters.local_model import LocalModel
from convmem.adapters.sqs_jobs import encode
from convmem.composition import aws_client, build_api, build_facts, build_fold
from convmem.domain.models import FactCandidate
from convmem.domain.summary_fold import covered_seqs
from convmem.errors import DependencyUnavailableError
from convmem.ports import FactsJob
from convmem.service import facts as facts_service

from local.lambda_runtime import LambdaContext, load_module
from tests.functional.conftest import load_event, scan_all
from tests.functional.test_faults import SESSION, USER, _Raw, say

Body = dict


@pytest.fixture()
def clients():
    """The clients the functions build, shared by the services under test and the answers."""
    return {name: aws_client(name) for name in ("dynamodb", "kms", "sqs", "secretsmanager")}
Answer = Callable[[Body], "tuple[int, dict] | None"]


class AwsAnswers:
    """Answers chosen calls of a client the way real DynamoDB does, before moto sees them.

    ``answer(operation, respond)``: ``respond(body)`` returns (status, JSON payload) to answer
    the call with, or None to let it through. ``lag(table, ops)``: eventually consistent reads
    (no ``ConsistentRead``) of ``ops`` on ``table`` are served by a replica frozen at the last
    ``snapshot()``, as a DynamoDB replica that has not yet applied the newest writes."""

    def __init__(self, client) -> None:
        self.client = client
        self.rules: list[dict] = []
        self.answered = 0
        self.stale: list[str] = []  # operations served from the lagging replica
        self._lag: tuple[str, set[str]] | None = None
        client.meta.events.register_first("before-send", self._send)

    def answer(self, operation: str, respond: Answer, times: int = 1) -> AwsAnswers:
        self.rules.append({"operation": operation, "respond": respond, "left": times})
        return self

    def error(self, operation: str, code: str, times: int = 1, **fields) -> AwsAnswers:
        payload = {"__type": f"com.amazonaws.dynamodb.v20120810#{code}", "message": f"injected {code}", **fields}
        return self.answer(operation, lambda body: (400, payload), times)

    # --- a lagging replica -----------------------------------------------------------------
    def snapshot(self, table: str) -> None:
        """Freeze the replica at the table's current items."""
        replica = f"{table}-replica"
        ddb = aws_client("dynamodb")  # a plain client: not answered by this layer
        if replica in ddb.list_tables()["TableNames"]:
            ddb.delete_table(TableName=replica)
        keys = ddb.describe_table(TableName=table)["Table"]["KeySchema"]
        ddb.create_table(  # the base table's keys: index reads are never redirected
            TableName=replica, KeySchema=keys, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": k["AttributeName"], "AttributeType": "S"} for k in keys],
        )
        kwargs: dict = {"TableName": table}
        while True:
            page = ddb.scan(**kwargs)
            for item in page["Items"]:
                ddb.put_item(TableName=replica, Item=item)
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def lag(self, table: str, ops: set[str]) -> AwsAnswers:
        self._lag = (table, ops)
        return self

    def _send(self, request, event_name: str, **_kw):
        operation = event_name.rsplit(".", 1)[-1]
        body = json.loads(request.body) if request.body else {}
        if self._lag and operation in self._lag[1] and body.get("TableName") == self._lag[0] \
                and not body.get("ConsistentRead") and "IndexName" not in body:
            # Served by the replica: moto answers the same request against the frozen copy.
            self.stale.append(operation)
            request.body = json.dumps({**body, "TableName": f"{self._lag[0]}-replica"}).encode()
            return None
        for rule in self.rules:
            if rule["operation"] == operation and rule["left"]:
                found = rule["respond"](body)
                if found is None:
                    continue
                rule["left"] -= 1
                self.answered += 1
                status, payload = found
                # moto's handler still runs after this one: send it nowhere, so the answered call
                # has no side effect (as test_faults.Faults does).
                request.url = "https://answered.invalid/"
                headers = {"x-amzn-ErrorType": payload["__type"].rsplit("#", 1)[-1]} if status >= 300 else {}
                return AWSResponse(request.url, status, headers, _Raw(json.dumps(payload).encode()))
        return None


def transcript_seqs(services, session=SESSION) -> list[int]:
    return [m.seq for m in services.sessions.transcript(USER, session).messages]


# --- 3. TransactionConflict is a lost race --------------------------------------------------------
CONFLICT = {"CancellationReasons": [{"Code": "None"}, {"Code": "None"}, {"Code": "None"},
                                    {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}],
            "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons "
                       "[None, None, None, TransactionConflict]"}


def test_a_commit_cancelled_by_a_transaction_conflict_is_retried_and_lands_once(aws, settings, clients):
    # Given a session, and a fold (or another turn) writing its STATE item as this turn commits
    services = build_api(settings, clients=clients)
    say(services, "warm up")
    layer = AwsAnswers(clients["dynamodb"]).error("TransactWriteItems", "TransactionCanceledException", times=2, **CONFLICT)
    # When the commit is cancelled twice with reason TransactionConflict
    result = say(services, "second turn")
    # Then the turn is answered (not 503) and its pair lands once, at the next seqs
    assert layer.answered == 2
    assert (result.visitor_seq, result.agent_seq) == (3, 4)
    assert transcript_seqs(services) == [1, 2, 3, 4]


def test_a_commit_that_keeps_conflicting_is_session_busy_and_writes_nothing(aws, settings, clients):
    template, resolver = aws
    services = build_api(settings, clients=clients)
    say(services, "warm up")
    before = scan_all(resolver)
    AwsAnswers(clients["dynamodb"]).error("TransactWriteItems", "TransactionCanceledException", times=100, **CONFLICT)
    with pytest.raises(DependencyUnavailableError) as err:
        say(services, "never lands", clientTurnId="ct-busy")
    assert err.value.code == "session_busy"  # a bounded number of retries, then "retry shortly"
    assert scan_all(resolver) == before  # no message, no idempotency record left behind


def test_a_fold_whose_cursor_write_meets_a_commit_in_flight_still_folds(aws, settings, clients):
    # The cursor write (a transaction: erasure check + STATE update) meets a commit holding STATE:
    # cancelled with TransactionConflict on the STATE item. The fold reloads and writes again
    # instead of failing the job.
    services = build_api(settings)
    for i in range(8):
        say(services, f"turn {i} order ZX-{100 + i}")
    cancelled = {"CancellationReasons": [{"Code": "None"}, {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}],
                 "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]"}
    layer = AwsAnswers(clients["dynamodb"]).error("TransactWriteItems", "TransactionCanceledException", times=1, **cancelled)
    outcome = build_fold(settings, clients=clients, model=LocalModel()).fold(SESSION, USER, 4)
    assert layer.answered == 1 and outcome.cursor_after == 4
    assert covered_seqs(services.sessions.get_session(USER, SESSION).summary) == [1, 2, 3, 4]


# --- 5. BatchGetItem's UnprocessedKeys: back off with jitter, bounded ---------------------------------
def _defer_every_key(body: Body) -> tuple[int, dict]:
    """What DynamoDB answers when a throttled partition processes none of the batch's keys."""
    return 200, {"Responses": {t: [] for t in body["RequestItems"]}, "UnprocessedKeys": body["RequestItems"]}


def test_unprocessed_keys_are_asked_again_after_growing_sleeps_and_the_turn_is_answered(aws, settings, clients):
    import time

    services = build_api(settings, clients=clients)
    say(services, "My name is Minji")
    build_facts(settings).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    calls: list[float] = []

    def deferred(body: Body):
        calls.append(time.monotonic())
        return _defer_every_key(body) if len(calls) <= 3 else None

    AwsAnswers(clients["dynamodb"]).answer("BatchGetItem", deferred, times=100)
    result = say(services, "What is my name?")
    # The turn is answered with the user's facts, read on the fourth call...
    assert len(calls) == 4 and "Minji" in result.reply
    # ...after waits that grow: each at least the floor of its backoff (25, 50, 100 ms), where
    # today's immediate retries wait nothing; and bounded, well inside the turn's time.
    gaps = [b - a for a, b in zip(calls, calls[1:], strict=False)]
    assert [g >= floor for g, floor in zip(gaps, (0.025, 0.05, 0.1), strict=True)] == [True] * 3, gaps
    assert sum(gaps) < 1.0, gaps


def test_keys_that_stay_unprocessed_end_in_a_bounded_503(aws, settings, clients):
    slept: list[float] = []
    store = DynamoDBStore(settings.table_name, clients["dynamodb"], sleep=slept.append)
    layer = AwsAnswers(clients["dynamodb"]).answer("BatchGetItem", _defer_every_key, times=100)
    with pytest.raises(DependencyUnavailableError) as err:
        store.load_user_memory(USER)
    assert err.value.code == "storage_throttled"
    assert layer.answered == BATCH_ATTEMPTS and len(slept) == BATCH_ATTEMPTS - 1
    assert slept == sorted(slept) and slept[-1] > 4 * slept[0]  # exponential, not a fixed pause
    assert sum(slept) <= 0.75


def test_backoff_is_jittered_so_that_colliding_callers_spread_out():
    from convmem.adapters.dynamodb_store import backoff_seconds

    first = {round(backoff_seconds(0), 6) for _ in range(50)}
    assert len(first) > 10 and all(0.025 <= s <= 0.05 for s in first)
    assert all(backoff_seconds(20) <= 1.0 for _ in range(20))  # capped


# --- 4. The consumers read what their correctness depends on consistently -------------------------
@pytest.fixture()
def lagging(aws, settings):
    """A consumer's client whose eventually consistent reads lag behind the last snapshot."""
    ddb = aws_client("dynamodb")
    return ddb, AwsAnswers(ddb)


@pytest.mark.parametrize("stale", [{"Query"}, {"GetItem"}, {"GetItem", "Query"}])
def test_a_facts_job_right_after_its_turn_learns_the_visitor_message(aws, settings, lagging, stale):
    ddb, layer = lagging
    services = build_api(settings)
    facts = build_facts(settings, clients={"dynamodb": ddb})
    say(services, "My name is Minji")
    facts.process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    layer.snapshot(settings.table_name)  # the replica has everything up to here...
    say(services, "I live in Busan")  # ...but not yet this turn's two rows and its STATE update
    # When the turn's facts job runs at once, against a replica that lags
    layer.lag(settings.table_name, stale)
    facts.process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=3))
    # Then what the visitor just said is learnt (today the job skips it, or moves past it)
    assert {f.key for f in services.facts.list_facts(USER)} == {"name", "home.location"}
    assert services.sessions.get_session(USER, SESSION).state.facts_through == 3


def test_a_fold_job_right_after_its_turn_folds_instead_of_failing(aws, settings, lagging):
    ddb, layer = lagging
    services = build_api(settings)
    for i in range(6):
        say(services, f"turn {i} order ZX-{100 + i}")
    layer.snapshot(settings.table_name)
    say(services, "turn 6 order ZX-106")  # seqs 13 and 14, not yet on the replica
    layer.lag(settings.table_name, {"Query"})
    outcome = build_fold(settings, clients={"dynamodb": ddb}, model=LocalModel()).fold(SESSION, USER, 14)
    assert outcome.cursor_after == 14
    assert covered_seqs(services.sessions.get_session(USER, SESSION).summary) == list(range(1, 15))


# --- 6. The facts' byte bound counts the bytes DynamoDB counts ---------------------------------
class KoreanFacts(LocalModel):
    """Each message 'round N' restates 8 preferences (a message's most) in new Korean words (three
    UTF-8 bytes a character): every round moves each fact's previous value into its history."""

    def extract_facts(self, text: str, said_at=None, previous=None, theirs=(), called=()) -> list[FactCandidate]:
        if not text.startswith("round "):
            return super().extract_facts(text, said_at, previous, theirs, called)
        n = int(text.split()[-1])
        return [FactCandidate(key=f"preference.topic{k}", value=korean(n, k, 300), statement=korean(n, k, 400))
                for k in range(8)]


def korean(n: int, k: int, length: int) -> str:
    rng = random.Random(n * 1000 + k)
    words = ("".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(4)) for _ in range(length))
    return " ".join(words)[:length]


def facts_handler(aws, settings, model):
    template, resolver = aws
    module, name = load_module(template, "FactsFunction", resolver)
    module.service = lambda: build_facts(settings, model=model)
    record = load_event("facts_job.json")["Records"][0]

    def run(visitor_seq: int) -> dict:
        r = json.loads(json.dumps(record))
        r["body"] = encode(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=visitor_seq))
        return getattr(module, name)({"Records": [r]}, LambdaContext("FactsFunction"))

    return run


def stored_facts_items(aws) -> list[dict]:
    template, resolver = aws
    return [i for i in scan_all(resolver) if i.get("PK") == {"S": f"USER#{USER}"} and i["SK"]["S"].startswith("FACTS")]


def dynamodb_item_bytes(item: dict) -> int:
    """DynamoDB's own count for an item of strings, numbers and binaries: UTF-8 bytes of each name
    and string, raw bytes of each binary, about one byte per two digits of a number, plus one."""
    size = 0
    for name, value in item.items():
        ((kind, v),) = value.items()
        size += len(name.encode()) + (len(v.encode()) if kind == "S" else len(v) if kind == "B" else len(v) // 2 + 2)
    return size


def test_korean_facts_with_history_stay_under_the_byte_bound_instead_of_dead_lettering(aws, settings, monkeypatch):
    # The bound is lowered so twelve rounds cross it (the real one, 340,000 bytes a shard, takes
    # thousands of facts: tests/functional/test_fact_memory.py). Counted in characters, ~9,000
    # characters of Korean would pass a 30,000 bound as 27,000 bytes - and fail DynamoDB's.
    monkeypatch.setattr(facts_service, "MAX_SHARD_BYTES", 30_000)
    services = build_api(settings)
    run = facts_handler(aws, settings, KoreanFacts())
    rounds = 12
    for n in range(1, rounds + 1):
        turn = say(services, f"round {n}")
        # Every job succeeds: none goes back to the queue, so none ends in the DLQ.
        assert run(turn.visitor_seq) == {"batchItemFailures": []}, f"round {n}"
    facts = services.facts.list_facts(USER)
    # Every current value is the latest one said; the history lost only its oldest entries.
    assert sorted(f.value for f in facts) == sorted(korean(rounds, k, 300) for k in range(8))
    assert all(f.history and f.history[-1].value == korean(rounds - 1, k, 300)
               for k, f in sorted((int(f.key.removeprefix("preference.topic")), f) for f in facts))
    assert sum(len(f.history) for f in facts) < 8 * (rounds - 1)
    assert all(dynamodb_item_bytes(i) <= 30_000 + 200 for i in stored_facts_items(aws))


def test_facts_that_cannot_be_made_to_fit_are_refused_not_dead_lettered(aws, settings, monkeypatch):
    services = build_api(settings)
    run = facts_handler(aws, settings, KoreanFacts())
    assert run(say(services, "My name is Minji").visitor_seq) == {"batchItemFailures": []}
    # A bound the name's shard alone is over: nothing can be folded or trimmed to make room.
    largest = max(len(bytes(i["ct"]["B"])) for i in stored_facts_items(aws) if "ct" in i)
    monkeypatch.setattr(facts_service, "MAX_SHARD_BYTES", largest - 1)
    # The job ends (the new facts refused, as past facts_max_per_user) instead of failing on every
    # delivery into the DLQ; what the user's facts already held is untouched.
    assert run(say(services, "round 1").visitor_seq) == {"batchItemFailures": []}
    assert [f.key for f in services.facts.list_facts(USER)] == ["name"]
    assert services.sessions.get_session(USER, SESSION).state.facts_through == 3
