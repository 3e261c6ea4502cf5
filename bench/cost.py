"""The bill: US dollars per 1,000 turns at published list prices, beside Bedrock AgentCore Memory.

One conversation (one user, one session) is driven to TURNS turns on the embedded AWS, as
bench/growth.py drives it: every turn through the API Lambda handler (payload-2.0 event), the
fold, facts and profile-refresh queues polled after every turn and their jobs run by their
handlers as real SQS events, the hourly profile tick every PROFILE_EVERY turns. Everything that
is billed is *counted* on the way, per turn, with botocore hooks on every client of the process
(the key store's inside the Material Providers Library included):

- DynamoDB read / write request units from the items' sizes by DynamoDB's rules (eventually or
  strongly consistent as requested; transactional writes twice; an UpdateItem charged on the
  item's size after the write, read back outside the count; one more unit per write for each
  global secondary index whose key the written item carries), and the bytes that stay stored;
- SQS requests (the turn's SendMessage, and Lambda's event-source ReceiveMessage that got the jobs
  and their DeleteMessage; empty polls are a fixed cost a month, listed apart);
- KMS and Secrets Manager requests;
- Lambda invocations and milliseconds: each handler's CPU time here (moto runs in another
  process), scaled to a 512 MB arm64 instance's share of a vCPU, plus each AWS call and each
  model call at an assumed latency (the model's time is billed: the function waits for Bedrock);
- model tokens: every call the functions make to the model port, its input and output counted
  with the service's tokenizer, plus the prompt each Bedrock call adds (the templates in
  bedrock_model.py and the reply's tool definitions); the reply's output length is assumed;
- log bytes the handlers write (CloudWatch Logs ingestion), plus Lambda's own lines per invocation.

The conversation's cost for n turns is the sum over turns 1..n (with the jobs each caused and the
profile refreshes that fell in it) over n, for n in CONVERSATIONS: a short conversation carries its
user's first turn (creating the branch key) over fewer turns. AgentCore Memory prices the same
workload: every turn stored as one event, one retrieval per turn, and as many long-term records
as the conversation's facts, stored for a month.

    .venv/bin/python -m bench.cost [TURNS] [--out FILE]
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import time
from contextlib import redirect_stdout
from dataclasses import dataclass
from typing import Any

from bench.common import CallCounter, Tally, embedded_aws, emit, fig, item_size

CHECKED = "2026-12-03"


@dataclass(frozen=True)
class Price:
    usd: float
    per: str
    source: str


# us-east-1 list prices (on-demand, no free tier), as published on the pages named, checked on CHECKED.
PRICES: dict[str, Price] = {
    "lambda_gb_s": Price(0.0000133334, "GB-second, arm64 (first 7.5 billion GB-s a month)", "https://aws.amazon.com/lambda/pricing/"),
    "lambda_request": Price(0.20 / 1e6, "request", "https://aws.amazon.com/lambda/pricing/"),
    "snapstart_restore_gb": Price(0.0001397998, "GB restored (SnapStart, Python)", "https://aws.amazon.com/lambda/pricing/"),
    "snapstart_cache_gb_s": Price(0.0000015046, "GB-second a snapshot is cached (SnapStart, Python; 3 h minimum)",
                                  "https://aws.amazon.com/lambda/pricing/"),
    "http_api_request": Price(1.00 / 1e6, "HTTP API request (first 300 million a month)", "https://aws.amazon.com/api-gateway/pricing/"),
    "ddb_wru": Price(0.625 / 1e6, "write request unit, on-demand, Standard table class", "https://aws.amazon.com/dynamodb/pricing/on-demand/"),
    "ddb_rru": Price(0.125 / 1e6, "read request unit, on-demand, Standard table class", "https://aws.amazon.com/dynamodb/pricing/on-demand/"),
    "ddb_storage_gb_month": Price(0.25, "GB-month stored (after the first 25 GB)", "https://aws.amazon.com/dynamodb/pricing/on-demand/"),
    "sqs_fifo_request": Price(0.50 / 1e6, "FIFO request (64 KB chunk)", "https://aws.amazon.com/sqs/pricing/"),
    "sqs_standard_request": Price(0.40 / 1e6, "standard request (64 KB chunk)", "https://aws.amazon.com/sqs/pricing/"),
    "kms_request": Price(0.03 / 1e4, "request (symmetric)", "https://aws.amazon.com/kms/pricing/"),
    "kms_key_month": Price(1.00, "customer managed key a month", "https://aws.amazon.com/kms/pricing/"),
    "secrets_request": Price(0.05 / 1e4, "API call", "https://aws.amazon.com/secrets-manager/pricing/"),
    "secret_month": Price(0.40, "secret a month", "https://aws.amazon.com/secrets-manager/pricing/"),
    "logs_gb": Price(0.50, "GB ingested (CloudWatch Logs, standard)", "https://aws.amazon.com/cloudwatch/pricing/"),
    "dashboard_month": Price(3.00, "dashboard a month", "https://aws.amazon.com/cloudwatch/pricing/"),
    "alarm_month": Price(0.10, "standard-resolution alarm metric a month", "https://aws.amazon.com/cloudwatch/pricing/"),
    "custom_metric_month": Price(0.30, "custom metric a month (EMF; first 10,000)", "https://aws.amazon.com/cloudwatch/pricing/"),
    "nova_lite_in": Price(0.00006 / 1e3, "input token, amazon.nova-lite-v1:0 on demand", "https://aws.amazon.com/bedrock/pricing/"),
    "nova_lite_out": Price(0.00024 / 1e3, "output token, amazon.nova-lite-v1:0 on demand", "https://aws.amazon.com/bedrock/pricing/"),
    "nova_micro_in": Price(0.000035 / 1e3, "input token, amazon.nova-micro-v1:0 on demand", "https://aws.amazon.com/bedrock/pricing/"),
    "nova_micro_out": Price(0.00014 / 1e3, "output token, amazon.nova-micro-v1:0 on demand", "https://aws.amazon.com/bedrock/pricing/"),
    "titan_embed_v2_in": Price(0.00002 / 1e3, "input token, amazon.titan-embed-text-v2:0", "https://aws.amazon.com/bedrock/pricing/"),
    "agentcore_event": Price(0.25 / 1e3, "new short-term memory event", "https://aws.amazon.com/bedrock/agentcore/pricing/"),
    "agentcore_retrieval": Price(0.50 / 1e3, "long-term memory retrieval", "https://aws.amazon.com/bedrock/agentcore/pricing/"),
    "agentcore_record_month": Price(0.75 / 1e3, "long-term memory record stored a month (built-in strategies)",
                                    "https://aws.amazon.com/bedrock/agentcore/pricing/"),
}

# What cannot be measured offline, stated (each one is a row of the assumptions table).
MEMORY_GB = 0.5  # template.yaml Globals MemorySize 512
VCPU_SHARE = 512 / 1769  # Lambda gives one vCPU at 1,769 MB, proportionally less below
AWS_CALL_MS = 8.0  # one DynamoDB / SQS / KMS / Secrets Manager round trip inside the Region
MODEL_MS = {"reply": 1500.0, "utility": 1000.0, "embed": 150.0}  # one Bedrock call, waited for by the function
REPLY_OUTPUT_TOKENS = 200  # the reply model's answer (the local model's replies are not a real model's length)
LAMBDA_PLATFORM_LOG_BYTES = 330  # START, END and REPORT lines Lambda writes per invocation
PROFILE_EVERY = 20  # turns between profile ticks: a turn every 3 minutes, the tick hourly
RESTORES_PER_1000_TURNS = 1.0  # SnapStart restores (new API instances) per 1,000 turns: scaling out, not per turn
CONVERSATIONS = (20, 200, 1000)
MODEL_OF = {"reply": "reply", "fold_summary": "utility", "extract_facts": "utility", "write_profile": "utility", "embed": "embed"}
GSI_KEYS = {"ownerKey": "ByOwner", "dueShard": "ProfileDue"}  # template.yaml's indexes of ConversationTable


def _texts(obj: Any, depth: int = 0) -> list[str]:
    """Every string inside a model call's arguments or result (messages, blocks, candidates)."""
    if depth > 6 or obj is None:
        return []
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [t for v in obj.values() for t in _texts(v, depth + 1)]
    if isinstance(obj, list | tuple | set):
        return [t for v in obj for t in _texts(v, depth + 1)]
    if hasattr(obj, "model_dump"):
        return _texts(obj.model_dump(), depth + 1)
    if hasattr(obj, "__dataclass_fields__"):
        return _texts({k: getattr(obj, k) for k in obj.__dataclass_fields__}, depth + 1)
    return []


