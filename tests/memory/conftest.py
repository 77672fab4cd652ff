"""Fixtures for curated memory: real git work trees in temp dirs, and a space seen from one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from recollect.memory import MemorySpace, open_memory


def git_init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return git_init(tmp_path / "project")


@pytest.fixture
def space(project: Path) -> MemorySpace:
    # Opened from a subdirectory on purpose: the project root is the work tree top, not the cwd.
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    return open_memory(sub)
