"""The npm pre-install of `recollect install opencode` (integrations/opencode/npm.py): what it tells while
npm runs, and what it says when npm fails. npm here is a script on PATH that behaves like npm's
`--loglevel http` output (a line per registry request, `npm error …` lines on failure)."""

from __future__ import annotations

import json
import os
import select
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main
from recollect.integrations import opencode as oc
from recollect.integrations.opencode.npm import npm_failure, run_npm

# Prints FAKE_NPM_SAY's lines (to stderr, as npm does), waits for FAKE_NPM_WAIT to exist (or sleeps
# FAKE_NPM_SLEEP seconds), then installs the package files as npm would, or exits with FAKE_NPM_EXIT.
FAKE_NPM = """#!{python}
import json, os, sys, time
from pathlib import Path
for line in os.environ.get("FAKE_NPM_SAY", "").splitlines():
    print(line, file=sys.stderr, flush=True)
wait = os.environ.get("FAKE_NPM_WAIT")
deadline = time.monotonic() + 60
while wait and not Path(wait).exists() and time.monotonic() < deadline:
    time.sleep(0.05)
time.sleep(float(os.environ.get("FAKE_NPM_SLEEP", "0")))
if os.environ.get("FAKE_NPM_EXIT"):
    sys.exit(int(os.environ["FAKE_NPM_EXIT"]))
prefix = Path(sys.argv[sys.argv.index("--prefix") + 1])
name, version = sys.argv[-1].rsplit("@", 1)
pkg = prefix / "node_modules" / name
pkg.mkdir(parents=True, exist_ok=True)
(pkg / "package.json").write_text(json.dumps({{"name": name, "version": version}}))
(prefix / "package.json").write_text(json.dumps({{"dependencies": {{name: version}}}}))
(prefix / "package-lock.json").write_text(json.dumps({{"packages": {{"": {{"dependencies": {{name: version}}}}}}}}))
print("added 1 package in 0s")
"""

FETCHES = "\n".join(
    [
        "npm http fetch GET 200 https://registry.npmjs.org/@opencode-ai%2fplugin 96ms (cache miss)",
        "npm http fetch GET 200 https://registry.npmjs.org/@types%2femscripten 6ms (cache miss)",
        "npm warn EBADENGINE Unsupported engine {",
        "npm http cache yaml@https://registry.npmjs.org/yaml/-/yaml-2.9.1.tgz 0ms (cache hit)",
        "npm http fetch GET 200 https://registry.npmjs.org/zod/-/zod-3.23.8.tgz 77ms (cache miss)",
    ]
)

# What npm 11 printed for a version that does not exist (its last line is only where its log is, under npm's
# cache folder: `logs`, a temp dir here).
ETARGET = """npm http fetch GET 200 https://registry.npmjs.org/@opencode-ai%2fplugin 32ms (cache updated)
npm error code ETARGET
npm error notarget No matching version found for @opencode-ai/plugin@0.0.0-nope.
npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.
npm error A complete log of this run can be found in: {logs}/2026-12-02T05_37_32_246Z-debug-0.log"""


