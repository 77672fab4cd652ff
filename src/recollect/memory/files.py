"""Memory files on disk: roots, ids, the frontmatter format, and safe writes.

Owns the shape of a memory root — `ROOT.md`, `<category>/index.md`, `<category>/<slug>.md` and the
bookkeeping files beside them — and the one parser/serializer of memory frontmatter (a small YAML
subset, so no YAML dependency and byte-stable output). It never decides what surfaces or who may
write (that is `write.py`), and every path it builds from an id is checked to stay inside its root.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from recollect.errors import RecollectError
from recollect.times import iso, parse_datetime

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks; writes stay atomic, not serialized
    fcntl = None  # type: ignore[assignment]

Scope = Literal["global", "project"]
PROJECT_DIR_NAME = ".memory"
ROOT_FILE = "ROOT.md"
INDEX_FILE = "index.md"
STATE_FILE = ".state.json"
LOCK_FILE = ".lock"
AUDIT_FILE = "audit.jsonl"
TOMBSTONE_FILE = "tombstones.jsonl"

STATUSES = ("active", "proposed", "rejected", "superseded", "expired")

# Hit counters change on every recall; tracking them would conflict on every cross-device sync.
GITIGNORE_TEXT = f"# written by recollect: local-only state\n{STATE_FILE}\n{LOCK_FILE}\n*.tmp\n"
# The two logs are append-only, so git's union merge combines both sides instead of conflicting.
GITATTRIBUTES_TEXT = (
    f"# written by recollect: append-only logs merge by union\n{AUDIT_FILE} merge=union\n{TOMBSTONE_FILE} merge=union\n"
)

_CATEGORY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9_-]|\.(?!\.)){0,79}$")


class MemoryOperationError(RecollectError):
    """A memory operation cannot proceed; the message names the problem and the fix."""


class InvalidMemory(MemoryOperationError):
    """Bad input: an id, a category, a date or a field value."""


class MemoryNotFound(MemoryOperationError):
    """No memory has that id in the roots this call can see."""


class SecretRefused(MemoryOperationError):
    """The text looks like it holds a secret; nothing was written."""


class NotAllowed(MemoryOperationError):
    """The author may not do this (a model accepting a proposal, forgetting a hard rule…)."""


# --- ids ---------------------------------------------------------------------------------------


def split_id(memory_id: str) -> tuple[str, str]:
    """`pitfalls/deploy-tool` -> (`pitfalls`, `deploy-tool`); refuses anything that could leave a root."""
    category, sep, slug = memory_id.strip().partition("/")
    if not sep or not _CATEGORY.match(category) or not _SLUG.match(slug) or slug == "index":
        raise InvalidMemory(
            f"{memory_id!r} is not a memory id: use <category>/<slug>, lowercase letters, digits, '-', '_' "
            "(for example pitfalls/deploy-tool)"
        )
    return category, slug


def check_category(category: str) -> str:
    if not _CATEGORY.match(category):
        raise InvalidMemory(f"{category!r} is not a category name: use lowercase letters, digits, '-' and '_'")
    return category


def kind_of(category: str) -> str:
    """The singular `kind` written for a category: rules -> rule, facts -> fact."""
    if category.endswith("ies"):
        return category[:-3] + "y"
    return category[:-1] if category.endswith("s") and len(category) > 1 else category


def slugify(text: str, *, max_len: int = 48) -> str:
    words = re.findall(r"[a-z0-9]+", text.casefold())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_len:
            break
        slug = candidate
    return slug


# --- roots -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MemoryRoot:
    """One directory of memories: the global one, or `<project>/.memory/`."""

    path: Path
    scope: Scope

    def file_for(self, memory_id: str) -> Path:
        category, slug = split_id(memory_id)
        path = self.path / category / f"{slug}.md"
        # split_id already refuses separators and "..": this is the belt to its braces.
        if os.path.commonpath([self.path.resolve(), path.resolve()]) != str(self.path.resolve()):
            raise InvalidMemory(f"{memory_id!r} resolves outside the memory root; refused")
        return path

    def category_dirs(self) -> list[Path]:
        if not self.path.is_dir():
            return []
        return sorted(
            (p for p in self.path.iterdir() if p.is_dir() and not p.name.startswith(".")), key=lambda p: p.name
        )


def find_project_root(start: Path) -> Path | None:
    """The canonical top of the git project holding `start`, or None.

    Walks up looking for a `.git` entry rather than running git: no subprocess on every call, and
    a `.git` *file* (worktree, submodule) marks a top just as a directory does. A linked worktree
    (`git worktree add`) belongs to its main checkout, whose `.memory/` it shares: the session's
    directory and the project differ there. A submodule is a project of its own.
    """
    current = start.resolve()
    for candidate in (current, *current.parents):
        marker = candidate / ".git"
        if marker.exists():
            return _main_checkout(marker) or candidate
    return None


def _main_checkout(marker: Path) -> Path | None:
    """For a linked worktree's `.git` file, the top of the main checkout; else None.

    The file says `gitdir: <main>/.git/worktrees/<name>`; that directory's `commondir` names the
    main repository's git dir (a submodule's git dir has no `commondir`).
    """
    if not marker.is_file():
        return None
    try:
        first = marker.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    except (OSError, IndexError):
        return None
    if not first.startswith("gitdir:"):
        return None
    gitdir = (marker.parent / first[len("gitdir:") :].strip()).resolve()
    try:
        common = (gitdir / (gitdir / "commondir").read_text(encoding="utf-8").strip()).resolve()
    except OSError:
        return None
    if common.name != ".git":  # a bare repository has no checkout to share
        return None
    return common.parent if common.parent.is_dir() else None


def ensure_root(root: MemoryRoot) -> None:
    """Create a root on first write: owner-only directory plus its .gitignore and .gitattributes."""
    root.path.mkdir(parents=True, exist_ok=True, mode=0o700)
    for name, text in ((".gitignore", GITIGNORE_TEXT), (".gitattributes", GITATTRIBUTES_TEXT)):
        target = root.path / name
        if not target.exists():
            write_text_atomic(target, text)


@contextlib.contextmanager
def root_lock(root: MemoryRoot) -> Iterator[None]:
    """Serialize writers of one root: several agent processes may share it (one MCP server each)."""
    ensure_root(root)
    fd = os.open(root.path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def write_text_atomic(path: Path, text: str) -> None:
    """Write via a temp file and rename, so a reader never sees half a file; owner-only mode."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        handle.write(line)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSONL file; a torn or hand-mangled line is skipped rather than failing the read."""
    if not path.is_file():
        return []
    records: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            value = json.loads(line)
            if isinstance(value, dict):
                records.append(value)
    return records


