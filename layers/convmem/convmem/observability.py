"""Logger and Metrics shared by every handler. Log ids and counts, never conversation text.

Tracer is left out on purpose: importing it costs ~165 ms (aws_xray_sdk) at every cold start.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics

logger = Logger(service="convmem")
metrics = Metrics(namespace="convmem", service="convmem")
