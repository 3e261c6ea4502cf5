"""Forgetting what was learnt from forgotten messages (pure domain): for random conversations and
random deletions, the facts after forgetting equal the facts built from the conversation without
the forgotten part, and a canary told only in the forgotten part is in no fact."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from convmem.domain import forgetting, summary_fold
from convmem.domain.fact_merge import merge, merge_all
from convmem.domain.models import Fact, FactCandidate, FactSource, FactVersion, Message
from hypothesis import given, settings
from hypothesis import strategies as st

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
CANARY = "Zorblat"
# Wordings that restate, enrich ("Minji" -> "Minji Kim"), replace and flip one another.
VALUES = {
    "name": ["Minji", "Minji Kim", "Jisoo", "Jisoo Park", f"Minji {CANARY}"],
    "home.location": ["Busan", "Seoul", "Seoul Mapo", f"Seoul {CANARY}"],
    "preference.tea": ["+tea", "-tea", "+green tea"],
    "event.trip": ["trip to Jeju", "trip to Jeju island", "bought a bike", f"trip to {CANARY} island"],
}


def candidate(key: str, value: str, when: str | None = None) -> FactCandidate:
    return FactCandidate(key=key, value=value, statement=f"{key.split('.')[-1]}: {value}", when=when)


said = st.tuples(st.sampled_from(sorted(VALUES)), st.integers(0, 4), st.sampled_from([None, "2026-10", "2026-09-02"]))
conversation = st.lists(
    st.tuples(st.sampled_from(["s-a", "s-b", "s-c"]), st.lists(said, max_size=2)), min_size=1, max_size=14)


def messages(turns):
    """(candidates, source) per visitor message, in the order said."""
    seqs: dict[str, int] = {}
    out = []
    for i, (session, saying) in enumerate(turns):
        seqs[session] = seqs.get(session, -1) + 2  # visitor messages are 1, 3, 5...
        source = FactSource(session_id=session, seq=seqs[session], channel="web", at=T0 + timedelta(minutes=i))
        cands = [candidate(k, VALUES[k][n % len(VALUES[k])], when) for k, n, when in saying]
        out.append((cands, source))
    return out


def build(said_messages, max_history=20):
    counter = itertools.count(1)
    facts: list[Fact] = []
    for cands, source in said_messages:
        facts, _ = merge_all(facts, [(c, source) for c in cands], now=source.at, new_id=lambda: f"f{next(counter)}",
                             max_history=max_history)
    return facts


def version(v: FactVersion):
    return (v.statement, v.value, v.source, v.replaced_at, v.when, tuple(version(e) for e in v.earlier))


def memory(facts):
    """What a person can tell apart: each fact's slot, wording, value, sources and history (not ids, not job times)."""
    return sorted(
        (forgetting._base_key(f.key), f.statement, f.value, f.source, f.confirmed_by, f.when, f.when_from,  # noqa: SLF001
         tuple(version(v) for v in f.history), tuple(version(v) for v in f.earlier))
        for f in facts
    )


def forget(facts, gone):
    counter = itertools.count(1)
    return forgetting.forget_sources(facts, gone, now=T0 + timedelta(days=1), new_id=lambda: f"n{next(counter)}")[0]


@settings(max_examples=300, deadline=None)
@given(conversation, st.data())
def test_forgetting_a_conversation_leaves_the_facts_it_would_never_have_taught(turns, data):
    said_messages = messages(turns)
    session = data.draw(st.sampled_from(sorted({s.session_id for _, s in said_messages})))
    gone = forgetting.in_session(session, None, T0 + timedelta(days=1))

    after = forget(build(said_messages), gone)

    assert memory(after) == memory(build([m for m in said_messages if not gone(m[1])]))


@settings(max_examples=300, deadline=None)
@given(conversation, st.data())
def test_forgetting_messages_leaves_the_facts_they_would_never_have_taught(turns, data):
    said_messages = messages(turns)
    picked = data.draw(st.sets(st.integers(0, len(said_messages) - 1), min_size=1, max_size=3))
    by_session: dict[str, dict[int, datetime]] = {}
    for i in picked:
        source = said_messages[i][1]
        by_session.setdefault(source.session_id, {})[source.seq] = source.at
    gones = [forgetting.in_messages(s, seqs) for s, seqs in by_session.items()]

    def gone(source):
        return any(g(source) for g in gones)

    after = forget(build(said_messages), gone)

    assert memory(after) == memory(build([m for m in said_messages if not gone(m[1])]))
    left_text = " ".join(c.value for cands, s in said_messages if not gone(s) for c in cands)
    if CANARY not in left_text:
        assert CANARY not in "".join(f.model_dump_json() for f in after)


