"""Fixed windows with a burst cap (issue 15, item 4): which window and slice a moment falls in, when
the caller may come back, and how the address a limit counts is chosen."""

from __future__ import annotations

import pytest
from convmem.domain.rate_limits import Counted, RateLimit
from convmem.service.auth import source_of

T0 = 1_800_000_000  # a multiple of 60 and of 3600


def test_windows_are_aligned_and_slices_cut_them():
    limit = RateLimit("turns", per_window=60, window_s=60, burst=20, burst_s=10)
    slot = limit.slot(T0 + 37.9)
    assert (slot.window_start, slot.window_end, slot.slice, slot.slice_end) == (T0, T0 + 60, 3, T0 + 40)
    assert limit.slot(T0 + 59.99).window_start == T0 and limit.slot(T0 + 60).window_start == T0 + 60
    # A window that is not a multiple of the slice: the last slice ends with the window.
    odd = RateLimit("v", per_window=5, window_s=25, burst=2, burst_s=10).slot(T0 + 21)
    assert (odd.slice, odd.slice_end) == (2, odd.window_end)
    assert slot.expires_at > slot.window_end  # the table's TTL removes a window only after it ended


def test_the_window_and_the_burst_each_refuse_and_say_when_they_free():
    slot = RateLimit("turns", per_window=60, window_s=60, burst=20, burst_s=10).slot(T0 + 12.5)
    assert not slot.refuses(Counted(total=59, in_slice=19))
    # The burst is spent: back when the slice ends (20 - 12.5 = 7.5 -> 8 s).
    assert slot.refuses(Counted(total=30, in_slice=20)) and slot.retry_after(Counted(30, 20), T0 + 12.5) == 8
    # The window is spent: back when the window ends, even if the slice would free sooner.
    assert slot.refuses(Counted(total=60, in_slice=3)) and slot.retry_after(Counted(60, 3), T0 + 12.5) == 48
    # Counts unknown: never earlier than the window's end; never 0 seconds.
    assert slot.retry_after(None, T0 + 12.5) == 48
    assert slot.retry_after(Counted(60, 0), T0 + 59.99) == 1


def test_a_burst_not_below_the_window_limit_is_no_cap_and_zero_turns_the_limit_off():
    assert RateLimit("t", per_window=5, window_s=60, burst=5).slot(T0).burst == 0
    assert RateLimit("t", per_window=5, window_s=60, burst=0).slot(T0).burst == 0
    assert not RateLimit("t", per_window=0, window_s=60).enabled
    with pytest.raises(ValueError):
        RateLimit("t", per_window=5, window_s=0)


def test_across_a_window_edge_a_caller_gets_at_most_twice_the_burst_in_one_slice_length():
    limit = RateLimit("turns", per_window=60, window_s=60, burst=20, burst_s=10)
    granted: list[float] = []
    counts: dict[tuple[int, int], list[int]] = {}
    t = T0 + 50.0
    while t < T0 + 70:  # one request every 50 ms across the edge at T0 + 60
        slot = limit.slot(t)
        window = counts.setdefault((slot.window_start, slot.slice), [0])
        total = sum(v[0] for (w, _), v in counts.items() if w == slot.window_start)
        if not slot.refuses(Counted(total=total, in_slice=window[0])):
            window[0] += 1
            granted.append(t)
        t += 0.05
    worst = max(sum(1 for g in granted if s <= g < s + 10) for s in granted)
    assert worst <= 2 * 20


@pytest.mark.parametrize(("address", "source"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),  # same subscriber, same counter
    ("::ffff:203.0.113.7", "203.0.113.7"),
    ("", "unknown"), (None, "unknown"), ("not an address", "unknown"),
])
def test_a_source_is_the_address_for_ipv4_and_the_subscriber_prefix_for_ipv6(address, source):
    assert source_of(address) == source
