"""Functional tier: handlers and adapters against moto in-process (mock_aws).

Resources are created from template.yaml by the same code the local stack uses.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from pathlib import Path

import boto3
import pytest
from moto import mock_aws
from moto.dynamodb.responses import DynamoHandler

from local.aws import create_resources
from local.template import Resolver, function_environment, load_template

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
API_KEY = "local-dev-key"  # the key the files in events/ carry


def load_event(name: str) -> dict:
    return json.loads((EVENTS / name).read_text())


class CallCounter:
    """Counts AWS calls by service and operation with botocore event hooks."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    def attach(self, client):
        client.meta.events.register("before-call.*.*", self._count)
        return client

    def _count(self, model, **_kw) -> None:
        self.calls[f"{model.service_model.service_name}.{model.name}"] += 1

    def by_service(self, service: str) -> int:
        return sum(n for k, n in self.calls.items() if k.startswith(service + "."))

    def reset(self) -> None:
        self.calls.clear()


# One DynamoDB request at a time, as local/moto_server.py runs them (a partition serialises its
# writes): moto's tables are plain dicts, and a turn reads its session and the user's memory on two
# threads, so a BatchGetItem of a new user's keys could add an entry while a Query iterated them
# ("dictionary changed size during iteration"), which real DynamoDB never does.
_DYNAMODB = threading.Lock()
_CALL_ACTION = DynamoHandler.call_action


def _one_at_a_time(self):
    with _DYNAMODB:
        return _CALL_ACTION(self)


@pytest.fixture()
def aws(monkeypatch):
    monkeypatch.setattr(DynamoHandler, "call_action", _one_at_a_time)
    for k, v in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    with mock_aws():
        template = load_template()
        resolver = create_resources(template, secret_values={"ApiKeySecret": API_KEY})
        # Tests take turns and create visitors far faster than people: the limits per caller stay
        # on (their counters run in every turn) but never refuse here; tests/functional/test_limits.py
        # sets its own.
        resolver.overrides.update({"TurnLimit": "1000000", "TurnBurstLimit": "0",
                                   "VisitorLimit": "1000000", "VisitorBurstLimit": "0"})
        yield template, resolver


@pytest.fixture()
def api_env(aws, monkeypatch) -> dict[str, str]:
    template, resolver = aws
    env = function_environment(template, "ApiFunction", resolver)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return env


@pytest.fixture()
def settings(api_env):
    from convmem.settings import Settings

    return Settings.from_env(dict(os.environ))


@pytest.fixture()
def counter() -> CallCounter:
    return CallCounter()


@pytest.fixture()
def services(settings, counter):
    from convmem.composition import build_api

    clients = {name: counter.attach(boto3.client(name)) for name in ("dynamodb", "kms", "secretsmanager", "sqs")}
    return build_api(settings, clients=clients)


@pytest.fixture()
def handler(api_env, aws):
    """The api function loaded as Lambda would: module from CodeUri, environment from the template."""
    from local.lambda_runtime import LambdaContext, load_handler

    template, resolver = aws
    fn = load_handler(template, "ApiFunction", resolver)
    return lambda event: fn(event, LambdaContext("ApiFunction"))


def scan_all(resolver: Resolver) -> list[dict]:
    ddb = boto3.client("dynamodb")
    items: list[dict] = []
    for table in ddb.list_tables()["TableNames"]:
        for page in ddb.get_paginator("scan").paginate(TableName=table):
            items.extend(page["Items"])
    return items
