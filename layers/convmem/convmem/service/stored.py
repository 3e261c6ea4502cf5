"""Reading and writing the encrypted items every use case shares: messages, the session summary,
the user's facts document and profile. One place names each item's encryption context."""

from __future__ import annotations

from convmem.domain.models import FactSet, Message, SessionState
from convmem.errors import NotFoundError
from convmem.ports import Cipher, StoredMessage

MESSAGE_KIND = "message"
SUMMARY_KIND = "summary"
RESPONSE_KIND = "turn-response"
FACTS_KIND = "facts"
PROFILE_KIND = "profile"
USER_SCOPE = "-"
"""The session part of the encryption context of items that belong to the user, not a session."""


def decrypt_messages(cipher: Cipher, user_id: str, session_id: str, stored: list[StoredMessage]) -> list[Message]:
    return [
        Message(
            seq=m.seq,
            role=m.role,
            channel=m.channel,
            at=m.at,
            text=cipher.decrypt(m.ciphertext, user_id=user_id, session_id=session_id, kind=MESSAGE_KIND, ref=str(m.seq)),
        )
        for m in stored
    ]


def decrypt_summary(cipher: Cipher, user_id: str, session_id: str, ciphertext: bytes | None) -> str | None:
    """The session summary in clear, or None when the session has none yet."""
    if not ciphertext:
        return None
    return cipher.decrypt(ciphertext, user_id=user_id, session_id=session_id, kind=SUMMARY_KIND, ref="summary")


def owned_state(state: SessionState | None, user_id: str) -> SessionState | None:
    """The state if the user owns it; NotFoundError if someone else does (existence not revealed)."""
    if state is not None and state.owner != user_id:
        raise NotFoundError("No such session.", code="session_not_found")
    return state


def decrypt_facts(cipher: Cipher, user_id: str, ciphertext: bytes | None) -> FactSet:
    if not ciphertext:
        return FactSet()
    return FactSet.model_validate_json(
        cipher.decrypt(ciphertext, user_id=user_id, session_id=USER_SCOPE, kind=FACTS_KIND, ref=FACTS_KIND)
    )


def encrypt_facts(cipher: Cipher, user_id: str, facts: FactSet) -> bytes:
    return cipher.encrypt(facts.model_dump_json(), user_id=user_id, session_id=USER_SCOPE, kind=FACTS_KIND, ref=FACTS_KIND)


def decrypt_profile(cipher: Cipher, user_id: str, ciphertext: bytes | None) -> str | None:
    if not ciphertext:
        return None
    return cipher.decrypt(ciphertext, user_id=user_id, session_id=USER_SCOPE, kind=PROFILE_KIND, ref=PROFILE_KIND)


def encrypt_profile(cipher: Cipher, user_id: str, profile: str) -> bytes:
    return cipher.encrypt(profile, user_id=user_id, session_id=USER_SCOPE, kind=PROFILE_KIND, ref=PROFILE_KIND)
