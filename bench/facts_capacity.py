"""Facts capacity: what the turn reads of a user's facts at 100, 1,000 and 5,000 facts, and the
facts job's time per turn for such a user.

In-process moto (mock_aws), local model, resources from template.yaml, settings as shipped
(facts_shards shards). For each size:
- the turn's read: the user's facts are written as the facts job writes them (compressed,
  encrypted shards); the turn's read of them (one BatchGetItem with the profile and the erasure
  marker, decrypt, parse, rank against a question) is timed: ``warm`` with the shards as a warm
  instance holds them parsed, ``parse`` when every shard changed since its last turn; the items,
  the ciphertext bytes and the DynamoDB calls of the read, and the calls of one whole warm turn;
- the facts job: the FactsFunction handler on a real SQS event for each of JOBS turns of
  varied things people tell (the project's own sentences), median and p95 ms per job, and the
  part of it that is not AWS calls (``job_own_ms``: extraction, decryption, merge, packing,
  encryption; in-process moto's DynamoDB is the rest, and real DynamoDB answers in a few ms).

    .venv/bin/python -m bench.facts_capacity [--sizes 100,1000,5000] [--jobs 30] [--out FILE]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.common import in_process_aws, pct, template_stack

ROOT = Path(__file__).resolve().parent.parent

GOAL_JOB_MS = 50.0
# What people tell, in the project's own words: events with a time, plans, family, work, health.
TOLD = [
    "I ran the harbour half marathon yesterday and finished in two hours.",
    "My sister Hana just started her new job at the library last week.",
    "We're driving to the lake cabin next month with the kids.",
    "I've been learning the cello for three years now, I practise every evening.",
    "My knee has been sore since the hike two days ago.",
    "I bought a secondhand kayak last Saturday, it's bright orange.",
    "I work as a pharmacist at the clinic near the station.",
    "Our cat Miso turned five last Friday, we got her a tiny cake.",
    "I'm saving up for a trip to Lisbon next year.",
    "My dad taught me to bake sourdough when I was twelve.",
    "I signed up for a pottery class on Thursday evenings.",
    "저는 어제 친구들과 한강에서 자전거를 탔어요.",
    "다음 달에 부모님과 제주도에 여행을 가요.",
    "지난주에 새 회사로 첫 출근을 했어요.",
    "Thanks, that helps a lot!",
    "What do you think about that?",
]
SUBJECTS = ["garden", "violin", "marathon", "bakery", "novel", "chess club", "camera", "orchard", "museum", "kayak",
            "choir", "tennis", "recipe", "lantern festival", "bookshop", "climbing gym", "pottery", "sailing"]
VERBS = ["went to the", "finished the", "started the", "visited the", "joined the", "booked the", "cleaned the"]
WHO = ["with their sister Hana", "with their dog Bori", "with colleagues", "alone", "with their dad", "with friends"]


def _facts(n: int, now: datetime) -> list:
    """``n`` distinct facts as the merge keeps them: told facts with dates, a few slots."""
    from convmem.domain.fact_dates import day_text
    from convmem.domain.models import Fact, FactSource

    rnd = random.Random(n)
    out = []
    for i in range(n):
        at = now - timedelta(hours=3 * (n - i))
        what = f"{rnd.choice(VERBS)} {rnd.choice(SUBJECTS)} {rnd.choice(WHO)}"
        statement = f"They {what} on {day_text(at.date())} (visit {i})"
        source = FactSource(session_id=f"s-{i // 40}", seq=2 * (i % 40) + 1, channel="web", at=at)
        out.append(Fact(id=f"{i:08x}{rnd.getrandbits(96):024x}", key=f"event.{what.split()[2]}_{i}", statement=statement,
                        value=" ".join(what.split()[:6]) + f" {i}", source=source, created_at=at, updated_at=at,
                        when=at.date().isoformat()))
    return out


def run(sizes: tuple[int, ...] = (100, 1000, 5000), jobs: int = 30, repeats: int = 15) -> dict:
    in_process_aws("ERROR")
    from moto import mock_aws

    with mock_aws():
        from convmem.composition import build_api
        from convmem.domain import fact_merge
        from convmem.domain.context_assembly import facts_budget
        from convmem.service import stored
        from convmem.service.turn import TurnInput

        from local.lambda_runtime import LambdaContext, load_handler

        stack = template_stack()
        settings = stack.settings()
        budget = facts_budget(settings.memory_budget_tokens, None)  # (no profile here: counted once, not per timed call)
        api = build_api(settings)
        facts_fn = load_handler(stack.template, "FactsFunction", stack.resolver)
        base = json.loads((ROOT / "events" / "facts_job.json").read_text())
        store, cipher = api.turns._store, api.turns._cipher  # noqa: SLF001 - the bench times the turn path's own parts
        from botocore.endpoint import Endpoint

        io_ms = [0.0]
        send = Endpoint.make_request

        def timed(self, *args, **kwargs):  # every AWS call of every client, the facts function's too
            start = time.perf_counter()
            try:
                return send(self, *args, **kwargs)
            finally:
                io_ms[0] += (time.perf_counter() - start) * 1000

        Endpoint.make_request = timed
        calls: Counter[str] = Counter()
        store._ddb.meta.events.register("before-call.dynamodb.*", lambda model, **_: calls.update([model.name]))  # noqa: SLF001
        question = "when did I last go to the climbing gym with my sister?"
        out: dict = {"sizes": {}, "facts_shards": settings.facts_shards, "goal_job_ms": GOAL_JOB_MS}
        for n in sizes:
            user = f"user-{n}"
            api.turns.take_turn(user, f"{user}-s0", TurnInput(message="My name is Jisoo and I live in Busan"))
            now = datetime.now(UTC)
            facts = _facts(n, now)
            sealed = stored.encrypt_fact_shards(cipher, user, stored.split_facts(facts, settings.facts_shards))
            store.put_facts(user, expected_version=0, shards=sealed, count=n, now=now)

            def read(clear: bool, user: str = user) -> tuple[float, int]:
                if clear:
                    stored.unpack_facts.cache_clear()
                start = time.perf_counter()
                memory = store.load_user_memory(user)
                known = stored.decrypt_facts(cipher, user, memory.facts_shards).facts
                fact_merge.recall(known, question, budget_tokens=budget,
                                  max_facts=settings.facts_max_recalled)
                return (time.perf_counter() - start) * 1000, len(memory.facts_shards)

            read(False)
            calls.clear()
            warm = [read(False)[0] for _ in range(repeats)]
            read_calls = {k: v / repeats for k, v in calls.items()}
            parse = [read(True)[0] for _ in range(max(3, repeats // 3))]
            items = read(False)[1]

            for i in range(2):  # warm the user's turn path (key caches), then count one turn's calls
                api.turns.take_turn(user, f"{user}-s1", TurnInput(message=f"{question} ({i})"))
            calls.clear()
            api.turns.take_turn(user, f"{user}-s1", TurnInput(message=question))
            turn_calls = dict(calls)

            job_ms: list[float] = []
            own_ms: list[float] = []
            for i in range(jobs):
                result = api.turns.take_turn(user, f"{user}-s2", TurnInput(message=TOLD[i % len(TOLD)]))
                event = copy.deepcopy(base)
                rec = event["Records"][0]
                rec["body"] = json.dumps({"userId": user, "sessionId": f"{user}-s2", "visitorSeq": result.visitor_seq})
                rec["messageId"] = f"m-{n}-{i}"
                io_ms[0] = 0.0
                start = time.perf_counter()
                outcome = facts_fn(event, LambdaContext("FactsFunction"))  # the template's timeout
                job_ms.append((time.perf_counter() - start) * 1000)
                own_ms.append(job_ms[-1] - io_ms[0])
                assert outcome == {"batchItemFailures": []}, outcome
            kept = len(api.facts.list_facts(user))
            out["sizes"][str(n)] = {
                "facts": n,
                "facts_after_jobs": kept,
                "read_items": items,
                "read_bytes": sum(len(ct) for ct in sealed.values()),
                "read_largest_item_bytes": max(len(ct) for ct in sealed.values()),
                "read_calls": read_calls,
                "read_ms_median_warm": round(statistics.median(warm), 2),
                "read_ms_median_parse": round(statistics.median(parse), 2),
                "turn_calls_warm": turn_calls,
                "job_ms_median": round(statistics.median(job_ms[1:]), 2),
                "job_ms_p95": round(pct(job_ms[1:], 0.95), 2),
                "job_own_ms_median": round(statistics.median(own_ms[1:]), 2),
                "job_own_ms_p95": round(pct(own_ms[1:], 0.95), 2),
            }
        Endpoint.make_request = send
        out["job_goal_met"] = all(v["job_ms_median"] <= GOAL_JOB_MS for v in out["sizes"].values())
        return out


if __name__ == "__main__":
    from bench.common import emit

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--jobs", type=int, default=30)
    parser.add_argument("--out")
    args = parser.parse_args()
    emit(run(tuple(int(s) for s in args.sizes.split(",")), jobs=args.jobs), args.out)
