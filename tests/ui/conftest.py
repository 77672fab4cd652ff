"""Fixtures for the web page: a real history (Claude Code transcripts written to a temp dir, then
indexed), real memory roots, `recollect ui` started as a user would, and Debian's Chromium driven
through Selenium and chromedriver (nothing downloads a browser)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from recollect import history
from recollect.memory import open_memory, remember

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
XSS = (
    'Look at this: <script>window.__xss = 1</script> and <img src=x onerror="window.__xss = 2"> '
    '[click me](javascript:window.__xss=3) <a href="javascript:window.__xss=4">a link</a>'
)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _line(session: str, cwd: Path, n: int, role: str, content: Any, parent: str | None) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": str(cwd),
        "sessionId": session,
        "type": role,
        "message": {"role": role, "content": content},
        "uuid": f"{session[:8]}-{n:04d}",
        "timestamp": f"2026-11-{10 + n // 40:02d}T10:{n % 60:02d}:00.000Z",
    }


def write_transcript(root: Path, session: str, cwd: Path, turns: list[tuple[str, Any]]) -> None:
    folder = root / "projects" / str(cwd).replace("/", "-")
    folder.mkdir(parents=True, exist_ok=True)
    lines, parent = [], None
    for n, (role, content) in enumerate(turns):
        line = _line(session, cwd, n, role, content, parent)
        parent = line["uuid"]
        lines.append(json.dumps(line))
    (folder / f"{session}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


@dataclass
class World:
    alpha: Path  # a git project with a long debugging session and memories
    beta: Path  # another project whose session holds markup and script
    url: str  # the page's URL, token included, as `recollect ui` printed it
    base: str  # scheme://host:port
    token: str
    proc: subprocess.Popen[str]
    shots: Path


def _git_init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)
    return path


def _history(tmp: Path) -> tuple[Path, Path, Path]:
    claude = tmp / "claude"
    alpha = _git_init(tmp / "alpha")
    beta = _git_init(tmp / "beta")
    turns: list[tuple[str, Any]] = [("user", "deploy fails with ECONNREFUSED 5432 on staging, can you look?")]
    for i in range(14):
        turns.append(
            ("assistant", [{"type": "text", "text": f"Step {i}: checking the database settings, attempt {i}."}])
        )
        turns.append(("user", f"still failing after attempt {i}"))
    edit = {"file_path": str(alpha / "deploy.toml"), "old_string": "port = 5432", "new_string": "port = 6543"}
    turns.append(("assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Edit", "input": edit}]))
    turns.append(("user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "The file was updated."}]))
    turns.append(("assistant", [{"type": "text", "text": "Fixed: staging Postgres listens on 6543, not 5432."}]))
    write_transcript(claude, "aaaaaaaa-1111-4111-8111-111111111111", alpha, turns)
    write_transcript(
        claude,
        "bbbbbbbb-2222-4222-8222-222222222222",
        beta,
        [("user", XSS), ("assistant", [{"type": "text", "text": "That markup stays text: " + XSS}])],
    )
    return claude, alpha, beta


def start_ui(cwd: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "ui"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        proc.kill()
        raise AssertionError(f"recollect ui printed {url!r} first; stderr: {proc.stderr.read() if proc.stderr else ''}")
    return proc, url


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    claude, alpha, beta = _history(tmp_path)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    history.index()
    space = open_memory(alpha)
    remember(space, "Staging Postgres listens on 6543.", category="facts", summary="staging db port")
    # A model's rule is only ever a proposal: it waits for review.
    remember(
        space,
        "Run the deploy with pnpm, not npm.\n\nEvidence: the lockfile is pnpm's.",
        category="rules",
        summary="deploy with pnpm",
        author="model",
    )
    proc, url = start_ui(alpha)
    base = url.split("/search", 1)[0]
    shots = Path(os.environ.get("RECOLLECT_UI_SCREENSHOTS", tmp_path / "screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    try:
        yield World(alpha, beta, url, base, url.split("token=", 1)[1], proc, shots)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Chromium for the module's tests (its start costs seconds); `browser` gives each test a clean one."""
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        msg = "the UI tests need Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
        if _in_ci():
            pytest.fail(msg + " (CI=true: they must run)", pytrace=False)
        pytest.skip(msg)
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The module's Chromium with nothing of an earlier test: no cookie, cache or stored data, one blank tab.
    (Each test's `recollect ui` has its own port, so its own origin, token and cookie name too.)"""

    def clean() -> None:
        for handle in chromium.window_handles[1:]:
            chromium.switch_to.window(handle)
            chromium.close()
        chromium.switch_to.window(chromium.window_handles[0])
        chromium.get("about:blank")
        chromium.execute_cdp_cmd("Network.clearBrowserCookies", {})
        chromium.execute_cdp_cmd("Network.clearBrowserCache", {})
        chromium.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": "*", "storageTypes": "all"})

    clean()
    assert not chromium.get_cookies()
    yield chromium
    clean()


def shot(driver: Any, world: World, name: str) -> Path:
    path = world.shots / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def wait_for(predicate: Any, what: str = "", timeout: float = 60.0) -> Any:
    """`predicate()`'s first true value, asked again until it is true. The deadline only turns a page that
    never comes into a failure saying what did not come (until now the wait gave up silently after 10 s,
    and the test failed further on, on what it read next)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what or predicate}")
        time.sleep(0.05)


def open_page(driver: Any, url: str, selector: str) -> list[Any]:
    """Go to `url`, then wait for `selector` on it. Right after `get` returns, chromedriver may still read the
    page being replaced: on a loaded machine (six UI runs at nice 19, load 25) `page_source` was "" right
    after `get` in 5 of 480 loads, with the page complete a moment later. So never read a page until an
    element of it is there."""
    from selenium.webdriver.common.by import By

    driver.get(url)
    return wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, selector), f"{selector} on {url}")
