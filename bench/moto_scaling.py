"""Why the long run uses the patched moto of local/moto_server.py: stock moto's Query and
TransactWriteItems cost grows with the table, the patched one's does not, and both answer the same.

For each table size (items in other partitions), on stock moto (CONVMEM_STOCK_MOTO=1) and on the
patched one the local stack runs: median of REPS turn-shaped Query (descending, Limit 21, on a 30-message session) and
TransactWriteItems (two conditional Puts + a conditional STATE update). Then the same requests on
both servers, compared: the Query pages, and a transaction cancelled by its condition (nothing of
it may stay).

    .venv/bin/python -m bench.moto_scaling [REPS] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

TABLE = "bench-scaling"


def _client(port: int) -> Any:
    import boto3

    return boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                        aws_access_key_id="x", aws_secret_access_key="x")


def _message(pk: str, seq: int) -> dict[str, Any]:
    return {"PK": {"S": pk}, "SK": {"S": f"MSG#{seq:010d}"}, "seq": {"N": str(seq)}, "role": {"S": "visitor"},
            "channel": {"S": "api"}, "at": {"S": "2026-12-02T12:00:00.000Z"}, "ct": {"B": os.urandom(520)}}


def _fill(ddb: Any, start: int, count: int) -> None:
    for i in range(start, start + count, 25):
        ddb.batch_write_item(RequestItems={TABLE: [{"PutRequest": {"Item": _message(f"SESSION#other-{j // 40}", j)}}
                                                   for j in range(i, min(i + 25, start + count))]})


def _turn_shaped(ddb: Any, reps: int, seq0: int) -> tuple[float, float]:
    q, t = [], []
    for i in range(reps):
        start = time.perf_counter()
        ddb.query(TableName=TABLE, KeyConditionExpression="PK = :pk", ExpressionAttributeValues={":pk": {"S": "SESSION#s"}},
                  ScanIndexForward=False, Limit=21)
        q.append((time.perf_counter() - start) * 1000)
        seq = seq0 + 2 * i
        start = time.perf_counter()
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": _message("SESSION#s", seq), "ConditionExpression": "attribute_not_exists(PK)"}},
            {"Put": {"TableName": TABLE, "Item": _message("SESSION#s", seq + 1), "ConditionExpression": "attribute_not_exists(PK)"}},
            {"Update": {"TableName": TABLE, "Key": {"PK": {"S": "SESSION#s"}, "SK": {"S": "STATE"}},
                        "UpdateExpression": "SET messageCount = :n", "ConditionExpression": "messageCount = :e",
                        "ExpressionAttributeValues": {":n": {"N": str(seq + 1)}, ":e": {"N": str(seq - 1)}}}},
        ])
        t.append((time.perf_counter() - start) * 1000)
    return statistics.median(q), statistics.median(t)


def _rss_mb(pid: int) -> int:
    """Resident memory of a process (Linux /proc), MB."""
    try:
        return int(open(f"/proc/{pid}/status").read().split("VmRSS:")[1].split()[0]) // 1024
    except (OSError, IndexError):
        return -1


def _create(ddb: Any) -> None:
    ddb.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}])
    for seq in range(1, 31):
        ddb.put_item(TableName=TABLE, Item=_message("SESSION#s", seq))
    ddb.put_item(TableName=TABLE, Item={"PK": {"S": "SESSION#s"}, "SK": {"S": "STATE"}, "messageCount": {"N": "30"}})


def _same_answers(stock: Any, scaled: Any) -> dict[str, Any]:
    """The same requests on both servers give the same answers (binary values aside: random)."""
    from botocore.exceptions import ClientError

    def page(ddb: Any, **kw: Any) -> list[tuple[str, str]]:
        items = ddb.query(TableName=TABLE, KeyConditionExpression="PK = :pk",
                          ExpressionAttributeValues={":pk": {"S": "SESSION#s"}}, **kw)["Items"]
        return [(i["SK"]["S"], i.get("messageCount", {}).get("N", "")) for i in items]

    def cancelled(ddb: Any) -> tuple[str, list[tuple[str, str]]]:
        try:
            ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": TABLE, "Item": _message("SESSION#s", 10**9)}},
                {"Update": {"TableName": TABLE, "Key": {"PK": {"S": "SESSION#s"}, "SK": {"S": "STATE"}},
                            "UpdateExpression": "SET messageCount = :n", "ConditionExpression": "messageCount = :e",
                            "ExpressionAttributeValues": {":n": {"N": "1"}, ":e": {"N": "-1"}}}},
            ])
            code = "committed"
        except ClientError as exc:
            code = exc.response["Error"]["Code"]
        return code, page(ddb, ScanIndexForward=False, Limit=3)

    checks = {
        "query_desc_21": page(stock, ScanIndexForward=False, Limit=21) == page(scaled, ScanIndexForward=False, Limit=21),
        "query_asc_range": page(stock, ScanIndexForward=True) == page(scaled, ScanIndexForward=True),
    }
    a, b = cancelled(stock), cancelled(scaled)
    checks["cancelled_transaction"] = a == b and a[0] == "TransactionCanceledException"
    return {"all_equal": all(checks.values()), **checks}


def run(reps: int = 20, sizes: tuple[int, ...] = (100, 1000, 3000)) -> dict[str, Any]:
    from bench.common import fig, start_moto
    from local.aws import free_port, stop_moto

    os.environ.pop("AWS_ENDPOINT_URL", None)
    procs, out = [], {}
    try:
        ports = {}
        for scaled in (False, True):
            port = free_port()
            procs.append(start_moto(port, scaled))
            ports["bench" if scaled else "local"] = port
        clients = {name: _client(port) for name, port in ports.items()}
        for ddb in clients.values():
            _create(ddb)
        rows: dict[str, dict[str, Any]] = {name: {} for name in clients}
        pids = {name: proc.pid for name, proc in zip(ports, procs, strict=True)}
        filled = 0
        seq0 = 31
        for size in sizes:
            for ddb in clients.values():
                _fill(ddb, filled, size - filled)
            filled = size
            for name, ddb in clients.items():
                before = _rss_mb(pids[name])
                q, t = _turn_shaped(ddb, reps, seq0)
                rows[name][str(size)] = {"query_ms": round(q, 2), "transact_ms": round(t, 2),
                                         "server_mb_gained": _rss_mb(pids[name]) - before}
            seq0 += 2 * reps
        same = _same_answers(clients["local"], clients["bench"])
        out = {
            "how": (f"items in other partitions of one table, then {reps} turn-shaped Query (Limit 21) and "
                    "TransactWriteItems (2 conditional Puts + conditional Update), medians; local = "
                    "local/moto_server.py with CONVMEM_STOCK_MOTO=1 (stock moto 5.2.5, DynamoDB serialised), bench = "
                    "local/moto_server.py as the local stack runs it (local/moto_patches.py applied)"),
            "by_table_items": fig(rows, "ms", f"median per request at each table size; server_mb_gained = the moto "
                                  f"server's resident memory after the {reps} Query + TransactWriteItems pairs minus before"),
            "same_answers": fig(same, "check", "the same requests on both servers: Query pages equal, a transaction "
                                "cancelled by its condition leaves nothing", goal="all equal", met=same["all_equal"]),
        }
        return out
    finally:
        for p in procs:
            stop_moto(p)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("reps", nargs="?", type=int, default=20)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    result = run(args.reps)
    from bench.common import emit

    emit(result, args.out)


if __name__ == "__main__":
    main()
