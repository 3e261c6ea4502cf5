"""What real AWS does to keys and erasure that moto never does (issue 14, items 7-9).

- The Material Providers Library reads the key store with eventually consistent GetItems: right
  after CreateKey a read can find no item (aws-cryptographic-material-providers-library PR 1637).
- A turn or a background job in flight while DELETE /v1/me runs.
- SQS FIFO drops a message whose deduplication id was sent in the last five minutes, even after
  the first was consumed and deleted; moto forgets an id once its message is deleted.
Each case answers chosen calls of the real boto3 clients at their HTTP layer (``Faults``)."""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import boto3
import pytest
from botocore.awsrequest import AWSResponse
from convmem.adapters.local_model import LocalModel
from convmem.composition import aws_client, build_api, build_erase, build_facts, build_fold, build_profile
from convmem.errors import ErasureInProgressError, KeyDestroyedError
from convmem.ports import FactsJob
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from local.pollers import EventSource, QueuePoller
from tests.functional.conftest import load_event, scan_all
from tests.functional.test_faults import Faults, _Raw

USER, SESSION = "sample-user", "sample-session"


class Answers(Faults):
    """Faults that can also answer a call successfully with a chosen body (as AWS would), not only fail it."""

    def answer(self, operation: str, body: dict, times: int = 1, when: Callable[[dict], bool] = lambda body: True) -> Answers:
        self.rules.append({"operation": operation, "answer": body, "left": times, "when": when})
        return self

    def _send(self, request, event_name: str, **kw):
        operation = event_name.rsplit(".", 1)[-1]
        body = json.loads(request.body or b"{}") if request.body else {}
        for rule in self.rules:
            if "answer" in rule and rule["operation"] == operation and rule["left"] and rule["when"](body):
                rule["left"] -= 1
                self.injected += 1
                request.url = "https://fault-injected.invalid/"  # moto must not act on it (see Faults)
                return AWSResponse(request.url, 200, {}, _Raw(json.dumps(rule["answer"]).encode()))
        return super()._send(request, event_name, **kw)


def key_store_table(settings) -> Callable[[dict], bool]:
    return lambda body: body.get("TableName") == settings.key_store_table_name


@pytest.fixture()
def clients():
    return {name: aws_client(name) for name in ("dynamodb", "kms", "sqs", "secretsmanager")}


# --- item 7: the key store's eventually consistent read right after CreateKey ----------------------
def test_a_new_users_first_turn_survives_the_key_stores_stale_read(aws, settings, clients):
    """The first GetItem finds no key (there is none), CreateKey writes it, and the read that
    follows is answered from a replica that has not seen the write yet: no Item, as DynamoDB
    answers an eventually consistent GetItem. The turn waits and reads again: 200, not 500."""
    template, resolver = aws
    module, name = load_module(template, "ApiFunction", resolver)
    module.services = lambda: build_api(settings, clients=clients)
    stale = Answers(clients["dynamodb"]).answer("GetItem", {}, times=2, when=key_store_table(settings))
    out = getattr(module, name)(load_event("api_turn.json"), LambdaContext("ApiFunction"))
    assert out["statusCode"] == 200, out["body"]
    assert stale.injected == 2 and json.loads(out["body"])["visitorSeq"] == 1
    assert build_api(settings).sessions.transcript(USER, SESSION).messages[0].text.startswith("Hi, my order number is A-1042")


def test_another_instance_reading_a_just_created_key_waits_for_it(aws, settings, clients):
    """The facts job runs on another instance a moment after the first turn: its read of the new
    key's version finds no item once. The fact is learnt (before: the key counted as erased and
    the job learnt nothing)."""
    services = build_api(settings)
    services.turns.take_turn(USER, SESSION, TurnInput(message="My name is Minji"))
    stale = Answers(clients["dynamodb"]).answer("GetItem", {}, times=1, when=key_store_table(settings))
    outcome = build_facts(settings, clients=clients).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    assert stale.injected == 1 and outcome.candidates == 1
    assert [f.key for f in services.facts.list_facts(USER)] == ["name"]


def test_an_erased_key_is_not_waited_for(aws, settings, clients):
    """Only a key that exists is read again: an erased user's ciphertext fails at once as erased."""
    services = build_api(settings)
    services.turns.take_turn(USER, SESSION, TurnInput(message="soon forgotten"))
    ct = [i for i in scan_all(aws[1]) if i.get("SK", {}).get("S") == "MSG#0000000001"][0]["ct"]["B"]
    build_erase(settings).erase(USER, inline_budget_s=0)
    cipher = build_facts(settings, clients=clients)._cipher  # noqa: SLF001 - a fresh instance's cipher
    started = time.monotonic()
    with pytest.raises(KeyDestroyedError):
        cipher.decrypt(bytes(ct), user_id=USER, session_id=SESSION, kind="message", ref="1")
    assert time.monotonic() - started < 0.5