# --- times -------------------------------------------------------------------------------------


def utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


# --- frontmatter -------------------------------------------------------------------------------

_KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:(?:\s+(.*)|\s*)$")
_LIST_ITEM = re.compile(r"^\s*-(?:\s+(.*)|\s*)$")
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "~", ""}


class FrontmatterError(ValueError):
    pass


def _parse_scalar(raw: str) -> Any:
    text = raw.strip()
    if text.startswith('"'):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise FrontmatterError(f"bad double-quoted value {text!r}") from exc
    if text.startswith("'"):
        if len(text) < 2 or not text.endswith("'"):
            raise FrontmatterError(f"unterminated single-quoted value {text!r}")
        return text[1:-1].replace("''", "'")
    # A plain scalar ends at " #" (a YAML comment).
    text = re.split(r"\s+#", text, maxsplit=1)[0].rstrip()
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if lowered in ("null", "~", ""):
        return None
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def _split_flow(inner: str) -> list[str]:
    items: list[str] = []
    current: list[str] = []
    quote: str | None = None
    for ch in inner:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            current.append(ch)
        elif ch == ",":
            items.append("".join(current))
            current = []
        else:
            current.append(ch)
    if quote:
        raise FrontmatterError(f"unterminated quote in [{inner}]")
    items.append("".join(current))
    return [item for item in items if item.strip()]


def parse_frontmatter_block(lines: list[str]) -> dict[str, Any]:
    """The subset of YAML memory files use: scalars, block and flow lists, `|` and `>` blocks."""
    fields: dict[str, Any] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        match = _KEY_LINE.match(line)
        if not match:
            raise FrontmatterError(f"line {i + 2}: expected 'key: value', got {line.strip()!r}")
        key, value = match.group(1), (match.group(2) or "").strip()
        i += 1
        if value in ("|", "|-", "|+", ">", ">-", ">+"):
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i][:1] in " \t"):
                block.append(lines[i])
                i += 1
            indent = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
            texts = [b[indent:] for b in block]
            joined = "\n".join(texts) if value[0] == "|" else " ".join(t for t in texts if t)
            fields[key] = joined.strip("\n") if value.endswith("-") else joined.rstrip("\n")
            continue
        if value.startswith("["):
            if not value.rstrip().endswith("]"):
                raise FrontmatterError(f"line {i + 1}: flow list for {key!r} is not closed with ']'")
            fields[key] = [_parse_scalar(item) for item in _split_flow(value.strip()[1:-1])]
            continue
        if value == "" or value.startswith("#"):
            items: list[Any] = []
            while i < len(lines) and (item := _LIST_ITEM.match(lines[i])):
                items.append(_parse_scalar(item.group(1) or ""))
                i += 1
            fields[key] = items if items else None
            continue
        fields[key] = _parse_scalar(value)
    return fields


