"""What `JsonlSource` does the same for the Claude Code, Codex and Gemini CLI adapters: the store checks,
an unreadable or vanished session in the scan and in the read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from recollect.model import SourceError
from recollect.sources import claude_code, codex, gemini, jsonl
from recollect.sources.base import FACTORIES, SourceSpec
from recollect.sources.jsonl import JsonlSource
from tests.sources import badinput

KINDS = ("claude-code", "codex", "gemini")
MODULES: dict[str, ModuleType] = {"claude-code": claude_code, "codex": codex, "gemini": gemini}
PATHS: dict[str, Callable[[Path, str], Path]] = {
    "claude-code": badinput.cc_path,
    "codex": badinput.cx_path,
    "gemini": badinput.gm_path,
}


def adapter(spec: SourceSpec) -> JsonlSource[Any, Any]:
    source = FACTORIES[spec.kind](spec)  # the adapter itself, not behind the guard
    assert isinstance(source, JsonlSource)
    return source


def good_store(kind: str, tmp_path: Path) -> tuple[JsonlSource[Any, Any], str, str, Path]:
    """A store of two good sessions: the source, the victim's and the other's id, the victim's file."""
    source = adapter(badinput.build_good(kind, tmp_path / "store"))
    victim, other = sorted(badinput.good_ids(kind))
    return source, victim, other, PATHS[kind](tmp_path / "store", victim)


@pytest.mark.parametrize("kind", KINDS)
def test_an_unreadable_session_file_is_named_with_its_fix(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, victim, other, path = good_store(kind, tmp_path)
    scan = source.scan()
    assert set(scan.stamps) == {victim, other} and scan.problems == []  # positive control
    # chmod 000 means nothing to root (CI containers), so the permission check itself is stubbed.
    monkeypatch.setattr(jsonl, "readable", lambda p: p != path)
    scan = source.scan()
    assert set(scan.stamps) == {other}
    assert scan.problems == [
        f"{path} is not readable; session {victim} is left out (kept as indexed, if it was) "
        "until its permissions are fixed"
    ]
    assert scan.withheld == {victim}  # listed, so never taken for deleted


@pytest.mark.parametrize("kind", KINDS)
def test_a_session_that_cannot_be_read_is_recorded_and_the_rest_are_read(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, victim, other, path = good_store(kind, tmp_path)
    ids = list(source.scan().stamps)
    assert {s.id for s in source.read_sessions(ids)} == {victim, other}  # positive control
    real = jsonl.read_jsonl

    def denied(p: Path) -> jsonl.JsonlRead:
        if p == path:
            raise PermissionError(13, "Permission denied", str(p))
        return real(p)

    monkeypatch.setattr(MODULES[kind], "read_jsonl", denied)
    assert {s.id for s in source.read_sessions(ids)} == {other}
    assert list(source.unreadable) == [victim] and "Permission denied" in source.unreadable[victim]


@pytest.mark.parametrize("kind", KINDS)
def test_a_session_deleted_after_the_scan_is_skipped_not_unreadable(kind: str, tmp_path: Path) -> None:
    source, victim, other, path = good_store(kind, tmp_path)
    ids = list(source.scan().stamps)
    assert victim in ids  # positive control
    path.unlink()
    assert {s.id for s in source.read_sessions(ids)} == {other}
    assert source.unreadable == {}
    assert set(source.scan().stamps) == {other}


@pytest.mark.parametrize("kind", KINDS)
def test_a_store_that_is_not_there_is_an_error_naming_the_agent_only_when_configured(kind: str, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    assert adapter(SourceSpec(id="x", kind=kind, path=missing, discovered=True)).scan().stamps == {}
    source = adapter(SourceSpec(id="x", kind=kind, path=missing))
    with pytest.raises(SourceError) as exc:
        source.scan()
    assert exc.value.reason == "missing"
    assert str(exc.value) == f"{source.name} store not found at {missing}; {source.hint}"
    bare = tmp_path / "bare"
    bare.mkdir()
    assert adapter(SourceSpec(id="x", kind=kind, path=bare, discovered=True)).scan().stamps == {}
    with pytest.raises(SourceError) as exc:
        adapter(SourceSpec(id="x", kind=kind, path=bare)).scan()
    assert exc.value.reason == "missing"
    assert str(exc.value).startswith(f"{bare} has no ") and str(exc.value).endswith(source.hint)
