"""The BM25 arms' shortlist query (search/lexical.py) returns exactly what the one joined query returns:
the same rows, scores and order, ties included, for every scope, class filter and limit."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from recollect.index import store
from recollect.search.lexical import best_rows
from recollect.search.rank import _STABLE_CHUNK, _STABLE_SESSION, CARD_WEIGHTS
from recollect.search.scope import Filters, predicate
from recollect.text.tokenize import tokenize

WORDS = "pool timeout retry cache deploy token ledger refund webhook queue lease shard".split()
CARD_SCORE = f"bm25(card_fts, {', '.join(str(w) for w in CARD_WEIGHTS)})"


def _index(path: Path) -> sqlite3.Connection:
    """A real index: 60 sessions in 4 directories (some recollect's own), 1,500 chunks of which many
    repeat one text exactly (equal BM25 scores, so ties cross any shortlist's edge)."""
    conn = store.connect(path)
    rng = random.Random(5)
    chunk_id = 0
    for sid in range(1, 61):
        directory = f"/home/dev/work/p{sid % 4}"
        conn.execute(
            "INSERT INTO session (sid, source_id, native_id, agent_kind, directory, title, watermark, origin) "
            "VALUES (?, ?, ?, 'opencode', ?, ?, '', ?)",
            (
                sid,
                f"src{sid % 2}",
                f"ses_{rng.randrange(10**6):06d}_{sid}",
                directory,
                "",
                "recall" if sid % 9 == 0 else "",
            ),
        )
        title = " ".join(rng.choices(WORDS, k=3))
        conn.execute("INSERT INTO card_fts(rowid, title) VALUES (?, ?)", (sid, " ".join(tokenize(title))))
        for ordinal in range(25):
            chunk_id += 1
            text = "pool timeout" if rng.random() < 0.3 else " ".join(rng.choices(WORDS, k=rng.randint(1, 8)))
            klass = rng.choice(["user_text", "tool_output", "assistant_text"])
            conn.execute(
                "INSERT INTO chunk (id, sid, message_id, part_id, ord, role, class, author, time, text) "
                "VALUES (?, ?, ?, ?, ?, 'user', ?, 'person', 0, ?)",
                (
                    chunk_id,
                    sid,
                    f"msg_{rng.randrange(10**4)}",
                    None if ordinal % 3 else f"prt_{ordinal}",
                    ordinal,
                    klass,
                    text,
                ),
            )
            conn.execute("INSERT INTO chunk_fts(rowid, body) VALUES (?, ?)", (chunk_id, " ".join(tokenize(text))))
    return conn


CHUNKS = (
    "SELECT c.id, c.sid, c.class, bm25(chunk_fts) AS r FROM chunk_fts JOIN chunk c ON c.id = chunk_fts.rowid "
    "JOIN session s ON s.sid = c.sid WHERE chunk_fts MATCH ? AND {where} ORDER BY r, {stable} LIMIT ?"
)
CARDS = (
    f"SELECT s.sid, {CARD_SCORE} AS r FROM card_fts JOIN session s ON s.sid = card_fts.rowid "
    "WHERE card_fts MATCH ? AND {where} ORDER BY r, {stable} LIMIT ?"
)


def test_shortlist_gives_the_joined_querys_rows(tmp_path: Path) -> None:
    conn = _index(tmp_path / "index.db")
    shortlisted: list[str] = []
    conn.set_trace_callback(lambda sql: shortlisted.append(sql) if sql.startswith("WITH f(id, r)") else None)
    filter_sets = [
        Filters(hidden=frozenset()),
        Filters(hidden=frozenset(), include_recall=True),
        Filters(scope="directory", directory="/home/dev/work/p1", project_root="/home/dev/work/p1", hidden=frozenset()),
        Filters(classes=["tool_output"], hidden=frozenset()),
    ]
    matches = ['"pool" OR "timeout"', '"pool"', '"refund" OR "webhook" OR "queue"', '"shard"', '"absent"']
    compared = 0
    for filters in filter_sets:
        for match in matches:
            for limit in (1, 5, 40, 400):
                for shortlist in (True, False):
                    chunk_scope = predicate(filters)
                    want = conn.execute(
                        CHUNKS.format(where=chunk_scope[0], stable=_STABLE_CHUNK), [match, *chunk_scope[1], limit]
                    ).fetchall()
                    got = best_rows(
                        conn, match, fts="chunk_fts", score="bm25(chunk_fts)", columns="c.id, c.sid, c.class",
                        table="chunk c", key="c.id", joins="JOIN session s ON s.sid = c.sid", scope=chunk_scope,
                        stable=_STABLE_CHUNK, limit=limit, shortlist=shortlist,
                    )  # fmt: skip
                    assert got == want, (filters, match, limit, shortlist)
                    card_scope = predicate(filters, chunk_alias=None)
                    want = conn.execute(
                        CARDS.format(where=card_scope[0], stable=_STABLE_SESSION), [match, *card_scope[1], limit]
                    ).fetchall()
                    got = best_rows(
                        conn, match, fts="card_fts", score=CARD_SCORE, columns="s.sid", table="session s",
                        key="s.sid", scope=card_scope, stable=_STABLE_SESSION, limit=limit, shortlist=shortlist,
                    )  # fmt: skip
                    assert got == want, (filters, match, limit, shortlist, "cards")
                    compared += 2
    assert compared == 320
    # The shortlist was used (not only the joined query), and ties crossed its edge: "pool timeout" repeats
    # one text in ~30% of the chunks, so most of the 40 best chunks tie.
    assert len(shortlisted) > 100
    scores = [r[-1] for r in conn.execute(CHUNKS.format(where="1", stable=_STABLE_CHUNK), ['"pool" OR "timeout"', 80])]
    assert scores[39] == scores[79]
