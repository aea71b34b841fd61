"""A throwaway JupyterLab (or Notebook 7) server and a headless Chromium to drive it.

Used by tests/test_jupyterlab.py, tests/test_browser_export.py and scripts/screenshots.py:

    with lab_server() as (base_url, root_dir), browser() as chromium:
        page = new_page(chromium)
        write_notebook(root_dir, "t.ipynb", ["import expectviz as ev", "ev.play(ev.alphabeta('aima-fig-5.2'))"])
        open_notebook(page, base_url, "t.ipynb")
        run_all(page)
        players = wait_for_players(page, 1)

``lab_server(app="notebook")`` starts Notebook 7 instead (``open_notebook(..., app="notebook")``).
The server runs from this environment's Python on a free 127.0.0.1 port, in a
fresh temporary root with temporary Jupyter config, runtime, workspace and
settings and data directories, so nothing is written into the venv or the home folder.
Its settings override switches off notebook windowing (cells off screen would
be hidden from Playwright) and the news toast.  On exit the sessions are
deleted through the REST API (each page load can start a kernel) and the
server is stopped by its PID: SIGTERM, then SIGKILL.

See /work/shared/recipes/browser-testing.md for the traps these helpers avoid.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

CHROMIUM = os.environ.get("EXPECTVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

SETTINGS_OVERRIDES = {
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}

CONFIG = """\
c.ServerApp.ip = "127.0.0.1"
c.ServerApp.port = {port}
c.ServerApp.port_retries = 0
c.ServerApp.open_browser = False
c.ServerApp.allow_root = True
c.ServerApp.root_dir = {root!r}
c.IdentityProvider.token = ""
c.ServerApp.password = ""
c.ServerApp.disable_check_xsrf = True
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
c.LabApp.expose_app_in_browser = True
c.LabApp.workspaces_dir = {workspaces!r}
c.LabApp.app_settings_dir = {app_settings!r}
c.LabApp.user_settings_dir = {user_settings!r}
c.JupyterNotebookApp.expose_app_in_browser = True
c.JupyterNotebookApp.workspaces_dir = {workspaces!r}
"""

APPS = {"lab": "jupyterlab", "notebook": "notebook"}
"""The servers lab_server() can start: JupyterLab 4 and Notebook 7 (the same front-end pieces)."""

# Direct connections only: a proxy from the environment must not see requests to 127.0.0.1.
_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Lab(NamedTuple):
    base_url: str
    root_dir: Path


def chromium_path() -> str | None:
    """The Chromium to drive, or None when there is none."""
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    return shutil.which("chromium")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(method: str, url: str, timeout: float = 5) -> Any:
    req = urllib.request.Request(url, method=method)
    with _HTTP.open(req, timeout=timeout) as response:
        body = response.read()
    return json.loads(body) if body else None


def _stop(proc: subprocess.Popen[bytes], grace: float = 10) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def delete_sessions(base_url: str) -> int:
    """Delete every session (and so its kernel) through the REST API; returns how many there were."""
    try:
        sessions = _request("GET", f"{base_url}/api/sessions")
    except (OSError, urllib.error.URLError):
        return 0
    for session in sessions or []:
        with contextlib.suppress(OSError, urllib.error.URLError):
            _request("DELETE", f"{base_url}/api/sessions/{session['id']}", timeout=15)
    return len(sessions or [])


@contextlib.contextmanager
def lab_server(*, app: str = "lab", startup_timeout: float = 60, tries: int = 3) -> Iterator[Lab]:
    """Start JupyterLab (or Notebook 7) in a temporary root; yields ``(base_url, root_dir)``; always stops it."""
    tmp = Path(tempfile.mkdtemp(prefix="expectviz-lab-"))
    root = tmp / "root"
    names = ("workspaces", "app-settings", "user-settings", "config", "data", "runtime", "ipython")
    dirs = {name: tmp / name for name in names}
    root.mkdir()
    for d in dirs.values():
        d.mkdir()
    (dirs["app-settings"] / "overrides.json").write_text(json.dumps(SETTINGS_OVERRIDES, indent=2))
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTERLAB_SETTINGS_DIR=str(dirs["user-settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
        IPYTHONDIR=str(dirs["ipython"]),
        JUPYTER_PLATFORM_DIRS="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
    )
    proc: subprocess.Popen[bytes] | None = None
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - closed in the finally below
    base_url = ""
    try:
        for attempt in range(tries):
            port = _free_port()
            config = tmp / "jupyter_lab_config.py"
            config.write_text(
                CONFIG.format(
                    port=port,
                    root=str(root),
                    workspaces=str(dirs["workspaces"]),
                    app_settings=str(dirs["app-settings"]),
                    user_settings=str(dirs["user-settings"]),
                )
            )
            proc = subprocess.Popen(
                [sys.executable, "-m", APPS[app], "--config", str(config)],
                cwd=root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            base_url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + startup_timeout
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    _request("GET", f"{base_url}/api/status", timeout=2)
                    break
                except (OSError, urllib.error.URLError):
                    time.sleep(0.25)
            else:
                if proc.poll() is None:  # no answer in time
                    _stop(proc)
                    raise RuntimeError(f"JupyterLab did not answer within {startup_timeout} s:\n{_tail(tmp)}")
                if attempt + 1 < tries:  # exited early: most likely the port was taken meanwhile
                    continue
                raise RuntimeError(f"JupyterLab exited with status {proc.returncode}:\n{_tail(tmp)}")
            break
        yield Lab(base_url, root)
    finally:
        if proc is not None:
            if proc.poll() is None:
                delete_sessions(base_url)
            _stop(proc)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _tail(tmp: Path, lines: int = 30) -> str:
    try:
        return "\n".join((tmp / "server.log").read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium (Debian's), launched through Playwright."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise RuntimeError(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


def new_page(
    chromium: Any, *, width: int = 1280, height: int = 900, scale: float = 1, timeout_ms: float = 30_000
) -> Any:
    """A page in a fresh context; page errors are collected in ``page.errors``."""
    context = chromium.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
    context.set_default_timeout(timeout_ms)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def write_notebook(root: Path, name: str, cells: Sequence[str]) -> Path:
    """Write a notebook of code cells (unexecuted) into the server's root."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = root / name
    nbformat.write(nb, path)
    return path


