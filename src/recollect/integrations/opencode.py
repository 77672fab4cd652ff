"""`recollect install opencode` / `recollect uninstall opencode`, as a library.

What install puts into OpenCode's global config dir (`$XDG_CONFIG_HOME/opencode`):

* `mcp.recollect` in `opencode.json` or `opencode.jsonc`: this interpreter running
  `-m recollect.cli mcp` (absolute paths: OpenCode expands no `~`), with `--scope` when installed
  with a scope ceiling (the plugin gets the same ceiling for its helper). The file is edited as text,
  so a person's comments and layout survive (`jsonc.py`), and created when absent;
* `agent/recall.md`: the recall subagent (seed 001), limited to recollect's read tools;
* `plugin/recollect.js`: the plugin (`opencode_plugin.js`), told which Python to run;
* `@opencode-ai/plugin` pre-installed with npm: with any plugin present OpenCode waits for its own
  install of that package at start-up, and offline that stalled 71 s (INTEGRATION.md §3.2).

Everything done is recorded in a manifest under recollect's data dir, so uninstall takes back
exactly that and nothing else: the config file's original bytes are restored when nobody touched
it since; otherwise only our key is removed, comments and other servers staying as they are.
A `recollect` MCP entry, agent file or plugin file that is not ours is never replaced silently:
that needs `force`, and uninstall then puts the person's version back.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from recollect.config import ConfigError, Paths, load_config, resolve_paths, xdg_dir
from recollect.errors import RecollectError
from recollect.integrations import jsonc
from recollect.text.markers import RECALL_AGENT

DEFAULT_OPENCODE_VERSION = "1.18.33"
SERVER_KEY = "recollect"
MCP_TIMEOUT_MS = 20000  # connect and per call; long calls send progress every 2 s, which resets it (docs/mcp.md)
PLUGIN_PACKAGE = "@opencode-ai/plugin"
PLUGIN_FILE = "plugin/recollect.js"
AGENT_FILE = f"agent/{RECALL_AGENT}.md"  # the name is how the indexer recognises its runs (text/markers.py)
MARK = "managed by recollect"  # present in every file we write; how we recognise ours
MANIFEST_VERSION = 1
SCHEMA_URL = "https://opencode.ai/config.json"
# Variables that choose which recollect data the MCP server and plugin see; pinned at install.
PINNED_ENV = ("RECOLLECT_HOME",)

AGENT_TEXT = """---
# {mark} (`recollect uninstall opencode` removes this file)
description: >-
  Looks up earlier coding sessions and curated memory with recollect, and answers with its sources
  as cursors. Use it when the user refers to earlier work ("last time", "what did we decide",
  "how did we fix X before", 上次, 之前). Follow-up questions about a recalled session go back to
  this agent, with the cursor it gave: do not answer them from the first answer or from an
  auto-recall block.
mode: subagent
tools:
  "*": false
  "recollect_*": true
  "recollect_memory_remember": false
  "recollect_memory_forget": false
---
You answer one question about earlier work from the user's own history: past agent sessions
(recollect_history_search, recollect_history_read, recollect_history_sessions) and curated memory
(recollect_memory_recall). You start with nothing but the question; that is deliberate, so nothing
from the parent conversation biases the search.

How to work:
1. Search: call recollect_history_search with the distinctive words of the question: names,
   identifiers, file paths, error messages. Call recollect_memory_recall too when the question is
   about a decision, rule, preference or known pitfall.
2. Read: pick the most promising hit and call recollect_history_read with its cursor, to see the
   actual messages around it. Page before/after when the answer needs more context.
3. When results are thin, try again before giving up: rephrase (synonyms, the other language,
   a likely error text or identifier), narrow with scope "project" or widen with scope "all",
   or bound the time with since/until. Two or three attempts, not more. If a wider scope is
   refused, the user limited what you may see: stay inside it and say so.
4. Stop as soon as you can answer.

Your answer goes to the parent agent, not to the user:
- First the answer itself, short and concrete: the commands, settings, file names or decision.
- Then "Sources:", one line per session you used: its cursor (from the hit you read), title,
  directory and date. The parent sends follow-up questions back to you with these cursors; read
  from them again rather than answering from memory.
- Say what you could not find, and what you searched, rather than guessing.
- Do not paste raw transcript pages. When the user asks to keep or share a whole transcript, call
  recollect_history_save with its cursor: it writes the session under recall/ in the project and
  answers with the path.
