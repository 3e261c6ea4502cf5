"""The HTTP contract's response shapes (API.md), camelCase on the wire.

The OpenAPI document is generated from these and the route signatures.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from convmem.domain import forgetting
from convmem.domain.models import Fact, FactSource, Message, Role, SessionSummary
from convmem.service.auth import IssuedToken
from convmem.service.export import UserExport
from convmem.service.sessions import SessionPage, SessionView, TranscriptPage


def iso(at: datetime | None) -> str | None:
    if at is None:
        return None
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# An id in a URL path: API.md's ids (1-128 of A-Z a-z 0-9 . _ : -) except "." and "..", dot
# segments that browsers, fetch and proxies resolve away (POST /v1/sessions/../turns reaches
# /v1/turns there), so they could never name a session reliably. No look-ahead: pydantic's regex
# engine has none, so the three branches spell "not . or ..".
PATH_ID_PATTERN = (
    r"^(?:[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,127}|\.[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,126}|\.\.[A-Za-z0-9._:-]{1,126})$"
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
    user_id: str = Field(pattern=r"^[A-Za-z0-9._:-]{1,128}$")
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
    def of(cls, f: Fact) -> FactExport:  # type: ignore[override]
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
