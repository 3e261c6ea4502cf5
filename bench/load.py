"""Section 6, load on the local stack: CLIENTS concurrent HTTP clients x TURNS turns each.

The stack is `python -m local.run` as `make run` starts it (moto server with DynamoDB
serialised, the API Gateway emulation with the API handler in-process, the fold and facts
pollers and the profile schedule beside it), started on free ports and stopped with SIGINT.

Two scenarios, each on a fresh stack:
- separate: every client its own user and session;
- shared: the clients in groups of SHARE, each group one user and one session, all at once.

Every client starts at a barrier and sends its turns back to back over one keep-alive
connection. Afterwards each session's transcript is read over HTTP and checked: seqs 1..2N with
no gap, visitor / agent alternating, and every turn's two rows where its response put them
(the visitor message at visitorSeq, the very reply at agentSeq = visitorSeq + 1).

    .venv/bin/python -m bench.load [CLIENTS] [TURNS] [--share 5] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STARTUP_TIMEOUT_S = 60


@dataclass
class LocalStack:
    proc: subprocess.Popen
    url: str
    aws_url: str
    api_key: str
    log: Path

    def headers(self, user: str) -> dict[str, str]:
        return {"x-api-key": self.api_key, "x-user-id": user, "content-type": "application/json"}


def start_stack(module: str = "local.run", env_extra: dict[str, str] | None = None) -> LocalStack:
    """``env_extra``: more of the stack's environment (``CONVMEM_TURN_LIMIT=0``...)."""
    import requests

    from bench.common import ROOT
    from local.aws import free_port

    port, aws_port = free_port(), free_port()
    while aws_port == port:
        aws_port = free_port()
    key = secrets.token_urlsafe(24)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "CONVMEM_", "POWERTOOLS_"))}
    env.update({"PORT": str(port), "CONVMEM_AWS_PORT": str(aws_port), "CONVMEM_API_KEY": key,
                "CONVMEM_MODEL_PROVIDER": "local", "PYTHONUNBUFFERED": "1", **(env_extra or {})})
    fd, log_name = tempfile.mkstemp(prefix="convmem-bench-stack-", suffix=".log")
    with os.fdopen(fd, "wb") as log:  # a file, not a pipe: nobody reads a pipe during the run
        proc = subprocess.Popen([sys.executable, "-m", module], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    stack = LocalStack(proc, f"http://127.0.0.1:{port}", f"http://127.0.0.1:{aws_port}", key, Path(log_name))
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"local stack exited with {proc.returncode}:\n{stack.log.read_text()[-3000:]}")
        try:
            if requests.get(f"{stack.url}/v1/health", timeout=1).status_code == 200:
                return stack
        except requests.RequestException:
            pass
        time.sleep(0.2)
    stop_stack(stack)
    raise RuntimeError(f"local stack not healthy after {STARTUP_TIMEOUT_S}s")


def stop_stack(stack: LocalStack) -> None:
    """Ctrl-C, as a person would; the stack stops its own moto child. Kill only if it hangs."""
    stack.proc.send_signal(signal.SIGINT)
    try:
        stack.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        stack.proc.kill()
        stack.proc.wait(timeout=10)
    stack.log.unlink(missing_ok=True)


def _message(client: int, turn: int) -> str:
    # Unique per turn, and no recall words: the local model's reply then quotes it.
    return f"Client {client} turn {turn}: please note parcel LD-{client:02d}-{turn:03d} for delivery on the {turn % 28 + 1}th."


