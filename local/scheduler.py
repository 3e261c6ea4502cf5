"""EventBridge schedule emulation: each template function with a ``Schedule`` event is invoked
every CONVMEM_PROFILE_INTERVAL_S seconds (default 60) with a real scheduled-event payload,
instead of the template's rate (an hour is too long to watch locally)."""

from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from local.lambda_runtime import LambdaContext
from local.template import ACCOUNT_ID, REGION


@dataclass(frozen=True)
class ScheduleSource:
    function: str
    event_name: str
    timeout_s: int


def schedule_sources(template: dict[str, Any]) -> list[ScheduleSource]:
    glob_timeout = int(template.get("Globals", {}).get("Function", {}).get("Timeout", 3))
    out = []
    for logical, res in template["Resources"].items():
        if res["Type"] != "AWS::Serverless::Function":
            continue
        for name, ev in res["Properties"].get("Events", {}).items():
            if ev["Type"] == "Schedule":
                out.append(ScheduleSource(logical, name, int(res["Properties"].get("Timeout", glob_timeout))))
    return out


def scheduled_event(source: ScheduleSource, now: float | None = None) -> dict[str, Any]:
    """The payload EventBridge sends a Lambda target on a schedule."""
    at = time.gmtime(now if now is not None else time.time())
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": ACCOUNT_ID,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", at),
        "region": REGION,
        "resources": [f"arn:aws:events:{REGION}:{ACCOUNT_ID}:rule/convmem-local-{source.function}{source.event_name}"],
        "detail": {},
    }


class Schedule(threading.Thread):
    def __init__(self, source: ScheduleSource, handler: Callable[[dict, Any], Any], interval_s: float | None = None) -> None:
        super().__init__(name=f"schedule-{source.function}", daemon=True)
        self.source = source
        self.handler = handler
        self.interval_s = interval_s if interval_s is not None else float(os.environ.get("CONVMEM_PROFILE_INTERVAL_S", "60"))
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(self.interval_s):
            self.fire()

    def fire(self) -> Any:
        try:
            return self.handler(scheduled_event(self.source), LambdaContext(self.source.function, timeout_s=self.source.timeout_s))
        except Exception as exc:  # as on Lambda: this run failed, the next one comes anyway
            print(f"[{self.name}] run failed: {type(exc).__name__}", file=sys.stderr, flush=True)
            return None

    def stop(self) -> None:
        self.stopping.set()
