"""A deployer's tool module, as CONVMEM_TOOL_MODULES names it (used by the Bedrock tests)."""

from __future__ import annotations

from convmem.adapters.tools import Tool

CALLS: list[dict] = []


def tools(settings):
    def lookup_order(args: dict) -> dict:
        CALLS.append(args)
        if "EXPLODE" in str(args.get("order")):
            raise RuntimeError(f"backend down looking up {args.get('order')}")  # the input in the message
        return {"order": args.get("order"), "status": "TOOL-OUTPUT-CANARY-7731 shipped Tuesday"}

    return [Tool(
        name="lookup_order",
        description="Look up an order's shipping status by its number.",
        input_schema={"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]},
        run=lookup_order,
    )]
