"""`make invoke FUNCTION=<logical id or folder> EVENT=events/<file>.json`: one template function on
one event, in-process, the way `sam local invoke` runs it (which needs Docker).

- The handler comes from template.yaml (CodeUri + Handler), the environment from its variables
  (Globals first, then the function's own), the Lambda context from its MemorySize and Timeout.
- The function's return value goes to stdout as JSON; its logs and everything else to stderr.
  When the handler raises, stdout gets Lambda's error JSON and the exit status is 1.

Against which AWS: a running local stack (`make run`; something answers on CONVMEM_AWS_PORT,
default 4566) is used as it is, with its resources found by their names. Otherwise a throwaway
moto server on a free port gets the template's resources, with ApiKeySecret = ``local-dev-key``
(the key the files in events/ carry), and stops when the invoke ends. ``--fresh`` asks for the
throwaway one even when a stack runs.

Prior state: an event that reads a session (GET or DELETE /v1/sessions/<id>..., a fold or facts
job) is preceded, on a throwaway AWS, by events/api_turn.json (sample-user's turn in
sample-session), so every file in events/ works on a fresh embedded AWS. ``--seed FILE``
(repeatable) runs other events first instead, on a running stack too; ``--no-seed`` runs none.
Each seed goes to the function the event's shape names (API, SQS queue or schedule).

Usage: python -m local.invoke FUNCTION EVENT [--seed FILE]... [--no-seed] [--fresh]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import socket
import sys
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local.aws import IN_PROCESS, NO_LOCAL_EFFECT, create_resources, free_port, start_moto, stop_moto, use_aws
from local.lambda_runtime import LambdaContext, function_limits, load_module
from local.template import ROOT, Resolver, TemplateError, env_overrides, function_environment, functions, load_template

EVENTS = ROOT / "events"
EVENTS_API_KEY = "local-dev-key"  # what the files in events/ send as x-api-key
SESSION_SEED = EVENTS / "api_turn.json"
_READS_SESSION = re.compile(r"^/v1/sessions/[^/]+(/messages)?/?$")


@dataclass(frozen=True)
class Invocation:
    """What one invoke gave: the handler's return value, or the exception it raised."""

    function: str
    result: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def output(self) -> Any:
        """What `sam local invoke` prints: the return value, or Lambda's error document."""
        if self.error is None:
            return self.result
        return {
            "errorMessage": str(self.error),
            "errorType": type(self.error).__name__,
            "stackTrace": traceback.format_tb(self.error.__traceback__)[1:],  # from the handler on
        }


# --- which function ---------------------------------------------------------------------------
def resolve_function(template: dict[str, Any], name: str) -> str:
    """The logical id for ``name``: a logical id (ApiFunction) or the folder of its CodeUri (api)."""
    ids = functions(template)
    if name in ids:
        return name
    by_folder = {
        Path(str(template["Resources"][f]["Properties"].get("CodeUri", ""))).name: f for f in ids
    }
    if name.rstrip("/").split("/")[-1] in by_folder:
        return by_folder[name.rstrip("/").split("/")[-1]]
    choices = ", ".join(f"{f} ({Path(str(template['Resources'][f]['Properties']['CodeUri'])).name})" for f in ids)
    raise SystemExit(f"invoke: no function {name!r} in template.yaml; one of: {choices}")


def function_for_event(template: dict[str, Any], resolver: Resolver, event: Any) -> str | None:
    """The function the template wires to an event of this shape: HttpApi for an API Gateway
    payload, the consumer of the record's queue for SQS, the Schedule event's for EventBridge."""
    if not isinstance(event, dict):
        return None
    records = event.get("Records") or []
    if records and isinstance(records[0], dict) and records[0].get("eventSource") == "aws:sqs":
        arn = records[0].get("eventSourceARN", "")
        queue_name = arn.rsplit(":", 1)[-1]
        for logical in functions(template):
            for ev in template["Resources"][logical]["Properties"].get("Events", {}).values():
                if ev.get("Type") != "SQS":
                    continue
                queue = ev["Properties"]["Queue"]["Fn::GetAtt"]
                queue_id = queue[0] if isinstance(queue, list) else queue.split(".")[0]
                if resolver.attrs.get((queue_id, "QueueName")) == queue_name:
                    return logical
        return None
    if "requestContext" in event:
        wanted = {"HttpApi", "Api"}
    elif event.get("detail-type") == "Scheduled Event":
        wanted = {"Schedule", "ScheduleV2"}
    else:
        return None
    for logical in functions(template):
        kinds = {ev.get("Type") for ev in template["Resources"][logical]["Properties"].get("Events", {}).values()}
        if kinds & wanted:
            return logical
    return None


