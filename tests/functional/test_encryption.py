"""Per-user hierarchical keyring under moto: isolation, context binding, warm cache."""

from __future__ import annotations

import boto3
import pytest
from convmem.adapters.encryption import DecryptionError, HierarchicalCipher
from convmem.errors import KeyDestroyedError


@pytest.fixture()
def make_cipher(settings, counter):
    def make():
        return HierarchicalCipher(
            kms_key_arn=settings.kms_key_arn,
            key_store_table=settings.key_store_table_name,
            ddb_client=counter.attach(boto3.client("dynamodb")),
            kms_client=counter.attach(boto3.client("kms")),
        )

    return make


CTX = dict(user_id="alice", session_id="s-1", kind="message", ref="1")


def test_a_message_round_trips_and_the_ciphertext_holds_no_plaintext(make_cipher):
    cipher = make_cipher()
    ct = cipher.encrypt("my secret order 주문 A-991", **CTX)
    assert b"A-991" not in ct and "주문".encode() not in ct
    assert make_cipher().decrypt(ct, **CTX) == "my secret order 주문 A-991"


def test_user_b_cannot_open_user_a_message(make_cipher):
    cipher = make_cipher()
    ct = cipher.encrypt("for alice only", **CTX)
    cipher.encrypt("bob has a key too", user_id="bob", session_id="s-2", kind="message", ref="1")
    with pytest.raises(DecryptionError):
        make_cipher().decrypt(ct, **{**CTX, "user_id": "bob"})


@pytest.mark.parametrize("field, value", [("session_id", "s-2"), ("kind", "summary"), ("ref", "2")])
def test_a_changed_encryption_context_fails(make_cipher, field, value):
    cipher = make_cipher()
    ct = cipher.encrypt("bound to its place", **CTX)
    with pytest.raises(DecryptionError):
        cipher.decrypt(ct, **{**CTX, field: value})


def test_each_user_gets_their_own_branch_key_once(make_cipher):
    cipher = make_cipher()
    cipher.encrypt("a", **CTX)
    cipher.encrypt("b", **{**CTX, "ref": "2"})
    cipher.encrypt("c", user_id="bob", session_id="s", kind="message", ref="1")
    ids = {i["branch-key-id"]["S"] for i in boto3.client("dynamodb").scan(TableName=cipher._key_store_table)["Items"]}
    assert ids == {"user:alice", "user:bob"}


def test_a_second_create_of_the_same_user_key_keeps_old_messages_readable(make_cipher):
    cipher = make_cipher()
    ct = cipher.encrypt("still readable", **CTX)
    make_cipher().create_user_key("alice")  # a concurrent first turn elsewhere
    assert make_cipher().decrypt(ct, **CTX) == "still readable"


def test_a_warm_keyring_makes_no_kms_or_key_store_calls(make_cipher, counter):
    cipher = make_cipher()
    cts = [cipher.encrypt(f"m{i}", **{**CTX, "ref": str(i)}) for i in range(3)]
    cipher.decrypt(cts[0], **{**CTX, "ref": "0"})
    counter.reset()
    for i in range(50):
        ct = cipher.encrypt(f"warm {i}", **{**CTX, "ref": str(100 + i)})
        assert cipher.decrypt(ct, **{**CTX, "ref": str(100 + i)}) == f"warm {i}"
    assert dict(counter.calls) == {}


def test_a_new_users_first_turn_never_waits_on_the_key_cache(services, monkeypatch):
    """The MPL's default storm-tracking cache slept ~1 s after a new user's first (missing)
    branch-key lookup; people saw it as a slow first reply in the widget."""
    import time

    from convmem.service.turn import TurnInput

    services.turns.take_turn("warm-user", "warm-s", TurnInput(message="warm the process up"))
    slept: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(time, "sleep", lambda s: (slept.append(s), real_sleep(s)))
    services.turns.take_turn("brand-new-user", "new-s", TurnInput(message="hello, first time here"))
    assert sum(slept) < 0.05, f"slept {sum(slept):.2f}s in {len(slept)} calls"


def test_the_same_instance_remembers_texts_but_never_across_contexts(make_cipher, counter):
    cipher = make_cipher()
    ct = cipher.encrypt("window message", **CTX)
    counter.reset()
    assert cipher.decrypt(ct, **CTX) == "window message"  # remembered: no SDK work, no AWS call
    assert dict(counter.calls) == {}
    for moved in ({"user_id": "bob"}, {"session_id": "s-2"}, {"kind": "summary"}, {"ref": "2"}):
        with pytest.raises(DecryptionError):  # a ciphertext moved to another row still fails
            cipher.decrypt(ct, **{**CTX, **moved})


def test_erasure_makes_this_instance_forget_the_users_texts(make_cipher):
    cipher = make_cipher()
    ct = cipher.encrypt("forget me", **CTX)
    other = cipher.encrypt("keep me", user_id="bob", session_id="s-2", kind="message", ref="1")
    assert cipher.decrypt(ct, **CTX) == "forget me"
    cipher.destroy_user_key("alice")
    with pytest.raises(KeyDestroyedError):  # erased, told apart from a tampered item
        cipher.decrypt(ct, **CTX)
    assert cipher.decrypt(other, user_id="bob", session_id="s-2", kind="message", ref="1") == "keep me"


def test_remembered_texts_expire_with_the_key_cache(settings, monkeypatch):
    import time as clock

    cipher = HierarchicalCipher(kms_key_arn=settings.kms_key_arn, key_store_table=settings.key_store_table_name,
                                ddb_client=boto3.client("dynamodb"), kms_client=boto3.client("kms"), cache_ttl_seconds=5)
    ct = cipher.encrypt("short-lived", **CTX)
    sdk = cipher._parts()[0]  # noqa: SLF001 - count the SDK's decryptions
    opened: list[int] = []
    real = sdk.decrypt
    monkeypatch.setattr(sdk, "decrypt", lambda **kw: (opened.append(1), real(**kw))[1])
    assert cipher.decrypt(ct, **CTX) == "short-lived" and opened == []
    now = clock.monotonic()
    monkeypatch.setattr(clock, "monotonic", lambda: now + 6)
    assert cipher.decrypt(ct, **CTX) == "short-lived" and opened == [1]
