"""Lexical relevance (BM25), offline and deterministic. Korean-aware enough: Hangul runs are
also indexed as character bigrams, so 부산 in the query matches 부산에 in a document."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"[0-9a-z]+(?:[-_.@][0-9a-z]+)*|[\uac00-\ud7a3]+|[^\W\d_]+", re.UNICODE)
_HANGUL = re.compile(r"^[\uac00-\ud7a3]+$")
_STOP = {"the", "a", "an", "is", "are", "was", "i", "you", "my", "me", "to", "of", "and", "in", "on", "it", "what",
         "do", "does", "did", "for", "with", "that", "this", "be", "at", "or", "how", "can", "about"}


def stem(word: str) -> str:
    """A light English suffix strip, so refund / refunds / refunded and live / lives / lived meet."""
    if word.isascii() and word.isalpha() and not word.endswith("ss"):
        for suffix in ("ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 2 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        if len(word) > 3 and word.endswith("e"):
            word = word[:-1]
    return word


def terms(text: str) -> list[str]:
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        if w in _STOP:
            continue
        out.append(stem(w))
        if _HANGUL.match(w) and len(w) > 2:
            out.extend(w[i : i + 2] for i in range(len(w) - 1))
    return out


def term_counts(text: str) -> Counter[str]:
    """``Counter(terms(text))``, each distinct word stemmed once (a long document repeats its words)."""
    words = Counter(w for w in _WORD.findall(text.lower()) if w not in _STOP)
    out: Counter[str] = Counter()
    for w, n in words.items():
        out[stem(w)] += n
        if _HANGUL.match(w) and len(w) > 2:
            for i in range(len(w) - 1):
                out[w[i : i + 2]] += n
    return out


def bm25_scores(query: str, documents: Sequence[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """BM25 score of each document against the query (0.0 when nothing matches)."""
    docs = [term_counts(d) for d in documents]
    if not docs:
        return []
    q = set(term_counts(query))
    avg = sum(sum(d.values()) for d in docs) / len(docs) or 1.0
    df = Counter(t for d in docs for t in set(d) if t in q)
    n = len(docs)
    scores = []
    for d in docs:
        length = sum(d.values())
        s = 0.0
        for t in q:
            if d[t]:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * d[t] * (k1 + 1) / (d[t] + k1 * (1 - b + b * length / avg))
        scores.append(s)
    return scores


def rank(query: str, documents: Sequence[str]) -> list[int]:
    """Indices of ``documents``, most relevant first; ties keep the given order."""
    scores = bm25_scores(query, documents)
    return sorted(range(len(documents)), key=lambda i: (-scores[i], i))
