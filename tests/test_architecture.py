"""Layer boundaries: the library never imports its surfaces (CLI, MCP, integrations, UI), sources stay
adapters, the surfaces reach the library through app / history / memory, and nothing grows past a size
a reader can hold (80-line functions, 600-line modules), save the listed exceptions, which may only shrink."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "recollect"

SURFACES = ("recollect.cli", "recollect.mcp", "recollect.integrations", "recollect.ui")
LIBRARY = (
    *SURFACES,
    "recollect.app",
    "recollect.history",
    "recollect.memory",
    "recollect.extract",
    "recollect.search",
    "recollect.index",
    "recollect.sources",
    "recollect.embed",
    "recollect.text",
    "recollect.model",
    "recollect.cases",
)

FORBIDDEN = {
    "sources": ("recollect.cli", "recollect.mcp", "recollect.index", "recollect.search", "recollect.history"),
    "index": ("recollect.cli", "recollect.mcp", "recollect.search", "recollect.history"),
    "search": ("recollect.cli", "recollect.mcp"),
    "text": ("recollect.cli", "recollect.mcp", "recollect.index", "recollect.search", "recollect.sources"),
    "memory": ("recollect.cli", "recollect.mcp"),
    "embed": ("recollect.cli", "recollect.mcp"),
    "extract": SURFACES,
    "integrations": ("recollect.cli", "recollect.mcp", "recollect.ui"),
    "history": SURFACES,
}
SURFACE_NAMES = ("cli", "mcp", "integrations", "ui")

# Single-module layers.
FORBIDDEN_FOR_MODULE = {
    "app.py": (*SURFACES, "recollect.history", "recollect.memory", "recollect.extract"),
    # the foundations every layer may import: they import only each other
    "config.py": LIBRARY,
    "errors.py": (*LIBRARY, "recollect.config", "recollect.times"),
    "times.py": (*LIBRARY, "recollect.config"),
    "jsonish.py": (*LIBRARY, "recollect.config", "recollect.times"),
    "jsonc.py": (*LIBRARY, "recollect.config", "recollect.times"),  # the one JSONC reader and editor
    "redact.py": (*LIBRARY, "recollect.config", "recollect.times", "recollect.errors"),
    "model.py": (*LIBRARY, "recollect.config", "recollect.times"),  # the plain objects every source returns
    "hidden.py": LIBRARY,
    "blas.py": LIBRARY,  # stdlib only: what OpenBLAS runs on in this process
}

# What a surface may import: the surfaces' own packages, the three entry points and the foundations.
SURFACE_MAY_IMPORT = (
    "recollect.cli",
    "recollect.mcp",
    "recollect.integrations",
    "recollect.ui",
    "recollect.app",
    "recollect.history",
    "recollect.memory",
    "recollect.extract",
    "recollect.cases",  # relevance on the user's own index: an entry point like history
    "recollect.config",
    "recollect.errors",
    "recollect.times",
    "recollect.redact",  # every writer's redactor, surfaces' logs included: a foundation, stdlib only
    "recollect.blas",  # one BLAS thread for a searching process, set before numpy starts
    "recollect.jsonc",  # a person's opencode.json(c), read and edited in place: stdlib only
)


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def layer_violations(root: Path = SRC) -> list[str]:
    """Each import under `root` of a layer that FORBIDDEN keeps it from (`from recollect import cli` too)."""
    problems = []
    for layer, forbidden in FORBIDDEN.items():
        for path in (root / layer).rglob("*.py"):
            for name in sorted(imports_of(path) | recollect_imports(path)):
                if name.startswith(forbidden):
                    problems.append(f"{path.relative_to(root)} imports {name}")
    return problems


def test_lower_layers_do_not_import_higher_ones(tmp_path: Path) -> None:
    # Positive control: an index module importing the CLI, in either spelling, is seen.
    (tmp_path / "index").mkdir()
    (tmp_path / "index" / "a.py").write_text("from recollect import cli\n", encoding="utf-8")
    (tmp_path / "index" / "b.py").write_text("import recollect.mcp.server\n", encoding="utf-8")
    assert sorted(layer_violations(tmp_path)) == [
        "index/a.py imports recollect.cli",
        "index/b.py imports recollect.mcp.server",
    ]
    problems = layer_violations()
    assert not problems, problems


def test_cli_does_not_touch_sqlite_directly() -> None:
    for path in (SRC / "cli").rglob("*.py"):
        assert "sqlite3" not in imports_of(path), f"{path.name} talks to SQLite; call the library instead"


def recollect_imports(path: Path) -> set[str]:
    """The recollect modules `path` imports, with `from recollect import history` read as recollect.history."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.startswith("recollect"))
        elif isinstance(node, ast.ImportFrom) and node.module == "recollect":
            names.update(
                f"recollect.{alias.name}"
                for alias in node.names
                if (SRC / alias.name).is_dir() or (SRC / f"{alias.name}.py").is_file()  # a module, not __version__
            )
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("recollect."):
            names.add(node.module)
    return names


