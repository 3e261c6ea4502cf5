"""Which stored messages go into a turn's request, and how many tokens the request costs.

Pure: takes decrypted layers and numbers, returns the request and its report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from convmem.domain import relevance, summary_fold
from convmem.domain.models import ContextMessage, ContextReport, KnowledgeSnippet, Message, ModelRequest
from convmem.domain.tokens import count_tokens
from convmem.errors import MessageTooLargeError

# Per-message framing a chat API adds around each message (role markers, separators).
MESSAGE_OVERHEAD_TOKENS = 4
SUMMARY_HEADER = "Summary of the earlier conversation:\n"
PROFILE_HEADER = "About this person:\n"
FACTS_HEADER = "Known facts about this person:\n"
KNOWLEDGE_HEADER = "Knowledge for this turn:\n"
OVERFLOW_HEADER = "Earlier in this conversation,"


def split_window(messages: Sequence[Message], window: int) -> tuple[list[Message], list[Message]]:
    """Split messages after the cursor into ``(pending, window)``.

    ``window`` is the last ``window`` messages in seq order; ``pending`` are the older ones
    that left the window but are not yet behind the cursor (they must still be sent, L4).
    Input order does not matter; output is ordered by seq.
    """
    ordered = sorted(messages, key=lambda m: m.seq)
    cut = max(0, len(ordered) - window)
    return ordered[:cut], ordered[cut:]


def render_blocks(request: ModelRequest) -> list[str]:
    """The context blocks above the history, in request order: profile, facts, summary,
    knowledge, overflow. Model adapters send exactly these strings."""
    blocks = []
    if request.profile:
        blocks.append(PROFILE_HEADER + request.profile)
    if request.facts:
        blocks.append(FACTS_HEADER + "\n".join(f"- {f}" for f in request.facts))
    if request.summary:
        blocks.append(SUMMARY_HEADER + request.summary)
    if request.knowledge:
        blocks.append(KNOWLEDGE_HEADER + "\n".join(f"[{k.source}] {k.text}" for k in request.knowledge))
    if request.overflow:
        blocks.append(request.overflow)
    return blocks


def request_tokens(request: ModelRequest) -> int:
    """Tokens of exactly what is sent: system prompt, context blocks, history, current message."""
    total = count_tokens(request.system) + MESSAGE_OVERHEAD_TOKENS
    total += sum(count_tokens(b) + MESSAGE_OVERHEAD_TOKENS for b in render_blocks(request))
    total += sum(count_tokens(m.text) + MESSAGE_OVERHEAD_TOKENS for m in request.history)
    return total + count_tokens(request.current) + MESSAGE_OVERHEAD_TOKENS


def check_message_fits(system: str, message: str, budget: int, reserve: int) -> int:
    """Raise MessageTooLargeError when the current message alone cannot fit; return its tokens."""
    message_tokens = count_tokens(message)
    fixed = count_tokens(system) + 2 * MESSAGE_OVERHEAD_TOKENS + reserve
    if message_tokens + fixed > budget:
        room = budget - fixed
        raise MessageTooLargeError(
            f"The message is {message_tokens} tokens; the request budget is {budget} tokens, of which "
            f"{reserve} are kept for the reply and {fixed - reserve} for the system prompt, so at most "
            f"{max(room, 0)} fit ({message_tokens - room} too many)."
        )
    return message_tokens


@dataclass(frozen=True)
class Layers:
    """Everything a turn's request may hold, before the budget decides."""

    system: str
    current: str
    summary: str | None = None
    profile: str | None = None
    facts: Sequence[tuple[str, str]] = ()
    """(fact id, statement), most relevant first."""
    knowledge: Sequence[KnowledgeSnippet] = ()
    """In the caller's order; ranked here by relevance to the current message."""
    tool_tokens: int = 0
    """Tokens of the tool definitions sent with the request."""


DEFAULT_GIVE_WAY = ("history", "knowledge", "facts", "profile")
# Compression levels of the overflow block: extractive -> substance -> identifiers -> range mention.
_LEVELS = 4


