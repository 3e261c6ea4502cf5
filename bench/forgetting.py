"""Forgetting that reaches what was learnt: the cost of ``DELETE /v1/sessions/{id}?facts=forget``
for a conversation of MESSAGES messages that fed TAUGHT facts of a person holding FACTS facts, and
of ``DELETE /v1/sessions/{id}/messages/{seq}`` for an early message of that conversation (the
summary folded again from the entry holding it).

In-process moto (mock_aws), local model, resources from template.yaml, settings as shipped. The
conversation is taken through the turn service and folded; the facts document is then written as
the facts job writes it (compressed, encrypted shards): FACTS - TAUGHT facts from other
conversations, and of the TAUGHT: two thirds said only in this conversation, a sixth said in
another one too, a sixth replacing a value said in another one. Timed: the service call (what
the API handler runs), with every DynamoDB call, the bytes on the wire both ways, and KMS calls;
checked: what is left is what the rules say.

    .venv/bin/python -m bench.forgetting [--reps 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "layers" / "convmem"), str(ROOT)]

from bench.common import CallCounter, in_process_aws, template_stack  # noqa: E402

SESSION, OTHER = "forget-me", "elsewhere"


def _seed(api: Any, settings: Any, user: str, messages: int, n_facts: int, taught: int) -> None:
    from convmem.composition import build_fold
    from convmem.domain.models import Fact, FactSource, FactVersion
    from convmem.service import stored
    from convmem.service.turn import TurnInput

    api.turns.take_turn(user, OTHER, TurnInput(message="My name is Jisoo and I live in Busan"))
    for i in range(messages // 2):
        api.turns.take_turn(user, SESSION, TurnInput(message=f"Turn {i}: my order ZX-{i} is late, please check the address."))
    build_fold(settings).fold(SESSION, user, messages - settings.window_messages)
    store, cipher = api.turns._store, api.turns._cipher  # noqa: SLF001
    said = [m for m in store.messages_between(user, SESSION, 1, messages) if m.role == "visitor"]
    other = store.messages_between(user, OTHER, 1, 1)[0]
    elsewhere = FactSource(session_id=OTHER, seq=1, channel="web", at=other.at - timedelta(days=30))
    facts = []
    for i in range(n_facts - taught):
        at = elsewhere.at - timedelta(hours=i)
        source = FactSource(session_id=f"old-{i // 40}", seq=2 * (i % 40) + 1, channel="web", at=at)
        facts.append(Fact(id=f"kept{i:06d}", key=f"event.thing_{i}", statement=f"They did thing number {i} with friends",
                          value=f"did thing {i} with friends", source=source, created_at=at, updated_at=at))
    for i in range(taught):
        m = said[i % len(said)]
        here = FactSource(session_id=SESSION, seq=m.seq, channel=m.channel, at=m.at)
        kind = "only" if i < taught * 2 // 3 else "shared" if i < taught * 5 // 6 else "replaced"
        fact = Fact(id=f"taught{i:05d}", key=f"preference.item_{i}", statement=f"Likes item {i}", value=f"+item {i}",
                    source=here, created_at=m.at, updated_at=m.at)
        if kind == "shared":
            earlier = FactVersion(statement=f"Likes item {i}", value=f"+item {i}", source=elsewhere, replaced_at=elsewhere.at)
            fact = fact.model_copy(update={"source": elsewhere, "confirmed_by": here, "earlier": [
                earlier.model_copy(update={"source": here, "replaced_at": here.at})]})
        elif kind == "replaced":
            old = FactVersion(statement=f"Dislikes item {i}", value=f"-item {i}", source=elsewhere, replaced_at=m.at)
            fact = fact.model_copy(update={"history": [old]})
        facts.append(fact)
    version, _ = store.get_facts(user)
    sealed = stored.encrypt_fact_shards(cipher, user, stored.split_facts(facts, settings.facts_shards))
    store.put_facts(user, expected_version=version, shards=sealed, count=len(facts), now=said[-1].at)


def _wire(events: Any) -> dict[str, int]:
    sizes = {"sent": 0, "received": 0}

    def sent(request: Any, **_: Any) -> None:
        body = request.body
        sizes["sent"] += len(body if isinstance(body, bytes) else (body or "").encode())

    def received(http_response: Any = None, **_: Any) -> None:
        sizes["received"] += len(http_response.content or b"") if http_response is not None else 0

    events.register("before-send.dynamodb", sent)
    events.register("after-call.dynamodb", received)
    return sizes


def _measure(counter: CallCounter, wire: dict[str, int], name: str, work: Any) -> dict[str, Any]:
    before = dict(wire)
    with counter.phase(name) as tally:
        start = time.perf_counter()
        work()
        ms = (time.perf_counter() - start) * 1000
    calls = {k: v for k, v in sorted(tally.calls.items())}
    return {
        "ms": round(ms, 1),
        "dynamodb_calls": sum(v for k, v in calls.items() if k.startswith("dynamodb.")),
        "kms_calls": sum(v for k, v in calls.items() if k.startswith("kms.")),
        "calls": calls,
        "dynamodb_bytes_sent": wire["sent"] - before["sent"],
        "dynamodb_bytes_received": wire["received"] - before["received"],
    }


def run(reps: int = 3, messages: int = 100, n_facts: int = 1000, taught: int = 30) -> dict:
    in_process_aws("ERROR")
    import boto3
    from moto import mock_aws

    with mock_aws():
        counter = CallCounter()  # inside mock_aws (which starts a new default session), before any client exists
        wire = _wire(boto3.DEFAULT_SESSION.events)
        from convmem.adapters.local_model import LocalModel
        from convmem.composition import build_api

        stack = template_stack()
        # A conversation seeded in seconds, not at a person's pace: the per-user turn limit is off.
        settings = stack.settings().model_copy(update={"turn_limit": 0, "turn_burst_limit": 0})
        api = build_api(settings, model=LocalModel())
        sessions, singles = [], []
        for rep in range(reps):
            user = f"person-{rep}"
            _seed(api, settings, user, messages, n_facts, taught)
            api.facts.list_facts(user)  # a warm instance: the user's key material cached, as for any request
            sessions.append(_measure(counter, wire, f"session-{rep}",
                                     lambda user=user: api.forget.forget_session(user, SESSION, facts="forget")))
            left = api.facts.list_facts(user)
            only = taught * 2 // 3
            assert len(left) == n_facts - only, len(left)
            assert not [f for f in left if any(s.session_id == SESSION for s in (f.source, f.confirmed_by) if s)]
            user = f"one-message-{rep}"
            _seed(api, settings, user, messages, n_facts, taught)
            api.facts.list_facts(user)
            singles.append(_measure(counter, wire, f"message-{rep}",
                                    lambda user=user: api.forget.forget_message(user, SESSION, 3)))
            assert len(api.facts.list_facts(user)) == n_facts - 1  # the fact said only in message 3
        state = api.sessions.get_session(user, SESSION).state
        folded = state.summarized_through

    def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
        last = runs[-1]
        return {"ms_median": round(statistics.median(r["ms"] for r in runs), 1), "ms_max": max(r["ms"] for r in runs),
                **{k: last[k] for k in ("dynamodb_calls", "kms_calls", "calls", "dynamodb_bytes_sent", "dynamodb_bytes_received")}}

    return {
        "messages": messages, "facts": n_facts, "taught": taught, "facts_shards": settings.facts_shards,
        "summary_folded_through": folded,
        "forget_session": summarise(sessions),
        "forget_message": summarise(singles),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(run(reps=args.reps), indent=2))
