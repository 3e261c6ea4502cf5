"""What real Bedrock answers and the Stubber of test_bedrock never did: Nova's inline reasoning,
its invalid tool-use sequences, stop reasons, refusals of a misconfigured model, models that
reject inference parameters, and a Lambda function that runs out of time mid-turn.

Every response below is one Bedrock documents (Converse API reference, the Nova user guide's
tool-use troubleshooting), returned through botocore's Stubber, which checks each request
against the real service model."""

# ruff: noqa: F811 - the Stubber fixtures of test_bedrock are imported, then requested by name
from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime

import pytest
from botocore.exceptions import ClientError
from convmem.adapters.bedrock_model import BedrockModel
from convmem.composition import build_api, build_facts
from convmem.domain.models import Message
from convmem.errors import DependencyUnavailableError
from convmem.ports import FactsJob
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from tests.functional.conftest import load_event, scan_all
from tests.functional.test_bedrock import (  # noqa: F401 - fixtures
    bedrock_settings,
    captured_logs,
    converse_out,
    decrypted_rows,
    embedding,
    queue_bodies,
    runtime,
    tool_use,
)

USER, SESSION = "sample-user", "sample-session"
AT = datetime(2026, 12, 1, tzinfo=UTC)
INVALID_TOOL_USE = "Model produced invalid sequence as part of ToolUse. Please refer to the model tool use troubleshooting guide."


class Context(LambdaContext):
    """A Lambda context whose remaining time runs down, as the real one does."""

    def __init__(self, function_name: str, timeout_s: float) -> None:
        super().__init__(function_name)
        self._ends = time.monotonic() + timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return int((self._ends - time.monotonic()) * 1000)


def api(aws, settings, runtime):
    template, resolver = aws
    module, name = load_module(template, "ApiFunction", resolver)
    module.services = lambda: build_api(settings, clients={"bedrock-runtime": runtime})
    return lambda event, context=None: getattr(module, name)(event, context or LambdaContext("ApiFunction", timeout_s=29))


def turn_event(message="Where is my order A-1042?", client_turn_id="ct-real-1"):
    event = load_event("api_turn.json")
    event["body"] = json.dumps({"message": message, "clientTurnId": client_turn_id})
    return event


def session_rows(resolver):
    return [i for i in scan_all(resolver) if i.get("PK", {}).get("S", "").startswith("SESSION#")]


# --- 10: Nova's <thinking> ------------------------------------------------------------------------
def test_nova_inline_thinking_is_neither_returned_nor_stored_nor_queued(aws, bedrock_settings, runtime, captured_logs):
    template, resolver = aws
    # Nova v1 with tools configured writes its chain of thought into the text, around tool calls too.
    runtime.stub.add_response("converse", converse_out([
        {"text": "<thinking>REASONING-CANARY I should look the order up.</thinking>"},
        {"toolUse": {"toolUseId": "t-1", "name": "lookup_order", "input": {"order": "A-1042"}}}], "tool_use"))
    runtime.stub.add_response("converse", converse_out([
        {"text": "<thinking>REASONING-CANARY The tool says Tuesday.</thinking>\n\nYour order ships on Tuesday."}]))
    services = build_api(bedrock_settings, clients={"bedrock-runtime": runtime})
    result = services.turns.take_turn(USER, SESSION, TurnInput(message="Where is my order A-1042?"))

    assert result.reply == "Your order ships on Tuesday."
    assert decrypted_rows(services) == ["Where is my order A-1042?", "Your order ships on Tuesday."]
    transcript = json.dumps(decrypted_rows(services), ensure_ascii=False)
    for where in (transcript, json.dumps(queue_bodies(resolver)), captured_logs.getvalue(), result.model_dump_json()):
        assert "REASONING-CANARY" not in where and "<thinking>" not in where


