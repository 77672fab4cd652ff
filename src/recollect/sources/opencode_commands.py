"""OpenCode's slash commands in a stored session: the text of a command's template is not what a person typed.

When a person runs `/init` or `/commit fix the typo`, OpenCode stores the command's whole template (its
arguments filled in) as an ordinary user text part, with no mark of its own (REPORT.md §4.3; checked
against OpenCode 1.18.33). Indexed as the person's words, a template of generic instructions ("read the
README, the build and test config, CI workflows …") made the session match almost any later query, by
its words and by its meaning, while it says nothing of what that session did. So the adapter replaces
such a part by what the person did type, `/name arguments`, and keeps the template beside it as a
`template` part, which the indexer leaves out (reads name it).

A text is a command's when it is one of the templates OpenCode offers for the session's directory:

* the commands of OpenCode's config (read-only): `{command,commands}/**/*.md` (front matter, then the
  template) and the `command` entries of `opencode.json` / `opencode.jsonc`, in the global config dirs
  (`$OPENCODE_CONFIG_DIR`, `$XDG_CONFIG_HOME/opencode`, `~/.opencode`) and in the `.opencode` dirs and
  config files from the session's directory up to its project root;
* OpenCode's built-in ones (`/init`, `/review`), as 1.18.33 serves them (data/opencode_commands.json).

It matches when the text is the template with its placeholders (`$ARGUMENTS`, `$1`…, a `!`shell`` block,
the worktree) filled by anything, whitespace aside, or, for a template of another OpenCode version, when
at least `DRIFT_SHARE` of the text's lines are lines of the template. Commands OpenCode runs as a
subtask carry their name in the stored part already (opencode_records.py).
"""

from __future__ import annotations

import functools
import json
import os
import re
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from recollect import jsonc
from recollect.model import Part, Session
from recollect.text.plain import cut_title

DRIFT_SHARE = 0.8  # of a text's lines, found among a template's lines: the template, edited by another version
DRIFT_MIN_LINES = 5  # fewer lines than this are never judged by their lines alone
PLACEHOLDER = re.compile(r"(\$ARGUMENTS|\$\d+|\$WORKTREE|!`[^`]*`)")
_CONFIG_FILES = ("opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc")
MAX_FILES = 200  # command files read per config dir: a bound, not a limit anyone meets


@dataclass(frozen=True)
class Template:
    name: str
    text: str

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        pieces = PLACEHOLDER.split(self.text.strip())
        out = [r"\s*"]
        for i, piece in enumerate(pieces):
            if i % 2:  # a placeholder: what it held is the person's (arguments) or the machine's (a path, output)
                out.append(r"(.*?)" if piece == "$ARGUMENTS" or piece[1:].isdigit() else r".*?")
            else:
                out.append(r"\s+".join(re.escape(word) for word in piece.split()) if piece.strip() else r"\s*")
                if piece[:1].isspace() or piece[-1:].isspace():
                    out[-1] = r"\s*" + out[-1] + r"\s*"
                if 0 < i < len(pieces) - 1:
                    # A placeholder and the words after it, but the last, are matched once, at the first place
                    # those words occur (an atomic group): retried at every later place, k placeholders cost
                    # O(n^k) on a text that nearly matches (a 160-character message, 18 s at k = 6).
                    out[-2:] = [f"(?>{out[-2]}{out[-1]})"]
        if len(pieces) == 1:
            out.append(r"(?:\s+(.*))?")  # no placeholder: OpenCode appends the arguments after a blank line
        return re.compile("".join(out) + r"\s*", re.DOTALL)

    @functools.cached_property
    def lines(self) -> frozenset[str]:
        return frozenset(" ".join(line.split()) for line in self.text.splitlines() if line.strip())

    @functools.cached_property
    def probe(self) -> str:
        """Words every filled-in text of this template holds: its longest literal stretch, cut short."""
        literal = max(PLACEHOLDER.split(self.text), key=len)
        return " ".join(literal.split())[:60]

    def arguments(self, text: str, flat: str) -> str | None:
        """What the person typed after the command's name, when `text` is this template filled in; else None."""
        if self.probe and self.probe not in flat:
            return None
        found = self.pattern.fullmatch(text)
        if found is not None:
            return " ".join(" ".join(g.split()) for g in found.groups() if g and g.strip())
        lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
        if len(lines) < DRIFT_MIN_LINES or len(self.lines) < DRIFT_MIN_LINES:
            return None
        own = [line for line in lines if line not in self.lines]
        return " ".join(own) if len(own) <= (1 - DRIFT_SHARE) * len(lines) else None


@functools.cache
def builtin() -> tuple[Template, ...]:
    data = json.loads(resources.files("recollect").joinpath("data/opencode_commands.json").read_text("utf-8"))
    return tuple(Template(name, str(spec["template"])) for name, spec in data["commands"].items())


