"""Every log line stays one JSON object with ids only, also what libraries log (issue 15, item 6).

The Encryption SDK logs "Error on closing" with a traceback (``_LOGGER.exception``) when a
stream it decrypts fails to close, as a ciphertext whose key an erasure destroyed or a cut-off
one does. In Lambda the runtime's root handler would print that as multi-line text."""

from __future__ import annotations

import io
import json
import logging

import convmem.observability  # noqa: F401 - every function imports it first, as here
import pytest
from convmem.adapters.encryption import DecryptionError

from tests.functional.test_encryption import CTX, make_cipher  # noqa: F401 (fixture)


@pytest.fixture()
def lambda_root_handler():
    """What the Lambda Python runtime installs on the root logger: plain text, tracebacks included."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("[%(levelname)s]\t%(asctime)s\t%(message)s"))
    logging.getLogger().addHandler(handler)
    yield stream
    logging.getLogger().removeHandler(handler)


def test_the_sdks_error_on_closing_is_one_json_line_without_traceback(make_cipher, lambda_root_handler, capsys):  # noqa: F811
    cipher = make_cipher()
    ct = cipher.encrypt("my secret order A-991", **CTX)
    with pytest.raises(DecryptionError):
        make_cipher().decrypt(ct[:-20], **CTX)  # cut off: the SDK fails, then fails to close its stream

    out = capsys.readouterr().out
    records = [json.loads(line) for line in out.splitlines() if line.strip()]  # every line one JSON object
    closing = [r for r in records if r["message"] == "Error on closing"]
    assert closing and closing[0]["level"] == "ERROR" and closing[0]["error"]
    assert "Traceback" not in out and "A-991" not in out
    assert "Traceback" not in lambda_root_handler.getvalue() and "Error on closing" not in lambda_root_handler.getvalue()
