"""Activity per day as a small server-side SVG bar chart: no chart library, nothing fetched.

Only presentation attributes are used (no `style`), so the page's strict CSP needs no exception.
"""

from __future__ import annotations

from datetime import date, timedelta
from html import escape

from recollect.history import counted

WIDTH = 720
HEIGHT = 90
PAD = 18


def day_range(per_day: dict[str, int], *, days: int) -> list[tuple[date, int]]:
    """The last `days` days up to the newest active one, with zeros for idle days."""
    if not per_day:
        return []
    newest = max(date.fromisoformat(d) for d in per_day)
    start = newest - timedelta(days=days - 1)
    return [(start + timedelta(n), per_day.get((start + timedelta(n)).isoformat(), 0)) for n in range(days)]


def activity_svg(per_day: dict[str, int], *, days: int = 90, label: str = "") -> str:
    """Bars of sessions per day over the last `days` days, with the busiest day's count on the axis."""
    series = day_range(per_day, days=days)
    if not series:
        return ""
    peak = max(count for _, count in series) or 1
    bar = (WIDTH - 2 * PAD) / len(series)
    usable = HEIGHT - 2 * PAD
    bars = []
    for i, (day, count) in enumerate(series):
        if not count:
            continue
        h = max(2.0, usable * count / peak)
        x = PAD + i * bar
        y = HEIGHT - PAD - h
        title = f"{day.isoformat()}: {counted(count, 'session')}"
        bars.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(1.0, bar - 1):.1f}" height="{h:.1f}" '
            f'fill="#3b6ea5"><title>{escape(title)}</title></rect>'
        )
    first, last = series[0][0].isoformat(), series[-1][0].isoformat()
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(label or "sessions per day")}">'
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#999" />'
        + "".join(bars)
        + f'<text x="{PAD}" y="{HEIGHT - 4}" font-size="10" fill="#555">{first}</text>'
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 4}" font-size="10" fill="#555" text-anchor="end">{last}</text>'
        f'<text x="{PAD}" y="{PAD - 6}" font-size="10" fill="#555">max {peak}/day</text>'
        "</svg>"
    )
