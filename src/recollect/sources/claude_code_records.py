"""How the records of one Claude Code session file become a `Session` (sources/claude_code.py finds the
files). Text the harness injected into user records is never the person's: `Part.synthetic`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recollect.jsonish import typed
from recollect.model import Message, Part, Session
from recollect.sources.jsonl import compact_json, files_from_input
from recollect.text.plain import cut_title
from recollect.times import parse_stamp

# Blocks Claude Code wraps around text it injects into user records. Their content was not typed
# by the person, except the arguments of a slash command, a `!` shell line and a `#` memory line.
_HARNESS_TAGS = (
    "system-reminder",
    "command-name",
    "command-message",
    "command-args",
    "command-contents",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "task-notification",
    "user-prompt-submit-hook",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
    "user-memory-input",
)
_TYPED_TAGS = frozenset({"command-args", "bash-input", "user-memory-input"})
_TAG_RE = re.compile(r"<(" + "|".join(_HARNESS_TAGS) + r")>(.*?)</\1>", re.S)
_COMMAND_NAME_RE = re.compile(r"<command-name>\s*(.*?)\s*</command-name>", re.S)
_INTERRUPTED_RE = re.compile(r"^\[Request interrupted by user[^\]]*\]$")
_CONTINUATION = "This session is being continued from a previous conversation"
# Claude Code 2.0 starts each sub-agent at launch with the prompt "Warmup", to fill its cache: no task.
WARMUP_TITLE = "Warmup (a subagent Claude Code started at launch; no task)"


@dataclass
class Entry:
    """One session's files, found by listing directories only."""

    id: str
    project_dir: Path
    role: str  # main | agent (2.0, beside the main files) | subagent (2.1, under <session>/subagents/)
    files: list[Path] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)  # size:mtime of each file, taken while listing
    parent_id: str | None = None


