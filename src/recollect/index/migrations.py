"""The index schema as data: an ordered, append-only list of named migration steps, and the table
of the ones applied (`migrations`). store.py runs them inside its write transaction and fence; a step
never runs twice, and an applied step is never edited (add a new one, and raise SCHEMA_VERSION)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

from recollect.index import fts
from recollect.text.tokenize import FTS_TOKENIZE

SCHEMA_VERSION = 16


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: executescript() would COMMIT the migration's transaction early."""
    for statement in re.split(r";\s*\n", script):
        if statement.strip():
            conn.execute(statement)


def _m001_initial(conn: sqlite3.Connection) -> None:
    _run_script(
        conn,
        f"""
        CREATE TABLE source (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            location TEXT NOT NULL,
            time_synced INTEGER,
            status TEXT,             -- ok | missing | locked | corrupt | unreadable
            message TEXT,
            malformed INTEGER NOT NULL DEFAULT 0,
            sessions INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE session (
            sid INTEGER PRIMARY KEY,
            source_id TEXT NOT NULL,
            native_id TEXT NOT NULL,
            agent_kind TEXT NOT NULL,
            parent_id TEXT,
            root_id TEXT,
            project_id TEXT,
            project_root TEXT,
            directory TEXT NOT NULL DEFAULT '',
            title TEXT NOT NULL DEFAULT '',
            agent TEXT,
            model TEXT,
            time_created INTEGER NOT NULL DEFAULT 0,
            time_updated INTEGER NOT NULL DEFAULT 0,
            time_archived INTEGER,
            watermark TEXT NOT NULL,
            first_human TEXT NOT NULL DEFAULT '',
            last_outcome TEXT NOT NULL DEFAULT '',
            identifiers TEXT NOT NULL DEFAULT '',   -- space-separated, most frequent first
            files TEXT NOT NULL DEFAULT '',         -- newline-separated
            tools TEXT NOT NULL DEFAULT '',         -- "name:count" space-separated
            errors TEXT NOT NULL DEFAULT '',        -- newline-separated error signatures
            message_count INTEGER NOT NULL DEFAULT 0,
            chunk_count INTEGER NOT NULL DEFAULT 0,
            chunks_dropped INTEGER NOT NULL DEFAULT 0,
            malformed INTEGER NOT NULL DEFAULT 0,
            UNIQUE (source_id, native_id)
        );
        CREATE INDEX session_directory ON session(directory);
        CREATE INDEX session_project ON session(project_root);
        CREATE INDEX session_updated ON session(time_updated);
        CREATE INDEX session_parent ON session(source_id, parent_id);
        CREATE TABLE chunk (
            id INTEGER PRIMARY KEY,
            sid INTEGER NOT NULL,
            message_id TEXT NOT NULL,
            part_id TEXT,
            ord INTEGER NOT NULL,        -- message position in the session, for windows
            role TEXT NOT NULL,
            class TEXT NOT NULL,         -- user_text | assistant_text | reasoning | tool_input | tool_output
                                         -- | tool_error | summary | subtask | title
            author TEXT NOT NULL,        -- person | model | injected | subagent
            tool TEXT,
            time INTEGER NOT NULL DEFAULT 0,
            text TEXT NOT NULL
        );
        CREATE INDEX chunk_session ON chunk(sid, ord);
        CREATE INDEX chunk_message ON chunk(message_id);
        -- Contentless: the text lives in `chunk`; rows are deleted by re-tokenizing that text.
        CREATE VIRTUAL TABLE chunk_fts USING fts5(body, content='', tokenize="{FTS_TOKENIZE}");
        CREATE VIRTUAL TABLE card_fts USING fts5(
            title, head, idents, files, errors, outcome, content='', tokenize="{FTS_TOKENIZE}"
        );
        CREATE TABLE lease (
            name TEXT PRIMARY KEY,
            holder TEXT,
            expires INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO lease(name, holder, expires) VALUES ('sync', NULL, 0);
        """,
    )


