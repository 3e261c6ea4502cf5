"""API Gateway HTTP API emulation: each HTTP request becomes a payload-2.0 event for the handler.

Like an HTTP API with a ``CorsConfiguration``, the emulation answers CORS preflights itself and
sets the CORS headers of every response (the handler's own are ignored). For the local stack
only, it also serves the widget's static files (``GET /`` and ``GET /widget/...``) without
calling the handler; in AWS those files live on the host site or a CDN.
"""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from local.lambda_runtime import LambdaContext
from local.template import ROOT, Resolver, TemplateError

MAX_BODY = 10 * 1024 * 1024  # API Gateway's payload limit
WIDGET_DIR = ROOT / "widget"


@dataclass(frozen=True)
class CorsConfig:
    """An HTTP API's ``CorsConfiguration``, applied the way API Gateway applies it.

    Origins match exactly (case-insensitively), or by ``*``, ``https://*`` or ``http://*``.
    """

    allow_origins: tuple[str, ...]
    allow_methods: tuple[str, ...] = ()
    allow_headers: tuple[str, ...] = ()
    expose_headers: tuple[str, ...] = ()
    max_age: int | None = None
    allow_credentials: bool = False

    def origin_allowed(self, origin: str | None) -> bool:
        if not origin:
            return False
        low = origin.lower()
        for allowed in self.allow_origins:
            pattern = allowed.lower().rstrip("/")
            if pattern == "*" or pattern == low:
                return True
            if pattern in ("https://*", "http://*") and low.startswith(pattern[:-1]) and len(low) > len(pattern) - 1:
                return True
        return False

    def _allow_origin_value(self, origin: str) -> str:
        # "*" cannot go with credentials; the browser then needs the origin itself.
        return "*" if "*" in self.allow_origins and not self.allow_credentials else origin

    def preflight_headers(self, origin: str | None, request_method: str, request_headers: str) -> dict[str, str]:
        """Headers of the 204 that answers a preflight: none for an origin not allowed."""
        if not self.origin_allowed(origin):
            return {}
        assert origin is not None
        headers = {"access-control-allow-origin": self._allow_origin_value(origin)}
        methods = [request_method] if "*" in self.allow_methods and request_method else list(self.allow_methods)
        if methods:
            headers["access-control-allow-methods"] = ",".join(methods)
        wanted = request_headers.strip()
        names = [wanted] if "*" in self.allow_headers and wanted else list(self.allow_headers)
        if names:
            headers["access-control-allow-headers"] = ",".join(names)
        if self.max_age is not None:
            headers["access-control-max-age"] = str(self.max_age)
        if self.allow_credentials:
            headers["access-control-allow-credentials"] = "true"
        return headers

    def response_headers(self, origin: str | None) -> dict[str, str]:
        """CORS headers added to an integration's response: none for an origin not allowed."""
        if not self.origin_allowed(origin):
            return {}
        assert origin is not None
        headers = {"access-control-allow-origin": self._allow_origin_value(origin)}
        if self.expose_headers:
            headers["access-control-expose-headers"] = ",".join(self.expose_headers)
        if self.allow_credentials:
            headers["access-control-allow-credentials"] = "true"
        return headers


_CORS_KEYS = {"AllowOrigins", "AllowMethods", "AllowHeaders", "ExposeHeaders", "MaxAge", "AllowCredentials"}


