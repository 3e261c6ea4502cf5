"""Forgetting what was learnt from forgotten messages. Pure.

Every fact remembers the messages it was learnt from: ``source`` (the current value's wording),
``earlier`` (other messages that said the current value: restatements, wordings a richer one
replaced) and ``history`` (values it held before, each with its own ``earlier``). Forgetting
messages replays what is left of a fact through the merge, in the order it was said: a fact said
only in the forgotten messages goes; one said elsewhere too keeps those sources and loses these;
a value the forgotten messages replaced comes back as current, with its history. The result is
the fact the merge would have built had the forgotten messages never been said.

Tombstones (``Forgotten``) keep a forgotten fact from being learnt again from the same message
(a facts job that read it before the forget, a redelivery, a re-extraction); the same thing told
again in a new message is learnt again. They hold no wording: a slot key and a hash of the value.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from convmem.domain import fact_merge
from convmem.domain.models import Fact, FactCandidate, FactSource, FactVersion, Forgotten
from convmem.domain.summary_fold import parse, render

# Tombstones kept at most (the newest); a fact forgotten longer ago is only learnt again if its
# message is examined again, which the facts cursor never does.
FORGOTTEN_MAX = 1000
# A tombstone of deleted messages only has to outlive a facts job that read them before they were
# deleted (one function timeout, 540 s, a few retries): after a day the messages are long gone.
DELETED_TTL = timedelta(days=1)
_REPLAY_KEY = "replayed"

Gone = Callable[[FactSource], bool]


def evidence(fact: Fact) -> list[FactVersion]:
    """Every message the fact was learnt from, as what it said there (oldest first)."""
    current = FactVersion(statement=fact.statement, value=fact.value, source=fact.source,
                          replaced_at=fact.updated_at, when=fact.when if fact.when_from is None else None,
                          context=fact.context)
    history = [v.model_copy(update={"when": None}) if v.when_from is not None else v for v in fact.history]
    said = [*fact.earlier, current, *history, *(e for v in fact.history for e in v.earlier)]
    if fact.confirmed_by is not None:
        # A restatement as documents from before ``earlier`` hold it (only the latest, no wording
        # of its own): what it confirmed. Newer documents have it in ``earlier`` already.
        said.append(current.model_copy(update={"source": fact.confirmed_by}))
    seen: dict[tuple[str, int, datetime], FactVersion] = {}
    for v in said:
        seen.setdefault((v.source.session_id, v.source.seq, v.source.at), v)
    return sorted(seen.values(), key=lambda v: (v.source.at, v.source.session_id, v.source.seq))


def sources(fact: Fact) -> list[FactSource]:
    """Where the fact comes from: every message it was learnt from, oldest first (the export shows them)."""
    extra = [fact.confirmed_by] if fact.confirmed_by is not None else []
    found = {(s.session_id, s.seq, s.at): s for s in [*(v.source for v in evidence(fact)), *extra]}
    return sorted(found.values(), key=lambda s: (s.at, s.session_id, s.seq))


def touches(fact: Fact, gone: Gone) -> bool:
    return any(gone(s) for s in sources(fact))


def replay(fact: Fact, gone: Gone, *, now: datetime, new_id: Callable[[], str], threshold: float,
           max_history: int) -> list[Fact]:
    """The fact without what ``gone`` messages said: the rest merged again in the order it was
    said ([] when nothing is left; the fact itself when untouched). A slot fact stays one fact
    (same id, key, creation time). A told fact (``event.*``, ``note.*``) joins what says nearly
    the same, so without the message that bridged two wordings it may come back as two facts
    (the first keeps the id). A digest folds the words of many facts it no longer tells apart:
    it goes whole when any of them was forgotten."""
    if not touches(fact, gone):
        return [fact]
    if fact.key.startswith(fact_merge.DIGEST + "."):
        return []
    left = [v for v in evidence(fact) if not gone(v.source)]
    told = fact.key.split(".", 1)[0] in fact_merge.TOLD
    # A slot fact's messages all joined it (by slot, by wording, across slots), and once joined
    # the merge treats them alike: replayed under one key.
    key = _base_key(fact.key) if told else _REPLAY_KEY
    ids = iter([fact.id])
    facts: list[Fact] = []
    for v in left:
        candidate = FactCandidate(key=key, value=v.value, statement=v.statement, when=v.when, context=v.context)
        facts = fact_merge.merge(facts, candidate, v.source, now=now, new_id=lambda: next(ids, None) or new_id(),
                                 threshold=threshold, max_facts=len(left) + 1, max_history=max_history).facts
    out = []
    for i, rebuilt in enumerate(facts):
        update = {"updated_at": now, "embedding": fact.embedding if rebuilt.statement == fact.statement else None}
        if i == 0:
            update.update({"id": fact.id, "key": fact.key, "created_at": fact.created_at})
        out.append(rebuilt.model_copy(update=update))
    return out


def forget_sources(
    facts: Sequence[Fact], gone: Gone, *, now: datetime, new_id: Callable[[], str], threshold: float = 0.6,
    max_history: int = 20,
) -> tuple[list[Fact], int, int]:
    """``facts`` as if the ``gone`` messages had never been said. Returns (facts, changed, removed)."""
    out: list[Fact] = []
    extra: list[Fact] = []
    changed = removed = 0
    for f in facts:
        after = replay(f, gone, now=now, new_id=new_id, threshold=threshold, max_history=max_history)
        if not after:
            removed += 1
            continue
        changed += after != [f]
        out.append(after[0])
        extra.extend(after[1:])
    for f in extra:  # a told fact split in two: the second takes a free key of its family
        out.append(f.model_copy(update={"key": fact_merge._free_key(out, f.key)}))  # noqa: SLF001
    return out, changed, removed


# --- predicates -----------------------------------------------------------------------------
def in_session(session_id: str, since: datetime | None, until: datetime) -> Gone:
    """Messages of the session ``session_id`` said from ``since`` through ``until`` (a session id
    used again later names another conversation)."""
    return lambda s: s.session_id == session_id and (since is None or s.at >= since) and s.at <= until


def in_messages(session_id: str, said: dict[int, datetime]) -> Gone:
    """The messages of ``session_id`` with these seqs, each said at its time."""
    return lambda s: s.session_id == session_id and said.get(s.seq) == s.at


# --- tombstones -------------------------------------------------------------------------------
def value_hash(value: str) -> str:
    return hashlib.sha256(fact_merge._norm(value).encode("utf-8")).hexdigest()[:24]  # noqa: SLF001


def _base_key(key: str) -> str:
    """A slot key without the ``_2`` a told fact gets when its slot was taken."""
    return re.sub(r"_\d+$", "", key) if key.split(".", 1)[0] in fact_merge.TOLD else key


def tombstones_for(fact: Fact, now: datetime) -> list[Forgotten]:
    """Tombstones for one forgotten fact: each message it came from refuses that slot and value."""
    return [Forgotten(session_id=v.source.session_id, seq=v.source.seq, at=v.source.at, key=_base_key(fact.key),
                      value_hash=value_hash(v.value), made_at=now)
            for v in evidence(fact) if v.value]


def message_tombstone(session_id: str, seq: int, at: datetime, now: datetime) -> Forgotten:
    return Forgotten(session_id=session_id, seq=seq, at=at, made_at=now)


def session_tombstone(session_id: str, since: datetime | None, until: datetime) -> Forgotten:
    return Forgotten(session_id=session_id, seq=0, since=since, at=until, made_at=until)


def refuses(t: Forgotten, candidate: FactCandidate, source: FactSource) -> bool:
    if t.session_id != source.session_id:
        return False
    if t.seq == 0:
        if source.at > t.at or (t.since is not None and source.at < t.since):
            return False
    elif (t.seq, t.at) != (source.seq, source.at):
        return False
    if t.key is None and t.value_hash is None:
        return True
    try:
        key = _base_key(fact_merge.normalise_key(candidate.key))
    except ValueError:
        key = None
    return key == t.key or value_hash(candidate.value) == t.value_hash


def refused(tombstones: Sequence[Forgotten], learnt: Sequence[tuple[FactCandidate, FactSource]]
            ) -> tuple[list[tuple[FactCandidate, FactSource]], int]:
    """What may be learnt: ``learnt`` less what a tombstone refuses. Returns (kept, refused)."""
    if not tombstones:
        return list(learnt), 0
    kept = [(c, s) for c, s in learnt if not any(refuses(t, c, s) for t in tombstones)]
    return kept, len(learnt) - len(kept)


def _identity(t: Forgotten) -> tuple[object, ...]:
    return (t.session_id, t.seq, t.at, t.since, t.key, t.value_hash)


def holds(tombstones: Sequence[Forgotten], t: Forgotten) -> bool:
    """Whether ``t`` is already among ``tombstones`` (whenever it was made)."""
    return any(_identity(x) == _identity(t) for x in tombstones)


def bounded(tombstones: Sequence[Forgotten], now: datetime, max_kept: int = FORGOTTEN_MAX) -> list[Forgotten]:
    """Tombstones worth keeping: those of deleted messages for DELETED_TTL, the rest the newest
    ``max_kept``; duplicates once."""
    def live(t: Forgotten) -> bool:
        deleted = t.key is None and t.value_hash is None
        return not deleted or t.made_at is None or now - t.made_at < DELETED_TTL

    latest: dict[tuple[object, ...], Forgotten] = {}
    for t in sorted((t for t in tombstones if live(t)), key=lambda t: t.made_at or t.at):
        key = _identity(t)
        latest.pop(key, None)
        latest[key] = t  # the same tombstone again (a retried forget) is kept once, as the latest
    return list(latest.values())[-max_kept:]


# --- the summary ----------------------------------------------------------------------------
def refold_plan(summary: str | None, first_gone: int, cursor: int, chunk: int) -> tuple[str | None, list[tuple[int, int]]]:
    """What to fold again once message ``first_gone`` (and maybe later ones) is forgotten: the
    summary's entries before the one holding it (kept as they are) and the seq ranges of that
    entry and every later one, each folded again from the messages left (the fold is
    deterministic from the stored messages, so only the part the message touched is recomputed).
    A summary that is not a list of entries (a model's free text) is folded again from the start,
    ``chunk`` messages a fold."""
    lines = [line for line in (summary or "").splitlines() if line.strip()]
    entries = parse(summary)
    if entries and len(entries) == len(lines):
        i = next((k for k, e in enumerate(entries) if e.last >= first_gone), len(entries))
        ranges = [(e.first, e.last) for e in entries[i:]]
        return (render(entries[:i]) or None), ranges
    return None, [(lo, min(lo + chunk - 1, cursor)) for lo in range(1, cursor + 1, max(1, chunk))]
