"""A Strands agent with convmem as its memory (convmem_client.strands), offline: a scripted model
provider, a real tool, the real local stack. Thirty visitor messages; what the model was sent and
what convmem stored are both checked."""

from __future__ import annotations

import json
import time
import uuid

import pytest
from convmem_client import ConvmemClient
from convmem_client.strands import ConvmemMemory
from strands import Agent, tool

from tests.scripted_strands_model import CallTool, Say, ScriptedModel

pytestmark = pytest.mark.integration

TURNS = 30
CANARY = "TOOL-CANARY-5f3a"  # only the tool ever says this: it must never reach convmem


@tool
def lookup_order(order: str) -> str:
    """Look up where an order is."""
    return f"{CANARY} order {order}: left warehouse 7, carrier ref ZX-{order}"


def visitor_message(i: int) -> str:
    if i == 1:
        return "My name is Minji and I live in Busan"
    if i % 5 == 0:
        return f"Where is my order {1000 + i}?"
    return f"Question {i}: tell me something about topic number {i}, with enough words to fill a message."


def script(messages: list[dict]) -> Say | CallTool:
    """The model: a tool call for an order question, an answer from the tool's result after it."""
    last = messages[-1]
    results = [b["toolResult"] for b in last["content"] if "toolResult" in b]
    if results:
        said = results[0]["content"][0]["text"]
        return Say(f"Your order {said.split()[2].rstrip(':')} is on its way.")
    text = last["content"][-1]["text"]
    if "Where is my order" in text:
        order = text.rsplit(" ", 1)[1].rstrip("?")
        return CallTool("lookup_order", {"order": order}, f"tool-{order}")
    return Say(f"Answer to: {text[:40]}")


def wait_for(what, probe, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := probe():
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_strands_agent_remembers_through_convmem_and_tool_traffic_never_reaches_it(stack):
    client = ConvmemClient(stack.url, api_key=stack.api_key, user_id=f"strands-{uuid.uuid4().hex[:10]}")
    session = "support"
    model = ScriptedModel(script)
    memory = ConvmemMemory(client, session_id=session, channel="strands")
    agent = Agent(model=model, tools=[lookup_order], hooks=[memory], system_prompt="You are Orbit, a shop's assistant.",
                  callback_handler=None)

    replies: list[str] = []
    first_request_of_turn: dict[int, int] = {}
    for i in range(1, TURNS + 1):
        first_request_of_turn[i] = len(model.requests)
        replies.append(str(agent(visitor_message(i))).strip())
        # Exactly two rows a turn, whatever the agent did in between (tool turns call the model twice).
        assert client.session(session).message_count == 2 * i
        if i == 1:
            wait_for("the facts of the first message", lambda: len(client.facts()) >= 2)
        if i == 15:
            wait_for("a summary of the older messages", lambda: client.session(session).summarized_through > 0)

    # What convmem stored: the visitor's words and the agent's final answers, nothing else.
    transcript = list(client.iter_messages(session))
    assert [(m.role, m.text) for m in transcript] == [
        pair for i in range(1, TURNS + 1) for pair in (("visitor", visitor_message(i)), ("agent", replies[i - 1]))]
    assert replies[4] == "Your order 1005 is on its way."  # the tool's answer reached the visitor...
    export = json.dumps(client.export().raw, ensure_ascii=False)
    assert CANARY not in export and "lookup_order" not in export and "ZX-" not in export  # ...never convmem
    assert all(m.channel == "strands" for m in transcript)

    # What the model was sent: the agent's own prompt, then convmem's memory, before every call.
    assert all(r.system_text.startswith("You are Orbit, a shop's assistant.") for r in model.requests)
    assert len(model.requests) == TURNS + TURNS // 5  # one call a turn, two on the tool turns
    facts = {f.text for f in client.facts()}
    assert {"Their name is Minji"} <= facts
    late = model.requests[first_request_of_turn[TURNS]]
    assert json.dumps("Their name is Minji") in late.system_text
    summary = client.session(session).summary
    assert summary and "Summary of the earlier conversation" in late.system_text
    assert summary.splitlines()[0] in late.system_text  # the summary itself, not only its header
    # The history convmem gave: fitted to its window, no tool traffic from earlier turns, the
    # visitor's message last.
    history = late.messages
    assert history[-1] == {"role": "user", "content": [{"text": visitor_message(TURNS)}]}
    assert len(history) < 2 * TURNS
    assert not any("toolUse" in b or "toolResult" in b for m in history for b in m["content"])
    # Inside a tool turn the second call carries the tool's result, with the same memory.
    tool_turn = first_request_of_turn[TURNS]  # turn 30 asks for an order
    second = model.requests[tool_turn + 1]
    assert any("toolResult" in b for b in second.messages[-1]["content"])
    assert second.system == model.requests[tool_turn].system
    assert agent.system_prompt == "You are Orbit, a shop's assistant."  # the agent's own prompt is back
