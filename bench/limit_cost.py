"""What the per-user turn limit costs a warm turn (issue 15, item 4): the same warm turn with the
counter in its transaction (and in its BatchGetItem) and without (TurnLimit 0), in-process on
moto with the local model. Turns alternate between the two so drift in the machine's load hits
both alike; each side's calls are counted too (they must be the same: one Query, one
BatchGetItem, one TransactWriteItems).

    .venv/bin/python -m bench.limit_cost [turns per side, default 150]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from bench.common import pct


def main(turns: int = 150) -> dict[str, dict[str, float]]:
    for k, v in {"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": "us-east-1",
                 "POWERTOOLS_LOG_LEVEL": "WARNING", "POWERTOOLS_METRICS_NAMESPACE": "bench"}.items():
        os.environ[k] = v
    os.environ.pop("AWS_ENDPOINT_URL", None)
    import boto3
    from convmem.composition import build_api
    from convmem.service.turn import TurnInput
    from convmem.settings import Settings
    from moto import mock_aws

    from local.aws import create_resources
    from local.template import function_environment, load_template
    from tests.functional.conftest import CallCounter

    with mock_aws():
        template = load_template()
        resolver = create_resources(template, secret_values={"ApiKeySecret": "bench"})
        sides = {}
        for name, limit in (("with counter", "1000000000"), ("without (TurnLimit 0)", "0")):
            resolver.overrides.update({"TurnLimit": limit, "TurnBurstLimit": "0"})
            settings = Settings.from_env({**function_environment(template, "ApiFunction", resolver),
                                          "FOLD_QUEUE_URL": "", "FACTS_QUEUE_URL": ""})
            counter = CallCounter()
            ddb = counter.attach(boto3.client("dynamodb"))
            commits: list[float] = []  # the TransactWriteItems call alone, as the client sees it
            ddb.meta.events.register("before-call.dynamodb.TransactWriteItems",
                                     lambda commits=commits, **_: commits.append(time.perf_counter()))
            ddb.meta.events.register("after-call.dynamodb.TransactWriteItems",
                                     lambda commits=commits, **_: commits.append((time.perf_counter() - commits.pop()) * -1))
            services = build_api(settings, clients={"dynamodb": ddb})
            user = f"bench-{len(sides)}"
            for i in range(3):  # key created, first decrypts done: every timed turn is warm
                services.turns.take_turn(user, f"{user}-warm", TurnInput(message=f"warm-up {i}: order A-{i}"))
            commits.clear()
            sides[name] = (services, user, counter, [], commits)
        for i in range(turns):
            # Which side goes first alternates; a new session every 4 turns keeps every session
            # within the window (no fold runs here), so each turn is the warm one-Query turn.
            for services, user, counter, times, _ in list(sides.values())[:: 1 if i % 2 else -1]:
                if i % 4 == 0:
                    services.turns.take_turn(user, f"{user}-s{i}", TurnInput(message="a new session"))
                counter.reset()
                start = time.perf_counter()
                services.turns.take_turn(user, f"{user}-s{i // 4 * 4}", TurnInput(message=f"Turn {i}: where is order A-{i}?"))
                times.append((time.perf_counter() - start) * 1000)
        out = {}
        for name, (_, _, counter, times, commits) in sides.items():
            out[name] = {"median_ms": statistics.median(times), "p90_ms": pct(times, 0.9),
                         "mean_ms": statistics.fmean(times),
                         "commit_median_ms": statistics.median(-c * 1000 for c in commits if c < 0)}
            print(f"{name:>24}: median {out[name]['median_ms']:.2f} ms, p90 {out[name]['p90_ms']:.2f} ms, "
                  f"mean {out[name]['mean_ms']:.2f} ms over {turns} warm turns (its TransactWriteItems: median "
                  f"{out[name]['commit_median_ms']:.2f} ms); calls of the last {dict(counter.calls)}")
        on, off = out["with counter"], out["without (TurnLimit 0)"]
        print(f"{'counter adds':>24}: {on['median_ms'] - off['median_ms']:+.2f} ms median a turn "
              f"({(on['median_ms'] / off['median_ms'] - 1) * 100:+.1f}%), "
              f"{on['commit_median_ms'] - off['commit_median_ms']:+.2f} ms median in the transaction")
        return out


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
