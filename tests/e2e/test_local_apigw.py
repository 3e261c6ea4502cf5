"""The local API Gateway emulation as the widget meets it: CORS from template.yaml, the widget's
static files served without the handler.

Most of these need no browser (an in-process server with a recording handler); the last checks
that Chromium itself accepts or blocks a cross-origin call as the emulation answers it.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests

from local.apigw import WIDGET_DIR, CorsConfig, StaticFiles, cors_config, make_server
from local.aws import free_port
from local.template import Resolver, TemplateError, load_template

ALLOWED = "http://127.0.0.1:3000"  # template.yaml's WidgetOrigins default
ALSO_ALLOWED = "http://localhost:3000"
STRANGER = "https://evil.example"


class RecordingHandler:
    """A stand-in for the Lambda handler: records events and answers with its own CORS header,
    which the emulation must drop (API Gateway ignores an integration's CORS headers)."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def __call__(self, event: dict[str, Any], _context: Any) -> dict[str, Any]:
        self.events.append(event)
        return {
            "statusCode": 200,
            "headers": {"content-type": "application/json", "access-control-allow-origin": "*"},
            "body": json.dumps({"path": event["rawPath"], "method": event["requestContext"]["http"]["method"]}),
        }


@contextmanager
def serve(server: ThreadingHTTPServer) -> Iterator[str]:
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture
def handler() -> RecordingHandler:
    return RecordingHandler()


@pytest.fixture
def api(template: dict[str, Any], handler: RecordingHandler) -> Iterator[str]:
    cors = cors_config(template, Resolver(template))
    with serve(make_server(free_port(), handler, cors=cors, static=StaticFiles.widget())) as url:
        yield url


# --- reading the CORS configuration from the template


def test_ref_to_a_comma_delimited_list_parameter_is_a_list(template: dict[str, Any]) -> None:
    resolver = Resolver(template)
    assert resolver.resolve({"Ref": "WidgetOrigins"}) == [ALLOWED, ALSO_ALLOWED]
    resolver.overrides["WidgetOrigins"] = "https://shop.example, https://www.shop.example"
    assert resolver.resolve({"Ref": "WidgetOrigins"}) == ["https://shop.example", "https://www.shop.example"]
    assert resolver.resolve({"Ref": "WindowMessages"}) == "12"  # other parameters stay strings
    with pytest.raises(TemplateError):
        resolver.resolve({"Fn::Sub": "origins: ${WidgetOrigins}"})


def test_cors_config_is_the_templates(template: dict[str, Any]) -> None:
    cors = cors_config(template, Resolver(template))
    assert cors == CorsConfig(
        allow_origins=(ALLOWED, ALSO_ALLOWED),
        allow_methods=("GET", "POST", "DELETE", "OPTIONS"),
        allow_headers=("authorization", "content-type"),
        expose_headers=("retry-after",),  # the widget reads when a 429's window frees
        max_age=600,
    )


def test_cors_config_true_and_unknown_keys(template: dict[str, Any]) -> None:
    t = json.loads(json.dumps(template))
    t["Resources"]["HttpApi"]["Properties"]["CorsConfiguration"] = True
    assert cors_config(t, Resolver(t)).origin_allowed("https://anything.example")
    t["Resources"]["HttpApi"]["Properties"]["CorsConfiguration"] = {"AllowOrigins": ["*"], "AllowOriginz": ["x"]}
    with pytest.raises(TemplateError):
        cors_config(t, Resolver(t))
    del t["Resources"]["HttpApi"]["Properties"]["CorsConfiguration"]
    assert cors_config(t, Resolver(t)) is None


def test_origin_patterns() -> None:
    cors = CorsConfig(allow_origins=("https://shop.example", "http://*"))
    assert cors.origin_allowed("https://SHOP.example")
    assert cors.origin_allowed("http://any.host:8080")
    assert not cors.origin_allowed("https://other.example")
    assert not cors.origin_allowed("https://shop.example.evil.example")
    assert not cors.origin_allowed(None)
    assert CorsConfig(allow_origins=("*",)).response_headers("https://a.example") == {"access-control-allow-origin": "*"}


# --- preflight and responses over HTTP


def preflight(url: str, origin: str, method: str = "POST") -> requests.Response:
    return requests.options(url, headers={
        "origin": origin, "access-control-request-method": method,
        "access-control-request-headers": "authorization,content-type",
    }, timeout=5)


def cors_headers(response: requests.Response) -> dict[str, str]:
    return {k.lower(): v for k, v in response.headers.items() if k.lower().startswith("access-control-")}


def test_preflight_from_an_allowed_origin_is_answered_without_the_handler(api: str, handler: RecordingHandler) -> None:
    r = preflight(f"{api}/v1/sessions/s-1/turns", ALLOWED)
    assert r.status_code == 204
    assert r.content == b""
    assert cors_headers(r) == {
        "access-control-allow-origin": ALLOWED,
        "access-control-allow-methods": "GET,POST,DELETE,OPTIONS",
        "access-control-allow-headers": "authorization,content-type",
        "access-control-max-age": "600",
    }
    assert preflight(f"{api}/v1/visitors", ALSO_ALLOWED).headers["access-control-allow-origin"] == ALSO_ALLOWED
    assert handler.events == []


def test_preflight_from_another_origin_gets_no_cors_headers(api: str, handler: RecordingHandler) -> None:
    r = preflight(f"{api}/v1/sessions/s-1/turns", STRANGER)
    assert r.status_code == 204
    assert cors_headers(r) == {}
    assert handler.events == []


def test_plain_options_without_a_preflight_header_reaches_the_handler(api: str, handler: RecordingHandler) -> None:
    r = requests.options(f"{api}/v1/health", headers={"origin": ALLOWED}, timeout=5)
    assert r.status_code == 200
    assert [e["requestContext"]["http"]["method"] for e in handler.events] == ["OPTIONS"]


@pytest.mark.parametrize(("origin", "expected"), [(ALLOWED, ALLOWED), (STRANGER, None), (None, None)])
def test_responses_carry_the_configured_origin_only(api: str, origin: str | None, expected: str | None) -> None:
    headers = {"origin": origin} if origin else {}
    r = requests.post(f"{api}/v1/visitors", headers=headers, timeout=5)
    assert r.status_code == 200
    # The handler's own "access-control-allow-origin: *" is ignored, as API Gateway does.
    assert cors_headers(r) == ({"access-control-allow-origin": expected, "access-control-expose-headers": "retry-after"}
                               if expected else {})


def test_without_cors_config_options_goes_to_the_handler(handler: RecordingHandler) -> None:
    with serve(make_server(free_port(), handler)) as url:
        r = preflight(f"{url}/v1/visitors", ALLOWED)
        assert r.status_code == 200
        assert r.headers["access-control-allow-origin"] == "*"  # the handler's, untouched
    assert len(handler.events) == 1


# --- the widget's static files


def test_get_of_widget_files_is_served_without_the_handler(api: str, handler: RecordingHandler) -> None:
    page = requests.get(f"{api}/", timeout=5)
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.content == (WIDGET_DIR / "demo.html").read_bytes()
    script = requests.get(f"{api}/widget/convmem-widget.js?v=1", timeout=5)
    assert script.status_code == 200
    assert script.headers["content-type"] == "text/javascript; charset=utf-8"
    assert script.content == (WIDGET_DIR / "convmem-widget.js").read_bytes()
    assert handler.events == []


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/"),
    ("DELETE", "/widget/convmem-widget.js"),
    ("GET", "/widget/missing.js"),
    ("GET", "/widget/../template.yaml"),
    ("GET", "/widget/%2e%2e/template.yaml"),
    ("GET", "/widget/"),
    ("GET", "/v1/health"),
])
def test_everything_else_goes_to_the_handler(api: str, handler: RecordingHandler, method: str, path: str) -> None:
    # http.client sends the path as written (a client library might normalise "..")
    conn = http.client.HTTPConnection(api.removeprefix("http://"), timeout=5)
    try:
        conn.request(method, path)
        r = conn.getresponse()
        body = r.read()
    finally:
        conn.close()
    assert r.status == 200
    assert json.loads(body)["method"] == method
    assert len(handler.events) == 1
    assert b"AWSTemplateFormatVersion" not in body