def test_thinking_cut_open_at_the_token_limit_is_not_a_summary(bedrock_settings, runtime):
    runtime.stub.add_response("converse", converse_out(
        [{"text": "Visitor asked about order ZX-1. <thinking>REASONING-CANARY and then"}], "max_tokens"))
    model = BedrockModel(runtime=runtime, settings=bedrock_settings)
    summary = model.fold_summary(None, [Message(seq=1, role="visitor", text="order ZX-1?", channel="web", at=AT)], 100)
    assert summary == '[m1-1] note: "Visitor asked about order ZX-1."'  # the model's part, quoted, without the cut thinking


# --- 11: invalid ToolUse sequence -------------------------------------------------------------------
@pytest.mark.parametrize("failure", ["ModelErrorException", "malformed_tool_use"])
def test_an_invalid_tool_use_sequence_is_retried_once_with_greedy_decoding(aws, bedrock_settings, runtime, failure):
    if failure == "ModelErrorException":
        runtime.stub.add_client_error("converse", failure, INVALID_TOOL_USE, http_status_code=424)
    else:  # the same failure as a stop reason
        runtime.stub.add_response("converse", converse_out([{"text": "<tool>lookup_order"}], failure))
    runtime.stub.add_response("converse", converse_out([{"text": "It ships on Tuesday."}]))
    result = api(aws, bedrock_settings, runtime)(turn_event())
    assert result["statusCode"] == 200 and json.loads(result["body"])["reply"] == "It ships on Tuesday."
    # Nova's tool-use guidance: greedy decoding (temperature 0, topK 1), on the first call and the retry.
    for _, request in runtime.sent:
        assert request["inferenceConfig"] == {"maxTokens": bedrock_settings.reply_reserve_tokens, "temperature": 0.0}
        assert request["additionalModelRequestFields"] == {"inferenceConfig": {"topK": 1}}
    assert len(runtime.sent) == 2


def test_an_invalid_tool_use_sequence_twice_is_503_writes_nothing_and_frees_the_turn(aws, bedrock_settings, runtime, captured_logs):
    template, resolver = aws
    call = api(aws, bedrock_settings, runtime)
    for _ in range(2):
        runtime.stub.add_client_error("converse", "ModelErrorException", INVALID_TOOL_USE, http_status_code=424)
    out = call(turn_event())
    assert out["statusCode"] == 503 and json.loads(out["body"])["error"]["code"] == "model_error"
    assert session_rows(resolver) == [] and len(runtime.sent) == 2  # once more, not the 4 throttling attempts
    assert '"aws_error_code":"ModelErrorException"' in captured_logs.getvalue().replace(" ", "")
    runtime.stub.add_response("converse", converse_out([{"text": "Tuesday."}]))
    assert call(turn_event())["statusCode"] == 200  # the clientTurnId was released


# --- 13: stop reasons and refusals ---------------------------------------------------------------------
def test_a_reply_cut_at_max_tokens_is_reported_in_the_context(aws, bedrock_settings, runtime):
    runtime.stub.add_response("converse", converse_out([{"text": "Your order ships on Tues"}], "max_tokens"))
    runtime.stub.add_response("converse", converse_out([{"text": "All done."}]))
    call = api(aws, bedrock_settings, runtime)
    body = json.loads(call(turn_event())["body"])
    assert body["reply"] == "Your order ships on Tues" and body["context"]["replyTruncated"] is True
    assert json.loads(call(turn_event("and now?", "ct-real-2"))["body"])["context"]["replyTruncated"] is False


@pytest.mark.parametrize("stop", ["content_filtered", "guardrail_intervened"])
def test_a_blocked_reply_is_a_documented_422_and_nothing_is_stored(aws, bedrock_settings, runtime, stop):
    template, resolver = aws
    # What Bedrock sends back when a filter steps in: canned text, which is not the agent's words.
    runtime.stub.add_response("converse", converse_out([{"text": "Sorry, the model cannot answer this question."}], stop))
    call = api(aws, bedrock_settings, runtime)
    out = call(turn_event())
    assert out["statusCode"] == 422 and json.loads(out["body"])["error"]["code"] == "reply_blocked"
    assert session_rows(resolver) == [] and "Sorry, the model" not in json.dumps(scan_all(resolver))
    event = load_event("api_health.json")
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/v1/openapi.json"
    openapi = json.loads(call(event)["body"])
    responses = openapi["paths"]["/v1/sessions/{sessionId}/turns"]["post"]["responses"]
    assert "reply_blocked" in responses["422"]["description"] and "model_misconfigured" in responses["500"]["description"]