def test_single_module_layers_do_not_import_higher_ones() -> None:
    assert "recollect.config" in recollect_imports(SRC / "app.py")  # positive control: the walk sees imports
    problems = [
        f"{module} imports {name}"
        for module, forbidden in FORBIDDEN_FOR_MODULE.items()
        for name in recollect_imports(SRC / module)
        if name.startswith(forbidden)
    ]
    assert not problems, problems


def surface_violations(root: Path = SRC) -> dict[str, set[str]]:
    """Each surface module under `root` that imports below app / history / memory, and what it reaches."""
    found: dict[str, set[str]] = {}
    for surface in SURFACE_NAMES:
        for path in sorted((root / surface).rglob("*.py")):
            below = {
                ".".join(name.split(".")[:2])
                for name in recollect_imports(path)
                if not name.startswith(SURFACE_MAY_IMPORT)
            }
            if below:
                found[str(path.relative_to(root))] = below
    return found


def test_surfaces_reach_the_library_through_app_history_and_memory(tmp_path: Path) -> None:
    # Positive control: a surface module that imports the search and the tokenizer directly is seen.
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "tools.py").write_text(
        "from recollect.history import Filters\nfrom recollect.search.scope import git_root_of\n"
        "def f() -> None:\n    from recollect.text.tokenize import fold\n",
        encoding="utf-8",
    )
    assert surface_violations(tmp_path) == {"mcp/tools.py": {"recollect.search", "recollect.text"}}
    found = surface_violations()
    assert not found, f"surfaces importing below app/history/memory (go through them instead): {found}"


MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 600
# Over the limits today, by name; the lists may only shrink (split one, then delete its entry).
LONG_FUNCTIONS: set[str] = set()
LONG_MODULES: set[str] = set()


def sizes(max_function: int = MAX_FUNCTION_LINES, max_module: int = MAX_MODULE_LINES) -> tuple[set[str], set[str]]:
    functions, modules = set(), set()
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(SRC))
        if text.count("\n") > max_module:
            modules.add(where)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                if node.end_lineno - node.lineno + 1 > max_function:
                    functions.add(f"{where}::{node.name}")
    return functions, modules


def test_no_function_or_module_grows_past_its_limit() -> None:
    tiny_functions, tiny_modules = sizes(max_function=1, max_module=1)
    assert "history/core.py::search" in tiny_functions and "history/core.py" in tiny_modules  # positive control
    functions, modules = sizes()
    too_long, too_big = sorted(functions - LONG_FUNCTIONS), sorted(modules - LONG_MODULES)
    assert not too_long, f"over {MAX_FUNCTION_LINES} lines; split: {too_long}"
    assert not too_big, f"over {MAX_MODULE_LINES} lines; split: {too_big}"
    fixed = sorted((LONG_FUNCTIONS - functions) | (LONG_MODULES - modules))
    assert not fixed, f"within the limits now; delete from LONG_FUNCTIONS / LONG_MODULES: {fixed}"
