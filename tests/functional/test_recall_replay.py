"""The recall benchmark measures the memory the code really has: the replay goes through the
turn path (both sides' real words stored, at the time they were said), the consumers learn from
it, and the question's request is the one the model would have been sent."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from moto import mock_aws

from bench.recall import OPENING_PLACEHOLDER, build_stack, load_conversations, measure

CONVERSATION = {
    "sample_id": "tiny",
    "other_party_terms": ["Gyeongju"],
    "conversation": {
        "speaker_a": "Minji", "speaker_b": "Joon",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Joon", "dia_id": "D1:1", "text": "Hi Minji, long time!"},
            {"speaker": "Minji", "dia_id": "D1:2", "text": "Hi Joon! My name is Minji Kim, by the way, for your new phone."},
            {"speaker": "Minji", "dia_id": "D1:3", "text": "I live in Busan now."},
            {"speaker": "Joon", "dia_id": "D1:4", "text": "Busan! I grew up in Gyeongju, not far."},
        ],
        "session_2_date_time": "9:00 am on 20 June, 2023",
        "session_2": [
            {"speaker": "Minji", "dia_id": "D2:1", "text": "Good morning! The sea was lovely today."},
            {"speaker": "Joon", "dia_id": "D2:2", "text": "Lucky you."},
        ],
    },
    "qa": [
        {"question": "Where does Minji live?", "answer": "Busan", "evidence": ["D1:3"], "category": 4},
        {"question": "Where did Joon grow up?", "answer": "Gyeongju", "evidence": ["D1:4"], "category": 4},
        {"question": "Is Minji a robot?", "adversarial_answer": "no", "evidence": ["D1:2"], "category": 5},
    ],
}


def with_test_credentials(monkeypatch):
    """Test credentials in the environment, and no endpoint: the stack is in-process moto."""
    for k, v in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)


def tiny_conversation(tmp_path, monkeypatch):
    """CONVERSATION as the benchmark loads a file, with test credentials in the environment."""
    with_test_credentials(monkeypatch)
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([CONVERSATION]))
    (conv,) = load_conversations(path, "file")
    return conv


@contextmanager
def in_process_stack():
    """The benchmark's in-process stack on mock_aws; the environment it sets is put back after."""
    saved = dict(os.environ)
    try:
        with mock_aws():
            yield build_stack()
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture()
def replayed(tmp_path, monkeypatch):
    conv = tiny_conversation(tmp_path, monkeypatch)
    with in_process_stack() as stack:
        result = measure(conv, stack, (300,), None)
        yield result, stack.api.export.export("recall-tiny")


def test_both_sides_real_words_are_stored_as_the_turns_rows_at_the_time_they_were_said(replayed):
    _, export = replayed
    sessions = {s.state.session_id: s.messages for s in export.sessions}
    first = sessions["recall-tiny-s1"]
    assert [(m.role, m.text) for m in first] == [
        ("visitor", OPENING_PLACEHOLDER), ("agent", "Hi Minji, long time!"),
        ("visitor", "Hi Joon! My name is Minji Kim, by the way, for your new phone.\nI live in Busan now."),
        ("agent", "Busan! I grew up in Gyeongju, not far."),
    ]
    assert first[0].at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert sessions["recall-tiny-s2"][0].at == datetime(2023, 6, 20, 9, 0, tzinfo=UTC)


def test_what_the_visitor_said_reaches_the_new_sessions_request_and_is_found_there(replayed):
    result, export = replayed
    # Learnt by the real facts consumer, from the visitor's words, with when they were said.
    home = [f for f in export.facts if "Busan" in f.statement]
    assert home and home[0].source.at == datetime(2023, 5, 8, 13, 57, tzinfo=UTC)
    # Only the visitor's question is asked: the other party's and the adversarial one are skipped.
    assert result["questions_asked"] == 1
    assert result["questions_skipped"]["other_party_evidence"] == 1 and result["questions_skipped"]["adversarial"] == 1
    row = result["per_question"][0]
    assert row["convmem"]["present"] and row["convmem"]["tokens"] > 0
    assert row["convmem_total_tokens"] > row["convmem"]["tokens"]
    assert row["whole"]["present"] and row["bm25@300"]["present"]
    assert row["stored"]["present"]  # everything kept of the person holds it too
    assert not row["window"]["present"]  # the last session never mentioned it
    # A question is its own new session: its turn wrote two rows and taught nothing.
    assert len(export.facts) == result["facts_stored"]
    assert result["other_party_facts"]["value"] == 0


@pytest.mark.parametrize("name", ["en_nilda_marisol", "ko_hwasun_yeongae"])
def test_the_domain_replay_finds_what_the_services_replay_finds(name, monkeypatch):
    # bench.recall_domain (a minute for the set) stands in for the hour-long bench while rules are
    # made: on real conversations it must find each answer exactly where the services' replay does.
    from bench.recall import PROJECT_SET
    from bench.recall_domain import found, learn

    with_test_credentials(monkeypatch)
    (conv,) = load_conversations(PROJECT_SET / f"{name}.json", "project")
    with in_process_stack() as stack:
        services = [row["convmem"]["present"] for row in measure(conv, stack, (300,), 4)["per_question"]]
    domain = found(conv, *learn(conv, 4), 4)
    assert len(services) >= 10 and any(services) and not all(services)
    assert domain == services