@pytest.mark.parametrize(("code", "status"), [
    ("ValidationException", 400),  # e.g. "`temperature` and `top_p` cannot both be specified for this model"
    ("AccessDeniedException", 403),  # "You don't have access to the model with the specified model ID."
    ("ResourceNotFoundException", 404),  # a model id that does not exist in the Region
])
def test_a_model_that_refuses_the_request_is_not_a_retry_is_safe_503(aws, bedrock_settings, runtime, captured_logs, code, status):
    template, resolver = aws
    runtime.stub.add_client_error("converse", code, "refused", http_status_code=status)
    out = api(aws, bedrock_settings, runtime)(turn_event())
    assert out["statusCode"] == 500 and json.loads(out["body"])["error"]["code"] == "model_misconfigured"
    assert len(runtime.sent) == 1 and session_rows(resolver) == []  # not retried: it would answer the same
    logs = captured_logs.getvalue().replace(" ", "")
    assert f'"aws_error_code":"{code}"' in logs and f'"model_id":"{bedrock_settings.reply_model_id}"' in logs


# --- 14: parameters per model family -------------------------------------------------------------------
@pytest.mark.parametrize(("model_id", "sent"), [
    ("amazon.nova-micro-v1:0", {"temperature", "topP"}),
    ("us.amazon.nova-micro-v1:0", {"temperature", "topP"}),
    ("anthropic.claude-3-5-haiku-20241022-v1:0", {"temperature", "topP"}),
    ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", {"temperature"}),
    ("global.anthropic.claude-haiku-4-5-20251001-v1:0", {"temperature"}),
    ("arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-opus-4-5-20251101-v1:0", {"temperature"}),
])
def test_only_the_inference_parameters_a_model_accepts_are_sent(bedrock_settings, runtime, model_id, sent):
    runtime.stub.add_response("converse", converse_out([{"text": "A summary."}]))
    model = BedrockModel(runtime=runtime, settings=bedrock_settings.model_copy(update={"utility_model_id": model_id}))
    model.fold_summary(None, [Message(seq=1, role="visitor", text="hello", channel="web", at=AT)], 100)
    [(_, request)] = runtime.sent
    assert request["modelId"] == model_id
    assert set(request["inferenceConfig"]) - {"maxTokens"} == sent


# --- 12: one deadline per turn ---------------------------------------------------------------------------
@pytest.fixture()
def slow_converse(runtime):
    """The first Converse call hangs (a slow model, a stalled connection) until released."""
    release, calls = threading.Event(), []

    def hang(**_):
        calls.append(time.monotonic())
        if len(calls) == 1:
            release.wait(30)
            raise RuntimeError("abandoned")  # never reaches the Stubber: the turn gave up on it

    runtime.meta.events.register_first("before-parameter-build.bedrock-runtime.Converse", hang)
    yield calls
    release.set()


def test_a_turn_gives_up_before_the_function_times_out_and_frees_its_client_turn_id(aws, bedrock_settings, runtime, slow_converse):
    template, resolver = aws
    # (a reserve of 1 s, not the 3 s default, keeps the test short; less than 1 s left too little for
    # the give-up's own writes on a loaded two-core machine: 2.54 s against a 2.5 s timeout, once)
    settings = bedrock_settings.model_copy(update={"turn_reserve_s": 1.0, "model_min_call_s": 0.2})
    call = api(aws, settings, runtime)
    runtime.stub.add_response("converse", converse_out([{"text": "Tuesday."}]))
    started = time.monotonic()
    out = call(turn_event(), Context("ApiFunction", timeout_s=3.0))
    took = time.monotonic() - started
    assert out["statusCode"] == 503 and json.loads(out["body"])["error"]["code"] == "deadline_exceeded"
    assert took < 3.0, f"the turn ran {took:.2f} s, past the function's 3 s timeout"
    assert session_rows(resolver) == []
    # The caller retries at once: the id is free (not 409 for the 120 s lease) and the turn lands once.
    again = call(turn_event(), Context("ApiFunction", timeout_s=3.0))
    assert again["statusCode"] == 200 and json.loads(again["body"])["reply"] == "Tuesday."
    assert len([r for r in session_rows(resolver) if r["SK"]["S"].startswith("MSG#")]) == 2


