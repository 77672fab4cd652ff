"""The Gemini CLI source over fixtures written to its chat-recording formats (tests/data/gemini)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recollect.model import Session, SourceError
from recollect.sources import jsonl
from recollect.sources.base import FACTORIES, SourceSpec
from recollect.sources.gemini import KIND, GeminiSource, discover

DATA = Path(__file__).resolve().parent.parent / "data" / "gemini"
IDS = json.loads((DATA / "ids.json").read_text())
MAIN, SUB, RESUMED, LEGACY = IDS["main"], IDS["subagent"], IDS["resumed"], IDS["legacy"]
CHATS = Path("tmp/weather-app/chats")
MAIN_FILE = CHATS / "session-2025-10-02T14-05-3f2a9c1e.jsonl"


@pytest.fixture(autouse=True)
def no_gemini_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)


def source_for(path: Path, *, discovered: bool = False) -> GeminiSource:
    return GeminiSource(SourceSpec(id="gemini", kind=KIND, path=path, discovered=discovered))


def read_all(source: GeminiSource) -> dict[str, Session]:
    return {s.id: s for s in source.read_sessions(source.scan().stamps)}


def texts(session: Session, *, typed: bool = False) -> str:
    """All text of a session, or with `typed` only what the person typed."""
    out = []
    for message in session.messages:
        for part in message.parts:
            if not typed or (message.role == "user" and not part.synthetic):
                out.extend(t for t in (part.text, part.tool_output, part.tool_error) if t)
    return "\n".join(out)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    copy = tmp_path / ".gemini"
    shutil.copytree(DATA, copy)
    return copy


@pytest.fixture(scope="module")
def sessions() -> dict[str, Session]:
    return read_all(source_for(DATA))


def test_scan_lists_every_recording_once():
    stamps = source_for(DATA).scan().stamps
    assert set(stamps) == {MAIN, SUB, RESUMED, LEGACY}
    assert stamps[SUB].parent_id == MAIN
    # The resumed legacy .json was rewritten as .jsonl under the same id: only the .jsonl counts.
    assert stamps[RESUMED].watermark.endswith(".jsonl")


def test_session_fields(sessions: dict[str, Session]):
    session = sessions[MAIN]
    assert session.agent_kind == "gemini" and session.source == "gemini"
    assert session.title == "Fix stale forecast cache TTL"  # from a $set
    assert session.directory == "/home/dev/weather-app"  # the .project_root marker
    assert session.project_id == "weather-app"
    assert session.model == "gemini-2.5-pro"
    assert session.time_created < session.time_updated


def test_the_last_copy_of_a_message_wins(sessions: dict[str, Session]):
    g1 = next(m for m in sessions[MAIN].messages if m.id == "g1")
    assert [m.id for m in sessions[MAIN].messages].count("g1") == 1
    read = next(p for p in g1.parts if p.tool == "read_file")
    assert read.tool_status == "completed" and "CACHE_TTL_SECONDS = 86400" in read.tool_output
    assert read.files == ["/home/dev/weather-app/src/forecast.py"]
    assert [p.kind for p in g1.parts] == ["reasoning", "tool", "tool"]


def test_a_rewind_drops_the_message_and_everything_after(sessions: dict[str, Session]):
    raw = (DATA / MAIN_FILE).read_text(encoding="utf-8")
    assert "Try lowering it to one hour" in raw and "7200" in raw  # positive control
    text = texts(sessions[MAIN])
    assert "Try lowering it to one hour" not in text and "7200" not in text
    assert [m.id for m in sessions[MAIN].messages] == ["u1", "g1", "g2", "u3", "g4", "g5", "i1"]


def test_expanded_file_contents_are_not_typed_by_the_person(sessions: dict[str, Session]):
    u3 = next(m for m in sessions[MAIN].messages if m.id == "u3")
    typed, expanded = u3.parts
    assert typed.text == "Set the TTL to 15 minutes in @config/cache.toml" and not typed.synthetic
    assert expanded.synthetic and "ttl = 86400" in expanded.text


def test_failed_tool_calls_keep_their_error(sessions: dict[str, Session]):
    replace = next(p for m in sessions[MAIN].messages for p in m.parts if p.tool == "replace")
    assert replace.tool_status == "error" and "0 occurrences found" in replace.tool_error
    assert replace.tool_input["new_string"] == "ttl = 900"


def test_cli_notices_are_synthetic_system_messages(sessions: dict[str, Session]):
    notice = next(m for m in sessions[MAIN].messages if m.id == "i1")
    assert notice.role == "system" and all(p.synthetic for p in notice.parts)


def test_malformed_lines_are_counted_and_a_half_written_tail_waits(store: Path):
    source = source_for(store)
    path = store / MAIN_FILE
    assert not path.read_bytes().endswith(b"\n")  # the fixture ends mid-line
    first = read_all(source)[MAIN]
    assert first.malformed == 1
    assert "Half-written" not in texts(first)
    mark = source.scan().stamps[MAIN].watermark
    tail = path.read_text(encoding="utf-8").rsplit("\n", 1)[1]
    record = {"id": "g9", "timestamp": "2025-10-02T14:09:30.000Z", "type": "gemini"}
    full = json.dumps({**record, "content": "Half-written reply that must wait, now complete"}, separators=(",", ":"))
    assert full.startswith(tail)
    with path.open("a") as fh:
        fh.write(full[len(tail) :] + "\n")
    assert source.scan().stamps[MAIN].watermark != mark
    done = read_all(source)[MAIN]
    assert done.malformed == 1 and "now complete" in texts(done)


def test_sub_agent_recordings_are_children(sessions: dict[str, Session]):
    child = sessions[SUB]
    assert child.parent_id == MAIN and child.agent == "subagent"
    assert "jobs/refresh.py" in texts(child)
    call = next(p for m in sessions[MAIN].messages for p in m.parts if p.tool == "codebase_investigator")
    assert call.child_session_id == SUB


def test_a_resumed_legacy_recording_is_read_from_its_jsonl(sessions: dict[str, Session]):
    session = sessions[RESUMED]
    assert "Bump it to 3.13 then" in texts(session, typed=True)
    assert texts(session).count("Which Python version") == 1


def test_the_single_json_format_and_hash_named_project_folders(sessions: dict[str, Session]):
    session = sessions[LEGACY]
    assert session.directory == "/home/dev/legacy-tool"  # the folder is the SHA-256 of this path
    assert "Why does the export script exit with code 3?" in texts(session, typed=True)
    shell = next(p for m in session.messages for p in m.parts if p.kind == "tool")
    assert shell.tool == "run_shell_command" and "Exit Code: 3" in shell.tool_output


def test_a_json_recording_caught_mid_write_is_counted_not_fatal(store: Path):
    path = next((store / "tmp").glob("*/chats/session-2025-06-11T09-30-8d1e2f00.json"))
    path.write_text(path.read_text(encoding="utf-8")[:200])
    session = read_all(source_for(store))[LEGACY]
    assert session.malformed == 1 and session.messages == []


def test_a_rewritten_history_replaces_the_messages(store: Path):
    path = store / MAIN_FILE
    text = path.read_text(encoding="utf-8").rsplit("\n", 1)[0] + "\n"
    summary = "<state_snapshot>\n<overall_goal>Fix the stale forecast cache</overall_goal>\n</state_snapshot>"
    snapshot = [
        {"id": "c1", "timestamp": "2025-10-02T15:00:00.000Z", "type": "user", "content": [{"text": summary}]},
        {"id": "c2", "timestamp": "2025-10-02T15:00:01.000Z", "type": "gemini", "content": "Got it. Thanks!"},
    ]
    path.write_text(text + json.dumps({"$set": {"messages": snapshot}}) + "\n")
    session = read_all(source_for(store))[MAIN]
    assert [m.id for m in session.messages] == ["c1", "c2"]
    assert session.messages[0].summary and session.messages[0].parts[0].synthetic


def test_a_deleted_recording_drops_out_of_the_scan(store: Path):
    source = source_for(store)
    assert SUB in source.scan().stamps  # positive control
    next((store / CHATS).rglob(f"{SUB}.jsonl")).unlink()
    assert SUB not in source.scan().stamps
    assert list(source.read_sessions([SUB])) == []
    assert MAIN in source.scan().stamps


def test_a_missing_store_is_empty_when_discovered_and_an_error_when_configured(tmp_path: Path):
    missing = tmp_path / "no" / ".gemini"
    assert source_for(missing, discovered=True).scan().stamps == {}
    with pytest.raises(SourceError) as exc:
        source_for(missing).scan()
    assert exc.value.reason == "missing"
    (tmp_path / "bare").mkdir()
    with pytest.raises(SourceError):
        source_for(tmp_path / "bare").scan()
    assert len(source_for(DATA / "tmp").scan().stamps) == 4


def test_discovery_honours_home_and_gemini_cli_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = Path(os.environ["HOME"])
    assert discover() == []
    (home / ".gemini" / "tmp").mkdir(parents=True)
    assert [(s.id, s.kind, s.path, s.discovered) for s in discover()] == [("gemini", KIND, home / ".gemini", True)]
    profile = tmp_path / "profile"
    (profile / ".gemini" / "tmp").mkdir(parents=True)
    monkeypatch.setenv("GEMINI_CLI_HOME", str(profile))  # Gemini CLI's replacement for the home dir
    assert [s.path for s in discover()] == [profile / ".gemini"]
    assert KIND in FACTORIES


def test_an_unreadable_recording_is_reported(store: Path, monkeypatch: pytest.MonkeyPatch):
    real = jsonl.read_head

    def denied(path: Path, limit: int = 1 << 16) -> bytes:
        if path.name.startswith("session-2025-10-02"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, limit)

    # chmod 000 means nothing to root (CI containers), so the denial is stubbed.
    monkeypatch.setattr(jsonl, "read_head", denied)  # where the listing reads each recording's session id
    scan = source_for(store).scan()
    assert MAIN not in scan.stamps and SUB in scan.stamps
    assert any("session-2025-10-02" in problem for problem in scan.problems)
