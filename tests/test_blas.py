"""One BLAS thread is asked for only before numpy starts OpenBLAS, and known from that, not guessed from
the environment later (a search run in a process whose numpy already had two threads set the variable,
and the card encoder then skipped its thread limit: its vectors differed by ~1e-7 from an uncached one's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
