"""What the OpenCode plugin's hooks compute. The plugin only forwards hook inputs here and puts the
answers back; every decision is made in this module, so it can be tested without OpenCode.

Four entry points, one per hook (see `docs/opencode.md`):

* `on_message` (`chat.message`): for this user message, `inject` (the standing memory block: hard
  rules, goals, outline), `turn` (the memory bodies that bear on this message) and, when it carries
  a history cue ("last time", 上次 …), `recall` (an auto-recall block of the earlier sessions of
  this project that answered it, `autorecall.py`). The plugin caches them per session: `inject`
  goes into every system prompt and is byte-identical from turn to turn until the memories it
  shows change, so a provider's prompt cache keeps the conversation; `turn` and `recall` are
  appended to this message only, in the request (`experimental.chat.messages.transform`), never in
  the transcript; the next message replaces them, so at most one of each is alive;
* `on_system` (`experimental.chat.system.transform` with nothing cached): the standing block;
* `on_compact` (`experimental.session.compacting`): this session's card and its relevant memories,
  for the summary to keep;
* `on_idle` (`event` `session.idle`): a detached, debounced `recollect index` and, when
  `[memory] auto_extract` is on, `recollect extract --session ID`.

Everything returned opens with a tag from `recollect.text.markers.INJECTED_BLOCK_TAGS`, so the
indexer never reads it back as something a person said. Nothing here syncs the index on the hot
path: a sync can take seconds, and a message must not wait for it (idle syncs keep it fresh).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect.config import Config, ConfigError, Paths, ensure_private_dir, load_config, resolve_paths
from recollect.integrations import autorecall, idlework
from recollect.integrations.autorecall import RECALL_END as RECALL_END  # re-exported: the cue rules and
from recollect.integrations.autorecall import RECALL_MAX_CHARS as RECALL_MAX_CHARS  # the block live with
from recollect.integrations.autorecall import RECALL_TAG as RECALL_TAG  # auto-recall
from recollect.integrations.autorecall import derive_query as derive_query
from recollect.integrations.autorecall import detect_cue, message_units
from recollect.redact import redact

if TYPE_CHECKING:
    from recollect.app import Recollect
    from recollect.history import Ceiling

CONTEXT_TAG, CONTEXT_END = "<recollect-context>", "</recollect-context>"
LOG_NAME = "opencode-plugin.log"
EXTRACT_URL_ENV = "RECOLLECT_OPENCODE_URL"  # read by `recollect extract` (extract/settings.py)


@dataclass(frozen=True)
class PluginSettings:
    """`[opencode]` in recollect's config.toml; every piece can be turned off on its own."""

    inject: bool = True  # memory tiers in the system prompt
    auto_recall: bool = True  # history cues -> recall block
    compaction_recall: bool = True  # session card + memories into the compaction prompt
    sync_on_idle: bool = True  # `recollect index` after a session goes idle
    idle_sync_seconds: float = 30.0  # at most one idle sync per this many seconds
    extract_interval_seconds: float = 300.0  # per session, for auto_extract
    # From [memory] auto_extract: `recollect extract --session ID` on idle. On once installed (seed
    # 002's autoExtract): it only ever writes proposals, which wait for a person's review.
    auto_extract: bool = True
    timeout_ms: int = 1000  # what the plugin waits for one answer on the message path

    @classmethod
    def from_config(cls, config: Config) -> tuple[PluginSettings, list[str]]:
        """Settings plus warnings: a bad value is reported and ignored, never fatal to a turn."""
        warnings: list[str] = []
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in config.section("opencode").items():
            if key == "auto_extract":
                warnings.append("[opencode] auto_extract is set under [memory]: write [memory] auto_extract instead")
                continue
            if key not in known:
                options = sorted(k for k in known if k != "auto_extract")
                warnings.append(f"[opencode] {key!r} is not a setting; known: {', '.join(options)}")
                continue
            default = getattr(cls, key)
            if isinstance(default, bool):
                if isinstance(value, bool):
                    values[key] = value
                else:
                    warnings.append(f"[opencode] {key} must be true or false")
            elif isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
                values[key] = type(default)(value)
            else:
                warnings.append(f"[opencode] {key} must be a number >= 0")
        extract = config.section("memory").get("auto_extract", True)
        if isinstance(extract, bool):
            values["auto_extract"] = extract
        else:
            warnings.append("[memory] auto_extract must be true or false")
        return cls(**values), warnings


