"""The recall benchmark's convmem figure from the domain alone: every turn's facts learnt and merged
as the facts job does it, the profile refreshed after each session, each question's facts recalled
as the turn recalls them, and the answer looked for with the benchmark's matcher. The project's set
and LoCoMo take a minute or two here, where ``bench.recall`` (the services on in-process moto, the
figure the docs report) takes an hour: a rule's effect on every conversation is seen before the
bench is run, not after. It skips what the domain does not decide (encryption, shards' byte bounds,
the turn's token budget for history); on 692038c it found each of the 309 conversations' answers in
the same number as the bench, and ``tests/functional/test_recall_replay.py`` holds it to the
services' replay question by question.

    .venv/bin/python -m bench.recall_domain --out now.json            # the set and LoCoMo (as bench.recall finds them)
    .venv/bin/python -m bench.recall_domain --against now.json        # ... and which conversations changed since
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Sequence
from datetime import timedelta
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bench.recall import Conversation, default_files, load_conversations, selected
from bench.recall_match import Request


def learn(conv: Conversation, max_sessions: int | None = None) -> tuple[list[Any], str | None]:
    """The facts and the profile convmem keeps of ``conv``'s visitor after replaying it."""
    from convmem.domain import fact_extraction, fact_merge
    from convmem.domain.models import FactSource
    from convmem.domain.profile import cap_profile, write_profile
    from convmem.settings import Settings

    s = Settings()
    ids = itertools.count()
    facts: list[Any] = []
    profile: str | None = None
    sessions: list[list[str]] = []
    for session in conv.sessions[:max_sessions]:
        previous = earlier = None  # the agent's reply before a message, and the visitor's message before it
        for i, turn in enumerate(session.turns):
            at = session.at + timedelta(minutes=i)  # (as bench.recall's replay clock has it)
            found = fact_extraction.with_context(
                fact_extraction.extract(turn.visitor, at, previous, frozenset(fact_merge.their_names(facts)),
                                        frozenset(fact_merge.called(facts))), turn.visitor, at, previous, earlier)
            if found:
                source = FactSource(session_id=f"s{session.number}", seq=2 * i + 1, channel="api", at=at)
                facts, _ = fact_merge.merge_all(
                    facts, [(c, source) for c in found], now=at, new_id=lambda: f"f{next(ids)}",
                    threshold=s.facts_merge_threshold, max_facts=s.facts_max_per_user, max_history=s.fact_history_max,
                    per_message=s.facts_max_per_message)
            earlier, previous = turn.visitor, turn.reply
        sessions.append([t.visitor for t in session.turns])
        recent = [m for visitor in sessions[-s.profile_recent_sessions:][::-1] for m in visitor[-s.profile_recent_messages:]]
        profile = cap_profile(write_profile(profile, recent, s.profile_cap_tokens), s.profile_cap_tokens)
    return facts, profile


def found(conv: Conversation, facts: Sequence[Any], profile: str | None, max_sessions: int | None = None) -> list[bool]:
    """Whether each question's answer is in the facts a new session's turn recalls for it, with the profile."""
    from convmem.domain import fact_merge
    from convmem.domain.context_assembly import fact_pieces, facts_budget
    from convmem.settings import Settings

    s = Settings()
    budget = facts_budget(s.memory_budget_tokens, profile)
    out = []
    for q in selected(conv, max_sessions)[0]:
        recalled = fact_merge.recall(facts, q.question, budget_tokens=budget, max_facts=s.facts_max_recalled)
        request = Request("".join(fact_pieces([f.statement for f in recalled])) + "\n" + (profile or ""))  # (as the request writes them)
        out.append((q.category == 2 and request.has_resolved_date(q.answer)) or request.has_answer(q.answer))
    return out


def _one(item: tuple[str, str]) -> list[dict[str, Any]]:
    path, source = item
    rows = []
    for conv in load_conversations(Path(path), source):
        hits = found(conv, *learn(conv))
        rows.append({"name": conv.name, "set": "locomo" if source == "locomo" else conv.language, "found": hits})
    return rows


def run(files: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Every conversation of ``files`` ((path, source)), two at a time."""
    with Pool(2) as pool:
        return [row for rows in pool.map(_one, files, chunksize=2) for row in rows]


def report(rows: Sequence[dict[str, Any]], against: Sequence[dict[str, Any]] = ()) -> list[str]:
    """Each set's share found, and the conversations whose count changed since ``against``."""
    lines = []
    for name in sorted({r["set"] for r in rows}):
        hits = [h for r in rows if r["set"] == name for h in r["found"]]
        lines.append(f"{name}: {sum(hits)} of {len(hits)} ({100 * sum(hits) / len(hits):.1f}%)")
    before = {r["name"]: sum(r["found"]) for r in against}
    for r in rows:
        if r["name"] in before and before[r["name"]] != sum(r["found"]):
            lines.append(f"  {r['name']}: {before[r['name']]} -> {sum(r['found'])}")
    if against:
        common = [r for r in rows if r["name"] in before]
        lines.append(f"on the {len(common)} conversations of --against: {sum(before[r['name']] for r in common)} -> "
                     f"{sum(sum(r['found']) for r in common)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the recall benchmark's convmem figure from the domain alone (minutes)")
    parser.add_argument("--conversations", nargs="+", default=[], metavar="PATH",
                        help="LoCoMo-format files (default: the set and LoCoMo, as bench.recall finds them)")
    parser.add_argument("--out", help="write every conversation's answers found as JSON")
    parser.add_argument("--against", help="a previous --out: print the conversations whose count changed")
    args = parser.parse_args(argv)
    files = ([(p, "locomo" if "locomo" in Path(p).name.lower() else "file") for p in args.conversations]
             or [(str(p), source) for p, source in default_files()])
    rows = run(files)
    if args.out:
        Path(args.out).write_text(json.dumps(rows) + "\n")
    print("\n".join(report(rows, json.loads(Path(args.against).read_text()) if args.against else ())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
