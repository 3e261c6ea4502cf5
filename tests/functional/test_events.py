"""Every file in events/ through `make invoke`'s code path (local/invoke.py) on a fresh embedded
AWS (moto in-process, resources from template.yaml): the function the template wires to the
event's shape, seeded the way `make invoke` seeds a throwaway AWS."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from local import invoke
from local.template import functions
from tests.functional.conftest import EVENTS

EVENT_FILES = sorted(EVENTS.glob("*.json"))


def succeeded(event: dict, result: object) -> bool:
    """2xx for an API event, no batchItemFailures for an SQS batch, a clean run for a schedule."""
    if "requestContext" in event:
        return isinstance(result, dict) and 200 <= result.get("statusCode", 0) < 300
    if "Records" in event:
        return result == {"batchItemFailures": []}
    return isinstance(result, dict) and bool(result) and result.get("failed") == 0


@pytest.mark.parametrize("path", EVENT_FILES, ids=lambda p: p.stem)
def test_every_event_succeeds_on_a_fresh_embedded_aws(aws, path: Path) -> None:
    template, resolver = aws
    event = invoke.load_event(path)
    function = invoke.function_for_event(template, resolver, event)
    assert function is not None, f"no template function takes {path.name}"

    done = invoke.run_file(template, resolver, function, event, invoke.default_seeds(event, throwaway=True))

    assert done.ok, json.dumps(done.output(), default=str)[:2000]
    assert succeeded(event, done.result), done.result
    if "requestContext" in event and done.result.get("body"):
        assert isinstance(json.loads(done.result["body"]), dict)


def test_every_function_has_an_event_named_after_its_folder(aws) -> None:
    template, resolver = aws
    covered = set()
    for path in EVENT_FILES:
        function = invoke.function_for_event(template, resolver, invoke.load_event(path))
        folder = path.stem.split("_")[0]  # api_turn.json -> api, fold_job.json -> fold
        assert invoke.resolve_function(template, folder) == function, path.name
        covered.add(function)
    assert covered == set(functions(template))
    for logical_id in functions(template):
        assert invoke.resolve_function(template, logical_id) == logical_id


def test_only_events_that_read_a_session_are_seeded() -> None:
    seeded = {p.name for p in EVENT_FILES if invoke.default_seeds(invoke.load_event(p), throwaway=True)}
    assert seeded == {"api_get_session.json", "api_messages.json", "api_delete_session.json",
                      "fold_job.json", "facts_job.json"}
    assert not any(invoke.default_seeds(invoke.load_event(p), throwaway=False) for p in EVENT_FILES)


def test_a_raising_handler_is_an_error_not_a_result(aws) -> None:
    template, resolver = aws
    done = invoke.invoke(template, resolver, "ApiFunction", {})
    assert not done.ok
    assert done.output()["errorType"] == "KeyError"
    assert done.output()["stackTrace"]
