"""In-memory fakes of the ports, for service tests that run in milliseconds.

Each fake keeps the promises its port's docstrings make and the DynamoDB adapter keeps: the same
conditions (a commit on a moved count, a cursor that moved, a facts version that changed), the
same erasure refusals, the same limits. ``tests/contract/`` runs one suite against both the fakes
and the DynamoDB adapter on moto, so a fake that drifts from the real store fails there first.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from convmem.adapters.dynamodb_store import FACTS_SHARD_MAX_BYTES
from convmem.adapters.encryption import DecryptionError
from convmem.adapters.local_model import LocalModel
from convmem.domain.models import SessionState, SessionSummary
from convmem.domain.rate_limits import Counted, LimitSlot
from convmem.errors import (
    ConcurrentUpdateError,
    DependencyUnavailableError,
    ErasureInProgressError,
    InvalidInputError,
    KeyDestroyedError,
    RateLimitedError,
)
from convmem.ports import (
    DueUser,
    FactsJob,
    FoldJob,
    ProfileState,
    SessionSnapshot,
    StoredMessage,
    TurnClaim,
    UserMemory,
    erasure_blocks,
)


@dataclass
class _Session:
    state: SessionState
    summary_ct: bytes | None = None
    messages: dict[int, StoredMessage] = field(default_factory=dict)


@dataclass
class _Profile:
    ciphertext: bytes | None = None
    refreshed_at: datetime | None = None
    active_at: datetime | None = None
    due: bool = False
    forgot_at: datetime | None = None


@dataclass
class _Counter:
    total: int = 0
    slices: dict[int, int] = field(default_factory=dict)


class InMemoryStore:
    """The Store port in dictionaries. One lock makes every method atomic, as each DynamoDB
    request (and each transaction) is."""

    def __init__(self, *, window: int = 12, facts_shards: int = 1, due_page_size: int = 1000) -> None:
        self._lock = threading.RLock()
        self._window = window
        self._facts_shards = facts_shards
        self._due_page_size = due_page_size
        self.sessions: dict[tuple[str, str], _Session] = {}
        self.markers: dict[str, dict[str, datetime]] = {}
        self.claims: dict[tuple[str, str, str], TurnClaim] = {}
        self.facts: dict[str, tuple[int, dict[int, bytes]]] = {}
        self.profiles: dict[str, _Profile] = {}
        self.erasures: dict[str, tuple[str, datetime]] = {}
        self.counters: dict[tuple[str, str, int], _Counter] = {}
        self.leases: dict[str, tuple[str, datetime]] = {}

    # --- helpers -----------------------------------------------------------------------
    @staticmethod
    def _check_ids(*ids: str) -> None:
        if any("#" in i for i in ids):
            raise InvalidInputError("Ids may not contain '#'.")

    def _refuse_if_erasing(self, user_id: str, now: datetime) -> None:
        if erasure_blocks(*self.erasures.get(user_id, (None, None)), now):
            raise ErasureInProgressError("This user's data is being erased; a new conversation can start in a minute.")

    def _counter(self, owner: str, slot: LimitSlot) -> _Counter:
        return self.counters.get((owner, slot.name, slot.window_start), _Counter())

    def _counted(self, owner: str, slot: LimitSlot) -> Counted:
        c = self._counter(owner, slot)
        return Counted(total=c.total, in_slice=c.slices.get(slot.slice, 0))

    def _count(self, owner: str, slot: LimitSlot, now: datetime, what: str) -> None:
        counted = self._counted(owner, slot)
        if slot.refuses(counted):
            retry = slot.retry_after(counted, now.timestamp())
            raise RateLimitedError(f"Too many {what}; retry in {retry} s.", retry_after_s=retry)
        c = self.counters.setdefault((owner, slot.name, slot.window_start), _Counter())
        c.total += 1
        c.slices[slot.slice] = c.slices.get(slot.slice, 0) + 1

    # --- sessions ----------------------------------------------------------------------
    def load_session(self, user_id: str, session_id: str) -> SessionSnapshot:
        self._check_ids(user_id, session_id)
        with self._lock:
            s = self.sessions.get((user_id, session_id))
            if s is None:
                return SessionSnapshot(state=None, messages=[])
            cursor = s.state.summarized_through
            messages = [m for seq, m in sorted(s.messages.items()) if seq > cursor]
            return SessionSnapshot(state=s.state, messages=messages, summary_ciphertext=s.summary_ct)

    def get_state(self, user_id: str, session_id: str) -> tuple[SessionState | None, bytes | None]:
        with self._lock:
            s = self.sessions.get((user_id, session_id))
            return (s.state, s.summary_ct) if s else (None, None)

    def commit_turn(self, *, user_id: str, session_id: str, expected_count: int,
                    messages: tuple[StoredMessage, StoredMessage], now: datetime, client_turn_id: str | None = None,
                    response_ciphertext: bytes | None = None, turn_slot: LimitSlot | None = None,
                    in_order: bool = False) -> None:
        self._check_ids(user_id, session_id)
        with self._lock:
            self._refuse_if_erasing(user_id, now)
            s = self.sessions.get((user_id, session_id))
            count = s.state.message_count if s else None
            if (expected_count == 0 and s is not None) or (expected_count and count != expected_count) \
                    or (s and any(m.seq in s.messages for m in messages)) \
                    or (s and in_order and messages[-1].at < (s.state.last_at or s.state.updated_at)):
                raise ConcurrentUpdateError("The session changed while this turn ran.")
            if turn_slot is not None:
                self._count(f"USER#{user_id}", turn_slot, now, "turns for this user")
            if s is None:
                s = self.sessions[(user_id, session_id)] = _Session(SessionState(
                    session_id=session_id, owner=user_id, message_count=0, summarized_through=0, facts_through=0,
                    created_at=now, updated_at=now))
                self.markers.setdefault(user_id, {})[session_id] = now
            s.messages.update({m.seq: m for m in messages})
            s.state = s.state.model_copy(update=dict(message_count=expected_count + len(messages), updated_at=now,
                                                     last_at=messages[-1].at))
            if client_turn_id is not None:
                self.claims[(user_id, session_id, client_turn_id)] = TurnClaim(
                    status="completed", lease_until=0, response_ciphertext=response_ciphertext or b"")

    def messages_between(self, user_id: str, session_id: str, low: int, high: int) -> list[StoredMessage]:
        with self._lock:
            s = self.sessions.get((user_id, session_id))
            return [m for seq, m in sorted(s.messages.items()) if low <= seq <= high] if s else []

    def list_messages(self, user_id: str, session_id: str, after: int, limit: int) -> list[StoredMessage]:
        return self.messages_between(user_id, session_id, after + 1, 10**10 - 1)[:limit]

    def recent_messages(self, user_id: str, session_id: str, limit: int) -> list[StoredMessage]:
        return list(reversed(self.messages_between(user_id, session_id, 1, 10**10 - 1)))[:limit]

    def advance_summary(self, session_id: str, *, user_id: str, old_cursor: int, new_cursor: int,
                        summary_ciphertext: bytes, now: datetime, forget_gen: int = 0) -> None:
        if new_cursor <= old_cursor:
            raise ValueError("the cursor only moves forward")
        with self._lock:
            self._refuse_if_erasing(user_id, now)
            s = self.sessions.get((user_id, session_id))
            if s is None or s.state.summarized_through != old_cursor or s.state.message_count < new_cursor \
                    or s.state.forget_gen != forget_gen:
                raise ConcurrentUpdateError("The summary cursor moved while this fold ran.")
            s.state = s.state.model_copy(update=dict(summarized_through=new_cursor))
            s.summary_ct = summary_ciphertext

    def forget_messages(self, session_id: str, *, user_id: str, seqs: tuple[int, ...], cursor: int, forget_gen: int,
                        summary_ciphertext: bytes | None, now: datetime, client_turn_ids: tuple[str, ...] = ()) -> None:
        with self._lock:
            self._refuse_if_erasing(user_id, now)
            s = self.sessions.get((user_id, session_id))
            if s is None or s.state.summarized_through != cursor or s.state.forget_gen != forget_gen:
                raise ConcurrentUpdateError("The session's summary moved while the message was forgotten.")
            for seq in seqs:
                s.messages.pop(seq, None)
            for turn_id in client_turn_ids:
                self.claims.pop((user_id, session_id, turn_id), None)
            s.summary_ct = summary_ciphertext
            s.state = s.state.model_copy(update=dict(forgotten_seqs=s.state.forgotten_seqs | set(seqs),
                                                     forget_gen=forget_gen + 1))

    def advance_facts_cursor(self, user_id: str, session_id: str, *, old: int, new: int) -> None:
        with self._lock:
            s = self.sessions.get((user_id, session_id))
            if s is None or s.state.facts_through != old:
                raise ConcurrentUpdateError("The facts cursor moved.")
            s.state = s.state.model_copy(update=dict(facts_through=new))

    def list_sessions(self, user_id: str, limit: int) -> list[SessionSummary]:
        return self.page_sessions(user_id, limit)[0]

    def page_sessions(self, user_id: str, limit: int, after: str | None = None) -> tuple[list[SessionSummary], str | None]:
        with self._lock:
            ordered = sorted((s.state for (uid, _), s in self.sessions.items() if uid == user_id),
                             key=lambda st: (st.updated_at, st.session_id), reverse=True)
        if after is not None:
            position = self._cursor_position(after, user_id)
            ordered = [st for st in ordered if (st.updated_at.isoformat(), st.session_id) < position]
        page = ordered[:limit]
        summaries = [SessionSummary(session_id=st.session_id, message_count=st.message_count,
                                    created_at=st.created_at, updated_at=st.updated_at) for st in page]
        more = len(ordered) > limit
        cursor = None
        if more and page:
            raw = json.dumps({"u": user_id, "t": page[-1].updated_at.isoformat(), "s": page[-1].session_id})
            cursor = base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")
        return summaries, cursor

    @staticmethod
    def _cursor_position(cursor: str, user_id: str) -> tuple[str, str]:
        try:
            key = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
            if key["u"] != user_id:
                raise ValueError
            return str(key["t"]), str(key["s"])
        except (ValueError, TypeError, KeyError) as exc:
            raise InvalidInputError("after is not a cursor this list returned.", code="invalid_page") from exc

    # --- turn claims ---------------------------------------------------------------------
    def claim_turn(self, user_id: str, session_id: str, client_turn_id: str, now: float,
                   lease_seconds: int) -> TurnClaim | None:
        key = (user_id, session_id, client_turn_id)
        with self._lock:
            old = self.claims.get(key)
            if old is None or (old.status == "in_progress" and old.lease_until < int(now)):
                self.claims[key] = TurnClaim(status="in_progress", lease_until=int(now) + lease_seconds)
                return None
            return old

    def turn_responses(self, user_id: str, session_id: str) -> list[tuple[str, bytes]]:
        with self._lock:
            return [(k[2], c.response_ciphertext) for k, c in self.claims.items()
                    if k[:2] == (user_id, session_id) and c.response_ciphertext]

    def release_turn(self, user_id: str, session_id: str, client_turn_id: str) -> None:
        with self._lock:
            key = (user_id, session_id, client_turn_id)
            if key in self.claims and self.claims[key].status == "in_progress":
                del self.claims[key]

    # --- the user's durable layers -------------------------------------------------------
    def load_user_memory(self, user_id: str, turn_slot: LimitSlot | None = None) -> UserMemory:
        with self._lock:
            version, shards = self.facts.get(user_id, (0, {}))
            profile = self.profiles.get(user_id, _Profile())
            state, until = self.erasures.get(user_id, (None, None))
            return UserMemory(
                facts_version=version, facts_shards=dict(shards), profile_ciphertext=profile.ciphertext,
                profile_refreshed_at=profile.refreshed_at, erasure_state=state, erasure_until=until,
                turns_counted=self._counted(f"USER#{user_id}", turn_slot) if turn_slot else Counted(),
            )

    def count_new_visitor(self, source_key: str, slot: LimitSlot, now: datetime) -> None:
        with self._lock:
            self._count(f"SOURCE#{source_key}", slot, now, "new visitors from this address")

    def get_facts(self, user_id: str) -> tuple[int, dict[int, bytes]]:
        with self._lock:
            version, shards = self.facts.get(user_id, (0, {}))
            return version, dict(shards)

    def put_facts(self, user_id: str, *, expected_version: int, shards: Mapping[int, bytes], count: int,
                  now: datetime) -> None:
        for i, ct in shards.items():
            if not 0 <= i < self._facts_shards or len(ct) > FACTS_SHARD_MAX_BYTES:
                raise ValueError(f"facts shard {i} is out of range or over {FACTS_SHARD_MAX_BYTES} bytes")
        with self._lock:
            self._refuse_if_erasing(user_id, now)
            version, old = self.facts.get(user_id, (0, {}))
            if version != expected_version:
                raise ConcurrentUpdateError("The user's facts changed while this merge ran.")
            self.facts[user_id] = (version + 1, {**old, **shards})

    def mark_active(self, user_id: str, now: datetime) -> None:
        with self._lock:
            profile = self.profiles.setdefault(user_id, _Profile())
            profile.active_at, profile.due = now, True

    def due_user_pages(self) -> Iterator[list[DueUser]]:
        with self._lock:
            due = sorted((DueUser(uid, p.active_at) for uid, p in self.profiles.items() if p.due and p.active_at),
                         key=lambda d: d.active_at)
        for start in range(0, len(due), self._due_page_size):
            yield due[start:start + self._due_page_size]

    def profile_state(self, user_id: str) -> ProfileState:
        with self._lock:
            p = self.profiles.get(user_id, _Profile())
            return ProfileState(ciphertext=p.ciphertext, due=p.due, active_at=p.active_at)

    def put_profile(self, user_id: str, *, ciphertext: bytes, now: datetime, active_at: datetime) -> None:
        with self._lock:
            self._refuse_if_erasing(user_id, now)
            p = self.profiles.get(user_id)
            if p is None:
                return  # erased meanwhile: nothing to revive
            if p.active_at == active_at:
                p.ciphertext, p.refreshed_at, p.due = ciphertext, now, False
            elif p.forgot_at is None or p.forgot_at <= active_at:  # not reset by a forget since it began
                p.ciphertext, p.refreshed_at = ciphertext, now

    def reset_profile(self, user_id: str, now: datetime) -> None:
        with self._lock:
            self._refuse_if_erasing(user_id, now)
            p = self.profiles.setdefault(user_id, _Profile())
            p.ciphertext = p.refreshed_at = None
            p.active_at = p.forgot_at = now
            p.due = True

    # --- run leases ----------------------------------------------------------------------
    def acquire_lease(self, name: str, *, owner: str, now: datetime, until: datetime) -> bool:
        with self._lock:
            held = self.leases.get(name)
            if held is not None and int(held[1].timestamp()) + 1 > int(now.timestamp()):
                return False
            self.leases[name] = (owner, until)
            return True

    def release_lease(self, name: str, *, owner: str) -> None:
        with self._lock:
            if self.leases.get(name, ("",))[0] == owner:
                del self.leases[name]

    # --- forgetting ----------------------------------------------------------------------
    def all_session_ids(self, user_id: str) -> list[str]:
        with self._lock:
            return sorted(self.markers.get(user_id, {}))

    def delete_session(self, session_id: str, user_id: str, deadline: float) -> bool:
        with self._lock:
            self.sessions.pop((user_id, session_id), None)
            self.markers.get(user_id, {}).pop(session_id, None)
            for key in [k for k in self.claims if k[:2] == (user_id, session_id)]:
                del self.claims[key]
            return True

    def delete_user_items(self, user_id: str, deadline: float) -> bool:
        with self._lock:
            self.markers.pop(user_id, None)
            self.facts.pop(user_id, None)
            self.profiles.pop(user_id, None)
            for key in [k for k in self.claims if k[0] == user_id]:
                del self.claims[key]
            for key in [k for k in self.counters if k[0] == f"USER#{user_id}"]:
                del self.counters[key]
            return True

    def get_erasure(self, user_id: str) -> tuple[str | None, datetime | None]:
        with self._lock:
            return self.erasures.get(user_id, (None, None))

    def mark_erasure(self, user_id: str, *, state: str, until: datetime, now: datetime) -> None:
        with self._lock:
            self.erasures[user_id] = (state, until)


class FakeCipher:
    """Ciphertext bound to user, session, kind and ref as the real encryption context is, under a
    per-user key that erasure destroys (every older ciphertext unreadable; a later turn gets a new
    key, unless ``may_create_key`` says the user is being erased). Not encryption: a keyed
    scramble, enough that a test finding plaintext in the fake store finds a bug."""

    def __init__(self, may_create_key: Callable[[str], bool] | None = None) -> None:
        self._may_create_key = may_create_key or (lambda _user: True)
        self.keys: dict[str, int] = {}
        """The user's live key generation; absent before the first encryption and after erasure."""
        self._generations: dict[str, int] = {}

    @staticmethod
    def _pad(context: tuple[str, ...], generation: int, n: int) -> bytes:
        seed = hashlib.sha256("\x00".join((*context, str(generation))).encode()).digest()
        return (seed * (n // len(seed) + 1))[:n]

    def encrypt(self, plaintext: str, *, user_id: str, session_id: str, kind: str, ref: str) -> bytes:
        if user_id not in self.keys:
            if not self._may_create_key(user_id):
                raise ErasureInProgressError("This user's data is being erased; a new conversation can start in a minute.")
            self.keys[user_id] = self._generations[user_id] = self._generations.get(user_id, 0) + 1
        context, generation = (user_id, session_id, kind, ref), self.keys[user_id]
        data = plaintext.encode("utf-8")
        body = bytes(a ^ b for a, b in zip(data, self._pad(context, generation, len(data)), strict=True))
        return json.dumps({"ctx": list(context), "gen": generation}).encode() + b"\n" + base64.b64encode(body)

    def decrypt(self, ciphertext: bytes, *, user_id: str, session_id: str, kind: str, ref: str) -> str:
        head, _, body = ciphertext.partition(b"\n")
        meta = json.loads(head)
        if self.keys.get(user_id) != meta["gen"]:
            raise KeyDestroyedError("The key of a stored item no longer exists (the user was erased).")
        context = (user_id, session_id, kind, ref)
        if tuple(meta["ctx"]) != context:
            raise DecryptionError("A stored item's encryption context does not match.")
        data = base64.b64decode(body)
        return bytes(a ^ b for a, b in zip(data, self._pad(context, meta["gen"], len(data)), strict=True)).decode()

    def destroy_user_key(self, user_id: str) -> int:
        return 1 if self.keys.pop(user_id, None) is not None else 0


class RecordingJobs:
    """The Jobs port as lists: what was enqueued, in order."""

    def __init__(self) -> None:
        self.folds: list[FoldJob] = []
        self.facts: list[FactsJob] = []
        self.erasures: list[tuple[str, str, int]] = []
        self.profiles: list[DueUser] = []

    def send_fold(self, job: FoldJob) -> None:
        self.folds.append(job)

    def send_facts(self, job: FactsJob) -> None:
        self.facts.append(job)

    def send_erase(self, user_id: str, erasure_id: str, attempt: int) -> None:
        self.erasures.append((user_id, erasure_id, attempt))

    def send_profiles(self, users: Sequence[DueUser]) -> int:
        self.profiles.extend(users)
        return 0


class CountingModel(LocalModel):
    """The local model, counting the messages each fold was given (``fail`` folds fail first)."""

    def __init__(self, fail: int = 0) -> None:
        self.folded: list[int] = []
        self.fail = fail

    def fold_summary(self, old, messages, cap):
        if self.fail:
            self.fail -= 1
            raise DependencyUnavailableError("summarizer down", code="model_unavailable")
        self.folded.extend(m.seq for m in messages)
        return super().fold_summary(old, messages, cap)


class ManualClock:
    """A clock a test moves by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.at = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at
