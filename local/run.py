"""`make run`: the service on an embedded AWS with the offline model.

Starts moto server, creates the template's resources there, and serves the HTTP API by turning
each request into an API Gateway HTTP API event for functions/api/app.py (with the template's
CORS configuration), plus the widget demo page at /. Ctrl-C stops it all.
"""

from __future__ import annotations

import os
import secrets
import signal
import sys

from local.apigw import StaticFiles, cors_config, make_server
from local.aws import create_resources, start_moto, stop_moto, use_aws
from local.lambda_runtime import load_handler
from local.pollers import QueuePoller, sqs_sources
from local.scheduler import Schedule, schedule_sources
from local.template import load_template


def main() -> int:
    aws_port = int(os.environ.get("CONVMEM_AWS_PORT", "4566"))
    port = int(os.environ.get("PORT", "3000"))
    api_key = os.environ.get("CONVMEM_API_KEY") or secrets.token_urlsafe(24)
    os.environ.setdefault("CONVMEM_MODEL_PROVIDER", "local")

    moto = start_moto(aws_port)
    try:
        use_aws(aws_port)
        template = load_template()
        resolver = create_resources(template, secret_values={"ApiKeySecret": api_key})
        api = load_handler(template, "ApiFunction", resolver)
        # CORS as the template's HttpApi configures it; the widget demo page at / (local only).
        server = make_server(port, api, cors=cors_config(template, resolver), static=StaticFiles.widget())
        import boto3

        sqs = boto3.client("sqs")
        workers: list[QueuePoller | Schedule] = [
            QueuePoller(src, resolver, load_handler(template, src.function, resolver), sqs) for src in sqs_sources(template)
        ]
        workers += [Schedule(src, load_handler(template, src.function, resolver)) for src in schedule_sources(template)]
        for p in workers:
            p.start()

        def stop(_sig: int, _frame: object) -> None:
            raise KeyboardInterrupt

        # Ctrl-C and SIGTERM both stop the stack, also when it was started with SIGINT ignored (a
        # background job of a non-interactive shell: Python then installs no KeyboardInterrupt of its own)
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        print(
            f"convmem is running\n"
            f"  widget demo:  http://127.0.0.1:{port}/\n"
            f"  API:          http://127.0.0.1:{port}/v1/health\n"
            f"  API key:      {api_key}   (x-api-key; set CONVMEM_API_KEY to choose it)\n"
            f"  embedded AWS: http://127.0.0.1:{aws_port} (region us-east-1, any access key)\n"
            f"  stop:         Ctrl-C",
            flush=True,
        )
        try:
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
        finally:
            for p in workers:
                p.stop()
            server.server_close()
    finally:
        stop_moto(moto)
        print("convmem stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