def _result_text(content: Any) -> str:
    """The text a tool result carries: a string or a list of content blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for block in content:
            if isinstance(block, dict):
                if isinstance(block.get("text"), str):
                    texts.append(block["text"])
                elif block.get("type") == "image":
                    texts.append("[image]")
            elif isinstance(block, str):
                texts.append(block)
        return "\n".join(texts)
    return compact_json(content)


class Transcript:
    """Builds one Session from the records of its file(s), in file order."""

    def __init__(self, entry: Entry, source_id: str, kind: str) -> None:
        self.entry = entry
        self.session = Session(id=entry.id, source=source_id, agent_kind=kind, parent_id=entry.parent_id)
        self.session.project_id = entry.project_dir.name
        self.malformed = 0
        self.messages: list[Message] = []
        self.by_api_id: dict[str, Message] = {}
        self.tools: dict[str, Part] = {}
        self.agent_links: dict[str, str] = {}  # tool_use id -> sub-agent id, from progress records
        self.seen_uuids: set[str] = set()
        self.foreign: dict[str, bool] = {}
        self.leaf_order: list[str] = []
        self.custom_title = ""
        self.ai_title = ""
        self.last_time = 0
        self.first_time = 0
        self.conversation = False  # a user, assistant or system record of this session was seen
        self.other_kinds: set[str] = set()

    # records ------------------------------------------------------------------------------

    def add(self, record: dict[str, Any]) -> None:
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            if uuid in self.seen_uuids:
                return
            self.seen_uuids.add(uuid)
        kind = record.get("type")
        if kind in ("user", "assistant", "system"):
            if self._replayed(record):
                return
            if isinstance(uuid, str):
                self.leaf_order.append(uuid)  # a legacy summary may name any of them as its leaf
            self.conversation = True
        elif isinstance(kind, str):
            self.other_kinds.add(kind)
        when = parse_stamp(record.get("timestamp"))
        if when:
            self.first_time = min(self.first_time or when, when)
            self.last_time = max(self.last_time, when)
        cwd = record.get("cwd")
        if isinstance(cwd, str) and cwd and not self.session.directory:
            self.session.directory = cwd
        if self.entry.role != "main" and not self.session.parent_id:
            parent = record.get("sessionId")
            if isinstance(parent, str) and parent != self.entry.id:
                self.session.parent_id = parent

        if kind == "user":
            self._user(record, when)
        elif kind == "assistant":
            self._assistant(record, when)
        elif kind == "system":
            self._system(record, when)
        elif kind == "custom-title":
            if isinstance(record.get("customTitle"), str) and record["customTitle"].strip():
                self.custom_title = record["customTitle"].strip()
        elif kind == "ai-title":
            if isinstance(record.get("aiTitle"), str) and record["aiTitle"].strip():
                self.ai_title = record["aiTitle"].strip()
        elif kind == "progress":
            data = record.get("data")
            parent_tool = record.get("parentToolUseID")
            if isinstance(data, dict) and data.get("type") == "agent_progress" and isinstance(parent_tool, str):
                agent_id = data.get("agentId")
                if isinstance(agent_id, str) and agent_id:
                    self.agent_links[parent_tool] = f"agent-{agent_id}"
        # summary (handled per project), file-history-snapshot, queue-operation (duplicates the user
        # record it queues) and unknown future types carry nothing to index.

    def _replayed(self, record: dict[str, Any]) -> bool:
        """A record copied from another session into a resumed one, while the original still exists."""
        if self.entry.role != "main":
            return False
        owner = record.get("sessionId")
        if not isinstance(owner, str) or owner == self.entry.id:
            return False
        if owner not in self.foreign:
            self.foreign[owner] = (self.entry.project_dir / f"{owner}.jsonl").exists()
        return self.foreign[owner]

    def _time(self, when: int | None) -> int:
        return when or self.last_time

    def _user(self, record: dict[str, Any], when: int | None) -> None:
        message = record.get("message")
        uuid = record.get("uuid")
        if not isinstance(message, dict) or not isinstance(uuid, str):
            self.malformed += 1
            return
        content = message.get("content")
        meta = bool(record.get("isMeta"))
        sidechain = self.entry.role == "main" and bool(record.get("isSidechain"))
        summary = bool(record.get("isCompactSummary"))
        msg = Message(id=uuid, role="user", time=self._time(when), agent="sidechain" if sidechain else None)
        parts: list[Part] = []
        blocks: Any = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            self.malformed += 1
            return
        for index, block in enumerate(blocks):
            if not isinstance(block, dict):
                continue
            btype = block.get("type")
            part_id = f"{uuid}:{index}"
            if btype == "text" and isinstance(block.get("text"), str):
                text = block["text"]
                if text.lstrip().startswith(_CONTINUATION):
                    summary = True
                parts.extend(_user_text_parts(text, part_id, msg.time))
            elif btype == "tool_result":
                orphan = self._tool_result(block, record, part_id, msg.time)
                if orphan is not None:
                    parts.append(orphan)
            elif btype in ("image", "document"):
                parts.append(Part(id=part_id, kind="file", raw_type=btype, time=msg.time))
            else:
                parts.append(Part(id=part_id, kind="other", raw_type=str(btype), text=_result_text([block])))
        if not parts:
            return  # only tool results, now on their tool parts
        if meta or summary or sidechain:
            for part in parts:
                part.synthetic = True
        elif self.entry.role != "main" and len(parts) == 1 and parts[0].text.strip() == "Warmup":
            # Claude Code 2.0 primes each sub-agent's cache with "Warmup" at start-up.
            parts[0].synthetic = True
            parts[0].raw_type = "warmup"
        msg.summary = summary
        msg.parts = parts
        self.messages.append(msg)

    def _tool_result(self, block: dict[str, Any], record: dict[str, Any], part_id: str, when: int) -> Part | None:
        tool_id = block.get("tool_use_id")
        text = _result_text(block.get("content"))
        failed = bool(block.get("is_error"))
        part = self.tools.get(tool_id) if isinstance(tool_id, str) else None
        if part is None:
            # Its tool_use was lost (malformed line, trimmed history): keep the output, owned by no call.
            part = Part(id=tool_id if isinstance(tool_id, str) else part_id, kind="tool", raw_type="tool_result")
            part.synthetic = True
            part.time = when
            orphan: Part | None = part
        else:
            orphan = None
        part.tool_status = "error" if failed else "completed"
        if failed:
            part.tool_error = text
        else:
            part.tool_output = text
        extra = record.get("toolUseResult")
        if isinstance(extra, dict) and isinstance(extra.get("agentId"), str) and extra["agentId"]:
            part.child_session_id = f"agent-{extra['agentId']}"
        return orphan

    def _assistant(self, record: dict[str, Any], when: int | None) -> None:
        message = record.get("message")
        uuid = record.get("uuid")
        if not isinstance(message, dict) or not isinstance(uuid, str) or not isinstance(message.get("content"), list):
            self.malformed += 1
            return
        api_id = typed(message.get("id"), str, uuid)
        model = typed(message.get("model"), str, None)
        if model == "<synthetic>":
            model = None  # Claude Code's own stand-in message (errors, interruptions), not a model's
        msg = self.by_api_id.get(api_id)
        if msg is None:
            sidechain = self.entry.role == "main" and bool(record.get("isSidechain"))
            msg = Message(id=api_id, role="assistant", time=self._time(when), model=model)
            msg.agent = "sidechain" if sidechain else None
            self.by_api_id[api_id] = msg
            self.messages.append(msg)
        if model:
            msg.model = model
            self.session.model = model
        harness = bool(record.get("isApiErrorMessage")) or message.get("model") == "<synthetic>"
        for index, block in enumerate(message["content"]):
            if not isinstance(block, dict):
                continue
            part = self._assistant_block(block, f"{uuid}:{index}", msg.time)
            if part is not None:
                part.synthetic = part.synthetic or harness
                msg.parts.append(part)
        if record.get("isApiErrorMessage") or record.get("error"):
            msg.error = "\n".join(p.text for p in msg.parts if p.text) or str(record.get("error") or "error")
            msg.completed = False

    def _assistant_block(self, block: dict[str, Any], part_id: str, when: int) -> Part | None:
        btype = block.get("type")
        if btype == "text":
            return Part(id=part_id, kind="text", raw_type="text", text=str(block.get("text") or ""), time=when)
        if btype == "thinking":
            return Part(id=part_id, kind="reasoning", raw_type="thinking", text=str(block.get("thinking") or ""))
        if btype == "redacted_thinking":
            return None  # encrypted: nothing a person could read
        if btype in ("tool_use", "server_tool_use"):
            tool_id = typed(block.get("id"), str, part_id)
            tool_input = block.get("input")
            part = Part(
                id=tool_id,
                kind="tool",
                raw_type=btype,
                tool=str(block.get("name") or ""),
                tool_status="pending",
                tool_input=tool_input,
                files=files_from_input(tool_input),
                time=when,
            )
            if tool_id in self.agent_links:
                part.child_session_id = self.agent_links[tool_id]
            self.tools[tool_id] = part
            return part
        if isinstance(btype, str) and btype.endswith("_tool_result"):
            # Server-side tools (web search, code execution) answer inside the assistant message.
            target = self.tools.get(block.get("tool_use_id"))  # type: ignore[arg-type]
            text = _result_text(block.get("content"))
            if target is not None:
                target.tool_status = "completed"
                target.tool_output = text
                return None
            return Part(id=part_id, kind="tool", raw_type=btype, tool_status="completed", tool_output=text)
        return Part(id=part_id, kind="other", raw_type=str(btype), text=str(block.get("text") or ""))

    def _system(self, record: dict[str, Any], when: int | None) -> None:
        uuid = record.get("uuid")
        if not isinstance(uuid, str):
            return
        subtype = record.get("subtype")
        content = typed(record.get("content"), str, "")
        time = self._time(when)
        parts: list[Part]
        if subtype == "compact_boundary":
            parts = [Part(id=f"{uuid}:0", kind="compaction", raw_type=subtype, text=content, time=time)]
        elif subtype == "stop_hook_summary":
            lines = [str(record.get("stopReason") or "")]
            errors = record.get("hookErrors")
            for error in errors if isinstance(errors, list) else []:
                lines.append(compact_json(error))
            text = "\n".join(line for line in lines if line)
            if not text:
                return
            parts = [Part(id=f"{uuid}:0", kind="text", raw_type=subtype, text=text, time=time)]
        elif content.strip():
            parts = _user_text_parts(content, f"{uuid}:0", time)
        else:
            return  # api_error retries, turn durations: bookkeeping without words
        for part in parts:
            # The harness wrote the record; only a slash command's arguments were typed by the person.
            part.synthetic = part.raw_type not in _TYPED_TAGS
        self.messages.append(Message(id=uuid, role="system", time=time, parts=parts))

    def finish(self) -> Session:
        session = self.session
        session.messages = self.messages
        session.malformed = self.malformed
        session.title = self.custom_title or self.ai_title or self._request_title()
        session.time_created = self.first_time
        session.time_updated = self.last_time
        if not self.conversation and self.other_kinds:
            # Claude Code appends legacy `summary` titles to whichever file is current: a file may hold
            # nothing else. An empty file is left alone (a session just started: it will grow).
            kinds = ", ".join(sorted(self.other_kinds))
            titles = ": titles of other sessions" if self.other_kinds == {"summary"} else ""
            session.not_a_session = f"only {kinds} records{titles}, no conversation"
        return session

    def command_title(self) -> str:
        """The title of a session of slash commands only (`/login`; `/usage, /exit`; `/model opus`): the
        commands, in the order first run, each with what the person typed after it. "" when the person
        typed anything else (its first line stands in, as for any untitled session) or ran no command."""
        commands: list[str] = []
        for message in self.messages:
            for part in message.parts:
                if part.raw_type == "command-name" and (name := _COMMAND_NAME_RE.search(part.text)):
                    commands.append(name.group(1))
                elif part.raw_type == "command-args" and commands:
                    commands[-1] += " " + " ".join(part.text.split())
                elif part.kind == "text" and not part.synthetic and part.text.strip():
                    return ""
        return cut_title(", ".join(dict.fromkeys(c for c in commands if c)))

    def _request_title(self) -> str:
        """A sub-agent's title: Claude Code stores none, so the first line of the request its parent
        wrote, marked as a sub-agent's (OpenCode titles its sub-agents "<task> (@<agent> subagent)")."""
        if self.entry.role == "main":
            return ""
        for message in self.messages:
            if message.role != "user":
                continue
            for part in message.parts:
                if part.raw_type == "warmup":
                    return WARMUP_TITLE
                line = next((x.strip() for x in part.text.splitlines() if x.strip()), "")
                if part.kind == "text" and line:
                    return cut_title(line) + " (subagent)"
        return ""


def _user_text_parts(text: str, part_id: str, when: int) -> list[Part]:
    """Split user text into what the person typed and the blocks the harness wrapped around it."""
    parts: list[Part] = []

    def plain(chunk: str) -> None:
        chunk = chunk.strip()
        if not chunk:
            return
        n = len(parts)
        if _INTERRUPTED_RE.match(chunk):
            parts.append(Part(id=f"{part_id}.{n}", kind="text", raw_type="interrupted", text=chunk, synthetic=True))
        else:
            parts.append(Part(id=f"{part_id}.{n}", kind="text", raw_type="text", text=chunk, time=when))

    pos = 0
    for match in _TAG_RE.finditer(text):
        plain(text[pos : match.start()])
        tag, inner = match.group(1), match.group(2)
        n = len(parts)
        if tag in _TYPED_TAGS:
            if inner.strip():
                parts.append(Part(id=f"{part_id}.{n}", kind="text", raw_type=tag, text=inner.strip(), time=when))
        else:
            parts.append(Part(id=f"{part_id}.{n}", kind="text", raw_type=tag, text=match.group(0), synthetic=True))
        pos = match.end()
    plain(text[pos:])
    return parts
