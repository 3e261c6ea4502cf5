"""Every knob of convmem, read once from the environment.

Each field names its environment variable (upper-case field name with the ``CONVMEM_``
prefix unless an alias is given). Its docstring is its documentation: the table of
``docs/operations.md`` is generated from this class (``make docs``).
"""

from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

# Variables an earlier release read, and what replaced them.
RENAMED = {
    "CONVMEM_FACTS_BUDGET_TOKENS": "CONVMEM_MEMORY_BUDGET_TOKENS (the profile and the recalled facts together; the facts "
                                   "take what the profile leaves)",
}


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, use_attribute_docstrings=True)

    # --- resources (names come from template.yaml through the function's environment)
    table_name: str = Field("convmem-conversations", alias="CONVERSATION_TABLE")
    """DynamoDB table holding messages, session state and user items."""
    key_store_table_name: str = Field("convmem-branch-keys", alias="KEY_STORE_TABLE")
    """DynamoDB table of the hierarchical keyring's key store (one branch key per user)."""
    kms_key_arn: str = Field("", alias="KMS_KEY_ARN")
    """The one KMS key that wraps every branch key."""
    fold_queue_url: str = Field("", alias="FOLD_QUEUE_URL")
    """SQS FIFO queue of fold jobs (empty: the turn path sends none)."""
    facts_queue_url: str = Field("", alias="FACTS_QUEUE_URL")
    """SQS FIFO queue of facts jobs (empty: the turn path sends none)."""
    erase_queue_url: str = Field("", alias="ERASE_QUEUE_URL")
    """SQS FIFO queue that finishes erasures too large for one request."""
    profile_queue_url: str = Field("", alias="PROFILE_QUEUE_URL")
    """SQS queue of profile jobs: the schedule's tick enqueues every due user, the worker refreshes them."""
    token_secret_id: str = Field("", alias="TOKEN_SECRET_ID")
    """Secrets Manager secret holding the HMAC key that signs visitor tokens."""
    api_key_secret_id: str = Field("", alias="API_KEY_SECRET_ID")
    """Secrets Manager secret holding the server-side callers' API key."""

    # --- conversation layers
    window_messages: int = Field(12, alias="CONVMEM_WINDOW_MESSAGES", ge=2, le=200)
    """Verbatim window: how many of the latest messages go into the request word for word."""
    summary_cap_tokens: int = Field(400, alias="CONVMEM_SUMMARY_CAP_TOKENS", ge=50)
    """Cap of the rolling session summary (used by folding)."""
    budget_tokens: int = Field(8000, alias="CONVMEM_BUDGET_TOKENS", ge=256)
    """Request budget: tokens of one model request, prompt and reply reserve together."""
    reply_reserve_tokens: int = Field(1024, alias="CONVMEM_REPLY_RESERVE_TOKENS", ge=0)
    """Part of the request budget kept free for the model's reply."""
    give_way_order: tuple[str, ...] = Field(("history", "knowledge", "facts", "profile"), alias="CONVMEM_GIVE_WAY_ORDER")
    """Which layers give way first when a request does not fit (comma-separated). The system prompt
    and the current message never give way; the summary is kept whole and goes only as the very last resort."""
    max_message_bytes: int = Field(100_000, alias="CONVMEM_MAX_MESSAGE_BYTES", ge=1)
    """Byte limit of one message (UTF-8) so items stay far below DynamoDB's 400 KB."""
    system_prompt: str = Field(
        "You are a helpful assistant. Use the conversation so far to answer.",
        alias="CONVMEM_SYSTEM_PROMPT",
    )
    """The system prompt, first in every request (never gives way)."""

    memory_budget_tokens: int = Field(1000, alias="CONVMEM_MEMORY_BUDGET_TOKENS", ge=0)
    """Most tokens the person's memory takes in one request: the profile and the recalled facts, as
    sent. The facts take what the profile leaves (docs/benchmarks.md: why 1,000)."""
    facts_max_recalled: int = Field(60, alias="CONVMEM_FACTS_MAX_RECALLED", ge=0, le=200)
    """Facts: most facts recalled into one request (the most relevant first)."""
    facts_merge_threshold: float = Field(0.6, alias="CONVMEM_FACTS_MERGE_THRESHOLD", gt=0, le=1)
    """Facts: similarity (term overlap) above which two wordings are the same fact."""
    facts_max_per_user: int = Field(2500, alias="CONVMEM_FACTS_MAX_PER_USER", ge=1, le=10_000)
    """Facts kept per user; beyond it the oldest told facts are compacted into monthly digests
    (identity and contact never), so what is new always gets in."""
    facts_max_per_message: int = Field(8, alias="CONVMEM_FACTS_MAX_PER_MESSAGE", ge=1, le=50)
    """Facts: most facts one visitor message adds or changes (identity and contact first, the rest counted)."""
    facts_shards: int = Field(8, alias="CONVMEM_FACTS_SHARDS", ge=1, le=10)
    """Facts: items the user's facts are split over (each under 350 KB; a merge may write them all in one
    4 MB transaction, hence at most 10), all read in the turn's one
    BatchGetItem. Raise it only upwards: facts in shards beyond a lowered value are not read."""
    fact_history_max: int = Field(10, alias="CONVMEM_FACT_HISTORY_MAX", ge=0, le=100)
    """Facts: earlier values kept per fact, the oldest dropped first."""
    profile_cap_tokens: int = Field(150, alias="CONVMEM_PROFILE_CAP_TOKENS", ge=20)
    """Profile: cap of the short profile."""
    profile_recent_sessions: int = Field(5, alias="CONVMEM_PROFILE_RECENT_SESSIONS", ge=1, le=50)
    """Profile: how many of the user's latest sessions a refresh reads."""
    profile_recent_messages: int = Field(40, alias="CONVMEM_PROFILE_RECENT_MESSAGES", ge=2, le=400)
    """Profile: how many of each of those sessions' latest messages a refresh reads (visitor messages used)."""
    profile_due_shards: int = Field(4, alias="CONVMEM_PROFILE_DUE_SHARDS", ge=1, le=64)
    """Profile: shards of the sparse index of users due a refresh (no single hot index key)."""

    # --- model
    model_provider: Literal["local", "bedrock"] = Field("local", alias="CONVMEM_MODEL_PROVIDER")
    """``bedrock`` in AWS (template default); ``local`` (offline, deterministic) in make run and tests."""
    bedrock_region: str = Field("", alias="CONVMEM_BEDROCK_REGION")
    """Region of the Bedrock models (empty: the function's own region)."""
    reply_model_id: str = Field("amazon.nova-lite-v1:0", alias="CONVMEM_REPLY_MODEL_ID")
    """Converse model that answers the visitor (and calls tools)."""
    utility_model_id: str = Field("amazon.nova-micro-v1:0", alias="CONVMEM_UTILITY_MODEL_ID")
    """Converse model for folds, fact extraction and profiles (off the turn path)."""
    embedding_model_id: str = Field("amazon.titan-embed-text-v2:0", alias="CONVMEM_EMBEDDING_MODEL_ID")
    """Bedrock model that embeds facts and the turn's message for recall (Titan Text Embeddings V2)."""
    embedding_dimensions: Literal[256, 512, 1024] = Field(256, alias="CONVMEM_EMBEDDING_DIMENSIONS")
    """Titan Text Embeddings V2 output size; stored int8 with each fact (256 bytes at 256)."""
    temperature: float = Field(0.3, alias="CONVMEM_TEMPERATURE", ge=0, le=1)
    """Sent only to models that accept it (bedrock_model.MODEL_FAMILIES); Nova calls with tools use 0."""
    top_p: float = Field(0.9, alias="CONVMEM_TOP_P", gt=0, le=1)
    """Sent only to models that accept it next to the temperature (bedrock_model.MODEL_FAMILIES)."""
    model_deadline_s: float = Field(25.0, alias="CONVMEM_MODEL_DEADLINE_S", gt=0)
    """Everything the model does in one turn or job (retries, tool rounds) ends within this; then 503.
    A turn in Lambda ends sooner when the function's remaining time says so (turn_reserve_s)."""
    turn_reserve_s: float = Field(3.0, alias="CONVMEM_TURN_RESERVE_S", ge=0)
    """Time a turn keeps after the model for the commit (or the release of its clientTurnId) and the
    answer: the model's work ends this long before the function's timeout."""
    model_min_call_s: float = Field(1.0, alias="CONVMEM_MODEL_MIN_CALL_S", gt=0)
    """A model call does not start with less time than this left (nor a tool that would leave the
    model less than this to answer after it)."""
    recall_embed_max_s: float = Field(3.0, alias="CONVMEM_RECALL_EMBED_MAX_S", gt=0)
    """Most time the turn's message embedding may take; beyond it recall is lexical."""
    model_max_attempts: int = Field(4, alias="CONVMEM_MODEL_MAX_ATTEMPTS", ge=1, le=10)
    """Attempts of one model call on throttling or a timeout (jittered exponential backoff)."""
    model_timeout_s: float = Field(20.0, alias="CONVMEM_MODEL_TIMEOUT_S", gt=0)
    """Read timeout of one Bedrock call."""
    max_tool_rounds: int = Field(4, alias="CONVMEM_MAX_TOOL_ROUNDS", ge=0, le=20)
    """Model -> tools -> model rounds in one turn before it must answer."""
    tool_result_max_tokens: int = Field(800, alias="CONVMEM_TOOL_RESULT_MAX_TOKENS", ge=16)
    """Cap of one tool result (and the request's budget caps all of them together)."""
    tool_modules: tuple[str, ...] = Field((), alias="CONVMEM_TOOL_MODULES")
    """Python modules that add tools: each defines ``tools(settings) -> list[Tool]`` (comma-separated)."""
    knowledge_base_id: str = Field("", alias="CONVMEM_KNOWLEDGE_BASE_ID")
    """Bedrock Knowledge Base of the ``search_knowledge`` tool (empty: the tool is off)."""
    recall_min_similarity: float = Field(0.25, alias="CONVMEM_RECALL_MIN_SIMILARITY", ge=0, lt=1)
    """Facts: cosine similarity below which an embedded fact does not count as relevant."""

    # --- auth and keys
    token_ttl_seconds: int = Field(86_400, alias="CONVMEM_TOKEN_TTL_S", ge=60)
    """Lifetime of a visitor token minted by POST /v1/visitors or /v1/tokens."""
    key_cache_ttl_seconds: int = Field(60, alias="CONVMEM_KEY_CACHE_TTL_S", ge=1)
    """How long a Lambda instance keeps a user's branch-key material (bounds reads after erasure)."""
    secret_cache_ttl_seconds: int = Field(300, alias="CONVMEM_SECRET_CACHE_TTL_S", ge=0)
    """How long the signing secret and API key are cached before they are re-read (rotation)."""
    commit_retries: int = Field(12, alias="CONVMEM_COMMIT_RETRIES", ge=1, le=20)
    """Bounded retries when a concurrent turn on the same session wins the commit."""
    turn_lease_seconds: int = Field(120, alias="CONVMEM_TURN_LEASE_S", ge=5)
    """How long an in-progress clientTurnId blocks a duplicate before it may be retried."""


    # --- limits per caller (429 with Retry-After; template parameters TurnLimit... / VisitorLimit...)
    turn_limit: int = Field(60, alias="CONVMEM_TURN_LIMIT", ge=0)
    """Turns one user may take in each window of ``turn_limit_window_s`` (0: no per-user limit)."""
    turn_limit_window_s: int = Field(60, alias="CONVMEM_TURN_LIMIT_WINDOW_S", ge=1, le=86_400)
    """The per-user turn window (fixed windows aligned to multiples of it)."""
    turn_burst_limit: int = Field(20, alias="CONVMEM_TURN_BURST_LIMIT", ge=0)
    """Of those, at most this many in any one ``limit_burst_s`` slice of the window (0: no burst cap)."""
    visitor_limit: int = Field(60, alias="CONVMEM_VISITOR_LIMIT", ge=0)
    """New anonymous visitors (POST /v1/visitors) one source address may create in each window (0: no limit)."""
    visitor_limit_window_s: int = Field(3600, alias="CONVMEM_VISITOR_LIMIT_WINDOW_S", ge=1, le=86_400)
    """The per-address visitor window."""
    visitor_burst_limit: int = Field(10, alias="CONVMEM_VISITOR_BURST_LIMIT", ge=0)
    """Of those, at most this many in any one ``limit_burst_s`` slice (0: no burst cap)."""
    limit_burst_s: int = Field(10, alias="CONVMEM_LIMIT_BURST_S", ge=1, le=3600)
    """Length of the slices a window's burst cap counts in."""

    @field_validator("tool_modules", mode="before")
    @classmethod
    def _modules(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(v.strip() for v in value.split(",") if v.strip())
        return value

    @field_validator("give_way_order", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        if isinstance(value, str):
            value = tuple(v.strip() for v in value.split(",") if v.strip())
        allowed = {"history", "knowledge", "facts", "profile"}
        if isinstance(value, tuple | list) and (set(value) - allowed or len(set(value)) != len(value)):
            raise ValueError(f"give-way order takes each of {sorted(allowed)} at most once")
        return value

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        """Build settings from ``env`` (default: ``os.environ``); unknown variables are ignored, and a
        renamed one (``RENAMED``) is refused with the name that replaced it (ValueError)."""
        source = os.environ if env is None else env
        renamed = sorted(set(source) & set(RENAMED))
        if renamed:  # a knob that was renamed would otherwise be ignored without a word
            raise ValueError("; ".join(f"{old} is no longer read: set {RENAMED[old]}" for old in renamed))
        names = {f.alias or name for name, f in cls.model_fields.items()}
        return cls.model_validate({k: v for k, v in source.items() if k in names})
