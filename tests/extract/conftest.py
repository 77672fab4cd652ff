"""Fixtures for extraction: a scripted fake LLM on 127.0.0.1, a tiny OpenCode store, a git project,
and a config pointing recollect at both. Everything lives in the test's temp dir."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# The real-OpenCode fixtures, and the hook that lets them print the server log when a test fails.
from tests.e2e.conftest import opencode_bin, opencode_world, pytest_runtest_makereport  # noqa: F401
from tests.e2e.fake_llm import FakeLLM

from .store import Store

MODEL = "fake-extractor"


def git_init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)
    return path


def reply_rule(match: list[str], memories: Any, *, raw: str | None = None) -> dict[str, Any]:
    """A fake-LLM rule answering extraction requests that contain every word of `match`.

    Extraction requests offer no tools, so the fake files them under kind "compaction"; "any"
    makes the rule apply whatever the kind.
    """
    text = raw if raw is not None else json.dumps({"memories": memories})
    return {"kind": "any", "match": match, "text": text}


@pytest.fixture
def llm(tmp_path: Path) -> Iterator[FakeLLM]:
    with FakeLLM([], log_path=tmp_path / "llm_requests.jsonl", rules_path=tmp_path / "llm_rules.json") as fake:
        yield fake


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return git_init(tmp_path / "project")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "opencode" / "opencode.db")


@pytest.fixture
def configure(isolated_home: Path, store: Store, llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """Write config.toml: the test store as the only source, and [extract] pointing at the fake LLM."""
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")

    def write(**extract: Any) -> Path:
        settings = {"endpoint": llm.url, "model": MODEL, **extract}
        lines = ["[[source]]", 'kind = "opencode"', f"path = {json.dumps(str(store.path))}", "", "[extract]"]
        lines += [f"{k} = {json.dumps(v)}" for k, v in settings.items()]
        isolated_home.mkdir(parents=True, exist_ok=True)
        path = isolated_home / "config.toml"
        path.write_text("\n".join(lines) + "\n")
        return path

    write()
    return write


def listing(root: Path) -> dict[str, str]:
    """Every file under `root` with a hash of its content (empty when the root does not exist)."""
    if not root.exists():
        return {}
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out
