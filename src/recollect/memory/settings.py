"""The `[memory]` section of the config file, validated into one frozen object.

Owns the defaults (the seed's: 4 bodies under 1,200 characters, a 14-day half-life, five
categories). It never reads files itself; `recollect.config.load_config` does.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from recollect.config import ConfigError

DEFAULT_CATEGORIES = ("rules", "preferences", "decisions", "pitfalls", "facts")
RULES_CATEGORY = "rules"


# Keys of the [memory] section that other layers own (the seed puts them there): accepted, not used here.
OTHER_LAYERS_KEYS = frozenset({"auto_extract", "autoExtract", "min_turns", "minTurns", "extract_model", "extractModel"})


@dataclass(frozen=True)
class MemorySettings:
    categories: tuple[str, ...] = DEFAULT_CATEGORIES
    half_life_days: float = 14.0  # 0 disables time decay
    max_inject_entries: int = 4
    max_inject_chars: int = 1200  # budget for the bodies tier of the injection block
    max_outline_chars: int = 2000  # the outline is "cheap" only while it is bounded
    # Everything memory injection adds to one model request: hard rules, goals, outline and bodies,
    # their frames included (memory/inject.py). What it cuts is said in the block.
    max_injected_chars: int = 4000
    recall_limit: int = 5
    # Jaccard similarity of distinct terms at or above which a new memory counts as a duplicate
    # of an existing one, or as a re-creation of a forgotten one.
    similarity_threshold: float = 0.8
    # When true, everything a model remembers waits for review, not only rules.
    review_model_memories: bool = False
    # Recall and injection notice a file edited in place by hand within this many seconds; a full
    # stat of every file costs ~10-60 ms at 10,000 memories. Creating, deleting or renaming a file
    # (every write of ours) is noticed at once, and list/show/inspect/compile/writes always stat all.
    rescan_seconds: float = 10.0

    @classmethod
    def from_section(cls, section: dict[str, Any]) -> MemorySettings:
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in section.items():
            if key in OTHER_LAYERS_KEYS:
                continue  # read by the extractor and the plugin, not by memory itself
            if key not in known:
                raise ConfigError(f"[memory] {key!r} is not a setting; known: {', '.join(sorted(known))}")
            default = getattr(cls, key)
            if key == "categories":
                if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                    raise ConfigError("[memory] categories must be a list of names, e.g. ['rules', 'facts']")
                values[key] = tuple(dict.fromkeys(value))
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ConfigError(f"[memory] {key} must be true or false")
                values[key] = value
            elif isinstance(default, int | float):
                if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                    raise ConfigError(f"[memory] {key} must be a number >= 0")
                values[key] = type(default)(value)
        settings = cls(**values)
        if not 0 < settings.similarity_threshold <= 1:
            raise ConfigError("[memory] similarity_threshold must be in (0, 1]")
        return settings
