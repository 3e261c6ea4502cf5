"""The fold and facts jobs on fakes: exactly once behind their cursors, under duplicates and races."""

from __future__ import annotations

import threading

import pytest
from convmem.adapters.local_model import LocalModel
from convmem.domain.models import FactCandidate
from convmem.domain.summary_fold import covered_seqs
from convmem.errors import DependencyUnavailableError
from convmem.ports import FactsJob

from tests.concurrency import run_together
from tests.fakes import CountingModel


def converse(memory, turns: int, session="s1"):
    for i in range(turns):
        memory.say("My order number is ZX-40917." if i == 0 else f"turn {i} small talk", session=session)


def summary_seqs(memory, session="s1"):
    return covered_seqs(memory.api.sessions.get_session("alice", session).summary)


def test_a_duplicate_fold_folds_nothing_twice(memory):
    converse(memory, 8)
    model = CountingModel()
    fold = memory.fold_service(model)
    fold.fold("s1", "alice", 4)
    fold.fold("s1", "alice", 4)
    assert model.folded == [1, 2, 3, 4] and summary_seqs(memory) == [1, 2, 3, 4]


def test_a_fold_that_failed_is_retried_and_folds_once(memory):
    converse(memory, 8)
    model = CountingModel(fail=1)
    fold = memory.fold_service(model)
    with pytest.raises(DependencyUnavailableError):
        fold.fold("s1", "alice", 4)
    assert memory.store.get_state("alice", "s1")[0].summarized_through == 0
    fold.fold("s1", "alice", 4)
    assert summary_seqs(memory) == [1, 2, 3, 4]


def test_two_folds_racing_for_one_session_fold_each_message_once(memory):
    converse(memory, 14)  # 28 messages
    folds = [memory.fold_service(CountingModel()), memory.fold_service(CountingModel())]
    barrier = threading.Barrier(2)

    def run(i: int) -> None:
        barrier.wait()
        folds[i].fold("s1", "alice", 8 if i == 0 else 16)

    assert run_together(run, [(0,), (1,)]) == []
    assert memory.store.get_state("alice", "s1")[0].summarized_through == 16
    assert summary_seqs(memory) == list(range(1, 17))


def test_the_agents_words_are_never_a_source(memory):
    memory.say("Hello there")  # the local model's reply quotes the visitor
    memory.facts_service().process(FactsJob(user_id="alice", session_id="s1", visitor_seq=2))
    assert memory.api.facts.list_facts("alice") == []


def test_a_duplicate_facts_job_writes_nothing_more(memory):
    memory.say("I live in Busan")
    facts = memory.facts_service()
    facts.process(FactsJob(user_id="alice", session_id="s1", visitor_seq=1))
    first = memory.store.get_facts("alice")
    facts.process(FactsJob(user_id="alice", session_id="s1", visitor_seq=1))
    assert memory.store.get_facts("alice") == first and first[0] == 1


def test_concurrent_facts_jobs_leave_one_current_fact_per_slot_with_history(memory):
    memory.say("I live in Busan", session="s-a")
    memory.say("My name is Minji", session="s-a")
    memory.say("I moved to Seoul", session="s-b", channel="api")
    facts = memory.facts_service()

    def run(session: str, seq: int) -> None:
        facts.process(FactsJob(user_id="alice", session_id=session, visitor_seq=seq))

    assert run_together(run, [("s-a", 1), ("s-a", 3), ("s-b", 1)] * 4) == []
    current = {f.key: f for f in memory.api.facts.list_facts("alice")}
    assert len(current) == len(memory.api.facts.list_facts("alice")), "two current facts in one slot"
    assert set(current) == {"name", "home.location"}
    assert current["home.location"].value == "Seoul" and [v.value for v in current["home.location"].history] == ["Busan"]


def test_a_facts_job_during_an_erasure_learns_and_writes_nothing(memory):
    memory.say("I live in Busan")
    memory.say("My name is Minji")
    memory.store.mark_erasure("alice", state="erasing", until=memory.clock.now(), now=memory.clock.now())
    outcome = memory.facts_service().process(FactsJob(user_id="alice", session_id="s1", visitor_seq=3))
    assert outcome.candidates == 0
    assert memory.store.get_facts("alice") == (0, {}) and memory.store.get_state("alice", "s1")[0].facts_through == 0


def test_the_name_greeted_once_is_kept_and_stays_an_address_in_a_later_session(memory):
    memory.say("evening Morag. Sheena had her hip done on Monday, she's home now", session="s1")
    memory.facts_service().process(FactsJob(user_id="alice", session_id="s1", visitor_seq=1))
    memory.say("Morag we won it! Highland Pairs champions at the bowls club", session="s2")
    memory.facts_service().process(FactsJob(user_id="alice", session_id="s2", visitor_seq=1))
    facts = memory.api.facts.list_facts("alice")
    assert [f.statement for f in facts if f.key == "agent.name"] == ["Calls you Morag"]
    [won] = [f for f in facts if "Highland" in f.statement]
    assert "Morag" not in won.statement  # the listener's name, said to them, is not the visitor's news


class _Told(LocalModel):
    """A model that tells one fact of every message, as a utility model would, and notes the names it was given."""

    def __init__(self) -> None:
        self.names: list[set[str]] = []

    def extract_facts(self, visitor_message, said_at=None, previous=None, theirs=(), called=()):
        self.names.append(set(theirs))
        if "tortoise" in visitor_message:
            return super().extract_facts(visitor_message, said_at, previous, theirs, called)
        return [FactCandidate(key="event.climb", value="climbed hallasan", statement="They climbed Hallasan with Mum")]


def test_whichever_model_extracts_a_fact_keeps_what_it_was_said_about_and_hears_the_names_known(memory):
    memory.say("My tortoise Pemberton is still asleep.")
    memory.say("Loved every minute, climbed Hallasan with Mum on our Jeju trip!")
    model = _Told()
    memory.facts_service(model).process(FactsJob(user_id="alice", session_id="s1", visitor_seq=3))
    [climb] = [f for f in memory.api.facts.list_facts("alice") if f.key == "event.climb"]
    assert "jeju" in climb.context.split() and "Jeju" not in climb.statement  # searched, never sent
    assert model.names == [set(), {"pemberton"}]  # the second message heard of the pet the first one named
