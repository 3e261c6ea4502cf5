"""One deadline per turn, and calls that cannot outlive it.

The API function is killed at its timeout: a model, embedding or tool call still running then
leaves the turn's ``clientTurnId`` "in progress" until its lease ends, and the caller waits for
an answer that never comes. So a turn sets one deadline (from the Lambda context's remaining
time, less what the commit needs) with ``within``; every outbound call of the turn runs through
``run``, which does not start a call that has too little time left and stops waiting for one
at the deadline (the abandoned call finishes or times out on its own thread; its result is
dropped). The caller then gives up cleanly, with time left to release the id and answer 503.

Deadlines are points on ``time.monotonic()``'s clock (or the clock passed to ``run``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import TypeVar

from convmem.errors import DeadlineExceededError

T = TypeVar("T")
_AT: ContextVar[float | None] = ContextVar("convmem_deadline", default=None)


@contextmanager
def within(at: float | None) -> Iterator[None]:
    """Run the block under the deadline ``at`` (None: no deadline). Nested, the earlier one holds."""
    outer = _AT.get()
    token = _AT.set(at if outer is None else outer if at is None else min(at, outer))
    try:
        yield
    finally:
        _AT.reset(token)


def current() -> float | None:
    """The deadline of the running turn, or None outside one."""
    return _AT.get()


def earliest(*deadlines: float | None) -> float:
    """The earliest of the given deadlines (``inf`` when none is set)."""
    return min((d for d in deadlines if d is not None), default=math.inf)


@lru_cache(maxsize=1)
def _calls() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=8, thread_name_prefix="convmem-call")


def run(call: Callable[[], T], at: float, *, at_least: float = 0.0, clock: Callable[[], float] = time.monotonic) -> T:
    """``call()``, waited for until ``at`` at most.

    Raises DeadlineExceededError, without starting the call, when less than ``at_least`` seconds
    are left; or when the call has not returned by ``at``.
    """
    if at == math.inf:
        return call()
    left = at - clock()
    if left < max(at_least, 0.001):
        raise DeadlineExceededError("The turn ran out of time before the model could be asked.")
    future = _calls().submit(call)
    try:
        return future.result(timeout=left)
    except FutureTimeout:
        future.cancel()
        raise DeadlineExceededError("The model did not answer within the turn's time.") from None
