"""What extraction remembers between runs, and its log. Both live under recollect's data dir.

`extract/state.json` holds, per session, the time of the newest message already shown to a model
(so an idle extraction sends only the turns since), and when the last sweep ran (so `recollect
extract` alone picks up the sessions changed since). `log/extract.jsonl` gets one line per
candidate outcome and per failure, with the reason — redacted, and never the text of a candidate
refused for holding a secret. Both are owner-only. A lock serialises concurrent extractions (the
plugin may start one per idle session) so two never send the same turns twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recollect.config import Paths, ensure_private_dir, lock_within
from recollect.jsonish import typed

STATE_VERSION = 1


def state_dir(paths: Paths) -> Path:
    return paths.data_dir / "extract"


def log_path(paths: Paths) -> Path:
    return paths.log_dir / "extract.jsonl"


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class ExtractState:
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)  # "source::id" -> {through, at, ...}
    last_sweep: int | None = None  # epoch ms: sessions updated after it are the next sweep's

    def through(self, key: str) -> int:
        value = self.sessions.get(key, {}).get("through", 0)
        return int(value) if isinstance(value, int | float) else 0

    def mark(self, key: str, *, through: int, outcome: str, model: str) -> None:
        self.sessions[key] = {"through": through, "at": now_iso(), "outcome": outcome, "model": model}

    def to_dict(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, "last_sweep": self.last_sweep, "sessions": self.sessions}


def load_state(paths: Paths) -> ExtractState:
    path = state_dir(paths) / "state.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ExtractState()
    except (OSError, ValueError):
        # A torn or hand-mangled state only costs re-sending some turns: dedupe catches repeats.
        return ExtractState()
    if not isinstance(data, dict):
        return ExtractState()
    sessions = typed(data.get("sessions"), dict, {})
    sweep = data.get("last_sweep")
    return ExtractState(sessions=dict(sessions), last_sweep=int(sweep) if isinstance(sweep, int) else None)


def save_state(paths: Paths, state: ExtractState) -> None:
    directory = ensure_private_dir(state_dir(paths))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".state.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(state.to_dict(), handle, ensure_ascii=False, indent=1, sort_keys=True)
        os.chmod(tmp, 0o600)
        os.replace(tmp, directory / "state.json")
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


class Busy(Exception):
    """Another extraction holds the lock."""


@contextlib.contextmanager
def extraction_lock(paths: Paths, *, wait: float) -> Iterator[None]:
    """Hold the extraction lock; wait up to `wait` seconds for another run, then raise Busy."""
    directory = ensure_private_dir(state_dir(paths))
    fd = os.open(directory / "lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            import fcntl  # noqa: F401 - only whether this platform has advisory locks
        except ImportError:  # pragma: no cover - Windows: no advisory locks; runs may overlap
            yield
            return
        if not lock_within(fd, wait):
            raise Busy("another 'recollect extract' is running")
        yield
    finally:
        os.close(fd)


def append_log(paths: Paths, record: dict[str, Any]) -> None:
    directory = ensure_private_dir(paths.log_dir)
    line = json.dumps({"at": now_iso(), **record}, ensure_ascii=False, sort_keys=True) + "\n"
    fd = os.open(directory / "extract.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        handle.write(line)


def read_log(paths: Paths) -> list[dict[str, Any]]:
    path = log_path(paths)
    if not path.is_file():
        return []
    out: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(ValueError):
            value = json.loads(line)
            if isinstance(value, dict):
                out.append(value)
    return out


def failing(paths: Paths) -> str:
    """What doctor says when extraction's newest word is a failure, else "": the newest `failed` record of
    the log, unless a later run reached a model (a logged outcome, or a session marked in the state: a run
    that proposed nothing logs nothing). With the plugin's automatic extraction nobody sees a failure
    otherwise: it goes to the background log."""
    records = read_log(paths)
    failed = [r for r in records if r.get("event") == "failed" and isinstance(r.get("at"), str)]
    if not failed:
        return ""
    last = failed[-1]
    reached = [str(r.get("at", "")) for r in records if r.get("event") not in ("failed", "summary-failed")]
    reached += [str(s.get("at", "")) for s in load_state(paths).sessions.values() if isinstance(s, dict)]
    if max(reached, default="") >= last["at"]:
        return ""
    return (
        f"the last memory extraction failed at {last['at']} (session {last.get('session', '?')}): "
        f"{last.get('reason', 'no reason logged')}"
    )