def test_static_lookup_stays_inside_its_folder(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "a.js").write_text("1")
    (tmp_path / "site" / ".secret.js").write_text("2")
    (tmp_path / "outside.js").write_text("3")
    (tmp_path / "site" / "link.js").symlink_to(tmp_path / "outside.js")
    static = StaticFiles(tmp_path / "site", pages={"/": "a.js"})
    assert static.lookup("/") == (tmp_path / "site" / "a.js").resolve()
    assert static.lookup("/widget/a.js") is not None
    for path in ("/widget/.secret.js", "/widget/../outside.js", "/widget/link.js", "/widget/a.txt", "/widget/", "/a.js"):
        assert static.lookup(path) is None, path


# --- the real stack serves the template's CORS and the demo


def test_the_local_stack_answers_preflights_and_serves_the_demo(stack: Any) -> None:
    r = preflight(f"{stack.url}/v1/sessions/s-1/turns", ALLOWED)
    assert r.status_code == 204
    assert r.headers["access-control-allow-origin"] == ALLOWED
    assert cors_headers(preflight(f"{stack.url}/v1/visitors", STRANGER)) == {}
    visitor = requests.post(f"{stack.url}/v1/visitors", headers={"origin": ALLOWED}, timeout=10)
    assert visitor.status_code == 201
    assert visitor.headers["access-control-allow-origin"] == ALLOWED
    demo = requests.get(f"{stack.url}/", timeout=10)
    assert demo.status_code == 200
    assert 'src="/widget/convmem-widget.js"' in demo.text


