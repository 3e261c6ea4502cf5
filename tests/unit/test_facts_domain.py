"""Facts: slot keys, merge rules, extraction and recall ranking (pure domain)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from convmem.domain.fact_extraction import extract
from convmem.domain.fact_merge import merge, normalise_key, recall
from convmem.domain.models import Fact, FactCandidate, FactSource
from hypothesis import given, settings
from hypothesis import strategies as st

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def src(seq: int, minutes: int | None = None, session: str = "s-a", channel: str = "web") -> FactSource:
    return FactSource(session_id=session, seq=seq, channel=channel, at=T0 + timedelta(minutes=seq if minutes is None else minutes))


def ids():
    counter = itertools.count(1)
    return lambda: f"f{next(counter)}"


def learn(facts, text, source, new_id, now=None):
    for c in extract(text):
        facts = merge(facts, c, source, now=now or source.at, new_id=new_id).facts
    return facts


def current(facts, key):
    found = [f for f in facts if f.key == key]
    assert len(found) <= 1, f"two current facts in slot {key}"
    return found[0] if found else None


# --- slot keys ---------------------------------------------------------------------------
@pytest.mark.parametrize(("raw", "key"), [
    ("name", "name"), ("Full Name", "name"), ("location", "home.location"), ("City", "home.location"),
    ("email", "contact.email"), ("Phone Number", "contact.phone"), ("preferred_language", "language"),
    ("preference.Window Seats", "preference.window_seat"), ("preference.green-teas", "preference.green_tea"),
    ("preference.커피", "preference.커피"), ("home.location", "home.location"),
])
def test_slot_keys_are_normalised(raw, key):
    assert normalise_key(raw) == key


@pytest.mark.parametrize("raw", ["", "  ", "...", "1abc", "x" * 100])
def test_what_is_not_a_slot_key_is_refused(raw):
    with pytest.raises(ValueError):
        normalise_key(raw)


# --- merge rules -------------------------------------------------------------------------
def test_a_move_replaces_the_location_and_keeps_the_old_one_in_history():
    new_id = ids()
    facts = learn([], "My name is Minji and I live in Busan", src(1), new_id)
    facts = learn(facts, "I moved to Seoul", src(3, session="s-b", channel="api"), new_id)
    home = current(facts, "home.location")
    assert home.value == "Seoul" and home.source.session_id == "s-b"
    assert [(v.value, v.replaced_at) for v in home.history] == [("Busan", src(3).at)]
    assert home.id == "f2" and current(facts, "name").value == "Minji"  # the fact keeps its id


def test_a_restatement_only_moves_updated_at():
    new_id = ids()
    facts = learn([], "I live in Busan", src(1), new_id)
    again = learn(facts, "I live in Busan.", src(5), new_id, now=T0 + timedelta(days=1))
    before, after = facts[0], again[0]
    assert (after.statement, after.value, after.source, after.history, after.created_at) == (
        before.statement, before.value, before.source, [], before.created_at)
    assert after.updated_at == T0 + timedelta(days=1)


def test_a_fuller_wording_of_the_same_fact_merges_without_history():
    new_id = ids()
    facts = learn([], "My name is Minji", src(1), new_id)
    facts = learn(facts, "My name is Minji Kim", src(3), new_id)
    assert len(facts) == 1 and facts[0].value == "Minji Kim" and facts[0].history == []


def test_the_same_fact_under_another_slot_wording_merges_into_the_existing_slot():
    new_id = ids()
    facts = merge([], FactCandidate(key="preference.coffee", value="+coffee", statement="Likes strong coffee"),
                  src(1), now=T0, new_id=new_id).facts
    result = merge(facts, FactCandidate(key="preference.drinks", value="+strong coffee", statement="Likes strong coffee"),
                   src(2), now=T0, new_id=new_id)
    assert len(result.facts) == 1 and result.facts[0].key == "preference.coffee"


def test_different_preferences_in_similar_words_stay_apart():
    new_id = ids()
    facts = learn([], "I like strong black coffee", src(1), new_id)
    facts = learn(facts, "I like strong black tea", src(2), new_id)
    assert sorted(f.key for f in facts) == ["preference.strong_black_coffee", "preference.strong_black_tea"]


def test_a_duplicate_job_changes_nothing():
    new_id = ids()
    facts = learn([], "I live in Busan", src(1), new_id)
    result = merge(facts, extract("I live in Busan")[0], src(1), now=T0 + timedelta(hours=1), new_id=new_id)
    assert result.action == "duplicate" and result.facts == facts


def test_a_late_job_never_turns_back_a_newer_value():
    """Jobs can run out of order (FIFO order is not what correctness rests on)."""
    new_id = ids()
    facts = learn([], "I moved to Seoul", src(9), new_id)
    facts = learn(facts, "I live in Busan", src(2), new_id, now=T0 + timedelta(hours=1))
    home = current(facts, "home.location")
    assert home.value == "Seoul"
    assert [(v.value, v.replaced_at) for v in home.history] == [("Busan", src(9).at)]


def test_liking_then_disliking_the_same_thing_is_one_slot_that_changed():
    new_id = ids()
    facts = learn([], "I like coffee", src(1), new_id)
    facts = learn(facts, "I don't like coffee anymore", src(2), new_id)
    pref = current(facts, "preference.coffee")
    assert (pref.value, pref.statement) == ("-coffee", "Does not like coffee")
    assert [v.value for v in pref.history] == ["+coffee"]


def test_history_is_bounded_oldest_first():
    new_id = ids()
    facts: list[Fact] = []
    for i, city in enumerate(["Busan", "Seoul", "Daegu", "Incheon", "Jeju"]):
        facts = merge(facts, extract(f"I moved to {city}")[0], src(i + 1), now=T0, new_id=new_id, max_history=2).facts
    assert [v.value for v in current(facts, "home.location").history] == ["Daegu", "Incheon"]


def test_a_full_fact_set_refuses_new_slots_and_keeps_the_others():
    new_id = ids()
    facts = learn([], "My name is Minji", src(1), new_id)
    result = merge(facts, extract("I live in Busan")[0], src(2), now=T0, new_id=new_id, max_facts=1)
    assert result.action == "full" and result.facts == facts


statements = st.sampled_from([
    "I live in Busan", "I moved to Seoul", "I live in Daegu", "My name is Minji", "My name is Jisoo",
    "I like coffee", "I don't like coffee", "Please reply in Korean", "Please answer in English",
    "부산에 살아요", "서울로 이사했어요", "제 이름은 민지예요",
])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(statements, st.integers(1, 50)), min_size=1, max_size=12))
def test_never_two_current_facts_in_one_slot_whatever_the_order(said):
    new_id = ids()
    facts: list[Fact] = []
    for text, seq in said:
        facts = learn(facts, text, src(seq), new_id)
    keys = [f.key for f in facts]
    assert len(keys) == len(set(keys))
    # Each slot holds what was said last (latest time; replays of one seq are duplicates).
    for f in facts:
        assert all(v.source.at <= f.source.at for v in f.history)


# --- extraction ------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("My name is Minji and I live in Busan", {"name": "Minji", "home.location": "Busan"}),
    ("I'm Minji.", {"name": "Minji"}),
    ("I moved to New York City last week", {"home.location": "New York City"}),
    ("제 이름은 민지예요. 부산에 살아요", {"name": "민지", "home.location": "부산"}),
    ("저는 민지라고 합니다", {"name": "민지"}),
    ("서울로 이사했어요", {"home.location": "서울"}),
    ("My email is Minji@Example.com", {"contact.email": "minji@example.com"}),
    ("my phone number is +82 10-1234-5678", {"contact.phone": "+821012345678"}),
    ("Please reply in Korean", {"language": "Korean"}),
    ("한국어로 답해 주세요", {"language": "Korean"}),
    ("I prefer window seats", {"preference.window_seat": "+window seats"}),
    ("매운 음식을 싫어해요", {"preference.매운_음식": "-매운 음식"}),
])
def test_extraction_finds_the_basics_in_english_and_korean(text, expected):
    assert {c.key: c.value for c in extract(text)} == expected


@pytest.mark.parametrize("text", [
    "What is the weather like where I live?", "I'm sorry, can you help?", "I'm Korean", "I love it",
    "Where is my order A-1042?", "Do you like coffee?", "",
])
def test_unknown_statements_extract_nothing(text):
    assert extract(text) == []


def test_a_former_home_is_told_but_is_not_where_they_live():
    assert [c.key for c in extract("I used to live in Paris")] == ["note.used_liv_pari"]


# --- recall ------------------------------------------------------------------------------------
def _many_facts(n: int) -> list[Fact]:
    new_id = ids()
    facts = learn([], "My name is Minji and I live in Busan", src(1), new_id)
    for i in range(n - len(facts)):
        facts = merge(facts, FactCandidate(key=f"preference.topic_{i}", value=f"+hobby-{i}",
                                           statement=f"Enjoys hobby-{i} on weekends"), src(i + 2), now=T0, new_id=new_id).facts
    assert len(facts) == n
    return facts


def test_recall_ranks_by_relevance_not_recency():
    facts = _many_facts(200)
    chosen = recall(facts, "what is the weather like where I live?", budget_tokens=300, max_facts=8)
    assert chosen[0].key == "home.location"


def test_recall_matches_korean_particles():
    facts = learn([], "부산에 살아요", src(1), ids())
    assert [f.value for f in recall(facts, "부산 날씨 어때요?", budget_tokens=100, max_facts=3)] == ["부산"]


def test_recall_sends_standing_facts_first_then_fills_its_budget_with_the_most_recent():
    facts = _many_facts(30)
    chosen = recall(facts, "Can you help me with something?", budget_tokens=300, max_facts=8)
    assert chosen[0].key == "name"  # nothing matches: who they are still leads
    # the rest of the budget carries what they said last, not nothing
    assert [f.statement for f in chosen[1:]] == [f"Enjoys hobby-{i} on weekends" for i in range(27, 20, -1)]


def test_recall_sends_what_they_call_the_agent_on_every_turn():
    called = Fact(id="c", key="agent.name", statement="Calls you Morag", value="Morag", source=src(1),
                  created_at=T0, updated_at=T0)
    chosen = recall([*_many_facts(30), called], "Can you help me with something?", budget_tokens=300, max_facts=8)
    assert [f.key for f in chosen[:2]] == ["name", "agent.name"]  # nothing matches: whom it is still comes


def test_recall_fills_with_what_shares_the_question_s_word_beginnings_then_a_date_then_recency():
    # "travel" never meets "travelled" through the light stemmer: BM25 scores nothing here.
    facts = [
        Fact(id="trip", key="event.lisbon", statement="They travelled to Lisbon with their aunt in May 2024",
             value="lisbon", source=src(1), created_at=T0, updated_at=T0, when="2024-05"),
        Fact(id="move", key="event.flat", statement="They moved flats in April 2024", value="flat",
             source=src(2), created_at=T0, updated_at=T0, when="2024-04"),
        Fact(id="tea", key="note.tea", statement="They drink green tea every morning", value="tea",
             source=src(3), created_at=T0, updated_at=T0),
    ]
    assert recall(facts, "Where did I travel?", budget_tokens=300, max_facts=1)[0].id == "trip"
    assert recall(facts, "When was that?", budget_tokens=300, max_facts=1)[0].id == "move"  # dated, then the latest
    assert recall(facts, "Anything new?", budget_tokens=300, max_facts=1)[0].id == "tea"  # the latest said


def test_recall_stays_within_its_budget_and_count():
    facts = _many_facts(200)
    from convmem.domain.tokens import count_tokens

    chosen = recall(facts, "hobby weekends", budget_tokens=60, max_facts=50)
    assert sum(count_tokens(f"- {f.statement}") + 1 for f in chosen) <= 60 and chosen
    assert len(recall(facts, "hobby weekends", budget_tokens=10_000, max_facts=5)) == 5


def test_recall_by_embedding_similarity_sends_nothing_below_its_floor():
    facts = _many_facts(10)
    scores = [0.0] * len(facts)
    scores[-1] = 0.4  # one fact close to the message; the others under the similarity floor (0)
    chosen = recall(facts, "what do I do at weekends?", budget_tokens=300, max_facts=8, scores=scores)
    assert [f.id for f in chosen] == [facts[-1].id, next(f.id for f in facts if f.key == "name")]
