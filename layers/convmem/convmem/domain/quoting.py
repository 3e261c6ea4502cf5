"""Untrusted text as data: how anything a visitor, an agent, a model or a document wrote goes into
a summary or a model request.

Every such text is written as one JSON string literal: its quotes, backslashes, newlines and other
line breaks are escaped, so it can never end its own quotes, start a new line, open a new entry or
block, or put a role marker ("agent:", "[m1-2]", "SYSTEM:") at the start of a line. Only code
writes what stands outside the quotes.
"""

from __future__ import annotations

import json

# Line breaks JSON leaves unescaped but tokenizers and models read as new lines.
_LINE_BREAKS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def quote(text: str) -> str:
    """``text`` as a one-line JSON string literal (UTF-8 kept readable: Korean stays Korean)."""
    return json.dumps(text, ensure_ascii=False).translate(_LINE_BREAKS)


_DECODER = json.JSONDecoder()


def unquote_at(text: str, start: int) -> tuple[str, int] | None:
    """The JSON string literal starting at ``text[start]`` and the index after it, or None."""
    if start >= len(text) or text[start] != '"':
        return None
    try:
        value, end = _DECODER.raw_decode(text, start)
    except ValueError:
        return None
    return (value, end) if isinstance(value, str) else None
