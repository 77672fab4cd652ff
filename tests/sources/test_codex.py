"""The Codex CLI source over fixtures written to the rollout format (tests/data/codex)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import zstandard

from recollect.model import Session, SourceError
from recollect.sources.base import FACTORIES, SourceSpec
from recollect.sources.codex import KIND, CodexSource, discover, uuid7_ms

DATA = Path(__file__).resolve().parent.parent / "data" / "codex"
IDS = json.loads((DATA / "ids.json").read_text())
MAIN, CHILD, ZST, LEGACY = IDS["main"], IDS["child"], IDS["zst"], IDS["legacy"]


def rollout(home: Path, sid: str) -> Path:
    return next(p for p in home.rglob(f"rollout-*{sid}.jsonl*"))


def source_for(path: Path, *, discovered: bool = False) -> CodexSource:
    return CodexSource(SourceSpec(id="codex", kind=KIND, path=path, discovered=discovered))


def read_all(source: CodexSource) -> dict[str, Session]:
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
def home(tmp_path: Path) -> Path:
    copy = tmp_path / ".codex"
    shutil.copytree(DATA, copy)
    return copy


@pytest.fixture(scope="module")
def sessions() -> dict[str, Session]:
    return read_all(source_for(DATA))


def test_scan_lists_live_compressed_and_archived_rollouts():
    stamps = source_for(DATA).scan().stamps
    assert set(stamps) == {MAIN, CHILD, ZST, LEGACY}
    assert stamps[ZST].watermark.endswith(":z") and stamps[MAIN].watermark.endswith(":p")
    assert stamps[CHILD].parent_id == MAIN
    assert stamps[MAIN].parent_id is None


def test_a_compressed_rollout_is_read_not_lost(sessions: dict[str, Session]):
    session = sessions[ZST]
    assert "rotate the staging database password without downtime" in texts(session, typed=True)
    assert "revoke the old password" in texts(session)
    assert session.title == "Rotate staging DB password"  # from session_index.jsonl
    assert session.directory == "/home/dev/infra" and session.model == "gpt-5"


def test_session_fields(sessions: dict[str, Session]):
    session = sessions[MAIN]
    assert session.agent_kind == "codex" and session.source == "codex"
    assert session.title == "Fix empty-cart checkout 500"
    assert session.directory == "/home/dev/shop"
    assert session.model == "gpt-5-codex"
    assert session.time_created == uuid7_ms(MAIN)
    assert session.time_updated > session.time_created


def test_function_calls_decode_their_json_string_arguments(sessions: dict[str, Session]):
    tools = {p.id: p for m in sessions[MAIN].messages for p in m.parts if p.kind == "tool"}
    rg = tools["call_rg01"]
    assert rg.tool == "shell" and rg.tool_status == "completed"
    assert rg.tool_input["command"] == ["bash", "-lc", "rg -n EmptyCartError src"]
    assert "raise EmptyCartError(cart.id)" in rg.tool_output  # the text is kept, so the index can redact it
    patch = tools["call_patch1"]
    assert patch.tool == "apply_patch" and patch.files == ["src/cart.py"] and "Success" in patch.tool_output
    failed = tools["call_test1"]
    assert failed.tool_status == "error" and "expected 400, got 500" in failed.tool_error


def test_typed_prompts_are_told_from_injected_context(sessions: dict[str, Session]):
    messages = sessions[MAIN].messages
    typed = [m.parts[0].text for m in messages if m.role == "user" and not m.parts[0].synthetic]
    assert typed == [
        "Why does checkout return a 500 when the cart is empty?",
        "Good. Ask a reviewer sub-agent to check the fix for edge cases.",
    ]
    injected = [m.parts[0].text.split("\n")[0] for m in messages if m.parts[0].synthetic and m.role != "assistant"]
    assert injected == [
        "<permissions instructions>",
        "# AGENTS.md instructions for /home/dev/shop",
        "<environment_context>",
    ]
    assert next(m for m in messages if "permissions" in m.parts[0].text).role == "system"


def test_reasoning_summaries_are_kept(sessions: dict[str, Session]):
    reasoning = [p for m in sessions[MAIN].messages for p in m.parts if p.kind == "reasoning"]
    assert len(reasoning) == 1 and "Tracing the empty-cart path" in reasoning[0].text


def test_replayed_parent_history_in_a_sub_agent_is_dropped(sessions: dict[str, Session]):
    raw = rollout(DATA, CHILD).read_text(encoding="utf-8")
    parent_prompt = "Why does checkout return a 500 when the cart is empty?"
    assert parent_prompt in raw  # positive control: the child file does carry the copy
    child = sessions[CHILD]
    assert parent_prompt not in texts(child)
    assert "stale fixture" not in texts(child)
    assert texts(child, typed=True) == "Review the empty-cart fix in src/cart.py for edge cases."
    assert "soft-deleted" in texts(child)
    assert child.parent_id == MAIN and child.agent == "reviewer" and child.model == "gpt-5-codex-mini"
    assert child.title == ""  # the thread name in the copy is the parent's
    assert parent_prompt in texts(sessions[MAIN])  # indexed once, in the parent


def test_the_spawn_call_links_to_the_child(sessions: dict[str, Session]):
    spawn = next(p for m in sessions[MAIN].messages for p in m.parts if p.tool == "spawn_agent")
    assert spawn.child_session_id == CHILD


def test_a_rolled_back_turn_is_gone(sessions: dict[str, Session]):
    assert "is_cart_empty" in rollout(DATA, MAIN).read_text(encoding="utf-8")  # positive control
    assert "is_cart_empty" not in texts(sessions[MAIN])


def test_compaction_keeps_the_summary(sessions: dict[str, Session]):
    summaries = [m for m in sessions[MAIN].messages if m.summary]
    assert len(summaries) == 1
    assert summaries[0].parts[0].kind == "compaction"
    assert "EmptyCartError escaped the view" in summaries[0].parts[1].text
    # replacement_history repeats earlier items; it is not indexed twice.
    assert texts(sessions[MAIN]).count("Why does checkout return a 500") == 1


def test_malformed_lines_are_counted_and_a_half_written_tail_waits(home: Path):
    source = source_for(home)
    path = rollout(home, MAIN)
    assert not path.read_bytes().endswith(b"\n")  # the fixture ends mid-line, as a live rollout can
    first = read_all(source)[MAIN]
    assert first.malformed == 1  # the damaged token_count line only
    assert "Half-written answer" not in texts(first)

    mark = source.scan().stamps[MAIN].watermark
    tail = path.read_text(encoding="utf-8").rsplit("\n", 1)[1]
    full = json.dumps({"timestamp": "2025-09-14T10:41:00.000Z", "type": "response_item",
                       "payload": {"type": "message", "role": "assistant",
                                   "content": [{"type": "output_text", "text": "Half-written answer, now done"}]}},
                      separators=(",", ":"))  # fmt: skip
    assert full.startswith(tail)
    with path.open("a") as fh:
        fh.write(full[len(tail) :] + "\n")
    assert source.scan().stamps[MAIN].watermark != mark
    done = read_all(source)[MAIN]
    assert done.malformed == 1
    assert "Half-written answer, now done" in texts(done)


def test_a_plain_rollout_wins_over_its_compressed_sibling(home: Path):
    plain = rollout(home, MAIN)
    compressed = plain.with_name(plain.name + ".zst")
    payload = plain.read_bytes().replace(b"Fix empty-cart checkout 500", b"Compressed copy title")
    compressed.write_bytes(zstandard.ZstdCompressor().compress(payload))
    source = source_for(home)
    assert source.scan().stamps[MAIN].watermark.endswith(":p")
    assert read_all(source)[MAIN].title == "Fix empty-cart checkout 500"
    plain.unlink()  # Codex finished compressing
    assert source.scan().stamps[MAIN].watermark.endswith(":z")
    assert read_all(source)[MAIN].title == "Compressed copy title"


def test_a_damaged_compressed_rollout_keeps_what_decodes(home: Path):
    path = rollout(home, ZST)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    session = read_all(source_for(home))[ZST]  # no exception
    assert session.malformed >= 1


def test_the_pre_envelope_rollout_format(sessions: dict[str, Session]):
    session = sessions[LEGACY]
    assert texts(session, typed=True) == "List the cron jobs on the build box"
    assert session.directory == "/home/dev/buildbox"  # from the injected context: no cwd in old metas
    assert session.time_archived is not None  # it lives in archived_sessions/
    cron = next(p for m in session.messages for p in m.parts if p.kind == "tool")
    assert cron.tool_input == {"command": ["crontab", "-l"]} and "nightly-build.sh" in cron.tool_output


def test_a_deleted_rollout_drops_out_of_the_scan(home: Path):
    source = source_for(home)
    assert ZST in source.scan().stamps  # positive control
    rollout(home, ZST).unlink()
    assert ZST not in source.scan().stamps
    assert list(source.read_sessions([ZST])) == []
    assert MAIN in source.scan().stamps


def test_a_missing_store_is_empty_when_discovered_and_an_error_when_configured(tmp_path: Path):
    missing = tmp_path / "no" / ".codex"
    assert source_for(missing, discovered=True).scan().stamps == {}
    with pytest.raises(SourceError) as exc:
        source_for(missing).scan()
    assert exc.value.reason == "missing"
    (tmp_path / "bare").mkdir()
    with pytest.raises(SourceError):
        source_for(tmp_path / "bare").scan()
    assert set(source_for(DATA / "sessions").scan().stamps) == {MAIN, CHILD, ZST}


def test_discovery_honours_home_and_codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = Path(os.environ["HOME"])
    assert discover() == []
    (home / ".codex" / "sessions").mkdir(parents=True)
    assert [(s.id, s.kind, s.path, s.discovered) for s in discover()] == [("codex", KIND, home / ".codex", True)]
    elsewhere = tmp_path / "codex-home"
    (elsewhere / "archived_sessions").mkdir(parents=True)
    monkeypatch.setenv("CODEX_HOME", str(elsewhere))
    assert [s.path for s in discover()] == [elsewhere]
    assert KIND in FACTORIES


def test_uuid7_time():
    assert uuid7_ms(MAIN) == 1757844000000
    assert uuid7_ms("5d0c6a3e-1f2b-4c3d-8e9f-a0b1c2d3e4f5") is None  # v4
    assert uuid7_ms("not-a-uuid") is None
