"""Running a test's callable on several threads at once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any


def run_together(target: Callable[..., Any], calls: Iterable[tuple[Any, ...]]) -> list[Exception]:
    """Start one thread per argument tuple of ``calls``, wait for all; the exceptions they raised."""
    errors: list[Exception] = []

    def guarded(*args: Any) -> None:
        try:
            target(*args)
        except Exception as exc:  # reported to the caller, which asserts on it
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=args) for args in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors
