"""Which stored messages go into a turn's request, and how many tokens the request costs.

Pure: takes decrypted messages and settings-like numbers, returns the request and its report.
"""

from __future__ import annotations

from collections.abc import Sequence

from convmem.domain.models import ContextMessage, ContextReport, Message, ModelRequest
from convmem.domain.tokens import count_tokens
from convmem.errors import MessageTooLargeError

# Per-message framing a chat API adds around each message (role markers, separators).
MESSAGE_OVERHEAD_TOKENS = 4
SUMMARY_HEADER = "Summary of the earlier conversation:\n"


def split_window(messages: Sequence[Message], window: int) -> tuple[list[Message], list[Message]]:
    """Split messages after the cursor into ``(pending, window)``.

    ``window`` is the last ``window`` messages in seq order; ``pending`` are the older ones
    that left the window but are not yet behind the cursor (they must still be sent, L4).
    Input order does not matter; output is ordered by seq.
    """
    ordered = sorted(messages, key=lambda m: m.seq)
    cut = max(0, len(ordered) - window)
    return ordered[:cut], ordered[cut:]


def request_tokens(request: ModelRequest) -> int:
    """Tokens of exactly what is sent: system prompt, summary block, history, current message."""
    total = count_tokens(request.system) + MESSAGE_OVERHEAD_TOKENS
    if request.summary:
        total += count_tokens(SUMMARY_HEADER + request.summary) + MESSAGE_OVERHEAD_TOKENS
    total += sum(count_tokens(m.text) + MESSAGE_OVERHEAD_TOKENS for m in request.history)
    return total + count_tokens(request.current) + MESSAGE_OVERHEAD_TOKENS


def check_message_fits(system: str, message: str, budget: int, reserve: int) -> int:
    """Raise MessageTooLargeError when the current message alone cannot fit; return its tokens."""
    message_tokens = count_tokens(message)
    fixed = count_tokens(system) + 2 * MESSAGE_OVERHEAD_TOKENS + reserve
    if message_tokens + fixed > budget:
        raise MessageTooLargeError(
            f"The message is {message_tokens} tokens; with the system prompt and the reply reserve "
            f"it needs {message_tokens + fixed} of a {budget}-token budget "
            f"({message_tokens + fixed - budget} too many)."
        )
    return message_tokens


def assemble(
    *,
    system: str,
    summary: str | None,
    after_cursor: Sequence[Message],
    current: str,
    window: int,
    budget: int,
) -> tuple[ModelRequest, ContextReport]:
    """Build the model request for one turn from the layers, with its context report.

    Every message after the cursor goes in verbatim, oldest first: the pending ones, then the
    window; the current message is last. (Budget priorities and the overflow block come with
    the request-budget work; until then nothing is dropped.)
    """
    pending, recent = split_window(after_cursor, window)
    history = [ContextMessage(role=m.role, text=m.text) for m in [*pending, *recent]]
    request = ModelRequest(system=system, summary=summary or None, history=history, current=current)
    report = ContextReport(
        budget_tokens=budget,
        request_tokens=request_tokens(request),
        window_messages=len(recent),
        pending_messages=len(pending),
        summary_tokens=count_tokens(summary or ""),
    )
    return request, report
