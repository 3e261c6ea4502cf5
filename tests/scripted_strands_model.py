"""A Strands model provider that answers from a script, offline, and records every request.

The script is a function of the request's messages returning one assistant step: text (the
agent's answer) or a tool call. Each request (messages, system prompt blocks, tool names) is
kept in ``requests`` so a test can see exactly what a real model would have been sent.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from strands.models.model import Model


@dataclass(frozen=True)
class Say:
    text: str


@dataclass(frozen=True)
class CallTool:
    name: str
    input: dict[str, Any]
    tool_use_id: str


Step = Say | CallTool


@dataclass(frozen=True)
class ModelRequest:
    messages: list[dict[str, Any]]
    system: list[dict[str, Any]]
    tools: list[str]

    @property
    def system_text(self) -> str:
        return "\n".join(b.get("text", "") for b in self.system)


class ScriptedModel(Model):
    def __init__(self, script: Callable[[list[dict[str, Any]]], Step]) -> None:
        self.script = script
        self.requests: list[ModelRequest] = []
        self.config: dict[str, Any] = {"model_id": "scripted"}

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def get_config(self) -> Any:
        return self.config

    def structured_output(self, output_model, prompt, system_prompt=None, **kwargs):  # noqa: ANN001
        raise NotImplementedError("the scripted model answers in text and tool calls only")

    async def stream(self, messages, tool_specs=None, system_prompt=None, *, system_prompt_content=None,  # noqa: ANN001
                     **kwargs: Any) -> AsyncIterator[dict[str, Any]]:
        if system_prompt_content is None and system_prompt:
            system_prompt_content = [{"text": system_prompt}]
        self.requests.append(ModelRequest(
            messages=copy.deepcopy(list(messages)), system=copy.deepcopy(list(system_prompt_content or [])),
            tools=[t["name"] for t in tool_specs or []],
        ))
        step = self.script(list(messages))
        yield {"messageStart": {"role": "assistant"}}
        if isinstance(step, CallTool):
            yield {"contentBlockStart": {"start": {"toolUse": {"toolUseId": step.tool_use_id, "name": step.name}}}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(step.input)}}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            yield {"contentBlockDelta": {"delta": {"text": step.text}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