# --- item 8: a turn or a job in flight while DELETE /v1/me runs -------------------------------------
class ErasedMeanwhile(LocalModel):
    """A model call during which the user's erasure runs on another instance (``budget_s`` of
    inline deletion: 5 finishes it, 0 leaves the items to the erasure queue)."""

    def __init__(self, settings, budget_s: float) -> None:
        super().__init__()
        self._erase = lambda: build_erase(settings).erase(USER, inline_budget_s=budget_s)

    def reply(self, request):
        self._erase()
        return super().reply(request)

    def fold_summary(self, old, messages, cap):
        self._erase()
        return super().fold_summary(old, messages, cap)

    def extract_facts(self, visitor_message, said_at=None, previous=None, theirs=(), called=()):
        self._erase()
        return super().extract_facts(visitor_message)

    def write_profile(self, old, visitor_messages, cap):
        self._erase()
        return super().write_profile(old, visitor_messages, cap)


def branch_key_items(resolver) -> list[dict]:
    return [i for i in scan_all(resolver) if i.get("branch-key-id", {}).get("S") == f"user:{USER}"]


def user_sort_keys(resolver) -> list[str]:
    """Every item left of the user: their USER# items and the items of sessions they own."""
    items = scan_all(resolver)
    return sorted(i["SK"]["S"] for i in items if "PK" in i and (
        i["PK"]["S"] == f"USER#{USER}" or i["PK"]["S"].startswith(f"SESSION#{USER}#")))


@pytest.mark.parametrize("session", [
    SESSION,  # this instance read the history: it holds the user's key when the erasure destroys it
    "a-new-session",  # nothing read: this instance never held the key, its commit would need a new one
])
def test_a_turn_in_flight_when_the_erasure_starts_writes_nothing_and_makes_no_key(aws, settings, session):
    template, resolver = aws
    build_api(settings).turns.take_turn(USER, SESSION, TurnInput(message="My name is Minji"))
    instance = build_api(settings)  # another Lambda instance, its turn under way when DELETE /v1/me comes
    instance.turns._model = ErasedMeanwhile(settings, budget_s=5)  # noqa: SLF001
    with pytest.raises(ErasureInProgressError):
        instance.turns.take_turn(USER, session, TurnInput(message="this must not outlive the erasure", clientTurnId="ct-1"))
    assert user_sort_keys(resolver) == ["ERASURE"]  # no message, no session, no turn record after "erased"
    assert branch_key_items(resolver) == []  # and no new key that could read anything


def test_an_erasure_starting_while_a_new_users_key_is_created_destroys_that_key(aws, settings):
    """The marker is read before CreateKey (no erasure yet), the erasure marks and destroys while
    the key is being created: the key made in between is destroyed again, nothing is committed."""
    template, resolver = aws
    services = build_api(settings)
    cipher = services.turns._cipher  # noqa: SLF001
    create = cipher.create_user_key

    def erasure_overtakes(user_id):
        build_erase(settings).erase(user_id, inline_budget_s=5)
        create(user_id)

    cipher.create_user_key = erasure_overtakes
    with pytest.raises(ErasureInProgressError):
        services.turns.take_turn(USER, SESSION, TurnInput(message="my very first words"))
    assert branch_key_items(resolver) == [] and user_sort_keys(resolver) == ["ERASURE"]


def test_a_fold_in_flight_when_the_erasure_starts_writes_no_summary(aws, settings):
    template, resolver = aws
    services = build_api(settings)
    for i in range(8):
        services.turns.take_turn(USER, SESSION, TurnInput(message=f"order question {i} about ZX-{i}"))
    fold = build_fold(settings, model=ErasedMeanwhile(settings, budget_s=0))  # items left to the queue
    outcome = fold.fold(SESSION, USER, 4)
    state = [i for i in scan_all(resolver) if i.get("PK", {}).get("S") == f"SESSION#{USER}#{SESSION}" and i["SK"]["S"] == "STATE"][0]
    assert outcome.cursor_after == 0 and "summaryCt" not in state and state["cursor"]["N"] == "0"


def test_a_facts_job_in_flight_when_the_erasure_starts_leaves_no_facts_document(aws, settings):
    template, resolver = aws
    build_api(settings).turns.take_turn(USER, SESSION, TurnInput(message="My name is Minji and I live in Busan"))
    facts = build_facts(settings, model=ErasedMeanwhile(settings, budget_s=5))
    outcome = facts.process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    assert outcome.candidates == 0 and user_sort_keys(resolver) == ["ERASURE"]


def test_a_profile_refresh_in_flight_when_the_erasure_starts_writes_no_profile(aws, settings):
    template, resolver = aws
    services = build_api(settings)
    services.turns.take_turn(USER, SESSION, TurnInput(message="Hello, I write in English"))
    build_facts(settings).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))  # makes the user due
    assert build_profile(settings).refresh_all_due() == 1
    before = [i for i in scan_all(resolver) if i.get("SK", {}).get("S") == "PROFILE"][0]
    services.turns.take_turn(USER, SESSION, TurnInput(message="Another message"))
    build_facts(settings).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=3))
    user = next(iter(build_profile(settings)._store.due_user_pages()))[0]  # noqa: SLF001
    with pytest.raises(ErasureInProgressError):
        build_profile(settings, model=ErasedMeanwhile(settings, budget_s=0)).refresh(user)
    after = [i for i in scan_all(resolver) if i.get("SK", {}).get("S") == "PROFILE"][0]
    assert after["profileCt"] == before["profileCt"]


