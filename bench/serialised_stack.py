"""`python -m local.run` with one change: the API handler serves one request at a time.

This is the fix proposed for local/apigw.py, applied from outside so the load benchmark can show
the local stack's numbers with and without it. Powertools keeps the request being resolved in a
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

import bench.common  # noqa: F401 - puts the layer and the repo on sys.path
import local.apigw


def main() -> int:
    make_server = local.apigw.make_server
    lock = threading.Lock()

    def serialised_server(port: int, handler: Any, *args: Any, **kwargs: Any) -> Any:
        def one_at_a_time(event: dict, context: Any) -> Any:
            with lock:
                return handler(event, context)

        return make_server(port, one_at_a_time, *args, **kwargs)

    local.apigw.make_server = serialised_server  # before local.run binds the name
    return importlib.import_module("local.run").main()


if __name__ == "__main__":
    sys.exit(main())
