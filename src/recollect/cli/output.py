"""Printing helpers shared by every command: rich on a terminal, plain text when piped, JSON for scripts."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from recollect.errors import RecollectError

if TYPE_CHECKING:  # rich costs ~40 ms to import: only commands that print with it pay for it
    from rich.console import Console
    from rich.table import Table

F = TypeVar("F", bound=Callable[..., Any])


def options(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """Several click decorators (options, arguments, pass_context) as one, in the order they are listed,
    as stacked decorators are: commands that take the same parameters declare them once."""

    def apply(command: F) -> F:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


def is_terminal() -> bool:
    return sys.stdout.isatty()


PIPED_WIDTH = 1000  # columns a table may take when the output is no terminal


def console(*, stderr: bool = False) -> Console:
    # Plain output when piped: no colour codes, no wrapping at an imaginary width.
    from rich.console import Console

    # Piped, a table takes the width it needs: at rich's default of 80 columns, the eval's sixteen
    # columns were cut to "c…" and "0…" in a file or a pager.
    stream_tty = (sys.stderr if stderr else sys.stdout).isatty()
    return Console(
        stderr=stderr,
        no_color=not stream_tty,
        highlight=False,
        soft_wrap=not stream_tty,
        width=None if stream_tty else PIPED_WIDTH,
    )


def print_table(out: Console, table: Table) -> None:
    """A table of short cells (numbers, names) as the terminal can show it: one whose cells would be cut
    ('0…') is printed in parts, each as wide as fits, each with the first column again."""
    # Measured at a width past any terminal's: rich clamps a table's measure to the width it is given.
    unbounded = out.options.update_width(PIPED_WIDTH)
    if len(table.columns) < 3 or out.measure(table, options=unbounded).minimum <= out.width:
        out.print(table)
        return
    rest = list(range(1, len(table.columns)))
    while rest:
        taken = rest[:1]
        for column in rest[1:]:
            if out.measure(_columns_of(table, [0, *taken, column]), options=unbounded).maximum > out.width:
                break
            taken.append(column)
        part = _columns_of(table, [0, *taken])
        if rest[0] != 1:
            part.title = f"{table.title} (continued)" if table.title else None
        out.print(part)
        rest = rest[len(taken) :]


def _columns_of(table: Table, columns: list[int]) -> Table:
    """`table` with only `columns`, in that order: its title, box, headers, styles and sections."""
    from rich.table import Table

    part = Table(title=table.title, box=table.box, show_lines=table.show_lines, header_style=table.header_style)
    cells = []
    for i in columns:
        c = table.columns[i]
        part.add_column(c.header, justify=c.justify, style=c.style, no_wrap=c.no_wrap, overflow=c.overflow)
        cells.append(list(c.cells))
    for r, row in enumerate(table.rows):
        part.add_row(*(column[r] for column in cells), style=row.style, end_section=row.end_section)
    return part


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def one_line(exc: Exception) -> str:
    """The message of a `RecollectError`, or an operating-system error as its reason and file."""
    if isinstance(exc, NotADirectoryError) and exc.filename:
        # Name the culprit: the file standing where a directory is needed, not the path below it.
        path = Path(os.fsdecode(exc.filename))
        culprit = next((p for p in path.parents if p.exists()), None)
        if culprit is not None and not culprit.is_dir():
            return f"{culprit} is a file, where a directory is needed (for {path}); move it, or choose another path"
    if isinstance(exc, OSError) and not isinstance(exc, RecollectError):
        name = str(exc.filename or "")
        where = f" ({name if len(name) <= 200 else name[:200] + '…'})" if name else ""
        return f"{exc.strerror or exc}{where}"
    return str(exc)


def fail(message: str, code: int = 1) -> NoReturn:
    click.echo(f"recollect: {message}", err=True)
    sys.exit(code)


# ----------------------------------------------------------------------------- markup without rich
# `recollect search` prints its hits with console markup. Piped (an agent's shell, a script), rich
# prints them as plain text, and importing it, making a Console and rendering ~30 lines cost a
# one-shot search more CPU than the search itself (~80 ms of imports, ~100-200 ms in all at load).
# `markup_printer` prints that plain text itself, as rich would (tests/cli/test_output.py compares the
# two over generated text); on a terminal, or where rich's output could differ, it uses rich.

_RE_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")  # rich.markup.RE_TAGS
_RE_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")  # rich.markup.escape's pattern
_RE_EMOJI = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")  # rich._emoji_replace's pattern
_STRIP_CONTROL = dict.fromkeys((7, 8, 11, 12, 13))  # rich.control.STRIP_CONTROL_CODES
_PLAIN_TAGS = frozenset({"bold", "/bold", "dim", "/dim", "cyan", "/cyan"})  # styles only: no text of their own
_RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")  # make rich style text that is piped


def escape(text: str) -> str:
    """`text` made safe to put in console markup (rich.markup.escape)."""
    text = _RE_ESCAPE.sub(lambda m: f"{m[1]}{m[1]}\\{m[2]}", text)
    return text + "\\" if text.endswith("\\") and not text.endswith("\\\\") else text


def _emoji(text: str) -> str:
    # No emoji is named "" (a cursor's "::") or with one or two digits (the minutes of a time, 13:46:22): a
    # test checks rich's table. It is loaded only for a text that may hold a code.
    names = (m[2] for m in _RE_EMOJI.finditer(text))
    if not any(name and not (name.isdigit() and len(name) <= 2) for name in names):
        return text
    from rich._emoji_replace import _emoji_replace

    return _emoji_replace(text)


def plain_markup(markup: str, *, emoji: bool = True) -> str | None:
    """What rich prints for `markup` with no colour and no wrapping (a piped Console), or None when this
    cannot tell (a tab, which rich expands by cell width, or a tag that is not a plain style)."""
    if "\t" in markup:
        return None
    segments: list[str] = []
    opened: list[str] = []
    position = 0
    for match in _RE_TAGS.finditer(markup):  # as rich.markup._parse
        full, escapes, tag = match.groups()
        start, end = match.span()
        if start > position:
            segments.append(markup[position:start])
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                segments.append("\\" * backslashes)
            if escaped:
                segments.append(full[len(escapes) :])
                continue
        if tag not in _PLAIN_TAGS:
            return None
        if tag.startswith("/"):  # rich refuses a closing tag that closes nothing
            if tag[1:] not in opened:
                return None
            del opened[len(opened) - 1 - opened[::-1].index(tag[1:])]
        else:
            opened.append(tag)
    if position < len(markup):
        segments.append(markup[position:])
    texts = (s.replace("\\[", "[") for s in segments)
    return "".join(_emoji(t) if emoji else t for t in texts).translate(_STRIP_CONTROL)


def markup_printer() -> Callable[..., None]:
    """`print(markup, emoji=True)` for stdout: rich on a terminal, the same text without it when piped."""
    out = sys.stdout
    if out.isatty() or any(os.environ.get(name) is not None for name in _RICH_ENV) or not _utf8(out):
        return console().print
    made: list[Console] = []

    def print_plain(markup: str, *, emoji: bool = True) -> None:
        text = plain_markup(markup, emoji=emoji)
        if text is None:
            made[:] = made or [console()]
            made[0].print(markup, emoji=emoji)
            return
        out.write(text + "\n")
        out.flush()

    return print_plain


def _utf8(stream: Any) -> bool:
    return str(getattr(stream, "encoding", "") or "").lower().replace("-", "").replace("_", "") == "utf8"
