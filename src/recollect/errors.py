"""The one error type that reaches people and agents: `RecollectError`.

Every exception whose message is written for the person or agent who caused it derives from
`RecollectError`; its text is one line naming the problem and the fix. Each surface has one handler
for it: the CLI prints `recollect: <message>` and exits 1 (cli/__init__.py), the MCP server answers
with a tool error (mcp/registry.py), and anything else is a bug, shown as one.

The subclasses live next to the code that raises them, so a caller can still catch one kind:

- `ConfigError` (config), `ConfigExists` (configfile), `SourceError` (model), `IndexUnavailable` (index.store)
- `FilterError` (here: times and search.scope raise it; its kind `ScopeCeilingError` in
  search.ceiling), `ReadError` (search.read), `HistoryError` (history)
- `MemoryOperationError` and its kinds `InvalidMemory`, `MemoryNotFound`, `SecretRefused`,
  `NotAllowed` (memory.files)
- `EmbedError` (embed.base), `ModelError` / `NoBackend` (extract.models), `ExtractError` (extract.run)
- `InstallError` (integrations.opencode), `ArgumentError` (mcp.args), `CasesError` (cases)

Exceptions that never leave the library are plain exceptions, turned into one of the above (or a
logged note) where they are caught: `JsoncError`, `FrontmatterError`, `MalformedOutput`, `Busy`.
"""

from __future__ import annotations


class RecollectError(Exception):
    """A failure the caller can fix; the message says what is wrong and what to do."""


class FilterError(RecollectError, ValueError):
    """A filter value is invalid; the message says how to fix the call."""
