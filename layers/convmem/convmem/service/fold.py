"""Folding the rolling summary behind the cursor (off the turn path, driven by SQS jobs)."""

from __future__ import annotations

from dataclasses import dataclass

from convmem.domain import summary_fold
from convmem.errors import ConcurrentUpdateError, DependencyUnavailableError, ErasureInProgressError, KeyDestroyedError
from convmem.ports import Cipher, Clock, Conversations, Model
from convmem.service.stored import SUMMARY_KIND, decrypt_messages, decrypt_summary
from convmem.settings import Settings

MAX_RACE_RETRIES = 5


@dataclass(frozen=True)
class FoldOutcome:
    session_id: str
    cursor_before: int
    cursor_after: int

    @property
    def folded(self) -> int:
        return self.cursor_after - self.cursor_before


class FoldService:
    def __init__(self, *, store: Conversations, cipher: Cipher, model: Model, clock: Clock, settings: Settings) -> None:
        self._store = store
        self._cipher = cipher
        self._model = model
        self._clock = clock
        self._settings = settings

    def fold(self, session_id: str, user_id: str, through_seq: int) -> FoldOutcome:
        """Fold messages (cursor, through_seq] into the summary, exactly once.

        A duplicate or stale job (cursor already there) is a no-op. A lost race with another
        fold reloads and folds only what is still beyond the new cursor. The summary is
        computed from the state read, so a retry after a crash repeats the same fold.
        Raises DependencyUnavailableError (the job goes back to the queue).
        """
        start: int | None = None
        # The state (cursor, count) and the messages to fold are read consistently (see the
        # store): a stale cursor would lose every conditional write on it, stale messages a gap.
        for _ in range(MAX_RACE_RETRIES):
            state, summary_ct = self._store.get_state(user_id, session_id)
            if state is None:
                return FoldOutcome(session_id, 0, 0)  # the user has no such session (deleted, erased): nothing to do
            start = state.summarized_through if start is None else start
            cursor = state.summarized_through
            target = min(through_seq, state.message_count)
            if target <= cursor:
                return FoldOutcome(session_id, start, cursor)
            stored = self._store.messages_between(user_id, session_id, cursor + 1, target)
            # Every message of the range, but those forgotten one by one (their seqs stay unused).
            if [m.seq for m in stored] != [s for s in range(cursor + 1, target + 1) if s not in state.forgotten_seqs]:
                raise DependencyUnavailableError("Messages to fold are missing; will retry.", code="fold_gap")
            try:
                old = decrypt_summary(self._cipher, user_id, session_id, summary_ct)
                messages = decrypt_messages(self._cipher, user_id, session_id, stored)
            except KeyDestroyedError:
                return FoldOutcome(session_id, start, cursor)  # the user was erased meanwhile
            cap = self._settings.summary_cap_tokens
            new = summary_fold.cap_summary(self._model.fold_summary(old, messages, cap), cap)
            try:
                ct = self._cipher.encrypt(new, user_id=user_id, session_id=session_id, kind=SUMMARY_KIND, ref="summary")
                self._store.advance_summary(session_id, user_id=user_id, old_cursor=cursor, new_cursor=target,
                                            summary_ciphertext=ct, now=self._clock.now(), forget_gen=state.forget_gen)
                return FoldOutcome(session_id, start, target)
            except ConcurrentUpdateError:
                continue
            except ErasureInProgressError:
                return FoldOutcome(session_id, start, cursor)  # erased while this fold ran: nothing written
        raise DependencyUnavailableError("The summary kept moving under this fold; will retry.", code="fold_busy")
