"""The bad-input corpus: stores of all four agents, each holding two good sessions and one kind of damage.

Every case is built at test time (large and bomb cases are generated, never committed). A case
names the session it damages (`victim`) when the damage can cost that session; every other
session of the store must be indexed whatever the damage.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zstandard

from recollect.sources.base import SourceSpec
from tests.conftest import SAMPLE_DB

DEPTH = 100_000  # far past Python's recursion limit: json.loads raises RecursionError
BIG = 50 << 20  # a 50 MB record

CC_A, CC_B, CC_BAD = (f"{n}1111111-2222-4333-8444-55555555555{n}" for n in (1, 2, 3))
CX_A, CX_B, CX_BAD = (f"019947aa-cd00-7a1b-2c3d-4e5f6071829{n}" for n in (1, 2, 3))
GM_A, GM_B, GM_BAD = ("gm-good-a", "gm-good-b", "gm-bad")


def deep(depth: int = DEPTH) -> str:
    return "[" * depth + "]" * depth


def deep_value(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = {"k": value}
    return value


@dataclass
class Case:
    name: str
    kind: str  # opencode | claude-code | codex | gemini
    build: Callable[[Path], None]  # adds the damage to a store that already holds the good sessions
    victim: str | None = None  # the session the damage may cost; None: it costs a record at most
    big: bool = False  # generates a large file (kept out of the quick lane)
    # counted: the bad record is skipped and counted (malformed, a bad session, or a named problem);
    # repaired: the value is mended where it stands (U+FFFD for bad text, 0 for a time that is not one);
    # mended: repaired, and also counted as a malformed record of its session (bytes that are not UTF-8);
    # harmless: nothing of the session's text is lost (an empty file, a folder named *.json, a link cycle
    # that is never followed, a file with no session id in it yet).
    expect: str = "counted"
    # The damage is in one record of a session that has good ones (the third session of `with_lines`,
    # `with_text`): it must cost that record, never the session.
    record: bool = False


# -- good stores ---------------------------------------------------------------------------------


def jsonl(path: Path, records: list[Any], tail: bytes = b"") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in records) + tail)


def cc_records(sid: str, text: str = "hello there") -> list[dict[str, Any]]:
    return [
        {"type": "user", "uuid": f"{sid}-u", "sessionId": sid, "cwd": "/w", "timestamp": "2026-01-01T00:00:00Z",
         "message": {"role": "user", "content": text}},
        {"type": "assistant", "uuid": f"{sid}-a", "sessionId": sid, "timestamp": "2026-01-01T00:00:01Z",
         "message": {"id": f"{sid}-m", "model": "x", "content": [{"type": "text", "text": "an answer"}]}},
    ]  # fmt: skip


def cc_path(root: Path, sid: str) -> Path:
    return root / "projects" / "p" / f"{sid}.jsonl"


def cx_records(sid: str, text: str = "hello there") -> list[dict[str, Any]]:
    return [
        {"timestamp": "2025-09-14T10:00:00Z", "type": "session_meta", "payload": {"id": sid, "cwd": "/w"}},
        {"timestamp": "2025-09-14T10:00:01Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}},
    ]  # fmt: skip


def cx_path(root: Path, sid: str, suffix: str = ".jsonl") -> Path:
    return root / "sessions" / "2025" / "09" / "14" / f"rollout-2025-09-14T10-00-00-{sid}{suffix}"


def gm_records(sid: str, text: str = "hello there") -> list[dict[str, Any]]:
    return [
        {"sessionId": sid, "projectHash": "h", "startTime": "2025-10-02T14:05:12Z"},
        {"id": f"{sid}-u", "type": "user", "content": text, "timestamp": "2025-10-02T14:05:13Z"},
    ]


def gm_path(root: Path, sid: str, suffix: str = ".jsonl") -> Path:
    return root / "tmp" / "proj" / "chats" / f"session-2025-10-02T14-05-{sid}{suffix}"


def oc_db(root: Path) -> Path:
    return root / "opencode.db"


def build_good(kind: str, root: Path) -> SourceSpec:
    """A store of `kind` under `root` with its good sessions; returns the spec to index it."""
    root.mkdir(parents=True, exist_ok=True)
    if kind == "opencode":
        shutil.copy(SAMPLE_DB, oc_db(root))
        return SourceSpec(id="oc", kind=kind, path=oc_db(root))
    if kind == "claude-code":
        for sid in (CC_A, CC_B):
            jsonl(cc_path(root, sid), cc_records(sid))
    elif kind == "codex":
        for sid in (CX_A, CX_B):
            jsonl(cx_path(root, sid), cx_records(sid))
    else:
        for sid in (GM_A, GM_B):
            jsonl(gm_path(root, sid), gm_records(sid))
    return SourceSpec(id=kind[:2], kind=kind, path=root)


def good_ids(kind: str) -> set[str]:
    if kind == "opencode":
        with sqlite3.connect(SAMPLE_DB) as conn:
            return {r[0] for r in conn.execute("SELECT id FROM session")}
    return {"claude-code": {CC_A, CC_B}, "codex": {CX_A, CX_B}, "gemini": {GM_A, GM_B}}[kind]


# -- OpenCode damage -------------------------------------------------------------------------------


def oc_victim() -> str:
    with sqlite3.connect(SAMPLE_DB) as conn:
        return str(conn.execute("SELECT session_id FROM part GROUP BY session_id ORDER BY session_id").fetchone()[0])


def oc_sql(*statements: str, params: tuple[Any, ...] = ()) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        with sqlite3.connect(oc_db(root)) as conn:
            for statement in statements:
                conn.execute(statement, params if "?" in statement else ())

    return build


def _victim_sql(template: str, value: Any = None) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        with sqlite3.connect(oc_db(root)) as conn:
            args = (value, oc_victim()) if value is not None else (oc_victim(),)
            conn.execute(template, args)

    return build


def oc_damaged_page(root: Path) -> None:
    """Overwrite one leaf page of the part table with garbage (a bad sector, a torn write)."""
    path = oc_db(root)
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = [r[0] for r in conn.execute("SELECT pageno FROM dbstat WHERE name = 'part' AND pagetype = 'leaf'")]
    with path.open("r+b") as f:
        f.seek((pages[len(pages) // 2] - 1) * page_size)
        f.write(os.urandom(page_size))


def oc_legacy(root: Path, session: dict[str, Any], messages: dict[str, Any] | None = None) -> Path:
    """A legacy storage/ tree beside the database holding one session of its own."""
    storage = root / "storage"
    (storage / "session" / "proj").mkdir(parents=True, exist_ok=True)
    (storage / "session" / "proj" / "ses_legacy.json").write_text(json.dumps(session))
    for mid, payload in (messages or {}).items():
        (storage / "message" / "ses_legacy").mkdir(parents=True, exist_ok=True)
        target = storage / "message" / "ses_legacy" / f"{mid}.json"
        if isinstance(payload, str):
            target.write_text(payload)
        else:
            target.write_text(json.dumps(payload))
    return storage


LEGACY = {"id": "ses_legacy", "title": "legacy one", "directory": "/w", "projectID": "proj", "time": {"created": 1}}


def oc_legacy_time(root: Path) -> None:
    oc_legacy(root, {**LEGACY, "time": {"created": "yesterday", "updated": [1]}})


def oc_legacy_dir_json(root: Path) -> None:
    storage = oc_legacy(root, LEGACY, {"msg_a": {"role": "user", "time": {"created": 2}}})
    (storage / "message" / "ses_legacy" / "msg_dir.json").mkdir()
    (storage / "session" / "proj" / "ses_dir.json").mkdir()


def oc_legacy_loop(root: Path) -> None:
    storage = oc_legacy(root, LEGACY, {"msg_a": {"role": "user", "time": {"created": 2}}})
    (storage / "session" / "proj" / "ses_loop.json").symlink_to("ses_loop.json")
    (storage / "message" / "ses_legacy" / "msg_loop.json").symlink_to("msg_loop.json")
    (storage / "part" / "loopdir").mkdir(parents=True)
    (storage / "part" / "loopdir" / "x").symlink_to("x")


def oc_legacy_deep(root: Path) -> None:
    oc_legacy(root, LEGACY, {"msg_a": deep(), "msg_b": {"role": "user", "time": {"created": 3}}})


def oc_legacy_not_json(root: Path) -> None:
    storage = oc_legacy(root, LEGACY, {"msg_a": "{not json"})
    (storage / "message" / "ses_legacy" / "msg_b.json").write_bytes(b'{"role": "\xff\xfe')


# -- JSONL damage (Claude Code, Codex, Gemini) ----------------------------------------------------

_PATHS = {"claude-code": cc_path, "codex": cx_path, "gemini": gm_path}
_RECORDS = {"claude-code": cc_records, "codex": cx_records, "gemini": gm_records}
_BAD_ID = {"claude-code": CC_BAD, "codex": CX_BAD, "gemini": GM_BAD}


def with_lines(kind: str, *lines: Any, tail: bytes = b"") -> Callable[[Path], None]:
    """A third session whose good records are followed by `lines` (bytes are written as they are)."""

    def build(root: Path) -> None:
        sid = _BAD_ID[kind]
        jsonl(_PATHS[kind](root, sid), [*_RECORDS[kind](sid), *lines], tail)

    return build


def with_text(kind: str, text: str) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        sid = _BAD_ID[kind]
        jsonl(_PATHS[kind](root, sid), _RECORDS[kind](sid, text))

    return build


def with_file(kind: str, content: bytes) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        path = _PATHS[kind](root, _BAD_ID[kind])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)

    return build


def symlink_loop_file(kind: str) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        path = _PATHS[kind](root, _BAD_ID[kind])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(path.name)

    return build


def symlink_loop_dir(kind: str) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        folder = _PATHS[kind](root, _BAD_ID[kind]).parent
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "loop-a").symlink_to("loop-b")
        (folder / "loop-b").symlink_to("loop-a")
        (folder.parent / "loop-up").symlink_to(folder.parent)  # a cycle back to an ancestor

    return build


def big_record(kind: str) -> Callable[[Path], None]:
    """A session whose one tool output / message is 50 MB."""

    def build(root: Path) -> None:
        sid = _BAD_ID[kind]
        blob = ("0123456789abcdef " * (BIG // 17 + 1))[:BIG]
        if kind == "claude-code":
            result = {"type": "tool_result", "tool_use_id": "t", "content": blob}
            extra = {"type": "user", "uuid": "big", "sessionId": sid, "timestamp": "2026-01-01T00:00:02Z",
                     "message": {"role": "user", "content": [result]}}  # fmt: skip
        elif kind == "codex":
            extra = {"timestamp": "2025-09-14T10:00:02Z", "type": "response_item",
                     "payload": {"type": "function_call_output", "call_id": "c", "output": blob}}  # fmt: skip
        else:
            extra = {"id": "big", "type": "user", "content": blob}
        jsonl(_PATHS[kind](root, sid), [*_RECORDS[kind](sid), extra])

    return build


def zstd_bomb(lines: bool) -> Callable[[Path], None]:
    """A few kilobytes of .zst that expand past a gigabyte: one endless line, or endless records."""

    def build(root: Path) -> None:
        path = cx_path(root, CX_BAD, ".jsonl.zst")
        path.parent.mkdir(parents=True, exist_ok=True)
        head = b"".join(json.dumps(r).encode() + b"\n" for r in cx_records(CX_BAD))
        unit = (b'{"type":"event_msg","payload":{"type":"x"}}\n' * 24_000) if lines else b"a" * (1 << 20)
        with path.open("wb") as out, zstandard.ZstdCompressor(level=3).stream_writer(out) as writer:
            writer.write(head)
            for _ in range(1100 if not lines else 1000):
                writer.write(unit)

    return build


def zstd_not_zstd(root: Path) -> None:
    path = cx_path(root, CX_BAD, ".jsonl.zst")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not zstd at all\n" * 10)


def zstd_truncated(root: Path) -> None:
    path = cx_path(root, CX_BAD, ".jsonl.zst")
    path.parent.mkdir(parents=True, exist_ok=True)
    data = zstandard.ZstdCompressor().compress(b"".join(json.dumps(r).encode() + b"\n" for r in cx_records(CX_BAD)))
    path.write_bytes(data[: len(data) // 2])


def unreadable_dir(kind: str) -> Callable[[Path], None]:
    """A folder the user cannot list. Root reads anything, so the test denies it with os.scandir."""

    def build(root: Path) -> None:
        folder = {
            "claude-code": root / "projects" / "denied",
            "codex": root / "sessions" / "2025" / "10",
            "gemini": root / "tmp" / "denied" / "chats",
        }[kind]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "DENY").write_text("")
        folder.chmod(0)

    return build


def gemini_legacy_json(content: bytes) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        path = gm_path(root, GM_BAD, ".json")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)

    return build


# What a kind's reader does with damage that costs it nothing (see Case.expect).
_HARMLESS = {
    ("claude-code", "JSON nested 900 deep (parses, then recursion)"),  # a tool result shape it ignores
    ("gemini", "JSON nested 900 deep (parses, then recursion)"),
    ("codex", "symlink loop among folders"),  # the walk never follows links
    ("gemini", "time of 1e400"),  # a record with no message id: not a message
    ("codex", "time of 1e400"),  # a record type Codex never writes: skipped uncounted, as a newer version's
}


def _jsonl_cases(kind: str) -> list[Case]:
    found = [
        Case(
            c.name, c.kind, c.build, c.victim, c.big, "harmless" if (kind, c.name) in _HARMLESS else c.expect, c.record
        )
        for c in _jsonl_kinds(kind)
    ]
    return found


LATER = "a later question"  # the text of a record whose time is not one


def timed_message(kind: str, when: str) -> bytes:
    """A real message record of the third session whose `timestamp` is `when`, written as it stands."""
    bad = _BAD_ID[kind]
    record = {
        "claude-code": {"type": "user", "uuid": "late", "sessionId": bad, "timestamp": "@T",
                        "message": {"role": "user", "content": LATER}},
        "codex": {"timestamp": "@T", "type": "response_item",
                  "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": LATER}]}},
        "gemini": {"id": "late", "type": "user", "content": LATER, "timestamp": "@T"},
    }[kind]  # fmt: skip
    return json.dumps(record).replace('"@T"', when).encode()


def gemini_start_time(when: str) -> Callable[[Path], None]:
    """A Gemini recording whose metadata line's startTime is `when`."""

    def build(root: Path) -> None:
        head = json.dumps({"sessionId": GM_BAD, "projectHash": "h", "startTime": "@T"}).replace('"@T"', when)
        jsonl(gm_path(root, GM_BAD), [head.encode(), *gm_records(GM_BAD)[1:]])

    return build


