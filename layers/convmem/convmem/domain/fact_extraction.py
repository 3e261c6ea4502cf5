"""Pattern-based fact extraction for the offline model: English and Korean basics. Pure.

Only what the visitor says about themselves, in forms common enough to be safe: name, where
they live or moved to, email, phone, preferred language, likes and dislikes. Anything else
extracts nothing rather than a guess.
"""

from __future__ import annotations

import re

from convmem.domain.fact_merge import normalise_key
from convmem.domain.models import FactCandidate

_LANGUAGES = {
    "english": "English", "korean": "Korean", "japanese": "Japanese", "chinese": "Chinese", "spanish": "Spanish",
    "french": "French", "german": "German", "italian": "Italian", "portuguese": "Portuguese", "vietnamese": "Vietnamese",
    "한국어": "Korean", "영어": "English", "일본어": "Japanese", "중국어": "Chinese", "스페인어": "Spanish",
    "프랑스어": "French", "독일어": "German",
}
_LANG_EN = "|".join(k for k in _LANGUAGES if k.isascii())
_LANG_KO = "|".join(k for k in _LANGUAGES if not k.isascii())
# Capitalised words after "I'm" that are not names.
_NOT_NAMES = {
    "sorry", "fine", "good", "ok", "okay", "not", "so", "very", "just", "here", "back", "happy", "sure", "glad",
    "afraid", "looking", "trying", "going", "new", "still", "also", "really", "tired", "busy", "ready", "done",
    "interested", "from", "in", "at", "a", "an", "the", "my", *_LANGUAGES, "american", "british", "canadian",
}
_TRAILING = re.compile(r"(?:\s+(?:anymore|any more|now|too|either|at all|a lot|very much|so much|much|really))+$", re.IGNORECASE)
_NOT_OBJECTS = {"it", "this", "that", "them", "you", "him", "her", "these", "those", "one", "so", "to", "the idea"}

_NAME = "([^\\W\\d_][\\w'-]*(?:\\s+[A-Z][\\w'-]*)?)"
_PLACE = r"((?:[A-Z]|[가-힣])[\w'-]*(?:(?:\s+|,\s*)[A-Z][\w'-]*){0,3})"
_KO_WORD = r"(?<![가-힣A-Za-z])([가-힣A-Za-z]+?)"
_EMAIL = r"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"
_PHONE = r"(\+?\d[\d\s().-]{6,}\d)"

_NAME_PATTERNS = [
    re.compile(r"(?i:\bmy name is|\bmy name's|\bcall me)\s+" + _NAME),
    re.compile(r"\bI(?:'m| am)\s+([A-Z][a-z'-]+)(?=\s*(?:[,.!?]|$|\band\b))"),
    re.compile(r"제\s*이름은\s*" + r"([가-힣A-Za-z]+?)" + r"(?:입니다|이에요|예요|이야|야|이라고\s*해요|라고\s*해요|요)?(?=[\s.!?,]|$)"),
    re.compile(r"저는\s*([가-힣]+?)(?:이)?라고\s*(?:합니다|해요)"),
]
_LIVE_PATTERNS = [
    (re.compile(r"(?i:\bI\s+(?:live|am living|'m living|reside)\s+in|\bI(?:'m| am) based in)\s+" + _PLACE), False),
    (re.compile(r"(?i:\bI(?:'ve| have)?\s+(?:just\s+|recently\s+)?(?:moved|relocated)\s+to)\s+" + _PLACE), True),
    (re.compile(_KO_WORD + r"(?:에서|에)\s*(?:살아요|살고\s*있어요|살고\s*있습니다|삽니다|살아|살고\s*있어)"), False),
    (re.compile(_KO_WORD + r"(?:으로|로)\s*이사\s*(?:했어요|했습니다|했어|왔어요|왔습니다|를\s*왔어요|했다)"), True),
]
_EMAIL_PATTERNS = [
    re.compile(r"(?i:\bmy\s+e-?mail(?:\s+address)?\s+is|\be-?mail\s+me\s+at|\breach\s+me\s+at|\bcontact\s+me\s+at)\s+" + _EMAIL),
    re.compile(r"제\s*(?:이메일|메일)(?:\s*주소)?(?:은|는)\s*" + _EMAIL),
]
_PHONE_PATTERNS = [
    re.compile(r"(?i:\bmy\s+(?:phone|mobile|cell)(?:\s+number)?\s+is|\bmy\s+number\s+is|\bcall\s+me\s+at|\btext\s+me\s+at)\s+" + _PHONE),
    re.compile(r"제\s*(?:전화\s*)?(?:번호|연락처|휴대폰\s*번호)(?:는|은)\s*" + _PHONE),
]
_LANGUAGE_PATTERNS = [
    re.compile(r"(?i:\b(?:please\s+)?(?:reply|answer|respond|talk|speak|write)(?:\s+to\s+me)?\s+in|\bI\s+prefer|\bmy\s+(?:preferred|first)\s+language\s+is)\s+(" + _LANG_EN + r")\b", re.IGNORECASE),
    re.compile(r"(" + _LANG_KO + r")로\s*(?:답|대답|말|얘기|이야기|써|응답)"),
]
_LIKE_EN = re.compile(
    r"\bI\s+(?:really\s+|also\s+|just\s+)?(like|love|enjoy|prefer|don't\s+like|do\s+not\s+like|dislike|hate|can't\s+stand)\s+"
    r"([^.,!?;()]+?)(?=\s+(?:and|but|because|so|when|if|though|although|more|better|over)\b|\s*[.,!?;()]|$)",
    re.IGNORECASE,
)
_LIKE_KO = re.compile(r"(?<![가-힣A-Za-z])([가-힣A-Za-z ]{1,20}?)(?:을|를)\s*(?:정말\s*|너무\s*|아주\s*|제일\s*)?(좋아해요|좋아합니다|좋아해|싫어해요|싫어합니다|싫어해)")


