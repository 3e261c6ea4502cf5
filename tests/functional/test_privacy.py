"""Privacy under moto: erasure by crypto-shredding (a backup stays unreadable), export, forgetting
one session, and no plaintext in tables, queue messages or logs."""

from __future__ import annotations

import copy
import io
import json
import logging

import boto3
import pytest
from convmem.adapters.encryption import HierarchicalCipher
from convmem.composition import build_erase, build_facts, build_fold, build_profile
from convmem.errors import DependencyUnavailableError
from convmem.ports import DueUser, FactsJob
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_handler
from local.pollers import EventSource, QueuePoller
from tests.functional.conftest import load_event, scan_all
from tests.functional.test_api_handler import call

USER, OTHER, SESSION = "sample-user", "other-user", "sample-session"


def live(services, user, session, texts):
    for t in texts:
        services.turns.take_turn(user, session, TurnInput(message=t))


def grow(services, settings, user):
    """A user with two sessions (one folded), facts with history, a profile, a turn record."""
    main, second = (SESSION, "second-session") if user == USER else (f"{user}-main", f"{user}-second")
    live(services, user, main, ["My name is Minji and I live in Busan", *[f"order question {i} about ZX-{i}" for i in range(8)]])
    services.turns.take_turn(user, main, TurnInput(message="same turn twice", clientTurnId="ct-1"))
    live(services, user, second, ["I moved to Seoul", "I like green tea"])
    build_fold(settings).fold(main, user, 6)
    facts = build_facts(settings)
    for session, seq in ((main, 1), (second, 1), (second, 3)):
        facts.process(FactsJob(user_id=user, session_id=session, visitor_seq=seq))
    state = services.sessions.get_session(user, main).state
    build_profile(settings).refresh(DueUser(user, state.updated_at))


def user_items(items, user):
    """The user's items: their own partition and their sessions' (whose keys begin with them)."""
    pk_user, sessions = f"USER#{user}", f"SESSION#{user}#"
    return [i for i in items if "PK" in i and (i["PK"]["S"] == pk_user or i["PK"]["S"].startswith(sessions))]


def ciphertexts(items):
    """(kind, session, ref, ciphertext) of every encrypted attribute in ``items``."""
    out = []
    for i in items:
        pk, sk = i["PK"]["S"], i["SK"]["S"]
        session = pk.split("#")[2] if pk.startswith("SESSION#") else "-"  # SESSION#<uid>#<sid>
        if sk.startswith("MSG#"):
            out.append(("message", session, str(int(sk[4:])), bytes(i["ct"]["B"])))
        elif sk == "STATE" and "summaryCt" in i:
            out.append(("summary", session, "summary", bytes(i["summaryCt"]["B"])))
        elif sk.startswith("FACTS") and "ct" in i:  # the head and every shard of the facts document
            out.append(("facts", "-", sk.replace("FACTS", "facts", 1), bytes(i["ct"]["B"])))
        elif sk == "PROFILE" and "profileCt" in i:
            out.append(("profile", "-", "profile", bytes(i["profileCt"]["B"])))
        elif sk.startswith("TURN#") and i.get("responseCt", {}).get("B"):
            sid, ref = sk.split("#")[1], sk.split("#")[2]
            out.append(("turn-response", sid, ref, bytes(i["responseCt"]["B"])))
    return out


def fresh_cipher(settings):
    return HierarchicalCipher(kms_key_arn=settings.kms_key_arn, key_store_table=settings.key_store_table_name,
                              ddb_client=boto3.client("dynamodb"), kms_client=boto3.client("kms"))


def test_erasure_shreds_every_copy_and_leaves_others_readable(handler, aws, services, settings):
    grow(services, settings, USER)
    grow(services, settings, OTHER)
    backup = scan_all(aws[1])  # what a table backup or point-in-time restore would hold
    mine, theirs = ciphertexts(user_items(backup, USER)), ciphertexts(user_items(backup, OTHER))
    assert {k for k, *_ in mine} == {"message", "summary", "facts", "profile", "turn-response"}

    status, body = call(handler, load_event("api_erase_me.json"))
    assert status == 202 and body == {"userId": USER, "status": "erased"}

    cipher = fresh_cipher(settings)  # nothing cached: as any other process, once its cache TTL passed
    for kind, session, ref, ct in mine:
        with pytest.raises(DependencyUnavailableError):
            cipher.decrypt(ct, user_id=USER, session_id=session, kind=kind, ref=ref)
    for kind, session, ref, ct in theirs:
        assert cipher.decrypt(ct, user_id=OTHER, session_id=session, kind=kind, ref=ref)

    after = scan_all(aws[1])
    assert [i["SK"]["S"] for i in user_items(after, USER)] == ["ERASURE"]
    assert not [i for i in after if i.get("branch-key-id", {}).get("S") == f"user:{USER}"]
    assert len(user_items(after, OTHER)) == len(user_items(backup, OTHER))


