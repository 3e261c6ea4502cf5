"""The composition root: builds each function's services from settings, clients injected once."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, TypeVar

from convmem.adapters.clock import SystemClock
from convmem.adapters.dynamodb_store import DynamoDBStore
from convmem.adapters.encryption import HierarchicalCipher
from convmem.adapters.local_model import LocalModel
from convmem.adapters.secrets import SecretsManagerSecrets
from convmem.adapters.sqs_jobs import SqsJobs
from convmem.domain.rate_limits import RateLimit
from convmem.errors import ConvmemError
from convmem.ports import Cipher, Clock, Jobs, Model, Secrets, Store, erasure_blocks
from convmem.service.auth import AuthService
from convmem.service.export import ExportService
from convmem.service.facts import FactsService
from convmem.service.fold import FoldService
from convmem.service.forget import ForgetService
from convmem.service.profile import ProfileService
from convmem.service.sessions import SessionService
from convmem.service.turn import TurnService
from convmem.settings import Settings

T = TypeVar("T", FoldService, FactsService)  # the consumers _consumer wires

# Everything the builds below made that holds connections, caches or key material: what
# convmem/snapstart.py primes at init and renews after a snapshot restore. Weak, so the many
# services tests build are not kept alive.
_LIVE: weakref.WeakSet[Any] = weakref.WeakSet()


def live() -> list[Any]:
    """The clients, ciphers and secret readers built in this process that are still in use."""
    return list(_LIVE)


Tracked = TypeVar("Tracked")


def _track(obj: Tracked) -> Tracked:
    _LIVE.add(obj)
    return obj


@dataclass(frozen=True)
class ApiServices:
    auth: AuthService
    turns: TurnService
    sessions: SessionService
    facts: FactsService
    profile: ProfileService
    forget: ForgetService
    export: ExportService


def build_model(settings: Settings, clients: dict[str, Any] | None = None, *, with_tools: bool = False) -> Any:
    """The model port of ``settings.model_provider``. Tools only where replies are made (the API)."""
    if settings.model_provider == "local":
        return LocalModel()
    if settings.model_provider != "bedrock":
        raise ConvmemError(f"model provider {settings.model_provider!r} is not available in this build")
    from convmem.adapters.bedrock_model import BedrockModel
    from convmem.adapters.tools import ToolRegistry, build_tools

    clients = clients if clients is not None else {}

    def bedrock_client(name: str) -> Any:
        if name not in clients:
            import boto3
            from botocore.config import Config

            # One attempt per call: BedrockModel retries throttling itself, within the turn's deadline.
            config = Config(retries={"total_max_attempts": 1}, read_timeout=settings.model_timeout_s, connect_timeout=5)
            clients[name] = _track(boto3.client(name, region_name=settings.bedrock_region or None, config=config))
        return clients[name]

    tools = build_tools(settings, bedrock_client) if with_tools else ToolRegistry()
    return BedrockModel(runtime=bedrock_client("bedrock-runtime"), settings=settings, tools=tools)


def aws_client(name: str) -> Any:
    """A boto3 client as the functions use it: botocore's standard retries (throttling and 5xx
    retried with jittered backoff, 3 attempts in all) and short timeouts, so a dependency that
    stays down ends as a 503 well inside the API's 29 s instead of hanging the turn."""
    import boto3
    from botocore.config import Config

    return boto3.client(
        name, config=Config(retries={"mode": "standard", "total_max_attempts": 3}, connect_timeout=2, read_timeout=5)
    )


def _client(clients: dict[str, Any], name: str) -> Any:
    if name not in clients:
        clients[name] = aws_client(name)
    return _track(clients[name])


def _store_and_cipher(settings: Settings, clients: dict[str, Any], clock: Clock) -> tuple[DynamoDBStore, HierarchicalCipher]:
    ddb = _client(clients, "dynamodb")
    store = DynamoDBStore(
        settings.table_name, ddb, window=settings.window_messages, due_shards=settings.profile_due_shards,
        facts_shards=settings.facts_shards,
    )
    cipher = _track(HierarchicalCipher(
        kms_key_arn=settings.kms_key_arn,
        key_store_table=settings.key_store_table_name,
        ddb_client=ddb,
        kms_client=_client(clients, "kms"),
        cache_ttl_seconds=settings.key_cache_ttl_seconds,
        # Never a new branch key for a user under erasure (the marker, read consistently).
        may_create_key=lambda user_id: not erasure_blocks(*store.get_erasure(user_id), clock.now()),
    ))
    return store, cipher


