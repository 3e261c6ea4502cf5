"""Durable facts: slot keys, the merge rules, and recall by relevance. Pure.

A fact has one current value per slot (``name``, ``home.location``, ``preference.green_tea``).
A new candidate for a slot either restates the current value (only ``updated_at`` moves),
rewords it (the richer wording wins, no history), or replaces it (the old value goes to the
history with the time it stopped being true). Order is decided by when the visitor said it,
not by when the job ran, so a late or duplicate job never turns back a newer value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from convmem.domain import relevance, vectors
from convmem.domain.models import Fact, FactCandidate, FactSet, FactSource, FactVersion
from convmem.domain.tokens import count_tokens

_ALIASES = {
    "full_name": "name", "first_name": "name", "nickname": "name",
    "location": "home.location", "home": "home.location", "city": "home.location", "residence": "home.location",
    "address": "home.location",
    "email": "contact.email", "e_mail": "contact.email", "email_address": "contact.email",
    "phone": "contact.phone", "telephone": "contact.phone", "mobile": "contact.phone", "phone_number": "contact.phone",
    "lang": "language", "preferred_language": "language",
}
_KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[^\W_][\w]*)*$")
# Words a slot stands for, so a lexical scorer can match "where do I live?" with "Lives in Busan".
_SLOT_WORDS = {
    "name": "name called call 이름",
    "home": "home live where city town address 사는 살아 집 어디 동네",
    "location": "location located weather near local 날씨 근처",
    "contact": "contact reach 연락",
    "email": "email mail 이메일 메일",
    "phone": "phone number call text mobile 전화 번호",
    "language": "language speak reply write 언어 말",
    "preference": "prefer favourite favorite 좋아",
}
# Two statements in different slots are one fact only when they nearly coincide.
CROSS_SLOT_THRESHOLD = 0.8
# Slots worth sending on every turn even when the message does not mention them.
STANDING_KEYS = ("name", "language")

Action = Literal["created", "updated", "confirmed", "reworded", "history", "duplicate", "full"]


def normalise_key(raw: str) -> str:
    """The canonical slot key: lower case, ``_`` between words, known aliases mapped, English
    topic words stemmed. Raises ValueError for something that is not a slot key."""
    parts = [re.sub(r"[\W_]+", "_", p.strip().casefold()).strip("_") for p in raw.split(".")]
    parts = [p for p in parts if p]
    if not parts:
        raise ValueError(f"not a fact key: {raw!r}")
    joined = ".".join(parts)
    joined = _ALIASES.get(joined, joined)
    head, *rest = joined.split(".")
    head = _ALIASES.get(head, head) if not rest else head
    if head == "preference" and rest:
        rest = ["_".join(_singular(w) for w in "_".join(rest).split("_") if w)]
    key = ".".join([head, *rest])
    if not _KEY.match(key) or len(key) > 80:
        raise ValueError(f"not a fact key: {raw!r}")
    return key


def _singular(word: str) -> str:
    """seats -> seat, teas -> tea; glass stays glass."""
    if word.isascii() and word.isalpha() and len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _norm(value: str) -> str:
    return " ".join(re.sub(r"[^\w@+.-]+", " ", value.casefold()).split())


def similarity(a: str, b: str) -> float:
    """Jaccard overlap of the two texts' stemmed terms (1.0 for equal, 0.0 for nothing shared)."""
    ta, tb = set(relevance.terms(a)), set(relevance.terms(b))
    if not ta or not tb:
        return 1.0 if _norm(a) == _norm(b) else 0.0
    return len(ta & tb) / len(ta | tb)


@dataclass(frozen=True)
class MergeResult:
    facts: list[Fact]
    action: Action
    fact_id: str | None = None

    @property
    def changed(self) -> bool:
        return self.action not in ("duplicate", "full")


def _polarity(value: str) -> str:
    return value[0] if value[:1] in ("+", "-") else ""


def _said_here(fact: Fact, source: FactSource) -> bool:
    same = (source.session_id, source.seq)
    seen = [fact.source, fact.confirmed_by, *(v.source for v in fact.history)]
    return any(s is not None and (s.session_id, s.seq) == same for s in seen)


