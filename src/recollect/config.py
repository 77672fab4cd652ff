"""Where recollect keeps its files, and the config file that names sources and settings.

Defaults follow XDG: config under `$XDG_CONFIG_HOME/recollect/`, the index and caches under
`$XDG_DATA_HOME/recollect/`. `RECOLLECT_HOME` puts everything of ours (config, index, global
memory, caches) under one directory; tests and benchmarks rely on it.

The config file is TOML (`config.toml`), optional, and read-only to us: we never rewrite a
person's file. Unknown keys are kept in `Config.raw` for the layers that own them.
"""

from __future__ import annotations

import os
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from recollect.errors import RecollectError

CONFIG_NAME = "config.toml"


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value).expanduser() if value else None


def xdg_dir(env: str, fallback: str) -> Path:
    return _env_path(env) or Path.home() / fallback


@dataclass(frozen=True)
class Paths:
    config_dir: Path
    data_dir: Path
    cache_dir: Path

    @property
    def config_file(self) -> Path:
        return self.config_dir / CONFIG_NAME

    @property
    def default_index(self) -> Path:
        return self.data_dir / "index.db"

    @property
    def global_memory(self) -> Path:
        return self.config_dir / "memory"

    @property
    def log_dir(self) -> Path:
        return self.data_dir / "log"


def resolve_paths() -> Paths:
    home = _env_path("RECOLLECT_HOME")
    if home is not None:
        return Paths(config_dir=home, data_dir=home, cache_dir=home / "cache")
    return Paths(
        config_dir=xdg_dir("XDG_CONFIG_HOME", ".config") / "recollect",
        data_dir=xdg_dir("XDG_DATA_HOME", ".local/share") / "recollect",
        cache_dir=xdg_dir("XDG_CACHE_HOME", ".cache") / "recollect",
    )


# The widest scopes an operator may set as a ceiling ([scope] ceiling, `mcp --scope`, `install --scope`),
# widest first; search/ceiling.py enforces them. Here so the CLI's options can name them too.
SCOPE_CEILINGS = ("all", "project", "directory")

# The subagent `recollect install opencode` writes (agent/recall.md). The indexer knows its runs by
# this name (text/markers.py); here, a foundation, so the installer can name it without the text layer.
RECALL_AGENT = "recall"


class ConfigError(RecollectError):
    """The config file cannot be used; the message names the file and the fix."""


@dataclass
class SourceEntry:
    id: str
    kind: str
    path: Path
    enabled: bool = True


@dataclass
class Config:
    paths: Paths
    index_path: Path
    sources: list[SourceEntry] = field(default_factory=list)
    # Auto-discovery per source kind; a kind set to false here is never discovered.
    discover: dict[str, bool] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)
    # "section.key" -> "env NAME" for each value an environment variable set (`recollect config show`).
    origins: dict[str, str] = field(default_factory=dict)

    def section(self, name: str) -> dict[str, Any]:
        value = self.raw.get(name, {})
        return value if isinstance(value, dict) else {}


