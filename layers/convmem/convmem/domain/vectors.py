"""Embedding vectors as facts store them: normalised, int8-quantised, base64. Pure."""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence


def quantize(vector: Sequence[float]) -> str:
    """The vector, normalised to unit length, as base64 of one signed byte a dimension."""
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    data = bytes((max(-127, min(127, round(v / norm * 127))) & 0xFF) for v in vector)
    return base64.b64encode(data).decode("ascii")


def dequantize(packed: str) -> list[float]:
    return [(b - 256 if b > 127 else b) / 127 for b in base64.b64decode(packed)]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) != len(b) or not a:
        return 0.0
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
