"""What goes into the two FTS5 tables, in one place: the index writer, its deletes and the migrations
that rebuild the tables all use these, because a contentless FTS5 row can only be deleted with
exactly the tokens it was inserted with.
"""

from __future__ import annotations

import sqlite3

from recollect.text.tokenize import TOKENIZER_VERSION, tokenize

# card_fts column -> the session column it is made from.
CARD_FIELDS = (
    ("title", "title"),
    ("head", "first_human"),
    ("idents", "identifiers"),
    ("files", "files"),
    ("errors", "errors"),
    ("outcome", "last_outcome"),
    ("decisions", "decisions"),
    ("summary", "summary"),  # written by `recollect summarize` (history.apply_summaries)
)
CARD_COLUMNS = ", ".join(column for _, column in CARD_FIELDS)
CARD_FTS_COLUMNS = ", ".join(name for name, _ in CARD_FIELDS)
CARD_MARKS = ", ".join("?" * len(CARD_FIELDS))


def fts_body(text: str) -> str:
    return " ".join(tokenize(text))


def card_fts_values(row: sqlite3.Row | tuple) -> tuple[str, ...]:
    """Tokens for card_fts from the session columns of CARD_FIELDS, in that order."""
    return tuple(fts_body(value or "") for value in row)


def refill(conn: sqlite3.Connection, fields: tuple[tuple[str, str], ...] = CARD_FIELDS) -> None:
    """Re-insert every chunk and card from the stored text into emptied FTS tables, and record the
    tokenizer that made them. Used when the tables are recreated (a migration, a tokenizer change);
    `fields` are the card_fts columns the table has at that step."""
    names = ", ".join(name for name, _ in fields)
    columns = ", ".join(column for _, column in fields)
    marks = ", ".join("?" * len(fields))
    conn.execute("INSERT INTO chunk_fts(chunk_fts) VALUES('delete-all')")
    conn.execute("INSERT INTO card_fts(card_fts) VALUES('delete-all')")
    conn.executemany(
        "INSERT INTO chunk_fts(rowid, body) VALUES (?, ?)",
        ((cid, fts_body(text)) for cid, text in conn.execute("SELECT id, text FROM chunk").fetchall()),
    )
    conn.executemany(
        f"INSERT INTO card_fts(rowid, {names}) VALUES (?, {marks})",
        ((row[0], *card_fts_values(row[1:])) for row in conn.execute(f"SELECT sid, {columns} FROM session")),
    )
    conn.execute(
        "INSERT INTO meta(key, value) VALUES ('tokenizer', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (TOKENIZER_VERSION,),
    )
