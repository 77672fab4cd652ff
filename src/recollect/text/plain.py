"""What a person reads of a session, as plain text: its title, and counts with their noun.

An agent's model writes its session titles, and some write markdown (`**Router hardening complete**`,
`` `parseHttp` fix ``): every listing would show the marks. Some agents store no title at all: every
place that shows a session (search hits, listings, cards, reads, hidden sessions) names it by
`display_title`, never by a fallback of its own. Every "1 message" / "3 messages" is `counted`, from
the index's sync report up to the CLI, the MCP tools and the UI."""

from __future__ import annotations

import re

_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
# `*word*` only around words: `a*b`, `*.py` and `src/*.py` are no emphasis, and `__init__` is Python's.
_EMPHASIS = re.compile(r"(?<![\w*])\*(\w[\w\s'-]*?)\*(?![\w*])")
_CODE = re.compile(r"`+([^`]+?)`+")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)\s]*\)")
_HEADING = re.compile(r"^(#{1,6}\s+|>+\s*|[-*+]\s+)")  # `#123` is an issue number, not a heading


def plain_title(title: str) -> str:
    """`title` without markdown's marks (strong, emphasis, code, links, a heading or quote mark), on one line."""
    text = " ".join(title.split())
    text = _HEADING.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\1", text)
    text = _EMPHASIS.sub(r"\1", text)
    return text.strip()


TITLE_CHARS = 80  # of a first line standing in for a title


def cut_title(text: str, limit: int = TITLE_CHARS) -> str:
    """`text` (a first line standing in for a title) at most `limit` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def display_title(title: str | None, first_line: str | None) -> str:
    """The title a session is shown by: the one its agent stored, or, when it stored none, the first
    line a person typed (`first_line`, the card's `first_human`), cut to `TITLE_CHARS`; "" when neither."""
    return title or cut_title(first_line or "")


def megabytes(n: int) -> str:
    """A size as every surface says it: '6.1 MB', in decimal megabytes (1,000,000 bytes, not MiB)."""
    return f"{n / 1e6:.1f} MB"


def counted(n: int, noun: str, plural: str = "") -> str:
    """'1 hit', '2 hits': a count and its noun, in the number it takes (`plural` when it is not noun + s:
    `counted(n, "memory", "memories")`, `counted(n, "session is", "sessions are")`)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
