"""One turn: read the session, assemble the request, ask the model, commit exactly two rows."""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from pydantic import BaseModel, Field, field_validator

from convmem import deadline
from convmem.domain import fact_merge
from convmem.domain.context_assembly import Layers, assemble, check_message_fits
from convmem.domain.models import (
    KNOWLEDGE_MAX_BYTES,
    KNOWLEDGE_MAX_SNIPPETS,
    KNOWLEDGE_MAX_TOKENS,
    ContextReport,
    Fact,
    KnowledgeSnippet,
    SessionState,
    TurnResult,
    check_knowledge,
    validate_id,
)
from convmem.domain.rate_limits import LimitSlot, RateLimit
from convmem.domain.summary_fold import fold_target
from convmem.errors import (
    ConcurrentUpdateError,
    ConvmemError,
    DependencyUnavailableError,
    ErasureInProgressError,
    ForbiddenError,
    MessageTooLargeError,
    ModelConfigurationError,
    RateLimitedError,
    TurnInProgressError,
)
from convmem.observability import logger
from convmem.ports import (
    Cipher,
    Clock,
    FactsJob,
    FoldJob,
    Jobs,
    Model,
    SessionSnapshot,
    Store,
    StoredMessage,
    UserMemory,
)
from convmem.service.stored import (
    MESSAGE_KIND,
    RESPONSE_KIND,
    decrypt_facts,
    decrypt_messages,
    decrypt_profile,
    decrypt_summary,
)
from convmem.settings import Settings


class TurnInput(BaseModel):
    """The body of POST /v1/sessions/{sessionId}/turns."""

    message: str = Field(min_length=1, pattern=r"\S", description="What the visitor said (not blank).")
    channel: str = Field("api", pattern=r"^[a-z0-9_-]{1,32}$", description="web, api, ...")
    client_turn_id: str | None = Field(None, alias="clientTurnId", pattern=r"^[A-Za-z0-9._:-]{1,128}$")
    knowledge: list[KnowledgeSnippet] = Field(default_factory=list, max_length=KNOWLEDGE_MAX_SNIPPETS, description=(
        f"Snippets for this turn's request only, from server-side callers (API key) only: a visitor token "
        f"that sends any gets 403. At most {KNOWLEDGE_MAX_SNIPPETS} snippets, {KNOWLEDGE_MAX_BYTES:,} bytes and "
        f"{KNOWLEDGE_MAX_TOKENS:,} tokens in all (each snippet has its own limits); beyond them 400."))

    model_config = {"populate_by_name": True, "extra": "ignore"}

    @field_validator("message")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("message must not be empty or whitespace only")
        return value

    _knowledge_bounded = field_validator("knowledge")(check_knowledge)


@lru_cache(maxsize=1)
def _readers() -> ThreadPoolExecutor:
    """Threads for the turn's I/O that does not depend on itself: the session and user reads,
    then the two job sends."""
    return ThreadPoolExecutor(max_workers=4, thread_name_prefix="convmem-read")


