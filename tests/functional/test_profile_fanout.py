"""The profile refresh scales with the number of due users (issue 15, item 6): the scheduled tick
queues every due user and returns, the refresh function works through the queue with bounded
concurrency, a failing user goes to the DLQ alone, and nothing but ids travels in the queue."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

import boto3
import pytest
from convmem.adapters.dynamodb_store import DynamoDBStore
from convmem.adapters.encryption import HierarchicalCipher
from convmem.adapters.local_model import LocalModel
from convmem.adapters.sqs_jobs import SqsJobs
from convmem.composition import build_api
from convmem.errors import DependencyUnavailableError
from convmem.service.profile import ProfileService
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from local.pollers import EventSource, QueuePoller
from tests.functional.conftest import load_event

CANARY = "zebra-canary-77"
USERS = [f"u-{i:02d}" for i in range(25)]
MODEL_CALL_S = 60.0  # what one utility-model call takes here: a run of 300 s refreshes four users


class FakeTime:
    """The Lambda contexts' clock; the model moves it, so time runs out as on a slow Bedrock day."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class SlowModel(LocalModel):
    def __init__(self, time: FakeTime, seconds: float = MODEL_CALL_S, broken: frozenset[str] = frozenset()) -> None:
        self.time, self.seconds, self.broken = time, seconds, broken
        self.calls: list[str] = []

    def write_profile(self, old, visitor_messages, cap_tokens):
        self.time.t += self.seconds
        [user] = {m.split()[-1] for m in visitor_messages if m.split()[-1].startswith("u-")}  # whose messages
        self.calls.append(user)
        if user in self.broken:
            raise DependencyUnavailableError("utility model down for this one", code="model_unavailable")
        return super().write_profile(old, visitor_messages, cap_tokens)


@pytest.fixture()
def stack(aws, api_env, settings):
    """The tick and the refresh function loaded from the template, sharing a fake clock."""
    template, resolver = aws
    saved = dict(os.environ)
    queue_url = resolver.refs["ProfileQueue"]
    ddb, sqs = boto3.client("dynamodb"), boto3.client("sqs")
    time = FakeTime()

    class Stack:
        pass

    s = Stack()
    s.time, s.sqs, s.queue_url, s.resolver = time, sqs, queue_url, resolver
    s.dlq_url = resolver.refs["ProfileDeadLetterQueue"]
    s.store = DynamoDBStore(settings.table_name, ddb, due_shards=settings.profile_due_shards, due_page_size=4)
    s.model = SlowModel(time)

    def service() -> ProfileService:
        cipher = HierarchicalCipher(kms_key_arn=settings.kms_key_arn, key_store_table=settings.key_store_table_name,
                                    ddb_client=ddb, kms_client=boto3.client("kms"))
        return ProfileService(store=s.store, cipher=cipher, model=s.model, clock=_Clock(), settings=settings,
                              jobs=SqsJobs("", sqs, profile_queue_url=queue_url))

    tick_module, tick_name = load_module(template, "ProfileFunction", resolver)
    tick_module.service = service
    refresh_module, refresh_name = load_module(template, "ProfileRefreshFunction", resolver)
    refresh_module.service = service
    s.tick = lambda: getattr(tick_module, tick_name)(load_event("profile_schedule.json"),
                                                     LambdaContext("ProfileFunction", clock=time))
    s.refresh = getattr(refresh_module, refresh_name)
    s.poller = QueuePoller(EventSource("ProfileRefreshFunction", "ProfileQueue", 5), resolver, s.refresh, sqs, clock=time)
    s.poller.retry_after = 0
    yield s
    os.environ.clear()
    os.environ.update(saved)


class _Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


def seed(settings, store: DynamoDBStore, users=USERS) -> None:
    """Each user: one session with two visitor messages, active since their last refresh."""
    services = build_api(settings)
    for user in users:
        for text in (f"Hello, my order {CANARY} is late", f"I write in English, I am {user}"):
            services.turns.take_turn(user, f"s-{user}", TurnInput(message=text))
        store.mark_active(user, datetime.now(UTC))


def drain(stack, limit: int = 200) -> int:
    polls = 0
    while stack.poller.poll_once() and polls < limit:
        polls += 1
    return polls


def queued(stack, url: str | None = None) -> list[dict]:
    out = []
    while got := stack.sqs.receive_message(QueueUrl=url or stack.queue_url, MaxNumberOfMessages=10).get("Messages", []):
        out += got
    return out


def still_due(stack) -> set[str]:
    return {u.user_id for page in stack.store.due_user_pages() for u in page}


def test_one_tick_queues_every_due_user_and_the_refresh_function_refreshes_them_all(stack, settings):
    # Given more due users than one run of 300 s could refresh at 60 s a model call (four), over
    # every shard of the due index and several pages of each.
    seed(settings, stack.store)
    assert still_due(stack) == set(USERS)

    # When the schedule ticks: it makes no model call, so time never runs out, and queues all.
    tick = stack.tick()
    assert tick == {"enqueued": len(USERS), "failed": 0, "complete": True, "skipped": False}
    assert stack.model.calls == []

    # Then the refresh function drains the queue: every user refreshed, one model call each.
    drain(stack)
    assert sorted(stack.model.calls) == USERS
    assert still_due(stack) == set()
    services = build_api(settings)
    for user in USERS:
        profile, refreshed_at = services.profile.get_profile(user)
        assert profile and "Writes in English." in profile and refreshed_at
    assert queued(stack) == [] and queued(stack, stack.dlq_url) == []


