"""Who is calling: visitor tokens (service-signed) or the server-side API key plus x-user-id."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from convmem.domain.access_tokens import sign_token, verify_token
from convmem.domain.models import validate_id
from convmem.domain.rate_limits import RateLimit
from convmem.errors import InvalidInputError, UnauthorizedError
from convmem.ports import Secrets, VisitorCounter


def source_of(address: str | None) -> str:
    """The part of a source address one client controls: the address for IPv4, its /64 for IPv6
    (one subscriber gets a whole /64, and would otherwise have 2**64 addresses to rotate through).
    Anything unreadable (no address: not through API Gateway) counts as one source."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 client a.b.c.d
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass(frozen=True)
class Caller:
    user_id: str
    server_side: bool
    """True for the API key (a trusted server-side caller); False for a visitor token."""


@dataclass(frozen=True)
class IssuedToken:
    user_id: str
    token: str
    expires_at: int


class AuthService:
    def __init__(
        self,
        secrets: Secrets,
        *,
        token_secret_id: str,
        api_key_secret_id: str,
        token_ttl_seconds: int,
        now: Callable[[], float] = time.time,
        visitor_limit: RateLimit | None = None,
        visitor_counter: VisitorCounter | None = None,
        limit_clock: Callable[[], float] | None = None,
    ) -> None:
        self._secrets = secrets
        self._limit_clock = limit_clock or now
        self._visitor_limit = visitor_limit
        self._visitor_counter = visitor_counter
        self._token_secret_id = token_secret_id
        self._api_key_secret_id = api_key_secret_id
        self._ttl = token_ttl_seconds
        self._now = now

    def _signing_key(self) -> bytes:
        return self._secrets.get(self._token_secret_id).encode("utf-8")

    def issue_visitor(self, source_ip: str | None = None) -> IssuedToken:
        """A new anonymous visitor with a fresh user id, counted against its source address's
        limit first: RateLimitedError (no token) when that address's window or burst is spent."""
        limit = self._visitor_limit
        if limit is not None and limit.enabled and self._visitor_counter is not None:
            now = self._limit_clock()
            self._visitor_counter.count_new_visitor(
                self._source_key(source_of(source_ip)), limit.slot(now), datetime.fromtimestamp(now, UTC))
        return self._issue(f"v-{uuid.uuid4().hex}")

    def _source_key(self, source: str) -> str:
        """The address as stored: HMAC-SHA256 under the token-signing key (never the address
        itself, and not a plain hash, which anyone could reverse over the IPv4 space)."""
        return hmac.new(self._signing_key(), b"source:" + source.encode("utf-8"), hashlib.sha256).hexdigest()[:32]

    def issue_for_user(self, headers: Mapping[str, str], user_id: str) -> IssuedToken:
        """A widget token for a known user; the caller must hold the API key."""
        self._require_api_key(headers)
        return self._issue(validate_id(user_id, "userId"))

    def _issue(self, user_id: str) -> IssuedToken:
        expires_at = int(self._now()) + self._ttl
        return IssuedToken(user_id, sign_token(user_id, expires_at, self._signing_key()), expires_at)

    def authenticate(self, headers: Mapping[str, str]) -> str:
        """The user id the request acts as. Header names must be lower-case (HTTP API 2.0 does that)."""
        return self.identify(headers).user_id

    def identify(self, headers: Mapping[str, str]) -> Caller:
        """Who is calling: the user the request acts as, and whether it is a server-side caller."""
        auth = headers.get("authorization")
        if auth is not None:
            scheme, _, token = auth.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise UnauthorizedError("Use 'Authorization: Bearer <token>'.", code="invalid_token")
            return Caller(verify_token(token.strip(), self._signing_key(), self._now()).user_id, server_side=False)
        if "x-api-key" in headers:
            self._require_api_key(headers)
            user_id = headers.get("x-user-id")
            if not user_id:
                raise InvalidInputError("x-user-id is required with x-api-key.", code="invalid_userId")
            return Caller(validate_id(user_id, "userId"), server_side=True)
        raise UnauthorizedError("Credentials are required: a bearer token or x-api-key with x-user-id.")

    def _require_api_key(self, headers: Mapping[str, str]) -> None:
        given = headers.get("x-api-key", "")
        expected = self._secrets.get(self._api_key_secret_id)
        if not given or not hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
            raise UnauthorizedError("The API key is not valid.", code="invalid_api_key")
