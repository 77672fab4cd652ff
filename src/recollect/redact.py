"""Secret detection and redaction: the one module every writer calls before text leaves memory.

Callers: the history index (every chunk, card field and title is redacted before it is stored),
read windows and titles shown to a model (search/read.py), logs (mcp.log, the plugin log: argument
values are redacted before they are JSON-encoded), and curated memory (a write that holds a secret
is refused: memories go into git).

The patterns (data/secret_patterns.toml, read on first use) favour recall where a secret has an
unambiguous shape (provider key prefixes, private-key blocks, credentials inside URLs, webhook URLs)
and require an explicit assignment or option for the generic case (`password = "..."`, `--password
X`), so ordinary prose is left alone.
An assigned value that is code rather than data — a call (`get_password_from_vault(name)`), an
attribute path (`request.headers.get`), a command substitution (`$(pwd)`), a variable named after
what it holds (`new_password`), a type (`token: string`) — is not a secret.
"""

from __future__ import annotations

import functools
import os
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


_PATTERN_FILE = "data/secret_patterns.toml"  # beside this module, in the wheel
_FEW_TRIGGERS = 16  # trigger starts looked up one by one; beyond, each trigger is tested on the whole text

_Pattern = tuple[str, re.Pattern[str], tuple[str, ...]]  # kind, pattern, triggers


class _Table:
    """The secret patterns (data/secret_patterns.toml, in its order) and how triggers select them."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.patterns: list[_Pattern] = []
        self.runs: dict[str, list[int]] = {}  # trigger -> the patterns it runs
        for at, row in enumerate(rows):
            regex = row["regex"] if isinstance(row["regex"], str) else "".join(row["regex"])
            self.patterns.append((row["kind"], _p(regex), tuple(row["triggers"])))
            for trigger in row["triggers"]:
                self.runs.setdefault(trigger, []).append(at)
        # Every trigger, lower case like the text it is tested on, by first character.
        self.triggers: dict[str, list[str]] = {}
        for trigger in sorted(self.runs):
            self.triggers.setdefault(trigger[0], []).append(trigger)
        self.any_trigger = _p(_trie([t for group in self.triggers.values() for t in group]))
        self.always = [at for at, (_, _, triggers) in enumerate(self.patterns) if not triggers]


@functools.cache
def _table() -> _Table:
    """Read on first use, as each pattern is compiled on first use: most processes that import this
    module redact nothing, and a text is run only through the patterns it triggers."""
    import tomllib

    with open(os.path.join(os.path.dirname(__file__), _PATTERN_FILE), "rb") as file:
        return _Table(tomllib.load(file)["pattern"])


def _patterns_for(lowered: str) -> list[_Pattern]:
    """The patterns to run on a text (lower-cased): the untriggered ones and those whose trigger it
    holds, in their order in the table (the first of overlapping findings wins)."""
    table = _table()
    found: set[str] = set()
    match = table.any_trigger.search(lowered)
    for _ in range(_FEW_TRIGGERS):
        if match is None:
            break
        at = match.start()
        found.update(t for t in table.triggers[lowered[at]] if lowered.startswith(t, at))
        match = table.any_trigger.search(lowered, at + 1)
    else:  # many trigger starts (a long text full of "key" and "token"): test each trigger once
        found = {t for t in table.runs if t in lowered}
    runs = set(table.always)
    for trigger in found:
        runs.update(table.runs[trigger])
    return [table.patterns[at] for at in sorted(runs)]


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
