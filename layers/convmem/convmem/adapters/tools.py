"""Tools the model may call inside one turn (Converse ``toolConfig``).

A tool's input and output live only inside the turn: the registry never logs them, the turn
never stores them. Built-ins: ``current_time`` and, when a knowledge base id is set,
``search_knowledge`` (Bedrock Knowledge Bases ``retrieve``). Deployers add their own by naming
modules in ``CONVMEM_TOOL_MODULES``; each defines ``tools(settings) -> list[Tool]``.
"""

from __future__ import annotations

import importlib
import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from convmem import deadline
from convmem.domain.tokens import count_tokens
from convmem.errors import DeadlineExceededError
from convmem.observability import logger
from convmem.settings import Settings


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_schema: dict[str, Any]
    run: Callable[[dict[str, Any]], Any]
    """Called with the model's input; returns something JSON-serialisable. May raise."""


@dataclass(frozen=True)
class ToolOutcome:
    status: str  # "success" | "error"
    content: Any


@dataclass
class ToolRegistry:
    tools: dict[str, Tool] = field(default_factory=dict)

    @classmethod
    def of(cls, tools: Iterable[Tool]) -> ToolRegistry:
        registry = cls()
        for t in tools:
            if t.name in registry.tools:
                raise ValueError(f"two tools are named {t.name!r}")
            registry.tools[t.name] = t
        return registry

    def __bool__(self) -> bool:
        return bool(self.tools)

    def specs(self) -> list[dict[str, Any]]:
        """The Converse ``toolConfig.tools`` list."""
        return [
            {"toolSpec": {"name": t.name, "description": t.description, "inputSchema": {"json": t.input_schema}}}
            for t in self.tools.values()
        ]

    def tokens(self) -> int:
        """Tokens the tool definitions add to every request that carries them."""
        return count_tokens(json.dumps(self.specs(), separators=(",", ":"))) if self.tools else 0

    def call(self, name: str, arguments: Any, *, until: float = math.inf,
             clock: Callable[[], float] = time.monotonic) -> ToolOutcome:
        """Run a tool, until ``until`` at most (on ``clock``); a tool that raises, runs out of time or
        is unknown becomes an error result the model sees."""
        tool = self.tools.get(name)
        if tool is None:
            return ToolOutcome("error", {"error": f"There is no tool named {name!r}."})
        args = arguments if isinstance(arguments, dict) else {}
        try:
            return ToolOutcome("success", deadline.run(lambda: tool.run(args), until, clock=clock))
        except DeadlineExceededError:
            logger.warning("tool out of time", extra={"tool": name})
            return ToolOutcome("error", {"error": "The tool did not answer in time; answer with what you have."})
        except Exception as exc:  # noqa: BLE001 - the model gets the failure, the turn goes on
            logger.warning("tool failed", extra={"tool": name, "error": type(exc).__name__})  # never its input or output
            return ToolOutcome("error", {"error": f"The tool failed ({type(exc).__name__})."})


def current_time_tool(now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> Tool:
    def run(args: dict[str, Any]) -> dict[str, str]:
        zone = str(args.get("timezone") or "UTC")
        try:
            at = now().astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError("unknown time zone") from exc
        return {"timezone": zone, "iso": at.isoformat(timespec="seconds"), "weekday": at.strftime("%A")}

    return Tool(
        name="current_time",
        description="The current date and time, in a given IANA time zone (default UTC).",
        input_schema={
            "type": "object",
            "properties": {"timezone": {"type": "string", "description": "IANA time zone, e.g. Asia/Seoul"}},
        },
        run=run,
    )


def search_knowledge_tool(knowledge_base_id: str, client: Any, results: int = 5) -> Tool:
    def run(args: dict[str, Any]) -> list[dict[str, Any]]:
        query = str(args.get("query") or "").strip()
        if not query:
            raise ValueError("empty query")
        found = client.retrieve(
            knowledgeBaseId=knowledge_base_id,
            retrievalQuery={"text": query[:1000]},
            retrievalConfiguration={"vectorSearchConfiguration": {"numberOfResults": results}},
        )["retrievalResults"]
        return [
            {"text": r["content"].get("text", ""), "score": r.get("score"), "source": _source(r.get("location", {}))}
            for r in found
        ]

    return Tool(
        name="search_knowledge",
        description="Search the company's knowledge base (policies, products, help articles). Returns passages.",
        input_schema={
            "type": "object",
            "properties": {"query": {"type": "string", "description": "What to look for"}},
            "required": ["query"],
        },
        run=run,
    )


def _source(location: dict[str, Any]) -> str:
    for value in location.values():
        if isinstance(value, dict):
            for v in value.values():
                if isinstance(v, str):
                    return v
    return str(location.get("type", ""))


def build_tools(settings: Settings, client: Callable[[str], Any]) -> ToolRegistry:
    """Built-ins plus the deployer's modules. ``client(name)`` gives a boto3 client."""
    tools = [current_time_tool()]
    if settings.knowledge_base_id:
        tools.append(search_knowledge_tool(settings.knowledge_base_id, client("bedrock-agent-runtime")))
    for name in settings.tool_modules:
        module = importlib.import_module(name)
        tools.extend(module.tools(settings))
    return ToolRegistry.of(tools)
