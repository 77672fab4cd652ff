"""One error type reaches people and agents: every exception recollect defines is a `RecollectError`,
except the few that never leave the library (each is caught and turned into one where it is raised)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import recollect
from recollect.errors import RecollectError

# Caught inside the library and turned into a RecollectError or a logged note; never seen by a caller.
INTERNAL = {"JsoncError", "FrontmatterError", "MalformedOutput", "Busy"}


def defined_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(recollect.__path__, "recollect."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == info.name:
                found[f"{info.name}.{name}"] = obj
    return found


def test_every_exception_recollect_defines_is_a_recollect_error() -> None:
    found = defined_exceptions()
    names = {qualified.rsplit(".", 1)[1] for qualified in found}
    # positive control: the walk sees both kinds
    assert {"ConfigError", "ArgumentError", "InstallError", "JsoncError"} <= names
    assert names >= INTERNAL, "an internal exception was renamed or removed; update INTERNAL"
    stray = [q for q, cls in found.items() if not issubclass(cls, RecollectError) and cls.__name__ not in INTERNAL]
    assert not stray, f"derive these from recollect.errors.RecollectError (or list them as internal): {stray}"


def test_value_errors_stay_value_errors() -> None:
    """Code that catches ValueError for a bad filter or argument keeps working."""
    from recollect.mcp.args import ArgumentError
    from recollect.search.scope import FilterError

    assert issubclass(FilterError, ValueError) and issubclass(ArgumentError, ValueError)


def test_the_cli_turns_any_recollect_error_into_one_line_and_exit_1(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from recollect.cli import main

    config_dir = tmp_path / "opencode"
    runner = CliRunner()
    ok = runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm", "--dry-run"])
    assert ok.exit_code == 0, ok.output  # positive control: the same command, valid input
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.json").write_text('{"mcp": ')  # InstallError: not JSON we can edit
    bad = runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm"])
    assert bad.exit_code == 1
    errors = [line for line in bad.stderr.splitlines() if line.startswith("recollect: ")]
    assert len(errors) == 1 and "opencode.json" in errors[0], bad.stderr  # one line, naming the file
    assert "Traceback" not in bad.output


def test_mcp_answers_any_recollect_error_as_a_tool_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from recollect import history
    from recollect.embed import EmbedError
    from recollect.mcp.base import ServerSettings
    from recollect.mcp.registry import call_tool

    def down(*args: object, **kwargs: object) -> None:
        raise EmbedError("the embeddings endpoint is down; start it or set embeddings = off")

    monkeypatch.setattr(history, "search", down)
    reply = call_tool("history_search", {"query": "deploy"}, ServerSettings(cwd=str(tmp_path)))
    assert reply.is_error and "history_search: the embeddings endpoint is down" in reply.text
    assert "bug" not in reply.text
