"""Per-user envelope encryption: aws-encryption-sdk 4.x with the MPL hierarchical keyring.

One branch key per user (id ``user:<userId>``) lives in the key-store table, wrapped by the
template's KMS key, and is created on first use. One keyring serves every user: a branch-key
id supplier picks the user's key from the encryption context, and the keyring's cache keeps
branch-key material for ``ttl_seconds``, so a warm turn makes no KMS and no key-store call.

The suite is AES-256-GCM with HKDF-SHA512 and key commitment, without signatures: reader and
writer are the same service, and signing would cost ~1 ms and ~200 bytes a message.

The key store is read by the Material Providers Library with eventually consistent GetItems
(its PR 1637): right after CreateKey, or right after another instance created the key, a read
may find no item. A key known to exist is read again with a jittered backoff for ``key_wait_s``;
a key that is really gone (erased) fails at once.

A user under erasure never gets a new key: ``may_create_key`` (the erasure marker, read
consistently) is asked before CreateKey and again after it; a key created while an erasure
began is destroyed again (the erasure marks before it destroys, so one of the two sees it).

The heavy imports (the SDK and the MPL cost 0.3-0.65 s) happen on first use, not at import.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from convmem.errors import DependencyUnavailableError, ErasureInProgressError, KeyDestroyedError, KeyNotFoundError

T = TypeVar("T")

CONTEXT_PREFIX = "convmem:"


class DecryptionError(DependencyUnavailableError):
    """Ciphertext could not be opened: wrong user, changed context, tampering, or a shredded key."""

    code = "decryption_failed"


def _missing_key(exc: Exception) -> bool:
    """Whether the SDK failed because the key store has no such branch key (version). On decrypt
    the key store's error is nested in the keyring's CollectionOfErrors, which only repr shows."""
    text = repr(exc)
    return "No item found" in text or "not found" in text.lower()


def _erasing() -> ErasureInProgressError:
    return ErasureInProgressError("This user's data is being erased; a new conversation can start in a minute.")


def branch_key_id(user_id: str) -> str:
    return f"user:{user_id}"


def encryption_context(user_id: str, session_id: str, kind: str, ref: str) -> dict[str, str]:
    """What every ciphertext is bound to: whose, which session, what kind of item, which item."""
    return {
        f"{CONTEXT_PREFIX}user": user_id,
        f"{CONTEXT_PREFIX}session": session_id,
        f"{CONTEXT_PREFIX}kind": kind,
        f"{CONTEXT_PREFIX}ref": ref,
    }


def _supplier_class():
    from aws_cryptographic_material_providers.mpl.models import GetBranchKeyIdInput, GetBranchKeyIdOutput
    from aws_cryptographic_material_providers.mpl.references import IBranchKeyIdSupplier

    class UserBranchKeySupplier(IBranchKeyIdSupplier):
        """Chooses the branch key of the user named in the encryption context."""

        def get_branch_key_id(self, param: GetBranchKeyIdInput) -> GetBranchKeyIdOutput:
            user_id = param.encryption_context[f"{CONTEXT_PREFIX}user"]
            return GetBranchKeyIdOutput(branch_key_id=branch_key_id(user_id))

    return UserBranchKeySupplier


class HierarchicalCipher:
    """Cipher port: encrypt / decrypt text under the user's branch key."""

    def __init__(
        self,
        *,
        kms_key_arn: str,
        key_store_table: str,
        ddb_client: Any | None = None,
        kms_client: Any | None = None,
        cache_ttl_seconds: int = 60,
        cache_entries: int = 1000,
        text_cache_entries: int = 2048,
        may_create_key: Callable[[str], bool] | None = None,
        key_wait_s: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._kms_key_arn = kms_key_arn
        self._key_store_table = key_store_table
        self._ddb = ddb_client
        self._kms = kms_client
        self._ttl = cache_ttl_seconds
        self._entries = cache_entries
        self._lock = threading.Lock()
        self._ready: tuple[Any, Any, Any, Any] | None = None
        # Texts this instance encrypted or decrypted lately, keyed by the ciphertext's digest and
        # its whole context: a warm turn re-reads the same window, so it decrypts ~2 items instead
        # of ~15. Held no longer than the key material itself (the key cache TTL), so erasure's
        # bound on other instances stays the same; this instance forgets the user on erasure.
        self._texts: OrderedDict[tuple[bytes, tuple[str, ...]], tuple[float, str]] = OrderedDict()
        self._text_entries = text_cache_entries
        self._may_create_key = may_create_key
        self._key_wait_s = key_wait_s
        self._sleep = sleep

    def _parts(self) -> tuple[Any, Any, Any, Any]:
        """(client, keyring, key_store, algorithm), built once on first use."""
        with self._lock:
            if self._ready is None:
                self._ready = self._build()
            return self._ready

    def _build(self) -> tuple[Any, Any, Any, Any]:
        import aws_encryption_sdk
        import boto3
        from aws_cryptographic_material_providers.keystore import KeyStore
        from aws_cryptographic_material_providers.keystore.config import KeyStoreConfig
        from aws_cryptographic_material_providers.keystore.models import KMSConfigurationKmsKeyArn
        from aws_cryptographic_material_providers.mpl import AwsCryptographicMaterialProviders
        from aws_cryptographic_material_providers.mpl.config import MaterialProvidersConfig
        from aws_cryptographic_material_providers.mpl.models import (
            CacheTypeMultiThreaded,
            CreateAwsKmsHierarchicalKeyringInput,
            MultiThreadedCache,
        )
        from aws_encryption_sdk import CommitmentPolicy
        from aws_encryption_sdk.identifiers import Algorithm

        key_store = KeyStore(
            config=KeyStoreConfig(
                ddb_table_name=self._key_store_table,
                kms_configuration=KMSConfigurationKmsKeyArn(self._kms_key_arn),
                logical_key_store_name=self._key_store_table,
                ddb_client=self._client(),
                kms_client=self._kms or boto3.client("kms"),
            )
        )
        mpl = AwsCryptographicMaterialProviders(config=MaterialProvidersConfig())
        keyring = mpl.create_aws_kms_hierarchical_keyring(
            input=CreateAwsKmsHierarchicalKeyringInput(
                key_store=key_store,
                branch_key_id_supplier=_supplier_class()(),
                ttl_seconds=self._ttl,
                # Not the default storm-tracking cache: after a new user's first lookup misses
                # (no branch key yet), it sleeps out an in-flight window (~1 s measured) before
                # the retry that follows the key's creation. A Lambda instance serves one request
                # at a time, so there is no storm to track.
                cache=CacheTypeMultiThreaded(MultiThreadedCache(entry_capacity=self._entries, entry_pruning_tail_size=1)),
            )
        )
        client = aws_encryption_sdk.EncryptionSDKClient(
            commitment_policy=CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT
        )
        return client, keyring, key_store, Algorithm.AES_256_GCM_HKDF_SHA512_COMMIT_KEY

    # --- SnapStart (convmem/snapstart.py) -----------------------------------------------
    def prime(self) -> None:
        """Do at init what the first turn would otherwise pay: import the SDK and the MPL, build
        the keyring, and run one encrypt / decrypt of the same suite under a throwaway raw AES
        key (no AWS call, no user's key), so the SDK's lazy imports and code paths are loaded."""
        import os

        from aws_cryptographic_material_providers.mpl import AwsCryptographicMaterialProviders
        from aws_cryptographic_material_providers.mpl.config import MaterialProvidersConfig
        from aws_cryptographic_material_providers.mpl.models import AesWrappingAlg, CreateRawAesKeyringInput

        client, _keyring, _store, algorithm = self._parts()
        raw = AwsCryptographicMaterialProviders(config=MaterialProvidersConfig()).create_raw_aes_keyring(
            input=CreateRawAesKeyringInput(key_namespace="convmem-prime", key_name="prime", wrapping_key=os.urandom(32),
                                           wrapping_alg=AesWrappingAlg.ALG_AES256_GCM_IV12_TAG16))
        context = encryption_context("prime", "prime", "prime", "prime")
        ciphertext, _ = client.encrypt(source=b"prime", keyring=raw, encryption_context=context, algorithm=algorithm)
        client.decrypt(source=ciphertext, keyring=raw, encryption_context=context)

    def renew(self) -> None:
        """After a snapshot restore: forget every cached text and branch key (a new keyring, so a
        new cache; the imports stay loaded, so the rebuild costs milliseconds)."""
        with self._lock:
            self._texts.clear()
            self._ready = self._build()

    # --- the port ----------------------------------------------------------------------
    def _text_key(self, ciphertext: bytes, context: dict[str, str]) -> tuple[bytes, tuple[str, ...]]:
        return hashlib.sha256(ciphertext).digest(), tuple(context[k] for k in sorted(context))

    def _remember(self, key: tuple[bytes, tuple[str, ...]], text: str) -> None:
        with self._lock:
            self._texts[key] = (time.monotonic() + self._ttl, text)
            self._texts.move_to_end(key)
            while len(self._texts) > self._text_entries:
                self._texts.popitem(last=False)

    def _recall(self, key: tuple[bytes, tuple[str, ...]]) -> str | None:
        with self._lock:
            hit = self._texts.get(key)
            if hit is None:
                return None
            if hit[0] < time.monotonic():
                del self._texts[key]
                return None
            self._texts.move_to_end(key)
            return hit[1]

    def encrypt(self, plaintext: str, *, user_id: str, session_id: str, kind: str, ref: str) -> bytes:
        context = encryption_context(user_id, session_id, kind, ref)
        data = plaintext.encode("utf-8")
        try:
            ciphertext = self._encrypt(data, context)
        except KeyNotFoundError:
            self._create_key_unless_erasing(user_id)
            ciphertext = self._once_visible(lambda: self._encrypt(data, context))
        self._remember(self._text_key(ciphertext, context), plaintext)
        return ciphertext

    def _encrypt(self, data: bytes, context: dict[str, str]) -> bytes:
        client, keyring, _, algorithm = self._parts()
        try:
            ciphertext, _header = client.encrypt(
                source=data, keyring=keyring, encryption_context=context, algorithm=algorithm
            )
        except Exception as exc:  # the SDK wraps key-store and KMS failures in several types
            if _missing_key(exc):
                raise KeyNotFoundError("The user has no branch key.") from exc
            raise DependencyUnavailableError("Encryption failed (key store or KMS unavailable).", code="kms_unavailable") from exc
        return bytes(ciphertext)

    def decrypt(self, ciphertext: bytes, *, user_id: str, session_id: str, kind: str, ref: str) -> str:
        expected = encryption_context(user_id, session_id, kind, ref)
        key = self._text_key(ciphertext, expected)
        known = self._recall(key)
        if known is not None:
            return known
        try:
            plaintext, header = self._decrypt(ciphertext, expected)
        except KeyNotFoundError as exc:
            if not self._key_exists(user_id):
                raise KeyDestroyedError("The key of a stored item no longer exists (the user was erased).") from exc
            plaintext, header = self._once_visible(lambda: self._decrypt(ciphertext, expected))  # a stale read
        stored = header.encryption_context
        if any(stored.get(k) != v for k, v in expected.items()):
            raise DecryptionError("A stored item's encryption context does not match.")
        text = bytes(plaintext).decode("utf-8")
        self._remember(key, text)
        return text

    def _decrypt(self, ciphertext: bytes, expected: dict[str, str]) -> tuple[Any, Any]:
        client, keyring, _, _ = self._parts()
        try:
            return client.decrypt(source=ciphertext, keyring=keyring, encryption_context=expected)
        except Exception as exc:
            if _missing_key(exc):
                raise KeyNotFoundError("The key store has no such branch key (version).") from exc
            raise DecryptionError("A stored item could not be decrypted.") from exc

    def _once_visible(self, attempt: Callable[[], T]) -> T:
        """``attempt`` (which needs a key that exists) again while the key store's eventually
        consistent read has not caught up, with jittered backoff, for at most ``key_wait_s``."""
        deadline = time.monotonic() + self._key_wait_s
        delay = 0.05
        while True:
            try:
                return attempt()
            except KeyNotFoundError as exc:
                if time.monotonic() + delay > deadline:
                    raise DependencyUnavailableError(
                        "The user's new key is not readable yet; retry shortly.", code="key_not_ready") from exc
            self._sleep(random.uniform(delay / 2, delay))
            delay *= 2

    def _key_exists(self, user_id: str) -> bool:
        """Whether the key store holds any item of the user's branch key (a consistent read)."""
        try:
            page = self._client().query(
                TableName=self._key_store_table, KeyConditionExpression="#id = :id",
                ExpressionAttributeNames={"#id": "branch-key-id"},
                ExpressionAttributeValues={":id": {"S": branch_key_id(user_id)}},
                ProjectionExpression="#id", ConsistentRead=True, Limit=1,
            )
        except Exception as exc:
            raise DependencyUnavailableError("The key store is unavailable.", code="kms_unavailable") from exc
        return bool(page["Items"])

    def _client(self) -> Any:
        if self._ddb is None:
            import boto3

            self._ddb = boto3.client("dynamodb")
        return self._ddb

    def _create_key_unless_erasing(self, user_id: str) -> None:
        """Create the user's key, unless an erasure of the user has begun (before, or while the
        key was being created: then the new key is destroyed again)."""
        allowed = self._may_create_key or (lambda _user: True)
        if not allowed(user_id):
            raise _erasing()
        self.create_user_key(user_id)
        if not allowed(user_id):
            self.destroy_user_key(user_id)
            raise _erasing()

    def destroy_user_key(self, user_id: str) -> int:
        """Crypto-shredding: delete every item of the user's branch key (active, each version,
        beacon) from the key store, then drop this process's cached key material. Every
        ciphertext of the user, in the table, its backups or anywhere else, is unreadable from
        then on (other processes: after at most the cache TTL). Returns the items deleted."""
        ddb = self._client()
        deleted = 0
        try:
            kwargs: dict[str, Any] = {
                "TableName": self._key_store_table,
                "KeyConditionExpression": "#id = :id",
                "ExpressionAttributeNames": {"#id": "branch-key-id", "#t": "type"},
                "ExpressionAttributeValues": {":id": {"S": branch_key_id(user_id)}},
                "ProjectionExpression": "#id, #t",
                "ConsistentRead": True,
            }
            while True:
                page = ddb.query(**kwargs)
                for item in page["Items"]:
                    ddb.delete_item(TableName=self._key_store_table, Key=item)
                    deleted += 1
                if "LastEvaluatedKey" not in page:
                    break
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        except Exception as exc:
            raise DependencyUnavailableError("Could not destroy the user's key (key store unavailable).", code="kms_unavailable") from exc
        with self._lock:
            self._ready = None  # a new keyring, so a new cache: nothing of the old key stays here
            user = f"{CONTEXT_PREFIX}user"
            order = sorted(encryption_context(user_id, "-", "-", "-"))
            self._texts = OrderedDict((k, v) for k, v in self._texts.items() if k[1][order.index(user)] != user_id)
        return deleted

    def create_user_key(self, user_id: str) -> None:
        """Create the user's branch key (idempotent: a concurrent creator may have won)."""
        from aws_cryptographic_material_providers.keystore.models import CreateKeyInput

        _, _, key_store, _ = self._parts()
        try:
            key_store.create_key(CreateKeyInput(branch_key_identifier=branch_key_id(user_id), encryption_context={"purpose": "convmem-user-key"}))
        except Exception as exc:
            # Someone else created it first: the conditional put in the key store failed.
            if "ConditionalCheckFailed" in repr(exc) or "already exists" in str(exc).lower():
                return
            raise DependencyUnavailableError("Could not create the user's key (key store or KMS unavailable).", code="kms_unavailable") from exc
