"""The project's own conversation set (bench/conversations): LoCoMo-format, and honest.

Every answer the recall benchmark looks for must be what the visitor actually said (else a
system is blamed for missing something nobody said), every temporal answer must need the
resolving a raw store cannot do, and every term counted as an attribution error must be the
other party's.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bench.recall import (
    CATEGORIES,
    OPENING_PLACEHOLDER,
    PROJECT_SET,
    Utterance,
    load_conversations,
    pair_turns,
    selected,
)
from bench.recall_match import Request, resolved_range

FILES = sorted(PROJECT_SET.glob("*.json"))
CONVERSATIONS = [c for f in FILES for c in load_conversations(f, "project")]


def test_the_set_has_english_and_korean_conversations():
    languages = [c.language for c in CONVERSATIONS]
    assert languages.count("en") >= 3 and languages.count("ko") >= 1 and set(languages) == {"en", "ko"}


@pytest.mark.parametrize("conv", CONVERSATIONS, ids=lambda c: c.name)
def test_each_conversation_spans_months_in_8_to_12_sessions_with_20_to_40_questions(conv):
    assert 8 <= len(conv.sessions) <= 12
    dates = [s.at for s in conv.sessions]
    assert dates == sorted(dates) and dates[-1] - dates[0] >= timedelta(days=120)
    assert 20 <= len(conv.questions) <= 40
    asked, skipped = selected(conv)
    assert len(asked) >= 20 and skipped["no_evidence"] == 0
    assert {q.category for q in asked} == set(CATEGORIES)  # every category the benchmark reports


@pytest.mark.parametrize("conv", CONVERSATIONS, ids=lambda c: c.name)
def test_every_answer_is_what_the_visitor_said(conv):
    said = {u.dia_id: u for s in conv.sessions for u in s.utterances}
    for q in selected(conv)[0]:
        evidence = "\n".join(said[e].text for e in q.evidence)
        if q.category in (1, 4):
            assert Request(evidence).has_answer(q.answer), (q.question, q.answer, evidence)


@pytest.mark.parametrize("conv", CONVERSATIONS, ids=lambda c: c.name)
def test_every_temporal_answer_is_a_date_the_raw_words_do_not_name(conv):
    said = {u.dia_id: u for s in conv.sessions for u in s.utterances}
    by_number = {s.number: s for s in conv.sessions}
    temporal = [q for q in selected(conv)[0] if q.category == 2]
    assert len(temporal) >= 5
    for q in temporal:
        low, high = resolved_range(q.answer)
        when = by_number[said[q.evidence[0]].session].at.date()
        assert when - timedelta(days=60) <= low <= high <= when + timedelta(days=365), q.question
        raw = Request("\n".join(said[e].text for e in q.evidence))
        assert not raw.has_resolved_date(q.answer), q.question  # only a resolver finds it


@pytest.mark.parametrize("conv", CONVERSATIONS, ids=lambda c: c.name)
def test_the_other_party_terms_are_the_other_partys_and_the_visitor_mentions_some(conv):
    assert len(conv.other_party_terms) >= 5
    theirs = Request("\n".join(u.text for s in conv.sessions for u in s.utterances if u.speaker == conv.speaker_b))
    visitor = Request("\n".join(u.text for s in conv.sessions for u in s.utterances if u.speaker == conv.speaker_a))
    for term in conv.other_party_terms:
        assert theirs.has_answer(term), term
    # The trap the attribution count exists for: the visitor talks about the other party's things
    # (with an assistant, its suggestions turned down and its name, less often than with a friend).
    assert sum(visitor.has_answer(t) for t in conv.other_party_terms) >= 1


def test_files_are_locomo_format():
    for f in FILES:
        sample = json.loads(f.read_text())[0]
        conv = sample["conversation"]
        assert {"speaker_a", "speaker_b", "session_1", "session_1_date_time"} <= set(conv)
        for q in sample["qa"]:
            assert {"question", "evidence", "category"} <= set(q)
            assert ("answer" in q) or ("adversarial_answer" in q and q["category"] == 5)


def test_a_visitor_run_and_the_reply_after_it_make_one_turn():
    u = [Utterance("D1:1", "B", "hi", 1), Utterance("D1:2", "A", "one", 1), Utterance("D1:3", "A", "two", 1),
         Utterance("D1:4", "B", "reply", 1), Utterance("D1:5", "A", "last", 1)]
    turns = pair_turns(u, "A")
    assert [(t.visitor, t.reply) for t in turns] == [
        (OPENING_PLACEHOLDER, "hi"), ("one\ntwo", "reply"), ("last", "(no reply recorded)")]
    assert turns[1].dia_ids == ("D1:2", "D1:3", "D1:4")


@pytest.mark.parametrize("statement, declined", [
    ("They'll pass on Headspace", True),
    ("They ain't paying $12.99 a month for no Headspace", True),
    ("They don't need a Headspace, they have a Ruth Ann", True),
    ("Dennis doesn't do apps, so no Headspace, the whiteboard wins", True),
    ("They can't stand eggs, so the Headspace is out", True),
    ("그래서 헤드스페이스 같은 것은 저와 맞지 않습니다", True),
    ("They love Headspace", False),
    ("They went to Headspace yesterday and it was not bad", False),  # (the "not" is about something else)
    ("Linda sent them a link to that Headspace", False),  # ("sent" is no "n't")
    ("Don't tell Headspace", False),  # (an instruction about it, not a refusal of it)
    ("They declined the job, then Headspace called them", False),  # (too far from the refusal, in another clause)
    ("Headspace doesn't like the rain", False),  # (the thing itself says no: it is still theirs)
    ("헤드스페이스 배가 더 나왔다", False),
])
def test_a_fact_that_only_turns_the_other_partys_thing_down_by_name_is_reported_apart(statement, declined):
    from bench.recall import mentions_of_terms

    attributed, turned_down = mentions_of_terms([(statement, "")], ["Headspace", "헤드스페이스"])
    assert (turned_down, attributed) == (([statement], []) if declined else ([], [statement]))
    assert mentions_of_terms([("They meditate every morning", "")], ["Headspace"]) == ([], [])
