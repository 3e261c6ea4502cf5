"""HEAD answered as HTTP says (RFC 9110 9.3.2): on every GET route, the GET's status and headers
and no body - by the function (API Gateway's ``ANY /{proxy+}`` route hands HEAD to it) and by the
local API Gateway, whose body after a HEAD answer broke the keep-alive connection (issue 15, item 6)."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from local.apigw import make_server
from local.lambda_runtime import load_handler
from tests.functional.conftest import load_event


def as_method(event: dict, method: str, path: str | None = None) -> dict:
    event["requestContext"]["http"]["method"] = method
    if path:
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
    return event


@pytest.mark.parametrize("name", ["api_health.json", "api_list_sessions.json", "api_list_facts.json"])
def test_head_on_a_get_route_is_the_get_without_its_body(handler, name):
    get = handler(load_event(name))
    head = handler(as_method(load_event(name), "HEAD"))
    assert head["statusCode"] == get["statusCode"] == 200
    assert head["body"] == "" and get["body"]
    assert head["headers"].get("Content-Type") == get["headers"].get("Content-Type")


def test_head_on_a_route_without_get_is_still_a_404_without_body(handler):
    head = handler(as_method(load_event("api_health.json"), "HEAD", "/v1/visitors"))
    assert head["statusCode"] == 404 and head["body"] == ""


@pytest.fixture()
def local_gateway(api_env, aws):
    template, resolver = aws
    fn = load_handler(template, "ApiFunction", resolver)
    server = make_server(0, fn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_the_local_gateway_answers_head_without_a_body_and_the_connection_stays_usable(local_gateway):
    conn = http.client.HTTPConnection("127.0.0.1", local_gateway, timeout=10)
    conn.request("HEAD", "/v1/health")
    head = conn.getresponse()
    assert head.status == 200 and head.read() == b""
    conn.request("GET", "/v1/health")  # the same keep-alive connection
    get = conn.getresponse()
    assert get.status == 200 and json.loads(get.read()) == {"status": "ok"}
    conn.close()


def test_head_of_the_demo_page_is_served_without_its_bytes(api_env, aws):
    from local.apigw import StaticFiles

    template, resolver = aws
    server = make_server(0, load_handler(template, "ApiFunction", resolver), static=StaticFiles.widget())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        conn.request("HEAD", "/")
        head = conn.getresponse()
        assert head.status == 200 and head.getheader("content-type").startswith("text/html")
        assert int(head.getheader("content-length")) > 0 and head.read() == b""
        conn.request("GET", "/v1/health")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        server.shutdown()
        server.server_close()
