"""The turn use case on fakes: races, idempotency and failures, in milliseconds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from convmem.errors import DependencyUnavailableError, ErasureInProgressError, TurnInProgressError

from tests.concurrency import run_together


def rows(memory, session="s1", user="alice"):
    return [(m.seq, m.role) for m in memory.store.messages_between(user, session, 1, 10**6)]


def test_each_turn_stores_its_two_rows_and_no_plaintext(memory):
    for i in range(3):
        memory.say(f"plaintext-canary-{i}")
    assert rows(memory) == [(1, "visitor"), (2, "agent"), (3, "visitor"), (4, "agent"), (5, "visitor"), (6, "agent")]
    stored = memory.store.messages_between("alice", "s1", 1, 6)
    assert all(b"canary" not in m.ciphertext for m in stored)
    assert len(memory.jobs.facts) == 3  # every turn asks for its facts job


def test_concurrent_turns_on_one_session_keep_seqs_contiguous_and_pair_each_reply(memory):
    memory.say("warm up")
    assert run_together(lambda i: memory.say(f"concurrent {i}"), [(i,) for i in range(10)]) == []
    assert [seq for seq, _ in rows(memory)] == list(range(1, 23))
    page = memory.api.sessions.transcript("alice", "s1", limit=50).messages
    for visitor, agent in zip(page[::2], page[1::2], strict=True):
        assert visitor.role == "visitor" and agent.seq == visitor.seq + 1 and visitor.text in agent.text


def test_a_retried_client_turn_id_answers_the_same_and_writes_nothing_more(memory):
    first = memory.say("hello", client_turn_id="t-1")
    again = memory.say("hello", client_turn_id="t-1")
    assert (again.visitor_seq, again.reply) == (first.visitor_seq, first.reply)
    assert len(rows(memory)) == 2


def test_a_client_turn_id_still_running_is_refused_not_run_twice(memory):
    memory.store.claim_turn("alice", "s1", "t-1", memory.clock.now().timestamp() + 1, 30)
    with pytest.raises(TurnInProgressError):
        memory.say("hello", client_turn_id="t-1")
    assert rows(memory) == []


def test_a_failed_model_writes_nothing_and_frees_the_client_turn_id(memory, monkeypatch):
    model = memory.api.turns._model

    def broken(_request):
        raise DependencyUnavailableError("model down", code="model_unavailable")

    monkeypatch.setattr(model, "reply", broken)
    with pytest.raises(DependencyUnavailableError):
        memory.say("hello", client_turn_id="t-1")
    assert rows(memory) == []
    monkeypatch.undo()
    assert memory.say("hello", client_turn_id="t-1").visitor_seq == 1


def test_erasure_refuses_turns_then_a_new_empty_life_begins(memory):
    memory.say("My name is Minji and I live in Busan")
    memory.run_jobs()
    assert memory.api.facts.list_facts("alice")
    progress = memory.api.forget.erase("alice")
    assert progress.done
    with pytest.raises(ErasureInProgressError):
        memory.say("am I still here?")
    assert memory.store.all_session_ids("alice") == [] and memory.store.get_facts("alice") == (0, {})
    memory.clock.at += timedelta(seconds=2 * memory.settings.key_cache_ttl_seconds)
    reply = memory.say("hello again", session="s2")
    assert reply.visitor_seq == 1 and memory.api.facts.list_facts("alice") == []
