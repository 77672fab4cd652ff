"""Every plugin-helper verb under a scope ceiling, over a real store with two git projects: in process
(`HookService`), through the real helper process (`hookd --scope`), and the plugin passing the
installed ceiling on to its helper. Each refusal comes after a positive control."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from recollect.cli import main
from recollect.integrations import hookd
from recollect.integrations import opencode as oc
from recollect.integrations.hooks import HookService
from recollect.memory import open_memory, remember
from recollect.search.ceiling import ScopeCeilingError
from tests.scope_stores import ALPHA_WORD, BETA_WORD, SUB_WORD, TwoProjects, build, write_config

INSTALLED = "'recollect install opencode --scope project'"


@pytest.fixture
def two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TwoProjects:
    return build(tmp_path, monkeypatch)


def test_auto_recall_is_narrowed_by_the_ceiling(two: TwoProjects) -> None:
    cue = f"how did we rotate the {ALPHA_WORD} last time?"
    # Positive control: from alpha/sub, auto-recall searches the whole project and finds alpha's session.
    assert two.alpha_session in HookService().recall_block("ses_now", str(two.alpha_sub), cue)[0]
    assert two.alpha_session in HookService(scope="project").recall_block("ses_now", str(two.alpha_sub), cue)[0]
    # A directory ceiling keeps it to alpha/sub: the project's session is no longer reachable.
    narrowed = HookService(scope="directory")
    assert narrowed.recall_block("ses_now", str(two.alpha_sub), cue)[0] == ""
    assert two.sub_session in narrowed.recall_block("ses_now", str(two.alpha_sub), f"{SUB_WORD} like last time")[0]
    # And never another project, whatever the ceiling.
    for service in (HookService(), HookService(scope="project")):
        assert two.beta_session not in service.recall_block("ses_now", str(two.alpha), f"{BETA_WORD} last time")[0]


def test_compact_returns_only_a_card_inside_the_ceiling(two: TwoProjects) -> None:
    service = HookService(scope="project")
    own = service.on_compact(two.alpha_session, str(two.alpha))["context"]
    assert own and "Rotate the key" in own[0]  # positive control
    # Without a ceiling the verb answers for any id (the operator allowed every project).
    assert "Deploy beta" in HookService().on_compact(two.beta_session, str(two.alpha))["context"][0]
    with pytest.raises(ScopeCeilingError) as refused:
        service.on_compact(two.beta_session, str(two.alpha))
    assert INSTALLED in str(refused.value) and "Deploy beta" not in str(refused.value)


def test_the_config_ceiling_binds_the_helper_too(two: TwoProjects, isolated_home: Path) -> None:
    service = HookService()
    assert service.on_compact(two.beta_session, str(two.alpha))["context"]  # positive control
    config = write_config(isolated_home, '[scope]\nceiling = "project"\n')
    with pytest.raises(ScopeCeilingError, match=str(config)):
        HookService().on_compact(two.beta_session, str(two.alpha))


def test_idle_extracts_only_inside_the_ceiling(two: TwoProjects, monkeypatch: pytest.MonkeyPatch) -> None:
    # min_turns = 1: these one-turn sessions are long enough to extract (the turn gate is tested in test_hooks.py).
    write_config(
        HookService().paths.config_dir,
        "[opencode]\nsync_on_idle = false\n[memory]\nauto_extract = true\n[extract]\nmin_turns = 1\n",
    )
    service = HookService(scope="project")
    started: list[list[str]] = []

    class Proc:
        pid = 1

    def spawn(args: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> Proc:
        started.append(args)
        return Proc()

    monkeypatch.setattr(service, "_spawn", spawn)
    monkeypatch.setattr(service, "extract_available", lambda: True)
    assert service.on_idle(two.alpha_session, str(two.alpha)) == {"started": ["extract"]}  # positive control
    out = service.on_idle(two.beta_session, str(two.alpha))
    assert out["started"] == [] and INSTALLED in out["refused"]
    assert started == [["extract", "--session", two.alpha_session]]


def test_injection_reads_this_project_and_the_global_root_only(two: TwoProjects) -> None:
    remember(open_memory(two.beta), "Beta deploys with the blue pipeline.", category="facts")
    remember(open_memory(two.alpha), "Alpha deploys with the green pipeline.", category="facts")
    remember(open_memory(no_project=True), "Every project deploys from main.", category="facts")
    service = HookService(scope="project")
    assert "blue pipeline" in service.on_message("s", str(two.beta), "how do we deploy?")["inject"]  # control
    block = service.on_message("s", str(two.alpha), "how do we deploy?")["inject"]
    assert "green pipeline" in block and "from main" in block and "blue pipeline" not in block
    system = service.on_system(str(two.alpha))["inject"]
    assert "blue pipeline" not in system


# --- the real helper process -----------------------------------------------------------------------


def ask(proc: subprocess.Popen[str], request: dict[str, Any]) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    assert line, "the helper closed its stdout"
    return dict(json.loads(line))


def test_the_helper_process_takes_its_ceiling_from_the_command_line(two: TwoProjects) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.integrations.hookd", "--scope", "project"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["hello"]["scope"] == "project"
        own = ask(proc, {"id": 1, "op": "compact", "session": two.alpha_session, "directory": str(two.alpha)})
        assert own["ok"] and "Rotate the key" in own["context"][0]
        foreign = ask(proc, {"id": 2, "op": "compact", "session": two.beta_session, "directory": str(two.alpha)})
        assert foreign["ok"] is False and INSTALLED in foreign["error"] and "Deploy beta" not in foreign["error"]
    finally:
        proc.kill()
        proc.wait()


def test_the_helper_refuses_a_bad_scope_argument() -> None:
    assert hookd.parse_args([]) is None and hookd.parse_args(["--scope", "directory"]) == "directory"
    with pytest.raises(SystemExit, match="usage"):
        hookd.parse_args(["--scope", "galaxy"])


# --- install ---------------------------------------------------------------------------------------


def test_install_writes_the_ceiling_into_the_server_command_and_the_plugin(tmp_path: Path) -> None:
    config_dir = tmp_path / "xdg" / "opencode"
    plain = oc.install(config_dir=config_dir, npm=False)
    assert not plain.conflicts
    config = json.loads((config_dir / "opencode.json").read_text())
    assert config["mcp"]["recollect"]["command"][-1] == "mcp"  # positive control: no ceiling by default
    assert '"scope"' not in (config_dir / oc.PLUGIN_FILE).read_text().split("// @recollect-install")[0]

    result = CliRunner().invoke(
        main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm", "--scope", "project"]
    )
    assert result.exit_code == 0, result.output
    config = json.loads((config_dir / "opencode.json").read_text())
    assert config["mcp"]["recollect"]["command"][-3:] == ["mcp", "--scope", "project"]
    plugin = (config_dir / oc.PLUGIN_FILE).read_text()
    assert '"scope": "project"' in plugin
    # Still recognised as ours: uninstall takes it back.
    oc.uninstall(config_dir=config_dir)
    assert not (config_dir / oc.PLUGIN_FILE).exists()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_plugin_starts_its_helper_with_the_installed_ceiling(tmp_path: Path) -> None:
    """The real plugin under node, with a stand-in helper that records its command line."""
    plugin = tmp_path / "recollect.mjs"
    plugin.write_text(oc.plugin_text(sys.executable, "project"))
    helper = tmp_path / "fakepkg" / "recollect" / "integrations"
    helper.mkdir(parents=True)
    for init in (helper.parent / "__init__.py", helper / "__init__.py"):
        init.write_text("")
    argv_log = tmp_path / "argv.json"
    (helper / "hookd.py").write_text(
        "import json, sys\n"
        f"open({str(argv_log)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
        'print(json.dumps({"hello": {"protocol": 1, "timeout_ms": 1000}}), flush=True)\n'
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        '    print(json.dumps({"id": req["id"], "ok": True, "inject": ""}), flush=True)\n'
    )
    driver = tmp_path / "driver.mjs"
    driver.write_text(
        'import { pathToFileURL } from "node:url"\n'
        "const mod = await import(pathToFileURL(process.argv[2]).href)\n"
        'const hooks = await mod.RecollectPlugin({ directory: "/proj", worktree: "/proj" })\n'
        'await hooks["experimental.chat.system.transform"]({ sessionID: "s", model: {} }, { system: [] })\n'
    )
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(tmp_path / "fakepkg"), "RECOLLECT_HOME": str(tmp_path / "h")}
    run = subprocess.run(["node", str(driver), str(plugin)], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(argv_log.read_text()) == ["--scope", "project"]
