"""`make invoke` from the outside: the function's result alone on stdout, logs on stderr, exit 1 when
the handler raises; against a throwaway embedded AWS, or the running local stack's."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from local.aws import free_port
from tests.integration.conftest import ROOT, Stack, port_open

pytestmark = pytest.mark.integration


def run(args: list[str], aws_port: int, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CONVMEM_AWS_PORT": str(aws_port), "PYTHONUNBUFFERED": "1"}
    return subprocess.run(args, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, timeout=120)


def test_make_invoke_on_a_throwaway_aws_seeds_the_session_and_prints_only_the_result() -> None:
    nothing_there = free_port()  # no local stack on this port: a throwaway moto server it is
    done = run(["make", "-s", "--no-print-directory", "invoke", "FUNCTION=api", "EVENT=events/api_messages.json"],
               nothing_there)

    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)  # stdout is the result and nothing else
    assert result["statusCode"] == 200
    page = json.loads(result["body"])
    assert [m["role"] for m in page["messages"]] == ["visitor", "agent"]  # the seed turn's two rows
    assert "[invoke] seed: events/api_turn.json -> ApiFunction: 200" in done.stderr
    assert '"message":"turn committed"' in done.stderr  # the function's logs: stderr
    port = int(re.search(r"throwaway moto server on 127\.0\.0\.1:(\d+)", done.stderr).group(1))
    assert not port_open(port), "the throwaway moto server outlived the invoke"


def test_invoke_uses_the_running_local_stack(stack: Stack, tmp_path: Path) -> None:
    user, session = f"u-inv-{uuid.uuid4().hex[:8]}", f"s-inv-{uuid.uuid4().hex[:8]}"
    event = json.loads((ROOT / "events" / "api_turn.json").read_text())
    event["headers"].update({"x-api-key": stack.api_key, "x-user-id": user})
    event["rawPath"] = event["requestContext"]["http"]["path"] = f"/v1/sessions/{session}/turns"
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(event))

    done = run([sys.executable, "-m", "local.invoke", "ApiFunction", str(path)], stack.aws_port)

    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["statusCode"] == 200
    assert f"running local stack's on 127.0.0.1:{stack.aws_port}" in done.stderr
    sent = json.loads(event["body"])["message"]
    assert [m["text"] for m in stack.transcript(user, session)][0] == sent  # the stack's own tables


def test_a_raising_handler_exits_1_with_lambdas_error_document(stack: Stack) -> None:
    done = run([sys.executable, "-m", "local.invoke", "api", "-"], stack.aws_port, stdin="{}")

    assert done.returncode == 1
    error = json.loads(done.stdout)
    assert error["errorType"] == "KeyError" and error["stackTrace"]
    assert "Traceback" in done.stderr
