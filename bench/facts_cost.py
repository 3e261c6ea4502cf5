"""Facts cost: the facts Lambda's time per job, and what recall adds to the turn path for a
user with many facts.

In-process moto (mock_aws), local model, resources from template.yaml:
- facts job: the FactsFunction handler on a real SQS event (events/facts_job.json shape) for
  JOBS visitor messages, half stating a fact and half small talk; median and p95 per job.
- recall: a user with FACTS facts; the turn path's part (read facts + profile, decrypt the
  document, rank against the message) timed alone, and whole turns with FACTS vs 0 facts.

    .venv/bin/python -m bench.facts_cost [JOBS] [FACTS]
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
from pathlib import Path

from bench.common import in_process_aws, pct, template_stack

ROOT = Path(__file__).resolve().parent.parent



def run(jobs: int = 40, n_facts: int = 200, repeats: int = 30, turns: int = 20) -> dict:
    in_process_aws("WARNING")  # the handler's per-job log lines are not the result
    from moto import mock_aws

    with mock_aws():
        from convmem.composition import build_api
        from convmem.domain import fact_merge
        from convmem.domain.context_assembly import facts_budget
        from convmem.domain.models import FactCandidate, FactSource
        from convmem.service.stored import decrypt_facts, encrypt_fact_shards, split_facts
        from convmem.service.turn import TurnInput

        from local.lambda_runtime import LambdaContext, load_handler

        stack = template_stack()
        settings = stack.settings()
        budget = facts_budget(settings.memory_budget_tokens, None)  # (no profile here: counted once, not per timed call)
        api = build_api(settings)
        facts_fn = load_handler(stack.template, "FactsFunction", stack.resolver)
        base = json.loads((ROOT / "events" / "facts_job.json").read_text())

        # --- facts Lambda per job
        said = ["My name is Minji and I live in Busan", "Where is my order A-1042?", "I moved to Seoul",
                "Can you check the delivery?", "I prefer window seats", "thanks, that helps",
                "Please reply in Korean", "what about the refund?"]
        job_ms: list[float] = []
        for i in range(jobs):
            result = api.turns.take_turn("bench-user", "bench-session", TurnInput(message=said[i % len(said)]))
            event = copy.deepcopy(base)
            rec = event["Records"][0]
            rec["body"] = json.dumps({"userId": "bench-user", "sessionId": "bench-session", "visitorSeq": result.visitor_seq})
            rec["messageId"] = f"m-{i}"
            start = time.perf_counter()
            out = facts_fn(event, LambdaContext("FactsFunction"))
            job_ms.append((time.perf_counter() - start) * 1000)
            assert out == {"batchItemFailures": []}, out
        learnt = {f.key: f.statement for f in api.facts.list_facts("bench-user")}

        # --- a user with n_facts facts
        user = "many-facts-user"
        api.turns.take_turn(user, "s-0", TurnInput(message="My name is Jisoo and I live in Busan"))
        now = api.sessions.get_session(user, "s-0").state.updated_at
        source = FactSource(session_id="s-0", seq=1, channel="api", at=now)
        facts = [*fact_merge.merge([], FactCandidate(key="home.location", value="Busan", statement="Lives in Busan"),
                                   source, now=now, new_id=lambda: "home").facts]
        hobbies = ["climbing", "chess", "baking", "cycling", "painting", "jazz", "hiking", "tennis", "poetry", "sailing"]
        for i in range(n_facts - 1):
            c = FactCandidate(key=f"preference.item_{i}", value=f"+{hobbies[i % 10]} {i}",
                              statement=f"Enjoys {hobbies[i % 10]} with the club{i}x club")
            facts = fact_merge.merge(facts, c, source, now=now, new_id=lambda i=i: f"f{i}", max_facts=10_000).facts
        assert len(facts) == n_facts, len(facts)
        store = api.turns._store  # noqa: SLF001 - the bench times the turn path's own parts
        cipher = api.turns._cipher  # noqa: SLF001
        shards = encrypt_fact_shards(cipher, user, split_facts(facts, settings.facts_shards))
        store.put_facts(user, expected_version=0, shards=shards, count=len(facts), now=now)
        question = "what is the weather like where I live?"
        recall_ms: list[float] = []
        first = None
        for _ in range(repeats):
            start = time.perf_counter()
            memory = store.load_user_memory(user)
            doc = decrypt_facts(cipher, user, memory.facts_shards)
            chosen = fact_merge.recall(doc.facts, question, budget_tokens=budget,
                                       max_facts=settings.facts_max_recalled)
            recall_ms.append((time.perf_counter() - start) * 1000)
            first = chosen[0].key
        rank_ms = []
        for _ in range(repeats):
            start = time.perf_counter()
            fact_merge.recall(doc.facts, question, budget_tokens=budget, max_facts=settings.facts_max_recalled)
            rank_ms.append((time.perf_counter() - start) * 1000)

        def turns_ms(uid: str) -> list[float]:
            out = []
            for i in range(max(turns, 4)):
                start = time.perf_counter()
                api.turns.take_turn(uid, f"{uid}-s", TurnInput(message=f"{question} ({i})"))
                out.append((time.perf_counter() - start) * 1000)
            return out[3:]  # the first turns of a user fill the key caches

        with_facts, without = turns_ms(user), turns_ms("no-facts-user")
        return {
            "facts_job_ms_median": round(statistics.median(job_ms), 2),
            "facts_job_ms_p95": round(pct(job_ms, 0.95), 2),
            "facts_jobs": jobs,
            "facts_learnt": learnt,
            "facts_document_bytes": sum(len(ct) for ct in shards.values()),
            "recall_facts": len(facts),
            "recall_ms_median": round(statistics.median(recall_ms), 2),
            "recall_ms_p95": round(pct(recall_ms, 0.95), 2),
            "rank_only_ms_median": round(statistics.median(rank_ms), 2),
            "recall_first_key": first,
            "turn_ms_median_with_facts": round(statistics.median(with_facts), 2),
            "turn_ms_median_without_facts": round(statistics.median(without), 2),
        }


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(run(*args), indent=2, ensure_ascii=False))