@pytest.fixture
def fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(FAKE_NPM.format(python=sys.executable))
    npm.chmod(npm.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return npm


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    return tmp_path / "xdg" / "opencode"


def test_progress_counts_registry_requests_and_ticks_while_npm_is_quiet(
    fake_npm: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_NPM_SAY", FETCHES)
    monkeypatch.setenv("FAKE_NPM_SLEEP", "2.6")  # quiet after its requests: the ticks must go on
    told: list[oc.NpmStatus] = []
    report = oc.Report(config_dir=str(config_dir), dry_run=False)
    run_npm(config_dir, "1.2.3", report, {}, told.append)

    assert any("npm install @opencode-ai/plugin@1.2.3" in c.action for c in report.changes)  # it worked
    assert told[0].requests == 0 and not told[0].done and told[0].package == "@opencode-ai/plugin@1.2.3"
    assert told[-1].done and told[-1].requests == 4
    named = [s.last for s in told if s.last]
    assert list(dict.fromkeys(named)) == ["@opencode-ai/plugin", "@types/emscripten", "yaml", "zod"]
    quiet = [s for s in told if s.requests == 4 and not s.done]
    assert len(quiet) >= 3  # told at least every second while npm printed nothing
    assert [s.elapsed for s in told] == sorted(s.elapsed for s in told)
    assert told[-1].elapsed >= 2.5


def test_a_failing_npm_says_why_not_where_its_log_is(
    fake_npm: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    logs = tmp_path / "npm-cache" / "_logs"
    monkeypatch.setenv("FAKE_NPM_SAY", ETARGET.format(logs=logs))
    monkeypatch.setenv("FAKE_NPM_EXIT", "1")
    told: list[oc.NpmStatus] = []
    report = oc.install(config_dir=config_dir, npm=True, opencode_version="1.2.3", npm_progress=told.append)
    note = next(n for n in report.notes if "npm install" in n)
    assert "failed: notarget No matching version found for @opencode-ai/plugin@0.0.0-nope." in note
    assert "complete log" not in note and str(logs) not in note and "npm_config_fetch_retries=0" in note
    assert not any("node_modules" in c.path for c in report.changes)
    assert told[-1].done  # the progress ends even when npm fails


def test_npm_failure_picks_the_reason(tmp_path: Path) -> None:
    npm_home = tmp_path / "lib" / "node_modules" / "npm"
    refused = [
        "npm http fetch GET http://127.0.0.1:9/@opencode-ai%2fplugin attempt 1 failed with ECONNREFUSED",
        "npm error code ECONNREFUSED",
        "npm error syscall connect",
        "npm error errno ECONNREFUSED",
        "npm error FetchError: request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED 127.0.0.1:9",
        f"npm error     at ClientRequest.<anonymous> ({npm_home}/index.js:130:14)",
        f"npm error A complete log of this run can be found in: {tmp_path}/x.log",
    ]
    assert npm_failure(refused).startswith("FetchError: request to http://127.0.0.1:9/x failed")
    assert npm_failure(["something odd", "the last word", ""]) == "the last word"  # no npm error line
    assert npm_failure([]) == ""


def _read_line(stream: object, deadline: float) -> str:
    """One line of a pipe, or "" when nothing came before `deadline`."""
    fd = stream.fileno()  # type: ignore[attr-defined]
    chunk = b""
    while not chunk.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return ""
        byte = os.read(fd, 1)
        if not byte:
            break
        chunk += byte
    return chunk.decode()


def test_piped_install_says_what_npm_is_doing_while_it_runs(
    fake_npm: Path, config_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = tmp_path / "release"
    monkeypatch.setenv("FAKE_NPM_SAY", FETCHES)
    monkeypatch.setenv("FAKE_NPM_WAIT", str(release))
    cmd = [sys.executable, "-m", "recollect.cli", "install", "opencode", "--config-dir", str(config_dir)]
    cmd += ["--opencode-version", "1.2.3"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        said = ""
        while "with npm" not in said:
            line = _read_line(proc.stderr, deadline)
            assert line, f"nothing said while npm runs; stderr so far: {said!r}"
            said += line
        # npm is still waiting for the release: the line came while it ran, not after
        assert proc.poll() is None and not (config_dir / "node_modules").exists()
        assert "installing @opencode-ai/plugin@1.2.3 with npm into" in said and "can take a minute" in said
        release.write_text("go")
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    rest = err.decode()
    assert "npm ended after" in rest and "4 registry requests (last: zod)" in rest
    assert "\x1b[" not in said + rest  # plain lines when piped: no spinner, no colour
    assert "npm install @opencode-ai/plugin@1.2.3" in out.decode()


def test_json_output_stays_json_and_quiet(fake_npm: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_NPM_SAY", FETCHES)
    r = CliRunner().invoke(
        main, ["install", "opencode", "--config-dir", str(config_dir), "--opencode-version", "1.2.3", "--json"]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert any("npm install" in c["action"] for c in data["changes"])  # positive control: npm ran
    assert "with npm" not in r.stderr


def test_npm_that_ended_is_not_waited_for_while_a_child_of_it_holds_the_pipe(
    fake_npm: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An install script's process (here: a sleeper) can outlive npm and keep npm's output pipe open.
    fake_npm.write_text(
        FAKE_NPM.format(python=sys.executable).replace(
            'print("added 1 package in 0s")',
            'import subprocess\nsubprocess.Popen([sys.executable, "-c", "import time; time.sleep(20)"])\n'
            'print("added 1 package in 0s")',
        )
    )
    told: list[oc.NpmStatus] = []
    started = time.monotonic()
    report = oc.Report(config_dir=str(config_dir), dry_run=False)
    run_npm(config_dir, "1.2.3", report, {}, told.append)
    assert any("npm install" in c.action for c in report.changes) and told[-1].done
    assert time.monotonic() - started < 15  # not the sleeper's 20 s