def test_no_model_call_starts_without_the_time_to_finish(aws, bedrock_settings, runtime):
    settings = bedrock_settings.model_copy(update={"turn_reserve_s": 1.0, "model_min_call_s": 1.0})
    services = build_api(settings, clients={"bedrock-runtime": runtime})
    with pytest.raises(DependencyUnavailableError) as err:
        services.turns.take_turn(USER, SESSION, TurnInput(message="hello"), time_left_s=1.5)  # 0.5 s for the model
    assert err.value.code == "deadline_exceeded" and runtime.sent == []


def test_a_throttled_call_is_not_retried_past_the_turns_deadline(aws, bedrock_settings, runtime):
    # The model's 1.0 s fits once the turn has read its rows (0.5 s of room for them, whatever the
    # machine's load), and the throttled answer takes 0.5 s to come back: a second call no longer fits.
    settings = bedrock_settings.model_copy(update={"turn_reserve_s": 0.5, "model_min_call_s": 1.0, "model_max_attempts": 10})
    runtime.stub.add_client_error("converse", "ThrottlingException", http_status_code=429)
    runtime.meta.events.register("before-parameter-build.bedrock-runtime.Converse", lambda **_: time.sleep(0.5))
    services = build_api(settings, clients={"bedrock-runtime": runtime})
    time_left_s = 2.0
    started = time.monotonic()
    with pytest.raises(DependencyUnavailableError) as err:
        services.turns.take_turn(USER, SESSION, TurnInput(message="hello"), time_left_s=time_left_s)
    assert len(runtime.sent) == 1 and time.monotonic() - started < time_left_s
    # given up on the throttle itself: no second call was tried (the stub would have refused it)
    assert isinstance(err.value.__cause__, ClientError) and err.value.__cause__.response["Error"]["Code"] == "ThrottlingException"


def test_a_slow_message_embedding_falls_back_to_lexical_recall_in_time(aws, settings, bedrock_settings, runtime):
    local = build_api(settings)
    local.turns.take_turn(USER, SESSION, TurnInput(message="I live in Busan"))
    runtime.stub.add_response("converse", converse_out([{"text": json.dumps({"facts": [
        {"key": "home.location", "value": "Busan", "statement": "Lives in Busan"}]})}]))
    runtime.stub.add_response("invoke_model", embedding([1.0, 0.0]))
    build_facts(bedrock_settings, clients={"bedrock-runtime": runtime}).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    release, asked = threading.Event(), []

    def stalled_invoke_model(**kwargs):  # a stalled connection: nothing comes back until released
        asked.append(kwargs["modelId"])
        release.wait(30)
        raise RuntimeError("abandoned")

    runtime.invoke_model = stalled_invoke_model  # the Stubber cannot answer out of order; Converse still goes through it
    runtime.stub.add_response("converse", converse_out([{"text": "Busan it is."}]))
    try:
        started = time.monotonic()
        result = build_api(bedrock_settings.model_copy(update={"recall_embed_max_s": 0.5, "model_min_call_s": 0.1}),
                           clients={"bedrock-runtime": runtime}).turns.take_turn(
            USER, "s-2", TurnInput(message="where do I live?"), time_left_s=20)
        took = time.monotonic() - started
    finally:
        release.set()
    assert asked == [bedrock_settings.embedding_model_id]
    assert result.reply == "Busan it is." and result.context.fact_ids  # recalled lexically
    assert 0.5 <= took < 2.0, f"the embedding held the turn for {took:.2f} s"

