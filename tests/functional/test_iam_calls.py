"""Every DynamoDB request each function really makes is one its IAM policy allows.

moto enforces no IAM, so a call a function's role does not grant passes every other test here and
fails with AccessDenied on its first real invocation. This replays each function's work against
the embedded AWS, records every request at the client (each item of a transaction is authorised on
its own, as its own action: a ConditionCheck needs dynamodb:ConditionCheckItem), and checks it
against template.yaml: the action, the table or index, and the ``dynamodb:LeadingKeys`` patterns.
"""

from __future__ import annotations

import fnmatch
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from convmem.adapters.local_model import LocalModel
from convmem.composition import build_api, build_erase, build_facts, build_fold, build_profile
from convmem.errors import InvalidInputError
from convmem.ports import FactsJob
from convmem.service.turn import ContextInput, ExchangeInput, TurnInput

from tests.unit.test_template_policies import RESOURCES, refs, statements

USER, SESSION = "u-iam", "s-iam"
TRANSACT_ACTIONS = {"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem", "ConditionCheck": "ConditionCheckItem"}


def partition_key(table: str, index: str | None = None) -> str:
    props = RESOURCES[table]["Properties"]
    schema = props["KeySchema"] if index is None else next(
        i for i in props["GlobalSecondaryIndexes"] if i["IndexName"] == index)["KeySchema"]
    return next(k["AttributeName"] for k in schema if k["KeyType"] == "HASH")


