"""SQS FIFO job queue. Bodies carry ids only, never conversation text."""

from __future__ import annotations

import json
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from convmem.errors import DependencyUnavailableError
from convmem.ports import FoldJob


class SqsJobs:
    def __init__(self, fold_queue_url: str, client: Any | None = None) -> None:
        if client is None:
            import boto3

            client = boto3.client("sqs")
        self._sqs = client
        self._fold_queue_url = fold_queue_url

    def send_fold(self, job: FoldJob) -> None:
        body = {"sessionId": job.session_id, "userId": job.user_id, "throughSeq": job.through_seq}
        try:
            self._sqs.send_message(
                QueueUrl=self._fold_queue_url,
                MessageBody=json.dumps(body, separators=(",", ":")),
                MessageGroupId=job.session_id,
                MessageDeduplicationId=f"{job.session_id}:{job.through_seq}",
            )
        except (ClientError, BotoCoreError) as exc:
            raise DependencyUnavailableError("The fold queue is unavailable.", code="queue_unavailable") from exc
