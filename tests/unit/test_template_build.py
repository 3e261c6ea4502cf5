"""What template.yaml must say for the first deployment and its first day of traffic to work
(issue 14, items 1, 2 and 15), read from the template itself."""

from __future__ import annotations

from typing import Any

import pytest

from local.template import load_template

TEMPLATE = load_template()
RESOURCES = TEMPLATE["Resources"]
GLOBALS = TEMPLATE.get("Globals", {}).get("Function", {})
FUNCTIONS = {k: v["Properties"] for k, v in RESOURCES.items() if v["Type"] == "AWS::Serverless::Function"}
LAYERS = [k for k, v in RESOURCES.items() if v["Type"] == "AWS::Serverless::LayerVersion"]


def function_value(props: dict[str, Any], key: str, default: Any = None) -> Any:
    return props.get(key, GLOBALS.get(key, default))


def layer_ids(props: dict[str, Any]) -> set[str]:
    return {ref["Ref"] for ref in function_value(props, "Layers", []) if isinstance(ref, dict) and "Ref" in ref}


# --- item 1: the layer's wheels are built for the architecture its functions run on ------------
def test_every_layer_is_used_by_some_function():
    assert LAYERS and all(any(layer in layer_ids(p) for p in FUNCTIONS.values()) for layer in LAYERS)


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_is_built_for_the_architecture_of_every_function_that_loads_it(layer):
    # SAM builds a layer for x86_64 unless Metadata.BuildArchitecture says otherwise; compiled
    # wheels (pydantic-core, cryptography, tiktoken, regex, cffi) then fail to import on arm64.
    build_arch = RESOURCES[layer].get("Metadata", {}).get("BuildArchitecture", "x86_64")
    compatible = RESOURCES[layer]["Properties"].get("CompatibleArchitectures", ["x86_64"])
    for name, props in FUNCTIONS.items():
        if layer in layer_ids(props):
            archs = function_value(props, "Architectures", ["x86_64"])
            assert archs == [build_arch], f"{name} runs on {archs}, {layer} is built for {build_arch}"
            assert build_arch in compatible, f"{layer} does not declare {build_arch} compatible"


# --- item 2: nothing reserves concurrency (accounts keep 100 unreserved; new ones have 10-50) ----
@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_no_function_reserves_concurrency(function):
    assert function_value(FUNCTIONS[function], "ReservedConcurrentExecutions") is None


def test_the_profile_function_may_write_only_its_run_lease_outside_user_items():
    statements = [st for pol in FUNCTIONS["ProfileFunction"]["Policies"] for st in pol["Statement"]]
    lease = [st for st in statements if "dynamodb:PutItem" in st["Action"]]
    assert [st["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"] for st in lease] == [["LEASE#*"]]


def test_the_profile_tick_reads_only_the_due_index_and_calls_no_model_or_key():
    # The tick only queues jobs: a model or key permission there would let it do the refresh itself.
    statements = [st for pol in FUNCTIONS["ProfileFunction"]["Policies"] for st in pol["Statement"]]
    actions = {a for st in statements for a in st["Action"]}
    assert actions == {"dynamodb:Query", "dynamodb:PutItem", "dynamodb:DeleteItem", "sqs:SendMessage"}
    [query] = [st for st in statements if "dynamodb:Query" in st["Action"]]
    assert query["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"] == ["DUE#*"]
    assert "Tags" not in FUNCTIONS["ProfileFunction"]  # not a user of the branch-key wrapping key


# --- item 15: consumers that call a real model per record are sized from its call times --------
COLD_START_S = 10.0  # init of a consumer (imports ~1 s measured locally, first key and client set-up)
MODEL_CONSUMERS = {"FoldFunction": "FOLD_MODEL_OPERATIONS", "FactsFunction": "FACTS_MODEL_OPERATIONS",
                   "ProfileRefreshFunction": "PROFILE_MODEL_OPERATIONS"}


def function_settings(function: str):
    """The Settings the function runs with: its environment in the template (Globals first),
    parameters at their defaults; values set from resources do not change timing."""
    from convmem.settings import Settings

    env: dict[str, str] = {}
    params = TEMPLATE.get("Parameters", {})
    for source in (GLOBALS, FUNCTIONS[function]):
        for key, value in source.get("Environment", {}).get("Variables", {}).items():
            if isinstance(value, str | int | float):
                env[key] = str(value)
            elif isinstance(value, dict) and value.get("Ref") in params:
                env[key] = str(params[value["Ref"]].get("Default", ""))
    return Settings.from_env(env)


def sqs_event(function: str) -> dict[str, Any]:
    [event] = [e["Properties"] for e in FUNCTIONS[function]["Events"].values() if e["Type"] == "SQS"]
    return event


@pytest.mark.parametrize("function", sorted(MODEL_CONSUMERS))
def test_a_whole_batch_of_worst_case_jobs_fits_in_the_function_timeout(function):
    from convmem import job_time

    settings = function_settings(function)
    job_s = job_time.job_worst_case_s(settings, getattr(job_time, MODEL_CONSUMERS[function]))
    timeout = function_value(FUNCTIONS[function], "Timeout")
    batch = sqs_event(function)["BatchSize"]
    assert job_s >= settings.model_deadline_s + settings.model_timeout_s  # at least one whole model operation
    assert batch * job_s + COLD_START_S <= timeout <= 900, f"{function}: {batch} x {job_s} s + {COLD_START_S} s > {timeout} s"
    queue = RESOURCES[sqs_event(function)["Queue"]["Fn::GetAtt"][0]]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * timeout  # else a batch still running is delivered again


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_fifo_consumers_set_no_batching_window(function):
    # Lambda rejects MaximumBatchingWindowInSeconds on FIFO queues, and caps their batches at 10.
    for event in FUNCTIONS[function].get("Events", {}).values():
        if event["Type"] == "SQS" and RESOURCES[event["Properties"]["Queue"]["Fn::GetAtt"][0]]["Properties"].get("FifoQueue"):
            assert "MaximumBatchingWindowInSeconds" not in event["Properties"]
            assert 1 <= event["Properties"]["BatchSize"] <= 10
