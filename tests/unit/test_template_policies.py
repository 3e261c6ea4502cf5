"""Least privilege, read from template.yaml: each function's policy names only its own resources."""

from __future__ import annotations

import re
from typing import Any

import pytest

from local.template import load_template

TEMPLATE = load_template()
RESOURCES = TEMPLATE["Resources"]
PARAMETERS = set(TEMPLATE.get("Parameters", {}))
FUNCTIONS = [k for k, v in RESOURCES.items() if v["Type"] == "AWS::Serverless::Function"]
CRYPTO = {"kms:Decrypt", "kms:GenerateDataKeyWithoutPlaintext", "kms:ReEncryptFrom", "kms:ReEncryptTo"}


def refs(value: Any) -> set[str]:
    """Logical ids and parameters a piece of template names (Ref, GetAtt, Sub)."""
    out: set[str] = set()
    if isinstance(value, dict):
        for key, arg in value.items():
            if key == "Ref":
                out.add(arg)
            elif key == "Fn::GetAtt":
                out.add(arg[0] if isinstance(arg, list) else arg.split(".")[0])
            elif key == "Fn::Sub":
                text = arg if isinstance(arg, str) else arg[0]
                out |= {m.split(".")[0] for m in re.findall(r"\$\{([^}!]+)\}", text)}
            else:
                out |= refs(arg)
    elif isinstance(value, list):
        for v in value:
            out |= refs(v)
    return {r for r in out if not r.startswith("AWS::")}


def statements(function: str) -> list[dict[str, Any]]:
    out = []
    for policy in RESOURCES[function]["Properties"].get("Policies", []):
        assert set(policy) == {"Statement"}, f"{function}: a managed or SAM policy template ({set(policy)}) grants more than it needs"
        for st in policy["Statement"]:
            if "Fn::If" in st:  # a conditional statement: check its branch
                st = st["Fn::If"][1]
            out.append(st)
    return out


def own_resources(function: str) -> set[str]:
    """What the function is wired to: its environment (with the Globals') and its event sources."""
    props = RESOURCES[function]["Properties"]
    glob = TEMPLATE["Globals"]["Function"].get("Environment", {})
    return refs(glob) | refs(props.get("Environment", {})) | refs(props.get("Events", {}))


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_policy_names_only_the_functions_own_resources(function):
    named = set().union(*(refs(st.get("Resource")) | refs(st.get("Condition")) for st in statements(function)))
    resources = {n for n in named if n in RESOURCES}
    assert resources <= own_resources(function), f"{function} may touch {resources - own_resources(function)}"
    assert named - resources <= PARAMETERS


@pytest.mark.parametrize("function", FUNCTIONS)
def test_no_wildcards(function):
    for st in statements(function):
        actions = st["Action"] if isinstance(st["Action"], list) else [st["Action"]]
        assert st.get("Resource") not in ("*", ["*"]), f"{function}: Resource *"
        assert not [a for a in actions if a.endswith(":*")], f"{function}: {actions}"


@pytest.mark.parametrize("function", FUNCTIONS)
def test_table_access_is_limited_by_leading_keys(function):
    for st in statements(function):
        if any(a.startswith("dynamodb:") for a in st["Action"]):
            keys = st["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"]
            assert keys and all(k.endswith("*") and k != "*" for k in keys), (function, keys)


def test_the_fold_cannot_read_or_write_user_items_and_only_the_api_creates_keys():
    def grants(function, action):
        return [st for st in statements(function) if action in st["Action"]]

    fold = [st for st in statements("FoldFunction") if "Condition" in st and refs(st["Resource"]) == {"ConversationTable"}]
    reach = {k: set(st["Action"]) for st in fold for k in st["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"]}
    # Its only reach into USER# items is the erasure ConditionCheck of its cursor transaction.
    assert set(reach) == {"SESSION#*", "USER#*"} and reach["USER#*"] == {"dynamodb:ConditionCheckItem"}
    creators = [f for f in FUNCTIONS if grants(f, "kms:GenerateDataKeyWithoutPlaintext")]
    assert creators == ["ApiFunction"]
    assert not [st for st in statements("EraseFunction") if any(a.startswith("kms:") for a in st["Action"])]


