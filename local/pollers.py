"""SQS event-source emulation: long-poll each queue a template function consumes and hand the
batch to the function as a real SQS event; delete what succeeded, retry what failed.

Failed records are made visible again after CONVMEM_LOCAL_RETRY_S (default 1 s) instead of the
queue's full visibility timeout, so retries and the DLQ redrive are seen in seconds locally.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from local.lambda_runtime import LambdaContext
from local.template import REGION, Resolver


@dataclass(frozen=True)
class EventSource:
    function: str
    queue_logical_id: str
    batch_size: int


def sqs_sources(template: dict[str, Any]) -> list[EventSource]:
    out = []
    for logical, res in template["Resources"].items():
        if res["Type"] != "AWS::Serverless::Function":
            continue
        for ev in res["Properties"].get("Events", {}).values():
            if ev["Type"] == "SQS":
                queue = ev["Properties"]["Queue"]["Fn::GetAtt"]
                queue_id = queue[0] if isinstance(queue, list) else queue.split(".")[0]
                out.append(EventSource(logical, queue_id, int(ev["Properties"].get("BatchSize", 10))))
    return out


def to_sqs_event(messages: list[dict[str, Any]], queue_arn: str) -> dict[str, Any]:
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": m.get("Attributes", {}),
                "messageAttributes": m.get("MessageAttributes", {}),
                "md5OfBody": m.get("MD5OfBody") or hashlib.md5(m["Body"].encode()).hexdigest(),  # noqa: S324
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": REGION,
            }
            for m in messages
        ]
    }


class QueuePoller(threading.Thread):
    def __init__(
        self, source: EventSource, resolver: Resolver, handler: Callable[[dict, Any], Any], sqs: Any,
        clock: Callable[[], float] | None = None,
    ) -> None:
        super().__init__(name=f"poller-{source.function}", daemon=True)
        self.clock = clock
        """The invocations' clock (monotonic by default); tests pass one a slow fake model moves."""
        self.source = source
        self.url = resolver.refs[source.queue_logical_id]
        self.arn = resolver.attrs[(source.queue_logical_id, "Arn")]
        self.handler = handler
        self.sqs = sqs
        self.retry_after = int(os.environ.get("CONVMEM_LOCAL_RETRY_S", "1"))
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self.poll_once(wait_seconds=1)
            except Exception as exc:  # keep polling; the queue's visibility retries the batch
                print(f"[{self.name}] poll failed: {type(exc).__name__}", file=sys.stderr, flush=True)
                self.stopping.wait(0.5)

    def poll_once(self, wait_seconds: int = 0) -> int:
        got = self.sqs.receive_message(
            QueueUrl=self.url, MaxNumberOfMessages=min(10, self.source.batch_size), WaitTimeSeconds=wait_seconds,
            AttributeNames=["All"], MessageAttributeNames=["All"],
        ).get("Messages", [])
        if not got:
            return 0
        event = to_sqs_event(got, self.arn)
        try:
            context = LambdaContext(self.source.function, **({"clock": self.clock} if self.clock else {}))
            result = self.handler(event, context) or {}
            failed = {f["itemIdentifier"] for f in result.get("batchItemFailures", [])}
        except Exception:
            failed = {m["MessageId"] for m in got}  # the whole batch fails, as on Lambda
        for m in got:
            if m["MessageId"] in failed:
                self.sqs.change_message_visibility(QueueUrl=self.url, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=self.retry_after)
            else:
                self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=m["ReceiptHandle"])
        return len(got)

    def stop(self) -> None:
        self.stopping.set()
