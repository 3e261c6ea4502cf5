"""The layer built as Lambda runs it (python3.12 on arm64), checked offline: `make build-check`.

Every function imports the shared layer; a wheel built for the wrong interpreter or machine only
fails on AWS, at the first invocation, as an ImportError. This builds the layer the way `sam build`
does for the template's runtime and architecture and checks it on this machine:

1. pip installs ``layers/convmem/requirements.txt`` (with ``constraints.txt``, the pins the tests
   ran with) for CPython 3.12 on manylinux aarch64, binary wheels only, into
   ``build/layer/python`` (the layer's ``/opt/python``), then copies the ``convmem`` package beside
   them. The platforms are the ones Lambda's python3.12 accepts, as SAM's builder lists them:
   manylinux2014 (glibc 2.17) up to manylinux_2_34 (Amazon Linux 2023's glibc 2.34). A plain
   ``--platform manylinux2014_aarch64`` is not enough: tiktoken 0.14 ships its aarch64 wheel only
   as manylinux_2_28.
2. Every installed distribution's wheel tags must fit CPython 3.12 on Linux aarch64 with glibc
   <= 2.34 (``py3-none-any``, ``cp312-cp312-...``, ``cp3X-abi3-...`` with X <= 12).
3. Every native module (``*.so``) must be a 64-bit little-endian ELF for AArch64, and one built for
   a CPython version must name 3.12 (``.cpython-312-aarch64-linux-gnu.so``) or the stable ABI.
4. Every ``Requires-Dist`` of every installed distribution (markers evaluated for python3.12 on
   Linux aarch64, extras the installed set asked for) is satisfied by an installed version.
5. The unzipped layer must stay under ``--max-mb`` (default 200: Lambda allows 250 MB unzipped for
   a function and all its layers, and the functions' own code must fit beside it).

Downloads come from the package registry (a build step, as `make test` creates its virtualenv);
``build/pip-cache`` keeps the wheels, so a second run installs from disk.

With ``--sam`` it also runs the SAM CLI's own `sam build` (`.venv-sam`) when a python3.12 or a
Docker daemon is available, and checks the built layer's native modules the same way; without
either it says why it skipped.

    .venv/bin/python -m local.build_check [--max-mb 200] [--sam] [--json]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LAYER_SRC = ROOT / "layers" / "convmem"
BUILD = ROOT / "build"
PIP_CACHE = BUILD / "pip-cache"

PYTHON_VERSION = (3, 12)
MAX_GLIBC = (2, 34)  # Amazon Linux 2023, the OS of Lambda's python3.12
PLATFORMS = ["manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64", "manylinux_2_34_aarch64"]
LAMBDA_UNZIPPED_LIMIT_MB = 250
EM_AARCH64 = 183  # ELF e_machine
MARKER_ENV = {"python_version": "3.12", "python_full_version": "3.12.0", "implementation_name": "cpython",
              "platform_python_implementation": "CPython", "sys_platform": "linux", "platform_system": "Linux",
              "platform_machine": "aarch64", "os_name": "posix"}


class BuildCheckError(Exception):
    """The layer would not import on Lambda (or does not fit)."""


def build_layer(target: Path, python: str = sys.executable) -> float:
    """pip install the layer's requirements for python3.12 / aarch64 into ``target``/python; returns seconds."""
    if target.exists():
        shutil.rmtree(target)
    site = target / "python"
    cmd = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
           "--implementation", "cp", "--python-version", ".".join(map(str, PYTHON_VERSION)), "--only-binary=:all:",
           *[arg for p in PLATFORMS for arg in ("--platform", p)],
           "--target", str(site), "--cache-dir", str(PIP_CACHE),
           "-r", str(LAYER_SRC / "requirements.txt"), "-c", str(ROOT / "constraints.txt")]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        errors = [line for line in proc.stderr.splitlines() if not line.startswith("WARNING: Location")]
        raise BuildCheckError("pip could not resolve the layer for python3.12 / aarch64 (binary wheels only):\n"
                              + "\n".join(errors[-25:]))
    shutil.copytree(LAYER_SRC / "convmem", site / "convmem", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return time.perf_counter() - start


# --- wheel tags -------------------------------------------------------------------------------
def tag_fits(tag: str) -> bool:
    """Whether one wheel tag (``interpreter-abi-platform``) runs on CPython 3.12, Linux aarch64, glibc <= 2.34."""
    interpreter, abi, platform = tag.split("-")
    platform_ok = platform == "any" or _platform_fits(platform)
    if abi == "none":
        return platform_ok and any(i in ("py3", "py312", "cp312") or (i.startswith("py3") and _minor(i[2:]) <= 12)
                                   for i in interpreter.split("."))
    if abi == "abi3":
        return platform_ok and any(i.startswith("cp3") and _minor(i[2:]) <= PYTHON_VERSION[1] for i in interpreter.split("."))
    return platform_ok and abi == "cp312" and "cp312" in interpreter.split(".")


def _minor(version: str) -> int:
    return int(version[1:]) if version[1:].isdigit() else 99


def _platform_fits(platform: str) -> bool:
    legacy = {"manylinux2014_aarch64": (2, 17)}
    if platform in legacy:
        return legacy[platform] <= MAX_GLIBC
    m = re.fullmatch(r"manylinux_(\d+)_(\d+)_aarch64", platform)
    return bool(m) and (int(m[1]), int(m[2])) <= MAX_GLIBC


def wheel_tags(site: Path) -> dict[str, list[str]]:
    """Distribution -> its wheel's tags (from ``*.dist-info/WHEEL``)."""
    out = {}
    for wheel in sorted(site.glob("*.dist-info/WHEEL")):
        out[wheel.parent.name.removesuffix(".dist-info")] = [
            line.split(":", 1)[1].strip() for line in wheel.read_text().splitlines() if line.startswith("Tag:")]
    return out


# --- native modules ---------------------------------------------------------------------------
def elf_machine(path: Path) -> tuple[int, int, int] | None:
    """(ELF class, data encoding, e_machine) of a file, or None when it is not an ELF."""
    with open(path, "rb") as f:
        head = f.read(20)
    if head[:4] != b"\x7fELF":
        return None
    little = head[5] == 1
    return head[4], head[5], int.from_bytes(head[18:20], "little" if little else "big")


def native_modules(site: Path) -> list[dict[str, Any]]:
    """Every ``*.so`` under ``site`` with its ELF header and what its file name says."""
    out = []
    for so in sorted(site.rglob("*.so*")):
        if not so.is_file():
            continue
        header = elf_machine(so)
        name = so.name
        m = re.search(r"\.cpython-(\d+)-([a-z0-9_]+)-linux-gnu\.so$", name)
        out.append({
            "path": str(so.relative_to(site)),
            "elf": header is not None,
            "aarch64": header == (2, 1, EM_AARCH64),  # 64-bit, little-endian, AArch64
            "cpython": m[1] if m else ("abi3" if ".abi3." in name else None),
            "name_machine": m[2] if m else None,
        })
    return out


# --- dependencies -----------------------------------------------------------------------------
def unmet_requirements(site: Path) -> list[str]:
    """``Requires-Dist`` lines of the installed distributions that no installed version satisfies."""
    from email.parser import Parser

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    installed: dict[str, str] = {}
    metas = {}
    for meta in site.glob("*.dist-info/METADATA"):
        msg = Parser().parsestr(meta.read_text(encoding="utf-8", errors="replace"), headersonly=True)
        installed[canonicalize_name(msg["Name"])] = msg["Version"]
        metas[canonicalize_name(msg["Name"])] = msg
    wanted_extras: dict[str, set[str]] = {name: set() for name in installed}
    requirements = [(name, Requirement(r)) for name, msg in metas.items() for r in msg.get_all("Requires-Dist") or []]
    for _ in range(3):  # extras asked for by others may switch on more requirements
        for name, req in requirements:
            if _applies(req, wanted_extras.get(name, set())) and req.extras:
                wanted_extras.setdefault(canonicalize_name(req.name), set()).update(req.extras)
    unmet = []
    for name, req in requirements:
        if not _applies(req, wanted_extras.get(name, set())):
            continue
        have = installed.get(canonicalize_name(req.name))
        if have is None or (req.specifier and not req.specifier.contains(have, prereleases=True)):
            unmet.append(f"{name} requires {req} (installed: {have or 'nothing'})")
    return sorted(set(unmet))


def _applies(req: Any, extras: set[str]) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({**MARKER_ENV, "extra": e}) for e in (extras or {""}) | {""})


