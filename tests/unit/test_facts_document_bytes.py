"""The facts document's size cap counts UTF-8 bytes, as DynamoDB does (pure domain)."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

from convmem.domain.fact_merge import document_bytes, merge, trim_history
from convmem.domain.models import FactCandidate, FactSet, FactSource

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def korean_history(rounds: int = 6) -> list:
    """Two facts whose Korean values changed every round: history the oldest first."""
    counter = itertools.count(1)
    facts: list = []
    for n in range(rounds):
        for k in range(2):
            rng = random.Random(10 * n + k)  # new words each round: a changed value, not a restatement
            value = " ".join("".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(4)) for _ in range(60))
            source = FactSource(session_id="s", seq=2 * n + k + 1, channel="web", at=T0 + timedelta(minutes=n))
            candidate = FactCandidate(key=f"preference.topic{k}", value=value[:300], statement=value[:400])
            facts = merge(facts, candidate, source, now=source.at, new_id=lambda: f"f{next(counter)}").facts
    return facts


def test_bytes_not_characters_are_counted():
    facts = korean_history()
    text = FactSet(facts=facts).model_dump_json()
    assert document_bytes(facts) == len(text.encode("utf-8")) > 2 * len(text)


def test_the_oldest_history_goes_first_until_the_bytes_fit():
    facts = korean_history()
    cap = document_bytes(facts) // 2
    # Under a cap counted in characters this document would already fit: nothing would be trimmed.
    assert len(FactSet(facts=facts).model_dump_json()) <= cap
    kept = trim_history(facts, cap)
    assert document_bytes(kept) <= cap
    assert [f.value for f in kept] == [f.value for f in facts]  # current values never dropped
    dropped = {v.value for f in facts for v in f.history} - {v.value for f in kept for v in f.history}
    oldest_kept = min(v.source.at for f in kept for v in f.history)
    assert dropped and all(v.source.at <= oldest_kept for f in facts for v in f.history if v.value in dropped)


def test_a_document_within_the_cap_is_left_alone():
    facts = korean_history()
    assert trim_history(facts, document_bytes(facts)) == facts
