"""The interfaces the services depend on. Adapters implement them; tests/fakes.py has in-memory fakes
of each, held to the same contract as the DynamoDB adapter by tests/contract."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from convmem.domain.models import FactCandidate, Message, ModelReply, ModelRequest, Role, SessionState, SessionSummary
from convmem.domain.rate_limits import Counted, LimitSlot


@dataclass(frozen=True)
class StoredMessage:
    """A message as stored: metadata in clear, text only as ciphertext."""

    seq: int
    role: Role
    channel: str
    at: datetime
    ciphertext: bytes


@dataclass(frozen=True)
class SessionSnapshot:
    """What a turn reads: the state (None for a new session) and every message after the cursor."""

    state: SessionState | None
    messages: list[StoredMessage]
    summary_ciphertext: bytes | None = None


@dataclass(frozen=True)
class UserMemory:
    """A user's durable layers as stored: the facts document and the profile, both ciphertext."""

    facts_version: int = 0
    facts_shards: Mapping[int, bytes] = field(default_factory=dict)
    """The facts document's shards that exist, by shard number (ciphertext)."""
    profile_ciphertext: bytes | None = None
    profile_refreshed_at: datetime | None = None
    erasure_state: str | None = None
    """``erasing`` while an erasure runs, ``erased`` after it; None when the user was never erased."""
    erasure_until: datetime | None = None
    """Turns are refused until then (other instances may still hold the old key for the cache TTL)."""
    turns_counted: Counted = field(default_factory=Counted)
    """The user's turns in the window asked for (``load_user_memory``'s ``turn_slot``), as read."""

    def erasure_blocks(self, now: datetime) -> bool:
        return erasure_blocks(self.erasure_state, self.erasure_until, now)


def erasure_blocks(state: str | None, until: datetime | None, now: datetime) -> bool:
    """Whether an erasure marker (state, until) still keeps the user's turns and jobs out."""
    return state == "erasing" or (until is not None and now < until)


@dataclass(frozen=True)
class DueUser:
    """A user active since their last profile refresh."""

    user_id: str
    active_at: datetime


@dataclass(frozen=True)
class ProfileState:
    """A user's PROFILE item as a profile job needs it: the profile (ciphertext) and whether the
    user is still due a refresh, since ``active_at``. ``due`` is False for a user refreshed since
    they were last active, or whose item is gone (erased)."""

    ciphertext: bytes | None
    due: bool
    active_at: datetime | None


@dataclass(frozen=True)
class TurnClaim:
    """The idempotency record of a clientTurnId."""

    status: str  # "in_progress" | "completed"
    lease_until: float
    response_ciphertext: bytes | None = None


class Conversations(Protocol):
    """Sessions and their messages: the turn's commit, the fold's and the facts job's cursors, the
    user's list, a session's delete."""

    def load_session(self, user_id: str, session_id: str) -> SessionSnapshot:
        """The user's session ``session_id``: the state and every message after its cursor, in seq
        order (state None when the user has no such session). Raises DependencyUnavailableError."""

    def get_state(self, user_id: str, session_id: str) -> tuple[SessionState | None, bytes | None]:
        """The user's session's state item and summary ciphertext, or (None, None)."""

    def commit_turn(
        self,
        *,
        user_id: str,
        session_id: str,
        expected_count: int,
        messages: tuple[StoredMessage, StoredMessage],
        now: datetime,
        client_turn_id: str | None = None,
        response_ciphertext: bytes | None = None,
        turn_slot: LimitSlot | None = None,
        in_order: bool = False,
    ) -> None:
        """Write both messages and the state update atomically, conditioned on ``expected_count``,
        and count the turn in the user's ``turn_slot`` (when given) in the same transaction. The
        state records the messages' ``at`` as the session's ``last_at``; ``in_order``: also
        conditioned on that ``at`` not preceding the stored ``last_at`` (an imported exchange).

        Raises ConcurrentUpdateError when another turn got there first, RateLimitedError when
        the user's window or burst is full (nothing written).
        """

    def messages_between(self, user_id: str, session_id: str, low: int, high: int) -> list[StoredMessage]:
        """Messages with low <= seq <= high, ascending."""

    def advance_summary(
        self, session_id: str, *, user_id: str, old_cursor: int, new_cursor: int, summary_ciphertext: bytes, now: datetime,
        forget_gen: int = 0,
    ) -> None:
        """Move the cursor from ``old_cursor`` to ``new_cursor`` with the new summary; ConcurrentUpdateError if it moved
        or a message was forgotten since ``forget_gen`` was read, ErasureInProgressError if the user is being erased
        (as put_facts and put_profile, and commit_turn)."""

    def forget_messages(
        self, session_id: str, *, user_id: str, seqs: tuple[int, ...], cursor: int, forget_gen: int,
        summary_ciphertext: bytes | None, now: datetime, client_turn_ids: tuple[str, ...] = (),
    ) -> None:
        """Delete messages ``seqs`` (and the turn records ``client_turn_ids``), record them forgotten and store
        the summary folded again without them (None: no summary), at once; ConcurrentUpdateError if the cursor
        or the forget count moved."""

    def advance_facts_cursor(self, user_id: str, session_id: str, *, old: int, new: int) -> None:
        """Move the session's facts cursor from ``old`` to ``new``; ConcurrentUpdateError if it moved."""

    def list_sessions(self, user_id: str, limit: int) -> list[SessionSummary]:
        """The user's sessions, most recently updated first."""

    def page_sessions(self, user_id: str, limit: int, after: str | None = None) -> tuple[list[SessionSummary], str | None]:
        """One page of ``list_sessions`` from the opaque cursor ``after``, and the next page's cursor
        (None on the last page). InvalidInputError for a cursor this user was not given."""

    def list_messages(self, user_id: str, session_id: str, after: int, limit: int) -> list[StoredMessage]:
        """Messages with seq > ``after``, ascending, at most ``limit``."""

    def recent_messages(self, user_id: str, session_id: str, limit: int) -> list[StoredMessage]:
        """The newest ``limit`` messages of a session, newest first."""

    def all_session_ids(self, user_id: str) -> list[str]:
        """Every session of the user, including one created a moment ago (read consistently, all pages)."""

    def delete_session(self, session_id: str, user_id: str, deadline: float) -> bool:
        """Delete the session's state, messages and turn records; False if time ran out first."""


