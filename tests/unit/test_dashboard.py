"""The operations dashboard of template.yaml shows what the code emits (a widget on a metric name
nobody emits is an empty graph the day it is needed) and watches every queue and dead-letter queue."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cfnlint.decode import cfn_yaml

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = cfn_yaml.load(str(ROOT / "template.yaml"))


def _widgets() -> list[dict]:
    body = TEMPLATE["Resources"]["OperationsDashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]
    names = set(re.findall(r"\$\{([^}]+)\}", body))
    for name in names:  # every substitution names a parameter, a resource (or its attribute) or a pseudo parameter
        ref = name.split(".")[0]
        assert ref in TEMPLATE["Resources"] or ref in TEMPLATE["Parameters"] or ref.startswith("AWS::"), name
    return json.loads(re.sub(r"\$\{[^}]+\}", "SUBSTITUTED", body))["widgets"]


def _metrics() -> list[list]:
    out, last = [], None
    for w in _widgets():
        for m in w["properties"].get("metrics", []):
            plain = [x for x in m if not isinstance(x, dict)]
            if plain and plain[0] == "...":
                plain = last
            out.append(plain)
            last = plain
    return out


def _emitted() -> set[str]:
    """Metric names the handlers and the core pass to add_metric (literals, or each literal of a conditional)."""
    code = "".join(p.read_text() for p in [*ROOT.glob("functions/**/*.py"), *ROOT.glob("layers/convmem/convmem/**/*.py")])
    return {name for expr in re.findall(r"add_metric\(name=([^,]+),", code) for name in re.findall(r'"(\w+)"', expr)}


def test_every_convmem_metric_on_the_dashboard_is_emitted_by_the_code_with_its_dimension():
    ours = [m for m in _metrics() if m[0] == "convmem"]
    assert {m[1] for m in ours} >= {"TurnsCommitted", "FactsLearnt", "MessagesFolded"}
    emitted = _emitted()
    for m in ours:
        assert m[1] in emitted, f"{m[1]} is on the dashboard but no handler emits it"
        assert m[2:4] == ["service", "convmem"]  # Powertools Metrics(service="convmem") is the only dimension


def test_every_queue_age_and_every_dead_letter_depth_is_watched():
    queues = {k for k, v in TEMPLATE["Resources"].items() if v["Type"] == "AWS::SQS::Queue"}
    body = TEMPLATE["Resources"]["OperationsDashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]
    aged = set(re.findall(r'"ApproximateAgeOfOldestMessage", "QueueName", "\$\{(\w+)\.QueueName\}"', body))
    depth = set(re.findall(r'"ApproximateNumberOfMessagesVisible", "QueueName", "\$\{(\w+)\.QueueName\}"', body))
    assert aged == {q for q in queues if "DeadLetter" not in q}
    assert depth == {q for q in queues if "DeadLetter" in q}


def test_the_api_widgets_cover_latency_percentiles_errors_by_code_and_throttles():
    metrics = _metrics()
    stats = {w_m.get("stat") for w in _widgets() for m in w["properties"].get("metrics", []) for w_m in m if isinstance(w_m, dict)}
    assert {"p50", "p90", "p99"} <= stats
    assert {("AWS/ApiGateway", "4xx"), ("AWS/ApiGateway", "5xx"), ("AWS/Lambda", "Throttles"),
            ("AWS/Bedrock", "InvocationThrottles"), ("AWS/DynamoDB", "WriteThrottleEvents")} <= {(m[0], m[1]) for m in metrics}
    queries = " ".join(w["properties"].get("query", "") for w in _widgets())
    assert "by status" in queries and "by code" in queries  # 4xx/5xx by status, 5xx by error code


def test_the_access_log_carries_no_path_query_or_body():
    fmt = TEMPLATE["Resources"]["HttpApi"]["Properties"]["AccessLogSettings"]["Format"]
    fields = json.loads(re.sub(r"\$context\.\w+", "0", fmt))
    assert "status" in fields
    assert not re.search(r"\$context\.(path|requestPath|routeKey\.path|identity\.sourceIp)|querystring|body", fmt, re.I)
