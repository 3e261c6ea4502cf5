"""Service-signed bearer tokens: HMAC-SHA256 over a small JSON payload. Pure standard library.

Format: ``base64url(payload) "." base64url(hmac_sha256(key, base64url(payload)))`` where the
payload is ``{"v": 1, "sub": <userId>, "exp": <unix seconds>}``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass

from convmem.domain.models import validate_id
from convmem.errors import InvalidInputError, UnauthorizedError

VERSION = 1


@dataclass(frozen=True)
class TokenClaims:
    user_id: str
    expires_at: int
    """Unix seconds."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(key: bytes, body: str) -> str:
    return _b64(hmac.new(key, body.encode("ascii"), hashlib.sha256).digest())


def sign_token(user_id: str, expires_at: int, key: bytes) -> str:
    """Return a token for ``user_id`` valid until ``expires_at`` (unix seconds), signed with ``key``."""
    if not key:
        raise ValueError("signing key is empty")
    validate_id(user_id, "userId")
    payload = json.dumps({"v": VERSION, "sub": user_id, "exp": int(expires_at)}, separators=(",", ":"))
    body = _b64(payload.encode("utf-8"))
    return f"{body}.{_mac(key, body)}"


def verify_token(token: str, key: bytes, now: float) -> TokenClaims:
    """Check signature, shape and expiry of ``token``; return its claims.

    Raises UnauthorizedError for anything wrong: the caller learns only that it is not valid.
    """
    if not key:
        raise ValueError("signing key is empty")
    body, sep, mac = token.partition(".")
    if not sep or not body or not mac or not token.isascii():
        raise UnauthorizedError("The token is malformed.", code="invalid_token")
    if not hmac.compare_digest(_mac(key, body), mac):
        raise UnauthorizedError("The token signature is not valid.", code="invalid_token")
    try:
        claims = json.loads(_unb64(body))
        user_id, expires_at = claims["sub"], int(claims["exp"])
        if claims.get("v") != VERSION:
            raise ValueError("version")
        validate_id(user_id, "userId")
    except (ValueError, KeyError, TypeError, binascii.Error, InvalidInputError) as exc:
        raise UnauthorizedError("The token is malformed.", code="invalid_token") from exc
    if expires_at <= now:
        raise UnauthorizedError("The token has expired.", code="token_expired")
    return TokenClaims(user_id=user_id, expires_at=expires_at)