def tree_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1_000_000


def check_layer(site: Path, max_mb: float) -> dict[str, Any]:
    """Every check of the module's docstring on a built ``site`` (``/opt/python``); raises on a failure."""
    tags = wheel_tags(site)
    misfit = {dist: t for dist, t in tags.items() if not any(tag_fits(tag) for tag in t)}
    modules = native_modules(site)
    wrong_machine = [m["path"] for m in modules if not m["aarch64"]]
    wrong_python = [m["path"] for m in modules if m["cpython"] not in (None, "abi3", "312")
                    or m["name_machine"] not in (None, "aarch64")]
    unmet = unmet_requirements(site)
    size = round(tree_mb(site), 1)
    problems = []
    if not tags:
        problems.append("no distribution installed")
    if misfit:
        problems.append(f"wheels that do not fit CPython 3.12 / aarch64 / glibc <= 2.34: {misfit}")
    if wrong_machine:
        problems.append(f"native modules that are not 64-bit AArch64 ELF: {wrong_machine}")
    if wrong_python:
        problems.append(f"native modules built for another CPython or machine: {wrong_python}")
    if unmet:
        problems.append(f"unmet requirements: {unmet}")
    if size > max_mb:
        problems.append(f"the unzipped layer is {size} MB, over {max_mb} MB (Lambda: {LAMBDA_UNZIPPED_LIMIT_MB} MB "
                        "for the function and all its layers)")
    if problems:
        raise BuildCheckError("\n".join(problems))
    largest = sorted(((round(tree_mb(p), 1), p.name) for p in site.iterdir() if p.is_dir() and not p.name.endswith("-info")),
                     reverse=True)[:6]
    return {
        "distributions": len(tags),
        "native_modules": [m["path"] for m in modules],
        "native_wheels": {d: t for d, t in tags.items() if not all(x.endswith("-none-any") for x in t)},
        "unzipped_mb": size,
        "limit_mb": LAMBDA_UNZIPPED_LIMIT_MB,
        "largest_packages_mb": {name: mb for mb, name in largest},
    }


