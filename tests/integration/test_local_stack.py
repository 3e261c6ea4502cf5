"""The API contract (docs/api.md) end to end on the real local stack: `python -m local.run`
(moto server + the API handler behind the API Gateway emulation + the fold poller) over HTTP."""

from __future__ import annotations

import json
import statistics
import time
import uuid
from typing import Any
from urllib.parse import quote

import pytest
import requests
from convmem.domain.access_tokens import sign_token

from tests.integration.conftest import Stack, _start, _stop, canonical_scan

pytestmark = pytest.mark.integration

JSON = {"content-type": "application/json"}

# Visitor texts that must come back byte for byte.
TRICKY = [
    "plain ascii",
    "한국어 메시지입니다. 저는 부산에 살아요",
    "emoji 🎉👍🏽 👨‍👩‍👧‍👦 and a flag 🇰🇷",
    "\"double quotes\" and 'single' and `backticks`",
    "multi\nline\n\ttabbed\r\nCRLF too",
    "  leading and trailing spaces   ",
    "<script>alert(1)</script> & ampersand; {\"json\": [1, 2]}",
    "\\ back\\slash \\n not a newline",
    "combining: e\u0301 vs \u00e9, nbsp:\u00a0, zero width:\u200b.",
    "mixed 한글 + emoji 😀 + \"quotes\"\n+ newline",
]


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def assert_error(r: requests.Response, status: int, code: str) -> None:
    assert r.status_code == status, f"expected {status} {code}, got {r.status_code}: {r.text}"
    assert r.headers.get("content-type", "").startswith("application/json"), r.headers
    body = r.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body


def item_texts(item: dict[str, Any]) -> list[str]:
    """Every attribute value of a DynamoDB item as text; binary values decoded leniently."""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, bytes | bytearray):
            out.append(bytes(value).decode("utf-8", errors="ignore"))
            out.append(bytes(value).decode("latin-1"))
        elif isinstance(value, dict):
            for k, v in value.items():
                out.append(str(k))
                walk(v)
        elif isinstance(value, list | tuple | set):
            for v in value:
                walk(v)
        else:
            out.append(str(value))

    walk(item)
    return out


def signing_key(stack: Stack) -> bytes:
    sm = stack.client("secretsmanager")
    names = [s["Name"] for page in sm.get_paginator("list_secrets").paginate() for s in page["SecretList"]]
    matches = [n for n in names if n.endswith("TokenSigningSecret")]
    assert len(matches) == 1, names
    return sm.get_secret_value(SecretId=matches[0])["SecretString"].encode("utf-8")


# 1 -------------------------------------------------------------------------------------------
def test_thirty_turns_give_a_sixty_message_transcript_byte_for_byte(stack: Stack) -> None:
    user, session = uid("u-thirty"), uid("s-thirty")
    sent = [f"{TRICKY[i % len(TRICKY)]} #{i}" for i in range(30)]
    for i, text in enumerate(sent):
        r = stack.turn(user, session, text)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["sessionId"] == session
        assert (body["visitorSeq"], body["agentSeq"]) == (2 * i + 1, 2 * i + 2)
        assert isinstance(body["reply"], str) and body["reply"]

    msgs = stack.transcript(user, session, limit=7)  # 9 pages, the last one short
    assert [m["seq"] for m in msgs] == list(range(1, 61))
    assert [m["role"] for m in msgs] == ["visitor", "agent"] * 30
    got = [m["text"] for m in msgs[::2]]
    assert [t.encode("utf-8") for t in got] == [t.encode("utf-8") for t in sent]
    assert all(m["channel"] == "api" for m in msgs)
    assert all(m["at"].endswith("Z") for m in msgs)
    assert [m["at"] for m in msgs] == sorted(m["at"] for m in msgs)

    # a page that ends exactly at the end has next null
    r = requests.get(f"{stack.url}/v1/sessions/{session}/messages", params={"after": 50, "limit": 10},
                     headers=stack.headers(user), timeout=10)
    assert r.status_code == 200 and [m["seq"] for m in r.json()["messages"]] == list(range(51, 61))
    assert r.json()["next"] is None

    r = requests.get(f"{stack.url}/v1/sessions/{session}", headers=stack.headers(user), timeout=10)
    assert r.status_code == 200, r.text
    detail = r.json()
    assert detail["sessionId"] == session and detail["messageCount"] == 60
    assert {"summarizedThrough", "summary", "createdAt", "updatedAt"} <= set(detail)

    r = requests.get(f"{stack.url}/v1/sessions", headers=stack.headers(user), timeout=10)
    assert r.status_code == 200, r.text
    listed = r.json()["sessions"]
    assert [(s["sessionId"], s["messageCount"]) for s in listed] == [(session, 60)]
    assert set(listed[0]) == {"sessionId", "messageCount", "createdAt", "updatedAt"}


