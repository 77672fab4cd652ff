"""Turning untrusted text into safe HTML for the page: memories as a little markdown, diffs as diffs.

Everything is escaped first; the only markup that comes out is the markup written here. Links are
never made: a `javascript:` URL in a transcript stays text.
"""

from __future__ import annotations

import json
import re
from html import escape

from markupsafe import Markup

_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def _inline(text: str) -> str:
    out = escape(text, quote=True)
    out = _INLINE_CODE.sub(r"<code>\1</code>", out)
    return _BOLD.sub(r"<strong>\1</strong>", out)


def markdown(text: str) -> Markup:
    """A small, safe subset: headings, bullet lists, fenced code, inline code, bold, paragraphs."""
    html: list[str] = []
    paragraph: list[str] = []
    in_list = in_code = False

    def flush() -> None:
        nonlocal in_list
        if paragraph:
            html.append("<p>" + " ".join(_inline(line) for line in paragraph) + "</p>")
            paragraph.clear()
        if in_list:
            html.append("</ul>")
            in_list = False

    for line in text.splitlines():
        if line.strip().startswith("```"):
            if in_code:
                html.append("</code></pre>")
            else:
                flush()
                html.append("<pre><code>")
            in_code = not in_code
            continue
        if in_code:
            html.append(escape(line) + "\n")
            continue
        heading = re.match(r"(#{1,4})\s+(.*)", line)
        bullet = re.match(r"\s*[-*]\s+(.*)", line)
        if heading:
            flush()
            level = min(len(heading.group(1)) + 2, 6)  # page headings own h1/h2
            html.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet:
            if paragraph:
                html.append("<p>" + " ".join(_inline(x) for x in paragraph) + "</p>")
                paragraph.clear()
            if not in_list:
                html.append("<ul>")
                in_list = True
            html.append(f"<li>{_inline(bullet.group(1))}</li>")
        elif not line.strip():
            flush()
        else:
            paragraph.append(line)
    if in_code:
        html.append("</code></pre>")
    flush()
    return Markup("".join(html))


def _edit_diff(raw: str) -> list[tuple[str, str]] | None:
    """An edit tool's JSON input ({filePath, oldString, newString}) as removed and added lines."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    old = data.get("oldString", data.get("old_string"))
    new = data.get("newString", data.get("new_string"))
    if not isinstance(old, str) or not isinstance(new, str):
        return None
    path = data.get("filePath") or data.get("file_path") or ""
    lines = [("meta", f"--- {path}")] if path else []
    lines += [("del", "-" + line) for line in old.splitlines()]
    lines += [("add", "+" + line) for line in new.splitlines()]
    return lines


def diff_lines(text: str) -> list[tuple[str, str]] | None:
    """A unified diff (or an edit's old/new strings) as (kind, line) pairs; None when it is not one."""
    if not text:
        return None
    edit = _edit_diff(text) if text.lstrip().startswith("{") else None
    if edit:
        return edit
    lines = text.splitlines()
    if not any(line.startswith("@@") for line in lines[:200]):
        return None
    out = []
    for line in lines:
        if line.startswith(("+++", "---", "@@", "diff ", "index ")):
            out.append(("meta", line))
        elif line.startswith("+"):
            out.append(("add", line))
        elif line.startswith("-"):
            out.append(("del", line))
        else:
            out.append(("ctx", line))
    return out
