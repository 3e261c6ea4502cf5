"""The short profile of users active since their last refresh: a scheduled tick queues every due
user, a queue consumer with bounded concurrency refreshes them (one model call each)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from convmem.domain.profile import cap_profile
from convmem.errors import ConvmemError
from convmem.observability import logger
from convmem.ports import Cipher, Clock, Conversations, DueUser, Jobs, Leases, Memories, Model
from convmem.service.stored import decrypt_messages, decrypt_profile, encrypt_profile
from convmem.settings import Settings

# One tick at a time, in any account: a lease item taken with a conditional put, not reserved
# concurrency (which new accounts cannot grant: Lambda keeps 100 unreserved).
RUN_LEASE = "profile-refresh"


class ProfileStore(Conversations, Memories, Leases, Protocol):
    """What a profile refresh reads and writes: recent messages, the profile, the run lease."""


@dataclass(frozen=True)
class ProfileTick:
    """What one scheduled tick did."""

    enqueued: int
    failed: int
    """Users the queue refused (they stay due; the next tick sends them)."""
    complete: bool = True
    """False when the tick ran out of time before the last page of due users (the rest stay due)."""
    skipped: bool = False
    """True when another tick held the lease: this one did nothing."""


class ProfileService:
    def __init__(
        self, *, store: ProfileStore, cipher: Cipher, model: Model, clock: Clock, settings: Settings, jobs: Jobs | None = None
    ) -> None:
        self._store = store
        self._cipher = cipher
        self._model = model
        self._clock = clock
        self._settings = settings
        self._jobs = jobs

    def enqueue_due(self, time_left_s: Callable[[], float] = lambda: 1e9, reserve_s: float = 10.0) -> ProfileTick:
        """The scheduled tick: one profile job for every user active since their last refresh
        (every shard and page of the due index, no limit), for the worker to refresh with bounded
        concurrency. It makes no model call, so it ends in seconds whatever the number due.

        Only one tick works at a time: it holds the run lease until its function would time out
        (a tick killed on its timeout frees it then); a tick that finds it held does nothing, so
        overlapping ticks never enqueue a user twice. A user already queued by an earlier tick may
        be queued again while the backlog lasts: the worker skips a job whose user is no longer due
        (``refresh_job``), so a duplicate costs one read, not a model call."""
        if self._jobs is None:
            raise ConvmemError("The profile tick needs the profile queue (PROFILE_QUEUE_URL).")
        run_id = uuid.uuid4().hex
        now = self._clock.now()
        if not self._store.acquire_lease(RUN_LEASE, owner=run_id, now=now, until=now + timedelta(seconds=time_left_s())):
            logger.info("profile tick skipped: another tick holds the lease")
            return ProfileTick(0, 0, skipped=True)
        try:
            enqueued = failed = 0
            for page in self._store.due_user_pages():
                if time_left_s() < reserve_s:
                    return ProfileTick(enqueued, failed, complete=False)
                unsent = self._jobs.send_profiles(page)
                enqueued += len(page) - unsent
                failed += unsent
            return ProfileTick(enqueued, failed)
        finally:
            self._store.release_lease(RUN_LEASE, owner=run_id)

    def refresh_job(self, user_id: str, seen_active_at: datetime) -> bool:
        """One queued job: refresh the user's profile if they are still due; False (and no model
        call) when they are not - refreshed since the job was queued (a duplicate, a redelivery) or
        erased. The profile is written against the activeAt read now, so a user active again
        meanwhile stays due. Raises what the store, the cipher or the model raise (the job is
        retried, then dead-lettered)."""
        state = self._store.profile_state(user_id)
        if not state.due or state.active_at is None:
            logger.info("profile job skipped: not due", extra={"user_id": user_id})
            return False
        if state.active_at < seen_active_at:  # a clock or replica oddity: write against what is stored
            logger.info("profile job: stored activeAt precedes the queued one", extra={"user_id": user_id})
        self._refresh(DueUser(user_id, state.active_at), state.ciphertext)
        return True

    def refresh_all_due(self) -> int:
        """Every due user refreshed here, one after another, without the queue: for an in-process
        stack (tests, the recall benchmark). The deployed path is ``enqueue_due`` + ``refresh_job``."""
        return sum(self.refresh_job(u.user_id, u.active_at) for page in self._store.due_user_pages() for u in page)

    def refresh(self, user: DueUser) -> str:
        """A new profile for ``user`` from their recent visitor messages and their old profile."""
        return self._refresh(user, self._store.profile_state(user.user_id).ciphertext)

    def _refresh(self, user: DueUser, old_ciphertext: bytes | None) -> str:
        s = self._settings
        old = decrypt_profile(self._cipher, user.user_id, old_ciphertext)
        recent: list[str] = []
        for session in self._store.list_sessions(user.user_id, s.profile_recent_sessions):
            stored = [m for m in self._store.recent_messages(user.user_id, session.session_id, s.profile_recent_messages) if m.role == "visitor"]
            recent.extend(m.text for m in decrypt_messages(self._cipher, user.user_id, session.session_id, stored[::-1]))
        profile = cap_profile(self._model.write_profile(old, recent, s.profile_cap_tokens), s.profile_cap_tokens)
        self._store.put_profile(
            user.user_id, ciphertext=encrypt_profile(self._cipher, user.user_id, profile),
            now=self._clock.now(), active_at=user.active_at,
        )
        return profile

    def get_profile(self, user_id: str) -> tuple[str | None, datetime | None]:
        memory = self._store.load_user_memory(user_id)
        return decrypt_profile(self._cipher, user_id, memory.profile_ciphertext), memory.profile_refreshed_at