def _drive(stack: LocalStack, clients: list[tuple[str, str]], turns: int) -> dict[str, Any]:
    """Each client (user, session) sends ``turns`` turns; all start together."""
    import requests

    barrier = threading.Barrier(len(clients) + 1)
    records: list[list[dict[str, Any]]] = [[] for _ in clients]

    def client(i: int) -> None:
        user, session = clients[i]
        http = requests.Session()
        barrier.wait()
        for t in range(turns):
            text = _message(i, t)
            start = time.perf_counter()
            try:
                r = http.post(f"{stack.url}/v1/sessions/{session}/turns", headers=stack.headers(user),
                              data=json.dumps({"message": text}), timeout=60)
                status, body = r.status_code, (r.json() if r.headers.get("content-type", "").startswith("application/json") else {})
            except requests.RequestException as exc:
                status, body = 0, {"error": type(exc).__name__, "detail": str(exc)[:200]}
            records[i].append({"ms": (time.perf_counter() - start) * 1000, "status": status, "body": body,
                               "text": text, "user": user, "session": session})

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(len(clients))]
    for th in threads:
        th.start()
    barrier.wait()
    start = time.perf_counter()
    for th in threads:
        th.join()
    wall = time.perf_counter() - start
    return {"wall_s": wall, "records": [r for rs in records for r in rs]}


def _transcript(stack: LocalStack, user: str, session: str) -> list[dict[str, Any]] | None:
    """The session's whole transcript as its user reads it (None: the API says it is not theirs)."""
    import requests

    out: list[dict[str, Any]] = []
    after = 0
    while True:
        r = requests.get(f"{stack.url}/v1/sessions/{session}/messages", params={"after": after, "limit": 200},
                         headers=stack.headers(user), timeout=30)
        if r.status_code == 404:
            return None
        if r.status_code != 200:
            raise RuntimeError(f"transcript of {session}: {r.status_code} {r.text[:300]}")
        page = r.json()
        out.extend(page["messages"])
        if page["next"] is None:
            return out
        after = page["next"]