def test_a_failing_user_goes_to_the_dead_letter_queue_without_holding_back_the_others(stack, settings):
    seed(settings, stack.store, USERS[:6])
    stack.model.broken = frozenset({"u-03"})
    assert stack.tick()["enqueued"] == 6

    drain(stack)

    assert still_due(stack) == {"u-03"}  # its profile is stale, it is not lost: the next tick queues it
    assert stack.model.calls.count("u-03") == 5  # maxReceiveCount, then the DLQ
    dead = [json.loads(m["Body"]) for m in queued(stack, stack.dlq_url)]
    assert [d["userId"] for d in dead] == ["u-03"]
    assert sorted(set(stack.model.calls) - {"u-03"}) == [u for u in USERS[:6] if u != "u-03"]


def test_a_tick_while_another_holds_the_lease_queues_nothing(stack, settings):
    seed(settings, stack.store, USERS[:6])
    overlapping: list[dict] = []

    def next_tick(**_):  # EventBridge fires again while the first tick is still sending
        if not overlapping:
            overlapping.append(stack.tick())

    stack.sqs.meta.events.register("before-call.sqs.SendMessageBatch", next_tick)
    first = stack.tick()

    assert overlapping == [{"enqueued": 0, "failed": 0, "complete": True, "skipped": True}]
    assert first["enqueued"] == 6
    assert sorted(json.loads(m["Body"])["userId"] for m in queued(stack)) == USERS[:6]  # each once


def test_a_user_queued_twice_while_a_backlog_lasts_costs_one_model_call(stack, settings):
    seed(settings, stack.store, USERS[:4])
    assert stack.tick()["enqueued"] == 4
    assert stack.tick()["enqueued"] == 4  # the backlog was not drained: the next tick queues them again

    drain(stack)

    assert sorted(stack.model.calls) == USERS[:4]  # the second job of each found them refreshed
    assert still_due(stack) == set()


def test_the_refresh_function_stops_before_its_timeout_and_returns_the_rest_as_failures(stack, settings):
    seed(settings, stack.store, USERS[:5])
    stack.model.seconds = 100.0  # 300 s: three jobs start (the third with 100 s left), two would not fit
    stack.tick()
    messages = queued(stack)
    event = {"Records": [dict(load_event("refresh_job.json")["Records"][0], messageId=m["MessageId"], body=m["Body"])
                         for m in messages]}

    result = stack.refresh(event, LambdaContext("ProfileRefreshFunction", clock=stack.time))

    failures = [f["itemIdentifier"] for f in result["batchItemFailures"]]
    assert failures == [m["MessageId"] for m in messages[3:]]
    done = [json.loads(m["Body"])["userId"] for m in messages[:3]]
    assert sorted(stack.model.calls) == sorted(done)
    assert still_due(stack) == {json.loads(m["Body"])["userId"] for m in messages[3:]}


def test_profile_jobs_carry_ids_and_times_only(stack, settings):
    seed(settings, stack.store, USERS[:3])
    stack.tick()
    bodies = [m["Body"] for m in queued(stack)]
    assert len(bodies) == 3
    for body in bodies:
        job = json.loads(body)
        assert set(job) == {"userId", "activeAt"} and datetime.fromisoformat(job["activeAt"])
        assert CANARY not in body and "order" not in body and "English" not in body


class RefusingSqs:
    """SendMessageBatch that refuses some entries: ``flaky`` once, ``refused`` every time."""

    def __init__(self, flaky: set[str], refused: set[str]) -> None:
        self.flaky, self.refused, self.sent = set(flaky), refused, []

    def send_message_batch(self, QueueUrl, Entries):  # noqa: N803 - boto3's names
        failed = []
        for e in Entries:
            user = json.loads(e["MessageBody"])["userId"]
            if user in self.refused or user in self.flaky:
                self.flaky.discard(user)
                failed.append({"Id": e["Id"], "SenderFault": False, "Code": "InternalError"})
            else:
                self.sent.append(user)
        return {"Successful": [], "Failed": failed}


def test_entries_the_queue_refuses_are_sent_again_once_then_counted_as_not_sent():
    from convmem.ports import DueUser

    users = [DueUser(f"u-{i:02d}", datetime(2026, 12, 1, tzinfo=UTC)) for i in range(23)]
    sqs = RefusingSqs(flaky={"u-04", "u-15"}, refused={"u-21"})

    unsent = SqsJobs("", sqs, profile_queue_url="q").send_profiles(users)

    assert unsent == 1  # u-21 stays due; the next tick sends it
    assert sorted(sqs.sent) == [u.user_id for u in users if u.user_id != "u-21"]
