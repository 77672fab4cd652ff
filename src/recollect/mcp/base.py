"""What every MCP tool shares: its declaration, the server's settings, and the bounded reply.

A tool here is plain Python — a `Signature` and a function from checked arguments to a `Reply` —
so it can be tested without the MCP SDK; `server.py` is the only module that talks MCP.

Replies are bounded: OpenCode cuts any tool output beyond 2,000 lines or 51,200 bytes and hands the
model a file path instead, so every reply stays well under both, whatever the budget asks for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from recollect.mcp.args import Signature

if TYPE_CHECKING:
    from recollect.config import Config
    from recollect.history import Ceiling

DEFAULT_BUDGET = 20_000  # characters per reply
MIN_BUDGET = 2_000
# Hard ceilings below OpenCode's truncation (51,200 bytes / 2,000 lines): CJK text is 3 bytes a
# character, so a character budget alone does not keep a reply under the byte limit.
MAX_BYTES = 45_000
MAX_LINES = 1_500


@dataclass(frozen=True)
class ServerSettings:
    """Fixed when the server starts: OpenCode starts one server per project directory."""

    cwd: str  # the project directory the host started us in (os.getcwd(), never $PWD: it is stale)
    budget: int = DEFAULT_BUDGET
    # `recollect mcp --scope`: the widest history scope this server answers, and its default.
    default_scope: str = "all"

    def ceiling(self, config: Config | None = None) -> Ceiling:
        """The operator's ceiling for this call (search/ceiling.py): `--scope` and the config's
        `[scope] ceiling`, the narrower winning. Read per call (from the call's `config` when given), so
        narrowing the config applies at once."""
        from recollect.config import load_config

        # Only in a call, never at start-up: the first call loads history (server.py).
        from recollect.history import ceiling_from_config, ceiling_from_option, narrowest_ceiling

        flag = ceiling_from_option(
            self.default_scope,
            self.cwd,
            setter=f"'recollect mcp --scope {self.default_scope}'",
            fix="ask the user to widen it (the agent's MCP config starts this server; "
            "'recollect install opencode --scope all' rewrites it)",
        )
        return narrowest_ceiling(flag, ceiling_from_config(config if config is not None else load_config(), self.cwd))


@dataclass
class Reply:
    text: str
    structured: dict[str, Any] | None = None
    is_error: bool = False


@dataclass(frozen=True)
class Tool:
    signature: Signature
    description: str
    run: Callable[[dict[str, Any], ServerSettings], Reply]
    read_only: bool = True
    title: str = ""

    @property
    def name(self) -> str:
        return self.signature.tool


@dataclass
class Lines:
    """Builds a reply line by line and stops adding blocks once the budget would be exceeded."""

    budget: int
    lines: list[str] = field(default_factory=list)
    size: int = 0

    def fits(self, block: list[str], reserve: int = 0) -> bool:
        need = sum(len(line) + 1 for line in block)
        return self.size + need + reserve <= self.budget and len(self.lines) + len(block) <= MAX_LINES - 5

    def add(self, *block: str) -> None:
        self.lines.extend(block)
        self.size += sum(len(line) + 1 for line in block)

    def add_while_fits(self, blocks: Iterable[list[str]], reserve: int = 0) -> int:
        """Add `blocks` in order until the next would not fit (with `reserve` characters kept for what
        follows); returns how many were added, so the caller can say how many it left out."""
        added = 0
        for block in blocks:
            if not self.fits(block, reserve):
                break
            self.add(*block)
            added += 1
        return added

    def text(self) -> str:
        return "\n".join(self.lines)


def fit(text: str, budget: int) -> str:
    """Cut `text` at a line boundary so it stays within `budget` characters, MAX_BYTES and MAX_LINES,
    saying what was cut and how to see the rest."""
    lines = text.split("\n")
    if len(text) <= budget and len(lines) <= MAX_LINES and len(text.encode("utf-8")) <= MAX_BYTES:
        return text
    limit = budget - 200
    kept: list[str] = []
    size = 0
    size_bytes = 0
    for line in lines:
        if len(kept) >= MAX_LINES - 2:
            break
        cost = len(line) + 1
        cost_bytes = len(line.encode("utf-8")) + 1
        if size + cost > limit or size_bytes + cost_bytes > MAX_BYTES - 600:
            room = min(limit - size, (MAX_BYTES - 600 - size_bytes) // 3)
            if room > 200 and not kept:
                kept.append(line[:room])  # one huge line: keep its head rather than nothing
            break
        kept.append(line)
        size += cost
        size_bytes += cost_bytes
    cut = len(text) - sum(len(line) + 1 for line in kept)
    kept.append(
        f"[… {max(cut, 1)} more characters cut to keep this reply under {budget} characters; "
        "ask for less (a smaller budget, limit or window) or page with the cursors above]"
    )
    return "\n".join(kept)


_CLI_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z-]*)(?: ([a-z0-9][\w.:-]*|[A-Z]+)\b)?")
_CLI_COMMAND = re.compile(r"('recollect [^']*')")  # a command for the person to run stays as written
_VALUED = {"scope", "since", "until", "session", "exclude-session", "directory", "class", "role", "tool", "author"}


def _argument(match: re.Match[str]) -> str:
    flag, value = match.group(1), match.group(2)
    name = flag.replace("-", "_")
    if value and flag in _VALUED:
        return f"{name}={value}" if value.isupper() else f'{name}="{value}"'
    return name + (f" {value}" if value else "")


def for_model(message: str) -> str:
    """Library messages name CLI flags (`--scope all`); a model calls tools, so name the argument
    (`scope="all"`) — except inside a quoted `'recollect …'` command meant for a person."""
    pieces = _CLI_COMMAND.split(message)
    return "".join(p if i % 2 else _CLI_FLAG.sub(_argument, p) for i, p in enumerate(pieces))


def when(iso_time: str) -> str:
    """`2026-11-30T07:11:22Z` -> `2026-11-30 07:11Z`: enough for a model, fewer tokens."""
    return iso_time[:16].replace("T", " ") + "Z" if iso_time else "?"


def one_line(text: str, limit: int) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
