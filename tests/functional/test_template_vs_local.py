"""The embedded AWS holds what template.yaml declares: every stateful resource exists, with the
properties that change behaviour (keys, indexes, TTL, FIFO, visibility, retention, redrive,
secrets, the KMS key), and nothing more. Resources come from local/aws.py's create_resources, the
code `make run` and the integration tier use.

Every property a stateful resource sets in the template is either compared here or listed in
NOT_EMULATED with the reason it has no local effect: a property added to the template fails this
test until someone decides which it is."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest

from local.template import function_environment, functions

COMPARED = {
    "AWS::DynamoDB::Table": {"BillingMode", "AttributeDefinitions", "KeySchema", "GlobalSecondaryIndexes",
                             "TimeToLiveSpecification"},
    "AWS::SQS::Queue": {"FifoQueue", "VisibilityTimeout", "MessageRetentionPeriod", "ContentBasedDeduplication",
                        "DelaySeconds", "ReceiveMessageWaitTimeSeconds", "RedrivePolicy"},
    "AWS::SecretsManager::Secret": {"Description", "GenerateSecretString"},
    "AWS::KMS::Key": {"Description", "KeyUsage", "KeySpec", "Enabled"},
}
NOT_EMULATED = {
    ("AWS::DynamoDB::Table", "PointInTimeRecoverySpecification"): "backups of the deployed table; nothing reads them",
    ("AWS::DynamoDB::Table", "SSESpecification"): "AWS-side encryption at rest; what convmem stores is ciphertext already",
    ("AWS::DynamoDB::Table", "DeletionProtectionEnabled"): "guards the deployed table; a local one ends with its stack",
    ("AWS::SQS::Queue", "SqsManagedSseEnabled"): "AWS-side encryption at rest of queued ids",
    ("AWS::KMS::Key", "EnableKeyRotation"): "yearly rotation of the key material; old versions keep decrypting",
    ("AWS::KMS::Key", "KeyPolicy"): "moto enforces no key policy (tests/unit/test_template_policies.py reads it)",
}
# What AWS (and moto) assume for a queue attribute the template leaves out.
SQS_DEFAULTS = {"FifoQueue": "false", "VisibilityTimeout": "30", "MessageRetentionPeriod": "345600",
                "DelaySeconds": "0", "ReceiveMessageWaitTimeSeconds": "0"}


def stateful(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {k: v.get("Properties", {}) for k, v in template["Resources"].items() if v["Type"] == kind}


def text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_template_property_is_compared_or_known_to_have_no_local_effect(aws) -> None:
    template, _ = aws
    unknown = [
        f"{logical}.{prop} ({res['Type']})"
        for logical, res in template["Resources"].items() if res["Type"] in COMPARED
        for prop in res.get("Properties", {})
        if prop not in COMPARED[res["Type"]] and (res["Type"], prop) not in NOT_EMULATED
    ]
    assert not unknown, f"compare these in this test or say why they have no local effect: {unknown}"


def test_tables_have_the_template_keys_indexes_and_ttl(aws) -> None:
    template, resolver = aws
    ddb = boto3.client("dynamodb")
    tables = stateful(template, "AWS::DynamoDB::Table")
    assert set(ddb.list_tables()["TableNames"]) == {resolver.refs[t] for t in tables}
    for logical, props in tables.items():
        name = resolver.refs[logical]
        live = ddb.describe_table(TableName=name)["Table"]
        assert live["KeySchema"] == props["KeySchema"], logical
        assert sorted(live["AttributeDefinitions"], key=str) == sorted(props["AttributeDefinitions"], key=str), logical
        assert live.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED") == props.get("BillingMode", "PROVISIONED")

        def index(gsi: dict[str, Any]) -> tuple:
            projection = gsi["Projection"]
            return (gsi["IndexName"], tuple(map(str, gsi["KeySchema"])), projection["ProjectionType"],
                    tuple(sorted(projection.get("NonKeyAttributes", []))))

        assert sorted(map(index, live.get("GlobalSecondaryIndexes", []))) == sorted(
            map(index, props.get("GlobalSecondaryIndexes", []))), logical
        ttl = ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"]
        wanted = props.get("TimeToLiveSpecification")
        if wanted and text(wanted.get("Enabled")) == "true":
            assert (ttl.get("AttributeName"), ttl["TimeToLiveStatus"]) == (wanted["AttributeName"], "ENABLED"), logical
        else:
            assert ttl["TimeToLiveStatus"] == "DISABLED", logical


def test_queues_have_the_template_fifo_visibility_retention_and_redrive(aws) -> None:
    template, resolver = aws
    sqs = boto3.client("sqs")
    queues = stateful(template, "AWS::SQS::Queue")
    assert set(sqs.list_queues().get("QueueUrls", [])) == {resolver.refs[q] for q in queues}
    for logical, raw in queues.items():
        props = resolver.resolve(raw)
        live = sqs.get_queue_attributes(QueueUrl=resolver.refs[logical], AttributeNames=["All"])["Attributes"]
        fifo = text(props.get("FifoQueue", "false")) == "true"
        assert live["QueueArn"].endswith(".fifo") == fifo, logical
        for attr, default in SQS_DEFAULTS.items():
            assert text(live.get(attr, "false" if attr == "FifoQueue" else None)) == text(props.get(attr, default)), (logical, attr)
        if fifo:
            assert text(live.get("ContentBasedDeduplication", "false")) == text(props.get("ContentBasedDeduplication", "false"))
        redrive = props.get("RedrivePolicy")
        if redrive:
            got = json.loads(live["RedrivePolicy"])
            assert got["deadLetterTargetArn"] == redrive["deadLetterTargetArn"], logical  # the local DLQ's ARN
            assert int(got["maxReceiveCount"]) == int(redrive["maxReceiveCount"]), logical
            target = next(q for q in queues if resolver.attrs[(q, "Arn")] == got["deadLetterTargetArn"])
            assert text(queues[target].get("FifoQueue", "false")) == text(props.get("FifoQueue", "false")), (
                f"{logical}'s dead-letter queue {target} must be FIFO too")
        else:
            assert "RedrivePolicy" not in live, logical


def test_secrets_exist_with_their_descriptions_and_generated_length(aws) -> None:
    template, resolver = aws
    sm = boto3.client("secretsmanager")
    secrets = stateful(template, "AWS::SecretsManager::Secret")
    assert {s["ARN"] for s in sm.list_secrets()["SecretList"]} == {resolver.refs[s] for s in secrets}
    for logical, props in secrets.items():
        described = sm.describe_secret(SecretId=resolver.refs[logical])
        assert described.get("Description", "") == props.get("Description", ""), logical
        value = sm.get_secret_value(SecretId=resolver.refs[logical])["SecretString"]
        assert value, logical
        length = props.get("GenerateSecretString", {}).get("PasswordLength")
        if length and logical != "ApiKeySecret":  # the fixture sets the API key the events/ files carry
            assert len(value) == int(length), logical


def test_the_kms_key_is_a_symmetric_encrypt_decrypt_key_with_the_template_description(aws) -> None:
    template, resolver = aws
    kms = boto3.client("kms")
    keys = stateful(template, "AWS::KMS::Key")
    assert len(kms.list_keys()["Keys"]) == len(keys)
    for logical, props in keys.items():
        meta = kms.describe_key(KeyId=resolver.refs[logical])["KeyMetadata"]
        assert meta["Arn"] == resolver.attrs[(logical, "Arn")]
        assert meta["Description"] == props.get("Description", logical)
        # moto leaves KeyUsage out when the create request did; ENCRYPT_DECRYPT is AWS's default.
        assert meta.get("KeyUsage", "ENCRYPT_DECRYPT") == props.get("KeyUsage", "ENCRYPT_DECRYPT")
        assert meta["KeySpec"] == props.get("KeySpec", "SYMMETRIC_DEFAULT")
        assert meta["Enabled"] is (text(props.get("Enabled", "true")) == "true")
        # What the key store does with it: wrap a branch key, then unwrap it.
        wrapped = kms.generate_data_key_without_plaintext(KeyId=meta["Arn"], KeySpec="AES_256")["CiphertextBlob"]
        assert kms.decrypt(CiphertextBlob=wrapped, KeyId=meta["Arn"])["Plaintext"]


@pytest.mark.parametrize("service", ["dynamodb", "sqs", "secretsmanager", "kms"])
def test_every_function_environment_names_resources_that_exist(aws, service: str) -> None:
    """What the functions are told (table names, queue URLs, secret and key ARNs) is on the embedded AWS."""
    template, resolver = aws
    client = boto3.client(service)
    existing = {
        "dynamodb": lambda: set(client.list_tables()["TableNames"]),
        "sqs": lambda: set(client.list_queues().get("QueueUrls", [])),
        "secretsmanager": lambda: {s["ARN"] for s in client.list_secrets()["SecretList"]},
        "kms": lambda: {client.describe_key(KeyId=k["KeyId"])["KeyMetadata"]["Arn"] for k in client.list_keys()["Keys"]},
    }[service]()
    looks_like = {
        "dynamodb": lambda v: v.startswith(f"{resolver.stack_name}-") and v.endswith("Table"),
        "sqs": lambda v: v.startswith("http") and "/" in v,
        "secretsmanager": lambda v: v.startswith("arn:aws:secretsmanager:"),
        "kms": lambda v: v.startswith("arn:aws:kms:"),
    }[service]
    named = {(f, k): v for f in functions(template) for k, v in function_environment(template, f, resolver).items()
             if looks_like(v)}
    assert named, f"no function names a {service} resource"
    missing = {key: v for key, v in named.items() if v not in existing}
    assert not missing, missing
