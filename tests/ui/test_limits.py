"""The Search page says what limited a search in the words the CLI and the MCP tool use
(`SearchResult.limits`, tests/search/test_limits.py), naming the page's filters; in a real Chromium."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recollect import history
from tests import many_matches

from .conftest import open_page, start_ui, wait_for


@pytest.fixture
def crowded_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(many_matches.write(tmp_path / "claude", project)))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    history.index()
    proc, url = start_ui(project)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _search(browser: Any, url: str, query: str, since: str = "") -> tuple[list[str], str]:
    """Type `query` (and a since filter) into the page, submit, and read its limit lines and coverage line."""
    from selenium.webdriver.common.by import By

    open_page(browser, url, "#q")[0].send_keys(query)
    if since:
        browser.find_element(By.CSS_SELECTOR, "details.filters summary").click()
        browser.find_element(By.CSS_SELECTOR, "input[name=since]").send_keys(since)
    browser.find_element(By.CSS_SELECTOR, "#go").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#coverage"))
    limits = [p.text for p in browser.find_elements(By.CSS_SELECTOR, "p.limit")]
    return limits, browser.find_element(By.CSS_SELECTOR, "#coverage").text


def test_the_page_says_what_limited_a_search_and_which_filters_narrow_it(crowded_page: str, browser: Any) -> None:
    limits, coverage = _search(browser, crowded_page, many_matches.RARE)
    assert coverage.startswith("1 hit") and limits == []  # positive control: nothing limited it

    limits, coverage = _search(browser, crowded_page, many_matches.WORD)
    assert "limited by" not in coverage and "candidate cap" not in coverage
    assert limits[0].startswith("these words are in so much text that the 400 passages compared")
    assert limits[0].endswith("narrow it (the scope, since, class or tool filters)")
    assert limits[1] == "showing the best 17 of 30 matching sessions; add a word or a filter to see others first"

    limits, _ = _search(browser, crowded_page, many_matches.RARE, since="30y")
    assert limits == ["only sessions active in the time window (since/until) were searched"]
