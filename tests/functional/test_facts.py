"""The facts consumer, the profile schedule and the /v1/me routes under moto, driven by events/."""

from __future__ import annotations

import copy
import json

import boto3
import pytest
from convmem.adapters.local_model import LocalModel
from convmem.composition import build_facts, build_profile
from convmem.domain.tokens import count_tokens
from convmem.errors import DependencyUnavailableError
from convmem.service.turn import TurnInput

from local.lambda_runtime import LambdaContext, load_module
from local.pollers import EventSource, QueuePoller
from tests.functional.conftest import load_event
from tests.functional.test_api_handler import call

USER, SESSION = "sample-user", "sample-session"


class FlakyModel(LocalModel):
    def __init__(self) -> None:
        self.down = False

    def extract_facts(self, visitor_message, said_at=None, previous=None, theirs=(), called=()):
        if self.down:
            raise DependencyUnavailableError("extractor down", code="model_unavailable")
        return super().extract_facts(visitor_message, said_at, previous, theirs, called)


def load_fn(aws, logical, service_name, build, settings, model):
    template, resolver = aws
    module, name = load_module(template, logical, resolver)
    setattr(module, service_name, lambda: build(settings, model=model))

    def invoke(event):
        return getattr(module, name)(event, LambdaContext(logical))

    return invoke


@pytest.fixture()
def model():
    return FlakyModel()


@pytest.fixture()
def facts_fn(aws, api_env, settings, model):
    return load_fn(aws, "FactsFunction", "service", build_facts, settings, model)


@pytest.fixture()
def profile_fn(aws, api_env, settings, model):
    """The schedule's tick, then the refresh function on what it queued (as the local stack polls it)."""
    template, resolver = aws
    queued = settings.model_copy(update={"profile_queue_url": resolver.refs["ProfileQueue"]})
    tick = load_fn(aws, "ProfileFunction", "service", build_profile, queued, model)
    module, name = load_module(template, "ProfileRefreshFunction", resolver)
    module.service = lambda: build_profile(settings, model=model)
    poller = QueuePoller(EventSource("ProfileRefreshFunction", "ProfileQueue", 5), resolver, getattr(module, name),
                         boto3.client("sqs"))

    def run(event):
        result = tick(event)
        while poller.poll_once():
            pass
        return result

    return run


def say(services, text, session=SESSION, user=USER, channel="web"):
    return services.turns.take_turn(user, session, TurnInput(message=text, channel=channel))


def job(seq, session=SESSION, user=USER, message_id="m-1"):
    from convmem.adapters.sqs_jobs import encode
    from convmem.ports import FactsJob

    event = load_event("facts_job.json")
    rec = event["Records"][0]
    rec["body"] = encode(FactsJob(user_id=user, session_id=session, visitor_seq=seq))
    rec["messageId"] = message_id
    rec["attributes"]["MessageGroupId"] = user
    return event


def facts_item(settings, user=USER):
    return boto3.client("dynamodb").get_item(
        TableName=settings.table_name, Key={"PK": {"S": f"USER#{user}"}, "SK": {"S": "FACTS"}}, ConsistentRead=True
    ).get("Item")


def facts_items(settings, user=USER):
    """Every item of the user's facts: the head (version) and each shard."""
    return boto3.client("dynamodb").query(
        TableName=settings.table_name, KeyConditionExpression="PK = :pk AND begins_with(SK, :f)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{user}"}, ":f": {"S": "FACTS"}}, ConsistentRead=True,
    )["Items"]


def by_key(services, user=USER):
    facts = services.facts.list_facts(user)
    keys = [f.key for f in facts]
    assert len(keys) == len(set(keys)), f"two current facts in one slot: {keys}"
    return {f.key: f for f in facts}


def test_a_turns_facts_job_learns_from_the_visitor_and_the_next_turn_recalls_it(services, facts_fn, settings):
    say(services, "My name is Minji and I live in Busan")
    assert facts_fn(load_event("facts_job.json")) == {"batchItemFailures": []}
    facts = by_key(services)
    assert facts["name"].statement == "Their name is Minji" and facts["home.location"].value == "Busan"
    assert facts["home.location"].source.session_id == SESSION and facts["home.location"].source.seq == 1
    items = facts_items(settings)
    assert items and all(b"Busan" not in bytes(i["ct"]["B"]) for i in items if "ct" in i)
    assert "Busan" not in json.dumps([{k: str(v) for k, v in i.items()} for i in items])

    result = say(services, "What is the weather like where I live?", session="other-session")
    assert result.context.fact_ids[0] == facts["home.location"].id
    assert "Lives in Busan" in result.reply


def test_the_agents_words_are_never_a_source(services, facts_fn):
    say(services, "Hello there")  # the local model's reply quotes the visitor; the job names the agent row
    assert facts_fn(job(2)) == {"batchItemFailures": []}
    assert services.facts.list_facts(USER) == []


def test_a_duplicate_job_writes_nothing_more(services, facts_fn, settings):
    say(services, "I live in Busan")
    facts_fn(job(1, message_id="a"))
    first = facts_items(settings)
    facts_fn(job(1, message_id="b"))  # redelivered, or sent twice
    assert facts_items(settings) == first and facts_item(settings)["version"]["N"] == "1"


