"""Secrets Manager reader with a per-process cache (one call per secret per TTL, so rotation lands)."""

from __future__ import annotations

import threading
import time
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from convmem.errors import DependencyUnavailableError


class SecretsManagerSecrets:
    def __init__(self, client: Any | None = None, ttl_seconds: int = 300) -> None:
        self._client = client
        self._ttl = ttl_seconds
        self._cache: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def get(self, secret_id: str) -> str:
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(secret_id)
            if hit and now - hit[0] < self._ttl:
                return hit[1]
        if self._client is None:
            import boto3

            self._client = boto3.client("secretsmanager")
        try:
            value = self._client.get_secret_value(SecretId=secret_id)["SecretString"]
        except (ClientError, BotoCoreError) as exc:
            raise DependencyUnavailableError("The secret store is unavailable.", code="secrets_unavailable") from exc
        with self._lock:
            self._cache[secret_id] = (now, value)
        return value

    def clear(self) -> None:
        """Forget every cached value (after a snapshot restore: secrets are read afresh, never
        carried in a snapshot)."""
        with self._lock:
            self._cache.clear()
