"""One turn: read the session, assemble the request, ask the model, commit exactly two rows.

The turn is two steps with the model between them, and each step is also a use case of its own
for callers that run their model themselves (API.md "Bring your own model"):

- ``context``: read the session and the user's memory, assemble the request within the budget
  (the same give-way order, overflow block, 413 rules and fact recall as a turn), write nothing;
- ``record_exchange``: commit a visitor message and the agent's reply as the next two rows, with
  the turn's idempotency, retry on a lost race, erasure refusal, per-user limit and jobs.

``take_turn`` is ``context`` -> the model -> the same commit. Ordering is by commit: a turn that
commits between a caller's context and its exchange takes the next seqs, and the exchange the
ones after it (its rows answer what the caller saw; nothing is lost or overwritten).
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Protocol, TypeVar

from pydantic import AwareDatetime, BaseModel, Field, ValidationError, field_validator

from convmem import deadline
from convmem.domain import fact_merge
from convmem.domain.context_assembly import Layers, assemble, check_message_fits, facts_budget
from convmem.domain.models import (
    ID_PATTERN,
    KNOWLEDGE_MAX_BYTES,
    KNOWLEDGE_MAX_SNIPPETS,
    KNOWLEDGE_MAX_TOKENS,
    ContextReport,
    ExchangeResult,
    Fact,
    KnowledgeSnippet,
    ModelReply,
    ModelRequest,
    Role,
    SessionState,
    TurnResult,
    check_knowledge,
    iso_utc,
    validate_id,
)
from convmem.domain.rate_limits import LimitSlot, RateLimit
from convmem.domain.summary_fold import fold_target
from convmem.errors import (
    ClientTurnIdUsedError,
    ConcurrentUpdateError,
    ConvmemError,
    DependencyUnavailableError,
    ErasureInProgressError,
    ForbiddenError,
    InvalidInputError,
    MessageTooLargeError,
    ModelConfigurationError,
    RateLimitedError,
    TurnInProgressError,
)
from convmem.observability import logger
from convmem.ports import (
    Cipher,
    Clock,
    Conversations,
    FactsJob,
    FoldJob,
    Jobs,
    Memories,
    Model,
    StoredMessage,
    TurnClaims,
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


class TurnStore(Conversations, TurnClaims, Memories, Protocol):
    """What a turn reads and writes: its session, its claim, the user's memory."""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or whitespace only")
    return value


class TurnInput(BaseModel):
    """The body of POST /v1/sessions/{sessionId}/turns."""

    message: str = Field(min_length=1, pattern=r"\S", description="What the visitor said (not blank).")
    channel: str = Field("api", pattern=r"^[a-z0-9_-]{1,32}$", description="web, api, ...")
    client_turn_id: str | None = Field(None, alias="clientTurnId", pattern=ID_PATTERN)
    knowledge: list[KnowledgeSnippet] = Field(default_factory=list, max_length=KNOWLEDGE_MAX_SNIPPETS, description=(
        f"Snippets for this turn's request only, from server-side callers (API key) only: a visitor token "
        f"that sends any gets 403. At most {KNOWLEDGE_MAX_SNIPPETS} snippets, {KNOWLEDGE_MAX_BYTES:,} bytes and "
        f"{KNOWLEDGE_MAX_TOKENS:,} tokens in all (each snippet has its own limits); beyond them 400."))

    model_config = {"populate_by_name": True, "extra": "ignore"}

    _message_not_blank = field_validator("message")(_not_blank)
    _knowledge_bounded = field_validator("knowledge")(check_knowledge)


_KNOWLEDGE_DESCRIPTION = TurnInput.model_fields["knowledge"].description
# An imported exchange's ``at`` may run ahead of this server's clock by this much (the caller's
# clock drifts); it is then stored as now, so times never run ahead of the turns that follow.
AT_CLOCK_SKEW = timedelta(seconds=60)


class ContextInput(BaseModel):
    """The body of POST /v1/sessions/{sessionId}/context."""

    message: str = Field(min_length=1, pattern=r"\S", description="What the visitor said, the message to answer (not blank).")
    knowledge: list[KnowledgeSnippet] = Field(default_factory=list, max_length=KNOWLEDGE_MAX_SNIPPETS,
                                              description=_KNOWLEDGE_DESCRIPTION)

    # A field this route does not know is refused, not ignored: it would otherwise look accepted.
    model_config = {"populate_by_name": True, "extra": "forbid"}

    _message_not_blank = field_validator("message")(_not_blank)
    _knowledge_bounded = field_validator("knowledge")(check_knowledge)


