"""Search and scope over the real sample store: the predicate holds on every read path."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.search.read import ReadError, render_chatml, render_text
from recollect.search.scope import FilterError, Filters
from recollect.times import parse_when

ALPHA = "/srv/oc/projects/alpha"
BETA = "/srv/oc/projects/beta"


@pytest.fixture
def indexed(sample_db: Path) -> Path:
    history.index(load_config())
    return sample_db


def sessions_of(result: history.SearchResult) -> set[str]:
    return {h.directory for h in result.hits}


def test_hit_carries_provenance_and_coverage(indexed: Path) -> None:
    result = history.search("missing-file.txt")
    assert result.hits, result.coverage
    hit = result.hits[0]
    assert hit.klass in ("tool_error", "tool_input") and hit.directory == ALPHA
    data = hit.to_dict()
    for key in (
        "session_id",
        "message_id",
        "part_id",
        "cursor",
        "score",
        "title",
        "directory",
        "time",
        "role",
        "class",
        "snippet",
        "source",
        "author",
    ):
        assert key in data
    cov = result.coverage
    assert cov.sessions_indexed == 12 and cov.sessions_in_scope == 12 and cov.sessions_matched >= 1


@pytest.mark.parametrize("path", ["search", "sessions", "read"])
def test_directory_scope_never_leaks_another_project(indexed: Path, path: str) -> None:
    beta_only = Filters(scope="directory", directory=BETA)
    alpha_only = Filters(scope="directory", directory=ALPHA)
    if path == "search":
        assert BETA in sessions_of(history.search("readme", Filters()))  # positive control
        assert sessions_of(history.search("readme", beta_only)) == {BETA}
        assert BETA not in sessions_of(history.search("readme", alpha_only))
    elif path == "sessions":
        assert {s.directory for s in history.sessions(Filters())} >= {ALPHA, BETA}
        assert {s.directory for s in history.sessions(alpha_only)} <= {ALPHA, ALPHA + "/sub"}
    else:
        beta_hit = next(h for h in history.search("readme").hits if h.directory == BETA)
        assert history.read(beta_hit.cursor, beta_only).messages  # positive control
        with pytest.raises(ReadError, match="scope"):
            history.read(beta_hit.cursor, alpha_only)


def test_project_scope_includes_subdirectories_but_not_siblings(indexed: Path) -> None:
    in_alpha = Filters(scope="project", directory=ALPHA + "/sub")
    dirs = {s.directory for s in history.sessions(in_alpha, limit=100)}
    assert ALPHA in dirs and ALPHA + "/sub" in dirs
    assert BETA not in dirs


def test_filters_by_class_author_and_tool(indexed: Path) -> None:
    errors = history.search("missing", Filters(classes=["tool_error"]))
    assert errors.hits and all(h.klass == "tool_error" for h in errors.hits)
    person = history.search("readme", Filters(authors=["person"]))
    assert person.hits and all(h.author == "person" for h in person.hits)
    bash = history.search("ls", Filters(tools=["bash"]))
    assert bash.hits and all(h.tool == "bash" for h in bash.hits)


def test_subagent_work_is_marked_and_points_at_its_parent(indexed: Path) -> None:
    hits = history.search("Subagent report", Filters(authors=["subagent"])).hits
    assert hits and all(h.parent_id for h in hits)


def test_at_most_two_hits_per_session_on_the_first_page(indexed: Path) -> None:
    result = history.search("readme files list", limit=20)
    counts: dict[str, int] = {}
    for h in result.hits:
        counts[h.session_id] = counts.get(h.session_id, 0) + 1
    assert max(counts.values()) <= 2


def test_zero_hits_say_which_constraint_to_relax(indexed: Path) -> None:
    result = history.search("readme", Filters(scope="directory", directory="/nowhere", since=parse_when("1d")))
    assert result.hits == []
    assert "--scope" in result.coverage.hint and "--since" in result.coverage.hint
    assert "scope" in result.coverage.limited_by and "time window" in result.coverage.limited_by


def test_current_session_can_be_excluded(indexed: Path) -> None:
    hits = history.search("readme").hits
    top = hits[0].session_id
    again = history.search("readme", Filters(exclude_sessions=[top])).hits
    assert top not in {h.session_id for h in again}


def test_read_window_has_navigation_caps_and_both_renderings(indexed: Path) -> None:
    hit = history.search("missing-file.txt").hits[0]
    window = history.read(hit.cursor, before=1, after=1)
    assert any(m.message_id == hit.message_id for m in window.messages)
    assert window.nav["head"] and window.nav["tail"]
    text = render_text(window)
    chatml = render_chatml(window)
    assert "missing-file.txt" in text and "<|im_start|>" in chatml and "<nav " in chatml
    whole = history.read(hit.cursor, mode="message")
    assert len(whole.messages) == 1


def test_read_rejects_unknown_cursor_with_advice(indexed: Path) -> None:
    with pytest.raises(ReadError, match="no session"):
        history.read("opencode::ses_doesnotexist::msg_x")


def test_bad_filters_say_how_to_fix_them() -> None:
    with pytest.raises(FilterError, match="one of"):
        Filters(classes=["everything"]).validate()
    with pytest.raises(FilterError, match="7d"):
        parse_when("last tuesday")


def test_typo_is_corrected_to_an_indexed_word(indexed: Path) -> None:
    result = history.search("reamde edit")
    assert result.corrections == {"reamde": "readme"}
    assert result.hits and result.hits[0].directory == BETA
    exact = history.search("readme edit")
    assert exact.corrections == {}  # positive control: nothing to correct


def test_common_words_do_not_drown_a_rare_one(indexed: Path) -> None:
    result = history.search("the error said File not found missing-file.txt in the read tool")
    assert result.hits and "missing-file.txt" in result.hits[0].matched and result.hits[0].directory == ALPHA


def test_deep_search_is_refused_without_scope_and_finds_buried_output(sample_db: Path) -> None:
    import sqlite3

    raw = sqlite3.connect(sample_db)
    pid, data, sid = raw.execute(
        'SELECT id, data, session_id FROM part WHERE data LIKE \'%"tool":"bash"%\' LIMIT 1'
    ).fetchone()
    import json

    payload = json.loads(data)
    filler = "\n".join(f"compiling module {i} ok" for i in range(3000))
    payload["state"]["output"] = filler + "\nburiedneedle: linker gave up on libfoo\n" + filler
    raw.execute("UPDATE part SET data = ? WHERE id = ?", (json.dumps(payload), pid))
    raw.execute("UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?", (sid,))
    raw.commit()
    history.index(load_config())
    assert history.search("buriedneedle").hits == []  # the index keeps only an excerpt of that output
    with pytest.raises(FilterError, match=r"missing: a scope .* and a lower time bound"):
        history.search("buriedneedle", Filters(), deep=True)
    with pytest.raises(FilterError, match="lower time bound"):
        history.search("buriedneedle", Filters(scope="project", directory=ALPHA), deep=True)
    deep = history.search("buriedneedle", Filters(sessions=[sid], scope="session"), deep=True)
    assert [h.session_id for h in deep.hits] == [sid] and "linker gave up" in deep.hits[0].snippet
    # The chunk-level filters hold here too, as on every read path (positive control just above).
    hit = deep.hits[0]
    for kept in (Filters(tools=["bash"]), Filters(classes=["tool_output"]), Filters(until=hit.time)):
        kept.sessions, kept.scope = [sid], "session"
        assert history.search("buriedneedle", kept, deep=True).hits, kept
    for dropped in (
        Filters(tools=["read"]),
        Filters(classes=["user_text"]),
        Filters(authors=["person"]),
        Filters(roles=["user"]),
        Filters(since=hit.time + 1),
        Filters(until=hit.time - 1),
    ):
        dropped.sessions, dropped.scope = [sid], "session"
        assert history.search("buriedneedle", dropped, deep=True).hits == [], dropped


def test_scope_paths_are_literal_not_patterns(sample_db: Path) -> None:
    import sqlite3

    raw = sqlite3.connect(sample_db)
    moved = "UPDATE session SET directory = ? WHERE id = ?"
    raw.execute(moved, ("/home/dev/work/MYXAPP/src", "ses_dd4b49e37ffeypNpHy09J5kHaD"))
    raw.execute(moved, ("/home/dev/work/my_app/src", "ses_dd4b43d5cffe1Zr8O8DpTMm9Yl"))
    raw.commit()
    history.index(load_config())
    mine = {s.directory for s in history.sessions(Filters(scope="directory", directory="/home/dev/work/my_app"))}
    assert mine == {"/home/dev/work/my_app/src"}  # positive control, and no '_' wildcard or case-folded match


def test_a_time_window_holds_on_every_read_path(indexed: Path) -> None:
    """since/until: a chunk is in the window when it was written in it, a session when it was active
    in it (created before the window ends, updated after it starts) - on search, list and read."""
    conn = history.store.connect(load_config().index_path, readonly=True)
    spans = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT native_id, time_created, time_updated FROM session")}
    beta_readme = "ses_dd4b49e37ffeypNpHy09J5kHaD"  # "Please edit the readme", in beta
    created, updated = spans[beta_readme]
    everything = history.search("readme", limit=50)
    assert beta_readme in {h.session_id for h in everything.hits}  # positive control
    cursor = next(h.cursor for h in everything.hits if h.session_id == beta_readme)
    for window, inside in (
        (Filters(until=created - 1), False),  # ends before the session began
        (Filters(since=updated + 1), False),  # starts after its last activity
        (Filters(since=created, until=updated), True),
        (Filters(since=created - 1, until=created + 1), True),  # overlaps its start only
    ):
        listed = {s.session_id for s in history.sessions(window, limit=100)}
        found = history.search("readme", window, limit=50)
        assert (beta_readme in listed) is inside, window
        assert all((window.since or 0) <= spans[s][1] and spans[s][0] <= (window.until or 2**62) for s in listed), (
            window
        )
        for hit in found.hits:
            if hit.klass != "card":  # a chunk hit: written inside the window (a card hit is the session)
                assert (window.since or 0) <= hit.time <= (window.until or 2**62), (window, hit)
        if inside:
            assert history.read(cursor, window).messages
        else:
            assert beta_readme not in {h.session_id for h in found.hits}
            with pytest.raises(ReadError):
                history.read(cursor, window)


def test_the_python_twin_of_the_predicate_agrees_with_the_sql(indexed: Path) -> None:
    """Deep search filters text read from the stores with `Filters.admits`; it must select exactly the
    chunks the SQL predicate selects from the index, for every chunk-level filter."""
    from recollect.search.scope import predicate

    conn = history.store.connect(load_config().index_path, readonly=True)
    rows = conn.execute("SELECT id, role, class, author, tool, time FROM chunk").fetchall()
    times = sorted(r[5] for r in rows)
    middle = times[len(times) // 2]
    cases = [
        Filters(roles=["user"]),
        Filters(classes=["tool_output", "tool_error"]),
        Filters(authors=["subagent"]),
        Filters(tools=["bash", "read"]),
        Filters(since=middle),
        Filters(until=middle),
        Filters(since=times[0], until=middle, roles=["assistant"], classes=["tool_input"]),
    ]
    for filters in cases:
        where, params = predicate(filters)
        sql = f"SELECT c.id FROM chunk c JOIN session s ON s.sid = c.sid WHERE {where}"
        in_sql = {r[0] for r in conn.execute(sql, params)}
        in_python = {r[0] for r in rows if filters.admits(role=r[1], klass=r[2], author=r[3], tool=r[4], time=r[5])}
        assert in_sql == in_python and 0 < len(in_sql) < len(rows), filters
