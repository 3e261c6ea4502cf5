from datetime import UTC, datetime

import pytest
from convmem.domain.context_assembly import assemble, check_message_fits, request_tokens, split_window
from convmem.domain.models import Message
from convmem.domain.tokens import count_tokens
from convmem.errors import MessageTooLargeError
from hypothesis import given
from hypothesis import strategies as st

AT = datetime(2026, 12, 1, tzinfo=UTC)


def conversation(n: int, start: int = 1) -> list[Message]:
    return [
        Message(seq=s, role="visitor" if s % 2 else "agent", text=f"message number {s}", channel="api", at=AT)
        for s in range(start, start + n)
    ]


def test_the_window_is_the_last_twelve_messages_in_order():
    pending, window = split_window(list(reversed(conversation(30))), 12)
    assert [m.seq for m in window] == list(range(19, 31))
    assert [m.seq for m in pending] == list(range(1, 19))


def test_a_short_conversation_is_all_window():
    pending, window = split_window(conversation(5), 12)
    assert pending == [] and [m.seq for m in window] == [1, 2, 3, 4, 5]


def test_the_request_has_the_history_verbatim_and_the_current_message_last():
    history = conversation(14)
    request, report = assemble(system="sys", summary=None, after_cursor=history, current="now?", window=12, budget=8000)
    assert [m.text for m in request.history] == [m.text for m in history]
    assert request.current == "now?"
    assert (report.window_messages, report.pending_messages) == (12, 2)
    assert report.request_tokens == request_tokens(request)


@given(n=st.integers(0, 60), window=st.integers(2, 20), cursor=st.integers(0, 40))
def test_every_message_after_the_cursor_is_sent_exactly_once(n, window, cursor):
    after = conversation(n, start=cursor + 1)
    request, report = assemble(system="s", summary="sum", after_cursor=after, current="q", window=window, budget=8000)
    assert [m.text for m in request.history] == [m.text for m in after]
    assert report.window_messages == min(n, window)
    assert report.window_messages + report.pending_messages == n


def test_token_counting_is_offline_and_handles_korean():
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert count_tokens("부산에 살아요") > 3


def test_a_message_that_alone_exceeds_the_budget_is_refused_with_the_numbers():
    huge = "word " * 9000
    with pytest.raises(MessageTooLargeError) as err:
        check_message_fits("sys", huge, budget=8000, reserve=1024)
    assert str(count_tokens(huge)) in err.value.message and "8000" in err.value.message


def test_a_message_that_fits_passes():
    assert check_message_fits("sys", "hi there", budget=8000, reserve=1024) == count_tokens("hi there")