def test_a_turn_waits_out_the_cache_ttl_then_starts_a_new_empty_life(handler, aws, services, settings):
    grow(services, settings, USER)
    call(handler, load_event("api_erase_me.json"))
    status, body = call(handler, load_event("api_turn.json"))
    assert status == 409 and body["error"]["code"] == "erasure_in_progress"

    # The cache TTL passes (every instance has forgotten the old key): a new life.
    boto3.client("dynamodb").update_item(
        TableName=settings.table_name, Key={"PK": {"S": f"USER#{USER}"}, "SK": {"S": "ERASURE"}},
        UpdateExpression="SET #u = :past", ExpressionAttributeNames={"#u": "until"},
        ExpressionAttributeValues={":past": {"S": "2000-01-01T00:00:00.000Z"}})
    status, turn = call(handler, load_event("api_turn.json"))
    assert status == 200 and turn["visitorSeq"] == 1 and turn["context"]["factIds"] == []
    status, export = call(handler, load_event("api_export_me.json"))
    assert status == 200 and export["facts"] == [] and export["profile"] is None
    assert [(s["sessionId"], len(s["messages"])) for s in export["sessions"]] == [(SESSION, 2)]


def test_a_large_erasure_finishes_through_the_queue(aws, api_env, services, settings):
    template, resolver = aws
    grow(services, settings, USER)
    forget = build_erase(settings)
    progress = forget.erase(USER, inline_budget_s=0)  # nothing fits inline: all goes to the queue
    assert not progress.done and progress.key_items_destroyed >= 2
    erase_fn = load_handler(template, "EraseFunction", resolver)
    results = []
    poller = QueuePoller(EventSource("EraseFunction", "EraseQueue", 1), resolver,
                         lambda e, c: results.append(erase_fn(e, c)) or results[-1], boto3.client("sqs"))
    handled = [poller.poll_once() for _ in range(3)]
    assert handled[0] == 1 and results[0] == {"batchItemFailures": []}, (handled, results)
    assert [i["SK"]["S"] for i in user_items(scan_all(resolver), USER)] == ["ERASURE"]
    assert services.export.export(USER).sessions == []


def test_the_erasure_event_runs_the_function(aws, api_env, services, settings):
    template, resolver = aws
    grow(services, settings, USER)
    build_erase(settings).erase(USER, inline_budget_s=0)
    out = load_handler(template, "EraseFunction", resolver)(load_event("erase_job.json"), LambdaContext("EraseFunction", timeout_s=900))
    assert out == {"batchItemFailures": []}
    assert [i["SK"]["S"] for i in user_items(scan_all(resolver), USER)] == ["ERASURE"]


def test_export_is_everything_held_readable(handler, services, settings):
    grow(services, settings, USER)
    status, export = call(handler, load_event("api_export_me.json"))
    assert status == 200 and export["userId"] == USER
    assert export["profile"] and "Writes in English." in export["profile"]
    by_session = {s["sessionId"]: s for s in export["sessions"]}
    assert set(by_session) == {SESSION, "second-session"}
    first = by_session[SESSION]
    assert [(m["seq"], m["role"]) for m in first["messages"][:2]] == [(1, "visitor"), (2, "agent")]
    assert first["messages"][0]["text"] == "My name is Minji and I live in Busan" and first["messages"][0]["at"]
    assert first["summary"] and "ZX-" in first["summary"]
    home = next(f for f in export["facts"] if f["key"] == "home.location")
    assert home["text"].startswith("Lives in Seoul") and home["source"]["sessionId"] == "second-session"
    assert [(h["text"], h["source"]["sessionId"], h["source"]["seq"]) for h in home["history"]] == [
        ("Lives in Busan", SESSION, 1)]
    stranger = load_event("api_export_me.json")
    stranger["headers"]["x-user-id"] = "nobody-here"
    assert call(handler, stranger) == (200, {"userId": "nobody-here", "profile": None, "profileRefreshedAt": None,
                                            "facts": [], "sessions": []})