def split_frontmatter(text: str) -> tuple[dict[str, Any] | None, str]:
    """(fields, body). Fields is None when the file has no frontmatter; raises FrontmatterError when broken."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    if not text.startswith("---\n"):
        return None, text.strip("\n")
    lines = text.split("\n")
    for end in range(1, len(lines)):
        if lines[end].rstrip() in ("---", "..."):
            fields = parse_frontmatter_block(lines[1:end])
            return fields, "\n".join(lines[end + 1 :]).strip("\n")
    raise FrontmatterError("frontmatter opened with '---' is never closed")


def _needs_quotes(text: str) -> bool:
    return (
        text.lower() in _RESERVED
        or bool(_INT.match(text) or _FLOAT.match(text))
        or text != text.strip()
        or "\n" in text
        or text[0] in "-?:,[]{}#&*!|>'\"%@`"
        or ": " in text
        or " #" in text
        or text.endswith(":")
        or any(ord(ch) < 32 for ch in text)
    )


def dump_scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if _needs_quotes(text) else text


def dump_frontmatter(fields: dict[str, Any]) -> str:
    out = ["---"]
    for key, value in fields.items():
        if isinstance(value, list | tuple):
            if not value:
                out.append(f"{key}: []")
            else:
                out.append(f"{key}:")
                out.extend(f"  - {dump_scalar(item)}" for item in value)
        else:
            out.append(f"{key}: {dump_scalar(value)}")
    out.append("---")
    return "\n".join(out) + "\n"


# --- the memory record -------------------------------------------------------------------------


@dataclass
class Memory:
    """One memory file, as written. `status` is what the file says; see `space.effective_status`."""

    id: str
    scope: Scope
    path: Path
    summary: str
    body: str = ""
    kind: str = ""
    highlight: str = ""
    created: datetime | None = None
    updated: datetime | None = None
    load_when: list[str] = field(default_factory=list)
    pinned: bool = False
    status: str = "active"
    author: str = "person"
    source_session: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    supersedes: list[str] = field(default_factory=list)
    superseded_by: str | None = None
    reviewed_by: str | None = None
    reviewed_at: datetime | None = None
    review_note: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # unknown keys, kept on rewrite
    has_frontmatter: bool = True
    problems: list[str] = field(default_factory=list)  # what parsing found wrong, for inspect

    # Derived from id (read for every memory on every compile, so split once):
    category: str = field(init=False, repr=False, compare=False)
    slug: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.category, _, self.slug = self.id.partition("/")
        if not self.kind:
            self.kind = kind_of(self.category)

    @property
    def qualified_id(self) -> str:
        return f"{self.scope}:{self.id}"

    @property
    def by_person(self) -> bool:
        return is_person(self.author)

    def search_text(self) -> str:
        """What scoring and dedupe tokenize: slug words, summary, highlight, triggers, body."""
        return "\n".join([self.slug.replace("-", " "), self.summary, self.highlight, *self.load_when, self.body])

    def to_dict(self) -> dict[str, Any]:
        data = {key: _jsonable(value) for key, value in memory_fields(self).items()}
        data.update(scope=self.scope, category=self.category, body=self.body)
        return data


def is_person(author: str) -> bool:
    """`person` or `person:<name>`; everything else (`model`, `model:<id>`) is a model."""
    return author == "person" or author.startswith("person:")


def check_author(author: str) -> str:
    if not re.fullmatch(r"(?:person|model)(?::[\w.@/+-]{1,80})?", author):
        raise InvalidMemory(f"author {author!r} must be 'person' or 'model', optionally ':<name>' (model:claude-haiku)")
    return author


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value)
    return value


def memory_fields(memory: Memory) -> dict[str, Any]:
    """The frontmatter of `memory` in the written order; optional fields only when set."""
    supersedes: Any = memory.supersedes[0] if len(memory.supersedes) == 1 else list(memory.supersedes)
    values: dict[str, Any] = {
        "id": memory.id,
        "kind": memory.kind or kind_of(memory.category),
        "summary": memory.summary,
        "highlight": memory.highlight,
        "created": iso(memory.created) if memory.created else None,
        "updated": iso(memory.updated) if memory.updated else None,
        "load_when": list(memory.load_when),
        "pinned": memory.pinned,
        "status": memory.status,
        "author": memory.author,
        "source_session": memory.source_session,
        "valid_from": iso(memory.valid_from) if memory.valid_from else None,
        "valid_to": iso(memory.valid_to) if memory.valid_to else None,
        "supersedes": supersedes or None,
        "superseded_by": memory.superseded_by,
        "reviewed_by": memory.reviewed_by,
        "reviewed_at": iso(memory.reviewed_at) if memory.reviewed_at else None,
        "review_note": memory.review_note,
    }
    always = {"id", "kind", "summary", "highlight", "created", "updated", "load_when", "pinned", "status", "author"}
    fields = {k: v for k, v in values.items() if k in always or v not in (None, "", [])}
    fields.update(memory.extra)
    return fields


def render_memory(memory: Memory) -> str:
    body = memory.body.strip("\n")
    return dump_frontmatter(memory_fields(memory)) + ("\n" + body + "\n" if body else "")


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return [str(value)] if str(value).strip() else []


def _after_broken_frontmatter(text: str) -> list[str]:
    """The lines after a frontmatter block that could not be read (all of them when there is no block)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return lines
    closing = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    return lines[closing + 1 :] if closing is not None else lines[1:]


