"""Read template.yaml and resolve the few intrinsics the local stack needs.

Resources are created from this reading, so the local stack and the deployed stack cannot
drift apart. An intrinsic the resolver does not know fails loudly instead of guessing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "template.yaml"
ACCOUNT_ID = "123456789012"
REGION = "us-east-1"


class TemplateError(Exception):
    """The template uses something the local stack cannot emulate."""


def load_template(path: Path = TEMPLATE) -> dict[str, Any]:
    from cfnlint.decode import cfn_yaml

    return cfn_yaml.load(str(path))


@dataclass
class Resolver:
    """Resolves Ref / Fn::GetAtt / Fn::Sub against parameters and created resources."""

    template: dict[str, Any]
    stack_name: str = "convmem-local"
    refs: dict[str, str] = field(default_factory=dict)
    """Logical id -> what Ref returns (name, ARN or id), filled as resources are created."""
    attrs: dict[tuple[str, str], str] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    """Parameter values that replace the template defaults."""

    def pseudo(self, name: str) -> str:
        values = {
            "AWS::Region": REGION,
            "AWS::AccountId": ACCOUNT_ID,
            "AWS::Partition": "aws",
            "AWS::StackName": self.stack_name,
            "AWS::URLSuffix": "amazonaws.com",
        }
        if name not in values:
            raise TemplateError(f"pseudo parameter {name} is not emulated")
        return values[name]

    def ref(self, name: str) -> str | list[str]:
        """What ``!Ref name`` gives: a pseudo parameter, a parameter's value (a list for a
        ``CommaDelimitedList`` or ``List<...>`` parameter, as CloudFormation gives it) or a
        created resource's name."""
        if name.startswith("AWS::"):
            return self.pseudo(name)
        params = self.template.get("Parameters", {})
        if name in params:
            if name in self.overrides:
                value = str(self.overrides[name])
            elif "Default" not in params[name]:
                raise TemplateError(f"parameter {name} has no default")
            else:
                value = str(params[name]["Default"])
            kind = str(params[name].get("Type", "String"))
            if kind == "CommaDelimitedList" or kind.startswith("List<"):
                return [item.strip() for item in value.split(",")] if value else []
            return value
        if name in self.refs:
            return self.refs[name]
        raise TemplateError(f"Ref {name}: resource not created locally")

    def resolve(self, value: Any) -> Any:
        if isinstance(value, dict):
            if len(value) == 1:
                (key, arg), = value.items()
                if key == "Ref":
                    return self.ref(arg)
                if key == "Fn::GetAtt":
                    logical, attr = arg if isinstance(arg, list) else arg.split(".", 1)
                    if (logical, attr) not in self.attrs:
                        raise TemplateError(f"GetAtt {logical}.{attr} is not emulated")
                    return self.attrs[(logical, attr)]
                if key == "Fn::Sub":
                    return self._sub(arg)
                if key.startswith("Fn::"):
                    raise TemplateError(f"intrinsic {key} is not emulated")
            return {k: self.resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        return value

    def _sub(self, arg: Any) -> str:
        text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])

        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in variables:
                return str(self.resolve(variables[name]))
            if "." in name:
                logical, attr = name.split(".", 1)
                return str(self.resolve({"Fn::GetAtt": [logical, attr]}))
            value = self.ref(name)
            if isinstance(value, list):  # CloudFormation rejects a list parameter inside Sub too
                raise TemplateError(f"Sub ${{{name}}}: a list parameter cannot be substituted into a string")
            return value

        return re.sub(r"\$\{([^}!][^}]*)\}", one, text)


# Template parameters the local stack also takes from its own environment, under the name of the
# variable the function reads: ``CONVMEM_TURN_LIMIT=0 make run`` turns the per-user turn limit off
# locally (the template's default applies otherwise, so the local stack enforces what AWS does).
ENV_PARAMETERS = {
    "TurnLimit": "CONVMEM_TURN_LIMIT",
    "TurnLimitWindowSeconds": "CONVMEM_TURN_LIMIT_WINDOW_S",
    "TurnBurstLimit": "CONVMEM_TURN_BURST_LIMIT",
    "VisitorLimit": "CONVMEM_VISITOR_LIMIT",
    "VisitorLimitWindowSeconds": "CONVMEM_VISITOR_LIMIT_WINDOW_S",
    "VisitorBurstLimit": "CONVMEM_VISITOR_BURST_LIMIT",
    "LimitBurstSeconds": "CONVMEM_LIMIT_BURST_S",
}


def env_overrides(resolver: Resolver, env: Mapping[str, str] | None = None) -> Resolver:
    """Take the ENV_PARAMETERS set in ``env`` (default: the process environment) as parameter values."""
    source = os.environ if env is None else env
    for parameter, variable in ENV_PARAMETERS.items():
        if source.get(variable):
            resolver.overrides.setdefault(parameter, source[variable])
    return resolver


def function_environment(template: dict[str, Any], logical_id: str, resolver: Resolver) -> dict[str, str]:
    """A function's environment as SAM builds it: Globals variables, then the function's own."""
    glob = template.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {})
    props = template["Resources"][logical_id]["Properties"]
    own = props.get("Environment", {}).get("Variables", {})
    return {k: str(resolver.resolve(v)) for k, v in {**glob, **own}.items()}


def function_handler(template: dict[str, Any], logical_id: str) -> tuple[Path, str, str]:
    """(code folder, module name, function name) of a function, from CodeUri and Handler."""
    props = template["Resources"][logical_id]["Properties"]
    glob = template.get("Globals", {}).get("Function", {})
    handler = props.get("Handler") or glob.get("Handler")
    module, _, func = handler.rpartition(".")
    return ROOT / props["CodeUri"], module, func


def functions(template: dict[str, Any]) -> list[str]:
    return [k for k, v in template["Resources"].items() if v["Type"] == "AWS::Serverless::Function"]
