"""Load and call a template function in-process, as `sam local invoke` would."""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from local.template import ROOT, Resolver, function_environment, function_handler, load_template

LAYER = ROOT / "layers" / "convmem"


@functools.lru_cache(maxsize=1)
def _template() -> dict[str, Any]:
    return load_template()


def function_limits(template: dict[str, Any], logical_id: str) -> tuple[int, float]:
    """(MemorySize, Timeout) of a template function, Globals and Lambda's defaults filling in."""
    glob = template.get("Globals", {}).get("Function", {})
    props = template["Resources"][logical_id]["Properties"]
    return int(props.get("MemorySize", glob.get("MemorySize", 128))), float(props.get("Timeout", glob.get("Timeout", 3)))


@dataclass
class LambdaContext:
    """The context Lambda passes a handler. Its remaining time counts down from the function's
    Timeout in template.yaml (unless ``timeout_s`` is given), as the real one does."""

    function_name: str
    memory_limit_in_mb: int | None = None
    timeout_s: float | None = None
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    clock: Callable[[], float] = time.monotonic
    """Seconds, monotonic; tests pass a fake one to let a slow dependency use up the time."""
    started: float = field(init=False)

    def __post_init__(self) -> None:
        if self.memory_limit_in_mb is None or self.timeout_s is None:
            memory, timeout = function_limits(_template(), self.function_name)
            self.memory_limit_in_mb = self.memory_limit_in_mb or memory
            self.timeout_s = self.timeout_s if self.timeout_s is not None else timeout
        self.started = self.clock()

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:123456789012:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        assert self.timeout_s is not None
        return max(0, int((self.started + self.timeout_s - self.clock()) * 1000))


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
    # The function's own modules (the API's routes) come from its code directory, imported afresh
    # with it: Lambda puts that directory first on sys.path, and a new instance shares nothing.
    if str(code_dir) in sys.path:
        sys.path.remove(str(code_dir))
    sys.path.insert(0, str(code_dir))
    for name, loaded in list(sys.modules.items()):
        if Path(getattr(loaded, "__file__", None) or "/").resolve().is_relative_to(code_dir.resolve()):
            del sys.modules[name]
    spec = importlib.util.spec_from_file_location(f"convmem_fn_{logical_id}", code_dir / f"{module}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, func
