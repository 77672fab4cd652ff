"""Novelty (search/novelty.py): a session whose best turn repeats what a higher session already showed goes
below the sessions that show something new. On real Claude Code transcripts written to a temp dir, indexed
by the real sync: five sessions repeat one piece of advice word for word, a sixth says something else."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect import history
from recollect.search import stages
from recollect.search.novelty import diversify, evidence, same_share
from tests.ui.conftest import write_transcript

ADVICE = "Wax the chain every few weeks and wipe the chain clean after a wet ride, so the chain lasts."
NEWS = "I finally switched my chain to wax last month."
TOPICS = ["a saddle that slips", "tyre pressure", "a squeaky brake", "lights for winter", "a frame size"]
REPEATS = [f"a{n}aaaaaa-0000-4000-8000-00000000000{n}" for n in range(len(TOPICS))]  # uuids start with these
NEWS_SESSION = "bbbbbbbb-1111-4111-8111-111111111111"


def test_evidence_is_the_sentences_holding_a_query_word() -> None:
    text = "The chain needs wax. Tyres wear out. Check the chain weekly!"
    assert evidence(text, ["chain"]) == evidence("The chain needs wax. Check the chain weekly!", ["chain"])
    assert "tyre" not in " ".join(evidence(text, ["chain"]))
    assert evidence(text, ["nothing"]) == evidence(text, [])  # no sentence holds one: the whole text


def test_cjk_sentences_end_at_their_full_stop_with_no_space_after_it() -> None:
    # Chinese and Japanese put no space after 。！？: each still ends a sentence.
    text = "链条需要上蜡。轮胎会磨损！每周检查链条？"
    held = evidence(text, ["链条"])
    assert held == evidence("链条需要上蜡。每周检查链条？", ["链条"])
    assert "链条" in held and "轮胎" not in held and "磨损" not in held
    # A Latin full stop with no space after it (a version, a file name) still ends nothing.
    assert "tyres" in evidence("Use chain v1.2.Tyres wear out.", ["chain"])


def test_a_repeat_goes_below_what_is_new_and_nothing_else_moves() -> None:
    advice, other = evidence(ADVICE, ["chain"]), evidence(NEWS, ["chain"])
    assert same_share(advice, advice) == 1.0
    assert same_share(advice, other) < 0.5
    shown = {1: advice, 2: advice, 3: other, 4: advice, 5: frozenset()}  # 5: its card matched, no turn
    assert diversify([1, 2, 3, 4, 5], shown) == [1, 3, 2, 4, 5]
    assert diversify([1, 5, 2, 3], shown) == [1, 5, 3, 2]  # a session without a turn keeps its place
    distinct = {1: advice, 2: other}
    assert diversify([1, 2, 5], distinct) == [1, 2, 5]  # nothing repeated: the order is kept


@pytest.fixture
def repeated_advice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude = tmp_path / "claude"
    project = tmp_path / "bike"
    project.mkdir()
    for sid, topic in zip(REPEATS, TOPICS, strict=True):
        write_transcript(
            claude, sid, project,
            [("user", f"Help me with {topic} and the chain."),
             ("assistant", [{"type": "text", "text": f"For {topic}, see the manual. {ADVICE}"}])],
        )  # fmt: skip
    write_transcript(
        claude, NEWS_SESSION, project,
        [("user", f"Quick update: {NEWS} It is quieter, and what should I check before a long ride?"),
         ("assistant", [{"type": "text", "text": "Check the brakes, the tyres and the lights before you set off."}])],
    )  # fmt: skip
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    history.index()


def _sessions(query: str) -> list[str]:
    return list(dict.fromkeys(h.session_id for h in history.search(query, sync_first=False, limit=20).hits))


def test_a_session_saying_something_new_is_not_buried_under_repeats(repeated_advice: None) -> None:
    query = "chain wax"
    with stages.disabled("novelty"):
        plain = _sessions(query)
    # The control: the five repeats outrank the one session that says something else.
    assert set(plain[:5]) == set(REPEATS), plain
    assert plain.index(NEWS_SESSION) == 5, plain
    ranked = _sessions(query)
    assert ranked[0] == plain[0]  # the best session keeps its place
    assert ranked.index(NEWS_SESSION) == 1, ranked  # the new evidence comes next
    assert set(ranked) == set(plain)  # only places move: no session is dropped or added


def test_a_query_naming_an_identifier_keeps_every_session_that_holds_it(repeated_advice: None) -> None:
    # Sessions that all read or printed the same file are each an answer to "where was it touched".
    query = "chain wax in BikeCare.md"
    with stages.disabled("novelty"):
        plain = _sessions(query)
    first = plain[0]
    assert first in REPEATS and plain.index(NEWS_SESSION) > 1, plain  # the control: repeats of the first above it
    assert _sessions(query) == plain