def _markdown_template(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end >= 0:
            text = text[end + 4 :]
    return text.strip()


def _json_commands(path: Path) -> list[Template]:
    try:
        raw = path.read_text(encoding="utf-8", errors="replace")
        data: Any = jsonc.loads(raw)  # OpenCode reads comments and trailing commas in either file
    except (OSError, ValueError, RecursionError):
        return []
    commands = data.get("command") if isinstance(data, dict) else None
    if not isinstance(commands, dict):
        return []
    return [
        Template(str(name), spec["template"])
        for name, spec in commands.items()
        if isinstance(spec, dict) and isinstance(spec.get("template"), str) and spec["template"].strip()
    ]


def _mark(root: Path) -> tuple[int, ...]:
    """When what a config dir defines last changed (its command dirs' and config files' mtimes)."""
    out = []
    for name in ("command", "commands", *_CONFIG_FILES):
        try:
            out.append((root / name).stat().st_mtime_ns)
        except OSError:
            out.append(0)
    return tuple(out)


_CHECKED: dict[str, tuple[float, tuple[Template, ...]]] = {}
RECHECK_SECONDS = 5.0  # a config dir is looked at again after this long: a sync of thousands of sessions stats it once


def _dir_commands(config_dir: str) -> tuple[Template, ...]:
    """The commands one OpenCode config dir defines, read again when one of its files changed."""
    now = time.monotonic()
    seen = _CHECKED.get(config_dir)
    if seen is not None and now - seen[0] < RECHECK_SECONDS:
        return seen[1]
    mark = _mark(Path(config_dir))
    found = _read_dir_commands(config_dir, mark) if any(mark) else ()
    if len(_CHECKED) > 4_096:
        _CHECKED.clear()
    _CHECKED[config_dir] = (now, found)
    return found


@functools.lru_cache(maxsize=256)
def _read_dir_commands(config_dir: str, mark: tuple[int, ...]) -> tuple[Template, ...]:
    root = Path(config_dir)
    found: list[Template] = []
    for sub in ("command", "commands"):
        folder = root / sub
        if not folder.is_dir():
            continue
        try:
            files = sorted(folder.rglob("*.md"))[:MAX_FILES]
        except OSError:
            continue
        for path in files:
            try:
                template = _markdown_template(path)
            except OSError:
                continue
            if template:
                found.append(Template(path.relative_to(folder).with_suffix("").as_posix(), template))
    for name in _CONFIG_FILES:
        if (root / name).is_file():
            found.extend(_json_commands(root / name))
    return tuple(found)


def global_config_dirs() -> list[str]:
    home = Path(os.environ.get("HOME") or Path.home())
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    dirs = [os.environ.get("OPENCODE_CONFIG_DIR") or "", str(Path(xdg) / "opencode"), str(home / ".opencode")]
    return [d for d in dict.fromkeys(dirs) if d]


def _project_dirs(directory: str, root: str | None) -> list[str]:
    """The session's directory and its parents up to the project root (or the first with `.git`)."""
    if not directory:
        return []
    out: list[str] = []
    here = Path(directory)
    for _ in range(32):
        out.extend((str(here), str(here / ".opencode")))
        if (root and str(here) == root.rstrip("/")) or (not root and (here / ".git").exists()):
            break
        if here.parent == here:
            break
        here = here.parent
    return out


def templates_for(directory: str, root: str | None) -> list[Template]:
    """Every command OpenCode offers in `directory` (project ones first), the built-in ones last."""
    found: list[Template] = []
    for config_dir in [*_project_dirs(directory, root), *global_config_dirs()]:
        found.extend(_dir_commands(config_dir))
    return [*found, *builtin()]


def command_parts(part: Part, templates: list[Template]) -> list[Part] | None:
    """A person's text part that is a command's template, as `/name arguments` and the template; else None."""
    if part.kind != "text" or part.synthetic or len(part.text) < 40:
        return None
    flat = " ".join(part.text.split())
    for template in templates:
        arguments = template.arguments(part.text, flat)
        if arguments is not None:
            typed = f"/{template.name} {arguments}".strip()
            kept = Part(id=part.id, kind="text", raw_type="command", text=typed, time=part.time)
            return [
                kept,
                Part(id=f"{part.id}:template", kind="template", raw_type=template.name, text=part.text, synthetic=True),
            ]
    return None


def mark_commands(session: Session) -> None:
    """Replace, in the person's messages of `session`, each command's template by what the person typed.
    A session of commands only is titled by them (`/init`; `/commit fix typo, /review`), as a Claude Code
    one is: OpenCode titled it from the template, which tells what the command asks, not what was done."""
    templates: list[Template] | None = None
    typed: list[str] = []
    other = False
    for message in session.messages:
        if message.role != "user":
            continue
        for i, part in enumerate(message.parts):
            if part.kind == "subtask" and part.text.startswith("/"):
                typed.append(part.text)  # a command run as a subtask (opencode_records.py)
                continue
            if part.kind != "text" or part.synthetic or not part.text.strip():
                continue
            replaced = None
            if len(part.text) >= 40:
                if templates is None:
                    templates = templates_for(session.directory, session.project_root)
                replaced = command_parts(part, templates)
            if replaced is None:
                other = True
                continue
            message.parts[i : i + 1] = replaced
            typed.append(replaced[0].text)
            break
    if typed and not other and not session.parent_id:
        session.title = cut_title(", ".join(dict.fromkeys(typed)))
