"""moto server for the long benchmark runs: the local stack's own (local/moto_server.py, which
serialises DynamoDB and applies local/moto_patches.py).

    python -m bench.moto_server PORT
"""

from __future__ import annotations

from local.moto_patches import patch_moto  # noqa: F401 - bench.moto_scaling compares stock and patched


def main() -> None:
    import local.moto_server

    local.moto_server.main()


if __name__ == "__main__":
    main()
