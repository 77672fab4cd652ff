"""Compiled files: generated from frontmatter, byte-stable, and hand-written ROOT prose kept."""

from __future__ import annotations

from pathlib import Path

from recollect.memory import MemorySpace, compile_memory, inspect, remember, supersede


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.md"))}


def fill(space: MemorySpace) -> None:
    remember(space, "pnpm, not npm", category="pitfalls", summary="Deploy | uses pnpm", load_when=["deploy", "Deploy"])
    remember(space, "Never force-push", category="rules", summary="Never force-push main", load_when=["git"])
    remember(space, "Use SQLite", category="decisions", summary="SQLite for the index", pinned=True)
    supersede(space, "decisions/sqlite-for-the-index", "SQLite WAL", summary="SQLite in WAL mode")


def test_compiling_twice_changes_nothing(space: MemorySpace, project: Path) -> None:
    fill(space)
    root = project / ".memory"
    before = snapshot(root)
    assert compile_memory(space) == []
    assert snapshot(root) == before
    assert compile_memory(space, check=True) == []


def test_index_and_root_tables_are_compiled_from_frontmatter(space: MemorySpace, project: Path) -> None:
    fill(space)
    root = project / ".memory"
    index = (root / "decisions" / "index.md").read_text()
    assert "- [sqlite-for-the-index](sqlite-for-the-index.md) — SQLite for the index · superseded by" in index
    assert "- [sqlite-in-wal-mode](sqlite-in-wal-mode.md) — SQLite in WAL mode" in index
    text = (root / "ROOT.md").read_text()
    assert "- Never force-push main ([rules/never-force-push-main](rules/never-force-push-main.md))" in text
    assert "| decisions | 1 | 2 | [decisions/index.md](decisions/index.md) |" in text
    assert "| facts | 0 | 0 | — |" in text
    # triggers group case-insensitively; a pipe in text cannot break the table
    assert "| deploy | pitfalls/deploy-uses-pnpm |" in text
    assert "— Deploy | uses pnpm · when: deploy, Deploy" in (root / "pitfalls" / "index.md").read_text()


def test_hand_written_root_prose_is_kept(space: MemorySpace, project: Path) -> None:
    fill(space)
    root_md = project / ".memory" / "ROOT.md"
    text = root_md.read_text()
    text = text.replace("## Current goals\n", "## Current goals\n\nShip the memory feature by Friday.\n")
    text += "\n## Notes\n\nHand-written, keep me.\n"
    root_md.write_text(text)
    remember(space, "A new fact", category="facts", summary="new fact", load_when=["fact"])
    after = root_md.read_text()
    assert "Ship the memory feature by Friday." in after and "Hand-written, keep me." in after
    assert "| fact | facts/new-fact |" in after


def test_inspect_finds_drift_dangling_unknown_and_bare_files(space: MemorySpace, project: Path) -> None:
    fill(space)
    assert inspect(space).ok  # positive control
    root = project / ".memory"
    (root / "pitfalls" / "hand-added.md").write_text(
        "---\nid: pitfalls/hand-added\nsummary: added by hand\n---\nbody\n"
    )
    (root / "facts").mkdir(exist_ok=True)
    (root / "facts" / "bare.md").write_text("Just a note without frontmatter.\n")
    (root / "misc").mkdir()
    (root / "misc" / "thing.md").write_text("---\nsummary: in an unknown category\n---\n")
    (root / "decisions" / "orphan.md").write_text("---\nsummary: points nowhere\nsupersedes: decisions/ghost\n---\n")
    (root / "pitfalls" / "Bad Name.md").write_text("x")
    codes = {(p.code, p.path) for p in inspect(space).problems}
    assert ("index-drift", "pitfalls/index.md") in codes
    assert ("no-frontmatter", "facts/bare.md") in codes
    assert ("unknown-category", "misc") in codes
    assert ("dangling-supersedes", "decisions/orphan.md") in codes
    assert ("bad-file-name", "pitfalls/Bad Name.md") in codes
    assert ("root-drift", "ROOT.md") in codes
    drift = next(p for p in inspect(space).problems if p.code == "index-drift" and p.path == "pitfalls/index.md")
    assert "missing hand-added" in drift.message

    compile_memory(space)
    codes_after = {p.code for p in inspect(space).problems}
    assert "index-drift" not in codes_after and "root-drift" not in codes_after
    assert "[hand-added](hand-added.md)" in (root / "pitfalls" / "index.md").read_text()


def test_a_category_emptied_by_forget_says_so(space: MemorySpace, project: Path) -> None:
    from recollect.memory import forget

    remember(space, "only one", category="facts", summary="only one")
    forget(space, "facts/only-one")
    index = (project / ".memory" / "facts" / "index.md").read_text()
    assert "only-one" not in index and "_(no memories yet)_" in index


def test_broken_generated_region_is_reported(space: MemorySpace, project: Path) -> None:
    fill(space)
    root_md = project / ".memory" / "ROOT.md"
    root_md.write_text(root_md.read_text().replace("<!-- recollect:end routing -->", ""))
    problems = inspect(space).problems
    assert [p.code for p in problems] == ["root-broken"]
