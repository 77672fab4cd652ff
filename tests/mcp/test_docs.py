"""docs/mcp.md documents every tool and every argument a model can pass (fails when one is added)."""

from __future__ import annotations

import re
from pathlib import Path

from recollect.mcp.registry import TOOLS

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"


def sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^### `(\w+)`\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_tool_and_argument_is_documented() -> None:
    documented = sections()
    missing = []
    for tool in TOOLS:
        section = documented.get(tool.name)
        if section is None:
            missing.append(tool.name)
            continue
        missing.extend(f"{tool.name}.{p.name}" for p in tool.signature.params if f"`{p.name}`" not in section)
    assert not missing, f"missing from docs/mcp.md: {missing}"