# 2 -------------------------------------------------------------------------------------------
def test_the_local_model_visibly_uses_context(stack: Stack) -> None:
    user, session = uid("u-ctx"), uid("s-ctx")
    assert stack.turn(user, session, "Hi! my order number is ZX-9981, it has not arrived.").status_code == 200
    assert stack.turn(user, session, "Also, I prefer green tea over coffee.").status_code == 200
    r = stack.turn(user, session, "What did I say about my order number?")
    assert r.status_code == 200, r.text
    assert "ZX-9981" in r.json()["reply"]
    assert r.json()["context"]["windowMessages"] == 4
    # another session of the same user does not see the conversation (its facts job, when it has
    # run by then, may have learnt the order number: that is the user's memory, not this window)
    r = stack.turn(user, uid("s-ctx-other"), "What did I say about my order number?")
    assert r.status_code == 200 and r.json()["context"]["windowMessages"] == 0
    assert "ZX-9981" not in r.json()["reply"] or "You told me before" in r.json()["reply"]


# 3 -------------------------------------------------------------------------------------------
def test_a_canary_word_is_stored_nowhere_in_plaintext(stack: Stack) -> None:
    user, session = uid("u-canary"), uid("s-canary")
    canary = f"canary{uuid.uuid4().hex}"
    texts = [f"my secret word is {canary}, keep it safe", f"repeat: {canary}. Order QX-1 decided."] + [
        f"filler turn {i} mentioning {canary}" for i in range(6)
    ]  # 16 messages: beyond the 12-message window, so a fold summarises the canary too
    for text in texts:
        r = stack.turn(user, session, text, clientTurnId=uid("ct"))  # responses are stored too
        assert r.status_code == 200, r.text
    r = stack.turn(user, session, f"do you remember my secret word {canary}?")
    assert r.status_code == 200 and canary in r.json()["reply"]  # it round-trips...
    # ...and the summary holds it (decrypted on read) once the fold has run
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        detail = requests.get(f"{stack.url}/v1/sessions/{session}", headers=stack.headers(user), timeout=10).json()
        if detail["summarizedThrough"] > 0:
            break
        time.sleep(0.2)
    assert detail["summarizedThrough"] > 0, detail

    tables = stack.settle()
    assert len(tables) >= 2, list(tables)
    assert sum(len(items) for items in tables.values()) > 0
    for table, items in tables.items():
        for item in items:
            assert canary not in str(item), f"canary in plaintext in {table}: {item!r}"[:2000]
            for text in item_texts(item):
                assert canary not in text, f"canary in plaintext in {table}: {item!r}"[:2000]