# --- sam build ----------------------------------------------------------------------------------
def python312() -> str | None:
    """A python3.12 that runs (a pyenv shim without the version installed does not)."""
    candidates = [shutil.which("python3.12")]
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates += sorted(glob.glob(os.path.join(root, "versions", "3.12*", "bin", "python3.12")))
    for c in candidates:
        if c and subprocess.run([c, "--version"], capture_output=True).returncode == 0:
            return c
    return None


def docker_running() -> bool:
    docker = shutil.which("docker")
    return bool(docker) and subprocess.run([docker, "info"], capture_output=True, timeout=30).returncode == 0


def sam_build(max_mb: float) -> dict[str, Any]:
    """`sam build` with the SAM CLI of .venv-sam, then the native-module and size checks on its layer."""
    sam = ROOT / ".venv-sam" / "bin" / "sam"
    if not sam.exists():
        return {"skipped": "no .venv-sam (make sam-venv creates it)"}
    py = python312()
    container = not py and docker_running()
    if not py and not container:
        return {"skipped": "neither a python3.12 nor a running Docker daemon here: sam build needs one of them "
                           "(the pip check above is the same resolution)"}
    out_dir = BUILD / "sam"
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0"}
    if py:
        env["PATH"] = f"{Path(py).parent}{os.pathsep}{env['PATH']}"
    cmd = [str(sam), "build", "--template", str(ROOT / "template.yaml"), "--build-dir", str(out_dir),
           *(["--use-container"] if container else [])]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        raise BuildCheckError("sam build failed:\n" + (proc.stdout + proc.stderr)[-3000:])
    site = out_dir / "ConvmemLayer" / "python"
    modules = native_modules(site)
    wrong = [m["path"] for m in modules if not m["aarch64"] or m["cpython"] not in (None, "abi3", "312")]
    if wrong:
        raise BuildCheckError(f"sam build's layer holds native modules that will not load on python3.12 / arm64: {wrong}")
    size = round(tree_mb(site), 1)
    if size > max_mb:
        raise BuildCheckError(f"sam build's layer is {size} MB unzipped, over {max_mb} MB")
    return {"with": "container" if container else py, "seconds": round(time.perf_counter() - start, 1),
            "native_modules": len(modules), "unzipped_mb": size}


def run(max_mb: float = 200.0, sam: bool = False, target: Path | None = None) -> dict[str, Any]:
    target = target or BUILD / "layer"
    seconds = build_layer(target)
    report = {"platforms": PLATFORMS, "python": "cp312", "pip_seconds": round(seconds, 1),
              **check_layer(target / "python", max_mb)}
    if sam:
        report["sam_build"] = sam_build(max_mb)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-mb", type=float, default=200.0)
    parser.add_argument("--sam", action="store_true", help="also run sam build where python3.12 or Docker exists")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        report = run(args.max_mb, args.sam)
    except BuildCheckError as exc:
        print(f"build check FAILED:\n{exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"layer for python3.12 / arm64: {report['distributions']} distributions, "
          f"{len(report['native_modules'])} native modules (all AArch64 ELF, cp312 or abi3), "
          f"{report['unzipped_mb']} MB unzipped (Lambda's limit: {report['limit_mb']} MB); pip {report['pip_seconds']} s")
    print("  native wheels: " + ", ".join(f"{d} [{t[0]}]" for d, t in report["native_wheels"].items()))
    print("  largest: " + ", ".join(f"{n} {mb} MB" for n, mb in report["largest_packages_mb"].items()))
    if "sam_build" in report:
        sb = report["sam_build"]
        print("  sam build: " + (f"skipped ({sb['skipped']})" if "skipped" in sb else
                                 f"ok with {sb['with']} in {sb['seconds']} s, layer {sb['unzipped_mb']} MB unzipped"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