def _names(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.split(",")
    return tuple(str(v).strip() for v in value if str(v).strip())


def cors_config(template: Mapping[str, Any], resolver: Resolver) -> CorsConfig | None:
    """The ``CorsConfiguration`` of the template's HTTP API (None when it has none).

    ``CorsConfiguration: true`` is SAM's shorthand for every origin, method and header. A key
    the emulation does not know, or more than one HTTP API, fails loudly.
    """
    apis = [(k, v) for k, v in template.get("Resources", {}).items() if v.get("Type") == "AWS::Serverless::HttpApi"]
    if len(apis) > 1:
        raise TemplateError(f"{len(apis)} HTTP APIs in the template; the local stack serves one")
    if not apis:
        return None
    logical, res = apis[0]
    raw = (res.get("Properties") or {}).get("CorsConfiguration")
    if raw is None or raw is False:
        return None
    if raw is True:
        return CorsConfig(allow_origins=("*",), allow_methods=("*",), allow_headers=("*",))
    conf = resolver.resolve(raw)
    if not isinstance(conf, dict):
        raise TemplateError(f"{logical}.CorsConfiguration: {type(conf).__name__} is not emulated")
    unknown = set(conf) - _CORS_KEYS
    if unknown:
        raise TemplateError(f"{logical}.CorsConfiguration: {sorted(unknown)} not emulated")
    return CorsConfig(
        allow_origins=_names(conf.get("AllowOrigins")),
        allow_methods=tuple(m.upper() for m in _names(conf.get("AllowMethods"))),
        allow_headers=tuple(h.lower() for h in _names(conf.get("AllowHeaders"))),
        expose_headers=tuple(h.lower() for h in _names(conf.get("ExposeHeaders"))),
        max_age=int(conf["MaxAge"]) if conf.get("MaxAge") is not None else None,
        allow_credentials=str(conf.get("AllowCredentials", False)).lower() == "true",
    )


_CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


@dataclass(frozen=True)
class StaticFiles:
    """Files served by GET without the handler: ``pages`` maps exact paths to files in
    ``root``; below ``prefix`` every file of ``root`` with a known type is served by name."""

    root: Path
    prefix: str = "/widget/"
    pages: Mapping[str, str] = field(default_factory=lambda: {"/": "demo.html"})

    @classmethod
    def widget(cls) -> StaticFiles:
        """The widget and its demo page: ``/`` -> widget/demo.html, ``/widget/x`` -> widget/x."""
        return cls(WIDGET_DIR)

    def lookup(self, path: str) -> Path | None:
        """The file a GET of ``path`` (no query) serves, or None to leave it to the handler."""
        if path in self.pages:
            name = self.pages[path]
        elif path.startswith(self.prefix):
            name = unquote(path[len(self.prefix):])
        else:
            return None
        parts = name.split("/")
        if not name or any(p in ("", ".", "..") or p.startswith(".") or "\\" in p for p in parts):
            return None
        root = self.root.resolve()
        candidate = (root / name).resolve()
        if not candidate.is_relative_to(root) or not candidate.is_file():
            return None
        if candidate.suffix.lower() not in _CONTENT_TYPES:
            return None
        return candidate

    @staticmethod
    def content_type(path: Path) -> str:
        return _CONTENT_TYPES[path.suffix.lower()]


def to_event(method: str, target: str, headers: list[tuple[str, str]], body: bytes, source_ip: str) -> dict[str, Any]:
    url = urlsplit(target)
    # HTTP APIs hand Lambda the path percent-decoded (rawPath and requestContext.http.path alike).
    path = unquote(url.path)
    merged: dict[str, str] = {}
    cookies: list[str] = []
    for name, value in headers:
        key = name.lower()
        if key == "cookie":
            cookies.extend(c.strip() for c in value.split(";") if c.strip())
            continue
        merged[key] = f"{merged[key]},{value}" if key in merged else value
    query: dict[str, str] = {}
    for k, v in parse_qsl(url.query, keep_blank_values=True):
        query[k] = f"{query[k]},{v}" if k in query else v
    try:
        text, encoded = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, encoded = base64.b64encode(body).decode("ascii"), True
    now = time.time()
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": url.query,
        "headers": merged,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "local",
            "domainName": merged.get("host", "127.0.0.1"),
            "domainPrefix": "local",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": merged.get("user-agent", ""),
            },
            "requestId": uuid.uuid4().hex,
            "routeKey": "$default",
            "stage": "$default",
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "timeEpoch": int(now * 1000),
        },
        "isBase64Encoded": encoded,
    }
    if cookies:
        event["cookies"] = cookies
    if query:
        event["queryStringParameters"] = query
    if body:
        event["body"] = text
    return event


