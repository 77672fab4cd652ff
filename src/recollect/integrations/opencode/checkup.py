"""What `recollect doctor` says of the OpenCode integration, without changing anything.

For each OpenCode config dir recollect installed into (the manifest), and OpenCode's own config dir when
its config names our server: is the `mcp.recollect` entry there, does the Python its command runs exist
and import recollect and the MCP SDK, are the plugin (with its own Python) and the recall agent there and
ours. Every problem names its fix, nearly always `recollect install opencode`, which rewrites all three;
for a config dir that is gone, `recollect uninstall opencode`, which drops the record of installing there.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recollect import jsonc
from recollect.config import Paths
from recollect.integrations.opencode.base import (
    AGENT_FILE,
    MARK,
    PLUGIN_FILE,
    SERVER_KEY,
    InstallError,
    choose_config_file,
    display,
    load_manifest,
    opencode_config_dir,
)

IMPORTS = "import recollect.cli, mcp"  # what the MCP server's command needs of its Python
_INSTALLED_LINE = re.compile(r"^const INSTALLED = (\{.*\}) // @recollect-install", re.M)


@dataclass
class Checkup:
    config_dir: str
    fine: list[str] = field(default_factory=list)  # what was checked and is as install left it
    problems: list[str] = field(default_factory=list)  # each says what is wrong and how to fix it

    def to_dict(self) -> dict[str, Any]:
        return {"config_dir": self.config_dir, "fine": self.fine, "problems": self.problems}


def problems_of(checks: list[Checkup]) -> list[str]:
    """The checks' problems as doctor lists them beside its own (the CLI and the Health page alike)."""
    return [f"OpenCode: {p}" for c in checks for p in c.problems]


def checkup(paths: Paths | None = None, *, config_dir: Path | None = None) -> list[Checkup]:
    """One `Checkup` per config dir recollect is (or was) installed into; none when it never was."""
    try:
        recorded = [Path(d) for d in load_manifest(paths).get("installs", {})]
    except InstallError as exc:
        broken = Checkup(display(config_dir or opencode_config_dir()))
        broken.problems.append(str(exc))
        return [broken]
    dirs = [config_dir] if config_dir is not None else list(recorded)
    own = opencode_config_dir()
    if config_dir is None and own not in dirs and _entry(choose_config_file(own))[0] is not None:
        dirs.append(own)  # our server named by hand, or installed before there was a manifest
    checks = [_check(d) for d in dirs]
    if checks and (failed := _extraction_failing(paths)):
        checks[0].problems.append(failed)
    return checks


def _extraction_failing(paths: Paths | None) -> str:
    """The plugin's automatic extraction, when its last run failed (extract.failing): a failure that went to
    the background log, which nobody reads. Not said once uninstalled, nor with [memory] auto_extract off."""
    from recollect.config import ConfigError, load_config
    from recollect.extract import failing

    try:
        config = load_config(paths)
    except ConfigError:  # doctor says what is wrong with the file itself
        return ""
    if config.section("memory").get("auto_extract", True) is False:
        return ""
    return failing(config.paths)


def _entry(config_file: Path) -> tuple[Any, str | None]:
    """(the `mcp.recollect` value or None, why the file cannot be read or None)."""
    try:
        text = config_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError) as exc:
        return None, str(exc)
    try:
        root = jsonc.parse(text)
        node = jsonc.find(root, ["mcp", SERVER_KEY])
        return (jsonc.to_python(text, node) if node is not None else None), None
    except jsonc.JsoncError as exc:
        return None, str(exc)


