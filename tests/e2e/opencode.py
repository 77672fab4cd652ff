"""Driver for the REAL OpenCode binary (npm ``opencode-ai``), for end-to-end tests.

* ``ensure_opencode(version)`` npm-installs the pinned package into a cache dir (once) and returns the
  binary.
* ``OpenCodeWorld(tmp_path)`` is a throwaway world: a HOME with XDG dirs, git projects with fixed
  commit dates (so project ids are stable), an in-process fake LLM (``fake_llm.FakeLLM``), an
  ``opencode.json`` pointing at it, and ``opencode serve`` on loopback (started lazily by the first API
  call, or by ``start()``). Everything it starts is stopped by PID on ``close()`` / context exit.

Facts this relies on (observed with opencode-ai 1.18.33):

* OpenCode takes its working directory from ``$PWD`` when set, not from the real cwd, so every
  process gets ``PWD`` = its cwd.
* ``serve --port 0`` does not mean "any free port" (it picked 4096), so we pick a free port ourselves
  and read the address back from the "listening on" line.
* The store is ``$XDG_DATA_HOME/opencode/opencode.db`` in WAL mode; a SIGTERM'd server does not
  checkpoint, so readers must open it in place (``mode=ro``), never copy the main file alone.
* If any plugin is configured, start-up waits for OpenCode's own ``npm install @opencode-ai/plugin``;
  offline that stalls ~71 s unless ``npm_config_fetch_retries=0``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import queue
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from .fake_llm import FakeLLM, Rule

DEFAULT_VERSION = "1.18.33"
PROVIDER_ID = "fake"
MODEL_ID = "fake-model"
# A fixed date makes a project's root commit, and so OpenCode's project id, the same on every run.
FIXED_GIT_DATE = "2026-01-01T00:00:00Z"
# Inherited variables that would leak the developer's own setup into the world.
_STRIPPED_ENV_PREFIXES = ("OPENCODE_", "XDG_", "RECOLLECT_", "GIT_")
_STRIPPED_ENV_NAMES = ("PWD", "OLDPWD", "HOME")


class OpenCodeError(RuntimeError):
    """OpenCode could not be installed, started or driven."""


class OpenCodeAPIError(OpenCodeError):
    def __init__(self, method: str, path: str, status: int, body: str) -> None:
        super().__init__(f"{method} {path} -> HTTP {status}: {body[:1000]}")
        self.status = status
        self.body = body


# --------------------------------------------------------------------------------------- install


# The cache dir is resolved from the environment at import time: test fixtures (the suite's autouse
# isolation) later point HOME/XDG_* at temp dirs, and a 350 MB install must not land there.
_CACHE_ROOT = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "recollect-tests"


def opencode_prefix(version: str = DEFAULT_VERSION) -> Path:
    """Where ``ensure_opencode`` installs: $RECOLLECT_OPENCODE_PREFIX, else
    ~/.cache/recollect-tests/opencode-<version>."""
    override = os.environ.get("RECOLLECT_OPENCODE_PREFIX")
    if override:
        return Path(override).expanduser().resolve()
    return _CACHE_ROOT / f"opencode-{version}"


def _installed_version(prefix: Path) -> str | None:
    pkg = prefix / "node_modules" / "opencode-ai" / "package.json"
    try:
        return str(json.loads(pkg.read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def _fingerprint(path: Path) -> list[Any]:
    st = path.stat()
    return [str(path), st.st_size, st.st_mtime_ns, st.st_ino]


def _find_binary(prefix: Path, version: str) -> Path | None:
    """The runnable binary of that version: the postinstall's hard link, else a platform package.

    Starting the 177 MB binary for ``--version`` costs up to seconds on a busy machine, so a verified
    choice is remembered in the prefix and reused while the file is unchanged.
    """
    marker = prefix / f".verified-{version}.json"
    with contextlib.suppress(OSError, ValueError, TypeError):
        remembered = json.loads(marker.read_text())
        if remembered == _fingerprint(Path(remembered[0])):
            return Path(remembered[0])
    nm = prefix / "node_modules"
    candidates = [nm / "opencode-ai" / "bin" / "opencode.exe"]
    for d in sorted(nm.glob("opencode-*")):
        if d.name != "opencode-ai":
            candidates += [d / "bin" / "opencode", d / "bin" / "opencode.exe"]
    for c in candidates:
        # The npm package also ships a small node launcher; we want the real (large) executable.
        if not c.is_file() or c.stat().st_size < 1_000_000:
            continue
        try:
            out = subprocess.run([str(c), "--version"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue  # e.g. the AVX2 build on a CPU without AVX2: try the baseline one
        if out.returncode == 0 and out.stdout.strip() == version:
            marker.write_text(json.dumps(_fingerprint(c)))
            return c
    return None


def ensure_opencode(version: str = DEFAULT_VERSION, prefix: Path | None = None) -> Path:
    """Install npm ``opencode-ai@version`` into ``prefix`` unless present; return the binary.

    A file lock serialises concurrent test runs sharing the cache dir. Raises OpenCodeError with
    npm's own output when the install fails.
    """
    prefix = prefix or opencode_prefix(version)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with open(prefix.parent / f".{prefix.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _installed_version(prefix) == version:
            found = _find_binary(prefix, version)
            if found:
                return found
        npm = shutil.which("npm")
        if not npm:
            raise OpenCodeError("npm is not on PATH; it is needed to install opencode-ai")
        prefix.mkdir(parents=True, exist_ok=True)
        if not (prefix / "package.json").exists():
            # Own package.json, so npm installs here instead of walking up to some parent project.
            (prefix / "package.json").write_text('{"name": "recollect-opencode-e2e", "private": true}\n')
        cmd = [npm, "install", "--no-audit", "--no-fund", "--save-exact", f"opencode-ai@{version}"]
        try:
            r = subprocess.run(cmd, cwd=prefix, capture_output=True, text=True, timeout=900)
        except subprocess.TimeoutExpired as e:
            raise OpenCodeError(f"`{' '.join(cmd)}` timed out after {e.timeout} s in {prefix}") from e
        if r.returncode != 0:
            raise OpenCodeError(
                f"`{' '.join(cmd)}` failed (exit {r.returncode}) in {prefix}:\n{(r.stdout + r.stderr)[-4000:]}"
            )
        found = _find_binary(prefix, version)
        if not found:
            raise OpenCodeError(
                f"npm installed opencode-ai@{version} into {prefix} but no runnable binary reports "
                f"{version}:\n{(r.stdout + r.stderr)[-2000:]}"
            )
        return found


# --------------------------------------------------------------------------------------- helpers


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _deep_merge(base: dict[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in patch.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def _stop_process(p: subprocess.Popen[Any], grace: float = 10.0) -> None:
    """SIGTERM, then SIGKILL, the process and its own process group (bash tool children, MCP servers).

    The group id is the pid because every process here is started with start_new_session=True.
    """
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        if p.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p.pid, sig)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(p.pid, sig)
        try:
            p.wait(timeout=wait)
            if sig == signal.SIGTERM:
                # The leader is gone; make sure no child it left behind outlives the world.
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(p.pid, signal.SIGKILL)
            return
        except subprocess.TimeoutExpired:
            continue


def _stop_all(procs: list[subprocess.Popen[Any]]) -> None:
    while procs:
        _stop_process(procs.pop())


def _tail(path: Path, n: int = 4000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return ""


def git_project(path: Path, files: Mapping[str, str] | None = None, *, env: Mapping[str, str] | None = None) -> Path:
    """A git repo with one commit of ``files`` at a fixed date (stable root commit = project id)."""
    path.mkdir(parents=True, exist_ok=True)
    for name, text in (files or {"README.md": f"# {path.name}\n"}).items():
        f = path / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    genv = dict(env or os.environ)
    genv.update(GIT_AUTHOR_DATE=FIXED_GIT_DATE, GIT_COMMITTER_DATE=FIXED_GIT_DATE, GIT_CONFIG_NOSYSTEM="1")
    ident = ["-c", "user.name=fixture", "-c", "user.email=fixture@example.invalid", "-c", "commit.gpgsign=false"]
    for cmd in (
        ["git", "-c", "init.defaultBranch=main", "init", "-q"],
        ["git", "add", "-A"],
        ["git", *ident, "commit", "-q", "-m", "initial commit"],
    ):
        subprocess.run(cmd, cwd=path, env=genv, check=True, capture_output=True)
    return path


# --------------------------------------------------------------------------------------- world


class OpenCodeWorld:
    """A throwaway OpenCode installation state, driven over ``opencode serve``'s HTTP API.

    Layout under ``tmp_path / name`` (default "world"): ``home/`` (HOME + XDG dirs), ``projects/<name>``,
    ``cwd/`` (where serve runs), ``logs/`` (serve output, fake LLM request log ``llm_requests.jsonl``)
    and ``llm_rules.json`` (the fake LLM's rules, re-read on every request).

    Configure before the server starts (``config=``, ``update_config``, ``add_config_file``); changes
    after that need ``restart()``.
    """

    def __init__(
        self,
        tmp_path: Path,
        *,
        name: str = "world",
        binary: Path | None = None,
        version: str = DEFAULT_VERSION,
        rules: list[Rule] | None = None,
        config: Mapping[str, Any] | None = None,
        config_files: Mapping[str, str | bytes] | None = None,
        extra_env: Mapping[str, str] | None = None,
        offline_npm: bool = True,
        start_timeout: float = 60.0,
    ) -> None:
        self.binary = Path(binary) if binary else ensure_opencode(version)
        self.root = Path(tmp_path) / name
        self.home = self.root / "home"
        self.config_dir = self.home / ".config" / "opencode"
        self.data_dir = self.home / ".local" / "share" / "opencode"
        self.projects_dir = self.root / "projects"
        self.cwd = self.root / "cwd"
        self.logs_dir = self.root / "logs"
        for d in (
            self.home / ".cache",
            self.home / ".local" / "state",
            self.config_dir,
            self.data_dir,
            self.projects_dir,
            self.cwd,
            self.logs_dir,
        ):
            d.mkdir(parents=True, exist_ok=True)
        self.rules_path = self.root / "llm_rules.json"
        self.llm = FakeLLM(rules, rules_path=self.rules_path, log_path=self.logs_dir / "llm_requests.jsonl")
        self._llm_started = False
        self._extra_config: dict[str, Any] = dict(config or {})
        self._extra_env = dict(extra_env or {})
        self._offline_npm = offline_npm
        self._start_timeout = start_timeout
        self._serve: subprocess.Popen[bytes] | None = None
        self._procs: list[subprocess.Popen[Any]] = []
        # Safety net for a world that is never closed: stop its processes at interpreter exit.
        self._finalizer = weakref.finalize(self, _stop_all, self._procs)
        self._starts = 0
        self._session_dirs: dict[str, str] = {}
        self.base_url: str | None = None
        for rel, content in (config_files or {}).items():
            self.add_config_file(rel, content)

    # ---- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> OpenCodeWorld:
        self._ensure_llm()
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _ensure_llm(self) -> None:
        if not self._llm_started:
            self.llm.start()
            self._llm_started = True

    @property
    def running(self) -> bool:
        return self._serve is not None and self._serve.poll() is None

    def start(self) -> str:
        """Write opencode.json and start ``opencode serve``; return its base URL."""
        if self.running:
            assert self.base_url
            return self.base_url
        self._ensure_llm()
        self._write_config()
        self._starts += 1
        log = self.logs_dir / f"serve-{self._starts}.log"
        out_path = self.logs_dir / f"serve-{self._starts}.stdout"
        cmd = [
            str(self.binary),
            "serve",
            "--hostname",
            "127.0.0.1",
            "--port",
            str(_free_port()),
            "--print-logs",
            "--log-level",
            "INFO",
        ]
        with open(log, "wb") as err:
            p = self._spawn(cmd, cwd=self.cwd, stdout=subprocess.PIPE, stderr=err)
        self._serve = p
        lines: queue.Queue[str] = queue.Queue()
        assert p.stdout is not None
        # Keep draining stdout for the server's lifetime, so a full pipe can never block it.
        threading.Thread(target=_drain, args=(p.stdout, out_path, lines), daemon=True).start()
        deadline = time.monotonic() + self._start_timeout
        url = None
        while url is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                if p.poll() is not None:
                    break
                continue
            m = re.search(r"listening on (http://[\w.\[\]:-]+)", line)
            if m:
                url = m.group(1).rstrip("/")
        if url is None:
            self.stop()
            raise OpenCodeError(
                f"opencode serve did not report an address within {self._start_timeout} s "
                f"(exit {p.returncode}).\nstdout: {_tail(out_path)}\nlog: {_tail(log)}"
            )
        self.base_url = url
        while time.monotonic() < deadline and p.poll() is None:
            try:
                self.api("GET", "/global/health", timeout=5)
                return url
            except (OpenCodeError, OSError):
                time.sleep(0.1)
        self.stop()
        raise OpenCodeError(f"opencode serve at {url} never became healthy (exit {p.returncode}).\nlog: {_tail(log)}")

    def stop(self) -> None:
        """Stop the server (and any CLI process still running). The fake LLM keeps running."""
        if self.running and self.base_url:
            # Let instances shut down their MCP servers and plugins before the signal.
            with contextlib.suppress(OpenCodeError, OSError):
                self.api("POST", "/global/dispose", {}, timeout=10)
        _stop_all(self._procs)
        self._serve = None
        self.base_url = None

    def restart(self) -> str:
        self.stop()
        return self.start()

    def close(self) -> None:
        """Stop everything this world started. Safe to call twice."""
        try:
            self.stop()
        finally:
            if self._llm_started:
                self.llm.stop()
                self._llm_started = False

    def _spawn(self, cmd: Sequence[str], *, cwd: Path, **kw: Any) -> subprocess.Popen[Any]:
        env = self.opencode_env
        env["PWD"] = str(cwd)  # OpenCode trusts $PWD over the real cwd
        p = subprocess.Popen(
            list(cmd), cwd=cwd, env=env, stdin=kw.pop("stdin", subprocess.DEVNULL), start_new_session=True, **kw
        )
        self._procs.append(p)
        return p

    # ---- configuration -----------------------------------------------------------------------

    @property
    def db_path(self) -> Path:
        """The live store. Open it in place (``connect_ro``), never copy it: the WAL matters."""
        return self.data_dir / "opencode.db"

    @property
    def env(self) -> dict[str, str]:
        """Environment for child processes such as the recollect CLI: this world's HOME and XDG_*.

        The developer's own OPENCODE_*, XDG_*, RECOLLECT_* and GIT_* variables are removed, so a test
        can never read or write the real stores. A fresh dict on every access.
        """
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(_STRIPPED_ENV_PREFIXES) and k not in _STRIPPED_ENV_NAMES
        }
        env.update(
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            XDG_DATA_HOME=str(self.home / ".local" / "share"),
            XDG_CACHE_HOME=str(self.home / ".cache"),
            XDG_STATE_HOME=str(self.home / ".local" / "state"),
        )
        return env

    @property
    def opencode_env(self) -> dict[str, str]:
        """``env`` plus what keeps OpenCode offline and quiet."""
        env = self.env
        env.update(
            OPENCODE_DISABLE_MODELS_FETCH="true",  # else it fetches models.dev
            OPENCODE_DISABLE_AUTOUPDATE="true",
            OPENCODE_DISABLE_LSP_DOWNLOAD="true",
            OPENCODE_DISABLE_SHARE="true",
            NO_COLOR="1",
            # OpenCode npm-installs @opencode-ai/plugin into config dirs and, with a plugin present,
            # waits for it: without retries an unreachable registry fails in <1 s instead of ~71 s.
            npm_config_fetch_retries="0",
            npm_config_update_notifier="false",
        )
        if self._offline_npm:
            env["npm_config_registry"] = "http://127.0.0.1:9/"  # dead loopback port: fail fast, no network
        env.update(self._extra_env)
        return env

    def base_config(self) -> dict[str, Any]:
        self._ensure_llm()
        model = {
            "name": "Fake Model",
            "tool_call": True,
            "reasoning": True,
            "limit": {"context": 200000, "output": 8192},
        }
        return {
            "autoupdate": False,
            "share": "disabled",
            "model": f"{PROVIDER_ID}/{MODEL_ID}",
            "small_model": f"{PROVIDER_ID}/{MODEL_ID}",
            "permission": {"*": "allow", "external_directory": "allow", "doom_loop": "allow"},
            "provider": {
                PROVIDER_ID: {
                    "npm": "@ai-sdk/openai-compatible",  # bundled in the binary: no runtime install
                    "name": "Fake LLM",
                    "options": {"baseURL": self.llm.url, "apiKey": "sk-fake"},
                    "models": {MODEL_ID: model},
                }
            },
        }

    @property
    def config(self) -> dict[str, Any]:
        """The opencode.json this world writes: base config deep-merged with the extra config."""
        return _deep_merge(self.base_config(), self._extra_config)

    def update_config(self, patch: Mapping[str, Any]) -> None:
        """Deep-merge ``patch`` (e.g. {"mcp": {...}}, {"plugin": [...]}) into opencode.json.

        Takes effect on the next ``start()``/``restart()``.
        """
        self._extra_config = _deep_merge(self._extra_config, patch)
        if self._llm_started:
            self._write_config()

    def add_config_file(self, relpath: str, content: str | bytes) -> Path:
        """Write a file under ~/.config/opencode/ (e.g. "plugin/x.js", "agent/recall.md")."""
        target = (self.config_dir / relpath).resolve()
        if not target.is_relative_to(self.config_dir.resolve()):
            raise ValueError(f"{relpath!r} is outside the config dir")
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)
        return target

    def _write_config(self) -> None:
        (self.config_dir / "opencode.json").write_text(json.dumps(self.config, indent=2) + "\n")

    def set_rules(self, rules: list[Rule]) -> None:
        """Replace the fake LLM's rules; the running server picks them up on its next request."""
        self.llm.set_rules(rules)

    def llm_requests(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Every request the fake LLM received ({seq, kind, rule, request, reply}), oldest first."""
        return self.llm.requests(kind)

    # ---- projects ----------------------------------------------------------------------------

    def project(self, name: str, files: Mapping[str, str] | None = None) -> Path:
        """``projects/<name>`` as a git repo with a fixed first commit (created once)."""
        path = self.projects_dir / name
        if not (path / ".git").exists():
            git_project(path, files, env=self.env)
        return path

    def plain_dir(self, name: str) -> Path:
        """``projects/<name>`` without git (OpenCode files its sessions under project "global")."""
        path = self.projects_dir / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    def project_id(self, path: Path) -> str:
        """OpenCode's id for a git project: its root commit."""
        r = subprocess.run(
            ["git", "rev-list", "--max-parents=0", "HEAD"],
            cwd=path,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return r.stdout.split()[0]

    # ---- HTTP API ----------------------------------------------------------------------------

    def api(
        self, method: str, path: str, body: Any = None, *, directory: str | Path | None = None, timeout: float = 120.0
    ) -> Any:
        """One call to the server (started on demand); returns the decoded JSON (or None)."""
        if self._serve is None:
            self.start()
        elif self._serve.poll() is not None:
            # Never restart silently: a crashed server is a finding.
            raise OpenCodeError(f"opencode serve exited with {self._serve.returncode}:\n{self.log_tail()}")
        if directory is not None:
            path += ("&" if "?" in path else "?") + "directory=" + urllib.parse.quote(str(directory))
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            f"{self.base_url}{path}", data=data, method=method, headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                text = r.read().decode()
        except urllib.error.HTTPError as e:
            raise OpenCodeAPIError(method, path, e.code, e.read().decode(errors="replace")) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            raise OpenCodeError(f"{method} {path}: {e}") from e
        return json.loads(text) if text.strip() else None

    def _directory_of(self, session_id: str) -> str:
        if session_id not in self._session_dirs:
            # Made elsewhere (e.g. `opencode run`): the store knows its directory.
            rows = self.query("select directory from session where id = ?", (session_id,))
            if not rows:
                raise OpenCodeError(f"unknown session {session_id}")
            self._session_dirs[session_id] = rows[0][0]
        return self._session_dirs[session_id]

    def create_session(self, directory: str | Path, *, title: str | None = None) -> str:
        body = {"title": title} if title else {}
        sid = str(self.api("POST", "/session", body, directory=directory)["id"])
        self._session_dirs[sid] = str(directory)
        return sid

    def session(self, session_id: str) -> dict[str, Any]:
        return dict(self.api("GET", f"/session/{session_id}", directory=self._directory_of(session_id)))

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        """[{info, parts}] of a session, oldest first."""
        return list(self.api("GET", f"/session/{session_id}/message", directory=self._directory_of(session_id)))

    def prompt(
        self,
        session_id: str,
        text: str | None = None,
        *,
        wait: bool = True,
        parts: list[dict[str, Any]] | None = None,
        agent: str | None = None,
        timeout: float = 120.0,
        **extra: Any,
    ) -> dict[str, Any] | None:
        """Send a user message. With ``wait`` return the final assistant message ({info, parts})
        once the session is idle and that message is completed; else return at once (prompt_async)."""
        if text is None and not parts:
            raise ValueError("prompt needs text or parts")
        body: dict[str, Any] = {"parts": parts or [{"type": "text", "text": text}], **extra}
        if agent:
            body["agent"] = agent
        directory = self._directory_of(session_id)
        if not wait:
            self.api("POST", f"/session/{session_id}/prompt_async", body, directory=directory, timeout=timeout)
            return None
        reply = self.api("POST", f"/session/{session_id}/message", body, directory=directory, timeout=timeout)
        self.wait_idle(session_id, timeout=timeout, require_reply=not body.get("noReply"))
        return reply

    def wait_idle(self, session_id: str, *, timeout: float = 60.0, require_reply: bool = True) -> None:
        """Until the session is not busy and (with ``require_reply``) its last message is a finished
        assistant message (``time.completed`` or an error)."""
        directory = self._directory_of(session_id)
        deadline = time.monotonic() + timeout
        while True:
            status = self.api("GET", "/session/status", directory=directory) or {}
            busy = (status.get(session_id) or {}).get("type", "idle") != "idle"
            if not busy:
                if not require_reply:
                    return
                msgs = self.messages(session_id)
                last = msgs[-1]["info"] if msgs else {}
                if last.get("role") == "assistant" and ((last.get("time") or {}).get("completed") or last.get("error")):
                    return
            if time.monotonic() > deadline:
                raise OpenCodeError(f"session {session_id} still busy after {timeout} s (status {status})")
            time.sleep(0.1)

    def delete_session(self, session_id: str) -> None:
        self.api("DELETE", f"/session/{session_id}", directory=self._directory_of(session_id))
        self._session_dirs.pop(session_id, None)

    # ---- CLI ---------------------------------------------------------------------------------

    def run_cli(
        self,
        args: Sequence[str],
        cwd: str | Path,
        *,
        input: str | None = None,
        timeout: float = 180.0,
        check: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        """Run ``opencode ARGS`` in ``cwd`` with this world's environment (PWD = cwd).

        Tip: ``opencode run`` quotes a message argument containing spaces; pass the words as separate
        arguments or the message on ``input``.
        """
        cmd = [str(self.binary), *args]
        p = self._spawn(
            cmd,
            cwd=Path(cwd),
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            out, err = p.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            _stop_process(p)
            raise OpenCodeError(f"`opencode {' '.join(args)}` timed out after {timeout} s") from e
        finally:
            if p.poll() is not None:
                with contextlib.suppress(ValueError):
                    self._procs.remove(p)
        done = subprocess.CompletedProcess(cmd, p.returncode, out, err)
        if check and p.returncode != 0:
            raise OpenCodeError(f"`opencode {' '.join(args)}` exited {p.returncode}:\n{out[-2000:]}\n{err[-2000:]}")
        return done

    # ---- store -------------------------------------------------------------------------------

    def connect_ro(self) -> sqlite3.Connection:
        """A read-only connection to the live store, in place (sees the WAL). Close it soon: a long
        read transaction blocks OpenCode's checkpoints."""
        con = sqlite3.connect(self.db_path.as_uri() + "?mode=ro", uri=True, timeout=10)
        con.execute("pragma busy_timeout = 5000")
        return con

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        con = self.connect_ro()
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def wait_settled(self, *, quiet: float = 0.7, timeout: float = 15.0) -> None:
        """Until the store stops changing for ``quiet`` s (titles are written ~1 s after a reply)."""

        def fingerprint() -> Any:
            try:
                return self.query("select aggregate_id, seq from event_sequence order by 1")
            except sqlite3.Error as e:
                return repr(e)

        deadline = time.monotonic() + timeout
        last, since = fingerprint(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.1)
            cur = fingerprint()
            if cur != last:
                last, since = cur, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
        raise OpenCodeError(f"store still changing after {timeout} s")

    def store_files(self) -> list[Path]:
        """The store's content files that exist now: opencode.db and its -wal (not -shm, which any
        reader may rewrite)."""
        return [p for p in (self.db_path, self.db_path.with_name(self.db_path.name + "-wal")) if p.exists()]

    def log_tail(self, n: int = 3000) -> str:
        """The end of the latest server log, for failure reports."""
        return _tail(self.logs_dir / f"serve-{self._starts}.log", n) if self._starts else ""


def _drain(pipe: IO[bytes], path: Path, lines: queue.Queue[str]) -> None:
    with open(path, "ab") as f:
        for raw in iter(pipe.readline, b""):
            f.write(raw)
            f.flush()
            lines.put(raw.decode(errors="replace"))
