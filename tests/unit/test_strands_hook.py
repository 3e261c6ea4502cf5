"""The Strands hook's edges, over httpx.MockTransport (no sockets): what is stored when the agent
fails, when its answer has no text, and that the agent's own prompt survives."""

from __future__ import annotations

import json

import httpx
import pytest
from convmem_client import ConvmemClient, PayloadTooLargeError
from convmem_client.strands import ConvmemMemory
from strands import Agent

from tests.scripted_strands_model import Say, ScriptedModel


class FakeConvmem:
    """The two routes the hook calls: a fixed context, and a record of exchanges."""

    def __init__(self, context_status: int = 200) -> None:
        self.context_status = context_status
        self.exchanges: list[dict] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if request.url.path.endswith("/context"):
            if self.context_status != 200:
                return httpx.Response(self.context_status, json={"error": {"code": "message_too_large", "message": "m"}})
            return httpx.Response(200, json={
                "system": [{"text": "SERVICE PROMPT"}, {"text": "Facts this person stated about themselves:\n- \"x\""}],
                "messages": [{"role": "user", "content": [{"text": body["message"]}]}], "context": {}})
        self.exchanges.append(body)
        return httpx.Response(201, json={"sessionId": "s", "visitorSeq": 1, "agentSeq": 2})


def agent_with(fake: FakeConvmem, script) -> tuple[Agent, ScriptedModel]:
    client = ConvmemClient("http://convmem.test", api_key="k", user_id="u", transport=httpx.MockTransport(fake),
                           max_retries=0)
    model = ScriptedModel(script)
    return Agent(model=model, hooks=[ConvmemMemory(client, "s")], system_prompt="OWN PROMPT", callback_handler=None), model


def test_a_failed_model_call_stores_nothing_and_gives_the_agent_its_prompt_back():
    def broken(_messages):
        raise RuntimeError("model down")

    fake = FakeConvmem()
    agent, model = agent_with(fake, broken)
    with pytest.raises(RuntimeError, match="model down"):
        agent("hello")
    assert fake.exchanges == [] and agent.system_prompt == "OWN PROMPT"
    assert model.requests[0].system_text.startswith("OWN PROMPT\nSERVICE PROMPT")


def test_a_message_convmem_refuses_never_reaches_the_model():
    fake = FakeConvmem(context_status=413)
    agent, model = agent_with(fake, lambda _m: Say("never"))
    with pytest.raises(PayloadTooLargeError):
        agent("a very long message")
    assert model.requests == [] and fake.exchanges == []


def test_an_answer_is_stored_once_as_the_visible_text():
    fake = FakeConvmem()
    agent, _model = agent_with(fake, lambda _m: Say("  Hello there.  "))
    agent("hi")
    assert [(e["visitor"], e["agent"]) for e in fake.exchanges] == [("hi", "Hello there.")]
    assert fake.exchanges[0]["clientTurnId"]


def test_an_image_beside_the_text_reaches_the_model_and_only_the_text_is_stored():
    fake = FakeConvmem()
    agent, model = agent_with(fake, lambda _m: Say("A cat."))
    image = {"image": {"format": "png", "source": {"bytes": b"\x89PNG"}}}
    agent([{"text": "what is this?"}, image])
    sent = model.requests[0].messages[-1]["content"]
    assert sent[0] == {"text": "what is this?"} and sent[1]["image"]["format"] == "png"
    assert [(e["visitor"], e["agent"]) for e in fake.exchanges] == [("what is this?", "A cat.")]
