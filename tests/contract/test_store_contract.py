"""One suite, two stores: the in-memory fake and the DynamoDB adapter on moto.

What a service relies on from its store (conditions that refuse a lost race, erasure refusing
every write, claims, limits, pages, deletes) is asserted here once against both, so a service
test on the fake proves what it would prove on DynamoDB, and a fake that drifts fails here."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import boto3
import pytest
from convmem.adapters.dynamodb_store import DynamoDBStore
from convmem.domain.rate_limits import RateLimit
from convmem.errors import ConcurrentUpdateError, ErasureInProgressError, InvalidInputError, RateLimitedError
from convmem.ports import StoredMessage
from moto import mock_aws

from local.aws import create_resources
from local.template import function_environment, load_template
from tests.fakes import InMemoryStore

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["memory", "dynamodb"])
def store(request, monkeypatch):
    if request.param == "memory":
        yield InMemoryStore(facts_shards=2, due_page_size=2)
        return
    for k, v in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    with mock_aws():
        template = load_template()
        env = function_environment(template, "ApiFunction", create_resources(template))
        yield DynamoDBStore(env["CONVERSATION_TABLE"], boto3.client("dynamodb"), facts_shards=2, due_page_size=2,
                            sleep=lambda _s: None)


def pair(first_seq: int, at: datetime = NOW) -> tuple[StoredMessage, StoredMessage]:
    return (StoredMessage(first_seq, "visitor", "web", at, f"v{first_seq}".encode()),
            StoredMessage(first_seq + 1, "agent", "web", at, f"a{first_seq}".encode()))


def commit(store, user="alice", session="s1", expected=0, at=NOW, **kw) -> None:
    store.commit_turn(user_id=user, session_id=session, expected_count=expected, messages=pair(expected + 1, at),
                      now=at, **kw)


def seqs(messages) -> list[int]:
    return [m.seq for m in messages]


# --- sessions and turns ------------------------------------------------------------------
def test_a_first_turn_creates_the_session_with_both_rows_and_its_marker(store):
    assert store.load_session("alice", "s1").state is None
    commit(store)
    snap = store.load_session("alice", "s1")
    assert snap.state.message_count == 2 and snap.state.owner == "alice"
    assert seqs(snap.messages) == [1, 2] and snap.messages[0].ciphertext == b"v1"
    assert store.all_session_ids("alice") == ["s1"]


def test_a_commit_on_a_count_that_moved_writes_nothing(store):
    commit(store)
    commit(store, expected=2)
    with pytest.raises(ConcurrentUpdateError):
        commit(store, expected=2)
    with pytest.raises(ConcurrentUpdateError):
        commit(store, expected=0)  # a second "first turn"
    assert store.load_session("alice", "s1").state.message_count == 4
    assert seqs(store.messages_between("alice", "s1", 1, 100)) == [1, 2, 3, 4]


def test_the_same_session_id_under_two_users_is_two_sessions(store):
    commit(store, user="alice")
    assert store.load_session("bob", "s1").state is None
    commit(store, user="bob")
    commit(store, user="bob", expected=2)
    assert store.load_session("alice", "s1").state.message_count == 2
    assert store.all_session_ids("bob") == ["s1"]


def test_an_id_holding_the_key_separator_is_refused(store):
    with pytest.raises(InvalidInputError):
        store.load_session("al#ice", "s1")


def test_the_summary_cursor_moves_only_forward_from_what_was_read(store):
    for n in range(3):
        commit(store, expected=2 * n)
    store.advance_summary("s1", user_id="alice", old_cursor=0, new_cursor=4, summary_ciphertext=b"sum", now=NOW)
    snap = store.load_session("alice", "s1")
    assert snap.state.summarized_through == 4 and snap.summary_ciphertext == b"sum" and seqs(snap.messages) == [5, 6]
    with pytest.raises(ConcurrentUpdateError):  # another fold moved it first
        store.advance_summary("s1", user_id="alice", old_cursor=0, new_cursor=2, summary_ciphertext=b"x", now=NOW)
    with pytest.raises(ConcurrentUpdateError):  # never beyond what was committed
        store.advance_summary("s1", user_id="alice", old_cursor=4, new_cursor=8, summary_ciphertext=b"x", now=NOW)
    with pytest.raises(ValueError):
        store.advance_summary("s1", user_id="alice", old_cursor=4, new_cursor=4, summary_ciphertext=b"x", now=NOW)
    assert store.get_state("alice", "s1")[1] == b"sum"


def test_the_facts_cursor_moves_from_what_was_read_and_not_on_a_deleted_session(store):
    commit(store)
    store.advance_facts_cursor("alice", "s1", old=0, new=1)
    with pytest.raises(ConcurrentUpdateError):
        store.advance_facts_cursor("alice", "s1", old=0, new=1)
    assert store.get_state("alice", "s1")[0].facts_through == 1
    store.delete_session("s1", "alice", deadline=float("inf"))
    with pytest.raises(ConcurrentUpdateError):  # a deleted session does not come back as a cursor
        store.advance_facts_cursor("alice", "s1", old=0, new=1)
    assert store.get_state("alice", "s1") == (None, None)


def test_messages_read_in_order_by_range_page_and_newest_first(store):
    for n in range(3):
        commit(store, expected=2 * n)
    assert seqs(store.messages_between("alice", "s1", 2, 4)) == [2, 3, 4]
    assert seqs(store.list_messages("alice", "s1", after=2, limit=3)) == [3, 4, 5]
    assert seqs(store.recent_messages("alice", "s1", limit=3)) == [6, 5, 4]


def test_sessions_page_newest_first_with_a_cursor_only_their_user_may_use(store):
    for i in range(5):
        commit(store, session=f"s{i}", at=NOW + timedelta(minutes=i))
    first, cursor = store.page_sessions("alice", 2)
    assert [s.session_id for s in first] == ["s4", "s3"] and cursor
    second, cursor2 = store.page_sessions("alice", 2, after=cursor)
    third, last = store.page_sessions("alice", 2, after=cursor2)
    assert [s.session_id for s in second + third] == ["s2", "s1", "s0"] and last is None
    with pytest.raises(InvalidInputError) as refused:
        store.page_sessions("bob", 2, after=cursor)
    assert refused.value.code == "invalid_page"


# --- claims ------------------------------------------------------------------------------
def test_a_client_turn_id_is_claimed_once_until_its_lease_runs_out(store):
    t = NOW.timestamp()
    assert store.claim_turn("alice", "s1", "c1", t, 30) is None
    held = store.claim_turn("alice", "s1", "c1", t + 1, 30)
    assert held.status == "in_progress"
    assert store.claim_turn("alice", "s1", "c1", t + 31, 30) is None  # the crashed turn's lease ran out
    store.release_turn("alice", "s1", "c1")
    assert store.claim_turn("alice", "s1", "c1", t + 32, 30) is None


def test_a_committed_turn_completes_its_claim_with_the_response(store):
    t = NOW.timestamp()
    store.claim_turn("alice", "s1", "c1", t, 30)
    commit(store, client_turn_id="c1", response_ciphertext=b"resp")
    store.release_turn("alice", "s1", "c1")  # a completed claim is never released
    done = store.claim_turn("alice", "s1", "c1", t + 100, 30)
    assert done.status == "completed" and done.response_ciphertext == b"resp"


# --- erasure -----------------------------------------------------------------------------
def test_an_erasure_in_progress_refuses_every_write_of_the_user(store):
    commit(store)
    store.mark_active("alice", NOW)
    store.mark_erasure("alice", state="erasing", until=NOW + timedelta(minutes=5), now=NOW)
    with pytest.raises(ErasureInProgressError):
        commit(store, expected=2)
    with pytest.raises(ErasureInProgressError):
        commit(store, session="new")
    with pytest.raises(ErasureInProgressError):
        store.advance_summary("s1", user_id="alice", old_cursor=0, new_cursor=2, summary_ciphertext=b"x", now=NOW)
    with pytest.raises(ErasureInProgressError):
        store.put_facts("alice", expected_version=0, shards={0: b"f"}, count=1, now=NOW)
    with pytest.raises(ErasureInProgressError):
        store.put_profile("alice", ciphertext=b"p", now=NOW, active_at=NOW)
    assert store.get_erasure("alice")[0] == "erasing"
    commit(store, user="bob")  # another user is not touched


def test_an_erased_user_may_start_again_once_the_marker_runs_out(store):
    store.mark_erasure("alice", state="erased", until=NOW + timedelta(minutes=1), now=NOW)
    with pytest.raises(ErasureInProgressError):
        commit(store, at=NOW)
    commit(store, at=NOW + timedelta(minutes=2))
    assert store.load_user_memory("alice").erasure_state == "erased"


def test_deleting_a_user_removes_their_items_but_keeps_the_erasure_marker(store):
    commit(store, client_turn_id=None)
    store.claim_turn("alice", "s1", "c9", NOW.timestamp(), 30)
    store.put_facts("alice", expected_version=0, shards={0: b"f"}, count=1, now=NOW)
    store.mark_active("alice", NOW)
    store.mark_erasure("alice", state="erasing", until=NOW, now=NOW)
    assert store.delete_user_items("alice", deadline=float("inf"))
    memory = store.load_user_memory("alice")
    assert memory.facts_shards == {} and memory.profile_ciphertext is None and memory.erasure_state == "erasing"
    assert store.all_session_ids("alice") == []
    assert store.claim_turn("alice", "s1", "c9", NOW.timestamp(), 30) is None  # the old claim is gone


def test_deleting_a_session_removes_it_and_only_it_and_can_run_again(store):
    commit(store, session="s1", client_turn_id="c1", response_ciphertext=b"r")
    commit(store, session="s2")
    assert store.delete_session("s1", "alice", deadline=float("inf"))
    assert store.delete_session("s1", "alice", deadline=float("inf"))
    assert store.load_session("alice", "s1").state is None and store.messages_between("alice", "s1", 1, 9) == []
    assert store.all_session_ids("alice") == ["s2"]
    assert store.claim_turn("alice", "s1", "c1", NOW.timestamp(), 30) is None  # its turn records went with it


# --- the user's durable layers ----------------------------------------------------------
def test_the_facts_document_is_written_whole_on_the_version_read(store):
    assert store.get_facts("alice") == (0, {})
    store.put_facts("alice", expected_version=0, shards={0: b"a", 1: b"b"}, count=2, now=NOW)
    store.put_facts("alice", expected_version=1, shards={1: b"c"}, count=2, now=NOW)  # only the shard that changed
    assert store.get_facts("alice") == (2, {0: b"a", 1: b"c"})
    with pytest.raises(ConcurrentUpdateError):
        store.put_facts("alice", expected_version=1, shards={0: b"x"}, count=1, now=NOW)
    with pytest.raises(ValueError):
        store.put_facts("alice", expected_version=2, shards={2: b"x"}, count=1, now=NOW)  # no such shard
    memory = store.load_user_memory("alice")
    assert memory.facts_version == 2 and dict(memory.facts_shards) == {0: b"a", 1: b"c"}


def test_a_refreshed_profile_stays_due_only_when_the_user_was_active_again(store):
    store.mark_active("alice", NOW)
    store.mark_active("bob", NOW + timedelta(seconds=1))
    store.mark_active("carol", NOW + timedelta(seconds=2))
    due = [u for page in store.due_user_pages() for u in page]
    assert sorted(u.user_id for u in due) == ["alice", "bob", "carol"]
    assert all(len(page) <= 2 for page in store.due_user_pages())
    store.put_profile("alice", ciphertext=b"p1", now=NOW, active_at=NOW)
    store.mark_active("bob", NOW + timedelta(minutes=1))  # active again while bob's profile was written
    store.put_profile("bob", ciphertext=b"p2", now=NOW, active_at=NOW + timedelta(seconds=1))
    assert store.profile_state("alice").due is False and store.profile_state("alice").ciphertext == b"p1"
    assert store.profile_state("bob").due is True and store.profile_state("bob").ciphertext == b"p2"
    store.put_profile("dave", ciphertext=b"p", now=NOW, active_at=NOW)  # no item (erased): nothing revived
    assert store.profile_state("dave").ciphertext is None
    assert store.load_user_memory("alice").profile_ciphertext == b"p1"


# --- limits and leases -------------------------------------------------------------------
def test_a_full_window_refuses_the_next_visitor_and_says_when_to_retry(store):
    slot = RateLimit("visitors", 2, 60).slot(NOW.timestamp())
    store.count_new_visitor("src", slot, NOW)
    store.count_new_visitor("src", slot, NOW)
    with pytest.raises(RateLimitedError) as refused:
        store.count_new_visitor("src", slot, NOW)
    assert 0 < refused.value.retry_after_s <= 60
    store.count_new_visitor("other", slot, NOW)


def test_a_turn_over_the_users_limit_writes_nothing(store):
    slot = RateLimit("turns", 1, 3600).slot(NOW.timestamp())
    commit(store, turn_slot=slot)
    assert store.load_user_memory("alice", turn_slot=slot).turns_counted.total == 1
    with pytest.raises(RateLimitedError):
        commit(store, expected=2, turn_slot=slot)
    assert store.load_session("alice", "s1").state.message_count == 2


def test_a_run_lease_has_one_holder_until_it_ends_or_is_released(store):
    assert store.acquire_lease("run", owner="a", now=NOW, until=NOW + timedelta(minutes=1))
    assert not store.acquire_lease("run", owner="b", now=NOW, until=NOW + timedelta(minutes=1))
    store.release_lease("run", owner="b")  # not b's to release
    assert not store.acquire_lease("run", owner="b", now=NOW + timedelta(seconds=30), until=NOW + timedelta(minutes=2))
    assert store.acquire_lease("run", owner="b", now=NOW + timedelta(minutes=2), until=NOW + timedelta(minutes=3))
    store.release_lease("run", owner="b")
    assert store.acquire_lease("run", owner="a", now=NOW + timedelta(minutes=2), until=NOW + timedelta(minutes=3))


def test_an_imported_turn_may_not_go_back_before_the_sessions_last_message(store):
    commit(store, at=NOW)
    assert store.get_state("alice", "s1")[0].last_at == NOW
    with pytest.raises(ConcurrentUpdateError):
        commit(store, expected=2, at=NOW - timedelta(minutes=1), in_order=True)
    commit(store, expected=2, at=NOW + timedelta(minutes=1), in_order=True)
    assert store.get_state("alice", "s1")[0].last_at == NOW + timedelta(minutes=1)


def test_forgetting_messages_removes_them_and_refuses_a_fold_that_read_them(store):
    for n in range(2):
        commit(store, expected=2 * n, client_turn_id=f"c{n}", response_ciphertext=b"r")
    gen = store.get_state("alice", "s1")[0].forget_gen
    store.forget_messages("s1", user_id="alice", seqs=(1, 2), cursor=0, forget_gen=gen, summary_ciphertext=None,
                          now=NOW, client_turn_ids=("c0",))
    state = store.get_state("alice", "s1")[0]
    assert state.forgotten_seqs == {1, 2} and state.forget_gen == gen + 1
    assert seqs(store.messages_between("alice", "s1", 1, 9)) == [3, 4]
    assert [turn for turn, _ in store.turn_responses("alice", "s1")] == ["c1"]
    with pytest.raises(ConcurrentUpdateError):  # a fold that read the session before the forget
        store.advance_summary("s1", user_id="alice", old_cursor=0, new_cursor=4, summary_ciphertext=b"x",
                              now=NOW, forget_gen=gen)
    with pytest.raises(ConcurrentUpdateError):  # a second forget on what it read before the first
        store.forget_messages("s1", user_id="alice", seqs=(3, 4), cursor=0, forget_gen=gen, summary_ciphertext=None,
                              now=NOW)
    store.advance_summary("s1", user_id="alice", old_cursor=0, new_cursor=4, summary_ciphertext=b"s", now=NOW,
                          forget_gen=gen + 1)


def test_a_profile_reset_by_a_forget_is_not_overwritten_by_a_refresh_that_began_before(store):
    store.mark_active("alice", NOW)
    store.put_profile("alice", ciphertext=b"old", now=NOW, active_at=NOW)
    store.reset_profile("alice", NOW + timedelta(seconds=2))
    assert store.profile_state("alice").ciphertext is None and store.profile_state("alice").due
    store.put_profile("alice", ciphertext=b"stale", now=NOW, active_at=NOW)  # began before the reset
    assert store.profile_state("alice").ciphertext is None
    after = store.profile_state("alice").active_at
    store.put_profile("alice", ciphertext=b"new", now=NOW + timedelta(seconds=3), active_at=after)
    assert store.profile_state("alice").ciphertext == b"new" and not store.profile_state("alice").due
