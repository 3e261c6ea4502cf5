"""Sessions live inside their user (docs/api.md): a session is named by (user, sessionId).

Two users' ``support`` are two unrelated conversations for every route and every job; a session
id someone else has answers exactly as one nobody has; and erasure finds a session created a
moment before ``DELETE /v1/me`` even while the session index has not caught up."""

from __future__ import annotations

import copy
import json

import boto3
from convmem.adapters.sqs_jobs import encode
from convmem.composition import aws_client, build_api
from convmem.ports import FoldJob
from convmem.service.turn import TurnInput

from tests.functional.conftest import load_event, scan_all
from tests.functional.test_api_handler import call
from tests.functional.test_real_aws_dynamodb import AwsAnswers

SHARED = "support"  # the id both users pick


def as_user(name: str, user: str, session: str | None = None, body: dict | None = None) -> dict:
    """An events/ file sent by ``user`` (API key + x-user-id), about ``session`` if given."""
    event = copy.deepcopy(load_event(name))
    event["headers"]["x-user-id"] = user
    if session is not None:
        path = event["rawPath"].replace("sample-session", session)
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
    if body is not None:
        event["body"] = json.dumps(body)
    return event


def talk(handler, user: str, session: str, *texts: str) -> list[dict]:
    out = []
    for text in texts:
        status, body = call(handler, as_user("api_turn.json", user, session, {"message": text}))
        assert status == 200, body
        out.append(body)
    return out


def transcript(handler, user: str, session: str) -> tuple[int, list[str]]:
    status, body = call(handler, as_user("api_messages.json", user, session))
    return status, [m["text"] for m in body.get("messages", []) if m["role"] == "visitor"]


def test_two_users_same_session_id_are_two_conversations(handler):
    # Given alice and bob, each talking in a session they both call "support"
    a = talk(handler, "alice", SHARED, "alice-canary-1 my order is A-1", "alice-canary-2 about A-1")
    b = talk(handler, "bob", SHARED, "bob-canary-1 hello")
    # Then each started at seq 1 and saw none of the other's history
    assert [t["visitorSeq"] for t in a] == [1, 3] and [t["visitorSeq"] for t in b] == [1]
    assert b[0]["context"]["windowMessages"] == 0 and "alice" not in b[0]["reply"]
    assert transcript(handler, "alice", SHARED) == (200, ["alice-canary-1 my order is A-1", "alice-canary-2 about A-1"])
    assert transcript(handler, "bob", SHARED) == (200, ["bob-canary-1 hello"])
    for user, count in (("alice", 4), ("bob", 2)):
        status, page = call(handler, as_user("api_list_sessions.json", user))
        assert [(s["sessionId"], s["messageCount"]) for s in page["sessions"]] == [(SHARED, count)]
        status, export = call(handler, as_user("api_export_me.json", user))
        texts = json.dumps(export["sessions"])
        assert f"{user}-canary-1" in texts and ("bob" if user == "alice" else "alice") + "-canary" not in texts
    # When alice forgets her "support"
    status, _ = call(handler, as_user("api_delete_session.json", "alice", SHARED))
    assert status == 204
    # Then hers is gone and bob's is untouched
    assert call(handler, as_user("api_get_session.json", "alice", SHARED))[0] == 404
    assert transcript(handler, "bob", SHARED) == (200, ["bob-canary-1 hello"])
    assert talk(handler, "bob", SHARED, "bob-canary-2 still here")[0]["visitorSeq"] == 3


def test_erasing_one_user_leaves_the_other_users_session_of_the_same_id(handler, aws):
    talk(handler, "alice", SHARED, "alice-canary my name is Alice")
    talk(handler, "bob", SHARED, "bob-canary my name is Bob")
    status, body = call(handler, as_user("api_erase_me.json", "alice"))
    assert status == 202, body
    left = [i for i in scan_all(aws[1]) if "PK" in i and "alice" in i["PK"]["S"] and i["SK"]["S"] != "ERASURE"]
    assert left == []
    assert transcript(handler, "bob", SHARED) == (200, ["bob-canary my name is Bob"])
    assert talk(handler, "bob", SHARED, "bob again")[0]["visitorSeq"] == 3


def test_a_session_someone_else_has_is_not_found_exactly_as_one_nobody_has(handler, aws):
    talk(handler, "alice", "order-A-1042", "my order A-1042")
    before = scan_all(aws[1])
    for name in ("api_get_session.json", "api_messages.json", "api_delete_session.json"):
        taken = call(handler, as_user(name, "mallory", "order-A-1042"))
        never = call(handler, as_user(name, "mallory", "order-Z-0000"))
        assert taken[0] == 404 and taken == never, name
    assert scan_all(aws[1]) == before  # and alice's session was not touched by any of it
    # A turn is the same story: a new conversation of mallory's, whichever id she picks
    taken, never = (talk(handler, "mallory", sid, "hello")[0] for sid in ("order-A-1042", "order-Z-0000"))
    assert (taken["visitorSeq"], taken["context"]) == (never["visitorSeq"], never["context"])
    assert transcript(handler, "alice", "order-A-1042") == (200, ["my order A-1042"])