def test_a_failing_extractor_retries_then_dead_letters_and_writes_nothing(aws, services, facts_fn, model, settings):
    template, resolver = aws
    say(services, "My name is Minji")  # the turn sent the job to the real facts queue
    model.down = True
    sqs = boto3.client("sqs")
    poller = QueuePoller(EventSource("FactsFunction", "FactsQueue", 10), resolver, lambda e, c: facts_fn(e), sqs)
    poller.retry_after = 0
    for _ in range(8):
        poller.poll_once()
    dead = sqs.receive_message(QueueUrl=resolver.refs["FactsDeadLetterQueue"], MaxNumberOfMessages=10)["Messages"]
    assert [json.loads(m["Body"]) for m in dead] == [{"userId": USER, "sessionId": SESSION, "visitorSeq": 1}]
    assert facts_item(settings) is None
    model.down = False  # a redrive from the DLQ would then learn it
    facts_fn(job(1))
    assert "name" in by_key(services)


def test_one_failing_user_does_not_hold_back_another_in_the_batch(services, facts_fn, settings):
    say(services, "I live in Busan", user="alice", session="s-alice")
    say(services, "I live in Daegu", user="bob", session="s-bob")
    event = job(1, user="alice", session="s-alice", message_id="a")
    bad = copy.deepcopy(job(1, user="alice", message_id="bad")["Records"][0])
    bad["body"] = "{not json"
    event["Records"] = [bad, *event["Records"], job(1, user="bob", session="s-bob", message_id="b")["Records"][0]]
    result = facts_fn(event)
    # The broken job fails with the rest of alice's group (FIFO order); bob's job goes on.
    assert {f["itemIdentifier"] for f in result["batchItemFailures"]} == {"bad", "a"}
    assert by_key(services, "bob")["home.location"].value == "Daegu"
    assert services.facts.list_facts("alice") == []


def test_the_schedule_refreshes_active_users_once_within_the_cap(services, facts_fn, profile_fn):
    status = services.profile.get_profile(USER)
    assert status == (None, None)
    for i, text in enumerate(["Where is my order A-1042? The delivery is late", "Can you check the delivery please?",
                              "Thanks, the order box was damaged"]):
        say(services, text, session=f"s-{i % 2}")
        facts_fn(job(1 if i < 2 else 3, session=f"s-{i % 2}"))
    assert profile_fn(load_event("profile_schedule.json")) == {"enqueued": 1, "failed": 0, "complete": True, "skipped": False}
    profile, refreshed_at = services.profile.get_profile(USER)
    assert profile and refreshed_at and count_tokens(profile) <= 150
    assert "Writes in English." in profile and "delivery" in profile and "order" in profile
    # No longer due: the next run does nothing until the user is active again.
    assert profile_fn(load_event("profile_schedule.json"))["enqueued"] == 0
    say(services, "one more question about my order", session="s-0")
    facts_fn(job(5, session="s-0"))
    assert profile_fn(load_event("profile_schedule.json"))["enqueued"] == 1


def test_the_profile_goes_into_the_request_above_the_summary(services, facts_fn, profile_fn):
    say(services, "Where is my order? The delivery is late")
    facts_fn(job(1))
    profile_fn(load_event("profile_schedule.json"))
    result = say(services, "any news?")
    assert result.context.profile is True


def test_me_routes_list_forget_and_the_profile(handler, services, facts_fn, settings):
    say(services, "My name is Minji and I live in Busan")
    facts_fn(job(1))
    status, body = call(handler, load_event("api_list_facts.json"))
    assert status == 200 and {f["key"] for f in body["facts"]} == {"name", "home.location"}
    assert set(body["facts"][0]) == {"id", "key", "text", "createdAt", "updatedAt"}
    home = next(f for f in body["facts"] if f["key"] == "home.location")

    forget = load_event("api_list_facts.json")
    forget["rawPath"] = forget["requestContext"]["http"]["path"] = f"/v1/me/facts/{home['id']}"
    forget["requestContext"]["http"]["method"] = "DELETE"
    out = handler(forget)
    assert out["statusCode"] == 204 and not out.get("body")
    result = say(services, "What is the weather like where I live?")
    assert home["id"] not in result.context.fact_ids and "Busan" not in result.reply
    assert call(handler, forget)[0] == 404

    other = copy.deepcopy(forget)
    other["headers"]["x-user-id"] = "someone-else"
    assert call(handler, other)[0] == 404

    status, body = call(handler, load_event("api_get_profile.json"))
    assert status == 200 and body == {"profile": None, "refreshedAt": None}


def test_one_flooding_message_cannot_stop_the_facts_told_after_it(services, facts_fn, settings):
    # 320 likes in one 5 KB message once filled the user's facts for good: the name and the email
    # told after it were never stored. One message adds a bounded number of facts.
    flood = " ".join(f"I like thing{i}." for i in range(320))
    say(services, flood)
    assert facts_fn(job(1, message_id="flood")) == {"batchItemFailures": []}
    assert len(services.facts.list_facts(USER)) <= settings.facts_max_per_message
    say(services, "My name is Minji. My email is minji@example.org")
    assert facts_fn(job(3, message_id="after")) == {"batchItemFailures": []}
    facts = by_key(services)
    assert facts["name"].value == "Minji" and facts["contact.email"].value == "minji@example.org"


def test_a_facts_job_knows_the_names_of_their_pets_and_people_from_earlier_sessions(services, facts_fn):
    say(services, "My tortoise Pemberton is hibernating in the wine fridge.", session="winter")
    facts_fn(job(1, session="winter"))
    say(services, "Big news: Pemberton woke up! Munching dandelion leaves like nothing happened.")
    say(services, "Bramble woke up too, apparently.")  # a name they never said is theirs: not their news
    facts_fn(job(3))
    told = [f.statement for f in services.facts.list_facts(USER) if f.key.startswith(("note.", "event."))]
    assert any("Pemberton woke up" in s for s in told) and any("dandelion" in s for s in told)
    assert not any("Bramble" in s for s in told)
