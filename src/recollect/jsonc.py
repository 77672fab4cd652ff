"""Read JSON / JSONC (`loads`), and edit it in place, keeping every comment, blank line and trailing comma.

The one JSONC reader: the OpenCode integration's install and checkup, and the OpenCode source reading
the `command` entries of a person's config (sources/opencode_commands). A foundation: stdlib only.

A person's `opencode.json(c)` is theirs: we never re-serialize it. `parse` records where each
value and member sits in the text; `set_member` and `remove_member` splice new text at those
offsets and touch nothing else, so removing what `set_member` inserted gives back the same bytes.

Accepted: `//` and `/* */` comments, trailing commas in objects and arrays, a UTF-8 BOM. What we
write is plain JSON (indented like the surrounding text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


class JsoncError(ValueError):
    """The text is not JSON/JSONC we can edit safely; the message says where."""


@dataclass
class Node:
    kind: str  # object | array | string | number | literal
    start: int
    end: int  # exclusive
    members: list[Member] = field(default_factory=list)  # objects
    items: list[Node] = field(default_factory=list)  # arrays
    value: Any = None  # scalars: the decoded value

    def member(self, key: str) -> Member | None:
        # Last one wins, as in JSON.parse.
        found = None
        for m in self.members:
            if m.key == key:
                found = m
        return found


@dataclass
class Member:
    key: str
    key_start: int
    value: Node
    comma: int | None = None  # offset of the comma after the value, if any


def _line_col(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 1 if text.startswith("\ufeff") else 0

    def fail(self, what: str, pos: int | None = None) -> JsoncError:
        return JsoncError(f"{what} at {_line_col(self.text, self.pos if pos is None else pos)}")

    def skip(self) -> None:
        """Whitespace and comments."""
        text, n = self.text, len(self.text)
        while self.pos < n:
            ch = text[self.pos]
            if ch in " \t\r\n":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unclosed /* comment")
                self.pos = end + 2
            else:
                return

    def value(self) -> Node:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of text")
        ch = self.text[self.pos]
        if ch == "{":
            return self.obj()
        if ch == "[":
            return self.arr()
        if ch == '"':
            start = self.pos
            decoded = self.string()
            return Node("string", start, self.pos, value=decoded)
        return self.scalar()

    def string(self) -> str:
        start = self.pos
        self.pos += 1
        text = self.text
        while True:
            end = text.find('"', self.pos)
            if end < 0:
                raise self.fail("unclosed string", start)
            backslashes = 0
            i = end - 1
            while i > start and text[i] == "\\":
                backslashes += 1
                i -= 1
            self.pos = end + 1
            if backslashes % 2 == 0:
                break
        raw = text[start : self.pos]
        try:
            return str(json.loads(raw))
        except ValueError:
            raise self.fail("invalid string", start) from None

    def scalar(self) -> Node:
        start = self.pos
        text = self.text
        while self.pos < len(text) and text[self.pos] not in " \t\r\n,}]/":
            self.pos += 1
        raw = text[start : self.pos]
        try:
            value = json.loads(raw)
        except ValueError:
            raise self.fail(f"unexpected {raw[:20]!r}", start) from None
        return Node("literal" if raw in ("true", "false", "null") else "number", start, self.pos, value=value)

    def obj(self) -> Node:
        node = Node("object", self.pos, -1)
        self.pos += 1
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail("unclosed object", node.start)
            if self.text[self.pos] == "}":
                self.pos += 1
                node.end = self.pos
                return node
            if node.members and node.members[-1].comma is None:
                raise self.fail("expected ',' or '}'")
            if self.text[self.pos] != '"':
                raise self.fail("expected a quoted key")
            key_start = self.pos
            key = self.string()
            self.skip()
            if self.pos >= len(self.text) or self.text[self.pos] != ":":
                raise self.fail("expected ':'")
            self.pos += 1
            member = Member(key, key_start, self.value())
            node.members.append(member)
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == ",":
                member.comma = self.pos
                self.pos += 1

    def arr(self) -> Node:
        node = Node("array", self.pos, -1)
        self.pos += 1
        expect_comma = False
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail("unclosed array", node.start)
            ch = self.text[self.pos]
            if ch == "]":
                self.pos += 1
                node.end = self.pos
                return node
            if ch == ",":
                if not expect_comma:
                    raise self.fail("unexpected ','")
                expect_comma = False
                self.pos += 1
                continue
            if expect_comma:
                raise self.fail("expected ',' or ']'")
            node.items.append(self.value())
            expect_comma = True


def parse(text: str) -> Node:
    """The root value of `text`, with offsets. Raises JsoncError on anything it cannot read."""
    parser = _Parser(text)
    root = parser.value()
    parser.skip()
    if parser.pos != len(text):
        raise parser.fail("unexpected text after the end")
    return root


def loads(text: str) -> Any:
    """The decoded value (comments and trailing commas allowed)."""
    return to_python(text, parse(text))


def to_python(text: str, node: Node) -> Any:
    if node.kind == "object":
        return {m.key: to_python(text, m.value) for m in node.members}
    if node.kind == "array":
        return [to_python(text, item) for item in node.items]
    return node.value


def find(root: Node, path: list[str]) -> Node | None:
    node: Node | None = root
    for key in path:
        if node is None or node.kind != "object":
            return None
        member = node.member(key)
        node = member.value if member else None
    return node


# --- layout helpers ------------------------------------------------------------------------------


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _indent_at(text: str, pos: int) -> str | None:
    """The indentation of the line holding `pos`, if only whitespace precedes `pos` on it."""
    start = _line_start(text, pos)
    prefix = text[start:pos]
    return prefix if prefix.strip() == "" else None


def _indent_unit(text: str, root: Node) -> str:
    for member in root.members:
        indent = _indent_at(text, member.key_start)
        if indent:
            return indent
    return "  "


def _same_line(text: str, a: int, b: int) -> bool:
    return "\n" not in text[a:b]


def _after_trailer(text: str, pos: int) -> int:
    """From `pos`, skip spaces and comments that end on this line; return the position of the
    newline ending it, or `pos` itself when other text follows on the line (e.g. a `}`)."""
    i, n = pos, len(text)
    while i < n:
        if text[i] in " \t\r":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            return n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0 or "\n" in text[i:end]:
                return pos
            i = end + 2
        elif text[i] == "\n":
            return i
        else:
            return pos
    return n


def render(value: Any, indent: str, unit: str) -> str:
    """`value` as JSON: objects one member a line (indented by `unit`, continuation lines starting at
    `indent`), arrays of plain values on one line, as people write configs by hand."""

    def one(v: Any, level: int) -> str:
        pad = indent + unit * level
        if isinstance(v, dict) and v:
            inner = [f"{pad}{unit}{json.dumps(k, ensure_ascii=False)}: {one(x, level + 1)}" for k, x in v.items()]
            return "{\n" + ",\n".join(inner) + "\n" + pad + "}"
        if isinstance(v, list) and any(isinstance(x, dict | list) and x for x in v):
            return "[\n" + ",\n".join(f"{pad}{unit}{one(x, level + 1)}" for x in v) + "\n" + pad + "]"
        return json.dumps(v, ensure_ascii=False)

    return one(value, 0)


# --- edits ---------------------------------------------------------------------------------------


def _line_indent(text: str, pos: int) -> str:
    """The leading whitespace of the line holding `pos`."""
    line = text[_line_start(text, pos) : pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _object_indents(text: str, obj: Node, root_unit: str) -> tuple[str, str]:
    """(indent for the object's members, the unit to nest values by)."""
    base = _line_indent(text, obj.start)
    for member in reversed(obj.members):
        own = _indent_at(text, member.key_start)
        if own is not None and own.startswith(base) and len(own) > len(base):
            return own, own[len(base) :]
    return base + root_unit, root_unit


def insert_member(text: str, obj: Node, key: str, value: Any, unit: str = "  ") -> str:
    """`text` with `"key": value` added as the last member of `obj` (which must not hold `key`).

    Inserted after the last member's line (past any comment on it), so comments stay where they
    were; a trailing-comma style is kept. `remove_member` undoes exactly this.
    """
    if obj.kind != "object":
        raise JsoncError("can only add a key to an object")
    if obj.member(key) is not None:
        raise JsoncError(f"{key!r} is already there")
    member_indent, nest = _object_indents(text, obj, unit)
    key_text = json.dumps(key, ensure_ascii=False)
    if _same_line(text, obj.start, obj.end) and obj.members:
        value_text = json.dumps(value, ensure_ascii=False)
        last = obj.members[-1]
        if last.comma is not None:
            return text[: last.comma + 1] + f" {key_text}: {value_text}," + text[last.comma + 1 :]
        end = last.value.end
        return text[:end] + f", {key_text}: {value_text}" + text[end:]
    value_text = render(value, member_indent, nest)
    if not obj.members:
        inner = f"\n{member_indent}{key_text}: {value_text}"
        if _same_line(text, obj.start, obj.end):
            inner += "\n" + _line_indent(text, obj.start)
        return text[: obj.start + 1] + inner + text[obj.start + 1 :]
    last = obj.members[-1]
    if last.comma is not None:
        at = _after_trailer(text, last.comma + 1)
        return text[:at] + f"\n{member_indent}{key_text}: {value_text}," + text[at:]
    at = _after_trailer(text, last.value.end)
    new = text[:at] + f"\n{member_indent}{key_text}: {value_text}" + text[at:]
    return new[: last.value.end] + "," + new[last.value.end :]


def replace_value(text: str, node: Node, value: Any, unit: str = "  ") -> str:
    return text[: node.start] + render(value, _line_indent(text, node.start), unit) + text[node.end :]


def remove_member(text: str, obj: Node, key: str) -> str:
    """`text` without member `key` of `obj`: the exact inverse of `insert_member` for a member it added."""
    index = next((i for i, m in enumerate(obj.members) if m.key == key), None)
    if index is None:
        return text
    member = obj.members[index]
    end = member.comma + 1 if member.comma is not None else member.value.end
    if index > 0:
        prev = obj.members[index - 1]
        assert prev.comma is not None  # a member follows it
        start = min(_after_trailer(text, prev.comma + 1), member.key_start)
        out = text[:start] + text[end:]
        if index == len(obj.members) - 1 and member.comma is None:
            # The last member without a trailing comma: the separator after the previous one goes too.
            out = out[: prev.comma] + out[prev.comma + 1 :]
        return out
    if len(obj.members) == 1:
        inside = text[obj.start + 1 : member.key_start] + text[end : obj.end - 1]
        if inside.strip() == "":
            return text[: obj.start + 1] + text[obj.end - 1 :]  # nothing else inside: `{}`
        return text[: obj.start + 1] + text[end:]
    # The first of several: drop its line(s), keep what follows.
    own_line = _indent_at(text, member.key_start) is not None
    start = _line_start(text, member.key_start) if own_line else member.key_start
    stop = _after_trailer(text, end)
    if own_line and stop < len(text) and text[stop] == "\n":
        stop += 1
    else:
        stop = end
        while stop < len(text) and text[stop] in " \t":
            stop += 1
    return text[:start] + text[stop:]


def _crlf(text: str) -> bool:
    """Whether every line ends in CRLF: edits then happen on LF text and CRLF is put back."""
    count = text.count("\r\n")
    return count > 0 and count == text.count("\n")


def set_member(text: str, path: list[str], value: Any) -> tuple[str, str]:
    """Set `path` (a list of keys) to `value`, creating missing objects on the way.

    Returns (new text, what happened: "added" | "replaced" | "unchanged").
    """
    if _crlf(text):
        new, what = set_member(text.replace("\r\n", "\n"), path, value)
        return (text, what) if what == "unchanged" else (new.replace("\n", "\r\n"), what)
    root = parse(text)
    if root.kind != "object":
        raise JsoncError("the top level is not an object")
    unit = _indent_unit(text, root)
    node = root
    for depth, key in enumerate(path):
        member = node.member(key)
        last = depth == len(path) - 1
        if member is None:
            nested: Any = value
            for k in reversed(path[depth + 1 :]):
                nested = {k: nested}
            return insert_member(text, node, key, nested, unit), "added"
        if last:
            if to_python(text, member.value) == value:
                return text, "unchanged"
            return replace_value(text, member.value, value, unit), "replaced"
        if member.value.kind != "object":
            raise JsoncError(f"{'.'.join(path[: depth + 1])} is not an object; fix it by hand")
        node = member.value
    return text, "unchanged"


def delete_member(text: str, path: list[str]) -> tuple[str, bool]:
    """Remove `path` if present. Returns (new text, whether it was there)."""
    if _crlf(text):
        new, found = delete_member(text.replace("\r\n", "\n"), path)
        return (new.replace("\n", "\r\n"), True) if found else (text, False)
    root = parse(text)
    parent = find(root, path[:-1]) if len(path) > 1 else root
    if parent is None or parent.kind != "object" or parent.member(path[-1]) is None:
        return text, False
    return remove_member(text, parent, path[-1]), True
