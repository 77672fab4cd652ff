"""docs/memory.md documents every `recollect memory` command and every [memory] setting."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import click

from recollect.cli.memory import memory
from recollect.memory import INJECTION_MARKER, MemorySettings

DOC = Path(__file__).resolve().parents[2] / "docs" / "memory.md"


def commands(group: click.Group, prefix: str) -> list[str]:
    out = []
    for name, command in group.commands.items():
        out.append(f"{prefix} {name}")
        if isinstance(command, click.Group):
            out.extend(commands(command, f"{prefix} {name}"))
    return out


def test_every_command_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [c for c in commands(memory, "recollect memory") if c not in text]
    assert not missing, f"commands missing from docs/memory.md: {missing}"


def test_every_setting_and_the_marker_are_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [f.name for f in fields(MemorySettings) if f"{f.name} =" not in text]
    assert not missing, f"[memory] settings missing from docs/memory.md: {missing}"
    assert INJECTION_MARKER in text
