"""Bring your own model: POST .../context and POST .../exchanges beside POST .../turns, over HTTP on
the local stack (`python -m local.run`, as `make run` starts it, on free ports).

One client, one keep-alive connection, one request at a time (nothing competes with a timing).
A session is first grown to HISTORY turns (a full window, a summary, pending messages); then
each round times, on that session: a turn, a context, a context in the Converse format, and the
exchange of that context's message (with a reply of the turn's length). The local model answers
turns, so a turn's time is the turn's own work plus a reply made in microseconds: what a context
saves is the model's call, which on Bedrock is most of a turn (seconds, not measured here).

    .venv/bin/python -m bench.byo [--rounds 100] [--history 40] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from typing import Any


def run(rounds: int = 100, history: int = 40) -> dict[str, Any]:
    import requests

    from bench.common import fig, summary_ms
    from bench.load import start_stack, stop_stack

    stack = start_stack("local.run")
    tag = secrets.token_hex(3)
    user, session = f"byo-{tag}", f"byo-{tag}-s"
    http = requests.Session()
    url = f"{stack.url}/v1/sessions/{session}"
    times: dict[str, list[float]] = {"turn": [], "context": [], "context_converse": [], "exchange": []}
    sizes: dict[str, int] = {}

    def post(path: str, body: dict[str, Any], expect: int) -> tuple[float, dict[str, Any]]:
        start = time.perf_counter()
        r = http.post(f"{url}/{path}", headers=stack.headers(user), data=json.dumps(body), timeout=60)
        took = (time.perf_counter() - start) * 1000
        if r.status_code != expect:
            raise RuntimeError(f"{path}: {r.status_code} {r.text[:300]}")
        return took, r.json()

    try:
        for i in range(history):
            post("turns", {"message": f"Turn {i}: my parcel LD-{i:03d} should arrive on the {i % 28 + 1}th."}, 200)
        for i in range(rounds):
            took, turn = post("turns", {"message": f"Round {i}: what about parcel LD-{i % history:03d}?"}, 200)
            times["turn"].append(took)
            message = f"Round {i}: and when was parcel LD-{(i * 7) % history:03d} due?"
            took, ctx = post("context", {"message": message}, 200)
            times["context"].append(took)
            took, conv = post("context?format=converse", {"message": message}, 200)
            times["context_converse"].append(took)
            took, _ = post("exchanges", {"visitor": message, "agent": turn["reply"]}, 201)
            times["exchange"].append(took)
            sizes = {"context_bytes": len(json.dumps(ctx, ensure_ascii=False).encode()),
                     "converse_bytes": len(json.dumps(conv, ensure_ascii=False).encode()),
                     "request_tokens": ctx["context"]["requestTokens"], "window_messages": ctx["context"]["windowMessages"],
                     "pending_messages": ctx["context"]["pendingMessages"], "summary_tokens": ctx["context"]["summaryTokens"]}
    finally:
        stop_stack(stack)
    pair = [c + e for c, e in zip(times["context"], times["exchange"], strict=True)]
    how = (f"one client over HTTP (keep-alive) on a fresh local stack, one request at a time; a session grown to "
           f"{history} turns, then {rounds} rounds of turn, context, context?format=converse, exchange on it")
    return {
        "how": how,
        "turn_ms": fig(summary_ms(times["turn"]), "ms", "POST .../turns with the local model (a reply in microseconds)"),
        "context_ms": fig(summary_ms(times["context"]), "ms", "POST .../context: reads, decrypts, recall, assembly; nothing written"),
        "context_converse_ms": fig(summary_ms(times["context_converse"]), "ms", "POST .../context?format=converse"),
        "exchange_ms": fig(summary_ms(times["exchange"]), "ms", "POST .../exchanges right after its context: one transaction"),
        "context_plus_exchange_ms": fig(summary_ms(pair), "ms", "a context and its exchange, summed round by round"),
        "last_context": sizes,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--history", type=int, default=40)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    from bench.common import emit

    emit(run(args.rounds, args.history), args.out)


if __name__ == "__main__":
    main()