_KERNEL_READY = """name => {
    const app = window.jupyterapp;
    const w = app && app.shell && app.shell.currentWidget;
    if (!w || !w.context || w.context.path !== name || !w.sessionContext) return false;
    const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
    return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}"""


def open_notebook(page: Any, base_url: str, name: str, *, app: str = "lab", timeout_ms: float = 60_000) -> None:
    """Open ``name`` in a fresh workspace and wait until its kernel is connected and idle (trap 1)."""
    url = f"{base_url}/lab/tree/{name}?reset" if app == "lab" else f"{base_url}/notebooks/{name}"
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_function(_KERNEL_READY, arg=name, timeout=timeout_ms, polling=200)


def run_all(page: Any) -> None:
    """Fire 'Run All Cells' without awaiting it (awaiting can hang: trap 2)."""
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); return true; }")


PLAYER = ".jp-OutputArea-output .ev-player"
"""A rendered player (expectviz/render/player.js)."""
ERROR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
"""Where a cell's traceback (and anything else on stderr) is shown."""


def wait_for_players(page: Any, count: int, *, timeout_ms: float = 60_000) -> Any:
    """Wait until ``count`` rendered players (each with its SVG) are in the notebook; returns their locator.

    Fails at once, with the traceback, if a cell shows an error instead.
    """
    page.wait_for_function(
        """([selector, count, error]) => {
            for (const el of document.querySelectorAll(error)) if (el.textContent.includes('Traceback')) return true;
            let ready = 0;
            for (const el of document.querySelectorAll(selector)) if (el.querySelector('svg')) ready += 1;
            return ready >= count;
        }""",
        arg=[PLAYER, count, ERROR],
        timeout=timeout_ms,
        polling=250,
    )
    for text in page.locator(ERROR).all_inner_texts():
        if "Traceback" in text:
            raise AssertionError("a cell raised:\n" + text)
    return page.locator(PLAYER)


def wait_for_outputs(page: Any, selector: str, count: int = 1, *, timeout_ms: float = 60_000) -> Any:
    """Wait until ``count`` elements match ``selector`` inside output areas; returns the locator."""
    locator = page.locator(selector)
    page.wait_for_function(
        "([s, n]) => document.querySelectorAll(s).length >= n", arg=[selector, count], timeout=timeout_ms, polling=250
    )
    return locator


def hide_chrome(page: Any) -> None:
    """Simple interface, no left/right sidebars, no status bar or top bar: just the notebook."""
    page.evaluate(
        """() => {
            const app = window.jupyterapp;
            app.shell.mode = 'single-document';
            app.shell.collapseLeft();
            app.shell.collapseRight();
            for (const id of ['statusbar:toggle', 'application:toggle-header']) {
                // only switch off what is on; unknown commands are skipped
                if (app.commands.hasCommand(id) && app.commands.isToggled(id)) app.commands.execute(id);
            }
            return true;
        }"""
    )


def run_cell(page: Any, index: int) -> None:
    """Make cell ``index`` the active one and run it (fired, not awaited: trap 2)."""
    page.evaluate(
        """index => {
            const app = window.jupyterapp;
            app.shell.currentWidget.content.activeCellIndex = index;
            app.commands.execute('notebook:run-cell');
            return true;
        }""",
        index,
    )


def shut_down_kernel(page: Any, *, timeout_ms: float = 30_000) -> None:
    """Shut the notebook's kernel down, as Kernel > Shut Down Kernel does, and wait until it is gone."""
    page.evaluate("() => { window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); return true; }")
    page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.sessionContext.session", timeout=timeout_ms, polling=200
    )


def show_file_browser(page: Any) -> None:
    """JupyterLab's file browser open in the left sidebar (as a new user sees it)."""
    page.evaluate("() => { window.jupyterapp.commands.execute('filebrowser:activate'); return true; }")
    page.wait_for_selector(".jp-FileBrowser", state="visible")
