"""Integration tier: the real local stack (`python -m local.run`) as a subprocess on free ports.

The session-scoped ``stack`` fixture starts it once, waits for /v1/health, and on teardown
stops it with Ctrl-C (SIGINT) and checks that the API process and its moto child are gone.
(Modules that define their own ``stack`` fixture override this one.)
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest
import requests

from local.aws import free_port

ROOT = Path(__file__).resolve().parents[2]
REGION = "us-east-1"
STARTUP_TIMEOUT_S = 60
STOP_TIMEOUT_S = 10


def aws_client(service: str, endpoint_url: str) -> Any:
    """A boto3 client against the embedded AWS (moto accepts any keys)."""
    return boto3.client(
        service, endpoint_url=endpoint_url, region_name=REGION,
        aws_access_key_id="local", aws_secret_access_key="local",
    )


def dynamodb_client(endpoint_url: str) -> Any:
    return aws_client("dynamodb", endpoint_url)


def scan_all_tables(endpoint_url: str) -> dict[str, list[dict[str, Any]]]:
    """Every item of every DynamoDB table on the embedded AWS: {table name: [items]} (paginated)."""
    ddb = dynamodb_client(endpoint_url)
    names: list[str] = []
    for page in ddb.get_paginator("list_tables").paginate():
        names.extend(page["TableNames"])
    out: dict[str, list[dict[str, Any]]] = {}
    for name in names:
        items: list[dict[str, Any]] = []
        for page in ddb.get_paginator("scan").paginate(TableName=name, ConsistentRead=True):
            items.extend(page["Items"])
        out[name] = items
    return out


def _canonical(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return {"__bytes__": bytes(value).hex()}
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        items = [_canonical(v) for v in value]
        return sorted(items, key=json.dumps) if isinstance(value, set) else items
    return value


def canonical_scan(scan: dict[str, list[dict[str, Any]]]) -> dict[str, list[str]]:
    """A scan as comparable data: each item as sorted-key JSON (bytes as hex), items sorted.
    Every attribute of every item counts; only the scheduled profile run's lease (``LEASE#...``),
    taken and freed on the schedule's own clock, never by a request, is left out."""
    return {
        table: sorted(json.dumps(_canonical(item), sort_keys=True) for item in items
                      if not item.get("PK", {}).get("S", "").startswith("LEASE#"))
        for table, items in scan.items()
    }


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Stack:
    """The running local stack. ``url`` is the API's base url; ``aws_url`` the embedded AWS."""

    proc: subprocess.Popen
    url: str
    api_key: str
    aws_url: str
    port: int
    aws_port: int
    log_path: Path

    @property
    def base_url(self) -> str:
        return self.url

    @property
    def aws_endpoint_url(self) -> str:
        return self.aws_url

    # --- HTTP helpers
    def headers(self, user_id: str) -> dict[str, str]:
        """Server-side caller: API key plus x-user-id."""
        return {"x-api-key": self.api_key, "x-user-id": user_id, "content-type": "application/json"}

    @staticmethod
    def bearer(token: str) -> dict[str, str]:
        """Widget caller: a bearer token."""
        return {"authorization": f"Bearer {token}", "content-type": "application/json"}

    def turn_with(self, headers: dict[str, str], session_id: str, message: str, **extra: Any) -> requests.Response:
        return requests.post(
            f"{self.url}/v1/sessions/{session_id}/turns",
            data=json.dumps({"message": message, **extra}, ensure_ascii=False).encode("utf-8"),
            headers=headers, timeout=30,
        )

    def turn(self, user_id: str, session_id: str, message: str, **extra: Any) -> requests.Response:
        """A turn as ``user_id`` over API key + x-user-id."""
        return self.turn_with(self.headers(user_id), session_id, message, **extra)

    def transcript_with(self, headers: dict[str, str], session_id: str, limit: int = 100) -> list[dict[str, Any]]:
        """The whole transcript, paging with ``after``/``limit`` and following ``next``."""
        messages: list[dict[str, Any]] = []
        after = 0
        for _ in range(10_000):
            r = requests.get(
                f"{self.url}/v1/sessions/{session_id}/messages", params={"after": after, "limit": limit},
                headers=headers, timeout=30,
            )
            assert r.status_code == 200, r.text
            page = r.json()
            assert page["sessionId"] == session_id
            assert len(page["messages"]) <= limit
            messages.extend(page["messages"])
            if page["next"] is None:
                return messages
            assert page["next"] > after, f"next must advance: {page['next']} after {after}"
            after = page["next"]
        raise AssertionError("transcript paging did not end")

    def transcript(self, user_id: str, session_id: str, limit: int = 100) -> list[dict[str, Any]]:
        return self.transcript_with(self.headers(user_id), session_id, limit)

    # --- embedded AWS helpers
    def client(self, service: str) -> Any:
        return aws_client(service, self.aws_url)

    def dynamodb(self) -> Any:
        return dynamodb_client(self.aws_url)

    def scan_all_tables(self) -> dict[str, list[dict[str, Any]]]:
        """{table name: every item}, for every table on the embedded AWS."""
        return scan_all_tables(self.aws_url)

    def scan_all(self) -> list[dict[str, Any]]:
        """Every item of every table as one list (tables in list order, items in scan order)."""
        return [item for items in self.scan_all_tables().values() for item in items]

    def queues_busy(self) -> bool:
        """Whether any queue but a dead-letter queue holds messages (fold jobs still to run)."""
        sqs = self.client("sqs")
        for url in sqs.list_queues().get("QueueUrls", []):
            if "DeadLetter" in url:
                continue  # a dead letter waits there for good; it causes no writes
            attrs = sqs.get_queue_attributes(
                QueueUrl=url,
                AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
            )["Attributes"]
            if int(attrs["ApproximateNumberOfMessages"]) or int(attrs["ApproximateNumberOfMessagesNotVisible"]):
                return True
        return False

    def settle(self, timeout: float = 20.0, quiet: float = 0.3) -> dict[str, list[dict[str, Any]]]:
        """A full scan ({table: items}) once background work (fold and facts jobs of earlier
        turns, profile refreshes) is done: no queue holds a job, no user is due a profile
        refresh, and two scans ``quiet`` seconds apart agree."""
        deadline = time.monotonic() + timeout
        previous = None
        while time.monotonic() < deadline:
            if not self.queues_busy():
                scan = self.scan_all_tables()
                # A user still due a profile refresh means the schedule is about to write.
                due = any("dueShard" in item for items in scan.values() for item in items)
                if not due and previous is not None and canonical_scan(scan) == canonical_scan(previous):
                    return scan
                previous = scan
            else:
                previous = None
            time.sleep(quiet)
        raise AssertionError(f"the embedded AWS did not settle within {timeout}s")

    def settled_scan(self) -> list[dict[str, Any]]:
        """Like scan_all(), once background work has stopped writing."""
        return [item for items in self.settle().values() for item in items]

    def output(self) -> str:
        """What the stack printed so far (stdout and stderr)."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


def _start(extra_env: dict[str, str] | None = None, sigint_ignored: bool = False) -> Stack:
    """A local stack (``python -m local.run``) on free ports, healthy. ``sigint_ignored``: started as
    a background job of a non-interactive shell starts it, with SIGINT ignored."""
    port, aws_port = free_port(), free_port()
    while aws_port == port:
        aws_port = free_port()
    api_key = secrets.token_urlsafe(24)
    env = {
        **os.environ,
        "PORT": str(port),
        "CONVMEM_AWS_PORT": str(aws_port),
        "CONVMEM_API_KEY": api_key,
        "CONVMEM_PROFILE_INTERVAL_S": "2",  # the profile schedule, fast enough to watch
        # The fuzzing and the suites create visitors and take turns from one address far faster than
        # people do: the limits stay on (their counters run) but do not refuse what the tests need.
        # (tests/integration/test_limits_stack.py starts its own stack with small limits.)
        "CONVMEM_VISITOR_LIMIT": "1000000", "CONVMEM_VISITOR_BURST_LIMIT": "0",
        "CONVMEM_TURN_LIMIT": "1000000", "CONVMEM_TURN_BURST_LIMIT": "0",
        "PYTHONUNBUFFERED": "1",
        **(extra_env or {}),
    }
    # Output goes to a file, not a pipe: nobody reads a pipe while tests run, and a full pipe
    # would block the stack's logging (and so every request).
    fd, log_name = tempfile.mkstemp(prefix="convmem-local-", suffix=".log")
    log_path = Path(log_name)
    with os.fdopen(fd, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "local.run"], cwd=ROOT, env=env,
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None,
        )
    stack = Stack(proc, f"http://127.0.0.1:{port}", api_key, f"http://127.0.0.1:{aws_port}", port, aws_port, log_path)
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"local stack exited early with {proc.returncode}:\n{stack.output()}", pytrace=False)
        try:
            if requests.get(f"{stack.url}/v1/health", timeout=1).status_code == 200:
                return stack
        except requests.RequestException:
            pass
        time.sleep(0.2)
    children = _children(proc.pid)
    proc.kill()
    proc.wait(timeout=10)
    _kill_leftovers(children)
    pytest.fail(f"local stack not healthy after {STARTUP_TIMEOUT_S}s:\n{stack.output()}", pytrace=False)


def _children(pid: int) -> list[int]:
    """Direct child pids of ``pid`` (Linux /proc; empty elsewhere)."""
    out: list[int] = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out.extend(int(c) for c in children.read_text().split())
        except OSError:
            pass
    return out


def _kill_leftovers(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _stop(stack: Stack) -> None:
    children = _children(stack.proc.pid)  # the moto server, started by the stack
    stack.proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
    try:
        code = stack.proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        stack.proc.kill()
        stack.proc.wait(timeout=10)
        _kill_leftovers(children)
        pytest.fail(f"local stack did not stop within {STOP_TIMEOUT_S}s of SIGINT:\n{stack.output()}", pytrace=False)
    # The stack stops its moto child before it exits; the embedded AWS port must be closed.
    deadline = time.monotonic() + 2
    while port_open(stack.aws_port) and time.monotonic() < deadline:
        time.sleep(0.1)
    aws_open, api_open = port_open(stack.aws_port), port_open(stack.port)
    if aws_open:
        _kill_leftovers(children)
    output = stack.output()
    stack.log_path.unlink(missing_ok=True)
    assert code == 0, f"local stack exited with {code} on SIGINT:\n{output}"
    assert "convmem stopped" in output, output
    assert not aws_open, f"embedded AWS (moto, pids {children}) still listened on {stack.aws_port} after the stack stopped"
    assert not api_open, f"API still listens on {stack.port} after the stack stopped"


@pytest.fixture(scope="session")
def stack():
    s = _start()
    try:
        yield s
    finally:
        _stop(s)
