"""The offline, deterministic model of the local stack and the tests.

It answers from the assembled request, so a person trying the demo sees memory work:
asked about something said earlier ("what did I say about ...?", "do you remember ...?",
"what is my ...?"), it quotes the earlier visitor message that shares the most words with the
question; otherwise it acknowledges the message and says what context it was given.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from datetime import datetime

from convmem.domain import context_assembly, fact_extraction, profile, summary_fold
from convmem.domain.models import FactCandidate, Message, ModelReply, ModelRequest

_WORD = re.compile(r"\w+", re.UNICODE)
_RECALL = re.compile(
    r"\b(what did i|did i (say|tell|mention)|do you remember|remember|earlier|before|what('s| is| was) my|my first)\b"
    r"|기억|아까|전에|뭐라고",
    re.IGNORECASE,
)
_ASKS_ID = re.compile(r"\b(number|order|id|code|email|phone|date|amount|address)\b|번호|주문|이메일", re.IGNORECASE)
_IDS_PREFIX = "you mentioned "
_STOP = {
    "what", "did", "i", "say", "tell", "you", "do", "remember", "my", "is", "was", "the", "a", "an",
    "about", "earlier", "before", "me", "to", "of", "and", "it", "that", "first", "s", "mention",
}


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _STOP


def _excerpt(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class LocalModel:
    """Model port without a network: replies are a pure function of the request."""

    tool_tokens = 0  # no tools: the local model answers from the request alone

    @staticmethod
    def _visitor_memory(request: ModelRequest) -> list[str]:
        """What the visitor said that the request carries, oldest first: the summary's and the
        overflow block's visitor parts, then the verbatim visitor messages."""
        parts = [p for e in summary_fold.parse(request.summary) for p in e.parts]
        parts += context_assembly.overflow_parts(request.overflow or "")
        condensed = []
        for part in parts:  # who said what is structure, not text: a visitor cannot write an agent part
            if part.role == "visitor":
                condensed.append(part.text)
            elif part.role == "ids":  # an old entry squeezed down to its identifiers
                condensed.append(_IDS_PREFIX + part.text)
        return condensed + [m.text for m in request.history if m.role == "visitor"]

    def reply(self, request: ModelRequest) -> ModelReply:
        return ModelReply(text=self._answer(request))

    def _answer(self, request: ModelRequest) -> str:
        earlier = self._visitor_memory(request) + list(request.facts)
        if _RECALL.search(request.current) and earlier:
            asked = _words(request.current)
            if re.search(r"\bfirst\b|처음", request.current, re.IGNORECASE):
                best = earlier[0]
            else:
                # Most shared words wins; asked for a number, code or address, an old entry kept as
                # identifiers ranks next; remaining ties go to the most recent.
                wants_id = bool(_ASKS_ID.search(request.current))
                best = max(
                    reversed(earlier),
                    key=lambda t: (len(asked & _words(t)), wants_id and t.startswith(_IDS_PREFIX)),
                )
            if best in request.facts and best not in earlier[: -len(request.facts)]:
                return f"You told me before: {_excerpt(best)}."
            return f'Earlier you said: "{_excerpt(best)}"'
        seen = len(request.history)
        summary = "with a summary of earlier turns" if request.summary else "and no summary yet"
        known = f" What I know about you: {'; '.join(request.facts[:3])}." if request.facts else ""
        return (
            f'You said: "{_excerpt(request.current, 120)}". '
            f"I have {seen} earlier message{'s' if seen != 1 else ''} of this conversation in view, {summary}.{known}"
        )

    def fold_summary(self, old_summary: str | None, messages: Sequence[Message], cap_tokens: int) -> str:
        """Extractive and deterministic: sentences with identifiers and decisions are kept."""
        return summary_fold.fold(old_summary, messages, cap_tokens)

    def extract_facts(
        self, visitor_message: str, said_at: datetime | None = None, previous: str | None = None,
        theirs: Collection[str] = (), called: Collection[str] = (),
    ) -> list[FactCandidate]:
        """Pattern-based (English and Korean); nothing rather than a guess."""
        return fact_extraction.extract(visitor_message, said_at, previous, theirs, called)

    def write_profile(self, old_profile: str | None, visitor_messages: Sequence[str], cap_tokens: int) -> str:
        return profile.write_profile(old_profile, visitor_messages, cap_tokens)

    def embed(self, texts: Sequence[str]) -> None:
        """No embeddings offline: recall ranks facts lexically."""
        return None
