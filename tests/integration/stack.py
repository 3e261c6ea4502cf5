"""Start the real local stack (`python -m local.run`) as a subprocess on free ports."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import boto3
import requests

from local.aws import free_port

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class LocalStack:
    proc: subprocess.Popen
    url: str
    aws_url: str
    api_key: str
    aws_port: int

    def headers(self, user: str) -> dict[str, str]:
        return {"x-api-key": self.api_key, "x-user-id": user, "content-type": "application/json"}

    def turn(self, user: str, session: str, message: str, **extra) -> requests.Response:
        return requests.post(f"{self.url}/v1/sessions/{session}/turns", json={"message": message, **extra},
                             headers=self.headers(user), timeout=30)

    def client(self, service: str):
        return boto3.client(service, endpoint_url=self.aws_url, region_name="us-east-1",
                            aws_access_key_id="local", aws_secret_access_key="local")

    def scan_all(self) -> list[dict]:
        ddb = self.client("dynamodb")
        items: list[dict] = []
        for table in ddb.list_tables()["TableNames"]:
            for page in ddb.get_paginator("scan").paginate(TableName=table):
                items.extend(page["Items"])
        return items


def start() -> LocalStack:
    port, aws_port = free_port(), free_port()
    api_key = secrets.token_urlsafe(16)
    env = {**os.environ, "PORT": str(port), "CONVMEM_AWS_PORT": str(aws_port), "CONVMEM_API_KEY": api_key,
           "PYTHONUNBUFFERED": "1"}
    env.pop("AWS_ENDPOINT_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "local.run"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"local stack exited early:\n{proc.stdout.read()}")
        try:
            if requests.get(f"{url}/v1/health", timeout=1).status_code == 200:
                return LocalStack(proc, url, f"http://127.0.0.1:{aws_port}", api_key, aws_port)
        except requests.RequestException:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("local stack did not become healthy in 60 s")


def stop(stack: LocalStack) -> tuple[int | None, bool]:
    """Ctrl-C the stack; return (exit code, whether the embedded AWS port is closed)."""
    stack.proc.send_signal(signal.SIGINT)
    try:
        code = stack.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        stack.proc.kill()
        code = None
    time.sleep(0.3)
    with socket.socket() as s:
        closed = s.connect_ex(("127.0.0.1", stack.aws_port)) != 0
    return code, closed
