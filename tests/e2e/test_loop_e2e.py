"""The agent loop as a user meets it, in the real OpenCode: a small part of bench/bench_loop.py.

One world (module-scoped, about a minute): two projects with planted history (bench/loop_world.json:
the sessions that answered, and later ones that only asked), `recollect install opencode`, `recollect
index`, then messages from bench/loop_messages.json, each first in a new session, a `@recall` run, a
session of cue turns, and a later search by the model. Every figure is read from the request bodies
the fake LLM received and from OpenCode's own store.

Four of these failed before the issue-13 loop work (the '…before?' cue, the Chinese cue, the recall
subagent's echo, blocks piling up); they were committed as strict xfails and the marks removed once
main passed them. docs/loop.md has the benchmark's figures before and after.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.bench_loop import QUIET_ENV, TOP, LoopBench, Turn, load_data
from tests.e2e.opencode import OpenCodeWorld

pytestmark = pytest.mark.e2e

PROJECTS = ("atlas", "cobalt")
TOPICS = ("atlas.queue", "atlas.token_test", "atlas.test_db", "atlas.errors", "cobalt.partition", "cobalt.queue")
LIVE = ("en01", "en03", "zh01", "on04", "oz02")  # EN cues, a ZH cue, two ordinary messages
GROWTH_TURNS = 10


@pytest.fixture(scope="module")
def loop(opencode_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopBench]:
    world_data, messages = load_data()
    by_id = {m["id"]: m for m in messages["cue"] + messages["ordinary"]}
    growth = [m for m in messages["cue"] if m["project"] == "atlas"]
    tmp = tmp_path_factory.mktemp("loop")
    with OpenCodeWorld(tmp, binary=opencode_bin, extra_env=QUIET_ENV) as world:
        bench = LoopBench(world, world_data)
        for name in PROJECTS:
            bench.project(name)
        bench.plant(TOPICS)
        bench.install()
        bench.warm_up(PROJECTS)
        bench.index()
        bench.live([by_id[i] for i in LIVE])
        bench.recall_run(world_data["recall_runs"][0])
        bench.growth(growth, GROWTH_TURNS)
        bench.index()
        bench.later_searches(["atlas.queue"], memories=False)
        try:
            yield bench
        except BaseException:
            print(f"\n--- loop world at {world.root} ---\n{world.log_tail()}")
            raise


def turn(bench: LoopBench, key: str) -> Turn:
    found = [t for t in bench.turns if t.phase == "live" and t.key == key]
    assert len(found) == 1 and found[0].seen is not None, f"no model request for {key}"
    return found[0]


def any_block(bench: LoopBench) -> bool:
    """Positive control for every "stays silent" check: this world did inject a recall block."""
    return any(r.recall_blocks for t in bench.turns for r in t.requests)


def caused_by_recollect(bench: LoopBench) -> set[str]:
    return {sid for sid, s in bench.sessions().items() if s["parent"] and s["agent"] == "recall"}


def test_english_cue_fires_and_finds_the_answer(loop: LoopBench) -> None:
    t = turn(loop, "en01")  # "What did we decide last time about …?"
    assert t.seen is not None and t.seen.recall_blocks >= 1, t.text
    assert t.expect in t.seen.recall_sessions, (t.expect, t.seen.recall_sessions)


def test_english_before_cue_fires_and_finds_the_answer(loop: LoopBench) -> None:
    t = turn(loop, "en03")  # "How did we fix the flaky … failure before?"
    assert t.seen is not None and t.seen.recall_blocks >= 1, t.text
    assert t.expect in t.seen.recall_sessions, (t.expect, t.seen.recall_sessions)


def test_chinese_cue_fires_and_finds_the_answer(loop: LoopBench) -> None:
    t = turn(loop, "zh01")
    assert t.seen is not None and t.seen.recall_blocks >= 1, t.text
    assert t.expect in t.seen.recall_sessions, (t.expect, t.seen.recall_sessions)


def test_ordinary_message_stays_silent(loop: LoopBench) -> None:
    assert any_block(loop), "no recall block anywhere: the silence below would prove nothing"
    t = turn(loop, "on04")  # the topic's own words, no cue
    assert t.seen is not None and t.seen.recall_blocks == 0, t.text


def test_everyday_zhiqian_stays_silent(loop: LoopBench) -> None:
    assert any_block(loop), "no recall block anywhere: the silence below would prove nothing"
    t = turn(loop, "oz02")  # 在提交之前: "before" in its everyday sense
    assert t.seen is not None and t.seen.recall_blocks == 0, t.text


def test_no_cross_project_leak(loop: LoopBench) -> None:
    assert any_block(loop), "no recall block anywhere: no leak would prove nothing"
    project_of = {sid: s["project"] for sid, s in loop.sessions().items()}
    leaks = [
        (t.key, sid)
        for t in loop.turns
        for r in t.requests
        for sid in r.recall_sessions
        if project_of.get(sid) != project_of.get(t.session)
    ]
    assert not leaks, leaks


def test_no_echo_after_recall_subagent(loop: LoopBench) -> None:
    caused = caused_by_recollect(loop)
    assert caused, "the @recall run made no recall-agent session"
    searches = [s for s in loop.searches if s["what"] == "topic"]
    assert searches and searches[0]["top"], loop.searches  # the later search found something
    assert loop.answering["atlas.queue"] in searches[0]["top"], searches[0]
    echoed = [sid for s in loop.searches for sid in s["top"][:TOP] if sid in caused]
    after = loop.turns[[t.phase for t in loop.turns].index("recall") + 1 :]
    echoed += [sid for t in after for r in t.requests for sid in r.recall_sessions[:TOP] if sid in caused]
    assert not echoed, echoed


def test_prompt_growth_is_bounded_while_recall_keeps_working(loop: LoopBench) -> None:
    growth = [t for t in loop.turns if t.phase == "growth" and t.seen is not None]
    assert len(growth) == GROWTH_TURNS
    # Bounded only counts while each cue still gets its own answer: a block that stopped coming,
    # or a stale one, would be "bounded" too.
    answered = [t.key for t in growth if t.seen and t.expect in t.seen.recall_sessions]
    assert len(answered) >= 0.8 * GROWTH_TURNS, f"only {answered} of {GROWTH_TURNS} cue turns had their answer"
    most = max(r.recall_blocks for t in growth for r in t.requests)
    assert most <= 1, f"{most} recall blocks alive in one request"
    first, last = growth[0].seen, growth[-1].seen
    assert first is not None and last is not None
    grew = sum(last.injected.values()) - sum(first.injected.values())
    assert grew <= 3 * 1024, f"injected text grew {grew} bytes over {GROWTH_TURNS} turns"
