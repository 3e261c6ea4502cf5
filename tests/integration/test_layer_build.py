"""The shared layer built as Lambda runs it (python3.12, arm64), as `make build-check` does.

Downloads the layer's wheels from the package registry on the first run (a build step, as
`make test` creates its virtualenv); build/pip-cache keeps them, so later runs install from disk.
"""

from __future__ import annotations

import pytest

from local import build_check

pytestmark = pytest.mark.integration


def test_every_dependency_resolves_to_aarch64_cp312_wheels_and_the_layer_fits(tmp_path):
    report = build_check.run(target=tmp_path / "layer")  # raises BuildCheckError on any misfit
    # The native wheels the functions import at their first call are all there, for arm64.
    natives = {d.split("-")[0].lower() for d in report["native_wheels"]}
    assert {"cryptography", "pydantic_core", "tiktoken", "regex", "cffi"} <= natives
    assert all(path.endswith((".cpython-312-aarch64-linux-gnu.so", ".abi3.so")) for path in report["native_modules"])
    assert report["unzipped_mb"] < 200 < report["limit_mb"]
    assert (tmp_path / "layer" / "python" / "convmem" / "snapstart.py").exists()  # the core package is in it


def test_sam_build_builds_the_same_layer_where_python312_or_docker_exists():
    if not (build_check.ROOT / ".venv-sam" / "bin" / "sam").exists():
        pytest.skip("no .venv-sam (make test creates it)")
    if not build_check.python312() and not build_check.docker_running():
        pytest.skip("neither a python3.12 nor a running Docker daemon: sam build cannot build python3.12 here")
    result = build_check.sam_build(max_mb=200)
    assert result["native_modules"] >= 8 and result["unzipped_mb"] < 200