def _jsonl_kinds(kind: str) -> list[Case]:
    bad = _BAD_ID[kind]
    deep_message = {
        "claude-code": {"type": "user", "uuid": "deep", "sessionId": bad, "timestamp": "2026-01-01T00:00:02Z",
                        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                                                 "content": deep_value(900)}]}},
        "codex": {"timestamp": "2025-09-14T10:00:02Z", "type": "response_item",
                  "payload": {"type": "function_call", "name": "shell", "call_id": "c", "arguments": deep(900)}},
        "gemini": {"id": "deep", "type": "user", "content": deep_value(900)},
    }[kind]  # fmt: skip
    found = [
        Case("deep JSON line (RecursionError)", kind, with_lines(kind, deep().encode())),
        Case("JSON nested 900 deep (parses, then recursion)", kind, with_lines(kind, deep_message)),
        Case("lone surrogate in text", kind, with_text(kind, "broken \ud800 half")),
        Case("lone low surrogate and NUL", kind, with_text(kind, "x\udfff\x00y")),
        Case("line of invalid UTF-8", kind, with_lines(kind, b'{"type": "user", "x": "\xff\xfe"}')),
        Case("line of NUL bytes", kind, with_lines(kind, b"\x00" * 4096)),
        Case("line that is a JSON array", kind, with_lines(kind, [1, 2, 3])),
        Case("line that is a JSON string", kind, with_lines(kind, "just a string")),
        Case("time of 1e400", kind, with_lines(kind, b'{"timestamp": 1e400, "type": "user"}')),
        Case(
            "time that is not a time",
            kind,
            with_lines(kind, {"timestamp": "yesterday", "type": "user"}),
            expect="repaired",
        ),
        Case("whole file of garbage", kind, with_file(kind, os.urandom(8192)), victim=bad),
        Case("empty file", kind, with_file(kind, b""), expect="harmless"),
        Case("half-written last line", kind, with_lines(kind, tail=b'{"type": "us'), expect="harmless"),
        Case("symlink loop as a transcript", kind, symlink_loop_file(kind)),
        Case("symlink loop among folders", kind, symlink_loop_dir(kind)),
        Case("folder that cannot be read", kind, unreadable_dir(kind)),
        Case("50 MB record", kind, big_record(kind), big=True),
    ]
    lines = {
        "deep JSON line (RecursionError)", "JSON nested 900 deep (parses, then recursion)", "lone surrogate in text",
        "lone low surrogate and NUL", "line of invalid UTF-8", "line of NUL bytes", "line that is a JSON array",
        "line that is a JSON string", "time of 1e400", "time that is not a time", "half-written last line",
    }  # fmt: skip
    for case in found:
        case.record = case.name in lines
    for when in ("1e400", "-1e400", "NaN"):  # Python's json reads all three as floats that are no time
        build = with_lines(kind, timed_message(kind, when))
        message = Case(f"message at time {when}", kind, build, expect="repaired", record=True)
        found.append(message)
    return found


