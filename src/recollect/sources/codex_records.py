"""How the records of one Codex rollout become a `Session` (sources/codex.py finds the rollouts).
A forked or sub-agent rollout's copy of its parent's history is dropped here (`Builder._gated`)."""

from __future__ import annotations

import logging
import re
from typing import Any

from recollect.jsonish import parsed_json, typed
from recollect.model import Message, Part, Session
from recollect.sources.jsonl import SHAPE_ERRORS, as_list, compact_json, files_from_input
from recollect.times import parse_stamp

log = logging.getLogger("recollect.sources.codex")  # the adapter's logger, as before the split

_ENVELOPE_TYPES = frozenset({"session_meta", "response_item", "compacted", "turn_context", "event_msg"})
_ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
        "tool_search_call",
        "tool_search_output",
        "image_generation_call",
        "compaction",
        "compaction_summary",
    }
)
# Text Codex itself puts in user-role messages: workspace context, instructions, notices.
_INJECTED_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "<INSTRUCTIONS>",
    "# AGENTS.md instructions",
    "<turn_aborted>",
    "<user_shell_command>",
    "<subagent_notification>",
    "<permissions instructions>",
    "<skill>",
    "<collaboration_mode>",
)
_PATCH_FILE_RE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.M)
_EXIT_RE = re.compile(r"(?:Process exited with code|Exit code:?)\s*(-?\d+)")
_CWD_RE = re.compile(r"<cwd>\s*(.+?)\s*</cwd>|Current working directory:\s*(\S.*)")


def uuid7_ms(value: Any) -> int | None:
    """The creation time (epoch ms) a UUIDv7 carries, or None for any other id."""
    if not isinstance(value, str):
        return None
    digits = value.replace("-", "")
    if len(digits) != 32 or digits[12] != "7":
        return None
    try:
        return int(digits[:12], 16)
    except (ValueError, RecursionError):
        return None


def spawn_parent(meta: dict[str, Any]) -> str | None:
    """The thread that spawned this one as a sub-agent (not a fork's origin: forks are siblings)."""
    source = meta.get("source")
    if isinstance(source, dict):
        sub = source.get("subagent")
        if isinstance(sub, dict):
            spawn = sub.get("thread_spawn")
            if isinstance(spawn, dict) and isinstance(spawn.get("parent_thread_id"), str):
                return spawn["parent_thread_id"]
    parent = meta.get("parent_thread_id")
    return parent if isinstance(parent, str) and parent else None


def _agent_name(meta: dict[str, Any]) -> str | None:
    for key in ("agent_role", "agent_type", "agent_nickname"):
        if isinstance(meta.get(key), str) and meta[key]:
            return meta[key]
    source = meta.get("source")
    if isinstance(source, dict) and "subagent" in source:
        sub = source["subagent"]
        if isinstance(sub, str):
            return sub  # review, compact, memory_consolidation
        if isinstance(sub, dict):
            spawn = sub.get("thread_spawn")
            if isinstance(spawn, dict):
                for key in ("agent_role", "agent_nickname"):
                    if isinstance(spawn.get(key), str) and spawn[key]:
                        return spawn[key]
            if isinstance(sub.get("other"), str):
                return sub["other"]
        return "subagent"
    return None


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = []
    for item in content:
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            texts.append(item["text"])
        elif isinstance(item, str):
            texts.append(item)
    return "\n".join(texts)


def _output_text(output: Any) -> tuple[str, bool]:
    """A tool output's text and whether it reports a failure."""
    failed = False
    if isinstance(output, dict):
        failed = output.get("success") is False
        output = output.get("content", output.get("output", output))
    if isinstance(output, list):
        return _content_text(output), failed
    if not isinstance(output, str):
        return compact_json(output), failed
    text = output
    # Shell results used to be a JSON string: {"output": "...", "metadata": {"exit_code": 1, ...}}.
    if text.startswith("{"):
        decoded = parsed_json(text, None)
        if isinstance(decoded, dict) and isinstance(decoded.get("output"), str):
            meta = decoded.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            return decoded["output"], failed or (isinstance(code, int) and code != 0)
    match = _EXIT_RE.search(text[:400])
    if match and match.group(1) != "0":
        failed = True
    return text, failed


