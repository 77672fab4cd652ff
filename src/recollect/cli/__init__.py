"""The command line for people. Thin: it parses arguments and prints what the library computed."""

import click

from recollect.cli.history import COMMANDS as _HISTORY_COMMANDS


@click.group()
@click.version_option(package_name="recollect")
def main() -> None:
    """recollect: search your coding agents' past sessions, and keep curated memories.

    Start with 'recollect doctor' (what it found), 'recollect index', then 'recollect search WORDS'.
    """


for _command in _HISTORY_COMMANDS:
    main.add_command(_command)
from recollect.cli.memory import memory as _memory; main.add_command(_memory)  # noqa: E402, E702, I001  # fmt: skip
from recollect.cli.mcp import mcp_cmd as _mcp; main.add_command(_mcp)  # noqa: E402, E702, I001  # fmt: skip
from recollect.cli.install import install, uninstall; main.add_command(install); main.add_command(uninstall)  # noqa: E402, E702, I001  # fmt: skip
from recollect.cli.extract import extract_cmd as _extract; main.add_command(_extract)  # noqa: E402, E702, I001  # fmt: skip
from recollect.cli.eval import eval_cmd as _eval; main.add_command(_eval)  # noqa: E402, E702, I001  # fmt: skip
