"""API Gateway HTTP API emulation: each HTTP request becomes a payload-2.0 event for the handler."""

from __future__ import annotations

import base64
import json
import time
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from local.lambda_runtime import LambdaContext

MAX_BODY = 10 * 1024 * 1024  # API Gateway's payload limit


def to_event(method: str, target: str, headers: list[tuple[str, str]], body: bytes, source_ip: str) -> dict[str, Any]:
    url = urlsplit(target)
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
        "rawPath": url.path,
        "rawQueryString": url.query,
        "headers": merged,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "local",
            "domainName": merged.get("host", "127.0.0.1"),
            "domainPrefix": "local",
            "http": {
                "method": method,
                "path": url.path,
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


def make_server(port: int, handler: Callable[[dict, Any], dict], function_name: str = "ApiFunction") -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt: str, *args: Any) -> None:  # quiet: the handler logs
            pass

        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_BODY:
                self._write(413, {"content-type": "application/json"},
                            json.dumps({"error": {"code": "payload_too_large", "message": "The body exceeds 10 MB."}}).encode())
                self.close_connection = True
                return
            body = self.rfile.read(length) if length else b""
            event = to_event(self.command, self.path, list(self.headers.items()), body, self.client_address[0])
            try:
                result = handler(event, LambdaContext(function_name))
            except Exception:  # what API Gateway shows for a crashed integration
                self._write(500, {"content-type": "application/json"}, b'{"message":"Internal Server Error"}')
                raise
            out = result.get("body") or ""
            data = base64.b64decode(out) if result.get("isBase64Encoded") else out.encode("utf-8")
            headers = {k.lower(): str(v) for k, v in (result.get("headers") or {}).items()}
            self._write(int(result.get("statusCode", 200)), headers, data, result.get("cookies") or [])

        def _write(self, status: int, headers: dict[str, str], data: bytes, cookies: list[str] | None = None) -> None:
            self.send_response(status)
            for k, v in headers.items():
                if k not in ("content-length", "connection"):
                    self.send_header(k, v)
            for c in cookies or []:
                self.send_header("set-cookie", c)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = _serve  # noqa: N815 (http.server names)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server
