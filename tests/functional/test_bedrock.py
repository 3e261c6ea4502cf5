"""The Bedrock model path with botocore's Stubber (every request is checked against the real
service model): tools inside a turn, nothing of them stored, throttling, extraction, order."""

from __future__ import annotations

import io
import json

import boto3
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber
from convmem.adapters.bedrock_model import BedrockModel
from convmem.adapters.local_model import LocalModel
from convmem.composition import build_api, build_facts, build_fold
from convmem.domain.context_assembly import FACTS_HEADER, MEMORY_FRAME, PROFILE_HEADER, SUMMARY_HEADER
from convmem.ports import FactsJob
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from tests.functional import sample_tools
from tests.functional.conftest import load_event, scan_all

USER, SESSION = "sample-user", "sample-session"
CANARIES = ("TOOL-INPUT-CANARY", "TOOL-OUTPUT-CANARY", "REASONING-CANARY")


@pytest.fixture()
def bedrock_settings(settings):
    return settings.model_copy(update={
        "model_provider": "bedrock", "tool_modules": ("tests.functional.sample_tools",), "model_max_attempts": 3,
    })


@pytest.fixture()
def runtime():
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    client.sent = []  # (operation, API parameters) of every call, as the adapter made it
    client.meta.events.register(
        "before-parameter-build.bedrock-runtime.*", lambda params, model, **_: client.sent.append((model.name, params)))
    with Stubber(client) as stub:
        client.stub = stub
        yield client
        stub.assert_no_pending_responses()


def converse_out(content, stop="end_turn"):
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 12},
    }


def tool_use(use_id, order):
    return converse_out([{"text": "Let me check."}, {"toolUse": {"toolUseId": use_id, "name": "lookup_order", "input": {"order": order}}}], "tool_use")


def embedding(vector):
    data = json.dumps({"embedding": vector, "inputTextTokenCount": 3}).encode()
    return {"body": StreamingBody(io.BytesIO(data), len(data)), "contentType": "application/json"}


def decrypted_rows(services, session=SESSION):
    return [m.text for m in services.sessions.transcript(USER, session).messages]


def queue_bodies(resolver):
    sqs = boto3.client("sqs")
    out = []
    for logical in ("FoldQueue", "FactsQueue"):
        for m in sqs.receive_message(QueueUrl=resolver.refs[logical], MaxNumberOfMessages=10, AttributeNames=["All"],
                                     MessageAttributeNames=["All"]).get("Messages", []):
            out.append(json.dumps(m))
    return out


@pytest.fixture()
def captured_logs():
    """Everything the convmem logger writes during the test (Powertools does not propagate)."""
    import logging

    from convmem.observability import logger

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logger.registered_formatter)  # the JSON lines Lambda would ship
    target = logging.getLogger("convmem")
    target.addHandler(handler)
    yield stream
    target.removeHandler(handler)


def test_a_turn_where_the_model_calls_a_tool_twice_stores_two_rows_and_no_tool_traffic(
    aws, bedrock_settings, runtime, capsys, captured_logs
):
    sample_tools.CALLS.clear()
    runtime.stub.add_response("converse", tool_use("t-1", "TOOL-INPUT-CANARY-1"))
    # The second call fails inside the tool, with its input in the exception: the failure is logged.
    runtime.stub.add_response("converse", tool_use("t-2", "TOOL-INPUT-CANARY-2 EXPLODE"))
    runtime.stub.add_response("converse", converse_out([
        {"reasoningContent": {"reasoningText": {"text": "REASONING-CANARY think", "signature": "sig"}}},
        {"text": "Your order ships on Tuesday."},
    ]))
    services = build_api(bedrock_settings, clients={"bedrock-runtime": runtime})
    result = services.turns.take_turn(USER, SESSION, TurnInput(message="Where is my order A-1042?"))

    assert result.reply == "Your order ships on Tuesday."
    assert [c["order"] for c in sample_tools.CALLS] == ["TOOL-INPUT-CANARY-1", "TOOL-INPUT-CANARY-2 EXPLODE"]
    # The model saw the tool results, inside the turn only.
    third = runtime.sent[2][1]
    results = [b["toolResult"] for m in third["messages"] for b in m["content"] if "toolResult" in b]
    assert [r["status"] for r in results] == ["success", "error"] and "TOOL-OUTPUT-CANARY" in json.dumps(results)
    assert third["toolConfig"]["tools"][0]["toolSpec"]["name"] in {"current_time", "lookup_order"}

    template, resolver = aws
    items = [i for i in scan_all(resolver) if i.get("SK", {}).get("S", "").startswith("MSG#")]
    assert len(items) == 2
    rows = decrypted_rows(services)
    assert rows == ["Where is my order A-1042?", "Your order ships on Tuesday."]
    out = capsys.readouterr()
    logs = out.out + out.err + captured_logs.getvalue()
    assert "tool failed" in logs and "lookup_order" in logs  # the logs were captured, ids only
    stored = json.dumps([str(i) for i in scan_all(resolver)]) + json.dumps(rows) + json.dumps(queue_bodies(resolver))
    for canary in CANARIES:
        assert canary not in stored, f"{canary} stored"
        assert canary not in logs, f"{canary} logged"
        assert canary not in result.model_dump_json()


