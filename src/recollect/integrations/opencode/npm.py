"""Pre-installing OpenCode's plugin package with npm, and taking back only what that created."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any
from urllib.parse import unquote, urlsplit

from recollect.integrations.opencode.base import (
    PLUGIN_PACKAGE,
    Change,
    Report,
    display,
)


def npm_plan(config_dir: Path, version: str) -> tuple[bool, str]:
    """(needed, why). OpenCode skips its own install when node_modules exists and the lock file
    lists the package (observed in 1.18.33's Npm.install)."""
    lock = config_dir / "package-lock.json"
    installed = config_dir / "node_modules" / PLUGIN_PACKAGE / "package.json"
    try:
        listed = PLUGIN_PACKAGE in (
            json.loads(lock.read_text()).get("packages", {}).get("", {}).get("dependencies", {})
        )
        have = json.loads(installed.read_text()).get("version")
    except (OSError, ValueError, AttributeError):
        return True, "not installed"
    if listed and have == version:
        return False, f"{PLUGIN_PACKAGE}@{have} already installed"
    return True, f"installed version is {have}"


NPM_TIMEOUT = 180.0  # seconds; OpenCode's own install would wait as long
TICK = 1.0  # seconds between two calls of the progress callback while npm prints nothing


@dataclass(frozen=True)
class NpmStatus:
    """What a running `npm install` has done so far, for a surface to show (the CLI: a spinner on a terminal,
    a line now and then when piped): without it a first install sits silent for up to a minute."""

    package: str  # "@opencode-ai/plugin@1.18.33"
    config_dir: str
    elapsed: float  # seconds since npm started
    requests: int  # registry requests npm reported (its `--loglevel http` lines): downloads and cache checks
    last: str  # the package of the latest request ("zod"), "" before the first
    done: bool = False


NpmProgress = Callable[[NpmStatus], None]

# npm's `--loglevel http` lines: "npm http fetch GET 200 https://registry.npmjs.org/zod 77ms (cache miss)",
# "npm http cache yaml@https://registry.npmjs.org/yaml/-/yaml-2.9.1.tgz 0ms (cache hit)"
_HTTP_LINE = re.compile(r"^npm http (?:fetch \S+ (?:\d+ )?(?P<url>\S+)|cache (?P<spec>\S+))")
# "npm error code ETARGET", "npm error errno -3008": labels, not the reason
_ERROR_LABEL = re.compile(r"^npm error (?:code|errno|syscall) \S+$")


def _package_of(line: str) -> str | None:
    """The package an `npm http` line is about ("@types/emscripten", "yaml"), or None for another line."""
    m = _HTTP_LINE.match(line)
    if not m:
        return None
    if m.group("spec"):
        return m.group("spec").rpartition("@http")[0] or m.group("spec")
    path = unquote(urlsplit(m.group("url")).path).lstrip("/")
    return path.split("/-/", 1)[0]


def npm_failure(lines: list[str]) -> str:
    """The line of npm's output that says why it failed: its first `npm error` line that is not a label or a
    stack frame ("notarget No matching version found for …", "FetchError: request to … failed, reason: …"),
    not the last one (where npm's log file is)."""
    for line in lines:
        if line.startswith("npm error ") and not _ERROR_LABEL.match(line) and not line[10:11].isspace():
            return line[10:].strip()
    return next((line.strip() for line in reversed(lines) if line.strip()), "")


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    try:
        for line in stream:
            lines.put(line.rstrip("\n"))
    except (OSError, ValueError):  # closed under it: a killed npm's child kept the pipe open
        pass
    lines.put(None)


def _npm(cmd: list[str], env: dict[str, str], status: NpmStatus, progress: NpmProgress | None) -> tuple[bool, str]:
    """Run npm, telling `progress` at the start, on every registry request it reports, every TICK seconds while
    it is quiet, and at the end; (succeeded, why not)."""
    tell = progress or (lambda _status: None)
    start = time.monotonic()
    tell(status)
    try:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
    except OSError as exc:
        tell(replace(status, elapsed=time.monotonic() - start, done=True))
        return False, str(exc)
    assert proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
    reader.start()
    output: list[str] = []
    timed_out = False
    while True:
        elapsed = time.monotonic() - start
        if elapsed > NPM_TIMEOUT:
            timed_out = True
            proc.kill()
            break
        try:
            line = lines.get(timeout=min(TICK, NPM_TIMEOUT - elapsed + 0.01))
        except queue.Empty:
            if proc.poll() is not None:  # npm ended, but a process it started still holds the pipe
                break
            status = replace(status, elapsed=time.monotonic() - start)
            tell(status)
            continue
        if line is None:
            break
        output.append(line)
        package = _package_of(line)
        if package is not None:
            status = replace(status, elapsed=time.monotonic() - start, requests=status.requests + 1, last=package)
            tell(status)
    code = proc.wait()
    reader.join(timeout=1)
    if not reader.is_alive():  # else a process npm started still holds the pipe: closing it would wait for that
        proc.stdout.close()
    tell(replace(status, elapsed=time.monotonic() - start, done=True))
    if timed_out:
        return False, f"npm was still running after {NPM_TIMEOUT:.0f} s and was stopped"
    return code == 0, "" if code == 0 else npm_failure(output) or f"npm exited with code {code}"


def run_npm(
    config_dir: Path, version: str, report: Report, record: dict[str, Any], progress: NpmProgress | None = None
) -> None:
    """Pre-install the plugin package into `config_dir` with npm; `progress` is told how it goes (NpmStatus)."""
    npm = shutil.which("npm")
    fallback = (
        "OpenCode will try to install it itself at start-up; offline that waits about 71 s unless OpenCode "
        "runs with npm_config_fetch_retries=0 in its environment (see docs/opencode.md)"
    )
    if not npm:
        report.notes.append(
            f"npm not found on PATH: {PLUGIN_PACKAGE}@{version} not pre-installed (install Node.js and npm, then run "
            f"'recollect install opencode' again). {fallback}"
        )
        return
    before = {name: (config_dir / name).exists() for name in ("package.json", "package-lock.json", "node_modules")}
    cmd = [npm, "install", "--prefix", str(config_dir), "--no-audit", "--no-fund", "--save-exact"]
    cmd += ["--loglevel", "http", f"{PLUGIN_PACKAGE}@{version}"]  # http: a line per registry request, to count
    env = dict(os.environ)
    env.setdefault("npm_config_fetch_retries", "1")
    status = NpmStatus(f"{PLUGIN_PACKAGE}@{version}", display(config_dir), 0.0, 0, "")
    ok, why = _npm(cmd, env, status, progress)
    created = [name for name, existed in before.items() if not existed and (config_dir / name).exists()]
    record.setdefault("created", [])
    record["created"] = sorted(set(record["created"]) | set(created))
    if ok:
        report.changes.append(Change(display(config_dir / "node_modules"), f"npm install {PLUGIN_PACKAGE}@{version}"))
        record["installed"] = version
    else:
        report.notes.append(f"npm install {PLUGIN_PACKAGE}@{version} failed: {why[:300]}. {fallback}")


def undo_npm(config_dir: Path, state: dict[str, Any], report: Report, dry_run: bool) -> None:
    created = state.get("created") or []
    if not created:
        return
    try:
        deps = json.loads((config_dir / "package.json").read_text()).get("dependencies", {})
    except (OSError, ValueError, AttributeError):
        deps = {}
    if set(deps) - {PLUGIN_PACKAGE}:
        report.notes.append(f"{display(config_dir / 'package.json')} now lists other packages; npm files left in place")
        return
    for name in created:
        target = config_dir / name
        if not target.exists():
            continue
        report.changes.append(Change(display(target), "delete (created by the npm pre-install)"))
        if not dry_run:
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink()
