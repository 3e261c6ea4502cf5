"""Durable facts: extracted from what the visitor says (off the turn path), merged into the user's
one facts document with conditional writes, listed and forgotten through the API."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from convmem.domain import fact_extraction, fact_merge, forgetting, vectors
from convmem.domain.models import Fact, FactCandidate, FactSource, Forgotten, validate_id
from convmem.errors import (
    ConcurrentUpdateError,
    DependencyUnavailableError,
    ErasureInProgressError,
    KeyDestroyedError,
    NotFoundError,
)
from convmem.observability import logger
from convmem.ports import (
    Cipher,
    Clock,
    Conversations,
    Erasures,
    FactsJob,
    Memories,
    Model,
    erasure_blocks,
)
from convmem.service.stored import (
    decrypt_fact_shards,
    decrypt_facts,
    decrypt_text,
    encrypt_fact_shards,
    pack_facts,
    shard_of,
    split_facts,
    unpack_facts,
    unpack_forgotten,
)
from convmem.settings import Settings

MAX_RACE_RETRIES = 8
# A shard's ciphertext stays below the store's item bound (DynamoDB: 400 KB counted in bytes).
MAX_SHARD_BYTES = 340_000
EMBEDDINGS_PER_JOB = 20
# Messages one job examines at most; a longer backlog is finished by the session's next jobs.
MAX_CATCH_UP = 40


class FactsStore(Conversations, Memories, Erasures, Protocol):
    """What learning facts reads and writes: the visitor's messages behind the facts cursor, the
    facts document, and the erasure marker."""


class _DocumentFullError(Exception):
    """Nothing more can be folded or trimmed and a shard is still over MAX_SHARD_BYTES: only
    current identity and contact facts are left in it (never leaves this module)."""


@dataclass(frozen=True)
class _Stored:
    """The facts document as read: its version, each shard's plaintext and stored bytes."""

    version: int
    plain: dict[int, str]
    sizes: dict[int, int]


@dataclass(frozen=True)
class Unlearnt:
    """What forgetting messages did to the user's facts."""

    changed: int
    removed: int


@dataclass(frozen=True)
class FactsOutcome:
    user_id: str
    candidates: int
    actions: tuple[str, ...] = ()

    @property
    def learnt(self) -> int:
        """Facts this job created or changed (the FactsLearnt metric of the dashboard)."""
        return sum(1 for a in self.actions if a in ("created", "updated"))


