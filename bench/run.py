"""`make bench`: every benchmark on the embedded AWS with the local model; a table and results.json.

Each section runs in a fresh process (its imports, caches and environment are its own), one
after the other, so no section's work competes with another's timing:

  growth       1-3  one session to 1,000 turns: flat cost, fold tokens, turn time vs the floor
  cold_start   4    fresh processes: import and first call of the api, fold and facts functions; the API
                    primed as a SnapStart snapshot's init: init + priming, restore hook, first turn after it
  encryption   5    per-message encrypt / decrypt time and ciphertext overhead
  load         6    20 concurrent HTTP clients x 25 turns on the local stack as `make run` starts it
  moto              why 1-3 run on the patched moto of local/moto_server.py: stock moto's DynamoDB cost grows with the table
  assembly          budget assembly time (bench/assembly.py)
  facts             facts job time and recall over 200 facts (bench/facts_cost.py)
  facts_capacity    the turn's facts read and the facts job at 100 / 1,000 / 5,000 facts (bench/facts_capacity.py)
  recall       7    LoCoMo-format conversations replayed, their questions asked in a new session: is the
                    answer in the request, against window / BM25 / whole-history baselines (bench/recall.py)
  knowledge         the largest legal turn body: parse, limits, assembly; memory after 100 (bench/knowledge_assembly.py)
  byo               bring your own model: POST .../context and .../exchanges beside .../turns over HTTP (bench/byo.py)
  cost              the bill: USD per 1,000 turns at list prices for 20 / 200 / 1,000-turn conversations, model
                    tokens apart, beside Bedrock AgentCore Memory's price for the same workload (bench/cost.py)
  profile_fanout    5,000 due users: the tick, then the refresh function at its MaximumConcurrency until all are
                    refreshed; the projected time on AWS at the template's bounds (bench/profile_fanout.py)
  forgetting        forget a 100-message conversation that fed 30 of a person's 1,000 facts (?facts=forget), and
                    one early message of it (summary folded again): ms, DynamoDB calls, bytes (bench/forgetting.py)

    .venv/bin/python -m bench                # everything, writes bench/results.json
    .venv/bin/python -m bench --smoke        # a few turns of everything (what the test tier runs)
    .venv/bin/python -m bench --only growth,encryption --out /tmp/r.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"

# section -> (module, its run() parameters for the full run, for the smoke run)
SECTIONS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "growth": ("bench.growth", {"turns": 1000, "checkpoints": [20, 200, 1000], "profile_every": 100},
               {"turns": 22, "checkpoints": [20, 21, 22], "profile_every": 10}),
    "cold_start": ("bench.cold_start", {"reps": 5, "importtime": True}, {"reps": 1, "importtime": False}),
    "encryption": ("bench.encryption", {"reps": 300}, {"reps": 5}),
    "load": ("bench.load", {"clients": 20, "turns": 25, "share": 5}, {"clients": 4, "turns": 3, "share": 2}),
    "moto": ("bench.moto_scaling", {"reps": 20, "sizes": [100, 1000, 3000]}, {"reps": 3, "sizes": [100, 300]}),
    "assembly": ("bench.assembly", {"repeats": 200}, {"repeats": 5}),
    "facts": ("bench.facts_cost", {"jobs": 40, "n_facts": 200}, {"jobs": 4, "n_facts": 20, "repeats": 5, "turns": 5}),
    "facts_capacity": ("bench.facts_capacity", {"sizes": [100, 1000, 5000], "jobs": 30},
                       {"sizes": [100, 300], "jobs": 4, "repeats": 3}),
    "recall": ("bench.recall", {}, {"quick": True}),
    "knowledge": ("bench.knowledge_assembly", {"bodies": 100}, {"bodies": 5}),
    "byo": ("bench.byo", {"rounds": 100, "history": 40}, {"rounds": 3, "history": 14}),
    "profile_fanout": ("bench.profile_fanout", {"users": 400, "turns": 1}, {"users": 24, "turns": 1}),
    "cost": ("bench.cost", {"turns": 1000, "conversations": [20, 200, 1000], "profile_every": 20},
             {"turns": 12, "conversations": [5, 12], "profile_every": 6}),
    "forgetting": ("bench.forgetting", {"reps": 3}, {"reps": 1, "messages": 20, "n_facts": 60, "taught": 6}),
}


def child(module: str, params_json: str, out: str) -> None:
    """Run one section's ``run(**params)`` in this process and write its result."""
    params = json.loads(params_json)
    for key in ("checkpoints", "stacks", "sizes"):
        if key in params:
            params[key] = tuple(params[key])
    result = importlib.import_module(module).run(**params)
    Path(out).write_text(json.dumps(result, indent=2, ensure_ascii=False, default=str))


