"""Fault injection under moto: failures injected at the HTTP layer of the real boto3 clients the
functions use (so botocore's own retries see them), and crashes inside the consumers.

Every case checks what a user would notice: the status, that nothing was written when the
turn failed, and that nothing is lost or doubled afterwards."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import boto3
import pytest
from botocore.awsrequest import AWSResponse
from convmem.adapters.local_model import LocalModel
from convmem.adapters.sqs_jobs import encode
from convmem.composition import aws_client, build_api, build_facts, build_fold
from convmem.domain.summary_fold import covered_seqs
from convmem.errors import DependencyUnavailableError
from convmem.ports import FactsJob, FoldJob
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from tests.concurrency import run_together
from tests.functional.conftest import load_event, scan_all

USER, SESSION = "sample-user", "sample-session"


class _Raw:
    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, **_kw):
        yield self._body


class Faults:
    """Answers chosen calls of a client with an error response before they are sent."""

    def __init__(self, client) -> None:
        self.client = client
        self.rules: list[dict] = []
        self.injected = 0
        client.meta.events.register_first("before-send", self._send)

    def fail(self, operation: str, code: str, status: int = 400, times: int = 1,
             when: Callable[[dict], bool] = lambda body: True) -> Faults:
        self.rules.append({"operation": operation, "code": code, "status": status, "left": times, "when": when})
        return self

    def _send(self, request, event_name: str, **_kw):
        operation = event_name.rsplit(".", 1)[-1]
        body = json.loads(request.body or b"{}") if request.body else {}
        for rule in self.rules:
            if rule["operation"] == operation and rule["left"] and rule["when"](body):
                rule["left"] -= 1
                self.injected += 1
                # botocore still emits before-send to moto's handler after this one (it takes the
                # first response, but calls them all): point the request nowhere moto serves, so
                # the failed call has no side effect - as a real throttled call has none.
                request.url = "https://fault-injected.invalid/"
                payload = json.dumps({"__type": rule["code"], "message": f"injected {rule['code']}"}).encode()
                return AWSResponse(request.url, rule["status"], {"x-amzn-ErrorType": rule["code"]}, _Raw(payload))
        return None


@pytest.fixture()
def clients():
    return {name: aws_client(name) for name in ("dynamodb", "kms", "sqs", "secretsmanager")}


@pytest.fixture()
def fast_retries(monkeypatch):
    """botocore's real retry logic, without its real sleeps (up to seconds each)."""
    import botocore.retries.standard as standard

    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, ctx: 0.001)


def conversation_items(resolver):
    return [i for i in scan_all(resolver) if "PK" in i and not i["PK"]["S"].startswith("USER#")]


def say(services, text, session=SESSION, **kw):
    return services.turns.take_turn(USER, session, TurnInput(message=text, **kw))


def test_a_throttled_commit_is_retried_and_lands_once(aws, settings, clients, fast_retries):
    services = build_api(settings, clients=clients)
    say(services, "warm up")
    faults = Faults(clients["dynamodb"]).fail("TransactWriteItems", "ThrottlingException", times=2)
    result = say(services, "second turn")
    assert faults.injected == 2 and (result.visitor_seq, result.agent_seq) == (3, 4)
    msgs = services.sessions.transcript(USER, SESSION).messages
    assert [m.seq for m in msgs] == [1, 2, 3, 4]


def test_a_commit_throttled_past_its_retries_is_503_and_writes_nothing(aws, settings, clients, fast_retries):
    template, resolver = aws
    services = build_api(settings, clients=clients)
    say(services, "warm up")
    before = scan_all(resolver)
    Faults(clients["dynamodb"]).fail("TransactWriteItems", "ProvisionedThroughputExceededException", times=10)
    with pytest.raises(DependencyUnavailableError) as err:
        say(services, "this one fails", clientTurnId="ct-1")
    assert err.value.code == "storage_throttled"
    assert scan_all(resolver) == before  # no rows, no idempotency record left behind
    clients["dynamodb"].meta.events.unregister("before-send", Faults._send)
    retry = build_api(settings).turns.take_turn(USER, SESSION, TurnInput(message="this one fails", clientTurnId="ct-1"))
    assert retry.visitor_seq == 3


def test_dynamodb_5xx_on_the_read_is_retried(aws, settings, clients, fast_retries):
    services = build_api(settings, clients=clients)
    faults = Faults(clients["dynamodb"]).fail("Query", "InternalServerError", status=500, times=1)
    assert say(services, "hello").visitor_seq == 1 and faults.injected == 1