- You see history, not the current files: say that facts from old sessions may have changed
  since, and should be checked before relying on them.
- Never call recollect_memory_remember or recollect_memory_forget: you only read.
"""


class InstallError(RecollectError):
    """Install or uninstall cannot go on; the message says why and what to do."""


@dataclass
class Change:
    path: str
    action: str  # what was (or, in a dry run, would be) done, in words
    keys: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "action": self.action, "keys": self.keys}


@dataclass
class Report:
    config_dir: str
    dry_run: bool
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    manifest: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "config_dir": self.config_dir,
            "dry_run": self.dry_run,
            "changes": [c.to_dict() for c in self.changes],
            "notes": self.notes,
            "conflicts": self.conflicts,
            "manifest": self.manifest,
        }


# --- where things are --------------------------------------------------------------------------


def opencode_config_dir() -> Path:
    """OpenCode's global config dir: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`."""
    return xdg_dir("XDG_CONFIG_HOME", ".config") / "opencode"


def choose_config_file(config_dir: Path) -> Path:
    """The config file to edit. OpenCode merges opencode.json then opencode.jsonc (the later one
    wins); when both exist we edit the one already naming our server, else the one with `mcp`,
    else the .jsonc, so our entry is the one that counts."""
    candidates = [config_dir / "opencode.json", config_dir / "opencode.jsonc"]
    existing = [p for p in candidates if p.is_file()]
    if not existing:
        return candidates[0]
    if len(existing) == 1:
        return existing[0]
    for path in (["mcp", SERVER_KEY], ["mcp"]):
        for p in reversed(existing):
            try:
                if jsonc.find(jsonc.parse(p.read_text(encoding="utf-8")), path) is not None:
                    return p
            except (jsonc.JsoncError, OSError, UnicodeDecodeError):
                continue
    return existing[-1]


def manifest_path(paths: Paths | None = None) -> Path:
    return (paths or resolve_paths()).data_dir / "integrations" / "opencode.json"


def pinned_env() -> dict[str, str]:
    return {k: os.path.abspath(os.environ[k]) for k in PINNED_ENV if os.environ.get(k)}


def _scope_args(scope: str | None) -> list[str]:
    """`--scope X` for the MCP server and the plugin helper; none for 'all' (the config alone bounds them)."""
    return ["--scope", scope] if scope and scope != "all" else []


def mcp_entry(python: str, scope: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "type": "local",
        "command": [python, "-m", "recollect.cli", "mcp", *_scope_args(scope)],
        "timeout": MCP_TIMEOUT_MS,
    }
    env = pinned_env()
    if env:
        entry["environment"] = env
    return entry


def plugin_text(python: str, scope: str | None = None) -> str:
    source = resources.files("recollect.integrations").joinpath("opencode_plugin.js").read_text(encoding="utf-8")
    settings: dict[str, Any] = {"python": python, "env": pinned_env()}
    if _scope_args(scope):
        settings["scope"] = scope  # the plugin starts its helper with --scope (hookd.parse_args)
    installed = json.dumps(settings, ensure_ascii=False)
    line = re.compile(r"^const INSTALLED = .*// @recollect-install.*$", re.M)
    if not line.search(source):
        raise InstallError("the packaged plugin has no install line; this recollect build is broken")
    return line.sub(lambda _: f"const INSTALLED = {installed} // @recollect-install", source, count=1)


def agent_text() -> str:
    return AGENT_TEXT.format(mark=MARK)


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
        on = load_config(paths).section("memory").get("auto_extract", True) is not False
    except ConfigError:
        on = True
    if not on:
        return (
            "automatic memory extraction is off ([memory] auto_extract = false in "
            f"{_display(paths.config_file)}); set it to true to have finished sessions proposed as memories"
        )
    return (
        "automatic memory extraction is on: when a session with at least 4 turns goes idle, one call to the "
        "cheapest model with an 8k context proposes memories, which wait for you in 'recollect memory review' "
        f"(nothing is accepted without you). Turn it off with [memory] auto_extract = false in "
        f"{_display(paths.config_file)}"
    )


