"""The Health page says what `recollect doctor` says, in the same words and units (in a real Chromium)."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from click.testing import CliRunner

from recollect.cli import main
from recollect.config import load_config

from .conftest import World, open_page, shot, wait_for


def test_health_shows_the_index_size_doctor_shows(world: World, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    # An index of about 6 MB, where MB (1,000,000 bytes) and MiB (1,048,576) differ in the first decimal.
    with sqlite3.connect(load_config().index_path) as conn:
        conn.execute("CREATE TABLE test_padding (b BLOB)")
        conn.execute("INSERT INTO test_padding VALUES (zeroblob(6000000))")
    runner = CliRunner()
    data = json.loads(runner.invoke(main, ["doctor", "--json"]).output)
    size = data["index_bytes"]
    assert f"{size / 1e6:.1f}" != f"{size / 1048576:.1f}"  # the padding makes the two units tell apart
    doctor = runner.invoke(main, ["doctor"]).output
    said = re.search(r"^index: .*\((\d+ sessions?, [\d.]+ MB)\)$", doctor, re.M)
    assert said, doctor
    assert said.group(1).endswith(f"{size / 1e6:.1f} MB")

    open_page(browser, world.url, "#q")
    open_page(browser, world.base + "/health", "#index-size")
    assert browser.find_element(By.CSS_SELECTOR, "#index-size").text == said.group(1)
    shot(browser, world, "health")


def test_health_lists_the_opencode_problems_doctor_lists(world: World, browser: Any, tmp_path: Any) -> None:
    from selenium.webdriver.common.by import By

    config_dir = tmp_path / "opencode-config"
    runner = CliRunner()
    assert runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm"]).exit_code == 0
    open_page(browser, world.url, "#q")
    open_page(browser, world.base + "/health", "#index-size")
    fine = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "ul.problems li")]
    assert not [p for p in fine if p.startswith("OpenCode")], fine  # positive control: installed, all there
    (config_dir / "plugin" / "recollect.js").unlink()
    said = [p for p in json.loads(runner.invoke(main, ["doctor", "--json"]).output)["problems"] if "OpenCode" in p]
    assert len(said) == 1 and "plugin" in said[0], said
    browser.get(world.base + "/health")
    # The page before held a list too: wait for the problem itself, not for any list.
    wait_for(
        lambda: said[0] in [li.text for li in browser.find_elements(By.CSS_SELECTOR, "ul.problems li")],
        f"{said[0]!r} on the Health page",
    )


def test_health_says_what_doctor_says_of_the_opencode_connection(world: World, browser: Any, tmp_path: Any) -> None:
    from selenium.webdriver.common.by import By

    open_page(browser, world.url, "#q")
    open_page(browser, world.base + "/health", "#index-size")
    config_dir = tmp_path / "opencode-config"
    assert str(config_dir) not in browser.page_source  # positive control: nothing installed there yet
    runner = CliRunner()
    assert runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm"]).exit_code == 0
    doctor = runner.invoke(main, ["doctor"]).output
    fine = [line.strip().removesuffix(": ok") for line in doctor.splitlines() if line.startswith("  ")]
    assert f"opencode: {config_dir} [ok]" in doctor and len(fine) == 4, doctor
    open_page(browser, world.base + "/health", "#opencode")
    said = browser.find_element(By.CSS_SELECTOR, "#opencode").text
    assert f"{config_dir}: connected" in said, said
    assert all(f"{line}: ok" in said for line in fine), said  # each check doctor made, in its words
