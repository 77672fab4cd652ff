"""The `mcp.recollect` entry in OpenCode's config file: edited as text, so a person's comments and
layout survive, and taken back exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from recollect import jsonc
from recollect.integrations.opencode.base import (
    SCHEMA_URL,
    SERVER_KEY,
    Change,
    InstallError,
    Report,
    display,
    read_text,
    sha,
    write_atomic,
)


def _new_config_text(entry: dict[str, Any]) -> str:
    return jsonc.render({"$schema": SCHEMA_URL, "mcp": {SERVER_KEY: entry}}, "", "  ") + "\n"


def plan_config(
    config_file: Path, entry: dict[str, Any], record: dict[str, Any], force: bool, report: Report
) -> tuple[str | None, dict[str, Any]]:
    """(new text or None when unchanged, the config part of the manifest)."""
    before = read_text(config_file)
    state = dict(record.get("config") or {})
    if state.get("path") not in (None, str(config_file)):
        state = {}  # recorded for another file; start a new record
    if before is None:
        state = {"path": str(config_file), "existed": False, "original": None, "created_mcp": True}
        text = _new_config_text(entry)
        report.changes.append(Change(display(config_file), "create", ["$schema", f"mcp.{SERVER_KEY}"]))
        state["written_sha"] = sha(text)
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
                f"{display(config_file)} already has an MCP server named {SERVER_KEY!r} that recollect did not "
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
        report.notes.append(f"{display(config_file)}: mcp.{SERVER_KEY} already up to date")
        return None, state
    if state.get("written_sha") and state["written_sha"] != sha(before):
        # Someone edited the file since our last write: the recorded original is no longer a
        # faithful "before"; uninstall will remove our key instead of restoring bytes.
        state["original"] = None
    report.changes.append(Change(display(config_file), "add" if what == "added" else "update", [f"mcp.{SERVER_KEY}"]))
    state["written_sha"] = sha(text)
    return text, state


def looks_like_ours(value: Any) -> bool:
    command = value.get("command") if isinstance(value, dict) else None
    if not isinstance(command, list):
        return False
    if command[-2:-1] == ["--scope"]:
        command = command[:-2]  # installed with a scope ceiling
    return command[-3:] == ["-m", "recollect.cli", "mcp"]


def undo_config(state: dict[str, Any], report: Report, dry_run: bool) -> None:
    path = Path(state["path"])
    current = read_text(path)
    if current is None:
        report.notes.append(f"{display(path)} is gone; nothing to take back there")
        return
    untouched = state.get("written_sha") == sha(current)
    if untouched and not state.get("existed"):
        report.changes.append(Change(display(path), "delete (recollect created it)", [f"mcp.{SERVER_KEY}"]))
        if not dry_run:
            path.unlink()
        return
    if untouched and state.get("original") is not None:
        report.changes.append(Change(display(path), "restore the original bytes", [f"mcp.{SERVER_KEY}"]))
        if not dry_run:
            write_atomic(path, state["original"])
        return
    try:
        root = jsonc.parse(current)
    except jsonc.JsoncError as exc:
        report.notes.append(f"{display(path)}: cannot read it ({exc}); remove mcp.{SERVER_KEY} by hand")
        return
    node = jsonc.find(root, ["mcp", SERVER_KEY])
    if node is None:
        report.notes.append(f"{display(path)}: mcp.{SERVER_KEY} is already gone")
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
        Change(display(path), action + " (the rest of the file is kept as it is)", [f"mcp.{SERVER_KEY}"])
    )
    if not dry_run:
        write_atomic(path, text)
