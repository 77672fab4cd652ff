"""Relevance on your own history: labelled cases (query -> the session that answers it) scored against
your real index, beside plain BM25 over the same chunks, in the same run.

A cases file is JSON lines; blank lines and lines starting with // are skipped:

    {"query": "why did we drop offset pagination", "gold": ["ses_..."]}
    {"query": "tests/test_auth.py::test_retry", "gold": ["ses_..."], "category": "test_id"}

`gold` lists session ids (a result counts if it is one of them or their subagent child); optional keys
are `id`, `category` (default "case"), `scope` and `directory` (as `recollect search --scope`). The
scoring rules are those of the project's eval (docs/eval.md): hits collapse to sessions in order,
MRR and recall@1/5/10 over sessions, per category and overall.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recollect import history
from recollect.config import Config
from recollect.errors import RecollectError
from recollect.search.scope import SCOPES, Filters, predicate

KS = (1, 5, 10)
LIMIT = 20


class CasesError(RecollectError):
    """The cases file cannot be used; the message names the line and the fix."""


@dataclass
class Case:
    id: str
    query: str
    gold: list[str]
    category: str = "case"
    scope: str = "all"
    directory: str | None = None


def load_cases(path: Path) -> list[Case]:
    if not path.is_file():
        raise CasesError(f"no cases file at {path}")
    cases: list[Case] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            raw = json.loads(line)
        except ValueError as exc:
            raise CasesError(f"{path}:{n}: not JSON ({exc})") from None
        gold = raw.get("gold") if isinstance(raw, dict) else None
        if not isinstance(raw, dict) or not raw.get("query") or not isinstance(gold, list) or not gold:
            raise CasesError(f'{path}:{n}: each line needs "query" and "gold" (a list of session ids)')
        if raw.get("scope", "all") not in SCOPES:
            raise CasesError(f"{path}:{n}: scope must be one of {', '.join(SCOPES)}")
        cases.append(
            Case(str(raw.get("id") or f"case-{n}"), str(raw["query"]), [str(g) for g in gold],
                 str(raw.get("category") or "case"), str(raw.get("scope", "all")), raw.get("directory"))
        )  # fmt: skip
    if not cases:
        raise CasesError(f"{path} holds no cases")
    return cases


def _rank(sessions: list[tuple[str, str | None]], gold: list[str]) -> int | None:
    wanted = set(gold)
    for i, (sid, parent) in enumerate(sessions, 1):
        if sid in wanted or (parent is not None and parent in wanted):
            return i
    return None


def _ours(case: Case, config: Config) -> list[tuple[str, str | None]]:
    filters = Filters(scope=case.scope, directory=case.directory)
    result = history.search(case.query, filters, limit=LIMIT, config=config, sync_first=False)
    seen: dict[str, str | None] = {}
    for hit in result.hits:
        seen.setdefault(hit.session_id, hit.parent_id)
    return list(seen.items())


def _bm25_db(config: Config) -> sqlite3.Connection:
    """Plain BM25 over the index's own chunks: SQLite FTS5 with its default tokenizer (unicode61).

    The same chunks our search may read: through the one scope predicate, so hidden sessions and
    recollect's own sessions are out of both sides of the comparison."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE raw USING fts5(sid UNINDEXED, parent UNINDEXED, body)")
    with history.open_index(config, readonly=True) as conn:
        where, params = predicate(history.scoped(Filters(), config).resolve(conn))
        rows = conn.execute(
            f"SELECT s.native_id, s.parent_id, c.text FROM chunk c JOIN session s ON s.sid = c.sid WHERE {where}",
            params,
        )
        db.executemany("INSERT INTO raw VALUES (?, ?, ?)", rows)
    return db


def _bm25(case: Case, db: sqlite3.Connection) -> list[tuple[str, str | None]]:
    words = re.findall(r"\w+", case.query)
    if not words:
        return []
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
    seen: dict[str, str | None] = {}
    for sid, parent in db.execute("SELECT sid, parent FROM raw WHERE raw MATCH ? ORDER BY bm25(raw)", [match]):
        seen.setdefault(sid, parent)
        if len(seen) == 10:
            break
    return list(seen.items())


def _metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    out = {"n": float(len(ranks)), "mrr": sum(1 / r for r in ranks if r) / n}
    out.update({f"recall@{k}": sum(1 for r in ranks if r and r <= k) / n for k in KS})
    return out


def run_cases(cases: list[Case], config: Config) -> dict[str, Any]:
    """{"ours": {...}, "bm25": {...}} with "overall" and "by_category" metrics, and per-case ranks."""
    db = _bm25_db(config)
    try:
        ranks = [(c, _rank(_ours(c, config), c.gold), _rank(_bm25(c, db), c.gold)) for c in cases]
    finally:
        db.close()
    out: dict[str, Any] = {"cases": [{"id": c.id, "query": c.query, "rank": o, "bm25_rank": b} for c, o, b in ranks]}
    for name, column in (("ours", [o for _, o, _ in ranks]), ("bm25", [b for _, _, b in ranks])):
        by_category = {
            cat: _metrics([r for (c, _, _), r in zip(ranks, column, strict=True) if c.category == cat])
            for cat in sorted({c.category for c in cases})
        }
        out[name] = {"overall": _metrics(column), "by_category": by_category}
    return out
