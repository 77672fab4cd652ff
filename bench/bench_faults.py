"""kill -9 at random points of a cold index and of an incremental sync, with semantic search on.

After each kill: SQLite's integrity check, no session stored twice, and the next `recollect index`
must give an index equal to a fresh one, vectors included (every chunk and card text embedded by the
same models, each vector within 0.02 of the fresh one's, none missing).

Half the kills land at a random time of the run (anywhere: inside a COMMIT too), half just before a
random SQL statement of it (every statement boundary is an instrumented point). A run timed to die
that finishes first is counted (`finished_before_kill`), and the trial draws a new time within the
run's new length (up to 5 times). Each run is a fork of
this process, which loaded both models once, so a kill costs the sync alone (tests/index/faults.py).

    python -m bench.bench_faults --trials 220 --sessions 12
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: no BLAS threads across fork()

from bench.storegen import generate_store
from tests.index import faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=20, help="kills in all, half cold, half incremental")
    parser.add_argument("--sessions", type=int, default=12, help="sessions before the store grows by half")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.environ.pop("RECOLLECT_EMBEDDINGS", None)  # semantic search on
    work = Path(tempfile.mkdtemp(prefix="recollect-faults-"))
    wall0, cpu0 = time.perf_counter(), _cpu()
    try:
        old, new, live = work / "old.db", work / "new.db", work / "live" / "opencode.db"
        live.parent.mkdir()
        generate_store(old, sessions=args.sessions, seed=args.seed)
        generate_store(new, sessions=args.sessions + args.sessions // 2, seed=args.seed)  # the grown store

        def env(home: Path) -> dict[str, str]:
            return {"RECOLLECT_HOME": str(home), "RECOLLECT_SOURCES": "opencode", "OPENCODE_DB": str(live)}

        shutil.copy(old, live)
        faults.index_here(env(work / "old-index"))  # loads both models, which every fork then has
        shutil.copy(new, live)
        faults.index_here(env(work / "fresh"))
        fresh = faults.dump(work / "fresh" / "index.db")
        assert fresh["vectors"] and not fresh["missing"], "semantic search is off"
        models = sorted({model for _, model in fresh["vectors"]})

        def home_for(kind: str, name: str) -> Path:
            home = work / name
            if kind == "incremental":
                shutil.copytree(work / "old-index", home)
            return home

        whole = {}
        for kind in ("cold", "incremental"):
            done = faults.run(env(home_for(kind, f"whole-{kind}")))
            assert done.status == 0, f"a {kind} index failed"
            whole[kind] = done
        print(
            f"sessions={args.sessions}->{args.sessions + args.sessions // 2} models={models} "
            f"texts_embedded={len(fresh['vectors'])} "
            + " ".join(f"{k}: {r.statements} statements {r.seconds:.2f}s" for k, r in whole.items()),
            flush=True,
        )
        tally = {"killed": 0, "finished_before_kill": 0, "corrupt": 0, "duplicated": 0, "unequal": 0, "rerun_failed": 0}
        seconds = {kind: run.seconds for kind, run in whole.items()}
        for trial in range(args.trials):
            kind = ("cold", "incremental")[trial % 2]
            by_time = (trial // 2) % 2 == 0
            for _attempt in range(5):  # a run timed to die may finish first (load changes): draw again
                if by_time:
                    kill = faults.Kill(after_s=rng.uniform(0.0, seconds[kind]))
                    where = f"at {kill.after_s:.2f}s"
                else:
                    kill = faults.Kill(statement=rng.randint(1, whole[kind].statements))
                    where = f"before statement {kill.statement}"
                shutil.rmtree(work / f"t{trial}", ignore_errors=True)
                home = home_for(kind, f"t{trial}")
                result = faults.run(env(home), kill)
                if result.killed:
                    break
                tally["finished_before_kill"] += 1
                seconds[kind] = result.seconds  # how long a whole run takes now
            tally["killed"] += result.killed
            db = home / "index.db"
            if db.exists():
                ok, dups = faults.check(db)
                tally["corrupt"] += not ok
                tally["duplicated"] += dups > 0
            rerun = faults.run(env(home))
            why = faults.differs(faults.dump(db), fresh) if rerun.status == 0 else "the next index failed"
            tally["rerun_failed"] += rerun.status != 0
            tally["unequal"] += bool(why)
            state = "killed" if result.killed else "finished"
            print(f"trial {trial} {kind} {where}: {state}, {why or 'equal'}", flush=True)
            shutil.rmtree(home, ignore_errors=True)
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
        print(
            f"trials={args.trials} sessions={args.sessions} "
            + " ".join(f"{k}={v}" for k, v in tally.items())
            + f" wall_s={time.perf_counter() - wall0:.0f} cpu_s={_cpu() - cpu0:.0f} loadavg={load}"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _cpu() -> float:
    """User + system time of this process and of every fork it waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


if __name__ == "__main__":
    main()
