"""Logger and Metrics shared by every handler. Log ids and counts, never conversation text.

Tracer is left out on purpose: importing it costs ~165 ms (aws_xray_sdk) at every cold start.

Libraries that log on their own (the Encryption SDK logs "Error on closing" with a traceback when a
stream fails to close, e.g. a ciphertext whose key an erasure destroyed) would reach the Lambda
runtime's root handler as multi-line text. Their records go through the same JSON formatter
instead, one line each: level, the library's fixed message and the exception's type, never a
traceback, the message's arguments or the exception's text.
"""

from __future__ import annotations

import logging
import sys

from aws_lambda_powertools import Logger, Metrics

logger = Logger(service="convmem")
metrics = Metrics(namespace="convmem", service="convmem")

THIRD_PARTY_LOGGERS = ("aws_encryption_sdk", "aws_cryptographic_material_providers")


class _IdsOnly(logging.Filter):
    """A library's record reduced to what is safe and fits one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[0] is not None:
            record.error = record.exc_info[0].__name__
        record.msg = str(record.msg).splitlines()[0] if str(record.msg).strip() else "library log"
        record.args = ()
        record.exc_info = record.exc_text = record.stack_info = None
        return True


class _Stdout(logging.StreamHandler):
    """Writes to whatever ``sys.stdout`` is at the time (as Powertools' own handler does in Lambda)."""

    @property
    def stream(self):
        return sys.stdout

    @stream.setter
    def stream(self, _value: object) -> None:
        pass


def _route_third_party() -> None:
    handler = _Stdout()
    handler.setFormatter(logger.registered_formatter)
    handler.addFilter(_IdsOnly())
    for name in THIRD_PARTY_LOGGERS:
        target = logging.getLogger(name)  # created now if the library is not imported yet: same object later
        target.handlers = [handler]
        target.setLevel(logging.WARNING)
        target.propagate = False


_route_third_party()
