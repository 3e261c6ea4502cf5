"""Forgetting: one message, one conversation (and what was learnt from it), or the whole person
(crypto-shredding, then deletion). docs/forgetting.md says what each guarantees."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from convmem.domain import forgetting, summary_fold
from convmem.domain.models import SessionState, validate_id
from convmem.errors import (
    ConcurrentUpdateError,
    ConvmemError,
    DependencyUnavailableError,
    InvalidInputError,
    NotFoundError,
)
from convmem.observability import logger
from convmem.ports import Cipher, Clock, Conversations, Erasures, Jobs, Memories, Model, StoredMessage, TurnClaims
from convmem.service.stored import RESPONSE_KIND, SUMMARY_KIND, decrypt_messages, decrypt_summary
from convmem.settings import Settings

if TYPE_CHECKING:
    from convmem.service.facts import FactsService

MAX_RACE_RETRIES = 5
# Folds one forget may redo at most: a summary of more entries after the message is folded again
# in this many larger chunks (each a model call with a model that folds by calling itself).
MAX_REFOLDS = 40

# Turns stay refused this long past the key cache TTL, so no instance still holds the old key.
CACHE_MARGIN_S = 10


class ForgetStore(Conversations, TurnClaims, Memories, Erasures, Protocol):
    """What forgetting deletes: sessions or messages (with their turn records and the profile
    built from them), and the user's items behind the erasure marker."""


@dataclass(frozen=True)
class ErasureProgress:
    user_id: str
    key_items_destroyed: int
    done: bool


