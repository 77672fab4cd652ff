"""Pasted error lines, paths and test ids over real Claude Code transcripts, beside plain BM25 (issue 16).

The main eval's pasted errors (`error_output`) come from scripted sessions. This set is drawn
mechanically from the 62 real transcripts of tests/data/claude-code (CC0), before any ranking was tuned
on it, and is written to bench/eval/pasted.jsonl (`--write`), so a change to the generator shows up:

* `pasted_error`: a line of a tool's output that has the shape of an error line (a traceback's last
  line, `error:` / `fatal:` / `[ERROR]` / `npm ERR!` / `FAILED`, "Permission denied", "No such file or
  directory", "command not found", "... failed", a harness `<tool_use_error>`), pasted whole; one line
  per shape (digits and hex folded, so a pid makes no new query) and at most `PER_SESSION` per session;
* `pasted_fragment`: the same lines from their error word on, at most `FRAGMENT_WORDS` words (what a
  person pastes of a long line: "Permission denied (publickey)");
* `pasted_path`: a file path a tool read, edited or wrote; `pasted_test_id`: a pytest node id.

Gold: every session whose transcript holds the query literally (case folded), in any text: what the
person typed, the assistant said, a tool's input or output. A query held by more than `MAX_GOLD`
sessions is left out (it names nothing in particular). A query is marked `lure` in its note when a
session that does not hold it holds most of its rare words (`LURE_SHARE`; rare: in at most `RARE`
sessions): there the words alone can rank the wrong session first. Lines a Read tool printed
(`  12→...`: file contents, not errors) are left out.

Every query then runs through `recollect.history.search` over an index of those transcripts alone
(the real Claude Code source, search by meaning on), beside the engine with meaning off and plain FTS5
(bm25 over the index's own chunk texts, the `\\w+` words OR-ed, sessions by their best chunk), in the
same run:

    python -m bench.eval.pasted                # the table per category, beside lexical-only and FTS5
    python -m bench.eval.pasted --write        # regenerate bench/eval/pasted.jsonl from the transcripts
    python -m bench.eval.pasted --ablate       # also every ranking stage off in turn
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.eval.evaluate import (
    EvalError,
    EvalQuery,
    EvalReport,
    Ranked,
    engine_search,
    find_repo_file,
    isolated_env,
    load_queries,
    meaning_off,
    run_queries,
)
from recollect import history
from recollect.config import Config, Paths, SourceEntry
from recollect.search.scope import Filters
from recollect.search.stages import STAGES
from recollect.search.stages import disabled as stages_disabled
from recollect.sources.base import DISCOVERERS

TRANSCRIPTS = "tests/data/claude-code"
CASES = "bench/eval/pasted.jsonl"
PER_SESSION = 4  # error lines per session at most (one busy session printed 190)
MAX_GOLD = 4  # a query held by more sessions names nothing in particular
FRAGMENT_WORDS = 6
LURE_SHARE = 0.6
RARE = 6  # a word in at most this many sessions is a rare one (of 61)
MIN_CHARS, MAX_CHARS = 12, 200

# The shape of an error line: where an error word starts it, or a message that only errors print.
_ERROR_WORD = re.compile(
    r"^(?:[\w.]*(?:Error|Exception)\b:?|error\b|fatal\b|FATAL\b|ERROR\b|\[ERROR\]|npm ERR!|FAILED\b|E\s\s+\w)"
    r"|(?:Permission denied|No such file or directory|command not found|not recognized as|Command failed"
    r"|Connection refused|verification failed|does not exist|is not installed|not found\b|[Ff]ailed\b)",
)
_READ_LINE = re.compile(r"^\s*\d+→")  # a Read tool's numbered file line: a file's content, not an error
_HARNESS = re.compile(r"</?tool_use_error>")
_NODE_ID = re.compile(r"(?:[\w.-]+/)*[\w-]+\.py::[\w:]+(?:\[[^\]\s\"']*\])?")
_WORD = re.compile(r"\w{3,}")


def _stem(path: Path) -> str:
    return path.stem


def transcript_texts(path: Path) -> Iterator[tuple[str, str]]:
    """(kind, text) of every text in one transcript: `typed` / `said` / `input` / `output`."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        message = record.get("message") if isinstance(record, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            yield ("typed" if record.get("type") == "user" else "said"), content
            continue
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text":
                yield ("typed" if record.get("type") == "user" else "said"), str(block.get("text") or "")
            elif kind == "thinking":
                yield "said", str(block.get("thinking") or "")
            elif kind == "tool_use":
                yield "input", json.dumps(block.get("input"), ensure_ascii=False)
                for value in (block.get("input") or {}).values() if isinstance(block.get("input"), dict) else []:
                    if isinstance(value, str):
                        yield "input", value  # as typed, not JSON-escaped (a Windows path's backslashes)
            elif kind == "tool_result":
                inner = block.get("content")
                if isinstance(inner, str):
                    yield "output", inner
                elif isinstance(inner, list):
                    for part in inner:
                        if isinstance(part, dict) and part.get("type") == "text":
                            yield "output", str(part.get("text") or "")


