"""`uninstall`: take back what `install` recorded, and without a record only what carries our marks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from recollect import jsonc
from recollect.config import Paths
from recollect.integrations.opencode.base import (
    AGENT_FILE,
    MARK,
    PLUGIN_FILE,
    SERVER_KEY,
    Change,
    Report,
    choose_config_file,
    display,
    load_manifest,
    opencode_config_dir,
    read_text,
    save_manifest,
    sha,
    write_atomic,
)
from recollect.integrations.opencode.configfile import looks_like_ours, undo_config
from recollect.integrations.opencode.npm import undo_npm


def _undo_file(path: Path, state: dict[str, Any], report: Report, dry_run: bool) -> None:
    current = read_text(path)
    if current is None:
        return
    if state.get("written_sha") != sha(current) and MARK not in current:
        report.notes.append(f"{display(path)} was changed and is no longer recollect's; left in place")
        return
    if state.get("written_sha") != sha(current):
        # A person's edits (a model for the recall agent, say) are theirs: kept, under a name OpenCode
        # does not load (it reads agent/*.md and plugin/*.{js,ts}).
        kept = path.with_name(path.name + ".edited")
        n = 1
        while kept.exists():  # an earlier uninstall's copy stays too
            n += 1
            kept = path.with_name(f"{path.name}.edited-{n}")
        report.changes.append(Change(display(kept), "keep your edits of the file here (OpenCode does not load it)"))
        if not dry_run:
            write_atomic(kept, current)
    if state.get("original") is not None:
        report.changes.append(Change(display(path), "restore the earlier file"))
        if not dry_run:
            write_atomic(path, state["original"])
    else:
        report.changes.append(Change(display(path), "delete"))
        if not dry_run:
            path.unlink()


def uninstall(*, config_dir: Path | None = None, dry_run: bool = False, paths: Paths | None = None) -> Report:
    """Take back what `install` recorded for `config_dir`; without a record, only what carries our marks."""
    config_dir = (config_dir or opencode_config_dir()).absolute()
    report = Report(config_dir=display(config_dir), dry_run=dry_run)
    manifest = load_manifest(paths)
    record = manifest["installs"].get(str(config_dir))
    if record is None:
        report.notes.append("no install recorded for this config dir; removing only what carries recollect's marks")
        for rel in (PLUGIN_FILE, AGENT_FILE):
            path = config_dir / rel
            text = read_text(path)
            if text is not None and MARK in text:
                _undo_file(path, {"written_sha": sha(text)}, report, dry_run)
        config_file = choose_config_file(config_dir)
        text = read_text(config_file)
        if text is not None:
            try:
                node = jsonc.find(jsonc.parse(text), ["mcp", SERVER_KEY])
                if node is not None and looks_like_ours(jsonc.to_python(text, node)):
                    undo_config({"path": str(config_file), "existed": True}, report, dry_run)
            except jsonc.JsoncError as exc:
                report.notes.append(f"{display(config_file)}: cannot read it ({exc})")
        return report
    if record.get("config"):
        undo_config(record["config"], report, dry_run)
    for rel, state in (record.get("files") or {}).items():
        _undo_file(config_dir / rel, state, report, dry_run)
    undo_npm(config_dir, record.get("npm") or {}, report, dry_run)
    for rel in sorted(record.get("created_dirs") or [], key=len, reverse=True):
        d = (config_dir / rel).resolve()
        if d.is_dir() and not any(d.iterdir()):
            report.changes.append(Change(display(d), "remove the empty directory"))
            if not dry_run:
                d.rmdir()
    if not dry_run:
        del manifest["installs"][str(config_dir)]
        report.manifest = display(save_manifest(manifest, paths))
    return report
