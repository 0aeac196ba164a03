"""Real-browser tests: Debian's chromium driven by Playwright (never `playwright install`).

1. The viewer notebook (notebooks/viewer_demo.ipynb) served by Voilà on 127.0.0.1: wait
   for the board, move the action slider with the keyboard, the board must change.
2. An exported replay opened from a file:// URL with every network request blocked (and
   none attempted): its slider and buttons must change the frame.
3. A report opened offline.
4. Notebook 05 in a real JupyterLab on 127.0.0.1 (its own config, data, runtime, settings
   and workspace folders; a copy of the notebook): run all cells, move the viewer's
   slider, every text of the viewer at least 9 px at a 1280 px window with the file
   browser open, the panels below or beside the board by the width, the static picture
   within its output area.
5. A notebook's static HTML (nbconvert): the board picture within its output area.

Screenshots go to results/screenshots/ (ignored by git), except the JupyterLab one, kept
in docs/screenshots/jupyterlab_viewer.png. `make test` installs chromium with apt when it
is missing; without it these tests fail on CI and skip elsewhere.
"""

from __future__ import annotations

import contextlib
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


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server (it shuts its kernels down), then its whole group."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@contextlib.contextmanager
def _server(name: str, argv: list[str], port: int, log: Path, cwd: Path,
            env: dict[str, str]) -> Iterator[str]:
    """The URL of a server started as ``argv`` (in its own process group, its output in
    ``log``) once it listens on 127.0.0.1:``port``; stopped with its kernels after."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{name} exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
            try:  # listening? (a GET of the page would start a kernel)
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"{name} did not start:\n{log.read_text()[-3000:]}")
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(proc)


@pytest.fixture(scope="module")
def voila_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("voila")
    port = _free_port()
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    exports = tmp_path_factory.mktemp("exports")
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONUNBUFFERED": "1",
           "HANSA_LAB_EXPORT_DIR": str(exports)}
    with _server("voila", [sys.executable, "-m", "voila", str(NOTEBOOK), "--no-browser",
                           f"--port={port}", "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
                 port, log, ROOT, env) as url:
        yield url


def _screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


def _actions_shown(page: Any) -> int:
    return int(page.get_attribute(BOARD, "data-actions"))


def _open_viewer(page: Any, url: str) -> None:
    """The Voilà viewer page at ``url``, once its board is drawn."""
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_selector(f".hansa-board-view {BOARD}", timeout=60_000)


def _step_actions(page: Any, steps: int, timeout: int) -> None:
    """``steps`` presses of the right arrow on the viewer's action slider, then wait until
    the board shows action ``steps``."""
    page.locator(".hansa-action-slider .noUi-handle").focus()
    for _ in range(steps):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"document.querySelector('{BOARD}').getAttribute('data-actions') === '{steps}'",
        timeout=timeout)


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
        _open_viewer(page, voila_url)
        assert _actions_shown(page) == 0
        before = page.inner_html(".hansa-board-view")
        _step_actions(page, 3, timeout=20_000)
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
    """In Voilà too the viewer fits (the whole board in the page's width, every label
    at least 9 px, every button whole, one screen tall, the tabs beside the board in a
    wide page), the log keeps the current action in view, the page shows no developer
    text, and the export button says where it wrote the replay (an absolute path
    outside the repository) and offers it as a download."""
    page = browser.new_page(viewport={"width": 1280, "height": 1100}, accept_downloads=True)
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        (voila_url, "data:")) else route.abort())
    try:
        _open_viewer(page, voila_url)
        fit = _check_fit(page, "voila 1280 px")
        assert fit["board"][2] >= 740 and fit["controls"], fit
        page.click(".hansa-tabs .lm-TabBar-tab:has-text('log')")
        _step_actions(page, 30, timeout=30_000)
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
        page.click(".hansa-tabs .lm-TabBar-tab:has-text('export')")
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
        assert page.locator("#legend .legend-item").count() > 20
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


@pytest.mark.parametrize("window", [880, 1280, 1920])
def test_exported_replay_fits_the_window(browser: Any, tmp_path: Path, window: int) -> None:
    """The offline replay at a notebook's width (880 px) and at 1280 and 1920 px: the whole
    board within the window (no sideways scrolling), no label under 9 px (the board's and
    the panels'), every button whole, and the controls still in view once the page is
    scrolled to the log."""
    html = export_replay(tmp_path / "replay.html", GameConfig(n_players=4, seed=7), "random")
    context = browser.new_context(viewport={"width": window, "height": 1000})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        "file://") else route.abort())
    page = context.new_page()
    try:
        page.goto(html.as_uri())
        page.wait_for_selector(f"#board {BOARD}")
        page.focus("#slider")
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        fit = page.evaluate("""() => {
            const d = document.documentElement, b = document.getElementById('board');
            const s = b.querySelector('svg.hansa-board').getBoundingClientRect();
            const cut = [...document.querySelectorAll('button')]
                .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText);
            return {page: [d.scrollWidth, d.clientWidth], box: [b.scrollWidth, b.clientWidth],
                    board: [s.left, s.right, s.width], cut};
        }""")
        assert fit["page"][0] <= fit["page"][1] and fit["box"][0] <= fit["box"][1] + 1, fit
        assert fit["board"][0] >= 0 and fit["board"][1] <= window and not fit["cut"], fit
        sizes = page.eval_on_selector("#board", _TEXT_SIZES_JS)
        small = sorted(s for s in sizes if s[0] < MIN_TEXT_PX)
        assert len(sizes) > 100 and not small, (len(sizes), small[:8])
        if window == 1280:
            _screenshot(page, "replay_1280.png")
        page.locator("#log").scroll_into_view_if_needed()
        top, bottom = page.eval_on_selector(
            "#controls", "e => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]")
        assert top >= -1 and bottom <= 1000, (top, bottom)  # sticky: still in view
    finally:
        context.close()


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


# ----------------------------------------------------------------------------- JupyterLab
LAB_NOTEBOOK = ROOT / "notebooks" / "05_inspect_a_game.ipynb"
DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"
LAB_TOKEN = "hansa-lab-browser-test"
#: Smallest rendered text size allowed in the viewer (CSS px at zoom 1).
MIN_TEXT_PX = 9.0

#: Every visible piece of text in the viewer with its rendered size: HTML text at its
#: computed font size; SVG text at its computed size times the scale its SVG is drawn
#: at (the screen transform of the text element: viewBox scaling and transforms).
_TEXT_SIZES_JS = """(root) => {
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || seen.has(el) || !node.textContent.trim()) continue;
    seen.add(el);
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden'
        || el.closest('title, desc, style, script, option')) continue;
    let size = parseFloat(style.fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    out.push([Math.round(size * 100) / 100, node.textContent.trim().slice(0, 40),
              el.tagName.toLowerCase()]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def lab_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real JupyterLab on 127.0.0.1 (random free port, a token), serving a copy of
    notebook 05 from a temporary folder, with its own config, data, runtime, settings
    and workspace folders (the user's are never read or written)."""
    pytest.importorskip("jupyterlab")
    home = tmp_path_factory.mktemp("lab")
    served = home / "notebooks"
    served.mkdir()
    shutil.copy(LAB_NOTEBOOK, served / LAB_NOTEBOOK.name)  # autosave writes the copy
    dirs = {name: home / name for name in ("config", "data", "runtime", "settings",
                                           "workspaces", "ipython")}
    for d in dirs.values():
        d.mkdir()
    # no "get notified about Jupyter news?" toast over the viewer
    notify = dirs["settings"] / "@jupyterlab" / "apputils-extension"
    notify.mkdir(parents=True)
    (notify / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "HANSA_LAB_SIZE": "small",
           "MPLBACKEND": "Agg", "JUPYTER_CONFIG_DIR": str(dirs["config"]),
           "JUPYTER_DATA_DIR": str(dirs["data"]), "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
           "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
           "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
           "IPYTHONDIR": str(dirs["ipython"]), "HANSA_LAB_EXPORT_DIR": str(home / "exports")}
    log = home / "lab.log"
    argv = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
            "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={LAB_TOKEN}",
            f"--ServerApp.root_dir={served}", "--ServerApp.port_retries=0",
            "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            *(["--allow-root"] if os.geteuid() == 0 else [])]
    with _server("jupyterlab", argv, port, log, served, env) as url:
        yield url


#: How the viewer fits the page, measured in the browser: the board's picture and the
#: output area's box, every box of the viewer that overflows sideways (scrollWidth >
#: clientWidth), every button or tab whose label is cut, the viewer's height, and whether
#: the controls row and the tabs' bar are inside the window.
_FIT_JS = """(viewer) => {
  const rect = e => e.getBoundingClientRect();
  const area = viewer.closest('.jp-OutputArea-output') || viewer.parentElement;
  const svg = viewer.querySelector('.hansa-board-view svg.hansa-board');
  const boxes = [viewer, area, viewer.querySelector('.hansa-board-view'),
                 viewer.querySelector('.hansa-board-scroll')];
  const overflow = boxes.filter(b => b.scrollWidth > b.clientWidth + 1)
    .map(b => b.className + ' ' + b.scrollWidth + '>' + b.clientWidth);
  const cut = [...viewer.querySelectorAll('button, .lm-TabBar-tab, .lm-TabBar-tabLabel')]
    .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
    .map(b => (b.innerText || b.title) + ' ' + b.scrollWidth + '>' + b.clientWidth);
  const s = rect(svg), a = rect(area), v = rect(viewer);
  const inWindow = e => { const r = rect(e); return r.top >= 0 && r.bottom <= innerHeight; };
  const rows = [...viewer.children].map(c => Math.round(rect(c).height));
  return {rows, board: [s.left, s.right, s.width, s.height], area: [a.left, a.right, a.width],
          overflow, cut, height: v.height, top: v.top,
          controls: inWindow(viewer.querySelector('.hansa-controls')),
          tabs: inWindow(viewer.querySelector('.hansa-tabs .lm-TabBar'))};
}"""
#: The viewer's height bound (CSS px): about one screen.
MAX_VIEWER_PX = 1000


def _open_lab_notebook(page: Any, lab_url: str) -> str:
    """Notebook 05 in JupyterLab with the file browser open, all cells run; the selector
    of the viewer's board once it is drawn."""
    page.goto(f"{lab_url}lab/tree/{LAB_NOTEBOOK.name}?token={LAB_TOKEN}",
              wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell"
                           " && document.querySelector('.jp-NotebookPanel .jp-Cell')",
                           timeout=60_000)
    page.wait_for_function(  # the notebook's kernel is up
        "window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel"
        "?.status === 'idle'", timeout=60_000)
    page.evaluate("window.jupyterapp.commands.execute('filebrowser:activate')")
    page.wait_for_selector("#filebrowser", state="visible", timeout=20_000)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    board = f".jp-OutputArea .hansa-board-view {BOARD}"
    page.wait_for_selector(board, timeout=90_000)
    return board


def _check_fit(page: Any, label: str) -> dict[str, Any]:
    """The viewer fits its output area: the board's picture within it and no box of the
    viewer overflowing sideways, no button or tab label cut, the viewer at most
    MAX_VIEWER_PX tall, and no text under MIN_TEXT_PX (the board's labels included)."""
    fit: dict[str, Any] = page.eval_on_selector(".hansa-viewer", _FIT_JS)
    left, right = fit["board"][:2]
    assert fit["area"][0] - 0.5 <= left and right <= fit["area"][1] + 0.5, (label, fit)
    assert not fit["overflow"], (label, fit)
    assert not fit["cut"], (label, fit)
    assert fit["height"] <= MAX_VIEWER_PX, (label, fit)
    sizes = page.eval_on_selector(".hansa-viewer", _TEXT_SIZES_JS)
    board_texts = page.eval_on_selector(".hansa-board-view", _TEXT_SIZES_JS)
    assert len(board_texts) > 60, (label, board_texts)  # cities and routes are counted
    small = sorted(s for s in sizes if s[0] < MIN_TEXT_PX)
    assert not small, f"{label}: {len(small)} texts below {MIN_TEXT_PX} px, e.g. {small[:8]}"
    return fit


@pytest.mark.parametrize("window", [1280, 1920])
def test_jupyterlab_viewer_fits_a_notebook(browser: Any, lab_url: str, window: int) -> None:
    """Notebook 05 in a real JupyterLab with the file browser open: run all cells; the
    viewer shows the whole board within the output area (no sideways scrolling) with
    every label at least 9 px, every button and tab label whole, and is at most about
    one screen tall, with its controls and tabs in the window together; its slider and
    step buttons move the board; each tab's page keeps the same bounds; the zoom buttons
    scale the board inside a box that scrolls. Screenshots: docs/screenshots/
    viewer_{1280,1920}.png (and, at 1280, jupyterlab_viewer.png for the README)."""
    page = browser.new_page(viewport={"width": window, "height": 1080})

    def only_localhost(route: Any) -> None:  # the test runs offline
        url = route.request.url
        if url.startswith(lab_url) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_localhost)
    try:
        board = _open_lab_notebook(page, lab_url)
        page.wait_for_selector(".jp-OutputArea .hansa-board", state="attached")
        assert _actions_shown(page) == 0
        before = page.inner_html(".hansa-board-view")
        # the viewer's top at the top of the notebook's view
        page.eval_on_selector(".jp-OutputArea .hansa-viewer",
                              "v => v.scrollIntoView({block: 'start'})")
        handle = page.locator(".hansa-action-slider .noUi-handle")
        handle.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"document.querySelector('{board}').getAttribute('data-actions') === '3'",
            timeout=20_000)
        assert page.inner_html(".hansa-board-view") != before
        page.click(".hansa-next")
        page.wait_for_function(
            f"document.querySelector('{board}').getAttribute('data-actions') === '4'",
            timeout=20_000)
        page.wait_for_function(  # the file browser is still open beside the notebook
            "document.querySelector('#filebrowser').getBoundingClientRect().width > 150")
        area = page.eval_on_selector(".jp-OutputArea .hansa-viewer", "v => v.closest("
                                     "'.jp-OutputArea-output').getBoundingClientRect().width")
        if window == 1280:
            assert 800 <= area <= 950, area  # a notebook's output beside the sidebar
        fit = _check_fit(page, f"{window} px, players")
        assert fit["board"][2] >= 740, fit  # the default board: 750 px wide
        assert fit["controls"] and fit["tabs"], fit  # both in the window
        wide = window >= 1920
        tabs_top, board_top = (page.eval_on_selector(
            sel, "e => e.getBoundingClientRect().top") for sel in (".hansa-tabs",
                                                                   ".hansa-board-view"))
        assert (tabs_top < board_top + 5) == wide, (tabs_top, board_top)  # beside if wide
        page.eval_on_selector(".jp-OutputArea .hansa-viewer",
                              "v => v.scrollIntoView({block: 'start'})")
        name = f"viewer_{window}.png"
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS_SCREENSHOTS / name))
        if window == 1280:
            shutil.copy(DOCS_SCREENSHOTS / name, DOCS_SCREENSHOTS / "jupyterlab_viewer.png")
        # every tab's page keeps the bounds (its buttons whole, nothing overflowing)
        for k, title in enumerate(("log", "chart", "legend", "what-if", "moves", "export")):
            page.click(f".hansa-tabs .lm-TabBar-tab:has-text('{title}')")
            page.wait_for_function(
                "k => document.querySelectorAll('.hansa-tabs .hansa-page')[k]"
                ".offsetParent !== null", arg=k + 1)
            _check_fit(page, f"{window} px, {title}")
        # zoom: the board twice as big inside the same box, which scrolls both ways
        page.click(".hansa-zoom button:has-text('zoom ×2')")
        page.wait_for_function(
            "(() => { const s = document.querySelector('.hansa-board-view svg.hansa-board');"
            " const b = document.querySelector('.hansa-board-scroll');"
            " return s.getBoundingClientRect().width > 1.9 * b.clientWidth"
            " && b.scrollWidth > b.clientWidth && b.scrollHeight > b.clientHeight; })()",
            timeout=20_000)
        page.click(".hansa-zoom button:has-text('whole board')")
        page.wait_for_function(
            "(() => { const b = document.querySelector('.hansa-board-scroll');"
            " return b.scrollWidth <= b.clientWidth + 1; })()", timeout=20_000)
        if window == 1280:
            # the final position as a static picture (the next cell): as wide as its output
            page.wait_for_function(
                "(() => { const i = document.querySelector('.jp-RenderedSVG img');"
                " if (!i || !i.complete) return false;"
                " const w = i.getBoundingClientRect().width; const a = i.closest("
                "'.jp-OutputArea-output').getBoundingClientRect().width;"
                " return w > 400 && w <= a + 0.5; })()", timeout=60_000)
    except Exception:
        _screenshot(page, f"jupyterlab_failure_{window}.png")  # results/screenshots/
        raise
    finally:
        page.close()