# 4 -------------------------------------------------------------------------------------------
def test_another_users_session_id_is_not_found_and_a_turn_starts_the_callers_own(stack: Stack) -> None:
    owner, intruder, session = uid("u-owner"), uid("u-intruder"), uid("s-private")
    assert stack.turn(owner, session, "private conversation about my bank").status_code == 200
    assert stack.turn(owner, session, "second private message").status_code == 200
    before_transcript = stack.transcript(owner, session)
    before = canonical_scan(stack.settle())

    # an id someone else has answers exactly as one nobody has
    for path in ("/v1/sessions/{}", "/v1/sessions/{}/messages"):
        taken = requests.get(stack.url + path.format(session), headers=stack.headers(intruder), timeout=10)
        missing = requests.get(stack.url + path.format(uid("s-missing")), headers=stack.headers(intruder), timeout=10)
        assert_error(taken, 404, "session_not_found")
        assert (taken.status_code, taken.json()) == (missing.status_code, missing.json())
    tok = requests.post(f"{stack.url}/v1/tokens", json={"userId": intruder},
                        headers={"x-api-key": stack.api_key, **JSON}, timeout=10).json()["token"]
    assert_error(requests.get(f"{stack.url}/v1/sessions/{session}/messages", headers=stack.bearer(tok), timeout=10),
                 404, "session_not_found")
    listed = requests.get(f"{stack.url}/v1/sessions", headers=stack.headers(intruder), timeout=10).json()["sessions"]
    assert session not in [s["sessionId"] for s in listed]
    assert canonical_scan(stack.scan_all_tables()) == before

    # a turn to that id is the intruder's own new conversation: the owner's stays as it was
    mine = stack.turn(intruder, session, "let me in")
    assert mine.status_code == 200 and mine.json()["visitorSeq"] == 1 and "bank" not in mine.json()["reply"]
    assert stack.turn_with(stack.bearer(tok), session, "me again").json()["visitorSeq"] == 3
    assert [m["text"] for m in stack.transcript(intruder, session) if m["role"] == "visitor"] == ["let me in", "me again"]
    assert stack.transcript(owner, session) == before_transcript and len(before_transcript) == 4


# 5 -------------------------------------------------------------------------------------------
def test_bad_input_gets_the_contract_status_and_writes_nothing(stack: Stack) -> None:
    user, session = uid("u-bad"), uid("s-bad")
    assert stack.turn(user, session, "a real first turn").status_code == 200
    visitor = requests.post(f"{stack.url}/v1/visitors", headers=JSON, timeout=10).json()
    body, sig = visitor["token"].split(".")
    i = len(sig) // 2
    tampered = f"{body}.{sig[:i]}{'A' if sig[i] != 'A' else 'B'}{sig[i + 1:]}"
    assert tampered != visitor["token"]
    key = signing_key(stack)
    valid = sign_token(user, int(time.time()) + 600, key)
    expired = sign_token(user, int(time.time()) - 60, key)
    h = stack.headers(user)
    fresh = stack.headers(uid("u-never-seen"))  # bad input from a user nothing is stored for yet
    turn_url = f"{stack.url}/v1/sessions/{session}/turns"
    new_turn_url = f"{stack.url}/v1/sessions/{uid('s-new')}/turns"

    def post(url: str, headers: dict[str, str], data: bytes | str) -> requests.Response:
        return requests.post(url, data=data, headers=headers, timeout=10)

    ok = json.dumps({"message": "hello"})
    cases = [
        ("malformed json", lambda: post(turn_url, h, '{"message": '), 400, "malformed_json"),
        ("malformed json, new user", lambda: post(new_turn_url, fresh, "{not json"), 400, "malformed_json"),
        ("empty message", lambda: post(turn_url, h, json.dumps({"message": ""})), 400, "invalid_request"),
        ("whitespace-only message", lambda: post(turn_url, h, json.dumps({"message": " \n\t\u3000 "})), 400, "invalid_request"),
        ("whitespace-only, new user", lambda: post(new_turn_url, fresh, json.dumps({"message": "   "})), 400, "invalid_request"),
        ("missing message", lambda: post(turn_url, h, json.dumps({"text": "hello"})), 400, "invalid_request"),
        ("message not a string", lambda: post(turn_url, h, json.dumps({"message": 42})), 400, "invalid_request"),
        ("missing auth", lambda: post(turn_url, JSON, ok), 401, "unauthorized"),
        ("wrong api key", lambda: post(turn_url, {**h, "x-api-key": "nope"}, ok), 401, "invalid_api_key"),
        ("tampered token", lambda: post(turn_url, stack.bearer(tampered), ok), 401, "invalid_token"),
        ("expired token", lambda: post(turn_url, stack.bearer(expired), ok), 401, "token_expired"),
        ("bad session id", lambda: post(f"{stack.url}/v1/sessions/{quote('bad id!')}/turns", h, ok), 400, "invalid_sessionId"),
        ("129-char session id", lambda: post(f"{stack.url}/v1/sessions/{'s' * 129}/turns", h, ok), 400, "invalid_sessionId"),
        ("129-char session id, new user", lambda: post(f"{stack.url}/v1/sessions/{'s' * 129}/turns", fresh, ok), 400, "invalid_sessionId"),
        ("bad session id on read", lambda: requests.get(f"{stack.url}/v1/sessions/{quote('bad id!')}", headers=h, timeout=10), 400, "invalid_sessionId"),
        ("unknown route", lambda: requests.get(f"{stack.url}/v1/nowhere", headers=h, timeout=10), 404, "not_found"),
        ("unknown route, post", lambda: post(f"{stack.url}/v1/sessions/{session}/nowhere", h, ok), 404, "not_found"),
    ]
    before = canonical_scan(stack.settle())
    for name, send, status, code in cases:
        r = send()
        try:
            assert_error(r, status, code)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {exc}") from None
        assert canonical_scan(stack.scan_all_tables()) == before, f"{name} wrote something"
    assert stack.transcript(user, session) == stack.transcript_with(stack.bearer(valid), session)
    assert len(stack.transcript(user, session)) == 2
    # a whole 129-character id is refused, a 128-character one is fine
    assert stack.turn(user, "s" * 128, "boundary").status_code == 200


