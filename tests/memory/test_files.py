"""The memory file format: frontmatter parsing and writing, ids, roots."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from recollect.memory.files import (
    InvalidMemory,
    Memory,
    MemoryRoot,
    dump_frontmatter,
    find_project_root,
    memory_from_text,
    render_memory,
    split_frontmatter,
    split_id,
)

SEED_EXAMPLE = """---
id: pitfalls/sqlite-cjk-tokenizer
kind: pitfall
summary: unicode61 把整段中文当一个 token,trigram 漏掉两字词。
highlight: 实测:查"部署"两种分词器都是 0 命中
created: 1791512014824
updated: 1791512014824
load_when:
  - SQLite
  - FTS5
  - 分词
pinned: true
---
正文:上下文、决策、原因、根因。
"""


def test_reads_the_seed_example_format() -> None:
    path = Path("/r/pitfalls/sqlite-cjk-tokenizer.md")
    memory = memory_from_text(SEED_EXAMPLE, memory_id="pitfalls/sqlite-cjk-tokenizer", scope="project", path=path)
    assert memory.problems == []
    assert memory.kind == "pitfall"
    assert memory.load_when == ["SQLite", "FTS5", "分词"]
    assert memory.pinned is True
    assert memory.created == datetime.fromtimestamp(1791512014824 / 1000, UTC)
    assert memory.highlight == '实测:查"部署"两种分词器都是 0 命中'
    assert memory.body == "正文:上下文、决策、原因、根因。"
    assert memory.status == "active" and memory.author == "person"


def test_render_then_parse_is_identity_and_byte_stable() -> None:
    memory = Memory(
        id="decisions/db",
        scope="global",
        path=Path("/r/decisions/db.md"),
        summary="Use SQLite: one file, no server",
        body="Because: #1 it ships with Python.\n\n- and: it is fast",
        highlight="true",  # looks like a bool: must be quoted
        created=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        updated=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        load_when=["database", "- dash", "a: colon"],
        supersedes=["decisions/postgres"],
        valid_to=datetime(2027, 1, 1, tzinfo=UTC),
        author="model:claude-haiku",
        source_session="ses_123",
        extra={"custom": "kept"},
    )
    text = render_memory(memory)
    parsed = memory_from_text(text, memory_id="decisions/db", scope="global", path=memory.path)
    assert parsed.problems == []
    assert parsed == memory
    assert render_memory(parsed) == text


def test_flow_lists_block_scalars_and_comments_are_read() -> None:
    fields, body = split_frontmatter(
        "---\n# a comment\nload_when: [deploy, 'it''s', \"x, y\"]\n"
        "summary: >\n  folded\n  text\nnote: |\n  a\n  b\n---\nbody\n"
    )
    assert fields == {"load_when": ["deploy", "it's", "x, y"], "summary": "folded text", "note": "a\nb"}
    assert body == "body"


def test_broken_frontmatter_is_reported_not_raised() -> None:
    memory = memory_from_text(
        "---\nsummary: x\nno colon here\n---\nbody", memory_id="facts/x", scope="global", path=Path("/x")
    )
    assert memory.problems and "frontmatter cannot be read" in memory.problems[0]
    unclosed = memory_from_text("---\nsummary: x\n", memory_id="facts/x", scope="global", path=Path("/x"))
    assert unclosed.problems


def test_file_without_frontmatter_still_reads_with_a_problem() -> None:
    memory = memory_from_text("# Deploys\n\nUse pnpm.", memory_id="facts/deploys", scope="project", path=Path("/x"))
    assert memory.summary == "Deploys"
    assert not memory.has_frontmatter
    assert memory.problems == ["file has no frontmatter"]


def test_dump_quotes_what_yaml_would_misread() -> None:
    text = dump_frontmatter({"a": "yes", "b": "12", "c": "x: y", "d": "", "e": None, "f": []})
    assert text == '---\na: "yes"\nb: "12"\nc: "x: y"\nd: ""\ne: null\nf: []\n---\n'


def test_ids_that_could_leave_the_root_are_refused(tmp_path: Path) -> None:
    assert split_id("pitfalls/deploy-tool") == ("pitfalls", "deploy-tool")  # positive control
    root = MemoryRoot(tmp_path / "memory", "global")
    assert root.file_for("pitfalls/deploy-tool") == tmp_path / "memory" / "pitfalls" / "deploy-tool.md"
    for bad in (
        "../etc/passwd",
        "pitfalls/../../x",
        "/etc/passwd",
        "pitfalls/a/b",
        "pitfalls/..",
        "Pitfalls/x",
        "x",
        "",
    ):
        with pytest.raises(InvalidMemory):
            root.file_for(bad)


def test_project_root_is_the_work_tree_top_not_the_cwd(tmp_path: Path) -> None:
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    deep = top / "a" / "b"
    deep.mkdir(parents=True)
    assert find_project_root(deep) == top
    # A linked worktree has a .git *file*; it is its own top.
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / ".git").write_text("gitdir: ../repo/.git/worktrees/linked\n")
    assert find_project_root(linked) == linked
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    assert find_project_root(nowhere) != top


def test_linked_worktree_shares_the_main_checkouts_memory(tmp_path: Path) -> None:
    import subprocess

    from recollect.memory import open_memory, recall, remember

    main = tmp_path / "main"
    main.mkdir()

    def git(*args: str, cwd: Path = main) -> None:
        subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init")
    linked = tmp_path / "feature-wt"
    git("worktree", "add", "-q", str(linked))
    assert (linked / ".git").is_file()
    assert find_project_root(main / ".") == main.resolve()  # positive control: the main checkout itself
    assert find_project_root(linked) == main.resolve()

    remember(open_memory(main), "Release from the tag, never from main", category="decisions", summary="release tags")
    from_worktree = open_memory(linked / ".")
    assert from_worktree.project_root is not None and from_worktree.project_root.path == main.resolve() / ".memory"
    assert [r.memory.id for r in recall(from_worktree, "release")] == ["decisions/release-tags"]
    assert not (linked / ".memory").exists()