def _tool_files(tool_input: Any) -> list[str]:
    files = files_from_input(tool_input)
    texts = [tool_input] if isinstance(tool_input, str) else []
    if isinstance(tool_input, dict):
        texts += [v for k, v in tool_input.items() if k in ("input", "patch") and isinstance(v, str)]
        command = tool_input.get("command")
        if isinstance(command, list) and "apply_patch" in command[:1]:
            texts += [c for c in command if isinstance(c, str)]
    for text in texts:
        files += [m.strip() for m in _PATCH_FILE_RE.findall(text)]
    return list(dict.fromkeys(files))


def _is_injected(text: str) -> bool:
    return text.lstrip().startswith(_INJECTED_PREFIXES)


class Builder:
    """Turns one rollout's records into a Session."""

    def __init__(self, sid: str, source_id: str, kind: str) -> None:
        self.session = Session(id=sid, source=source_id, agent_kind=kind)
        self.messages: list[Message] = []
        self.tools: dict[str, Part] = {}
        self.spawns: dict[str, str] = {}  # spawn call id -> child thread id
        self.typed: set[str] = set()
        self.meta_seen = False
        self.gate_ms: int | None = None  # set while a copied parent history is being skipped
        self.model: str | None = None
        self.last_time = 0
        self.first_time = 0
        self.title = ""

    def build(self, records: list[dict[str, Any]], lines: list[int]) -> Session:
        # Typed prompts are echoed as `user_message` events; anything else in a user role was injected.
        for record in records:
            payload = record.get("payload")
            if record.get("type") != "event_msg" or not isinstance(payload, dict):
                continue
            if payload.get("type") == "user_message" and isinstance(payload.get("message"), str):
                self.typed.add(payload["message"].strip())
        for line, record in zip(lines, records, strict=True):
            try:
                self._record(record, line)
            except SHAPE_ERRORS as exc:
                # A record shaped unlike any we know is skipped and counted; it never ends the read.
                log.debug("codex %s line %d: %r", self.session.id, line, exc)
                self.session.malformed += 1
        session = self.session
        session.messages = [m for m in self.messages if m.parts]
        session.model = self.model
        session.title = self.title
        session.time_created = session.time_created or self.first_time
        session.time_updated = self.last_time or session.time_created
        return session

    # -- envelope ---------------------------------------------------------------------------

    def _record(self, record: dict[str, Any], line: int) -> None:
        kind = typed(record.get("type"), str, None)
        payload = record.get("payload")
        when = parse_stamp(record.get("timestamp"))
        if kind in _ENVELOPE_TYPES and isinstance(payload, dict):
            if kind == "session_meta":
                self._meta(payload, when)
                return
            if self._gated(kind, payload):
                return
            self._tick(when)
            if kind == "response_item":
                self._item(payload, line)
            elif kind == "turn_context":
                if isinstance(payload.get("model"), str):
                    self.model = payload["model"]
            elif kind == "compacted":
                self._compacted(payload, line)
            elif kind == "event_msg":
                self._event(payload)
            return
        if kind in _ENVELOPE_TYPES:
            self.session.malformed += 1  # a known envelope without its payload
            return
        # Rollouts from before the envelope: a meta first line, then bare response items.
        if "record_type" in record:
            return
        if kind in _ITEM_TYPES:
            self._item(record, line)
        elif kind is None and isinstance(record.get("id"), str) and not self.meta_seen:
            self._meta(record, when)

    def _tick(self, when: int | None) -> None:
        if when:
            self.first_time = min(self.first_time or when, when)
            self.last_time = max(self.last_time, when)

    def _meta(self, meta: dict[str, Any], when: int | None) -> None:
        if self.meta_seen:
            return  # the parent's session_meta at the top of a copied history
        self.meta_seen = True
        session = self.session
        session.time_created = parse_stamp(meta.get("timestamp")) or when or 0
        self._tick(session.time_created or None)
        if isinstance(meta.get("cwd"), str):
            session.directory = meta["cwd"]
        session.parent_id = spawn_parent(meta)
        session.agent = _agent_name(meta)
        if isinstance(meta.get("forked_from_id"), str) and meta["forked_from_id"]:
            # Anchor the copied-history boundary at the fork's own creation instant.
            self.gate_ms = uuid7_ms(meta.get("id")) or session.time_created or when

    def _gated(self, kind: str, payload: dict[str, Any]) -> bool:
        """True while the record belongs to the parent history a fork or sub-agent starts with."""
        if self.gate_ms is None:
            return False
        opens = kind == "turn_context" or (
            kind == "event_msg" and payload.get("type") in ("task_started", "turn_started")
        )
        if not opens:
            return True
        turn_id = payload.get("turn_id")
        if not isinstance(turn_id, str) or not turn_id:
            return True  # turns recorded before Codex stamped ids are always the parent's
        minted = uuid7_ms(turn_id)
        if minted is not None and minted < self.gate_ms:
            return True
        self.gate_ms = None  # first turn of our own (or an id we cannot date: keep the data)
        return False

    # -- items ------------------------------------------------------------------------------

    def _assistant(self, line: int) -> Message:
        last = self.messages[-1] if self.messages else None
        if last is not None and last.role == "assistant":
            return last
        msg = Message(id=f"L{line}", role="assistant", time=self.last_time, model=self.model)
        self.messages.append(msg)
        return msg

    def _item(self, item: dict[str, Any], line: int) -> None:
        itype = item.get("type")
        pid = f"L{line}"
        if itype == "message":
            self._message(item, line)
        elif itype == "reasoning":
            raw = _content_text(item.get("content"))
            summary = _content_text(as_list(item.get("summary")))
            text = raw or summary
            if text.strip():
                part = Part(id=pid, kind="reasoning", raw_type="reasoning", text=text, time=self.last_time)
                self._assistant(line).parts.append(part)
        elif itype in ("function_call", "custom_tool_call", "local_shell_call"):
            call_id = item.get("call_id") or item.get("id") or pid
            if itype == "function_call":
                # The arguments arrive as a JSON string; the raw string is kept when it is not JSON.
                arguments = item.get("arguments")
                name, tool_input = str(item.get("name") or ""), parsed_json(arguments, arguments)
                if isinstance(item.get("namespace"), str) and item["namespace"]:
                    name = f"{item['namespace']}.{name}"
            elif itype == "custom_tool_call":
                name, tool_input = str(item.get("name") or ""), item.get("input")
            else:
                name, tool_input = "local_shell", item.get("action")
            part = Part(
                id=str(call_id),
                kind="tool",
                raw_type=itype,
                tool=name,
                tool_status="pending",
                tool_input=tool_input,
                files=_tool_files(tool_input),
                time=self.last_time,
            )
            self.tools[str(call_id)] = part
            self._assistant(line).parts.append(part)
        elif itype in ("function_call_output", "custom_tool_call_output", "tool_search_output"):
            self._output(item, pid, line)
        elif itype in ("web_search_call", "tool_search_call", "image_generation_call"):
            action = item.get("action") if itype == "web_search_call" else item.get("arguments", item.get("action"))
            status = item.get("status")
            part = Part(
                id=str(item.get("call_id") or item.get("id") or pid),
                kind="tool",
                raw_type=itype,
                tool=itype.removesuffix("_call"),
                tool_status="completed" if status in (None, "completed") else str(status),
                tool_input=action,
                tool_output=typed(item.get("revised_prompt"), str, None),
                time=self.last_time,
            )
            self.tools[part.id] = part
            self._assistant(line).parts.append(part)
        elif itype in ("compaction", "compaction_summary"):
            # Server-side compaction: the summary is encrypted, only the boundary is known.
            marker = Part(id=pid, kind="compaction", raw_type=itype, synthetic=True, time=self.last_time)
            self.messages.append(Message(id=pid, role="system", time=self.last_time, parts=[marker]))
        # ghost_snapshot and future item types carry nothing to read.

    def _message(self, item: dict[str, Any], line: int) -> None:
        role = item.get("role")
        content = item.get("content")
        pid = f"L{line}"
        if role == "assistant":
            text = _content_text(content)
            if text.strip():
                part = Part(id=pid, kind="text", raw_type="output_text", text=text, time=self.last_time)
                self._assistant(line).parts.append(part)
            return
        parts: list[Part] = []
        for index, block in enumerate(content if isinstance(content, list) else [content]):
            if isinstance(block, dict) and block.get("type") in ("input_image", "image"):
                parts.append(Part(id=f"{pid}:{index}", kind="file", raw_type="input_image", time=self.last_time))
            elif isinstance(block, dict | str):
                said = block if isinstance(block, str) else block.get("text")
                if isinstance(said, str) and said.strip():
                    parts.append(Part(id=f"{pid}:{index}", kind="text", raw_type="input_text", text=said))
        if not parts:
            return
        text = "\n".join(p.text for p in parts if p.text).strip()
        # Developer and system instructions come from Codex and config files, never from the person.
        typed = role == "user" and not _is_injected(text) and (not self.typed or text in self.typed)
        if not typed and not self.session.directory and (cwd := _CWD_RE.search(text)):
            # Old rollouts have no cwd in their first line; the injected context names it.
            self.session.directory = (cwd.group(1) or cwd.group(2)).strip()
        for part in parts:
            part.synthetic = not typed
            part.time = self.last_time
        msg_role = "user" if role == "user" else "system"
        self.messages.append(Message(id=pid, role=msg_role, time=self.last_time, parts=parts))

    def _output(self, item: dict[str, Any], pid: str, line: int) -> None:
        call_id = str(item.get("call_id") or "")
        if item.get("type") == "tool_search_output":
            text, failed = compact_json(item.get("tools")), item.get("status") == "failed"
        else:
            text, failed = _output_text(item.get("output"))
        part = self.tools.get(call_id)
        if part is None:
            part = Part(id=call_id or pid, kind="tool", raw_type=str(item.get("type")), synthetic=True)
            part.time = self.last_time
            self._assistant(line).parts.append(part)
        part.tool_status = "error" if failed else "completed"
        if failed:
            part.tool_error = text
        else:
            part.tool_output = text
        if part.tool == "spawn_agent" and text.startswith("{"):
            decoded = parsed_json(text, None)
            if isinstance(decoded, dict) and isinstance(decoded.get("agent_id"), str):
                part.child_session_id = decoded["agent_id"]
        if call_id in self.spawns:
            part.child_session_id = self.spawns[call_id]

    def _compacted(self, payload: dict[str, Any], line: int) -> None:
        pid = f"L{line}"
        text = typed(payload.get("message"), str, "")
        marker = Part(id=f"{pid}:0", kind="compaction", raw_type="compacted", synthetic=True, time=self.last_time)
        parts = [marker]
        if text.strip():
            # The model wrote this summary; `replacement_history` only repeats earlier items.
            parts.append(Part(id=f"{pid}:1", kind="text", raw_type="compacted", text=text, time=self.last_time))
        msg = Message(id=pid, role="assistant", time=self.last_time, parts=parts, summary=bool(text.strip()))
        self.messages.append(msg)

    def _event(self, payload: dict[str, Any]) -> None:
        etype = payload.get("type")
        if etype == "thread_name_updated":
            name = payload.get("thread_name") or payload.get("name")
            if isinstance(name, str) and name.strip():
                self.title = name.strip()
        elif etype == "thread_rolled_back":
            self._roll_back(payload.get("num_turns"))
        elif etype == "collab_agent_spawn_end":
            call_id, child = payload.get("call_id"), payload.get("new_thread_id")
            if isinstance(call_id, str) and isinstance(child, str) and child:
                self.spawns[call_id] = child
                if call_id in self.tools:
                    self.tools[call_id].child_session_id = child

    def _roll_back(self, turns: Any) -> None:
        """Codex dropped the last `turns` user turns from the thread; so do we."""
        if not isinstance(turns, int) or turns <= 0:
            return
        starts = [
            i
            for i, m in enumerate(self.messages)
            if m.role == "user" and any(not p.synthetic for p in m.parts) and not m.summary
        ]
        if not starts:
            return
        cut = starts[-turns] if turns <= len(starts) else starts[0]
        self.messages = self.messages[:cut]
