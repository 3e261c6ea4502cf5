"""Reading a user's sessions and transcripts."""

from __future__ import annotations

from dataclasses import dataclass

from convmem.domain.models import Message, SessionState, SessionSummary, validate_id
from convmem.errors import InvalidInputError, NotFoundError
from convmem.ports import Cipher, Conversations
from convmem.service.stored import decrypt_messages, decrypt_summary

MAX_PAGE = 200
MAX_SESSIONS_PAGE = 100


@dataclass(frozen=True)
class SessionView:
    state: SessionState
    summary: str | None


@dataclass(frozen=True)
class SessionPage:
    sessions: list[SessionSummary]
    next: str | None


@dataclass(frozen=True)
class TranscriptPage:
    session_id: str
    messages: list[Message]
    next: int | None


class SessionService:
    def __init__(self, *, store: Conversations, cipher: Cipher) -> None:
        self._store = store
        self._cipher = cipher

    def list_sessions(self, user_id: str, limit: int = MAX_SESSIONS_PAGE, after: str | None = None) -> SessionPage:
        """A page of the user's sessions, newest first; ``next`` is the ``after`` of the next page."""
        if not 1 <= limit <= MAX_SESSIONS_PAGE:
            raise InvalidInputError(f"limit must be 1-{MAX_SESSIONS_PAGE}.", code="invalid_page")
        sessions, next_cursor = self._store.page_sessions(user_id, limit, after)
        return SessionPage(sessions, next_cursor)

    def _owned(self, user_id: str, session_id: str) -> tuple[SessionState, bytes | None]:
        validate_id(session_id, "sessionId")
        # The user's own session only: another user's session of this id is, here, one that does
        # not exist (the same 404, the same body).
        state, summary_ct = self._store.get_state(user_id, session_id)
        if state is None:
            raise NotFoundError("No such session.", code="session_not_found")
        return state, summary_ct

    def get_session(self, user_id: str, session_id: str) -> SessionView:
        state, summary_ct = self._owned(user_id, session_id)
        return SessionView(state=state, summary=decrypt_summary(self._cipher, user_id, session_id, summary_ct))

    def transcript(self, user_id: str, session_id: str, after: int = 0, limit: int = 100) -> TranscriptPage:
        """Messages with seq > ``after``, oldest first; ``next`` is the ``after`` of the next page."""
        if after < 0 or not 1 <= limit <= MAX_PAGE:
            raise InvalidInputError(f"after must be >= 0 and limit 1-{MAX_PAGE}.", code="invalid_page")
        state, _ = self._owned(user_id, session_id)
        stored = self._store.list_messages(user_id, session_id, after, limit)
        messages = decrypt_messages(self._cipher, user_id, session_id, stored)
        last = messages[-1].seq if messages else after
        # The newest seq still stored: forgotten messages at the end leave no rows to page to.
        newest = next((s for s in range(state.message_count, 0, -1) if s not in state.forgotten_seqs), 0)
        return TranscriptPage(session_id, messages, last if last < newest else None)