def _check(config_dir: Path) -> Checkup:
    report = Checkup(display(config_dir))
    elsewhere = "" if config_dir == opencode_config_dir() else f" --config-dir {config_dir}"
    fix = f"run 'recollect install opencode{elsewhere}'"
    if not config_dir.is_dir():
        # Deleted on purpose, most likely: what is left is our record of the install, not a broken one.
        report.problems.append(
            f"{display(config_dir)} is gone, but recollect's record of installing there is not; run "
            f"'recollect uninstall opencode{elsewhere}' to drop the record, or {fix} to install there again"
        )
        return report
    config_file = choose_config_file(config_dir)
    entry, unreadable = _entry(config_file)
    if unreadable is not None:
        report.problems.append(f"{display(config_file)}: cannot read it ({unreadable}); fix it, then {fix}")
    elif not isinstance(entry, dict):
        report.problems.append(
            f"{display(config_file)} has no mcp.{SERVER_KEY} entry, so OpenCode has no recollect tools; {fix}"
        )
    else:
        command = entry.get("command")
        environment = _mapping(entry.get("environment"))
        if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
            _check_program("the MCP server", command, environment, fix, report)
        else:
            report.problems.append(f"{display(config_file)}: mcp.{SERVER_KEY} has no command to run; {fix}")
    plugin = config_dir / PLUGIN_FILE
    text = _ours(plugin, "the plugin", "auto-recall and memory injection are off", fix, report)
    if text is not None:
        settings = _installed_settings(text)
        if settings is None:
            report.problems.append(f"{display(plugin)} names no Python to run; {fix}")
        else:
            python = str(settings.get("python", ""))
            env = _mapping(settings.get("env"))
            _check_program("the plugin", [python, "-m", "recollect.integrations.hookd"], env, fix, report)
    _ours(config_dir / AGENT_FILE, "the recall subagent", "the agent cannot hand it recall questions", fix, report)
    return report


def _ours(path: Path, what: str, without: str, fix: str, report: Checkup) -> str | None:
    """The file's text when it is there and ours; else a problem in `report` and None."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        report.problems.append(f"{what} {display(path)} is missing, so {without}; {fix}")
        return None
    except (OSError, UnicodeDecodeError) as exc:
        report.problems.append(f"{what} {display(path)} cannot be read ({exc}); {fix}")
        return None
    if MARK not in text:
        report.problems.append(f"{what} {display(path)} is not recollect's; {fix[:-1]} --force' to replace it")
        return None
    report.fine.append(f"{what} {display(path)}")
    return text


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _installed_settings(plugin_text: str) -> dict[str, Any] | None:
    match = _INSTALLED_LINE.search(plugin_text)
    try:
        settings = json.loads(match.group(1)) if match else None
    except ValueError:
        return None
    return settings if isinstance(settings, dict) else None


def _check_program(what: str, command: list[str], env: dict[str, Any], fix: str, report: Checkup) -> None:
    """Whether the program a command starts is there and, for a Python, imports recollect and the MCP SDK."""
    program = command[0]
    found = program if os.path.isabs(program) else shutil.which(program)
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        report.problems.append(
            f"{what} runs {program}, which does not exist (a virtualenv removed or moved?); {fix} to point it "
            f"at this recollect's Python ({sys.executable})"
        )
        return
    if len(command) >= 3 and command[1] == "-m" and command[2].startswith("recollect."):
        problem = _imports(found, {k: str(v) for k, v in env.items()})
        if problem is not None:
            report.problems.append(f"{what} runs {program}, which cannot {IMPORTS!r} ({problem}); {fix}")
            return
    report.fine.append(f"{what} runs {program}")


def _imports(python: str, env: dict[str, str]) -> str | None:
    """Why `python` cannot import what recollect's programs need, or None when it can."""
    # This very interpreter runs recollect now. (Not by realpath: a virtualenv's python links to the base one.)
    if os.path.abspath(python) == os.path.abspath(sys.executable) and not env.get("PYTHONPATH"):
        return None if importlib.util.find_spec("mcp") is not None else "No module named 'mcp'"
    try:
        ran = subprocess.run(
            [python, "-c", IMPORTS],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **env},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if ran.returncode == 0:
        return None
    lines = [line for line in ran.stderr.splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"exit {ran.returncode}"