def _has_mcp_sdk(python: str) -> bool:
    if python == sys.executable:
        return importlib.util.find_spec("mcp") is not None
    try:
        r = subprocess.run([python, "-c", "import mcp"], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def _sha(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise InstallError(f"{path} is not UTF-8 text; fix or move it, then run again") from exc


def _write(path: Path, text: str) -> None:
    """Atomic, keeping the mode of a file we replace, and writing through a symlink (dotfiles
    repositories link opencode.json into place; replacing the link would fork the person's copy)."""
    if path.is_symlink():
        path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.recollect-{os.getpid()}.tmp")
    tmp.write_bytes(text.encode("utf-8"))
    if path.exists():
        os.chmod(tmp, path.stat().st_mode & 0o777)
    os.replace(tmp, path)


def _display(path: Path) -> str:
    home = str(Path.home())
    text = str(path)
    return "~" + text[len(home) :] if home not in ("", "/") and text.startswith(home + os.sep) else text


# --- manifest ----------------------------------------------------------------------------------


def load_manifest(paths: Paths | None = None) -> dict[str, Any]:
    path = manifest_path(paths)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"version": MANIFEST_VERSION, "installs": {}}
    except (ValueError, OSError) as exc:
        raise InstallError(f"{path} is unreadable ({exc}); move it away to start over") from exc
    data.setdefault("installs", {})
    return data


def save_manifest(data: dict[str, Any], paths: Paths | None = None) -> Path:
    path = manifest_path(paths)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path


# --- install -----------------------------------------------------------------------------------


def _new_config_text(entry: dict[str, Any]) -> str:
    return jsonc.render({"$schema": SCHEMA_URL, "mcp": {SERVER_KEY: entry}}, "", "  ") + "\n"


def _plan_config(
    config_file: Path, entry: dict[str, Any], record: dict[str, Any], force: bool, report: Report
) -> tuple[str | None, dict[str, Any]]:
    """(new text or None when unchanged, the config part of the manifest)."""
    before = _read(config_file)
    state = dict(record.get("config") or {})
    if state.get("path") not in (None, str(config_file)):
        state = {}  # recorded for another file; start a new record
    if before is None:
        state = {"path": str(config_file), "existed": False, "original": None, "created_mcp": True}
        text = _new_config_text(entry)
        report.changes.append(Change(_display(config_file), "create", ["$schema", f"mcp.{SERVER_KEY}"]))
        state["written_sha"] = _sha(text)
        return text, state
    try:
        root = jsonc.parse(before)
    except jsonc.JsoncError as exc:
        raise InstallError(f"{config_file}: cannot read it as JSON/JSONC ({exc}); fix it, then run again") from exc
    if root.kind != "object":
        raise InstallError(f"{config_file}: the top level is not an object; fix it, then run again")
    current = jsonc.find(root, ["mcp", SERVER_KEY])
    current_value = jsonc.to_python(before, current) if current is not None else None
    ours = state.get("written_sha") is not None
    if not state:
        mcp = jsonc.find(root, ["mcp"])
        state = {"path": str(config_file), "existed": True, "original": before, "created_mcp": mcp is None}
    if current is not None and current_value != entry and not ours:
        if not force:
            report.conflicts.append(
                f"{_display(config_file)} already has an MCP server named {SERVER_KEY!r} that recollect did not "
                f"write ({json.dumps(current_value)[:160]}); run again with --force to replace it "
                "(uninstall puts it back)"
            )
            return None, state
        state.setdefault("replaced_value", current_value)
    try:
        text, what = jsonc.set_member(before, ["mcp", SERVER_KEY], entry)
    except jsonc.JsoncError as exc:
        raise InstallError(f"{config_file}: {exc}") from exc
    if what == "unchanged":
        report.notes.append(f"{_display(config_file)}: mcp.{SERVER_KEY} already up to date")
        return None, state
    if state.get("written_sha") and state["written_sha"] != _sha(before):
        # Someone edited the file since our last write: the recorded original is no longer a
        # faithful "before"; uninstall will remove our key instead of restoring bytes.
        state["original"] = None
    report.changes.append(Change(_display(config_file), "add" if what == "added" else "update", [f"mcp.{SERVER_KEY}"]))
    state["written_sha"] = _sha(text)
    return text, state


def _plan_file(path: Path, text: str, record: dict[str, Any], force: bool, label: str, report: Report) -> bool:
    """Whether `path` must be written; updates `record` (the file's manifest entry)."""
    before = _read(path)
    if before == text:
        report.notes.append(f"{_display(path)}: {label} already up to date")
        record.setdefault("existed", False)
        record["written_sha"] = _sha(text)
        return False
    if before is not None and MARK not in before and "written_sha" not in record:
        if not force:
            report.conflicts.append(
                f"{_display(path)} exists and is not recollect's; move it away or run again with --force "
                "(uninstall puts it back)"
            )
            return False
        record["original"] = before
    record.setdefault("existed", before is not None)
    record["written_sha"] = _sha(text)
    report.changes.append(Change(_display(path), "create" if before is None else "update", [label]))
    return True


def _npm_plan(config_dir: Path, version: str) -> tuple[bool, str]:
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


def _run_npm(config_dir: Path, version: str, report: Report, record: dict[str, Any]) -> None:
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
        report.changes.append(Change(_display(config_dir / "node_modules"), f"npm install {PLUGIN_PACKAGE}@{version}"))
        record["installed"] = version
    else:
        report.notes.append(f"npm install {PLUGIN_PACKAGE}@{version} failed ({detail[0][:200]}). {fallback}")


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
) -> Report:
    """Install (or bring up to date) recollect's MCP server, recall agent and plugin for OpenCode.
    `scope` ('project', 'directory'; None or 'all': unbounded) is the ceiling both are started with."""
    config_dir = (config_dir or opencode_config_dir()).absolute()
    config_file = (config_file or choose_config_file(config_dir)).absolute()
    python = python or sys.executable
    if not os.path.isabs(python):
        raise InstallError(f"the Python path must be absolute (OpenCode expands no ~ or PATH search): {python}")
    report = Report(config_dir=_display(config_dir), dry_run=dry_run)
    manifest = load_manifest(paths)
    record = manifest["installs"].get(str(config_dir), {})
    files_record: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (record.get("files") or {}).items()}

    new_config, config_state = _plan_config(config_file, mcp_entry(python, scope), record, force, report)
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

    version = opencode_version or detect_opencode_version() or DEFAULT_OPENCODE_VERSION
    npm_record = dict(record.get("npm") or {})
    needed, why = _npm_plan(config_dir, version)
    if dry_run:
        if npm and needed:
            report.changes.append(
                Change(_display(config_dir / "node_modules"), f"npm install {PLUGIN_PACKAGE}@{version} ({why})")
            )
        report.manifest = _display(manifest_path(paths))
        return report

    created_dirs = set(record.get("created_dirs") or [])
    for d in ("agent", "plugin"):
        if not (config_dir / d).exists():
            created_dirs.add(d)
    if not config_dir.exists():
        created_dirs.add(".")
    if new_config is not None:
        _write(config_file, new_config)
    for path, text in writes:
        _write(path, text)
    if npm and needed:
        _run_npm(config_dir, version, report, npm_record)
    elif npm:
        report.notes.append(why)
    else:
        report.notes.append(
            f"npm pre-install skipped: OpenCode installs {PLUGIN_PACKAGE} itself at start-up; offline, start it "
            "with npm_config_fetch_retries=0 to avoid a ~71 s wait"
        )
    report.notes.append(_auto_extract_note(paths))
    if not _has_mcp_sdk(python):
        report.notes.append(
            f"the MCP SDK is not importable by {python}: install it (pip install 'recollect[mcp]'), else "
            "OpenCode lists the recollect server as failed"
        )
    manifest["installs"][str(config_dir)] = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": python,
        "config": config_state,
        "files": files_record,
        "npm": npm_record,
        "created_dirs": sorted(created_dirs),
    }
    report.manifest = _display(save_manifest(manifest, paths))
    return report


