"""The Python client (clients/python) against the real local stack: every method, both auth modes."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from convmem_client import (
    AuthenticationError,
    BadRequestError,
    ConvmemClient,
    NotFoundError,
    PermissionDeniedError,
)

pytestmark = pytest.mark.integration


def user() -> str:
    return f"client-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def alice(stack):
    with ConvmemClient(stack.url, api_key=stack.api_key, user_id=user()) as client:
        yield client


def wait_for(what, probe, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_turns_sessions_transcript_facts_profile_export_and_delete(alice):
    first = alice.turn("trip", "My name is Minji and I live in Busan")
    again = alice.turn("trip", "what should I pack?", channel="api")
    alice.turn("other", "hello")

    assert (first.visitor_seq, first.agent_seq, again.visitor_seq) == (1, 2, 3)
    assert again.context.window_messages == 2 and again.reply
    page = alice.sessions(limit=1)
    assert len(page.sessions) == 1 and page.next
    assert [s.session_id for s in alice.iter_sessions(page_size=1)] == ["other", "trip"]
    detail = alice.session("trip")
    assert detail.message_count == 4 and detail.created_at.tzinfo is not None
    messages = list(alice.iter_messages("trip", page_size=3))
    assert [(m.seq, m.role) for m in messages] == [(1, "visitor"), (2, "agent"), (3, "visitor"), (4, "agent")]
    assert messages[0].text == "My name is Minji and I live in Busan" and messages[2].channel == "api"

    facts = wait_for("the facts of turn 1", lambda: (f := alice.facts()) and len(f) >= 2 and f)
    assert {"Their name is Minji"} <= {f.text for f in facts}
    home = next(f for f in facts if "Busan" in f.text)
    alice.forget_fact(home.id)
    assert all(f.id != home.id for f in alice.facts())
    with pytest.raises(NotFoundError) as missing:
        alice.forget_fact(home.id)
    assert missing.value.code.endswith("not_found")

    assert alice.profile().profile is None or isinstance(alice.profile().profile, str)
    export = alice.export()
    assert export.user_id == alice.user_id
    assert {s.session_id: len(s.messages) for s in export.sessions} == {"trip": 4, "other": 2}

    alice.delete_session("other")
    with pytest.raises(NotFoundError):
        alice.session("other")


def test_forgetting_one_message_removes_it_and_its_reply(alice):
    alice.turn("forget-one", "my locker code is 4711")
    alice.turn("forget-one", "the weather is nice")
    alice.forget_message("forget-one", 1)
    alice.forget_message("forget-one", 1)  # again: already forgotten, still fine
    kept = alice.messages("forget-one").messages
    assert [m.seq for m in kept] == [3, 4] and "4711" not in " ".join(m.text for m in kept)
    with pytest.raises(BadRequestError) as refused:
        alice.forget_message("forget-one", 4)  # an agent reply goes with its visitor message, not alone
    assert refused.value.code == "not_visitor_message"


def test_a_retried_turn_with_the_same_client_turn_id_is_stored_once(alice):
    a = alice.turn("idem", "hello there", client_turn_id="turn-1")
    b = alice.turn("idem", "hello there", client_turn_id="turn-1")
    assert (a.turn_id, a.reply, a.visitor_seq) == (b.turn_id, b.reply, b.visitor_seq)
    assert alice.session("idem").message_count == 2


def test_visitor_tokens_act_as_their_user_and_may_not_send_knowledge(stack):
    visitor = ConvmemClient.new_visitor(stack.url)
    assert visitor.user_id.startswith("v-") and visitor.token_expires_at > datetime.now(UTC)
    visitor.turn("web-1", "hi")
    with pytest.raises(PermissionDeniedError) as refused:
        visitor.turn("web-1", "hi again", knowledge=[{"source": "faq#1", "text": "Open 9-5."}])
    assert refused.value.status == 403 and refused.value.code

    # A server-side caller mints a token for a known user: the widget and the API are one person.
    server = ConvmemClient(stack.url, api_key=stack.api_key, user_id=user())
    server.turn("shared", "hello from the server")
    as_widget = server.with_token(server.token_for(server.user_id).token)
    assert [s.session_id for s in as_widget.sessions().sessions] == ["shared"]
    assert [s.session_id for s in server.for_user(user()).sessions().sessions] == []

    with pytest.raises(AuthenticationError) as bad:
        ConvmemClient(stack.url, token="not-a-token").facts()
    assert bad.value.status == 401
    with pytest.raises(AuthenticationError):
        ConvmemClient(stack.url, api_key="wrong", user_id="u-1").facts()


def test_bad_input_raises_the_api_code_and_writes_nothing(alice):
    with pytest.raises(BadRequestError) as empty:
        alice.turn("s-1", "   ")
    assert empty.value.code and empty.value.status == 400
    with pytest.raises(NotFoundError):
        alice.session("s-1")


def test_exchanges_store_two_rows_and_context_returns_them_fitted(alice):
    stored = alice.exchange("byom", visitor="My name is Jisoo and I live in Daegu", agent="Nice to meet you, Jisoo.")
    assert (stored.session_id, stored.visitor_seq, stored.agent_seq) == ("byom", 1, 2)
    again = alice.exchange("byom", visitor="Just checking in", agent="Good to hear from you.", client_turn_id="x-1")
    repeat = alice.exchange("byom", visitor="Just checking in", agent="Good to hear from you.", client_turn_id="x-1")
    assert again == repeat and alice.session("byom").message_count == 4

    wait_for("the facts of the exchange", lambda: any("Daegu" in f.text for f in alice.facts()))
    layers = alice.context("byom", "where do I live again?")
    assert [(m.role, m.text) for m in layers.history] == [
        ("visitor", "My name is Jisoo and I live in Daegu"), ("agent", "Nice to meet you, Jisoo."),
        ("visitor", "Just checking in"), ("agent", "Good to hear from you.")]
    assert layers.current == "where do I live again?"
    assert any("Daegu" in f.text for f in layers.facts) and layers.context.fact_ids

    converse = alice.context("byom", "where do I live again?", format="converse")
    assert converse.messages[-1]["role"] == "user"
    assert "where do I live again?" in converse.messages[-1]["content"][-1]["text"]
    assert "Daegu" in converse.system_text
    assert alice.session("byom").message_count == 4  # context stores nothing


def test_an_imported_exchange_keeps_its_time_and_may_not_go_back_in_time(alice):
    then = datetime.now(UTC) - timedelta(days=30)
    alice.exchange("import", visitor="first", agent="reply", at=then)
    with pytest.raises(BadRequestError) as back:
        alice.exchange("import", visitor="older", agent="reply", at=then - timedelta(days=1))
    assert back.value.code
    said = [m.at for m in alice.iter_messages("import")]
    assert all(abs((at - then).total_seconds()) < 1 for at in said)


def test_erase_me_removes_the_user(alice):
    alice.turn("gone", "My name is Hana")
    erased = alice.erase_me()
    assert erased.user_id == alice.user_id and erased.status in {"erased", "erasing"}
    wait_for("the erasure", lambda: not alice.sessions().sessions)
    assert alice.export().sessions == []
