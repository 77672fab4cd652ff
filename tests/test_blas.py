"""One BLAS thread is asked for only before numpy starts OpenBLAS, and known from that, not guessed from
the environment later (a search run in a process whose numpy already had two threads set the variable,
and the card encoder then skipped its thread limit: its vectors differed by ~1e-7 from an uncached one's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import json, os, sys
if sys.argv[1] == "numpy-first":
    import numpy  # noqa: F401
from recollect import blas
blas.hold_to_one_thread()
print(json.dumps({"env": os.environ.get("OPENBLAS_NUM_THREADS"), "one": blas.one_thread()}))
"""


def probe(order: str, **env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, order], env={**clean, **env}, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_one_thread_is_asked_for_before_numpy_starts() -> None:
    assert probe("blas-first") == {"env": "1", "one": True}


def test_a_users_own_setting_is_kept() -> None:
    assert probe("blas-first", OPENBLAS_NUM_THREADS="4") == {"env": "4", "one": False}
    assert probe("numpy-first", OPENBLAS_NUM_THREADS="1") == {"env": "1", "one": False}  # not known: limit anyway


def test_nothing_is_set_once_numpy_has_started() -> None:
    assert probe("blas-first")["one"] is True  # positive control: the same probe sets it when it can
    assert probe("numpy-first") == {"env": None, "one": False}


HELPER = """
import json, sys
from recollect.integrations import hookd
hookd.main(["--log-stderr", sys.argv[1]])  # the plugin helper's shortest run: no OpenCode needed
import numpy, threadpoolctl
numpy.ones((64, 64)) @ numpy.ones((64, 64))
print(json.dumps([p["num_threads"] for p in threadpoolctl.threadpool_info() if p["internal_api"] == "openblas"]))
"""


def test_the_plugin_helper_runs_on_one_blas_thread(tmp_path: Path) -> None:
    clean = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}

    def threads(script: str) -> list[int]:
        done = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / "log")],
            env=clean,
            input="",
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout.strip().splitlines()[-1])

    # positive control: the same probe without the helper's start sees OpenBLAS on every core it has
    unheld = threads(HELPER.replace("hookd.main", "len"))
    if not unheld or max(unheld) < 2:
        pytest.skip("this machine's OpenBLAS has one thread anyway")
    assert threads(HELPER) == [1] * len(unheld)
