"""The Converse request one turn of a 20-message session produces, and its tokens against the
budget. In-process moto; 10 turns with the local model (with a fold, facts and a profile), then
one turn on the Bedrock path with botocore's Stubber capturing the request instead of sending it.

    .venv/bin/python -m bench.converse_request
"""

from __future__ import annotations

import json
import os


def redact(value, limit=48):
    if isinstance(value, dict):
        return {k: redact(v, limit) if k != "modelId" else v for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, limit) for v in value]
    if isinstance(value, str) and len(value) > limit:
        return value[:limit] + f"… [{len(value)} chars]"
    return value


def main() -> dict:
    os.environ.update({"AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_DEFAULT_REGION": "us-east-1",
                       "POWERTOOLS_LOG_LEVEL": "WARNING"})
    os.environ.pop("AWS_ENDPOINT_URL", None)
    from moto import mock_aws

    with mock_aws():
        import boto3
        from botocore.stub import Stubber
        from convmem.composition import build_api, build_facts, build_fold, build_profile
        from convmem.domain.tokens import count_tokens
        from convmem.ports import DueUser, FactsJob
        from convmem.service.turn import TurnInput
        from convmem.settings import Settings

        from local.aws import create_resources
        from local.template import function_environment, load_template

        template = load_template()
        resolver = create_resources(template, {"ApiKeySecret": "bench"})
        settings = Settings.from_env({**function_environment(template, "ApiFunction", resolver), "FOLD_QUEUE_URL": "",
                                      "FACTS_QUEUE_URL": ""})
        local = build_api(settings)
        said = ["Hi, my name is Minji and I live in Busan.", "My order A-1042 has not arrived yet.",
                "It was a blue kettle, 39,000 won, ordered on 24 November.", "Can you check the courier?",
                "The tracking page says it is stuck in Daejeon.", "I prefer email updates, not calls.",
                "My email is minji@example.com.", "Could you ask for a redelivery on Saturday?",
                "Thanks. Also, is there a discount for the delay?", "Great, please note that."]
        for i, text in enumerate(said):
            local.turns.take_turn("minji", "s-20", TurnInput(message=text, channel="web"))
            build_facts(settings).process(FactsJob(user_id="minji", session_id="s-20", visitor_seq=2 * i + 1))
        build_fold(settings).fold("s-20", "minji", 20 - settings.window_messages)
        state = local.sessions.get_session("minji", "s-20").state
        build_profile(settings).refresh(DueUser("minji", state.updated_at))

        runtime = boto3.client("bedrock-runtime", region_name="us-east-1")
        sent = []
        runtime.meta.events.register("before-parameter-build.bedrock-runtime.Converse", lambda params, **_: sent.append(params))
        bedrock = settings.model_copy(update={"model_provider": "bedrock"})
        with Stubber(runtime) as stub:
            stub.add_response("converse", {
                "output": {"message": {"role": "assistant", "content": [{"text": "I have asked the courier."}]}},
                "stopReason": "end_turn", "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
                "metrics": {"latencyMs": 1}})
            result = build_api(bedrock, clients={"bedrock-runtime": runtime}).turns.take_turn(
                "minji", "s-20", TurnInput(message="Any news on my kettle delivery?", channel="web"))
        request = sent[0]
        return {
            "converse_request": redact(request),
            "context": result.context.model_dump(),
            "request_tokens": result.context.request_tokens,
            "tool_definition_tokens": count_tokens(json.dumps(request.get("toolConfig", {}), separators=(",", ":"))),
            "budget": {"budget_tokens": settings.budget_tokens, "reply_reserve_tokens": settings.reply_reserve_tokens,
                       "room_for_the_request": settings.budget_tokens - settings.reply_reserve_tokens},
        }


if __name__ == "__main__":
    print(json.dumps(main(), indent=2, ensure_ascii=False))
