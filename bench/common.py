"""What every benchmark section shares: the embedded AWS, AWS-call accounting, figures, percentiles.

Each section runs in its own process (see bench/run.py), so a section's imports, caches and
environment never leak into the next one's numbers.
"""

from __future__ import annotations

import json
import math
import os
import signal
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LAYER = ROOT / "layers" / "convmem"

API_KEY = "bench-api-key"
QUIET_ENV = {
    # The handlers log as in production (INFO, to the section's log file); the run's progress
    # is not a figure. Metrics stay on as well: the EMF line is part of a real invocation.
    "CONVMEM_MODEL_PROVIDER": "local",
}


# --- figures -------------------------------------------------------------------------------
def fig(value: Any, unit: str, how: str, **extra: Any) -> dict[str, Any]:
    """One reported figure: the value, its unit and how it was measured."""
    return {"value": value, "unit": unit, "how": how, **extra}


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def summary_ms(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "median": round(statistics.median(values), 3),
        "p95": round(pct(values, 0.95), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


# --- DynamoDB sizing ------------------------------------------------------------------------
def attribute_size(value: dict[str, Any]) -> int:
    """Bytes of one attribute value by DynamoDB's sizing rules (what capacity is charged on)."""
    (kind, v), = value.items()
    if kind == "S":
        return len(v.encode("utf-8"))
    if kind == "N":
        digits = v.lstrip("-").replace(".", "").strip("0") or "0"
        return math.ceil(len(digits) / 2) + 1
    if kind == "B":
        return len(v)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(s.encode("utf-8")) for s in v)
    if kind == "NS":
        return sum(attribute_size({"N": n}) for n in v)
    if kind == "BS":
        return sum(len(b) for b in v)
    if kind == "M":
        return 3 + sum(len(k.encode("utf-8")) + attribute_size(x) + 1 for k, x in v.items())
    if kind == "L":
        return 3 + sum(attribute_size(x) + 1 for x in v)
    raise ValueError(f"unknown DynamoDB type {kind}")


def item_size(item: dict[str, Any]) -> int:
    """Bytes of one item: attribute names plus values (DynamoDB's rules)."""
    return sum(len(name.encode("utf-8")) + attribute_size(value) for name, value in item.items())


def _read_units(sizes: list[int], consistent: bool, per_item: bool) -> float:
    unit = 1.0 if consistent else 0.5
    if per_item:  # GetItem, BatchGetItem: each item rounded up to 4 KB
        return sum(unit * max(1, math.ceil(s / 4096)) for s in sizes) if sizes else 0.0
    return unit * max(1, math.ceil(sum(sizes) / 4096))  # Query: the page's total rounded up


def _behind_cursor(items: list[dict[str, Any]]) -> tuple[int, int]:
    """Messages of a session page at or behind its STATE's summary cursor: read, then dropped."""
    state = next((i for i in items if i.get("SK", {}).get("S") == "STATE" and "cursor" in i), None)
    if state is None:
        return 0, 0
    cursor = int(state["cursor"]["N"])
    behind = [i for i in items if "seq" in i and int(i["seq"]["N"]) <= cursor]
    return len(behind), sum(item_size(i) for i in behind)


# --- AWS call accounting ----------------------------------------------------------------------
@dataclass
class Tally:
    """What one phase (a turn, a fold job, ...) cost in AWS calls."""

    calls: Counter[str] = field(default_factory=Counter)
    items_read: int = 0
    bytes_read: int = 0  # DynamoDB item sizes
    wire_bytes_read: int = 0  # HTTP response bodies of DynamoDB reads (JSON, base64 binaries)
    read_units: float = 0.0
    items_written: int = 0
    bytes_written: int = 0
    write_units: float = 0.0
    call_ms: Counter[str] = field(default_factory=Counter)  # time inside AWS calls, by operation
    spans: Counter[str] = field(default_factory=Counter)  # time inside timed code sections, by label
    span_calls: Counter[str] = field(default_factory=Counter)  # how often each section ran
    unused_items: int = 0  # messages a session Query returned from behind the summary cursor
    unused_bytes: int = 0

    def add(self, other: Tally) -> None:
        self.calls.update(other.calls)
        self.call_ms.update(other.call_ms)
        self.spans.update(other.spans)
        self.span_calls.update(other.span_calls)
        for name in ("unused_items", "unused_bytes", "items_read", "bytes_read", "wire_bytes_read", "read_units", "items_written", "bytes_written", "write_units"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def by_service(self) -> dict[str, int]:
        out: Counter[str] = Counter()
        for op, n in self.calls.items():
            out[op.split(".", 1)[0]] += n
        return dict(sorted(out.items()))

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": dict(sorted(self.calls.items())),
            "calls_by_service": self.by_service(),
            "aws_calls": sum(self.calls.values()),
            "kms_calls": self.by_service().get("kms", 0),
            "dynamodb_items_read": self.items_read,
            "dynamodb_bytes_read": self.bytes_read,
            "dynamodb_wire_bytes_read": self.wire_bytes_read,
            "dynamodb_read_units": round(self.read_units, 2),
            "dynamodb_items_read_behind_cursor": self.unused_items,
            "dynamodb_bytes_read_behind_cursor": self.unused_bytes,
            "dynamodb_items_written": self.items_written,
            "dynamodb_bytes_written": self.bytes_written,
            "dynamodb_write_units": round(self.write_units, 2),
            "aws_call_ms": {k: round(v, 3) for k, v in sorted(self.call_ms.items())},
            "spans_ms": {k: round(v, 3) for k, v in sorted(self.spans.items())},
            "span_calls": dict(sorted(self.span_calls.items())),
        }


class CallCounter:
    """Counts every AWS call of this process by service and operation with botocore event hooks.

    The hooks sit on boto3's default session before any client exists, so every client made
    later (the functions' own, the key store's inside the Material Providers Library, the
    pollers') inherits them. Calls are booked to the phase that is current when they are made
    (``with counter.phase("turn"): ...``); the turn's concurrent read thread books to the turn.
    """

    def __init__(self) -> None:
        import boto3

        boto3.setup_default_session()
        self.phases: dict[str, Tally] = defaultdict(Tally)
        self.current = "setup"
        self.last_puts: list[dict[str, Any]] = []  # the Puts of the latest TransactWriteItems
        self._local = threading.local()
        self._lock = threading.Lock()
        events = boto3.DEFAULT_SESSION.events
        events.register("before-parameter-build", self._count)  # the caller's parameters, once a call
        events.register("after-call", self._after)

    @contextmanager
    def phase(self, name: str) -> Iterator[Tally]:
        """Book calls to a fresh tally for ``name``; yields that tally (also added to the phase total)."""
        previous, self.current = self.current, f"\0{name}"
        with self._lock:
            self.phases[self.current] = Tally()
        try:
            yield self.phases[self.current]
        finally:
            with self._lock:
                tally = self.phases.pop(self.current)
                self.phases[name].add(tally)
            self.current = previous

    def span(self, label: str, ms: float) -> None:
        """Book ``ms`` spent in a code section to the current phase."""
        with self._lock:
            tally = self._tally()
            tally.spans[label] += ms
            tally.span_calls[label] += 1

    def _tally(self) -> Tally:
        return self.phases[self.current]

    def _count(self, model: Any, params: dict[str, Any], **_kw: Any) -> None:
        op = f"{model.service_model.service_name}.{model.name}"
        self._local.started = time.perf_counter()  # a call's time: validation, signing, round trip, parsing
        with self._lock:
            tally = self._tally()
            tally.calls[op] += 1
            if op == "dynamodb.TransactWriteItems":
                self.last_puts = [e for e in params.get("TransactItems", [])
                                  if "Put" in e and e["Put"]["Item"].get("SK", {}).get("S", "").startswith("MSG#")]
                for entry in params.get("TransactItems", []):
                    for kind, body in entry.items():
                        if kind == "Put":
                            size = item_size(body["Item"])
                            tally.items_written += 1
                            tally.bytes_written += size
                            tally.write_units += 2 * max(1, math.ceil(size / 1024))
                        elif kind in ("Update", "Delete", "ConditionCheck"):
                            tally.write_units += 2  # at least 1 KB each; the updated item's size is not in the request
            elif op in ("dynamodb.PutItem",):
                size = item_size(params["Item"])
                tally.items_written += 1
                tally.bytes_written += size
                tally.write_units += max(1, math.ceil(size / 1024))
            elif op in ("dynamodb.UpdateItem", "dynamodb.DeleteItem"):
                tally.write_units += 1

    def _after(self, model: Any, parsed: dict[str, Any], http_response: Any = None, **_kw: Any) -> None:
        op = f"{model.service_model.service_name}.{model.name}"
        elapsed = (time.perf_counter() - getattr(self._local, "started", time.perf_counter())) * 1000
        if op in ("dynamodb.Query", "dynamodb.Scan"):
            sizes, per_item = [item_size(i) for i in parsed.get("Items", [])], False
        elif op == "dynamodb.GetItem":
            sizes, per_item = ([item_size(parsed["Item"])] if "Item" in parsed else []), True
        elif op == "dynamodb.BatchGetItem":
            sizes, per_item = [item_size(i) for items in parsed.get("Responses", {}).values() for i in items], True
        else:
            sizes, per_item = None, False
        with self._lock:
            tally = self._tally()
            tally.call_ms[op] += elapsed
            if sizes is not None:
                tally.items_read += len(sizes)
                tally.bytes_read += sum(sizes)
                tally.read_units += _read_units(sizes, consistent=False, per_item=per_item)
                if http_response is not None:
                    tally.wire_bytes_read += len(http_response.content or b"")
                if op == "dynamodb.Query":
                    n, size = _behind_cursor(parsed.get("Items", []))
                    tally.unused_items += n
                    tally.unused_bytes += size

    def total(self, name: str) -> Tally:
        return self.phases.get(name, Tally())


# --- the embedded AWS ---------------------------------------------------------------------------
@dataclass
class EmbeddedAws:
    """moto server on a free loopback port with the template's resources."""

    port: int
    template: dict[str, Any]
    resolver: Any
    proc: Any

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def function_env(self, logical_id: str) -> dict[str, str]:
        from local.aws import aws_environment
        from local.template import function_environment

        return {**function_environment(self.template, logical_id, self.resolver), **aws_environment(self.port)}


def start_moto(port: int, scaled: bool) -> Any:
    """moto server on loopback as the local stack runs it (local/moto_server.py: DynamoDB
    serialised, local/moto_patches.py applied), or with ``scaled`` False stock moto's DynamoDB
    (CONVMEM_STOCK_MOTO=1), to compare the two."""
    import subprocess

    from local.aws import wait_for_port

    env = {**os.environ, **({} if scaled else {"CONVMEM_STOCK_MOTO": "1"})}
    proc = subprocess.Popen([sys.executable, "-m", "local.moto_server", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, proc=proc)
    return proc


@contextmanager
def embedded_aws(scaled: bool = False) -> Iterator[EmbeddedAws]:
    """Start moto server (DynamoDB serialised as in the local stack; ``scaled``: see start_moto),
    create the template's resources on it, point boto3 at it; stop it afterwards (by its pid)."""
    from local.aws import create_resources, free_port, stop_moto, use_aws
    from local.template import load_template

    os.environ.update(QUIET_ENV)
    if threading.current_thread() is threading.main_thread():
        # A terminated section still stops its moto server (the finally below runs on SystemExit).
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    port = free_port()
    proc = start_moto(port, scaled)
    try:
        use_aws(port)
        template = load_template()
        resolver = create_resources(template, secret_values={"ApiKeySecret": API_KEY})
        resolver.overrides["ModelProvider"] = "local"  # the template defaults to Bedrock
        # The benchmarks drive one user far faster than a person: the per-user limit stays on (its
        # counter is part of every turn's cost) but high enough never to refuse.
        resolver.overrides.update({"TurnLimit": "1000000000", "TurnBurstLimit": "0"})
        yield EmbeddedAws(port, template, resolver, proc)
    finally:
        stop_moto(proc)


def turn_event(user_id: str, session_id: str, message: str, **extra: Any) -> dict[str, Any]:
    """An API Gateway HTTP API (payload 2.0) event for one turn, as the local stack builds it."""
    from local.apigw import to_event

    body = json.dumps({"message": message, **extra}, ensure_ascii=False).encode("utf-8")
    headers = [("content-type", "application/json"), ("x-api-key", API_KEY), ("x-user-id", user_id), ("host", "bench")]
    return to_event("POST", f"/v1/sessions/{session_id}/turns", headers, body, "127.0.0.1")


def in_process_aws(log_level: str = "WARNING") -> None:
    """The environment for in-process moto (``mock_aws``): fake credentials, no embedded-server
    endpoint, and log lines (not the result) quieter."""
    os.environ.update({"AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_DEFAULT_REGION": "us-east-1",
                       "POWERTOOLS_LOG_LEVEL": log_level})
    os.environ.pop("AWS_ENDPOINT_URL", None)


@dataclass
class TemplateStack:
    """template.yaml's resources created in the current (in-process) moto account."""

    template: dict[str, Any]
    resolver: Any

    def settings(self, function: str = "ApiFunction") -> Any:
        """``function``'s settings as the template wires them, without queues (a bench runs each
        job itself, on the consumer's service), also exported as the function would see them."""
        from convmem.settings import Settings

        from local.template import function_environment

        env = {**function_environment(self.template, function, self.resolver), "FOLD_QUEUE_URL": "", "FACTS_QUEUE_URL": ""}
        os.environ.update(env)
        return Settings.from_env(env)


def template_stack() -> TemplateStack:
    """Create template.yaml's resources; call inside ``mock_aws``."""
    from local.aws import create_resources
    from local.template import load_template

    template = load_template()
    resolver = create_resources(template, {"ApiKeySecret": "bench"})
    # One user far faster than a person (as embedded_aws): the limit's counter runs, never refuses.
    resolver.overrides.update({"TurnLimit": "1000000000", "TurnBurstLimit": "0"})
    return TemplateStack(template, resolver)


def machine() -> dict[str, Any]:
    import platform

    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }


def write_json(path: str | Path, data: Any) -> None:
    Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def emit(result: Any, out: str | None) -> None:
    """A section's result: to ``out`` (as bench/run.py asks for it), else to stdout."""
    if out:
        write_json(out, result)
    else:
        print(json.dumps(result, indent=2, ensure_ascii=False))
