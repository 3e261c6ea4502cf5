"""The rolling summary: what to fold, the cursor arithmetic, and the cap.

A summary is a list of entries, oldest first, one per fold: ``[m1-6] V: ... | A: ...``. The
range marker makes the summary its own fold log: the ranges are contiguous, never overlap,
and end at the cursor. Folding appends one entry for the messages just pushed out of the
window; it never rewrites the conversation from the start (L2). When the cap presses, the
*oldest* entries lose wording first (only sentences carrying identifiers or decisions stay),
then keep only their identifiers, then merge with their neighbour, and only an entry already
reduced to a bare range mention may finally vanish into the oldest merged range.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from convmem.domain.models import Message
from convmem.domain.tokens import count_tokens

_ENTRY = re.compile(r"^\[m(\d+)-(\d+)\] ?(.*)$")
_SENTENCE = re.compile(r"(?<=[.!?。？！])\s+|\n+")
# Identifiers: order / ticket numbers, amounts, dates, emails, phone numbers, capitalised names.
_IDENT = re.compile(
    r"[A-Za-z]{0,6}[-#]?\d[\w-]*|[$€£₩]\s?\d[\d,.]*|\d[\d,.]*\s?(?:원|달러|dollars?|usd|eur)"
    r"|[\w.+-]+@[\w-]+\.[\w.]+|\b[A-Z][a-z]{2,}\b",
    re.UNICODE,
)
_DECISION = re.compile(
    r"\b(decid\w*|agree\w*|confirm\w*|cancel\w*|refund\w*|order\w*|book\w*|want|need|will|chose|choose|prefer\w*|deadline|address)\b"
    r"|결정|확인|취소|환불|주문|예약|원해|필요",
    re.IGNORECASE,
)
_STOPWORD_CAPS = {"The", "This", "That", "What", "When", "Where", "Which", "There", "They", "You", "Your", "Hello", "Thanks", "Please", "Earlier", "Can", "Could", "Would", "Will", "Yes"}


@dataclass(frozen=True)
class Entry:
    first: int
    last: int
    text: str

    def render(self) -> str:
        return f"[m{self.first}-{self.last}] {self.text}".rstrip()


def fold_target(message_count: int, cursor: int, window: int) -> int | None:
    """The seq a fold should reach now, or None when nothing stands beyond the window.

    Computed from the state alone, so a lost job is covered by the next turn's job.
    """
    through = message_count - window
    return through if through > cursor else None


def parse(summary: str | None) -> list[Entry]:
    entries = []
    for line in (summary or "").splitlines():
        m = _ENTRY.match(line.strip())
        if m:
            entries.append(Entry(int(m.group(1)), int(m.group(2)), m.group(3)))
    return entries


def render(entries: Sequence[Entry]) -> str:
    return "\n".join(e.render() for e in entries)


def covered_seqs(summary: str | None) -> list[int]:
    """Every seq the summary's ranges claim, in order (duplicates kept: a test for exactly-once)."""
    return [s for e in parse(summary) for s in range(e.first, e.last + 1)]


def identifiers(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for tok in _IDENT.findall(text):
        tok = tok.strip(".,;:")
        if not tok or tok in _STOPWORD_CAPS or (tok.isdigit() and len(tok) < 2):
            continue  # empty, a sentence-opening capital, or a lone digit
        seen.setdefault(tok, None)
    return list(seen)


def _score(sentence: str) -> int:
    return 3 * len(identifiers(sentence)) + 2 * len(_DECISION.findall(sentence))


def _squash(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a word boundary so no identifier is left half."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip() + "…"


def extract(messages: Sequence[Message], per_message_chars: int = 220, sentences_per_message: int = 2) -> str:
    """One entry's text: per message, its most substantive sentences (identifiers, decisions)."""
    parts = []
    for m in sorted(messages, key=lambda m: m.seq):
        sentences = [s for s in _SENTENCE.split(m.text) if s.strip()] or [m.text]
        best = sorted(range(len(sentences)), key=lambda i: (-_score(sentences[i]), i))[:sentences_per_message]
        kept = " ".join(sentences[i].strip() for i in sorted(best))
        parts.append(f"{'V' if m.role == 'visitor' else 'A'}: {_squash(kept, per_message_chars)}")
    return " | ".join(parts)


def substance(text: str) -> str:
    """Wording lost, substance kept: only the sentences with identifiers or decisions."""
    pieces = [p for p in text.split(" | ")]
    kept = []
    for p in pieces:
        role, _, body = p.partition(": ")
        sentences = [s for s in _SENTENCE.split(body) if _score(s) > 0]
        if sentences:
            kept.append(f"{role}: {_squash(' '.join(sentences), 120)}")
    return " | ".join(kept)


def ids_only(text: str) -> str:
    ids = identifiers(text)
    return ("ids: " + ", ".join(ids[:12])) if ids else ""


def _merge(a: Entry, b: Entry) -> Entry:
    ids = identifiers(a.text + " " + b.text)
    return Entry(a.first, b.last, ("ids: " + ", ".join(ids[:16])) if ids else "")


def enforce_cap(entries: list[Entry], cap: int, count: Callable[[str], int] = count_tokens) -> list[Entry]:
    """Shrink the oldest entries first until the summary fits ``cap`` tokens.

    Steps, always on the oldest entry that can still give: wording -> substance -> ids only ->
    merged with the next entry. The newest entry gives only when it is the last one left.
    """
    entries = list(entries)
    steps = (substance, ids_only)
    while count(render(entries)) > cap:
        for i, e in enumerate(entries):
            shrunk = next((s(e.text) for s in steps if len(s(e.text)) < len(e.text)), None)
            if shrunk is not None and (i < len(entries) - 1 or len(entries) == 1):
                entries[i] = Entry(e.first, e.last, shrunk)
                break
        else:
            if len(entries) > 1:
                entries[0:2] = [_merge(entries[0], entries[1])]
            else:
                e = entries[0]
                entries[0] = Entry(e.first, e.last, _squash(e.text, max(0, len(e.text) // 2)) if e.text else "")
                if not e.text:
                    break
    return entries


def fold(old_summary: str | None, messages: Sequence[Message], cap: int) -> str:
    """New summary = old summary + one entry for ``messages`` (contiguous, right after the cursor)."""
    if not messages:
        return old_summary or ""
    ordered = sorted(messages, key=lambda m: m.seq)
    entries = [*parse(old_summary), Entry(ordered[0].seq, ordered[-1].seq, extract(ordered))]
    return render(enforce_cap(entries, cap))


def cap_summary(summary: str, cap: int) -> str:
    """Enforce the cap on any model's output: entries shrink oldest first; text without
    entries (a free-form model summary) keeps its newest part, cut at a word boundary."""
    if count_tokens(summary) <= cap:
        return summary
    entries = parse(summary)
    if entries:
        return render(enforce_cap(entries, cap))
    words = summary.split()
    while words and count_tokens(" ".join(words)) > cap:
        words = words[max(1, len(words) // 10):]
    return " ".join(words)
