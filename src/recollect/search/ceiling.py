"""The operator's scope ceiling: the widest set of sessions a surface may ever show.

A person sets it — `[scope] ceiling` in config.toml (every surface), `recollect mcp --scope`
(one MCP server), `recollect install opencode --scope` (the server and the plugin helper it
installs). A query's own scope (a tool argument, a CLI option) may narrow it and never widen it.

It is enforced in the scope layer every read path goes through, in two ways: `check` refuses a
query that asks for more (a wider scope, a directory outside, a session or cursor outside) with
`ScopeCeilingError`, whose text names the setting that would widen it; and `clause` is ANDed into
every SQL predicate (`scope.predicate`), so even a path that skipped the check cannot return a
session outside the ceiling.

What it must never do: reveal what lies outside (a refusal never names a foreign session's
directory or title), or widen anything (combining ceilings keeps the narrowest).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from recollect.config import SCOPE_CEILINGS, Config, ConfigError
from recollect.search.scope import FilterError, resolve_project_root, scope_clause, session_ref_clause

if TYPE_CHECKING:
    from recollect.search.scope import Filters

# Widest first. 'session' is never a ceiling: the operator does not know the session ids ahead.
CEILINGS = SCOPE_CEILINGS
WIDTH = {"all": 3, "project": 2, "directory": 1, "session": 0}
CONFIG_SECTION, CONFIG_KEY = "scope", "ceiling"


class ScopeCeilingError(FilterError):
    """A query asks for more than the operator's ceiling allows; the text names the setting. A
    `FilterError`, so every surface (CLI, MCP, plugin helper) reports it as one clear line."""


@dataclass(frozen=True)
class Ceiling:
    """`scope` anchored at `anchor` (the directory the surface runs for: the MCP server's cwd, the
    CLI's cwd, the directory OpenCode names for a plugin request). `origin` says who set it and
    `fix` how to raise it; both go into refusals verbatim."""

    scope: str = "all"
    anchor: str = ""
    origin: str = ""
    fix: str = ""
    root: str | None = None  # the anchor's project root, filled by `resolved`

    def __post_init__(self) -> None:
        if self.scope not in CEILINGS:
            raise ValueError(f"a scope ceiling is one of {', '.join(CEILINGS)} (got {self.scope!r})")

    @property
    def unbounded(self) -> bool:
        return self.scope == "all"

    def narrow(self, scope: str) -> str:
        """`scope` if the ceiling allows it, else the ceiling's own scope: for defaults, which
        follow the ceiling instead of being refused by it."""
        return scope if WIDTH[scope] <= WIDTH[self.scope] else self.scope

    def allowed(self) -> str:
        """The scopes a query may still ask for, in words."""
        names = [f"'{s}'" for s in ("project", "directory", "session") if WIDTH[s] <= WIDTH[self.scope]]
        return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]

    def where(self) -> str:
        if self.scope == "project":
            return self.root or self.anchor
        return self.anchor

    def _refusal(self, what: str, advice: str) -> ScopeCeilingError:
        return ScopeCeilingError(
            f"{what} the scope ceiling '{self.scope}' ({self.where()}) set by {self.origin}; {advice}, or {self.fix}"
        )

    def resolved(self, conn: sqlite3.Connection) -> Ceiling:
        """The ceiling with its project root filled in (the same rule as a 'project' query's)."""
        if self.unbounded or self.root is not None:
            return self
        return replace(self, root=resolve_project_root(conn, self.anchor))

    def contains_directory(self, directory: str) -> bool:
        base = self.where().rstrip("/") or "/"
        return directory == base or directory.startswith(base.rstrip("/") + "/")

    # --- the check ---------------------------------------------------------------------------

    def check(self, filters: Filters, conn: sqlite3.Connection) -> None:
        """Refuse `filters` if they reach beyond the ceiling. `filters` are already resolved."""
        if self.unbounded:
            return
        scope = filters.scope
        if WIDTH[scope] > WIDTH[self.scope]:
            raise self._refusal(f"scope '{scope}' is wider than", f"narrow the query (scope {self.allowed()})")
        if scope == "project":
            root = filters.project_root or filters.caller_directory()
            if not self.contains_directory(root):
                raise self._refusal(
                    f"project {root} is outside", "search this project (leave 'directory' out) or a directory inside it"
                )
        elif scope == "directory":
            directory = filters.caller_directory()
            if not self.contains_directory(directory):
                raise self._refusal(
                    f"directory {directory} is outside", "use a directory inside it (or leave 'directory' out)"
                )
        self.check_sessions(conn, [*filters.sessions, *([filters.parent] if filters.parent else [])])

    def check_sessions(self, conn: sqlite3.Connection, refs: Iterable[str], *, by_message: bool = False) -> None:
        """Refuse any session (or, `by_message`, any message id) that the index holds outside the
        ceiling. Ids the index does not hold are left to the caller's own 'not found'."""
        if self.unbounded:
            return
        params: list[object] = []
        inside = self.clause("s", params)
        rows = "session s JOIN chunk c ON c.sid = s.sid" if by_message else "session s"
        for ref in refs:
            args: list[object] = []
            ref_is = session_ref_clause(ref, args, id_column="c.message_id" if by_message else "s.native_id")
            outside = conn.execute(
                f"SELECT s.sid FROM {rows} WHERE {ref_is} AND NOT ({inside}) LIMIT 1", [*args, *params]
            ).fetchone()
            if outside is not None:
                what = "message" if by_message else "session"
                raise self._refusal(
                    f"{what} {ref!r} is outside",
                    "a cursor or session id from a wider answer cannot be read here; search within the ceiling",
                )

    def check_memory_write(self, root_scope: str, what: str) -> None:
        """Memory under a ceiling: the project's `.memory/` and the global root are both read (a
        global memory is the person's own, meant for every project), but a model may not write or
        forget a global memory from a bounded surface: what it wrote there would be read in every
        project, beyond the ceiling."""
        if self.unbounded or root_scope != "global":
            return
        raise self._refusal(
            f"{what} a global memory (read in every project) reaches beyond",
            "keep it in this project (scope 'project')",
        )

    # --- the predicate -----------------------------------------------------------------------

    def clause(self, alias: str, params: list[object]) -> str:
        """SQL for "session `alias` lies inside the ceiling" ('1' when unbounded)."""
        if self.unbounded:
            return "1"
        return scope_clause(self.scope, self.anchor, self.root, alias, params)


UNBOUNDED = Ceiling()


def narrowest(*ceilings: Ceiling) -> Ceiling:
    """The narrowest of several ceilings set for one surface (same anchor); ties name every setter."""
    bounded = [c for c in ceilings if not c.unbounded]
    if not bounded:
        return UNBOUNDED
    width = min(WIDTH[c.scope] for c in bounded)
    tied = [c for c in bounded if WIDTH[c.scope] == width]
    first = tied[0]
    if len(tied) == 1:
        return first
    return replace(
        first,
        origin=" and ".join(dict.fromkeys(c.origin for c in tied)),
        fix=" and ".join(dict.fromkeys(c.fix for c in tied)),
    )


def from_config(config: Config, anchor: str | None = None) -> Ceiling:
    """`[scope] ceiling` of the config file, anchored at `anchor` (default: the cwd)."""
    value = config.section(CONFIG_SECTION).get(CONFIG_KEY)
    anchor = os.path.abspath(anchor or os.getcwd())
    if value is None:
        return UNBOUNDED
    if value not in CEILINGS:
        raise ConfigError(
            f"{config.paths.config_file}: [{CONFIG_SECTION}] {CONFIG_KEY} must be one of {', '.join(CEILINGS)} "
            f"(got {value!r})"
        )
    where = f'[{CONFIG_SECTION}] {CONFIG_KEY} = "{value}" in {config.paths.config_file}'
    return Ceiling(value, anchor, origin=where, fix=f"raise {CONFIG_SECTION}.{CONFIG_KEY} in that file")


def from_option(scope: str | None, anchor: str, setter: str, fix: str) -> Ceiling:
    """A ceiling given on a command line (`recollect mcp --scope project`); None or 'all': none."""
    if not scope or scope == "all":
        return UNBOUNDED
    return Ceiling(scope, os.path.abspath(anchor), origin=setter, fix=fix)
