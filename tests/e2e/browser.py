"""Headless Chromium for the e2e tier: Debian's `chromium` driven by pip `playwright`.

Never `playwright install` (it downloads a browser build; these machines reach only the package
registries). What is missing is installed with apt-get (we run as root on the dev machines and
in CI); only when that is impossible are the browser tests skipped, loudly.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# chromium, a Korean font (without one Hangul renders as boxes) and a colour emoji font.
DEBIAN_PACKAGES = ("chromium", "fonts-nanum", "fonts-noto-color-emoji")
LAUNCH_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
APT_TIMEOUT_S = 600


def missing_packages() -> list[str]:
    """The Debian packages of DEBIAN_PACKAGES that are not installed."""
    if not shutil.which("dpkg-query"):
        return list(DEBIAN_PACKAGES)
    missing = []
    for name in DEBIAN_PACKAGES:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True)
        if "install ok installed" not in r.stdout:
            missing.append(name)
    return missing


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(["apt-get", *args], capture_output=True, text=True, env=env, timeout=APT_TIMEOUT_S)


def ensure_browser(say: Callable[[str], None] = print) -> tuple[Path | None, str]:
    """(path of chromium, "") once it and the fonts are installed; (None, why) when they cannot be."""
    missing = missing_packages()
    if not missing and CHROMIUM.exists():
        return CHROMIUM, ""
    if not shutil.which("apt-get"):
        return (CHROMIUM, "") if CHROMIUM.exists() else (None, f"no apt-get to install {missing}")
    if os.geteuid() != 0:
        return (CHROMIUM, "") if CHROMIUM.exists() else (None, f"not root: cannot apt-get install {missing}")
    say(f"e2e: installing {' '.join(missing)} with apt-get (once per machine, ~20 s)")
    install = ("install", "-y", "-q", "--no-install-recommends", *missing)
    try:
        result = _apt(*install)
        if result.returncode != 0:  # a fresh machine may have no package lists yet
            _apt("update", "-q")
            result = _apt(*install)
    except subprocess.TimeoutExpired:
        return None, f"apt-get install {missing} did not finish within {APT_TIMEOUT_S}s"
    if not CHROMIUM.exists():
        return None, f"apt-get install {missing} failed:\n{result.stdout[-1500:]}{result.stderr[-1500:]}"
    still = missing_packages()
    if still:
        say(f"e2e: WARNING: {still} could not be installed; Korean or emoji text may render as boxes")
    return CHROMIUM, ""