class Recorder:
    """(action, table logical id, index, leading keys) of every DynamoDB request made."""

    def __init__(self, settings) -> None:
        self.tables = {settings.table_name: "ConversationTable", settings.key_store_table_name: "KeyStoreTable"}
        self.requests: list[tuple[str, str, str | None, frozenset[str]]] = []
        self.client = boto3.client("dynamodb")
        self.client.meta.events.register("before-parameter-build.dynamodb.*", self._record)

    def _add(self, action: str, table_name: str, keys: list[dict[str, Any]], index: str | None = None) -> None:
        table = self.tables[table_name]
        attr = partition_key(table, index)
        self.requests.append((action, table, index, frozenset(next(iter(k[attr].values())) for k in keys)))

    def _record(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        op = model.name
        if op == "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((kind, body),) = entry.items()
                self._add(TRANSACT_ACTIONS[kind], body["TableName"], [body.get("Key") or body["Item"]])
        elif op == "BatchGetItem":
            for table, request in params["RequestItems"].items():
                self._add(op, table, request["Keys"])
        elif op == "BatchWriteItem":
            for table, writes in params["RequestItems"].items():
                self._add(op, table, [w.get("PutRequest", {}).get("Item") or w["DeleteRequest"]["Key"] for w in writes])
        elif op == "Query":
            index = params.get("IndexName")
            attr = partition_key(self.tables[params["TableName"]], index)
            names = {v: k for k, v in params.get("ExpressionAttributeNames", {}).items()}
            placeholder = re.search(rf"(?:^|\s)({re.escape(names.get(attr, attr))})\s*=\s*(:\w+)", params["KeyConditionExpression"])
            assert placeholder, f"cannot read the partition key of {params['KeyConditionExpression']}"
            self._add(op, params["TableName"], [{attr: params["ExpressionAttributeValues"][placeholder.group(2)]}], index)
        elif "Key" in params or "Item" in params:
            self._add(op, params["TableName"], [params.get("Key") or params["Item"]])
        else:  # Scan, DescribeTable...: no leading keys, which no statement here may grant
            self.requests.append((op, self.tables.get(params.get("TableName", ""), "?"), None, frozenset()))


def allows(statement: dict[str, Any], action: str, table: str, index: str | None, leading: frozenset[str]) -> bool:
    if f"dynamodb:{action}" not in statement["Action"]:
        return False
    resources = statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
    on_index = any(isinstance(r, dict) and "Fn::Sub" in r and "/index/" in str(r["Fn::Sub"]) and table in refs(r) for r in resources)
    on_table = any(table in refs(r) and not (isinstance(r, dict) and "Fn::Sub" in r and "/index/" in str(r["Fn::Sub"]))
                   for r in resources)
    if not (on_index if index else on_table):
        return False
    patterns = statement.get("Condition", {}).get("ForAllValues:StringLike", {}).get("dynamodb:LeadingKeys")
    # ForAllValues over no keys is true in IAM; a statement here never means to grant a keyless Scan.
    return patterns is not None and bool(leading) and all(any(fnmatch.fnmatchcase(k, p) for p in patterns) for k in leading)


def denied(function: str, recorder: Recorder) -> list[tuple[str, str, str | None, tuple[str, ...]]]:
    granted = [st for st in statements(function) if st.get("Effect") == "Allow"]
    return sorted({(a, t, i, tuple(sorted(k))) for a, t, i, k in recorder.requests if not any(allows(st, a, t, i, k) for st in granted)},
                  key=str)


def api_work(settings, clients: dict[str, Any]) -> None:
    services = build_api(settings, clients=clients)
    for text in ("Hello, I'm Jo Park and I live in Busan.", "My dog Bori turned three yesterday."):
        services.turns.take_turn(USER, SESSION, TurnInput(message=text, clientTurnId=f"c-{len(text)}"))
    services.turns.take_turn(USER, "s-other", TurnInput(message="Another conversation"))
    # Bring your own model: a context, and exchanges (new session, idempotent, imported, a stale hint)
    services.turns.context(USER, SESSION, ContextInput(message="What did I tell you?"))
    services.turns.record_exchange(USER, "s-byo", ExchangeInput(visitor="Hi", agent="Hello", clientTurnId="x-1"))
    services.turns.record_exchange(USER, "s-byo", ExchangeInput(visitor="Hi", agent="Hello", clientTurnId="x-1"))
    cold = build_api(settings, clients=clients).turns  # another instance: it reads the session's state first
    cold.record_exchange(USER, SESSION, ExchangeInput(visitor="Imported", agent="Yes", at=datetime.now(UTC)))
    with pytest.raises(InvalidInputError):  # before the session's last message: refused, nothing written
        services.turns.record_exchange(USER, SESSION, ExchangeInput(visitor="Earlier", agent="No", at="2020-01-01T00:00:00Z"))
    services.sessions.list_sessions(USER)
    services.sessions.transcript(USER, SESSION)
    services.facts.list_facts(USER)
    services.profile.get_profile(USER)
    services.export.export(USER)
    services.forget.forget_message(USER, SESSION, 1)  # its facts, summary, reply and turn record
    services.forget.forget_session(USER, "s-other", facts="forget")  # what was learnt from it, the profile
    services.forget.erase(USER)


def background_work(settings) -> dict[str, Callable[[dict[str, Any]], Any]]:
    def fold(clients):
        build_fold(settings, clients=clients, model=LocalModel()).fold(SESSION, USER, 4)

    def facts(clients):
        build_facts(settings, clients=clients, model=LocalModel()).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=3))

    def profile(clients):  # the scheduled tick: the due index, its lease, the queue
        queue = boto3.client("sqs").create_queue(QueueName="iam-profile-jobs")["QueueUrl"]
        tick = build_profile(settings.model_copy(update={"profile_queue_url": queue}), clients=clients, model=LocalModel())
        assert tick.enqueue_due().enqueued == 1

    def refresh(clients):  # one queued job: the user's profile, sessions, messages, the write
        [user] = [u for page in build_profile(settings, model=LocalModel())._store.due_user_pages() for u in page]  # noqa: SLF001
        assert build_profile(settings, clients=clients, model=LocalModel()).refresh_job(user.user_id, user.active_at)

    def erase(clients):  # the queued rest of an erasure the API began (and destroyed the key of)
        assert build_erase(settings, clients=clients).continue_erasure(USER, time.monotonic() + 30, attempt=1, erasure_id="e-1")

    return {"FoldFunction": fold, "FactsFunction": facts, "ProfileFunction": profile, "ProfileRefreshFunction": refresh,
            "EraseFunction": erase}


def test_the_api_function_may_make_every_dynamodb_request_it_makes(settings):
    recorder = Recorder(settings)
    api_work(settings, {"dynamodb": recorder.client})
    # The turn's transaction, the reads, the erasure's key destruction all ran.
    assert {a for a, *_ in recorder.requests} >= {"ConditionCheckItem", "BatchGetItem", "Query", "PutItem", "DeleteItem"}
    assert denied("ApiFunction", recorder) == []


@pytest.mark.parametrize("function", ["FoldFunction", "FactsFunction", "ProfileFunction", "ProfileRefreshFunction",
                                      "EraseFunction"])
def test_each_background_function_may_make_every_dynamodb_request_its_job_makes(settings, function):
    # A user with a session long enough to fold, facts to learn and a profile due.
    services = build_api(settings)
    for i in range(4):
        services.turns.take_turn(USER, SESSION, TurnInput(message=f"I'm Jo Park from Busan, turn {i}"))
    build_facts(settings, model=LocalModel()).process(FactsJob(user_id=USER, session_id=SESSION, visitor_seq=1))
    recorder = Recorder(settings)
    background_work(settings)[function]({"dynamodb": recorder.client})
    assert recorder.requests, f"{function} made no DynamoDB request: the scenario did not run its job"
    assert denied(function, recorder) == []