# How long a section may run before it counts as hung. The recall section replays every conversation
# of the set, and LoCoMo's when given, and grows with the set: 63 minutes for 405 conversations on one
# 2-core machine, and past 90 for 429 on a slower run of it (that run hit the old limit of 5,400 s and
# lost the section); three hours leaves room for the set to grow.
SECTION_TIMEOUT_S = {"recall": 10800}


def run_sections(names: list[str], smoke: bool, log_dir: Path, jobs: int = 1) -> dict[str, Any]:
    """Run the sections, ``jobs`` at a time (1 for measurements: nothing competes with a timing)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = dict(zip(names, pool.map(lambda n: _section(n, smoke, log_dir), names), strict=True))
    return {name: done[name] for name in names}


def _section(name: str, smoke: bool, log_dir: Path) -> dict[str, Any]:
    """One section in a fresh process; its handlers' logs go to a file, its result to JSON."""
    module, full, small = SECTIONS[name]
    params = small if smoke else full
    out = log_dir / f"{name}.json"
    log = log_dir / f"{name}.log"
    print(f"[bench] {name} {json.dumps(params)} ...", flush=True)
    start = time.perf_counter()
    with open(log, "wb") as f:  # the handlers log as in production; the section's log, not the table
        proc = subprocess.run([sys.executable, "-m", "bench.run", "--child", module, json.dumps(params), str(out)],
                              cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                              timeout=SECTION_TIMEOUT_S.get(name, 1800))
    took = time.perf_counter() - start
    if proc.returncode != 0:
        tail = log.read_text(errors="replace")[-4000:]
        raise RuntimeError(f"bench section {name} failed ({proc.returncode}); log {log}:\n{tail}")
    print(f"[bench] {name} done in {took:.1f} s", flush=True)
    return {**json.loads(out.read_text()), "params": params, "section_seconds": round(took, 1)}


