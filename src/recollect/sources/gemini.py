"""Gemini CLI's chat recordings, read-only: `~/.gemini/tmp/<project>/chats/`.

What it reads:
- `session-<time>-<id8>.jsonl`: a metadata line (`sessionId`, `projectHash`, `startTime`, …),
  then message records keyed by `id`, appended as they change. The last copy of an id wins and
  keeps its first position; `{"$set": {...}}` updates metadata (a `messages` list replaces the
  history, as after /compress); `{"$rewindTo": id}` drops that message and everything after it.
- `session-….json`: the older single-JSON recording. When Gemini CLI resumes one it writes a
  `.jsonl` beside it with the same session id; the `.jsonl` then wins.
- `chats/<parent-session-id>/<session-id>.jsonl`: sub-agent recordings, children of the parent.
- The project directory: the `.project_root` marker in the project's tmp folder, else
  `~/.gemini/projects.json` (path -> slug, or the SHA-256 of the path for older hash folders).

`GEMINI_CLI_HOME` replaces the home directory, as it does for Gemini CLI. Never writes anything.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recollect.jsonish import typed
from recollect.model import Message, Part, Session
from recollect.sources.base import SourceSpec, register
from recollect.sources.guard import hidden
from recollect.sources.jsonl import (
    SHAPE_ERRORS,
    JsonlSource,
    SessionFile,
    as_list,
    compact_json,
    files_from_input,
    head_session_id,
    list_dir,
    read_head,
    read_jsonl,
    stat_mark,
)
from recollect.times import parse_stamp

log = logging.getLogger(__name__)

KIND = "gemini"
SOURCE_ID = "gemini"
_SNAPSHOT = "<state_snapshot>"  # how Gemini CLI's /compress summary opens
_TOOL_STATUS = {
    "success": "completed",
    "error": "error",
    "cancelled": "error",
    "executing": "running",
    "scheduled": "pending",
    "validating": "pending",
    "awaiting_approval": "pending",
}


def gemini_dir() -> Path:
    env = os.environ.get("GEMINI_CLI_HOME")
    return (Path(env).expanduser() if env else Path.home()) / ".gemini"


def discover() -> list[SourceSpec]:
    directory = gemini_dir()
    if (directory / "tmp").is_dir():
        return [SourceSpec(id=SOURCE_ID, kind=KIND, path=directory, discovered=True)]
    return []


@dataclass
class _Chat(SessionFile):
    project: Path  # the tmp/<slug> folder
    parent_id: str | None = None


class GeminiSource(JsonlSource[Path, _Chat]):
    kind = KIND
    name = "Gemini CLI"
    hint = "point the source at the Gemini CLI dir (~/.gemini, or $GEMINI_CLI_HOME/.gemini) or its tmp/ folder"

    def __init__(self, spec: SourceSpec) -> None:
        super().__init__(spec)
        self._ids: dict[Path, str] = {}  # a recording's session id never changes

    def _layout(self) -> Path | None:
        """The tmp/ folder that holds a folder per project."""
        path = self._store()
        if path is None:
            return None
        if (path / "tmp").is_dir():
            return path / "tmp"
        if path.name == "tmp":
            return path
        self._absent("tmp/ folder with chats")
        return None

    def _list(self, layout: Path, problems: list[str]) -> dict[str, _Chat]:
        chats: dict[str, _Chat] = {}
        for project in list_dir(layout):
            if not project.is_dir():
                continue
            chats_dir = Path(project.path) / "chats"
            for item in list_dir(chats_dir):
                if item.is_file() and item.name.startswith("session-") and item.name.endswith((".json", ".jsonl")):
                    self._add(chats, problems, Path(item.path), Path(project.path), None)
                elif item.is_dir():
                    for sub in list_dir(Path(item.path)):
                        if sub.is_file() and sub.name.endswith(".jsonl"):
                            self._add(chats, problems, Path(sub.path), Path(project.path), item.name)
        return chats

    def _add(self, chats: dict[str, _Chat], problems: list[str], path: Path, project: Path, parent: str | None) -> None:
        try:
            sid = head_session_id(path, self._ids)
        except FileNotFoundError:
            return  # deleted while we listed
        except OSError:
            # Its session id is inside: nothing to list it under.
            problems.append(f"{path} is not readable; its session is left out (kept as indexed, if it was)")
            hidden(problems[-1])  # which session it holds is unknown: the listing is partial
            return
        if sid is None:
            if parent is None:
                if b"\n" in _head(path):  # a whole first record and no session id: never one of Gemini's
                    problems.append(f"{path} holds no session id, so it is left out (not a Gemini CLI recording?)")
                return  # else the first line is not complete yet
            sid = path.stem  # sub-agent files are named after their session id
        current = chats.get(sid)
        # A resumed legacy .json is rewritten as .jsonl under the same id: the .jsonl is the live one.
        if current is None or (current.path.suffix == ".json" and path.suffix == ".jsonl"):
            chats[sid] = _Chat(id=sid, path=path, project=project, parent_id=parent)

    def _mark(self, chat: _Chat, listing: dict[str, _Chat]) -> str:
        return f"{stat_mark(chat.path)}:{chat.path.suffix}"

    def _parent(self, chat: _Chat) -> str | None:
        return chat.parent_id

    def _reader(self, layout: Path) -> Callable[[_Chat], Session]:
        projects = _ProjectNames(layout.parent)  # the .gemini folder, whether the store is it or its tmp/

        def read(chat: _Chat) -> Session:
            session = self._read(chat)
            session.project_id = chat.project.name
            session.directory = session.directory or projects.directory(chat.project)
            return session

        return read

    def _read(self, chat: _Chat) -> Session:
        metadata: dict[str, Any] = {}
        messages: dict[str, dict[str, Any]] = {}
        malformed = 0
        if chat.path.suffix == ".json":
            try:
                record = json.loads(chat.path.read_bytes())
            except (ValueError, UnicodeDecodeError, RecursionError):
                record = None  # mid-write or damaged: nothing usable this time
            if isinstance(record, dict):
                metadata = record
                for message in as_list(record.get("messages")):
                    if isinstance(message, dict) and isinstance(message.get("id"), str):
                        messages[message["id"]] = message
            else:
                malformed = 1
        else:
            result = read_jsonl(chat.path)
            malformed = result.malformed
            for _, record in result.records:
                if isinstance(record.get("$rewindTo"), str):
                    _rewind(messages, record["$rewindTo"])
                elif isinstance(record.get("id"), str):
                    messages[record["id"]] = record
                elif isinstance(record.get("$set"), dict):
                    update = record["$set"]
                    metadata.update(update)
                    if isinstance(update.get("messages"), list):
                        # The whole history was rewritten (compression, masking): it replaces ours.
                        messages = {
                            m["id"]: m
                            for m in update["messages"]
                            if isinstance(m, dict) and isinstance(m.get("id"), str)
                        }
                elif isinstance(record.get("sessionId"), str):
                    metadata.update(record)
        return _build(chat, metadata, list(messages.values()), malformed, self.id)


def _rewind(messages: dict[str, dict[str, Any]], target: str) -> None:
    """Drop `target` and every message after it; an unknown target clears the history (as Gemini CLI does)."""
    keys = list(messages)
    if target not in messages:
        messages.clear()
        return
    for key in keys[keys.index(target) :]:
        del messages[key]


def _head(path: Path) -> bytes:
    """The start of a recording, as the listing reads it for its session id; b"" when it cannot be read."""
    try:
        return read_head(path, 1 << 14)
    except OSError:
        return b""


class _ProjectNames:
    """Maps a project's tmp folder back to the directory it records."""

    def __init__(self, gemini: Path) -> None:
        self._by_slug: dict[str, str] = {}
        try:
            data = json.loads((gemini / "projects.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            data = {}
        projects = data.get("projects") if isinstance(data, dict) else None
        if isinstance(projects, dict):
            for path, slug in projects.items():
                if isinstance(path, str) and isinstance(slug, str):
                    self._by_slug[slug] = path
                    # Folders from before the registry are named by the SHA-256 of the project path.
                    self._by_slug[hashlib.sha256(path.encode()).hexdigest()] = path

    def directory(self, project: Path) -> str:
        try:
            marker = (project / ".project_root").read_text(encoding="utf-8").strip()
        except OSError:
            marker = ""
        return marker or self._by_slug.get(project.name, "")


def _parts_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return ""
    return "\n".join(
        p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str) and not p.get("thought")
    )


def _response_text(result: Any) -> tuple[str, bool]:
    """A tool call's result (a list of `functionResponse` parts) as text, and whether it is an error."""
    texts: list[str] = []
    failed = False
    parts = result if isinstance(result, list) else [result]
    for part in parts:
        if not isinstance(part, dict):
            if isinstance(part, str):
                texts.append(part)
            continue
        response = part.get("functionResponse")
        if isinstance(response, dict):
            body = response.get("response")
            if isinstance(body, dict):
                if isinstance(body.get("error"), str):
                    failed = True
                    texts.append(body["error"])
                elif isinstance(body.get("output"), str):
                    texts.append(body["output"])
                else:
                    texts.append(compact_json(body))
            elif body is not None:
                texts.append(compact_json(body))
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
    return "\n".join(t for t in texts if t), failed


def _build(
    chat: _Chat, metadata: dict[str, Any], records: list[dict[str, Any]], malformed: int, source: str
) -> Session:
    session = Session(id=chat.id, source=source, agent_kind=KIND, parent_id=chat.parent_id, malformed=malformed)
    summary = metadata.get("summary")
    session.title = summary.strip() if isinstance(summary, str) else ""
    session.time_created = parse_stamp(metadata.get("startTime")) or 0
    session.time_updated = parse_stamp(metadata.get("lastUpdated")) or 0
    directories = metadata.get("directories")
    if isinstance(directories, list) and directories and isinstance(directories[0], str):
        session.directory = directories[0]
    if metadata.get("kind") == "subagent":
        session.agent = "subagent"
    tools: dict[str, Part] = {}
    last = session.time_created
    for record in records:
        try:
            msg = _message(record, last, tools, chat)
        except SHAPE_ERRORS as exc:
            # A record shaped unlike any we know is skipped and counted; it never ends the read.
            log.debug("gemini %s message %r: %r", chat.id, record.get("id"), exc)
            session.malformed += 1
            continue
        if msg is None:
            continue  # a message type from a newer Gemini CLI: valid, but nothing we can attribute
        last = max(last, msg.time)
        if msg.model:
            session.model = msg.model
        if msg.parts:
            session.messages.append(msg)
    session.time_created = session.time_created or (session.messages[0].time if session.messages else 0)
    session.time_updated = max(session.time_updated, last)
    return session


def _message(record: dict[str, Any], last: int, tools: dict[str, Part], chat: _Chat) -> Message | None:
    mid = record["id"]
    when = parse_stamp(record.get("timestamp")) or last
    rtype = record.get("type")
    if rtype == "gemini":
        return _model_message(record, mid, when, tools, chat)
    if rtype == "user":
        return _user_message(record, mid, when, tools)
    if rtype in ("info", "warning", "error"):
        text = _parts_text(record.get("content"))
        part = Part(id=f"{mid}:0", kind="text", raw_type=rtype, text=text, synthetic=True, time=when)
        msg = Message(id=mid, role="system", time=when, parts=[part] if text.strip() else [])
        msg.error = text if rtype == "error" else None
        return msg
    return None


def _user_message(record: dict[str, Any], mid: str, when: int, tools: dict[str, Part]) -> Message:
    content = record.get("content")
    text = _parts_text(content)
    display = record.get("displayContent")
    shown = _parts_text(display) if display is not None else None
    parts: list[Part] = []
    snapshot = text.lstrip().startswith(_SNAPSHOT)
    if shown is not None and shown.strip() and shown.strip() != text.strip():
        # What the person typed is what the CLI shows; the rest (expanded @files) was added for the model.
        parts.append(Part(id=f"{mid}:0", kind="text", raw_type="display", text=shown.strip(), time=when))
        extra = text[len(shown) :] if text.startswith(shown) else text
        if extra.strip():
            parts.append(Part(id=f"{mid}:1", kind="text", raw_type="expanded", text=extra.strip(), synthetic=True))
    elif text.strip():
        parts.append(Part(id=f"{mid}:0", kind="text", raw_type="text", text=text.strip(), time=when))
    for index, block in enumerate(content if isinstance(content, list) else []):
        if not isinstance(block, dict):
            continue
        response = block.get("functionResponse")
        if isinstance(response, dict):
            output, failed = _response_text([block])
            target = tools.get(str(response.get("id")))
            if target is not None:
                target.tool_status = "error" if failed else "completed"
                target.tool_output, target.tool_error = (None, output) if failed else (output, None)
            else:
                part = Part(id=f"{mid}:r{index}", kind="tool", raw_type="functionResponse", synthetic=True)
                part.tool = str(response.get("name") or "")
                part.tool_output = output
                parts.append(part)
        elif "inlineData" in block or "fileData" in block:
            parts.append(Part(id=f"{mid}:f{index}", kind="file", raw_type="inlineData", time=when))
    if snapshot:
        for part in parts:
            part.synthetic = True
    return Message(id=mid, role="user", time=when, parts=parts, summary=snapshot)


def _model_message(record: dict[str, Any], mid: str, when: int, tools: dict[str, Part], chat: _Chat) -> Message:
    model = typed(record.get("model"), str, None)
    msg = Message(id=mid, role="assistant", time=when, model=model)
    for index, thought in enumerate(as_list(record.get("thoughts"))):
        if not isinstance(thought, dict):
            continue
        text = "\n".join(str(thought[k]) for k in ("subject", "description") if thought.get(k))
        if text:
            part_time = parse_stamp(thought.get("timestamp")) or when
            msg.parts.append(
                Part(id=f"{mid}:t{index}", kind="reasoning", raw_type="thought", text=text, time=part_time)
            )
    content = record.get("content")
    for index, block in enumerate(content if isinstance(content, list) else []):
        if isinstance(block, dict) and block.get("thought") and isinstance(block.get("text"), str):
            msg.parts.append(Part(id=f"{mid}:r{index}", kind="reasoning", raw_type="thought", text=block["text"]))
    text = _parts_text(content)
    if text.strip():
        msg.parts.append(Part(id=f"{mid}:0", kind="text", raw_type="text", text=text, time=when))
    for index, call in enumerate(as_list(record.get("toolCalls"))):
        if not isinstance(call, dict):
            continue
        call_id = str(call.get("id") or f"{mid}:c{index}")
        output, failed = _response_text(call.get("result")) if call.get("result") is not None else ("", False)
        if not output and isinstance(call.get("resultDisplay"), str):
            output = call["resultDisplay"]
        status = _TOOL_STATUS.get(str(call.get("status")), "completed" if output else "pending")
        failed = failed or status == "error"
        part = Part(
            id=call_id,
            kind="tool",
            raw_type="toolCall",
            tool=str(call.get("name") or ""),
            tool_status="error" if failed else status,
            tool_input=call.get("args"),
            files=files_from_input(call.get("args")),
            time=parse_stamp(call.get("timestamp")) or when,
        )
        if failed:
            part.tool_error = output or str(call.get("status") or "error")
        else:
            part.tool_output = output or None
        agent = call.get("agentId")
        if isinstance(agent, str) and agent and (chat.project / "chats" / chat.id / f"{agent}.jsonl").exists():
            part.child_session_id = agent
        tools[call_id] = part
        msg.parts.append(part)
    return msg


register(KIND, GeminiSource, discover)
