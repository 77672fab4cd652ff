"""`recollect install opencode` / `uninstall opencode` against temporary config dirs."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import jsonc
from recollect.cli import main
from recollect.config import resolve_paths
from recollect.integrations import opencode as oc

USER_JSONC = """// mine
{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "github": {"type": "remote", "url": "https://example.invalid/mcp"}, // keep me
  },
  "theme": "dark", /* trailing comma below */
}
"""


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    return tmp_path / "xdg" / "opencode"


def install(config_dir: Path, **kw: object) -> oc.Report:
    kw.setdefault("npm", False)
    return oc.install(config_dir=config_dir, **kw)  # type: ignore[arg-type]


def test_fresh_install_then_uninstall_leaves_nothing(config_dir: Path) -> None:
    report = install(config_dir)
    assert not report.conflicts
    assert {(c.path.rsplit("/", 2)[-1], c.action) for c in report.changes} == {
        ("opencode.json", "create"),
        ("recall.md", "create"),
        ("recollect.js", "create"),
    }
    config = json.loads((config_dir / "opencode.json").read_text())
    assert config["$schema"] == oc.SCHEMA_URL  # else OpenCode rewrites the file to add it
    entry = config["mcp"]["recollect"]
    assert entry["type"] == "local" and entry["timeout"] == oc.MCP_TIMEOUT_MS
    assert entry["command"] == [sys.executable, "-m", "recollect.cli", "mcp"]
    assert os.path.isabs(entry["command"][0])
    assert entry["environment"] == {"RECOLLECT_HOME": os.environ["RECOLLECT_HOME"]}  # pinned: same data

    agent = (config_dir / "agent" / "recall.md").read_text()
    front = agent.split("---")[1]
    assert "mode: subagent" in front and '"*": false' in front and '"recollect_*": true' in front
    assert front.index('"*": false') < front.index('"recollect_*": true')  # last matching rule wins
    assert "Sources:" in agent and "directory" in agent

    plugin = (config_dir / "plugin" / "recollect.js").read_text()
    installed_line = next(line for line in plugin.splitlines() if "@recollect-install" in line)
    installed = json.loads(installed_line.split("=", 1)[1].split("//")[0])
    assert installed == {"python": sys.executable, "env": {"RECOLLECT_HOME": os.environ["RECOLLECT_HOME"]}}
    assert oc.MARK in plugin and oc.MARK in agent

    manifest = json.loads(oc.manifest_path().read_text())
    assert str(config_dir.absolute()) in manifest["installs"]

    back = oc.uninstall(config_dir=config_dir)
    assert not config_dir.exists(), snapshot(config_dir.parent)
    assert any("delete" in c.action for c in back.changes)
    assert json.loads(oc.manifest_path().read_text())["installs"] == {}


def test_install_is_idempotent(config_dir: Path) -> None:
    install(config_dir)
    before = snapshot(config_dir)
    again = install(config_dir)
    assert again.changes == [] and not again.conflicts
    assert snapshot(config_dir) == before
    assert any("already up to date" in n for n in again.notes)


def test_dry_run_writes_nothing(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.jsonc").write_text(USER_JSONC)
    report = install(config_dir, dry_run=True, npm=True, opencode_version="1.2.3")
    assert report.dry_run
    assert [c.keys for c in report.changes if c.path.endswith("opencode.jsonc")] == [["mcp.recollect"]]
    assert any("npm install @opencode-ai/plugin@1.2.3" in c.action for c in report.changes)
    assert snapshot(config_dir) == {"opencode.jsonc": USER_JSONC.encode()}
    assert not oc.manifest_path().exists()


def test_users_jsonc_is_edited_in_place_and_restored_byte_for_byte(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "opencode.jsonc"
    path.write_text(USER_JSONC)
    install(config_dir)
    text = path.read_text()
    for kept in ("// mine", "// keep me", "/* trailing comma below */", '"theme": "dark",'):
        assert kept in text
    data = jsonc.loads(text)
    assert set(data["mcp"]) == {"github", "recollect"}
    oc.uninstall(config_dir=config_dir)
    assert path.read_bytes() == USER_JSONC.encode()


def test_later_edits_by_the_person_survive_uninstall(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "opencode.jsonc"
    path.write_text(USER_JSONC)
    install(config_dir)
    edited = path.read_text().replace('"theme": "dark",', '"theme": "light", // changed after install')
    path.write_text(edited)
    report = oc.uninstall(config_dir=config_dir)
    assert any("remove" in c.action for c in report.changes)
    assert path.read_text() == USER_JSONC.replace('"theme": "dark",', '"theme": "light", // changed after install')


def test_created_mcp_object_is_removed_again(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "opencode.json"
    original = '{\n  "$schema": "https://opencode.ai/config.json",\n  "theme": "dark"\n}\n'
    path.write_text(original)
    install(config_dir)
    path.write_text(path.read_text().replace('"dark"', '"light"'))  # touched: no byte restore possible
    oc.uninstall(config_dir=config_dir)
    assert path.read_text() == original.replace('"dark"', '"light"')


def test_someone_elses_recollect_entry_needs_force_and_comes_back(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "opencode.json"
    theirs = '{\n  "mcp": {\n    "recollect": {"type": "local", "command": ["my-own", "server"]}\n  }\n}\n'
    path.write_text(theirs)
    report = install(config_dir)
    assert report.conflicts and "--force" in report.conflicts[0]
    assert snapshot(config_dir) == {"opencode.json": theirs.encode()}  # nothing at all was written
    assert not oc.manifest_path().exists()

    forced = install(config_dir, force=True)
    assert not forced.conflicts
    assert jsonc.loads(path.read_text())["mcp"]["recollect"]["command"][-1] == "mcp"
    oc.uninstall(config_dir=config_dir)
    assert path.read_text() == theirs

    # The same when the file was touched in between: their entry is put back, the touch stays.
    install(config_dir, force=True)
    path.write_text(path.read_text() + "\n")
    oc.uninstall(config_dir=config_dir)
    assert jsonc.loads(path.read_text())["mcp"]["recollect"] == {"type": "local", "command": ["my-own", "server"]}


def test_someone_elses_agent_file_needs_force_and_comes_back(config_dir: Path) -> None:
    (config_dir / "agent").mkdir(parents=True)
    agent = config_dir / "agent" / "recall.md"
    agent.write_text("---\nmode: subagent\n---\nMy own recall agent.\n")
    report = install(config_dir)
    assert report.conflicts and "recall.md" in report.conflicts[0]
    assert not (config_dir / "opencode.json").exists()
    install(config_dir, force=True)
    assert oc.MARK in agent.read_text()
    oc.uninstall(config_dir=config_dir)
    assert agent.read_text() == "---\nmode: subagent\n---\nMy own recall agent.\n"


def test_new_python_path_updates_our_entry_without_force(config_dir: Path, tmp_path: Path) -> None:
    install(config_dir)
    other = str(tmp_path / "venv" / "bin" / "python")
    report = install(config_dir, python=other)
    assert not report.conflicts
    assert jsonc.loads((config_dir / "opencode.json").read_text())["mcp"]["recollect"]["command"][0] == other
    assert other in (config_dir / "plugin" / "recollect.js").read_text()
    oc.uninstall(config_dir=config_dir)
    assert not config_dir.exists()


def test_relative_python_is_refused(config_dir: Path) -> None:
    with pytest.raises(oc.InstallError, match="absolute"):
        install(config_dir, python="python3")


def test_unreadable_config_is_reported_not_overwritten(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.json").write_text('{"mcp": {')
    with pytest.raises(oc.InstallError, match="cannot read it"):
        install(config_dir)
    assert (config_dir / "opencode.json").read_text() == '{"mcp": {'


def test_choose_config_file(tmp_path: Path) -> None:
    assert oc.choose_config_file(tmp_path) == tmp_path / "opencode.json"
    (tmp_path / "opencode.jsonc").write_text("{}")
    assert oc.choose_config_file(tmp_path) == tmp_path / "opencode.jsonc"
    (tmp_path / "opencode.json").write_text('{"model": "x"}')
    assert oc.choose_config_file(tmp_path) == tmp_path / "opencode.jsonc"  # loaded last: wins
    (tmp_path / "opencode.json").write_text('{"mcp": {"a": {}}}')
    assert oc.choose_config_file(tmp_path) == tmp_path / "opencode.json"  # where the servers are


FAKE_NPM = """#!{python}
import json, os, sys
from pathlib import Path
with open(os.environ["FAKE_NPM_LOG"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
prefix = Path(sys.argv[sys.argv.index("--prefix") + 1])
name, version = sys.argv[-1].rsplit("@", 1)
pkg = prefix / "node_modules" / name
pkg.mkdir(parents=True, exist_ok=True)
(pkg / "package.json").write_text(json.dumps({{"name": name, "version": version}}))
(prefix / "package.json").write_text(json.dumps({{"dependencies": {{name: version}}}}))
(prefix / "package-lock.json").write_text(json.dumps({{"packages": {{"": {{"dependencies": {{name: version}}}}}}}}))
"""


def test_npm_preinstall_is_recorded_and_undone(
    config_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(FAKE_NPM.format(python=sys.executable))
    npm.chmod(npm.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "npm.log"
    monkeypatch.setenv("FAKE_NPM_LOG", str(log))
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")

    report = install(config_dir, npm=True, opencode_version="1.2.3")
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(calls) == 1
    assert calls[0][0] == "install" and calls[0][-1] == "@opencode-ai/plugin@1.2.3"
    assert calls[0][calls[0].index("--prefix") + 1] == str(config_dir.absolute())  # never a parent project
    assert any("npm install @opencode-ai/plugin@1.2.3" in c.action for c in report.changes)

    again = install(config_dir, npm=True, opencode_version="1.2.3")
    assert len(log.read_text().splitlines()) == 1  # already there: OpenCode will not reinstall either
    assert any("already installed" in n for n in again.notes)

    oc.uninstall(config_dir=config_dir)
    assert not config_dir.exists()


def test_without_npm_the_offline_fallback_is_explained(config_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    report = install(config_dir, npm=True, opencode_version="1.2.3")
    assert any("npm_config_fetch_retries=0" in n for n in report.notes)
    assert (config_dir / "plugin" / "recollect.js").exists()


def test_uninstall_without_a_record_removes_only_what_is_marked_ours(config_dir: Path) -> None:
    install(config_dir)
    oc.manifest_path().unlink()
    (config_dir / "agent" / "other.md").write_text("not ours")
    report = oc.uninstall(config_dir=config_dir)
    assert any("no install recorded" in n for n in report.notes)
    assert not (config_dir / "plugin" / "recollect.js").exists()
    assert not (config_dir / "agent" / "recall.md").exists()
    assert (config_dir / "agent" / "other.md").read_text() == "not ours"
    assert "recollect" not in jsonc.loads((config_dir / "opencode.json").read_text()).get("mcp", {})


def test_cli_dry_run_json_and_conflict_exit(config_dir: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm", "--dry-run"])
    assert r.exit_code == 0, r.output
    assert "opencode.json" in r.output and "mcp.recollect" in r.output and "Dry run" in r.output
    assert not config_dir.exists()

    r = runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert {c["path"].rsplit("/", 1)[-1] for c in data["changes"]} == {"opencode.json", "recall.md", "recollect.js"}

    r = runner.invoke(main, ["uninstall", "opencode", "--config-dir", str(config_dir)])
    assert r.exit_code == 0, r.output
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.json").write_text('{"mcp": {"recollect": {"type": "remote", "url": "x"}}}')
    r = runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm"])
    assert r.exit_code == 1 and "--force" in r.output


@pytest.mark.skipif(shutil.which("node") is None, reason="node checks the plugin's syntax")
def test_installed_plugin_is_valid_javascript(config_dir: Path, tmp_path: Path) -> None:
    install(config_dir)
    copy = tmp_path / "plugin.mjs"
    copy.write_text((config_dir / "plugin" / "recollect.js").read_text())
    r = subprocess.run(["node", "--check", str(copy)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def test_a_symlinked_config_is_edited_through_the_link(config_dir: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "opencode.jsonc"
    dotfiles.parent.mkdir()
    dotfiles.write_text(USER_JSONC)
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.jsonc").symlink_to(dotfiles)
    install(config_dir)
    assert (config_dir / "opencode.jsonc").is_symlink()
    assert "recollect" in jsonc.loads(dotfiles.read_text())["mcp"]
    oc.uninstall(config_dir=config_dir)
    assert (config_dir / "opencode.jsonc").is_symlink() and dotfiles.read_text() == USER_JSONC


def test_install_says_automatic_extraction_is_on_and_how_to_turn_it_off(config_dir: Path) -> None:
    report = install(config_dir)
    note = next(n for n in report.notes if "automatic memory extraction" in n)
    assert "is on" in note and "auto_extract = false" in note and "memory review" in note
    # OpenCode 1.18.33's TUI listens on no port unless started with --port: the plugin's bridge reaches it.
    assert "loopback bridge the plugin opens" in note and "'opencode --port 4096'" not in note
    config = resolve_paths().config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[extract]\nendpoint = "http://127.0.0.1:11434/v1"\nmodel = "m"\n', encoding="utf-8")
    own = next(n for n in install(config_dir).notes if "automatic memory extraction" in n)
    assert "is on" in own and "--port" not in own  # a model of one's own needs no OpenCode server
    config.write_text("[memory]\nauto_extract = false\n", encoding="utf-8")
    again = install(config_dir)
    assert any("automatic memory extraction is off" in n for n in again.notes)


def test_the_recall_agent_knows_how_to_save_a_whole_transcript(config_dir: Path) -> None:
    install(config_dir)
    agent = (config_dir / "agent" / "recall.md").read_text(encoding="utf-8")
    assert '"recollect_*": true' in agent  # positive control: our tools, history_save among them, are allowed
    assert "recollect_history_save" in agent and "recall/" in agent
