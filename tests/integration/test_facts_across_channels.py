"""Durable facts and the profile over HTTP on the local stack: one person on two channels."""

from __future__ import annotations

import time

import requests
from convmem.adapters.encryption import HierarchicalCipher
from convmem.domain.tokens import count_tokens
from convmem.service.stored import decrypt_facts

USER = "customer-42"


def wait_for(what, probe, timeout=20.0, every=0.3):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def facts(stack, headers):
    r = requests.get(f"{stack.url}/v1/me/facts", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    return {f["key"]: f for f in r.json()["facts"]}


def stored_facts(stack):
    """The facts document read straight from the embedded AWS and decrypted with the user's key."""
    table = next(t for t in stack.dynamodb().list_tables()["TableNames"] if t.endswith("ConversationTable"))
    key_store = next(t for t in stack.dynamodb().list_tables()["TableNames"] if t.endswith("KeyStoreTable"))
    kms = stack.client("kms")
    arn = kms.describe_key(KeyId=kms.list_keys()["Keys"][0]["KeyId"])["KeyMetadata"]["Arn"]
    items = stack.dynamodb().query(
        TableName=table, KeyConditionExpression="PK = :pk AND begins_with(SK, :f)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{USER}"}, ":f": {"S": "FACTS"}})["Items"]
    shards = {int(i["SK"]["S"].partition("#")[2] or 0): bytes(i["ct"]["B"]) for i in items if "ct" in i}
    cipher = HierarchicalCipher(kms_key_arn=arn, key_store_table=key_store, ddb_client=stack.dynamodb(), kms_client=kms)
    return {f.key: f for f in decrypt_facts(cipher, USER, shards).facts}


def test_a_fact_told_on_the_widget_and_updated_over_the_api_is_recalled_in_a_new_session(stack):
    api = stack.headers(USER)
    minted = requests.post(f"{stack.url}/v1/tokens", json={"userId": USER}, headers=api, timeout=10)
    assert minted.status_code == 201, minted.text
    widget = stack.bearer(minted.json()["token"])

    r = stack.turn_with(widget, "session-a", "My name is Minji and I live in Busan", channel="web")
    assert r.status_code == 200, r.text
    known = wait_for("the widget's facts, seen over the API", lambda: (f := facts(stack, api)) and "home.location" in f and f)
    assert known["name"]["text"] == "Their name is Minji" and "Busan" in known["home.location"]["text"]

    r = stack.turn(USER, "session-b", "I moved to Seoul", channel="api")
    assert r.status_code == 200, r.text
    moved = wait_for("the move", lambda: "Seoul" in facts(stack, api)["home.location"]["text"] and facts(stack, api))
    assert [k for k in moved if k == "home.location"] == ["home.location"]
    assert moved["home.location"]["id"] == known["home.location"]["id"]  # the same fact, updated
    home = stored_facts(stack)["home.location"]
    assert home.value == "Seoul" and [(v.value, v.source.session_id, v.source.channel) for v in home.history] == [
        ("Busan", "session-a", "web")]

    r = stack.turn_with(widget, "session-c", "what is the weather like where I live?", channel="web")
    assert r.status_code == 200, r.text
    context = r.json()["context"]
    assert context["factIds"][0] == moved["home.location"]["id"]
    assert "Lives in Seoul" in r.json()["reply"]

    profile = wait_for("a scheduled profile", lambda: requests.get(
        f"{stack.url}/v1/me/profile", headers=widget, timeout=10).json()["profile"], timeout=30)
    assert count_tokens(profile) <= 150 and "Writes in English." in profile


def test_facts_and_profile_are_the_callers_own(stack):
    stranger = stack.headers("stranger-7")
    assert requests.get(f"{stack.url}/v1/me/facts", headers=stranger, timeout=10).json() == {"facts": []}
    assert requests.delete(f"{stack.url}/v1/me/facts/not-a-fact", headers=stranger, timeout=10).status_code == 404
    assert requests.get(f"{stack.url}/v1/me/facts", timeout=10).status_code == 401
