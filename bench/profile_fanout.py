"""Profile refresh fan-out (issue 15, item 6): USERS due users, the time from the scheduled tick
until every one is refreshed, on the embedded AWS with the local model, and the projected time on
AWS at the template's bounds.

moto server (bench/common.embedded_aws, as `make run` runs it), resources from template.yaml.
- Seed: each user gets TURNS turns in one session through the turn service (their branch key, the
  session, encrypted visitor and agent messages, as an API turn writes them) and is marked active
  as their facts job marks them. Seeding is not timed.
- Tick: ProfileFunction's handler (loaded from the template, a Lambda context with its Timeout)
  on the schedule's event: every due user queued.
- Drain: MaximumConcurrency pollers (the ProfileConcurrency parameter's default: Lambda's bound on
  the refresh function's instances), each its own import of ProfileRefreshFunction's handler (an
  instance of its own, with its own key cache) on real SQS batches of its BatchSize, until the
  due index and the queue are empty. Locally the instances share two cores and one serialised
  moto: the local time is a floor for correctness, not a projection.
- Projection on AWS: users x (Bedrock utility-model call + the job's AWS calls) / MaximumConcurrency,
  plus the tick (one SendMessageBatch per ten users). The model latency is an assumption (the
  parameters below), not a measurement: there is no Bedrock from this machine.

    .venv/bin/python -m bench.profile_fanout [--users 5000] [--turns 2] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

# Assumed Bedrock latency of one profile call to the utility model (amazon.nova-micro-v1:0, which
# AWS positions as the lowest-latency Nova model; ~1,000 input and <= 150 output tokens): p50 1.0 s,
# p95 3.0 s. An assumption to re-check with CloudWatch's InvocationLatency on the first day.
MODEL_P50_S = 1.0
MODEL_P95_S = 3.0
# The job's AWS calls on AWS: a consistent BatchGetItem, two Queries per session read (five
# sessions at most), one KMS Decrypt + GetItem for a branch key not cached, one TransactWriteItems;
# ~10 ms each in-Region.
JOB_AWS_S = 0.1
SEND_BATCH_S = 0.02  # one SendMessageBatch of ten in-Region
TEXTS = [
    "Hi, my order {o} has not arrived and the tracking page has not moved since Monday.",
    "Could you check the delivery address on it? I moved to a new flat last month.",
    "Thanks. I usually write in English and prefer short answers.",
]


def _template_bounds(template: dict[str, Any]) -> dict[str, int]:
    res = template["Resources"]["ProfileRefreshFunction"]["Properties"]
    [event] = [e["Properties"] for e in res["Events"].values() if e["Type"] == "SQS"]
    concurrency = event["ScalingConfig"]["MaximumConcurrency"]
    if isinstance(concurrency, dict):
        concurrency = template["Parameters"][concurrency["Ref"]]["Default"]
    return {"max_concurrency": int(concurrency), "batch_size": int(event["BatchSize"]), "timeout_s": int(res["Timeout"])}


def _seed(aws: Any, users: int, turns: int, workers: int = 4) -> float:
    from convmem.composition import build_api
    from convmem.service.turn import TurnInput
    from convmem.settings import Settings

    env = aws.function_env("ApiFunction")
    settings = Settings.from_env({**env, "FOLD_QUEUE_URL": "", "FACTS_QUEUE_URL": ""})  # no jobs nobody consumes here
    services = build_api(settings)
    store = services.profile._store  # noqa: SLF001 - marks the user active, as the facts job does

    def one(i: int) -> None:
        user = f"bench-u{i:05d}"
        for t in range(turns):
            services.turns.take_turn(user, f"s-{i}", TurnInput(message=TEXTS[t % len(TEXTS)].format(o=f"A-{1000 + i}")))
        store.mark_active(user, datetime.now(UTC))

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, range(users)))
    return time.perf_counter() - start


def run(users: int = 5000, turns: int = 2, model_p50_s: float = MODEL_P50_S, model_p95_s: float = MODEL_P95_S) -> dict[str, Any]:
    import boto3

    from bench.common import embedded_aws, fig, pct
    from local.lambda_runtime import LambdaContext, load_handler
    from local.pollers import EventSource, QueuePoller

    load_before = [round(x, 2) for x in os.getloadavg()]
    with embedded_aws(scaled=True) as aws:
        bounds = _template_bounds(aws.template)
        seed_s = _seed(aws, users, turns)
        os.environ.update(aws.function_env("ProfileRefreshFunction"))
        sqs, ddb = boto3.client("sqs"), boto3.client("dynamodb")
        queue = aws.resolver.refs["ProfileQueue"]
        table = aws.resolver.refs["ConversationTable"]

        def due() -> int:
            n = 0
            for shard in range(4):
                kwargs: dict[str, Any] = {"TableName": table, "IndexName": "ProfileDue", "Select": "COUNT",
                                          "KeyConditionExpression": "dueShard = :s",
                                          "ExpressionAttributeValues": {":s": {"S": f"DUE#{shard}"}}}
                while True:
                    page = ddb.query(**kwargs)
                    n += page["Count"]
                    if "LastEvaluatedKey" not in page:
                        break
                    kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
            return n

        assert due() == users, "every seeded user is due"
        # Every handler imported before the clock starts: an instance's cold start is not the fan-out.
        tick_handler = load_handler(aws.template, "ProfileFunction", aws.resolver)
        durations: list[tuple[float, int]] = []
        lock = threading.Lock()

        def timed(handler: Any) -> Any:
            def call(event: dict[str, Any], context: Any) -> Any:
                start = time.perf_counter()
                result = handler(event, context)
                with lock:
                    durations.append((time.perf_counter() - start, len(event["Records"])))
                return result
            return call

        source = EventSource("ProfileRefreshFunction", "ProfileQueue", bounds["batch_size"])
        pollers = [QueuePoller(source, aws.resolver, timed(load_handler(aws.template, "ProfileRefreshFunction", aws.resolver)), sqs)
                   for _ in range(bounds["max_concurrency"])]

        start = time.perf_counter()
        tick = tick_handler({"source": "aws.events", "detail-type": "Scheduled Event", "detail": {}},
                            LambdaContext("ProfileFunction"))
        tick_s = time.perf_counter() - start
        for p in pollers:
            p.start()
        while True:
            attrs = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["ApproximateNumberOfMessages",
                                                                           "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
            if not int(attrs["ApproximateNumberOfMessages"]) and not int(attrs["ApproximateNumberOfMessagesNotVisible"]):
                break
            time.sleep(0.5)
        all_s = time.perf_counter() - start
        for p in pollers:
            p.stop()
        for p in pollers:
            p.join(timeout=10)
        left = due()
        dead = int(sqs.get_queue_attributes(QueueUrl=aws.resolver.refs["ProfileDeadLetterQueue"],
                                            AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]["ApproximateNumberOfMessages"])

    per_job = [d / n for d, n in durations if n]
    local_job_s = sum(d for d, _ in durations) / max(1, sum(n for _, n in durations))
    c = bounds["max_concurrency"]
    tick_aws_s = users / 10 * SEND_BATCH_S

    def projected(model_s: float) -> float:
        return round(tick_aws_s + users * (model_s + JOB_AWS_S) / c, 1)

    return {
        "users": users,
        "turns_per_user": turns,
        "load_average": {"before": load_before, "after": [round(x, 2) for x in os.getloadavg()]},
        "template": bounds,
        "seed_s": round(seed_s, 1),
        "tick": tick,
        "tick_s": fig(round(tick_s, 2), "s", "ProfileFunction's handler: every due user queued, ten a SendMessageBatch"),
        "all_refreshed_s": fig(round(all_s, 1), "s", f"from the tick until the queue is empty, {c} pollers "
                               f"(MaximumConcurrency), local model, moto server", goal="every due user refreshed",
                               met=left == 0 and dead == 0),
        "left_due": left,
        "dead_lettered": dead,
        "local_job_ms": {"mean": round(local_job_s * 1000, 1), "median_batch_per_job": round(statistics.median(per_job) * 1000, 1),
                         "p95_batch_per_job": round(pct(per_job, 0.95) * 1000, 1)},
        "projection_aws": {
            "how": (f"tick {users // 10} SendMessageBatch x {SEND_BATCH_S * 1000:.0f} ms + {users} users x (model + "
                    f"{JOB_AWS_S * 1000:.0f} ms of AWS calls) / MaximumConcurrency {c}; model latency assumed, not measured"),
            "model_p50_s": model_p50_s, "model_p95_s": model_p95_s,
            "at_p50_s": projected(model_p50_s), "at_p95_s": projected(model_p95_s),
            "users_per_hour_at_p50": int(3600 * c / (model_p50_s + JOB_AWS_S)),
            "users_per_hour_at_p95": int(3600 * c / (model_p95_s + JOB_AWS_S)),
        },
    }


def main(argv: list[str] | None = None) -> None:
    from bench.common import emit

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=5000)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    emit(run(users=args.users, turns=args.turns), args.out)


if __name__ == "__main__":
    main()