class TurnService:
    def __init__(
        self,
        *,
        store: Store,
        cipher: Cipher,
        model: Model,
        clock: Clock,
        settings: Settings,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
        jobs: Jobs | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._store = store
        self._cipher = cipher
        self._model = model
        self._clock = clock
        self._settings = settings
        self._new_id = new_id
        self._jobs = jobs
        self._sleep = sleep
        self._limit = RateLimit("turns", settings.turn_limit, settings.turn_limit_window_s,
                                settings.turn_burst_limit, settings.limit_burst_s)

    def _turn_slot(self) -> LimitSlot | None:
        """The user's turn window and burst slice now (None: no per-user limit)."""
        return self._limit.slot(self._clock.now().timestamp()) if self._limit.enabled else None

    def take_turn(
        self, user_id: str, session_id: str, turn: TurnInput, *, server_side: bool = False, time_left_s: float | None = None,
    ) -> TurnResult:
        """Run one turn and return the reply with its context report.

        ``server_side``: the caller holds the API key; only such a caller may send knowledge.
        ``time_left_s`` is the function's remaining time (the Lambda context's): the model's work
        ends ``turn_reserve_s`` before it, so the turn always has time to commit, or to give up,
        release its clientTurnId and answer. None (no Lambda): the model's own deadline only.

        Raises InvalidInputError, ForbiddenError (knowledge from a visitor), MessageTooLargeError
        (nothing written), NotFoundError (someone else's session), TurnInProgressError (same
        clientTurnId running), RateLimitedError (the user's turns per window or burst are spent:
        nothing written; a replay of a completed clientTurnId is not counted), DependencyUnavailableError (DeadlineExceededError when time ran
        out), ReplyBlockedError, ModelConfigurationError.
        """
        validate_id(session_id, "sessionId")
        if turn.knowledge and not server_side:
            raise ForbiddenError("Only server-side callers (with the API key) may send knowledge.", code="knowledge_forbidden")
        at = None if time_left_s is None else time.monotonic() + time_left_s - self._settings.turn_reserve_s
        with deadline.within(at):
            return self._take_turn(user_id, session_id, turn)

    def _take_turn(self, user_id: str, session_id: str, turn: TurnInput) -> TurnResult:
        s = self._settings
        size = len(turn.message.encode("utf-8"))
        if size > s.max_message_bytes:
            raise MessageTooLargeError(f"The message is {size} bytes; the limit is {s.max_message_bytes}.")
        check_message_fits(s.system_prompt, turn.message, s.budget_tokens, s.reply_reserve_tokens)

        if turn.client_turn_id is None:
            return self._run(user_id, session_id, turn)
        now = self._clock.now().timestamp()
        claim = self._store.claim_turn(user_id, session_id, turn.client_turn_id, now, s.turn_lease_seconds)
        if claim is not None:
            if claim.status == "completed" and claim.response_ciphertext:
                return TurnResult.model_validate_json(
                    self._cipher.decrypt(
                        claim.response_ciphertext, user_id=user_id, session_id=session_id,
                        kind=RESPONSE_KIND, ref=turn.client_turn_id,
                    )
                )
            raise TurnInProgressError("A turn with this clientTurnId is still in progress; retry shortly.")
        try:
            return self._run(user_id, session_id, turn)
        except BaseException:
            self._store.release_turn(user_id, session_id, turn.client_turn_id)
            raise

    def _run(self, user_id: str, session_id: str, turn: TurnInput) -> TurnResult:
        slot = self._turn_slot()  # its counter is read with the user's memory: no extra call
        memory = _readers().submit(self._store.load_user_memory, user_id, slot)  # concurrently with the session
        snapshot = self._store.load_session(user_id, session_id)
        user_memory = memory.result()
        if user_memory.erasure_blocks(self._clock.now()):
            raise ErasureInProgressError("This user's data is being erased; a new conversation can start in a minute.")
        if slot is not None and slot.refuses(user_memory.turns_counted):
            # Refused before the model is asked: a caller over its limit costs one read, not a reply.
            # The commit's conditional count is what holds under concurrency; this only saves the work.
            retry = slot.retry_after(user_memory.turns_counted, self._clock.now().timestamp())
            raise RateLimitedError(f"Too many turns for this user; retry in {retry} s.", retry_after_s=retry)
        state = self._own_or_new(snapshot.state, user_id, session_id)
        reply, report = self._reply(user_id, session_id, turn, snapshot, user_memory)
        turn_id = self._new_id()
        for attempt in range(self._settings.commit_retries):
            try:
                result = self._commit(user_id, session_id, turn, state, reply, report, turn_id)
                self._background_jobs(user_id, session_id, result, state.summarized_through)
                return result
            except ConcurrentUpdateError:
                # Another turn of this session committed first. The reply answers what this
                # visitor saw, so it is not asked again: the pair moves to the next free seqs,
                # after a jittered backoff so that a burst spreads out instead of colliding again.
                self._sleep(random.uniform(0, min(0.2, 0.005 * 2**attempt)))
                state = self._own_or_new(self._store.get_state(user_id, session_id)[0], user_id, session_id)
        raise DependencyUnavailableError(
            "The session is too busy with concurrent turns; retry shortly.", code="session_busy"
        )

    @staticmethod
    def _own_or_new(state: SessionState | None, user_id: str, session_id: str) -> SessionState:
        """The user's state of this session, or a fresh one when they have none yet (whoever else
        has a session of this id: sessions live inside their user)."""
        return state or SessionState.new(session_id, user_id)

    def _reply(
        self, user_id: str, session_id: str, turn: TurnInput, snapshot: SessionSnapshot, memory: UserMemory
    ) -> tuple[str, ContextReport]:
        """Assemble the request from the snapshot's and the user's layers and ask the model."""
        s = self._settings
        summary = decrypt_summary(self._cipher, user_id, session_id, snapshot.summary_ciphertext)
        history = decrypt_messages(self._cipher, user_id, session_id, snapshot.messages)
        known = decrypt_facts(self._cipher, user_id, memory.facts_shards).facts
        facts = fact_merge.recall(
            known, turn.message, budget_tokens=s.facts_budget_tokens, max_facts=s.facts_max_recalled,
            scores=self._embedding_scores(known, turn.message),
        )
        request, report = assemble(
            Layers(
                system=s.system_prompt, current=turn.message, summary=summary, knowledge=turn.knowledge,
                profile=decrypt_profile(self._cipher, user_id, memory.profile_ciphertext),
                facts=[(f.id, f.statement) for f in facts],
                tool_tokens=self._model.tool_tokens,
            ),
            after_cursor=history,
            window=s.window_messages,
            budget=s.budget_tokens,
            reserve=s.reply_reserve_tokens,
            give_way=s.give_way_order,
        )
        try:
            answer = self._model.reply(request)
            return answer.text, report.model_copy(update={"reply_truncated": answer.truncated})
        except ConvmemError:
            raise
        except Exception as exc:  # noqa: BLE001 - any model failure: nothing is written, a retry is safe
            logger.warning("model failed", extra={"session_id": session_id, "error": type(exc).__name__})
            raise DependencyUnavailableError("The model failed; retry shortly.", code="model_unavailable") from exc

    def _embedding_scores(self, facts: list[Fact], message: str) -> list[float] | None:
        """Similarity of each fact to the message when the model embeds and every fact has a
        vector; None (lexical recall) otherwise, or when the embedding call fails."""
        if not facts or any(f.embedding is None for f in facts):
            return None
        try:
            with deadline.within(time.monotonic() + self._settings.recall_embed_max_s):
                vectors = self._model.embed([message])
        except (DependencyUnavailableError, ModelConfigurationError) as exc:
            logger.warning("message embedding failed; lexical recall", extra={"facts": len(facts), "code": exc.code})
            return None
        return fact_merge.embedding_scores(facts, vectors[0], self._settings.recall_min_similarity) if vectors else None

    def _commit(
        self, user_id: str, session_id: str, turn: TurnInput, state: SessionState,
        reply: str, report: ContextReport, turn_id: str,
    ) -> TurnResult:
        """Encrypt the pair at the next seqs after ``state`` and commit it with the state update."""
        now = self._clock.now()
        visitor_seq, agent_seq = state.message_count + 1, state.message_count + 2
        rows = tuple(
            StoredMessage(
                seq=seq, role=role, channel=turn.channel, at=now,
                ciphertext=self._cipher.encrypt(text, user_id=user_id, session_id=session_id, kind=MESSAGE_KIND, ref=str(seq)),
            )
            for seq, role, text in ((visitor_seq, "visitor", turn.message), (agent_seq, "agent", reply))
        )
        result = TurnResult(
            session_id=session_id, turn_id=turn_id, reply=reply,
            visitor_seq=visitor_seq, agent_seq=agent_seq, context=report,
        )
        response_ct = None
        if turn.client_turn_id is not None:
            response_ct = self._cipher.encrypt(
                json.dumps(result.model_dump(mode="json")), user_id=user_id, session_id=session_id,
                kind=RESPONSE_KIND, ref=turn.client_turn_id,
            )
        self._store.commit_turn(
            user_id=user_id, session_id=session_id, expected_count=state.message_count,
            messages=rows, now=now,  # type: ignore[arg-type]
            client_turn_id=turn.client_turn_id, response_ciphertext=response_ct,
            turn_slot=self._turn_slot(),  # the window the commit lands in (the model may have crossed one)
        )
        return result

    def _background_jobs(self, user_id: str, session_id: str, result: TurnResult, cursor: int) -> None:
        """The committed turn's facts job, and a fold job when messages stand beyond the window
        (its target comes from the state, so the next turn's job covers a lost one), sent at once."""
        jobs: list[FoldJob | FactsJob] = [FactsJob(user_id=user_id, session_id=session_id, visitor_seq=result.visitor_seq)]
        through = fold_target(result.agent_seq, cursor, self._settings.window_messages)
        if through is not None:
            jobs.append(FoldJob(session_id=session_id, user_id=user_id, through_seq=through))
        for sent in [_readers().submit(self._enqueue, job) for job in jobs]:
            sent.result()

    def _enqueue(self, job: FoldJob | FactsJob) -> None:
        """Enqueue background work for a committed turn. Never fails the turn: log ids only."""
        if self._jobs is None:
            return
        try:
            (self._jobs.send_fold if isinstance(job, FoldJob) else self._jobs.send_facts)(job)
        except Exception as exc:  # noqa: BLE001 - the turn is committed
            logger.warning("job not sent", extra={"job": type(job).__name__, "session_id": job.session_id, "error": type(exc).__name__})