def is_preflight(method: str, headers: Mapping[str, str]) -> bool:
    """A CORS preflight: OPTIONS with both ``origin`` and ``access-control-request-method``."""
    return method == "OPTIONS" and bool(headers.get("origin")) and bool(headers.get("access-control-request-method"))


def make_server(
    port: int,
    handler: Callable[[dict, Any], dict],
    function_name: str = "ApiFunction",
    *,
    cors: CorsConfig | None = None,
    static: StaticFiles | None = None,
) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1:``port`` that calls ``handler`` with payload-2.0 events.

    ``cors``: answer preflights and set CORS headers as the HTTP API would (see CorsConfig).
    ``static``: GET of its paths is answered from files, never reaching the handler.
    """

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt: str, *args: Any) -> None:  # quiet: the handler logs (never message text)
            pass

        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_BODY:
                self._write(413, {"content-type": "application/json", **self._cors(self.headers.get("origin"))},
                            json.dumps({"error": {"code": "payload_too_large", "message": "The body exceeds 10 MB."}}).encode())
                self.close_connection = True
                return
            body = self.rfile.read(length) if length else b""
            origin = self.headers.get("origin")
            if cors is not None and is_preflight(self.command, self.headers):
                # API Gateway answers preflights itself, with or without an OPTIONS route.
                preflight = cors.preflight_headers(
                    origin, self.headers.get("access-control-request-method", ""),
                    self.headers.get("access-control-request-headers", ""),
                )
                self._write(204, preflight, b"")
                return
            if static is not None and self.command in ("GET", "HEAD"):
                found = static.lookup(urlsplit(self.path).path)
                if found is not None:
                    self._write(200, {"content-type": static.content_type(found), "cache-control": "no-cache",
                                      "x-content-type-options": "nosniff"}, found.read_bytes())
                    return
            event = to_event(self.command, self.path, list(self.headers.items()), body, self.client_address[0])
            try:
                # One request at a time through the handler, as one Lambda instance serves them:
                # Powertools' resolver keeps the current event in a class attribute
                # (BaseRouter.current_event), so two requests at once in one process would read
                # each other's headers - a turn could run as another caller.
                with invoke_lock:
                    result = handler(event, LambdaContext(function_name))
            except Exception:  # what API Gateway shows for a crashed integration
                self._write(500, {"content-type": "application/json", **self._cors(origin)},
                            b'{"message":"Internal Server Error"}')
                raise
            out = result.get("body") or ""
            data = base64.b64decode(out) if result.get("isBase64Encoded") else out.encode("utf-8")
            headers = {k.lower(): str(v) for k, v in (result.get("headers") or {}).items()}
            if cors is not None:  # the integration's CORS headers are ignored, the configured ones set
                headers = {k: v for k, v in headers.items() if not k.startswith("access-control-")}
                headers.update(self._cors(origin))
            self._write(int(result.get("statusCode", 200)), headers, data, result.get("cookies") or [])

        def _cors(self, origin: str | None) -> dict[str, str]:
            return cors.response_headers(origin) if cors is not None else {}

        def _write(self, status: int, headers: dict[str, str], data: bytes, cookies: list[str] | None = None) -> None:
            self.send_response(status)
            for k, v in headers.items():
                if k not in ("content-length", "connection"):
                    self.send_header(k, v)
            for c in cookies or []:
                self.send_header("set-cookie", c)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":  # a HEAD answer has no body: bytes after it would be read as the next response
                self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = _serve  # noqa: N815 (http.server names)

    invoke_lock = threading.Lock()
    server = _Server(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server


class _Server(ThreadingHTTPServer):
    # A burst of clients (the widget, a load test) must queue, not be reset: the default is 5.
    request_queue_size = 128