def test_a_raising_tool_becomes_an_error_result_not_a_crash(bedrock_settings, runtime):
    runtime.stub.add_response("converse", tool_use("t-1", "EXPLODE"))
    runtime.stub.add_response("converse", converse_out([{"text": "The order system is down, sorry."}]))
    services = build_api(bedrock_settings, clients={"bedrock-runtime": runtime})
    result = services.turns.take_turn(USER, SESSION, TurnInput(message="Where is EXPLODE?"))
    assert result.reply == "The order system is down, sorry."
    second = runtime.sent[1][1]
    [tool_result] = [b["toolResult"] for m in second["messages"] for b in m["content"] if "toolResult" in b]
    assert tool_result["status"] == "error" and "RuntimeError" in tool_result["content"][0]["text"]


def test_tool_rounds_are_bounded(bedrock_settings, runtime):
    settings = bedrock_settings.model_copy(update={"max_tool_rounds": 1})
    runtime.stub.add_response("converse", tool_use("t-1", "A-1"))
    runtime.stub.add_response("converse", tool_use("t-2", "A-2"))  # refused: no more tools this turn
    runtime.stub.add_response("converse", converse_out([{"text": "Here is what I found."}]))
    services = build_api(settings, clients={"bedrock-runtime": runtime})
    sample_tools.CALLS.clear()
    result = services.turns.take_turn(USER, SESSION, TurnInput(message="check orders"))
    assert result.reply == "Here is what I found." and [c["order"] for c in sample_tools.CALLS] == ["A-1"]


def test_bedrock_throttling_is_retried_then_503_and_nothing_written(aws, api_env, bedrock_settings, runtime):
    template, resolver = aws
    for _ in range(bedrock_settings.model_max_attempts):
        runtime.stub.add_client_error("converse", service_error_code="ThrottlingException", http_status_code=429)
    module, name = load_module(template, "ApiFunction", resolver)
    module.services = lambda: build_api(bedrock_settings, clients={"bedrock-runtime": runtime})
    before = scan_all(resolver)
    out = getattr(module, name)(load_event("api_turn.json"), LambdaContext("ApiFunction"))
    assert out["statusCode"] == 503
    assert json.loads(out["body"])["error"]["code"] == "model_unavailable"
    assert scan_all(resolver) == before
    # The clientTurnId is free again: a retry can run.
    runtime.stub.add_response("converse", converse_out([{"text": "Back again."}]))
    again = getattr(module, name)(load_event("api_turn.json"), LambdaContext("ApiFunction"))
    assert again["statusCode"] == 200 and json.loads(again["body"])["reply"] == "Back again."


def test_malformed_extraction_is_retried_once_then_nothing_is_stored(settings, bedrock_settings, runtime):
    local = build_api(settings)
    local.turns.take_turn(USER, SESSION, TurnInput(message="My name is Minji"))
    runtime.stub.add_response("converse", converse_out([{"text": "Sure! The name is Minji."}]))
    runtime.stub.add_response("converse", converse_out([{"text": '{"facts": [{"key": "name"}]}'}]))
    facts = build_facts(bedrock_settings, clients={"bedrock-runtime": runtime})
    facts.process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    assert local.facts.list_facts(USER) == []
    retry = runtime.sent[1][1]["messages"]
    assert [m["role"] for m in retry] == ["user", "assistant", "user"]