def test_static_notebook_html_scales_the_board_to_its_output_area(
        browser: Any, tmp_path: Path) -> None:
    """A State shown in a notebook, exported to static HTML (nbconvert, as for notebook
    05): the board picture (1368 px at its natural size) shrinks to the output area of a
    1280 px window instead of running off it."""
    nbformat = pytest.importorskip("nbformat")
    nbconvert = pytest.importorskip("nbconvert")
    import hansa_lab
    from hansa_lab.engine.state import new_game
    from hansa_lab.viz.render import render_svg

    state = new_game(GameConfig(n_players=4, seed=3))
    assert 'width="1368"' in render_svg(state).split(">", 1)[0]  # its natural size
    svg = hansa_lab._state_svg(state)  # what a notebook shows for a State
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("viewer.timeline.final", execution_count=1, outputs=[
        nbformat.v4.new_output("execute_result", data={"image/svg+xml": svg,
                                                       "text/plain": "<State>"},
                               execution_count=1)])]
    body, _ = nbconvert.HTMLExporter(template_name="lab").from_notebook_node(nb)
    page_file = tmp_path / "static.html"
    page_file.write_text(body, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        ("file://", "data:")) else route.abort())
    page = context.new_page()
    try:
        page.goto(page_file.as_uri())
        page.wait_for_selector(".jp-OutputArea-output svg.hansa-board, "
                               ".jp-OutputArea-output img")
        picture, area = page.evaluate("""() => {
            const p = document.querySelector('.jp-OutputArea-output svg.hansa-board')
                || document.querySelector('.jp-OutputArea-output img');
            const a = p.closest('.jp-OutputArea-output');
            return [p.getBoundingClientRect().width, a.getBoundingClientRect().width];
        }""")
        assert 600 < picture <= area + 0.5 < 1368, (picture, area)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    finally:
        context.close()
