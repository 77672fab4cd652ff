"""The benches never open the held-out set kept for a session's final measurement (bench/heldout.py):
a file whose name holds its name is refused before it is read, but by the final run of bench_loop and
bench_plugin."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import bench_cues, bench_loop

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_bench_cues_reads_a_tuning_set() -> None:
    # positive control: held-out 9 had its final run and is a tuning set now, read like the others
    assert bench_cues.main(["--sets", "loop_messages_heldout9.json", "--repeat", "1"]) == 0


@pytest.mark.parametrize("name", ["loop_messages_heldout10.json", "cue_HeldOut10_extra.json"])
def test_bench_cues_refuses_the_held_out_set(name: str) -> None:
    # the file does not exist: a refusal that came from opening it would be FileNotFoundError
    with pytest.raises(SystemExit, match="held-out set"):
        bench_cues.main(["--sets", name, "--repeat", "1"])


def test_bench_loop_loads_a_tuning_set() -> None:
    world, messages = bench_loop.load_data(messages_file=BENCH / "loop_messages_heldout9.json")
    assert world["projects"] and messages == json.loads((BENCH / "loop_messages_heldout9.json").read_text("utf-8"))


def test_bench_loop_refuses_the_held_out_set(tmp_path: Path) -> None:
    bait = tmp_path / "loop_messages_heldout10.json"
    bait.write_text("not json", encoding="utf-8")  # read, it would fail with a JSON error instead
    with pytest.raises(SystemExit, match="held-out set"):
        bench_loop.load_data(messages_file=bait)


def test_bench_loop_reads_the_held_out_set_for_the_final_run(tmp_path: Path) -> None:
    held = tmp_path / "loop_messages_heldout10.json"
    held.write_text(json.dumps({"cue": []}), encoding="utf-8")
    assert bench_loop.load_data(messages_file=held, final=True)[1] == {"cue": []}


def test_bench_plugin_refuses_the_held_out_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import bench_plugin, heldout

    # positive control: a tuning set, and the held-out set in a final run, pass the guard
    heldout.refuse_held_out(BENCH / "loop_messages_heldout9.json", "bench_plugin")
    heldout.refuse_held_out(tmp_path / "loop_messages_heldout10.json", "bench_plugin", final=True)
    bait = tmp_path / "loop_messages_heldout10.json"
    bait.write_text("not json", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["bench_plugin", "--loop", str(bait)])
    with pytest.raises(SystemExit, match="held-out set: bench_plugin reads it only for the final run"):
        bench_plugin.main()


def test_the_closed_cue_corpus_and_long_chats_wait_for_the_final_run(tmp_path: Path) -> None:
    from bench import heldout
    from bench.eval import longchat

    # positive control: an earlier corpus is read, and the closed one passes the guard in a final run
    assert bench_cues.main(["--sets", "cue_corpus7.json", "--split", "test", "--repeat", "1"]) == 0
    heldout.refuse_held_out(tmp_path / "cue_corpus8.json", "bench_cues", final=True)
    with pytest.raises(SystemExit, match=r"cue_corpus8\.json is a held-out set: bench_cues reads it only"):
        bench_cues.main(["--sets", "cue_corpus8.json", "--repeat", "1"])
    # refused before a haystack is built: no real transcripts are needed to get this far
    with pytest.raises(SystemExit, match="longchat_heldout4 is a held-out set: longchat"):
        longchat.main(["--heldout4", "--no-real"])
