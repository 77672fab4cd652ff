"""The core views the page is built on (history.session_card, history.activity), through the scope."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect import history
from recollect.search.scope import Filters
from recollect.ui.chart import activity_svg

from .conftest import _history

ALPHA_SESSION = "claude::aaaaaaaa-1111-4111-8111-111111111111"


@pytest.fixture
def indexed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    claude, alpha, beta = _history(tmp_path)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    history.index()
    return alpha, beta


def test_session_card_holds_the_inventories_and_honours_the_scope(indexed: tuple[Path, Path]) -> None:
    alpha, beta = indexed
    card = history.session_card(ALPHA_SESSION, Filters(scope="project", directory=str(alpha)))
    assert card is not None  # positive control: inside its own project
    assert card.tools == ["Edit:1"] and any(f.endswith("deploy.toml") for f in card.files)
    assert card.title.startswith("deploy fails with ECONNREFUSED")  # no stored title: the first line typed
    assert history.session_card(ALPHA_SESSION, Filters(scope="project", directory=str(beta))) is None
    history.hide_session(ALPHA_SESSION, why="test")
    assert history.session_card(ALPHA_SESSION) is None


def test_activity_counts_sessions_per_project_and_day(indexed: tuple[Path, Path]) -> None:
    alpha, beta = indexed
    projects = {p.project: p for p in history.activity()}
    assert set(projects) == {str(alpha), str(beta)}
    assert projects[str(alpha)].per_day == {"2026-11-10": 1} and projects[str(alpha)].sessions == 1
    only_beta = history.activity(Filters(scope="project", directory=str(beta)))
    assert [p.project for p in only_beta] == [str(beta)]
    svg = activity_svg({"2026-11-01": 2, "2026-11-03": 1}, days=5, label="a <b> project")
    assert svg.count("<rect") == 2 and "max 2/day" in svg and "a &lt;b&gt; project" in svg
    assert "style=" not in svg  # the page's CSP allows no inline style


def test_the_pages_filters_are_the_clis(tmp_path: Path) -> None:
    from starlette.datastructures import QueryParams

    from recollect.config import load_config
    from recollect.times import parse_when
    from recollect.ui.pages import Site

    site = Site(load_config(), "t", 1, tmp_path)
    filters = site.filters_from(QueryParams("scope=project&until=2026-11-10&since=2026-11-01&role=user&tool="))
    assert filters.scope == "project" and filters.roles == ["user"] and filters.tools == []
    assert filters.until == parse_when("2026-11-10", end=True)  # a bare date's end, as on the CLI
    assert filters.until is not None and filters.since == parse_when("2026-11-01") and filters.until > filters.since


def test_the_pages_count_with_the_listings_words(indexed: tuple[Path, Path], tmp_path: Path) -> None:
    from recollect.config import load_config
    from recollect.ui.pages import Site

    site = Site(load_config(), "t", 1, tmp_path)
    alpha = str(indexed[0])
    projects = history.activity()
    recent = history.sessions(Filters(scope="project", directory=alpha), limit=50)
    page = site.env.get_template("projects.html").render(
        page="projects", projects=projects, charts={}, chosen=alpha, recent=recent
    )
    assert recent and recent[0].messages > 1  # positive control: a count that takes the plural
    assert f"· {recent[0].messages} messages</span>" in page
    assert "1 session ·" in page and "1 sessions" not in page  # each project holds one session