def test_forgetting_a_session_keeps_facts_and_other_sessions(handler, aws, services, settings):
    grow(services, settings, USER)
    out = handler(load_event("api_delete_session.json"))
    assert out["statusCode"] == 204
    items = scan_all(aws[1])
    assert not [i for i in items if i.get("PK", {}).get("S") == f"SESSION#{USER}#{SESSION}"]
    assert not [i for i in items if i.get("SK", {}).get("S") == f"SESSION#{SESSION}"]  # nor its marker
    assert not [i for i in items if i.get("SK", {}).get("S", "").startswith(f"TURN#{SESSION}#")]
    assert call(handler, load_event("api_get_session.json"))[0] == 404
    assert [s.session_id for s in services.sessions.list_sessions(USER).sessions] == ["second-session"]
    result = services.turns.take_turn(USER, "third", TurnInput(message="what is the weather like where I live?"))
    assert result.context.fact_ids and "Lives in Seoul" in result.reply
    assert call(handler, load_event("api_delete_session.json"))[0] == 404  # gone already
    other = copy.deepcopy(load_event("api_delete_session.json"))
    other["rawPath"] = other["requestContext"]["http"]["path"] = "/v1/sessions/second-session"
    other["headers"]["x-user-id"] = "someone-else"
    assert call(handler, other)[0] == 404 and services.sessions.list_sessions(USER).sessions


CANARIES = ("zebra-canary-41", "올빼미카나리", "canary.person@example.org", "CANARY-ORDER-9921")


@pytest.fixture()
def all_logs(capsys):
    from convmem.observability import logger

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logger.registered_formatter)
    target = logging.getLogger("convmem")
    target.addHandler(handler)
    root = logging.getLogger()
    root_handler = logging.StreamHandler(stream)
    root.addHandler(root_handler)
    yield lambda: stream.getvalue() + capsys.readouterr().out
    target.removeHandler(handler)
    root.removeHandler(root_handler)


def test_no_plaintext_in_tables_queue_messages_or_logs(aws, api_env, handler, all_logs, settings):
    """20 turns full of canaries through the API handler, every queue message consumed by its
    function (and kept to inspect), failures included; then look everywhere."""
    template, resolver = aws
    sqs = boto3.client("sqs")
    seen: list[str] = []
    pollers = []
    for logical, queue in (("FoldFunction", "FoldQueue"), ("FactsFunction", "FactsQueue"), ("EraseFunction", "EraseQueue")):
        fn = load_handler(template, logical, resolver)

        def consume(event, ctx, fn=fn):
            seen.extend(json.dumps(r) for r in event["Records"])
            return fn(event, ctx)

        pollers.append(QueuePoller(EventSource(logical, queue, 10), resolver, consume, sqs))
    texts = [
        "My name is Zebra-canary-41 and I live in 올빼미카나리",
        "My email is canary.person@example.org",
        "My order CANARY-ORDER-9921 is late, zebra-canary-41 here",
    ]
    for i in range(20):
        event = load_event("api_turn.json")
        event["body"] = json.dumps({"message": f"{texts[i % 3]} ({i})", "clientTurnId": f"c-{i}"}, ensure_ascii=False)
        assert handler(event)["statusCode"] == 200
        for p in pollers:
            p.poll_once()
    bad = load_event("api_turn.json")
    bad["body"] = json.dumps({"message": 42, "note": "zebra-canary-41"})  # a 400 on the error path
    assert handler(bad)["statusCode"] == 400
    huge = load_event("api_turn.json")
    huge["body"] = json.dumps({"message": "zebra-canary-41 " * 20_000})  # a 413
    assert handler(huge)["statusCode"] == 413
    build_profile(settings).refresh_all_due()
    export = load_event("api_export_me.json")
    assert "zebra-canary-41" in handler(export)["body"].lower()  # the data is there, readable by its owner
    assert handler(load_event("api_erase_me.json"))["statusCode"] == 202
    for p in pollers:
        p.poll_once()

    assert len(seen) >= 20  # the facts jobs (and folds) really went through the queues
    stored = json.dumps([{k: str(v) for k, v in i.items()} for i in scan_all(resolver)], ensure_ascii=False)
    logs = all_logs()
    assert "turn committed" in logs  # the logs were captured
    for canary in CANARIES:
        for where, text in (("tables", stored), ("queue messages", "\n".join(seen)), ("logs", logs)):
            assert canary.lower() not in text.lower(), f"{canary} found in {where}"


def test_a_facts_job_during_an_erasure_learns_and_writes_nothing(aws, api_env, services, settings):
    template, resolver = aws
    grow(services, settings, USER)
    facts = build_facts(settings)  # another instance, which may still remember the user's texts
    facts.process(FactsJob(user_id=USER, session_id="second-session", visitor_seq=1))
    build_erase(settings).erase(USER, inline_budget_s=0)  # key destroyed, items not deleted yet
    before = scan_all(resolver)
    outcome = facts.process(FactsJob(user_id=USER, session_id="second-session", visitor_seq=3))
    assert outcome.candidates == 0 and scan_all(resolver) == before
    assert not [i for i in before if i.get("branch-key-id", {}).get("S") == f"user:{USER}"]
