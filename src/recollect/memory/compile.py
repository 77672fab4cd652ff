"""Compiling a root's derived files from frontmatter: `<category>/index.md` and ROOT.md's tables.

Owns their rendering. A hand-maintained index drifts, a generated one cannot, so `index.md` is
generated whole and ROOT.md only between its `<!-- recollect:begin NAME -->` / `<!-- recollect:end
NAME -->` markers; every other byte of ROOT.md belongs to people and is kept as it is. Output depends
on file contents only (never on the clock), so compiling twice changes nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from recollect.memory.files import INDEX_FILE, ROOT_FILE, InvalidMemory, Memory, MemoryRoot, write_text_atomic
from recollect.memory.settings import RULES_CATEGORY

REGIONS = (("hard-rules", "Hard rules"), ("registry", "Directory registry"), ("routing", "Routing"))
GOALS_HEADING = "## Current goals"

ROOT_TEMPLATE = f"""# Memory

This file is the map of this memory root. Write freely anywhere outside the generated regions:
`recollect memory compile` rewrites only the text between `<!-- recollect:begin … -->` and
`<!-- recollect:end … -->`, from the frontmatter of the memory files.

{GOALS_HEADING}

<!-- What we are working towards now, one line each. This section goes to the model with every message. -->

"""

INDEX_NOTE = (
    "<!-- Compiled by recollect from the frontmatter of {category}/*.md. "
    "Do not edit: run `recollect memory compile`. -->"
)


def is_listed_active(memory: Memory) -> bool:
    """Active as written, without the clock: what the compiled tables list as live."""
    return memory.status == "active" and not memory.superseded_by


def standing(memory: Memory) -> str:
    """What a memory is by its file alone — no clock, no tombstones (see `space.effective_status`)."""
    if memory.status != "active":
        return memory.status
    if memory.superseded_by:
        return "superseded"
    if memory.category == RULES_CATEGORY and not (memory.by_person or memory.reviewed_by):
        return "proposed"  # a rule only a model vouches for is a proposal, whatever its file says
    return "active"


def is_hard_rule(memory: Memory) -> bool:
    return memory.category == RULES_CATEGORY and standing(memory) == "active"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _cell(text: str) -> str:
    return _one_line(text).replace("|", "\\|")


def index_line(memory: Memory, forgotten: bool = False) -> str:
    notes: list[str] = []
    if forgotten:
        notes.append("FORGOTTEN (tombstoned; delete this file)")
    if memory.superseded_by:
        notes.append(f"superseded by {memory.superseded_by}")
    elif memory.status != "active":
        notes.append(memory.status)
    if memory.category == RULES_CATEGORY and memory.status == "active" and not is_hard_rule(memory):
        notes.append("unreviewed model rule")
    if memory.pinned:
        notes.append("pinned")
    if memory.valid_to:
        notes.append(f"until {memory.valid_to.date().isoformat()}")
    if memory.load_when:
        notes.append("when: " + ", ".join(_one_line(w) for w in memory.load_when))
    tail = "".join(f" · {note}" for note in notes)
    return f"- [{memory.slug}]({memory.slug}.md) — {_one_line(memory.summary)}{tail}"


def render_index(
    category: str, memories: Iterable[Memory], forgotten_ids: set[str] | frozenset[str] = frozenset()
) -> str:
    lines = [f"# {category}", "", INDEX_NOTE.format(category=category), ""]
    items = sorted(memories, key=lambda m: m.slug)
    lines.extend(index_line(m, m.id in forgotten_ids) for m in items)
    if not items:
        lines.append("_(no memories yet)_")
    return "\n".join(lines) + "\n"


def listed_slugs(index_text: str) -> list[str]:
    """The slugs an index.md links to, for telling people what drifted."""
    return re.findall(r"^- \[[^\]]*\]\(([^)]+)\.md\)", index_text, flags=re.MULTILINE)


def _render_region(name: str, memories: list[Memory], categories: list[str], indexed: set[str]) -> str:
    if name == "hard-rules":
        rules = [m for m in memories if is_hard_rule(m)]
        if not rules:
            return "_(none: hard rules are files in rules/, written by a person)_"
        return "\n".join(f"- {_one_line(m.summary)} ([{m.id}]({m.id}.md))" for m in sorted(rules, key=lambda m: m.id))
    if name == "registry":
        files = Counter(m.category for m in memories)
        active = Counter(m.category for m in memories if is_listed_active(m))
        rows = ["| category | active | files | index |", "|---|---:|---:|---|"]
        for category in categories:
            link = f"[{category}/{INDEX_FILE}]({category}/{INDEX_FILE})" if category in indexed else "—"
            rows.append(f"| {category} | {active[category]} | {files[category]} | {link} |")
        return "\n".join(rows)
    # routing: every load_when trigger of a live memory -> the memories it loads
    routes: dict[str, tuple[str, set[str]]] = {}
    for memory in memories:
        if not is_listed_active(memory):
            continue
        for trigger in memory.load_when:
            shown, ids = routes.setdefault(_one_line(trigger).casefold(), (_one_line(trigger), set()))
            ids.add(memory.id)
    if not routes:
        return "_(no routes: add `load_when` triggers to memory files)_"
    rows = ["| when | load |", "|---|---|"]
    for key in sorted(routes):
        shown, ids = routes[key]
        rows.append(f"| {_cell(shown)} | {', '.join(sorted(ids))} |")
    return "\n".join(rows)


def _region_pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- recollect:begin {re.escape(name)} -->\n)(.*?)(<!-- recollect:end {re.escape(name)} -->)", re.DOTALL
    )


def _fill_region(match: re.Match[str], body: str) -> str:
    return match.group(1) + body + "\n" + match.group(3)


def render_root(existing: str | None, memories: list[Memory], categories: list[str], indexed: set[str]) -> str:
    """ROOT.md with its generated regions refreshed; text outside them is kept byte for byte."""
    text = existing if existing is not None else ROOT_TEMPLATE
    for name, title in REGIONS:
        body = _render_region(name, memories, categories, indexed)
        pattern = _region_pattern(name)
        if pattern.search(text):
            text = pattern.sub(partial(_fill_region, body=body), text, count=1)
        elif f"<!-- recollect:begin {name} -->" in text or f"<!-- recollect:end {name} -->" in text:
            raise InvalidMemory(
                f"ROOT.md: the generated region {name!r} has only one of its begin/end markers; "
                "restore the pair (or delete both and run 'recollect memory compile')"
            )
        else:
            text = text.rstrip("\n") + (
                f"\n\n## {title}\n\n<!-- recollect:begin {name} -->\n{body}\n<!-- recollect:end {name} -->\n"
            )
    return text


def goals_text(root_text: str) -> str:
    """The hand-written 'Current goals' section of a ROOT.md, without comments."""
    start = root_text.find(GOALS_HEADING)
    if start < 0:
        return ""
    section = root_text[start + len(GOALS_HEADING) :]
    next_heading = re.search(r"^#{1,2} ", section, flags=re.MULTILINE)
    section = section[: next_heading.start()] if next_heading else section
    return re.sub(r"<!--.*?-->", "", section, flags=re.DOTALL).strip()


@dataclass(frozen=True)
class CompiledFile:
    path: Path
    text: str
    current: str | None  # what is on disk now; None when missing

    @property
    def stale(self) -> bool:
        return self.text != self.current


def plan_compile(
    root: MemoryRoot,
    memories: list[Memory],
    categories: Iterable[str],
    forgotten_ids: set[str] | frozenset[str],
    *,
    only: set[str] | None = None,
) -> list[CompiledFile]:
    """Every derived file of `root` with the text it should hold. Pure apart from reading the files.

    `only` limits the index.md files to those categories (after a write that touched only them);
    ROOT.md is always planned, since its tables span every category.
    """
    # A category whose last memory was forgotten keeps an index.md, which must then say so.
    with_index = {d.name for d in root.category_dirs() if (d / INDEX_FILE).is_file()}
    by_category: dict[str, list[Memory]] = {}
    for memory in memories:
        by_category.setdefault(memory.category, []).append(memory)
    present = sorted(set(by_category) | with_index)
    all_categories = list(dict.fromkeys([*categories, *present]))
    planned: list[CompiledFile] = []
    for category in present:
        if only is not None and category not in only:
            continue
        path = root.path / category / INDEX_FILE
        text = render_index(category, by_category.get(category, []), forgotten_ids)
        planned.append(CompiledFile(path, text, _read(path)))
    root_path = root.path / ROOT_FILE
    current_root = _read(root_path)
    rendered = render_root(current_root, memories, all_categories, set(present))
    planned.append(CompiledFile(root_path, rendered, current_root))
    return planned


def write_compiled(planned: list[CompiledFile]) -> list[Path]:
    changed = [item for item in planned if item.stale]
    for item in changed:
        write_text_atomic(item.path, item.text)
    return [item.path for item in changed]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
