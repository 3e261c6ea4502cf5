"""The real local stack over HTTP: folding catches up, summaries hold identifiers, races keep order."""

from __future__ import annotations

import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from convmem.domain.summary_fold import covered_seqs
from convmem.domain.tokens import count_tokens

pytestmark = pytest.mark.integration



def session_view(stack, user, session):
    return requests.get(f"{stack.url}/v1/sessions/{session}", headers=stack.headers(user), timeout=10).json()


def test_forty_turns_fold_behind_the_cursor_and_keep_the_order_number(stack):
    user, session = "fold-user", f"s-{uuid.uuid4().hex[:8]}"
    times = []
    for i in range(40):
        text = "Hello! My order number is QX-55120 and I paid $89.50 on 2026-11-28." if i == 0 else \
            f"Question {i}: could you tell me more about delivery options and packaging in general?"
        start_t = time.perf_counter()
        r = stack.turn(user, session, text)
        times.append(time.perf_counter() - start_t)
        assert r.status_code == 200, r.text
        assert r.json()["context"]["windowMessages"] == min(2 * i, 12)
    deadline = time.monotonic() + 10
    view = session_view(stack, user, session)
    while view["summarizedThrough"] < view["messageCount"] - 12 and time.monotonic() < deadline:
        time.sleep(0.2)
        view = session_view(stack, user, session)
    assert view["messageCount"] == 80
    assert view["summarizedThrough"] == 80 - 12
    assert count_tokens(view["summary"]) <= 400
    assert "QX-55120" in view["summary"]
    assert covered_seqs(view["summary"]) == list(range(1, 69))
    r = stack.turn(user, session, "One more thing.")
    ctx = r.json()["context"]
    assert ctx["summaryTokens"] > 0 and ctx["windowMessages"] == 12 and ctx["pendingMessages"] == 0
    print(f"\nlocal-stack turn time over 40 turns: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {sorted(times)[int(len(times) * 0.95)] * 1000:.1f} ms")


def test_ten_concurrent_turns_on_one_session_keep_seqs_contiguous(stack):
    user, session = "race-user", f"race-{uuid.uuid4().hex[:8]}"
    with ThreadPoolExecutor(max_workers=10) as pool:
        responses = list(pool.map(lambda i: stack.turn(user, session, f"concurrent message {i}"), range(10)))
    assert [r.status_code for r in responses] == [200] * 10
    page = requests.get(f"{stack.url}/v1/sessions/{session}/messages?limit=50", headers=stack.headers(user), timeout=10).json()
    msgs = page["messages"]
    assert [m["seq"] for m in msgs] == list(range(1, 21))
    assert [m["role"] for m in msgs] == ["visitor", "agent"] * 10
    for visitor, agent in zip(msgs[::2], msgs[1::2], strict=True):
        assert visitor["text"] in agent["text"]  # its own reply, right after it
    assert sorted(m["text"] for m in msgs[::2]) == sorted(f"concurrent message {i}" for i in range(10))


def test_the_same_client_turn_id_sent_twice_at_once_runs_one_turn(stack):
    user, session = "idem-user", f"idem-{uuid.uuid4().hex[:8]}"
    with ThreadPoolExecutor(max_workers=2) as pool:
        responses = list(pool.map(lambda _: stack.turn(user, session, "only once please", clientTurnId="ct-1"), range(2)))
    statuses = sorted(r.status_code for r in responses)
    assert statuses in ([200, 200], [200, 409])
    ok = [r.json() for r in responses if r.status_code == 200]
    assert all(o["turnId"] == ok[0]["turnId"] for o in ok)
    conflict = [r.json() for r in responses if r.status_code == 409]
    assert all(c["error"]["code"] == "turn_in_progress" for c in conflict)
    assert session_view(stack, user, session)["messageCount"] == 2


def test_concurrent_first_turns_of_different_users_each_run_as_their_own_caller(stack):
    """Powertools keeps the current event in a class attribute: two requests at once in one
    process could read each other's credentials. Each user must own exactly their session."""
    users = [f"conc-{uuid.uuid4().hex[:6]}-{i}" for i in range(8)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        responses = list(pool.map(lambda u: stack.turn(u, f"{u}-s", f"I am {u}"), users))
    assert [r.status_code for r in responses] == [200] * 8
    for u in users:
        listed = requests.get(f"{stack.url}/v1/sessions", headers=stack.headers(u), timeout=10).json()["sessions"]
        assert [s["sessionId"] for s in listed] == [f"{u}-s"]
        assert [m["text"] for m in stack.transcript(u, f"{u}-s")][0] == f"I am {u}"
