"""How long erasure takes for a user with SESSIONS x MESSAGES on the local stack.

Starts the local stack (`python -m local.run`), seeds the user straight into the embedded AWS
(real encrypted rows under the user's branch key, session states with the owner index, facts and
profile items, written with BatchWriteItem: seeding through 2,500 HTTP turns would take minutes),
then times DELETE /v1/me over HTTP until its 202, and until no item of the user remains (the
erasure queue finishes what one request cannot), and checks a turn is refused meanwhile.

    .venv/bin/python -m bench.erasure [SESSIONS] [MESSAGES]
"""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime

USER = "erase-me"


def seed(stack, sessions: int, messages: int) -> int:
    from convmem.adapters.encryption import HierarchicalCipher
    from convmem.service.stored import MESSAGE_KIND

    ddb, kms = stack.dynamodb(), stack.client("kms")
    tables = ddb.list_tables()["TableNames"]
    table = next(t for t in tables if t.endswith("ConversationTable"))
    key_store = next(t for t in tables if t.endswith("KeyStoreTable"))
    arn = kms.describe_key(KeyId=kms.list_keys()["Keys"][0]["KeyId"])["KeyMetadata"]["Arn"]
    cipher = HierarchicalCipher(kms_key_arn=arn, key_store_table=key_store, ddb_client=ddb, kms_client=kms)
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    items = []
    for s in range(sessions):
        sid = f"erase-session-{s}"
        for seq in range(1, messages + 1):
            ct = cipher.encrypt(f"message {seq} of session {s}", user_id=USER, session_id=sid, kind=MESSAGE_KIND, ref=str(seq))
            items.append({"PK": {"S": f"SESSION#{USER}#{sid}"}, "SK": {"S": f"MSG#{seq:010d}"}, "seq": {"N": str(seq)},
                          "role": {"S": "visitor" if seq % 2 else "agent"}, "channel": {"S": "api"}, "at": {"S": now},
                          "ct": {"B": ct}})
        items.append({"PK": {"S": f"SESSION#{USER}#{sid}"}, "SK": {"S": "STATE"}, "sessionId": {"S": sid},
                      "ownerKey": {"S": f"USER#{USER}"}, "messageCount": {"N": str(messages)}, "cursor": {"N": "0"},
                      "createdAt": {"S": now}, "updatedAt": {"S": now}})
        # The session's marker in its user's partition, as the first turn writes it (erasure finds sessions by it).
        items.append({"PK": {"S": f"USER#{USER}"}, "SK": {"S": f"SESSION#{sid}"}, "sessionId": {"S": sid},
                      "createdAt": {"S": now}})
    for i in range(0, len(items), 25):
        pending = [{"PutRequest": {"Item": it}} for it in items[i:i + 25]]
        while pending:
            left = ddb.batch_write_item(RequestItems={table: pending}).get("UnprocessedItems", {})
            pending = left.get(table, [])
    return len(items)


def remaining(stack) -> int:
    items = [i for i in stack.scan_all() if "PK" in i]
    return sum(1 for i in items if i["PK"]["S"].startswith(f"SESSION#{USER}#")
               or (i["PK"]["S"] == f"USER#{USER}" and i["SK"]["S"] != "ERASURE"))


def run(sessions: int = 50, messages: int = 100) -> dict:
    import requests

    from tests.integration.conftest import _start, _stop

    stack = _start()
    try:
        r = stack.turn(USER, "erase-session-warm", "My name is Minji and I live in Busan")  # creates the key, facts job
        assert r.status_code == 200, r.text
        stack.settle()
        t0 = time.perf_counter()
        written = seed(stack, sessions, messages)
        seed_s = time.perf_counter() - t0
        before = remaining(stack)
        start = time.perf_counter()
        r = requests.delete(f"{stack.url}/v1/me", headers=stack.headers(USER), timeout=60)
        accepted_s = time.perf_counter() - start
        assert r.status_code == 202, r.text
        refused = stack.turn(USER, "erase-session-0", "still there?")
        # Done is when the eraser marks the erasure finished (one GetItem a poll: a full scan
        # every poll would compete with the deletes on the serialised embedded DynamoDB).
        table = next(t for t in stack.dynamodb().list_tables()["TableNames"] if t.endswith("ConversationTable"))
        while time.perf_counter() - start < 600:
            marker = stack.dynamodb().get_item(TableName=table, Key={"PK": {"S": f"USER#{USER}"}, "SK": {"S": "ERASURE"}})
            if marker.get("Item", {}).get("state", {}).get("S") == "erased":
                break
            time.sleep(0.2)
        done_s = time.perf_counter() - start
        left = remaining(stack)
        export = requests.get(f"{stack.url}/v1/me/export", headers=stack.headers(USER), timeout=60).json()
        return {
            "sessions": sessions, "messages_per_session": messages, "items_before": before,
            "seed_items_written": written, "seed_s": round(seed_s, 2),
            "delete_me_202_s": round(accepted_s, 3), "status": r.json(),
            "all_items_gone_s": round(done_s, 2), "items_left": left,
            "turn_during_erasure": {"status": refused.status_code, "code": refused.json().get("error", {}).get("code")},
            "export_after": {"sessions": len(export.get("sessions", [])), "facts": len(export.get("facts", [])),
                             "profile": export.get("profile")},
        }
    finally:
        _stop(stack)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(run(*args), indent=2))