# --- uninstall ---------------------------------------------------------------------------------


def _looks_like_ours(value: Any) -> bool:
    command = value.get("command") if isinstance(value, dict) else None
    if not isinstance(command, list):
        return False
    if command[-2:-1] == ["--scope"]:
        command = command[:-2]  # installed with a scope ceiling
    return command[-3:] == ["-m", "recollect.cli", "mcp"]


def _undo_config(state: dict[str, Any], report: Report, dry_run: bool) -> None:
    path = Path(state["path"])
    current = _read(path)
    if current is None:
        report.notes.append(f"{_display(path)} is gone; nothing to take back there")
        return
    untouched = state.get("written_sha") == _sha(current)
    if untouched and not state.get("existed"):
        report.changes.append(Change(_display(path), "delete (recollect created it)", [f"mcp.{SERVER_KEY}"]))
        if not dry_run:
            path.unlink()
        return
    if untouched and state.get("original") is not None:
        report.changes.append(Change(_display(path), "restore the original bytes", [f"mcp.{SERVER_KEY}"]))
        if not dry_run:
            _write(path, state["original"])
        return
    try:
        root = jsonc.parse(current)
    except jsonc.JsoncError as exc:
        report.notes.append(f"{_display(path)}: cannot read it ({exc}); remove mcp.{SERVER_KEY} by hand")
        return
    node = jsonc.find(root, ["mcp", SERVER_KEY])
    if node is None:
        report.notes.append(f"{_display(path)}: mcp.{SERVER_KEY} is already gone")
        return
    if "replaced_value" in state:
        text, _ = jsonc.set_member(current, ["mcp", SERVER_KEY], state["replaced_value"])
        action = "put back the earlier mcp.recollect"
    else:
        text, _ = jsonc.delete_member(current, ["mcp", SERVER_KEY])
        action = "remove"
        mcp = jsonc.find(jsonc.parse(text), ["mcp"])
        if state.get("created_mcp") and mcp is not None and mcp.kind == "object" and not mcp.members:
            text, _ = jsonc.delete_member(text, ["mcp"])
    report.changes.append(
        Change(_display(path), action + " (the rest of the file is kept as it is)", [f"mcp.{SERVER_KEY}"])
    )
    if not dry_run:
        _write(path, text)


