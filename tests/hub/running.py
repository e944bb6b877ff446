"""A JupyterHub from ``deploy/jupyterhub_config.py`` for the browser test, and its end.

The hub runs as root with the deploy configuration loaded unchanged, plus what a test
needs: JupyterHub's DummyAuthenticator with a shared password, free localhost ports,
and configurable-http-proxy from ``.hub-proxy/`` (installed from the npm registry on
first use). Stopping it stops every process it started: the hub (which stops the
proxy and the users' servers), then whatever of theirs is still there, by process id.
"""

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_CONFIG = ROOT / "deploy" / "jupyterhub_config.py"
PROXY_PACKAGE = "configurable-http-proxy@5.3.0"
PROXY_PREFIX = ROOT / ".hub-proxy"
PROXY = PROXY_PREFIX / "node_modules" / ".bin" / "configurable-http-proxy"

__all__ = ["Hub", "os_user", "proxy_missing"]


def proxy_missing() -> str | None:
    """Why configurable-http-proxy cannot run here, or None once it is installed."""
    if shutil.which("node") is None:
        return "node not installed (apt-get install nodejs npm)"
    if PROXY.exists():
        return None
    if shutil.which("npm") is None:
        return "npm not installed (apt-get install npm)"
    done = subprocess.run(["npm", "install", "--prefix", str(PROXY_PREFIX), "--no-audit",
                           "--no-fund", "--loglevel=error", PROXY_PACKAGE],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0 or not PROXY.exists():
        raise RuntimeError(f"npm install {PROXY_PACKAGE} failed:\n{done.stderr[-3000:]}")
    return None


def os_user(name: str, home: Path) -> pwd.struct_passwd:
    """OS user ``name`` with ``home`` as its home (made if missing, moved if elsewhere)."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", str(home),
                        "--shell", "/usr/sbin/nologin", name], check=True)
        entry = pwd.getpwnam(name)
    if entry.pw_dir != str(home):
        subprocess.run(["usermod", "--home", str(home), name], check=True)
        entry = pwd.getpwnam(name)
    home.mkdir(parents=True, exist_ok=True)
    os.chown(home, entry.pw_uid, entry.pw_gid)
    home.chmod(0o700)
    return entry


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


_TEST_CONFIG = '''# deploy/jupyterhub_config.py, with a test's login, ports and proxy.
load_subconfig({deploy!r})
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.JupyterHub.bind_url = "http://127.0.0.1:{public}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
'''


class Hub:
    """``with Hub(state, env, password, users) as hub``: ``hub.url`` answers inside."""

    def __init__(self, state: Path, env: dict, password: str, users: list[str]):
        self.state, self.env, self.password = state, env, password
        self.uids = {pwd.getpwnam(u).pw_uid for u in users}
        self.log = state / "hub.log"
        self.process: subprocess.Popen | None = None
        self.url = ""

    def __enter__(self) -> "Hub":
        self.state.mkdir(parents=True, exist_ok=True)
        try:
            for _ in range(3):  # a port picked free may be taken before the hub binds it
                if self._start():
                    return self
                self._stop()
            raise RuntimeError(f"the hub lost its ports 3 times:\n{self._said()}")
        except BaseException:
            self.__exit__()
            raise

    def _start(self) -> bool:
        public, hub, api = _free_ports(3)
        config = self.state / "jupyterhub_config.py"
        config.write_text(_TEST_CONFIG.format(deploy=str(DEPLOY_CONFIG), password=self.password,
                                              public=public, hub=hub, api=api,
                                              proxy=str(PROXY)), encoding="utf-8")
        with open(self.log, "w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=self.state,
                env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.url = f"http://127.0.0.1:{public}"
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if "address already in use" in self._said().lower():
                    return False
                raise RuntimeError(f"jupyterhub exited:\n{self._said()}")
            try:
                with urllib.request.urlopen(f"{self.url}/hub/health", timeout=3) as reply:
                    if reply.status == 200:
                        return True
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.5)
        raise RuntimeError(f"jupyterhub did not answer in 90 s:\n{self._said()}")

    def _said(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def _stop(self) -> None:
        """The hub stops its proxy and users' servers on SIGTERM; then, whatever remains."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.process is not None:
            try:  # the proxy, should the hub have been killed before stopping it
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._kill_leftovers()
        self.process = None

    def _kill_leftovers(self) -> None:
        """The proxy (by its pid file) and any process of the test's users, by id."""
        pids = set()
        pid_file = self.state / "jupyterhub-proxy.pid"
        if pid_file.exists():  # left when the hub could not stop the proxy itself
            pid = pid_file.read_text().strip()
            if pid.isdigit() and _is_proxy(Path("/proc") / pid):
                pids.add(int(pid))
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and _uid(entry) in self.uids:
                pids.add(int(entry.name))
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def __exit__(self, *exc) -> None:
        self._stop()


def _is_proxy(proc: Path) -> bool:
    try:
        return b"configurable-http-proxy" in (proc / "cmdline").read_bytes()
    except OSError:
        return False


def _uid(proc: Path) -> int | None:
    try:
        for line in (proc / "status").read_text().splitlines():
            if line.startswith("Uid:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None
