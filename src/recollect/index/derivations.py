"""Which versioned rules shaped a session's rows, so that a change to one re-derives, on the next sync, the
sessions it shaped: a user who upgrades never has to know to reindex.

Some of what the index holds is a judgement made as a session is read, by a rule that shapes only some
sessions: which sentences of the parent relay the recall agent's answer (text/relays.py) is one. When
such a rule changes, an index built before keeps the old judgement until the session changes in its
store. So each of these rules has a version (kept beside the rule, where its author sees it); a session
it shaped records `name:version` in `session.derived` as it is stored; and a sync that finds the index's
recorded versions (`meta` 'derivations') behind this code's empties the watermark of the sessions whose
tag names another version, so the sync reads those again and replaces them whole, not the rest. An index
at this code's versions costs one `meta` read a sync.

A change that widens *which* sessions a rule shapes (it finds calls it used to miss) cannot be told from
these tags: those sessions were never tagged. It needs a migration that finds them some other way
(index/migrations.py). Never reads a source.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from recollect.text import relays

# Each rule by name and its version: raise a version when what the rule makes of a session changes.
RULES: dict[str, int] = {"relays": relays.RULE_VERSION}


def tags(names: Iterable[str]) -> str:
    """What a session shaped by the rules `names` records in `session.derived`."""
    return " ".join(f"{name}:{RULES[name]}" for name in sorted(set(names)))


def current() -> str:
    """Every rule at this code's version, as `meta` records the index's."""
    return tags(RULES)


def behind(conn: sqlite3.Connection) -> bool:
    """Whether the index's rows were derived by rules of other versions than this code's (a read)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'derivations'").fetchone()
    return row is None or row[0] != current()


def rederive(conn: sqlite3.Connection) -> int:
    """Inside the caller's write transaction: empty the watermarks of the sessions a rule of another
    version shaped, so that this sync reads them again, and record this code's versions. Returns how
    many sessions it marked."""
    marked = 0
    for name, version in RULES.items():
        cur = conn.execute(
            "UPDATE session SET watermark = '' WHERE derived != '' AND watermark != '' "
            "AND (' ' || derived || ' ') LIKE ? AND (' ' || derived || ' ') NOT LIKE ?",
            (f"% {name}:%", f"% {name}:{version} %"),
        )
        marked += cur.rowcount
    conn.execute(
        "INSERT INTO meta(key, value) VALUES ('derivations', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (current(),),
    )
    return marked
