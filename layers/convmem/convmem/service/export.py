"""Everything held on a user, readable: transcripts, summaries, facts with history, the profile."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from convmem.domain.models import Fact, Message, SessionState
from convmem.ports import Cipher, Conversations, Memories
from convmem.service.stored import decrypt_facts, decrypt_messages, decrypt_profile, decrypt_summary

PAGE = 200


class ExportStore(Conversations, Memories, Protocol):
    """What an export reads: every session and the user's memory."""


@dataclass(frozen=True)
class SessionExport:
    state: SessionState
    summary: str | None
    messages: list[Message]


@dataclass(frozen=True)
class UserExport:
    user_id: str
    profile: str | None
    profile_refreshed_at: datetime | None
    facts: list[Fact]
    sessions: list[SessionExport]


class ExportService:
    def __init__(self, *, store: ExportStore, cipher: Cipher) -> None:
        self._store = store
        self._cipher = cipher

    def export(self, user_id: str) -> UserExport:
        memory = self._store.load_user_memory(user_id)
        sessions = []
        for session_id in self._store.all_session_ids(user_id):
            state, summary_ct = self._store.get_state(user_id, session_id)
            if state is None:
                continue  # deleted meanwhile
            messages: list[Message] = []
            while True:
                page = self._store.list_messages(user_id, session_id, messages[-1].seq if messages else 0, PAGE)
                messages.extend(decrypt_messages(self._cipher, user_id, session_id, page))
                if len(page) < PAGE:
                    break
            sessions.append(SessionExport(state, decrypt_summary(self._cipher, user_id, session_id, summary_ct), messages))
        return UserExport(
            user_id=user_id,
            profile=decrypt_profile(self._cipher, user_id, memory.profile_ciphertext),
            profile_refreshed_at=memory.profile_refreshed_at,
            facts=decrypt_facts(self._cipher, user_id, memory.facts_shards).facts,
            sessions=sessions,
        )
