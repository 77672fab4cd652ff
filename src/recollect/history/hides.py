"""Hiding a session from every read path, bringing it back, and listing the hidden ones.

A hide is a tombstone in recollect's data dir (recollect/hidden.py), never a mark in the index."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from recollect import hidden as hiding
from recollect.app import Recollect
from recollect.config import Config, load_config
from recollect.history.access import HistoryError, surface
from recollect.index import queries
from recollect.search.ceiling import Ceiling
from recollect.search.ceiling import from_config as ceiling_from_config
from recollect.text.plain import display_title


def _qualify(conn: sqlite3.Connection, ref: str, app: Recollect) -> str:
    """`source::native` for a session reference (a qualified id, a cursor, or a raw id the index knows)."""
    pieces = ref.strip().split("::")
    if len(pieces) >= 2 and pieces[0] and pieces[1]:
        source, native = pieces[0], pieces[1]
        known = {s.id for s in app.specs} | queries.recorded_sources(conn)
        if source not in known:
            raise HistoryError(f"no source {source!r}; use one of {', '.join(sorted(known)) or '(none configured)'}")
        return f"{source}::{native}"
    if len(pieces) != 1 or not pieces[0]:
        raise HistoryError(f"cannot read the session {ref!r}; pass a session id or SOURCE::ID")
    rows = queries.sessions_named(conn, pieces[0])
    if not rows:
        raise HistoryError(
            f"no indexed session {ref!r}; run 'recollect index' first, or name it as SOURCE::ID (e.g. opencode::{ref})"
        )
    if len(rows) > 1:
        raise HistoryError(
            f"session {ref!r} is in more than one source; use one of: " + ", ".join(f"{a}::{b}" for a, b in rows)
        )
    return f"{rows[0][0]}::{rows[0][1]}"


def _audit(config: Config, *, op: str, session: str, by: str, note: str) -> None:
    """One line in the audit log of the global memory root (`recollect memory log` shows it)."""
    from recollect.memory.audit import record
    from recollect.memory.files import MemoryRoot, utcnow

    root = MemoryRoot(config.paths.global_memory, "global")
    record(root, actor=by, op=op, memory_id=f"session:{session}", before=None, after=None, now=utcnow(), note=note)


def hide_session(
    ref: str, *, why: str, by: str = "person", config: Config | None = None, app: Recollect | None = None
) -> hiding.HiddenSession:
    """Hide a session from every read path (search, read, listings, MCP tools, auto-recall).

    `ref` is a session id, `SOURCE::ID`, or a cursor. The hide is a tombstone in recollect's data
    dir, not a mark in the index, so it survives re-syncs and index rebuilds; it goes to the audit
    log with `why`. Hiding a hidden session again replaces its reason. Returns the tombstone."""
    why = " ".join(why.split())
    if not why:
        raise HistoryError("say why the session is hidden (--why TEXT); the reason goes to the audit log")
    with surface(config, app) as app, app.index() as conn:
        session = _qualify(conn, ref, app)
    config = app.config
    entry = hiding.HiddenSession(session=session, at=hiding.now_iso(), by=by, why=why)
    hiding.append(config.paths.data_dir, {"op": "hide", **entry.to_dict()})
    _audit(config, op="hide", session=session, by=by, note=why)
    return entry


def unhide_session(
    ref: str, *, by: str = "person", config: Config | None = None, app: Recollect | None = None
) -> hiding.HiddenSession:
    """Bring a hidden session back into every read path; written to the audit log. Returns the lifted tombstone."""
    config = app.config if app is not None else config or load_config()
    current = hiding.read_hidden(config.paths.data_dir)
    pieces = ref.strip().split("::")
    matches = [h for h in current.values() if h.session == "::".join(pieces[:2]) or h.key[1] == pieces[0]]
    if not matches:
        raise HistoryError(f"session {ref!r} is not hidden; 'recollect sessions --hidden' lists the hidden ones")
    if len(matches) > 1:
        raise HistoryError(
            f"session {ref!r} is hidden in more than one source; use one of: " + ", ".join(h.session for h in matches)
        )
    entry = matches[0]
    hiding.append(config.paths.data_dir, {"op": "unhide", "session": entry.session, "at": hiding.now_iso(), "by": by})
    _audit(config, op="unhide", session=entry.session, by=by, note="")
    return entry


@dataclass
class HiddenInfo:
    session: str
    at: str
    by: str
    why: str
    title: str  # from the index, when it still holds the session
    directory: str

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def hidden_sessions(
    config: Config | None = None, *, ceiling: Ceiling | None = None, app: Recollect | None = None
) -> list[HiddenInfo]:
    """The hidden sessions, newest hide first, with their title and directory where the index has them.

    Under a bounded scope ceiling (default: the config's `[scope] ceiling`, anchored here) only the
    hidden sessions inside it are listed: a title or directory from beyond it is never shown, and a
    session the index no longer holds cannot be placed, so it is left out too."""
    config = app.config if app is not None else config or load_config()
    ceiling = ceiling if ceiling is not None else ceiling_from_config(config)
    entries = sorted(hiding.read_hidden(config.paths.data_dir).values(), key=lambda h: h.at, reverse=True)
    known: dict[tuple[str, str], tuple[str, str]] = {}
    if entries and config.index_path.exists():
        with surface(config, app) as app, app.index(readonly=True) as conn:
            bound = ceiling.resolved(conn)
            params: list[object] = []
            inside = bound.clause("s", params)
            for h in entries:
                row = queries.title_and_directory(conn, h.key, inside, params)
                if row:
                    known[h.key] = (display_title(row[0], row[1]), row[2] or "")
    if not ceiling.unbounded:
        entries = [h for h in entries if h.key in known]
    return [HiddenInfo(h.session, h.at, h.by, h.why, *known.get(h.key, ("", ""))) for h in entries]
