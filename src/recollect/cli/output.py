"""Printing helpers shared by every command: rich on a terminal, plain text when piped, JSON for scripts."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

from recollect.errors import RecollectError

if TYPE_CHECKING:  # rich costs ~40 ms to import: only commands that print with it pay for it
    from rich.console import Console


def is_terminal() -> bool:
    return sys.stdout.isatty()


def console(*, stderr: bool = False) -> Console:
    # Plain output when piped: no colour codes, no wrapping at an imaginary width.
    from rich.console import Console

    stream_tty = (sys.stderr if stderr else sys.stdout).isatty()
    return Console(stderr=stderr, no_color=not stream_tty, highlight=False, soft_wrap=not stream_tty)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def one_line(exc: Exception) -> str:
    """The message of a `RecollectError`, or an operating-system error as its reason and file."""
    if isinstance(exc, OSError) and not isinstance(exc, RecollectError):
        name = str(exc.filename or "")
        where = f" ({name if len(name) <= 200 else name[:200] + '…'})" if name else ""
        return f"{exc.strerror or exc}{where}"
    return str(exc)


def fail(message: str, code: int = 1) -> NoReturn:
    click.echo(f"recollect: {message}", err=True)
    sys.exit(code)
