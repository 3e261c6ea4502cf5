"""Section 4, cold start: a fresh Python process imports a function's app.py (as Lambda's init
does) and serves its first call, then a second one; REPS processes per function, medians.

The parent starts moto server with the template's resources and prepares the data each call
needs (a returning user whose branch key exists, sessions with messages to fold, visitor messages
that state facts), so every first call does the real work of its function:
- api: a turn on an existing session of an existing user (payload-2.0 event, API key);
- fold: an SQS event with a fold job over 4 messages beyond the cursor (the next call: 2 more);
- facts: an SQS event with a facts job for a visitor message that states a fact.

One more process per function runs under ``python -X importtime`` and names the heaviest imports,
split into those of the import and those the first call makes (lazy imports).

SnapStart (``snapstart``): for each function the template runs with SnapStart (the API), REPS more
fresh processes whose init primes as a snapshot's does (``CONVMEM_PRIME_AT_INIT=1``, what
``AWS_LAMBDA_INITIALIZATION_TYPE=snap-start`` does on Lambda), then run the after-restore hook,
then serve their first and second call: init + priming (absorbed by the snapshot) and the first
turn after it (what a restored instance pays) are measured apart.

    .venv/bin/python -m bench.cold_start [REPS] [--out FILE]

The child side (``--child``) imports only the standard library before it starts its clock.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time

MARK_IMPORT = "##bench:import"
MARK = "##bench:first-call"


# --- child -----------------------------------------------------------------------------------
class _Context:
    def __init__(self, name: str, timeout_s: float) -> None:
        self.function_name = name
        self.memory_limit_in_mb = 512
        self.aws_request_id = f"cold-{time.time_ns()}"
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{name}"
        self._timeout_s = timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return int(self._timeout_s * 1000)


def child(spec_path: str) -> None:
    spec = json.loads(open(spec_path).read())
    sys.path[:0] = [spec["code_dir"], spec["layer"]]  # /var/task and /opt/python on Lambda
    sys.stderr.write(MARK_IMPORT + "\n")
    sys.stderr.flush()
    start = time.perf_counter()
    module = importlib.import_module(spec["module"])
    imported = time.perf_counter()
    handler = getattr(module, spec["handler"])
    modules_after_import = len(sys.modules)
    restore_ms = None
    if spec.get("restore"):  # what SnapStart's after-restore hook does on a restored instance
        from convmem.snapstart import renew

        t0 = time.perf_counter()
        renew()
        restore_ms = (time.perf_counter() - t0) * 1000
    sys.stderr.write(MARK + "\n")
    sys.stderr.flush()
    calls = []
    for event in spec["events"]:
        t0 = time.perf_counter()
        out = handler(event, _Context(spec["function"], spec["timeout_s"]))
        calls.append({"ms": (time.perf_counter() - t0) * 1000, "result": _brief(out)})
    with open(spec["result"], "w") as f:
        json.dump({
            "import_ms": (imported - start) * 1000, "calls": calls, "restore_ms": restore_ms,
            "modules_after_import": modules_after_import, "modules_after_calls": len(sys.modules),
        }, f)


def _brief(out: object) -> object:
    if isinstance(out, dict) and "statusCode" in out:
        return {"statusCode": out["statusCode"]}
    return out


# --- parent ----------------------------------------------------------------------------------
def _prepare(aws: object, reps: int) -> dict[str, list[list[dict]]]:
    """Events for each function and rep: [first call, second call]."""
    from bench.common import turn_event
    from local.lambda_runtime import LambdaContext, load_handler

    api = load_handler(aws.template, "ApiFunction", aws.resolver)

    def turn(user: str, session: str, text: str) -> dict:
        out = api(turn_event(user, session, text), LambdaContext("ApiFunction"))
        assert out["statusCode"] == 200, out
        return json.loads(out["body"])

    user = "cold-user"
    fold_body = json.loads((_root() / "events" / "fold_job.json").read_text())
    facts_body = json.loads((_root() / "events" / "facts_job.json").read_text())

    def sqs_event(base: dict, body: dict, n: int) -> dict:
        event = json.loads(json.dumps(base))
        rec = event["Records"][0]
        rec["body"] = json.dumps(body)
        rec["messageId"] = f"cold-{n}"
        return event

    events: dict[str, list[list[dict]]] = {"api": [], "fold": [], "facts": []}
    for rep in range(reps):
        session = f"cold-api-{rep}"
        for i in range(3):
            turn(user, session, f"My order ZX-{rep}{i:03d} needs a new delivery date; I decided on express delivery.")
        events["api"].append([turn_event(user, session, f"Can you check invoice INV-{rep}1 for order ZX-{rep}001?"),
                              turn_event(user, session, f"And the receipt for ZX-{rep}002, please.")])
        session = f"cold-fold-{rep}"
        for i in range(9):  # 18 messages, none folded yet: 6 stand beyond the window of 12
            turn(user, session, f"Parcel PK-{rep}{i:03d} was left at the door; the courier note says {i + 1} pm.")
        events["fold"].append([
            sqs_event(fold_body, {"sessionId": session, "userId": user, "throughSeq": 4}, 2 * rep),
            sqs_event(fold_body, {"sessionId": session, "userId": user, "throughSeq": 6}, 2 * rep + 1),
        ])
        session, facts_user = f"cold-facts-{rep}", f"cold-facts-user-{rep}"
        first = turn(facts_user, session, f"Hi, my name is Jisoo Park{rep} and I live in Busan.")
        second = turn(facts_user, session, "I prefer window seats when I fly.")
        events["facts"].append([
            sqs_event(facts_body, {"userId": facts_user, "sessionId": session, "visitorSeq": first["visitorSeq"]}, 2 * rep),
            sqs_event(facts_body, {"userId": facts_user, "sessionId": session, "visitorSeq": second["visitorSeq"]}, 2 * rep + 1),
        ])
    return events


def _root():
    from bench.common import ROOT

    return ROOT


FUNCTIONS = {"api": "ApiFunction", "fold": "FoldFunction", "facts": "FactsFunction"}


def _spawn(aws: object, name: str, events: list[dict], tmp: str, importtime: bool = False,
           primed: bool = False) -> tuple[dict, str, float]:
    import subprocess

    from bench.common import LAYER, ROOT
    from local.lambda_runtime import function_limits
    from local.template import function_handler

    code_dir, module, func = function_handler(aws.template, FUNCTIONS[name])
    spec_path = os.path.join(tmp, f"{name}-spec.json")
    result_path = os.path.join(tmp, f"{name}-result.json")
    with open(spec_path, "w") as f:
        json.dump({"code_dir": str(code_dir), "layer": str(LAYER), "module": module, "handler": func,
                   "function": FUNCTIONS[name], "timeout_s": function_limits(aws.template, FUNCTIONS[name])[1],
                   "events": events, "result": result_path, "restore": primed}, f)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CONVMEM_", "POWERTOOLS_", "AWS_", "PYTHONPATH"))}
    env.update(aws.function_env(FUNCTIONS[name]))
    env["CONVMEM_MODEL_PROVIDER"] = "local"
    if primed:  # init as a SnapStart snapshot's (convmem/snapstart.py): priming lands in init
        env["CONVMEM_PRIME_AT_INIT"] = "1"
    args = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "bench.cold_start", "--child", spec_path]
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    wall = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise RuntimeError(f"{name} child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    with open(result_path) as f:
        return json.load(f), proc.stderr, wall


def _heaviest(stderr: str, top: int = 12) -> dict[str, list[dict]]:
    """The heaviest imports by cumulative time, before and during the first call."""
    phases: dict[str, list[tuple[int, int, str]]] = {"import": [], "first_call": []}
    current = None  # the interpreter's own start and the child's stdlib imports come first
    for line in stderr.splitlines():
        if line.startswith(MARK_IMPORT):
            current = "import"
        elif line.startswith(MARK):
            current = "first_call"
        elif current and line.startswith("import time:") and "self [us]" not in line:
            _self_us, cum_us, name = line[len("import time:"):].split("|", 2)
            depth = (len(name) - len(name.lstrip()) - 1) // 2
            phases[current].append((int(cum_us), depth, name.strip()))
    out = {}
    for phase, rows in phases.items():
        shallow = sorted((r for r in rows if r[1] <= 1), reverse=True)[:top]
        out[phase] = [{"module": n, "cumulative_ms": round(c / 1000, 1)} for c, _, n in shallow]
        out[f"{phase}_total_ms"] = round(sum(c for c, d, _ in rows if d == 0) / 1000, 1)
    return out


def run(reps: int = 5, importtime: bool = True) -> dict:
    import statistics
    import tempfile

    from bench.common import embedded_aws, fig, summary_ms

    with embedded_aws() as aws, tempfile.TemporaryDirectory(prefix="convmem-cold-") as tmp:
        # Sets 0..reps-1: plain inits; reps..2*reps-1: SnapStart inits (api); the last: -X importtime.
        events = _prepare(aws, 2 * reps + int(importtime))
        out: dict = {"how": ("per function, REPS fresh `python -m bench.cold_start --child` processes with the function's "
                             "template environment against moto server: import_ms = importlib.import_module of app.py "
                             "with CodeUri and the layer on sys.path (Lambda's init, without the runtime's own start); "
                             "first_call_ms = the first handler call (lazy imports, boto3 clients, secrets, keyring, "
                             "tiktoken, KMS for the user's branch key); second_call_ms = the next call in the same "
                             "process; process_ms = the whole child process from spawn to exit"),
               "reps": reps}
        for name in FUNCTIONS:
            runs = [_spawn(aws, name, events[name][rep], tmp) for rep in range(reps)]
            results = [r for r, _, _ in runs]
            for r in results:
                for call in r["calls"]:
                    res = call["result"]
                    ok = (res.get("statusCode") == 200) if "statusCode" in res else (res == {"batchItemFailures": []})
                    if not ok:
                        raise RuntimeError(f"{name}: call failed: {res}")
            imports = [r["import_ms"] for r in results]
            first = [r["calls"][0]["ms"] for r in results]
            second = [r["calls"][1]["ms"] for r in results]
            stderr = _spawn(aws, name, events[name][2 * reps][:1], tmp, importtime=True)[1] if importtime else ""
            median_import = statistics.median(imports)
            out[name] = {
                "import_ms": fig(round(median_import, 1), "ms", f"median of {reps} fresh processes", goal="< 1000",
                                 met=median_import < 1000, all=[round(x, 1) for x in imports]),
                "first_call_ms": fig(round(statistics.median(first), 1), "ms", f"median of {reps}", all=[round(x, 1) for x in first]),
                "second_call_ms": fig(round(statistics.median(second), 1), "ms", f"median of {reps}"),
                "process_ms": summary_ms([w for _, _, w in runs]),
                "modules_after_import": results[0]["modules_after_import"],
                "modules_after_first_call": results[0]["modules_after_calls"],
                "heaviest_imports": _heaviest(stderr) if importtime else None,
            }
        out["snapstart"] = _snapstart(aws, events, tmp, reps)
        return out


SNAPSTART = ("api",)  # the functions template.yaml runs with SnapStart (the user-facing one)
FIRST_TURN_GOAL_MS = 300


def _snapstart(aws: object, events: dict, tmp: str, reps: int) -> dict:
    """Each SnapStart function in REPS fresh processes whose init primes (as a snapshot's does),
    then runs the after-restore hook, then serves its first and second call."""
    import statistics

    from bench.common import fig

    out: dict = {"how": ("fresh processes with CONVMEM_PRIME_AT_INIT=1 (what AWS_LAMBDA_INITIALIZATION_TYPE=snap-start "
                         "does): init_and_priming_ms = import of app.py, which builds the services and primes them "
                         "(absorbed by the snapshot: paid once per published version); restore_hook_ms = "
                         "convmem.snapstart.renew() as the after-restore hook runs it; first_call_ms = the first call "
                         "after it, what a restored instance still pays (its AWS calls: the secret, the user's branch "
                         "key from the key store and KMS, the turn's reads and writes)")}
    for name in SNAPSTART:
        runs = [_spawn(aws, name, events[name][reps + rep], tmp, primed=True)[0] for rep in range(reps)]
        for r in runs:
            if any(call["result"].get("statusCode") != 200 for call in r["calls"]):
                raise RuntimeError(f"{name} (primed): call failed: {[c['result'] for c in r['calls']]}")
        init = [r["import_ms"] for r in runs]
        first = [r["calls"][0]["ms"] for r in runs]
        median_first = statistics.median(first)
        out[name] = {
            "init_and_priming_ms": fig(round(statistics.median(init), 1), "ms", f"median of {reps}", all=[round(x, 1) for x in init]),
            "restore_hook_ms": fig(round(statistics.median(r["restore_ms"] for r in runs), 2), "ms", f"median of {reps}"),
            "first_call_ms": fig(round(median_first, 1), "ms", f"median of {reps}", goal=f"< {FIRST_TURN_GOAL_MS}",
                                 met=median_first < FIRST_TURN_GOAL_MS, all=[round(x, 1) for x in first]),
            "second_call_ms": fig(round(statistics.median(r["calls"][1]["ms"] for r in runs), 1), "ms", f"median of {reps}"),
            "modules_after_init": runs[0]["modules_after_import"],  # (the lazy work priming moved into init, counted)
        }
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("reps", nargs="?", type=int, default=5)
    parser.add_argument("--child")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return
    result = run(args.reps)
    from bench.common import emit

    emit(result, args.out)


if __name__ == "__main__":
    main()
