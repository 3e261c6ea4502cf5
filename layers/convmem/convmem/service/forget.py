"""Forgetting: one conversation, or the whole person (crypto-shredding, then deletion)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from convmem.domain.models import validate_id
from convmem.errors import DependencyUnavailableError, NotFoundError
from convmem.observability import logger
from convmem.ports import Cipher, Clock, Conversations, Erasures, Jobs
from convmem.settings import Settings

# Turns stay refused this long past the key cache TTL, so no instance still holds the old key.
CACHE_MARGIN_S = 10


class ForgetStore(Conversations, Erasures, Protocol):
    """What forgetting deletes: sessions, and the user's items behind the erasure marker."""


@dataclass(frozen=True)
class ErasureProgress:
    user_id: str
    key_items_destroyed: int
    done: bool


class ForgetService:
    def __init__(
        self, *, store: ForgetStore, cipher: Cipher, clock: Clock, settings: Settings, jobs: Jobs | None = None,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
    ) -> None:
        self._new_id = new_id
        self._store = store
        self._cipher = cipher
        self._clock = clock
        self._settings = settings
        self._jobs = jobs

    def forget_session(self, user_id: str, session_id: str, budget_s: float = 20.0) -> None:
        """Delete one conversation: its messages, summary and turn records. Facts and profile stay."""
        validate_id(session_id, "sessionId")
        if self._store.get_state(user_id, session_id)[0] is None:
            raise NotFoundError("No such session.", code="session_not_found")
        if not self._store.delete_session(session_id, user_id, time.monotonic() + budget_s):
            raise _incomplete()

    def erase(self, user_id: str, inline_budget_s: float = 2.0) -> ErasureProgress:
        """Erase the user: block their turns, destroy their branch key (from then on every copy
        of their ciphertext is unreadable), then delete every item of theirs - here while the
        budget lasts, the rest through the erasure queue. Each erasure has its own id, so its
        queued jobs are never taken for those of an earlier erasure of the same user."""
        self._mark(user_id, "erasing")
        destroyed = self._cipher.destroy_user_key(user_id)
        erasure_id = self._new_id()
        logger.info("user key destroyed", extra={"user_id": user_id, "key_items": destroyed, "erasure_id": erasure_id})
        done = self.continue_erasure(user_id, time.monotonic() + inline_budget_s, attempt=0, erasure_id=erasure_id)
        return ErasureProgress(user_id, destroyed, done)

    def continue_erasure(self, user_id: str, deadline: float, attempt: int, erasure_id: str) -> bool:
        """Delete what is left of the user until ``deadline``; enqueue the rest. True when done."""
        for session_id in self._store.all_session_ids(user_id):
            if not self._store.delete_session(session_id, user_id, deadline):
                return self._later(user_id, erasure_id, attempt)
        if not self._store.delete_user_items(user_id, deadline):
            return self._later(user_id, erasure_id, attempt)
        self._mark(user_id, "erased")  # turns stay refused until the cache TTL has passed from now
        logger.info("user erased", extra={"user_id": user_id, "attempt": attempt})
        return True

    def _mark(self, user_id: str, state: str) -> None:
        """The erasure marker, refusing turns until no instance can still hold the old key."""
        now = self._clock.now()
        until = now + timedelta(seconds=self._settings.key_cache_ttl_seconds + CACHE_MARGIN_S)
        self._store.mark_erasure(user_id, state=state, until=until, now=now)

    def _later(self, user_id: str, erasure_id: str, attempt: int) -> bool:
        if self._jobs is None:
            raise _incomplete()
        self._jobs.send_erase(user_id, erasure_id, attempt + 1)
        return False


def _incomplete() -> DependencyUnavailableError:
    return DependencyUnavailableError(
        "Deleting took longer than one request; it continues, retry to finish.", code="delete_incomplete")