def test_valid_extraction_stores_facts_with_embeddings_and_the_turn_recalls_by_similarity(settings, bedrock_settings, runtime):
    local = build_api(settings)
    local.turns.take_turn(USER, SESSION, TurnInput(message="I live in Busan and I like green tea"))
    runtime.stub.add_response("converse", converse_out([{"text": json.dumps({"facts": [
        {"key": "home.location", "value": "Busan", "statement": "Lives in Busan"},
        {"key": "preference.green_tea", "value": "+green tea", "statement": "Likes green tea"},
    ]})}]))
    for vector in ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]):
        runtime.stub.add_response("invoke_model", embedding(vector), {
            "modelId": "amazon.titan-embed-text-v2:0", "contentType": "application/json", "accept": "application/json",
            "body": json.dumps({"inputText": "Lives in Busan" if vector[0] else "Likes green tea", "dimensions": 256, "normalize": True}),
        })
    build_facts(bedrock_settings, clients={"bedrock-runtime": runtime}).process(
        FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    stored = {f.key: f for f in local.facts.list_facts(USER)}
    assert stored["home.location"].embedding and stored["preference.green_tea"].embedding

    # The turn embeds the message and ranks by cosine: the tea fact first, though no word is shared.
    runtime.stub.add_response("invoke_model", embedding([0.1, 0.9, 0.0]))
    runtime.stub.add_response("converse", converse_out([{"text": "A warm drink then."}]))
    services = build_api(bedrock_settings, clients={"bedrock-runtime": runtime})
    result = services.turns.take_turn(USER, "s-2", TurnInput(message="what should I drink tonight?"))
    assert result.context.fact_ids == [stored["preference.green_tea"].id]
    body = json.loads(runtime.sent[-2][1]["body"])
    assert body == {"inputText": "what should I drink tonight?", "dimensions": 256, "normalize": True}


def test_the_converse_request_carries_profile_facts_summary_window_in_order(aws, settings, bedrock_settings, runtime):
    """20 turns with the local model, a fold, facts and a profile; then one Bedrock turn."""
    local = build_api(settings)
    local.turns.take_turn(USER, SESSION, TurnInput(message="My name is Minji and I live in Busan"))
    for i in range(1, 20):
        local.turns.take_turn(USER, SESSION, TurnInput(message=f"Question {i} about order ZX-{100 + i}"))
    build_fold(settings, model=LocalModel()).fold(SESSION, USER, 40 - 12)
    build_facts(settings).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    from convmem.composition import build_profile
    from convmem.ports import DueUser

    build_profile(settings).refresh(DueUser(USER, local.profile.get_profile(USER)[1] or __import__("datetime").datetime.now()))
    window = [m.text for m in local.sessions.transcript(USER, SESSION, after=28).messages]
    runtime.stub.add_response("converse", converse_out([{"text": "Busan weather is mild today."}]))
    services = build_api(bedrock_settings, clients={"bedrock-runtime": runtime})
    result = services.turns.take_turn(USER, SESSION, TurnInput(message="What is the weather like where I live?"))

    [(operation, request)] = runtime.sent
    assert operation == "Converse" and request["modelId"] == bedrock_settings.reply_model_id
    system = [b["text"] for b in request["system"]]
    assert system[:2] == [settings.system_prompt, MEMORY_FRAME]
    heads = [t.split("\n", 1)[0] + "\n" for t in system[2:]]
    assert heads == [PROFILE_HEADER, FACTS_HEADER, SUMMARY_HEADER]
    assert "Lives in Busan" in system[3] and "ZX-101" in system[4]
    messages = request["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"] * 6 + ["user"]
    assert [m["content"][0]["text"] for m in messages[:-1]] == window
    assert messages[-1]["content"][0]["text"] == "What is the weather like where I live?"
    assert request["inferenceConfig"]["maxTokens"] == settings.reply_reserve_tokens
    assert result.context.request_tokens <= settings.budget_tokens - settings.reply_reserve_tokens


def test_embeddings_request_body(bedrock_settings, runtime):
    runtime.stub.add_response("invoke_model", embedding([0.5] * 4), {
        "modelId": "amazon.titan-embed-text-v2:0", "contentType": "application/json", "accept": "application/json",
        "body": json.dumps({"inputText": "부산에 살아요", "dimensions": 256, "normalize": True}),
    })
    model = BedrockModel(runtime=runtime, settings=bedrock_settings)
    assert model.embed(["부산에 살아요"]) == [[0.5] * 4]
