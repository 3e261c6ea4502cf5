"""The Store on one DynamoDB table: each port's adapter in its own module of ``adapters/dynamodb``
(the data model is in ``adapters/dynamodb/keys.py``), put together for the composition root."""

from __future__ import annotations

from convmem.adapters.dynamodb.claims import ClaimsTable
from convmem.adapters.dynamodb.erasure import ErasureTable
from convmem.adapters.dynamodb.limits import LeasesTable, LimitsTable
from convmem.adapters.dynamodb.memory import FACTS_SHARD_MAX_BYTES, MemoryTable
from convmem.adapters.dynamodb.sessions import SessionsTable
from convmem.adapters.dynamodb.table import BATCH_ATTEMPTS, backoff_seconds

__all__ = ["BATCH_ATTEMPTS", "FACTS_SHARD_MAX_BYTES", "DynamoDBStore", "backoff_seconds"]


class DynamoDBStore(SessionsTable, ClaimsTable, MemoryTable, ErasureTable, LimitsTable, LeasesTable):
    """Every store port (``convmem.ports``) on one table: conversations, turn claims, the user's
    memory, erasure, limits and leases share the client and the erasure check (``Table``)."""
