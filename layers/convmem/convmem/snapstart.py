"""Lambda SnapStart: prime at init so the work lands in the snapshot; renew after a restore.

With SnapStart (template.yaml, ``SnapStart: ApplyOn: PublishedVersions`` and an alias), Lambda
runs a function's init once when a version is published, snapshots the memory, and starts new
instances from that snapshot. Whatever init did is then free for every restored instance, so a
snapshot's init *primes*: it builds the function's services (boto3 clients and their service
models, the store, the keyring and its key-store clients), imports what would otherwise be
imported lazily by the first request (the Encryption SDK and the Material Providers Library,
~0.5 s), runs one encrypt / decrypt under a throwaway local key so the SDK's code paths are
loaded, loads the tiktoken encoder, and sends the function's own warm-up through its code (the
API: an unauthenticated turn, answered 401 before any AWS call).

Priming makes no AWS call and touches no user's data: a snapshot holds no secret, no branch key,
no conversation text and no open connection.

Init without SnapStart is unchanged: priming runs only when Lambda says the init is a snapshot's
or provisioned concurrency's (``AWS_LAMBDA_INITIALIZATION_TYPE``), or when
``CONVMEM_PRIME_AT_INIT=1`` asks for it (the cold-start benchmark). An on-demand init stays lazy,
as fast as before.

After a restore (``snapshot_restore_py``'s ``register_after_restore``; the module ships with the
managed Python runtimes and is absent elsewhere, where nothing is registered) every restored
instance renews what must not be shared between instances or carried across time:
- randomness: the ``random`` module's state is part of the snapshot, so every instance would
  draw the same jitter; it is reseeded from ``os.urandom`` (which, like ``secrets``, ``uuid4``
  and the cryptography used by the Encryption SDK, reads the kernel and is restore-safe);
- connections: every tracked boto3 client closes its connection pool (a pooled socket would
  belong to the snapshot's network session); the clients reconnect on their next call;
- cached secrets and branch keys: the secret readers forget their values, the ciphers their
  texts and keyring caches (a new keyring, so a new cache);
- clocks: nothing holds a time taken at init (the clock adapter and the deadline read the time
  at each call; caches keyed on ``time.monotonic`` are the ones emptied above).
Credentials need nothing: Lambda gives a SnapStart function's init container credentials (not
the environment's keys), which botocore refreshes by itself after a restore.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from convmem import composition

PRIMING_INIT_TYPES = ("snap-start", "provisioned-concurrency")


def priming_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this init should prime: a snapshot's or a provisioned instance's, or asked for."""
    env = os.environ if environ is None else environ
    return env.get("AWS_LAMBDA_INITIALIZATION_TYPE") in PRIMING_INIT_TYPES or env.get("CONVMEM_PRIME_AT_INIT") == "1"


def prime_at_init(build: Callable[[], Any], *warmups: Callable[[], Any], environ: Mapping[str, str] | None = None) -> dict[str, float] | None:
    """At a function's init: when ``priming_wanted``, build its services with ``build`` (its
    cached factory), prime what that built, run ``warmups``, and register ``renew`` to run
    after every restore. Returns the milliseconds of each step, or None when it did not prime."""
    if not priming_wanted(environ):
        return None
    timings = prime(build, *warmups)
    register_restore_hook()
    return timings


def prime(build: Callable[[], Any], *warmups: Callable[[], Any]) -> dict[str, float]:
    """Build, prime the ciphers, load the token encoder, run the warm-ups (no AWS call)."""
    from convmem.adapters.encryption import HierarchicalCipher
    from convmem.domain.tokens import count_tokens

    timings: dict[str, float] = {}

    def step(name: str, fn: Callable[[], Any]) -> None:
        start = time.perf_counter()
        fn()
        timings[name] = round((time.perf_counter() - start) * 1000, 1)

    def prime_ciphers() -> None:
        for built in composition.live():
            if isinstance(built, HierarchicalCipher):
                built.prime()

    step("services", build)
    step("encryption", prime_ciphers)
    step("tokens", lambda: count_tokens("priming the token encoder"))
    for i, warmup in enumerate(warmups):
        step(f"warmup_{i + 1}", warmup)
    return timings


def renew() -> None:
    """After a snapshot restore: fresh randomness, no pooled connection, no cached secret,
    branch key or text (see the module's docstring)."""
    from convmem.adapters.encryption import HierarchicalCipher
    from convmem.adapters.secrets import SecretsManagerSecrets

    random.seed()  # from os.urandom
    for obj in composition.live():
        if isinstance(obj, HierarchicalCipher):
            obj.renew()
        elif isinstance(obj, SecretsManagerSecrets):
            obj.clear()
        elif hasattr(obj, "close") and hasattr(obj, "meta"):  # a boto3 client: its pool, not the client
            obj.close()


def register_restore_hook() -> bool:
    """Register ``renew`` with the runtime's SnapStart hooks; False where they do not exist."""
    try:
        from snapshot_restore_py import register_after_restore
    except ImportError:  # not a Lambda managed runtime (tests, make run, the benchmarks)
        return False
    register_after_restore(renew)
    return True


class _PrimingContext:
    """The Lambda context a warm-up request sees (it ends long before this deadline)."""

    function_name = "priming"
    memory_limit_in_mb = 512
    aws_request_id = "priming"
    invoked_function_arn = "arn:aws:lambda:us-east-1:000000000000:function:priming"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def warm_route(resolve: Callable[[dict[str, Any], Any], dict[str, Any]], method: str, path: str,
               body: str = "") -> Callable[[], Any]:
    """A warm-up that sends one unauthenticated request through ``resolve`` (the API's routing,
    validation, the error path, serialisation), without the handler's decorators, so it logs
    nothing and emits no metric. Credentials are checked before any AWS
    call, so the request ends with a 401 without leaving the process."""

    def warmup() -> Any:
        event = {
            "version": "2.0", "routeKey": "$default", "rawPath": path, "rawQueryString": "",
            "headers": {"content-type": "application/json"}, "body": body, "isBase64Encoded": False,
            "requestContext": {"http": {"method": method, "path": path, "sourceIp": "127.0.0.1", "protocol": "HTTP/1.1",
                                        "userAgent": "priming"}, "requestId": "priming", "routeKey": "$default",
                               "stage": "$default", "timeEpoch": 0},
        }
        out = resolve(event, _PrimingContext())
        if out.get("statusCode") != 401:  # anything else means the warm-up did real work
            raise RuntimeError(f"priming request {method} {path} answered {out.get('statusCode')}, expected 401")
        return out

    return warmup
