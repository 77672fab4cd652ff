"""Pre-installing OpenCode's plugin package with npm, and taking back only what that created."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

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


def run_npm(config_dir: Path, version: str, report: Report, record: dict[str, Any]) -> None:
    npm = shutil.which("npm")
    fallback = (
        "OpenCode will try to install it itself at start-up; offline that waits about 71 s unless OpenCode "
        "runs with npm_config_fetch_retries=0 in its environment (see docs/opencode.md)"
    )
    if not npm:
        report.notes.append(f"npm not found: {PLUGIN_PACKAGE}@{version} not pre-installed. {fallback}")
        return
    before = {name: (config_dir / name).exists() for name in ("package.json", "package-lock.json", "node_modules")}
    cmd = [npm, "install", "--prefix", str(config_dir), "--no-audit", "--no-fund", "--save-exact"]
    cmd.append(f"{PLUGIN_PACKAGE}@{version}")
    env = dict(os.environ)
    env.setdefault("npm_config_fetch_retries", "1")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)
        ok, detail = r.returncode == 0, (r.stderr or r.stdout).strip().splitlines()[-1:] or [""]
    except (OSError, subprocess.TimeoutExpired) as exc:
        ok, detail = False, [str(exc)]
    created = [name for name, existed in before.items() if not existed and (config_dir / name).exists()]
    record.setdefault("created", [])
    record["created"] = sorted(set(record["created"]) | set(created))
    if ok:
        report.changes.append(Change(display(config_dir / "node_modules"), f"npm install {PLUGIN_PACKAGE}@{version}"))
        record["installed"] = version
    else:
        report.notes.append(f"npm install {PLUGIN_PACKAGE}@{version} failed ({detail[0][:200]}). {fallback}")


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