def _undo_file(path: Path, state: dict[str, Any], report: Report, dry_run: bool) -> None:
    current = _read(path)
    if current is None:
        return
    if state.get("written_sha") != _sha(current) and MARK not in current:
        report.notes.append(f"{_display(path)} was changed and is no longer recollect's; left in place")
        return
    if state.get("written_sha") != _sha(current):
        report.notes.append(f"{_display(path)} was edited since install; removing it anyway (it carries our mark)")
    if state.get("original") is not None:
        report.changes.append(Change(_display(path), "restore the earlier file"))
        if not dry_run:
            _write(path, state["original"])
    else:
        report.changes.append(Change(_display(path), "delete"))
        if not dry_run:
            path.unlink()


def _undo_npm(config_dir: Path, state: dict[str, Any], report: Report, dry_run: bool) -> None:
    created = state.get("created") or []
    if not created:
        return
    try:
        deps = json.loads((config_dir / "package.json").read_text()).get("dependencies", {})
    except (OSError, ValueError, AttributeError):
        deps = {}
    if set(deps) - {PLUGIN_PACKAGE}:
        report.notes.append(
            f"{_display(config_dir / 'package.json')} now lists other packages; npm files left in place"
        )
        return
    for name in created:
        target = config_dir / name
        if not target.exists():
            continue
        report.changes.append(Change(_display(target), "delete (created by the npm pre-install)"))
        if not dry_run:
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink()


def uninstall(*, config_dir: Path | None = None, dry_run: bool = False, paths: Paths | None = None) -> Report:
    """Take back what `install` recorded for `config_dir`; without a record, only what carries our marks."""
    config_dir = (config_dir or opencode_config_dir()).absolute()
    report = Report(config_dir=_display(config_dir), dry_run=dry_run)
    manifest = load_manifest(paths)
    record = manifest["installs"].get(str(config_dir))
    if record is None:
        report.notes.append("no install recorded for this config dir; removing only what carries recollect's marks")
        for rel in (PLUGIN_FILE, AGENT_FILE):
            path = config_dir / rel
            text = _read(path)
            if text is not None and MARK in text:
                _undo_file(path, {"written_sha": _sha(text)}, report, dry_run)
        config_file = choose_config_file(config_dir)
        text = _read(config_file)
        if text is not None:
            try:
                node = jsonc.find(jsonc.parse(text), ["mcp", SERVER_KEY])
                if node is not None and _looks_like_ours(jsonc.to_python(text, node)):
                    _undo_config({"path": str(config_file), "existed": True}, report, dry_run)
            except jsonc.JsoncError as exc:
                report.notes.append(f"{_display(config_file)}: cannot read it ({exc})")
        return report
    if record.get("config"):
        _undo_config(record["config"], report, dry_run)
    for rel, state in (record.get("files") or {}).items():
        _undo_file(config_dir / rel, state, report, dry_run)
    _undo_npm(config_dir, record.get("npm") or {}, report, dry_run)
    for rel in sorted(record.get("created_dirs") or [], key=len, reverse=True):
        d = (config_dir / rel).resolve()
        if d.is_dir() and not any(d.iterdir()):
            report.changes.append(Change(_display(d), "remove the empty directory"))
            if not dry_run:
                d.rmdir()
    if not dry_run:
        del manifest["installs"][str(config_dir)]
        report.manifest = _display(save_manifest(manifest, paths))
    return report
