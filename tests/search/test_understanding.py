"""Query understanding (search/query.py), the turn re-rank (search/turns.py), typo corrections beside
the original, the literal retry, --exact, and `recollect eval --cases` on the user's own index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main
from recollect.search.query import DAY_MS, understand
from recollect.search.turns import answer_kind, rerank_turns

NOW = 1_790_000_000_000


def words(query: str) -> list[tuple[list[str], bool]]:
    return [(w.variants, w.framing) for w in understand(query, NOW).words]


def test_question_frame_is_weighted_low_and_content_words_are_not() -> None:
    plan = understand("which session fixed the flaky auth retry test", NOW)
    assert plan.content_terms == ["flaky", "auth", "retry", "test"]
    assert plan.framing_terms == {"session", "fixed", "fix"}
    assert understand("the session where we changed the rate limiter", NOW).framing_terms == {
        "session", "changed", "chang"
    }  # fmt: skip
    # A person's own verb is content ("where did I move the plant"), not a frame.
    assert understand("where did I move the plant", NOW).framing_terms == set()
    assert understand("what did I tell you about my knee", NOW).framing_terms == {"tell"}
    # --exact: nothing is read as framing.
    assert understand("which session fixed the bug", NOW, framing=False).framing_terms == set()


def test_a_verb_after_have_we_is_what_was_done_not_a_frame() -> None:
    # "who have we booked so far" asks for the bookings, as "who we've booked" does: the answer says "booked
    # the electrician" (long-chat held-out 3). Control: "what did we decide" and "where we changed" still frame.
    assert understand("what did we decide about the rate limiter", NOW).framing_terms == {"decide", "decid"}
    assert "booked" in understand("who we've booked for the kitchen work so far", NOW).content_terms
    plan = understand("Who have we booked for the kitchen work so far?", NOW)
    assert plan.framing_terms == set() and "booked" in plan.content_terms
    assert understand("where has we stayed on the van trip", NOW).framing_terms == set()


def test_time_words_become_a_window_and_leave_the_terms() -> None:
    plan = understand("what changed about the Lisbon trip last week", NOW)
    assert plan.time_words == ["last week"] and "week" not in plan.terms and "lisbon" in plan.terms
    assert plan.window is not None and plan.window[0] == NOW - 14 * DAY_MS and plan.window[1] == NOW - DAY_MS
    ago = understand("a couple of months ago we talked about the catalog cache", NOW)
    assert ago.window is not None and ago.window[0] <= NOW - 60 * DAY_MS <= ago.window[1]
    assert understand("上个月我们聊的上海出差", NOW).time_words == ["上个月"]
    # Plainly about time only: a month name alone, or "week" as a word, stays a word.
    assert understand("march madness", NOW).window is None
    assert understand("the week view of the calendar", NOW).window is None
    assert understand("what changed last week", NOW, framing=False).window is None


def test_a_pasted_node_id_adds_its_bare_test_name_beside_the_whole_id() -> None:
    node = "tests/test_tax.py::test_split_tax_empty[unicode-74]"
    got = words(node)
    # The bare name, which the tokenizer keeps whole only where the test was written apart from its file
    # (a failure header, a def, a discussion), is a word of its own, first, at full weight.
    assert got[0] == (["test_split_tax_empty"], False)
    # Beside it, the id is read like any identifier: the whole id and its pieces, but its param only
    # beside its name (the phrase arm, as typed): apart, "unicode-74" is in every other test's listing.
    terms = understand(node, NOW).terms
    assert terms[1] == "tests/test_tax.py::test_split_tax_empty" and "tax" in terms
    assert not {"unicode-74", "unicode", "74"} & set(terms)
    # Negative, after the positive control: with the stage off the bare name is not added, the param stays.
    off = understand(node, NOW, test_ids=False).terms
    assert "test_split_tax_empty" not in off and off[0].startswith("tests/") and "unicode-74" in off


def test_the_turn_that_answers_comes_first() -> None:
    texts = {
        1: "How often do you water it, and is there a radiator near the window?",
        2: "I water it every 7 days, about a litre.",
        3: "Dropping leaves on a fiddle leaf fig are usually a water problem.",
    }
    asks = answer_kind("how often do I water it")
    # Positive control: without the reply, the plain statement beats the question that echoes the words.
    assert rerank_turns([1, 3], texts, [(["water"], 2.0)], asks) == [3, 1]
    # The turn that replies to the assistant's question inherits its score, and holds the amount asked for.
    assert rerank_turns([1, 3], texts, [(["water"], 2.0)], asks, {1: (2, texts[2])})[0] == 2
    assert answer_kind("when is my dentist appointment") is not None and answer_kind("dentist appointment") is None


def _index(runner: CliRunner) -> None:
    result = runner.invoke(main, ["index"])
    assert result.exit_code == 0, result.output


def test_a_typo_is_searched_beside_the_original_and_the_output_says_so(sample_db: Path) -> None:
    runner = CliRunner()
    _index(runner)
    right = json.loads(runner.invoke(main, ["search", "clarification", "--no-sync", "--json"]).output)
    assert right["hits"] and right["corrections"] == {}  # positive control: the indexed word
    typo = json.loads(runner.invoke(main, ["search", "clarificatoin", "--no-sync", "--json"]).output)
    assert typo["corrections"] == {"clarificatoin": "clarification"} and typo["hits"]
    assert "clarificatoin" in typo["terms"]  # beside the original, not in its place
    text = runner.invoke(main, ["search", "clarificatoin", "--no-sync"]).output
    assert "also searched 'clarification'" in text and "--exact" in text
    exact = json.loads(runner.invoke(main, ["search", "clarificatoin", "--no-sync", "--exact", "--json"]).output)
    assert exact["corrections"] == {}


def test_nothing_ranked_retries_as_a_literal_scan_and_says_so(sample_db: Path) -> None:
    runner = CliRunner()
    _index(runner)
    ranked = json.loads(runner.invoke(main, ["search", "missing-file.txt", "--no-sync", "--json"]).output)
    assert ranked["hits"] and not ranked["literal"]  # positive control: a ranked match
    inner = json.loads(runner.invoke(main, ["search", "issing-fil", "--no-sync", "--exact", "--json"]).output)
    assert inner["literal"] and inner["hits"] and all(h["why"] == "literal" for h in inner["hits"])
    assert "literal retry" in inner["coverage"]["limited_by"]
    assert (
        "no session matched these words, so the hits are the newest text that holds 'issing-fil' as typed"
        in runner.invoke(main, ["search", "issing-fil", "--no-sync", "--exact"]).output
    )
    none = json.loads(runner.invoke(main, ["search", "zzqxjv-not-there", "--no-sync", "--exact", "--json"]).output)
    assert none["hits"] == []


def test_eval_cases_scores_the_users_own_index_beside_bm25(sample_db: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    _index(runner)
    hit = json.loads(runner.invoke(main, ["search", "missing-file.txt", "--no-sync", "--json"]).output)["hits"][0]
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"query": "missing-file.txt", "gold": [hit["session_id"]], "category": "path"}) + "\n"
        + "// a comment\n" + json.dumps({"query": "clarification", "gold": ["ses_not_a_session"]}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    data = json.loads(runner.invoke(main, ["eval", "--cases", str(cases), "--json"]).output)
    assert [c["rank"] for c in data["cases"]] == [1, None]
    assert data["ours"]["by_category"]["path"]["mrr"] == 1.0 and "bm25" in data
    table = runner.invoke(main, ["eval", "--cases", str(cases)]).output
    assert "BM25 MRR" in table and "not found" in table
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "x"}\n', encoding="utf-8")
    refused = runner.invoke(main, ["eval", "--cases", str(bad)])
    assert refused.exit_code == 1 and '"gold"' in refused.output and "Traceback" not in refused.output


def test_eval_cases_refuses_a_line_that_is_not_an_object_and_leaves_hidden_sessions_out(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from recollect import cli
    from recollect.cases import load_cases, run_cases
    from recollect.config import load_config

    runner = CliRunner()
    _index(runner)
    bad = tmp_path / "list.jsonl"
    bad.write_text("[1, 2]\n", encoding="utf-8")
    refused = runner.invoke(main, ["eval", "--cases", str(bad)])
    assert refused.exit_code == 1 and '"gold"' in refused.output and "Traceback" not in refused.output

    hit = json.loads(runner.invoke(main, ["search", "missing-file.txt", "--no-sync", "--json"]).output)["hits"][0]
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"query": "missing-file.txt", "gold": [hit["session_id"]]}) + "\n", encoding="utf-8")
    assert run_cases(load_cases(cases), load_config())["cases"][0]["bm25_rank"] == 1  # positive control
    assert runner.invoke(main, ["hide", hit["session_id"], "--why", "test"]).exit_code == 0
    assert run_cases(load_cases(cases), load_config())["cases"][0]["bm25_rank"] is None  # both sides skip it

    monkeypatch.setattr(cli, "_in_checkout", lambda: False)  # as an installed wheel sees it
    assert "eval" in cli.main.list_commands(None) and cli.main.get_command(None, "eval") is not None  # type: ignore[arg-type]


def test_a_months_name_is_a_time_preference_and_stays_a_word() -> None:
    plan = understand("which events are coming up in July", NOW)
    assert plan.window is not None and plan.time_words == ["in July"]
    assert "july" in plan.terms  # the text says "July 9", "July 18"
    # Negative, after the positive control: a relative expression leaves the terms.
    relative = understand("what did I say about my knee last month", NOW)
    assert relative.window is not None and "month" not in relative.terms
