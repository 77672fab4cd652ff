"""`doctor`: what recollect found and what is wrong, without changing anything."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recollect.config import Config, ConfigError, load_config
from recollect.history.access import open_index
from recollect.index import queries, store
from recollect.index.batches import REFUSED
from recollect.sources import SourceSpec, configured_specs
from recollect.text.plain import counted, megabytes
from recollect.times import iso


@dataclass
class Diagnosis:
    config_file: str
    config_exists: bool
    index_path: str
    index_exists: bool
    sources: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    index_sessions: int = 0
    index_bytes: int = 0
    semantic: dict[str, Any] = field(default_factory=dict)  # search by meaning: factory.semantic_state

    @property
    def index_size(self) -> str:
        """The index as `recollect doctor` and the Health page both say it: '12 sessions, 6.1 MB'."""
        return f"{counted(self.index_sessions, 'session')}, {megabytes(self.index_bytes)}"


def doctor(config: Config | None = None) -> Diagnosis:
    """What recollect found and what is wrong, without changing anything."""
    config = config or load_config()
    diagnosis = Diagnosis(
        config_file=str(config.paths.config_file),
        config_exists=config.paths.config_file.exists(),
        index_path=str(config.index_path),
        index_exists=config.index_path.exists(),
    )
    from recollect.configfile import unknown_options

    for unknown in unknown_options(config):
        diagnosis.problems.append(
            f"{diagnosis.config_file}: {unknown} is no option recollect reads (misspelt?); "
            "'recollect config show' lists every option"
        )
    try:
        configured_specs(config)
    except ConfigError as exc:  # two sources naming one store, or the index is a store: nothing else is safe
        diagnosis.problems.append(str(exc))
        return diagnosis
    recorded: dict[str, tuple[Any, ...]] = {}
    bad: dict[tuple[str, bool], tuple[int, str]] = {}  # sessions a sync could not read or store, per source
    stored: dict[str, int] = {}  # sessions in the index, per source (a first index stopped midway has no record)
    empty: dict[str, int] = {}  # files a sync left out as no session, per source
    most: dict[str, str] = {}  # the session holding most malformed records, per source
    if diagnosis.index_exists:
        try:
            with open_index(config, readonly=True) as conn:
                diagnosis.index_sessions = queries.session_count(conn)
                recorded.update(queries.source_states(conn))
                bad.update(queries.bad_sessions(conn, REFUSED))
                empty.update(queries.not_sessions(conn))
                most.update(queries.malformed_most(conn))
                stored.update(conn.execute("SELECT source_id, count(*) FROM session GROUP BY source_id").fetchall())
            diagnosis.index_bytes = sum(  # the database, its WAL, and the vector matrices kept beside it
                f.stat().st_size
                for p in config.index_path.parent.glob(config.index_path.name + "*")
                for f in ([p] if p.is_file() else p.rglob("*"))
                if f.is_file()
            )
        except store.IndexUnavailable as exc:
            diagnosis.problems.append(str(exc))
    specs: list[SourceSpec] = configured_specs(config)
    if not specs:
        diagnosis.problems.append(
            f"no session store found (looked for {_where_stores_are()}): run your agent once, set OPENCODE_DB, "
            f"or list a store under [[source]] in {diagnosis.config_file}"
        )
    state = _IndexState(recorded, bad, stored, empty, most)
    for spec in specs:
        diagnosis.sources.append(_source_entry(spec, state, diagnosis.problems))
    try:
        from recollect.embed import factory  # on use: the CLI start-up never imports the embed package

        diagnosis.semantic = factory.semantic_state(config)
    except Exception as exc:  # doctor must report, never crash
        diagnosis.semantic = {"status": "broken", "problems": [f"search by meaning cannot be checked: {exc}"]}
    diagnosis.problems.extend(diagnosis.semantic.get("problems", []))
    return diagnosis


@dataclass
class _IndexState:
    """What the index says of each source: its last sync's record, its sessions it could not read or
    store (keyed by source id and whether the index refused them), its sessions."""

    recorded: dict[str, tuple[Any, ...]]
    bad: dict[tuple[str, bool], tuple[int, str]]
    stored: dict[str, int]
    empty: dict[str, int]
    malformed: dict[str, str]  # the session holding most malformed records, per source ('id: n')


def _source_entry(spec: SourceSpec, state: _IndexState, problems: list[str]) -> dict[str, Any]:
    """doctor's entry for one source; what is wrong with it goes to `problems`."""
    entry: dict[str, Any] = {
        "id": spec.id,
        "kind": spec.kind,
        "path": str(spec.path),
        "enabled": spec.enabled,
        "discovered": spec.discovered,
        "exists": spec.path.exists(),
    }
    reported = False  # the last sync's message already names this source's problem
    if spec.id in state.recorded:
        _, status, message, count, malformed, synced = state.recorded[spec.id]
        entry.update(
            status=status,
            message=message or "",
            indexed_sessions=count,
            malformed=malformed,
            synced=iso(synced or 0),
        )
        if state.empty.get(spec.id):
            entry["not_sessions"] = state.empty[spec.id]
        if malformed and state.malformed.get(spec.id):
            entry["malformed_most"] = state.malformed[spec.id]
        if status not in ("ok", None):
            problems.append(f"{spec.id}: {message}")
            reported = True
        # Said as the sync says it: a record the source could not read, or rows the index refused.
        for refused, said, key in (
            (True, "refused by the index, so skipped", "refused_sessions"),
            (False, "skipped as unreadable", "bad_sessions"),
        ):
            if (spec.id, refused) in state.bad:
                count, first = state.bad[spec.id, refused]
                entry[key] = count
                problems.append(
                    f"{spec.id}: {said} until changed: {counted(count, 'session')} "
                    f"(first: {first.replace(REFUSED, '', 1)}); the rest of the store is indexed"
                )
    elif state.stored.get(spec.id):
        entry.update(status="partly indexed", indexed_sessions=state.stored[spec.id])
        problems.append(
            f"{spec.id}: the first index of this store stopped before it finished ({state.stored[spec.id]} sessions "
            "stored); run 'recollect index' to finish it"
        )
    else:
        entry.update(status="not indexed yet")
    if not spec.path.exists() and spec.enabled and not reported:
        problems.append(f"{spec.id}: store not found at {spec.path}")
    return entry


def _where_stores_are() -> str:
    """Where each agent keeps its sessions, as discovery looks for them (with ~ for the home dir)."""
    from recollect.config import xdg_dir
    from recollect.sources import claude_code, codex, gemini

    def short(path: Path) -> str:
        home = Path.home()
        return "~/" + str(path.relative_to(home)) if path.is_relative_to(home) else str(path)

    claude = " or ".join(short(d / "projects") for d in claude_code.config_dirs())
    return (
        f"OpenCode's opencode*.db in {short(xdg_dir('XDG_DATA_HOME', '.local/share') / 'opencode')}, "
        f"Claude Code in {claude}, Codex in {short(codex.codex_home() / 'sessions')}, "
        f"Gemini CLI in {short(gemini.gemini_dir() / 'tmp')}"
    )
