"""One profile tick at a time without reserved concurrency (issue 14, item 2; since issue 15 the
tick queues the refreshes instead of making them).

EventBridge fires the schedule whether or not the last run finished, and the template no longer
reserves concurrency (new accounts cannot), so two runs can really overlap. The run lease - one
conditional put that lasts until the run's own timeout - lets only one of them work."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import boto3
from convmem.adapters.dynamodb_store import DynamoDBStore
from convmem.adapters.local_model import LocalModel
from convmem.adapters.sqs_jobs import decode_profile
from convmem.composition import build_profile
from convmem.service.profile import RUN_LEASE
from convmem.service.turn import TurnInput

USERS = ("ana", "bo")


class CountingModel(LocalModel):
    def __init__(self) -> None:
        self.profiles: list[str] = []

    def write_profile(self, old, visitor_messages, cap_tokens):
        self.profiles.append(visitor_messages[0])
        return super().write_profile(old, visitor_messages, cap_tokens)


def ticking(settings, aws, model=None):
    """The profile service as the tick runs it: with the template's profile queue."""
    _, resolver = aws
    return build_profile(settings.model_copy(update={"profile_queue_url": resolver.refs["ProfileQueue"]}), model=model)


def active_users(services, settings) -> DynamoDBStore:
    store = DynamoDBStore(settings.table_name, boto3.client("dynamodb"), due_shards=settings.profile_due_shards)
    for user in USERS:
        services.turns.take_turn(user, f"s-{user}", TurnInput(message=f"Hello, I am {user} and I ask about my order"))
        store.mark_active(user, datetime.now(UTC))
    return store


def test_a_tick_during_a_tick_does_nothing_and_each_profile_is_written_once(services, settings, aws):
    active_users(services, settings)
    model = CountingModel()
    sqs = boto3.client("sqs")
    overlapping = []

    def next_tick(**_) -> None:  # EventBridge does not wait for the tick in progress: it fires while it sends
        if not overlapping:
            overlapping.append(ticking(settings, aws).enqueue_due(time_left_s=lambda: 300))

    sqs.meta.events.register("before-call.sqs.SendMessageBatch", next_tick)

    first = build_profile(settings.model_copy(update={"profile_queue_url": aws[1].refs["ProfileQueue"]}),
                          clients={"sqs": sqs}, model=model).enqueue_due(time_left_s=lambda: 300)

    [second] = overlapping
    assert second.skipped and second.enqueued == 0
    assert first.enqueued == len(USERS) and not first.skipped
    worker = build_profile(settings, model=model)
    jobs = sqs.receive_message(QueueUrl=aws[1].refs["ProfileQueue"], MaxNumberOfMessages=10)["Messages"]
    for job in jobs:
        queued = decode_profile(job["Body"])
        worker.refresh_job(queued.user_id, queued.active_at)
    assert len(model.profiles) == len(USERS)  # one model call per user, not one per tick
    # The tick gave the lease back: the next tick works (and finds nobody due).
    later = ticking(settings, aws).enqueue_due(time_left_s=lambda: 300)
    assert not later.skipped and later.enqueued == 0


def test_a_run_killed_at_its_timeout_holds_the_lease_only_until_then(services, settings, aws):
    store = active_users(services, settings)
    now = datetime.now(UTC)
    # A run that is still within its 300 s: the tick stays out.
    assert store.acquire_lease(RUN_LEASE, owner="running", now=now, until=now + timedelta(seconds=300))
    assert ticking(settings, aws).enqueue_due(time_left_s=lambda: 300).skipped
    assert store.acquire_lease(RUN_LEASE, owner="other", now=now, until=now + timedelta(seconds=300)) is False
    # A run killed at its timeout never released its lease; once that time is over the next tick works.
    store.release_lease(RUN_LEASE, owner="someone-else")  # only the holder can free it
    assert ticking(settings, aws).enqueue_due(time_left_s=lambda: 300).skipped
    later = now + timedelta(seconds=301)
    assert store.acquire_lease(RUN_LEASE, owner="next", now=later, until=later + timedelta(seconds=300))
    store.release_lease(RUN_LEASE, owner="next")
    assert ticking(settings, aws).enqueue_due(time_left_s=lambda: 300).enqueued == len(USERS)
