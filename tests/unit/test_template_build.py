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
