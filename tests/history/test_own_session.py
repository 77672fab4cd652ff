"""The current session is left out in its own source only, not by raw id in every source."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.integrations.hooks import HookService
from tests.conftest import SAMPLE_DB

ALPHA = "/srv/oc/projects/alpha"
ALPHA_FORK = "ses_dd4b41176ffed7PjKpOBnGy0nf"  # a session of the sample store that lists files in alpha


@pytest.fixture
def two_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> None:
    """The host's own store (OpenCode's data dir) and a second copy holding the same session ids."""
    host = Path(str(Path.home())) / ".local" / "share" / "opencode" / "opencode.db"
    host.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SAMPLE_DB, host)
    other = tmp_path / "v2" / "opencode.db"
    other.parent.mkdir()
    shutil.copyfile(SAMPLE_DB, other)
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text(
        f'[[source]]\nid = "v1"\nkind = "opencode"\npath = "{host}"\n\n'
        f'[[source]]\nid = "v2"\nkind = "opencode"\npath = "{other}"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index()


def test_own_session_names_the_hosts_source_only(two_stores: None) -> None:
    assert {s.id for s in history.configured_specs(load_config())} == {"v1", "v2"}  # both are sources
    assert history.own_session(ALPHA_FORK) == [f"v1::{ALPHA_FORK}"]
    assert history.own_session(f"v2::{ALPHA_FORK}") == [f"v2::{ALPHA_FORK}"]


def test_auto_recall_skips_the_current_session_in_its_own_store_only(two_stores: None) -> None:
    block, cue = HookService().recall_block("ses_other", ALPHA, "please list files like last time")
    # Positive control: from another session a copy is recalled (identical copies collapse into one hit).
    assert cue and (f"v1::{ALPHA_FORK}" in block or f"v2::{ALPHA_FORK}" in block)
    block, _ = HookService().recall_block(ALPHA_FORK, ALPHA, "please list files like last time")
    assert f"v1::{ALPHA_FORK}" not in block  # the session asking
    assert f"v2::{ALPHA_FORK}" in block  # the same raw id in another store is another session
