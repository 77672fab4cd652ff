"""Source adapters, one module per agent store. Importing this package registers the built-ins."""

from __future__ import annotations

import os

from recollect.config import Config
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
    return [s for s in specs if s.kind in FACTORIES]
