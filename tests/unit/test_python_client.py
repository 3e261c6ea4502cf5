"""The Python client's retries, errors and auth over httpx.MockTransport (no sockets)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
from convmem_client import (
    AuthenticationError,
    ConflictError,
    ConverseContext,
    ConvmemClient,
    ConvmemConnectionError,
    NotFoundError,
    RateLimitedError,
    UnavailableError,
)

URL = "http://convmem.test"


def error(status: int, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": f"because {code}"}}, headers=headers)


EXCHANGE_OK = httpx.Response(201, json={"sessionId": "s-1", "visitorSeq": 1, "agentSeq": 2})


class Script:
    """A MockTransport handler answering from a list, recording every request."""

    def __init__(self, *answers: httpx.Response | Exception) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def bodies(self) -> list[dict]:
        return [json.loads(r.content) for r in self.requests]


def client_for(script: Script, sleeps: list[float], **kwargs) -> ConvmemClient:
    kwargs.setdefault("api_key", "k")
    kwargs.setdefault("user_id", "alice")
    return ConvmemClient(URL, transport=httpx.MockTransport(script), sleep=sleeps.append, **kwargs)


def test_a_throttled_exchange_is_sent_again_after_retry_after_with_the_same_client_turn_id():
    script = Script(error(429, "rate_limited", {"Retry-After": "2"}), error(503, "unavailable"), EXCHANGE_OK)
    sleeps: list[float] = []

    stored = client_for(script, sleeps).exchange("s-1", visitor="hi", agent="hello")

    assert (stored.visitor_seq, stored.agent_seq) == (1, 2)
    assert len(script.requests) == 3
    turn_ids = {b["clientTurnId"] for b in script.bodies()}
    assert len(turn_ids) == 1 and next(iter(turn_ids)), "every attempt must carry the same clientTurnId"
    assert sleeps[0] == 2.0  # the API's Retry-After, not a guess
    assert 0 < sleeps[1] <= 30


def test_a_connection_error_is_retried_and_a_409_in_progress_waits_for_the_first_attempt():
    script = Script(httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), error(409, "turn_in_progress"),
                    httpx.Response(200, json={"sessionId": "s-1", "turnId": "t", "reply": "ok", "visitorSeq": 1,
                                              "agentSeq": 2, "context": {"budgetTokens": 8000}}))
    sleeps: list[float] = []

    result = client_for(script, sleeps).turn("s-1", "hello", client_turn_id="mine-1")

    assert result.reply == "ok" and result.context.budget_tokens == 8000
    assert [b["clientTurnId"] for b in script.bodies()] == ["mine-1"] * 4
    assert len(script.requests) == 4 and len(sleeps) == 3


def test_retries_are_bounded_and_the_last_error_carries_the_code_and_retry_after():
    script = Script(*[error(429, "rate_limited", {"Retry-After": "1"})] * 3)
    sleeps: list[float] = []

    with pytest.raises(RateLimitedError) as raised:
        client_for(script, sleeps, max_retries=2).facts()

    assert raised.value.code == "rate_limited" and raised.value.status == 429 and raised.value.retry_after == 1.0
    assert sleeps == [1.0, 1.0] and len(script.requests) == 3


def test_a_retry_after_longer_than_the_bound_is_raised_at_once_not_slept():
    script = Script(error(429, "user_rate_limited", {"Retry-After": "3600"}))
    sleeps: list[float] = []

    with pytest.raises(RateLimitedError) as raised:
        client_for(script, sleeps, max_retry_wait=20).exchange("s-1", visitor="a", agent="b")

    assert raised.value.retry_after == 3600 and sleeps == [] and len(script.requests) == 1


def test_retry_after_as_an_http_date_is_honoured():
    when = datetime.now(UTC) + timedelta(seconds=5)
    script = Script(error(503, "unavailable", {"Retry-After": format_datetime(when, usegmt=True)}), EXCHANGE_OK)
    sleeps: list[float] = []

    client_for(script, sleeps).exchange("s-1", visitor="a", agent="b")

    assert 3 <= sleeps[0] <= 5


def test_connection_errors_beyond_the_retries_raise_a_convmem_error():
    script = Script(*[httpx.ConnectError("refused")] * 2)

    with pytest.raises(ConvmemConnectionError) as raised:
        client_for(script, [], max_retries=1).profile()

    assert raised.value.code == "connection_error" and raised.value.status == 0
    assert isinstance(raised.value.__cause__, httpx.ConnectError)


@pytest.mark.parametrize(("status", "code", "cls"), [
    (404, "session_not_found", NotFoundError), (401, "invalid_token", AuthenticationError),
])
def test_other_errors_raise_at_once_with_the_api_code(status, code, cls):
    script = Script(error(status, code))
    sleeps: list[float] = []

    with pytest.raises(cls) as raised:
        client_for(script, sleeps).session("s-1")

    assert raised.value.code == code and raised.value.message == f"because {code}"
    assert sleeps == [] and len(script.requests) == 1


def test_a_409_on_a_read_is_not_retried():
    script = Script(error(409, "conflict"))
    with pytest.raises(ConflictError):
        client_for(script, []).context("s-1", "hi")
    assert len(script.requests) == 1


def test_an_error_without_a_json_body_still_raises_with_a_code():
    script = Script(httpx.Response(503, text="<html>Service Unavailable</html>"))
    with pytest.raises(UnavailableError) as raised:
        client_for(script, [], max_retries=0).facts()
    assert raised.value.code == "http_503"


def test_server_side_auth_sends_the_key_and_user_and_for_user_switches_user():
    script = Script(httpx.Response(200, json={"facts": []}), httpx.Response(200, json={"facts": []}))
    alice = client_for(script, [])

    alice.facts()
    alice.for_user("bob").facts()

    assert [(r.headers["x-api-key"], r.headers["x-user-id"]) for r in script.requests] == [("k", "alice"), ("k", "bob")]
    assert all("authorization" not in r.headers for r in script.requests)


def test_visitor_auth_sends_only_the_bearer_token():
    script = Script(httpx.Response(200, json={"profile": None, "refreshedAt": None}))
    client_for(script, [], api_key=None, user_id=None, token="tok").profile()
    request = script.requests[0]
    assert request.headers["authorization"] == "Bearer tok" and "x-api-key" not in request.headers


def test_a_new_visitor_gets_a_token_then_uses_it():
    script = Script(
        httpx.Response(201, json={"userId": "v-1", "token": "tok", "expiresAt": "2026-12-04T00:00:00.000Z"}),
        httpx.Response(200, json={"facts": []}),
    )
    visitor = ConvmemClient.new_visitor(URL, transport=httpx.MockTransport(script))
    visitor.facts()
    assert visitor.user_id == "v-1" and visitor.token_expires_at == datetime(2026, 12, 4, tzinfo=UTC)
    assert "authorization" not in script.requests[0].headers
    assert script.requests[1].headers["authorization"] == "Bearer tok"


def test_an_api_key_without_a_user_is_refused_before_any_request():
    script = Script()
    with pytest.raises(ValueError, match="user_id"):
        client_for(script, [], user_id=None).facts()
    assert script.requests == []


def test_context_in_converse_format_asks_for_it_and_returns_blocks_ready_for_converse():
    body = {"system": [{"text": "You help."}, {"text": "Facts: likes tea"}],
            "messages": [{"role": "user", "content": [{"text": "hi"}]}], "context": {"factIds": ["f1"]}}
    script = Script(httpx.Response(200, json=body))

    ctx = client_for(script, []).context("a/../b", "hi", format="converse")

    assert isinstance(ctx, ConverseContext)
    assert ctx.messages[-1]["content"][0]["text"] == "hi" and ctx.context.fact_ids == ["f1"]
    assert ctx.system_text == "You help.\n\nFacts: likes tea"
    request = script.requests[0]
    assert request.url.params["format"] == "converse"
    assert request.url.raw_path.split(b"?")[0] == b"/v1/sessions/a%2F..%2Fb/context"  # an id never walks the path


def test_exchange_sends_at_as_utc_iso_and_refuses_a_naive_time():
    script = Script(EXCHANGE_OK)
    c = client_for(script, [])
    c.exchange("s-1", visitor="a", agent="b", at=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC))
    assert script.bodies()[0]["at"] == "2025-01-02T03:04:05Z"
    with pytest.raises(ValueError, match="timezone"):
        c.exchange("s-1", visitor="a", agent="b", at=datetime(2025, 1, 2))


def test_sessions_are_paged_by_next_until_the_last_page():
    script = Script(
        httpx.Response(200, json={"sessions": [{"sessionId": "b", "messageCount": 2, "createdAt": "2026-12-01T00:00:00Z",
                                                "updatedAt": "2026-12-01T00:00:00Z"}], "next": "cursor-1"}),
        httpx.Response(200, json={"sessions": [{"sessionId": "a", "messageCount": 4, "createdAt": "2026-11-01T00:00:00Z",
                                                "updatedAt": "2026-11-01T00:00:00Z"}]}),
    )
    ids = [s.session_id for s in client_for(script, []).iter_sessions(page_size=1)]
    assert ids == ["b", "a"]
    assert script.requests[1].url.params["after"] == "cursor-1"
