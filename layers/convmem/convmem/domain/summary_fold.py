"""The rolling summary: what to fold, the cursor arithmetic, and the cap.

A summary is a list of entries, oldest first, one per fold, one line each:
``[m1-6] visitor: "..." agent: "..."``. Each part says who said it (``visitor``, ``agent``; ``ids``
for an entry squeezed to its identifiers) and holds the text as a JSON string literal
(domain.quoting): whatever a visitor typed - `` | A: ``, a newline, ``[m7-8]``, quotes - stays
inside its own quotes, so it can never become an agent part, a new entry or an instruction.
The range marker makes the summary its own fold log: the ranges are contiguous, never overlap,
and end at the cursor. Folding appends one entry for the messages just pushed out of the
window; it never rewrites the conversation from the start. When the cap presses, the
*oldest* entries lose wording first (only sentences carrying identifiers or decisions stay),
then keep only their identifiers, then merge with their neighbour, and only an entry already
reduced to a bare range mention may finally vanish into the oldest merged range.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from convmem.domain.models import Message
from convmem.domain.quoting import quote, unquote_at
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


ROLES = ("visitor", "agent", "ids", "note")
"""Who a part is from: the visitor, the agent, identifiers of squeezed messages, or a ``note``
(a line stored before parts were quoted, kept as one opaque text)."""
_PART = re.compile(r"(visitor|agent|ids|note): ")


@dataclass(frozen=True)
class Part:
    role: str
    text: str

    def render(self) -> str:
        return f"{self.role}: {quote(self.text)}"


def render_parts(parts: Sequence[Part]) -> str:
    return " ".join(p.render() for p in parts)


def parse_parts(body: str) -> tuple[Part, ...] | None:
    """The parts of a rendered body, or None when ``body`` is not exactly a sequence of parts."""
    parts, i = [], 0
    while i < len(body):
        m = _PART.match(body, i)
        decoded = unquote_at(body, m.end()) if m else None
        if m is None or decoded is None:
            return None
        parts.append(Part(m.group(1), decoded[0]))
        i = decoded[1]
        while i < len(body) and body[i] == " ":
            i += 1
    return tuple(parts)


@dataclass(frozen=True)
class Entry:
    first: int
    last: int
    parts: tuple[Part, ...] = ()

    @property
    def text(self) -> str:
        return render_parts(self.parts)

    def render(self) -> str:
        return f"[m{self.first}-{self.last}] {self.text}".rstrip()


def fold_target(message_count: int, cursor: int, window: int) -> int | None:
    """The seq a fold should reach now, or None when nothing stands beyond the window.

    Computed from the state alone, so a lost job is covered by the next turn's job.
    """
    through = message_count - window
    return through if through > cursor else None


def _entry(line: str) -> Entry | None:
    m = _ENTRY.match(line.strip())
    if not m:
        return None
    body = m.group(3)
    parts = parse_parts(body)
    if parts is None:  # stored before parts were quoted: one opaque note, never a role
        parts = (Part("note", body),)
    return Entry(int(m.group(1)), int(m.group(2)), parts)


def parse(summary: str | None) -> list[Entry]:
    return [e for e in map(_entry, (summary or "").splitlines()) if e is not None]


def render(entries: Sequence[Entry]) -> str:
    return "\n".join(e.render() for e in entries)


def as_data(summary: str) -> list[str]:
    """The summary's lines as they go into a model request: its entries, re-rendered, when every
    line is one; otherwise (a model's free-form summary) the whole text as one quoted string."""
    lines = [line for line in summary.splitlines() if line.strip()]
    entries = [_entry(line) for line in lines]
    if entries and all(e is not None for e in entries):
        return [e.render() for e in entries if e is not None]
    return [quote(summary)]


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


def extract(messages: Sequence[Message], per_message_chars: int = 220, sentences_per_message: int = 2) -> tuple[Part, ...]:
    """One entry's parts: per message, its most substantive sentences (identifiers, decisions)."""
    parts = []
    for m in sorted(messages, key=lambda m: m.seq):
        sentences = [s for s in _SENTENCE.split(m.text) if s.strip()] or [m.text]
        best = sorted(range(len(sentences)), key=lambda i: (-_score(sentences[i]), i))[:sentences_per_message]
        kept = " ".join(sentences[i].strip() for i in sorted(best))
        parts.append(Part(m.role, _squash(kept, per_message_chars)))
    return tuple(parts)


def substance(parts: Sequence[Part]) -> tuple[Part, ...]:
    """Wording lost, substance kept: only the sentences with identifiers or decisions, each part
    keeping who said it."""
    kept = []
    for p in parts:
        if p.role == "ids":
            kept.append(p)
            continue
        sentences = [s for s in _SENTENCE.split(p.text) if _score(s) > 0]
        if sentences:
            kept.append(Part(p.role, _squash(" ".join(sentences), 120)))
    return tuple(kept)


def ids_only(parts: Sequence[Part], limit: int = 12) -> tuple[Part, ...]:
    ids = identifiers(" ".join(p.text for p in parts))
    return (Part("ids", ", ".join(ids[:limit])),) if ids else ()


def _merge(a: Entry, b: Entry) -> Entry:
    return Entry(a.first, b.last, ids_only([*a.parts, *b.parts], limit=16))


def enforce_cap(entries: list[Entry], cap: int, count: Callable[[str], int] = count_tokens) -> list[Entry]:
    """Shrink the oldest entries first until the summary fits ``cap`` tokens.

    Steps, always on the oldest entry that can still give: wording -> substance -> ids only ->
    merged with the next entry. The newest entry gives only when it is the last one left.
    """
    entries = list(entries)
    steps = (substance, ids_only)
    while count(render(entries)) > cap:
        for i, e in enumerate(entries):
            shrunk = next((p for p in (s(e.parts) for s in steps) if len(render_parts(p)) < len(e.text)), None)
            if shrunk is not None and (i < len(entries) - 1 or len(entries) == 1):
                entries[i] = Entry(e.first, e.last, shrunk)
                break
        else:
            if len(entries) > 1:
                entries[0:2] = [_merge(entries[0], entries[1])]
            else:
                e = entries[0]
                if not e.parts:
                    break
                halved = tuple(Part(p.role, _squash(p.text, len(p.text) // 2) if len(p.text) > 2 else "") for p in e.parts)
                entries[0] = Entry(e.first, e.last, tuple(p for p in halved if p.text))
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
