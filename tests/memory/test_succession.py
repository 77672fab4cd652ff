"""Hand-written successors: `supersedes:` in a file a person wrote takes effect like `--supersedes`."""

from __future__ import annotations

from pathlib import Path

from recollect.memory import MemorySpace, compile_memory, get_memory, inspect, recall, remember
from recollect.memory.inject import injection_block
from recollect.memory.recall import read_log


def ids(recalled: list) -> list[str]:
    return [r.memory.id for r in recalled]


def write_by_hand(project: Path, memory_id: str, summary: str, body: str, supersedes: str | None = None) -> Path:
    path = project / ".memory" / f"{memory_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["---", f"summary: {summary}"]
    if supersedes:
        lines.append(f"supersedes: {supersedes}")
    path.write_text("\n".join([*lines, "---", body, ""]), encoding="utf-8")
    return path


def test_hand_written_successor_supersedes_at_next_recall(space: MemorySpace, project: Path) -> None:
    remember(space, "Deploys run npm install", category="decisions", summary="deploy with npm")
    assert ids(recall(space, "deploy")) == ["decisions/deploy-with-npm"]  # positive control

    write_by_hand(
        project,
        "decisions/deploy-with-pnpm",
        "deploy with pnpm",
        "Deploys run pnpm install.",
        "decisions/deploy-with-npm",
    )
    assert ids(recall(space, "deploy")) == ["decisions/deploy-with-pnpm"]
    old = get_memory(space, "decisions/deploy-with-npm")
    assert old.status == "superseded" and old.memory.superseded_by == "decisions/deploy-with-pnpm"
    assert "superseded_by: decisions/deploy-with-pnpm" in old.memory.path.read_text(encoding="utf-8")
    marks = [e for e in read_log(space) if e.op == "supersede"]
    assert [(e.id, e.note) for e in marks] == [("decisions/deploy-with-npm", "by decisions/deploy-with-pnpm")]
    assert marks[0].actor == "person"

    # Honoured once: later recalls and compiles write nothing more.
    recall(space, "deploy")
    compile_memory(space)
    assert len([e for e in read_log(space) if e.op == "supersede"]) == 1


def test_hand_written_successor_takes_effect_at_compile_and_in_injection(space: MemorySpace, project: Path) -> None:
    remember(space, "Staging lives on port 8080", category="facts", summary="staging port 8080")
    assert "staging port 8080" in injection_block(space, "which port is staging on")  # positive control
    write_by_hand(
        project, "facts/staging-port-9090", "staging port 9090", "Staging moved to 9090.", "facts/staging-port-8080"
    )
    block = injection_block(space, "which port is staging on")
    assert "staging port 9090" in block and "staging port 8080" not in block
    assert get_memory(space, "facts/staging-port-8080").status == "superseded"

    remember(space, "Logs go to /var/log/app", category="facts", summary="log location")
    write_by_hand(project, "facts/log-location-v2", "log location v2", "Logs go to journald.", "facts/log-location")
    compile_memory(space)
    index = (project / ".memory" / "facts" / "index.md").read_text(encoding="utf-8")
    assert get_memory(space, "facts/log-location").status == "superseded"
    assert "log-location-v2" in index


def test_proposed_successor_does_not_supersede_until_accepted(space: MemorySpace, project: Path) -> None:
    remember(space, "Use tabs", category="preferences", summary="indent with tabs")
    path = write_by_hand(
        project, "preferences/indent-spaces", "indent with spaces", "Use 4 spaces.", "preferences/indent-with-tabs"
    )
    path.write_text(path.read_text(encoding="utf-8").replace("---\nsummary", "---\nstatus: proposed\nsummary", 1))
    recall(space, "indent")
    assert get_memory(space, "preferences/indent-with-tabs").status == "active"


def test_model_written_file_cannot_replace_a_hard_rule(space: MemorySpace, project: Path) -> None:
    remember(space, "Never push to main", category="rules", summary="never push to main")
    write_by_hand(project, "rules/push-anywhere", "push anywhere", "Push where you like.", "rules/never-push-to-main")
    recall(space, "push")
    assert get_memory(space, "rules/never-push-to-main").status == "superseded"  # a person may (positive control)

    remember(space, "Never force-push", category="rules", summary="never force push")
    forged = write_by_hand(
        project, "decisions/force-ok", "force push ok", "Force-push is fine.", "rules/never-force-push"
    )
    forged.write_text(forged.read_text(encoding="utf-8").replace("---\nsummary", "---\nauthor: model\nsummary", 1))
    recall(space, "force push")
    assert get_memory(space, "rules/never-force-push").status == "active"
    codes = {(p.path, p.code) for p in inspect(space).problems}
    assert ("decisions/force-ok.md", "unresolved-supersedes") in codes


def test_inspect_reports_chains_that_do_not_resolve(space: MemorySpace, project: Path) -> None:
    remember(space, "A", category="facts", summary="alpha fact")
    assert not [p for p in inspect(space).problems if "supersedes" in p.code]  # positive control
    write_by_hand(project, "facts/ghost-successor", "ghost", "x", "facts/never-existed")
    write_by_hand(project, "facts/cycle-a", "cycle a", "a", "facts/cycle-b")
    write_by_hand(project, "facts/cycle-b", "cycle b", "b", "facts/cycle-a")
    write_by_hand(project, "facts/other-root", "other root", "c", "global:facts/alpha-fact")
    recall(space, "cycle")
    problems = {p.path: (p.code, p.message) for p in inspect(space).problems if "supersedes" in p.code}
    assert problems["facts/ghost-successor.md"][0] == "dangling-supersedes"
    assert "cycle" in problems["facts/cycle-a.md"][1] and "cycle" in problems["facts/cycle-b.md"][1]
    assert "global root" in problems["facts/other-root.md"][1]
    # Neither side of the cycle was marked: a person has to say which one stands.
    assert get_memory(space, "facts/cycle-a").status == "active"
    assert get_memory(space, "facts/cycle-b").status == "active"