def test_a_value_replaced_in_the_forgotten_conversation_comes_back_with_its_history():
    said_messages = messages([("s-a", [("home.location", 0, None)]), ("s-a", [("home.location", 1, None)]),
                              ("s-b", [("home.location", 3, None)])])  # Busan, then Seoul, then Seoul Zorblat
    facts = build(said_messages)
    assert [f.value for f in facts] == [f"Seoul {CANARY}"]

    after = forget(facts, forgetting.in_session("s-b", None, T0 + timedelta(days=1)))

    (home,) = after
    assert (home.value, home.source.session_id, home.source.seq) == ("Seoul", "s-a", 3)
    assert [v.value for v in home.history] == ["Busan"]
    assert home.id == facts[0].id and CANARY not in home.model_dump_json()


def test_a_fact_also_said_elsewhere_keeps_that_source_and_loses_this_one():
    said_messages = messages([("s-a", [("name", 0, None)]), ("s-b", [("name", 0, None)])])
    (name,) = build(said_messages)
    assert name.confirmed_by is not None and name.confirmed_by.session_id == "s-b"

    (after,) = forget([name], forgetting.in_session("s-a", None, T0 + timedelta(days=1)))

    assert after.source.session_id == "s-b" and after.confirmed_by is None and after.earlier == []
    assert forgetting.sources(after) == [after.source]


def test_a_digest_holding_a_forgotten_fact_goes_whole():
    facts = build(messages([("s-a", [("event.trip", 0, None)]), ("s-b", [("event.trip", 2, None)])]))
    from convmem.domain.fact_merge import compact

    digested, folded = compact(facts, now=T0 + timedelta(days=2), new_id=lambda: "d1", max_facts=1)
    assert folded == 2 and [f.key.split(".")[0] for f in digested] == ["digest"]

    assert forget(digested, forgetting.in_session("s-b", None, T0 + timedelta(days=3))) == []


# --- tombstones ------------------------------------------------------------------------------
def test_a_tombstone_refuses_the_same_fact_from_the_same_message_and_nothing_else():
    source = FactSource(session_id="s-a", seq=3, channel="web", at=T0)
    (fact,) = build([([candidate("home.location", "Busan")], source)])
    stones = forgetting.tombstones_for(fact, now=T0 + timedelta(hours=1))
    assert "Busan" not in "".join(t.model_dump_json() for t in stones)

    again = [(candidate("home.location", "Busan"), source), (candidate("name", "Minji"), source)]
    kept, n = forgetting.refused(stones, again)
    assert n == 1 and [c.key for c, _ in kept] == ["name"]  # the other fact of that message is still learnt
    later = FactSource(session_id="s-a", seq=9, channel="web", at=T0 + timedelta(days=2))
    assert forgetting.refused(stones, [(candidate("home", "Busan city"), later)])[1] == 0  # told again: learnt
    reused = FactSource(session_id="s-a", seq=3, channel="web", at=T0 + timedelta(days=5))  # the id used again
    assert forgetting.refused(stones, [(candidate("home.location", "Busan"), reused)])[1] == 0


def test_session_and_message_tombstones_refuse_everything_said_there_then():
    now = T0 + timedelta(hours=2)
    stones = [forgetting.session_tombstone("s-a", T0, now), forgetting.message_tombstone("s-b", 5, T0, now)]
    inside = FactSource(session_id="s-a", seq=7, channel="web", at=T0 + timedelta(hours=1))
    message = FactSource(session_id="s-b", seq=5, channel="web", at=T0)
    reborn = FactSource(session_id="s-a", seq=1, channel="web", at=now + timedelta(minutes=1))
    learnt = [(candidate("name", "Minji"), inside), (candidate("name", "Jisoo"), message), (candidate("name", "Ara"), reborn)]
    kept, n = forgetting.refused(stones, learnt)
    assert n == 2 and [s for _, s in kept] == [reborn]


