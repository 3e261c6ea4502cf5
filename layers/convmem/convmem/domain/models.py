"""The nouns of convmem. Pure pydantic, no AWS."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from convmem.domain.tokens import count_tokens
from convmem.errors import InvalidInputError

# The one definition of a user, session, fact or client-turn id (docs/api.md "Who is calling"):
# everything else that checks or describes an id is built from these.
ID_CHARS = "A-Za-z0-9._:-"
ID_MAX = 128
ID_PATTERN = rf"^[{ID_CHARS}]{{1,{ID_MAX}}}$"
ID_RULE = f"1-{ID_MAX} characters of A-Z a-z 0-9 . _ : -"
_ID_RE = re.compile(ID_PATTERN)

Role = Literal["visitor", "agent"]


def iso_utc(at: datetime) -> str:
    """``at`` as stored and answered: UTC, milliseconds, ``Z``."""
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def validate_id(value: str, what: str) -> str:
    """Return ``value`` if it is a valid user or session id (docs/api.md), else raise InvalidInputError.

    ``re.fullmatch`` with an ASCII class: Unicode look-alikes, path separators and a trailing
    newline are all refused.
    """
    if not isinstance(value, str) or not _ID_RE.fullmatch(value):
        raise InvalidInputError(
            f"{what} must be {ID_RULE}", code=f"invalid_{what}"
        )
    return value


class Message(BaseModel):
    """One stored message of a session (plaintext only in memory)."""

    model_config = ConfigDict(frozen=True)

    seq: int = Field(ge=1)
    role: Role
    text: str
    channel: str
    at: datetime


class SessionState(BaseModel):
    """The per-session state item: owner, counters, and the rolling-summary cursor."""

    model_config = ConfigDict(frozen=True)

    session_id: str
    owner: str
    message_count: int = 0
    summarized_through: int = 0
    """The cursor: highest seq folded into ``summary`` (0 when none)."""
    summary: str | None = None
    facts_through: int = 0
    """Highest seq the facts consumer has examined (its own cursor; a lost job is caught up)."""
    forgotten_seqs: frozenset[int] = frozenset()
    """Seqs of messages forgotten one by one (their rows are gone; the seqs are never used again)."""
    forget_gen: int = 0
    """Counts those forgets: a fold that read the messages before one must not write after it."""
    created_at: datetime | None = None
    updated_at: datetime | None = None
    last_at: datetime | None = None
    """When the newest message was said (its ``at``); an imported exchange may not precede it."""

    @classmethod
    def new(cls, session_id: str, owner: str) -> SessionState:
        return cls(session_id=session_id, owner=owner)

    @property
    def exists(self) -> bool:
        return self.message_count > 0


# Knowledge a server-side caller sends with one turn (docs/api.md; docs/architecture.md "Knowledge"). Bytes are
# checked before tokens, so no oversized text is ever tokenized; beyond either: 400.
KNOWLEDGE_MAX_SNIPPETS = 20
SNIPPET_SOURCE_MAX_CHARS = 256
SNIPPET_MAX_BYTES = 16_000
SNIPPET_MAX_TOKENS = 4_000
KNOWLEDGE_MAX_BYTES = 64_000
KNOWLEDGE_MAX_TOKENS = 16_000
# Words kept of what surrounds a learnt fact (FactCandidate.context).
CONTEXT_MAX_CHARS = 200


def _utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


class KnowledgeSnippet(BaseModel):
    """One knowledge snippet for one turn's request (never stored)."""

    source: str = Field(min_length=1, max_length=SNIPPET_SOURCE_MAX_CHARS,
                        description=f"Where the text comes from (1-{SNIPPET_SOURCE_MAX_CHARS} characters).")
    text: str = Field(min_length=1, max_length=SNIPPET_MAX_BYTES, description=(
        f"The snippet: at most {SNIPPET_MAX_BYTES:,} bytes (UTF-8) and {SNIPPET_MAX_TOKENS:,} tokens."))
    _tokens: int = PrivateAttr(0)

    @field_validator("text")
    @classmethod
    def _bounded(cls, text: str) -> str:
        size = _utf8_bytes(text)
        if size > SNIPPET_MAX_BYTES:
            raise ValueError(f"a snippet's text is at most {SNIPPET_MAX_BYTES} bytes (UTF-8); this one is {size}")
        return text

    @model_validator(mode="after")
    def _tokens_bounded(self) -> KnowledgeSnippet:
        self._tokens = count_tokens(self.text)
        if self._tokens > SNIPPET_MAX_TOKENS:
            raise ValueError(f"a snippet's text is at most {SNIPPET_MAX_TOKENS} tokens; this one is {self._tokens}")
        return self

    @property
    def tokens(self) -> int:
        """Tokens of ``text``, counted once when the snippet was validated."""
        return self._tokens


