"""docs/api.md and the OpenAPI document the code generates say the same routes and statuses.

docs/api.md is what a user reads before calling; /v1/openapi.json is what clients and the fuzzing
tests are generated from. A route served but not documented, documented but not served, or a
status one of them forgets, would send a user to a call that fails in a way nobody told them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
API_MD = ROOT / "docs" / "api.md"

# Served and documented, but outside the OpenAPI document (it is the document).
NOT_IN_SCHEMA = {"GET /v1/openapi.json"}

ROW = re.compile(r"^\| `(GET|POST|PUT|PATCH|DELETE) (/v1/[^`]*)` \|(.*)\|(.*)\|(.*)\|\s*$")


def documented_routes() -> dict[str, set[int]]:
    """Each route of the Routes table in docs/api.md with its statuses (success and errors)."""
    routes: dict[str, set[int]] = {}
    for line in API_MD.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            method, path, _what, success, errors = m.groups()
            statuses = {int(s) for s in re.findall(r"\b([1-5]\d\d)\b", errors)}
            statuses.add(int(re.match(r"\s*(\d{3})", success).group(1)))
            routes[f"{method} {path.split('?')[0]}"] = statuses
    return routes


@pytest.fixture()
def openapi(handler) -> dict[str, set[int]]:
    """Each route of the served /v1/openapi.json with the statuses it declares."""
    from tests.functional.conftest import load_event

    event = load_event("api_health.json")
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/v1/openapi.json"
    response = handler(event)
    assert response["statusCode"] == 200
    doc = json.loads(response["body"])
    return {f"{method.upper()} {path}": {int(s) for s in op["responses"]}
            for path, ops in doc["paths"].items() for method, op in ops.items()}


def test_the_routes_table_is_read():
    routes = documented_routes()
    assert "POST /v1/sessions/{sessionId}/turns" in routes and routes["GET /v1/health"] == {200}


def test_every_served_route_is_documented_and_every_documented_route_is_served(openapi):
    documented = set(documented_routes())
    assert set(openapi) - documented == set(), "served but not in docs/api.md"
    assert documented - set(openapi) - NOT_IN_SCHEMA == set(), "in docs/api.md but not served"


def test_every_status_a_route_answers_is_documented_for_that_route(openapi):
    documented = documented_routes()
    for route, statuses in openapi.items():
        assert documented[route] == statuses, route


def test_every_status_in_the_routes_table_is_explained_in_the_errors_table():
    text = API_MD.read_text(encoding="utf-8")
    errors = text[text.index("## Errors"):]
    explained = {int(s) for s in re.findall(r"^\| (\d{3}) \|", errors, flags=re.M)}
    used = {s for statuses in documented_routes().values() for s in statuses if s >= 400}
    assert used <= explained, sorted(used - explained)


def test_routes_outside_the_schema_are_served(handler):
    from tests.functional.conftest import load_event

    for route in NOT_IN_SCHEMA:
        method, path = route.split(" ", 1)
        event = load_event("api_health.json")
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = method
        assert handler(event)["statusCode"] == 200, route