def _paths_in(path: Path) -> Iterator[str]:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        content = (record.get("message") or {}).get("content") if isinstance(record, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("input"), dict):
                value = block["input"].get("file_path")
                if isinstance(value, str) and value.strip():
                    yield value.strip()


def _shape(line: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+|\d+", "0", line.lower())


def _order(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def build_cases(directory: Path) -> list[dict[str, Any]]:
    """The query set, in a fixed order, from the transcripts in `directory` (see the module's doc)."""
    files = sorted(directory.glob("*.jsonl"))
    if not files:
        raise EvalError(f"no *.jsonl transcripts in {directory}")
    haystacks: dict[str, str] = {}
    node_ids: set[str] = set()
    errors: dict[str, list[str]] = {}
    paths: dict[str, list[str]] = {}
    for path in files:
        texts = list(transcript_texts(path))
        if not any(kind in ("typed", "said") for kind, _ in texts):
            continue  # no conversation (titles only): the index keeps no session for it
        joined = "\n".join(text for _, text in texts)
        haystacks[_stem(path)] = joined.casefold()
        node_ids.update(_NODE_ID.findall(joined))
        lines = []
        for kind, text in texts:
            if kind != "output":
                continue
            for raw in text.splitlines():
                line = " ".join(_HARNESS.sub("", raw).split())
                shaped = MIN_CHARS <= len(line) <= MAX_CHARS and len(line.split()) >= 2
                if shaped and not _READ_LINE.match(raw) and _ERROR_WORD.search(line):
                    lines.append(line)
        errors[_stem(path)] = sorted(set(lines), key=_order)
        paths[_stem(path)] = sorted(set(_paths_in(path)), key=_order)

    def holders(needle: str) -> list[str]:
        folded = needle.casefold()
        return sorted(sid for sid, hay in haystacks.items() if folded in hay)

    def lure(needle: str, gold: list[str]) -> str:
        rare = {w for w in _WORD.findall(needle.casefold()) if sum(w in hay for hay in haystacks.values()) <= RARE}
        if len(rare) < 2:
            return ""
        shares = ((len({w for w in rare if w in hay}) / len(rare), sid) for sid, hay in haystacks.items())
        best = max(((share, sid) for share, sid in shares if sid not in gold), default=(0.0, ""))
        return best[1] if best[0] >= LURE_SHARE else ""

    cases: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(category: str, query: str, origin: str) -> bool:
        gold = holders(query)
        if query.casefold() in seen or not gold or len(gold) > MAX_GOLD:
            return False
        seen.add(query.casefold())
        near = lure(query, gold)
        note = f"from {origin}" + (f"; lure: {near}" if near else "")
        cases.append({"id": f"{category}-{len(cases) + 1:03d}", "query": query, "category": category, "gold": gold,
                      "note": note})  # fmt: skip
        return True

    shapes: set[str] = set()
    for sid in sorted(errors):
        taken = 0
        for line in errors[sid]:
            if taken >= PER_SESSION or _shape(line) in shapes:
                continue
            if add("pasted_error", line, sid):
                shapes.add(_shape(line))
                taken += 1
                match = _ERROR_WORD.search(line)
                assert match is not None
                fragment = " ".join(line[match.start() :].split()[:FRAGMENT_WORDS]).rstrip(".,:;")
                if fragment.casefold() != line.casefold().rstrip(".,:;") and len(fragment.split()) >= 2:
                    add("pasted_fragment", fragment, sid)
    for sid in sorted(paths):
        taken = 0
        for value in paths[sid]:
            if taken < 2 and add("pasted_path", value, sid):
                taken += 1
    for node in sorted(node_ids, key=_order)[:20]:
        add("pasted_test_id", node, "a node id in the transcripts")
    return cases


def write_cases(directory: Path, target: Path) -> int:
    cases = build_cases(directory)
    head = "// generated by `python -m bench.eval.pasted --write` from tests/data/claude-code; do not edit by hand\n"
    target.write_text(head + "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    return len(cases)


class PastedCorpus:
    """The transcripts copied into a fresh Claude Code config dir and indexed alone; a context manager."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.root = Path(tempfile.mkdtemp(prefix="recollect-pasted-"))
        self.home = self.root / "home"
        self.config: Config | None = None
        self.index_seconds = 0.0
        self.sessions = 0
        self._env: Any = None
        self._fts: sqlite3.Connection | None = None
        self._native: dict[str, str] = {}  # file stem -> the index's session id

    def __enter__(self) -> PastedCorpus:
        self._env = isolated_env(self.home)
        self._env.__enter__()
        try:
            self._prepare()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fts is not None:
            self._fts.close()
        if self._env is not None:
            self._env.__exit__(None, None, None)
            self._env = None
        shutil.rmtree(self.root, ignore_errors=True)

    def _prepare(self) -> None:
        projects = self.root / "claude" / "projects" / "pasted"
        projects.mkdir(parents=True)
        for path in sorted(self.directory.glob("*.jsonl")):
            shutil.copyfile(path, projects / path.name)
        self.home.mkdir(parents=True, exist_ok=True)
        paths = Paths(config_dir=self.home, data_dir=self.home, cache_dir=self.home / "cache")
        self.config = Config(
            paths=paths,
            index_path=paths.default_index,
            sources=[SourceEntry(id="claude", kind="claude-code", path=self.root / "claude")],
            discover={kind: False for kind in {*DISCOVERERS, "opencode", "claude-code", "codex", "gemini"}},
        )
        started = time.perf_counter()
        report = history.index(self.config)
        self.index_seconds = time.perf_counter() - started
        problems = [f"{s.id}: {s.status} ({s.message})" for s in report.sources if s.status != "ok"]
        if problems:
            raise EvalError(f"indexing the transcripts failed: {'; '.join(problems)}")
        fts = sqlite3.connect(":memory:")
        fts.execute("CREATE VIRTUAL TABLE raw USING fts5(sid UNINDEXED, mid UNINDEXED, body)")  # unicode61
        with history.open_index(self.config, readonly=True) as conn:
            self._native = {r[0]: r[0] for r in conn.execute("SELECT native_id FROM session")}
            self.parents = dict(conn.execute("SELECT native_id, parent_id FROM session").fetchall())
            fts.executemany(
                "INSERT INTO raw VALUES (?, ?, ?)",
                conn.execute("SELECT s.native_id, c.message_id, c.text FROM chunk c JOIN session s ON s.sid = c.sid"),
            )
        fts.commit()
        self._fts = fts
        self.sessions = len(self._native)

    def check_gold(self, queries: Sequence[EvalQuery]) -> None:
        unknown = sorted({g for q in queries for g in q.gold if g not in self._native})
        if unknown:
            raise EvalError(f"gold sessions not in the index: {', '.join(unknown[:5])} (regenerate with --write?)")

    def search(self, query: EvalQuery, filters: Filters) -> list[Ranked]:
        assert self.config is not None
        return engine_search(query, filters, self.config)

    def lexical_search(self, query: EvalQuery, filters: Filters) -> list[Ranked]:
        with meaning_off():
            return self.search(query, filters)

    def fts5_search(self, query: EvalQuery, filters: Filters) -> list[Ranked]:
        """Plain FTS5 over the index's chunk texts: the query's words OR-ed, sessions by their best chunk."""
        assert self._fts is not None
        words = re.findall(r"\w+", query.query)
        if not words:
            return []
        match = " OR ".join('"' + w + '"' for w in words)
        best: dict[str, list[str]] = {}
        for sid, mid, _ in self._fts.execute(
            "SELECT sid, mid, bm25(raw) AS r FROM raw WHERE raw MATCH ? ORDER BY r, sid, mid", [match]
        ):
            if sid not in best:
                if len(best) == 10:
                    break
                best[sid] = []
            if len(best[sid]) < 2 and mid not in best[sid]:
                best[sid].append(mid)
        return [Ranked(sid, self.parents.get(sid), "", mids) for sid, mids in best.items()]


def evaluate_pasted(
    cases: Path, directory: Path, *, ablate: bool = False, categories: Sequence[str] = ()
) -> EvalReport:
    started = time.perf_counter()
    queries = [q for q in load_queries(cases) if not categories or q.category in categories]
    if not queries:
        raise EvalError(f"no query of category {', '.join(categories)} in {cases}")
    with PastedCorpus(directory) as corpus:
        corpus.check_gold(queries)
        ours = run_queries(queries, corpus.search)
        fts5 = run_queries(queries, corpus.fts5_search)
        others = {"lexical": run_queries(queries, corpus.lexical_search)}
        if ablate:
            for stage in STAGES:
                with stages_disabled(stage):
                    others[f"-{stage}"] = run_queries(queries, corpus.search)
        report = EvalReport(queries, ours, fts5, corpus.sessions, corpus.index_seconds, 0.0, others)
    report.seconds = time.perf_counter() - started
    return report


def _with_lured(report: EvalReport) -> EvalReport:
    """The report with every lured query counted once more under '<category> (lured)'."""
    lured = {q.id for q in report.queries if "lure:" in q.note}

    def dup(results: list[Any]) -> list[Any]:
        from dataclasses import replace

        extra = [replace(r, query=replace(r.query, category=r.query.category + " (lured)"))
                 for r in results if r.query.id in lured]  # fmt: skip
        return [*results, *extra]

    return EvalReport(
        report.queries,
        dup(report.ours),
        dup(report.fts5) if report.fts5 is not None else None,
        report.corpus_sessions,
        report.index_seconds,
        report.seconds,
        {name: dup(rs) for name, rs in report.others.items()},
    )


def main(argv: list[str] | None = None) -> int:
    from bench.eval.cli import _ablation_table, _print_failures, _table
    from recollect.cli.output import console, print_json, print_table

    ap = argparse.ArgumentParser(prog="python -m bench.eval.pasted", description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help=f"regenerate {CASES} from the transcripts, then run it")
    ap.add_argument("--transcripts", type=Path, help=f"Claude Code transcripts [{TRANSCRIPTS}]")
    ap.add_argument("--cases", type=Path, help=f"the query set [{CASES}]")
    ap.add_argument("--ablate", action="store_true", help="also every ranking stage off in turn")
    ap.add_argument("--category", action="append", default=[], help="only this category (repeatable)")
    ap.add_argument("--failures", type=int, default=30, help="failing queries to list [30]")
    ap.add_argument("--json", action="store_true", help="the full report, per query, as JSON")
    args = ap.parse_args(argv)
    directory = args.transcripts or find_repo_file(TRANSCRIPTS)
    cases = args.cases or find_repo_file(CASES) or (Path.cwd() / CASES)
    if directory is None or not directory.is_dir():
        print(f"cannot find {TRANSCRIPTS}: run from the recollect repository or pass --transcripts DIR")
        return 2
    try:
        if args.write:
            print(f"wrote {write_cases(directory, cases)} queries to {cases}")
        report = evaluate_pasted(cases, directory, ablate=args.ablate, categories=args.category)
    except EvalError as exc:
        print(f"error: {exc}")
        return 2
    if args.json:
        print_json(report.to_dict())
        return 0
    shown = _with_lured(report)
    out = console()
    print_table(out, _table(shown))
    if args.ablate:
        for metric in ("mrr", "recall@1", "recall@5"):
            print_table(out, _ablation_table(shown, metric))
        print("* = better with that stage off")
    print(f"{report.seconds:.1f}s (indexing {report.index_seconds:.1f}s)")
    _print_failures(report, args.failures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
