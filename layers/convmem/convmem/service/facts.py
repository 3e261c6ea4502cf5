"""Durable facts: extracted from what the visitor says (off the turn path), merged into the user's
one facts document with conditional writes, listed and forgotten through the API."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from convmem.domain import fact_merge, vectors
from convmem.domain.models import Fact, FactCandidate, FactSet, FactSource, validate_id
from convmem.errors import ConcurrentUpdateError, DependencyUnavailableError, KeyDestroyedError, NotFoundError
from convmem.observability import logger
from convmem.ports import Cipher, Clock, FactsJob, Model, Store, erasure_blocks
from convmem.service.stored import MESSAGE_KIND, decrypt_facts, encrypt_facts
from convmem.settings import Settings

MAX_RACE_RETRIES = 8
# The facts document stays far below DynamoDB's 400 KB item limit (ciphertext adds ~0.4 KB).
MAX_DOCUMENT_BYTES = 300_000
EMBEDDINGS_PER_JOB = 20
# Messages one job examines at most; a longer backlog is finished by the session's next jobs.
MAX_CATCH_UP = 40


@dataclass(frozen=True)
class FactsOutcome:
    user_id: str
    candidates: int
    actions: tuple[str, ...] = ()


class FactsService:
    def __init__(
        self, *, store: Store, cipher: Cipher, model: Model, clock: Clock, settings: Settings,
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
        state, _ = self._store.get_state(job.session_id)
        if state is None or state.owner != job.user_id:
            return FactsOutcome(job.user_id, 0)  # the session was forgotten, or is not theirs
        if erasure_blocks(*self._store.get_erasure(job.user_id), self._clock.now()):
            return FactsOutcome(job.user_id, 0)  # being erased: learn nothing, write nothing back
        start = state.facts_through
        high = min(job.visitor_seq, state.message_count, start + MAX_CATCH_UP)
        if high <= start:
            return FactsOutcome(job.user_id, 0)  # already examined
        visitor = [m for m in self._store.messages_between(job.session_id, start + 1, high) if m.role == "visitor"]
        learnt: list[tuple[FactCandidate, FactSource]] = []
        try:
            for m in visitor:
                text = self._cipher.decrypt(m.ciphertext, user_id=job.user_id, session_id=job.session_id,
                                            kind=MESSAGE_KIND, ref=str(m.seq))
                source = FactSource(session_id=job.session_id, seq=m.seq, channel=m.channel, at=m.at)
                learnt.extend((c, source) for c in self._model.extract_facts(text, said_at=m.at))
        except KeyDestroyedError:
            return FactsOutcome(job.user_id, 0)  # the user was erased meanwhile: nothing to learn, nothing to mark
        actions = self._merge(job.user_id, learnt) if learnt else ()
        try:
            self._store.advance_facts_cursor(job.session_id, old=start, new=high)
        except ConcurrentUpdateError:
            pass  # another job examined these too; the merge made that harmless
        self._store.mark_active(job.user_id, self._clock.now())
        return FactsOutcome(job.user_id, len(learnt), actions)

    def _merge(self, user_id: str, learnt: list[tuple[FactCandidate, FactSource]]) -> tuple[str, ...]:
        s = self._settings
        embedded: dict[str, str] = {}  # statement -> vector, kept across race retries
        for _ in range(MAX_RACE_RETRIES):
            version, ct = self._store.get_facts(user_id)
            facts = decrypt_facts(self._cipher, user_id, ct).facts
            now = self._clock.now()
            actions = []
            for candidate, source in learnt:
                try:
                    result = fact_merge.merge(
                        facts, candidate, source, now=now, new_id=self._new_id, threshold=s.facts_merge_threshold,
                        max_facts=s.facts_max_per_user, max_history=s.fact_history_max,
                    )
                except ValueError:  # a slot key that is not one: the candidate is dropped
                    actions.append("invalid")
                    continue
                facts = result.facts
                actions.append(result.action)
            if not any(a in ("created", "updated", "confirmed", "reworded", "history") for a in actions):
                return tuple(actions)
            if "full" in actions:
                logger.warning("facts full", extra={"user_id": user_id, "facts": len(facts)})
            facts = self._with_embeddings(facts, embedded)
            try:
                self._put(user_id, version, facts)
                return tuple(actions)
            except ConcurrentUpdateError:
                continue  # another job merged first: merge into what it wrote
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

    def _put(self, user_id: str, version: int, facts: list[Fact]) -> None:
        document = FactSet(facts=facts)
        while len(document.model_dump_json()) > MAX_DOCUMENT_BYTES and any(f.history for f in document.facts):
            # Bound the item: the oldest history entry anywhere goes first (current values never).
            oldest = min((f for f in document.facts if f.history), key=lambda f: f.history[0].source.at)
            document = FactSet(facts=[
                f.model_copy(update={"history": f.history[1:]}) if f.id == oldest.id else f for f in document.facts
            ])
            logger.warning("fact history trimmed", extra={"user_id": user_id})
        self._store.put_facts(
            user_id, expected_version=version, ciphertext=encrypt_facts(self._cipher, user_id, document),
            count=len(document.facts), now=self._clock.now(),
        )

    # --- the API -----------------------------------------------------------------------------
    def list_facts(self, user_id: str) -> list[Fact]:
        """The user's current facts, most recently updated first."""
        facts = decrypt_facts(self._cipher, user_id, self._store.load_user_memory(user_id).facts_ciphertext).facts
        return sorted(facts, key=lambda f: f.updated_at, reverse=True)

    def forget(self, user_id: str, fact_id: str) -> None:
        """Remove one fact and its history; the next turn no longer recalls it. NotFoundError if absent."""
        validate_id(fact_id, "factId")
        for _ in range(MAX_RACE_RETRIES):
            version, ct = self._store.get_facts(user_id)
            facts = decrypt_facts(self._cipher, user_id, ct).facts
            kept = [f for f in facts if f.id != fact_id]
            if len(kept) == len(facts):
                raise NotFoundError("No such fact.", code="fact_not_found")
            try:
                self._put(user_id, version, kept)
                return
            except ConcurrentUpdateError:
                continue
        raise DependencyUnavailableError("The user's facts kept changing; retry shortly.", code="facts_busy")
