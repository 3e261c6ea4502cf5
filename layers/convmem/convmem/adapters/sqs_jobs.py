"""SQS job queues (FIFO for folds, facts and erasure; standard for profile refreshes). Bodies carry
ids only, never conversation text.

The one place a job body is written (``encode``) and read (``decode_*``): the turn path and the
profile tick send through ``SqsJobs``, the consumers in ``functions/`` decode with the same module,
so the wire format of a job exists once. A body that does not decode raises ``ValueError``,
``KeyError`` or ``TypeError``: its record fails alone and, after its retries, goes to the DLQ.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from convmem.errors import DependencyUnavailableError
from convmem.ports import DueUser, FactsJob, FoldJob


@dataclass(frozen=True)
class EraseJob:
    """The rest of one erasure: which user, which erasure (its own id), which attempt."""

    user_id: str
    erasure_id: str
    attempt: int


@dataclass(frozen=True)
class ProfileJob:
    """A due user's profile refresh, queued by the tick with the activity it saw."""

    user_id: str
    active_at: datetime


Job = FoldJob | FactsJob | EraseJob | ProfileJob


def encode(job: Job) -> str:
    """The body of ``job`` on its queue: compact JSON of ids, counters and times."""
    body: dict[str, Any]
    if isinstance(job, FoldJob):
        body = {"sessionId": job.session_id, "userId": job.user_id, "throughSeq": job.through_seq}
    elif isinstance(job, FactsJob):
        body = {"userId": job.user_id, "sessionId": job.session_id, "visitorSeq": job.visitor_seq}
    elif isinstance(job, EraseJob):
        body = {"userId": job.user_id, "erasureId": job.erasure_id, "attempt": job.attempt}
    else:
        body = {"userId": job.user_id, "activeAt": job.active_at.isoformat()}
    return json.dumps(body, separators=(",", ":"))


def decode_fold(body: str) -> FoldJob:
    job = json.loads(body)
    return FoldJob(session_id=str(job["sessionId"]), user_id=str(job["userId"]), through_seq=int(job["throughSeq"]))


def decode_facts(body: str) -> FactsJob:
    job = json.loads(body)
    return FactsJob(user_id=str(job["userId"]), session_id=str(job["sessionId"]), visitor_seq=int(job["visitorSeq"]))


def decode_erase(body: str) -> EraseJob:
    """A job sent before erasures had ids names none: "" keeps its remainder's dedup id stable."""
    job = json.loads(body)
    return EraseJob(user_id=str(job["userId"]), erasure_id=str(job.get("erasureId", "")), attempt=int(job.get("attempt", 1)))


def decode_profile(body: str) -> ProfileJob:
    job = json.loads(body)
    return ProfileJob(user_id=str(job["userId"]), active_at=datetime.fromisoformat(job["activeAt"]))


def _dedup_id(*parts: object) -> str:
    """A deduplication id within SQS's 128-character limit whatever the ids' lengths."""
    return hashlib.sha256(":".join(map(str, parts)).encode("utf-8")).hexdigest()


class SqsJobs:
    def __init__(
        self, fold_queue_url: str, client: Any | None = None, facts_queue_url: str = "", erase_queue_url: str = "",
        profile_queue_url: str = "",
    ) -> None:
        if client is None:
            import boto3

            client = boto3.client("sqs")
        self._sqs = client
        self._fold_queue_url = fold_queue_url
        self._facts_queue_url = facts_queue_url
        self._erase_queue_url = erase_queue_url
        self._profile_queue_url = profile_queue_url

    def _send(self, url: str, job: Job, group: str, dedup: str, what: str) -> None:
        if not url:
            return
        try:
            self._sqs.send_message(QueueUrl=url, MessageBody=encode(job), MessageGroupId=group, MessageDeduplicationId=dedup)
        except (ClientError, BotoCoreError) as exc:
            raise DependencyUnavailableError(f"The {what} queue is unavailable.", code="queue_unavailable") from exc

    def send_fold(self, job: FoldJob) -> None:
        # A session is named by (user, sessionId): its FIFO group and its deduplication id carry
        # both, or one user's fold of "support" would wait behind, or be dropped as a duplicate
        # of, another user's.
        group = _dedup_id(job.user_id, job.session_id)
        self._send(self._fold_queue_url, job, group, _dedup_id(job.user_id, job.session_id, job.through_seq), "fold")

    def send_facts(self, job: FactsJob) -> None:
        self._send(self._facts_queue_url, job, job.user_id, _dedup_id(job.user_id, job.session_id, job.visitor_seq),
                   "facts")

    def send_erase(self, user_id: str, erasure_id: str, attempt: int) -> None:
        """The deduplication id names the erasure, not only the user: SQS drops a message whose id
        was sent in the last five minutes, even one long consumed, so (user, attempt) alone would
        silently drop a second erasure of the same user within five minutes. The attempt keeps a
        redelivered job that re-enqueues its remainder from sending it twice."""
        if not self._erase_queue_url:
            raise DependencyUnavailableError("No erasure queue is configured.", code="queue_unavailable")
        job = EraseJob(user_id=user_id, erasure_id=erasure_id, attempt=attempt)
        self._send(self._erase_queue_url, job, user_id, _dedup_id(user_id, erasure_id, attempt), "erasure")

    def send_profiles(self, users: Sequence[DueUser]) -> int:
        """A standard queue (order does not matter, and a tick's 10-message batches need no group):
        SendMessageBatch ten at a time; entries SQS refuses are sent once more, then counted as not
        sent. A request that fails as a whole counts its ten; the users stay due either way."""
        if not self._profile_queue_url:
            raise DependencyUnavailableError("No profile queue is configured.", code="queue_unavailable")
        unsent = 0
        for start in range(0, len(users), 10):
            entries = [
                {"Id": str(i), "MessageBody": encode(ProfileJob(user_id=u.user_id, active_at=u.active_at))}
                for i, u in enumerate(users[start:start + 10])
            ]
            for _attempt in range(2):
                try:
                    failed = self._sqs.send_message_batch(QueueUrl=self._profile_queue_url, Entries=entries).get("Failed", [])
                except (ClientError, BotoCoreError):
                    failed = [{"Id": e["Id"]} for e in entries]
                retry = {f["Id"] for f in failed}
                entries = [e for e in entries if e["Id"] in retry]
                if not entries:
                    break
            unsent += len(entries)
        return unsent