def _block(messages: Sequence[Message], level: int) -> str:
    first, last = messages[0].seq, messages[-1].seq
    head = f"{OVERFLOW_HEADER} messages {first}-{last}"
    if level >= _LEVELS - 1:
        return f"{head}: {len(messages)} messages left out of this request for space."
    # Level 0 already trades wording for substance: one best sentence a message, short.
    text = summary_fold.extract(messages, per_message_chars=100, sentences_per_message=1)
    if level >= 1:
        text = summary_fold.substance(text) or summary_fold.ids_only(text)
    if level >= 2:
        text = summary_fold.ids_only(text)
    return f"{head}, in short: {text}" if text else f"{head}: nothing specific (no identifiers or decisions)."


def assemble(
    layers: Layers,
    *,
    after_cursor: Sequence[Message],
    window: int,
    budget: int,
    reserve: int,
    give_way: Sequence[str] = DEFAULT_GIVE_WAY,
) -> tuple[ModelRequest, ContextReport]:
    """Build the model request within ``budget - reserve`` tokens, with its context report.

    Never give way: the system prompt and the current message (their not fitting is a 413
    raised earlier by ``check_message_fits``). The summary is kept whole. The rest gives way
    in ``give_way`` order: history first (the oldest verbatim messages move into one overflow
    block for this turn, never silently removed), then knowledge snippets (least relevant
    first), facts (least relevant first), the profile. If it still does not fit, the overflow
    block shrinks (substance, then identifiers, then a one-line mention of the range); the
    summary is the very last to go, and whatever gave way is reported.
    """
    limit = budget - reserve
    pending, recent = split_window(after_cursor, window)
    history = [*pending, *recent]
    ranked = relevance.rank(layers.current, [k.text for k in layers.knowledge]) if layers.knowledge else []
    knowledge = [layers.knowledge[i] for i in ranked]
    facts = list(layers.facts)
    profile = layers.profile
    summary = layers.summary or None
    cut, level = 0, 0  # history[:cut] is in the overflow block at compression ``level``
    gave_way: list[str] = []

    def build() -> ModelRequest:
        return ModelRequest(
            system=layers.system, profile=profile, facts=[t for _, t in facts], summary=summary,
            knowledge=knowledge, overflow=_block(history[:cut], level) if cut else None,
            history=[ContextMessage(role=m.role, text=m.text) for m in history[cut:]], current=layers.current,
        )

    def total(req: ModelRequest) -> int:
        return request_tokens(req) + layers.tool_tokens

    request = build()
    for layer in give_way:
        while total(request) > limit:
            if layer == "history" and cut < len(history):
                cut += 1
            elif layer == "knowledge" and knowledge:
                gave_way.append(f"knowledge:{knowledge.pop().source}")
            elif layer == "facts" and facts:
                gave_way.append(f"fact:{facts.pop()[0]}")
            elif layer == "profile" and profile:
                profile = None
                gave_way.append("profile")
            else:
                break
            request = build()
    while total(request) > limit and cut and level < _LEVELS - 1:
        level += 1
        request = build()
    if total(request) > limit and summary:
        summary = None
        gave_way.append("summary")
        request = build()
    if cut:
        gave_way.insert(0, f"history:messages {history[0].seq}-{history[cut - 1].seq} compressed")
    if level == _LEVELS - 1:
        gave_way.insert(1, f"history:messages {history[0].seq}-{history[cut - 1].seq} only mentioned by range")
    recent_kept = min(len(recent), len(history) - cut)
    report = ContextReport(
        budget_tokens=budget,
        request_tokens=total(request),
        window_messages=recent_kept,
        pending_messages=len(history) - cut - recent_kept,
        summary_tokens=count_tokens(summary or ""),
        compressed_messages=cut if level < _LEVELS - 1 else 0,
        omitted_messages=cut if level == _LEVELS - 1 else 0,
        fact_ids=[fid for fid, _ in facts],
        profile=profile is not None,
        knowledge=len(knowledge),
        gave_way=gave_way,
    )
    return request, report
