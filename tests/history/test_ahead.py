"""A one-shot search's arms by meaning computed in a child process (history/ahead.py): the same output as
computed in the search itself, used only for the search they were asked for, and a child that fails or
is not needed costs nothing but itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from recollect import history
from recollect.app import Recollect
from recollect.config import load_config
from recollect.history.ahead import MeaningAhead
from recollect.search import rank
from recollect.search.meaning import Arms, meaning_only
from recollect.search.scope import Filters

# Runs `recollect search ARGS`; prints on stderr how many times this process computed the arms by meaning
# and whether it imported numpy. With "in-process" first, the child process is not used.
PROBE = """
import json, os, sys
import recollect.search.rank as rank
computed = []
real = rank.arms
rank.arms = lambda *args, **kwargs: computed.append(os.getpid()) or real(*args, **kwargs)
import recollect.history.ahead as beside
if sys.argv[1] == "in-process":
    beside.meaning_ahead = lambda *args, **kwargs: None
beside.core_to_spare = lambda: True  # whatever the load of the machine the tests run on
from recollect.cli import main
try:
    main(sys.argv[2:], standalone_mode=False)
finally:
    print(json.dumps([computed.count(os.getpid()), "numpy" in sys.modules]), file=sys.__stderr__)
"""

QUERIES = ("list the files in the project", "列出项目里的文件", "readme", "README.md app.py")


@pytest.fixture
def indexed(sample_db: Path, semantic: None) -> Path:
    report = history.index(load_config())
    assert report.semantic is not None and report.semantic.embedded > 0
    return sample_db


def searched(how: str, *args: str) -> tuple[str, list[object]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, how, "search", *args, "--no-sync"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    if "--json" in args:  # less the time it took, and the scores: their recency part moves with the clock
        answer = json.loads(out)
        answer.pop("took_ms")
        for hit in answer["hits"]:
            hit.pop("score")
        out = json.dumps(answer)
    return out, json.loads(done.stderr.strip().splitlines()[-1])


def test_a_one_shot_search_prints_the_same_with_its_arms_by_meaning_in_a_child(indexed: Path) -> None:
    for query in QUERIES:
        for form in ((), ("--json",)):
            alone, (computed, numpy) = searched("in-process", query, *form)
            assert (computed, numpy) == (1, True)  # positive control: the search computed them, with numpy
            beside, (computed, numpy) = searched("beside", query, *form)
            assert (computed, numpy) == (0, False), query  # the child did, and this process never loaded numpy
            assert beside == alone, query
    assert "recollect read" in alone or '"hits": [{' in alone


def test_arms_computed_elsewhere_are_used_only_for_the_search_they_were_asked(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    computed: list[str] = []
    real = rank.arms
    monkeypatch.setattr(rank, "arms", lambda *args, **kwargs: computed.append(args[1]) or real(*args, **kwargs))
    query, now_ms = "list the files in the project", int(time.time() * 1000)

    def result(ahead: Any = None) -> dict[str, Any]:
        found = rank.search(conn, query, Filters(), now_ms=now_ms, ahead=ahead, **models).to_dict()
        found.pop("took_ms")
        return found

    with Recollect(load_config()) as app, app.index() as conn:
        models = {"embedder": app.embedder, "card_encoder": app.card_encoder}
        alone = result()
        assert computed == [query] and alone["hits"]  # positive control: the search computed its arms
        found = meaning_only(conn, query, Filters(), now_ms=now_ms, **models)
        assert found.card_meaning
        del computed[:]
        assert result(lambda: found) == alone
        assert computed == []  # used, not computed again
        other = meaning_only(conn, "readme", Filters(), now_ms=now_ms, **models)
        stale = Arms((*found.key[:-1], "another generation"), {}, {}, 0)
        del computed[:]
        for wrong in (other, None, stale):
            assert result(lambda wrong=wrong: wrong) == alone
        assert computed == [query] * 3  # another query's, none, another generation's: each computed here


def test_a_child_that_fails_gives_nothing_and_one_not_needed_is_stopped_and_reaped() -> None:
    def child(code: str) -> MeaningAhead:
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
        assert proc.stdout is not None
        return MeaningAhead(proc.pid, os.dup(proc.stdout.fileno()), 0)

    sent = child("import pickle, sys; sys.stdout.buffer.write(pickle.dumps('an answer'))")
    assert sent.take() == "an answer"  # positive control: what the child sent
    assert child("import sys; sys.stdout.buffer.write(b'\\x80\\x05 cut short')").take() is None
    assert child("import sys; sys.exit(1)").take() is None
    waiting = child("import time; time.sleep(60)")
    started = time.monotonic()
    waiting.close()
    assert time.monotonic() - started < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(waiting.pid, os.WNOHANG)  # reaped
    assert waiting.take() is None  # once closed, nothing more


def test_the_child_is_forked_only_with_a_core_to_spare(monkeypatch: pytest.MonkeyPatch) -> None:
    from recollect.history import ahead

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (1.5, 1.0, 1.0))
    assert ahead.core_to_spare()  # positive control: two cores, one and a half busy
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 1.0, 1.0))
    assert not ahead.core_to_spare()
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert not ahead.core_to_spare()
