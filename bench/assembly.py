"""Assembly time for a full 12-message window plus a ~6,700-token paste, and the overflow block's
compression ratio (tokens of the messages it replaced / tokens of the block).

    .venv/bin/python -m bench.assembly
"""

from __future__ import annotations

import json
import statistics
import time
from datetime import UTC, datetime

from convmem.domain.context_assembly import Layers, assemble
from convmem.domain.models import Message
from convmem.domain.tokens import count_tokens

from bench.common import pct


def run(repeats: int = 200) -> dict:
    at = datetime.now(UTC)
    history = [
        Message(seq=i, role="visitor" if i % 2 else "agent", channel="api", at=at,
                text=(f"My order ZX-{7700 + i} should arrive on the {i}th; I decided on express delivery to the office."
                      if i % 2 else f"Thanks! Order ZX-{7700 + i - 1} is noted for express delivery; I will confirm the date by email."))
        for i in range(1, 13)
    ]
    paste = "Here is the contract text. " + "lorem ipsum dolor sit amet " * 1340
    layers = Layers(system="You are a helpful assistant.", current=paste)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        request, report = assemble(layers, after_cursor=history, window=12, budget=8000, reserve=1024)
        times.append((time.perf_counter() - start) * 1000)
    replaced = sum(count_tokens(m.text) for m in history[: report.compressed_messages])
    block = count_tokens(request.overflow or "")
    return {
        "assembly_ms_median": round(statistics.median(times), 2),
        "assembly_ms_p95": round(pct(times, 0.95), 2),
        "compressed_messages": report.compressed_messages,
        "replaced_tokens": replaced,
        "block_tokens": block,
        "compression_ratio": round(replaced / block, 2) if block else None,
        "request_tokens": report.request_tokens,
        "budget_tokens": report.budget_tokens,
        "how": f"pure domain call, median of {repeats}, encoder loaded (token counts are not cached)",
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