class Logger:
    """Appends one line per event to the plugin log (the plugin writes to the same file)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with contextlib.suppress(OSError):
            ensure_private_dir(path.parent)
            if path.exists() and path.stat().st_size > 2_000_000:
                path.replace(path.with_suffix(".log.1"))

    def __call__(self, message: str) -> None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime())
        with contextlib.suppress(OSError):
            # Owner-only whatever the umask; every line redacted (errors quote what they failed on).
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as f:
                f.write(f"{stamp} [hookd {os.getpid()}] {redact(message)}\n")


def append_redacted(path: str, text: str, label: str) -> None:
    """Append `text` to the log at `path`, redacted as a whole (a secret may span lines), one log line
    per line of it, each after `label` (the helper's stderr: hookd.py). Owner-only, like every log of ours."""
    lines = [line.rstrip() for line in redact(text).splitlines() if line.strip()]
    if not lines:
        return
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime())
    ensure_private_dir(Path(path).parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as f:
        f.writelines(f"{stamp} [hookd {os.getpid()}] {label}: {line}\n" for line in lines)


class HookService:
    """Long-lived state for one helper process: its `Recollect` (the config) and memory spaces, cached
    until the config file changes; debounce clocks for the idle work. Each history call takes its own
    `for_call()` (its own connection: calls run on the read loop, the recall thread and idle threads);
    auto-recall keeps one for the process, behind a lock."""

    def __init__(
        self,
        paths: Paths | None = None,
        *,
        python: str | None = None,
        log: Logger | None = None,
        scope: str | None = None,
    ) -> None:
        self.paths = paths or resolve_paths()
        self.scope = scope  # the helper's --scope (written by `recollect install opencode --scope`)
        self.python = python or sys.executable
        self.log = log or Logger(self.paths.log_dir / LOG_NAME)
        self._config_key: tuple[float, int] | None = None
        self._config: Config | None = None
        self._app: Recollect | None = None  # the process's app, for the config loaded
        self._settings = PluginSettings()
        self._spaces: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._config_lock = threading.RLock()
        self._last_sync = 0.0
        self._sync_proc: subprocess.Popen[bytes] | None = None
        self._sync_timer: threading.Timer | None = None
        self._last_extract: dict[str, float] = {}
        self._extract_available: bool | None = None
        self._deferred: list[threading.Thread] = []  # extractions waiting for a sync (`finish` joins them)
        self.bridged = idlework.Bridged()  # extractions given OpenCode's address: it must live (hookd's drain)
        self.spawned: list[list[str]] = []  # every command line started (tests read it)
        self._executor: ThreadPoolExecutor | None = None
        # Auto-recall's app and its index connection, kept across messages (opening one and its term
        # statistics view costs more than the search), reopened when the index file is replaced.
        self._index: tuple[tuple[str, int, int], Recollect] | None = None
        self._index_lock = threading.Lock()
        self._own: dict[str, list[str]] = {}  # session id -> its qualified ids (history.own_session)

    # --- config ----------------------------------------------------------------------------

    def _refresh(self) -> None:
        with self._config_lock:  # the recall thread and the read loop both ask
            self._refresh_locked()

    def _refresh_locked(self) -> None:
        try:
            st = self.paths.config_file.stat()
            key: tuple[float, int] | None = (st.st_mtime, st.st_size)
        except OSError:
            key = None
        if self._config is not None and key == self._config_key:
            return
        self._config_key = key
        self._app = None  # built on first use from the new config (not before hello: app imports the index)
        self._spaces.clear()
        self._own.clear()
        try:
            self._config = load_config(self.paths)
            self._settings, warnings = PluginSettings.from_config(self._config)
        except ConfigError as exc:
            self._config = None
            self._settings, warnings = PluginSettings(), [f"config: {exc}"]
        for warning in warnings:
            self.log(warning)

    @contextlib.contextmanager
    def _call_app(self) -> Iterator[Recollect]:
        """This call's own `Recollect`: the helper's config, its own index connection, closed after."""
        from recollect.app import Recollect

        with self._config_lock:
            self._refresh_locked()
            if self._app is None and self._config is not None:
                self._app = Recollect(self._config)
            process = self._app
        # A config that cannot be read raises here (ConfigError), as ceiling() does.
        with process.for_call() if process is not None else Recollect(load_config(self.paths)) as app:
            yield app

    @property
    def settings(self) -> PluginSettings:
        self._refresh()
        return self._settings

    def _space(self, directory: str) -> Any:
        from recollect.memory import MemorySettings, open_memory

        self._refresh()
        space = self._spaces.get(directory)
        if space is None:
            section = self._config.section("memory") if self._config else {}
            # auto_extract belongs to this integration, not to MemorySettings.
            section = {k: v for k, v in section.items() if k != "auto_extract"}
            try:
                settings = MemorySettings.from_section(section)
            except ConfigError as exc:
                self.log(f"[memory] settings ignored: {exc}")
                settings = MemorySettings()
            space = open_memory(Path(directory), paths=self.paths, settings=settings)
            self._spaces[directory] = space
        return space

    def ceiling(self, directory: str) -> Ceiling:
        """The operator's ceiling for a request from `directory` (the directory OpenCode names for
        the session): the helper's --scope and the config's [scope] ceiling, the narrower winning.
        Every verb that reads history builds its filters with it (search/ceiling.py)."""
        # history is loaded by then: every caller reads history with the ceiling
        from recollect.history import ceiling_from_config, ceiling_from_option, narrowest_ceiling

        self._refresh()
        option = ceiling_from_option(
            self.scope,
            directory,
            setter=f"'recollect install opencode --scope {self.scope}' (the plugin helper's --scope)",
            fix="re-run 'recollect install opencode' with a wider --scope and restart OpenCode",
        )
        # A config that cannot be read raises here (ConfigError): its ceiling is unknown, so fail closed.
        config = self._config or load_config(self.paths)
        return narrowest_ceiling(option, ceiling_from_config(config, directory))

    # --- hooks -----------------------------------------------------------------------------

    def injection(self, directory: str) -> str:
        """The standing memory block (memory/inject.py): the same bytes until its memories change."""
        if not self.settings.inject:
            return ""
        from recollect.memory import standing_block

        return standing_block(self._space(directory))

    def turn_injection(self, directory: str, text: str, standing: str) -> str:
        """The memory bodies for this message, within what `standing` left of the budget."""
        if not self.settings.inject or not text.strip():
            return ""
        from recollect.memory import turn_block

        return turn_block(self._space(directory), text, standing=standing)

    def recall_block(
        self, session: str, directory: str, text: str, message: str = "", cue: str | None = None
    ) -> tuple[str, str | None]:
        """(block, cue). The block is empty without a cue, or when no earlier session answers well
        enough (integrations/autorecall.py). `message` is the id of the message being answered: it is
        never a candidate, even when the idle sync already indexed it. `cue`: already detected by the caller."""
        if not self.settings.auto_recall:
            return "", None
        cue = cue or detect_cue(text)
        if cue is None:
            return "", None
        units = message_units(text)  # computed once: `find` looks for the same words
        if not units:
            return "", cue  # a cue and nothing else ("上次呢?"; its particle and "?" are no words): nothing to look for
        from recollect import history
        from recollect.history import Filters, IndexUnavailable

        ceiling = self.ceiling(directory)
        config = self._config or load_config(self.paths)
        try:
            with self._index_lock:
                conn = self._recall_index(config)
                if session and session not in self._own:
                    # The session asking and its family, in its own store only (not by raw id in every store).
                    self._own[session] = history.own_session(session, config) or [session]
                filters = history.scoped(  # the hides of this helper's config, not of the default data dir
                    Filters(
                        scope=ceiling.narrow("project"),
                        directory=directory,
                        exclude_sessions=autorecall.family(conn, self._own[session] if session else []),
                        exclude_messages=[message] if message else [],
                        ceiling=ceiling,
                    ),
                    config,
                )
                entries = autorecall.find(conn, text, filters, encoder=self.card_encoder, units=units)
        except IndexUnavailable as exc:
            self.log(f"auto-recall skipped: {exc}")
            return "", cue
        if entries and filters.project_root:
            autorecall.file_freshness(filters.project_root, entries)
        return autorecall.format_block(cue, entries, directory), cue

    def card_encoder(self) -> Any:
        """The card encoder of the index `recall_block` opened (auto-recall's meaning), or None."""
        return self._index[1].card_encoder if self._index else None

    def _recall_index(self, config: Config) -> sqlite3.Connection:
        from recollect.app import Recollect
        from recollect.history import IndexUnavailable

        path = config.index_path
        try:
            st = path.stat()
        except OSError as exc:
            raise IndexUnavailable(f"no index yet at {path}; run 'recollect index' first") from exc
        key = (str(path), st.st_ino, st.st_dev)
        if self._index is not None and self._index[0] != key:
            self._index[1].close()
            self._index = None
        if self._index is None:
            self._index = (key, Recollect(config))
        with self._index[1].index() as conn:
            return conn

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recollect-recall")
        return self._executor

    def ours(self, directory: str) -> bool:
        """A directory of recollect's own (the extractor's worker sessions run under the data dir):
        nothing is injected there and no idle work starts, so a worker never sees or feeds itself."""
        try:
            return Path(directory).resolve().is_relative_to(self.paths.data_dir.resolve())
        except (OSError, ValueError):
            return False

    def on_message(self, session: str, directory: str, text: str, message: str = "") -> dict[str, Any]:
        out: dict[str, Any] = {"inject": "", "turn": "", "recall": "", "cue": None}
        if self.ours(directory):
            return out
        errors: list[str] = []
        # A cue means a history search (SQLite, which releases the GIL) next to the injection
        # (pure Python): run them side by side, so the message waits for the slower one only.
        pending = None
        cue = detect_cue(text) if self.settings.auto_recall else None
        if cue:
            pending = self._pool().submit(self.recall_block, session, directory, text, message, cue)
        try:
            out["inject"] = self.injection(directory)
            out["turn"] = self.turn_injection(directory, text, out["inject"])
        except Exception as exc:  # one failing tier must not cost the other
            errors.append(f"inject: {type(exc).__name__}: {exc}")
            self.log(f"message {session}: injection failed:\n{''.join(traceback.format_exception(exc))}")
        if pending is not None:
            try:
                out["recall"], out["cue"] = pending.result()
            except Exception as exc:
                errors.append(f"recall: {type(exc).__name__}: {exc}")
                self.log(f"message {session}: recall failed:\n{''.join(traceback.format_exception(exc))}")
        if errors:
            out["errors"] = errors
            for e in errors:
                self.log(f"message {session}: {e}")
        return out

    def on_system(self, directory: str) -> dict[str, Any]:
        return {"inject": "" if self.ours(directory) else self.injection(directory)}

    def on_compact(self, session: str, directory: str, text: str = "") -> dict[str, Any]:
        if not self.settings.compaction_recall or self.ours(directory):
            return {"context": []}
        from recollect import history
        from recollect.history import Filters
        from recollect.memory import recall

        lines: list[str] = []
        query = text
        # Only this session's card, and only inside the ceiling: any other id is refused.
        ceiling = self.ceiling(directory)
        with self._call_app() as app:
            found = history.sessions(
                Filters(scope="session", sessions=[session], directory=directory, ceiling=ceiling),
                limit=1,
                app=app,
                sync_first=False,
            )
        if found:
            card = found[0]
            lines.append(f"This session: {autorecall.one_line(card.title, 120)!r} in {card.directory}")
            if card.first_human:
                lines.append(f"- started with: {autorecall.one_line(card.first_human, 240)}")
            if card.last_outcome:
                lines.append(f"- last outcome: {autorecall.one_line(card.last_outcome, 240)}")
            if card.tools:
                lines.append(f"- tools used: {autorecall.one_line(card.tools, 160)}")
            query = f"{card.title} {card.first_human} {text}"
        memories = recall(self._space(directory), query, limit=5, record_hits=False) if query.strip() else []
        if memories:
            lines.append("Curated memories that bear on it (ids are stable; cite them):")
            for m in memories:
                highlight = f" — {autorecall.one_line(m.memory.highlight, 120)}" if m.memory.highlight else ""
                lines.append(f"- {m.memory.qualified_id}: {autorecall.one_line(m.memory.summary, 200)}{highlight}")
        if not lines:
            return {"context": []}
        block = "\n".join([CONTEXT_TAG, "Preserve in the summary if still true (from recollect):", *lines, CONTEXT_END])
        return {"context": [block]}

    def on_idle(self, session: str, directory: str, server_url: str = "") -> dict[str, Any]:
        settings = self.settings
        started: list[str] = []
        if self.ours(directory):
            return {"started": started}
        if settings.sync_on_idle and self._sync(settings.idle_sync_seconds):
            started.append("index")
        out: dict[str, Any] = {"started": started}
        if settings.auto_extract and session:
            refused = self._outside_ceiling(session, directory)
            if refused:
                out["refused"] = refused
            elif self._extract(session, directory, server_url, settings.extract_interval_seconds):
                started.append("extract")
        return out

    # --- idle work -------------------------------------------------------------------------

    def _outside_ceiling(self, session: str, directory: str) -> str:
        """Why `session` may not be read from `directory` under the ceiling, or '' (a session the
        index does not hold yet is the one OpenCode just ran there: nothing to refuse)."""
        from recollect import history
        from recollect.history import Filters, ScopeCeilingError

        ceiling = self.ceiling(directory)
        if ceiling.unbounded:
            return ""
        try:
            with self._call_app() as app:
                history.sessions(
                    Filters(scope="session", sessions=[session], directory=directory, ceiling=ceiling),
                    limit=1,
                    app=app,
                    sync_first=False,
                )
        except ScopeCeilingError as exc:
            self.log(f"extract {session}: refused: {exc}")
            return str(exc)
        return ""

    def _spawn(
        self, args: list[str], cwd: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        # The idle sync goes through idlework's lock, so the helpers of many OpenCode processes
        # finishing at once run one or two syncs of the index between them, and lose no request.
        cmd = [
            self.python,
            "-m",
            *(["recollect.integrations.idlework", "sync"] if args == ["index"] else ["recollect.cli", *args]),
        ]
        log = open(self.paths.log_dir / "opencode-background.log", "ab")  # noqa: SIM115 - handed to the child
        try:
            # Detached: a Ctrl-C in OpenCode's terminal must not kill a sync half-way.
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=cwd if cwd and os.path.isdir(cwd) else None,
                env={**os.environ, **(env or {})},
                start_new_session=True,
            )
        finally:
            log.close()
        self.spawned.append(cmd)
        self.log(f"started {' '.join(args)} (pid {proc.pid})")
        return proc

    def _sync(self, interval: float) -> bool:
        """Start `recollect index` unless one runs or ran within `interval`; then schedule one
        trailing run, so the last idle of a burst is still indexed."""
        with self._lock:
            now = time.monotonic()
            running = self._sync_proc is not None and self._sync_proc.poll() is None
            if not running and now - self._last_sync >= interval:
                self._last_sync = now
                self._sync_proc = self._spawn(["index"])
                return True
            if self._sync_timer is None:
                wait = max(interval - (now - self._last_sync), 1.0)
                self._sync_timer = threading.Timer(wait, self._trailing_sync, args=(interval,))
                self._sync_timer.daemon = True
                self._sync_timer.start()
            return False

    def _trailing_sync(self, interval: float) -> None:
        with self._lock:
            self._sync_timer = None
        self._sync(interval)

    def extract_available(self) -> bool:
        """`recollect extract` is another feature; use it only when this install has it."""
        if self._extract_available is None and self.python == sys.executable:
            # This very install: look for the command's module instead of starting a Python to ask
            # (that probe cost a whole CLI start, ~0.3 s of CPU, at the first idle of every OpenCode run).
            import importlib.util

            self._extract_available = importlib.util.find_spec("recollect.cli.extract") is not None
            if not self._extract_available:
                self.log("auto_extract is on but this recollect has no 'extract' command; skipped")
        if self._extract_available is None:
            try:
                r = subprocess.run(
                    [self.python, "-m", "recollect.cli", "extract", "--help"],
                    capture_output=True,
                    timeout=30,
                    stdin=subprocess.DEVNULL,
                )
                self._extract_available = r.returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                self._extract_available = False
            if not self._extract_available:
                self.log("auto_extract is on but this recollect has no 'extract' command; skipped")
        return self._extract_available

    def _extract(self, session: str, directory: str, server_url: str, interval: float) -> bool:
        """Start `recollect extract --session` (once per `interval` per session) unless the index says
        the session has fewer turns than the extractor reads (most `opencode run` sessions): that
        run would only decide to skip it, for ~0.5 s of CPU. A sync under way is waited for first, off
        this thread, so the count includes the turns that just ended."""
        now = time.monotonic()
        with self._lock:
            if now - self._last_extract.get(session, -interval) < interval:
                return False
            self._last_extract[session] = now
            sync = self._sync_proc if self._sync_proc is not None and self._sync_proc.poll() is None else None
        if not self.extract_available():
            return False
        if sync is None:
            return self._extract_if_enough(session, directory, server_url)
        thread = threading.Thread(
            target=self._extract_after, args=(sync, session, directory, server_url), name="recollect-extract"
        )
        thread.start()
        self._deferred.append(thread)
        self.bridged.add(session, thread, server_url)
        return True

    def _extract_after(self, sync: subprocess.Popen[bytes], session: str, directory: str, server_url: str) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            sync.wait(idlework.EXTRACT_WAIT_SECONDS)
        try:
            self._extract_if_enough(session, directory, server_url)
        except Exception as exc:  # a thread of its own: report, never raise into nothing
            self.log(f"extract {session}: {type(exc).__name__}: {exc}")

    def _extract_if_enough(self, session: str, directory: str, server_url: str) -> bool:
        turns = idlework.session_turns((self._config or load_config(self.paths)).index_path, session)
        needed = idlework.min_turns(self._config)
        if turns is not None and needed is not None and turns < needed:
            with self._lock:
                self._last_extract.pop(session, None)  # a later idle, with more turns, asks again
            self.log(f"extract {session}: not started, {turns} turns indexed, fewer than min_turns ({needed})")
            return False
        # The extractor can ask this very OpenCode server for a model (extract/settings.py).
        env = {EXTRACT_URL_ENV: server_url} if server_url.startswith(("http://", "https://")) else None
        self.bridged.add(session, self._spawn(["extract", "--session", session], cwd=directory, env=env), server_url)
        return True

    def finish(self, timeout: float) -> None:
        """Wait (up to `timeout` s) for extractions deferred behind a sync: the helper's stdin closes as
        soon as `opencode run` exits, and the session it ran must still be read."""
        deadline = time.monotonic() + timeout
        for thread in self._deferred:
            thread.join(max(deadline - time.monotonic(), 0.0))

    def close(self) -> None:
        if self._index is not None:
            self._index[1].close()
            self._index = None
        if self._sync_timer is not None:
            self._sync_timer.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False)
