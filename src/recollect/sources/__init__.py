"""Source adapters, one module per agent store. Importing this package registers the built-ins."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from recollect.config import Config, ConfigError
from recollect.sources import claude_code, codex, gemini
from recollect.sources import opencode as _opencode
from recollect.sources.base import DISCOVERERS, FACTORIES, Source, SourceSpec, open_source, register

# Built-in sources register themselves on import, exactly as a third-party one would.
BUILTIN = (claude_code, codex, gemini, _opencode)

__all__ = ["Source", "SourceSpec", "configured_specs", "open_source", "register"]


def configured_specs(config: Config) -> list[SourceSpec]:
    """Sources to read: those listed in the config, then discovered ones for kinds not listed.

    `OPENCODE_DB` wins over configured OpenCode sources, as it does for OpenCode itself.
    """
    env_db = bool(os.environ.get("OPENCODE_DB"))
    specs: list[SourceSpec] = []
    listed_kinds: set[str] = set()
    for entry in config.sources:
        if entry.kind == _opencode.KIND and env_db:
            continue
        listed_kinds.add(entry.kind)
        specs.append(SourceSpec(id=entry.id, kind=entry.kind, path=entry.path, enabled=entry.enabled))
    taken = {s.id for s in specs}
    for kind, discover in DISCOVERERS.items():
        if kind in listed_kinds or not config.discover.get(kind, True):
            continue
        for spec in discover():
            if spec.id not in taken:
                taken.add(spec.id)
                specs.append(spec)
    return canonical_specs([s for s in specs if s.kind in FACTORIES], config)


def canonical_specs(specs: list[SourceSpec], config: Config) -> list[SourceSpec]:
    """Each source's path with symlinks resolved; two sources naming one store, or an index that is a
    store, are refused (an alias would index every session twice; the index must never be a store)."""
    index = config.index_path.expanduser().resolve()
    seen: dict[Path, str] = {}
    out: list[SourceSpec] = []
    for spec in specs:
        path = spec.path.expanduser().resolve()
        if path == index or (index.is_relative_to(path) and path.is_dir()):
            raise ConfigError(
                f"the index path {config.index_path} is the store of source {spec.id!r} ({path}); recollect never "
                f"writes a store: set [index] path in {config.paths.config_file} to another file"
            )
        if spec.enabled and path in seen:
            raise ConfigError(
                f"sources {seen[path]!r} and {spec.id!r} name the same store ({path}); remove one of them from "
                f"{config.paths.config_file}"
            )
        if spec.enabled:
            seen[path] = spec.id
        out.append(replace(spec, path=path))
    return out
