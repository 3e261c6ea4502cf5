"""SnapStart (convmem/snapstart.py): a snapshot's init primes without leaving the process; an
on-demand init stays as lazy as before; a restored instance renews what it must not share."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import types
from collections import Counter

import boto3
import pytest

from tests.functional.conftest import ROOT, load_event

# A fresh interpreter imports the api function as Lambda's init does and says what it loaded and
# which AWS calls it tried (nothing listens on the endpoint: a call would fail the import).
_INIT_PROBE = """
import json, sys, time
sys.path[:0] = [sys.argv[1] + "/functions/api", sys.argv[1] + "/layers/convmem"]
import boto3
boto3.setup_default_session()
calls = []
boto3.DEFAULT_SESSION.events.register("before-send", lambda request, **kw: calls.append(request.url))
start = time.perf_counter()
import app
from convmem.domain import tokens
print(json.dumps({"sdk_loaded": "aws_encryption_sdk" in sys.modules, "calls": calls,
                  "encoder_loaded": tokens._encoding.cache_info().currsize == 1}))
"""

_ENV = {
    "PATH": "/usr/bin:/bin", "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ENDPOINT_URL": "http://127.0.0.1:9", "CONVERSATION_TABLE": "conversations", "KEY_STORE_TABLE": "key-store",
    "KMS_KEY_ARN": "arn:aws:kms:us-east-1:123456789012:key/priming", "CONVMEM_MODEL_PROVIDER": "local",
    "TOKEN_SECRET_ID": "token-secret", "API_KEY_SECRET_ID": "api-key-secret", "FOLD_QUEUE_URL": "http://127.0.0.1:9/q.fifo",
}


def _init(extra: dict[str, str]) -> dict:
    proc = subprocess.run([sys.executable, "-c", _INIT_PROBE, str(ROOT)], env={**_ENV, **extra},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_an_on_demand_init_stays_lazy_and_a_snapshot_init_primes_without_any_aws_call():
    on_demand = _init({"AWS_LAMBDA_INITIALIZATION_TYPE": "on-demand"})
    assert on_demand == {"sdk_loaded": False, "calls": [], "encoder_loaded": False}  # as fast as before

    snapshot = _init({"AWS_LAMBDA_INITIALIZATION_TYPE": "snap-start"})
    # The Encryption SDK and the token encoder are in the snapshot; no request left the process
    # (no secret, branch key or connection can be in it).
    assert snapshot == {"sdk_loaded": True, "calls": [], "encoder_loaded": True}


@pytest.fixture()
def counted_handler(api_env, aws):
    """The api function as Lambda loads it, its clients (boto3's default session) counted."""
    from local.lambda_runtime import LambdaContext, load_handler

    boto3.setup_default_session()
    calls: Counter[str] = Counter()
    boto3.DEFAULT_SESSION.events.register(
        "before-call.*.*", lambda model, **kw: calls.update([f"{model.service_model.service_name}.{model.name}"]))
    template, resolver = aws
    fn = load_handler(template, "ApiFunction", resolver)

    def turn(message: str) -> Counter[str]:
        calls.clear()
        event = load_event("api_turn.json")
        event["body"] = json.dumps({"message": message})
        out = fn(event, LambdaContext("ApiFunction"))
        assert out["statusCode"] == 200, out
        return Counter({k: v for k, v in calls.items() if k.startswith(("kms.", "secretsmanager."))})

    yield turn
    boto3.setup_default_session()


def test_a_restored_instance_reads_secrets_and_branch_keys_afresh_and_draws_new_randomness(counted_handler):
    from convmem.snapstart import renew

    counted_handler("My order is A-1042.")
    counted_handler("It should arrive on Friday.")
    assert counted_handler("Thanks!") == Counter()  # warm: the secret and the branch key are cached

    random.seed(7)
    snapshot_state = random.getstate()
    renew()  # what the after-restore hook runs

    assert random.getstate() != snapshot_state  # every restored instance draws its own jitter
    after = counted_handler("What did I say about my order?")
    assert after["secretsmanager.GetSecretValue"] >= 1  # the API key is read again, not taken from the snapshot
    assert after["kms.Decrypt"] >= 1  # the user's branch key is unwrapped again


def test_the_restore_hook_is_registered_on_lambda_and_skipped_elsewhere(monkeypatch):
    from convmem import snapstart

    assert snapstart.register_restore_hook() is False  # no snapshot_restore_py outside Lambda's runtime

    registered = []
    fake = types.ModuleType("snapshot_restore_py")
    fake.register_after_restore = registered.append
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", fake)
    assert snapstart.register_restore_hook() is True
    assert registered == [snapstart.renew]


def test_a_warm_up_that_does_real_work_fails_the_init_instead_of_shipping():
    from convmem.snapstart import warm_route

    class Resolver:
        def resolve(self, event, context):
            return {"statusCode": 200}

    with pytest.raises(RuntimeError, match="expected 401"):
        warm_route(Resolver().resolve, "GET", "/v1/health")()
