"""The largest legal turn body, parsed, checked and assembled: time per body, and whether the
process's memory returns to its baseline after 100 of them (issue 15, item 2).

Every body is new (its texts carry a fresh number), so no cache could hide the cost: the body's
JSON is validated (knowledge limits: bytes, then tokens), the message checked against the budget,
and the request assembled over a full window, a summary at its cap, facts and a profile, with
the knowledge ranked and given way. Two shapes: a short question (knowledge fills the room) and
the longest message that fits (every snippet gives way).

    .venv/bin/python -m bench.knowledge_assembly
"""

from __future__ import annotations

import gc
import json
import os
import time
from datetime import UTC, datetime

from convmem.domain import summary_fold
from convmem.domain.context_assembly import Layers, assemble, check_message_fits
from convmem.domain.models import (
    KNOWLEDGE_MAX_BYTES,
    KNOWLEDGE_MAX_SNIPPETS,
    KNOWLEDGE_MAX_TOKENS,
    Message,
)
from convmem.domain.tokens import count_tokens, truncate_tokens
from convmem.service.turn import TurnInput
from convmem.settings import Settings

from bench.common import summary_ms

GOAL_MS = 100.0
GOAL_RSS_MB = 5.0


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _fill(sentence: str, max_bytes: int) -> str:
    """``sentence`` repeated (numbered) up to ``max_bytes`` UTF-8 bytes."""
    out, size, i = [], 0, 0
    while True:
        part = sentence.format(i=i)
        if size + len(part.encode()) > max_bytes:
            return "".join(out)
        out.append(part)
        size += len(part.encode())
        i += 1


def body(n: int, message_tokens: int) -> bytes:
    """Body ``n``: the most snippets, each at its share of the list's bytes or tokens, whichever binds."""
    per_bytes = (KNOWLEDGE_MAX_BYTES - KNOWLEDGE_MAX_SNIPPETS * 16) // KNOWLEDGE_MAX_SNIPPETS
    per_tokens = KNOWLEDGE_MAX_TOKENS // KNOWLEDGE_MAX_SNIPPETS
    knowledge = [{"source": f"policy#{n}-{k}", "text": truncate_tokens(
                     _fill(f"Clause {{i}} of policy {n}-{k}: a return within {{i}} days gets a full refund. ", per_bytes),
                     per_tokens)}
                 for k in range(KNOWLEDGE_MAX_SNIPPETS)]
    message = truncate_tokens(f"Body {n}: how long does a refund take? " + " ".join(
        f"the parcel {n} arrived on day {i}." for i in range(message_tokens)), message_tokens)
    return json.dumps({"message": message, "knowledge": knowledge}).encode()


def _layers_around(settings: Settings) -> tuple[str, list[Message], list[tuple[str, str]], str]:
    at = datetime.now(UTC)
    history = [Message(seq=i, role="visitor" if i % 2 else "agent", channel="api", at=at,
                       text=f"Message {i}: my order ZX-{7700 + i} should arrive on the {i}th; I decided on express. " * 12)
               for i in range(1, 15)]
    summary = None
    for start in range(1, 200, 6):
        summary = summary_fold.fold(summary, [m.model_copy(update={"seq": start + j}) for j, m in enumerate(history[:6])],
                                    settings.summary_cap_tokens)
    facts = [(f"f{i}", f"Prefers option {i} for deliveries to the office") for i in range(8)]
    return summary or "", history, facts, "Writes in English.\nTone: polite, detailed messages."


def _one(raw: bytes, settings: Settings, around: tuple[str, list[Message], list[tuple[str, str]], str]) -> tuple[float, float]:
    """(wall ms, CPU ms of this thread) of one body."""
    summary, history, facts, profile = around
    start, cpu = time.perf_counter(), time.thread_time()
    turn = TurnInput.model_validate_json(raw)
    check_message_fits(settings.system_prompt, turn.message, settings.budget_tokens, settings.reply_reserve_tokens)
    assemble(Layers(system=settings.system_prompt, current=turn.message, summary=summary, profile=profile,
                    facts=facts, knowledge=turn.knowledge),
             after_cursor=history, window=settings.window_messages, budget=settings.budget_tokens,
             reserve=settings.reply_reserve_tokens)
    return (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000


def run(bodies: int = 100) -> dict:
    settings = Settings()
    around = _layers_around(settings)
    longest = settings.budget_tokens - settings.reply_reserve_tokens - count_tokens(settings.system_prompt) - 40
    shapes = {"short_question": 30, "longest_message": longest}
    for shape_tokens in shapes.values():  # warm: the encoder loaded, first-call costs paid
        for n in range(3):
            _one(body(10_000 + n, shape_tokens), settings, around)
    gc.collect()
    baseline = _rss_mb()
    out: dict = {}
    for name, tokens in shapes.items():
        walls, cpus, sizes = [], [], []
        for n in range(bodies):
            raw = body(n, tokens)
            sizes.append(len(raw))
            wall, cpu = _one(raw, settings, around)
            walls.append(wall)
            cpus.append(cpu)
            del raw
        out[name] = {"body_bytes": max(sizes), "message_tokens": tokens,
                     "wall_ms": summary_ms(walls), "cpu_ms": summary_ms(cpus)}
    gc.collect()
    after = _rss_mb()
    worst = max(v["cpu_ms"]["p95"] for v in out.values())
    return {
        **out,
        "bodies_per_shape": bodies,
        "limits": {"snippets": KNOWLEDGE_MAX_SNIPPETS, "bytes": KNOWLEDGE_MAX_BYTES, "tokens": KNOWLEDGE_MAX_TOKENS},
        "worst_cpu_ms_p95": {"value": worst, "unit": "ms", "goal": f"< {GOAL_MS:g}", "met": worst < GOAL_MS,
                             "how": "p95 CPU time of the slower shape (JSON parse + limits + budget check + "
                                    "assembly); CPU, not wall time, because the machine is shared (see load average)"},
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "rss_gained_mb": {"value": round(after - baseline, 2), "unit": "MB", "goal": f"<= {GOAL_RSS_MB:g}",
                          "met": after - baseline <= GOAL_RSS_MB,
                          "how": f"resident set after {2 * bodies} new bodies minus after the warm-up (gc.collect both times)"},
        "how": "pure domain and service validation in one process, every body new; the encoder loaded before timing",
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
