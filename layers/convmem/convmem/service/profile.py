"""The short profile, refreshed on a schedule for users active since their last refresh."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from convmem.domain.profile import cap_profile
from convmem.observability import logger
from convmem.ports import Cipher, Clock, DueUser, Model, Store
from convmem.service.stored import decrypt_messages, decrypt_profile, encrypt_profile
from convmem.settings import Settings

# One scheduled run at a time, in any account: a lease item taken with a conditional put, not
# reserved concurrency (which new accounts cannot grant: Lambda keeps 100 unreserved).
RUN_LEASE = "profile-refresh"


@dataclass(frozen=True)
class ProfileRun:
    refreshed: int
    failed: int
    left_for_next_run: int
    skipped: bool = False
    """True when another run held the lease: this one did nothing."""


class ProfileService:
    def __init__(self, *, store: Store, cipher: Cipher, model: Model, clock: Clock, settings: Settings) -> None:
        self._store = store
        self._cipher = cipher
        self._model = model
        self._clock = clock
        self._settings = settings

    def refresh_due(self, time_left_s: Callable[[], float] = lambda: 1e9, reserve_s: float = 10.0) -> ProfileRun:
        """Refresh the profile of every user active since their last refresh, longest waiting
        first, while time is left. A user that fails stays due and is tried on the next run.

        Only one run works at a time: it holds the run lease until its function would time out
        (so a run killed on its timeout frees it then); a run that finds it held does nothing.
        Should two runs still overlap, each profile write is conditional (``put_profile``)."""
        run_id = uuid.uuid4().hex
        now = self._clock.now()
        if not self._store.acquire_lease(RUN_LEASE, owner=run_id, now=now, until=now + timedelta(seconds=time_left_s())):
            logger.info("profile refresh skipped: another run holds the lease")
            return ProfileRun(0, 0, 0, skipped=True)
        try:
            return self._refresh_due(time_left_s, reserve_s)
        finally:
            self._store.release_lease(RUN_LEASE, owner=run_id)

    def _refresh_due(self, time_left_s: Callable[[], float], reserve_s: float) -> ProfileRun:
        due = self._store.due_users(self._settings.profile_users_per_run)
        refreshed = failed = 0
        for i, user in enumerate(due):
            if time_left_s() < reserve_s:
                return ProfileRun(refreshed, failed, len(due) - i)
            try:
                self.refresh(user)
                refreshed += 1
            except Exception as exc:  # noqa: BLE001 - one user's failure must not stop the others
                failed += 1
                logger.warning("profile refresh failed", extra={"user_id": user.user_id, "error": type(exc).__name__})
        return ProfileRun(refreshed, failed, 0)

    def refresh(self, user: DueUser) -> str:
        s = self._settings
        old = decrypt_profile(self._cipher, user.user_id, self._store.load_user_memory(user.user_id).profile_ciphertext)
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