def memory_from_text(text: str, *, memory_id: str, scope: Scope, path: Path) -> Memory:
    """Parse one memory file. Never raises on content: what is wrong lands in `problems`."""
    problems: list[str] = []
    try:
        fields, body = split_frontmatter(text)
    except FrontmatterError as exc:
        problems.append(f"frontmatter cannot be read: {exc}")
        fields, body = None, text
    if fields is None:
        # A hand-dropped note still counts (its first line is the summary); inspect flags it. A broken
        # frontmatter block is no summary: its first line is the text after it.
        first = next((ln.strip("# ").strip() for ln in _after_broken_frontmatter(body) if ln.strip()), "")
        memory = Memory(id=memory_id, scope=scope, path=path, summary=first[:200], body=body, has_frontmatter=False)
        if not problems:
            problems.append("file has no frontmatter")
        memory.problems = problems
        return memory

    def take_time(key: str) -> datetime | None:
        value = fields.pop(key, None)
        if value in (None, ""):
            return None
        try:
            return parse_datetime(value)
        except (ValueError, OverflowError, OSError):
            problems.append(f"{key}: {value!r} is not a date or time")
            return None

    declared_id = fields.pop("id", None)
    if declared_id is not None and str(declared_id) != memory_id:
        problems.append(f"id says {declared_id!r} but the file is {memory_id}")
    status = str(fields.pop("status", None) or "active")
    if status not in STATUSES:
        problems.append(f"status {status!r} is unknown (use one of {', '.join(STATUSES)})")
    pinned = fields.pop("pinned", False)
    memory = Memory(
        id=memory_id,
        scope=scope,
        path=path,
        summary=str(fields.pop("summary", None) or ""),
        body=body,
        kind=str(fields.pop("kind", None) or kind_of(memory_id.split("/", 1)[0])),
        highlight=str(fields.pop("highlight", None) or ""),
        created=take_time("created"),
        updated=take_time("updated"),
        load_when=_as_list(fields.pop("load_when", None)),
        pinned=pinned is True,
        status=status,
        author=str(fields.pop("author", None) or "person"),
        source_session=_optional_str(fields.pop("source_session", None)),
        valid_from=take_time("valid_from"),
        valid_to=take_time("valid_to"),
        supersedes=_as_list(fields.pop("supersedes", None)),
        superseded_by=_optional_str(fields.pop("superseded_by", None)),
        reviewed_by=_optional_str(fields.pop("reviewed_by", None)),
        reviewed_at=take_time("reviewed_at"),
        review_note=_optional_str(fields.pop("review_note", None)),
    )
    memory.extra = fields
    if not memory.summary:
        problems.append("summary is empty")
    memory.problems = problems
    return memory


def _optional_str(value: Any) -> str | None:
    return None if value in (None, "") else str(value)