# --- item 9: SQS FIFO deduplication of the erase jobs ------------------------------------------------
class FifoDedup:
    """SQS FIFO deduplication as AWS documents it: a SendMessage whose deduplication id the queue
    saw in the last five minutes is accepted (200, a MessageId) and never delivered - "Amazon SQS
    continues tracking the deduplication ID even after the message has been received and
    deleted" (FIFO key terms). moto forgets an id once its message is deleted."""

    WINDOW_S = 300

    def __init__(self, client) -> None:
        self.seen: dict[tuple[str, str], float] = {}
        self.dropped = 0
        client.meta.events.register_first("before-send.sqs.SendMessage", self._send)

    def _send(self, request, **_kw):
        body = json.loads(request.body)
        key, now = (body["QueueUrl"], body["MessageDeduplicationId"]), time.monotonic()
        if now - self.seen.get(key, -1e9) >= self.WINDOW_S:
            self.seen[key] = now
            return None  # delivered
        self.dropped += 1
        request.url = "https://fault-injected.invalid/"  # moto must not enqueue it (see Faults)
        answer = {"MessageId": uuid.uuid4().hex, "MD5OfMessageBody": hashlib.md5(body["MessageBody"].encode()).hexdigest()}
        return AWSResponse(request.url, 200, {}, _Raw(json.dumps(answer).encode()))


@dataclass
class EraseQueue:
    """The erase function on its queue; it and every erasure send through one SQS client whose
    queue deduplicates as SQS does."""

    settings: Any
    sqs: Any
    dedup: FifoDedup
    function: Callable[[dict, Any], dict]
    poller: QueuePoller

    def erase(self) -> None:
        """DELETE /v1/me with nothing fitting inline: all goes to the queue."""
        build_erase(self.settings, clients={"sqs": self.sqs}).erase(USER, inline_budget_s=0)

    def drain(self) -> int:
        return sum(self.poller.poll_once() for _ in range(4))


@pytest.fixture()
def erase_queue(aws, api_env, settings) -> EraseQueue:
    template, resolver = aws
    sqs = aws_client("sqs")
    module, name = load_module(template, "EraseFunction", resolver)
    module.service = lambda: build_erase(settings, clients={"sqs": sqs})
    function = getattr(module, name)
    poller = QueuePoller(EventSource("EraseFunction", "EraseQueue", 1), resolver, function, sqs)
    return EraseQueue(settings, sqs, FifoDedup(sqs), function, poller)


def new_life(settings) -> None:
    """The erasure marker's wait has passed (as in test_privacy): the same user id lives again."""
    boto3.client("dynamodb").update_item(
        TableName=settings.table_name, Key={"PK": {"S": f"USER#{USER}"}, "SK": {"S": "ERASURE"}},
        UpdateExpression="SET #u = :past", ExpressionAttributeNames={"#u": "until"},
        ExpressionAttributeValues={":past": {"S": "2000-01-01T00:00:00.000Z"}})


def test_a_second_erasure_within_five_minutes_is_not_dropped_by_fifo_deduplication(aws, settings, erase_queue):
    template, resolver = aws
    services = build_api(settings)
    services.turns.take_turn(USER, SESSION, TurnInput(message="first life"))
    erase_queue.erase()
    assert erase_queue.drain() == 1 and user_sort_keys(resolver) == ["ERASURE"]

    new_life(settings)
    services.turns.take_turn(USER, "second-life", TurnInput(message="second life, also to be forgotten"))
    assert "MSG#0000000001" in user_sort_keys(resolver)
    erase_queue.erase()  # the same user, a minute later
    assert erase_queue.drain() == 1, "the second erasure's job never arrived"
    assert erase_queue.dedup.dropped == 0 and user_sort_keys(resolver) == ["ERASURE"]


def test_a_redelivered_erase_job_enqueues_its_remainder_once(aws, settings, erase_queue):
    """Within one erasure the attempt still deduplicates: a job delivered twice (SQS delivers at
    least once) that runs out of time both times sends its next attempt once."""
    template, resolver = aws
    build_api(settings).turns.take_turn(USER, SESSION, TurnInput(message="to be forgotten"))
    event = load_event("erase_job.json")
    for _ in range(2):  # the same record twice; 5 s left is the function's reserve: no time to delete
        assert erase_queue.function(event, LambdaContext("EraseFunction", timeout_s=5)) == {"batchItemFailures": []}
    assert erase_queue.dedup.dropped == 1
    jobs = erase_queue.sqs.receive_message(QueueUrl=resolver.refs["EraseQueue"], MaxNumberOfMessages=10)["Messages"]
    assert [json.loads(j["Body"])["attempt"] for j in jobs] == [2]