@pytest.mark.parametrize(("service", "operation", "code", "when"), [
    ("kms", "GenerateDataKeyWithoutPlaintext", "KMSInternalException", None),
    ("kms", "ReEncrypt", "DependencyTimeoutException", None),
    ("dynamodb", "GetItem", "InternalServerError", "KeyStoreTable"),
    ("dynamodb", "TransactWriteItems", "InternalServerError", "KeyStoreTable"),
])
def test_a_new_users_key_cannot_be_made_503_and_nothing_written(aws, settings, clients, fast_retries, service, operation, code, when):
    template, resolver = aws
    services = build_api(settings, clients=clients)
    before = scan_all(resolver)
    match = (lambda body: when in json.dumps(body)) if when else (lambda body: True)
    Faults(clients[service]).fail(operation, code, status=500, times=100, when=match)
    with pytest.raises(DependencyUnavailableError) as err:
        say(services, "my first message")
    assert err.value.code == "kms_unavailable"
    assert conversation_items(resolver) == [i for i in before if not i["PK"]["S"].startswith("USER#")]
    assert [i for i in scan_all(resolver) if i.get("PK", {}).get("S", "").startswith("SESSION#")] == []


def test_kms_down_when_the_key_is_not_cached_is_503_and_nothing_written(aws, settings, clients, fast_retries):
    template, resolver = aws
    say(build_api(settings), "created under another instance")
    before = scan_all(resolver)
    services = build_api(settings, clients=clients)  # a fresh instance: nothing cached
    Faults(clients["kms"]).fail("Decrypt", "KMSInternalException", status=500, times=100)
    with pytest.raises(DependencyUnavailableError):
        say(services, "second message")
    assert scan_all(resolver) == before


def test_secrets_down_is_503(aws, api_env, clients, fast_retries, settings):
    template, resolver = aws
    module, name = load_module(template, "ApiFunction", resolver)
    module.services = lambda: build_api(settings, clients=clients)
    Faults(clients["secretsmanager"]).fail("GetSecretValue", "InternalServiceError", status=500, times=100)
    out = getattr(module, name)(load_event("api_turn.json"), LambdaContext("ApiFunction"))
    assert out["statusCode"] == 503 and json.loads(out["body"])["error"]["code"] == "secrets_unavailable"
    assert [i for i in scan_all(resolver) if i.get("PK", {}).get("S", "").startswith("SESSION#")] == []


def test_a_lost_fold_job_is_caught_up_by_the_next_one(aws, settings, clients, fast_retries):
    template, resolver = aws
    services = build_api(settings, clients=clients)
    for i in range(6):
        say(services, f"turn {i} order ZX-{100 + i}")  # 12 messages: the window, no fold yet
    faults = Faults(clients["sqs"]).fail("SendMessage", "InternalError", status=500, times=100,
                                         when=lambda body: "FoldQueue" in body.get("QueueUrl", ""))
    lost = say(services, "turn 6 order ZX-106")  # the fold job for seqs 1-2 cannot be sent
    assert lost.visitor_seq == 13 and faults.injected >= 1
    clients["sqs"].meta.events.unregister("before-send", Faults._send)
    faults.rules.clear()
    say(services, "turn 7 order ZX-107")  # its job covers 1-4
    sqs = boto3.client("sqs")
    jobs = sqs.receive_message(QueueUrl=resolver.refs["FoldQueue"], MaxNumberOfMessages=10)["Messages"]
    assert [json.loads(j["Body"])["throughSeq"] for j in jobs] == [4]
    fold = build_fold(settings, model=LocalModel())
    fold.fold(SESSION, USER, 4)
    summary = services.sessions.get_session(USER, SESSION).summary
    assert covered_seqs(summary) == [1, 2, 3, 4] and "ZX-100" in summary


def test_a_lost_facts_job_is_caught_up_by_the_next_one(aws, settings, clients, fast_retries):
    template, resolver = aws
    services = build_api(settings, clients=clients)
    Faults(clients["sqs"]).fail("SendMessage", "InternalError", status=500, times=100,
                                when=lambda body: "FactsQueue" in body.get("QueueUrl", ""))
    assert say(services, "My name is Minji").visitor_seq == 1  # the turn succeeds; its facts job is lost
    clients["sqs"].meta.events.unregister("before-send", Faults._send)
    say(services, "I live in Busan")
    build_facts(settings).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=3))
    assert {f.key for f in services.facts.list_facts(USER)} == {"name", "home.location"}


def test_any_model_failure_is_503_and_writes_nothing(aws, settings):
    template, resolver = aws

    class Broken(LocalModel):
        def reply(self, request):
            raise RuntimeError("segfault-ish")

    services = build_api(settings)
    services.turns._model = Broken()  # noqa: SLF001
    with pytest.raises(DependencyUnavailableError) as err:
        say(services, "hello", clientTurnId="ct-9")
    assert err.value.code == "model_unavailable"
    assert [i for i in scan_all(resolver) if i.get("PK", {}).get("S", "").startswith("SESSION#")] == []


