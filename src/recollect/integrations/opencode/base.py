"""What install and uninstall share: the names and places, the report, safe file writes and the
manifest that records what was done."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recollect import jsonc
from recollect.config import RECALL_AGENT, Paths, resolve_paths, xdg_dir
from recollect.errors import RecollectError

DEFAULT_OPENCODE_VERSION = "1.18.33"
SERVER_KEY = "recollect"
MCP_TIMEOUT_MS = 20000  # connect and per call; long calls send progress every 2 s, which resets it (docs/mcp.md)
PLUGIN_PACKAGE = "@opencode-ai/plugin"
PLUGIN_FILE = "plugin/recollect.js"
AGENT_FILE = f"agent/{RECALL_AGENT}.md"  # the name is how the indexer recognises its runs (text/markers.py)
MARK = "managed by recollect"  # present in every file we write; how we recognise ours
MANIFEST_VERSION = 1
SCHEMA_URL = "https://opencode.ai/config.json"


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
    opencode_found: bool = True  # whether an `opencode` on PATH answered --version

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


def sha(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def read_text(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise InstallError(f"{path} is not UTF-8 text; fix or move it, then run again") from exc


def write_atomic(path: Path, text: str) -> None:
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


def display(path: Path) -> str:
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
    write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path
