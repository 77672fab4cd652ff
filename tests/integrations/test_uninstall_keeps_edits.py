"""Uninstall takes back what install wrote, never what a person wrote: an edited agent file is kept aside."""

from __future__ import annotations

from pathlib import Path

from recollect.integrations import opencode as oc


def test_an_agent_file_edited_since_install_is_kept_under_a_name_opencode_does_not_load(tmp_path: Path) -> None:
    config_dir = tmp_path / "opencode"
    oc.install(config_dir=config_dir, npm=False)
    agent = config_dir / "agent" / "recall.md"
    oc.uninstall(config_dir=config_dir)
    assert not config_dir.exists()  # positive control: an untouched install leaves nothing behind

    oc.install(config_dir=config_dir, npm=False)
    edited = agent.read_text().replace("mode: subagent", "mode: subagent\nmodel: example/recall-mini", 1)
    agent.write_text(edited)
    preview = oc.uninstall(config_dir=config_dir, dry_run=True)
    assert agent.read_text() == edited and not (agent.parent / "recall.md.edited").exists()  # a dry run writes nothing
    assert any(c.path.endswith("recall.md.edited") for c in preview.changes)
    report = oc.uninstall(config_dir=config_dir)
    assert not agent.exists()  # OpenCode no longer loads a recall agent
    kept = agent.parent / "recall.md.edited"
    assert kept.read_text() == edited  # the person's edit is not lost
    assert any(c.path.endswith("recall.md.edited") and "keep your edits" in c.action for c in report.changes)
    assert not (config_dir / "plugin").exists()  # what was not edited goes as before

    oc.install(config_dir=config_dir, npm=False)
    agent.write_text(agent.read_text() + "\nmine again\n")
    oc.uninstall(config_dir=config_dir)
    assert kept.read_text() == edited and "mine again" in (agent.parent / "recall.md.edited-2").read_text()
