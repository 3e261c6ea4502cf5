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
# Words that say nothing about what someone comes for: greetings and thanks, function words,
# chat's fillers and reactions, counts and time words (every conversation is full of them).
_NOT_TOPICS = set("""
    hi hello hey thank thanks please want need know tell help could would should will just also like have has had
    get got your our they them their she her hers he him his it its we us you there here when where which who why
    yes no not but all any some name live move moved now today again still said say think can't don't i'm it's
    really so much very too quite pretty kinda totally super actually definitely probably maybe literally honestly
    great good amazing awesome cool nice fun love lovely glad sure yeah yep wow lol haha okay oh aww
    make made making do doing done going gonna wanna gotta go went come came take took give gave keep kept let
    feel felt look looking see saw seen try tried thing things stuff lot lots way something someone anything
    everything nothing everyone one two three four five six seven eight nine ten first second last next another
    other day days week weeks month months year years time times tomorrow yesterday tonight morning night ago
    since soon lately recently already always never ever even back from with about into over after before then
    than been being were was are is this that these those what how well
    안녕하세요 감사합니다 네 아니요 있어요 해주세요 주세요 알려 어떻게 뭐예요
    그리고 근데 그래서 그런데 그럼 하지만 다음 요즘 진짜 정말 너무 완전 이제 오늘 어제 내일 그저께 모레 그냥 아직
    벌써 지금 이번 지난 지난주 다음주 이번주 우리 나도 저도 제가 내가 나는 저는 그거 이거 그게 이게 뭔가 많이
    다시 계속 거의 맞아 대박 축하 고마워 같아 같아요 했어 했어요 거야 있어 따라서 드디어 대신 그래도 혹시 아마 역시 전에
""".split())
# A Hangul word ending like a predicate (었어, 했다, ~는데, ~요): what was done, not a topic.
_KO_PREDICATE = re.compile(r"(?:요|니다|는데|지만|거든|었어|았어|했어|였어|했다|었다|았다|해서|하고|하는|했던|할게|해야|네|죠|듯|함|음|임|됨)$")
# Whom a message addresses at its start ("재민아,", "도현아 "): a name, not a topic.
_KO_VOCATIVE = re.compile(r"^\W*([\uac00-\ud7a3]{1,3}[아야])(?=[\s,!.~?]|$)")
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
    addressed = _KO_VOCATIVE.match(message)
    for word in re.findall(r"[A-Za-z][A-Za-z'-]{2,}|[\uac00-\ud7a3]{2,}", message):
        if "'" in word:
            continue  # a contraction (she's, you'll) is a function word
        if word.isascii():
            if word[0].isupper() and word.lower() not in relevance._STOP and not message.startswith(word):
                continue
            out.append(word.lower())
        elif not (_KO_PREDICATE.search(word) or (addressed and word == addressed[1])):
            stripped = _KO_ENDING.sub("", word)
            if len(stripped) >= 2:  # (월에, 달에: a unit with its particle)
                out.append(stripped)
    return out


def _topics(messages: Sequence[str], old: str | None, limit: int = 8) -> list[str]:
    """What they come about: words that recur in their messages, then the old profile's."""
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    for m in messages:
        # (each word once a message, in the order said: words that recur as often keep that order, in
        # every process; a set's order changes with Python's string hashing, and so did the profile)
        for word in dict.fromkeys(_topic_words(m)):
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