def load_config(paths: Paths | None = None) -> Config:
    paths = paths or resolve_paths()
    raw: dict[str, Any] = {}
    if paths.config_file.is_file():
        try:
            raw = tomllib.loads(paths.config_file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{paths.config_file}: not valid TOML ({exc}); fix or remove the file") from exc

    origins = _apply_env(raw)
    index_value = raw.get("index", {}).get("path") if isinstance(raw.get("index"), dict) else None
    if "index.path" in origins:  # RECOLLECT_INDEX: a path as a shell gives it (empty: the default)
        index_path = Path(str(index_value)).expanduser() if index_value else paths.default_index
    elif index_value is not None:  # written in the file: 0, false or "" is a mistake, not the default
        index_path = _file_path(paths.config_file, "[index] path", index_value)
    else:
        index_path = paths.default_index

    sources: list[SourceEntry] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw.get("source", []) or []):
        if not isinstance(entry, dict) or not entry.get("kind") or not entry.get("path"):
            raise ConfigError(f"{paths.config_file}: [[source]] #{i + 1} needs at least 'kind' and 'path'")
        source_id = str(entry.get("id") or entry["kind"])
        if not source_id.replace("_", "").replace("-", "").isalnum():
            raise ConfigError(f"{paths.config_file}: source id {source_id!r} may contain only letters, digits, _ and -")
        if source_id in seen:
            raise ConfigError(f"{paths.config_file}: source id {source_id!r} is used twice; ids must be unique")
        seen.add(source_id)
        sources.append(
            SourceEntry(
                id=source_id,
                kind=str(entry["kind"]),
                path=_file_path(paths.config_file, f"[[source]] {source_id!r} path", entry["path"]),
                enabled=bool(entry.get("enabled", True)),
            )
        )

    discover_raw = raw.get("sources", {})
    discover = {str(k): bool(v) for k, v in discover_raw.items()} if isinstance(discover_raw, dict) else {}
    # RECOLLECT_SOURCES=opencode,claude-code limits discovery to those kinds (isolated runs, tests).
    only = os.environ.get("RECOLLECT_SOURCES")
    if only is not None:
        wanted = {k.strip() for k in only.split(",") if k.strip()}
        discover = {kind: kind in wanted for kind in {*discover, *wanted, *_KNOWN_KINDS}}
        sources = [s for s in sources if s.kind in wanted]
    return Config(paths=paths, index_path=index_path, sources=sources, discover=discover, raw=raw, origins=origins)


def _file_path(config_file: Path, name: str, value: Any) -> Path:
    """A path written in the config file: `~` is the home dir, and a relative path is taken from the
    file's own directory (not from wherever a command happens to run)."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{config_file}: {name} must be a path in quotes, not {value!r}; fix it in the file")
    path = Path(value).expanduser()
    return path if path.is_absolute() else config_file.parent / path


# Environment variables that override one option of the file (CI, MCP, one-off runs).
ENV_OVERRIDES: dict[str, tuple[str, str]] = {
    "RECOLLECT_INDEX": ("index", "path"),
    "RECOLLECT_EMBEDDINGS": ("embeddings", "enabled"),  # off / 0 / false / no
    "RECOLLECT_EMBEDDINGS_PROVIDER": ("embeddings", "provider"),
    "RECOLLECT_EMBEDDINGS_MODEL": ("embeddings", "model"),
    "RECOLLECT_EMBEDDINGS_URL": ("embeddings", "url"),
}


def _apply_env(raw: dict[str, Any]) -> dict[str, str]:
    """Put each set override into `raw` (a section the file holds is copied, never edited in place)."""
    origins: dict[str, str] = {}
    for env, (section, key) in ENV_OVERRIDES.items():
        value = os.environ.get(env, "").strip()
        if not value:
            continue
        if env == "RECOLLECT_EMBEDDINGS":
            if value.lower() not in ("0", "off", "false", "no"):
                continue
            parsed: Any = False
        else:
            parsed = value
        current = raw.get(section)
        raw[section] = {**(current if isinstance(current, dict) else {}), key: parsed}
        origins[f"{section}.{key}"] = f"env {env}"
    return origins


_KNOWN_KINDS = ("opencode", "claude-code", "codex", "gemini")


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and the parents it lacks) readable by the owner only, whatever the umask.

    `mkdir(mode=...)` is masked by the umask and leaves missing parents at the default mode, so each
    folder created here is chmod-ed; `path` itself is made owner-only even if it already existed."""
    missing = []
    current = path
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue  # another process made it meanwhile
        os.chmod(folder, 0o700)
    if path.is_dir() and path.stat().st_uid == os.getuid() and path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def lock_within(file: int | IO[Any], seconds: float) -> bool:
    """Take an exclusive advisory lock (flock) on `file` (a descriptor or an open file), trying again
    every 0.1 s for up to `seconds`; False when another process still holds it by then. For the locks
    kept beside our files (the extraction lock, the idle sync's); POSIX only."""
    import fcntl

    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)