class ForgetService:
    def __init__(
        self, *, store: ForgetStore, cipher: Cipher, clock: Clock, settings: Settings, jobs: Jobs | None = None,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex, facts: FactsService | None = None,
        model: Model | None = None,
    ) -> None:
        self._new_id = new_id
        self._store = store
        self._cipher = cipher
        self._clock = clock
        self._settings = settings
        self._jobs = jobs
        self._facts = facts
        self._model = model

    def forget_session(self, user_id: str, session_id: str, budget_s: float = 20.0, facts: str = "keep") -> None:
        """Delete one conversation: its messages, summary and turn records. With ``facts="forget"``
        also what was learnt only from it (facts said only there go, others lose it as a source,
        values it replaced come back) and the profile, rewritten from what is left at the next
        refresh. Idempotent: the facts go first, so a delete cut short and retried finishes both."""
        validate_id(session_id, "sessionId")
        if facts not in ("keep", "forget"):
            raise InvalidInputError("facts must be keep or forget.", code="invalid_facts")
        state = self._store.get_state(user_id, session_id)[0]
        if state is None:
            raise NotFoundError("No such session.", code="session_not_found")
        if facts == "forget":
            self._unlearn_session(user_id, state)
        if not self._store.delete_session(session_id, user_id, time.monotonic() + budget_s):
            raise _incomplete()

    def _unlearn_session(self, user_id: str, state: SessionState) -> None:
        facts = self._needs(self._facts)
        now = self._clock.now()
        # This conversation's messages only: said since it began (an imported one may predate its
        # creation), not those of an earlier conversation under the same id.
        first = self._store.list_messages(user_id, state.session_id, 0, 1)
        since = min([state.created_at, *(m.at for m in first)]) if state.created_at else None
        done = facts.unlearn(user_id, forgetting.in_session(state.session_id, since, now),
                             forgetting.session_tombstone(state.session_id, since, now))
        self._store.reset_profile(user_id, now)
        logger.info("session unlearnt", extra={"user_id": user_id, "changed": done.changed, "removed": done.removed})

    def forget_message(self, user_id: str, session_id: str, seq: int) -> None:
        """Forget one visitor message and the agent's reply to it (the next seq): both rows and
        the turn record holding the reply, the summary folded again without them (only the
        entries from the one that held the message on), the facts learnt only from it, and the
        profile (rewritten at the next refresh). Idempotent (a forgotten seq answers as done).
        NotFoundError for a seq the session never had; InvalidInputError for an agent reply's seq."""
        validate_id(session_id, "sessionId")
        if seq < 1:
            raise InvalidInputError("seq must be a message's seq (1 or more).", code="invalid_seq")
        unlearnt = False
        for _ in range(MAX_RACE_RETRIES):
            state, summary_ct = self._store.get_state(user_id, session_id)
            if state is None:
                raise NotFoundError("No such session.", code="session_not_found")
            if seq > state.message_count:
                raise NotFoundError("No such message.", code="message_not_found")
            pair = {m.seq: m for m in self._store.messages_between(user_id, session_id, seq, seq + 1)}
            visitor = pair.get(seq)
            if visitor is None:
                if seq in state.forgotten_seqs:
                    return  # forgotten before: done
                raise NotFoundError("No such message.", code="message_not_found")
            if visitor.role != "visitor":
                raise InvalidInputError("seq names an agent reply: forget the visitor message it answers.",
                                        code="not_visitor_message")
            reply = pair.get(seq + 1)
            seqs = (seq, seq + 1) if reply is not None and reply.role == "agent" else (seq,)
            if not unlearnt:  # first what was learnt from it: a retry after a failure below redoes nothing
                self._unlearn_message(user_id, session_id, visitor)
                unlearnt = True
            summary = self._refolded(user_id, session_id, state, summary_ct, seqs)
            try:
                self._store.forget_messages(
                    session_id, user_id=user_id, seqs=seqs, cursor=state.summarized_through,
                    forget_gen=state.forget_gen, summary_ciphertext=summary, now=self._clock.now(),
                    client_turn_ids=self._records_of(user_id, session_id, seq),
                )
            except ConcurrentUpdateError:
                continue  # a fold or another forget moved the summary: fold again from what it wrote
            logger.info("message forgotten", extra={"user_id": user_id, "session_id": session_id, "seq": seq})
            return
        raise DependencyUnavailableError("The session kept changing while the message was forgotten; retry.",
                                         code="session_busy")

    def _unlearn_message(self, user_id: str, session_id: str, visitor: StoredMessage) -> None:
        facts = self._needs(self._facts)
        now = self._clock.now()
        facts.unlearn(user_id, forgetting.in_messages(session_id, {visitor.seq: visitor.at}),
                      forgetting.message_tombstone(session_id, visitor.seq, visitor.at, now))
        self._store.reset_profile(user_id, now)

    def _refolded(self, user_id: str, session_id: str, state: SessionState, summary_ct: bytes | None,
                  seqs: tuple[int, ...]) -> bytes | None:
        """The summary's ciphertext without ``seqs``: unchanged when they were not folded yet;
        else the entries before the one holding them kept, that one and every later one folded
        again from the messages left (None when nothing is left)."""
        cursor = state.summarized_through
        if seqs[0] > cursor or summary_ct is None:
            return summary_ct
        model = self._needs(self._model)
        old = decrypt_summary(self._cipher, user_id, session_id, summary_ct)
        prefix, ranges = forgetting.refold_plan(old, seqs[0], cursor, chunk=self._settings.window_messages)
        ranges = _at_most(ranges, MAX_REFOLDS)
        left = [m for m in self._store.messages_between(user_id, session_id, ranges[0][0], cursor) if m.seq not in seqs] \
            if ranges else []
        messages = decrypt_messages(self._cipher, user_id, session_id, left)
        cap = self._settings.summary_cap_tokens
        summary = prefix
        for lo, hi in ranges:
            chunk = [m for m in messages if lo <= m.seq <= hi]
            if chunk:
                summary = summary_fold.cap_summary(model.fold_summary(summary, chunk, cap), cap)
        if not summary:
            return None
        return self._cipher.encrypt(summary, user_id=user_id, session_id=session_id, kind=SUMMARY_KIND, ref="summary")

    def _records_of(self, user_id: str, session_id: str, seq: int) -> tuple[str, ...]:
        """The turn records (clientTurnId) whose stored response is the turn of visitor message ``seq``."""
        found = []
        for client_turn_id, ct in self._store.turn_responses(user_id, session_id):
            text = self._cipher.decrypt(ct, user_id=user_id, session_id=session_id, kind=RESPONSE_KIND, ref=client_turn_id)
            if json.loads(text).get("visitor_seq") == seq:
                found.append(client_turn_id)
        return tuple(found)

    @staticmethod
    def _needs(part: Any) -> Any:
        if part is None:
            raise ConvmemError("Forgetting what was learnt needs the facts service and the model (the API wires them).")
        return part

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


def _at_most(ranges: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """``ranges`` as at most ``n`` contiguous groups (each from its first range's start to its last one's end)."""
    if len(ranges) <= n:
        return ranges
    size = -(-len(ranges) // n)
    return [(group[0][0], group[-1][1]) for group in (ranges[i:i + size] for i in range(0, len(ranges), size))]


def _incomplete() -> DependencyUnavailableError:
    return DependencyUnavailableError(
        "Deleting took longer than one request; it continues, retry to finish.", code="delete_incomplete")
