"""The request budget over HTTP: a big paste compresses old history; too big a message is refused."""

from __future__ import annotations

import uuid

import pytest
import requests
from convmem.domain.tokens import count_tokens

pytestmark = pytest.mark.integration



def transcript(stack, user, session):
    return requests.get(f"{stack.url}/v1/sessions/{session}/messages?limit=200", headers=stack.headers(user), timeout=10).json()["messages"]


def test_a_pasted_document_compresses_old_history_and_stays_in_budget(stack):
    user, session = "budget-user", f"b-{uuid.uuid4().hex[:8]}"
    for i in range(6):  # 12 ordinary messages
        assert stack.turn(user, session, f"My order ZX-{7700 + i} should arrive on the {i + 1}st; I decided on express.").status_code == 200
    paste = "Here is the contract text. " + "lorem ipsum dolor sit amet " * 1340  # ~6,700 tokens
    r = stack.turn(user, session, paste)
    assert r.status_code == 200, r.text
    ctx = r.json()["context"]
    assert ctx["compressedMessages"] > 0 and ctx["requestTokens"] <= ctx["budgetTokens"]
    assert any(g.startswith("history:") for g in ctx["gaveWay"])
    assert len(transcript(stack, user, session)) == 14  # compression lives only in the request


def test_a_message_that_alone_exceeds_the_budget_gets_413_and_writes_nothing(stack):
    user, session = "budget-user-2", f"b-{uuid.uuid4().hex[:8]}"
    stack.turn(user, session, "a first turn")
    before = stack.settled_scan()
    message = "word " * 20_000
    r = stack.turn(user, session, message)
    assert r.status_code == 413
    body = r.json()["error"]
    assert body["code"] == "message_too_large"
    assert f"{count_tokens(message)} tokens" in body["message"] and "budget is 8000 tokens" in body["message"]
    assert stack.scan_all() == before
    assert len(transcript(stack, user, session)) == 2


def test_knowledge_snippets_enter_the_request_but_are_never_stored(stack):
    user, session = "kb-user", f"k-{uuid.uuid4().hex[:8]}"
    canary = f"kbcanary{uuid.uuid4().hex}"
    r = stack.turn(user, session, "How long do refunds take?", knowledge=[
        {"source": "faq#2", "text": f"Refunds take 5 days. {canary}"},
        {"source": "faq#9", "text": "Gift wrapping is free in December."}])
    assert r.status_code == 200 and r.json()["context"]["knowledge"] == 2
    assert all(canary not in m["text"] for m in transcript(stack, user, session))
    for item in stack.scan_all():
        assert canary not in str(item)
