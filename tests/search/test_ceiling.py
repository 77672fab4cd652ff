"""The operator's scope ceiling in the scope layer (search/ceiling.py), over a real store with two
git projects: every read path refuses what reaches beyond it, each after a positive control."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect import history
from recollect.config import ConfigError, load_config
from recollect.search.ceiling import UNBOUNDED, Ceiling, ScopeCeilingError, from_config, narrowest
from recollect.search.read import ReadError, render_chatml, render_text
from recollect.search.scope import FilterError, Filters, predicate
from recollect.text.markers import OWN_OUTPUT_OMITTED
from tests.scope_stores import ALPHA_WORD, BASH_WORD, BETA_WORD, SUB_WORD, TwoProjects, build, message_ids, write_config


@pytest.fixture
def two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TwoProjects:
    return build(tmp_path, monkeypatch)


def project_ceiling(two: TwoProjects) -> Ceiling:
    return Ceiling("project", str(two.alpha), origin="'recollect mcp --scope project'", fix="restart it wider")


def found(query: str, filters: Filters) -> set[str]:
    return {h.session_id for h in history.search(query, filters, sync_first=False).hits}


def test_a_ceiling_is_a_refusal_not_a_default(two: TwoProjects) -> None:
    # Positive control: without a ceiling, scope 'all' from alpha finds beta's session.
    assert found(BETA_WORD, Filters(scope="all", directory=str(two.alpha))) == {two.beta_session}
    ceiling = project_ceiling(two)
    # Inside the ceiling the same search works, and only alpha's sessions are in it.
    assert found(ALPHA_WORD, Filters(scope="project", directory=str(two.alpha), ceiling=ceiling)) == {two.alpha_session}
    with pytest.raises(ScopeCeilingError) as refused:
        history.search(BETA_WORD, Filters(scope="all", directory=str(two.alpha), ceiling=ceiling), sync_first=False)
    text = str(refused.value)
    assert "scope 'all' is wider than the scope ceiling 'project'" in text
    assert str(two.alpha) in text and "'recollect mcp --scope project'" in text and "restart it wider" in text
    assert isinstance(refused.value, FilterError)  # every surface reports it as a clear line


def test_a_directory_argument_cannot_move_the_ceiling(two: TwoProjects) -> None:
    ceiling = project_ceiling(two)
    # Positive control: a directory inside the ceiling narrows.
    inside = Filters(scope="directory", directory=str(two.alpha_sub), ceiling=ceiling)
    assert found(SUB_WORD, inside) == {two.sub_session}
    assert found(ALPHA_WORD, inside) == set()
    for scope in ("project", "directory"):
        with pytest.raises(ScopeCeilingError, match="is outside the scope ceiling 'project'"):
            history.search(BETA_WORD, Filters(scope=scope, directory=str(two.beta), ceiling=ceiling), sync_first=False)


def test_a_directory_ceiling_refuses_the_project(two: TwoProjects) -> None:
    ceiling = Ceiling("directory", str(two.alpha_sub), origin="config", fix="raise it")
    assert found(SUB_WORD, Filters(scope="directory", directory=str(two.alpha_sub), ceiling=ceiling)) == {
        two.sub_session
    }
    with pytest.raises(ScopeCeilingError, match="scope 'project' is wider than the scope ceiling 'directory'"):
        history.search(
            ALPHA_WORD, Filters(scope="project", directory=str(two.alpha_sub), ceiling=ceiling), sync_first=False
        )
    assert ceiling.narrow("all") == "directory" and ceiling.narrow("session") == "session"


def test_named_sessions_outside_are_refused(two: TwoProjects) -> None:
    ceiling = project_ceiling(two)
    mine = Filters(scope="session", sessions=[two.alpha_session], directory=str(two.alpha), ceiling=ceiling)
    assert found(ALPHA_WORD, mine) == {two.alpha_session}
    foreign = Filters(scope="session", sessions=[two.beta_session], directory=str(two.alpha), ceiling=ceiling)
    with pytest.raises(ScopeCeilingError, match=f"session '{two.beta_session}' is outside"):
        history.search(BETA_WORD, foreign, sync_first=False)
    # Named beside a scope too: narrowing by id must not be a way around the ceiling.
    mixed = Filters(scope="project", sessions=[two.beta_session], directory=str(two.alpha), ceiling=ceiling)
    with pytest.raises(ScopeCeilingError):
        history.sessions(mixed, sync_first=False)


def test_the_refusal_names_no_foreign_session_detail(two: TwoProjects) -> None:
    foreign = Filters(scope="session", sessions=[two.beta_session], directory=str(two.alpha))
    foreign.ceiling = project_ceiling(two)
    with pytest.raises(ScopeCeilingError) as refused:
        history.sessions(foreign, sync_first=False)
    assert str(two.beta) not in str(refused.value) and "Deploy beta" not in str(refused.value)


def test_sessions_listing(two: TwoProjects) -> None:
    ceiling = project_ceiling(two)
    listed = history.sessions(Filters(scope="project", directory=str(two.alpha), ceiling=ceiling), sync_first=False)
    assert {r.session_id for r in listed} == {two.alpha_session, two.alpha_echo, two.sub_session}
    with pytest.raises(ScopeCeilingError):
        history.sessions(Filters(scope="all", directory=str(two.alpha), ceiling=ceiling), sync_first=False)


def test_read_by_a_cursor_from_a_wider_answer_is_refused(two: TwoProjects) -> None:
    ceiling = project_ceiling(two)
    # The cursor comes from an earlier, unbounded answer.
    wide = history.search(BETA_WORD, Filters(scope="all", directory=str(two.alpha)), sync_first=False)
    foreign_cursor = next(h.cursor for h in wide.hits if h.session_id == two.beta_session)
    mine = history.search(ALPHA_WORD, Filters(scope="project", directory=str(two.alpha)), sync_first=False)
    own_cursor = mine.hits[0].cursor

    window = history.read(own_cursor, Filters(scope="project", directory=str(two.alpha), ceiling=ceiling))
    assert window.session_id == two.alpha_session  # positive control
    for cursor in (foreign_cursor, two.cursor(two.beta_session), two.beta_session):
        with pytest.raises(ScopeCeilingError, match="is outside the scope ceiling 'project'"):
            history.read(cursor, Filters(scope="project", directory=str(two.alpha), ceiling=ceiling))
    # A bare message id of the foreign session, too.
    with pytest.raises(ScopeCeilingError, match="message"):
        history.read(
            message_ids(two, two.beta_session)[0], Filters(scope="project", directory=str(two.alpha), ceiling=ceiling)
        )


def test_a_cursor_outside_a_narrower_query_suggests_the_ceiling_not_all(two: TwoProjects) -> None:
    ceiling = project_ceiling(two)
    narrow = Filters(scope="directory", directory=str(two.alpha_sub), ceiling=ceiling)
    with pytest.raises(ReadError, match="try --scope project") as refused:
        history.read(two.cursor(two.alpha_session), narrow)
    assert "--scope all" not in str(refused.value)


def test_the_predicate_alone_keeps_the_ceiling(two: TwoProjects) -> None:
    """Defence in depth: a path that never called `resolve` (so never the check) still cannot
    return a session beyond the ceiling, because every predicate carries it."""
    with history.open_index() as conn:
        unbounded = Filters(scope="all", directory=str(two.alpha))
        where, params = predicate(unbounded, chunk_alias=None)
        everything = {r[0] for r in conn.execute(f"SELECT native_id FROM session s WHERE {where}", params)}
        assert two.beta_session in everything  # positive control
        bounded = Filters(scope="all", directory=str(two.alpha), ceiling=project_ceiling(two))
        where, params = predicate(bounded, chunk_alias=None)
        inside = {r[0] for r in conn.execute(f"SELECT native_id FROM session s WHERE {where}", params)}
    assert inside == {two.alpha_session, two.alpha_echo, two.sub_session}


def test_deep_search_skips_our_own_tool_outputs(two: TwoProjects) -> None:
    deep = Filters(scope="session", sessions=[two.alpha_session, two.alpha_echo], directory=str(two.alpha))
    # Positive control: deep search reads an ordinary tool output of the same project.
    assert {h.session_id for h in history.search(BASH_WORD, deep, sync_first=False, deep=True).hits} == {
        two.alpha_session
    }
    assert history.search(BETA_WORD, deep, sync_first=False, deep=True).hits == []


def test_reads_omit_our_own_earlier_tool_calls(two: TwoProjects) -> None:
    ordinary = history.read(two.cursor(two.alpha_session))
    assert BASH_WORD in render_text(ordinary)  # positive control: other tool outputs are shown
    window = history.read(two.cursor(two.alpha_echo), mode="head", after=5)
    for text in (render_text(window), render_chatml(window), str(window.to_dict())):
        assert BETA_WORD not in text and str(two.beta) not in text
        assert OWN_OUTPUT_OMITTED in text
    assert "Found it in another project." in render_text(window)  # the rest of the session stays


def test_ceilings_combine_to_the_narrowest(two: TwoProjects) -> None:
    project = Ceiling("project", str(two.alpha), origin="A", fix="fix A")
    directory = Ceiling("directory", str(two.alpha), origin="B", fix="fix B")
    assert narrowest(UNBOUNDED, project) == project
    assert narrowest(project, directory) == directory
    both = narrowest(project, Ceiling("project", str(two.alpha), origin="C", fix="fix C"))
    assert both.scope == "project" and both.origin == "A and C" and both.fix == "fix A and fix C"
    assert narrowest(UNBOUNDED, UNBOUNDED).unbounded


def test_config_key(two: TwoProjects, isolated_home: Path) -> None:
    assert from_config(load_config(), str(two.alpha)).unbounded  # no key: no ceiling
    path = write_config(isolated_home, '[scope]\nceiling = "project"\n')
    ceiling = from_config(load_config(), str(two.alpha))
    assert ceiling.scope == "project" and ceiling.anchor == str(two.alpha) and str(path) in ceiling.origin
    write_config(isolated_home, '[scope]\nceiling = "everything"\n')
    with pytest.raises(ConfigError, match="ceiling must be one of all, project, directory"):
        from_config(load_config(), str(two.alpha))


def test_coverage_counts_only_what_the_ceiling_lets_the_caller_see(two: TwoProjects) -> None:
    unbounded = history.search(ALPHA_WORD, Filters(scope="project", directory=str(two.alpha)), sync_first=False)
    everything = unbounded.coverage.sessions_indexed
    bounded = history.search(
        ALPHA_WORD, Filters(scope="project", directory=str(two.alpha), ceiling=project_ceiling(two)), sync_first=False
    )
    inside = bounded.coverage.sessions_indexed
    assert everything > inside > 0  # positive control: beta's session counts only without a ceiling
    assert inside == bounded.coverage.sessions_in_scope


def test_the_session_counts_in_one_pass_are_the_counts_of_each_predicate(two: TwoProjects) -> None:
    from recollect.search.scope import session_counts, visible_sessions

    cases = [
        Filters(scope="all", directory=str(two.alpha)),
        Filters(scope="project", directory=str(two.alpha)),
        Filters(scope="directory", directory=str(two.alpha_sub)),
        Filters(scope="project", directory=str(two.alpha), ceiling=project_ceiling(two)),
        Filters(scope="session", sessions=[two.beta_session], directory=str(two.alpha)),
        Filters(scope="all", directory=str(two.alpha), since=1, until=2),  # an empty window
    ]
    seen = set()
    with history.open_index() as conn:
        total = conn.execute("SELECT count(*) FROM session").fetchone()[0]
        carded = conn.execute("SELECT count(*) FROM session WHERE card_hash IS NOT NULL").fetchone()[0]
        for filters in cases:
            filters = filters.resolve(conn)
            where, params = predicate(filters, chunk_alias=None)
            in_scope = conn.execute(f"SELECT count(*) FROM session s WHERE {where}", params).fetchone()[0]
            counts = session_counts(conn, filters)
            assert (counts.visible, counts.in_scope, counts.total, counts.carded) == (
                visible_sessions(conn, filters),
                in_scope,
                total,
                carded,
            ), filters
            seen.add((counts.visible, counts.in_scope))
    assert len(seen) >= 4 and total > 0 and carded > 0  # the cases differ: the counts are not all the same
