"""`install`: plan every write first (a conflict writes nothing), then write and record it."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from recollect.config import ConfigError, Paths, load_config, resolve_paths
from recollect.integrations.opencode.base import (
    AGENT_FILE,
    DEFAULT_OPENCODE_VERSION,
    MARK,
    PLUGIN_FILE,
    PLUGIN_PACKAGE,
    Change,
    InstallError,
    Report,
    choose_config_file,
    display,
    load_manifest,
    manifest_path,
    opencode_config_dir,
    read_text,
    save_manifest,
    sha,
    write_atomic,
)
from recollect.integrations.opencode.configfile import plan_config
from recollect.integrations.opencode.npm import NpmProgress, npm_plan, run_npm
from recollect.integrations.opencode.texts import agent_text, mcp_entry, plugin_text


def detect_opencode_version() -> str | None:
    exe = shutil.which("opencode")
    if not exe:
        return None
    try:
        r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"\b(\d+\.\d+\.\d+(?:-[\w.]+)?)\b", r.stdout)
    return m.group(1) if r.returncode == 0 and m else None


def _auto_extract_note(paths: Paths | None) -> str:
    """What the plugin will do with finished sessions, what it costs and how to stop it (seed 002)."""
    paths = paths or resolve_paths()
    try:
        config = load_config(paths)
        on = config.section("memory").get("auto_extract", True) is not False
        own_model = bool(config.section("extract").get("endpoint"))
    except ConfigError:
        on, own_model = True, False
    if not on:
        return (
            "automatic memory extraction is off ([memory] auto_extract = false in "
            f"{display(paths.config_file)}); set it to true to have finished sessions proposed as memories"
        )
    return (
        "automatic memory extraction is on: when a session with at least 4 turns goes idle, one call to the "
        "cheapest model with an 8k context proposes memories, which wait for you in 'recollect memory review' "
        f"(nothing is accepted without you). Turn it off with [memory] auto_extract = false in "
        f"{display(paths.config_file)}"
        + (
            ""
            if own_model
            else ". It asks the OpenCode the session ran in for that model, through a loopback bridge the plugin "
            "opens (no --port needed; else set [extract] endpoint and model)"
        )
    )


def _has_mcp_sdk(python: str) -> bool:
    if python == sys.executable:
        return importlib.util.find_spec("mcp") is not None
    try:
        r = subprocess.run([python, "-c", "import mcp"], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def _plan_file(path: Path, text: str, record: dict[str, Any], force: bool, label: str, report: Report) -> bool:
    """Whether `path` must be written; updates `record` (the file's manifest entry)."""
    before = read_text(path)
    if before == text:
        report.notes.append(f"{display(path)}: {label} already up to date")
        record.setdefault("existed", False)
        record["written_sha"] = sha(text)
        return False
    if before is not None and MARK not in before and "written_sha" not in record:
        if not force:
            report.conflicts.append(
                f"{display(path)} exists and is not recollect's; move it away or run again with --force "
                "(uninstall puts it back)"
            )
            return False
        record["original"] = before
    record.setdefault("existed", before is not None)
    record["written_sha"] = sha(text)
    report.changes.append(Change(display(path), "create" if before is None else "update", [label]))
    return True


def _created_dirs(config_dir: Path, record: dict[str, Any]) -> set[str]:
    """The directories this install creates (with those an earlier one did): uninstall removes them when empty."""
    created_dirs = set(record.get("created_dirs") or [])
    for d in ("agent", "plugin"):
        if not (config_dir / d).exists():
            created_dirs.add(d)
    if not config_dir.exists():
        created_dirs.add(".")
    return created_dirs


def _pre_install(
    config_dir: Path,
    version: str,
    plan: tuple[bool, bool, str],
    report: Report,
    record: dict[str, Any],
    progress: NpmProgress | None,
) -> None:
    """The npm pre-install of the plugin package; `plan` is (asked for, needed, why)."""
    npm, needed, why = plan
    if npm and needed:
        run_npm(config_dir, version, report, record, progress)
    elif npm:
        report.notes.append(why)
    else:
        report.notes.append(
            f"npm pre-install skipped: OpenCode installs {PLUGIN_PACKAGE} itself at start-up; offline, start it "
            "with npm_config_fetch_retries=0 to avoid a ~71 s wait"
        )


def _check_runtime(python: str, paths: Paths | None, report: Report) -> None:
    """Notes on what the installed pieces will do or lack: auto-extraction, the MCP SDK."""
    report.notes.append(_auto_extract_note(paths))
    if not _has_mcp_sdk(python):
        report.notes.append(
            f"the MCP SDK is not importable by {python}: install it (pip install 'recollect[mcp]'), else "
            "OpenCode lists the recollect server as failed"
        )


def install(
    *,
    config_dir: Path | None = None,
    config_file: Path | None = None,
    python: str | None = None,
    force: bool = False,
    dry_run: bool = False,
    npm: bool = True,
    opencode_version: str | None = None,
    paths: Paths | None = None,
    scope: str | None = None,
    npm_progress: NpmProgress | None = None,
) -> Report:
    """Install (or bring up to date) recollect's MCP server, recall agent and plugin for OpenCode.
    `scope` ('project', 'directory'; None or 'all': unbounded) is the ceiling both are started with;
    `npm_progress` is told how the npm pre-install goes while it runs (it can take a minute)."""
    config_dir = (config_dir or opencode_config_dir()).absolute()
    config_file = (config_file or choose_config_file(config_dir)).absolute()
    python = python or sys.executable
    if not os.path.isabs(python):
        raise InstallError(f"the Python path must be absolute (OpenCode expands no ~ or PATH search): {python}")
    report = Report(config_dir=display(config_dir), dry_run=dry_run)
    manifest = load_manifest(paths)
    record = manifest["installs"].get(str(config_dir), {})
    files_record: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (record.get("files") or {}).items()}

    new_config, config_state = plan_config(config_file, mcp_entry(python, scope), record, force, report)
    writes: list[tuple[Path, str]] = []
    for rel, text, label in (
        (AGENT_FILE, agent_text(), "recall subagent"),
        (PLUGIN_FILE, plugin_text(python, scope), "plugin"),
    ):
        entry = files_record.setdefault(rel, {})
        if _plan_file(config_dir / rel, text, entry, force, label, report):
            writes.append((config_dir / rel, text))
    if report.conflicts:
        return report  # nothing written: a half-install is worse than none

    found = opencode_version or detect_opencode_version()
    report.opencode_found = bool(found)
    version = found or DEFAULT_OPENCODE_VERSION
    npm_record = dict(record.get("npm") or {})
    needed, why = npm_plan(config_dir, version)
    if dry_run:
        if npm and needed:
            report.changes.append(
                Change(display(config_dir / "node_modules"), f"npm install {PLUGIN_PACKAGE}@{version} ({why})")
            )
        report.manifest = display(manifest_path(paths))
        return report

    created_dirs = _created_dirs(config_dir, record)
    if new_config is not None:
        write_atomic(config_file, new_config)
    for path, text in writes:
        write_atomic(path, text)
    _pre_install(config_dir, version, (npm, needed, why), report, npm_record, npm_progress)
    _check_runtime(python, paths, report)
    if not found:
        report.notes.append(
            "no OpenCode on PATH answered 'opencode --version': install it (npm install -g "
            f"opencode-ai@{DEFAULT_OPENCODE_VERSION}, the version recollect is checked against); it loads "
            "recollect when it starts"
        )
    manifest["installs"][str(config_dir)] = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": python,
        "config": config_state,
        "files": files_record,
        "npm": npm_record,
        "created_dirs": sorted(created_dirs),
    }
    report.manifest = display(save_manifest(manifest, paths))
    return report