def _m002_vectors(conn: sqlite3.Connection) -> None:
    _run_script(
        conn,
        """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
        -- content hash of embeddable text, else NULL
        ALTER TABLE chunk ADD COLUMN hash BLOB;
        ALTER TABLE session ADD COLUMN card_text TEXT;
        ALTER TABLE session ADD COLUMN card_hash BLOB;
        CREATE INDEX chunk_hash ON chunk(hash) WHERE hash IS NOT NULL;
        -- Keyed by content, not by row: re-read sessions and duplicated text reuse their vectors.
        CREATE TABLE vector (
            hash BLOB NOT NULL,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            vec BLOB NOT NULL,                             -- float32, L2-normalised
            PRIMARY KEY (hash, model)
        ) WITHOUT ROWID
        """,
    )


def _rebuild_card_fts(conn: sqlite3.Connection) -> None:
    """card_fts made again with a column for each card field the session table has at this step,
    and refilled from the cards as stored."""
    have = {row[1] for row in conn.execute("PRAGMA table_info(session)")}
    fields = tuple(f for f in fts.CARD_FIELDS if f[1] in have)
    conn.execute("DROP TABLE card_fts")
    conn.execute(
        f"CREATE VIRTUAL TABLE card_fts USING fts5({', '.join(name for name, _ in fields)}, "
        f"content='', tokenize=\"{FTS_TOKENIZE}\")"
    )
    fts.refill(conn, fields)


def _m003_decisions(conn: sqlite3.Connection) -> None:
    """Cards gain the lines that state a decision, searchable as their own card_fts column."""
    if "decisions" not in {row[1] for row in conn.execute("PRAGMA table_info(session)")}:
        conn.execute("ALTER TABLE session ADD COLUMN decisions TEXT NOT NULL DEFAULT ''")
    conn.execute("UPDATE session SET decisions = ''")
    _rebuild_card_fts(conn)
    # The card index is refilled from the cards as stored, so replacing a card later deletes exactly
    # what was inserted; empty watermarks make the next sync re-read every session for its decisions.
    conn.execute("UPDATE session SET watermark = ''")