def check_knowledge(snippets: list[KnowledgeSnippet]) -> list[KnowledgeSnippet]:
    """The whole list within its limits (each snippet already is), else ValueError (a 400)."""
    size = sum(_utf8_bytes(k.text) + _utf8_bytes(k.source) for k in snippets)
    if size > KNOWLEDGE_MAX_BYTES:
        raise ValueError(f"the knowledge list is at most {KNOWLEDGE_MAX_BYTES} bytes (UTF-8) in all; this one is {size}")
    tokens = sum(k.tokens for k in snippets)
    if tokens > KNOWLEDGE_MAX_TOKENS:
        raise ValueError(f"the knowledge list is at most {KNOWLEDGE_MAX_TOKENS} tokens in all; this one is {tokens}")
    return snippets


class ContextMessage(BaseModel):
    """One message as it goes into the model request."""

    model_config = ConfigDict(frozen=True)

    role: Role
    text: str
    seq: int | None = None
    """The message's seq in its session (None for a message not stored, e.g. in a test)."""


class ModelRequest(BaseModel):
    """Exactly what is sent to the model for one turn."""

    model_config = ConfigDict(frozen=True)

    system: str
    profile: str | None = None
    facts: list[str] = Field(default_factory=list)
    summary: str | None = None
    knowledge: list[KnowledgeSnippet] = Field(default_factory=list)
    overflow: str | None = None
    """This turn's compressed block of history that gave way (never stored)."""
    history: list[ContextMessage]
    current: str


class ContextReport(BaseModel):
    """What a turn's request held (docs/api.md ``context``)."""

    budget_tokens: int
    request_tokens: int
    window_messages: int
    pending_messages: int
    summary_tokens: int
    compressed_messages: int = 0
    omitted_messages: int = 0
    """Messages only mentioned by range in the overflow block (the block could not hold more)."""
    fact_ids: list[str] = Field(default_factory=list)
    profile: bool = False
    knowledge: int = 0
    gave_way: list[str] = Field(default_factory=list)
    """What gave way to fit the budget, in order (history compressed, snippets, facts, profile)."""
    reply_truncated: bool = False
    """The model stopped at the reply's token limit (``max_tokens``): the reply is cut short."""


class FactSource(BaseModel):
    """Where a fact was said: which session, which message, on which channel, when."""

    model_config = ConfigDict(frozen=True)

    session_id: str
    seq: int = Field(ge=1)
    channel: str
    at: datetime


class FactCandidate(BaseModel):
    """What extraction proposes from one visitor message, before the merge decides."""

    model_config = ConfigDict(frozen=True)

    key: str = Field(min_length=1, max_length=80)
    """Slot, e.g. ``name``, ``home.location``, ``contact.email``, ``language``, ``preference.<topic>``."""
    value: str = Field(min_length=1, max_length=300)
    """The slot's value in a canonical form (compared when merging)."""
    statement: str = Field(min_length=1, max_length=400)
    """How the fact reads in a request, e.g. "Lives in Busan"."""
    when: str | None = Field(None, max_length=20, pattern=r"^\d{4}(-\d{2}(-\d{2})?|-W\d{2})?$")
    """When what it tells happened or will happen, resolved against when it was said:
    ``2023-05-07``, ``2023-W18`` (a week), ``2023-05``, ``2023``; None when it names no time."""
    context: str = Field("", max_length=CONTEXT_MAX_CHARS)
    """Words of the message around the statement that it does not say itself: the question it
    answers, the other sentences of the message ("How was Jeju?" / "Climbed Hallasan with Mum").
    Searched by recall, never sent: a fact is found by what it was said about."""


