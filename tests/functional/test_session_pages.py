"""GET /v1/sessions pages with limit / after / next as docs/api.md says (issue 15, item 6): it stopped
at 100 sessions with no ``next``."""

from __future__ import annotations

import copy
import json

import pytest
from convmem.service.turn import TurnInput

from tests.functional.conftest import load_event

USER = "sample-user"  # the user of events/api_list_sessions.json


def call(handler, event):
    out = handler(event)
    return out["statusCode"], json.loads(out["body"]) if out.get("body") else None


def list_event(user: str = USER, **query: str) -> dict:
    event = copy.deepcopy(load_event("api_list_sessions.json"))
    event["headers"]["x-user-id"] = user
    event["queryStringParameters"] = query
    event["rawQueryString"] = "&".join(f"{k}={v}" for k, v in query.items())
    return event


def all_pages(handler, user: str = USER, limit: int | None = None) -> list[dict]:
    pages, query = [], ({"limit": str(limit)} if limit else {})
    while True:
        status, page = call(handler, list_event(user, **query))
        assert status == 200, page
        pages.append(page)
        if "next" not in page:
            return pages
        query = {**query, "after": page["next"]}


@pytest.fixture()
def sessions(services):
    def make(user: str, n: int) -> list[str]:
        ids = [f"s-{i:03d}" for i in range(n)]
        for sid in ids:
            services.turns.take_turn(user, sid, TurnInput(message=f"hello from {sid}"))
        return ids[::-1]  # newest first
    return make


def test_pages_follow_next_until_it_is_absent_and_hold_every_session_once_newest_first(handler, sessions):
    expected = sessions(USER, 7)
    pages = all_pages(handler, limit=3)
    assert [len(p["sessions"]) for p in pages] == [3, 3, 1]
    assert [s["sessionId"] for p in pages for s in p["sessions"]] == expected


def test_more_than_100_sessions_are_all_listed(handler, sessions):
    expected = sessions(USER, 101)
    pages = all_pages(handler)
    assert [len(p["sessions"]) for p in pages] == [100, 1]
    assert [s["sessionId"] for p in pages for s in p["sessions"]] == expected


def test_exactly_a_full_page_has_no_next(handler, sessions):
    sessions(USER, 3)
    status, page = call(handler, list_event(limit="3"))
    assert status == 200 and len(page["sessions"]) == 3 and "next" not in page


@pytest.mark.parametrize("after", ["not-a-cursor", "e30", "%%%"])
def test_a_cursor_that_was_not_given_is_a_400(handler, sessions, after):
    sessions(USER, 2)
    status, body = call(handler, list_event(limit="1", after=after))
    assert status == 400 and body["error"]["code"] == "invalid_page"


def test_another_users_cursor_never_reads_their_sessions(handler, sessions):
    sessions("other-user", 3)
    status, page = call(handler, list_event("other-user", limit="1"))
    assert status == 200 and "next" in page
    status, body = call(handler, list_event(USER, limit="1", after=page["next"]))
    assert status == 400 and body["error"]["code"] == "invalid_page"


@pytest.mark.parametrize("limit", ["0", "101", "x"])
def test_a_limit_out_of_range_is_a_400(handler, limit):
    status, body = call(handler, list_event(limit=limit))
    assert status == 400 and body["error"]["code"].startswith("invalid")