# 6 -------------------------------------------------------------------------------------------
def test_visitor_tokens_and_the_same_user_across_channels(stack: Stack) -> None:
    r = requests.post(f"{stack.url}/v1/visitors", headers=JSON, timeout=10)
    assert r.status_code == 201, r.text
    visitor = r.json()
    assert set(visitor) == {"userId", "token", "expiresAt"}
    assert visitor["expiresAt"].endswith("Z")
    session = uid("s-widget")
    r = stack.turn_with(stack.bearer(visitor["token"]), session, "hello from the widget", channel="web")
    assert r.status_code == 200, r.text
    msgs = stack.transcript_with(stack.bearer(visitor["token"]), session)
    assert [(m["role"], m["channel"]) for m in msgs] == [("visitor", "web"), ("agent", "web")]
    assert msgs[0]["text"] == "hello from the widget"
    # the visitor is that userId for the API too
    assert stack.transcript(visitor["userId"], session) == msgs

    # without the API key no token for a named user
    assert_error(requests.post(f"{stack.url}/v1/tokens", json={"userId": "alice-x"}, headers=JSON, timeout=10),
                 401, "invalid_api_key")
    r = requests.post(f"{stack.url}/v1/tokens", json={"userId": "alice-x"},
                      headers={"x-api-key": stack.api_key, **JSON}, timeout=10)
    assert r.status_code == 201, r.text
    issued = r.json()
    assert issued["userId"] == "alice-x" and set(issued) == {"userId", "token", "expiresAt"}
    session = uid("s-alice")
    r = stack.turn_with(stack.bearer(issued["token"]), session, "my widget message", channel="web")
    assert r.status_code == 200, r.text
    r = stack.turn("alice-x", session, "and one from the server side")
    assert r.status_code == 200 and r.json()["visitorSeq"] == 3, r.text
    msgs = stack.transcript("alice-x", session)
    assert [(m["seq"], m["role"], m["channel"]) for m in msgs] == [
        (1, "visitor", "web"), (2, "agent", "web"), (3, "visitor", "api"), (4, "agent", "api")]
    assert [m["text"] for m in msgs[::2]] == ["my widget message", "and one from the server side"]
    assert stack.transcript_with(stack.bearer(issued["token"]), session) == msgs
    listed = requests.get(f"{stack.url}/v1/sessions", headers=stack.headers("alice-x"), timeout=10).json()["sessions"]
    assert session in [s["sessionId"] for s in listed]