def build_api(
    settings: Settings, *, clients: dict[str, Any] | None = None, clock: Clock | None = None, model: Any | None = None
) -> ApiServices:
    """Wire the HTTP API's services. ``clients`` (dynamodb, kms, secretsmanager, sqs) override defaults;
    ``clock`` and ``model`` replace the system clock and the configured model (the recall benchmark
    replays recorded conversations at their own dates, with the recorded replies)."""
    clients = dict(clients or {})
    clock = clock or SystemClock()
    store, cipher = _store_and_cipher(settings, clients, clock)
    jobs = None
    if settings.fold_queue_url or settings.facts_queue_url or settings.erase_queue_url:
        jobs = _jobs(settings, clients)
    model = model or build_model(settings, clients, with_tools=True)
    secrets = _track(SecretsManagerSecrets(_client(clients, "secretsmanager"), ttl_seconds=settings.secret_cache_ttl_seconds))
    return wire_api(settings, store=store, cipher=cipher, model=model, clock=clock, jobs=jobs, secrets=secrets)


def wire_api(
    settings: Settings, *, store: Store, cipher: Cipher, model: Model, clock: Clock, jobs: Jobs | None, secrets: Secrets
) -> ApiServices:
    """The API's services on the given ports: DynamoDB and the encryption SDK in ``build_api``,
    in-memory fakes in the service tests (one wiring for both)."""
    facts = FactsService(store=store, cipher=cipher, model=model, clock=clock, settings=settings)
    return ApiServices(
        auth=AuthService(
            secrets,
            token_secret_id=settings.token_secret_id,
            api_key_secret_id=settings.api_key_secret_id,
            token_ttl_seconds=settings.token_ttl_seconds,
            visitor_limit=RateLimit("visitors", settings.visitor_limit, settings.visitor_limit_window_s,
                                    settings.visitor_burst_limit, settings.limit_burst_s),
            visitor_counter=store,
            limit_clock=lambda: clock.now().timestamp(),  # tokens keep the real time
        ),
        turns=TurnService(store=store, cipher=cipher, model=model, clock=clock, settings=settings, jobs=jobs),
        sessions=SessionService(store=store, cipher=cipher),
        facts=facts,
        profile=ProfileService(store=store, cipher=cipher, model=model, clock=clock, settings=settings),
        forget=ForgetService(store=store, cipher=cipher, clock=clock, settings=settings, jobs=jobs, facts=facts, model=model),
        export=ExportService(store=store, cipher=cipher),
    )


def _jobs(settings: Settings, clients: dict[str, Any]) -> SqsJobs:
    return SqsJobs(
        settings.fold_queue_url, _client(clients, "sqs"),
        facts_queue_url=settings.facts_queue_url, erase_queue_url=settings.erase_queue_url,
    )


def build_erase(settings: Settings, *, clients: dict[str, Any] | None = None) -> ForgetService:
    """Wire the erasure consumer's service (no model: it only deletes)."""
    clients = dict(clients or {})
    clock = SystemClock()
    store, cipher = _store_and_cipher(settings, clients, clock)
    return ForgetService(store=store, cipher=cipher, clock=clock, settings=settings, jobs=_jobs(settings, clients))


def _consumer(
    service: type[T], settings: Settings, clients: dict[str, Any] | None, model: Any | None, clock: Clock | None = None
) -> T:
    """A background function's service: the store, the cipher, the model, the clock."""
    clients = dict(clients or {})
    clock = clock or SystemClock()
    store, cipher = _store_and_cipher(settings, clients, clock)
    return service(store=store, cipher=cipher, model=model or build_model(settings, clients), clock=clock, settings=settings)


def build_fold(
    settings: Settings, *, clients: dict[str, Any] | None = None, model: Any | None = None, clock: Clock | None = None
) -> FoldService:
    """Wire the fold consumer's service."""
    return _consumer(FoldService, settings, clients, model, clock)


def build_facts(
    settings: Settings, *, clients: dict[str, Any] | None = None, model: Any | None = None, clock: Clock | None = None
) -> FactsService:
    """Wire the facts consumer's service."""
    return _consumer(FactsService, settings, clients, model, clock)


def build_profile(
    settings: Settings, *, clients: dict[str, Any] | None = None, model: Any | None = None, clock: Clock | None = None
) -> ProfileService:
    """Wire the profile tick (it sends to ``PROFILE_QUEUE_URL``) and the profile worker (it needs no queue)."""
    clients = dict(clients or {})
    clock = clock or SystemClock()
    store, cipher = _store_and_cipher(settings, clients, clock)
    jobs = SqsJobs("", _client(clients, "sqs"), profile_queue_url=settings.profile_queue_url) if settings.profile_queue_url else None
    return ProfileService(store=store, cipher=cipher, model=model or build_model(settings, clients), clock=clock,
                          settings=settings, jobs=jobs)