# --- what Chromium makes of it


class _HostPage(BaseHTTPRequestHandler):
    """A host site on its own origin: one page, nothing else."""

    def do_GET(self) -> None:  # noqa: N802 (http.server name)
        body = b"<!doctype html><title>host</title><p>host site</p>"
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


def test_a_browser_on_an_allowed_origin_may_call_the_api_and_others_may_not(
    template: dict[str, Any], handler: RecordingHandler, new_page: Any,
) -> None:
    allowed_port, other_port = free_port(), free_port()
    resolver = Resolver(template)
    resolver.overrides["WidgetOrigins"] = f"http://127.0.0.1:{allowed_port}"
    api_server = make_server(free_port(), handler, cors=cors_config(template, resolver))
    hosts = [ThreadingHTTPServer(("127.0.0.1", p), _HostPage) for p in (allowed_port, other_port)]
    call = """async (url) => {
        try {
            const r = await fetch(url, {method: "POST", headers: {"authorization": "Bearer x",
                                        "content-type": "application/json"}, body: "{}"});
            return "ok " + r.status;
        } catch (e) { return "blocked"; }
    }"""
    with serve(api_server) as api_url, serve(hosts[0]) as allowed_url, serve(hosts[1]) as other_url:
        page = new_page()
        page.goto(allowed_url)
        assert page.evaluate(call, f"{api_url}/v1/sessions/s-1/turns") == "ok 200"
        page.goto(other_url)
        assert page.evaluate(call, f"{api_url}/v1/sessions/s-1/turns") == "blocked"
    # The allowed page's preflight and POST: only the POST reached the handler. The other
    # origin's preflight was answered without CORS headers, so the browser never sent its POST.
    assert [e["requestContext"]["http"]["method"] for e in handler.events] == ["POST"]
