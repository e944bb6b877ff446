"""A JupyterLab server for browser tests, over a scratch folder, and Chromium to drive it.

The server starts on a free localhost port with a random token and its own
settings, data and runtime folders (nothing of the user's). Playwright drives
Debian's Chromium (Playwright's own browser download does not work offline);
every request to another host is refused, so a page that needed the internet fails.
"""

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "Lab", "chromium", "offline_page", "run_all_until",
           "wait_for_idle_kernel"]

CHROMIUM_CANDIDATES = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
# What jupyter_server logs when the port it picked was taken before it could listen on it.
LOST_PORT = ("is already in use", "is not available", "no available port could be found")


def _chromium() -> str | None:
    found = [p for p in CHROMIUM_CANDIDATES if os.access(p, os.X_OK)]
    return found[0] if found else shutil.which("chromium")


CHROMIUM = _chromium()


def _lab_settings(settings: Path) -> None:
    overrides = {
        # No news or update checks: the machine is offline, and their toasts cover buttons.
        "apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
        # Render every cell: with windowing, cells far down are laid out late, which
        # moves them under a screenshot and hides their text from the DOM.
        "notebook-extension/tracker": {"windowingMode": "none"},
    }
    for plugin, values in overrides.items():
        path = settings / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


class Lab:
    """``with Lab(work, root) as lab``: a server over ``root``; ``lab.url(path)`` opens a file."""

    def __init__(self, work: Path, root: Path, env: dict | None = None,
                 options: list[str] = ()):
        self.work, self.root, self.token = work, root, uuid.uuid4().hex
        self.env, self.options = {**os.environ, **(env or {})}, list(options)
        self.server, self.base = None, ""

    def __enter__(self) -> "Lab":
        _lab_settings(self.work / "settings")
        folders = {"JUPYTER_DATA_DIR": "data", "JUPYTER_CONFIG_DIR": "config",
                   "JUPYTERLAB_SETTINGS_DIR": "settings",
                   "JUPYTERLAB_WORKSPACES_DIR": "workspaces"}
        self.env.update({name: str(self.work / folder) for name, folder in folders.items()})
        # Port 0: the kernel picks a free port when the server binds (read back below).
        command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
                   "--ServerApp.ip=127.0.0.1", "--ServerApp.port=0",
                   "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
                   f"--ServerApp.root_dir={self.root}", "--LabApp.news_url=", *self.options]
        self.server, port = self._start(command)
        self.base = f"http://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc) -> None:
        _stop(self.server)

    def url(self, path: str, app: str = "lab/tree") -> str:
        return f"{self.base}/{app}/{path}?token={self.token}"

    def sessions(self) -> list[dict]:
        with urllib.request.urlopen(f"{self.base}/api/sessions?token={self.token}",
                                    timeout=5) as reply:
            return json.load(reply)

    def _start(self, command: list[str], attempts: int = 5) -> tuple[subprocess.Popen, int]:
        """jupyter_server frees the port it picked before it listens on it: should
        another process take it meanwhile, a fresh server tries again."""
        log = self.work / "lab.log"
        for _ in range(attempts):
            runtime = self.work / "runtime"
            shutil.rmtree(runtime, ignore_errors=True)  # no earlier attempt's server-info
            with open(log, "w") as out:
                server = subprocess.Popen(command, env={**self.env,
                                                        "JUPYTER_RUNTIME_DIR": str(runtime)},
                                          stdout=out, stderr=subprocess.STDOUT)
            try:
                port = _wait_until_up(server, runtime, self.token, log)
            except BaseException:
                _stop(server)
                raise
            if port is not None:
                return server, port
            _stop(server)
        raise RuntimeError(f"jupyter lab lost its port {attempts} times:\n"
                           f"{log.read_text()[-3000:]}")


def _wait_until_up(server: subprocess.Popen, runtime: Path, token: str,
                   log: Path) -> int | None:
    """The port the server listens on, once it answers; None if it lost its port (it
    says which port in its server-info file, ``jpserver-<pid>.json``)."""
    deadline, port = time.monotonic() + 60, None
    while time.monotonic() < deadline:
        if server.poll() is not None:
            said = log.read_text()
            if any(line in said for line in LOST_PORT):
                return None
            raise RuntimeError(f"jupyter lab exited:\n{said[-3000:]}")
        if port is None:
            for info in runtime.glob("jpserver-*.json"):
                with contextlib.suppress(ValueError):  # being written
                    port = json.loads(info.read_text())["port"] or None
        if port is not None:
            with contextlib.suppress(OSError):
                url = f"http://127.0.0.1:{port}/api/status?token={token}"
                with urllib.request.urlopen(url, timeout=2) as reply:
                    if reply.status == 200:
                        return port
        time.sleep(0.3)
    raise RuntimeError(f"jupyter lab did not answer in 60 s:\n{log.read_text()[-3000:]}")


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def wait_for_idle_kernel(page, lab: Lab, notebook: str, seconds: float = 60) -> None:
    """Until the notebook's kernel has started and is idle (then Run All is not lost)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(s["path"].endswith(notebook) and s["kernel"]["execution_state"] == "idle"
               for s in lab.sessions()):
            return
        page.wait_for_timeout(300)  # not time.sleep: the page must keep running meanwhile
    raise TimeoutError(f"{notebook}: no idle kernel in {seconds:g} s")


@contextlib.contextmanager
def chromium():
    """Debian's Chromium, launched by Playwright, closed on leaving."""
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def offline_page(browser, timeout_ms: int = 60_000, **options):
    """A page on which every request to another host than localhost is refused."""
    page = browser.new_page(**{"viewport": {"width": 1400, "height": 1000}, **options})
    page.set_default_timeout(timeout_ms)
    # Only other hosts are routed: a Python handler for every local request would
    # stall the page whenever the test is not inside a Playwright call.
    page.route(re.compile(r"^(?!http://127\.0\.0\.1[:/]|data:|blob:|file:)"),
               lambda route: route.abort())
    return page


def run_all_until(page, shown, attempts: int = 3) -> None:
    """Run → Run All Cells, until the locator ``shown`` appears. A click before the kernel
    is connected can be lost, so it is retried (rerunning a notebook's cells is harmless)."""
    from playwright.sync_api import TimeoutError as NotYet

    for _ in range(attempts):
        page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
        try:
            shown.wait_for(timeout=15_000)
            return
        except NotYet:
            continue
    shown.wait_for()


def css_hex(css: str) -> str:
    """A colour the browser computed (``rgb(r, g, b)``) as the hex the widgets draw with."""
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"
