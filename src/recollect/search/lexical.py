"""The BM25 arms' query: the best rows of an FTS table for a MATCH, within the scope, ties in a stable order.

Joining every match to its chunk and session before sorting cost a common-word query most of its time
(at 5,000 sessions, 22,000 matching chunks: ~85 ms of CPU, of which ~40 ms is BM25 itself). So the FTS
table is asked alone first for its `SHORTLIST` x `limit` best rows by score, and only those are joined,
filtered and put in the stable order. That gives the same rows as the one joined query whenever the
shortlist holds them all: either it holds every match, or at least `limit` of its rows pass the scope
and the last of them scores strictly better than the shortlist's worst (a row left out of the
shortlist scores no better than that, so it could neither rank above them nor tie with them). Otherwise
(a narrow scope, or a tie across the shortlist's edge) the one joined query runs, as before.
"""

from __future__ import annotations

import sqlite3
from typing import Any

SHORTLIST = 2  # the FTS table's best rows read first, as a multiple of the rows wanted
_MAX_PARAMETERS = 30_000  # below SQLite's bound-parameter limit (32,766 since 3.32)


def best_rows(
    conn: sqlite3.Connection,
    match: str,
    *,
    fts: str,
    score: str,
    columns: str,
    table: str,
    key: str,
    joins: str = "",
    scope: tuple[str, list[object]],
    stable: str,
    limit: int,
    shortlist: bool = True,
) -> list[Any]:
    """The best `limit` rows for `match` of `fts` (e.g. `chunk_fts`), each `columns` then its `score` (an
    FTS rank function of `fts`, lower is better), in the order (score, `stable`). The FTS row is the row
    of `table` whose `key` is its rowid (`chunk c`, `c.id`), with `joins` after it (`JOIN session s ON
    s.sid = c.sid`); `scope` is the WHERE fragment over them with its parameters. `shortlist=False` runs the
    one joined query straight away: for a scope that leaves most rows out, where SQLite finds the rows
    in scope first."""
    where, params = scope
    wanted = SHORTLIST * limit
    if shortlist and limit > 0 and 2 * wanted + len(params) + 2 <= _MAX_PARAMETERS:
        best = conn.execute(
            f"SELECT rowid, {score} AS r FROM {fts} WHERE {fts} MATCH ? ORDER BY r LIMIT ?", [match, wanted]
        ).fetchall()
        if not best:
            return []
        tables = f"f JOIN {table} ON {key} = f.id {joins}"
        rows = _joined(conn, best, columns, tables, where, params, stable, limit)
        if len(best) < wanted or (len(rows) >= limit and rows[limit - 1][-1] < best[-1][1]):
            return rows
    return conn.execute(
        f"SELECT {columns}, {score} AS r FROM {fts} JOIN {table} ON {key} = {fts}.rowid {joins} "
        f"WHERE {fts} MATCH ? AND {where} ORDER BY r, {stable} LIMIT ?",
        [match, *params, limit],
    ).fetchall()


def _joined(
    conn: sqlite3.Connection,
    shortlist: list[tuple[int, float]],
    columns: str,
    tables: str,
    where: str,
    params: list[object],
    stable: str,
    limit: int,
) -> list[Any]:
    """The shortlisted rows that pass the scope, with their scores as bound (exactly the doubles FTS
    computed), in the order (score, `stable`): SQLite sorts them, so ties order as the joined query's."""
    values = ", ".join(["(?, ?)"] * len(shortlist))
    bound = [v for row in shortlist for v in row]
    return conn.execute(
        f"WITH f(id, r) AS (VALUES {values}) SELECT {columns}, f.r AS r FROM {tables} "
        f"WHERE {where} ORDER BY r, {stable} LIMIT ?",
        [*bound, *params, limit],
    ).fetchall()


def best_chunk_rows(
    conn: sqlite3.Connection,
    match: str,
    *,
    columns: str,
    scope: tuple[str, list[object]],
    stable: str,
    limit: int,
    shortlist: bool = True,
) -> list[Any]:
    """`best_rows` over the chunks: `chunk_fts` by its BM25, each chunk `c` joined to its session `s`."""
    return best_rows(
        conn,
        match,
        fts="chunk_fts",
        score="bm25(chunk_fts)",
        columns=columns,
        table="chunk c",
        key="c.id",
        joins="JOIN session s ON s.sid = c.sid",
        scope=scope,
        stable=stable,
        limit=limit,
        shortlist=shortlist,
    )
