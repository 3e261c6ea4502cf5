"""Fold cost of one long conversation: our incremental fold against re-summarising everything.

Drives TURNS turns through the real turn and fold services on moto (in-process), folding
after every turn as the fold Lambda would. For each fold it counts the tokens the summarizer
is given: ours = old summary + the messages just pushed out; naive = the whole history up to
the same seq (computed, not run through a model). Also times each fold call.

    .venv/bin/python -m bench.fold_cost [TURNS]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "layers" / "convmem"), str(ROOT)]


def run(turns: int) -> dict:
    os.environ.update({"AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_DEFAULT_REGION": "us-east-1"})
    os.environ.pop("AWS_ENDPOINT_URL", None)
    from moto import mock_aws

    with mock_aws():
        from convmem.adapters.local_model import LocalModel
        from convmem.composition import build_api, build_fold
        from convmem.domain.summary_fold import fold_target
        from convmem.domain.tokens import count_tokens
        from convmem.service.turn import TurnInput
        from convmem.settings import Settings

        from local.aws import create_resources
        from local.template import function_environment, load_template

        template = load_template()
        resolver = create_resources(template, {"ApiKeySecret": "bench"})
        env = {**function_environment(template, "ApiFunction", resolver), "FOLD_QUEUE_URL": ""}
        settings = Settings.from_env(env)

        seen_tokens: list[int] = []

        class MeasuredModel(LocalModel):
            def fold_summary(self, old, messages, cap):
                seen_tokens.append(count_tokens(old or "") + sum(count_tokens(m.text) for m in messages))
                return super().fold_summary(old, messages, cap)

        api = build_api(settings)
        fold = build_fold(settings, model=MeasuredModel())
        texts: list[str] = []
        naive = 0
        fold_ms: list[float] = []
        summary_tokens: list[int] = []
        for i in range(turns):
            msg = (f"Turn {i}: my order ZX-{40000 + i} needs a new delivery date, maybe the {i % 28 + 1}th; "
                   "also I wondered about the return policy for shoes bought on sale.")
            result = api.turns.take_turn("bench-user", "bench-session", TurnInput(message=msg))
            texts += [msg, result.reply]
            state = api.sessions.get_session("bench-user", "bench-session").state
            through = fold_target(state.message_count, state.summarized_through, settings.window_messages)
            if through is None:
                continue
            naive += sum(count_tokens(t) for t in texts[:through])
            start = time.perf_counter()
            fold.fold("bench-session", "bench-user", through)
            fold_ms.append((time.perf_counter() - start) * 1000)
            summary_tokens.append(count_tokens(api.sessions.get_session("bench-user", "bench-session").summary or ""))
        ours = sum(seen_tokens)
        return {
            "turns": turns,
            "folds": len(fold_ms),
            "fold_input_tokens_incremental": ours,
            "fold_input_tokens_naive": naive,
            "naive_over_incremental": round(naive / ours, 1),
            "incremental_tokens_per_fold_first_half": round(statistics.mean(seen_tokens[: len(seen_tokens) // 2]), 1),
            "incremental_tokens_per_fold_second_half": round(statistics.mean(seen_tokens[len(seen_tokens) // 2 :]), 1),
            "fold_ms_median": round(statistics.median(fold_ms), 2),
            "fold_ms_p95": round(sorted(fold_ms)[int(len(fold_ms) * 0.95)], 2),
            "summary_tokens_max": max(summary_tokens),
            "how": "in-process moto; one fold per turn as the fold Lambda would run it; tokens with tiktoken cl100k",
        }


if __name__ == "__main__":
    out = run(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
    print(json.dumps(out, indent=2))