def test_tombstones_stay_bounded_and_those_of_deleted_messages_expire():
    now = T0 + timedelta(days=10)
    fact_stones = [forgetting.Forgotten(session_id="s", seq=i, at=T0, key="name", made_at=T0 + timedelta(seconds=i))
                   for i in range(1, 1500)]
    deleted = [forgetting.message_tombstone("s", 1, T0, T0), forgetting.message_tombstone("s", 3, T0, now)]
    retried = forgetting.message_tombstone("s", 3, T0, now - timedelta(seconds=1))  # the same forget, retried
    kept = forgetting.bounded([*fact_stones, *deleted, retried], now)
    assert len(kept) == forgetting.FORGOTTEN_MAX and deleted[1] in kept and deleted[0] not in kept
    assert retried not in kept


# --- the summary ---------------------------------------------------------------------------------
def fold_all(msgs, cuts, cap):
    summary, cursor = None, 0
    for cut in cuts:
        chunk = [m for m in msgs if cursor < m.seq <= cut]
        summary = summary_fold.fold(summary, chunk, cap) if chunk else summary
        cursor = cut
    return summary


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 30), st.data())
def test_refolding_from_the_touched_entry_equals_folding_without_the_forgotten_pair(n_turns, data):
    msgs = [Message(seq=s, role="visitor" if s % 2 else "agent", channel="web", at=T0 + timedelta(minutes=s),
                    text=f"Message {s}: order A-{s}{'00' if s % 3 else ''} {CANARY if s == 5 else ''} please.")
            for s in range(1, 2 * n_turns + 1)]
    cuts = sorted(data.draw(st.sets(st.integers(1, 2 * n_turns), min_size=1, max_size=6)))
    visitor = data.draw(st.sampled_from([m.seq for m in msgs if m.role == "visitor" and m.seq <= cuts[-1]] or [1]))
    cap = 100_000
    summary = fold_all(msgs, cuts, cap)
    left = [m for m in msgs if m.seq not in (visitor, visitor + 1)]

    prefix, ranges = forgetting.refold_plan(summary, visitor, cuts[-1], chunk=12)
    rebuilt = prefix
    for lo, hi in ranges:
        chunk = [m for m in left if lo <= m.seq <= hi]
        rebuilt = summary_fold.fold(rebuilt, chunk, cap) if chunk else rebuilt

    assert (rebuilt or None) == (fold_all(left, cuts, cap) or None)
    if visitor == 5:
        assert CANARY not in (rebuilt or "")


def test_a_free_text_summary_is_folded_again_from_the_start_in_chunks():
    prefix, ranges = forgetting.refold_plan("They talked about an order.", 7, 30, chunk=12)
    assert prefix is None and ranges == [(1, 12), (13, 24), (25, 30)]


def test_merge_records_every_message_a_value_was_learnt_from():
    source = [FactSource(session_id="s", seq=i + 1, channel="web", at=T0 + timedelta(minutes=i)) for i in range(4)]
    facts = merge([], candidate("name", "Minji"), source[1], now=T0, new_id=lambda: "f1").facts
    facts = merge(facts, candidate("name", "Minji"), source[2], now=T0, new_id=lambda: "x").facts  # restated
    facts = merge(facts, candidate("name", "Minji Kim"), source[3], now=T0, new_id=lambda: "x").facts  # enriched
    facts = merge(facts, candidate("name", "Minji"), source[0], now=T0, new_id=lambda: "x").facts  # said before
    assert [s.seq for s in forgetting.sources(facts[0])] == [1, 2, 3, 4]


def test_a_fact_stored_before_sources_were_kept_still_keeps_its_confirmation():
    said = [FactSource(session_id=s, seq=1, channel="web", at=T0 + timedelta(minutes=i)) for i, s in enumerate(("s-a", "s-b"))]
    old = Fact(id="f1", key="name", statement="name: Minji", value="Minji", source=said[0], confirmed_by=said[1],
               created_at=T0, updated_at=T0)  # as documents from before ``earlier`` hold it

    (after,) = forget([old], forgetting.in_session("s-a", None, T0 + timedelta(days=1)))

    assert (after.id, after.value, after.source) == ("f1", "Minji", said[1])