class ExchangeInput(BaseModel):
    """The body of POST /v1/sessions/{sessionId}/exchanges: one turn the caller's own model answered.

    Only the two texts: tool calls, tool results and reasoning have no field (an unknown field is
    a 400), so they never reach convmem."""

    visitor: str = Field(min_length=1, pattern=r"\S", description="What the visitor said (not blank).")
    agent: str = Field(min_length=1, pattern=r"\S", description="What the agent replied, as the visitor saw it (not blank).")
    channel: str = Field("api", pattern=r"^[a-z0-9_-]{1,32}$", description="web, api, ...")
    client_turn_id: str | None = Field(None, alias="clientTurnId", pattern=ID_PATTERN, description=(
        "Idempotency key: the same id sent again returns the first response and writes nothing more."))
    at: AwareDatetime | None = Field(None, description=(
        "When the exchange happened (ISO 8601 with an offset), to import a past conversation with its real "
        "times: not in the future, not before the session's last message. Facts learnt from it are dated from "
        "it. Absent: now."))

    model_config = {"populate_by_name": True, "extra": "forbid"}

    _texts_not_blank = field_validator("visitor", "agent")(_not_blank)

    @field_validator("at", mode="before")
    @classmethod
    def _iso_text(cls, value: object) -> object:
        # pydantic would take a number as Unix time; the contract (and the schema) says ISO 8601 text.
        if isinstance(value, int | float):
            raise ValueError("at must be ISO 8601 text with an offset, e.g. 2024-03-13T09:30:00Z")
        return value


@dataclass(frozen=True)
class AssembledContext:
    """What ``context`` returns: the request, its report, and the session state it was read from."""

    request: ModelRequest
    report: ContextReport
    state: SessionState


@dataclass(frozen=True)
class _Pair:
    """The two rows of one turn before they have seqs; ``at`` None: the moment of the commit."""

    visitor: str
    agent: str
    channel: str
    client_turn_id: str | None
    at: datetime | None = None


R = TypeVar("R", TurnResult, ExchangeResult)


