"""The HTTP contract's response shapes (docs/api.md), camelCase on the wire.

The OpenAPI document is generated from these and the route signatures.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from convmem.domain import forgetting
from convmem.domain.context_assembly import render_blocks
from convmem.domain.models import (
    ID_CHARS,
    ID_MAX,
    ID_PATTERN,
    ExchangeResult,
    Fact,
    FactSource,
    Message,
    Role,
    SessionSummary,
    iso_utc,
)
from convmem.service.auth import IssuedToken
from convmem.service.export import UserExport
from convmem.service.sessions import SessionPage, SessionView, TranscriptPage
from convmem.service.turn import AssembledContext


def iso(at: datetime | None) -> str | None:
    return None if at is None else iso_utc(at)


# An id in a URL path: the ids of domain/models.py except "." and "..", dot
# segments that browsers, fetch and proxies resolve away (POST /v1/sessions/../turns reaches
# /v1/turns there), so they could never name a session reliably. No look-ahead: pydantic's regex
# engine has none, so the three branches spell "not . or ..".
_NO_DOT = ID_CHARS.replace(".", "")
PATH_ID_PATTERN = (
    rf"^(?:[{_NO_DOT}][{ID_CHARS}]{{0,{ID_MAX - 1}}}|\.[{_NO_DOT}][{ID_CHARS}]{{0,{ID_MAX - 2}}}"
    rf"|\.\.[{ID_CHARS}]{{1,{ID_MAX - 2}}})$"
)


class Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class ErrorBody(Wire):
    code: str
    message: str


class ErrorResponse(Wire):
    error: ErrorBody


class Health(Wire):
    status: str = "ok"


class TokenRequest(Wire):
    user_id: str = Field(pattern=ID_PATTERN)
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class TokenResponse(Wire):
    user_id: str
    token: str
    expires_at: str

    @classmethod
    def of(cls, issued: IssuedToken) -> TokenResponse:
        return cls(
            user_id=issued.user_id,
            token=issued.token,
            expires_at=iso(datetime.fromtimestamp(issued.expires_at, UTC)) or "",
        )


class ContextOut(Wire):
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
    reply_truncated: bool = Field(False, description="The reply was cut at the model's token limit (turns only).")


class TurnResponse(Wire):
    session_id: str
    turn_id: str
    reply: str
    visitor_seq: int
    agent_seq: int
    context: ContextOut


class FactLayer(Wire):
    id: str
    text: str


class KnowledgeLayer(Wire):
    source: str
    text: str


class HistoryMessage(Wire):
    seq: int
    role: Role
    text: str


class ContextLayers(Wire):
    """``POST .../context``: the layers of the request a turn would send, fitted to the budget."""

    system: str = Field(description="The system prompt.")
    blocks: list[str] = Field(description=(
        "The memory frame and the context blocks (profile, facts, summary, knowledge, overflow) exactly as a "
        "turn sends them after the system prompt, every recorded text quoted as data: put these in your "
        "system content rather than the raw layers below, so text a visitor wrote stays data."))
    profile: str | None
    facts: list[FactLayer] = Field(description="Recalled facts, most relevant first.")
    summary: str | None = Field(description="The rolling summary, as stored ([m<first>-<last>] entries).")
    overflow: str | None = Field(description="This request's compressed block of history that gave way.")
    knowledge: list[KnowledgeLayer]
    history: list[HistoryMessage] = Field(description="The verbatim messages, oldest first.")
    current: str = Field(description="The message to answer.")
    context: ContextOut

    @classmethod
    def of(cls, assembled: AssembledContext) -> ContextLayers:
        r = assembled.request
        return cls(
            system=r.system, blocks=render_blocks(r), profile=r.profile,
            facts=[FactLayer(id=i, text=t) for i, t in zip(assembled.report.fact_ids, r.facts, strict=True)],
            summary=r.summary, overflow=r.overflow,
            knowledge=[KnowledgeLayer(source=k.source, text=k.text) for k in r.knowledge],
            history=[HistoryMessage(seq=m.seq or 0, role=m.role, text=m.text) for m in r.history],
            current=r.current, context=ContextOut.model_validate(assembled.report.model_dump()),
        )


class ConverseText(Wire):
    text: str


class ConverseMessage(Wire):
    role: Literal["user", "assistant"]
    content: list[ConverseText]


class ConverseContext(Wire):
    """``POST .../context?format=converse``: Bedrock Converse's ``system`` and ``messages``, as a
    turn sends them (pass both to ``converse``), and the context report."""

    system: list[ConverseText]
    messages: list[ConverseMessage]
    context: ContextOut

    @classmethod
    def of(cls, assembled: AssembledContext) -> ConverseContext:
        from convmem.adapters.bedrock_model import conversation  # the turn's own builder; imported when asked for

        system, messages = conversation(assembled.request)
        return cls(
            system=[ConverseText(text=t) for t in system],
            messages=[ConverseMessage.model_validate(m) for m in messages],
            context=ContextOut.model_validate(assembled.report.model_dump()),
        )


class ExchangeResponse(Wire):
    session_id: str
    visitor_seq: int
    agent_seq: int

    @classmethod
    def of(cls, result: ExchangeResult) -> ExchangeResponse:
        return cls(session_id=result.session_id, visitor_seq=result.visitor_seq, agent_seq=result.agent_seq)


class SessionItem(Wire):
    session_id: str
    message_count: int
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, s: SessionSummary) -> SessionItem:
        return cls(session_id=s.session_id, message_count=s.message_count, created_at=iso(s.created_at) or "", updated_at=iso(s.updated_at) or "")


class SessionList(Wire):
    sessions: list[SessionItem]
    next: str | None = Field(None, description="The ``after`` of the next page; absent on the last page.")

    @classmethod
    def of(cls, page: SessionPage) -> SessionList:
        return cls(sessions=[SessionItem.of(s) for s in page.sessions], next=page.next)


class SessionDetail(Wire):
    session_id: str
    message_count: int
    summarized_through: int
    summary: str | None
    created_at: str | None
    updated_at: str | None

    @classmethod
    def of(cls, view: SessionView) -> SessionDetail:
        s = view.state
        return cls(
            session_id=s.session_id, message_count=s.message_count, summarized_through=s.summarized_through,
            summary=view.summary, created_at=iso(s.created_at), updated_at=iso(s.updated_at),
        )


class MessageOut(Wire):
    seq: int
    role: Role
    text: str
    channel: str
    at: str

    @classmethod
    def of(cls, m: Message) -> MessageOut:
        return cls(seq=m.seq, role=m.role, text=m.text, channel=m.channel, at=iso(m.at) or "")


class Transcript(Wire):
    session_id: str
    messages: list[MessageOut]
    next: int | None

    @classmethod
    def of(cls, page: TranscriptPage) -> Transcript:
        return cls(session_id=page.session_id, messages=[MessageOut.of(m) for m in page.messages], next=page.next)


class FactOut(Wire):
    id: str
    key: str
    text: str
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, f: Fact) -> FactOut:
        return cls(id=f.id, key=f.key, text=f.statement, created_at=iso(f.created_at) or "", updated_at=iso(f.updated_at) or "")


class FactList(Wire):
    facts: list[FactOut]


class ProfileOut(Wire):
    profile: str | None
    refreshed_at: str | None


class SourceOut(Wire):
    session_id: str
    seq: int
    channel: str
    at: str

    @classmethod
    def of(cls, s: FactSource) -> SourceOut:
        return cls(session_id=s.session_id, seq=s.seq, channel=s.channel, at=iso(s.at) or "")


class FactVersionOut(Wire):
    text: str
    source: SourceOut
    replaced_at: str


class FactExport(FactOut):
    source: SourceOut
    sources: list[SourceOut] = Field(description=(
        "Every message the fact was learnt from (its value, restatements, earlier values), oldest first: "
        "why convmem believes it, before deciding to forget it."))
    history: list[FactVersionOut]

    @classmethod
    def of(cls, f: Fact) -> FactExport:
        return cls(
            **FactOut.of(f).model_dump(), source=SourceOut.of(f.source),
            sources=[SourceOut.of(s) for s in forgetting.sources(f)],
            history=[FactVersionOut(text=v.statement, source=SourceOut.of(v.source), replaced_at=iso(v.replaced_at) or "")
                     for v in f.history],
        )


class SessionExportOut(Wire):
    session_id: str
    created_at: str | None
    updated_at: str | None
    summary: str | None
    messages: list[MessageOut]


class ExportOut(Wire):
    user_id: str
    profile: str | None
    profile_refreshed_at: str | None
    facts: list[FactExport]
    sessions: list[SessionExportOut]

    @classmethod
    def of(cls, e: UserExport) -> ExportOut:
        return cls(
            user_id=e.user_id, profile=e.profile, profile_refreshed_at=iso(e.profile_refreshed_at),
            facts=[FactExport.of(f) for f in e.facts],
            sessions=[
                SessionExportOut(
                    session_id=s.state.session_id, created_at=iso(s.state.created_at), updated_at=iso(s.state.updated_at),
                    summary=s.summary, messages=[MessageOut.of(m) for m in s.messages],
                )
                for s in e.sessions
            ],
        )


class ErasureAccepted(Wire):
    user_id: str
    status: str
    """``erased`` when everything is already gone, ``erasing`` while the erasure queue finishes it."""
