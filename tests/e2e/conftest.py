"""Fixtures for end-to-end tests that drive the real OpenCode binary.

Mark such tests with ``pytest.mark.e2e`` (deselect locally with ``-m "not e2e"``). In CI (``CI=true``)
they must run: missing node/npm/git or a failed install fails the run instead of skipping it.

* ``opencode_bin`` (session): path to the pinned binary, npm-installed once into a cache dir
  (``RECOLLECT_OPENCODE_PREFIX`` overrides it; ``RECOLLECT_OPENCODE_VERSION`` the version).
* ``opencode_world`` (function): an ``OpenCodeWorld`` with the fake LLM running; the server starts on
  first use, so a test may first ``update_config``/``add_config_file``/``set_rules``.
* ``opencode_world_factory`` (function): ``make(**kwargs) -> OpenCodeWorld`` for custom or several
  worlds (kwargs as for ``OpenCodeWorld``); all are closed at teardown.

On a failing test the teardown prints the server log tail and where the logs are.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from .opencode import DEFAULT_VERSION, OpenCodeError, OpenCodeWorld, ensure_opencode


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    # Remember each phase's report on the item, so fixtures can tell at teardown whether the test failed.
    report = yield
    setattr(item, f"_e2e_rep_{report.when}", report)
    return report


def _failed(request: pytest.FixtureRequest) -> bool:
    rep = getattr(request.node, "_e2e_rep_call", None) or getattr(request.node, "_e2e_rep_setup", None)
    return bool(rep and rep.failed)


def _report(world: OpenCodeWorld) -> None:
    print(f"\n--- OpenCode world at {world.root} (logs: {world.logs_dir}) ---")
    print(world.log_tail())


@pytest.fixture(scope="session")
def opencode_bin() -> Path:
    missing = [tool for tool in ("node", "npm", "git") if shutil.which(tool) is None]
    if missing:
        msg = f"e2e tests need {', '.join(missing)} on PATH"
        if in_ci():
            pytest.fail(msg + " (CI=true: e2e tests must run, not skip)", pytrace=False)
        pytest.skip(msg)
    version = os.environ.get("RECOLLECT_OPENCODE_VERSION", DEFAULT_VERSION)
    try:
        return ensure_opencode(version)
    except OpenCodeError as e:
        pytest.fail(f"cannot install opencode-ai@{version}: {e}", pytrace=False)


@pytest.fixture
def opencode_world(opencode_bin: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[OpenCodeWorld]:
    with OpenCodeWorld(tmp_path, binary=opencode_bin) as world:
        yield world
        if _failed(request):
            _report(world)


@pytest.fixture
def opencode_world_factory(
    opencode_bin: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[..., OpenCodeWorld]]:
    worlds: list[OpenCodeWorld] = []

    def make(**kwargs: Any) -> OpenCodeWorld:
        kwargs.setdefault("name", f"world{len(worlds) + 1}")
        kwargs.setdefault("binary", opencode_bin)
        world = OpenCodeWorld(tmp_path, **kwargs).__enter__()
        worlds.append(world)
        return world

    try:
        yield make
    finally:
        for world in reversed(worlds):
            if _failed(request):
                _report(world)
            world.close()
