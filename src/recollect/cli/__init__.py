"""The command line for people. Thin: it parses arguments and prints what the library computed.

Commands are imported only when used, so `recollect extract` or `recollect index` spawned by a
plugin does not pay for importing every other command's dependencies.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import click

from recollect.cli.group import Group
from recollect.errors import RecollectError

# name -> "module:attribute" of the click command
_COMMANDS = {
    "index": "recollect.cli.history:index_cmd",
    "search": "recollect.cli.history:search_cmd",
    "read": "recollect.cli.history:read_cmd",
    "sessions": "recollect.cli.history:sessions_cmd",
    "doctor": "recollect.cli.history:doctor_cmd",
    "hide": "recollect.cli.history:hide_cmd",
    "unhide": "recollect.cli.history:unhide_cmd",
    "demo": "recollect.cli.demo:demo_cmd",
    "memory": "recollect.cli.memory:memory",
    "extract": "recollect.cli.extract:extract_cmd",
    "summarize": "recollect.cli.extract:summarize_cmd",
    "mcp": "recollect.cli.mcp:mcp_cmd",
    "config": "recollect.cli.config:config",
    "install": "recollect.cli.install:install",
    "uninstall": "recollect.cli.install:uninstall",
    "ui": "recollect.cli.ui:ui_cmd",
    # An installed package keeps `eval --cases` (your own history); a checkout runs the whole eval instead.
    "eval": "recollect.cli.cases:eval_cmd",
}

# Dev-only commands whose code lives in a recollect checkout, not in the wheel (bench/eval/): they are
# offered when this package runs from that checkout (an editable install), as `python -m bench.eval` is.
_CHECKOUT_COMMANDS = {"eval": "bench.eval.cli:eval_cmd"}
_CHECKOUT = Path(__file__).resolve().parents[3]


def _in_checkout() -> bool:
    return (_CHECKOUT / "bench" / "eval" / "cli.py").is_file()


def _import_from_checkout(module: str) -> ModuleType:
    if str(_CHECKOUT) not in sys.path:
        sys.path.insert(0, str(_CHECKOUT))
    return importlib.import_module(module)


# What a Ctrl-C leaves behind, for a command that stores as it goes (the others: nothing to say).
_INTERRUPTED = {
    "index": "the sessions stored so far are kept; run 'recollect index' again to finish",
}


_ARGS = "recollect.args"  # the command line after `recollect`, kept for the closed-pipe exit code


def _asks_for_help(args: list[str]) -> bool:
    """Whether the command line asks for help: click prints it for `--help` anywhere before `--`."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--help":
            return True
    return False


class LazyGroup(Group):
    """Loads each command on first use, and is the CLI's one error handler: a `RecollectError` (or an
    operating-system error such as a permission denied) becomes one `recollect: <message>` line and exit 1;
    a Ctrl-C becomes one line saying what was kept, and exit 130 (the shell's code for SIGINT)."""

    synonyms: ClassVar[dict[str, str]] = {
        "find": "search",
        "grep": "search",
        "open": "read",
        "show": "read",
        "list": "sessions",
        "ls": "sessions",
        "sync": "index",
        "update": "index",
        "status": "doctor",
        "check": "doctor",
        "memories": "memory",
        "remember": "memory",
        "recall": "memory",
        "setup": "install",
        "remove": "uninstall",
    }

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # `recollect … | head`: the reader has all it wanted; nothing to say
            _quiet_stdout()
            # Help is no data a script could miss: `recollect search --help | head -1` succeeds.
            sys.exit(0 if _asks_for_help(ctx.meta.get(_ARGS, [])) else 141)  # 141: a writer stopped by SIGPIPE
        except (RecollectError, OSError) as exc:
            from recollect.cli.output import fail, one_line

            fail(one_line(exc))
        except KeyboardInterrupt:
            from recollect.cli.output import fail

            name = ctx.invoked_subcommand or "recollect"
            kept = _INTERRUPTED.get(name)
            fail(f"{name} interrupted (Ctrl-C)" + (f": {kept}" if kept else ""), code=130)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except BrokenPipeError:  # `recollect --help | head -1`, `recollect --version | true`
            _quiet_stdout()
            sys.exit(0)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        ctx.meta[_ARGS] = list(args)
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*_COMMANDS, *(_CHECKOUT_COMMANDS if _in_checkout() else ())})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _CHECKOUT_COMMANDS and _in_checkout():
            module, attribute = _CHECKOUT_COMMANDS[cmd_name].split(":")
            command = getattr(_import_from_checkout(module), attribute)
        elif cmd_name in _COMMANDS:
            module, attribute = _COMMANDS[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attribute)
        else:
            return None
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup)
@click.version_option(package_name="recollect", prog_name="recollect")
def main() -> None:
    """recollect: search your coding agents' past sessions, and keep curated memories.

    Start with 'recollect doctor' (what it found), 'recollect index', then 'recollect search WORDS'.
    """
    # Everything recollect writes (index, vectors, caches, logs, state) is the user's alone, whatever
    # umask the shell or the agent that started us has.
    os.umask(0o077)


def run() -> None:
    """The `recollect` command (the console script and `python -m recollect.cli`): `main`, then `exit_now`."""
    try:
        main()
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            exit_now(done.code or 0)
        raise


def exit_now(code: int) -> None:
    """Leave the process as a normal exit would, less the interpreter's teardown.

    Tearing down every module and object costs a one-shot search ~60-70 ms of CPU (about 8% of it) and
    does nothing a person can see: the exit handlers (`atexit`, and with them `weakref.finalize` and
    logging's flush) run here, and stdout and stderr are flushed. A command that leaves another thread
    running, or whose output cannot be flushed (a closed pipe), exits the normal way."""
    import atexit
    import threading

    if not _flushed():
        _quiet_stdout()  # else the interpreter's own flush at exit reports the closed pipe as an error
        raise SystemExit(code)
    if threading.active_count() > 1:
        raise SystemExit(code)
    atexit._run_exitfuncs()
    if not _flushed():
        _quiet_stdout()
        raise SystemExit(code)
    os._exit(code)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that output still buffered for a closed pipe is dropped quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _flushed() -> bool:
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True