def _m004_skipped(conn: sqlite3.Connection) -> None:
    """Sessions a sync read and chose not to index (our own worker sessions), with the watermark they
    had: an unchanged one is not read again by every later sync."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS skipped (source_id TEXT NOT NULL, native_id TEXT NOT NULL, "
        "watermark TEXT NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (source_id, native_id)) WITHOUT ROWID"
    )


def _m005_session_stats(conn: sqlite3.Connection) -> None:
    """Sessions gain their listing statistics and how they ended (`index/stats.py`); empty watermarks
    make the next sync re-read every session to fill them in."""
    have = {row[1] for row in conn.execute("PRAGMA table_info(session)")}
    for column, kind in (
        ("turns", "INTEGER NOT NULL DEFAULT 0"),
        ("assistant_messages", "INTEGER NOT NULL DEFAULT 0"),
        ("tool_messages", "INTEGER NOT NULL DEFAULT 0"),
        ("text_parts", "INTEGER NOT NULL DEFAULT 0"),
        ("approx_context_chars", "INTEGER NOT NULL DEFAULT 0"),
        ("ended", "TEXT NOT NULL DEFAULT ''"),
    ):
        if column not in have:
            conn.execute(f"ALTER TABLE session ADD COLUMN {column} {kind}")
    conn.execute("UPDATE session SET watermark = ''")


def _m006_origin(conn: sqlite3.Connection) -> None:
    """Sessions recollect caused (the recall subagent's runs) are told apart by `origin` (text/markers.py),
    so searches leave them out. Only child sessions can be recognised that way without their messages:
    their empty watermarks make the next sync re-read just them."""
    if "origin" not in {row[1] for row in conn.execute("PRAGMA table_info(session)")}:
        conn.execute("ALTER TABLE session ADD COLUMN origin TEXT NOT NULL DEFAULT ''")
    conn.execute("UPDATE session SET watermark = '' WHERE parent_id IS NOT NULL")


def _m007_summary(conn: sqlite3.Connection) -> None:
    """Cards gain the session's summary (`recollect summarize`), searchable as its own card_fts column."""
    if "summary" not in {row[1] for row in conn.execute("PRAGMA table_info(session)")}:
        conn.execute("ALTER TABLE session ADD COLUMN summary TEXT NOT NULL DEFAULT ''")
    _rebuild_card_fts(conn)
    conn.execute("DELETE FROM meta WHERE key = 'summaries'")  # history.apply_summaries fills them in again


# Ordered, named, append-only. Never edit an applied step: add a new one.
def _m008_vector_slots(conn: sqlite3.Connection) -> None:
    """Each vector is stored once, in its model's slot file (index/slots.py); the table keeps where.
    The vectors of the old table are dropped, not moved: the next index embeds them again (derived
    data, about a minute of CPU at 5,000 sessions)."""
    conn.execute("DROP TABLE IF EXISTS vector")
    conn.execute(
        "CREATE TABLE vector (hash BLOB NOT NULL, model TEXT NOT NULL, dim INTEGER NOT NULL, "
        "slot INTEGER NOT NULL, PRIMARY KEY (hash, model)) WITHOUT ROWID"
    )
    conn.execute(
        "DELETE FROM meta WHERE key LIKE 'vectors\\_complete:%' ESCAPE '\\' OR key LIKE 'vector\\_file:%' ESCAPE '\\'"
    )
    conn.execute(
        "INSERT INTO meta(key, value) VALUES ('vector_generation', '1') "
        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
    )


def _m009_session_scope(conn: sqlite3.Connection) -> None:
    """An index holding the session columns the scope predicate reads (search/scope.py), so the counts
    every search takes (`session_counts`) scan it instead of the session rows, whose cards make them
    wide: ~7 -> ~0.6 ms at 5,000 sessions. A predicate over another column scans the table, as before."""
    conn.execute(
        "CREATE INDEX IF NOT EXISTS session_scope ON session(origin, source_id, native_id, directory, "
        "project_root, agent_kind, parent_id, time_created, time_updated, time_archived, card_hash)"
    )


def _m010_plain_titles(conn: sqlite3.Connection) -> None:
    """Titles are stored as plain text (text/plain.py), Claude Code sub-agents are titled by their
    request and a Claude Code file of title records only is no session: the next sync re-reads the
    sessions these change (a title with a markdown mark, every Claude Code session)."""
    conn.execute("UPDATE session SET watermark = '' WHERE agent_kind = 'claude-code' OR title GLOB '*[*`#[]*'")


def _m011_turns_and_command_titles(conn: sqlite3.Connection) -> None:
    """`turns` counts no sub-agent's prompt (index/stats.count_turns) and a Claude Code session of slash
    commands only is titled by its commands: the next sync re-reads the sessions these change (every
    child session, every Claude Code session without a title), not the rest."""
    conn.execute(
        "UPDATE session SET watermark = '' WHERE parent_id IS NOT NULL OR (agent_kind = 'claude-code' AND title = '')"
    )


def _m012_error_tails(conn: sqlite3.Connection) -> None:
    """A tool's error is kept as its head, its error-looking lines and its tail (index/chunks.py), no longer
    as its first 2,000 characters: the next sync re-reads the sessions where one was cut there."""
    conn.execute(
        "UPDATE session SET watermark = '' WHERE sid IN "
        "(SELECT sid FROM chunk WHERE class = 'tool_error' AND length(text) >= 2000)"
    )


def _m013_recall_relays(conn: sqlite3.Connection) -> None:
    """What a session relayed of the recall agent's answer is no longer indexed (text/relays.py): the next
    sync re-reads the sessions that called it (the parents of its runs), not the rest."""
    conn.execute(
        "UPDATE session SET watermark = '' WHERE (source_id, native_id) IN "
        "(SELECT source_id, parent_id FROM session WHERE origin = 'recall' AND parent_id IS NOT NULL)"
    )


def _m014_command_templates(conn: sqlite3.Connection) -> None:
    """An OpenCode slash command's template is no longer indexed as the person's words; they typed
    `/name arguments` (sources/opencode_commands.py): the next sync re-reads the sessions whose first
    request opens as a command's template does, or that ran a command as a subtask, not the rest."""
    from recollect.sources.opencode_commands import PLACEHOLDER, templates_for

    rows = conn.execute("SELECT DISTINCT directory, project_root FROM session WHERE agent_kind = 'opencode'")
    openings: set[str] = set()
    for directory, root in rows.fetchall():
        for template in templates_for(directory or "", root):
            first = next((line.strip() for line in template.text.splitlines() if line.strip()), "")
            opening = PLACEHOLDER.split(first)[0].strip()  # what every use of it starts with
            if len(opening) >= 12:
                openings.add(opening[:300])
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS command_openings (line TEXT PRIMARY KEY)")
    conn.executemany("INSERT OR IGNORE INTO command_openings VALUES (?)", [(o,) for o in openings])
    conn.execute(
        "UPDATE session SET watermark = '' WHERE agent_kind = 'opencode' AND (EXISTS (SELECT 1 FROM command_openings o "
        "WHERE substr(session.first_human, 1, length(o.line)) = o.line) "
        "OR sid IN (SELECT sid FROM chunk WHERE class = 'subtask'))"
    )
    conn.execute("DROP TABLE command_openings")


def _m015_derived(conn: sqlite3.Connection) -> None:
    """Sessions record the versioned rules that shaped their rows (`derived`, index/derivations.py), so a
    rule's change re-derives them on the next sync without a migration of its own. Those the relay rule
    shaped before this step (the parents of the recall agent's runs, as 013 found them) are tagged with its
    version before 542f390 (a relay holds a phrase of the answer): the next sync re-reads them, not the rest."""
    if "derived" not in {row[1] for row in conn.execute("PRAGMA table_info(session)")}:
        conn.execute("ALTER TABLE session ADD COLUMN derived TEXT NOT NULL DEFAULT ''")
    conn.execute(
        "UPDATE session SET derived = 'relays:1' WHERE (source_id, native_id) IN "
        "(SELECT source_id, parent_id FROM session WHERE origin = 'recall' AND parent_id IS NOT NULL)"
    )


def _m016_own_tool_relays(conn: sqlite3.Connection) -> None:
    """The relay rule reads our own tools' answers too (text/relays.py version 3): what the agent restated
    of a `history_search` it called itself is no longer indexed. Those sessions were never tagged (the rule
    read only the recall agent's answers), so the version alone re-reads none of them. The index holds no
    row of our tool calls (chunks drop them), but their messages are counted: a session with more messages
    that call a tool (`tool_messages`) than messages whose tool calls were indexed called one of ours, the
    recall agent, a memory file's tool, or lost tool rows to the chunk cap. Those untagged are tagged with
    the rule's version before, so the next sync re-reads them (index/derivations.py), not the rest."""
    conn.execute(
        "UPDATE session SET derived = 'relays:2' WHERE derived = '' AND tool_messages > "
        "(SELECT count(DISTINCT c.message_id) FROM chunk c WHERE c.sid = session.sid "
        "AND c.class IN ('tool_input', 'tool_output', 'tool_error'))"
    )


MIGRATIONS: list[tuple[str, Callable[[sqlite3.Connection], None]]] = [
    ("001_initial", _m001_initial),
    ("002_vectors", _m002_vectors),
    ("003_decisions", _m003_decisions),
    ("004_skipped", _m004_skipped),
    ("005_session_stats", _m005_session_stats),
    ("006_origin", _m006_origin),
    ("007_summary", _m007_summary),
    ("008_vector_slots", _m008_vector_slots),
    ("009_session_scope", _m009_session_scope),
    ("010_plain_titles", _m010_plain_titles),
    ("011_turns_and_command_titles", _m011_turns_and_command_titles),
    ("012_error_tails", _m012_error_tails),
    ("013_recall_relays", _m013_recall_relays),
    ("014_command_templates", _m014_command_templates),
    ("015_derived", _m015_derived),
    ("016_own_tool_relays", _m016_own_tool_relays),
]


def apply(conn: sqlite3.Connection, now: int) -> None:
    """Run every step not applied yet, in order, recording each (the caller holds the transaction)."""
    conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)")
    applied = {row[0] for row in conn.execute("SELECT name FROM migrations")}
    for name, step in MIGRATIONS:
        if name not in applied:
            step(conn)
            conn.execute("INSERT INTO migrations(name, applied_at) VALUES (?, ?)", (name, now))
