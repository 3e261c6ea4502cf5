"""A thin, typed, synchronous client of the convmem HTTP API (API.md), on httpx."""

from __future__ import annotations

import os
import random
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal, overload
from urllib.parse import quote

import httpx

from convmem_client.errors import ConvmemConnectionError, ConvmemError, error_for
from convmem_client.models import (
    Context,
    ConverseContext,
    Erasure,
    Exchange,
    Export,
    Fact,
    IssuedToken,
    KnowledgeSnippet,
    Message,
    Profile,
    SessionDetail,
    SessionItem,
    SessionPage,
    Transcript,
    TurnResult,
)

Knowledge = Iterable[KnowledgeSnippet | Mapping[str, str]]

# Statuses after which the same request may simply be sent again (API.md): 429 throttled, 503 a
# dependency unavailable; both wrote nothing. 409 (the same clientTurnId still in progress) only for
# writes that carry a clientTurnId: the retry then returns the first attempt's answer.
RETRY_STATUSES = frozenset({429, 503})


class ConvmemClient:
    """The convmem API as methods. One instance per caller identity; thread-safe as httpx.Client is.

    Two ways to authenticate (API.md "Who is calling"):

    - server-side: ``ConvmemClient(url, api_key=KEY, user_id="alice")``; ``.for_user("bob")`` gives
      a client for another user over the same connection pool;
    - as a visitor: ``ConvmemClient(url, token=TOKEN)``, the token from ``new_visitor()`` or from a
      server-side ``token_for(user_id)``.

    Requests refused with 429 or 503, or that got no answer (connection refused, reset, timeout),
    are sent again up to ``max_retries`` times, after the ``Retry-After`` the API gave or an
    exponential backoff with jitter; a write is retried with the same ``clientTurnId``, so it is
    stored once. A wait longer than ``max_retry_wait`` seconds is not slept: the error is raised.
    Every other error raises at once. Errors are ``ConvmemError`` subclasses carrying ``code``.
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        user_id: str | None = None,
        token: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        max_retry_wait: float = 30.0,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if api_key and token:
            raise ValueError("Give either api_key (with user_id) or token, not both.")
        if max_retries < 0 or max_retry_wait < 0 or backoff < 0:
            raise ValueError("max_retries, max_retry_wait and backoff must not be negative.")
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self.user_id = user_id
        self._token = token
        self.token_expires_at: datetime | None = None
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self._backoff = backoff
        self._sleep = sleep
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport)

    # --- construction

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> ConvmemClient:
        """A client from ``CONVMEM_URL`` and ``CONVMEM_API_KEY`` + ``CONVMEM_USER_ID``, or ``CONVMEM_TOKEN``."""
        env = os.environ if environ is None else environ
        url = env.get("CONVMEM_URL")
        if not url:
            raise ValueError("CONVMEM_URL is not set (the API's base url, e.g. http://127.0.0.1:3000).")
        return cls(url, api_key=env.get("CONVMEM_API_KEY") or None, user_id=env.get("CONVMEM_USER_ID") or None,
                   token=env.get("CONVMEM_TOKEN") or None, **kwargs)

    @classmethod
    def new_visitor(cls, base_url: str, **kwargs: Any) -> ConvmemClient:
        """A client acting as a new anonymous visitor (``POST /v1/visitors``); ``.user_id`` is its id."""
        anonymous = cls(base_url, **kwargs)
        issued = IssuedToken.from_json(anonymous._call("POST", "/v1/visitors").json())
        anonymous._token, anonymous.user_id = issued.token, issued.user_id
        anonymous.token_expires_at = issued.expires_at
        return anonymous

    def for_user(self, user_id: str) -> ConvmemClient:
        """The same API key acting as ``user_id``, sharing this client's connections."""
        if not self._api_key:
            raise ValueError("for_user needs the API key; a visitor token acts only as its own user.")
        return self._derived(api_key=self._api_key, user_id=user_id)

    def with_token(self, token: str) -> ConvmemClient:
        """A client acting with a visitor token, sharing this client's connections."""
        return self._derived(token=token)

    def _derived(self, **auth: Any) -> ConvmemClient:
        return ConvmemClient(self.base_url, http_client=self._http, max_retries=self.max_retries,
                             max_retry_wait=self.max_retry_wait, backoff=self._backoff, sleep=self._sleep, **auth)

    def token_for(self, user_id: str) -> IssuedToken:
        """A widget token for a known user (API key only: ``POST /v1/tokens``)."""
        if not self._api_key:
            raise ValueError("token_for needs the API key.")
        return IssuedToken.from_json(self._call("POST", "/v1/tokens", json={"userId": user_id}, auth="key").json())

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> ConvmemClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- conversation

    def turn(self, session_id: str, message: str, *, channel: str | None = None, client_turn_id: str | None = None,
             knowledge: Knowledge | None = None) -> TurnResult:
        """One turn: convmem calls its model and stores both messages (``POST .../turns``)."""
        body = _drop_none({"message": message, "channel": channel, "clientTurnId": client_turn_id or _new_id(),
                           "knowledge": _knowledge(knowledge)})
        return TurnResult.from_json(self._call("POST", f"{_session(session_id)}/turns", json=body, idempotent=True).json())

    @overload
    def context(self, session_id: str, message: str, *, knowledge: Knowledge | None = None,
                format: Literal["layers"] = "layers") -> Context: ...

    @overload
    def context(self, session_id: str, message: str, *, knowledge: Knowledge | None = None,
                format: Literal["converse"]) -> ConverseContext: ...

    def context(self, session_id: str, message: str, *, knowledge: Knowledge | None = None,
                format: Literal["layers", "converse"] = "layers") -> Context | ConverseContext:
        """What convmem would send a model for ``message``, fitted to the budget; nothing is stored
        (``POST .../context``). ``format="converse"``: Bedrock Converse ``system`` + ``messages``."""
        if format not in ("layers", "converse"):
            raise ValueError("format is 'layers' or 'converse'.")
        body = _drop_none({"message": message, "knowledge": _knowledge(knowledge)})
        params = {"format": "converse"} if format == "converse" else None
        data = self._call("POST", f"{_session(session_id)}/context", json=body, params=params).json()
        return ConverseContext.from_json(data) if format == "converse" else Context.from_json(data)

    def exchange(self, session_id: str, visitor: str, agent: str, *, channel: str | None = None,
                 client_turn_id: str | None = None, at: datetime | str | None = None) -> Exchange:
        """Store what the visitor said and what your agent replied, as one turn (``POST .../exchanges``).
        ``at`` imports a past exchange with its real time. Tool traffic has no place here by design."""
        if isinstance(at, datetime):
            if at.tzinfo is None:
                raise ValueError("at must be timezone-aware (UTC).")
            at = at.astimezone(UTC).isoformat().replace("+00:00", "Z")
        body = _drop_none({"visitor": visitor, "agent": agent, "channel": channel,
                           "clientTurnId": client_turn_id or _new_id(), "at": at})
        return Exchange.from_json(self._call("POST", f"{_session(session_id)}/exchanges", json=body, idempotent=True).json())

    # --- sessions

    def sessions(self, *, limit: int | None = None, after: str | None = None) -> SessionPage:
        """One page of the caller's sessions, newest first."""
        return SessionPage.from_json(self._call("GET", "/v1/sessions", params=_drop_none({"limit": limit, "after": after})).json())

    def iter_sessions(self, *, page_size: int = 100) -> Iterator[SessionItem]:
        """Every session, following ``next`` page after page."""
        after: str | None = None
        while True:
            page = self.sessions(limit=page_size, after=after)
            yield from page.sessions
            if not page.next:
                return
            after = page.next

    def session(self, session_id: str) -> SessionDetail:
        return SessionDetail.from_json(self._call("GET", _session(session_id)).json())

    def messages(self, session_id: str, *, after: int = 0, limit: int | None = None) -> Transcript:
        """One page of the transcript: messages with ``seq`` above ``after``."""
        params = _drop_none({"after": after, "limit": limit})
        return Transcript.from_json(self._call("GET", f"{_session(session_id)}/messages", params=params).json())

    def iter_messages(self, session_id: str, *, page_size: int = 100) -> Iterator[Message]:
        """The whole transcript, following ``next``."""
        after = 0
        while True:
            page = self.messages(session_id, after=after, limit=page_size)
            yield from page.messages
            if page.next is None:
                return
            after = page.next

    def delete_session(self, session_id: str, *, forget_facts: bool = False) -> None:
        """Forget a conversation; with ``forget_facts`` also what was learnt only from it."""
        self._call("DELETE", _session(session_id), params={"facts": "forget"} if forget_facts else None)

    def forget_message(self, session_id: str, seq: int) -> None:
        """Forget one visitor message (``seq``) and its reply, with what was learnt only from it."""
        self._call("DELETE", f"{_session(session_id)}/messages/{int(seq)}")

    # --- the caller

    def facts(self) -> list[Fact]:
        return [Fact.from_json(f) for f in self._call("GET", "/v1/me/facts").json().get("facts", [])]

    def forget_fact(self, fact_id: str) -> None:
        self._call("DELETE", f"/v1/me/facts/{_segment(fact_id)}")

    def profile(self) -> Profile:
        return Profile.from_json(self._call("GET", "/v1/me/profile").json())

    def export(self) -> Export:
        return Export.from_json(self._call("GET", "/v1/me/export").json())

    def erase_me(self) -> Erasure:
        """Erase the caller: key destroyed, data removed. Irreversible."""
        return Erasure.from_json(self._call("DELETE", "/v1/me").json())

    # --- transport

    def _headers(self, auth: Literal["user", "key", "none"]) -> dict[str, str]:
        if auth == "none":
            return {}
        if self._token:
            return {"authorization": f"Bearer {self._token}"}
        if self._api_key:
            if auth == "key":
                return {"x-api-key": self._api_key}
            if not self.user_id:
                raise ValueError("user_id is required with api_key (the user the call acts as); see for_user().")
            return {"x-api-key": self._api_key, "x-user-id": self.user_id}
        return {}

    def _call(self, method: str, path: str, *, json: Any = None, params: Mapping[str, Any] | None = None,
              idempotent: bool = False, auth: Literal["user", "key", "none"] | None = None) -> httpx.Response:
        """Send one request, retrying what may be retried; the response, or a ConvmemError."""
        if auth is None:
            auth = "none" if path == "/v1/visitors" else "user"
        headers = self._headers(auth)
        attempt = 0
        while True:
            try:
                response = self._http.request(method, path, json=json, params=params, headers=headers)
            except httpx.TransportError as exc:
                error: ConvmemError = ConvmemConnectionError(0, "connection_error", f"{type(exc).__name__}: {exc}")
                error.__cause__ = exc
                wait = self._backoff_s(attempt)
            else:
                if response.status_code < 400:
                    return response
                error = _error_of(response)
                retryable = response.status_code in RETRY_STATUSES or (idempotent and response.status_code == 409)
                if not retryable:
                    raise error
                wait = error.retry_after if error.retry_after is not None else self._backoff_s(attempt)
            if attempt >= self.max_retries or wait > self.max_retry_wait:
                raise error
            self._sleep(wait)
            attempt += 1

    def _backoff_s(self, attempt: int) -> float:
        """Exponential backoff with jitter (half fixed, half random), capped by max_retry_wait."""
        ceiling = self._backoff * (2**attempt)
        return min(self.max_retry_wait, ceiling / 2 + random.random() * ceiling / 2)


def _error_of(response: httpx.Response) -> ConvmemError:
    code, message = f"http_{response.status_code}", response.reason_phrase or "error"
    try:
        body = response.json()
        err = body.get("error") if isinstance(body, dict) else None
        if isinstance(err, dict):
            code, message = str(err.get("code") or code), str(err.get("message") or message)
    except ValueError:
        pass
    return error_for(response.status_code, code, message, _retry_after(response.headers.get("retry-after")))


def _retry_after(value: str | None) -> float | None:
    """Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); None if unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _segment(value: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("an id must be a non-empty string")
    return quote(value, safe="")


def _session(session_id: str) -> str:
    return f"/v1/sessions/{_segment(session_id)}"


def _new_id() -> str:
    return uuid.uuid4().hex


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _knowledge(knowledge: Knowledge | None) -> list[dict[str, str]] | None:
    if knowledge is None:
        return None
    return [{"source": k.source, "text": k.text} if isinstance(k, KnowledgeSnippet) else dict(k) for k in knowledge]