def _first(patterns: list[re.Pattern[str]], text: str) -> str | None:
    for p in patterns:
        m = p.search(text)
        if m:
            return m.group(1).strip()
    return None


def _name(text: str) -> FactCandidate | None:
    name = _first(_NAME_PATTERNS, text)
    if not name or name.casefold() in _NOT_NAMES or name.split()[0].casefold() in _NOT_NAMES:
        return None
    if name.islower():
        name = name.title()
    return FactCandidate(key="name", value=name, statement=f"Their name is {name}")


def _home(text: str) -> FactCandidate | None:
    for pattern, moved in _LIVE_PATTERNS:
        m = pattern.search(text)
        if m:
            place = m.group(1).strip(" ,")
            if place.casefold() in {"a", "an", "the", "my"}:
                return None
            statement = f"Lives in {place} (moved there)" if moved else f"Lives in {place}"
            return FactCandidate(key="home.location", value=place, statement=statement)
    return None


def _likes(text: str) -> list[FactCandidate]:
    out = []
    for m in _LIKE_EN.finditer(text):
        verb = " ".join(m.group(1).lower().split())
        thing = " ".join(m.group(2).split())
        thing = re.sub(r"^(?:to\s+|the\s+|a\s+|an\s+)", "", thing, flags=re.IGNORECASE)
        thing = _TRAILING.sub("", thing)
        words = thing.split()
        if not words or len(words) > 5 or thing.casefold() in _NOT_OBJECTS or words[0].casefold() in _NOT_OBJECTS:
            continue
        if verb == "prefer" and thing.casefold() in _LANGUAGES:
            continue  # "I prefer Korean" is the language, handled there
        negative = verb in {"don't like", "do not like", "dislike", "hate", "can't stand"}
        statement = {"prefer": "Prefers", "love": "Loves", "enjoy": "Enjoys"}.get(verb, "Likes")
        statement = f"Does not like {thing}" if negative else f"{statement} {thing}"
        out.append(_preference(thing, negative, statement))
    for m in _LIKE_KO.finditer(text):
        thing = re.sub(r"^(?:저는|나는|전|난|제가|내가)\s+", "", m.group(1).strip())
        if not thing or thing in {"그것", "그거", "이것", "이거"}:
            continue
        negative = m.group(2).startswith("싫어")
        out.append(_preference(thing, negative, f"Does not like {thing}" if negative else f"Likes {thing}"))
    return [c for c in out if c is not None]


def _preference(thing: str, negative: bool, statement: str) -> FactCandidate | None:
    try:
        key = normalise_key(f"preference.{thing}")
    except ValueError:
        return None
    return FactCandidate(key=key, value=("-" if negative else "+") + thing.casefold(), statement=statement)


def extract(text: str) -> list[FactCandidate]:
    """Candidate facts the visitor states about themselves in ``text`` (possibly none)."""
    found: list[FactCandidate | None] = [_name(text), _home(text)]
    email = _first(_EMAIL_PATTERNS, text)
    if email:
        found.append(FactCandidate(key="contact.email", value=email.lower(), statement=f"Email address: {email}"))
    phone = _first(_PHONE_PATTERNS, text)
    if phone and sum(c.isdigit() for c in phone) >= 7:
        found.append(FactCandidate(key="contact.phone", value=re.sub(r"[^\d+]", "", phone), statement=f"Phone number: {phone}"))
    language = _first(_LANGUAGE_PATTERNS, text)
    if language:
        name = _LANGUAGES[language.casefold()]
        found.append(FactCandidate(key="language", value=name, statement=f"Prefers to be answered in {name}"))
    found.extend(_likes(text))
    seen: set[str] = set()
    out = []
    for c in found:
        if c is not None and c.key not in seen:
            seen.add(c.key)
            out.append(c)
    return out