def goals(r: dict[str, Any]) -> list[dict[str, Any]]:
    """Every goal of the issue with its measured value."""
    out = []

    def add(name: str, figure: dict[str, Any] | None, value: Any = None) -> None:
        if figure is not None:
            out.append({"goal": name, "target": figure.get("goal"), "value": figure["value"] if value is None else value,
                        "met": figure.get("met")})

    g = r.get("growth")
    if g:
        add(f"1. every per-turn figure, turn {g['checkpoints'][-1]} / turn {g['checkpoints'][0]}", g["flat_cost"]["worst_ratio"])
        add("1. KMS calls on warm turns", g["flat_cost"]["kms_calls_warm_turns"])
        add("3. turn median / floor median (Query + TransactWriteItems)", g["turn_overhead"]["median_ratio"])
    c = r.get("cold_start")
    if c:
        for fn in ("api", "fold", "facts"):
            add(f"4. import of functions/{fn}/app.py (ms)", c[fn]["import_ms"])
        for fn, x in (c.get("snapstart") or {}).items():
            if isinstance(x, dict) and "first_call_ms" in x:
                add(f"issue 19.3 {fn}: first turn after init + priming (ms)", x["first_call_ms"])
    e = r.get("encryption")
    if e:
        add("5. AWS calls of warm encrypt / decrypt", e["aws_calls_warm"])
    fc = r.get("facts_capacity")
    if fc:
        for n, x in fc["sizes"].items():
            add(f"2. facts job median ms per turn, {int(n):,} facts", {"goal": f"<= {fc['goal_job_ms']:g}", "value": x["job_ms_median"],
                                                                  "met": x["job_ms_median"] <= fc["goal_job_ms"]})
            add(f"2. turn's facts read, {int(n):,} facts: calls", {"goal": "1 BatchGetItem", "value": x["read_calls"],
                                                               "met": x["read_calls"] == {"BatchGetItem": 1.0}})
    lo = r.get("load")
    if lo:
        for stack in lo.get("stacks", {}):
            if stack in lo:
                for scenario in ("separate_sessions", "shared_sessions"):
                    if scenario not in lo[stack]:
                        continue
                    s = lo[stack][scenario]
                    add(f"6. errors, {stack} stack, {scenario.replace('_', ' ')}", s["errors"])
                    add(f"6. rows and order, {stack} stack, {scenario.replace('_', ' ')}", s["consistency"],
                        value=f"{s['consistency']['value']['pairs_verified']}/{s['turns']} pairs verified")
    rc = r.get("recall")
    if rc:
        out += rc["goals"]
    k = r.get("knowledge")
    if k:
        add("issue 15.2 largest legal body, p95 CPU ms (parse + limits + assembly)", k["worst_cpu_ms_p95"])
        add(f"issue 15.2 RSS gained after {2 * k['bodies_per_shape']} largest bodies (MB)", k["rss_gained_mb"])
    b = r.get("byo")
    if b:
        add("issue 17 context median / p95 ms beside the turn's (local stack, HTTP)",
            {"goal": "reported", "met": True, "value": f"context {b['context_ms']['value']['median']} / "
             f"{b['context_ms']['value']['p95']}, turn {b['turn_ms']['value']['median']} / {b['turn_ms']['value']['p95']}"})
    co = r.get("cost")
    if co:
        add("issue 19.4 AgentCore Memory's price / our infrastructure's, per 1,000 turns (least of the lengths)",
            co["agentcore_over_infrastructure"])
    pf = r.get("profile_fanout")
    if pf:
        add(f"issue 15.6 {pf['users']:,} due users all refreshed after one tick (s, local stack)", pf["all_refreshed_s"])
    return out


# --- the table ---------------------------------------------------------------------------------
def _n(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.3f}".rstrip("0").rstrip(".") if abs(v) < 100 else f"{v:,.1f}"
    if isinstance(v, int):
        return f"{v:,}"
    return "-" if v is None else str(v)


def _rows(rows: list[list[Any]], indent: str = "  ") -> list[str]:
    cells = [[_n(c) for c in row] for row in rows]
    if not cells:  # a partial run (--only) may have no goals
        return []
    widths = [max(len(r[i]) for r in cells if i < len(r)) for i in range(max(len(r) for r in cells))]
    return [indent + "  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip()
            for r in cells]


