"""The walking skeleton over HTTP on the real local stack (moto server + dev server + pollers)."""

from __future__ import annotations

import time
import uuid
from urllib.parse import quote

import pytest
import requests
from convmem.domain.access_tokens import sign_token

from tests.integration.stack import start, stop

pytestmark = pytest.mark.integration

TRICKY = ["plain ascii", "한국어 메시지입니다 부산에 살아요", "emoji 🎉👍🏽 and \"quotes\" and 'single'",
          "multi\nline\n\ttabbed", "trailing spaces   ", "<script>alert(1)</script> & ampersand", "\\ back\\slash"]


@pytest.fixture(scope="module")
def stack():
    s = start()
    yield s
    assert stop(s) == (0, True)


def transcript(stack, user, session):
    msgs, after = [], 0
    while True:
        r = requests.get(f"{stack.url}/v1/sessions/{session}/messages?after={after}&limit=25",
                         headers=stack.headers(user), timeout=10)
        assert r.status_code == 200, r.text
        page = r.json()
        msgs += page["messages"]
        if page["next"] is None:
            return msgs
        after = page["next"]


def test_thirty_turns_give_a_sixty_message_transcript_byte_for_byte(stack):
    user, session = "alice-30", f"s-{uuid.uuid4().hex[:8]}"
    sent = [TRICKY[i % len(TRICKY)] + f" #{i}" for i in range(30)]
    for text in sent:
        assert stack.turn(user, session, text, channel="api").status_code == 200
    msgs = transcript(stack, user, session)
    assert [m["seq"] for m in msgs] == list(range(1, 61))
    assert [m["role"] for m in msgs] == ["visitor", "agent"] * 30
    assert [m["text"] for m in msgs[::2]] == sent
    assert all(m["at"].endswith("Z") and m["channel"] == "api" for m in msgs)
    listed = requests.get(f"{stack.url}/v1/sessions", headers=stack.headers(user), timeout=10).json()["sessions"]
    assert [(s["sessionId"], s["messageCount"]) for s in listed] == [(session, 60)]


def test_the_local_model_answers_from_the_window(stack):
    user, session = "bob-ctx", f"s-{uuid.uuid4().hex[:8]}"
    stack.turn(user, session, "Hi, my order number is ZX-9981.")
    stack.turn(user, session, "Also, I like green tea.")
    reply = stack.turn(user, session, "What did I say about my order number?").json()["reply"]
    assert "ZX-9981" in reply


def test_a_canary_word_appears_in_no_table(stack):
    canary = f"canary{uuid.uuid4().hex}"
    assert stack.turn("canary-user", "s-canary", f"my secret is {canary}").status_code == 200
    for item in stack.scan_all():
        for attr in item.values():
            (kind, value), = attr.items()
            raw = value.decode("utf-8", "ignore") if isinstance(value, bytes) else str(value)
            assert canary not in raw


def test_another_user_gets_404_and_cannot_post(stack):
    session = f"s-{uuid.uuid4().hex[:8]}"
    stack.turn("owner-a", session, "private conversation")
    for path in (f"/v1/sessions/{session}", f"/v1/sessions/{session}/messages"):
        r = requests.get(stack.url + path, headers=stack.headers("intruder-b"), timeout=10)
        assert (r.status_code, r.json()["error"]["code"]) == (404, "session_not_found")
    r = stack.turn("intruder-b", session, "let me in")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "session_not_found")
    assert [m["text"] for m in transcript(stack, "owner-a", session)][0] == "private conversation"
    assert len(transcript(stack, "owner-a", session)) == 2


def _signing_key(stack) -> bytes:
    sm = stack.client("secretsmanager")
    name = next(s["Name"] for s in sm.list_secrets()["SecretList"] if s["Name"].endswith("TokenSigningSecret"))
    return sm.get_secret_value(SecretId=name)["SecretString"].encode()


def test_bad_requests_get_the_contract_status_and_write_nothing(stack):
    session = f"s-{uuid.uuid4().hex[:8]}"
    stack.turn("bad-input-user", session, "a real first turn")
    visitor = requests.post(f"{stack.url}/v1/visitors", timeout=10).json()
    sig = visitor["token"][-1]
    tampered = visitor["token"][:-1] + ("A" if sig != "A" else "B")
    expired = sign_token("bad-input-user", int(time.time()) - 10, _signing_key(stack))
    h = stack.headers("bad-input-user")
    turn_url = f"{stack.url}/v1/sessions/{session}/turns"
    cases = [
        ("malformed json", lambda: requests.post(turn_url, data='{"message": ', headers=h, timeout=10), 400, "malformed_json"),
        ("empty message", lambda: requests.post(turn_url, json={"message": ""}, headers=h, timeout=10), 400, "invalid_request"),
        ("whitespace", lambda: requests.post(turn_url, json={"message": " \n\t "}, headers=h, timeout=10), 400, "invalid_request"),
        ("no auth", lambda: requests.post(turn_url, json={"message": "x"}, headers={"content-type": "application/json"}, timeout=10), 401, "unauthorized"),
        ("tampered token", lambda: requests.post(turn_url, json={"message": "x"}, headers={"authorization": f"Bearer {tampered}"}, timeout=10), 401, "invalid_token"),
        ("expired token", lambda: requests.post(turn_url, json={"message": "x"}, headers={"authorization": f"Bearer {expired}"}, timeout=10), 401, "token_expired"),
        ("bad session id", lambda: requests.post(f"{stack.url}/v1/sessions/{quote('bad id!')}/turns", json={"message": "x"}, headers=h, timeout=10), 400, "invalid_sessionId"),
        ("long session id", lambda: requests.post(f"{stack.url}/v1/sessions/{'s' * 129}/turns", json={"message": "x"}, headers=h, timeout=10), 400, "invalid_sessionId"),
        ("unknown route", lambda: requests.get(f"{stack.url}/v1/nowhere", headers=h, timeout=10), 404, "not_found"),
    ]
    before = stack.scan_all()
    for name, send, status, code in cases:
        r = send()
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), name
        assert r.json()["error"]["message"], name
    assert stack.scan_all() == before


def test_a_widget_token_for_an_api_user_is_the_same_person(stack):
    r = requests.post(f"{stack.url}/v1/visitors", timeout=10)
    assert r.status_code == 201 and set(r.json()) == {"userId", "token", "expiresAt"}
    r = requests.post(f"{stack.url}/v1/tokens", json={"userId": "customer-42"},
                      headers={"x-api-key": stack.api_key, "content-type": "application/json"}, timeout=10)
    assert r.status_code == 201 and r.json()["userId"] == "customer-42"
    bearer = {"authorization": f"Bearer {r.json()['token']}", "content-type": "application/json"}
    assert requests.post(f"{stack.url}/v1/sessions/web-1/turns", json={"message": "from the widget", "channel": "web"},
                         headers=bearer, timeout=10).status_code == 200
    msgs = transcript(stack, "customer-42", "web-1")
    assert msgs[0]["text"] == "from the widget" and msgs[0]["channel"] == "web"


def test_a_retried_client_turn_id_returns_the_first_response(stack):
    session = f"s-{uuid.uuid4().hex[:8]}"
    first = stack.turn("retry-user", session, "pay invoice 77", clientTurnId="turn-abc")
    again = stack.turn("retry-user", session, "pay invoice 77", clientTurnId="turn-abc")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert len(transcript(stack, "retry-user", session)) == 2
