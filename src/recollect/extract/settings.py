"""The `[extract]` section of the config file, validated into one frozen object.

Owns the defaults of automatic extraction (seed 002: at least 4 turns, a model with a context
window of at least 8k). It never stores an API key: `api_key_env` names the environment variable
that holds one, and the key is read from it when a request is made.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any

from recollect.config import Config, ConfigError

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
