"""Limits per caller: how many turns a user, or new visitors a source address, may have in a window.

Fixed windows with a burst cap, counted in one item per window (``LimitSlot``):

- the window (``window_s``, aligned to multiples of it since the epoch) allows ``per_window``;
- each slice of ``burst_s`` inside it allows at most ``burst`` of those.

Why fixed windows and not a sliding log or a token bucket: the count then needs no read before
the write. One conditional ``ADD`` on the window's item (count below the limit, slice below the
burst) is atomic in DynamoDB, so concurrent callers can never let more through than the limit,
and it rides in the turn's existing transaction. A sliding log needs every timestamp (an item that
grows) and a token bucket needs the bucket read first (a read-modify-write that loses races, or one
more call). The price of fixed windows is the edge: a caller may spend one window's allowance at
its end and the next at the start of the next; the burst cap bounds that to ``2 * burst`` in
``burst_s`` seconds. Items carry an expiry (``expires_at``) so the table's TTL removes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# An expired window's item is kept this long after the window ends (TTL deletes lazily anyway).
EXPIRY_MARGIN_S = 300


@dataclass(frozen=True)
class Counted:
    """What a window's item holds: the window's count and the current slice's."""

    total: int = 0
    in_slice: int = 0


@dataclass(frozen=True)
class LimitSlot:
    """The window and the burst slice that ``now`` falls in, with the limits that apply there."""

    name: str
    window_start: int
    window_end: int
    slice: int
    slice_end: int
    per_window: int
    burst: int

    @property
    def expires_at(self) -> int:
        return self.window_end + EXPIRY_MARGIN_S

    def refuses(self, counted: Counted) -> bool:
        """Whether one more would go over the window's limit or the slice's burst."""
        return counted.total >= self.per_window or (self.burst > 0 and counted.in_slice >= self.burst)

    def retry_after(self, counted: Counted | None, now: float) -> int:
        """Whole seconds until the limit that refused frees: the window's end when the window is
        full, else the slice's end. Unknown counts (None): the window's end, never too early."""
        if counted is None or counted.total >= self.per_window or self.burst <= 0:
            end = self.window_end
        else:
            end = self.slice_end
        return max(1, math.ceil(end - now))


@dataclass(frozen=True)
class RateLimit:
    """``per_window`` in each window of ``window_s`` seconds, at most ``burst`` in each ``burst_s``
    slice of it. ``per_window`` 0 turns the limit off; ``burst`` 0 leaves only the window's."""

    name: str
    per_window: int
    window_s: int
    burst: int = 0
    burst_s: int = 10

    def __post_init__(self) -> None:
        if self.per_window < 0 or self.burst < 0 or self.window_s < 1 or self.burst_s < 1:
            raise ValueError("limits are counts >= 0 over windows of at least one second")

    @property
    def enabled(self) -> bool:
        return self.per_window > 0

    def slot(self, now: float) -> LimitSlot:
        """The window and slice ``now`` (epoch seconds) falls in."""
        start = int(now) // self.window_s * self.window_s
        end = start + self.window_s
        index = (int(now) - start) // self.burst_s
        return LimitSlot(
            name=self.name, window_start=start, window_end=end, slice=index,
            slice_end=min(end, start + (index + 1) * self.burst_s), per_window=self.per_window,
            burst=self.burst if 0 < self.burst < self.per_window else 0,
        )