# --- which AWS --------------------------------------------------------------------------------
def port_answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def attach_resources(template: dict[str, Any], stack_name: str = "convmem-local") -> Resolver:
    """A resolver for the resources a running local stack created (local/aws.py names them
    ``<stack>-<logical id>``), looked up on the embedded AWS instead of created. Fails loudly
    when one is missing: that port is then not a convmem local stack."""
    import boto3

    resolver = Resolver(template, stack_name=stack_name)
    resolver.overrides.setdefault("ModelProvider", os.environ.get("CONVMEM_MODEL_PROVIDER", "local"))
    env_overrides(resolver)
    ddb, sqs, sm, kms = (boto3.client(n) for n in ("dynamodb", "sqs", "secretsmanager", "kms"))
    keys = None
    for logical, res in template["Resources"].items():
        kind, props, name = res["Type"], res.get("Properties", {}), f"{stack_name}-{logical}"
        try:
            if kind in IN_PROCESS or kind in NO_LOCAL_EFFECT:
                resolver.refs[logical] = name
            elif kind == "AWS::DynamoDB::Table":
                resolver.refs[logical] = name
                resolver.attrs[(logical, "Arn")] = ddb.describe_table(TableName=name)["Table"]["TableArn"]
            elif kind == "AWS::SQS::Queue":
                queue = name + (".fifo" if str(props.get("FifoQueue", "false")).lower() == "true" else "")
                url = sqs.get_queue_url(QueueName=queue)["QueueUrl"]
                arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
                resolver.refs[logical] = url
                resolver.attrs.update({(logical, "Arn"): arn, (logical, "QueueName"): queue, (logical, "QueueUrl"): url})
            elif kind == "AWS::SecretsManager::Secret":
                resolver.refs[logical] = sm.describe_secret(SecretId=name)["ARN"]
            elif kind == "AWS::KMS::Key":
                if keys is None:
                    keys = [kms.describe_key(KeyId=k["KeyId"])["KeyMetadata"] for k in kms.list_keys()["Keys"]]
                match = [k for k in keys if k.get("Description") == props.get("Description", logical)]
                if len(match) != 1:
                    raise TemplateError(f"{len(match)} KMS keys described {props.get('Description')!r}")
                resolver.refs[logical] = match[0]["KeyId"]
                resolver.attrs[(logical, "Arn")] = match[0]["Arn"]
            else:
                raise TemplateError(f"resource type {kind} is not emulated by the local stack")
        except TemplateError as exc:
            raise TemplateError(f"{logical}: {exc}") from None
        except Exception as exc:  # botocore's not-found errors differ by service
            raise TemplateError(
                f"{logical} ({name}) not found on the embedded AWS: is this a convmem local stack? "
                f"({type(exc).__name__}); use --fresh for a throwaway one") from None
    return resolver


@contextlib.contextmanager
def embedded_aws(template: dict[str, Any], *, fresh: bool) -> Iterator[tuple[Resolver, bool]]:
    """(resolver, is_throwaway): the running local stack's AWS, or a throwaway moto server."""
    port = int(os.environ.get("CONVMEM_AWS_PORT", "4566"))
    if not fresh and port_answers(port):
        use_aws(port)
        _say(f"embedded AWS: the running local stack's on 127.0.0.1:{port}")
        yield attach_resources(template), False
        return
    port = free_port()
    moto = start_moto(port)
    try:
        use_aws(port)
        resolver = create_resources(template, secret_values={"ApiKeySecret": EVENTS_API_KEY})
        _say(f"embedded AWS: a throwaway moto server on 127.0.0.1:{port} with the template's resources "
             f"(ApiKeySecret = {EVENTS_API_KEY}); it stops after this invoke")
        yield resolver, True
    finally:
        stop_moto(moto)


# --- invoking ---------------------------------------------------------------------------------
@contextlib.contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    """The function's environment for the length of one invoke (the next function gets its own)."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def context_for(template: dict[str, Any], logical_id: str) -> LambdaContext:
    memory, timeout = function_limits(template, logical_id)
    return LambdaContext(logical_id, memory_limit_in_mb=memory, timeout_s=timeout)


def invoke(template: dict[str, Any], resolver: Resolver, logical_id: str, event: Any) -> Invocation:
    """Run ``logical_id``'s handler on ``event`` as a new Lambda instance would: its module imported
    afresh from CodeUri under the template's environment."""
    with _environment(function_environment(template, logical_id, resolver)):
        module, name = load_module(template, logical_id, resolver)
        try:
            return Invocation(logical_id, result=getattr(module, name)(event, context_for(template, logical_id)))
        except Exception as exc:
            return Invocation(logical_id, error=exc)


