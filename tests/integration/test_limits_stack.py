"""`make run` enforces the limits per caller (issue 15, item 4): the same handler behind the local
API Gateway, its limits from the template's parameters (here set through the variables the local
stack takes, as `CONVMEM_TURN_LIMIT=2 make run` would)."""

from __future__ import annotations

import secrets

import pytest
import requests

from tests.integration.conftest import _start, _stop

LIMITS = {"CONVMEM_TURN_LIMIT": "2", "CONVMEM_TURN_LIMIT_WINDOW_S": "3600", "CONVMEM_TURN_BURST_LIMIT": "0",
          "CONVMEM_VISITOR_LIMIT": "2", "CONVMEM_VISITOR_LIMIT_WINDOW_S": "3600", "CONVMEM_VISITOR_BURST_LIMIT": "0"}


@pytest.fixture(scope="module")
def stack():
    s = _start(LIMITS)
    try:
        yield s
    finally:
        _stop(s)


def test_the_local_stack_answers_429_with_retry_after_per_user_and_per_address(stack):
    visitors = [requests.post(f"{stack.url}/v1/visitors", timeout=30) for _ in range(3)]
    assert [r.status_code for r in visitors] == [201, 201, 429]
    refused = visitors[2]
    assert refused.json()["error"]["code"] == "rate_limited" and 1 <= int(refused.headers["retry-after"]) <= 3600

    token = visitors[0].json()["token"]
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    session = f"lim-{secrets.token_hex(4)}"
    turns = [requests.post(f"{stack.url}/v1/sessions/{session}-{i}/turns", headers=headers,
                           json={"message": f"Hello {i}"}, timeout=30) for i in range(3)]
    assert [r.status_code for r in turns] == [200, 200, 429]
    assert turns[2].json()["error"]["code"] == "rate_limited" and int(turns[2].headers["retry-after"]) >= 1
    # Another user is not held back by the first one's spent window.
    other = stack.turn(f"u-{secrets.token_hex(4)}", f"{session}-other", "Hello")
    assert other.status_code == 200
    # The refused turn wrote nothing: its session does not exist.
    transcript = requests.get(f"{stack.url}/v1/sessions/{session}-2/messages", headers=headers, timeout=30)
    assert transcript.status_code == 404