class FactVersion(BaseModel):
    """A value a fact held before, and when it stopped being true."""

    model_config = ConfigDict(frozen=True)

    statement: str
    value: str
    source: FactSource
    replaced_at: datetime
    when: str | None = None
    """The value's ``when`` (FactCandidate.when), so a value that comes back keeps it."""
    when_from: FactSource | None = None
    """As ``Fact.when_from``: the message that said ``when``, when it is not ``source``."""
    earlier: list[FactVersion] = Field(default_factory=list)
    """Other messages that said this value (restatements, the wordings a richer one replaced):
    its provenance, so forgetting one of them leaves the value to the others (domain.forgetting)."""
    context: str = ""
    """The words around this wording where it was said (FactCandidate.context)."""


class Fact(BaseModel):
    """A durable fact about the person: one current value per slot, with its history."""

    model_config = ConfigDict(frozen=True)

    id: str
    key: str
    statement: str
    value: str
    source: FactSource
    """Where the current value was said."""
    confirmed_by: FactSource | None = None
    """The latest restatement of the current value (it only touched ``updated_at``)."""
    created_at: datetime
    updated_at: datetime
    history: list[FactVersion] = Field(default_factory=list)
    when: str | None = None
    """When what it tells happened (FactCandidate.when); dated facts answer "when did I ..."."""
    embedding: str | None = None
    """The statement's embedding (domain.vectors.quantize), when the model embeds; None until then."""
    when_from: FactSource | None = None
    """The message that said ``when``, when it is not ``source`` (a richer wording without a time)."""
    context: str = ""
    """Words around the current wording where it was said (FactCandidate.context): searched, never sent."""
    earlier: list[FactVersion] = Field(default_factory=list)
    """Other messages that said the current value: restatements and the wordings a richer one
    replaced, in the order merged (bounded like ``history``). With ``source`` and
    ``history`` they are every message the fact was learnt from (domain.forgetting replays them)."""


class Forgotten(BaseModel):
    """A tombstone: what was forgotten must not be learnt again from the same message (a facts job
    that read it before the forget, a redelivered job, a re-extraction). Told again in a new
    message, it is learnt again. It holds no wording: a slot key and a hash of the value at most.

    ``seq`` > 0: that message (``at`` its time: a session id used again later is another session).
    ``seq`` 0: every message of the session said from ``since`` through ``at``. ``key`` or
    ``value_hash`` set: only candidates of that slot or value are refused (one fact forgotten);
    neither: every candidate from the message (the message itself forgotten)."""

    model_config = ConfigDict(frozen=True)

    session_id: str
    seq: int = 0
    at: datetime
    since: datetime | None = None
    key: str | None = None
    value_hash: str | None = None
    made_at: datetime | None = None
    """When the tombstone was written (its expiry, for one whose messages are gone, runs from it)."""


class FactSet(BaseModel):
    """Everything held on a user's facts: one encrypted document (see the store). Shard 0 also
    carries the tombstones of forgotten facts (``forgotten``)."""

    facts: list[Fact] = Field(default_factory=list)
    forgotten: list[Forgotten] = Field(default_factory=list)


class ModelReply(BaseModel):
    """The agent's answer as the model gave it: the text only (no reasoning, no tool traffic)."""

    text: str
    truncated: bool = False
    """Cut at the reply's token limit."""


class TurnResult(BaseModel):
    session_id: str
    turn_id: str
    reply: str
    visitor_seq: int
    agent_seq: int
    context: ContextReport


class ExchangeResult(BaseModel):
    """Where one exchange (a visitor message and the agent's reply) was stored."""

    session_id: str
    visitor_seq: int
    agent_seq: int


class SessionSummary(BaseModel):
    session_id: str
    message_count: int
    created_at: datetime
    updated_at: datetime
