"""Sections 1-3 in one run: one session driven to TURNS turns on the embedded AWS.

Every turn goes through the API Lambda handler (functions/api/app.py, an API Gateway payload-2.0
event, API key auth) on moto server with the local model. After each turn the fold and facts
queues are polled once and their jobs handed to the fold and facts handlers as real SQS events,
as Lambda's event-source mapping would, so the cursor keeps up as in production; the profile
handler runs every PROFILE_EVERY turns as a stand-in for its hourly schedule.

1. cost per turn at the checkpoints: request tokens, DynamoDB items / bytes read, AWS calls by
   service and operation and KMS calls (botocore hooks on every client of the process);
2. fold input tokens: ours (old summary + the messages just pushed out of the window, counted
   where the fold hands them to the model) against re-summarising the whole history at each
   fold (the same folds, computed from the transcript, not run through a model);
3. turn time against the floor: right after every other turn, one Query and one TransactWriteItems
   of the same shape and size as the turn's, on another session of the same table and server
   (and after every fourth, every call a warm turn makes, raw: the turn's own floor).

    .venv/bin/python -m bench.growth [TURNS] [--checkpoints 20,200,1000] [--out FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.common import CallCounter, Tally, embedded_aws, emit, fig, pct, ratio, summary_ms, turn_event

USER, SESSION = "bench-user", "bench-session"
FLOOR_SESSION = "bench-floor"
SAME_CALLS_SESSION = "bench-same-calls"

# A support conversation: facts in the first turns, a move half-way, recall questions now and then.
_OPENING = [
    "Hi, my name is Minji Kim and I live in Busan.",
    "My email is minji.kim@example.com, in case you need it.",
    "I prefer window seats when I fly.",
]
_CYCLE = [
    "My order ZX-{n} needs a new delivery date, maybe the {day}th; I decided on express delivery.",
    "Also I wondered about the return policy for shoes bought on sale, order ZX-{n}.",
    "Can you check whether invoice INV-{n} was paid? It was 42,000 won.",
    "The courier left a note about parcel PK-{n}, but nobody rang the bell.",
    "Please change the delivery address of ZX-{n} to my office, 7th floor.",
    "What did I say about my order ZX-{p}?",
    "I need the receipt for ZX-{n} by Friday for my expense report.",
    "Thanks, and could you confirm the refund of ticket T-{n} went through?",
]
MOVE_AT = 0.5  # share of the run after which the visitor moves (one fact update with history)


def message(turn: int, turns: int) -> str:
    if turn <= len(_OPENING):
        return _OPENING[turn - 1]
    if turn == max(len(_OPENING) + 1, int(turns * MOVE_AT)):
        return "I moved to Seoul last week, so please use the new city from now on."
    template = _CYCLE[turn % len(_CYCLE)]
    return template.format(n=40000 + turn, p=40000 + turn - 3, day=turn % 28 + 1)


def _instrument(counter: CallCounter) -> dict[str, list]:
    """Book code sections (encryption, assembly, model) to the current phase, and record what
    every fold hands the model. Class-level wrappers: the handlers' own instances see them."""
    import convmem.service.turn as turn_module
    from convmem.adapters.encryption import HierarchicalCipher
    from convmem.adapters.local_model import LocalModel
    from convmem.domain.tokens import count_tokens

    def timed(label: str, fn: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                counter.span(label, (time.perf_counter() - start) * 1000)

        return wrapper

    HierarchicalCipher.encrypt = timed("encrypt", HierarchicalCipher.encrypt)
    HierarchicalCipher.decrypt = timed("decrypt", HierarchicalCipher.decrypt)
    turn_module.assemble = timed("assemble", turn_module.assemble)
    LocalModel.reply = timed("model_reply", LocalModel.reply)
    turn_module.TurnService.take_turn = timed("turn_service", turn_module.TurnService.take_turn)

    folds: list[dict[str, Any]] = []
    fold_summary = LocalModel.fold_summary

    def measured_fold(self: Any, old: str | None, messages: Any, cap: int) -> str:
        folds.append({
            "first": min(m.seq for m in messages), "through": max(m.seq for m in messages),
            "summary_in": count_tokens(old or ""), "messages_in": sum(count_tokens(m.text) for m in messages),
        })
        out = fold_summary(self, old, messages, cap)
        folds[-1]["summary_out"] = count_tokens(out)
        return out

    LocalModel.fold_summary = measured_fold
    return {"folds": folds}


FLOOR_EVERY = 2  # the floor runs right after every other timed turn (the run's time budget)
SAME_CALLS_EVERY = 4  # the second floor (every call a warm turn makes) beside every fourth
RING = 24  # message slots of a floor session: a full Query page, and a table that does not grow


def _floor_writes(table: str, session: str, seq: int, puts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The turn's TransactWriteItems on another session: its two message Puts (same attributes and
    sizes, each conditioned on its row) and the conditional STATE update.

    The floor's messages go round RING slots (the condition lets a newer seq replace an older one),
    so the table keeps the size it would have without the floors: moto's Query looks at every item
    of the table, and floors that piled up rows would slow the turn they are compared with."""
    pk = f"SESSION#{USER}#{session}"  # the store's key: sessions live inside their user
    items = []
    for i, put in enumerate(puts):
        item = dict(put["Put"]["Item"])
        item.update({"PK": {"S": pk}, "SK": {"S": f"MSG#{(seq + i) % RING:010d}"}, "seq": {"N": str(seq + i)}})
        items.append({"Put": {"TableName": table, "Item": item,
                              "ConditionExpression": "attribute_not_exists(PK) OR seq < :seq",
                              "ExpressionAttributeValues": {":seq": {"N": str(seq + i)}}}})
    expected = seq - 1
    condition = "attribute_not_exists(PK)" if expected == 0 else "messageCount = :expected"
    values: dict[str, Any] = {":count": {"N": str(expected + len(items))}, ":now": {"S": "2026-12-02T12:00:00.000Z"}}
    if expected:
        values[":expected"] = {"N": str(expected)}
    state = {"Update": {
        "TableName": table, "Key": {"PK": {"S": pk}, "SK": {"S": "STATE"}},
        "UpdateExpression": "SET messageCount = :count, updatedAt = :now",
        "ConditionExpression": condition, "ExpressionAttributeValues": values,
    }}
    return [*items, state]


def _session_query(ddb: Any, table: str, session: str) -> Any:
    from convmem.adapters.dynamodb.sessions import _PAGE_SLACK

    return ddb.query(
        TableName=table, KeyConditionExpression="PK = :pk", ExpressionAttributeValues={":pk": {"S": f"SESSION#{USER}#{session}"}},
        ScanIndexForward=False, Limit=1 + 12 + _PAGE_SLACK,
    )


def _floor(ddb: Any, table: str, seq: int, puts: list[dict[str, Any]]) -> float:
    """The floor of the issue: one descending Query (STATE + window + slack, as the turn's) and one
    TransactWriteItems of the turn's shape and sizes, raw boto3."""
    writes = _floor_writes(table, FLOOR_SESSION, seq, puts)
    start = time.perf_counter()
    _session_query(ddb, table, FLOOR_SESSION)
    ddb.transact_write_items(TransactItems=writes)
    return (time.perf_counter() - start) * 1000


def _same_calls(ddb: Any, sqs: Any, pool: Any, table: str, queue_url: str, seq: int, puts: list[dict[str, Any]]) -> float:
    """Every AWS call a warm turn makes, raw boto3 with nothing else: the Query with the user's
    BatchGetItem (facts + profile) beside it on another thread, the TransactWriteItems, and the two
    SendMessage (facts job, fold job) to a FIFO queue of the bench's own."""
    writes = _floor_writes(table, SAME_CALLS_SESSION, seq, puts)
    user = {"S": f"USER#{USER}"}
    keys = {table: {"Keys": [{"PK": user, "SK": {"S": "FACTS"}}, {"PK": user, "SK": {"S": "PROFILE"}}]}}
    start = time.perf_counter()
    memory = pool.submit(ddb.batch_get_item, RequestItems=keys)
    _session_query(ddb, table, SAME_CALLS_SESSION)
    memory.result()
    ddb.transact_write_items(TransactItems=writes)
    for kind in ("fold", "facts"):
        sqs.send_message(QueueUrl=queue_url, MessageBody=f'{{"job":"{kind}","seq":{seq}}}', MessageGroupId=kind,
                         MessageDeduplicationId=f"{kind}-{seq}")
    return (time.perf_counter() - start) * 1000


def run(turns: int = 1000, checkpoints: tuple[int, ...] = (20, 200, 1000), profile_every: int = 100) -> dict[str, Any]:
    counter = CallCounter()  # before any client exists
    # The patched moto of local/moto_server.py: DynamoDB costs that do not grow with the table (bench/moto_scaling.py shows
    # why: on stock moto a 1,000-turn session's TransactWriteItems deep-copies the table three times).
    with embedded_aws(scaled=True) as aws:
        import boto3

        from local.lambda_runtime import LambdaContext, load_handler
        from local.pollers import QueuePoller, sqs_sources
        from local.scheduler import schedule_sources, scheduled_event

        recorded = _instrument(counter)
        from convmem.domain.tokens import count_tokens

        template, resolver = aws.template, aws.resolver
        api = load_handler(template, "ApiFunction", resolver)
        consumers = {}
        jobs: dict[str, Tally] = {}  # this turn's background jobs

        for src in sqs_sources(template):
            handler = load_handler(template, src.function, resolver)
            name = src.function.removesuffix("Function").lower()

            def booked(event: dict, context: Any, handler: Any = handler, name: str = name) -> Any:
                with counter.phase(name) as job:
                    start = time.perf_counter()
                    try:
                        return handler(event, context)
                    finally:
                        counter.span("job_ms", (time.perf_counter() - start) * 1000)
                        jobs[name] = job

            consumers[name] = QueuePoller(src, resolver, booked, boto3.client("sqs"))
        schedule = schedule_sources(template)[0]
        profile_fn = load_handler(template, schedule.function, resolver)
        table = resolver.refs["ConversationTable"]
        floor_ddb, floor_sqs = boto3.client("dynamodb"), boto3.client("sqs")
        floor_queue = floor_sqs.create_queue(QueueName="bench-floor.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-read")

        per_turn: list[dict[str, Any]] = []
        background: list[dict[str, Tally]] = []
        texts: list[str] = []  # the transcript by seq - 1, for the naive fold
        floor_ms: list[float] = []
        same_ms: list[float] = []
        floor_calls: list[Tally] = []
        first_turn_at = None
        # Turns after the first checkpoint are timed: the first ones fill caches (SDK, keyring, tiktoken).
        timed_from = min(checkpoints[0], turns - 1)
        seqs = {"floor": 1, "same": 1, "filled": 0}  # next seq of each floor's session
        for n in range(1, turns + 1):
            msg = message(n, turns)
            event = turn_event(USER, SESSION, msg, channel="api")
            with counter.phase("turn") as tally:
                start = time.perf_counter()
                response = api(event, LambdaContext("ApiFunction", timeout_s=29))
                elapsed = (time.perf_counter() - start) * 1000
            if response["statusCode"] != 200:
                raise RuntimeError(f"turn {n}: {response['statusCode']} {response.get('body')}")
            body = json.loads(response["body"])
            first_turn_at = first_turn_at or time.monotonic()
            texts += [msg, body["reply"]]
            ctx = body["context"]
            per_turn.append({
                "turn": n, "ms": elapsed, "at_s": time.monotonic() - first_turn_at,
                "request_tokens": ctx["requestTokens"], "summary_tokens": ctx["summaryTokens"],
                "pending_messages": ctx["pendingMessages"], "facts_recalled": len(ctx["factIds"]),
                "profile": ctx["profile"], "tally": tally,
            })
            if n > timed_from:  # the floors are measured beside the turns that are timed
                puts = counter.last_puts
                if not seqs["filled"]:  # first fill the floors' sessions, so their Query reads a full page as the turn's
                    seqs["filled"] = 1
                    with counter.phase("floor-fill"):
                        for _ in range(11):
                            _floor(floor_ddb, table, seqs["floor"], puts)
                            _same_calls(floor_ddb, floor_sqs, pool, table, floor_queue, seqs["same"], puts)
                            seqs["floor"] += 2
                            seqs["same"] += 2
                if n % FLOOR_EVERY == 0 or n == turns:
                    with counter.phase("floor") as floor_tally:
                        floor_ms.append(_floor(floor_ddb, table, seqs["floor"], puts))
                    seqs["floor"] += 2
                    floor_calls.append(floor_tally)
                if n % SAME_CALLS_EVERY == 0 or n == turns:
                    with counter.phase("same-calls"):
                        same_ms.append(_same_calls(floor_ddb, floor_sqs, pool, table, floor_queue, seqs["same"], puts))
                    seqs["same"] += 2
                if n % 200 == 0:  # the floor's queue stays as short as the consumed job queues
                    with counter.phase("floor-fill"), contextlib.suppress(Exception):  # a refused purge only lets it grow
                        floor_sqs.purge_queue(QueueUrl=floor_queue)
            jobs.clear()
            for poller in consumers.values():
                with counter.phase("event-source"):  # Lambda's SQS polling: receive, delete
                    poller.poll_once(wait_seconds=0)
            if profile_every and n % profile_every == min(10, profile_every) % profile_every:
                with counter.phase("profile") as job:
                    start = time.perf_counter()
                    profile_fn(scheduled_event(schedule), LambdaContext(schedule.function, timeout_s=300))
                    counter.span("job_ms", (time.perf_counter() - start) * 1000)
                jobs["profile"] = job
            background.append(dict(jobs))

        pool.shutdown()
        floors = {"floor_ms": floor_ms, "same_ms": same_ms, "floor_calls": floor_calls, "timed_from": timed_from}
        ttl = int(aws.function_env("ApiFunction").get("CONVMEM_KEY_CACHE_TTL_S", "60"))
        return _report(per_turn, background, floors, recorded["folds"], texts, checkpoints, counter, count_tokens, ttl)


def _turn_figures(row: dict[str, Any]) -> dict[str, Any]:
    t: Tally = row["tally"]
    d = t.as_dict()
    return {
        "request_tokens": row["request_tokens"],
        "summary_tokens": row["summary_tokens"],
        "pending_messages": row["pending_messages"],
        "dynamodb_items_read": d["dynamodb_items_read"],
        "dynamodb_bytes_read": d["dynamodb_bytes_read"],
        "dynamodb_wire_bytes_read": d["dynamodb_wire_bytes_read"],
        "dynamodb_read_units": d["dynamodb_read_units"],
        "dynamodb_bytes_written": d["dynamodb_bytes_written"],
        "dynamodb_write_units": d["dynamodb_write_units"],
        "aws_calls": d["aws_calls"],
        "kms_calls": d["kms_calls"],
        "calls": d["calls"],
    }


def _ratio_of(last: dict[str, Any], first: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("request_tokens", "dynamodb_items_read", "dynamodb_bytes_read", "dynamodb_wire_bytes_read",
                "dynamodb_read_units", "aws_calls", "kms_calls"):
        a, b = last[key], first[key]
        out[key] = 1.0 if a == b == 0 else ratio(a, b)
    ops = set(last["calls"]) | set(first["calls"])
    out["calls"] = {op: (1.0 if last["calls"].get(op, 0) == first["calls"].get(op, 0) else ratio(last["calls"].get(op, 0), first["calls"].get(op, 0)))
                    for op in sorted(ops)}
    return out


def _report(per_turn, background, floors, folds, texts, checkpoints, counter, count_tokens, ttl) -> dict[str, Any]:
    turns = len(per_turn)
    checkpoints = tuple(c for c in checkpoints if c <= turns) or (turns,)
    at = {c: _turn_figures(per_turn[c - 1]) for c in checkpoints}
    first, last = at[checkpoints[0]], at[checkpoints[-1]]
    ratios = _ratio_of(last, first)
    numeric = [k for k, v in ratios.items() if k != "calls"] + [f"calls.{op}" for op in ratios["calls"]]
    worst = max([v for k, v in ratios.items() if k != "calls" and v is not None] + [v for v in ratios["calls"].values() if v is not None])

    # KMS on the turn path: which turns paid it, and when. The keyring caches the user's branch key
    # twice (encrypt materials: filled by turn 1, which creates the key; decrypt materials: filled by
    # turn 2, the first that reads history) for CONVMEM_KEY_CACHE_TTL_S, then reads it again.
    kms_turns = [{"turn": r["turn"], "at_s": round(r["at_s"], 1), "kms_calls": r["tally"].by_service().get("kms", 0),
                  "calls": {k: v for k, v in r["tally"].calls.items() if k.startswith(("kms.", "dynamodb.GetItem"))}}
                 for r in per_turn if r["tally"].by_service().get("kms", 0)]
    fills = [k["at_s"] for k in kms_turns if k["turn"] <= 2]
    refreshes, unexplained = [], []
    for k in (k for k in kms_turns if k["turn"] > 2):
        due = [i for i, t in enumerate(fills) if k["at_s"] - t >= 0.98 * ttl]
        if due:
            for i in due[: k["kms_calls"]]:
                fills[i] = k["at_s"]
            refreshes.append(k)
        else:
            unexplained.append(k)
    warm_kms = sum(k["kms_calls"] for k in unexplained)
    refresh_turns = {r["turn"] for r in per_turn if {"kms", "secretsmanager"} & set(r["tally"].by_service())}

    # Steady state: every turn from the first checkpoint on, not only the checkpoints.
    steady = [r for r in per_turn if r["turn"] >= checkpoints[0]]
    steady_nokms = [r for r in steady if r["turn"] not in refresh_turns]

    def spread(key: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
        values = [_turn_figures(r)[key] for r in rows]
        return {"min": min(values), "max": max(values), "max_over_first": ratio(max(values), _turn_figures(rows[0])[key])}

    steady_spread = {k: spread(k, steady_nokms or steady) for k in
                     ("request_tokens", "dynamodb_items_read", "dynamodb_bytes_read", "aws_calls")}

    # --- background cost of each turn (its fold and facts jobs), at the checkpoints
    def bg(c: int) -> dict[str, Any]:
        jobs = background[c - 1]
        return {name: {"aws_calls": sum(t.calls.values()), "kms_calls": t.by_service().get("kms", 0), "calls": dict(sorted(t.calls.items())),
                       "dynamodb_bytes_read": t.bytes_read, "ms": round(t.spans.get("job_ms", 0.0), 2)} for name, t in jobs.items()}

    # --- section 2: fold input tokens
    per_msg = [count_tokens(t) for t in texts]
    prefix = [0]
    for tok in per_msg:
        prefix.append(prefix[-1] + tok)
    ours = [f["summary_in"] + f["messages_in"] for f in folds]
    naive = [prefix[f["through"]] for f in folds]
    fold_ms = [t.spans.get("job_ms", 0.0) for jobs in background for name, t in jobs.items() if name == "fold"]
    half = len(ours) // 2 or 1

    # --- section 3: turn time against the floor
    timed = per_turn[floors["timed_from"]:]
    turn_ms = [r["ms"] for r in timed]
    floor, same = floors["floor_ms"], floors["same_ms"]
    floor_parts = {f"aws {op}": round(statistics.median([t.call_ms.get(op, 0.0) for t in floors["floor_calls"]]), 3)
                   for op in ("dynamodb.Query", "dynamodb.TransactWriteItems")}
    comp: dict[str, list[float]] = {}
    for r in timed:
        t: Tally = r["tally"]
        for op, ms in t.call_ms.items():
            comp.setdefault(f"aws {op}", []).append(ms)
        for label, ms in t.spans.items():
            comp.setdefault(label, []).append(ms)
    components = {k: round(statistics.median(v + [0.0] * (len(timed) - len(v))), 3) for k, v in sorted(comp.items())}
    section_calls = {label: statistics.median([r["tally"].span_calls.get(label, 0) for r in timed])
                     for label in sorted({lbl for r in timed for lbl in r["tally"].span_calls})}
    sequential_aws = sum(v for k, v in components.items() if k.startswith("aws ") and "BatchGetItem" not in k)
    turn_median, floor_median = statistics.median(turn_ms), statistics.median(floor)
    handler_overhead = statistics.median([r["ms"] - r["tally"].spans.get("turn_service", 0.0) for r in timed])

    how1 = ("one session, every turn through the API Lambda handler (payload-2.0 event, API key) on moto server "
            "with the local model; fold and facts jobs polled from their FIFO queues after every turn and run by "
            "their handlers; AWS calls counted with botocore before-parameter-build / after-call hooks on boto3's "
            "default session (every client of the process, the key store's included); bytes = DynamoDB item "
            "sizes by AWS sizing rules (wire = HTTP response bytes); read units computed from those sizes "
            "(eventually consistent)")
    return {
        "turns": turns,
        "checkpoints": list(checkpoints),
        "flat_cost": {
            "how": how1,
            "at_turn": {str(c): at[c] for c in checkpoints},
            "ratio_last_over_first": fig(ratios, "ratio", f"turn {checkpoints[-1]} / turn {checkpoints[0]} of each figure (0/0 counts as 1.0)"),
            "worst_ratio": fig(worst, "ratio", f"largest of the ratios turn {checkpoints[-1]} / turn {checkpoints[0]}", goal="<= 1.1", met=worst <= 1.1),
            "steady_state": fig(steady_spread, "per turn",
                                f"every turn from {checkpoints[0]} to {turns} (turns refreshing the branch key or the API key secret "
                                f"left out: {len(refresh_turns & {r['turn'] for r in steady})}): min, max, max / turn {checkpoints[0]}"),
            "kms_calls_warm_turns": fig(warm_kms, "calls", "KMS calls of the turn path on warm turns (from turn 3, once "
                                        "both cache entries of the user's branch key are filled) other than the refresh "
                                        f"every CONVMEM_KEY_CACHE_TTL_S ({ttl} s) by design", goal="0", met=warm_kms == 0),
            "kms_refreshes": fig({"turns": len(refreshes), "kms_calls": sum(k["kms_calls"] for k in refreshes),
                                  "per_1000_turns": round(1000 * sum(k["kms_calls"] for k in refreshes) / max(1, turns - 2), 2)},
                                 "calls", f"key-cache refreshes on warm turns: a branch-key read (GetItem + KMS Decrypt) "
                                 f"at least {ttl} s after the entry was filled; they depend on wall time, not on the turn count"),
            "kms_turns": fig(kms_turns, "list", "turns whose path called KMS, seconds after the first turn; the keyring "
                             "caches a branch key for CONVMEM_KEY_CACHE_TTL_S (60 s), then reads it again "
                             "(key-store GetItem + KMS Decrypt)"),
            "background_at_turn": fig({str(c): bg(c) for c in checkpoints}, "per job",
                                      "the fold / facts jobs this turn sent, run by their handlers from the queue (event-source "
                                      "receive/delete not included; see event_source)"),
            "event_source": counter.total("event-source").as_dict()["calls"],
            "run_totals": {name: counter.total(name).as_dict() for name in ("turn", "fold", "facts", "profile", "event-source", "floor")},
            "series": [{"turn": r["turn"], **{k: _turn_figures(r)[k] for k in ("request_tokens", "dynamodb_bytes_read", "aws_calls", "kms_calls")},
                        "ms": round(r["ms"], 2)} for r in per_turn if r["turn"] % 50 == 0 or r["turn"] in checkpoints],
            "figures_compared": numeric,
        },
        "fold_cost": {
            "how": ("each fold's input counted with tiktoken cl100k where the fold service hands it to the model "
                    "(old summary + the messages just pushed out of the window); naive = the whole transcript up to "
                    "the same seq for the same folds, computed, not run through a model"),
            "folds": len(folds),
            "incremental_tokens": fig(sum(ours), "tokens", "sum over every fold of the run"),
            "naive_tokens": fig(sum(naive), "tokens", "sum over the same folds of the whole history up to the fold's seq"),
            "naive_over_incremental": fig(ratio(sum(naive), sum(ours)), "ratio", "naive / incremental"),
            "incremental_tokens_per_fold": {
                "first_half_mean": round(statistics.mean(ours[:half]), 1) if ours else None,
                "second_half_mean": round(statistics.mean(ours[half:]), 1) if ours[half:] else None,
                "max": max(ours) if ours else None,
            },
            "naive_tokens_last_fold": naive[-1] if naive else None,
            "summary_tokens_max": max((f["summary_out"] for f in folds), default=None),
            "fold_job_ms": summary_ms(fold_ms) if fold_ms else None,
        },
        "turn_overhead": {
            "how": (f"turns {timed[0]['turn']}..{turns} of the same run, wall time of the API handler call in-process "
                    "(moto server over loopback, local model); floor = one Query + one TransactWriteItems with the "
                    "turn's shapes and sizes, raw boto3 on another session of the same table, right after every other turn"),
            "turn_ms": fig(summary_ms(turn_ms), "ms", "API handler, event in -> response out"),
            "floor_ms": fig(summary_ms(floor), "ms", "Query + TransactWriteItems, raw boto3"),
            "median_ratio": fig(ratio(turn_median, floor_median), "ratio", "turn median / floor median", goal="<= 2.0",
                                met=turn_median / floor_median <= 2.0),
            "p95_ratio": fig(ratio(pct(turn_ms, 0.95), pct(floor, 0.95)), "ratio", "turn p95 / floor p95"),
            "floor_components_median_ms": floor_parts,
            "same_calls_ms": fig(summary_ms(same), "ms", "every AWS call a warm turn makes (Query beside BatchGetItem, "
                                 "TransactWriteItems, 2 SendMessage), raw boto3, nothing else, right after every fourth turn"),
            "median_ratio_to_same_calls": fig(ratio(turn_median, statistics.median(same)), "ratio",
                                              "turn median / same-calls median: what our code adds beyond its AWS calls"),
            "components_median_ms": fig(components, "ms", "median per turn of the time inside each AWS call (whole boto3 "
                                        "call: validation, signing, loopback round trip, parsing) and each timed code section; "
                                        "BatchGetItem runs concurrently with the Query"),
            "handler_overhead_ms_median": fig(round(handler_overhead, 3), "ms", "API handler time outside TurnService.take_turn: "
                                              "Powertools resolver and validation, auth (API key, cached secret), response "
                                              "model, logging and metrics"),
            "sections_per_turn_median": fig(section_calls, "calls", "how often each timed code section ran in a turn"),
            "sequential_aws_ms_median": round(sequential_aws, 3),
            "calls_beyond_floor": {op: n for op, n in last["calls"].items() if op not in ("dynamodb.Query", "dynamodb.TransactWriteItems")},
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("turns", nargs="?", type=int, default=1000)
    parser.add_argument("--checkpoints", default="20,200,1000")
    parser.add_argument("--profile-every", type=int, default=100)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    result = run(args.turns, tuple(int(c) for c in args.checkpoints.split(",")), args.profile_every)
    emit(result, args.out)


if __name__ == "__main__":
    main()
