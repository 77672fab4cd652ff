"""Layer boundaries: the library never imports its surfaces (CLI, MCP), and sources stay adapters."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "recollect"

FORBIDDEN = {
    "sources": ("recollect.cli", "recollect.mcp", "recollect.index", "recollect.search", "recollect.history"),
    "index": ("recollect.cli", "recollect.mcp", "recollect.search", "recollect.history"),
    "search": ("recollect.cli", "recollect.mcp"),
    "text": ("recollect.cli", "recollect.mcp", "recollect.index", "recollect.search", "recollect.sources"),
    "memory": ("recollect.cli", "recollect.mcp"),
    "embed": ("recollect.cli", "recollect.mcp"),
}


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_lower_layers_do_not_import_higher_ones() -> None:
    problems = []
    for layer, forbidden in FORBIDDEN.items():
        for path in (SRC / layer).rglob("*.py"):
            for name in imports_of(path):
                if name.startswith(forbidden):
                    problems.append(f"{path.relative_to(SRC)} imports {name}")
    assert not problems, problems


def test_cli_does_not_touch_sqlite_directly() -> None:
    for path in (SRC / "cli").rglob("*.py"):
        assert "sqlite3" not in imports_of(path), f"{path.name} talks to SQLite; call the library instead"
