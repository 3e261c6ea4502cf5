"""Durable facts: extracted from what the visitor says (off the turn path), merged into the user's
one facts document with conditional writes, listed and forgotten through the API."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from convmem.domain import fact_merge, vectors
from convmem.domain.models import Fact, FactSet, FactSource, validate_id
from convmem.errors import ConcurrentUpdateError, DependencyUnavailableError, KeyDestroyedError, NotFoundError
from convmem.observability import logger
from convmem.ports import Cipher, Clock, FactsJob, Model, Store
from convmem.service.stored import MESSAGE_KIND, decrypt_facts, encrypt_facts
from convmem.settings import Settings

MAX_RACE_RETRIES = 8
# The facts document stays far below DynamoDB's 400 KB item limit (ciphertext adds ~0.4 KB).
MAX_DOCUMENT_BYTES = 300_000
EMBEDDINGS_PER_JOB = 20


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
        """Extract facts from the visitor message the job names and merge them.

        Idempotent: a duplicate or late job changes nothing (the merge knows each fact's
        sources and orders values by when they were said). The message is decrypted under the
        job's user, so a job naming someone else's session fails instead of leaking.
        Raises DependencyUnavailableError (the job goes back to the queue).
        """
        stored = self._store.get_message(job.session_id, job.visitor_seq)
        if stored is None or stored.role != "visitor":
            return FactsOutcome(job.user_id, 0)  # the session was forgotten, or a wrong seq: nothing to learn
        try:
            text = self._cipher.decrypt(
                stored.ciphertext, user_id=job.user_id, session_id=job.session_id, kind=MESSAGE_KIND, ref=str(stored.seq)
            )
        except KeyDestroyedError:
            return FactsOutcome(job.user_id, 0)  # the user was erased meanwhile: nothing to learn, nothing to mark
        candidates = self._model.extract_facts(text)
        source = FactSource(session_id=job.session_id, seq=stored.seq, channel=stored.channel, at=stored.at)
        actions = self._merge(job.user_id, candidates, source) if candidates else ()
        self._store.mark_active(job.user_id, self._clock.now())
        return FactsOutcome(job.user_id, len(candidates), actions)

    def _merge(self, user_id: str, candidates: list, source: FactSource) -> tuple[str, ...]:
        s = self._settings
        embedded: dict[str, str] = {}  # statement -> vector, kept across race retries
        for _ in range(MAX_RACE_RETRIES):
            version, ct = self._store.get_facts(user_id)
            facts = decrypt_facts(self._cipher, user_id, ct).facts
            now = self._clock.now()
            actions = []
            for candidate in candidates:
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
