"""A blind round's kit: the briefs a helper session writes a conversation from, and the check its
file must pass before it is measured (docs/benchmarks.md, "Measured blind, then learnt from").

    .venv/bin/python -m bench.round_kit brief DIR ROUND persona.json   # writes DIR/BRIEF_en.md and DIR/BRIEF_ko.md
    .venv/bin/python -m bench.round_kit check FILE                     # exit 1, with what to fix, until it passes

``persona.json`` holds ``{"en": {...}, "ko": {...}}``, the fields the briefs name (``bench/round_briefs``):
FILE, SID, V, O, VFIRST, PERSONA, OTHER, STYLE, and in English OFIRST, OPOSS, OPRON, in Korean ASKS.
The check holds a file to what ``tests/unit/test_recall_conversations.py`` asks of the set, and to the
brief's shape (10 sessions of 22-32 messages, 15/8/11/6 questions of categories 4/1/2/3), so a file
that passes it can join the set as written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import timedelta
from pathlib import Path

from bench.recall import load_conversations, selected
from bench.recall_match import Request, resolved_range

BRIEFS = Path(__file__).resolve().parent / "round_briefs"
ROOT = BRIEFS.parent.parent
CHECK = f"cd {ROOT} && .venv/bin/python -m bench.round_kit check"
WANTED = {4: 15, 1: 8, 2: 11, 3: 6, 5: 0}
_DATE = re.compile(r"\d{1,2} [A-Z][a-z]+ 20\d\d")


def write_briefs(folder: Path, round_number: int, persona: dict[str, dict[str, str]]) -> list[Path]:
    """The English and Korean briefs of one round, written into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for language in ("en", "ko"):
        text = (BRIEFS / f"{language}.md").read_text().format(R=round_number, DIR=folder, CHECK=CHECK, **persona[language])
        path = folder / f"BRIEF_{language}.md"
        path.write_text(text)
        out.append(path)
    return out


def problems(path: Path) -> tuple[list[str], str]:
    """What keeps the file at ``path`` from joining the set, and a line of its counts."""
    raw = json.loads(path.read_text())
    if not (isinstance(raw, list) and len(raw) == 1):
        return ["the file must be a JSON list holding one object"], ""
    sample = raw[0]
    found = [f"missing top-level field {k}" for k in ("sample_id", "language", "other_party_terms", "conversation", "qa")
             if k not in sample]
    if found:
        return found, ""
    turns = sample["conversation"]
    a, b = turns.get("speaker_a"), turns.get("speaker_b")
    sizes = []
    n = 1
    while f"session_{n}" in turns:
        for i, u in enumerate(turns[f"session_{n}"], 1):
            if u.get("dia_id") != f"D{n}:{i}":
                found.append(f"session {n} message {i}: dia_id should be D{n}:{i}, is {u.get('dia_id')}")
            if u.get("speaker") not in (a, b):
                found.append(f"{u.get('dia_id')}: speaker {u.get('speaker')!r} is neither speaker_a nor speaker_b")
        sizes.append(len(turns[f"session_{n}"]))
        n += 1
    conv = load_conversations(path, "project")[0]
    said = {u.dia_id: u for s in conv.sessions for u in s.utterances}
    dates = [s.at for s in conv.sessions]
    if not 8 <= len(conv.sessions) <= 12:
        found.append(f"{len(conv.sessions)} sessions (8-12 wanted)")
    if dates != sorted(dates) or dates[-1] - dates[0] < timedelta(days=120):
        found.append("sessions must be in date order and span at least 120 days")
    found += [f"session {i} has {k} messages (22-32 wanted)" for i, k in enumerate(sizes, 1) if not 22 <= k <= 32]
    categories = {c: sum(q.category == c for q in conv.questions) for c in WANTED}
    if categories != WANTED:
        found.append(f"questions per category {categories}, wanted {WANTED}")
    for q in conv.questions:
        evidence = [said[e] for e in q.evidence if e in said]
        if len(evidence) != len(q.evidence) or not evidence:
            found.append(f"{q.question!r}: evidence {q.evidence} names no message of the file")
            continue
        if any(u.speaker != conv.speaker_a for u in evidence):
            found.append(f"{q.question!r}: evidence {q.evidence} includes the other party's message")
        text = "\n".join(u.text for u in evidence)
        if q.category == 1 and len(q.evidence) < 2:
            found.append(f"{q.question!r}: category 1 needs two or more evidence messages")
        if q.category in (1, 4) and not Request(text).has_answer(q.answer):
            found.append(f"{q.question!r}: the answer {q.answer!r} is not in the words of its evidence {q.evidence}")
        if q.category == 2:
            span = resolved_range(q.answer)
            if not _DATE.fullmatch(q.answer) or span is None:
                found.append(f"{q.question!r}: a temporal answer is one date written like '13 March 2025', not {q.answer!r}")
                continue
            if len(q.evidence) != 1:
                found.append(f"{q.question!r}: a temporal question has exactly one evidence message")
            when = next(s.at for s in conv.sessions if s.number == evidence[0].session).date()
            if not when - timedelta(days=60) <= span[0] <= span[1] <= when + timedelta(days=365):
                found.append(f"{q.question!r}: {q.answer} is too far from the session date {when}")
            if Request(text).has_resolved_date(q.answer):
                found.append(f"{q.question!r}: its evidence names the date itself; it must say it relatively (yesterday, last Tuesday)")
    theirs = Request("\n".join(u.text for u in said.values() if u.speaker == conv.speaker_b))
    visitor = Request("\n".join(u.text for u in said.values() if u.speaker == conv.speaker_a))
    terms = conv.other_party_terms
    if len(terms) < 8:
        found.append(f"{len(terms)} other_party_terms (8-10 wanted)")
    found += [f"other_party_term {t!r} is not in the other party's messages" for t in terms if not theirs.has_answer(t)]
    mentioned = [t for t in terms if visitor.has_answer(t)]
    if len(mentioned) < 3:
        found.append(f"the visitor mentions only {len(mentioned)} of the other_party_terms (3 or more wanted)")
    asked = len(selected(conv)[0])
    summary = (f"sessions {len(conv.sessions)}, messages per session {sizes}, visitor messages "
               f"{sum(u.speaker == conv.speaker_a for u in said.values())} of {len(said)}; questions {categories}, asked "
               f"{asked}; other_party_terms {len(terms)}, mentioned by the visitor: {mentioned}")
    return found, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="a blind round's briefs and the check of its files")
    sub = parser.add_subparsers(dest="command", required=True)
    brief = sub.add_parser("brief", help="write DIR/BRIEF_en.md and DIR/BRIEF_ko.md")
    brief.add_argument("dir", type=Path)
    brief.add_argument("round", type=int)
    brief.add_argument("persona", type=Path, help='JSON: {"en": {...}, "ko": {...}}')
    check = sub.add_parser("check", help="what keeps a written file from joining the set")
    check.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if args.command == "brief":
        for path in write_briefs(args.dir, args.round, json.loads(args.persona.read_text())):
            print(path)
        return 0
    found, summary = problems(args.file)
    print(summary)
    for p in found:
        print(" -", p)
    print("PROBLEMS" if found else "OK")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
