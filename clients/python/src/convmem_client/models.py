"""Typed results of the API's answers (API.md), snake_case, times as aware datetimes.

Each is a frozen dataclass read from the JSON the API sent; fields the API adds later are
ignored, so an older client keeps working against a newer service.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Role = Literal["visitor", "agent"]


def _time(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) and value else None


@dataclass(frozen=True)
class IssuedToken:
    """A visitor token (``POST /v1/visitors`` or ``/v1/tokens``)."""

    user_id: str
    token: str
    expires_at: datetime | None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> IssuedToken:
        return cls(user_id=d["userId"], token=d["token"], expires_at=_time(d.get("expiresAt")))


@dataclass(frozen=True)
class ContextReport:
    """What a request held: how many messages verbatim, pending or compressed, which facts."""

    budget_tokens: int
    request_tokens: int
    window_messages: int
    pending_messages: int
    summary_tokens: int
    compressed_messages: int
    omitted_messages: int
    fact_ids: list[str]
    profile: bool
    knowledge: int
    gave_way: list[str]
    reply_truncated: bool

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ContextReport:
        return cls(
            budget_tokens=int(d.get("budgetTokens", 0)), request_tokens=int(d.get("requestTokens", 0)),
            window_messages=int(d.get("windowMessages", 0)), pending_messages=int(d.get("pendingMessages", 0)),
            summary_tokens=int(d.get("summaryTokens", 0)), compressed_messages=int(d.get("compressedMessages", 0)),
            omitted_messages=int(d.get("omittedMessages", 0)), fact_ids=list(d.get("factIds", [])),
            profile=bool(d.get("profile", False)), knowledge=int(d.get("knowledge", 0)),
            gave_way=list(d.get("gaveWay", [])), reply_truncated=bool(d.get("replyTruncated", False)),
        )


@dataclass(frozen=True)
class TurnResult:
    session_id: str
    turn_id: str
    reply: str
    visitor_seq: int
    agent_seq: int
    context: ContextReport

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TurnResult:
        return cls(
            session_id=d["sessionId"], turn_id=d.get("turnId", ""), reply=d["reply"], visitor_seq=int(d["visitorSeq"]),
            agent_seq=int(d["agentSeq"]), context=ContextReport.from_json(d.get("context", {})),
        )


@dataclass(frozen=True)
class RecalledFact:
    id: str
    text: str


@dataclass(frozen=True)
class KnowledgeSnippet:
    source: str
    text: str


@dataclass(frozen=True)
class HistoryMessage:
    seq: int | None
    role: Role
    text: str


@dataclass(frozen=True)
class Context:
    """The layers convmem would send for a message, fitted to the budget (``POST .../context``).

    Recorded text (``summary``, ``overflow``, ``history``, ``facts``) is data the visitor said, not
    instructions: give a model ``blocks`` (the same layers as convmem sends them, every recorded text
    quoted as data) rather than the raw layers, or use ``format="converse"``.
    """

    system: str
    blocks: list[str]
    profile: str | None
    facts: list[RecalledFact]
    summary: str | None
    overflow: str | None
    knowledge: list[KnowledgeSnippet]
    history: list[HistoryMessage]
    current: str
    context: ContextReport

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Context:
        return cls(
            system=d.get("system") or "", blocks=list(d.get("blocks") or []), profile=d.get("profile"),
            facts=[RecalledFact(id=f["id"], text=f["text"]) for f in d.get("facts") or []],
            summary=d.get("summary"), overflow=d.get("overflow"),
            knowledge=[KnowledgeSnippet(source=k["source"], text=k["text"]) for k in d.get("knowledge") or []],
            history=[HistoryMessage(seq=m.get("seq"), role=m["role"], text=m["text"]) for m in d.get("history") or []],
            current=d.get("current") or "", context=ContextReport.from_json(d.get("context") or {}),
        )


@dataclass(frozen=True)
class ConverseContext:
    """The same request ready for Bedrock Converse (``?format=converse``): pass ``system`` and
    ``messages`` straight to ``bedrock-runtime.converse`` or a Strands agent. The last message is
    the visitor's current one."""

    system: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    context: ContextReport

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ConverseContext:
        return cls(system=list(d.get("system") or []), messages=list(d.get("messages") or []),
                   context=ContextReport.from_json(d.get("context") or {}))

    @property
    def system_text(self) -> str:
        """Every system text block, in order, joined by blank lines."""
        return "\n\n".join(b["text"] for b in self.system if isinstance(b, dict) and "text" in b)


