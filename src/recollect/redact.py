"""Secret detection and redaction: the one module every writer calls before text leaves memory.

Callers: the history index (every chunk, card field and title is redacted before it is stored),
read windows and titles shown to a model (search/read.py), logs (mcp.log, the plugin log: argument
values are redacted before they are JSON-encoded), and curated memory (a write that holds a secret
is refused: memories go into git).

The patterns favour recall where a secret has an unambiguous shape (provider key prefixes,
private-key blocks, credentials inside URLs, webhook URLs) and require an explicit assignment or
option for the generic case (`password = "..."`, `--password X`), so ordinary prose is left alone.
An assigned value that is code rather than data — a call (`get_password_from_vault(name)`), an
attribute path (`request.headers.get`), a command substitution (`$(pwd)`), a variable named after
what it holds (`new_password`), a type (`token: string`) — is not a secret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast


@dataclass(frozen=True)
class SecretFinding:
    kind: str
    line: int  # 1-based line number in the scanned text
    start: int
    end: int


class _Lazy:
    """A pattern compiled on first use. Every search imports this module (the store readers and the
    read windows redact), and most searches redact nothing: compiling its ~50 patterns at import cost
    each one ~20 ms of CPU. Once compiled, the pattern's methods are plain attributes."""

    def __init__(self, source: str) -> None:
        self._source = source

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_source":  # copy and pickle probe a bare instance for these
            raise AttributeError(name)
        compiled = re.compile(self._source)
        for method in ("finditer", "match", "search", "sub"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def _p(pattern: str) -> re.Pattern[str]:
    return cast("re.Pattern[str]", _Lazy(pattern))  # used only through finditer, match, search and sub


# (kind, pattern, triggers): a pattern runs only when one of its literal triggers occurs in the
# text (case-insensitively), which keeps redaction cheap on the bulk of text that holds no secret.
# No triggers: the pattern always runs (kept to shapes that need no context). A pattern with a
# `secret` group redacts only that group.
_PATTERNS: list[tuple[str, re.Pattern[str], tuple[str, ...]]] = [
    (
        "private key",
        _p(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]{0,4000})"
        ),
        ("private key",),
    ),
    ("anthropic key", _p(r"\bsk-ant-[A-Za-z0-9_\-]{20,}"), ("sk-ant-",)),
    ("openai key", _p(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"), ("sk-",)),
    (
        "github token",
        _p(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})"),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    ("gitlab token", _p(r"\bgl(?:pat|dt|rt|ptt|cbt|soat)-[A-Za-z0-9_\-]{20,}"), ("gl",)),
    ("slack token", _p(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), ("xox",)),
    (
        "slack webhook",
        _p(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]{20,}"),
        ("hooks.slack",),
    ),
    (
        "discord webhook",
        _p(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{30,}"),
        ("/api/webhooks/",),
    ),
    (
        "discord bot token",
        # Starts with its first letter, the boundary checked behind it: a pattern that starts with a
        # character class lets the regex engine skip to the next M, N or O instead of trying every
        # position (this pattern has no trigger, so it runs on all text; same matches as `\b[MNO]`).
        _p(r"[MNO](?<=\b[MNO])[A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![A-Za-z0-9_\-])"),
        (),
    ),
    ("sendgrid key", _p(r"\bSG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"), ("sg.",)),
    ("aws access key", _p(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"), ("akia", "asia", "abia", "acca")),
    ("google api key", _p(r"\bAIza[0-9A-Za-z_\-]{35}\b"), ("aiza",)),
    ("google oauth token", _p(r"\bya29\.[A-Za-z0-9_\-]{30,}"), ("ya29.",)),
    ("google oauth secret", _p(r"\bGOCSPX-[A-Za-z0-9_\-]{24,}"), ("gocspx-",)),
    ("stripe key", _p(r"\b[rsp]k_(?:live|test)_[0-9A-Za-z]{20,}"), ("k_live_", "k_test_")),
    ("stripe webhook secret", _p(r"\bwhsec_[A-Za-z0-9]{24,}"), ("whsec_",)),
    ("npm token", _p(r"\bnpm_[A-Za-z0-9]{36}\b"), ("npm_",)),
    ("pypi token", _p(r"\bpypi-AgE[A-Za-z0-9_\-]{50,}"), ("pypi-",)),
    ("huggingface token", _p(r"\bhf_[A-Za-z0-9]{30,}\b"), ("hf_",)),
    ("twilio key", _p(r"\bSK[0-9a-fA-F]{32}\b"), ("sk",)),
    ("mailgun key", _p(r"\bkey-[0-9a-f]{32}\b"), ("key-",)),
    ("mailchimp key", _p(r"\b[0-9a-f]{32}-us\d{1,2}\b"), ("-us",)),
    ("shopify token", _p(r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"), ("shp",)),
    ("digitalocean token", _p(r"\bdo[opr]_v1_[a-f0-9]{64}\b"), ("_v1_",)),
    ("databricks token", _p(r"\bdapi[a-f0-9]{32}(?:-\d)?\b"), ("dapi",)),
    ("new relic key", _p(r"\bNR(?:AK|AA|II)-[A-Z0-9]{27}\b"), ("nrak-", "nraa-", "nrii-")),
    ("square token", _p(r"\bsq0(?:atp|csp)-[A-Za-z0-9_\-]{22,43}"), ("sq0",)),
    ("telegram bot token", _p(r"(?<!\d)\d{8,10}:AA[A-Za-z0-9_\-]{33}(?![A-Za-z0-9_\-])"), (":aa",)),
    ("age secret key", _p(r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"), ("age-secret-key-",)),
    ("vault token", _p(r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}"), ("hvs.", "hvb.", "hvr.")),
    ("doppler token", _p(r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"), ("dp.",)),
    ("linear key", _p(r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b"), ("lin_",)),
    ("grafana token", _p(r"\bgl(?:sa|c)_[A-Za-z0-9+/=_]{32,}"), ("glsa_", "glc_")),
    ("postman key", _p(r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"), ("pmak-",)),
    ("atlassian token", _p(r"\bATATT3[A-Za-z0-9_\-=]{50,}"), ("atatt3",)),
    ("sentry token", _p(r"\bsntry[su]_[A-Za-z0-9+/=_\-]{30,}"), ("sntry",)),
    ("jwt", _p(r"\beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"), ("eyj",)),
    ("password in url", _p(r"(?<=://)[^\s/:@'\"]+:[^\s/@'\"]{3,}(?=@)"), ("://",)),
    (
        "azure key",
        _p(r"(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=(?P<secret>[A-Za-z0-9+/%]{20,}={0,2})"),
        ("accountkey=", "sharedaccess", "sig="),
    ),
    ("bearer token", _p(r"(?i)(?<=\bbearer )[A-Za-z0-9_\-.=+/]{20,}"), ("bearer ",)),
    (
        "basic auth",
        _p(r"(?i)\bauthorization\b[\"']?\s*[:=]\s*[\"']?basic\s+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})"),
        ("basic",),
    ),
    (
        "password option",
        _p(
            r"(?i)(?<![\w-])--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token|"
            r"access-token)(?:=|\s+)(?P<secret>\"[^\"\n]{3,}\"|'[^'\n]{3,}'|[^\s\"'\-$][^\s\"']{2,})"
        ),
        ("--pass", "--token", "--api", "--secret", "--client-secret", "--auth-token", "--access-token"),
    ),
    (
        "password option",
        _p(r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p(?P<secret>[^\s\"'\-$][^\s\"']{2,})"),
        ("mysql", "mariadb"),
    ),
    (
        "assigned secret",
        _p(
            r"(?i)(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_\-.])*"
            r"(?:api[_\-]?key|apikey|api[_\-]?secret|app[_\-]?secret|secret[_\-]?key(?:[_\-]?base)?|"
            r"secret[_\-]?access[_\-]?key|access[_\-]?secret|client[_\-]?secret|access[_\-]?token|auth[_\-]?token|"
            r"refresh[_\-]?token|id[_\-]?token|session[_\-]?token|bot[_\-]?token|private[_\-]?key|"
            r"encryption[_\-]?key|signing[_\-]?key|master[_\-]?key|account[_\-]?key|webhook[_\-]?secret|"
            r"password|passwd|passphrase|pwd|secret|token|credentials?)"
            r"[\"']?\s*[:=]\s*"
            r"(?:\"(?P<dq>[^\"\n]{4,})\"|'(?P<sq>[^'\n]{4,})'|(?P<value>[^\s\"',;]{6,}))"
        ),
        ("key", "secret", "token", "passw", "pwd", "passphrase", "credential"),
    ),
]

# Values that look assigned but are obviously not secrets (placeholders, variables).
_PLACEHOLDER = _p(
    r"(?i)^(?:\$\{?[A-Z_][A-Z0-9_]*\}?|<[^>]+>|\*+|x{4,}|\.\.\.|changeme|placeholder|example|your[_\-].*|"
    r"redacted.*|\[redacted.*|none|null|nil|true|false|undefined|process\.env\..*|os\.environ.*|env\..*|"
    r"\{\{.*\}\}|%\(.*\)s)$"
)
# An unquoted value that is code: a call or a subscript, a command substitution, an attribute path.
_CODE = _p(r"[()\[\]{}`]|^\$\(|^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
# A type in an annotation (`token: string`, `password: str = ...`).
_TYPE = _p(r"(?i)^(?:str|string|number|int|integer|bool|boolean|bytes|any|object|dict|optional|secretstr)$")
# A variable named after what it holds (`password = new_password`, `token=access_token`).
_NAMED_VARIABLE = _p(r"(?i)^[a-z_][a-z0-9_]*(?:pass|pwd|secret|token|key|cred)[a-z0-9_]*$")


def _is_code(value: str) -> bool:
    return bool(_CODE.search(value) or _TYPE.match(value) or (_NAMED_VARIABLE.match(value) and "_" in value))


def _span(kind: str, match: re.Match[str]) -> tuple[int, int] | None:
    if kind == "assigned secret":
        group = next(g for g in ("dq", "sq", "value") if match.group(g) is not None)
        value = match.group(group)
        if _PLACEHOLDER.match(value) or (value.isdigit() and len(value) < 8):
            return None
        if group == "value" and _is_code(value):
            return None
        return match.start(group), match.end(group)
    if "secret" in match.re.groupindex:
        value = match.group("secret")
        if _PLACEHOLDER.match(value.strip("\"'")):
            return None
        return match.start("secret"), match.end("secret")
    return match.start(), match.end()


# JSON and shell escapes (`\n`, `\"`, `\\`, `\u0041`): text is matched in a view where each escape
# is replaced by blanks of the same length (an escaped quote stays a quote), so a secret inside a
# JSON-encoded tool input or log line is found at the same offsets as in plain text.
_ESCAPE = _p(r'\\+(?:u[0-9a-fA-F]{4}|[nrtbf"/])?')


def _unescaped_view(text: str) -> str:
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda m: ('"' if m.group().endswith('"') else " ") + " " * (len(m.group()) - 1), text)


def _trie(words: list[str]) -> str:
    """A regex that matches where any of `words` starts, its alternatives merged by common prefix (one
    regex search finds the next trigger for about half the CPU of testing each of ~70 with `in`)."""
    root: dict[str, dict[str, Any]] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}  # a word ends here: for "is any there", nothing longer needs matching

    def emit(node: dict[str, Any]) -> str:
        if "" in node:
            return ""
        alternatives = [re.escape(ch) + emit(child) for ch, child in sorted(node.items())]
        return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"

    return emit(root)


# Every trigger, lower case like the text it is tested on, by first character, and the patterns it runs.
_TRIGGERS: dict[str, list[str]] = {}
_RUNS: dict[str, list[int]] = {}
for _at, _entry in enumerate(_PATTERNS):
    for _trigger in _entry[2]:
        _RUNS.setdefault(_trigger, []).append(_at)
for _trigger in sorted(_RUNS):
    _TRIGGERS.setdefault(_trigger[0], []).append(_trigger)
del _at, _entry, _trigger
_ANY_TRIGGER = _p(_trie([t for group in _TRIGGERS.values() for t in group]))
_ALWAYS = [at for at, (_, _, triggers) in enumerate(_PATTERNS) if not triggers]
_FEW_TRIGGERS = 16  # trigger starts looked up one by one; beyond, each trigger is tested on the whole text


def _patterns_for(lowered: str) -> list[tuple[str, re.Pattern[str], tuple[str, ...]]]:
    """The patterns to run on a text (lower-cased): the untriggered ones and those whose trigger it
    holds, in their order in _PATTERNS (the first of overlapping findings wins)."""
    found: set[str] = set()
    match = _ANY_TRIGGER.search(lowered)
    for _ in range(_FEW_TRIGGERS):
        if match is None:
            break
        at = match.start()
        found.update(t for t in _TRIGGERS[lowered[at]] if lowered.startswith(t, at))
        match = _ANY_TRIGGER.search(lowered, at + 1)
    else:  # many trigger starts (a long text full of "key" and "token"): test each trigger once
        found = {t for t in _RUNS if t in lowered}
    runs = set(_ALWAYS)
    for trigger in found:
        runs.update(_RUNS[trigger])
    return [_PATTERNS[at] for at in sorted(runs)]


def find_secrets(text: str) -> list[SecretFinding]:
    """Every suspected secret in `text`, in order, without overlaps."""
    spans: list[tuple[int, int, str]] = []
    view = _unescaped_view(text)
    for kind, pattern, _ in _patterns_for(text.lower()):
        for match in pattern.finditer(view):
            span = _span(kind, match)
            if span and not any(s < span[1] and span[0] < e for s, e, _ in spans):
                spans.append((span[0], span[1], kind))
    spans.sort()
    return [SecretFinding(kind, text.count("\n", 0, s) + 1, s, e) for s, e, kind in spans]


def redact(text: str) -> str:
    """`text` with each suspected secret replaced by `[REDACTED:<kind>]`."""
    if not text:
        return text
    findings = find_secrets(text)
    if not findings:
        return text
    out: list[str] = []
    pos = 0
    for f in findings:
        out.append(text[pos : f.start])
        out.append(f"[REDACTED:{f.kind}]")
        pos = f.end
    out.append(text[pos:])
    return "".join(out)


def redact_value(value: object) -> object:
    """A JSON-like value with every string redacted (for logging arguments before they are encoded)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        # A value under a key that names a secret is a secret whatever its shape.
        return {
            k: "[REDACTED:assigned secret]"
            if isinstance(k, str) and isinstance(v, str | int) and v != "" and _SECRET_KEY.search(k)
            else redact_value(v)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    return value


_SECRET_KEY = _p(
    r"(?i)(?:^|[_\-.])(?:api[_\-]?key|apikey|secret|client[_\-]?secret|password|passwd|passphrase|pwd|token|"
    r"private[_\-]?key|credentials?)$"
)