def cases() -> list[Case]:
    victim = oc_victim()
    found = [
        Case("opencode: message JSON nested 100,000 deep", "opencode",
             _victim_sql("UPDATE message SET data = ? WHERE session_id = ?", deep())),
        Case("opencode: part JSON nested 100,000 deep", "opencode",
             _victim_sql("UPDATE part SET data = ? WHERE session_id = ?", deep())),
        Case("opencode: tool input nested 900 deep", "opencode",
             _victim_sql("UPDATE part SET data = json_set(data, '$.state.input', json(?)) WHERE session_id = ? "
                         "AND json_extract(data, '$.type') = 'tool'", json.dumps(deep_value(900)))),
        Case("opencode: non-numeric message time_created", "opencode",
             _victim_sql("UPDATE message SET time_created = ? WHERE session_id = ?", "not a time")),
        Case("opencode: non-numeric part time_created", "opencode",
             _victim_sql("UPDATE part SET time_created = ? WHERE session_id = ?", "soon")),
        Case("opencode: session time_created is text", "opencode",
             _victim_sql("UPDATE session SET time_created = ? WHERE id = ?", "2026-13-45")),
        Case("opencode: title that is not valid UTF-8", "opencode",
             _victim_sql("UPDATE session SET title = CAST(? AS TEXT) WHERE id = ?", b"caf\xe9 \xff\xfe"),
             expect="mended"),
        Case("opencode: part body that is not valid UTF-8", "opencode",
             _victim_sql("UPDATE part SET data = CAST(? AS TEXT) WHERE session_id = ?",
                         b'{"type":"text","text":"\xff"}'),
             expect="mended"),
        Case("opencode: lone surrogate in part text", "opencode",
             _victim_sql("UPDATE part SET data = ? WHERE session_id = ?", '{"type": "text", "text": "a \\ud800 b"}')),
        Case("opencode: message data is not an object", "opencode",
             _victim_sql("UPDATE message SET data = ? WHERE session_id = ?", "[1, 2]")),
        Case("opencode: part data is NULL", "opencode",
             _victim_sql("UPDATE part SET data = ? WHERE session_id = ?", "null")),
        Case("opencode: huge number in part time", "opencode",
             _victim_sql("UPDATE part SET data = json_set(data, '$.time.start', 1e300) WHERE session_id = ?"),
             expect="repaired"),
        Case("opencode: part of a message that does not exist", "opencode",
             _victim_sql("UPDATE part SET message_id = ? WHERE session_id = ?", "msg_nowhere")),
        Case("opencode: one damaged page", "opencode", oc_damaged_page, victim="*"),
        Case("opencode legacy: non-numeric time.created", "opencode", oc_legacy_time, expect="repaired"),
        Case("opencode legacy: folders named *.json", "opencode", oc_legacy_dir_json, expect="harmless"),
        Case("opencode legacy: symlink loops", "opencode", oc_legacy_loop),
        Case("opencode legacy: message JSON nested 100,000 deep", "opencode", oc_legacy_deep),
        Case("opencode legacy: message that is not JSON", "opencode", oc_legacy_not_json),
        Case("codex: zstd bomb (one endless line)", "codex", zstd_bomb(False), big=True),
        Case("codex: zstd bomb (endless records)", "codex", zstd_bomb(True), big=True),
        Case("codex: .zst that is not zstd", "codex", zstd_not_zstd),
        Case("codex: truncated .zst", "codex", zstd_truncated, expect="repaired"),
        Case("gemini: legacy .json nested 100,000 deep", "gemini",
             gemini_legacy_json(b'{"sessionId": "gm-bad", "messages": ' + deep().encode() + b"}"), victim=GM_BAD),
        Case("gemini: legacy .json of invalid UTF-8", "gemini", gemini_legacy_json(b'{"sessionId": "\xff"}'),
             expect="repaired"),
        Case("gemini: startTime of 1e400", "gemini", gemini_start_time("1e400"), expect="repaired", record=True),
    ]  # fmt: skip
    del victim
    for kind in ("claude-code", "codex", "gemini"):
        found += [
            Case(f"{kind}: {c.name}", c.kind, c.build, c.victim, c.big, c.expect, c.record) for c in _jsonl_cases(kind)
        ]
    return found