class BillCounter(CallCounter):
    """CallCounter plus what the bill needs, booked to the current phase's tally (``tally.extra``):
    strong reads, the size of updated items, index writes, SQS requests by queue type, model calls."""

    def __init__(self) -> None:
        super().__init__()
        self._reader: Any = None

    def book(self, key: str, amount: float) -> None:
        with self._lock:
            extra = self._tally().__dict__.setdefault("extra", {})
            extra[key] = extra.get(key, 0.0) + amount

    def _count(self, model: Any, params: dict[str, Any], **kw: Any) -> None:
        super()._count(model, params, **kw)
        op = f"{model.service_model.service_name}.{model.name}"
        self._local.params = params
        if op.startswith("sqs."):
            self.book("sqs_fifo_requests" if params.get("QueueUrl", "").endswith(".fifo") else "sqs_standard_requests", 1)

    def _after(self, model: Any, parsed: dict[str, Any], http_response: Any = None, **kw: Any) -> None:
        super()._after(model, parsed, http_response=http_response, **kw)
        op = f"{model.service_model.service_name}.{model.name}"
        params = getattr(self._local, "params", None) or {}
        if "Error" in parsed:
            return
        if op == "sqs.ReceiveMessage" and not parsed.get("Messages"):  # an empty poll: the fixed monthly polling
            self.book("sqs_fifo_requests" if params.get("QueueUrl", "").endswith(".fifo") else "sqs_standard_requests", -1)
        if op in ("dynamodb.Query", "dynamodb.GetItem") and params.get("ConsistentRead"):
            if op == "dynamodb.Query":
                units = max(1, math.ceil(sum(item_size(i) for i in parsed.get("Items", [])) / 4096))
            else:
                units = max(1, math.ceil(item_size(parsed["Item"]) / 4096)) if "Item" in parsed else 1
            self.book("ddb_rru", 0.5 * units)  # the base count took every read as eventually consistent (half a unit)
        if op == "dynamodb.UpdateItem":
            self._updated(params["TableName"], params["Key"], transactional=False)
        elif op == "dynamodb.TransactWriteItems":
            for entry in params.get("TransactItems", []):
                for kind, body in entry.items():
                    if kind == "Update":
                        self._updated(body["TableName"], body["Key"], transactional=True)
                    elif kind == "Put":
                        self._index_writes(body["Item"])
        elif op == "dynamodb.PutItem":
            self._index_writes(params["Item"])

    def _updated(self, table: str, key: dict[str, Any], transactional: bool) -> None:
        """An updated item is billed on its size (the larger of before and after; after here):
        the base count booked 1 KB (2 in a transaction); book the rest."""
        import boto3

        if self._reader is None:  # a client of its own session: its reads are not counted
            self._reader = boto3.session.Session().client("dynamodb")
        item = self._reader.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")
        if item:
            per = 2 if transactional else 1
            self.book("ddb_wru", (max(1, math.ceil(item_size(item) / 1024)) - 1) * per)
            self._index_writes(item)

    def _index_writes(self, item: dict[str, Any]) -> None:
        n = sum(1 for attr in GSI_KEYS if attr in item)
        if n:
            self.book("ddb_wru", n)  # one index write per index the item is in (projections < 1 KB)