def _fold_fn(aws, settings, fail_session=None):
    template, resolver = aws
    module, name = load_module(template, "FoldFunction", resolver)

    class Crashing(LocalModel):
        def fold_summary(self, old, messages, cap):
            if fail_session and any(f"[{fail_session}]" in m.text for m in messages):
                raise RuntimeError("crash mid-batch")
            return super().fold_summary(old, messages, cap)

    module.service = lambda: build_fold(settings, model=Crashing())
    return lambda event: getattr(module, name)(event, LambdaContext("FoldFunction"))


def _fold_event(jobs):
    base = load_event("fold_job.json")
    template = base["Records"][0]
    records = []
    for i, (session, through) in enumerate(jobs):
        r = json.loads(json.dumps(template))
        r["messageId"] = f"m-{i}"
        r["body"] = encode(FoldJob(session_id=session, user_id=USER, through_seq=through))
        r["attributes"]["MessageGroupId"] = session
        records.append(r)
    return {"Records": records}


def test_a_fold_crashing_mid_batch_retries_only_the_unfinished_jobs(aws, settings):
    services = build_api(settings)
    for s in ("s-1", "s-2", "s-3"):
        for i in range(8):
            say(services, f"[{s}] message {i}", session=s)
    event = _fold_event([("s-1", 4), ("s-2", 4), ("s-3", 4)])
    result = _fold_fn(aws, settings, fail_session="s-2")(event)
    assert [f["itemIdentifier"] for f in result["batchItemFailures"]] == ["m-1"]
    cursors = {s: services.sessions.get_session(USER, s).state.summarized_through for s in ("s-1", "s-2", "s-3")}
    assert cursors == {"s-1": 4, "s-2": 0, "s-3": 4}
    # The retry, or a whole redelivery after a real crash: done jobs are no-ops, nothing twice.
    assert _fold_fn(aws, settings)(event) == {"batchItemFailures": []}
    for s in ("s-1", "s-2", "s-3"):
        view = services.sessions.get_session(USER, s)
        assert view.state.summarized_through == 4 and covered_seqs(view.summary) == [1, 2, 3, 4]


def test_a_facts_consumer_crashing_mid_batch_retries_only_the_unfinished_jobs(aws, settings):
    template, resolver = aws
    services = build_api(settings)
    say(services, "I live in Busan", session="a")
    say(services, "My name is Minji", session="b")
    module, name = load_module(template, "FactsFunction", resolver)

    class Crashing(LocalModel):
        def extract_facts(self, text, said_at=None, previous=None, theirs=(), called=()):
            if "Minji" in text and not getattr(self, "healed", False):
                raise RuntimeError("crash")
            return super().extract_facts(text, said_at, previous, theirs, called)

    model = Crashing()
    module.service = lambda: build_facts(settings, model=model)
    base = load_event("facts_job.json")["Records"][0]
    records = []
    for i, session in enumerate(["a", "b"]):
        r = json.loads(json.dumps(base))
        r["messageId"], r["body"] = f"f-{i}", encode(FactsJob(user_id=USER, session_id=session, visitor_seq=1))
        r["attributes"]["MessageGroupId"] = f"{USER}-{session}"  # separate groups, so one does not hold the other
        records.append(r)
    result = getattr(module, name)({"Records": records}, LambdaContext("FactsFunction"))
    assert [f["itemIdentifier"] for f in result["batchItemFailures"]] == ["f-1"]
    assert {f.key for f in services.facts.list_facts(USER)} == {"home.location"}
    model.healed = True
    assert getattr(module, name)({"Records": records}, LambdaContext("FactsFunction")) == {"batchItemFailures": []}
    facts = services.facts.list_facts(USER)
    assert sorted(f.key for f in facts) == ["home.location", "name"] and all(not f.history for f in facts)


def test_the_same_client_turn_id_at_once_asks_the_model_once(aws, settings):
    calls: list[str] = []

    class Slow(LocalModel):
        def reply(self, request):
            calls.append(request.current)
            time.sleep(0.3)
            return super().reply(request)

    services = build_api(settings)
    services.turns._model = Slow()  # noqa: SLF001
    outcomes: list[object] = []

    def send():
        try:
            outcomes.append(say(services, "only once", clientTurnId="same-id"))
        except Exception as exc:  # noqa: BLE001
            outcomes.append(exc)

    assert run_together(send, [(), ()]) == []
    assert calls == ["only once"]
    kinds = sorted(type(o).__name__ for o in outcomes)
    assert kinds in (["TurnInProgressError", "TurnResult"], ["TurnResult", "TurnResult"])
    assert [m.seq for m in services.sessions.transcript(USER, SESSION).messages] == [1, 2]