def merge(
    facts: Sequence[Fact],
    candidate: FactCandidate,
    source: FactSource,
    *,
    now: datetime,
    new_id: Callable[[], str],
    threshold: float = 0.6,
    max_facts: int = 500,
    max_history: int = 20,
) -> MergeResult:
    """Fold one candidate into the user's facts; never two current facts in one slot."""
    key = normalise_key(candidate.key)
    out = list(facts)
    index = next((i for i, f in enumerate(out) if f.key == key), None)
    if index is None and "." in key:
        # The same fact under another wording of its slot ("preference.coffee" / "preference.drinks"
        # both "Likes coffee"): it merges into the slot that already holds it.
        # Stricter than within a slot: "Likes strong black coffee" and "... tea" share 3 of 5 terms.
        family, strict = key.split(".", 1)[0] + ".", max(threshold, CROSS_SLOT_THRESHOLD)
        index = next(
            (i for i, f in enumerate(out)
             if f.key.startswith(family) and similarity(candidate.statement, f.statement) >= strict),
            None,
        )
    if index is None:
        if len(out) >= max_facts:
            return MergeResult(out, "full")
        fact = Fact(
            id=new_id(), key=key, statement=candidate.statement, value=candidate.value,
            source=source, created_at=now, updated_at=now,
        )
        return MergeResult([*out, fact], "created", fact.id)

    fact = out[index]
    if _said_here(fact, source):
        return MergeResult(out, "duplicate", fact.id)  # the same job again, or a redelivery
    # Polarity ("+coffee" / "-coffee") must agree before wordings are compared.
    same_polarity = _polarity(candidate.value) == _polarity(fact.value)
    close = same_polarity and (
        _norm(candidate.value) == _norm(fact.value) or similarity(candidate.value, fact.value) >= threshold
    )
    richer = same_polarity and set(relevance.terms(candidate.value)) > set(relevance.terms(fact.value))
    if source.at < fact.source.at:
        # Said before the current value: it can only be part of the history.
        if close or any(_norm(v.value) == _norm(candidate.value) and v.source.at == source.at for v in fact.history):
            return MergeResult(out, "duplicate", fact.id)
        later = min([v.source.at for v in fact.history if v.source.at > source.at] + [fact.source.at])
        version = FactVersion(statement=candidate.statement, value=candidate.value, source=source, replaced_at=later)
        history = sorted([*fact.history, version], key=lambda v: v.source.at)[-max_history:]
        out[index] = fact.model_copy(update={"history": history, "updated_at": now})
        return MergeResult(out, "history", fact.id)
    if richer:  # the same fact in a fuller wording ("Minji" -> "Minji Kim")
        out[index] = fact.model_copy(update={
            "statement": candidate.statement, "value": candidate.value, "source": source, "updated_at": now,
            "embedding": None})
        return MergeResult(out, "reworded", fact.id)
    if close:
        out[index] = fact.model_copy(update={"confirmed_by": source, "updated_at": now})
        return MergeResult(out, "confirmed", fact.id)
    old = FactVersion(statement=fact.statement, value=fact.value, source=fact.source, replaced_at=source.at)
    out[index] = fact.model_copy(update={
        "statement": candidate.statement, "value": candidate.value, "source": source, "confirmed_by": None,
        "updated_at": now, "history": [*fact.history, old][-max_history:], "embedding": None,
    })
    return MergeResult(out, "updated", fact.id)


def document_bytes(facts: Sequence[Fact]) -> int:
    """Size of the facts document as it is encrypted: its JSON in UTF-8 bytes. DynamoDB's item
    limit counts bytes, and Korean takes three a character, so characters undercount it."""
    return len(FactSet(facts=list(facts)).model_dump_json().encode("utf-8"))


def trim_history(facts: Sequence[Fact], max_bytes: int) -> list[Fact]:
    """``facts`` with the oldest history entries, across all facts, dropped until the document
    takes at most ``max_bytes`` (see document_bytes). Current values are never dropped, so the
    result is larger than ``max_bytes`` when they alone are."""
    size = document_bytes(facts)
    if size <= max_bytes:
        return list(facts)
    oldest_first = sorted((v.source.at, i, j) for i, f in enumerate(facts) for j, v in enumerate(f.history))
    dropped: set[tuple[int, int]] = set()
    for _, i, j in oldest_first:
        if size <= max_bytes:
            break
        # An entry's own JSON; the comma beside it is not subtracted, so the running size never
        # falls below the real one and the result is within max_bytes whenever history allows.
        size -= len(facts[i].history[j].model_dump_json().encode("utf-8"))
        dropped.add((i, j))
    return [
        f.model_copy(update={"history": [v for j, v in enumerate(f.history) if (i, j) not in dropped]})
        if any((i, j) in dropped for j in range(len(f.history))) else f
        for i, f in enumerate(facts)
    ]


def searchable(fact: Fact) -> str:
    """The text a lexical scorer sees for a fact: its statement and the words its slot stands for."""
    words = [_SLOT_WORDS.get(part, "") for part in fact.key.split(".")]
    topic = fact.key.split(".", 1)[1].replace("_", " ").replace(".", " ") if "." in fact.key else ""
    return " ".join([fact.statement, topic, *words])


def embedding_scores(facts: Sequence[Fact], query_vector: Sequence[float] | None, floor: float) -> list[float] | None:
    """Cosine similarity of each fact to the message, less ``floor`` (so unrelated facts score 0);
    None when the message or any fact has no embedding (then the lexical scorer decides)."""
    if query_vector is None or not facts or any(f.embedding is None for f in facts):
        return None
    return [max(0.0, vectors.cosine(query_vector, vectors.dequantize(f.embedding or "")) - floor) for f in facts]


def recall(
    facts: Sequence[Fact],
    query: str,
    *,
    budget_tokens: int,
    max_facts: int,
    scores: Sequence[float] | None = None,
) -> list[Fact]:
    """The facts to send with ``query``: the most relevant first, within ``budget_tokens`` and
    ``max_facts``. Relevance, not recency: a fact the message does not touch is sent only if it
    is standing background (name, language). ``scores`` (e.g. embedding similarity) replaces the
    lexical BM25 scorer when given."""
    if not facts or max_facts <= 0:
        return []
    if scores is None:
        scores = relevance.bm25_scores(query, [searchable(f) for f in facts])

    def standing(f: Fact) -> int:
        return STANDING_KEYS.index(f.key) if f.key in STANDING_KEYS else len(STANDING_KEYS)

    order = sorted(range(len(facts)), key=lambda i: (-scores[i], standing(facts[i]), facts[i].key))
    chosen: list[Fact] = []
    used = 0
    for i in order:
        fact = facts[i]
        if scores[i] <= 0 and fact.key not in STANDING_KEYS:
            continue
        cost = count_tokens(f"- {fact.statement}") + 1
        if used + cost > budget_tokens:
            continue
        chosen.append(fact)
        used += cost
        if len(chosen) == max_facts:
            break
    return chosen
