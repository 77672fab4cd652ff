"""Saving a whole transcript as ChatML: where an agent may write (`save_target`) and the write itself."""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recollect.app import Recollect
from recollect.config import Config
from recollect.history.access import HistoryError, scoped, surface
from recollect.search import read as reading
from recollect.search.scope import Filters

SAVE_DIR = "recall"  # where an agent may save transcripts: <project>/recall/


@dataclass
class SavedTranscript:
    path: str
    bytes: int
    messages: int

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def save_target(path: str, project: Path) -> Path:
    """Where an agent's `history_save` may write: a file under `<project>/recall/`, after resolving
    symlinks and '..'; anything else is refused. A relative `path` is taken from the project root."""
    root = project.resolve()
    allowed = root / SAVE_DIR
    target = Path(os.path.expanduser(path))
    target = (target if target.is_absolute() else root / target).resolve()
    if target == allowed or not target.is_relative_to(allowed):
        raise HistoryError(
            f"refused to write {path!r}: transcripts are saved only under {SAVE_DIR}/ in the project "
            f"({allowed}); pass a path like {SAVE_DIR}/session.chatml"
        )
    return target


def save_transcript(
    cursor: str,
    path: str | Path | None,
    filters: Filters | None = None,
    *,
    within: Path | None = None,
    config: Config | None = None,
    app: Recollect | None = None,
) -> SavedTranscript:
    """Write the whole session at `cursor` as ChatML to `path` (secrets redacted, no per-part caps).

    With `within` (a project directory) the path must lie under `<within>/recall/`, and defaults to
    `recall/<session id>.chatml`. A source store or the index is never a target."""
    with surface(config, app) as app, app.index() as conn:
        config = app.config
        specs = app.specs_by_id()
        filters = scoped(filters, config)
        row, _ = reading.resolve_cursor(conn, cursor, filters)
    if path is None:
        if within is None:
            raise HistoryError("name the file to save to (--save PATH)")
        path = f"{SAVE_DIR}/{row['native_id']}.chatml"
    where = str(path)
    target = save_target(where, within) if within is not None else Path(os.path.expanduser(where)).resolve()
    protected = {config.index_path.resolve(), *(s.path.resolve() for s in specs.values())}
    if target in protected or any(target.is_relative_to(p) for p in protected if p.is_dir()):
        raise HistoryError(f"refused to write {target}: it is a session store or recollect's index")
    if target.is_dir():
        raise HistoryError(f"{target} is a directory; name a file, e.g. {target / 'session.chatml'}")
    window = reading.transcript(reading.load_session(specs, row))
    data = (reading.render_chatml(window) + "\n").encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".recollect-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o600)  # a transcript is as private as the store it came from
        os.replace(tmp, target)  # replaces a symlink itself, never the file it points to
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return SavedTranscript(path=str(target), bytes=len(data), messages=len(window.messages))