# 7 -------------------------------------------------------------------------------------------
def test_a_repeated_client_turn_id_returns_the_first_response(stack: Stack) -> None:
    user, session, ctid = uid("u-retry"), uid("s-retry"), uid("ct")
    first = stack.turn(user, session, "pay invoice 77 please", clientTurnId=ctid)
    assert first.status_code == 200, first.text
    settled = canonical_scan(stack.settle())
    again = stack.turn(user, session, "pay invoice 77 please", clientTurnId=ctid)
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    assert again.json()["turnId"] == first.json()["turnId"]
    assert again.json()["reply"] == first.json()["reply"]
    assert canonical_scan(stack.scan_all_tables()) == settled  # the replay wrote nothing
    assert len(stack.transcript(user, session)) == 2
    detail = requests.get(f"{stack.url}/v1/sessions/{session}", headers=stack.headers(user), timeout=10).json()
    assert detail["messageCount"] == 2
    # a new clientTurnId is a new turn
    third = stack.turn(user, session, "pay invoice 77 please", clientTurnId=uid("ct"))
    assert third.status_code == 200 and third.json()["turnId"] != first.json()["turnId"]
    assert third.json()["visitorSeq"] == 3


# 8 -------------------------------------------------------------------------------------------
def test_warm_turn_time(stack: Stack) -> None:
    user, session = uid("u-timing"), uid("s-timing")
    for i in range(3):  # warm-up
        assert stack.turn(user, session, f"warm-up turn {i}").status_code == 200
    times = []
    for i in range(20):
        t0 = time.perf_counter()
        r = stack.turn(user, session, f"Timed turn {i}: what are the delivery options for order ZX-{1000 + i}?")
        times.append(time.perf_counter() - t0)
        assert r.status_code == 200, r.text
    median = statistics.median(times)
    print(f"\nwarm turn wall time over {len(times)} turns: median {median * 1000:.1f} ms, "
          f"min {min(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    assert median < 2.0, f"median warm turn took {median:.2f}s"


# extra ---------------------------------------------------------------------------------------
def test_sessions_are_listed_newest_first(stack: Stack) -> None:
    user = uid("u-list")
    first, second = uid("s-first"), uid("s-second")
    assert stack.turn(user, first, "one").status_code == 200
    assert stack.turn(user, second, "two").status_code == 200

    def listed() -> list[tuple[str, int]]:
        r = requests.get(f"{stack.url}/v1/sessions", headers=stack.headers(user), timeout=10)
        assert r.status_code == 200, r.text
        return [(s["sessionId"], s["messageCount"]) for s in r.json()["sessions"]]

    assert listed() == [(second, 2), (first, 2)]
    time.sleep(0.01)
    assert stack.turn(user, first, "one again").status_code == 200  # a new turn makes it the newest
    assert listed() == [(first, 4), (second, 2)]


def test_a_body_that_is_not_utf8_is_malformed_json_and_writes_nothing(stack: Stack) -> None:
    user, session = uid("u-latin1"), uid("s-latin1")
    assert stack.turn(user, session, "a real first turn").status_code == 200
    before = canonical_scan(stack.settle())
    r = requests.post(f"{stack.url}/v1/sessions/{session}/turns", data='{"message": "café"}'.encode("latin-1"),
                      headers=stack.headers(user), timeout=10)
    assert canonical_scan(stack.scan_all_tables()) == before
    assert_error(r, 400, "malformed_json")


def test_ctrl_c_stops_a_stack_started_as_a_background_job() -> None:
    # A background job of a non-interactive shell starts with SIGINT ignored, and Python then sets
    # no KeyboardInterrupt of its own: the stack installs its own, so Ctrl-C (SIGINT) still stops it,
    # its embedded AWS too (_stop asserts both, within its timeout).
    _stop(_start(sigint_ignored=True))
