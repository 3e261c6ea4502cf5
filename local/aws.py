"""The embedded AWS: moto server on loopback, with the resources template.yaml declares."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from typing import Any

from local.template import REGION, Resolver, TemplateError, env_overrides

# Resource types that run in-process (functions, API) or have no local effect (alarms, dashboard, logs).
IN_PROCESS = {
    "AWS::Serverless::Function",
    "AWS::Serverless::LayerVersion",
    "AWS::Serverless::HttpApi",
}
NO_LOCAL_EFFECT = {"AWS::CloudWatch::Alarm", "AWS::CloudWatch::Dashboard", "AWS::Logs::LogGroup"}
_SQS_ATTRIBUTES = ("FifoQueue", "VisibilityTimeout", "MessageRetentionPeriod", "ContentBasedDeduplication",
                   "DelaySeconds", "ReceiveMessageWaitTimeSeconds", "RedrivePolicy")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout}s")


def start_moto(port: int) -> subprocess.Popen:
    """moto server on loopback (DynamoDB serialised, see local/moto_server.py)."""
    from local.template import ROOT

    proc = subprocess.Popen(
        cwd=ROOT,
        args=[sys.executable, "-m", "local.moto_server", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port, proc=proc)
    return proc


def stop_moto(proc: subprocess.Popen) -> None:
    """Stop a moto server started by start_moto (killed if it ignores SIGTERM)."""
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def aws_environment(port: int) -> dict[str, str]:
    """What boto3 needs to talk to the embedded AWS (any key works on moto)."""
    return {
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
    }


def use_aws(port: int) -> None:
    os.environ.update(aws_environment(port))


def _client(name: str) -> Any:
    import boto3

    return boto3.client(name, region_name=REGION)


def _table(logical: str, props: dict[str, Any], resolver: Resolver) -> None:
    name = f"{resolver.stack_name}-{logical}"
    kwargs: dict[str, Any] = {
        "TableName": name,
        "AttributeDefinitions": props["AttributeDefinitions"],
        "KeySchema": props["KeySchema"],
        "BillingMode": props.get("BillingMode", "PAY_PER_REQUEST"),
    }
    if props.get("GlobalSecondaryIndexes"):
        kwargs["GlobalSecondaryIndexes"] = props["GlobalSecondaryIndexes"]
    ddb = _client("dynamodb")
    arn = ddb.create_table(**kwargs)["TableDescription"]["TableArn"]
    ttl = props.get("TimeToLiveSpecification")
    if ttl:
        ddb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
    resolver.refs[logical] = name
    resolver.attrs[(logical, "Arn")] = arn


def _kms_key(logical: str, props: dict[str, Any], resolver: Resolver) -> None:
    meta = _client("kms").create_key(Description=props.get("Description", logical))["KeyMetadata"]
    resolver.refs[logical] = meta["KeyId"]
    resolver.attrs[(logical, "Arn")] = meta["Arn"]


def _secret(logical: str, props: dict[str, Any], resolver: Resolver, value: str | None) -> None:
    if value is None:
        length = int(props.get("GenerateSecretString", {}).get("PasswordLength", 40))
        value = secrets.token_urlsafe(length)[:length]
    arn = _client("secretsmanager").create_secret(
        Name=f"{resolver.stack_name}-{logical}", SecretString=value, Description=props.get("Description", "")
    )["ARN"]
    resolver.refs[logical] = arn


def _queue(logical: str, props: dict[str, Any], resolver: Resolver) -> None:
    import json

    fifo = str(props.get("FifoQueue", "false")).lower() == "true"
    name = f"{resolver.stack_name}-{logical}" + (".fifo" if fifo else "")
    attributes = {
        k: (json.dumps(v) if isinstance(v, dict) else str(v).lower() if isinstance(v, bool) else str(v))
        for k, v in props.items() if k in _SQS_ATTRIBUTES
    }
    sqs = _client("sqs")
    url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
    resolver.refs[logical] = url
    resolver.attrs[(logical, "Arn")] = f"arn:aws:sqs:{REGION}:{resolver.pseudo('AWS::AccountId')}:{name}"
    resolver.attrs[(logical, "QueueName")] = name
    resolver.attrs[(logical, "QueueUrl")] = url


def create_resources(
    template: dict[str, Any], secret_values: dict[str, str] | None = None, stack_name: str = "convmem-local"
) -> Resolver:
    """Create every stateful resource of the template on the embedded AWS; return the resolver
    that knows their physical names. Fails loudly on a resource type it cannot emulate."""
    resolver = Resolver(template, stack_name=stack_name)
    # The local stack and the tests run the offline model unless told otherwise (the template's
    # default is Bedrock, which needs the network).
    resolver.overrides.setdefault("ModelProvider", os.environ.get("CONVMEM_MODEL_PROVIDER", "local"))
    env_overrides(resolver)
    secret_values = secret_values or {}
    creators = {
        "AWS::DynamoDB::Table": _table,
        "AWS::KMS::Key": _kms_key,
        "AWS::SQS::Queue": _queue,
        "AWS::SecretsManager::Secret": lambda lid, props, res: _secret(lid, props, res, secret_values.get(lid)),
    }
    pending = list(template["Resources"].items())
    while pending:  # a resource whose properties name one not created yet waits a pass
        waiting = []
        for logical, res in pending:
            kind = res["Type"]
            if kind in IN_PROCESS or kind in NO_LOCAL_EFFECT:
                resolver.refs[logical] = f"{stack_name}-{logical}"
                continue
            if kind not in creators:
                raise TemplateError(f"{logical}: resource type {kind} is not emulated by the local stack")
            try:
                props = resolver.resolve(res.get("Properties", {}))
            except TemplateError:
                waiting.append((logical, res))
                continue
            creators[kind](logical, props, resolver)
        if len(waiting) == len(pending):
            resolver.resolve(waiting[0][1].get("Properties", {}))  # raises the real reason
        pending = waiting
    return resolver
