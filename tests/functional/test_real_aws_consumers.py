"""The fold and facts consumers with a real model's call times (issue 14, item 15).

On Lambda, an invocation that reaches its timeout is killed: none of its batch is reported,
every record comes back (successes too) and counts a receive towards the DLQ. moto and the
local model are instant, so no test here ever saw it. A fake clock stands in for a slow model
(a throttled Bedrock, retries within the model's deadline): the handler must stop starting
jobs while one still fits and report the rest as failures, keeping FIFO order per group."""

from __future__ import annotations

import pytest
from convmem.adapters.local_model import LocalModel
from convmem.adapters.sqs_jobs import encode
from convmem.composition import build_facts, build_fold
from convmem.ports import FactsJob, FoldJob
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from tests.functional.conftest import load_event

SLOW_CALL_S = {"FoldFunction": 40.0, "FactsFunction": 60.0}


class SlowModel(LocalModel):
    """The local model's answers, each taking ``call_s`` of the invocation's (fake) time."""

    def __init__(self, call_s: float) -> None:
        self.now = 0.0
        self.call_s = call_s
        self.calls = 0

    def _spend(self) -> None:
        self.calls += 1
        self.now += self.call_s

    def fold_summary(self, old, messages, cap):
        self._spend()
        return super().fold_summary(old, messages, cap)

    def extract_facts(self, visitor_message, said_at=None, previous=None, theirs=(), called=()):
        self._spend()
        return super().extract_facts(visitor_message, said_at, previous, theirs, called)


def record(kind: str, group: str, user: str, session: str, seq: int, message_id: str) -> dict:
    name, job = (("fold_job.json", FoldJob(session_id=session, user_id=user, through_seq=seq)) if kind == "FoldFunction"
                 else ("facts_job.json", FactsJob(user_id=user, session_id=session, visitor_seq=seq)))
    rec = load_event(name)["Records"][0]
    rec.update(body=encode(job), messageId=message_id)
    rec["attributes"]["MessageGroupId"] = group
    return rec


@pytest.fixture(params=["FoldFunction", "FactsFunction"])
def consumer(request, aws, api_env, settings, services):
    """(records of one batch, invoke) for one consumer: one job per user, then a second job of
    the first group at the tail, so the batch holds more than fits in one invocation's time."""
    logical = request.param
    template, resolver = aws
    module, name = load_module(template, logical, resolver)
    model = SlowModel(SLOW_CALL_S[logical])
    module.service = lambda: (build_fold if logical == "FoldFunction" else build_facts)(settings, model=model)
    records = []
    for i in range(10):
        user, session = f"u{i}", f"s{i}"
        turns = 8 if logical == "FoldFunction" else 1  # 16 messages leave 4 to fold
        for t in range(turns):
            services.turns.take_turn(user, session, TurnInput(message=f"I live in Busan ({t})" if t == 0 else f"small talk {t}"))
        group = session if logical == "FoldFunction" else user
        records.append(record(logical, group, user, session, 4 if logical == "FoldFunction" else 1, f"{logical}-{i}"))
    tail = record(logical, records[0]["attributes"]["MessageGroupId"], "u0", "s0", 4 if logical == "FoldFunction" else 1, "tail")
    records.append(tail)

    def invoke(batch):
        context = LambdaContext(logical, clock=lambda: model.now)
        out = getattr(module, name)({"Records": batch}, context)
        return out, context

    invoke.model = model
    return records, invoke


def test_a_slow_batch_stops_before_the_timeout_and_reports_its_tail_as_failures(consumer):
    records, invoke = consumer
    model = invoke.model

    result, context = invoke(records)

    failed = [f["itemIdentifier"] for f in result["batchItemFailures"]]
    ids = [r["messageId"] for r in records]
    # Lambda would have killed the invocation at its timeout, losing every record's outcome.
    assert model.now <= context.timeout_s, f"ran {model.now} s of a {context.timeout_s} s function"
    assert failed, "the batch needs more time than the function has: its tail must come back"
    # The failures are the batch's tail, so no message ran after an earlier one of its group failed.
    assert failed == ids[len(ids) - len(failed):]
    assert "tail" in failed
    # Redelivered (as after the visibility timeout, in a new invocation), the rest is done.
    model.now = 0.0
    again, _ = invoke([r for r in records if r["messageId"] in failed])
    assert again == {"batchItemFailures": []}

