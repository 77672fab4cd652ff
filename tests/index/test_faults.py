"""kill -9 of `recollect index` with semantic search on, at the points where a crash can cost something:
inside a session's rows, inside a batch, before the embedding pass of an incremental sync, at a random
statement and at a random time. After each kill the index passes SQLite's integrity check, holds no
session twice, and the next `index` makes it equal to a fresh one, vectors included.

The bench (bench/bench_faults.py) runs the same at N >= 100 random points; docs/benchmarks.md.
"""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

import pytest

from bench.storegen import generate_store
from recollect.index import prepare
from tests.index import faults
from tests.index.faults import Kill
from tests.index.test_prepare import workers_of

SESSIONS = 6  # the store grows to 9: an incremental sync adds and embeds three sessions


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A store before and after it grows, the index of the first, and a fresh index of the second.
    Built in this process, which loads the models every kill's fork then starts with."""
    work = tmp_path_factory.mktemp("faults")
    live = work / "live" / "opencode.db"
    live.parent.mkdir()
    generate_store(work / "old.db", sessions=SESSIONS, seed=5)
    generate_store(work / "new.db", sessions=SESSIONS + SESSIONS // 2, seed=5)
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("RECOLLECT_EMBEDDINGS", raising=False)  # semantic search on, for the module's runs too
        shutil.copy(work / "old.db", live)
        faults.index_here(env(work / "old-index", live))
        shutil.copy(work / "new.db", live)
        faults.index_here(env(work / "fresh", live))
    fresh = faults.dump(work / "fresh" / "index.db")
    assert len({model for _, model in fresh["vectors"]}) == 2 and not fresh["missing"]  # chunks and cards
    return {"work": work, "live": live, "fresh": fresh}


def env(home: Path, live: Path) -> dict[str, str]:
    return {"RECOLLECT_HOME": str(home), "RECOLLECT_SOURCES": "opencode", "OPENCODE_DB": str(live)}


def killed_then_rerun(
    world: dict[str, object], name: str, incremental: bool, kill: Kill, extra: dict[str, str] | None = None
) -> str:
    """Kill one run as `kill` says (with `extra` in its environment), check the wreck, run `index` again;
    what differs from fresh."""
    work, live, fresh = world["work"], world["live"], world["fresh"]
    assert isinstance(work, Path) and isinstance(live, Path) and isinstance(fresh, dict)
    home = work / name
    if incremental:
        shutil.copytree(work / "old-index", home)
    run = faults.run({**env(home, live), **(extra or {})}, kill)
    assert run.killed, f"{name}: the run ended before its kill point ({run})"
    ok, dups = faults.check(home / "index.db")
    assert ok and dups == 0, f"{name}: integrity {ok}, {dups} sessions twice"
    wreck = faults.differs(faults.dump(home / "index.db"), fresh)
    assert wreck, f"{name}: the kill cost nothing, so the test would show nothing"  # positive control
    rerun = faults.run(env(home, live))
    assert rerun.status == 0, f"{name}: the next index failed"
    return faults.differs(faults.dump(home / "index.db"), fresh)


@pytest.mark.usefixtures("semantic")
def test_kill_inside_a_session_then_index_equals_fresh(world: dict[str, object]) -> None:
    # Before the second chunk of the first session stored: its session row and first chunk are written.
    assert killed_then_rerun(world, "mid-session", False, Kill(statement=2, prefix="INSERT INTO chunk ")) == ""
    # Before the first session of the grown store's batch is released: old rows deleted, new ones written.
    assert killed_then_rerun(world, "mid-batch", True, Kill(statement=1, prefix="RELEASE one_session")) == ""


@pytest.mark.usefixtures("semantic")
def test_kill_before_the_embedding_pass_then_index_embeds_the_rest(world: dict[str, object]) -> None:
    # The new sessions' chunks are committed, none of their vectors: the "vectors complete" mark of
    # the old index must not survive, or the next index embeds nothing.
    assert killed_then_rerun(world, "before-vectors", True, Kill(statement=1, prefix=faults.VECTOR_WRITE)) == ""


@pytest.mark.usefixtures("semantic")
def test_kill_at_random_points_then_index_equals_fresh(world: dict[str, object]) -> None:
    work, live = world["work"], world["live"]
    assert isinstance(work, Path) and isinstance(live, Path)
    whole = faults.run(env(work / "whole", live))
    assert whole.status == 0 and whole.statements > 100
    rng = random.Random(14)
    for trial in range(2):
        kill = Kill(statement=rng.randint(50, whole.statements - 50))
        assert killed_then_rerun(world, f"random-{trial}", trial == 1, kill) == "", kill


@pytest.mark.usefixtures("semantic")
def test_kill_with_index_workers_then_index_equals_fresh(world: dict[str, object]) -> None:
    # The sessions are prepared and embedded by worker processes (index/prepare.py); the writer dies.
    work = world["work"]
    assert isinstance(work, Path)
    workers = {prepare.WORKERS_ENV: "2"}
    kills = [
        ("workers-mid-session", False, Kill(statement=2, prefix="INSERT INTO chunk ")),
        ("workers-mid-batch", True, Kill(statement=1, prefix="RELEASE one_session")),
        ("workers-before-vectors", True, Kill(statement=1, prefix=faults.VECTOR_WRITE)),
    ]
    for name, incremental, kill in kills:
        assert killed_then_rerun(world, name, incremental, kill, workers) == "", name
        # Each killed writer's workers find their pipe closed and go (the rerun's finished with it).
        deadline = time.monotonic() + 30
        while workers_of(work / name) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not workers_of(work / name), name
