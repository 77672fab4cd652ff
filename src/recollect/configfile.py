"""The config file as people see it: every option with its default, written on first use, and the
values in force with where each came from (default, file, or environment).

`config.py` reads the file; this module knows every option. The option list is built from the
settings objects that own them (`MemorySettings`, `ExtractSettings`, the plugin's settings), so a
new setting appears here without a second list to keep in step. It creates the file only when
there is none: a person's file is never rewritten.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recollect.config import ENV_OVERRIDES, Config, Paths, ensure_private_dir, load_config, resolve_paths
from recollect.errors import RecollectError

HEADER = """\
# recollect's config file. Every option is listed at its default, commented out: uncomment a line
# to change it. `recollect config show` prints the values in force and where each one came from
# (default, this file, or an environment variable). Written once, on first use; recollect never
# rewrites it. Reference: docs/cli.md ("Configuration").
"""


@dataclass(frozen=True)
class Option:
    section: str
    key: str
    default: Any
    help: str = ""

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"

    @property
    def env(self) -> str | None:
        return next(
            (env for env, (section, key) in ENV_OVERRIDES.items() if (section, key) == (self.section, self.key)), None
        )


SECTION_HELP = {
    "index": "The index: derived data read from your agents' stores, safe to delete (the next index rebuilds it).",
    "embeddings": "Search by meaning. The default model ships with recollect; nothing is downloaded.",
    "sources": "Automatic discovery of each agent's store; set a kind to false to leave it out.",
    "scope": "The widest history scope agents may see (all, project, directory); they can narrow it, never widen it.",
    "memory": "Curated memory: recall and injection budgets, and automatic extraction of proposals.",
    "extract": "How memories (and summaries) are proposed from finished sessions by a model you choose.",
    "opencode": "The OpenCode plugin: each piece can be turned off on its own.",
}


def _from_settings(section: str, cls: type, skip: tuple[str, ...] = ()) -> list[Option]:
    out = []
    for f in dataclasses.fields(cls):
        if f.name in skip:
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        out.append(Option(section, f.name, list(default) if isinstance(default, tuple) else default))
    return out


def options(paths: Paths | None = None) -> list[Option]:
    """Every option of config.toml, with its default."""
    from recollect.extract.settings import ExtractSettings
    from recollect.integrations.hooks import PluginSettings
    from recollect.memory.settings import MemorySettings
    from recollect.search.ceiling import CONFIG_KEY, CONFIG_SECTION

    paths = paths or resolve_paths()
    return [
        Option("index", "path", str(paths.default_index), "where the index lives"),
        Option("embeddings", "enabled", True, "false: words only"),
        Option("embeddings", "provider", "static", "static (shipped), muse, ollama or openai (a local server)"),
        Option("embeddings", "model", "", "the model of an ollama or openai provider"),
        Option("embeddings", "url", "", "the provider's URL (ollama default: http://127.0.0.1:11434)"),
        Option("embeddings", "api_key_env", "", "the NAME of the variable holding the provider's key"),
        Option("embeddings", "allow_remote", False, "true lets an embeddings URL leave this machine"),
        Option("embeddings", "cards", True, "the second arm: session cards by meaning"),
        *(Option("sources", kind, True) for kind in ("opencode", "claude-code", "codex", "gemini")),
        Option(CONFIG_SECTION, CONFIG_KEY, "all", "all, project or directory"),
        *_from_settings("memory", MemorySettings),
        Option("memory", "auto_extract", True, "propose memories from finished sessions (proposals only)"),
        *_from_settings("extract", ExtractSettings),
        *_from_settings("opencode", PluginSettings, skip=("auto_extract",)),
    ]


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def template(paths: Paths | None = None) -> str:
    """The first-use config file: every option commented at its default, grouped by section."""
    lines = [HEADER]
    section = ""
    for option in options(paths):
        if option.section != section:
            section = option.section
            lines += ["", f"# {SECTION_HELP.get(section, '')}".rstrip(), f"[{section}]"]
        note = "; ".join(x for x in (option.help, f"env {option.env}" if option.env else "") if x)
        lines.append(f"# {option.key} = {_toml(option.default)}" + (f"  # {note}" if note else ""))
    lines += [
        "",
        "# More stores, or stores somewhere else (one block per store; ids are kept in cursors):",
        "# [[source]]",
        '# id = "v2"',
        '# kind = "opencode"',
        '# path = "~/.local/share/opencode/opencode-v2.db"',
        "",
    ]
    return "\n".join(lines)


class ConfigExists(RecollectError):
    """`recollect config init` found a config file; it is never overwritten."""


def write_config(paths: Paths | None = None, *, only_if_missing: bool = True) -> Path | None:
    """Create config.toml with every option at its default (owner-only). Returns the path written,
    or None when a file exists and `only_if_missing`; without it an existing file is an error."""
    paths = paths or resolve_paths()
    path = paths.config_file
    if path.exists():
        if only_if_missing:
            return None
        raise ConfigExists(f"{path} exists and is never overwritten; edit it, or move it away and run this again")
    ensure_private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process wrote it first: theirs stands
        return None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(template(paths))
    return path


# Keys read but left out of the first-use file (a provider's tuning: embed/factory.py `from_config`).
_UNLISTED = {"embeddings": {"dim", "timeout", "threads"}}


def unknown_options(config: Config | None = None) -> list[str]:
    """What the config file sets that no option reads (a misspelt key or section), as `[section] key`."""
    config = config or load_config()
    known: dict[str, set[str]] = {section: set(keys) for section, keys in _UNLISTED.items()}
    for option in options(config.paths):
        known.setdefault(option.section, set()).add(option.key)
    out = []
    for section, value in config.raw.items():
        if section == "source":  # [[source]] blocks: checked where they are read
            continue
        if section not in known:
            out.append(f"[{section}]")
        elif isinstance(value, dict):
            out.extend(f"[{section}] {key}" for key in value if key not in known[section])
    return out


@dataclass(frozen=True)
class Setting:
    name: str
    value: Any
    source: str  # "default", "file", or "env NAME"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def in_force(config: Config | None = None) -> list[Setting]:
    """Every option's value in force and where it came from."""
    config = config or load_config()
    out = []
    for option in options(config.paths):
        origin = config.origins.get(option.name)
        if origin is not None:
            value: Any = (
                str(config.index_path)
                if option.name == "index.path"
                else config.section(option.section).get(option.key)
            )
            if option.name == "embeddings.enabled" and origin.startswith("env"):
                value = False
            out.append(Setting(option.name, value, origin))
        elif option.name == "index.path" and option.key in config.section(option.section):
            out.append(Setting(option.name, str(config.index_path), "file"))  # as resolved from the file's dir
        elif option.key in config.section(option.section):
            out.append(Setting(option.name, config.section(option.section)[option.key], "file"))
        else:
            out.append(Setting(option.name, option.default, "default"))
    for entry in config.sources:
        out.append(Setting(f"source.{entry.id}", f"{entry.kind} {entry.path}", "file"))
    return out