def test_both_users_jobs_reach_the_queues_and_fold_their_own_session(services, settings):
    # Given alice and bob, each 8 turns into "support" (16 messages: 4 beyond the window)
    for user in ("alice", "bob"):
        for i in range(8):
            services.turns.take_turn(user, SHARED, TurnInput(message=f"{user} turn {i} about order ZX-{i}"))
    sqs = boto3.client("sqs")

    def drain(url: str) -> list[dict]:
        out: list[dict] = []
        while got := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages"):
            out.extend(json.loads(m["Body"]) for m in got)
            sqs.delete_message_batch(QueueUrl=url, Entries=[
                {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]} for n, m in enumerate(got)])
        return out

    # Then neither user's jobs were taken for duplicates of the other's (same session id, same seqs)
    folds = {(b["userId"], b["throughSeq"]) for b in drain(settings.fold_queue_url)}
    assert folds == {(u, s) for u in ("alice", "bob") for s in (2, 4)}
    facts = {(b["userId"], b["visitorSeq"]) for b in drain(settings.facts_queue_url)}
    assert facts == {(u, s) for u in ("alice", "bob") for s in range(1, 16, 2)}


def test_a_batch_folds_each_users_session_to_its_own_target(aws, settings, services):
    from local.lambda_runtime import LambdaContext, load_handler

    for user in ("alice", "bob"):
        for i in range(8):
            services.turns.take_turn(user, SHARED, TurnInput(message=f"{user} turn {i} about order ZX-{i}"))
    event = load_event("fold_job.json")
    record = event["Records"][0]
    event["Records"] = []
    for n, (user, through) in enumerate((("alice", 4), ("bob", 2))):
        r = copy.deepcopy(record)
        r["messageId"] = f"m-{n}"
        r["body"] = encode(FoldJob(session_id=SHARED, user_id=user, through_seq=through))
        event["Records"].append(r)
    template, resolver = aws
    fold = load_handler(template, "FoldFunction", resolver)
    assert fold(event, LambdaContext("FoldFunction")) == {"batchItemFailures": []}
    cursors = {u: services.sessions.get_session(u, SHARED).state.summarized_through for u in ("alice", "bob")}
    assert cursors == {"alice": 4, "bob": 2}


def test_erasure_finds_a_session_made_a_moment_before_while_the_index_lags(aws, settings):
    # The ByOwner index (and every eventually consistent read) is answered as of before the newest
    # session, as a DynamoDB index still propagating that session's first turn would answer.
    clients = {name: aws_client(name) for name in ("dynamodb", "kms", "sqs", "secretsmanager")}
    services = build_api(settings, clients=clients)
    services.turns.take_turn("alice", "older", TurnInput(message="my name is Alice, order A-7"))
    layer = AwsAnswers(clients["dynamodb"])
    layer.snapshot(settings.table_name)
    layer.lag(settings.table_name, {"Query", "GetItem", "BatchGetItem"})
    plain = boto3.client("dynamodb")

    def index_before_the_new_session(body: dict):
        if body.get("IndexName") != "ByOwner":
            return None
        page = plain.query(**body)
        items = [i for i in page["Items"] if i["sessionId"]["S"] != "brand-new"]
        return 200, {"Items": items, "Count": len(items), "ScannedCount": len(items),
                     **({"LastEvaluatedKey": page["LastEvaluatedKey"]} if "LastEvaluatedKey" in page else {})}

    layer.answer("Query", index_before_the_new_session, times=1000)
    # Given alice's first turn in a new session, committed a moment before she asks to be erased
    services.turns.take_turn("alice", "brand-new", TurnInput(message="alice-canary in a brand new session"))
    assert [s.session_id for s in services.sessions.list_sessions("alice").sessions] == ["older"]  # the index lags
    # When she is erased
    assert services.forget.erase("alice").done
    # Then nothing of hers is left, the new session included
    plain.delete_table(TableName=f"{settings.table_name}-replica")  # the lagging replica is no copy of ours
    items = scan_all(aws[1])
    left = [i for i in items if "PK" in i and i["SK"]["S"] != "ERASURE"
            and ("alice" in i["PK"]["S"] or "brand-new" in i["PK"]["S"] + i["SK"]["S"])]
    assert left == []