def _verify(stack: LocalStack, records: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if r["status"] == 200]
    # A response about another session than the one in the request's path: the turn ran elsewhere.
    foreign = [r for r in ok if r["body"].get("sessionId") != r["session"]]
    # The local model's reply quotes the message it answered: a reply to someone else's message.
    misanswered = [r for r in ok if r not in foreign and r["text"][:60] not in r["body"].get("reply", "")]
    ok = [r for r in ok if r not in foreign]
    sessions = sorted({(r["user"], r["session"]) for r in records})
    problems: list[str] = []
    pairs_ok = 0
    for user, session in sessions:
        mine = [r for r in ok if (r["user"], r["session"]) == (user, session)]  # a session is (user, id)
        if not mine:
            problems.append(f"{session}: no turn succeeded")
            continue
        msgs = _transcript(stack, user, session)
        if msgs is None:
            problems.append(f"{session}: its user gets 404 (no session of that id is theirs)")
            continue
        seqs = [m["seq"] for m in msgs]
        if seqs != list(range(1, 2 * len(mine) + 1)):
            problems.append(f"{session}: seqs {seqs[:5]}... ({len(seqs)} rows) for {len(mine)} turns")
        if [m["role"] for m in msgs] != ["visitor", "agent"] * (len(msgs) // 2) or len(msgs) % 2:
            problems.append(f"{session}: roles do not alternate visitor / agent")
        by_seq = {m["seq"]: m for m in msgs}
        for r in mine:
            v, a = r["body"]["visitorSeq"], r["body"]["agentSeq"]
            visitor, agent = by_seq.get(v), by_seq.get(a)
            if (a == v + 1 and visitor and agent and visitor["role"] == "visitor" and visitor["text"] == r["text"]
                    and agent["role"] == "agent" and agent["text"] == r["body"]["reply"] and r["text"][:60] in agent["text"]):
                pairs_ok += 1
            else:
                problems.append(f"{session}: turn at seq {v} is not followed by its own reply")
    return {"sessions": len(sessions), "turns_ok": len(ok), "pairs_verified": pairs_ok,
            "responses_about_another_session": len(foreign), "replies_to_another_message": len(misanswered), "problems": problems[:10], "problem_count": len(problems),
            "consistent": not problems and not foreign and not misanswered and pairs_ok == len(ok)}


def _drain(stack: LocalStack, timeout: float = 15.0) -> float | None:
    """Seconds until the fold and facts queues are empty after the run (None: not within timeout)."""
    import boto3

    sqs = boto3.client("sqs", endpoint_url=stack.aws_url, region_name="us-east-1",
                       aws_access_key_id="local", aws_secret_access_key="local")
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        busy = False
        for url in sqs.list_queues().get("QueueUrls", []):
            if "DeadLetter" in url:
                continue
            attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[
                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
            busy = busy or any(int(v) for v in attrs.values())
        if not busy:
            return round(time.monotonic() - start, 2)
        time.sleep(0.25)
    return None


def _scenario(stack: LocalStack, name: str, clients: list[tuple[str, str]], turns: int) -> dict[str, Any]:
    from bench.common import fig, pct, summary_ms

    run = _drive(stack, clients, turns)
    records = run["records"]
    errors = [r for r in records if r["status"] != 200]
    latencies = [r["ms"] for r in records]
    drained = _drain(stack)
    check = _verify(stack, records)
    return {
        "clients": len(clients),
        "sessions": len({s for _, s in clients}),
        "turns": len(records),
        "throughput_turns_per_s": fig(round(len(records) / run["wall_s"], 1), "turns/s", "turns / wall time from the barrier to the last response"),
        "latency_ms": fig(summary_ms(latencies), "ms", "each POST /turns as the client saw it (keep-alive)"),
        "p50_ms": round(pct(latencies, 0.5), 1),
        "p95_ms": round(pct(latencies, 0.95), 1),
        "errors": fig(len(errors), "responses", "non-200 responses or transport errors", goal="0", met=not errors,
                      codes=sorted({(r["status"], (r["body"].get("error") or {}).get("code") if isinstance(r["body"].get("error"), dict) else r["body"].get("error")) for r in errors}, key=str)),
        "consistency": fig(check, "check", "after the run, every session's transcript over HTTP: seqs 1..2N contiguous, "
                           "visitor/agent alternating, each turn's message at its visitorSeq and its own reply right after",
                           goal="all pairs verified", met=check["consistent"]),
        "background_drained_s": fig(drained, "s", "after the last response, until the fold and facts queues were empty "
                                    "(null: still busy after 15 s, e.g. failing jobs retrying towards the DLQ)"),
        "wall_s": round(run["wall_s"], 2),
        "scenario": name,
    }


def run(clients: int = 20, turns: int = 25, share: int = 5) -> dict[str, Any]:
    """Both scenarios on the local stack as `make run` starts it (reported as the ``shipped`` stack)."""
    out: dict[str, Any] = {
        "how": ("a fresh local stack per scenario (moto server with DynamoDB serialised, API Gateway emulation on a "
                "ThreadingHTTPServer with the API handler in-process, fold and facts pollers, profile schedule) "
                f"on free ports; {clients} client threads in the bench process, each with one keep-alive "
                f"requests.Session, released together by a barrier, {turns} turns each; separate = one user and "
                f"session per client, shared = groups of {share} clients on one user's session"),
        "stacks": {"shipped": "python -m local.run, as make run starts it"},
        "note": ("moto serialises DynamoDB requests (local/moto_server.py), and the stack, moto and the clients "
                 "share this machine's cores: the throughput is the local stack's, not Lambda's (where each "
                 "concurrent turn gets its own instance)"),
    }
    out["shipped"] = {}
    tag = secrets.token_hex(3)
    scenarios = {
        "separate_sessions": ("separate", [(f"load-{tag}-u{i}", f"load-{tag}-s{i}") for i in range(clients)]),
        "shared_sessions": (f"{share} clients per session",
                            [(f"shared-{tag}-u{i // share}", f"shared-{tag}-s{i // share}") for i in range(clients)]),
    }
    for key, (label, who) in scenarios.items():
        # A fresh stack each (no run starts with the other's table), without the per-user turn limit:
        # five clients on one user's session take turns far faster than a person and would be 429.
        stack = start_stack(env_extra={"CONVMEM_TURN_LIMIT": "0"})
        try:
            out["shipped"][key] = _scenario(stack, label, who, turns)
        finally:
            stop_stack(stack)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("clients", nargs="?", type=int, default=20)
    parser.add_argument("turns", nargs="?", type=int, default=25)
    parser.add_argument("--share", type=int, default=5)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    result = run(args.clients, args.turns, args.share)
    from bench.common import emit

    emit(result, args.out)


if __name__ == "__main__":
    main()
