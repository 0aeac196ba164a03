"""Real-browser tests: Debian's chromium driven by Playwright (never `playwright install`).

1. The viewer notebook (notebooks/viewer_demo.ipynb) served by Voilà on 127.0.0.1: wait
   for the board, move the action slider with the keyboard, the board must change.
2. An exported replay opened from a file:// URL with every network request blocked (and
   none attempted): its slider and buttons must change the frame.

Screenshots go to results/screenshots/ (ignored by git). `make test` installs chromium
with apt when it is missing; without it these tests fail on CI and skip elsewhere.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hansa_lab.engine.state import GameConfig
from hansa_lab.viz.export import export_replay

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "viewer_demo.ipynb"
SCREENSHOTS = ROOT / "results" / "screenshots"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
BOARD = "svg.hansa-board"


def _chromium() -> str:
    path = shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if path is None:
        message = "chromium is not installed (make test installs it: apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = _chromium()
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def voila_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("voila")
    port = _free_port()
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    exports = tmp_path_factory.mktemp("exports")
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONUNBUFFERED": "1",
           "HANSA_LAB_EXPORT_DIR": str(exports)}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", str(NOTEBOOK), "--no-browser",
             f"--port={port}", "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"voila exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
            try:  # listening? (a GET of the page would start a kernel)
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"voila did not start:\n{log.read_text()[-3000:]}")
                time.sleep(0.3)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # voila and its kernel (its own group)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


def _actions_shown(page: Any) -> int:
    return int(page.get_attribute(BOARD, "data-actions"))


def test_voila_viewer_slider_moves_the_board(browser: Any, voila_url: str) -> None:
    page = browser.new_page(viewport={"width": 1500, "height": 1300})
    outside: list[str] = []

    def only_localhost(route: Any) -> None:
        url = route.request.url
        if url.startswith(voila_url) or url.startswith("data:"):
            route.continue_()
        else:  # e.g. Voilà's icon-font CDN link: this test runs offline
            outside.append(url)
            route.abort()

    page.route("**/*", only_localhost)
    try:
        page.goto(voila_url, wait_until="domcontentloaded", timeout=60_000)
        page.wait_for_selector(f".hansa-board-view {BOARD}", timeout=60_000)
        assert _actions_shown(page) == 0
        before = page.inner_html(".hansa-board-view")
        handle = page.locator(".hansa-action-slider .noUi-handle")
        handle.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"document.querySelector('{BOARD}').getAttribute('data-actions') === '3'",
            timeout=20_000)
        after = page.inner_html(".hansa-board-view")
        assert after != before
        assert _actions_shown(page) == 3
        # the turn slider, log and chart followed the action slider
        page.wait_for_function(
            "document.querySelector('.hansa-log-view').innerText.includes('#3 ')",
            timeout=10_000)
        cursor = page.get_attribute(".hansa-chart-view line.cursor", "x1")
        assert cursor is not None and float(cursor) > 38.0
        shot = _screenshot(page, "viewer_voila.png")
        assert shot.stat().st_size > 10_000
    finally:
        page.close()


def test_voila_viewer_polish(browser: Any, voila_url: str) -> None:
    """The board fills the available width, the log keeps the current action in view,
    the page shows no developer text, and the export button says where it wrote the
    replay (an absolute path outside the repository) and offers it as a download."""
    page = browser.new_page(viewport={"width": 1280, "height": 1100}, accept_downloads=True)
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        (voila_url, "data:")) else route.abort())
    try:
        page.goto(voila_url, wait_until="domcontentloaded", timeout=60_000)
        page.wait_for_selector(f".hansa-board-view {BOARD}", timeout=60_000)
        widths = page.evaluate(
            "() => [document.querySelector('.hansa-board-view svg').getBoundingClientRect()"
            ".width, document.querySelector('.hansa-viewer').getBoundingClientRect().width]")
        assert widths[0] >= 0.95 * widths[1] and widths[0] > 1000, widths
        handle = page.locator(".hansa-action-slider .noUi-handle")
        handle.focus()
        for _ in range(30):
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"document.querySelector('{BOARD}').getAttribute('data-actions') === '30'",
            timeout=30_000)
        page.wait_for_function(
            "document.querySelector('.hansa-log-view .log-entry.current')"
            "?.getAttribute('data-index') === '30'", timeout=10_000)
        overflowing, in_view = page.evaluate("""() => {
            const box = document.querySelector('.hansa-log-view .hansa-log');
            const cur = box.querySelector('.log-entry.current');
            const b = box.getBoundingClientRect(), c = cur.getBoundingClientRect();
            return [box.scrollHeight > box.clientHeight + 10,
                    c.top >= b.top - 1 && c.bottom <= b.bottom + 1];
        }""")
        assert overflowing and in_view
        text = page.inner_text(".hansa-viewer")
        for dev in ("test_browser", "what_if", "ended by", "HANSA_LAB", "r0."):
            assert dev not in text, dev
        assert "Seat " in page.inner_text(".hansa-log-view")
        page.click(".hansa-export-button")
        page.wait_for_selector(".hansa-download", timeout=60_000)
        shown = Path(page.inner_text(".hansa-export-path"))
        assert shown.is_absolute() and shown.exists() and ROOT not in shown.parents
        with page.expect_download() as info:
            page.click(".hansa-download")
        data = Path(info.value.path()).read_text(encoding="utf-8")
        assert data.startswith("<!DOCTYPE html>") and data == shown.read_text(encoding="utf-8")
        _screenshot(page, "viewer_voila_polish.png")
    finally:
        page.close()


def test_exported_html_works_offline(browser: Any, tmp_path: Path) -> None:
    html = export_replay(tmp_path / "replay.html", GameConfig(n_players=3, seed=5), "random")
    context = browser.new_context(viewport={"width": 1500, "height": 1300})
    requested: list[str] = []

    def block_network(route: Any) -> None:
        url = route.request.url
        requested.append(url)
        if url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", block_network)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(html.as_uri())
        page.wait_for_selector(f"#board {BOARD}")
        assert _actions_shown(page) == 0
        first = page.inner_html("#board")
        page.focus("#slider")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert _actions_shown(page) == 2
        assert page.inner_html("#board") != first
        assert "#2 · turn" in page.inner_text("#log")
        page.click("#next-turn")
        after_turn = _actions_shown(page)
        assert after_turn > 2 and page.input_value("#slider") == str(after_turn)
        page.eval_on_selector(
            "#slider", "e => { e.value = e.max; e.dispatchEvent(new Event('input')); }")
        last = int(page.get_attribute("#slider", "max") or 0)
        assert _actions_shown(page) == last > after_turn
        assert "Game over" in page.inner_text("#log")
        # the current action is in the log's view; the end shows the winner and final scores
        assert page.evaluate("""() => {
            const box = document.getElementById('log'), cur = box.querySelector('.cur');
            const b = box.getBoundingClientRect(), c = cur.getBoundingClientRect();
            return box.scrollHeight > box.clientHeight && c.top >= b.top - 1
                && c.bottom <= b.bottom + 1;
        }""")
        assert page.locator("#board .winner-banner").count() == 1
        assert "Final score" in page.inner_text("#board") and "Seat " in page.inner_text("#log")
        assert page.locator("#board .legend-item").count() > 20
        cursor = page.get_attribute("#chart line.cursor", "x1")
        assert cursor is not None and float(cursor) > 400
        page.click("#prev")
        assert _actions_shown(page) == last - 1
        shot = _screenshot(page, "replay_html.png")
        assert shot.stat().st_size > 10_000
    finally:
        context.close()
    assert not errors
    assert requested and all(u.startswith("file://") for u in requested), requested


def test_report_opens_offline(browser: Any, tmp_path: Path) -> None:
    """`hansa-lab report` writes one page that Chromium shows with no network: tables,
    verdicts, seat balance, figures (embedded images that decode) and the methods."""
    from hansa_lab.sim.runner import simulate
    from hansa_lab.tools import cli

    simulate({"tip": ["random:establish=false", "random"], "base": ["random"]},
             n_games=6, n_players=2, progress=False, out=tmp_path / "run")
    html = tmp_path / "report.html"
    assert cli.main(["report", str(tmp_path / "run"), "--html", str(html)]) == 0
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    requested: list[str] = []

    def block_network(route: Any) -> None:
        requested.append(route.request.url)
        if route.request.url.startswith(("file://", "data:")):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", block_network)
    page = context.new_page()
    try:
        page.goto(html.as_uri())
        text = page.inner_text("body")
        for heading in ("What was run", "Win rate and mean score", "Does it help?",
                        "Seat balance", "Score breakdown", "Methods"):
            assert heading in text, heading
        assert "tip: " in text and ("helps" in text or "hurts" in text
                                    or "no clear effect" in text
                                    or "too few games to tell" in text)
        images = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)")
        assert len(images) >= 3 and min(images) > 100
        assert page.locator("table").count() >= 4
        _screenshot(page, "report_html.png")
    finally:
        context.close()
    assert all(u.startswith(("file://", "data:")) for u in requested), requested
