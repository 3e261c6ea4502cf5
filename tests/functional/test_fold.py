"""The fold consumer under moto: exactly-once folding behind the cursor, duplicates, races, failures."""

from __future__ import annotations

import copy
import json

import boto3
import pytest
from convmem.adapters.sqs_jobs import _dedup_id, encode
from convmem.composition import build_fold
from convmem.domain.summary_fold import covered_seqs
from convmem.ports import FoldJob
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from local.pollers import EventSource, QueuePoller
from tests.fakes import CountingModel
from tests.functional.conftest import load_event

USER, SESSION = "sample-user", "sample-session"


@pytest.fixture()
def fold_fn(aws, api_env, settings):
    """The fold function as Lambda loads it, with a counting model injected into its service."""
    template, resolver = aws
    module, name = load_module(template, "FoldFunction", resolver)
    model = CountingModel()
    module.service = lambda: build_fold(settings, model=model)

    def invoke(event):
        return getattr(module, name)(event, LambdaContext("FoldFunction"))

    invoke.model = model
    return invoke


def converse(services, turns: int, session=SESSION, first="My order number is ZX-40917, please refund $45."):
    for i in range(turns):
        services.turns.take_turn(USER, session, TurnInput(message=first if i == 0 else f"turn {i} small talk"))


def job(through: int, session=SESSION, message_id="m-1") -> dict:
    event = load_event("fold_job.json")
    rec = event["Records"][0]
    rec["body"] = encode(FoldJob(session_id=session, user_id=USER, through_seq=through))
    rec["messageId"] = message_id
    rec["attributes"]["MessageGroupId"] = session
    return event


def state(services, session=SESSION):
    return services.sessions.get_session(USER, session)


def test_a_fold_moves_the_cursor_and_the_next_turn_carries_the_summary(services, fold_fn):
    converse(services, 8)  # 16 messages: 4 beyond the window
    assert fold_fn(load_event("fold_job.json")) == {"batchItemFailures": []}
    view = state(services)
    assert view.state.summarized_through == 4 and "ZX-40917" in view.summary
    assert covered_seqs(view.summary) == [1, 2, 3, 4]
    result = services.turns.take_turn(USER, SESSION, TurnInput(message="and now?"))
    assert result.context.summary_tokens > 0
    assert (result.context.window_messages, result.context.pending_messages) == (12, 0)


def test_the_turn_path_enqueues_ids_only_jobs(services, settings):
    converse(services, 8, first="canary-text-77 in the first message")
    sqs = boto3.client("sqs")
    got = sqs.receive_message(QueueUrl=settings.fold_queue_url, MaxNumberOfMessages=10, AttributeNames=["All"])["Messages"]
    bodies = [json.loads(m["Body"]) for m in got]
    assert {b["throughSeq"] for b in bodies} == {2, 4}
    assert all(set(b) == {"sessionId", "userId", "throughSeq"} for b in bodies)
    assert all("canary" not in m["Body"] for m in got)
    # One FIFO group per (user, session): another user's session of this id never shares it
    assert {m["Attributes"]["MessageGroupId"] for m in got} == {_dedup_id(USER, SESSION)}


def test_a_duplicate_delivery_folds_nothing_twice(services, fold_fn):
    converse(services, 8)
    fold_fn(job(4))
    fold_fn(job(4, message_id="m-2"))
    assert fold_fn.model.folded == [1, 2, 3, 4]
    assert covered_seqs(state(services).summary) == [1, 2, 3, 4]


def test_several_jobs_of_one_session_in_a_batch_fold_once_to_the_highest(services, fold_fn):
    converse(services, 9)  # 18 messages: through 6
    batch = job(2)
    for i, through in enumerate((4, 6)):
        rec = copy.deepcopy(job(through)["Records"][0])
        rec["messageId"] = f"m-{i + 5}"
        batch["Records"].append(rec)
    assert fold_fn(batch) == {"batchItemFailures": []}
    assert fold_fn.model.folded == [1, 2, 3, 4, 5, 6]
    assert state(services).state.summarized_through == 6


def test_a_crash_between_read_and_write_is_retried_and_folds_once(services, fold_fn):
    converse(services, 8)
    fold_fn.model.fail = 1
    assert fold_fn(job(4)) == {"batchItemFailures": [{"itemIdentifier": "m-1"}]}
    assert state(services).state.summarized_through == 0
    assert fold_fn(job(4)) == {"batchItemFailures": []}
    assert covered_seqs(state(services).summary) == [1, 2, 3, 4]


def test_a_failing_summarizer_ends_in_the_dlq_and_turns_keep_working(aws, services, settings, fold_fn):
    template, resolver = aws
    converse(services, 8)  # two jobs were enqueued for real
    fold_fn.model.fail = 10**6
    sqs = boto3.client("sqs")
    poller = QueuePoller(EventSource("FoldFunction", "FoldQueue", 10), resolver, lambda e, c: fold_fn(e), sqs)
    poller.retry_after = 0
    for _ in range(8):
        poller.poll_once()
    dlq = resolver.refs["FoldDeadLetterQueue"]
    dead = sqs.receive_message(QueueUrl=dlq, MaxNumberOfMessages=10)["Messages"]
    assert {json.loads(m["Body"])["throughSeq"] for m in dead} >= {2}
    result = services.turns.take_turn(USER, SESSION, TurnInput(message="still here?"))
    assert result.visitor_seq == 17 and result.context.pending_messages == 4  # nothing in the gap
