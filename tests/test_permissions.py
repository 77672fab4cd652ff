"""Every file and folder recollect creates is the owner's alone, whatever the umask (here: 000)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from tests.conftest import SAMPLE_DB


def test_files_and_folders_are_owner_only_under_umask_000(tmp_path: Path, isolated_home: Path) -> None:
    db = tmp_path / "store" / "opencode.db"
    db.parent.mkdir()
    db.write_bytes(SAMPLE_DB.read_bytes())
    env = {**os.environ, "OPENCODE_DB": str(db), "RECOLLECT_SOURCES": "opencode"}

    def run(*args: str, stdin: str | None = None) -> None:
        done = subprocess.run(
            [sys.executable, "-m", *args], env=env, capture_output=True, text=True, input=stdin, umask=0, timeout=300
        )
        assert done.returncode == 0, done.stderr

    run("recollect.cli", "index")
    run("recollect.cli", "search", "error", "--json")
    run("recollect.integrations.hookd", stdin="{not json\n" + json.dumps({"id": 1, "op": "ping"}) + "\n")
    home = Path(env["HOME"])
    roots = [isolated_home, home / ".cache" / "recollect", home / ".config" / "recollect"]
    made = [p for root in roots if root.exists() for p in [root, *root.rglob("*")]]
    assert any(p.name == "index.db" for p in made) and any(p.name == "opencode-plugin.log" for p in made)
    loose = {str(p): oct(stat.S_IMODE(p.lstat().st_mode)) for p in made if stat.S_IMODE(p.lstat().st_mode) & 0o077}
    assert not loose, loose
