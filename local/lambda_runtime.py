"""Load and call a template function in-process, as `sam local invoke` would."""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from local.template import ROOT, Resolver, function_environment, function_handler

LAYER = ROOT / "layers" / "convmem"


@dataclass
class LambdaContext:
    function_name: str
    memory_limit_in_mb: int = 512
    timeout_s: int = 15
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:123456789012:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return self.timeout_s * 1000


def load_handler(template: dict[str, Any], logical_id: str, resolver: Resolver) -> Callable[[dict, Any], Any]:
    """The function's handler: its module imported from CodeUri with the template's environment."""
    module, func = load_module(template, logical_id, resolver)
    return getattr(module, func)


def load_module(template: dict[str, Any], logical_id: str, resolver: Resolver) -> tuple[ModuleType, str]:
    """Import the function's module afresh (module, handler name), as a new Lambda instance would."""
    if str(LAYER) not in sys.path:
        sys.path.insert(0, str(LAYER))
    os.environ.update(function_environment(template, logical_id, resolver))
    code_dir, module, func = function_handler(template, logical_id)
    spec = importlib.util.spec_from_file_location(f"convmem_fn_{logical_id}", code_dir / f"{module}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, func
