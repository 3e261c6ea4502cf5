"""Job bodies are written and read in one module (adapters/sqs_jobs.py): what the turn path and the
profile tick send is exactly what the consumers read, and a body never carries conversation text."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from convmem.adapters.sqs_jobs import (
    EraseJob,
    ProfileJob,
    decode_erase,
    decode_facts,
    decode_fold,
    decode_profile,
    encode,
)
from convmem.ports import FactsJob, FoldJob

JOBS = [
    (FoldJob(session_id="s-1", user_id="u:1", through_seq=16), decode_fold),
    (FactsJob(user_id="u:1", session_id="s-1", visitor_seq=27), decode_facts),
    (EraseJob(user_id="u:1", erasure_id="e-9", attempt=2), decode_erase),
    (ProfileJob(user_id="u:1", active_at=datetime(2026, 12, 3, 5, 41, 4, tzinfo=UTC)), decode_profile),
]


@pytest.mark.parametrize(("job", "decode"), JOBS, ids=lambda x: type(x).__name__)
def test_every_job_reads_back_as_it_was_sent(job, decode):
    assert decode(encode(job)) == job


def test_bodies_are_ids_counters_and_times_in_the_documented_shape():
    shapes = [set(json.loads(encode(job))) for job, _ in JOBS]
    assert shapes == [{"sessionId", "userId", "throughSeq"}, {"userId", "sessionId", "visitorSeq"},
                      {"userId", "erasureId", "attempt"}, {"userId", "activeAt"}]


def test_an_erasure_job_sent_before_erasures_had_ids_still_reads():
    assert decode_erase('{"userId":"u:1"}') == EraseJob(user_id="u:1", erasure_id="", attempt=1)


@pytest.mark.parametrize("body", ['{"userId":"u:1"}', "not json", '{"sessionId":"s","userId":"u","throughSeq":"x"}'])
def test_a_malformed_body_raises_so_its_record_fails_alone(body):
    with pytest.raises((ValueError, KeyError, TypeError)):
        decode_fold(body)
