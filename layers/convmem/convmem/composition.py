"""The composition root: builds each function's services from settings, clients injected once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from convmem.adapters.clock import SystemClock
from convmem.adapters.dynamodb_store import DynamoDBStore
from convmem.adapters.encryption import HierarchicalCipher
from convmem.adapters.local_model import LocalModel
from convmem.adapters.secrets import SecretsManagerSecrets
from convmem.errors import ConvmemError
from convmem.service.auth import AuthService
from convmem.service.sessions import SessionService
from convmem.service.turn import TurnService
from convmem.settings import Settings


@dataclass(frozen=True)
class ApiServices:
    auth: AuthService
    turns: TurnService
    sessions: SessionService


def build_model(settings: Settings) -> Any:
    if settings.model_provider == "local":
        return LocalModel()
    raise ConvmemError(f"model provider {settings.model_provider!r} is not available in this build")


def build_api(settings: Settings, *, clients: dict[str, Any] | None = None) -> ApiServices:
    """Wire the HTTP API's services. ``clients`` (dynamodb, kms, secretsmanager) override defaults."""
    import boto3

    clients = clients or {}
    ddb = clients.get("dynamodb") or boto3.client("dynamodb")
    kms = clients.get("kms") or boto3.client("kms")
    store = DynamoDBStore(settings.table_name, ddb, window=settings.window_messages)
    cipher = HierarchicalCipher(
        kms_key_arn=settings.kms_key_arn,
        key_store_table=settings.key_store_table_name,
        ddb_client=ddb,
        kms_client=kms,
        cache_ttl_seconds=settings.key_cache_ttl_seconds,
    )
    secrets = SecretsManagerSecrets(clients.get("secretsmanager"), ttl_seconds=settings.secret_cache_ttl_seconds)
    return ApiServices(
        auth=AuthService(
            secrets,
            token_secret_id=settings.token_secret_id,
            api_key_secret_id=settings.api_key_secret_id,
            token_ttl_seconds=settings.token_ttl_seconds,
        ),
        turns=TurnService(store=store, cipher=cipher, model=build_model(settings), clock=SystemClock(), settings=settings),
        sessions=SessionService(store=store, cipher=cipher),
    )