def table(r: dict[str, Any]) -> str:
    lines: list[str] = []
    meta = r["meta"]
    lines.append(f"convmem benchmarks  {meta['generated_at']}  ({'smoke' if meta['smoke'] else 'full'} run, "
                 f"{meta['machine']['cpus']} cores, Python {meta['machine']['python']}, load average "
                 f"{meta['load_average_start']} -> {meta['load_average_end']})")
    g = r.get("growth")
    if g:
        f, cps = g["flat_cost"], g["checkpoints"]
        first, last = str(cps[0]), str(cps[-1])
        at, ratios = f["at_turn"], f["ratio_last_over_first"]["value"]
        lines.append(f"\n1. Cost per turn, one session to {g['turns']} turns (API handler on moto server, fold + facts consumers after each turn)")
        rows = [["", *[f"turn {c}" for c in cps], f"{last}/{first}"]]
        for key, label in (("request_tokens", "request tokens to the model"), ("dynamodb_items_read", "DynamoDB items read"),
                           ("dynamodb_bytes_read", "DynamoDB bytes read (item sizes)"), ("dynamodb_wire_bytes_read", "  on the wire (JSON)"),
                           ("dynamodb_read_units", "  read units"), ("aws_calls", "AWS calls"), ("kms_calls", "KMS calls")):
            rows.append([label, *[at[str(c)][key] for c in cps], ratios[key]])
        for op in sorted(set().union(*[at[str(c)]["calls"] for c in cps])):
            rows.append([f"  {op}", *[at[str(c)]["calls"].get(op, 0) for c in cps], ratios["calls"].get(op)])
        lines += _rows(rows)
        worst = f["worst_ratio"]
        kms = f["kms_turns"]["value"]
        lines.append(f"  worst ratio {worst['value']} (goal <= 1.1: {'met' if worst['met'] else 'MISSED'}); "
                     f"KMS calls on warm turns: {f['kms_calls_warm_turns']['value']} "
                     f"({'met' if f['kms_calls_warm_turns']['met'] else 'MISSED'}); turns that called KMS: "
                     + ", ".join(f"{k['turn']} ({k['kms_calls']} at {k['at_s']} s)" for k in kms))
        steady = f["steady_state"]["value"]
        lines.append("  every turn " + first + f"..{g['turns']}: " + "; ".join(
            f"{k} {v['min']}-{v['max']}" for k, v in steady.items()))
        bg = f["background_at_turn"]["value"][last]
        lines.append(f"  background per turn (turn {last}): " + "; ".join(
            f"{name} job {v['aws_calls']} calls {v['calls']}, {v['ms']} ms" for name, v in bg.items()))
        fc = g["fold_cost"]
        lines.append(f"\n2. Fold input tokens over {g['turns']} turns ({fc['folds']} folds)")
        lines += _rows([["incremental (old summary + messages pushed out)", fc["incremental_tokens"]["value"]],
                        ["naive (whole history at every fold, computed)", fc["naive_tokens"]["value"]],
                        ["naive / incremental", fc["naive_over_incremental"]["value"]],
                        ["incremental per fold, first half / second half",
                         f"{fc['incremental_tokens_per_fold']['first_half_mean']} / {fc['incremental_tokens_per_fold']['second_half_mean']}"],
                        ["summary tokens (max; cap 400)", fc["summary_tokens_max"]],
                        ["fold job ms median / p95", f"{fc['fold_job_ms']['median']} / {fc['fold_job_ms']['p95']}" if fc["fold_job_ms"] else "-"]])
        t = g["turn_overhead"]
        lines.append(f"\n3. Turn time vs the floor ({t['turn_ms']['value']['n']} turns of the same run)")
        lines += _rows([["", "median ms", "p95 ms"],
                        ["turn (API handler, local model)", t["turn_ms"]["value"]["median"], t["turn_ms"]["value"]["p95"]],
                        ["floor: Query + TransactWriteItems", t["floor_ms"]["value"]["median"], t["floor_ms"]["value"]["p95"]],
                        ["the turn's own calls only (+ BatchGetItem, 2 SendMessage)", t["same_calls_ms"]["value"]["median"], t["same_calls_ms"]["value"]["p95"]],
                        ["turn / floor", t["median_ratio"]["value"], t["p95_ratio"]["value"]],
                        ["turn / its own calls", t["median_ratio_to_same_calls"]["value"], None]])
        lines.append(f"  goal turn/floor <= 2.0: {'met' if t['median_ratio']['met'] else 'MISSED'}; per turn (median ms): " + ", ".join(
            f"{k} {v}" for k, v in t["components_median_ms"]["value"].items()) + "; sections per turn: " + ", ".join(
            f"{k} x{v:g}" for k, v in t["sections_per_turn_median"]["value"].items()))
    c = r.get("cold_start")
    if c:
        lines.append(f"\n4. Cold start (median of {c['reps']} fresh processes)")
        rows = [["function", "import ms", "first call ms", "second call ms", "process ms", "import < 1000"]]
        for fn in ("api", "fold", "facts"):
            x = c[fn]
            rows.append([fn, x["import_ms"]["value"], x["first_call_ms"]["value"], x["second_call_ms"]["value"],
                         x["process_ms"]["median"], "met" if x["import_ms"]["met"] else "MISSED"])
        lines += _rows(rows)
        snap = c.get("snapstart") or {}
        rows = [["SnapStart (primed init)", "init + priming ms", "restore hook ms", "first call ms", "second call ms"]]
        rows += [[fn, x["init_and_priming_ms"]["value"], x["restore_hook_ms"]["value"], x["first_call_ms"]["value"],
                  x["second_call_ms"]["value"]] for fn, x in snap.items() if isinstance(x, dict)]
        if len(rows) > 1:
            lines += _rows(rows)
            lines.append("  init + priming is absorbed by the snapshot (once per published version); a restored "
                         "instance pays the restore hook and the first call")
        heavy = c["api"].get("heaviest_imports")
        if heavy:
            lines.append("  api first call's heaviest lazy imports: " + ", ".join(
                f"{m['module']} {m['cumulative_ms']} ms" for m in heavy["first_call"][:3]))
    e = r.get("encryption")
    if e:
        lines.append("\n5. Encryption (warm keyring, per message)")
        rows = [["message", "bytes", "encrypt ms", "decrypt ms", "overhead B", "overhead B (uuid ids)"]]
        for name, x in e["by_size"].items():
            rows.append([name, x["plaintext_bytes"], x["encrypt_ms"]["median"], x["decrypt_ms"]["median"],
                         x["overhead_bytes"], x["overhead_bytes_uuid_ids"]])
        lines += _rows(rows)
        cold = e["cold"]["uuid_ids"]
        lines.append(f"  AWS calls over the warm loops: {e['aws_calls_warm']['value']}; a new user's first encrypt "
                     f"{cold['first_encrypt_ms']} ms {cold['first_encrypt_calls']}, first decrypt {cold['first_decrypt_ms']} ms "
                     f"{cold['first_decrypt_calls']}")
    lo = r.get("load")
    if lo:
        lines.append(f"\n6. Load on the local stack ({lo['params']['clients']} clients x {lo['params']['turns']} turns over HTTP)")
        rows = [["stack / sessions", "turns/s", "p50 ms", "p95 ms", "errors", "pairs verified", "queues drained s"]]
        for stack in lo["stacks"]:
            if stack not in lo:
                continue
            for scenario in ("separate_sessions", "shared_sessions"):
                if scenario not in lo[stack]:
                    continue
                s = lo[stack][scenario]
                cons = s["consistency"]["value"]
                rows.append([f"{stack}, {s['scenario']} ({s['sessions']} sessions)", s["throughput_turns_per_s"]["value"],
                             s["p50_ms"], s["p95_ms"], s["errors"]["value"], f"{cons['pairs_verified']}/{s['turns']}",
                             s["background_drained_s"]["value"]])
        lines += _rows(rows)
        lines.append("  " + lo["note"])
    m = r.get("moto")
    if m:
        lines.append("\nEmbedded DynamoDB: turn-shaped requests as the table grows (why 1-3 run on local/moto_server.py, patched)")
        reps = m["params"]["reps"]
        rows = [["items in the table", "stock Query ms", "stock Transact ms", f"stock MB kept / {reps}",
                 "bench Query ms", "bench Transact ms", f"bench MB kept / {reps}"]]
        by = m["by_table_items"]["value"]
        for size in by["local"]:
            st, be = by["local"][size], by["bench"][size]
            rows.append([int(size), st["query_ms"], st["transact_ms"], st["server_mb_gained"],
                         be["query_ms"], be["transact_ms"], be["server_mb_gained"]])
        lines += _rows(rows)
        lines.append(f"  same answers on both (Query pages, a cancelled transaction): {m['same_answers']['value']['all_equal']}")
    fc = r.get("facts_capacity")
    if fc:
        lines.append(f"\nFacts capacity (facts in {fc['facts_shards']} shards; in-process moto; the turn's read with the profile and erasure marker)")
        rows = [["facts", "read items", "read bytes", "largest item B", "read ms warm", "read ms parse", "job ms median",
                 "job p95", "job own ms", "kept after jobs"]]
        for n, x in fc["sizes"].items():
            rows.append([int(n), x["read_items"], x["read_bytes"], x["read_largest_item_bytes"], x["read_ms_median_warm"],
                         x["read_ms_median_parse"], x["job_ms_median"], x["job_ms_p95"], x["job_own_ms_median"], x["facts_after_jobs"]])
        lines += _rows(rows)
    a = r.get("assembly")
    fa = r.get("facts")
    k = r.get("knowledge")
    if a or fa or k:
        lines.append("\nAlso measured")
        if a:
            lines.append(f"  assembly of a full window + a {a['request_tokens']}-token request: median {a['assembly_ms_median']} ms, "
                         f"p95 {a['assembly_ms_p95']} ms; overflow block compression {a['compression_ratio']}x")
        if fa:
            lines.append(f"  facts job: median {fa['facts_job_ms_median']} ms, p95 {fa['facts_job_ms_p95']} ms; recall over "
                         f"{fa['recall_facts']} facts {fa['recall_ms_median']} ms (document {fa['facts_document_bytes']:,} B); "
                         f"turn with / without those facts {fa['turn_ms_median_with_facts']} / {fa['turn_ms_median_without_facts']} ms")
        if k:
            lines.append(f"  largest legal turn body ({k['limits']['snippets']} snippets, {k['limits']['bytes']:,} B / "
                         f"{k['limits']['tokens']:,} tokens of knowledge): CPU ms median / p95 " + "; ".join(
                             f"{name.replace('_', ' ')} {v['cpu_ms']['median']} / {v['cpu_ms']['p95']} (wall {v['wall_ms']['median']})"
                             for name, v in k.items() if isinstance(v, dict) and "cpu_ms" in v)
                         + f"; RSS gained after {2 * k['bodies_per_shape']}: {k['rss_gained_mb']['value']} MB")
    b = r.get("byo")
    if b:
        lines.append(f"\nBring your own model over HTTP on the local stack ({b['params']['rounds']} rounds on a session of "
                     f"{b['params']['history']} turns, one request at a time)")
        rows = [["call", "median ms", "p95 ms"]]
        for name, key in (("POST .../turns (local model)", "turn_ms"), ("POST .../context", "context_ms"),
                          ("POST .../context?format=converse", "context_converse_ms"), ("POST .../exchanges", "exchange_ms"),
                          ("context + exchange", "context_plus_exchange_ms")):
            rows.append([name, b[key]["value"]["median"], b[key]["value"]["p95"]])
        lines += _rows(rows)
        lc = b["last_context"]
        lines.append(f"  last context: {lc['request_tokens']} tokens, {lc['window_messages']} window + {lc['pending_messages']} "
                     f"pending messages, summary {lc['summary_tokens']} tokens; {lc['context_bytes']:,} B as layers, "
                     f"{lc['converse_bytes']:,} B as Converse")
    pf = r.get("profile_fanout")
    if pf:
        t, pr = pf["template"], pf["projection_aws"]
        lines.append(f"\nProfile refresh fan-out ({pf['users']:,} due users, {pf['turns_per_user']} turns each; "
                     f"MaximumConcurrency {t['max_concurrency']}, BatchSize {t['batch_size']})")
        lines += _rows([["tick s", "all refreshed s (local)", "left due", "dead-lettered", "local ms a job",
                         f"AWS s at model p50 {pr['model_p50_s']} s", f"AWS s at p95 {pr['model_p95_s']} s", "users / h at p50"],
                        [pf["tick_s"]["value"], pf["all_refreshed_s"]["value"], pf["left_due"], pf["dead_lettered"],
                         pf["local_job_ms"]["mean"], pr["at_p50_s"], pr["at_p95_s"], pr["users_per_hour_at_p50"]]])
        lines.append("  AWS: " + pr["how"])
    co = r.get("cost")
    if co:
        from bench.cost import table as cost_table

        lines += cost_table(co)
    fg = r.get("forgetting")
    if fg:
        lines.append(f"\nForgetting ({fg['messages']} messages that fed {fg['taught']} of {fg['facts']:,} facts, "
                     f"{fg['facts_shards']} shards; in-process moto)")
        rows = [["", "ms median", "ms max", "DynamoDB calls", "KMS calls", "bytes sent", "bytes received"]]
        for name, label in (("forget_session", "the conversation, ?facts=forget"), ("forget_message", "one early message")):
            x = fg[name]
            rows.append([label, x["ms_median"], x["ms_max"], x["dynamodb_calls"], x["kms_calls"],
                         x["dynamodb_bytes_sent"], x["dynamodb_bytes_received"]])
        lines += _rows(rows)
    rc = r.get("recall")
    if rc:
        from bench.recall import table as recall_table

        lines += recall_table(rc)
    lines.append("\nGoals")
    lines += _rows([[x["goal"], _n(x["value"]), x["target"], "met" if x["met"] else "MISSED"] for x in r["goals"]])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="convmem benchmarks")
    parser.add_argument("--smoke", action="store_true", help="a few turns of every section (seconds, not minutes)")
    parser.add_argument("--only", help="comma-separated sections: " + ",".join(SECTIONS))
    parser.add_argument("--out", help=f"results file (default {RESULTS.relative_to(ROOT)}; smoke runs write none unless given)")
    parser.add_argument("--jobs", type=int, default=1, help="sections at a time (keep 1 for real measurements)")
    parser.add_argument("--child", nargs=3, metavar=("MODULE", "PARAMS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    names = args.only.split(",") if args.only else list(SECTIONS)
    unknown = set(names) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}")
    from bench.common import machine

    start = time.perf_counter()
    load_start = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="convmem-bench-") as tmp:
        results = run_sections(names, args.smoke, Path(tmp), args.jobs)
    report = {
        "meta": {
            "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "smoke": args.smoke,
            "jobs": args.jobs,
            "machine": machine(),
            "load_average_start": load_start,
            "load_average_end": [round(x, 2) for x in os.getloadavg()],
            "seconds": round(time.perf_counter() - start, 1),
            "how": "make bench (python -m bench): each section in its own process, one after the other; "
                   "moto server on loopback with the template's resources, the local model",
        },
        **results,
    }
    out = Path(args.out) if args.out else (None if args.smoke else RESULTS)
    if args.only and out is not None and out.exists():
        # Some sections re-run: the file keeps the others' results (the meta says when each ran).
        earlier = json.loads(out.read_text())
        before = earlier.get("sections_meta") or {n: earlier["meta"] for n in SECTIONS if n in earlier}
        sections_meta = {**before, **{n: report["meta"] for n in names}}
        report = {**{k: v for k, v in earlier.items() if k not in ("goals", "sections_meta")}, **report,
                  "sections_meta": sections_meta}
    report["goals"] = goals(report)
    if out is not None:
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print()
    print(table(report))
    if out is not None:
        print(f"\nwritten to {out} ({report['meta']['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
