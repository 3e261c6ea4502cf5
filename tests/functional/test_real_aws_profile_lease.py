"""One profile run at a time without reserved concurrency (issue 14, item 2).

EventBridge fires the schedule whether or not the last run finished, and the template no longer
reserves concurrency (new accounts cannot), so two runs can really overlap. The run lease - one
conditional put that lasts until the run's own timeout - lets only one of them work."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import boto3
from convmem.adapters.dynamodb_store import DynamoDBStore
from convmem.adapters.local_model import LocalModel
from convmem.composition import build_profile
from convmem.service.profile import RUN_LEASE
from convmem.service.turn import TurnInput

USERS = ("ana", "bo")


class OverlappingTick(LocalModel):
    """A profile model slow enough that the schedule's next tick starts while the first run works."""

    def __init__(self) -> None:
        self.profiles: list[str] = []
        self.next_tick = None
        self.overlapping: list = []

    def write_profile(self, old, visitor_messages, cap_tokens):
        self.profiles.append(visitor_messages[0])
        if self.next_tick is not None:
            tick, self.next_tick = self.next_tick, None
            self.overlapping.append(tick())  # EventBridge does not wait for the run in progress
        return super().write_profile(old, visitor_messages, cap_tokens)


def active_users(services, settings) -> DynamoDBStore:
    store = DynamoDBStore(settings.table_name, boto3.client("dynamodb"), due_shards=settings.profile_due_shards)
    for user in USERS:
        services.turns.take_turn(user, f"s-{user}", TurnInput(message=f"Hello, I am {user} and I ask about my order"))
        store.mark_active(user, datetime.now(UTC))
    return store


def test_a_tick_during_a_run_does_nothing_and_each_profile_is_written_once(services, settings):
    active_users(services, settings)
    model = OverlappingTick()
    run = build_profile(settings, model=model)
    model.next_tick = lambda: build_profile(settings, model=model).refresh_due(time_left_s=lambda: 300)

    first = run.refresh_due(time_left_s=lambda: 300)

    [second] = model.overlapping
    assert second.skipped and second.refreshed == 0
    assert first.refreshed == len(USERS) and not first.skipped
    assert len(model.profiles) == len(USERS)  # one model call per user, not one per run
    # The run gave the lease back: the next tick works (and finds nobody due).
    later = build_profile(settings, model=model).refresh_due(time_left_s=lambda: 300)
    assert not later.skipped and later.refreshed == 0


def test_a_run_killed_at_its_timeout_holds_the_lease_only_until_then(services, settings):
    store = active_users(services, settings)
    now = datetime.now(UTC)
    # A run that is still within its 300 s: the tick stays out.
    assert store.acquire_lease(RUN_LEASE, owner="running", now=now, until=now + timedelta(seconds=300))
    assert build_profile(settings).refresh_due(time_left_s=lambda: 300).skipped
    assert store.acquire_lease(RUN_LEASE, owner="other", now=now, until=now + timedelta(seconds=300)) is False
    # A run killed at its timeout never released its lease; once that time is over the next tick works.
    store.release_lease(RUN_LEASE, owner="someone-else")  # only the holder can free it
    assert build_profile(settings).refresh_due(time_left_s=lambda: 300).skipped
    later = now + timedelta(seconds=301)
    assert store.acquire_lease(RUN_LEASE, owner="next", now=later, until=later + timedelta(seconds=300))
    store.release_lease(RUN_LEASE, owner="next")
    assert build_profile(settings).refresh_due(time_left_s=lambda: 300).refreshed == len(USERS)
