"""A tiny OpenCode store in the real 1.18.33 schema, with exactly the messages a test scripts.

The generator in `bench/storegen.py` writes realistic but random text; extraction tests need to
know every line the model will see (and every line it must not see), so they write their own.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = Path(__file__).resolve().parents[2] / "bench" / "opencode_schema.sql"
T0 = 1_780_000_000_000  # epoch ms; every message is one second after the previous one

_ids = itertools.count(1)


def _id(prefix: str) -> str:
    return f"{prefix}_{next(_ids):012d}test"


@dataclass
class Msg:
    role: str  # user | assistant
    parts: list[dict[str, Any]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)  # more of message.data: agent, parentID, finish


def text(value: str, **extra: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **extra}


def tool(name: str, output: str, command: str = "ls") -> dict[str, Any]:
    return {
        "type": "tool",
        "tool": name,
        "callID": "call_1",
        "state": {"status": "completed", "input": {"command": command}, "output": output, "time": {"start": T0}},
    }


def user(*parts: str | dict[str, Any]) -> Msg:
    return Msg("user", [text(p) if isinstance(p, str) else p for p in parts])


def assistant(*parts: str | dict[str, Any]) -> Msg:
    return Msg("assistant", [text(p) if isinstance(p, str) else p for p in parts])


class Store:
    """Write sessions into `path` (created with the real schema on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = T0
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            con = sqlite3.connect(path)
            con.executescript(SCHEMA.read_text())
            con.commit()
            con.close()

    def _tick(self) -> int:
        self.clock += 1000
        return self.clock

    def session(
        self,
        directory: Path,
        messages: list[Msg],
        *,
        title: str = "a session",
        parent: str | None = None,
        session_id: str | None = None,
    ) -> str:
        sid = session_id or _id("ses")
        project_id = "proj_" + hashlib.sha1(str(directory).encode()).hexdigest()[:12]
        con = sqlite3.connect(self.path)
        with con:
            con.execute(
                "INSERT OR IGNORE INTO project (id, worktree, vcs, name, time_created, time_updated, sandboxes) "
                "VALUES (?, ?, 'git', ?, ?, ?, '[]')",
                (project_id, str(directory), directory.name, T0, T0),
            )
            now = self._tick()
            con.execute(
                "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, "
                "time_updated) VALUES (?, ?, ?, ?, ?, ?, '1.18.33', ?, ?)",
                (sid, project_id, parent, sid[-8:], str(directory), title, now, now),
            )
        con.close()
        self.append(sid, messages)
        return sid

    def append(self, session_id: str, messages: list[Msg]) -> None:
        con = sqlite3.connect(self.path)
        with con:
            for message in messages:
                when = self._tick()
                mid = _id("msg")
                data: dict[str, Any] = {"role": message.role, "time": {"created": when}}
                if message.role == "assistant":
                    data.update(time={"created": when, "completed": when + 500}, modelID="m", providerID="p")
                data.update(message.data)
                con.execute(
                    "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
                    (mid, session_id, when, when, json.dumps(data)),
                )
                for part in message.parts:
                    con.execute(
                        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (_id("prt"), mid, session_id, when, when, json.dumps(part)),
                    )
            con.execute("UPDATE session SET time_updated = ? WHERE id = ?", (self.clock, session_id))
        con.close()
