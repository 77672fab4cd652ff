"""How OpenCode's stored JSON becomes our model: a v1 `message`/`part` payload, a v2 `session_message`
row, a model name (sources/opencode.py reads the rows). A payload that is not what we know is mapped
as far as it goes and counted, never guessed."""

from __future__ import annotations

import json
from typing import Any

from recollect.jsonish import parsed_json, typed
from recollect.model import Message, Part


def loads(text: Any) -> Any:
    """A stored JSON string parsed, or None when it is not one."""
    return parsed_json(text, None)


def _text_of(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def model_name(value: Any) -> str | None:
    if isinstance(value, str):
        parsed = loads(value)
        value = parsed if parsed is not None else value
    if isinstance(value, dict):
        model = value.get("id") or value.get("modelID")
        provider = value.get("providerID")
        return f"{provider}/{model}" if provider and model else model
    return value if isinstance(value, str) and value else None


def _files_from_input(tool_input: Any) -> list[str]:
    if not isinstance(tool_input, dict):
        return []
    return [v for k in ("filePath", "path", "file") if isinstance(v := tool_input.get(k), str) and v]


def part_from_data(part_id: str, data: dict[str, Any], created: int | None) -> Part:
    """Map one OpenCode part payload (v1 `part.data`) onto our Part."""
    raw_type = str(data.get("type") or "")
    time_info = typed(data.get("time"), dict, {})
    when = typed(time_info.get("start"), int, created)
    if raw_type in ("text", "reasoning"):
        return Part(
            id=part_id,
            kind=raw_type,
            raw_type=raw_type,
            text=_text_of(data.get("text")),
            synthetic=bool(data.get("synthetic") or data.get("ignored")),
            time=when,
        )
    if raw_type == "tool":
        state = typed(data.get("state"), dict, {})
        state_time = typed(state.get("time"), dict, {})
        metadata = typed(state.get("metadata"), dict, {})
        tool_input = state.get("input")
        child = typed(metadata.get("sessionId"), str, None)
        return Part(
            id=part_id,
            kind="tool",
            raw_type=raw_type,
            tool=str(data.get("tool") or ""),
            tool_status=state.get("status"),
            tool_input=tool_input,
            tool_output=_text_of(state.get("output")) if state.get("output") is not None else None,
            tool_error=_text_of(state.get("error")) if state.get("error") is not None else None,
            files=_files_from_input(tool_input),
            time=typed(state_time.get("start"), int, created),
            child_session_id=child,
        )
    if raw_type == "patch":
        files = [f for f in data.get("files") or [] if isinstance(f, str)]
        return Part(id=part_id, kind="patch", raw_type=raw_type, files=files, time=created)
    if raw_type == "file":
        url = typed(data.get("url"), str, "")
        path = url.removeprefix("file://") if url.startswith("file://") else ""
        name = str(data.get("filename") or path or "")
        return Part(id=part_id, kind="file", raw_type=raw_type, text=name, files=[path] if path else [], time=created)
    if raw_type == "subtask":
        if isinstance(data.get("command"), str) and data["command"]:
            # A command run as a subtask (/review): its prompt is the command's template, not the person's
            # words (sources/opencode_commands.py); what they typed was the command.
            return Part(id=part_id, kind="subtask", raw_type=raw_type, text=f"/{data['command']}", time=created)
        text = "\n".join(str(data.get(k)) for k in ("description", "prompt") if data.get(k))
        return Part(id=part_id, kind="subtask", raw_type=raw_type, text=text, time=created)
    if raw_type == "agent":
        return Part(id=part_id, kind="agent", raw_type=raw_type, text=str(data.get("name") or ""), time=created)
    if raw_type == "compaction":
        return Part(id=part_id, kind="compaction", raw_type=raw_type, time=created)
    if raw_type in ("step-start", "step-finish", "snapshot"):
        return Part(id=part_id, kind="step", raw_type=raw_type, time=created)
    # retry and whatever a newer OpenCode adds: kept, with any text it carries.
    text = typed(data.get("text"), str, "")
    return Part(id=part_id, kind="other", raw_type=raw_type, text=text, time=created)


def message_from_data(message_id: str, data: dict[str, Any], created: int) -> Message:
    role = str(data.get("role") or "user")
    time_info = typed(data.get("time"), dict, {})
    error = data.get("error")
    error_text = None
    if isinstance(error, dict):
        inner = typed(error.get("data"), dict, {})
        error_text = ": ".join(str(x) for x in (error.get("name"), inner.get("message")) if x)
    return Message(
        id=message_id,
        role=role,
        time=created,
        agent=data.get("agent") or data.get("mode"),
        model=model_name({"id": data.get("modelID"), "providerID": data.get("providerID")})
        if data.get("modelID")
        else None,
        # A user message's `summary` is a diff object; only an assistant's `summary: true` is a compaction.
        summary=role == "assistant" and data.get("summary") is True,
        error=error_text,
        completed=role != "assistant" or "completed" in time_info or error is not None,
    )


def v2_message(message_id: str, kind: str, data: dict[str, Any], created: int) -> tuple[Message, int]:
    """A message of the experimental v2 engine (`session_message`); returns it and its malformed count."""
    role = "user" if kind == "user" else "assistant" if kind == "assistant" else kind
    message = Message(id=message_id, role=role, time=created, agent=data.get("agent"))
    message.model = model_name(data.get("model"))
    if isinstance(data.get("text"), str):
        message.parts.append(Part(id=f"{message_id}:text", kind="text", raw_type="text", text=data["text"]))
    malformed = 0
    for i, item in enumerate(data.get("content") or []):
        if not isinstance(item, dict):
            malformed += 1
            continue
        item_id = f"{message_id}:{item.get('id') or i}"
        item_type = item.get("type")
        if item_type in ("text", "reasoning"):
            message.parts.append(Part(id=item_id, kind=item_type, raw_type=item_type, text=_text_of(item.get("text"))))
        elif item_type == "tool":
            state = typed(item.get("state"), dict, {})
            output = "\n".join(
                c.get("text", "") for c in state.get("content") or [] if isinstance(c, dict) and c.get("type") == "text"
            )
            message.parts.append(
                Part(
                    id=item_id,
                    kind="tool",
                    raw_type="tool",
                    tool=str(item.get("name") or ""),
                    tool_status=state.get("status"),
                    tool_input=state.get("input"),
                    tool_output=output or None,
                    tool_error=_text_of(state.get("error")) if state.get("error") is not None else None,
                    files=_files_from_input(state.get("input")),
                )
            )
        else:
            message.parts.append(Part(id=item_id, kind="other", raw_type=str(item_type or "")))
    return message, malformed
