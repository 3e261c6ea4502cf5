"""Knowledge is bounded and comes only from server-side callers (issue 15, item 2).

Driven through the api function as API Gateway calls it, under moto: what a caller sees is the
status and the error shape, and that nothing was written."""

from __future__ import annotations

import copy
import json

import pytest
from convmem.domain.models import (
    KNOWLEDGE_MAX_BYTES,
    KNOWLEDGE_MAX_SNIPPETS,
    KNOWLEDGE_MAX_TOKENS,
    SNIPPET_MAX_BYTES,
    SNIPPET_MAX_TOKENS,
)
from convmem.domain.tokens import count_tokens

from tests.functional.conftest import load_event, scan_all

# One token a character and one byte a character in cl100k: bytes and tokens limits can be told apart.
DENSE = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "\"\\")


def call(handler, event):
    out = handler(event)
    return out["statusCode"], json.loads(out["body"]) if out.get("body") else None


def turn_event(knowledge, *, visitor_token: str | None = None) -> dict:
    event = copy.deepcopy(load_event("api_turn.json"))
    body = json.loads(event["body"])
    body.pop("clientTurnId", None)
    event["body"] = json.dumps({**body, "knowledge": knowledge})
    if visitor_token:
        event["headers"] = {k: v for k, v in event["headers"].items() if not k.startswith("x-")}
        event["headers"]["authorization"] = f"Bearer {visitor_token}"
    return event


def dense(tokens: int) -> str:
    """A text of about ``tokens`` tokens and far fewer bytes than four a token."""
    text = ""
    while count_tokens(text) < tokens:
        text += "".join(DENSE[(i * 7) % len(DENSE)] + " " for i in range(200))
    return text


def test_a_visitor_token_that_sends_knowledge_gets_403_and_nothing_is_written(handler, aws):
    status, visitor = call(handler, load_event("api_new_visitor.json"))
    before = scan_all(aws[1])
    status, body = call(handler, turn_event([{"source": "faq#1", "text": "Refunds take 5 days."}],
                                            visitor_token=visitor["token"]))
    assert status == 403
    assert body["error"]["code"] == "knowledge_forbidden" and "API key" in body["error"]["message"]
    assert scan_all(aws[1]) == before


def test_the_same_snippet_from_a_server_side_caller_enters_the_request(handler):
    status, body = call(handler, turn_event([{"source": "faq#1", "text": "Refunds take 5 days."}]))
    assert status == 200 and body["context"]["knowledge"] == 1


@pytest.mark.parametrize("name, knowledge", [
    ("a 185 KB snippet (the issue's)", [{"source": "s", "text": "x" * 185_000}]),
    ("a snippet one byte over", [{"source": "s", "text": "가" * (SNIPPET_MAX_BYTES // 3) + "ab"}]),
    ("a snippet over its tokens within its bytes", [{"source": "s", "text": dense(SNIPPET_MAX_TOKENS + 50)}]),
    ("one snippet too many", [{"source": "s", "text": "t"}] * (KNOWLEDGE_MAX_SNIPPETS + 1)),
    ("a list over its bytes", [{"source": "s", "text": "y" * SNIPPET_MAX_BYTES}] * (KNOWLEDGE_MAX_BYTES // SNIPPET_MAX_BYTES)),
    ("a list over its tokens", [{"source": "s", "text": dense(SNIPPET_MAX_TOKENS - 10)}]
     * (KNOWLEDGE_MAX_TOKENS // (SNIPPET_MAX_TOKENS - 10) + 1)),
    ("a source too long", [{"source": "s" * 257, "text": "t"}]),
])
def test_knowledge_beyond_its_limits_is_a_400_that_writes_nothing(handler, aws, name, knowledge):
    before = scan_all(aws[1])
    status, body = call(handler, turn_event(knowledge))
    assert status == 400, name
    assert body["error"]["code"] == "invalid_request" and "knowledge" in body["error"]["message"]
    assert "yyyy" not in body["error"]["message"] and "xxxx" not in body["error"]["message"]  # never echoed
    assert scan_all(aws[1]) == before


def test_the_largest_legal_list_is_answered(handler):
    """At every limit at once (bytes of the list, tokens of the list): a 200, the budget decides
    how much of it the request holds."""
    text = dense(SNIPPET_MAX_TOKENS - 10)
    knowledge = [{"source": f"doc#{i}", "text": text} for i in range(KNOWLEDGE_MAX_TOKENS // (SNIPPET_MAX_TOKENS - 10))]
    status, body = call(handler, turn_event(knowledge))
    assert status == 200 and 1 <= body["context"]["knowledge"] < len(knowledge)
    assert body["context"]["requestTokens"] <= body["context"]["budgetTokens"]


def test_the_limits_are_in_the_openapi_document(handler):
    status, doc = call(handler, load_event("api_health.json") | {"rawPath": "/v1/openapi.json",
                        "requestContext": {**load_event("api_health.json")["requestContext"],
                                           "http": {**load_event("api_health.json")["requestContext"]["http"],
                                                    "path": "/v1/openapi.json"}}})
    assert status == 200
    text = json.dumps(doc)
    assert f"{SNIPPET_MAX_BYTES:,} bytes" in text and f"{KNOWLEDGE_MAX_TOKENS:,} tokens" in text
    turn = doc["paths"]["/v1/sessions/{sessionId}/turns"]["post"]
    assert "403" in turn["responses"] and "400" in turn["responses"]
