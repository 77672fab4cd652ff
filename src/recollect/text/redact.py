"""Secret detection and redaction, shared by the history index (redact before storing) and
curated memory (refuse a write that holds a secret: memories go into git).

The patterns favour recall over precision for things that are unambiguous (provider key
prefixes, private-key blocks, credentials inside URLs) and require an explicit assignment
(`password = ...`, `api_key: ...`) for the generic case, so ordinary prose is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SecretFinding:
    kind: str
    line: int  # 1-based line number in the scanned text
    start: int
    end: int


# (kind, pattern, triggers): a pattern runs only when one of its literal triggers occurs in the
# text (case-insensitively), which keeps redaction cheap on the bulk of text that holds no secret.
_PATTERNS: list[tuple[str, re.Pattern[str], tuple[str, ...]]] = [
    (
        "private key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]{0,4000})"
        ),
        ("private key",),
    ),
    ("anthropic key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}"), ("sk-ant-",)),
    ("openai key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"), ("sk-",)),
    (
        "github token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})"),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    ("gitlab token", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}"), ("glpat-",)),
    ("slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), ("xox",)),
    ("aws access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), ("akia", "asia")),
    ("google api key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"), ("aiza",)),
    ("stripe key", re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{20,}"), ("k_live_", "k_test_")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), ("npm_",)),
    ("huggingface token", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"), ("hf_",)),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"), ("eyj",)),
    ("password in url", re.compile(r"(?<=://)[^\s/:@'\"]+:[^\s/@'\"]{3,}(?=@)"), ("://",)),
    ("bearer token", re.compile(r"(?i)(?<=\bbearer )[A-Za-z0-9_\-.=+/]{20,}"), ("bearer ",)),
    (
        "assigned secret",
        re.compile(
            r"(?i)(?<![A-Za-z0-9])(?:api[_\-]?key|apikey|secret[_\-]?key|client[_\-]?secret|access[_\-]?token|"
            r"auth[_\-]?token|refresh[_\-]?token|private[_\-]?key|password|passwd|pwd|secret|token)"
            r"[\"']?\s*[:=]\s*(?:\"(?P<dq>[^\"\n]{4,})\"|'(?P<sq>[^'\n]{4,})'|(?P<value>[^\s\"',;]{6,}))"
        ),
        ("key", "secret", "token", "passw", "pwd"),
    ),
]

# Values that look assigned but are obviously not secrets (placeholders, variables).
_PLACEHOLDER = re.compile(
    r"(?i)^(?:\$\{?[A-Z_][A-Z0-9_]*\}?|<[^>]+>|\*+|x{4,}|\.\.\.|changeme|placeholder|example|your[_\-].*|"
    r"redacted.*|\[redacted.*|none|null|true|false|undefined|process\.env\..*|os\.environ.*|env\..*)$"
)


def _span(kind: str, match: re.Match[str]) -> tuple[int, int] | None:
    if kind == "assigned secret":
        group = next(g for g in ("dq", "sq", "value") if match.group(g) is not None)
        value = match.group(group)
        if _PLACEHOLDER.match(value) or (value.isdigit() and len(value) < 8):
            return None
        return match.start(group), match.end(group)
    return match.start(), match.end()


def find_secrets(text: str) -> list[SecretFinding]:
    """Every suspected secret in `text`, in order, without overlaps."""
    spans: list[tuple[int, int, str]] = []
    lowered = text.lower()
    for kind, pattern, triggers in _PATTERNS:
        if not any(t in lowered for t in triggers):
            continue
        for match in pattern.finditer(text):
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
