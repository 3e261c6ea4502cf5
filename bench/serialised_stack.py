"""`python -m local.run` with the three fixes proposed for the local stack, applied from outside so
the load benchmark can show its numbers with and without them:

1. the API handler serves one request at a time (for local/apigw.py);
2. the HTTP server's listen backlog is 128, not socketserver's 5 (for local/apigw.py): 20 clients
   connecting at once otherwise see an occasional "connection reset by peer";
3. the embedded AWS is bench/moto_server.py (for local/moto_server.py): DynamoDB costs and memory
   that do not grow with the table.

On 1: Powertools keeps the request being resolved in a
class attribute (``BaseRouter.current_event``), which is right on Lambda (one request per
instance at a time) but shared by every thread of the local stack's ThreadingHTTPServer: two
concurrent turns can read each other's headers and path, so one caller's turn runs as another
user or on another session. Serialising the handler makes the emulation one Lambda instance.
Static files and CORS preflights stay concurrent (they never reach the handler).

    .venv/bin/python -m bench.serialised_stack      (same environment as `python -m local.run`)
"""

from __future__ import annotations

import importlib
import sys
import threading
from typing import Any

import local.apigw
import local.aws
from bench.common import start_moto  # also puts the layer and the repo on sys.path


def main() -> int:
    make_server = local.apigw.make_server
    lock = threading.Lock()

    def serialised_server(port: int, handler: Any, *args: Any, **kwargs: Any) -> Any:
        def one_at_a_time(event: dict, context: Any) -> Any:
            with lock:
                return handler(event, context)

        return make_server(port, one_at_a_time, *args, **kwargs)

    local.apigw.make_server = serialised_server  # before local.run binds the names
    local.apigw.ThreadingHTTPServer.request_queue_size = 128  # socketserver's default listen backlog is 5
    local.aws.start_moto = lambda port: start_moto(port, scaled=True)
    return importlib.import_module("local.run").main()


if __name__ == "__main__":
    sys.exit(main())
