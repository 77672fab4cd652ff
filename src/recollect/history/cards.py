"""What the index knows of sessions at a glance: one session's card, and sessions per project and day."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from recollect.app import Recollect
from recollect.config import Config
from recollect.history.access import scoped, surface
from recollect.index import queries
from recollect.search.scope import Filters, predicate
from recollect.text.plain import display_title
from recollect.times import iso


@dataclass
class SessionCard:
    """What the index knows of one session at a glance: the card beside a transcript."""

    session_id: str
    source: str
    title: str
    directory: str
    project_root: str
    time_created: int
    time_updated: int
    messages: int
    first_human: str
    last_outcome: str
    files: list[str]
    tools: list[str]
    errors: list[str]
    decisions: list[str]
    identifiers: list[str]

    def to_dict(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        data.update(created_iso=iso(self.time_created), updated_iso=iso(self.time_updated))
        return data


def session_card(
    session: str, filters: Filters | None = None, *, config: Config | None = None, app: Recollect | None = None
) -> SessionCard | None:
    """The card of one session (a native or `SOURCE::ID` id) if the scope admits it, else None."""
    with surface(config, app) as app, app.index(readonly=True) as conn:
        base = scoped(filters, app.config)
        narrowed = replace(base, sessions=[session], scope="session" if base.scope == "all" else base.scope)
        where, params = predicate(narrowed.resolve(conn), chunk_alias=None)
        row = queries.card_row(conn, where, params)
    if row is None:
        return None
    return SessionCard(
        session_id=row[0],
        source=row[1],
        title=display_title(row[2], row[8]),
        directory=row[3],
        project_root=row[4],
        time_created=row[5],
        time_updated=row[6],
        messages=row[7],
        first_human=row[8],
        last_outcome=row[9],
        files=_lines(row[10]),
        tools=(row[11] or "").split(),
        errors=_lines(row[12]),
        decisions=_lines(row[13]),
        identifiers=(row[14] or "").split()[:40],
    )


def _lines(text: str | None) -> list[str]:
    return [line for line in (text or "").splitlines() if line.strip()]


@dataclass
class ProjectActivity:
    """One project's sessions per day (UTC), for the picture of a project over time."""

    project: str
    sessions: int
    first: int
    last: int
    per_day: dict[str, int]  # "YYYY-MM-DD" -> sessions active (updated) that day


def activity(
    filters: Filters | None = None, *, config: Config | None = None, app: Recollect | None = None, limit: int = 50
) -> list[ProjectActivity]:
    """Sessions per project and day, busiest projects first, through the scope predicate."""
    with surface(config, app) as app, app.index(readonly=True) as conn:
        where, params = predicate(scoped(filters, app.config).resolve(conn), chunk_alias=None)
        rows = queries.activity_rows(conn, where, params)
    projects: dict[str, ProjectActivity] = {}
    for project, day, count, first, last in rows:
        entry = projects.setdefault(project, ProjectActivity(project, 0, first, last, {}))
        entry.sessions += count
        entry.first, entry.last = min(entry.first, first), max(entry.last, last)
        entry.per_day[day] = count
    ranked = sorted(projects.values(), key=lambda p: (-p.sessions, p.project))
    return ranked[:limit]
