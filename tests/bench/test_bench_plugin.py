"""bench/bench_plugin.py ends what the plugin left running before it removes its scratch directory: node exits
while the plugin's helper (unref'd, so that node may exit) goes on writing there, and the removal failed
with "OSError: Directory not empty: 'home'"; and a kept --loop world is reused only as it was made (its seed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.bench_plugin import end_group, group_alive, kept_loop_world, run_whole

# Starts a child that outlives it and writes into DIR for ~10 s (as the helper does after node exits),
# prints the child's pid, and exits at once.
WRITER = """
import pathlib, sys, time
d = pathlib.Path(sys.argv[1])
for i in range(200):
    (d / f"f{i}").write_text("x")
    time.sleep(0.05)
"""
SPAWNER = f"""
import subprocess, sys
# Its pipes are not ours, as the helper's are node's.
quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
p = subprocess.Popen([sys.executable, "-c", {WRITER!r}, sys.argv[1]], **quiet)
print(p.pid)
"""


def _runs(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _removed_for_good(scratch: Path) -> bool:
    shutil.rmtree(scratch)
    time.sleep(0.3)  # a writer still running would create it again
    return not scratch.exists()


def test_a_child_left_running_is_ended_before_the_directory_goes(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    # Positive control: started as the benchmark started node before, the writer outlives its parent.
    proc = subprocess.Popen([sys.executable, "-c", SPAWNER, str(scratch)], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)  # fmt: skip
    writer = int(proc.communicate(timeout=30)[0])
    try:
        assert proc.returncode == 0 and _runs(writer) and group_alive(proc.pid) == [writer]
        assert end_group(proc.pid) == 1
        assert not _runs(writer) and group_alive(proc.pid) == []
    finally:
        if _runs(writer):
            os.kill(writer, 9)
    assert _removed_for_good(scratch)

    scratch.mkdir()
    done = run_whole([sys.executable, "-c", SPAWNER, str(scratch)], timeout=30)
    writer = int(done.stdout)
    assert done.returncode == 0 and not _runs(writer)  # ended (and waited for) before run_whole returned
    assert _removed_for_good(scratch)


def test_a_kept_world_is_reused_only_for_the_seed_it_was_made_with(tmp_path: Path) -> None:
    made = tmp_path / "loop-world.json"
    made.write_text(json.dumps({"sessions": 1000, "seed": 7, "directories": {"atlas": "/w/atlas"}}))
    # control: the same sessions and seed reuse it, without building anything
    assert kept_loop_world(tmp_path, 1000, 7, kept=True) == {"atlas": "/w/atlas"}
    with pytest.raises(SystemExit, match="1000 generated sessions made with seed 7, not 1000 with seed 8"):
        kept_loop_world(tmp_path, 1000, 8, kept=True)
    with pytest.raises(SystemExit, match="not 5000 with seed 7"):
        kept_loop_world(tmp_path, 5000, 7, kept=True)
    made.write_text(json.dumps({"sessions": 1000, "directories": {"atlas": "/w/atlas"}}))  # kept before seeds were
    with pytest.raises(SystemExit, match="its seed unrecorded"):
        kept_loop_world(tmp_path, 1000, 7, kept=True)
    # the loop world alone is generated from no seed: any seed is the same world
    made.write_text(json.dumps({"sessions": 0, "seed": 7, "directories": {"atlas": "/w/atlas"}}))
    assert kept_loop_world(tmp_path, 0, 8, kept=True) == {"atlas": "/w/atlas"}
