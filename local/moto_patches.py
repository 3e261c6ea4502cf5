"""Patches that make moto's DynamoDB cost scale as DynamoDB's does, semantics unchanged
(measured by bench/moto_scaling.py, which also checks both answer the same).

Stock moto 5.2.5 does two things whose cost grows with the whole table, not with the request:
- ``Table.query`` sorts every item of the table (``all_items()``) and then keeps the queried
  partition's: a Query of 21 items costs more the more sessions the table holds;
- ``transact_write_items`` deep-copies every table it touches, once per transaction item, to roll
  back on a failed condition, and moto's instance trackers keep every copy: at 3,000 items a turn
  cost 177 ms and 12 MB for good, so a long ``make run`` grew slower and bigger with each turn.
The patches:
- a Query on the table itself (no index) sees only the queried partition (index queries unchanged);
- the rollback snapshot copies the table's structure and deep-copies only the items the
  transaction names (nothing else can change inside it: DynamoDB requests are serialised by
  local/moto_server.py), restored the same way as before, and dropped from the trackers after.
"""

from __future__ import annotations

import copy
import inspect
from collections import defaultdict
from typing import Any


def patch_moto() -> None:
    import moto.dynamodb.models as models
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table

    query = Table.query
    signature = inspect.signature(query)

    def partition_query(self: Table, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        hash_key = bound.arguments.get("hash_key")
        if bound.arguments.get("index_name") or not isinstance(hash_key, DynamoType):
            return query(self, *args, **kwargs)
        part = self.items.get(hash_key)
        if part is None:
            items: list[Any] = []
        elif isinstance(part, dict):
            items = sorted(part.values(), key=lambda x: x.range_key)
        else:
            items = [part]
        self.all_items = lambda: items  # the instance attribute shadows the method for this call
        try:
            return query(self, *args, **kwargs)
        finally:
            del self.all_items

    Table.query = partition_query

    made: list[Any] = []  # this transaction's snapshot objects: moto's instance trackers must not keep them

    def snapshot(table: Table, keys: list[dict[str, Any]]) -> Table:
        snap = copy.copy(table)
        made.append(snap)
        snap.items = defaultdict(dict, {h: (dict(p) if isinstance(p, dict) else p) for h, p in table.items.items()})
        for key in keys:
            h = DynamoType(key[table.hash_key_attr])
            if table.range_key_attr is None:
                if h in table.items:
                    snap.items[h] = copy.deepcopy(table.items[h])
                continue
            r = DynamoType(key[table.range_key_attr])
            if r in table.items.get(h, {}):
                snap.items[h][r] = copy.deepcopy(table.items[h][r])
                made.append(snap.items[h][r])
        return snap

    class LightCopy:
        """``copy`` as moto.dynamodb.models sees it during one transaction: a Table snapshot is
        structural with deep copies of the named items only; everything else is copy itself."""

        def __init__(self, touched: dict[str, list[dict[str, Any]]]) -> None:
            self.touched = touched

        def deepcopy(self, obj: Any, memo: Any = None) -> Any:
            if isinstance(obj, Table):
                return snapshot(obj, self.touched.get(obj.name, []))
            return copy.deepcopy(obj, memo)

        def __getattr__(self, name: str) -> Any:
            return getattr(copy, name)

    transact = models.DynamoDBBackend.transact_write_items

    def light_transact(self: Any, transact_items: list[dict[str, Any]]) -> None:
        touched: dict[str, list[dict[str, Any]]] = {}
        for entry in transact_items:
            for kind, op in entry.items():
                table = self.tables.get(op.get("TableName"))
                if table is None:
                    continue
                if kind == "Put":
                    attrs = op["Item"]
                    key = {a: attrs[a] for a in (table.hash_key_attr, table.range_key_attr) if a and a in attrs}
                else:
                    key = op.get("Key", {})
                if table.hash_key_attr in key and (table.range_key_attr is None or table.range_key_attr in key):
                    touched.setdefault(table.name, []).append(key)
        models.copy = LightCopy(touched)  # DynamoDB requests are serialised: one transaction at a time
        try:
            return transact(self, transact_items)
        finally:
            models.copy = copy
            forget(made)

    def forget(objects: list[Any]) -> None:
        """Drop snapshots from moto's instance trackers (BaseModel.__new__ appends every instance, a
        copy's too, to its class's ``instances_tracked`` for good): a kept rollback copy is a leak."""
        ids = {id(o) for o in objects}
        for cls in {type(o) for o in objects}:
            tracked = getattr(cls, "instances_tracked", None)
            if tracked is not None:
                tracked[:] = [x for x in tracked if id(x) not in ids]
        objects.clear()

    models.DynamoDBBackend.transact_write_items = light_transact
