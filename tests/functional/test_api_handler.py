"""The api function driven by the files in events/, under moto."""

from __future__ import annotations

import copy
import json

import pytest

from tests.functional.conftest import load_event, scan_all


def call(handler, event):
    out = handler(event)
    return out["statusCode"], json.loads(out["body"]) if out.get("body") else None


def test_health(handler):
    assert call(handler, load_event("api_health.json")) == (200, {"status": "ok"})


def test_a_visitor_gets_a_token_that_authenticates_a_turn(handler):
    status, visitor = call(handler, load_event("api_new_visitor.json"))
    assert status == 201 and visitor["userId"].startswith("v-") and visitor["expiresAt"].endswith("Z")
    event = load_event("api_turn.json")
    event["headers"] = {k: v for k, v in event["headers"].items() if not k.startswith("x-")}
    event["headers"]["authorization"] = f"Bearer {visitor['token']}"
    status, body = call(handler, event)
    assert status == 200 and body["visitorSeq"] == 1 and body["agentSeq"] == 2


def test_a_turn_then_reads_back_from_every_read_route(handler):
    status, turn = call(handler, load_event("api_turn.json"))
    assert status == 200
    assert set(turn) == {"sessionId", "turnId", "reply", "visitorSeq", "agentSeq", "context"}
    assert turn["context"]["budgetTokens"] == 8000 and turn["context"]["requestTokens"] > 0

    status, sessions = call(handler, load_event("api_list_sessions.json"))
    assert status == 200 and [s["sessionId"] for s in sessions["sessions"]] == ["sample-session"]
    assert sessions["sessions"][0]["messageCount"] == 2

    status, session = call(handler, load_event("api_get_session.json"))
    assert status == 200 and session["messageCount"] == 2 and session["summarizedThrough"] == 0
    assert session["summary"] is None

    status, page = call(handler, load_event("api_messages.json"))
    sent = json.loads(load_event("api_turn.json")["body"])["message"]
    assert status == 200
    assert [(m["seq"], m["role"]) for m in page["messages"]] == [(1, "visitor"), (2, "agent")]
    assert page["messages"][0]["text"] == sent and page["messages"][1]["text"] == turn["reply"]
    assert page["next"] is None


def test_the_same_client_turn_id_returns_the_first_response_and_writes_nothing(handler, aws):
    first = call(handler, load_event("api_turn.json"))
    before = scan_all(aws[1])
    again = call(handler, load_event("api_turn.json"))
    assert again == first
    assert scan_all(aws[1]) == before


def test_mint_token_needs_the_api_key(handler):
    status, body = call(handler, load_event("api_mint_token.json"))
    assert status == 201 and body["userId"] == "sample-user"
    event = load_event("api_mint_token.json")
    event["headers"]["x-api-key"] = "wrong"
    status, body = call(handler, event)
    assert status == 401 and body["error"]["code"] == "invalid_api_key"


def _bad(event_name, mutate):
    event = load_event(event_name)
    mutate(event)
    return event


@pytest.mark.parametrize("event, status, code", [
    (_bad("api_turn.json", lambda e: e.update(body='{"message": ')), 400, "malformed_json"),
    (_bad("api_turn.json", lambda e: e.update(body='{"message": "   \\n "}')), 400, "invalid_request"),
    (_bad("api_turn.json", lambda e: e.update(body='{"message": 12}')), 400, "invalid_request"),
    (_bad("api_turn.json", lambda e: e.update(body='[]')), 400, "invalid_request"),
    (_bad("api_turn.json", lambda e: e.update(body='{"message": "hi", "clientTurnId": "../x"}')), 400, "invalid_request"),
    (_bad("api_turn.json", lambda e: e["headers"].pop("x-api-key")), 401, "unauthorized"),
    (_bad("api_turn.json", lambda e: e["headers"].update({"x-api-key": "nope"})), 401, "invalid_api_key"),
    (_bad("api_turn.json", lambda e: e["headers"].update({"x-user-id": "bad user"})), 400, "invalid_userId"),
    (_bad("api_turn.json", lambda e: e["headers"].update({"authorization": "Bearer abc.def"})), 401, "invalid_token"),
    (_bad("api_turn.json", lambda e: e.update(rawPath="/v1/sessions/bad%20id/turns")), 400, "invalid_sessionId"),
    (_bad("api_turn.json", lambda e: e.update(rawPath="/v1/nothing")), 404, "not_found"),
    (_bad("api_messages.json", lambda e: e.update(queryStringParameters={"limit": "0"})), 400, "invalid_request"),
])
def test_bad_input_gets_a_clear_json_error_and_writes_nothing(handler, aws, event, status, code):
    before = scan_all(aws[1])
    got_status, body = call(handler, copy.deepcopy(event))
    assert (got_status, body["error"]["code"]) == (status, code)
    assert body["error"]["message"]
    assert scan_all(aws[1]) == before


def test_another_users_session_id_is_a_session_of_their_own(handler):
    # sample-user talks in sample-session; mallory sees no such session of hers...
    assert call(handler, load_event("api_turn.json"))[0] == 200
    for name in ("api_get_session.json", "api_messages.json"):
        event = load_event(name)
        event["headers"]["x-user-id"] = "mallory"
        status, body = call(handler, event)
        assert (status, body["error"]["code"]) == (404, "session_not_found"), name
    # ...and her turn to that id starts her own conversation, never joins sample-user's
    event = load_event("api_turn.json")
    event["headers"]["x-user-id"] = "mallory"
    event["body"] = json.dumps({"message": "let me in"})
    status, body = call(handler, event)
    assert (status, body["visitorSeq"], body["context"]["windowMessages"]) == (200, 1, 0)
    status, page = call(handler, load_event("api_messages.json"))
    assert len(page["messages"]) == 2 and "let me in" not in json.dumps(page)


def test_a_message_over_the_byte_limit_is_413_and_writes_nothing(handler, aws):
    event = load_event("api_turn.json")
    event["body"] = json.dumps({"message": "가" * 40_000})  # 120,000 UTF-8 bytes > 100,000
    before = scan_all(aws[1])
    status, body = call(handler, event)
    assert (status, body["error"]["code"]) == (413, "message_too_large")
    assert "120000 bytes" in body["error"]["message"]
    assert scan_all(aws[1]) == before


def test_the_openapi_document_is_generated_from_the_code(handler):
    event = load_event("api_health.json")
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/v1/openapi.json"
    status, doc = call(handler, event)
    assert status == 200 and doc["openapi"].startswith("3.")
    assert {"/v1/sessions/{sessionId}/turns", "/v1/sessions", "/v1/visitors"} <= set(doc["paths"])
    turn_schema = json.dumps(doc["components"]["schemas"])
    assert "clientTurnId" in turn_schema and "gaveWay" in turn_schema


def test_korean_goes_out_as_utf8_not_escapes(handler):
    event = load_event("api_turn.json")
    out = handler(event)
    assert out["statusCode"] == 200 and "안녕하세요" in out["body"]
