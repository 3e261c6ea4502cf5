"""e2e tier: the widget in headless Chromium against the real local stack.

The stack is the integration tier's (tests/integration/conftest.py: moto server, resources from
template.yaml, the API and the widget demo over HTTP), started once for this package and stopped
after it. Screenshots go to tests/e2e/output/<test>/ (gitignored); their paths are printed at the
end of the run.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import LAUNCH_ARGS, ensure_browser
from tests.integration.conftest import Stack, _start, _stop

OUTPUT = Path(__file__).resolve().parent / "output"
_report: dict[str, Any] = {"screenshots": [], "unavailable": None, "timings": []}


def _say(config: pytest.Config, text: str) -> None:
    """A line on the terminal now, even while pytest captures output (the apt-get wait)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        print(text)
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line(text)


@pytest.fixture(scope="package")
def stack() -> Iterator[Stack]:
    s = _start()
    try:
        yield s
    finally:
        _stop(s)


@pytest.fixture(scope="package")
def chromium_path(request: pytest.FixtureRequest) -> Path:
    path, why = ensure_browser(lambda text: _say(request.config, text))
    if path is None:
        _report["unavailable"] = why
        pytest.skip(f"E2E BROWSER TESTS SKIPPED: headless Chromium cannot be installed here: {why}")
    return path


@pytest.fixture(scope="package")
def browser(chromium_path: Path) -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # a venv made before playwright was pinned: `make test` reinstalls it
        pytest.fail("playwright is not installed in this venv: run `make venv` (requirements-dev.txt pins it)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(chromium_path), args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """new_page(width=..., height=...) -> a page in a fresh context (its own localStorage).
    Page errors fail the test; each page records the widget's convmem:* events in window.__convmem."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1100, height: int = 760) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR")
        ctx.add_init_script(
            "window.__convmem = {turns: [], errors: [], sessions: [], ready: []};"
            "addEventListener('convmem:turn', e => window.__convmem.turns.push(e.detail));"
            "addEventListener('convmem:error', e => window.__convmem.errors.push(e.detail));"
            "addEventListener('convmem:session', e => window.__convmem.sessions.push(e.detail));"
            "addEventListener('convmem:ready', e => window.__convmem.ready.push(e.detail));"
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """shots(page, "01-name") saves a full-page screenshot under tests/e2e/output/<test>/."""
    folder = OUTPUT / re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        _report["screenshots"].append(path)
        print(f"screenshot: {path}")
        return path

    return take


@pytest.fixture
def timing() -> Callable[[str], None]:
    """timing("...") records a measurement line printed in the run's summary."""
    return lambda line: (_report["timings"].append(line), print(line))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _report["unavailable"]:
        bar = "!" * 78
        terminalreporter.write_line(bar, red=True, bold=True)
        terminalreporter.write_line("E2E BROWSER TESTS WERE SKIPPED: headless Chromium could not be installed.", red=True, bold=True)
        terminalreporter.write_line(str(_report["unavailable"]), red=True)
        terminalreporter.write_line(bar, red=True, bold=True)
    if _report["timings"]:
        terminalreporter.section("e2e measurements")
        for line in _report["timings"]:
            terminalreporter.write_line(line)
    if _report["screenshots"]:
        terminalreporter.section("e2e screenshots")
        for path in _report["screenshots"]:
            terminalreporter.write_line(str(path))
