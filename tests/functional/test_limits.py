"""Limits per caller (issue 15, item 4): a user's turns, and new visitors per source address.

Driven through the api function as API Gateway (and the local stack, whose event builder is used)
calls it, under moto, with the limits set as template parameters and a clock the test moves."""

from __future__ import annotations

import dataclasses
import json
import os
from datetime import UTC, datetime

import boto3
import pytest
from convmem.adapters.local_model import LocalModel
from convmem.domain.rate_limits import Counted
from convmem.errors import RateLimitedError
from convmem.service.turn import TurnInput

from local.apigw import to_event
from local.lambda_runtime import LambdaContext, load_module
from tests.concurrency import run_together
from tests.functional.conftest import API_KEY, CallCounter, scan_all
from tests.functional.test_turn_service import SerialClient

T0 = 1_800_000_000.0  # a window edge for every window length used here
LIMITS = {"TurnLimit": "3", "TurnLimitWindowSeconds": "60", "TurnBurstLimit": "0",
          "VisitorLimit": "2", "VisitorLimitWindowSeconds": "3600", "VisitorBurstLimit": "0", "LimitBurstSeconds": "10"}


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.t, UTC)


class CountingModel(LocalModel):
    def __init__(self) -> None:
        super().__init__()
        self.replies = 0

    def reply(self, request):
        self.replies += 1
        return super().reply(request)


class Api:
    """The api function with the template's environment under ``limits``, its services built on
    a clock the test moves (the handler is the one module Lambda and the local stack import)."""

    def __init__(self, aws, monkeypatch, limits: dict[str, str]) -> None:
        from convmem.composition import build_api
        from convmem.settings import Settings

        template, resolver = aws
        resolver.overrides.update(limits)
        module, func = load_module(template, "ApiFunction", resolver)
        for k in list(os.environ):  # load_module set the function's environment: undo it after the test
            monkeypatch.setenv(k, os.environ[k])
        self.clock, self.model, self.counter = Clock(T0 + 5), CountingModel(), CallCounter()
        self.settings = Settings.from_env(dict(os.environ))
        clients = {n: self.counter.attach(boto3.client(n)) for n in ("dynamodb", "kms", "secretsmanager", "sqs")}
        self.services = build_api(self.settings, clients=clients, clock=self.clock, model=self.model)
        monkeypatch.setattr(module, "services", lambda: self.services)
        self._fn = getattr(module, func)

    def __call__(self, event: dict) -> tuple[int, dict, dict | None]:
        out = self._fn(event, LambdaContext("ApiFunction"))
        return out["statusCode"], {k.lower(): v for k, v in (out.get("headers") or {}).items()}, (
            json.loads(out["body"]) if out.get("body") else None)

    def turn(self, user: str, session: str, message: str = "Hello there", **body) -> tuple[int, dict, dict | None]:
        headers = [("x-api-key", API_KEY), ("x-user-id", user), ("content-type", "application/json")]
        payload = json.dumps({"message": message, **body}).encode()
        return self(to_event("POST", f"/v1/sessions/{session}/turns", headers, payload, "127.0.0.1"))

    def new_visitor(self, address: str) -> tuple[int, dict, dict | None]:
        return self(to_event("POST", "/v1/visitors", [("host", "127.0.0.1:3000")], b"", address))


@pytest.fixture()
def api(aws, monkeypatch) -> Api:
    return Api(aws, monkeypatch, LIMITS)


def counters(aws) -> list[dict]:
    return [i for i in scan_all(aws[1]) if i.get("SK", {}).get("S", "").startswith("LIMIT#")]


# --- turns per user ---------------------------------------------------------------------------
def test_the_turn_after_the_limit_is_429_with_retry_after_and_writes_nothing(api, aws):
    for i in range(3):  # three sessions: the limit is the user's, not a session's
        assert api.turn("alice", f"s-{i}")[0] == 200
    before, replies = scan_all(aws[1]), api.model.replies
    api.clock.t = T0 + 17.2
    status, headers, body = api.turn("alice", "s-9", clientTurnId="t-9")
    assert status == 429
    assert headers["retry-after"] == "43"  # the window (T0, T0 + 60) frees in 42.8 s
    assert body["error"]["code"] == "rate_limited" and set(body["error"]) == {"code", "message"}
    assert scan_all(aws[1]) == before  # no rows, no state, no claim of t-9, no count
    assert api.model.replies == replies  # refused before the model was asked


def test_another_user_is_not_limited_by_a_user_who_spent_theirs(api):
    for _ in range(3):
        api.turn("alice", "s-1")
    assert api.turn("alice", "s-1")[0] == 429
    assert [api.turn("bob", "b-1")[0] for _ in range(3)] == [200, 200, 200]


def test_the_window_frees_when_its_time_has_passed(api):
    for _ in range(3):
        api.turn("alice", "s-1")
    api.clock.t = T0 + 59.5
    status, headers, _ = api.turn("alice", "s-1")
    assert (status, headers["retry-after"]) == (429, "1")
    api.clock.t = T0 + 60
    assert [api.turn("alice", "s-1")[0] for _ in range(4)] == [200, 200, 200, 429]
    # The transcript holds exactly the six granted turns.
    assert api.services.sessions.get_session("alice", "s-1").state.message_count == 12


