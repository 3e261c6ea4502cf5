"""Reading and writing the encrypted items every use case shares: messages, the session summary,
the user's facts document and profile. One place names each item's encryption context."""

from __future__ import annotations

import base64
import zlib
from collections.abc import Mapping, Sequence
from functools import lru_cache

from convmem.domain.models import Fact, FactSet, Forgotten, Message
from convmem.ports import Cipher, StoredMessage

MESSAGE_KIND = "message"
SUMMARY_KIND = "summary"
RESPONSE_KIND = "turn-response"
FACTS_KIND = "facts"
PROFILE_KIND = "profile"
USER_SCOPE = "-"
"""The session part of the encryption context of items that belong to the user, not a session."""


def decrypt_text(cipher: Cipher, user_id: str, session_id: str, m: StoredMessage) -> str:
    """One stored message's text (its encryption context: user, session, kind, seq)."""
    return cipher.decrypt(m.ciphertext, user_id=user_id, session_id=session_id, kind=MESSAGE_KIND, ref=str(m.seq))


def decrypt_messages(cipher: Cipher, user_id: str, session_id: str, stored: list[StoredMessage]) -> list[Message]:
    return [
        Message(seq=m.seq, role=m.role, channel=m.channel, at=m.at, text=decrypt_text(cipher, user_id, session_id, m))
        for m in stored
    ]


def decrypt_summary(cipher: Cipher, user_id: str, session_id: str, ciphertext: bytes | None) -> str | None:
    """The session summary in clear, or None when the session has none yet."""
    if not ciphertext:
        return None
    return cipher.decrypt(ciphertext, user_id=user_id, session_id=session_id, kind=SUMMARY_KIND, ref="summary")


# A user's facts are split over shards (by fact id), each an encrypted, compressed document in its
# own item: the turn reads them all in its one BatchGetItem, a merge rewrites only those it changed.
_PACKED = "z1:"


def facts_ref(shard: int) -> str:
    """The encryption context's ref of a facts shard (shard 0 keeps the one-document name)."""
    return FACTS_KIND if shard == 0 else f"{FACTS_KIND}#{shard}"


def shard_of(fact_id: str, shards: int) -> int:
    return zlib.crc32(fact_id.encode("utf-8")) % shards


def pack_facts(facts: Sequence[Fact], forgotten: Sequence[Forgotten] = ()) -> str:
    """One shard's plaintext: compressed JSON (fact text compresses ~3x; the item is billed by bytes).
    Compressing before encrypting shows only a document's size, and only to who reads the table.
    Shard 0 also carries the tombstones of forgotten facts (written with the facts, in one version)."""
    data = FactSet(facts=list(facts), forgotten=list(forgotten)).model_dump_json(exclude_defaults=True).encode("utf-8")
    return _PACKED + base64.b64encode(zlib.compress(data, 6)).decode("ascii")


@lru_cache(maxsize=16)
def unpack_facts(plaintext: str) -> tuple[Fact, ...]:
    """The facts of one shard's plaintext (a plain JSON document as written before shards, too).
    Cached by content: an unchanged shard is parsed once per instance (facts are immutable). 16
    entries: every shard of the user in conversation and of one more. Measured: 2,500 facts
    (177 KB packed) parse to ~6 MB, so even 16 shards at the byte bound stay under ~200 MB."""
    return _unpack(plaintext)[0]


def unpack_forgotten(plaintext: str) -> tuple[Forgotten, ...]:
    """The tombstones a shard's plaintext carries (only shard 0 has any)."""
    return _unpack(plaintext)[1]


@lru_cache(maxsize=16)
def _unpack(plaintext: str) -> tuple[tuple[Fact, ...], tuple[Forgotten, ...]]:
    if plaintext.startswith(_PACKED):
        plaintext = zlib.decompress(base64.b64decode(plaintext[len(_PACKED):])).decode("utf-8")
    document = FactSet.model_validate_json(plaintext)
    return tuple(document.facts), tuple(document.forgotten)


def decrypt_fact_shards(cipher: Cipher, user_id: str, shards: Mapping[int, bytes]) -> dict[int, str]:
    """Each stored shard's plaintext, by shard number."""
    return {i: cipher.decrypt(ct, user_id=user_id, session_id=USER_SCOPE, kind=FACTS_KIND, ref=facts_ref(i))
            for i, ct in sorted(shards.items()) if ct}


def decrypt_facts(cipher: Cipher, user_id: str, shards: Mapping[int, bytes]) -> FactSet:
    """All of the user's facts, from every shard."""
    return FactSet(facts=[f for text in decrypt_fact_shards(cipher, user_id, shards).values() for f in unpack_facts(text)])


def split_facts(
    facts: Sequence[Fact], shards: int, old: Mapping[int, str] | None = None, forgotten: Sequence[Forgotten] | None = None,
) -> dict[int, str]:
    """Each shard's plaintext for ``facts`` over ``shards`` items, empty shards too. With ``old``
    (the plaintexts read), a shard holding exactly the facts it was read with keeps its old text
    without being packed again (the merge keeps the objects of the facts it did not touch).
    ``forgotten``: the tombstones shard 0 carries from now on (None: those it was read with)."""
    split: dict[int, list[Fact]] = {i: [] for i in range(shards)}
    for f in facts:
        split[shard_of(f.id, shards)].append(f)
    kept = tuple(forgotten) if forgotten is not None else (unpack_forgotten(old[0]) if old and 0 in old else ())
    out = {}
    for i, group in split.items():
        before = unpack_facts(old[i]) if old and i in old else None
        same = before is not None and len(before) == len(group) and all(a is b for a, b in zip(before, group, strict=True))
        if i == 0 and same and old and unpack_forgotten(old[0]) != kept:
            same = False
        out[i] = old[i] if same and old else pack_facts(group, kept if i == 0 else ())
    return out


def encrypt_fact_shards(cipher: Cipher, user_id: str, plain: Mapping[int, str]) -> dict[int, bytes]:
    return {i: cipher.encrypt(text, user_id=user_id, session_id=USER_SCOPE, kind=FACTS_KIND, ref=facts_ref(i))
            for i, text in plain.items()}


def decrypt_profile(cipher: Cipher, user_id: str, ciphertext: bytes | None) -> str | None:
    if not ciphertext:
        return None
    return cipher.decrypt(ciphertext, user_id=user_id, session_id=USER_SCOPE, kind=PROFILE_KIND, ref=PROFILE_KIND)


def encrypt_profile(cipher: Cipher, user_id: str, profile: str) -> bytes:
    return cipher.encrypt(profile, user_id=user_id, session_id=USER_SCOPE, kind=PROFILE_KIND, ref=PROFILE_KIND)