class _StateHints:
    """The last state of each session this instance read or wrote (bounded, least recent out).

    An exchange right after its context commits on it without reading the session again. Only a
    hint: the commit is conditioned on the message count, so a stale hint costs one retry (the
    state is then read), never a wrong seq."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._states: OrderedDict[tuple[str, str], SessionState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, user_id: str, session_id: str) -> SessionState | None:
        with self._lock:
            return self._states.get((user_id, session_id))

    def put(self, user_id: str, session_id: str, state: SessionState) -> None:
        with self._lock:
            self._states[(user_id, session_id)] = state
            self._states.move_to_end((user_id, session_id))
            while len(self._states) > self._size:
                self._states.popitem(last=False)


@lru_cache(maxsize=1)
def _readers() -> ThreadPoolExecutor:
    """Threads for the turn's I/O that does not depend on itself: the session and user reads,
    then the two job sends."""
    return ThreadPoolExecutor(max_workers=4, thread_name_prefix="convmem-read")


class TurnService:
    def __init__(
        self,
        *,
        store: TurnStore,
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
        self._hints = _StateHints()

    def _turn_slot(self) -> LimitSlot | None:
        """The user's turn window and burst slice now (None: no per-user limit)."""
        return self._limit.slot(self._clock.now().timestamp()) if self._limit.enabled else None

    # --- the use cases ----------------------------------------------------------------------
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
        clientTurnId running), ClientTurnIdUsedError (the clientTurnId named an exchange),
        RateLimitedError (the user's turns per window or burst are spent:
        nothing written; a replay of a completed clientTurnId is not counted), DependencyUnavailableError (DeadlineExceededError when time ran
        out), ReplyBlockedError, ModelConfigurationError.
        """
        validate_id(session_id, "sessionId")
        self._check_knowledge(turn.knowledge, server_side)
        at = None if time_left_s is None else time.monotonic() + time_left_s - self._settings.turn_reserve_s
        with deadline.within(at):
            self._check_text(turn.message)
            return self._once(user_id, session_id, turn.client_turn_id, TurnResult, lambda: self._run(user_id, session_id, turn))

    def context(self, user_id: str, session_id: str, request: ContextInput, *, server_side: bool = False) -> AssembledContext:
        """The request a turn would send the model for ``request.message`` now, and its report:
        nothing is written and no reply is asked for (fact recall may embed the message, as a
        turn's does). The per-user turn limit is checked, not counted: a caller whose turns are
        spent hears so before it runs its model (its exchange would be refused).

        Raises InvalidInputError, ForbiddenError (knowledge from a visitor), MessageTooLargeError,
        ErasureInProgressError, RateLimitedError, DependencyUnavailableError.
        """
        validate_id(session_id, "sessionId")
        self._check_knowledge(request.knowledge, server_side)
        self._check_text(request.message)
        # The caller's model gets no tools of convmem's: none of the budget is kept for them.
        return self._assemble(user_id, session_id, request.message, request.knowledge, tool_tokens=0)

    def record_exchange(
        self, user_id: str, session_id: str, exchange: ExchangeInput, *, server_side: bool = True,
    ) -> ExchangeResult:
        """Store what the visitor said and what the caller's agent replied as the session's next
        two rows: one turn, committed as a turn is (same seqs rule, idempotency, limit, jobs).

        Only server-side callers (the API key) may: an agent row is what the agent said, and a
        visitor token must not be able to put words in the agent's mouth.

        Raises InvalidInputError (``at`` in the future or before the session's last message),
        ForbiddenError, MessageTooLargeError, TurnInProgressError, ErasureInProgressError,
        RateLimitedError, DependencyUnavailableError.
        """
        validate_id(session_id, "sessionId")
        if not server_side:
            raise ForbiddenError("Only server-side callers (with the API key) may record exchanges.",
                                 code="exchanges_forbidden")
        self._check_text(exchange.visitor, "visitor")
        self._check_text(exchange.agent, "agent")
        pair = _Pair(exchange.visitor, exchange.agent, exchange.channel, exchange.client_turn_id, self._imported_at(exchange.at))

        def commit() -> ExchangeResult:
            state = self._hints.get(user_id, session_id) or self._own_or_new(self._store.get_state(user_id, session_id)[0],
                                                                            user_id, session_id)
            return self._commit_pair(user_id, session_id, pair, state,
                                     lambda v, a: ExchangeResult(session_id=session_id, visitor_seq=v, agent_seq=a))

        return self._once(user_id, session_id, exchange.client_turn_id, ExchangeResult, commit)

    # --- checks ---------------------------------------------------------------------------------
    @staticmethod
    def _check_knowledge(knowledge: list[KnowledgeSnippet], server_side: bool) -> None:
        if knowledge and not server_side:
            raise ForbiddenError("Only server-side callers (with the API key) may send knowledge.", code="knowledge_forbidden")

    def _check_text(self, text: str, field: str | None = None) -> None:
        """A message within the byte limit that fits the request budget alone (MessageTooLargeError)."""
        s = self._settings
        size = len(text.encode("utf-8"))
        named = f"{field}: " if field else ""
        if size > s.max_message_bytes:
            raise MessageTooLargeError(f"{named}The message is {size} bytes; the limit is {s.max_message_bytes}.")
        try:
            check_message_fits(s.system_prompt, text, s.budget_tokens, s.reply_reserve_tokens)
        except MessageTooLargeError as exc:
            raise MessageTooLargeError(named + exc.message) from None

    def _imported_at(self, at: datetime | None) -> datetime | None:
        """``at`` in UTC at the store's precision (milliseconds); InvalidInputError in the future."""
        if at is None:
            return None
        now = self._clock.now()
        if at > now + AT_CLOCK_SKEW:
            raise InvalidInputError(f"at is in the future ({iso_utc(at)}; now is {iso_utc(now)}).", code="at_in_future")
        at = min(at.astimezone(UTC), now)
        return at.replace(microsecond=at.microsecond // 1000 * 1000)

    # --- idempotency ----------------------------------------------------------------------------
    def _once(self, user_id: str, session_id: str, client_turn_id: str | None, kind: type[R], run: Callable[[], R]) -> R:
        """``run()`` once per clientTurnId: a completed id returns its first response, one in
        progress is a TurnInProgressError; an id whose run fails is released for a retry."""
        if client_turn_id is None:
            return run()
        now = self._clock.now().timestamp()
        claim = self._store.claim_turn(user_id, session_id, client_turn_id, now, self._settings.turn_lease_seconds)
        if claim is not None:
            if claim.status == "completed" and claim.response_ciphertext:
                first = self._cipher.decrypt(
                    claim.response_ciphertext, user_id=user_id, session_id=session_id, kind=RESPONSE_KIND, ref=client_turn_id,
                )
                try:
                    return kind.model_validate_json(first)
                except ValidationError:
                    raise ClientTurnIdUsedError(
                        "This clientTurnId already named an exchange, which has no reply to return; use a new one.") from None
            raise TurnInProgressError("A turn with this clientTurnId is still in progress; retry shortly.")
        try:
            return run()
        except BaseException:
            self._store.release_turn(user_id, session_id, client_turn_id)
            raise

    # --- step 1: the context --------------------------------------------------------------------
    def _assemble(
        self, user_id: str, session_id: str, message: str, knowledge: list[KnowledgeSnippet], *, tool_tokens: int,
    ) -> AssembledContext:
        """Read the session and the user's memory (concurrently: one Query, one BatchGetItem),
        refuse an erasing or limited user, and assemble the request from the layers."""
        s = self._settings
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
        self._hints.put(user_id, session_id, state)
        summary = decrypt_summary(self._cipher, user_id, session_id, snapshot.summary_ciphertext)
        history = decrypt_messages(self._cipher, user_id, session_id, snapshot.messages)
        known = decrypt_facts(self._cipher, user_id, user_memory.facts_shards).facts
        profile = decrypt_profile(self._cipher, user_id, user_memory.profile_ciphertext)
        facts = fact_merge.recall(
            known, message, budget_tokens=facts_budget(s.memory_budget_tokens, profile), max_facts=s.facts_max_recalled,
            scores=self._embedding_scores(known, message),
        )
        request, report = assemble(
            Layers(
                system=s.system_prompt, current=message, summary=summary, knowledge=knowledge,
                profile=profile,
                facts=[(f.id, f.statement) for f in facts],
                tool_tokens=tool_tokens,
            ),
            after_cursor=history,
            window=s.window_messages,
            budget=s.budget_tokens,
            reserve=s.reply_reserve_tokens,
            give_way=s.give_way_order,
        )
        return AssembledContext(request=request, report=report, state=state)

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

    # --- the turn: context -> model -> exchange -------------------------------------------------
    def _run(self, user_id: str, session_id: str, turn: TurnInput) -> TurnResult:
        assembled = self._assemble(user_id, session_id, turn.message, turn.knowledge, tool_tokens=self._model.tool_tokens)
        answer = self._ask(session_id, assembled.request)
        report = assembled.report.model_copy(update={"reply_truncated": answer.truncated})
        turn_id = self._new_id()
        pair = _Pair(turn.message, answer.text, turn.channel, turn.client_turn_id)
        return self._commit_pair(user_id, session_id, pair, assembled.state, lambda v, a: TurnResult(
            session_id=session_id, turn_id=turn_id, reply=answer.text, visitor_seq=v, agent_seq=a, context=report))

    def _ask(self, session_id: str, request: ModelRequest) -> ModelReply:
        """The model's reply to the assembled request; any failure but ours: 503, nothing written."""
        try:
            return self._model.reply(request)
        except ConvmemError:
            raise
        except Exception as exc:  # noqa: BLE001 - any model failure: nothing is written, a retry is safe
            logger.warning("model failed", extra={"session_id": session_id, "error": type(exc).__name__})
            raise DependencyUnavailableError("The model failed; retry shortly.", code="model_unavailable") from exc

    @staticmethod
    def _own_or_new(state: SessionState | None, user_id: str, session_id: str) -> SessionState:
        """The user's state of this session, or a fresh one when they have none yet (whoever else
        has a session of this id: sessions live inside their user)."""
        return state or SessionState.new(session_id, user_id)

    # --- step 2: the exchange -------------------------------------------------------------------
    def _commit_pair(
        self, user_id: str, session_id: str, pair: _Pair, state: SessionState, respond: Callable[[int, int], R],
    ) -> R:
        """Commit the pair at the next seqs after ``state``; after a lost race, at the next free
        ones (the pair answers what its caller saw, so it is not made again), then send its jobs."""
        for attempt in range(self._settings.commit_retries):
            if pair.at is not None and state.last_at is not None and pair.at < state.last_at:
                raise InvalidInputError(
                    f"at ({iso_utc(pair.at)}) is before the session's last message ({iso_utc(state.last_at)}); import a "
                    "conversation oldest first.", code="at_before_last_message")
            try:
                result, committed = self._commit(user_id, session_id, pair, state, respond)
            except ConcurrentUpdateError:
                # Another turn of this session committed first (or the hint was stale). After a
                # jittered backoff, so that a burst spreads out instead of colliding again.
                self._sleep(random.uniform(0, min(0.2, 0.005 * 2**attempt)))
                state = self._own_or_new(self._store.get_state(user_id, session_id)[0], user_id, session_id)
                continue
            self._hints.put(user_id, session_id, committed)
            self._background_jobs(user_id, session_id, result.visitor_seq, result.agent_seq, state.summarized_through)
            return result
        raise DependencyUnavailableError(
            "The session is too busy with concurrent turns; retry shortly.", code="session_busy"
        )

    def _commit(
        self, user_id: str, session_id: str, pair: _Pair, state: SessionState, respond: Callable[[int, int], R],
    ) -> tuple[R, SessionState]:
        """Encrypt the pair at the next seqs after ``state`` and commit it with the state update;
        the response and the state after it."""
        now = self._clock.now()
        at = pair.at or now
        visitor_seq, agent_seq = state.message_count + 1, state.message_count + 2
        def row(seq: int, role: Role, text: str) -> StoredMessage:
            ciphertext = self._cipher.encrypt(text, user_id=user_id, session_id=session_id, kind=MESSAGE_KIND, ref=str(seq))
            return StoredMessage(seq=seq, role=role, channel=pair.channel, at=at, ciphertext=ciphertext)

        rows = (row(visitor_seq, "visitor", pair.visitor), row(agent_seq, "agent", pair.agent))
        result = respond(visitor_seq, agent_seq)
        response_ct = None
        if pair.client_turn_id is not None:
            response_ct = self._cipher.encrypt(
                json.dumps(result.model_dump(mode="json")), user_id=user_id, session_id=session_id,
                kind=RESPONSE_KIND, ref=pair.client_turn_id,
            )
        self._store.commit_turn(
            user_id=user_id, session_id=session_id, expected_count=state.message_count,
            messages=rows, now=now,
            client_turn_id=pair.client_turn_id, response_ciphertext=response_ct,
            turn_slot=self._turn_slot(),  # the window the commit lands in (the model may have crossed one)
            in_order=pair.at is not None,
        )
        committed = state.model_copy(update={"message_count": agent_seq, "last_at": at, "updated_at": now,
                                             "created_at": state.created_at or now})
        return result, committed

    def _background_jobs(self, user_id: str, session_id: str, visitor_seq: int, agent_seq: int, cursor: int) -> None:
        """The committed turn's facts job, and a fold job when messages stand beyond the window
        (its target comes from the state, so the next turn's job covers a lost one), sent at once."""
        jobs: list[FoldJob | FactsJob] = [FactsJob(user_id=user_id, session_id=session_id, visitor_seq=visitor_seq)]
        through = fold_target(agent_seq, cursor, self._settings.window_messages)
        if through is not None:
            jobs.append(FoldJob(session_id=session_id, user_id=user_id, through_seq=through))
        for sent in [_readers().submit(self._enqueue, job) for job in jobs]:
            sent.result()

    def _enqueue(self, job: FoldJob | FactsJob) -> None:
        """Enqueue background work for a committed turn. Never fails the turn: log ids only."""
        if self._jobs is None:
            return
        try:
            if isinstance(job, FoldJob):
                self._jobs.send_fold(job)
            else:
                self._jobs.send_facts(job)
        except Exception as exc:  # noqa: BLE001 - the turn is committed
            logger.warning("job not sent", extra={"job": type(job).__name__, "session_id": job.session_id, "error": type(exc).__name__})