def test_the_burst_cap_refuses_until_its_slice_ends(aws, monkeypatch):
    api = Api(aws, monkeypatch, {**LIMITS, "TurnLimit": "10", "TurnBurstLimit": "2"})
    api.clock.t = T0 + 21
    assert [api.turn("alice", "s-1")[0] for _ in range(2)] == [200, 200]
    status, headers, _ = api.turn("alice", "s-1")
    assert (status, headers["retry-after"]) == (429, "9")  # the slice [T0+20, T0+30) ends in 9 s
    api.clock.t = T0 + 30
    assert api.turn("alice", "s-1")[0] == 200


def test_a_replayed_client_turn_id_is_answered_again_without_being_counted(api):
    first = api.turn("alice", "s-1", "Order A-1042 please", clientTurnId="c-1")
    assert first[0] == 200
    replays = [api.turn("alice", "s-1", "Order A-1042 please", clientTurnId="c-1") for _ in range(4)]
    assert all(r[0] == 200 and r[2] == first[2] for r in replays)
    assert [api.turn("alice", "s-1")[0] for _ in range(3)] == [200, 200, 429]


def test_a_warm_turn_still_makes_one_query_one_batch_get_and_one_transaction(api, aws):
    api.turn("alice", "s-1", "first turn creates the key")
    api.turn("alice", "s-1", "second turn decrypts the first")
    api.counter.reset()
    assert api.turn("alice", "s-1", "a warm turn")[0] == 200
    assert dict(api.counter.calls) == {
        "dynamodb.Query": 1, "dynamodb.BatchGetItem": 1, "dynamodb.TransactWriteItems": 1, "sqs.SendMessage": 1}
    (item,) = counters(aws)  # and the turn was counted in that transaction
    assert item["PK"]["S"] == "USER#alice" and item["n"]["N"] == "3" and int(item["expiresAt"]["N"]) > T0 + 60


def test_concurrent_turns_that_all_read_a_free_window_still_get_only_the_limit_through(api, aws, monkeypatch):
    from convmem.composition import build_api

    services = build_api(api.settings, clients={"dynamodb": SerialClient(boto3.client("dynamodb"))},
                         clock=api.clock, model=api.model)
    store = services.turns._store
    read = store.load_user_memory

    def stale(user_id, turn_slot=None):  # every turn read the window before any committed: the worst race
        return dataclasses.replace(read(user_id, turn_slot), turns_counted=Counted())

    monkeypatch.setattr(store, "load_user_memory", stale)
    outcomes: list[str] = []

    def one(i: int) -> None:
        try:
            services.turns.take_turn("alice", f"race-{i}", TurnInput(message=f"concurrent {i}"))
            outcomes.append("ok")
        except RateLimitedError as exc:
            outcomes.append(f"429 after {exc.retry_after_s}")

    assert run_together(one, [(i,) for i in range(8)]) == []
    assert outcomes.count("ok") == 3 and len(outcomes) == 8
    assert all(o == "429 after 55" for o in outcomes if o != "ok")  # refused by the commit's condition
    assert sum(1 for i in scan_all(aws[1]) if i.get("SK", {}).get("S", "").startswith("MSG#")) == 3 * 2
    assert counters(aws)[0]["n"]["N"] == "3"


def test_limits_off_write_no_counter(aws, monkeypatch):
    api = Api(aws, monkeypatch, {**LIMITS, "TurnLimit": "0", "VisitorLimit": "0"})
    assert [api.turn("alice", "s-1")[0] for _ in range(5)] == [200] * 5
    assert [api.new_visitor("203.0.113.7")[0] for _ in range(5)] == [201] * 5
    assert counters(aws) == []


# --- new visitors per source address ---------------------------------------------------------------
def test_new_visitors_from_one_address_are_limited_and_other_addresses_are_not(api, aws):
    assert [api.new_visitor("203.0.113.7")[0] for _ in range(2)] == [201, 201]
    before = scan_all(aws[1])
    status, headers, body = api.new_visitor("203.0.113.7")
    assert status == 429 and body["error"]["code"] == "rate_limited" and "token" not in body
    assert headers["retry-after"] == str(3600 - 5)
    assert scan_all(aws[1]) == before
    assert api.new_visitor("198.51.100.20")[0] == 201
    # One IPv6 subscriber (one /64) is one source, whichever of its addresses it uses.
    assert [api.new_visitor(f"2001:db8:7:7::{i}")[0] for i in range(1, 4)] == [201, 201, 429]


def test_the_visitor_window_frees_and_the_address_is_never_stored(api, aws):
    for _ in range(3):
        api.new_visitor("203.0.113.7")
    api.clock.t = T0 + 3600
    assert api.new_visitor("203.0.113.7")[0] == 201
    stored = json.dumps(scan_all(aws[1]))
    assert "203.0.113.7" not in stored and "203.0.113" not in stored
    sources = [i for i in counters(aws) if i["PK"]["S"].startswith("SOURCE#")]
    assert len(sources) == 2 and all(int(i["expiresAt"]["N"]) > int(i["SK"]["S"].rsplit("#", 1)[1]) for i in sources)
    assert all(len(i["PK"]["S"]) == len("SOURCE#") + 32 for i in sources)  # a keyed hash


def test_the_openapi_document_states_the_429_and_its_retry_after(api):
    status, _, doc = api(to_event("GET", "/v1/openapi.json", [], b"", "127.0.0.1"))
    for path, method in (("/v1/visitors", "post"), ("/v1/sessions/{sessionId}/turns", "post")):
        refused = doc["paths"][path][method]["responses"]["429"]
        assert "Retry-After" in refused["headers"] and "rate_limited" in refused["description"]
