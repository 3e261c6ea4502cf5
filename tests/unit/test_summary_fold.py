from datetime import UTC, datetime

from convmem.domain import summary_fold as sf
from convmem.domain.models import Message
from convmem.domain.tokens import count_tokens
from hypothesis import given, settings
from hypothesis import strategies as st

AT = datetime(2026, 12, 1, tzinfo=UTC)
FILLER = "we talked about the weather and the shipping options for a while without deciding much at all"


def msgs(first: int, last: int, text=lambda s: f"{FILLER} ({s})") -> list[Message]:
    return [Message(seq=s, role="visitor" if s % 2 else "agent", text=text(s), channel="api", at=AT) for s in range(first, last + 1)]


def test_fold_target_is_what_stands_beyond_the_window():
    assert sf.fold_target(message_count=12, cursor=0, window=12) is None
    assert sf.fold_target(message_count=14, cursor=0, window=12) == 2
    assert sf.fold_target(message_count=40, cursor=28, window=12) is None
    assert sf.fold_target(message_count=42, cursor=28, window=12) == 30


def test_a_fold_appends_one_entry_and_keeps_the_old_one_as_recorded():
    first = sf.fold(None, msgs(1, 2), cap=400)
    second = sf.fold(first, msgs(3, 4), cap=400)
    assert second.startswith(first)
    assert [(e.first, e.last) for e in sf.parse(second)] == [(1, 2), (3, 4)]


def test_the_turn_one_order_number_survives_a_long_conversation():
    summary = sf.fold(None, [Message(seq=1, role="visitor", at=AT, channel="api",
                                     text="Hi. My order number is ZX-40917 and I paid $129.99 on 2026-11-30."),
                             Message(seq=2, role="agent", at=AT, channel="api", text="Thanks, I will check it.")], cap=400)
    for start in range(3, 600, 2):
        summary = sf.fold(summary, msgs(start, start + 1), cap=400)
    assert count_tokens(summary) <= 400
    assert "ZX-40917" in summary and "$129.99" in summary
    assert sf.covered_seqs(summary) == list(range(1, 601))


def test_older_entries_lose_wording_before_newer_ones():
    summary = None
    for start in range(1, 80, 2):
        summary = sf.fold(summary, msgs(start, start + 1), cap=300)
    entries = sf.parse(summary)
    assert FILLER.split()[0] in entries[-1].text  # newest keeps its wording
    assert entries[0].first == 1 and FILLER not in entries[0].text  # oldest has been squeezed


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(1, 8), min_size=1, max_size=40), cap=st.integers(60, 500))
def test_every_folded_message_is_covered_exactly_once_within_the_cap(sizes, cap):
    summary, cursor = None, 0
    for n in sizes:
        summary = sf.fold(summary, msgs(cursor + 1, cursor + n), cap=cap)
        cursor += n
        assert count_tokens(summary) <= cap
    assert sf.covered_seqs(summary) == list(range(1, cursor + 1))


def test_cap_summary_cuts_a_free_form_summary_to_the_cap():
    text = " ".join(f"word{i}" for i in range(2000))
    out = sf.cap_summary(text, 100)
    assert count_tokens(out) <= 100 and out.endswith("word1999")