def reads_session(event: Any) -> bool:
    """Whether the event needs a session to exist: a read or delete of one, or a fold / facts job."""
    if not isinstance(event, dict):
        return False
    http = (event.get("requestContext") or {}).get("http") or {}
    if http:
        return http.get("method") in ("GET", "DELETE") and bool(_READS_SESSION.match(event.get("rawPath", "")))
    for record in event.get("Records") or []:
        try:
            if "sessionId" in json.loads(record.get("body") or "{}"):
                return True
        except (ValueError, AttributeError):
            continue
    return False


def default_seeds(event: Any, throwaway: bool) -> list[Path]:
    """Events to run first: on a throwaway AWS, a turn in sample-session when the event reads one."""
    return [SESSION_SEED] if throwaway and reads_session(event) else []


def load_event(path: str | Path) -> Any:
    if str(path) == "-":
        return json.load(sys.stdin)
    return json.loads(Path(path).read_text(encoding="utf-8"))


def run_file(template: dict[str, Any], resolver: Resolver, logical_id: str, event: Any, seeds: list[Path]) -> Invocation:
    """The seeds (each to the function its shape names; one that fails stops the run), then the event."""
    for seed in seeds:
        seed_event = load_event(seed)
        target = function_for_event(template, resolver, seed_event)
        if target is None:
            raise SystemExit(f"invoke: seed {seed}: no template function takes an event of this shape")
        done = invoke(template, resolver, target, seed_event)
        status = done.result.get("statusCode") if done.ok and isinstance(done.result, dict) else None
        _say(f"seed: {_rel(seed)} -> {target}: {'raised ' + type(done.error).__name__ if done.error else status or 'ok'}")
        if done.error is not None or (isinstance(status, int) and status >= 400):
            raise SystemExit(f"invoke: seed {seed} failed: {json.dumps(done.output(), default=str)[:500]}")
    return invoke(template, resolver, logical_id, event)


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _say(text: str) -> None:
    print(f"[invoke] {text}", file=sys.stderr, flush=True)


def _warn_on_mismatch(template: dict[str, Any], resolver: Resolver, logical_id: str, event: Any, throwaway: bool) -> None:
    expected = function_for_event(template, resolver, event)
    if expected is not None and expected != logical_id:
        _say(f"warning: the template sends events of this shape to {expected}, not {logical_id}")
    key = (event.get("headers") or {}).get("x-api-key") if isinstance(event, dict) else None
    if key is not None and not throwaway:
        import boto3

        actual = boto3.client("secretsmanager").get_secret_value(SecretId=resolver.refs["ApiKeySecret"])["SecretString"]
        if actual != key:
            _say(f"warning: the event's x-api-key is not this stack's API key (expect 401); start the stack with "
                 f"CONVMEM_API_KEY={key} make run, or use --fresh")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.invoke", description=__doc__.split("\n\n")[0])
    parser.add_argument("function", help="logical id (ApiFunction) or folder name (api)")
    parser.add_argument("event", help="event JSON file, or - for stdin")
    parser.add_argument("--seed", action="append", type=Path, default=None, metavar="FILE",
                        help="an event to run first (repeatable; replaces the default seed)")
    parser.add_argument("--no-seed", action="store_true", help="run no seed event")
    parser.add_argument("--fresh", action="store_true", help="a throwaway embedded AWS even if a local stack runs")
    args = parser.parse_args(argv)

    # stdout is for the result only: everything else printed (the function's logs, EMF metrics,
    # warnings) goes to stderr, as `sam local invoke` separates them.
    sys.stdout.flush()
    result_out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

    os.environ.setdefault("CONVMEM_MODEL_PROVIDER", "local")
    template = load_template()
    logical_id = resolve_function(template, args.function)
    event = load_event(args.event)
    with embedded_aws(template, fresh=args.fresh) as (resolver, throwaway):
        _warn_on_mismatch(template, resolver, logical_id, event, throwaway)
        seeds = [] if args.no_seed else args.seed if args.seed is not None else default_seeds(event, throwaway)
        done = run_file(template, resolver, logical_id, event, seeds)
    if done.error is not None:
        traceback.print_exception(done.error, file=sys.stderr)
    result_out.write(json.dumps(done.output(), ensure_ascii=False, default=str) + "\n")
    result_out.flush()
    return 0 if done.ok else 1


if __name__ == "__main__":
    sys.exit(main())
