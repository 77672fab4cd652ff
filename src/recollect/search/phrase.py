"""The phrase mode: an exact search of two or more words finds only text that holds them in order.

`recollect search "address already in use" --exact` (MCP: `exact: true`) asks for that phrase, not
for sessions that hold the words somewhere. The index stores each unit (a chunk, a session card's
field) as our tokens in order, so FTS5's phrase query over the query's own tokens finds the units
that hold the words side by side. The tokenizer drops stopwords ("in") and adds a stem beside a word,
the same way for a query as for the text, so that match cannot tell "address already in use" from
"address already of use": each unit it finds is therefore checked against its stored text, where the
words must follow one another with only spaces or punctuation between (stopwords kept, case and
diacritics folded). A query of one word keeps the exact-word search.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Collection, Sequence
from itertools import pairwise
from typing import Any

from recollect.index.fts import CARD_FIELDS
from recollect.index.queries import rows_for_ids
from recollect.search.lexical import best_chunk_rows
from recollect.search.novelty import falling
from recollect.text.tokenize import CJK_CHARS, fold, tokenize

_WORDS = re.compile(r"[^\W_]+")
_CJK = re.compile(f"[{CJK_CHARS}]")


def phrase_of(query: str, exact: bool) -> str:
    """The phrase an exact search of `query` looks for, or "" (not exact, or a single word)."""
    if not exact or len(query.split()) < 2 or not tokenize(query):
        return ""
    return " ".join(query.split())


def phrase_match(phrase: str) -> str:
    """The FTS5 phrase query for `phrase`: its tokens, in order, side by side."""
    joined = re.sub(f"(?<=[{CJK_CHARS}])\\s+(?=[{CJK_CHARS}])", "", phrase)  # 部署 脚本 as written: 部署脚本
    return '"' + " ".join(tokenize(joined)) + '"'  # our tokens never contain a double quote


def _pattern(phrase: str) -> re.Pattern[str]:
    words = _WORDS.findall(fold(phrase))
    parts = [re.escape(words[0])]
    for before, after in pairwise(words):
        # Latin words need something between them; Chinese or Japanese is written without spaces.
        joined = _CJK.match(before[-1]) or _CJK.match(after[0])
        parts.append(r"[\W_]*" if joined else r"[\W_]+")
        parts.append(re.escape(after))
    start = "" if _CJK.match(words[0][0]) else r"(?<![^\W_])"
    end = "" if _CJK.match(words[-1][-1]) else r"(?![^\W_])"
    return re.compile(start + "".join(parts) + end)


def holds(text: str, phrase: str) -> bool:
    """Whether `text` holds `phrase`'s words in order, with nothing but spaces or punctuation between."""
    return _pattern(phrase).search(fold(text)) is not None


def chunks_holding(conn: sqlite3.Connection, phrase: str, rows: Sequence[Any]) -> list[Any]:
    """The `rows` (chunk id first) whose chunk text holds `phrase`, in their order."""
    texts = _texts(conn, "SELECT id, text FROM chunk WHERE id IN ({marks})", [r[0] for r in rows])
    pattern = _pattern(phrase)
    return [r for r in rows if pattern.search(fold(texts.get(r[0], [""])[0])) is not None]


def cards_holding(conn: sqlite3.Connection, phrase: str, rows: Sequence[Any]) -> list[Any]:
    """The `rows` (session id first) whose card holds `phrase` within one field (a title, a first line…)."""
    columns = ", ".join(column for _, column in CARD_FIELDS)
    fields = _texts(conn, f"SELECT sid, {columns} FROM session WHERE sid IN ({{marks}})", [r[0] for r in rows])
    pattern = _pattern(phrase)
    return [r for r in rows if any(pattern.search(fold(v)) for v in fields.get(r[0], []))]


def _texts(conn: sqlite3.Connection, sql: str, ids: list[int]) -> dict[int, list[str]]:
    return {row[0]: [str(v or "") for v in row[1:]] for row in rows_for_ids(conn, sql, ids)}


PHRASE_CANDIDATES = 100  # chunks the phrase arm of a ranked search reads at most
PHRASE_WEIGHT = 1.0  # the phrase arm's weight in the fusion, as the chunk arm's


def phrase_arm(
    conn: sqlite3.Connection, query: str, scope: tuple[str, list[object]], stable: str
) -> dict[int, list[int]]:
    """For a ranked search of two or more words (`a/b.py` and `test_x.py::test_y` are several): the
    sessions whose chunks hold the whole query word for word, best first (BM25 of the phrase), each with
    those chunks. A session that holds the phrase a person pasted or restated ("address already in use")
    is what they asked for, where sessions holding the words apart may outnumber it."""
    phrase = " ".join(query.split())
    if len(_WORDS.findall(fold(phrase))) < 2 or not tokenize(phrase):
        return {}  # one word: the word arms already hold it as a whole (a path, a test id is several)
    rows = best_chunk_rows(
        conn,
        phrase_match(phrase),
        columns="c.id, c.sid",
        scope=scope,
        stable=stable,
        limit=PHRASE_CANDIDATES,
    )
    found: dict[int, list[int]] = {}
    for cid, sid, _ in chunks_holding(conn, phrase, rows):
        found.setdefault(sid, []).append(cid)
    return found


def holders_first(scored: list[tuple[float, int]], held: Collection[int]) -> list[tuple[float, int]]:
    """`scored` ((score, session) best first) with the sessions `held` (holding the query word for word)
    first, each group in its order, for a query that asks nothing: it was pasted from a session (an error
    line, a command, a path). The arms by meaning know what words mean, not which session printed the
    line: "Permission denied (publickey)" is near a session about logging in, and sessions holding its
    common words apart can outnumber the one that printed it. A score is capped at the one above it, so
    scores still fall down the page."""
    return falling(sorted(scored, key=lambda x: x[1] not in held))  # stable: each group keeps its order