class TurnClaims(Protocol):
    """The idempotency records of clientTurnIds (completed by ``commit_turn``)."""

    def claim_turn(
        self, user_id: str, session_id: str, client_turn_id: str, now: float, lease_seconds: int
    ) -> TurnClaim | None:
        """Claim a clientTurnId. None when claimed now; the existing record otherwise."""

    def release_turn(self, user_id: str, session_id: str, client_turn_id: str) -> None:
        """Drop an in-progress claim after a failed turn, so a retry can run."""

    def turn_responses(self, user_id: str, session_id: str) -> list[tuple[str, bytes]]:
        """(clientTurnId, response ciphertext) of every completed turn record of the session."""


class Memories(Protocol):
    """The user's durable layers: the facts document and the profile, with who is due a refresh."""

    def load_user_memory(self, user_id: str, turn_slot: LimitSlot | None = None) -> UserMemory:
        """The facts document and the profile (and the user's turns counted in ``turn_slot``) in one read."""

    def get_facts(self, user_id: str) -> tuple[int, dict[int, bytes]]:
        """(version, ciphertext by shard) of the facts document, read consistently; (0, {}) when none."""

    def put_facts(
        self, user_id: str, *, expected_version: int, shards: Mapping[int, bytes], count: int, now: datetime
    ) -> None:
        """Write the changed ``shards`` and the next version, all or nothing, if the version is still
        ``expected_version``; else ConcurrentUpdateError."""

    def mark_active(self, user_id: str, now: datetime) -> None:
        """Record that the user was active, so the next profile refresh includes them."""

    def due_user_pages(self) -> Iterator[list[DueUser]]:
        """Every user active since their last profile refresh, a page at a time (every shard of the
        sparse due index, every page of each): no limit, so nobody is left behind."""

    def profile_state(self, user_id: str) -> ProfileState:
        """The user's PROFILE item, read strongly consistent (a job refreshed a moment ago is seen)."""

    def put_profile(self, user_id: str, *, ciphertext: bytes, now: datetime, active_at: datetime) -> None:
        """Store a new profile; the user stays due if they were active again after ``active_at``."""

    def reset_profile(self, user_id: str, now: datetime) -> None:
        """Drop the profile and make the user due: the next refresh writes it anew, never from the old one."""

class Erasures(Protocol):
    """The erasure marker and the deletion of the user's own items."""

    def get_erasure(self, user_id: str) -> tuple[str | None, datetime | None]:
        """The erasure marker's (state, until), or (None, None) for a user never erased."""

    def mark_erasure(self, user_id: str, *, state: str, until: datetime, now: datetime) -> None:
        """Record an erasure: ``erasing`` blocks turns; ``erased`` keeps blocking until ``until``."""

    def delete_user_items(self, user_id: str, deadline: float) -> bool:
        """Delete the user's own items (facts, profile, turn records), never the erasure marker."""


