"""Forgetting that reaches what was learnt (API.md: ``DELETE /v1/sessions/{id}?facts=forget``,
``DELETE /v1/sessions/{id}/messages/{seq}``), under moto: a canary told only in the forgotten
part is afterwards in no table item (decrypted), queue message, export or model request; values
it replaced come back; a fold or a facts job racing the forget does not bring it back."""

from __future__ import annotations

import base64
import copy
import json
import zlib

import boto3
import pytest
from convmem.adapters.local_model import LocalModel
from convmem.composition import build_api, build_facts, build_fold, build_profile
from convmem.domain import summary_fold
from convmem.ports import FactsJob
from convmem.service.stored import decrypt_messages
from convmem.service.turn import TurnInput

from tests.functional.conftest import load_event, scan_all
from tests.functional.test_api_handler import call
from tests.functional.test_privacy import ciphertexts, fresh_cipher, user_items

USER = "sample-user"
CANARY = "Zorblatville"


class RecordingModel(LocalModel):
    """The local model, keeping every reply request (what a real model would be sent)."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[str] = []

    def reply(self, request):
        self.requests.append(request.model_dump_json())
        return super().reply(request)


@pytest.fixture()
def model():
    return RecordingModel()


@pytest.fixture()
def api(settings, model):
    return build_api(settings, model=model)


def delete(path: str, query: str = "") -> dict:
    event = copy.deepcopy(load_event("api_delete_session.json"))
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["rawQueryString"] = query
    if query:
        event["queryStringParameters"] = dict(p.split("=", 1) for p in query.split("&"))
    return event


def say(api, session, texts, client_turn_id=None):
    for i, text in enumerate(texts):
        api.turns.take_turn(USER, session, TurnInput(message=text, clientTurnId=f"{client_turn_id}-{i}" if client_turn_id else None))


def learn(settings, session, through):
    build_facts(settings, model=LocalModel()).process(FactsJob(user_id=USER, session_id=session, visitor_seq=through))


def plaintexts(settings, resolver) -> str:
    """Every encrypted attribute of the user in every table, decrypted (facts shards unpacked)."""
    cipher = fresh_cipher(settings)
    out = []
    for kind, session, ref, ct in ciphertexts(user_items(scan_all(resolver), USER)):
        text = cipher.decrypt(ct, user_id=USER, session_id=session, kind=kind, ref=ref)
        if text.startswith("z1:"):
            text = zlib.decompress(base64.b64decode(text[3:])).decode("utf-8")
        out.append(text)
    return "\n".join(out)


def queue_messages() -> str:
    sqs = boto3.client("sqs")
    bodies = []
    for url in sqs.list_queues().get("QueueUrls", []):
        while batch := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=0).get("Messages", []):
            bodies.extend(m["Body"] for m in batch)
            sqs.delete_message_batch(QueueUrl=url, Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                                                            for i, m in enumerate(batch)])
    return "\n".join(bodies)


def fact(api, key):
    found = [f for f in api.facts.list_facts(USER) if f.key == key]
    return found[0] if found else None


def test_forgetting_a_conversation_forgets_what_was_learnt_only_there(aws, handler, api, model, settings):
    _, resolver = aws
    say(api, "first", ["My name is Minji and I live in Busan", "I like green tea"])
    say(api, "moved", [f"I moved to {CANARY}", "I love zorblat pastries", "I like green tea", "order ZB-1 please"],
        client_turn_id="mv")
    for session, through in (("first", 3), ("moved", 7)):
        learn(settings, session, through)
    build_fold(settings, model=LocalModel()).fold("moved", USER, 8)
    build_profile(settings, model=LocalModel()).refresh_all_due()
    assert fact(api, "home.location").value == CANARY and CANARY in plaintexts(settings, resolver)
    tea = fact(api, "preference.green_tea")
    assert {s.session_id for s in (tea.source, tea.confirmed_by)} == {"first", "moved"}

    assert handler(delete("/v1/sessions/moved", "facts=forget"))["statusCode"] == 204

    home = fact(api, "home.location")
    assert (home.value, home.source.session_id, home.history) == ("Busan", "first", [])  # the replaced value is back
    assert fact(api, "preference.zorblat_pastrie") is None  # learnt only there: gone
    tea = fact(api, "preference.green_tea")
    assert tea.source.session_id == "first" and tea.confirmed_by is None  # kept, without that source
    assert api.profile.get_profile(USER)[0] is None  # rewritten from what is left at the next refresh
    build_profile(settings, model=LocalModel()).refresh_all_due()
    reply = api.turns.take_turn(USER, "third", TurnInput(message="Where do I live? Any zorblat news?"))
    assert "Busan" in reply.reply
    status, export = call(handler, load_event("api_export_me.json"))
    assert status == 200 and CANARY.lower() not in json.dumps(export).lower()
    for where, text in (("tables", plaintexts(settings, resolver)), ("queues", queue_messages()),
                        ("model request", model.requests[-1])):
        assert CANARY.lower() not in text.lower(), where
        assert "zorblat pastries" not in text.lower(), where
    # Forgetting again: the session is gone (404), nothing else changes.
    assert handler(delete("/v1/sessions/moved", "facts=forget"))["statusCode"] == 404


def test_the_export_says_where_each_fact_came_from(handler, api, settings):
    say(api, "a", ["I like green tea"])
    say(api, "b", ["I like green tea"])
    learn(settings, "a", 1)
    learn(settings, "b", 1)
    _, export = call(handler, load_event("api_export_me.json"))
    (tea,) = export["facts"]
    assert [(s["sessionId"], s["seq"]) for s in tea["sources"]] == [("a", 1), ("b", 1)]
    assert all(s["at"].endswith("Z") for s in tea["sources"])


def test_forgetting_one_message_takes_its_reply_its_facts_and_its_words_in_the_summary(aws, handler, api, model, settings):
    _, resolver = aws
    texts = ["My name is Minji", "order ZX-1 is late", f"I live in {CANARY}", "order ZX-2 is lost",
             "I like green tea", "order ZX-3 arrived", "thanks", "bye"]
    say(api, "s", texts, client_turn_id="t")
    learn(settings, "s", 15)
    build_fold(settings, model=LocalModel()).fold("s", USER, 12)
    before = api.sessions.get_session(USER, "s")
    assert CANARY in (before.summary or "") and fact(api, "home.location").value == CANARY

    assert handler(delete("/v1/sessions/s/messages/5"))["statusCode"] == 204

    after = api.sessions.get_session(USER, "s")
    assert [m.seq for m in api.sessions.transcript(USER, "s").messages] == [1, 2, 3, 4, *range(7, 17)]
    assert after.state.summarized_through == 12 and after.state.message_count == 16
    left = decrypt_messages(fresh_cipher(settings), USER, "s",
                            api.forget._store.messages_between(USER, "s", 1, 12))  # noqa: SLF001
    # The summary is what folding the same ranges would have made had messages 5-6 never been said.
    expected = summary_fold.fold(None, left, settings.summary_cap_tokens)
    assert after.summary == expected and "ZX-2" in after.summary
    assert fact(api, "home.location") is None and fact(api, "name").value == "Minji"
    assert fact(api, "preference.green_tea") is not None
    export = call(handler, load_event("api_export_me.json"))[1]
    for where, text in (("tables", plaintexts(settings, resolver)), ("queues", queue_messages()),
                        ("export", json.dumps(export))):
        assert CANARY.lower() not in text.lower(), where
    # Idempotent; an agent reply is not a visitor message; a seq never used is not found.
    assert handler(delete("/v1/sessions/s/messages/5"))["statusCode"] == 204
    assert call(handler, delete("/v1/sessions/s/messages/4"))[1]["error"]["code"] == "not_visitor_message"
    assert call(handler, delete("/v1/sessions/s/messages/99")) == (404, {"error": {
        "code": "message_not_found", "message": "No such message."}})
    assert call(handler, delete("/v1/sessions/s/messages/0"))[1]["error"]["code"] == "invalid_seq"
    # The session goes on: more turns, folded past the gap.
    say(api, "s", ["order ZX-4 please", "one more", "and another", "last one"])
    assert build_fold(settings, model=LocalModel()).fold("s", USER, 20).cursor_after == 20
    reply_request = model.requests[-1]
    assert CANARY.lower() not in reply_request.lower()


def test_a_fold_racing_the_forget_does_not_write_the_message_back(aws, api, settings):
    say(api, "s", ["order ZX-1", f"my code is {CANARY}-77", "order ZX-3", "order ZX-4", "order ZX-5", "order ZX-6",
                   "order ZX-7", "order ZX-8"])
    fold = build_fold(settings, model=LocalModel())
    store = fold._store  # noqa: SLF001
    read = store.messages_between
    raced = []

    def read_then_forget(user_id, session_id, low, high):
        found = read(user_id, session_id, low, high)
        if not raced:  # the fold has read message 3; the forget lands before it writes
            raced.append(True)
            api.forget.forget_message(USER, "s", 3)
        return found

    store.messages_between = read_then_forget
    outcome = fold.fold("s", USER, 10)

    assert raced and outcome.cursor_after == 10
    summary = api.sessions.get_session(USER, "s").summary
    assert "ZX-1" in summary and CANARY not in summary


def test_a_facts_job_racing_the_forget_learns_nothing_from_it(api, settings):
    say(api, "s", ["My name is Minji", f"I moved to {CANARY}"])
    facts = build_facts(settings, model=LocalModel())
    store = facts._store  # noqa: SLF001
    read = store.messages_between

    def read_then_forget(user_id, session_id, low, high):
        found = read(user_id, session_id, low, high)  # the job holds message 3's text now
        api.forget.forget_session(USER, "s", facts="forget")
        return found

    store.messages_between = read_then_forget
    facts.process(FactsJob(user_id=USER, session_id="s", visitor_seq=3))

    assert api.facts.list_facts(USER) == []


def test_a_forgotten_fact_is_not_learnt_again_from_its_message_but_is_when_told_again(api, settings):
    say(api, "s", ["I live in Busan and I like green tea"])
    learn(settings, "s", 1)
    home = fact(api, "home.location")
    api.facts.forget(USER, home.id)
    # A re-examination of the same message (a redelivered job, a re-extraction) learns it not again...
    api.forget._store.advance_facts_cursor(USER, "s", old=1, new=0)  # noqa: SLF001
    learn(settings, "s", 1)
    assert fact(api, "home.location") is None and fact(api, "preference.green_tea") is not None
    # ...told again, in a new message, it is learnt again.
    say(api, "s", ["I live in Busan, near the sea"])
    learn(settings, "s", 3)
    assert fact(api, "home.location").source.seq == 3


def test_a_bad_facts_choice_is_a_400_that_deletes_nothing(aws, handler, api, settings):
    say(api, "s", ["I like green tea"])
    learn(settings, "s", 1)
    before = scan_all(aws[1])
    status, body = call(handler, delete("/v1/sessions/s", "facts=drop"))
    assert status == 400 and body["error"]["code"] == "invalid_request"
    assert scan_all(aws[1]) == before