class FactsService:
    def __init__(
        self, *, store: FactsStore, cipher: Cipher, model: Model, clock: Clock, settings: Settings,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
    ) -> None:
        self._store = store
        self._cipher = cipher
        self._model = model
        self._clock = clock
        self._settings = settings
        self._new_id = new_id

    # --- the facts consumer ----------------------------------------------------------------
    def process(self, job: FactsJob) -> FactsOutcome:
        """Extract facts from the visitor's messages after the session's facts cursor, through
        the job's seq (at most MAX_CATCH_UP messages a job), merge them, move the cursor.

        Idempotent: a duplicate or late job finds the cursor past it; a retry after a crash
        merges again, and the merge recognises each fact's sources. Only visitor messages are
        read, decrypted under the job's user (a job naming someone else's session learns
        nothing). Raises DependencyUnavailableError (the job goes back to the queue).
        """
        # Both reads the job's range rests on are strongly consistent (the store says why): an
        # eventually consistent one, right after the turn, could lack the message just committed
        # and the cursor would then move past a message never read.
        state, _ = self._store.get_state(job.user_id, job.session_id)
        if state is None:
            return FactsOutcome(job.user_id, 0)  # the user has no such session (forgotten, or never theirs)
        if erasure_blocks(*self._store.get_erasure(job.user_id), self._clock.now()):
            return FactsOutcome(job.user_id, 0)  # being erased: learn nothing, write nothing back
        start = state.facts_through
        high = min(job.visitor_seq, state.message_count, start + MAX_CATCH_UP)
        if high <= start:
            return FactsOutcome(job.user_id, 0)  # already examined
        # From the cursor's own row: the agent's message before the first visitor message is the
        # context its answer needs ("What did you paint?" -> "A sunset"); the same one Query.
        rows = self._store.messages_between(job.user_id, job.session_id, max(1, start), high)
        agent = {m.seq: m for m in rows if m.role == "agent"}
        learnt: list[tuple[FactCandidate, FactSource]] = []
        try:
            # The facts the merge starts from, read first: the names of their people and pets tell
            # the extraction whose news a message tells ("Pemberton woke up"); the same one read.
            known = self._read(job.user_id)
            theirs = fact_merge.their_names(known[1])
            called = fact_merge.called(known[1])  # ... and what they call the agent: "Morag we won it!"
            # ... and the visitor's message before it (the cursor's own row, when that is theirs): a
            # short answer ("ya, 3rd year architecture") is about whom or what that one named.
            earlier = None
            for m in (m for m in rows if m.role == "visitor"):
                text = decrypt_text(self._cipher, job.user_id, job.session_id, m)
                if m.seq <= start:
                    earlier = text
                    continue
                before = agent.get(m.seq - 1)
                previous = decrypt_text(self._cipher, job.user_id, job.session_id, before) if before is not None else None
                source = FactSource(session_id=job.session_id, seq=m.seq, channel=m.channel, at=m.at)
                found = fact_extraction.with_context(
                    self._model.extract_facts(text, said_at=m.at, previous=previous, theirs=theirs, called=called), text, m.at, previous,
                    earlier)
                earlier = text
                theirs |= fact_merge.their_names(found)
                called |= fact_merge.called(found)
                learnt.extend((c, source) for c in found)
        except KeyDestroyedError:
            return FactsOutcome(job.user_id, 0)  # the user was erased meanwhile: nothing to learn, nothing to mark
        try:
            actions = self._merge(job.user_id, learnt, known) if learnt else ()
        except ErasureInProgressError:
            return FactsOutcome(job.user_id, 0)  # erasure began while this job ran: nothing written, nothing marked
        try:
            self._store.advance_facts_cursor(job.user_id, job.session_id, old=start, new=high)
        except ConcurrentUpdateError:
            pass  # another job examined these too; the merge made that harmless
        self._store.mark_active(job.user_id, self._clock.now())
        return FactsOutcome(job.user_id, len(learnt), actions)

    def _read(self, user_id: str) -> tuple[_Stored, list[Fact]]:
        """The stored document and every fact in it, read consistently for a conditional write."""
        version, shards = self._store.get_facts(user_id)
        plain = decrypt_fact_shards(self._cipher, user_id, shards)
        stored = _Stored(version, plain, {i: len(ct) for i, ct in shards.items()})
        return stored, [f for text in plain.values() for f in unpack_facts(text)]

    @staticmethod
    def _forgotten(stored: _Stored) -> tuple[Forgotten, ...]:
        return unpack_forgotten(stored.plain[0]) if 0 in stored.plain else ()

    def _merge(self, user_id: str, learnt: list[tuple[FactCandidate, FactSource]],
               known: tuple[_Stored, list[Fact]] | None = None) -> tuple[str, ...]:
        """``learnt`` merged into the user's facts (``known``: as just read, for the first attempt)."""
        s = self._settings
        embedded: dict[str, str] = {}  # statement -> vector, kept across race retries
        for attempt in range(MAX_RACE_RETRIES):
            stored, facts = known if known is not None and attempt == 0 else self._read(user_id)
            # What was forgotten is not learnt again from the same message: the tombstones are read
            # with the version this merge writes against, so a forget that lands meanwhile makes the
            # write fail and the retry sees them.
            allowed, refused = forgetting.refused(self._forgotten(stored), learnt)
            if refused:
                logger.info("facts refused: forgotten", extra={"user_id": user_id, "refused": refused})
            facts, actions = fact_merge.merge_all(
                facts, allowed, now=self._clock.now(), new_id=self._new_id, threshold=s.facts_merge_threshold,
                max_facts=s.facts_max_per_user, max_history=s.fact_history_max, per_message=s.facts_max_per_message,
            )
            if not any(a in ("created", "updated", "confirmed", "reworded", "history") for a in actions):
                return tuple(actions)
            if "full" in actions or "dropped" in actions or any(a.startswith("compacted") for a in actions):
                # Never silent: what did not get in, or was folded to make room, is counted.
                logger.warning("facts bounded", extra={
                    "user_id": user_id, "facts": len(facts), "full": actions.count("full"),
                    "dropped": actions.count("dropped"),
                    "compacted": sum(int(a.split(":")[1]) for a in actions if a.startswith("compacted")),
                })
            facts = self._with_embeddings(facts, embedded)
            try:
                self._put(user_id, stored, facts)
                return tuple(actions)
            except ConcurrentUpdateError:
                continue  # another job merged first: merge into what it wrote
            except _DocumentFullError:
                # Nothing left to fold fills a shard: this job's changes are refused (as new
                # slots past facts_max_per_user are), the job ends, the stored facts stay. Retrying
                # would fail the same way into the DLQ and block the user's later jobs.
                logger.warning("facts document full", extra={"user_id": user_id, "facts": len(facts)})
                return tuple("full" for _ in actions)
        raise DependencyUnavailableError("The user's facts kept changing under this merge; will retry.", code="facts_busy")

    def _with_embeddings(self, facts: list[Fact], embedded: dict[str, str]) -> list[Fact]:
        """Facts whose statement has no vector yet get one, when the model embeds (a few a job,
        so a switch of model provider catches up over the next jobs)."""
        missing = [f.statement for f in facts if f.embedding is None and f.statement not in embedded]
        if missing:
            found = self._model.embed(missing[:EMBEDDINGS_PER_JOB])
            if found is None:
                return facts
            embedded.update((text, vectors.quantize(v)) for text, v in zip(missing, found, strict=False))
        return [f.model_copy(update={"embedding": embedded[f.statement]}) if f.embedding is None and f.statement in embedded else f
                for f in facts]

    def _put(self, user_id: str, stored: _Stored, facts: list[Fact], forgotten: Sequence[Forgotten] | None = None) -> None:
        """Write the shards whose facts changed. A shard over its byte bound first loses its oldest
        history entries, then the oldest told facts of the user are compacted (current identity and
        contact facts never)."""
        n = self._settings.facts_shards
        empty = pack_facts([])
        while True:
            plain = split_facts(facts, n, stored.plain, forgotten)
            # The first write makes the head (shard 0) whole; after that only what changed is written.
            changed = {i: text for i, text in plain.items()
                       if text != stored.plain.get(i, empty) or (i == 0 and not stored.version)}
            sealed = encrypt_fact_shards(self._cipher, user_id, changed)
            # A shard over the bound is shrunk whether or not this merge changed it (a bound lowered
            # since it was written, a document from before shards).
            sizes = {**stored.sizes, **{i: len(ct) for i, ct in sealed.items()}}
            over = [i for i, size in sorted(sizes.items()) if size > MAX_SHARD_BYTES]
            if not over:
                break
            facts = self._shrink(user_id, facts, [f for f in facts if shard_of(f.id, n) == over[0]])
        self._store.put_facts(user_id, expected_version=stored.version, shards=sealed, count=len(facts), now=self._clock.now())

    def _shrink(self, user_id: str, facts: list[Fact], shard: list[Fact]) -> list[Fact]:
        """Facts with fewer bytes in them: the shard's oldest history entries, else a compaction of
        the oldest told facts (a tenth of them at a time), else a coarser oldest digest."""
        with_history = [f for f in shard if f.history]
        logger.warning("facts shard over its byte bound", extra={"user_id": user_id, "facts": len(facts)})
        if with_history:
            trimmed = {f.id for f in sorted(with_history, key=lambda f: f.history[0].source.at)[: max(1, len(with_history) // 10)]}
            return [f.model_copy(update={"history": f.history[1:]}) if f.id in trimmed else f for f in facts]
        now = self._clock.now()
        smaller, folded = fact_merge.compact(facts, now=now, new_id=self._new_id, max_facts=max(1, len(facts) - len(facts) // 10))
        if not folded:
            smaller, folded = fact_merge.coarsen(facts, now=now)
        if not folded:
            raise _DocumentFullError
        return smaller

    # --- the API -----------------------------------------------------------------------------
    def list_facts(self, user_id: str) -> list[Fact]:
        """The user's current facts, most recently updated first."""
        facts = decrypt_facts(self._cipher, user_id, self._store.load_user_memory(user_id).facts_shards).facts
        return sorted(facts, key=lambda f: f.updated_at, reverse=True)

    def forget(self, user_id: str, fact_id: str) -> None:
        """Remove one fact and its history; the next turn no longer recalls it, and no facts job
        learns it again from the messages it came from (a tombstone per message; told again in a
        new message, it is learnt again). NotFoundError if absent."""
        validate_id(fact_id, "factId")
        for _ in range(MAX_RACE_RETRIES):
            stored, facts = self._read(user_id)
            kept = [f for f in facts if f.id != fact_id]
            if len(kept) == len(facts):
                raise NotFoundError("No such fact.", code="fact_not_found")
            now = self._clock.now()
            gone = next(f for f in facts if f.id == fact_id)
            stones = forgetting.bounded([*self._forgotten(stored), *forgetting.tombstones_for(gone, now)], now)
            try:
                self._put(user_id, stored, kept, stones)
                return
            except ConcurrentUpdateError:
                continue
        raise DependencyUnavailableError("The user's facts kept changing; retry shortly.", code="facts_busy")

    def unlearn(self, user_id: str, gone: forgetting.Gone, tombstone: Forgotten) -> Unlearnt:
        """Forget what was learnt from the messages ``gone`` names (domain.forgetting: facts said
        only there go, others lose those sources, values they replaced come back) and keep
        ``tombstone``, so a facts job that read those messages before they were deleted learns
        nothing from them. Idempotent; one conditional write (retried on a race). Raises
        ErasureInProgressError, DependencyUnavailableError."""
        s = self._settings
        for _ in range(MAX_RACE_RETRIES):
            stored, facts = self._read(user_id)
            now = self._clock.now()
            after, changed, removed = forgetting.forget_sources(
                facts, gone, now=now, new_id=self._new_id, threshold=s.facts_merge_threshold, max_history=s.fact_history_max)
            stones = forgetting.bounded([*self._forgotten(stored), tombstone], now)
            if not (changed or removed) and forgetting.holds(self._forgotten(stored), tombstone):
                return Unlearnt(0, 0)  # done before (a retried forget)
            try:
                self._put(user_id, stored, after, stones)
            except ConcurrentUpdateError:
                continue
            logger.info("facts unlearnt", extra={"user_id": user_id, "changed": changed, "removed": removed})
            return Unlearnt(changed, removed)
        raise DependencyUnavailableError("The user's facts kept changing; retry shortly.", code="facts_busy")