class VisitorCounter(Protocol):
    """Limits per caller that are not part of a turn: new visitors per source address."""

    def count_new_visitor(self, source_key: str, slot: LimitSlot, now: datetime) -> None:
        """Count a new visitor from the address keyed ``source_key``; RateLimitedError when ``slot`` is full."""


class Leases(Protocol):
    """One holder at a time for a scheduled run."""

    def acquire_lease(self, name: str, *, owner: str, now: datetime, until: datetime) -> bool:
        """Take the run lease ``name`` for ``owner`` until ``until``; False while another holder's is unexpired."""

    def release_lease(self, name: str, *, owner: str) -> None:
        """Free the lease ``name`` if ``owner`` still holds it."""


class Store(Conversations, TurnClaims, Memories, Erasures, VisitorCounter, Leases, Protocol):
    """Every store port: what the DynamoDB adapter implements on one table. A service asks only for
    the ports it uses."""


class Cipher(Protocol):
    """Envelope encryption under the user's own key; the context binds user, session and kind."""

    def encrypt(self, plaintext: str, *, user_id: str, session_id: str, kind: str, ref: str) -> bytes: ...

    def destroy_user_key(self, user_id: str) -> int:
        """Crypto-shred: delete every version of the user's branch key and forget cached material.
        Returns how many key-store items were deleted."""

    def decrypt(self, ciphertext: bytes, *, user_id: str, session_id: str, kind: str, ref: str) -> str:
        """Raises DecryptionError (a DependencyUnavailableError) if it fails."""


class Model(Protocol):
    """The chat model, as the service needs it."""

    tool_tokens: int
    """Tokens the tool definitions add to every reply request (0 without tools)."""

    def reply(self, request: ModelRequest) -> ModelReply:
        """The agent's reply, within the running turn's deadline (``convmem.deadline``). Raises
        DependencyUnavailableError when the model fails or runs out of time, ReplyBlockedError
        when a content filter or guardrail blocks it, ModelConfigurationError when the model
        refuses the request itself."""

    def fold_summary(self, old_summary: str | None, messages: Sequence[Message], cap_tokens: int) -> str:
        """The old summary with ``messages`` folded in (incremental, never from the whole history)."""

    def extract_facts(
        self, visitor_message: str, said_at: datetime | None = None, previous: str | None = None,
        theirs: Collection[str] = (), called: Collection[str] = (),
    ) -> list[FactCandidate]:
        """Facts the visitor states about themselves (never from the agent's words); [] when none.
        ``said_at`` is when they said it: relative time ("yesterday") is resolved against it.
        ``previous`` is the agent's message just before, when there is one: context for a short
        answer ("What did you paint?" -> "A sunset"), never a source of facts itself. ``theirs``:
        names of the people and pets in their life already learnt; news of them is theirs to tell
        ("Pemberton woke up yesterday"). ``called``: the names the visitor calls the agent by
        (``agent.name``, "Morag"): where one stands as an address ("Morag we won it!"), it is neither
        the visitor's news nor someone of theirs."""

    def write_profile(self, old_profile: str | None, visitor_messages: Sequence[str], cap_tokens: int) -> str:
        """A short standing profile (language, tone, what they come for) from recent messages and the old one."""

    def embed(self, texts: Sequence[str]) -> list[list[float]] | None:
        """One vector per text, or None when this model has no embeddings (recall is then lexical)."""


@dataclass(frozen=True)
class FoldJob:
    """Ids only, never text: the fold reads everything else from the store."""

    session_id: str
    user_id: str
    through_seq: int


@dataclass(frozen=True)
class FactsJob:
    """Ids only: the facts consumer reads the visitor's messages itself, every one after its
    cursor through ``visitor_seq`` (so a job that was never sent is caught up by the next)."""

    user_id: str
    session_id: str
    visitor_seq: int


class Jobs(Protocol):
    def send_fold(self, job: FoldJob) -> None:
        """Enqueue a fold job (FIFO, grouped by session, deduplicated by session and seq)."""

    def send_facts(self, job: FactsJob) -> None:
        """Enqueue a facts job (FIFO, grouped by user, deduplicated by session and seq)."""

    def send_erase(self, user_id: str, erasure_id: str, attempt: int) -> None:
        """Enqueue (the rest of) an erasure (FIFO, grouped by user, deduplicated by erasure and attempt)."""

    def send_profiles(self, users: Sequence[DueUser]) -> int:
        """Enqueue one profile job per user (ids and the activeAt seen only), ten a request; the
        number that could not be sent (they stay due and the next tick sends them)."""


class Secrets(Protocol):
    def get(self, secret_id: str) -> str: ...


class Clock(Protocol):
    def now(self) -> datetime: ...
