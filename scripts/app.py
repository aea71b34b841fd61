#!/usr/bin/env python3
"""Serve the expectviz playground (notebooks/playground.ipynb) with Voilà on 127.0.0.1.

    .venv/bin/python scripts/app.py               # port 8866, or a free one when 8866 is taken
    .venv/bin/python scripts/app.py --port 9000   # this port (fails if it is taken)

It prints ``expectviz playground: http://127.0.0.1:PORT/`` once the page answers, then runs until Ctrl-C.
Open the address in a browser: type or paste a tree (or pick a textbook tree or a game), choose a search, press
Search and step through it with the lessons' player.  Each browser tab gets its own kernel; Voilà shows no code.

Voilà's options, and why (:func:`command` builds the command line; tests/test_app_browser.py uses it too):

- ``--no-browser``, ``--Voila.ip=127.0.0.1``: only this machine can reach it, and nothing opens a browser;
- ``--Voila.port_retries=0``: the address printed is the one served (Voilà would otherwise move to the next
  port silently);
- ``--VoilaConfiguration.extension_denylist``: Notebook 7's front-end extension is built against a newer
  JupyterLab than the one Voilà 0.5 ships; loaded into the page it only throws a module-federation error
  (RUNTIME-012) in the browser console.  The player (anywidget) and ipywidgets' controls are unaffected.
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "playground.ipynb"
DEFAULT_PORT = 8866
"""Voilà's own default port."""
HOST = "127.0.0.1"
DENIED_EXTENSIONS = ["@jupyter-notebook/lab-extension"]

# Direct connections only: a proxy from the environment must not see requests to 127.0.0.1.
_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
        return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def command(port: int, notebook: Path = NOTEBOOK, python: str = sys.executable) -> list[str]:
    """The Voilà command line that serves ``notebook`` on 127.0.0.1:``port``."""
    return [
        python,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        f"--Voila.ip={HOST}",
        f"--port={port}",
        "--Voila.port_retries=0",
        *(f"--VoilaConfiguration.extension_denylist={name}" for name in DENIED_EXTENSIONS),
    ]


def url(port: int) -> str:
    return f"http://{HOST}:{port}/"


def wait_until_up(process: subprocess.Popen[bytes], port: int, timeout: float = 60) -> bool:
    """Wait until Voilà answers on ``port``; False if it exited (or did not answer in time)."""
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        try:  # a cheap request: the page itself would start a kernel and run the notebook
            with _HTTP.open(f"http://{HOST}:{port}/voila/static/voila.js", timeout=2) as response:
                response.read(1)
            return True
        except urllib.error.HTTPError:  # an answer all the same
            return True
        except (OSError, urllib.error.URLError):
            time.sleep(0.25)
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the expectviz playground with Voilà on 127.0.0.1.")
    parser.add_argument(
        "--port", type=int, help=f"the port (default {DEFAULT_PORT}, or a free one when {DEFAULT_PORT} is taken)"
    )
    args = parser.parse_args(argv)
    port = args.port if args.port is not None else DEFAULT_PORT if port_is_free(DEFAULT_PORT) else free_port()
    process = subprocess.Popen(command(port), cwd=ROOT, stdin=subprocess.DEVNULL)
    # Stopped with SIGTERM (kill PID): stop Voilà too (the finally below) rather than leave it serving.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        if not wait_until_up(process, port):
            if process.poll() is None:
                process.terminate()
            print(f"expectviz: Voilà did not start on port {port} (see its messages above)", file=sys.stderr)
            return 1
        print(f"expectviz playground: {url(port)}", flush=True)
        return process.wait()
    except KeyboardInterrupt:  # Ctrl-C reaches Voilà too (same process group); let it shut its kernels down
        try:
            return process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            return 130
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # Voilà shuts its kernels down
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


if __name__ == "__main__":
    from _venv import ensure

    ensure("app", ["voila", "expectviz"])
    sys.exit(main())