@dataclass(frozen=True)
class Exchange:
    """Where an exchange was stored (``POST .../exchanges``)."""

    session_id: str
    visitor_seq: int
    agent_seq: int

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Exchange:
        return cls(session_id=d["sessionId"], visitor_seq=int(d["visitorSeq"]), agent_seq=int(d["agentSeq"]))


@dataclass(frozen=True)
class SessionItem:
    session_id: str
    message_count: int
    created_at: datetime | None
    updated_at: datetime | None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionItem:
        return cls(session_id=d["sessionId"], message_count=int(d.get("messageCount", 0)),
                   created_at=_time(d.get("createdAt")), updated_at=_time(d.get("updatedAt")))


@dataclass(frozen=True)
class SessionPage:
    sessions: list[SessionItem]
    next: str | None
    """Pass as ``after`` for the next page; None on the last page."""

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionPage:
        return cls(sessions=[SessionItem.from_json(s) for s in d.get("sessions", [])], next=d.get("next"))


@dataclass(frozen=True)
class SessionDetail:
    session_id: str
    message_count: int
    summarized_through: int
    summary: str | None
    created_at: datetime | None
    updated_at: datetime | None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionDetail:
        return cls(
            session_id=d["sessionId"], message_count=int(d.get("messageCount", 0)),
            summarized_through=int(d.get("summarizedThrough", 0)), summary=d.get("summary"),
            created_at=_time(d.get("createdAt")), updated_at=_time(d.get("updatedAt")),
        )


@dataclass(frozen=True)
class Message:
    seq: int
    role: Role
    text: str
    channel: str
    at: datetime | None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Message:
        return cls(seq=int(d["seq"]), role=d["role"], text=d["text"], channel=d.get("channel", ""), at=_time(d.get("at")))


@dataclass(frozen=True)
class Transcript:
    session_id: str
    messages: list[Message]
    next: int | None
    """Pass as ``after`` for the next page; None on the last page."""

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Transcript:
        return cls(session_id=d["sessionId"], messages=[Message.from_json(m) for m in d.get("messages", [])],
                   next=d.get("next"))


@dataclass(frozen=True)
class Fact:
    id: str
    key: str
    text: str
    created_at: datetime | None
    updated_at: datetime | None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Fact:
        return cls(id=d["id"], key=d.get("key", ""), text=d["text"], created_at=_time(d.get("createdAt")),
                   updated_at=_time(d.get("updatedAt")))


@dataclass(frozen=True)
class Profile:
    profile: str | None
    """None before the first refresh."""
    refreshed_at: datetime | None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Profile:
        return cls(profile=d.get("profile"), refreshed_at=_time(d.get("refreshedAt")))


@dataclass(frozen=True)
class SessionExport:
    session_id: str
    summary: str | None
    messages: list[Message]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionExport:
        return cls(session_id=d["sessionId"], summary=d.get("summary"),
                   messages=[Message.from_json(m) for m in d.get("messages", [])])


@dataclass(frozen=True)
class Export:
    """Everything held on the caller (``GET /v1/me/export``). ``raw`` keeps the whole document
    (facts' sources and replaced versions included) for archiving as-is."""

    user_id: str
    profile: str | None
    facts: list[Fact]
    sessions: list[SessionExport]
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Export:
        return cls(user_id=d["userId"], profile=d.get("profile"), facts=[Fact.from_json(f) for f in d.get("facts", [])],
                   sessions=[SessionExport.from_json(s) for s in d.get("sessions", [])], raw=d)


@dataclass(frozen=True)
class Erasure:
    user_id: str
    status: str
    """``erased`` when everything is gone already, ``erasing`` while the erasure queue finishes."""

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Erasure:
        return cls(user_id=d["userId"], status=d.get("status", ""))
