"""What a search says about its sources and, when it found nothing, what to try: no ranking happens here."""

from __future__ import annotations

import sqlite3
from typing import Any

from recollect.search.results import Coverage, iso
from recollect.search.scope import Filters


def sources(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every source's state as the last sync left it, for the coverage of every result."""
    rows = conn.execute("SELECT id, kind, status, message, sessions, malformed, time_synced FROM source ORDER BY id")
    return [
        {
            "id": r[0],
            "kind": r[1],
            "status": r[2],
            "message": r[3] or "",
            "sessions": r[4],
            "malformed": r[5],
            "synced": iso(r[6] or 0),
        }
        for r in rows
    ]


def hint(filters: Filters, coverage: Coverage) -> str:
    """For a search that returned nothing: which limit to widen, or why nothing matched; else ""."""
    if coverage.hits_returned:
        return ""
    advice = []
    if filters.scope != filters.widest_scope:
        advice.append(f"widen --scope {filters.scope} to --scope {filters.widest_scope}")
    if filters.since is not None or filters.until is not None:
        advice.append("widen or drop --since/--until")
    if filters.chunk_level:
        advice.append("drop --role/--class/--tool/--author")
    if filters.agents or filters.sources:
        advice.append("drop --agent/--source")
    down = [s["id"] for s in coverage.sources if s["status"] not in ("ok", None)]
    if down:
        advice.append(f"fix unavailable sources ({', '.join(down)}; see 'recollect doctor')")
    if coverage.sessions_indexed == 0:
        unread = [s["message"] for s in coverage.sources if s["status"] not in ("ok", None) and s["message"]]
        if unread:  # not "they hold none": they could not be read (a mistyped OPENCODE_DB, a store gone)
            return "no session is indexed: " + "; ".join(unread)
        return "no session is indexed yet: your agents' stores hold none ('recollect doctor' says which it read)"
    # The literal retry found nothing either: said here, in the one line that says nothing was found.
    if any(limit.startswith("literal retry") for limit in coverage.limited_by):
        tried = "no session searched holds these words, nor the text as typed (a literal scan of the same sessions "
        tried += "was tried too); "
    else:
        tried = "" if advice else "no session contains these words; "
    return tried + ("try to " + "; ".join(advice) if advice else "try other words, an identifier, or an error message")
