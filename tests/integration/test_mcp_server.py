"""convmem's MCP server (convmem_client.mcp_server) driven by the MCP SDK's own client against the
local stack: in-process over memory streams, then as a stdio subprocess and over streamable HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import anyio
import pytest
from convmem_client import ConvmemClient
from convmem_client.mcp_server import build_server
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from local.aws import free_port

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"recall_context", "remember_exchange", "list_facts", "forget_fact", "get_profile", "list_sessions",
         "export_memory"}


def server_env(stack, user_id: str) -> dict[str, str]:
    return {**os.environ, "CONVMEM_URL": stack.url, "CONVMEM_API_KEY": stack.api_key, "CONVMEM_USER_ID": user_id,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "clients/python/src"), os.environ.get("PYTHONPATH", "")])}


def test_the_tools_remember_recall_list_forget_and_export_in_process(stack):
    client = ConvmemClient(stack.url, api_key=stack.api_key, user_id=f"mcp-{uuid.uuid4().hex[:10]}")

    async def scenario() -> None:
        async with Client(build_server(client), mode="legacy") as mcp:  # JSON-RPC over memory streams
            assert {t.name for t in (await mcp.list_tools()).tools} == TOOLS

            stored = await mcp.call_tool("remember_exchange", {
                "session_id": "desk", "visitor": "My name is Minji and I live in Busan", "agent": "Hi Minji!"})
            assert not stored.is_error and stored.structured_content == {"sessionId": "desk", "visitorSeq": 1,
                                                                         "agentSeq": 2}
            facts: list[dict] = []
            for _ in range(100):
                facts = (await mcp.call_tool("list_facts", {})).structured_content["facts"]
                if len(facts) >= 2:
                    break
                await anyio.sleep(0.2)
            assert "Their name is Minji" in {f["text"] for f in facts}

            recalled = (await mcp.call_tool("recall_context", {"session_id": "desk", "message": "where do I live?"}))
            ctx = recalled.structured_content
            assert [(m["role"], m["text"]) for m in ctx["history"]] == [
                ("visitor", "My name is Minji and I live in Busan"), ("agent", "Hi Minji!")]
            assert any("Busan" in f["text"] for f in ctx["facts"]) and "Busan" in ctx["memory"]

            home = next(f for f in facts if "Busan" in f["text"])
            assert not (await mcp.call_tool("forget_fact", {"fact_id": home["id"]})).is_error
            again = await mcp.call_tool("forget_fact", {"fact_id": home["id"]})
            assert again.is_error and "not_found" in again.content[0].text  # the API's code, for the model

            sessions = (await mcp.call_tool("list_sessions", {})).structured_content["sessions"]
            assert [(s["sessionId"], s["messageCount"]) for s in sessions] == [("desk", 2)]
            export = (await mcp.call_tool("export_memory", {})).structured_content
            assert export["userId"] == client.user_id and len(export["sessions"][0]["messages"]) == 2
            assert home["id"] not in {f["id"] for f in export["facts"]}

    anyio.run(scenario)


def test_the_stdio_server_runs_as_a_subprocess(stack):
    user_id = f"mcp-stdio-{uuid.uuid4().hex[:8]}"
    ConvmemClient(stack.url, api_key=stack.api_key, user_id=user_id).turn("from-api", "hello")
    params = StdioServerParameters(command=sys.executable, args=["-m", "convmem_client.mcp_server"],
                                   env=server_env(stack, user_id), cwd=str(ROOT))

    async def scenario() -> None:
        async with Client(params, mode="legacy") as mcp:
            assert {t.name for t in (await mcp.list_tools()).tools} == TOOLS
            listed = await mcp.call_tool("list_sessions", {})
            assert [s["sessionId"] for s in listed.structured_content["sessions"]] == ["from-api"]

    anyio.run(scenario)


def test_the_streamable_http_server_serves_the_same_tools(stack, tmp_path):
    user_id = f"mcp-http-{uuid.uuid4().hex[:8]}"
    ConvmemClient(stack.url, api_key=stack.api_key, user_id=user_id).turn("over-http", "hello")
    port = free_port()
    log = (tmp_path / "mcp.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "convmem_client.mcp_server", "--transport", "streamable-http", "--port", str(port)],
        cwd=ROOT, env=server_env(stack, user_id), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not _listening(port):
            assert proc.poll() is None, (tmp_path / "mcp.log").read_text()
            assert time.monotonic() < deadline, "the MCP server did not listen within 30 s"
            time.sleep(0.1)

        async def scenario() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as mcp:
                listed = await mcp.call_tool("list_sessions", {})
                assert [s["sessionId"] for s in listed.structured_content["sessions"]] == ["over-http"]

        anyio.run(scenario)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0