def _instrument_model(counter: BillCounter) -> None:
    """Book every model-port call (class level: the handlers' own instances see it)."""
    from convmem.adapters.local_model import LocalModel
    from convmem.domain.tokens import count_tokens

    for name in MODEL_OF:
        original = getattr(LocalModel, name)

        def wrapped(self: Any, *args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            out = _original(self, *args, **kwargs)
            counter.book(f"model_calls.{_name}", 1)
            counter.book(f"tokens_in.{_name}", sum(count_tokens(t) for t in _texts([args, kwargs])))
            if _name != "embed":
                counter.book(f"tokens_out.{_name}", sum(count_tokens(t) for t in _texts(out)))
            return out

        setattr(LocalModel, name, wrapped)


def prompt_overheads(settings: Any) -> dict[str, int]:
    """Tokens each Bedrock call adds to what the model port is given: the utility prompts and the
    reply's tool definitions (bedrock_model.py), counted with the service's tokenizer."""
    from convmem.adapters import bedrock_model
    from convmem.composition import build_model
    from convmem.domain.tokens import count_tokens

    reply_model = build_model(settings.model_copy(update={"model_provider": "bedrock"}),
                              clients={"bedrock-runtime": object(), "bedrock-agent-runtime": object()}, with_tools=True)
    return {"reply": reply_model.tool_tokens, "fold_summary": count_tokens(bedrock_model.FOLD_PROMPT),
            "extract_facts": count_tokens(bedrock_model.EXTRACT_PROMPT),
            "write_profile": count_tokens(bedrock_model.PROFILE_PROMPT), "embed": 0}


def run(turns: int = 1000, conversations: tuple[int, ...] = CONVERSATIONS, profile_every: int = PROFILE_EVERY) -> dict[str, Any]:
    counter = BillCounter()  # before any client exists
    with embedded_aws(scaled=True) as aws:
        import boto3
        from convmem.settings import Settings

        from bench.common import API_KEY, turn_event
        from bench.growth import message
        from local.apigw import to_event
        from local.lambda_runtime import LambdaContext, load_handler
        from local.pollers import QueuePoller, sqs_sources
        from local.scheduler import schedule_sources, scheduled_event

        _instrument_model(counter)
        template, resolver = aws.template, aws.resolver
        overheads = prompt_overheads(Settings.from_env(aws.function_env("ApiFunction")))
        invocations: list[dict[str, Any]] = []

        def invoke(phase: str, fn: Any, event: dict, context: Any) -> Any:
            log = io.StringIO()
            with counter.phase(phase) as tally, redirect_stdout(log):
                start, cpu = time.perf_counter(), time.process_time()
                out = fn(event, context)
                wall, cpu = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
            invocations.append({"phase": phase, "wall_ms": wall, "cpu_ms": cpu, "tally": tally,
                                "log_bytes": len(log.getvalue().encode())})
            return out

        api = load_handler(template, "ApiFunction", resolver)
        pollers = []
        for src in sqs_sources(template):
            handler = load_handler(template, src.function, resolver)
            name = src.function.removesuffix("Function").lower()
            pollers.append(QueuePoller(src, resolver, lambda e, c, h=handler, n=name: invoke(n, h, e, c), boto3.client("sqs")))
        schedule = schedule_sources(template)[0]
        tick = load_handler(template, schedule.function, resolver)

        per_turn: list[dict[str, Any]] = []
        stored: dict[int, int] = {}
        facts: dict[int, int] = {}
        headers = [("x-api-key", API_KEY), ("x-user-id", USER), ("host", "bench")]
        for n in range(1, turns + 1):
            mark = len(invocations)
            polling: list[Tally] = []
            out = invoke("turn", api, turn_event(USER, SESSION, message(n, turns), channel="api"),
                         LambdaContext("ApiFunction", timeout_s=29))
            if out["statusCode"] != 200:
                raise RuntimeError(f"turn {n}: {out['statusCode']} {out.get('body')}")
            if profile_every and n % profile_every == 0:
                invoke("profile", tick, scheduled_event(schedule), LambdaContext(schedule.function, timeout_s=300))
            for _ in range(4):  # the jobs this turn caused, then the refresh the tick queued
                with counter.phase("event-source") as poll:
                    got = sum(p.poll_once(wait_seconds=0) for p in pollers)
                polling.append(poll)
                if not got:
                    break
            per_turn.append({"invocations": invocations[mark:], "polling": polling})
            if n in conversations or n == turns:  # what the conversation holds at this length (not billed here)
                with counter.phase("checkpoint"):
                    ddb = boto3.session.Session().client("dynamodb")
                    stored[n] = _stored_bytes(ddb, [resolver.refs["ConversationTable"], resolver.refs["KeyStoreTable"]])
                    listed = api(to_event("GET", "/v1/me/facts", headers, b"", "127.0.0.1"), LambdaContext("ApiFunction"))
                    facts[n] = len(json.loads(listed["body"])["facts"])
    return report(per_turn, conversations, overheads, stored, facts, profile_every)


USER, SESSION = "bill-user", "bill-session"


def _stored_bytes(ddb: Any, tables: list[str]) -> int:
    total = 0
    for table in tables:
        for page in ddb.get_paginator("scan").paginate(TableName=table):
            total += sum(item_size(i) + 100 for i in page["Items"])  # DynamoDB bills 100 B of overhead an item
    return total


def _quantities(row: dict[str, Any], overheads: dict[str, int]) -> dict[str, float]:
    """The billed quantities of one turn: its own invocation, the jobs it caused, the polling."""
    q: dict[str, float] = {}

    def add(key: str, value: float) -> None:
        q[key] = q.get(key, 0.0) + value

    def tally(t: Tally) -> dict[str, float]:
        extra = dict(t.__dict__.get("extra", {}))
        add("ddb_rru", t.read_units + extra.pop("ddb_rru", 0.0))
        add("ddb_wru", t.write_units + extra.pop("ddb_wru", 0.0))
        svc = t.by_service()
        add("kms_requests", svc.get("kms", 0))
        add("secrets_requests", svc.get("secretsmanager", 0))
        for key in ("sqs_fifo_requests", "sqs_standard_requests"):
            add(key, extra.pop(key, 0.0))
        return extra

    for inv in row["invocations"]:
        t: Tally = inv["tally"]
        extra = tally(t)
        model_wait = 0.0
        for key, value in extra.items():
            kind, _, method = key.partition(".")
            if kind == "model_calls":
                model_wait += MODEL_MS[MODEL_OF[method]] * value
                add(f"model_calls.{MODEL_OF[method]}", value)
                add(f"tokens_in.{MODEL_OF[method]}", overheads[method] * value)
            elif kind == "tokens_in":
                add(f"tokens_in.{MODEL_OF[method]}", value)
            elif kind == "tokens_out":
                add(f"tokens_out.{MODEL_OF[method]}", value if method != "reply" else 0.0)
        if "model_calls.reply" in extra:
            add("tokens_out.reply", REPLY_OUTPUT_TOKENS * extra["model_calls.reply"])
        aws_calls = sum(t.calls.values())
        cpu_ms = inv["cpu_ms"] / VCPU_SHARE  # this process's CPU (moto runs in another): robust to a loaded machine
        ms = cpu_ms + aws_calls * AWS_CALL_MS + model_wait
        add("lambda_invocations", 1)
        add("lambda_ms", ms)
        add(f"lambda_ms.{inv['phase']}", ms)
        add("log_bytes", inv["log_bytes"] + LAMBDA_PLATFORM_LOG_BYTES)
        if inv["phase"] == "turn":
            add("http_api_requests", 1)
    for poll in row["polling"]:
        tally(poll)
    return q


def _dollars(q: dict[str, float]) -> dict[str, dict[str, float]]:
    """USD of quantities, split into infrastructure and model tokens."""
    p = {k: v.usd for k, v in PRICES.items()}
    g = q.get
    infra = {
        "Lambda duration": g("lambda_ms", 0) / 1000 * MEMORY_GB * p["lambda_gb_s"],
        "Lambda requests": g("lambda_invocations", 0) * p["lambda_request"],
        "API Gateway (HTTP API)": g("http_api_requests", 0) * p["http_api_request"],
        "DynamoDB reads": g("ddb_rru", 0) * p["ddb_rru"],
        "DynamoDB writes": g("ddb_wru", 0) * p["ddb_wru"],
        "SQS": g("sqs_fifo_requests", 0) * p["sqs_fifo_request"] + g("sqs_standard_requests", 0) * p["sqs_standard_request"],
        "KMS": g("kms_requests", 0) * p["kms_request"],
        "Secrets Manager": g("secrets_requests", 0) * p["secrets_request"],
        "CloudWatch Logs": g("log_bytes", 0) / 1e9 * p["logs_gb"],
    }
    model = {
        "reply (Nova Lite)": g("tokens_in.reply", 0) * p["nova_lite_in"] + g("tokens_out.reply", 0) * p["nova_lite_out"],
        "fold, facts, profile (Nova Micro)": g("tokens_in.utility", 0) * p["nova_micro_in"] + g("tokens_out.utility", 0) * p["nova_micro_out"],
        "embeddings (Titan V2)": g("tokens_in.embed", 0) * p["titan_embed_v2_in"],
    }
    return {"infrastructure": infra, "model": model}


def report(per_turn: list[dict[str, Any]], conversations: tuple[int, ...], overheads: dict[str, int],
           stored: dict[int, int], facts: dict[int, int], profile_every: int) -> dict[str, Any]:
    rows = [_quantities(r, overheads) for r in per_turn]
    out: dict[str, Any] = {"turns": len(rows), "conversations": {}}
    p = {k: v.usd for k, v in PRICES.items()}
    for n in sorted(k for k in stored if k in conversations) or [len(rows)]:
        total: dict[str, float] = {}
        for q in rows[:n]:
            for k, v in q.items():
                total[k] = total.get(k, 0.0) + v
        per_1000 = {k: v * 1000 / n for k, v in total.items()}
        usd = _dollars(per_1000)
        # Once per conversation, spread over its turns: SnapStart restores and a month of storage.
        stored_share = stored[n] * 1000 / n  # bytes the conversation left, per 1,000 turns
        usd["infrastructure"]["DynamoDB storage (1 month)"] = stored_share / 1e9 * p["ddb_storage_gb_month"]
        usd["infrastructure"]["SnapStart restores"] = RESTORES_PER_1000_TURNS * MEMORY_GB * p["snapstart_restore_gb"]
        infra = sum(usd["infrastructure"].values())
        model = sum(usd["model"].values())
        records = facts[n] * 1000 / n  # AgentCore's long-term records: as many as the facts we keep
        agentcore = {
            "events (1 a turn)": 1000 * p["agentcore_event"],
            "retrievals (1 a turn)": 1000 * p["agentcore_retrieval"],
            "long-term records (a month)": records * p["agentcore_record_month"],
        }
        ac = sum(agentcore.values())
        out["conversations"][str(n)] = {
            "quantities_per_1000_turns": {k: round(v, 2) for k, v in sorted(per_1000.items())},
            "usd_per_1000_turns": {
                "infrastructure": {k: round(v, 6) for k, v in usd["infrastructure"].items()},
                "infrastructure_total": round(infra, 5),
                "model": {k: round(v, 6) for k, v in usd["model"].items()},
                "model_total": round(model, 5),
                "agentcore_memory": {k: round(v, 5) for k, v in agentcore.items()},
                "agentcore_memory_total": round(ac, 5),
                "agentcore_over_infrastructure": round(ac / infra, 1) if infra else None,
            },
        }
    worst = min(c["usd_per_1000_turns"]["agentcore_over_infrastructure"] or 0 for c in out["conversations"].values())
    out["agentcore_over_infrastructure"] = fig(worst, "x", "the least of the conversation lengths: AgentCore Memory's "
                                               "price for the workload over our infrastructure's", goal=">= 10", met=worst >= 10)
    out["facts_after_turns"] = {str(k): v for k, v in facts.items()}
    out["stored_bytes_after_turns"] = {str(k): v for k, v in stored.items()}
    out["prompt_overhead_tokens"] = overheads
    out["prices"] = {k: {"usd": v.usd, "per": v.per, "source": v.source, "checked": CHECKED} for k, v in PRICES.items()}
    out["assumptions"] = assumptions(profile_every)
    out["fixed_monthly_usd"] = fixed_monthly()
    out["how"] = __doc__.split("\n\n")[1].replace("\n", " ")
    return out


def assumptions(profile_every: int) -> list[dict[str, Any]]:
    """Every number of the bill that is not measured here."""
    return [
        {"what": "Lambda memory", "value": f"{int(MEMORY_GB * 1024)} MB arm64", "why": "template.yaml Globals"},
        {"what": "CPU time on Lambda", "value": f"this process's CPU ms / {VCPU_SHARE:.2f}", "why": "a 512 MB instance gets "
         "512/1,769 of a vCPU; this machine's core taken as one Graviton vCPU"},
        {"what": "AWS call latency", "value": f"{AWS_CALL_MS:g} ms a call", "why": "DynamoDB / SQS / KMS inside the Region (moto's loopback time is not billed)"},
        {"what": "model latency", "value": ", ".join(f"{k} {v:g} ms" for k, v in MODEL_MS.items()),
         "why": "not measurable offline: the function waits for Bedrock and is billed for it"},
        {"what": "reply length", "value": f"{REPLY_OUTPUT_TOKENS} output tokens", "why": "the local model's replies are not a real model's"},
        {"what": "tokenizer", "value": "cl100k (tiktoken)", "why": "the service's own counter; Nova's and Titan's tokenizers differ by some percent"},
        {"what": "profile tick", "value": f"every {profile_every} turns", "why": "the hourly schedule with a turn every 3 minutes"},
        {"what": "branch-key cache", "value": "warm (turns back to back)", "why": "turns further apart than KeyCacheTtlSeconds (60 s) "
         "re-read the key: + 1 GetItem and 1 KMS Decrypt per invocation, < $0.003 per 1,000 turns at KMS's $0.03 / 10,000"},
        {"what": "SnapStart restores", "value": f"{RESTORES_PER_1000_TURNS:g} per 1,000 turns", "why": "a new API instance per 1,000 turns; "
         "a restore costs 0.5 GB x $0.0001398"},
        {"what": "Lambda log lines", "value": f"{LAMBDA_PLATFORM_LOG_BYTES} B an invocation", "why": "START, END, REPORT"},
        {"what": "SQS event-source polling", "value": "the receives and deletes of the jobs only", "why": "Lambda's empty long polls "
         "are a fixed cost a month, not per turn (below)"},
        {"what": "AgentCore workload", "value": "1 event and 1 retrieval a turn; records = the conversation's facts, stored a month",
         "why": "the issue's workload; AgentCore also needs the app's compute and model, not priced on its side"},
        {"what": "free tiers", "value": "none applied", "why": "list prices"},
    ]


def fixed_monthly() -> dict[str, Any]:
    """What the stack costs a month whatever the turns (not in the per-turn figures)."""
    p = {k: v.usd for k, v in PRICES.items()}
    snapshot = MEMORY_GB * 30 * 24 * 3600 * p["snapstart_cache_gb_s"]  # one live version of ApiFunction
    items = {
        "KMS key (branch-key wrapping)": p["kms_key_month"],
        "Secrets Manager (token signing, API key)": 2 * p["secret_month"],
        "SnapStart snapshot cache (one live ApiFunction version)": round(snapshot, 2),
        "CloudWatch dashboard": p["dashboard_month"],
        "CloudWatch alarms (10)": 10 * p["alarm_month"],
        "EMF custom metrics (~12 names)": 12 * p["custom_metric_month"],
        "SQS empty long polls by Lambda (5 queues x ~5 pollers x 3 a minute)": round(5 * 5 * 3 * 60 * 24 * 30 * p["sqs_standard_request"], 2),
    }
    return {"items": {k: round(v, 2) for k, v in items.items()}, "total": round(sum(items.values()), 2)}


def table(r: dict[str, Any]) -> list[str]:
    """The bill as bench/run.py prints it."""
    lines = [f"\nThe bill: USD per 1,000 turns, us-east-1 list prices checked {CHECKED} (bench/cost.py; "
             f"one conversation of {r['turns']} turns measured, priced at each length)"]
    convs = r["conversations"]
    names = list(next(iter(convs.values()))["usd_per_1000_turns"]["infrastructure"])
    header = ["USD per 1,000 turns", *[f"{n}-turn conv." for n in convs]]
    rows = [header]
    for name in names:
        rows.append([f"  {name}", *[f"{c['usd_per_1000_turns']['infrastructure'][name]:.5f}" for c in convs.values()]])
    rows.append(["infrastructure total", *[f"{c['usd_per_1000_turns']['infrastructure_total']:.4f}" for c in convs.values()]])
    for name in next(iter(convs.values()))["usd_per_1000_turns"]["model"]:
        rows.append([f"  {name}", *[f"{c['usd_per_1000_turns']['model'][name]:.5f}" for c in convs.values()]])
    rows.append(["model tokens total", *[f"{c['usd_per_1000_turns']['model_total']:.4f}" for c in convs.values()]])
    for name in next(iter(convs.values()))["usd_per_1000_turns"]["agentcore_memory"]:
        rows.append([f"  AgentCore {name}", *[f"{c['usd_per_1000_turns']['agentcore_memory'][name]:.4f}" for c in convs.values()]])
    rows.append(["AgentCore Memory total", *[f"{c['usd_per_1000_turns']['agentcore_memory_total']:.4f}" for c in convs.values()]])
    rows.append(["AgentCore / our infrastructure", *[f"{c['usd_per_1000_turns']['agentcore_over_infrastructure']}x" for c in convs.values()]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines += ["  " + "  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)) for row in rows]
    q = next(reversed(convs.values()))["quantities_per_1000_turns"]
    lines.append("  measured per 1,000 turns (longest conversation): " + ", ".join(
        f"{k} {v:,.1f}" for k, v in q.items() if not k.startswith("lambda_ms.")))
    lines.append("  assumptions: " + "; ".join(f"{a['what']}: {a['value']}" for a in r["assumptions"]))
    fm = r["fixed_monthly_usd"]
    lines.append(f"  fixed a month, whatever the turns: ${fm['total']} (" + ", ".join(f"{k} ${v}" for k, v in fm["items"].items()) + ")")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("turns", nargs="?", type=int, default=1000)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    emit(run(args.turns), args.out)


if __name__ == "__main__":
    main()
    sys.exit(0)
