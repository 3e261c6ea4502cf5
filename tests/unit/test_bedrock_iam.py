"""Bedrock access as IAM decides it, read from template.yaml: model ids may be inference profiles.

A call through a cross-Region inference profile is authorised twice: on the profile's ARN in the
calling Region, and on the foundation model's ARN in whichever destination Region serves it
(region-less for global profiles), with the profile's ARN in ``bedrock:InferenceProfileArn``.
The small evaluator below applies each function's Allow statements the way IAM does (ARN
wildcards, StringEquals / StringLike conditions)."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from typing import Any

import pytest

from local.template import load_template

TEMPLATE = load_template()
RESOURCES = TEMPLATE["Resources"]
ACCOUNT, REGION = "123456789012", "us-east-1"
# Which model parameters each function calls (docs/architecture.md "Models and tools", IAM).
USES = {
    "ApiFunction": ["ReplyModelId", "EmbeddingModelId"],
    "FactsFunction": ["UtilityModelId", "EmbeddingModelId"],
    "FoldFunction": ["UtilityModelId"],
    "ProfileRefreshFunction": ["UtilityModelId"],
}


def _sub(value: Any, params: dict[str, str]) -> Any:
    if isinstance(value, dict) and "Fn::Sub" in value:
        text = value["Fn::Sub"]
        names = {"AWS::Partition": "aws", "AWS::Region": REGION, "AWS::AccountId": ACCOUNT, **params}
        return re.sub(r"\$\{([^}]+)\}", lambda m: names[m.group(1)], text)
    if isinstance(value, list):
        return [_sub(v, params) for v in value]
    return value


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def allowed(function: str, params: dict[str, str], resource: str, context: dict[str, str]) -> bool:
    for policy in RESOURCES[function]["Properties"].get("Policies", []):
        for st in policy["Statement"]:
            if "Fn::If" in st or "bedrock:InvokeModel" not in _as_list(st["Action"]):
                continue
            if not any(fnmatchcase(resource, pattern) for pattern in _as_list(_sub(st["Resource"], params))):
                continue
            match = {"StringEquals": str.__eq__, "StringLike": fnmatchcase}
            if all(
                key in context and any(match[operator](context[key], v) for v in _as_list(_sub(wanted, params)))
                for operator, tests in st.get("Condition", {}).items() for key, wanted in tests.items()
            ):
                return True
    return False


def _params(model: str) -> dict[str, str]:
    return {"ReplyModelId": model, "UtilityModelId": model, "EmbeddingModelId": "amazon.titan-embed-text-v2:0"}


@pytest.mark.parametrize("function", sorted(USES))
@pytest.mark.parametrize(("profile", "destinations"), [
    ("us.amazon.nova-lite-v1:0", ["us-east-1", "us-east-2", "us-west-2"]),
    ("eu.anthropic.claude-sonnet-4-5-20250929-v1:0", ["eu-central-1", "eu-west-3", "eu-north-1"]),
    ("apac.amazon.nova-micro-v1:0", ["ap-northeast-2", "ap-southeast-2"]),
    ("global.anthropic.claude-haiku-4-5-20251001-v1:0", ["", "us-west-2"]),  # "": region-less (global)
])
def test_an_inference_profile_id_is_granted_with_the_models_it_routes_to(function, profile, destinations):
    params = _params(profile)
    profile_arn = f"arn:aws:bedrock:{REGION}:{ACCOUNT}:inference-profile/{profile}"
    base = profile.split(".", 1)[1]
    for name in USES[function]:
        if params[name] != profile:
            continue
        assert allowed(function, params, profile_arn, {}), f"{function}: the profile {profile_arn} is denied"
        for region in destinations:
            model_arn = f"arn:aws:bedrock:{region}::foundation-model/{base}"
            via = {"bedrock:InferenceProfileArn": profile_arn}
            assert allowed(function, params, model_arn, via), f"{function}: {model_arn} through the profile is denied"
            # ... but only through that profile: not called directly, not through another profile.
            assert not allowed(function, params, model_arn, {}), f"{function}: {model_arn} is granted directly"
            other = f"arn:aws:bedrock:{REGION}:{ACCOUNT}:inference-profile/us.amazon.nova-premier-v1:0"
            assert not allowed(function, params, model_arn, {"bedrock:InferenceProfileArn": other})


@pytest.mark.parametrize("function", sorted(USES))
def test_a_plain_model_id_is_granted_directly_and_nothing_else(function):
    params = _params("amazon.nova-lite-v1:0")
    for name in USES[function]:
        assert allowed(function, params, f"arn:aws:bedrock:{REGION}::foundation-model/{params[name]}", {})
    assert not allowed(function, params, f"arn:aws:bedrock:{REGION}::foundation-model/amazon.nova-pro-v1:0", {})
    assert not allowed(function, params, f"arn:aws:bedrock:{REGION}:{ACCOUNT}:inference-profile/us.amazon.nova-pro-v1:0", {})
