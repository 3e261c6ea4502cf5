"""The short profile: standing background about a person (language, tone, what they usually
come for), not facts. Pure: the offline model's profile writer and the cap any model's output obeys.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from convmem.domain import relevance
from convmem.domain.tokens import truncate_tokens

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_LATIN = re.compile(r"[A-Za-z]")
_KO_POLITE = re.compile(r"(요|니다|세요)[.!?\s]*$")
_EN_POLITE = re.compile(r"\b(please|thanks|thank you|could you|would you)\b", re.IGNORECASE)
_TOPICS_LINE = "Usually comes about: "
# Words that say nothing about what someone comes for.
_NOT_TOPICS = {
    "hi", "hello", "hey", "thank", "thanks", "please", "want", "need", "know", "tell", "help", "could",
    "would", "should", "will", "just", "also", "like", "have", "has", "had", "get", "got", "your", "our", "they",
    "there", "here", "when", "where", "which", "who", "why", "yes", "no", "not", "but", "all", "any", "some",
    "name", "live", "move", "moved", "now", "today", "again", "still", "said", "say", "think", "can't", "don't",
    "안녕하세요", "감사합니다", "네", "아니요", "있어요", "해주세요", "주세요", "알려", "어떻게", "뭐예요",
}
_NOT_TOPIC_TERMS = {relevance.stem(w) for w in _NOT_TOPICS}


def _language(messages: Sequence[str]) -> str | None:
    hangul = sum(len(_HANGUL.findall(m)) for m in messages)
    latin = sum(len(_LATIN.findall(m)) for m in messages)
    if not hangul and not latin:
        return None
    if hangul and latin and min(hangul, latin / 2) / max(hangul, latin / 2) > 0.3:
        return "Writes in Korean and English."
    return "Writes in Korean." if hangul >= latin / 2 else "Writes in English."


def _tone(messages: Sequence[str]) -> str:
    polite = sum(bool(_KO_POLITE.search(m.strip()) or _EN_POLITE.search(m)) for m in messages)
    words = sum(len(m.split()) for m in messages) / max(1, len(messages))
    parts = ["polite" if polite * 2 >= len(messages) else "casual"]
    parts.append("brief messages" if words <= 12 else "detailed messages")
    if sum(m.count("!") for m in messages) > len(messages) / 2:
        parts.append("upbeat")
    return "Tone: " + ", ".join(parts) + "."


def _old_topics(old: str | None) -> list[str]:
    for line in (old or "").splitlines():
        if line.startswith(_TOPICS_LINE):
            return [t.strip() for t in line[len(_TOPICS_LINE):].rstrip(".").split(",") if t.strip()]
    return []


_KO_ENDING = re.compile(r"(으로|에서|이에요|예요|입니다|이|가|은|는|을|를|에|의|도|로|한|와|과)$")


def _topic_words(message: str) -> list[str]:
    """Candidate topic words: lower-case English words (capitalised ones are names and places,
    facts rather than background) and Korean words without their particle."""
    out = []
    for word in re.findall(r"[A-Za-z][A-Za-z-]{2,}|[\uac00-\ud7a3]{2,}", message):
        if word.isascii():
            if word[0].isupper() and word.lower() not in relevance._STOP and not message.startswith(word):
                continue
            out.append(word.lower())
        else:
            stripped = _KO_ENDING.sub("", word)
            out.append(stripped if len(stripped) >= 2 else word)
    return out


def _topics(messages: Sequence[str], old: str | None, limit: int = 5) -> list[str]:
    """What they come about: words that recur in their messages, then the old profile's."""
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    for m in messages:
        for word in set(_topic_words(m)):
            term = relevance.stem(word)
            if term in _NOT_TOPIC_TERMS or word in relevance._STOP:
                continue
            counts[term] += 1
            shown.setdefault(term, word)
    out: list[str] = []
    for t in [*(shown[t] for t, n in counts.most_common() if n >= 2), *_old_topics(old)]:
        if t not in out:
            out.append(t)
    return out[:limit]


def write_profile(old: str | None, messages: Sequence[str], cap_tokens: int) -> str:
    """A deterministic profile from the person's recent messages and the old profile."""
    if not messages:
        return cap_profile(old or "", cap_tokens)
    lines = [line for line in (_language(messages), _tone(messages)) if line]
    topics = _topics(messages, old)
    if topics:
        lines.append(_TOPICS_LINE + ", ".join(topics) + ".")
    return cap_profile("\n".join(lines), cap_tokens)


def cap_profile(text: str, cap_tokens: int) -> str:
    """Any model's profile within the cap: the first lines are the standing part and are kept."""
    return truncate_tokens(text.strip(), cap_tokens)
