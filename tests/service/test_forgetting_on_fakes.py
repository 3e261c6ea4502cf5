"""Forgetting through the services on fakes: the memory after a forget equals the memory of a
world where the forgotten part was never said (facts, values, wordings, sources, history, dates).
On the fakes it runs many more examples than it could on moto."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from convmem.ports import FactsJob
from convmem.service.turn import TurnInput
from convmem.settings import Settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tests.service.conftest import Memory, make_memory

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
CANARY = "Zorblatville"
SAYINGS = ["My name is Minji", "My name is Minji Kim", "I live in Busan", "I moved to Seoul", "I like green tea",
           "I love green tea", "My email is minji@example.org", "order ZX-7 is late", f"I moved to {CANARY}"]


def _facts_as_said(memory: Memory, user: str):
    """The user's facts as a person tells them apart; each message named by (session, time), which
    both worlds share (a seq differs once a message is missing)."""
    def src(s):
        return (s.session_id, s.at) if s else None

    def version(v):
        return (v.statement, v.value, src(v.source), v.when, tuple(version(e) for e in v.earlier))

    return sorted((f.key, f.statement, f.value, src(f.source), src(f.confirmed_by), f.when,
                   tuple(version(v) for v in f.history), tuple(version(v) for v in f.earlier))
                  for f in memory.api.facts.list_facts(user))


def _tell(memory: Memory, user: str, turns, skip=frozenset()) -> None:
    """Each turn through the turn service at its own minute, its facts job right after it."""
    facts = memory.facts_service()
    for i, (session, text) in enumerate(turns):
        if i in skip:
            continue
        memory.clock.at = T0 + timedelta(minutes=i)
        result = memory.api.turns.take_turn(user, session, TurnInput(message=text))
        facts.process(FactsJob(user_id=user, session_id=session, visitor_seq=result.visitor_seq))
    memory.clock.at = T0 + timedelta(days=1)


def test_forgetting_through_the_services_equals_never_having_said_it():
    memory = make_memory(Settings.from_env({}).model_copy(update={"turn_limit": 0, "turn_burst_limit": 0}))
    runs = iter(range(10**6))

    @hsettings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(SAYINGS)), min_size=1, max_size=7), st.data())
    def check(turns, data):
        n = next(runs)
        user, never = f"forgets-{n}", f"never-{n}"
        _tell(memory, user, turns)
        if data.draw(st.booleans()):
            session = data.draw(st.sampled_from(sorted({s for s, _ in turns})))
            memory.api.forget.forget_session(user, session, facts="forget")
            forgotten = {i for i, (s, _) in enumerate(turns) if s == session}
        else:
            i = data.draw(st.integers(0, len(turns) - 1))
            session = turns[i][0]
            memory.api.forget.forget_message(user, session, 1 + 2 * sum(1 for s, _ in turns[:i] if s == session))
            forgotten = {i}
        _tell(memory, never, turns, skip=frozenset(forgotten))  # the same times for the same messages

        assert _facts_as_said(memory, user) == _facts_as_said(memory, never)
        if not any(CANARY in text for i, (_, text) in enumerate(turns) if i not in forgotten):
            assert CANARY not in json.dumps([f.model_dump(mode="json") for f in memory.api.facts.list_facts(user)])

    check()


def test_the_transcript_pages_end_when_the_last_messages_were_forgotten(memory):
    """Forgotten seqs at the end leave no rows: a client following ``next`` must reach the end
    rather than be sent to the same page again."""
    for text in ("order ZX-9 is late", "it was due Monday", "my email is wombat@example.net"):
        memory.say(text)
    memory.api.forget.forget_message("alice", "s1", 5)
    pages, after = [], 0
    while after is not None and len(pages) < 5:
        page = memory.api.sessions.transcript("alice", "s1", after=after, limit=2)
        pages.append([m.seq for m in page.messages])
        after = page.next
    assert pages == [[1, 2], [3, 4]]
    memory.api.forget.forget_message("alice", "s1", 3)
    assert memory.api.sessions.transcript("alice", "s1", after=2, limit=2).next is None
    assert memory.api.sessions.transcript("alice", "s1", after=0, limit=2).next is None
