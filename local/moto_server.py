"""moto server with DynamoDB made atomic under concurrency.

moto applies TransactWriteItems by snapshotting tables and restoring the snapshot when a
condition fails; two requests running at once in moto's threaded server can restore over
each other's writes, which real DynamoDB never does. This launcher serialises DynamoDB
requests (one at a time, as a single partition would) and leaves every other service
threaded, so SQS long polls do not block the API. It also applies local/moto_patches.py, so a
long ``make run`` does not slow down and grow with every turn (CONVMEM_STOCK_MOTO=1: stock moto).

Usage: python -m local.moto_server PORT
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

_DYNAMODB_LOCK = threading.Lock()


class SerialDynamoDB:
    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB_"):
            with _DYNAMODB_LOCK:
                return list(self.app(environ, start_response))
        return self.app(environ, start_response)


def main() -> None:
    port = int(sys.argv[1])
    os.environ.setdefault("MOTO_PORT", str(port))
    if os.environ.get("CONVMEM_STOCK_MOTO") != "1":
        from local.moto_patches import patch_moto

        patch_moto()  # DynamoDB cost per request independent of the table's size (see the module)
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
    from werkzeug.serving import run_simple

    app = DomainDispatcherApplication(create_backend_app)
    run_simple("127.0.0.1", port, SerialDynamoDB(app), threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