def test_the_key_policy_lets_only_the_functions_roles_use_the_key():
    policy = RESOURCES["BranchKeyWrappingKey"]["Properties"]["KeyPolicy"]["Statement"]
    for st in policy:
        actions = set(st["Action"] if isinstance(st["Action"], list) else [st["Action"]])
        assert "kms:*" not in actions
        if actions & CRYPTO:
            tag = st["Condition"]["StringEquals"]["aws:PrincipalTag/convmem-key-user"]
            assert tag == {"Ref": "AWS::StackName"}
    users = [f for f in FUNCTIONS if any(a in CRYPTO for st in statements(f) for a in st["Action"])]
    for f in users:
        assert RESOURCES[f]["Properties"]["Tags"]["convmem-key-user"] == {"Ref": "AWS::StackName"}, f
    assert "Tags" not in RESOURCES["EraseFunction"]["Properties"]


def test_the_key_store_keeps_no_restorable_copy_of_an_erased_key():
    props = RESOURCES["KeyStoreTable"]["Properties"]
    assert not props.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled")
    assert props["DeletionProtectionEnabled"] is True and RESOURCES["KeyStoreTable"]["DeletionPolicy"] == "Retain"


def _consumed_queues() -> dict[str, str]:
    out = {}
    for f in FUNCTIONS:
        for ev in RESOURCES[f]["Properties"].get("Events", {}).values():
            if ev["Type"] == "SQS":
                out[f] = ev["Properties"]["Queue"]["Fn::GetAtt"][0]
    return out


@pytest.mark.parametrize(("function", "queue"), sorted(_consumed_queues().items()))
def test_every_queue_consumer_has_a_dead_letter_queue_an_alarm_and_bounded_concurrency(function, queue):
    props = RESOURCES[queue]["Properties"]
    dlq = props["RedrivePolicy"]["deadLetterTargetArn"]["Fn::GetAtt"][0]
    assert 1 <= props["RedrivePolicy"]["maxReceiveCount"] <= 10
    timeout = RESOURCES[function]["Properties"].get("Timeout", TEMPLATE["Globals"]["Function"]["Timeout"])
    assert props["VisibilityTimeout"] >= 6 * timeout  # Lambda's advice for SQS event sources
    alarms = [r for r in RESOURCES.values() if r["Type"] == "AWS::CloudWatch::Alarm"
              and refs(r["Properties"]["Dimensions"]) == {dlq}]
    assert alarms, f"no alarm watches {dlq}"
    [event] = [e for e in RESOURCES[function]["Properties"]["Events"].values() if e["Type"] == "SQS"]
    assert event["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    concurrency = event["Properties"]["ScalingConfig"]["MaximumConcurrency"]
    if isinstance(concurrency, dict):  # a parameter: every value it admits, its default included
        param = TEMPLATE["Parameters"][concurrency["Ref"]]
        assert param["Type"] == "Number" and int(param["MinValue"]) >= 2 and int(param["Default"]) >= int(param["MinValue"])
        assert int(param["MaxValue"]) <= 1000  # Lambda's upper bound for MaximumConcurrency
    else:
        assert concurrency >= 2


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_function_has_an_error_alarm(function):
    alarms = [r for r in RESOURCES.values() if r["Type"] == "AWS::CloudWatch::Alarm"
              and r["Properties"]["Namespace"] == "AWS/Lambda" and refs(r["Properties"]["Dimensions"]) == {function}]
    assert alarms and alarms[0]["Properties"]["MetricName"] == "Errors"


def test_the_api_throttles_before_any_function_runs_and_says_where_it_lives():
    settings = RESOURCES["HttpApi"]["Properties"]["DefaultRouteSettings"]
    assert settings["ThrottlingRateLimit"] and settings["ThrottlingBurstLimit"]
    assert "ApiUrl" in TEMPLATE["Outputs"]
