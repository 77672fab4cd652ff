"""The Claude Code source over 62 real transcripts (tests/data/claude-code, CC0) and small built stores."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from recollect.model import Session, SourceError
from recollect.sources.base import FACTORIES, SourceSpec, open_source
from recollect.sources.claude_code import KIND, ClaudeCodeSource, discover

DATA = Path(__file__).resolve().parent.parent / "data" / "claude-code"
TRANSCRIPTS = sorted(DATA.glob("*.jsonl"))
PROJECT = "-Users-m-projects"  # Claude Code's lossy encoding of a cwd; never decoded

MALFORMED_LINES = 365  # measured: lines of the snapshot that are not JSON (redacted or cut by its publisher)


def build_store(root: Path, files: list[Path] = TRANSCRIPTS) -> Path:
    """A Claude Code config dir with the given transcripts in one project folder."""
    project = root / ".claude" / "projects" / PROJECT
    project.mkdir(parents=True)
    for file in files:
        shutil.copy2(file, project / file.name)
    return root / ".claude"


def source_for(path: Path, *, discovered: bool = False) -> ClaudeCodeSource:
    return ClaudeCodeSource(SourceSpec(id="claude", kind=KIND, path=path, discovered=discovered))


def read_all(source: ClaudeCodeSource) -> dict[str, Session]:
    return {s.id: s for s in source.read_sessions(source.scan().stamps)}


def texts(session: Session, *, typed: bool = False) -> list[str]:
    """All texts of a session, or with `typed` only what the person typed."""
    out = []
    for message in session.messages:
        for part in message.parts:
            if not typed or (message.role == "user" and not part.synthetic):
                out.extend(t for t in (part.text, part.tool_output, part.tool_error) if t)
    return out


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("claude"))


@pytest.fixture(scope="module")
def sessions(store: Path) -> dict[str, Session]:
    return read_all(source_for(store))


def test_all_62_transcripts_parse_and_every_malformed_line_is_counted(store: Path, sessions: dict[str, Session]):
    assert len(TRANSCRIPTS) == 62
    stamps = source_for(store).scan().stamps
    assert set(stamps) == {p.stem for p in TRANSCRIPTS}
    assert set(sessions) == set(stamps)
    assert sum(s.malformed for s in sessions.values()) == MALFORMED_LINES
    assert sessions["8d471a2e-e373-408e-aaf4-81e16e07898c"].malformed == 112
    assert sessions["0a8fc187-681a-4c42-9538-ba0f628ee289"].malformed == 0
    for session in sessions.values():
        assert session.agent_kind == "claude-code"
        assert session.source == "claude"


def test_known_sessions_contain_their_own_words(sessions: dict[str, Session]):
    typed = {sid: " ".join(texts(s, typed=True)) for sid, s in sessions.items()}
    assert "sync you repo (M-Claude)" in typed["3af9b1a7-6512-4883-ad18-320658ced099"]
    assert "cygheap read copy failed" in typed["0a8fc187-681a-4c42-9538-ba0f628ee289"]
    assert "where is mullvad in the dns architecture?" in typed["21037e11-89de-484d-abba-8705254aa991"]
    assert "traceroute slate.thisness.us" in typed["c76e5be5-ffd2-4901-a935-885527c83a61"]
    assert "reset window tiles with aerospace" in typed["8d471a2e-e373-408e-aaf4-81e16e07898c"]
    # A session's words are its own: no leakage from another transcript.
    assert "reset window tiles with aerospace" not in typed["3af9b1a7-6512-4883-ad18-320658ced099"]


def test_cwd_comes_from_the_records_not_the_folder_name(sessions: dict[str, Session]):
    assert (
        sessions["554b9fa6-f719-40e8-ba70-beee69bd60b5"].directory
        == "/Users/[USER]/Developer/M-Thisness/cosmic-apple-tile"
    )
    assert sessions["0a8fc187-681a-4c42-9538-ba0f628ee289"].directory == "C:\\Users\\Mischa"
    assert all(s.project_id == PROJECT for s in sessions.values())


def test_assistant_records_sharing_a_message_id_become_one_message(sessions: dict[str, Session]):
    raw_ids = []
    for line in (DATA / "3af9b1a7-6512-4883-ad18-320658ced099.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("type") == "assistant":
            raw_ids.append(record["message"]["id"])
    assert len(raw_ids) > len(set(raw_ids))  # positive control: Claude Code does split messages

    session = sessions["3af9b1a7-6512-4883-ad18-320658ced099"]
    ids = [m.id for m in session.messages if m.role == "assistant"]
    assert len(ids) == len(set(ids)) == len(set(raw_ids))
    merged = next(m for m in session.messages if m.id == "msg_019gkVpYWBBpLXGixGwZcajh")
    assert [p.kind for p in merged.parts] == ["text", "tool"]
    for every in sessions.values():
        ids = [m.id for m in every.messages if m.role == "assistant"]
        assert len(ids) == len(set(ids))


def test_tool_results_land_on_their_tool_part_with_text_kept(sessions: dict[str, Session]):
    session = sessions["3af9b1a7-6512-4883-ad18-320658ced099"]
    tools = [p for m in session.messages for p in m.parts if p.kind == "tool" and p.raw_type == "tool_use"]
    assert tools and all(p.tool for p in tools)
    done = [p for p in tools if p.tool_status == "completed"]
    failed = [p for p in tools if p.tool_status == "error"]
    assert done and all(p.tool_output is not None for p in done)
    assert failed and all(p.tool_error for p in failed)
    bash = next(p for p in done if p.tool == "Bash" and p.tool_output)
    assert isinstance(bash.tool_input, dict) and "command" in bash.tool_input
    # A user record that only carried results leaves no empty user message behind.
    assert all(m.parts for m in session.messages)
    every_tool = [p for s in sessions.values() for m in s.messages for p in m.parts if p.kind == "tool"]
    assert sum(1 for p in every_tool if p.tool_output or p.tool_error) > 1500


def test_file_paths_of_tool_calls_are_kept(sessions: dict[str, Session]):
    files = {f for s in sessions.values() for m in s.messages for p in m.parts for f in p.files}
    assert any(f.endswith(".md") for f in files)


def test_text_a_person_did_not_type_is_synthetic(sessions: dict[str, Session]):
    by_type: dict[str, set[bool]] = {}
    for session in sessions.values():
        for message in session.messages:
            if message.role == "user":
                for part in message.parts:
                    by_type.setdefault(part.raw_type, set()).add(part.synthetic)
    for harness in ("command-name", "command-message", "local-command-caveat", "local-command-stdout",
                    "task-notification", "interrupted", "warmup", "tool_result"):  # fmt: skip
        assert by_type[harness] == {True}, harness
    assert False in by_type["text"]

    skill = [
        p for s in sessions.values() for m in s.messages for p in m.parts if "Base directory for this skill" in p.text
    ]
    assert skill and all(p.synthetic for p in skill)  # an isMeta record
    system = [p for s in sessions.values() for m in s.messages if m.role == "system" for p in m.parts]
    assert system and all(p.synthetic for p in system)
    typed = texts(sessions["8d471a2e-e373-408e-aaf4-81e16e07898c"], typed=True)
    assert not any(t.startswith("<") for t in typed)


def test_compaction_boundary_and_summary(sessions: dict[str, Session]):
    session = sessions["3af9b1a7-6512-4883-ad18-320658ced099"]
    boundaries = [p for m in session.messages for p in m.parts if p.kind == "compaction"]
    assert len(boundaries) == 1
    summaries = [m for m in session.messages if m.summary]
    assert len(summaries) == 1
    assert summaries[0].parts[0].text.startswith("This session is being continued")
    assert all(p.synthetic for p in summaries[0].parts)


def test_legacy_summary_titles_are_found_across_files(sessions: dict[str, Session]):
    # Claude Code wrote this session's summary into another session's file, keyed by leafUuid.
    title = "Claude Code Config & Quota Setup"
    own = (DATA / "3bd9cf18-3c9b-42f5-8fd1-47f5456c1fec.jsonl").read_text(encoding="utf-8")
    assert title not in own  # positive control: the title is not in the session's own file
    assert sessions["3bd9cf18-3c9b-42f5-8fd1-47f5456c1fec"].title == title
    assert sessions["e6804af6-fe01-478c-9e10-75e94f3e93cb"].title == ""  # a file holding only a summary
    # Summaries Claude Code failed to generate hold the API error instead: never a title.
    titles = [s.title for s in sessions.values()]
    assert not any(t.startswith(("Invalid API key", "API Error", "Request timed out")) for t in titles)
    # measured: 23 stored titles, the 9 sub-agents titled by request, 3 sessions of slash commands only
    assert sum(1 for t in titles if t) == 23 + 9 + 3


def test_custom_title_wins_over_ai_title(tmp_path: Path):
    store = build_store(tmp_path, [])
    project = store / "projects" / PROJECT
    sid = "11111111-2222-4333-8444-555555555555"
    base = {"sessionId": sid, "cwd": "/home/dev/app", "isSidechain": False, "userType": "external"}
    records = [
        {**base, "type": "user", "uuid": "u1", "timestamp": "2026-01-01T10:00:00Z",
         "message": {"role": "user", "content": "rename the flaky job"}},
        {"type": "ai-title", "aiTitle": "Flaky job rename", "sessionId": sid},
    ]  # fmt: skip
    path = project / f"{sid}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    source = source_for(store)
    assert read_all(source)[sid].title == "Flaky job rename"
    with path.open("a") as fh:
        fh.write(json.dumps({"type": "custom-title", "customTitle": "CI: rename flaky job", "sessionId": sid}) + "\n")
    assert read_all(source)[sid].title == "CI: rename flaky job"


def test_a_session_of_slash_commands_only_is_titled_by_its_commands(sessions: dict[str, Session]):
    # Real sessions in which the person only ran commands: Claude Code titled none of them.
    assert sessions["e1f813f4-3f9f-4a6f-92e7-39393c85268f"].title == "/login"
    assert sessions["dae783ed-78a0-461d-94e1-160b653520a9"].title == "/config"  # a `local_command` system record
    assert sessions["d9c6fe1d-de36-427c-b97e-7b9c3dcf9b6b"].title == "/usage, /exit"  # in the order run
    # Claude Code's own title of a session of commands stays.
    assert sessions["1bb8e198-4420-4cce-9667-f3dfd48788f9"].title == "User Cleared Terminal and Exited Session"


def command_records(sid: str, command: str, args: str = "", then: str = "") -> list[dict[str, object]]:
    """What Claude Code writes for a slash command (a caveat, the command, its output), then a typed line."""
    base = {"sessionId": sid, "cwd": "/home/dev/app", "isSidechain": False, "userType": "external",
            "timestamp": "2026-01-01T10:00:00Z", "type": "user"}  # fmt: skip
    caveat = "<local-command-caveat>Caveat: The messages below were generated by the user …</local-command-caveat>"
    ran = (f"<command-name>/{command}</command-name>\n            <command-message>{command}</command-message>\n"
           f"            <command-args>{args}</command-args>")  # fmt: skip
    out = "<local-command-stdout>Set model to opus</local-command-stdout>"
    records = [
        {**base, "uuid": "u1", "isMeta": True, "message": {"role": "user", "content": caveat}},
        {**base, "uuid": "u2", "message": {"role": "user", "content": ran}},
        {**base, "uuid": "u3", "message": {"role": "user", "content": out}},
    ]  # fmt: skip
    if then:
        records.append({**base, "uuid": "u4", "message": {"role": "user", "content": then}})
    return records


def test_a_command_title_carries_its_arguments_and_yields_to_anything_typed(tmp_path: Path):
    store = build_store(tmp_path, [])
    project = store / "projects" / PROJECT
    only = "33333333-2222-4333-8444-555555555555"
    typed = "44444444-2222-4333-8444-555555555555"
    for sid, records in ((only, command_records(only, "model", "opus")),
                         (typed, command_records(typed, "clear", then="why does the deploy fail?"))):  # fmt: skip
        (project / f"{sid}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    sessions = read_all(source_for(store))
    assert sessions[only].title == "/model opus"  # positive control
    # Negative: a line the person typed stands in for the title (history's display_title), not the command.
    assert sessions[typed].title == ""
    assert "why does the deploy fail?" in texts(sessions[typed], typed=True)


def test_sub_agents_are_child_sessions(store: Path, sessions: dict[str, Session]):
    stamps = source_for(store).scan().stamps
    # Claude Code 2.0: agent-<id>.jsonl beside the main files, parent named in its records.
    assert stamps["agent-a00ad96"].parent_id == "18240050-3ee8-41cd-a89a-0a5c4b709607"
    assert sessions["agent-a00ad96"].parent_id == "18240050-3ee8-41cd-a89a-0a5c4b709607"
    assert sessions["agent-abc3cb6"].parent_id == "abc757d1-3da3-42fb-bb7b-ffa293a4ba29"
    assert stamps["abc757d1-3da3-42fb-bb7b-ffa293a4ba29"].parent_id is None
    task = [p for m in sessions["abc757d1-3da3-42fb-bb7b-ffa293a4ba29"].messages for p in m.parts if p.child_session_id]
    assert [p.child_session_id for p in task] == ["agent-abc3cb6"]


def test_subagents_folder_of_claude_code_2_1(tmp_path: Path):
    store = build_store(tmp_path, [DATA / "abc757d1-3da3-42fb-bb7b-ffa293a4ba29.jsonl"])
    folder = store / "projects" / PROJECT / "abc757d1-3da3-42fb-bb7b-ffa293a4ba29" / "subagents"
    folder.mkdir(parents=True)
    shutil.copy2(DATA / "agent-abc3cb6.jsonl", folder / "agent-abc3cb6.jsonl")
    (folder.parent / "tool-results").mkdir()  # other per-session folders are not sessions
    (folder.parent / "tool-results" / "x.txt").write_text("out")
    source = source_for(store)
    stamps = source.scan().stamps
    assert set(stamps) == {"abc757d1-3da3-42fb-bb7b-ffa293a4ba29", "agent-abc3cb6"}
    assert stamps["agent-abc3cb6"].parent_id == "abc757d1-3da3-42fb-bb7b-ffa293a4ba29"
    child = read_all(source)["agent-abc3cb6"]
    assert child.parent_id == "abc757d1-3da3-42fb-bb7b-ffa293a4ba29" and child.messages


def test_sidechain_records_inside_a_main_file_are_not_typed_by_the_person(tmp_path: Path):
    store = build_store(tmp_path, [])
    sid = "22222222-2222-4333-8444-555555555555"
    base = {"sessionId": sid, "cwd": "/home/dev/app", "userType": "external", "timestamp": "2026-01-01T10:00:00Z"}
    answer = {"id": "msg_s", "role": "assistant", "model": "claude-x", "content": [{"type": "text", "text": "3 old"}]}
    records = [
        {**base, "type": "user", "uuid": "u1", "isSidechain": False, "message": {"role": "user", "content": "audit"}},
        {**base, "type": "user", "uuid": "s1", "isSidechain": True,
         "message": {"role": "user", "content": "List outdated packages in package.json"}},
        {**base, "type": "assistant", "uuid": "s2", "isSidechain": True, "message": answer},
    ]  # fmt: skip
    (store / "projects" / PROJECT / f"{sid}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    session = read_all(source_for(store))[sid]
    first, prompt, answer = session.messages
    assert first.agent is None and not first.parts[0].synthetic
    assert prompt.agent == answer.agent == "sidechain"
    assert prompt.parts[0].synthetic


def test_a_resumed_copy_of_history_is_dropped_while_the_original_exists(tmp_path: Path):
    original, resumed = "f225835b-3612-4093-903f-bd4538fb7cb9", "ff33b5b0-cc51-4271-a3eb-545a85882e5f"
    store = build_store(tmp_path, [DATA / f"{original}.jsonl", DATA / f"{resumed}.jsonl"])
    source = source_for(store)
    words = "when running gitleaks scan"
    assert words in (DATA / f"{resumed}.jsonl").read_text(encoding="utf-8")  # positive control: copied history
    before = source.scan().stamps[resumed].watermark
    sessions = read_all(source)
    assert any(words in t for t in texts(sessions[original]))
    assert not any(words in t for t in texts(sessions[resumed]))

    (store / "projects" / PROJECT / f"{original}.jsonl").unlink()
    after = source.scan().stamps
    assert original not in after
    assert after[resumed].watermark != before  # so the sync re-reads the copy, now the only one
    assert any(words in t for t in texts(read_all(source)[resumed]))


def test_a_half_written_last_line_is_neither_parsed_nor_counted(tmp_path: Path):
    sid = "0a8fc187-681a-4c42-9538-ba0f628ee289"
    store = build_store(tmp_path, [DATA / f"{sid}.jsonl"])
    path = store / "projects" / PROJECT / f"{sid}.jsonl"
    source = source_for(store)
    first = read_all(source)[sid]
    mark = source.scan().stamps[sid].watermark
    record = {"type": "user", "uuid": "late-1", "sessionId": sid, "timestamp": "2026-01-11T00:00:00Z",
              "message": {"role": "user", "content": "one more question about cygwin"}}  # fmt: skip
    line = json.dumps(record) + "\n"
    with path.open("a") as fh:
        fh.write(line[:40])
    partial = read_all(source)[sid]
    assert partial.malformed == first.malformed == 0
    assert len(partial.messages) == len(first.messages)
    assert source.scan().stamps[sid].watermark != mark
    with path.open("a") as fh:
        fh.write(line[40:])
    done = read_all(source)[sid]
    assert done.malformed == 0
    assert "one more question about cygwin" in texts(done, typed=True)


def test_a_deleted_transcript_drops_out_of_the_scan(tmp_path: Path):
    sid = "0a8fc187-681a-4c42-9538-ba0f628ee289"
    store = build_store(tmp_path, [DATA / f"{sid}.jsonl", DATA / "10864eef-43f7-4a26-8c95-614598473bde.jsonl"])
    source = source_for(store)
    assert sid in source.scan().stamps  # positive control
    (store / "projects" / PROJECT / f"{sid}.jsonl").unlink()
    assert sid not in source.scan().stamps
    assert list(source.read_sessions([sid])) == []
    assert "10864eef-43f7-4a26-8c95-614598473bde" in source.scan().stamps


def test_reading_never_writes_the_store(store: Path):
    def snapshot() -> dict[str, tuple[str, int]]:
        return {
            str(p): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(store.rglob("*"))
            if p.is_file()
        }

    before = snapshot()
    source = source_for(store)
    read_all(source)
    assert snapshot() == before
    assert sorted(p.name for p in store.rglob("*") if p.is_file()) == sorted(p.name for p in TRANSCRIPTS)


def test_a_missing_store_is_empty_when_discovered_and_an_error_when_configured(tmp_path: Path):
    missing = tmp_path / "nowhere" / ".claude"
    assert source_for(missing, discovered=True).scan().stamps == {}
    with pytest.raises(SourceError) as exc:
        source_for(missing).scan()
    assert exc.value.reason == "missing"
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError) as exc:
        source_for(tmp_path / "empty").scan()
    assert exc.value.reason == "missing" and "projects" in str(exc.value)


def test_a_store_can_be_the_projects_folder_or_one_project(store: Path):
    assert len(source_for(store / "projects").scan().stamps) == 62
    assert len(source_for(store / "projects" / PROJECT).scan().stamps) == 62


def test_an_unreadable_transcript_is_reported_not_silently_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    sid = "0a8fc187-681a-4c42-9538-ba0f628ee289"
    store = build_store(tmp_path, [DATA / f"{sid}.jsonl"])
    assert sid in source_for(store).scan().stamps  # positive control
    # chmod 000 means nothing to root (CI containers), so the permission check itself is stubbed.
    monkeypatch.setattr("recollect.sources.jsonl.readable", lambda path: path.stem != sid)
    scan = source_for(store).scan()
    assert sid not in scan.stamps
    assert any(sid in problem and "permissions" in problem for problem in scan.problems)


def test_discovery_honours_home_and_claude_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = Path(os.environ["HOME"])
    assert discover() == []
    (home / ".claude" / "projects").mkdir(parents=True)
    specs = discover()
    assert [(s.id, s.kind, s.path, s.discovered) for s in specs] == [("claude", KIND, home / ".claude", True)]
    (home / ".config" / "claude" / "projects").mkdir(parents=True)
    assert [s.id for s in discover()] == ["claude", "claude-2"]

    custom = tmp_path / "elsewhere"
    (custom / "projects").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(custom))
    assert [(s.id, s.path) for s in discover()] == [("claude", custom)]


def test_registered_like_any_source(store: Path):
    assert KIND in FACTORIES
    source = open_source(SourceSpec(id="cc", kind=KIND, path=store))
    assert source.id == "cc" and source.kind == KIND and source.location == store
