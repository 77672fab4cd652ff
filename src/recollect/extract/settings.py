"""The `[extract]` section of the config file, validated into one frozen object.

Owns the defaults of automatic extraction (seed 002: at least 4 turns, a model with a context
window of at least 8k). It never stores an API key: `api_key_env` names the environment variable
that holds one, and the key is read from it when a request is made.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from recollect.config import Config, ConfigError, load_config

if TYPE_CHECKING:
    from recollect.extract.models import Backend

BACKENDS = ("auto", "opencode", "openai")
# The plugin passes OpenCode's own server address here when it spawns `recollect extract`.
OPENCODE_URL_ENV = "RECOLLECT_OPENCODE_URL"


@dataclass(frozen=True)
class ExtractSettings:
    min_turns: int = 4  # sessions with fewer turns typed by a person are left alone
    backend: str = "auto"  # auto: `endpoint` when set, else the OpenCode server
    model: str = ""  # opencode: "provider/model"; openai: the model name. Empty: cheapest suitable
    opencode_url: str = ""  # else $RECOLLECT_OPENCODE_URL
    opencode_password_env: str = "OPENCODE_SERVER_PASSWORD"  # basic auth of a protected server, if set
    endpoint: str = ""  # an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1
    api_key_env: str = ""  # the NAME of the variable holding the endpoint's key
    min_context: int = 8000  # tokens; smaller models are never chosen automatically
    # A candidate whose keyword terms (summary, highlight, load_when) lie this much inside one
    # existing memory of any status, or a forgotten one, adds nothing: it is skipped and logged.
    overlap_threshold: float = 0.7
    # Estimated tokens of transcript per prompt (the newest lines are kept). With OpenCode's own
    # agent prompt (~2.5k tokens), ours and an answer, this fits the smallest 8k-context model.
    max_transcript_tokens: int = 4000
    max_candidates: int = 8  # an output proposing more is rejected whole
    max_sessions: int = 20  # per run of `recollect extract` without --session
    timeout: float = 120.0  # seconds for one model call

    @classmethod
    def of(cls, config: Config) -> ExtractSettings:
        """The [extract] section of `config`."""
        return cls.from_section(config.section("extract"))

    @classmethod
    def from_section(cls, section: dict[str, Any]) -> ExtractSettings:
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in section.items():
            if key not in known:
                raise ConfigError(f"[extract] {key!r} is not a setting; known: {', '.join(sorted(known))}")
            default = getattr(cls, key)
            if isinstance(default, str):
                if not isinstance(value, str):
                    raise ConfigError(f"[extract] {key} must be a string")
                values[key] = value.strip()
            elif isinstance(default, int | float):
                if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                    raise ConfigError(f"[extract] {key} must be a number >= 0")
                values[key] = type(default)(value)
        settings = cls(**values)
        if settings.backend not in BACKENDS:
            raise ConfigError(f"[extract] backend must be one of {', '.join(BACKENDS)} (got {settings.backend!r})")
        if not 0 < settings.overlap_threshold <= 1:
            raise ConfigError("[extract] overlap_threshold must be in (0, 1]")
        if settings.max_candidates < 1 or settings.max_sessions < 1:
            raise ConfigError("[extract] max_candidates and max_sessions must be at least 1")
        if settings.max_transcript_tokens < 250:
            raise ConfigError("[extract] max_transcript_tokens must be at least 250")
        if settings.api_key_env and not settings.api_key_env.replace("_", "").isalnum():
            raise ConfigError(
                "[extract] api_key_env is the NAME of an environment variable (e.g. OPENAI_API_KEY), "
                "not the key itself; recollect never stores keys"
            )
        return settings

    def resolved_opencode_url(self) -> str:
        return (os.environ.get(OPENCODE_URL_ENV) or self.opencode_url).strip().rstrip("/")


@dataclass(frozen=True)
class RunOptions:
    """How one run of `extract_session`, `extract_since` or `summarize` reaches its model and what it
    writes. The CLI's --model, --opencode-url, --dry-run and --redo (summarize: --force) set them."""

    config: Config | None = None  # default: the config of the environment (load_config)
    opencode_url: str = ""  # the OpenCode server to ask, else [extract] opencode_url or $RECOLLECT_OPENCODE_URL
    model: str = ""  # else [extract] model, else the cheapest suitable one
    dry_run: bool = False  # ask the model and report, but write nothing (no memory, summary or state)
    redo: bool = False  # extract: send every turn again; summarize: rewrite summaries of unchanged cards

    def loaded_config(self) -> Config:
        return self.config if self.config is not None else load_config()

    def open_backend(self, config: Config, settings: ExtractSettings) -> Backend:
        """The backend `settings` and these options name, its OpenCode workers under the data dir; checked
        without any network call, so a misconfiguration fails fast (ModelError)."""
        from recollect.extract.models import open_backend
        from recollect.text.markers import WORKER_DIR_NAME

        worker_dir = config.paths.data_dir / WORKER_DIR_NAME
        return open_backend(settings, worker_dir, opencode_url=self.opencode_url, model=self.model)
