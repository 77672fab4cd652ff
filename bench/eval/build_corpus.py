"""Build the relevance-eval corpus and write it to tests/data/eval/ (committed; CI never rebuilds it).

Two stores, both in OpenCode 1.18.33's real schema:

real       Sessions made by the REAL OpenCode binary (npm opencode-ai, run offline) against the scripted
           fake LLM of tests/e2e/fake_llm.py, in four git projects (`projects.py`), following the
           scenarios of `scenarios.py`. Tool calls really run: read/edit/write/grep/glob touch the
           project files, `task` starts a real subagent session, bash runs real commands, and programs
           a sandbox lacks (pytest, go, docker, kubectl, ...) are replay shims on PATH that print
           recorded output. Needs node, npm, git and ripgrep (OpenCode's grep/glob use `rg`).
           Then a COPY of the store is post-processed:
             * times: OpenCode stamps real time, so each session tree is shifted to its scenario's
               `days_ago` before ANCHOR_MS (columns time_* of session/message/part and the
               `time` objects inside message/part JSON; the event log keeps real times);
             * paths: the throwaway world's temp paths become /home/dev (HOME) and /home/dev/work
               (projects), so no machine path is committed;
           and written as opencode-real.db.gz, with real_sessions.json (slug -> session id).
generated  bench/storegen.py with a fixed seed (GEN_*): months of tool-heavy sessions in several
           projects with many near-duplicates. Its event table is emptied (recollect reads only
           event_sequence) and the store is committed as opencode-generated.db.gz (~2 MB), so the
           eval does not move when storegen's generator changes, and CI skips ~10 s of generation.
conversations
           The hand-written multi-session conversations of `conversations.py` (personal facts and
           plans, design discussions; no tool calls), written directly in the same schema with
           deterministic ids, as opencode-conversations.db.gz, with conversation_sessions.json
           (slug -> session id and the message id of every turn).

Usage (from the repo root):
    .venv/bin/python bench/eval/build_corpus.py real        # ~10 min: drives OpenCode
    .venv/bin/python bench/eval/build_corpus.py generated   # seconds; also rewrites the gen-* queries
    .venv/bin/python bench/eval/build_corpus.py conversations   # a second; ids never change

Rebuilding `real` gives new session ids; gold ids in queries.jsonl are remapped through the slugs of
the previous real_sessions.json. Rebuilding `generated` replaces every query whose id starts "gen-".
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO / "tests" / "data" / "eval"
REAL_GZ = DATA / "opencode-real.db.gz"
REAL_MAP = DATA / "real_sessions.json"
GEN_GZ = DATA / "opencode-generated.db.gz"
CONV_GZ = DATA / "opencode-conversations.db.gz"
CONV_MAP = DATA / "conversation_sessions.json"
SCHEMA = REPO / "bench" / "opencode_schema.sql"
QUERIES = HERE / "queries.jsonl"

ANCHOR_MS = int(datetime(2026, 6, 30, tzinfo=UTC).timestamp() * 1000)  # "today" of the real corpus
DAY_MS = 86_400_000
HOME_ALIAS = "/home/dev"
PROJECTS_ALIAS = "/home/dev/work"

GEN_SESSIONS, GEN_SEED, GEN_PROJECTS, GEN_MONTHS = 150, 20260630, 4, 6

# Programs the replay shim must never shadow: OpenCode and the scripts need the real ones.
NOT_SHIMMABLE = {"git", "rg", "node", "npm", "bash", "sh", "grep", "tail", "head", "sed", "cat", "ls", "python3"}

SHIM = """#!{python}
import fcntl, json, os, sys
name = os.path.basename(sys.argv[0])
key = " ".join([name, *sys.argv[1:]])
path = os.environ["EVAL_REPLAY"]
with open(path + ".lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    with open(path) as f:
        recorded = json.load(f)
    state = {{}}
    if os.path.exists(path + ".state"):
        with open(path + ".state") as f:
            state = json.load(f)
    outputs = recorded.get(key)
    if not outputs:
        with open(path + ".misses", "a") as f:
            f.write(key + "\\n")
        sys.stderr.write(name + ": command not found\\n")
        sys.exit(127)
    i = state.get(key, 0)
    state[key] = i + 1
    with open(path + ".state", "w") as f:
        json.dump(state, f)
out, code = outputs[min(i, len(outputs) - 1)]
sys.stdout.write(out)
sys.stdout.flush()
sys.exit(code)
"""


def _log(msg: str) -> None:
    print(f"[build_corpus {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ------------------------------------------------------------------------------------------ real


def _resolve_args(value: Any, root: Path) -> Any:
    if isinstance(value, str) and value.startswith("@/"):
        rel = value[2:]
        return str(root / rel) if rel else str(root)
    if isinstance(value, dict):
        return {k: _resolve_args(v, root) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve_args(v, root) for v in value]
    return value


def _rule_tools(step: Any, root: Path) -> list[Any]:
    out: list[Any] = []
    for entry in step.tools:
        calls = entry if isinstance(entry, list) else [entry]
        specs = [{"name": c.name, "args": _resolve_args(c.args, root)} for c in calls]
        out.append(specs if isinstance(entry, list) else specs[0])
    return out


def _step_calls(step: Any) -> Iterable[Any]:
    for entry in step.tools:
        yield from entry if isinstance(entry, list) else [entry]


def _replays(steps: Iterable[Any]) -> dict[str, list[tuple[str, int]]]:
    merged: dict[str, list[tuple[str, int]]] = {}
    for step in steps:
        for call in _step_calls(step):
            for key, outputs in call.replay.items():
                merged.setdefault(key, []).extend(outputs)
    return merged


def _rules_for(scenario: Any, root: Path) -> list[dict[str, Any]]:
    rules: list[dict[str, Any]] = []
    steps = [(s.prompt, s) for s in scenario.steps]
    if scenario.child:
        steps.append((scenario.child.prompt, scenario.child.step))
    # Longest match first: a short follow-up ("fix it") may be contained in a longer prompt.
    for match, step in sorted(steps, key=lambda x: -len(x[0])):
        rule: dict[str, Any] = {"match": [match], "text": step.text}
        if step.reasoning:
            rule["reasoning"] = step.reasoning
        if step.tools:
            rule["tools"] = _rule_tools(step, root)
        rules.append(rule)
    rules.append({"kind": "title", "match": [scenario.steps[0].prompt], "text": scenario.title})
    return rules


def _write_shims(fakebin: Path, names: set[str]) -> None:
    fakebin.mkdir(parents=True, exist_ok=True)
    script = fakebin / "_replay"
    script.write_text(SHIM.format(python=sys.executable))
    script.chmod(0o755)
    for name in names:
        if name in NOT_SHIMMABLE:
            raise SystemExit(f"scenario records output for {name!r}, which must stay the real program")
        link = fakebin / name
        if not link.exists():
            link.symlink_to(script.name)


def _play(world: Any, scenarios: list[Any], replay_path: Path) -> dict[str, dict[str, Any]]:
    from projects import PROJECTS

    roots = {name: world.project(name, files) for name, files in PROJECTS.items()}
    recorded: dict[str, dict[str, Any]] = {}
    for n, scenario in enumerate(sorted(scenarios, key=lambda s: -s.days_ago), 1):
        root = roots[scenario.project]
        world.set_rules(_rules_for(scenario, root))
        sid = world.create_session(root)
        started = time.monotonic()
        for step in scenario.steps:
            steps = [step]
            if scenario.child and any(c.name == "task" for c in _step_calls(step)):
                steps.append(scenario.child.step)
            replay_path.write_text(json.dumps(_replays(steps)))
            for suffix in (".state",):
                Path(str(replay_path) + suffix).unlink(missing_ok=True)
            world.prompt(sid, step.prompt, timeout=600)
        world.wait_settled(timeout=60)
        children = [
            r[0] for r in world.query("select id from session where parent_id = ? order by time_created", (sid,))
        ]
        recorded[scenario.slug] = {"id": sid, "children": children}
        _log(
            f"{n:2}/{len(scenarios)} {scenario.slug}: {sid} (+{len(children)} child) {time.monotonic() - started:.0f}s"
        )
    return recorded


def _check_store(db: sqlite3.Connection, scenarios: list[Any], recorded: dict[str, dict[str, Any]]) -> None:
    problems = []
    for row in db.execute(
        "select session_id, json_extract(data, '$.tool'), json_extract(data, '$.state.error') from part "
        "where json_extract(data, '$.type') = 'tool' and json_extract(data, '$.state.status') != 'completed'"
    ):
        problems.append(f"tool {row[1]} in {row[0]} did not complete: {str(row[2])[:300]}")
    for scenario in scenarios:
        entry = recorded[scenario.slug]
        title = db.execute("select title from session where id = ?", (entry["id"],)).fetchone()[0]
        if title != scenario.title:
            problems.append(f"{scenario.slug}: title {title!r}, expected {scenario.title!r}")
        if bool(scenario.child) != bool(entry["children"]):
            problems.append(f"{scenario.slug}: children {entry['children']}")
    if problems:
        raise SystemExit("the built store is not what the scenarios describe:\n  " + "\n  ".join(problems))


def _shift_json_times(value: Any, delta: int) -> Any:
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "time" and isinstance(v, dict):
                out[k] = {tk: tv + delta if isinstance(tv, int) and tv > 10**12 else tv for tk, tv in v.items()}
            else:
                out[k] = _shift_json_times(v, delta)
        return out
    if isinstance(value, list):
        return [_shift_json_times(v, delta) for v in value]
    return value


def shift_session_times(db: sqlite3.Connection, session_ids: list[str], delta: int) -> None:
    """Move sessions (and their messages, parts, todos, ...) by `delta` ms, JSON `time` objects included."""
    marks = ",".join("?" * len(session_ids))
    tables = [r[0] for r in db.execute("select name from sqlite_master where type = 'table'")]
    for table in tables:
        columns = [r[1] for r in db.execute(f"pragma table_info(`{table}`)")]
        key = "id" if table == "session" else "session_id" if "session_id" in columns else None
        if key is None:
            continue
        for column in (c for c in columns if c.startswith("time_")):
            db.execute(
                f"update `{table}` set `{column}` = `{column}` + ? "
                f"where `{column}` is not null and `{key}` in ({marks})",
                [delta, *session_ids],
            )
        if "data" in columns and table in ("message", "part"):
            rows = db.execute(f"select id, data from `{table}` where session_id in ({marks})", session_ids).fetchall()
            for row_id, data in rows:
                shifted = json.dumps(
                    _shift_json_times(json.loads(data), delta), ensure_ascii=False, separators=(",", ":")
                )
                db.execute(f"update `{table}` set data = ? where id = ?", (shifted, row_id))


def rewrite_paths(db: sqlite3.Connection, replacements: list[tuple[str, str]]) -> None:
    """Replace path prefixes in every text column of every table (JSON never escapes '/')."""
    for (table,) in db.execute("select name from sqlite_master where type = 'table'").fetchall():
        for _, column, ctype, *_ in db.execute(f"pragma table_info(`{table}`)").fetchall():
            if ctype.lower() not in ("text", ""):
                continue
            for old, new in replacements:
                db.execute(
                    f"update `{table}` set `{column}` = replace(`{column}`, ?, ?) where instr(`{column}`, ?) > 0",
                    (old, new, old),
                )


def leftover_paths(db: sqlite3.Connection, needles: list[str]) -> list[str]:
    found = []
    for (table,) in db.execute("select name from sqlite_master where type = 'table'").fetchall():
        for _, column, *_ in db.execute(f"pragma table_info(`{table}`)").fetchall():
            for needle in needles:
                n = db.execute(
                    f"select count(*) from `{table}` where instr(cast(`{column}` as text), ?) > 0", (needle,)
                ).fetchone()[0]
                if n:
                    found.append(f"{table}.{column} ({n} rows) contains {needle}")
    return found


def gzip_file(src: Path, dst: Path) -> None:
    """Deterministic gzip (no name, no mtime in the header)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    with (
        open(src, "rb") as fin,
        open(dst, "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz,
    ):
        shutil.copyfileobj(fin, gz)


def finish_store(db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    db.execute("pragma wal_checkpoint(TRUNCATE)")
    db.execute("vacuum")
    db.close()
    for suffix in ("-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)


def remap_queries(old_map: dict[str, Any], new_map: dict[str, Any]) -> None:
    """Point gold ids of queries.jsonl at the sessions of a rebuilt real store, through their slugs."""
    if not QUERIES.exists():
        return
    by_old: dict[str, str] = {}
    for slug, entry in old_map.items():
        by_old[entry["id"]] = new_map[slug]["id"]
        for old_child, new_child in zip(entry.get("children", []), new_map[slug]["children"], strict=False):
            by_old[old_child] = new_child
    lines = []
    for line in QUERIES.read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            q["gold"] = [by_old.get(g, g) for g in q["gold"]]
            line = json.dumps(q, ensure_ascii=False)
        lines.append(line)
    QUERIES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def build_real(keep: Path | None, only: list[str] | None = None) -> None:
    """Play the scenarios in a real OpenCode and write the store; with `only`, play those slugs and
    write nothing (a dry run to debug a scenario; use --keep to look at the result)."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(HERE))
    from scenarios import SCENARIOS

    scenarios = [s for s in SCENARIOS if not only or s.slug in only]

    from tests.e2e.opencode import OpenCodeWorld

    for tool in ("node", "npm", "git", "rg"):
        if shutil.which(tool) is None:
            raise SystemExit(f"building the real corpus needs {tool} on PATH")
    work = Path(tempfile.mkdtemp(prefix="recollect-eval-")) if keep is None else keep
    work.mkdir(parents=True, exist_ok=True)
    try:
        fakebin, replay_path = work / "fakebin", work / "replay.json"
        names = {k.split()[0] for s in scenarios for st in _all_steps(s) for c in _step_calls(st) for k in c.replay}
        _write_shims(fakebin, names)
        replay_path.write_text("{}")
        env = {"PATH": f"{fakebin}{os.pathsep}{os.environ.get('PATH', '')}", "EVAL_REPLAY": str(replay_path)}
        world = OpenCodeWorld(work, name="world", extra_env=env, start_timeout=120)
        with world:
            recorded = _play(world, scenarios, replay_path)
            world.stop()
            misses = Path(str(replay_path) + ".misses")
            if misses.exists() and misses.read_text().strip():
                raise SystemExit("commands without a recording:\n" + misses.read_text())
            post = work / "post"
            post.mkdir(exist_ok=True)
            db_path = post / "opencode.db"
            for src in world.store_files():
                shutil.copyfile(src, post / src.name)
        db = sqlite3.connect(db_path)
        _check_store(db, scenarios, recorded)
        for scenario in scenarios:
            entry = recorded[scenario.slug]
            tree = [entry["id"], *entry["children"]]
            (t0,) = db.execute("select time_created from session where id = ?", (entry["id"],)).fetchone()
            day = (ANCHOR_MS - int(scenario.days_ago * DAY_MS)) // DAY_MS * DAY_MS
            shift_session_times(db, tree, day + round(scenario.hour * 3_600_000) - t0)
        roots = sorted({str(world.root), str(world.root.resolve())}, key=len, reverse=True)
        replacements = []
        for root in roots:
            replacements += [(root + "/projects", PROJECTS_ALIAS), (root + "/home", HOME_ALIAS), (root, HOME_ALIAS)]
        rewrite_paths(db, replacements)
        db.commit()
        left = leftover_paths(db, [str(work), str(work.resolve())])
        if left:
            raise SystemExit("temp paths survived the rewrite:\n  " + "\n  ".join(left))
        for slug, entry in recorded.items():
            scenario = next(s for s in scenarios if s.slug == slug)
            row = db.execute("select directory, time_created from session where id = ?", (entry["id"],)).fetchone()
            entry.update(project=scenario.project, title=scenario.title, directory=row[0], days_ago=scenario.days_ago)
        db.close()
        finish_store(db_path)
        if only:
            _log(f"dry run done: {db_path}")
            return
        gzip_file(db_path, REAL_GZ)
        old_map = json.loads(REAL_MAP.read_text()) if REAL_MAP.exists() else {}
        REAL_MAP.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        if old_map:
            remap_queries(old_map, recorded)
        _log(f"wrote {REAL_GZ.relative_to(REPO)} ({REAL_GZ.stat().st_size / 1e6:.2f} MB), {len(recorded)} scenarios")
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)


def _all_steps(scenario: Any) -> list[Any]:
    return [*scenario.steps, *([scenario.child.step] if scenario.child else [])]


# ------------------------------------------------------------------------------------- generated


def build_generated() -> None:
    sys.path.insert(0, str(REPO))
    from bench.storegen import generate_store

    with tempfile.TemporaryDirectory(prefix="recollect-eval-gen-") as tmp:
        db_path = Path(tmp) / "opencode.db"
        store = generate_store(db_path, GEN_SESSIONS, GEN_SEED, projects=GEN_PROJECTS, months=GEN_MONTHS)
        db = sqlite3.connect(db_path)
        db.execute("delete from event")  # recollect reads event_sequence only; the log is 90% of the bytes
        db.commit()
        db.close()
        finish_store(db_path)
        gzip_file(db_path, GEN_GZ)
        manifest = store.to_json()
    write_generated_queries(manifest)
    _log(f"wrote {GEN_GZ.relative_to(REPO)} ({GEN_GZ.stat().st_size / 1e6:.2f} MB), {GEN_SESSIONS} sessions")


def _conv_id(prefix: str, *parts: object) -> str:
    """A stable OpenCode-shaped id (prefix + 26 characters) derived from the slug and turn."""
    import hashlib

    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    number = int(digest, 16)
    tail = "".join(alphabet[(number >> (6 * i)) % 62] for i in range(14))
    return f"{prefix}_{digest[:12]}{tail}"


def build_conversations() -> None:
    sys.path.insert(0, str(REPO))
    from bench.eval.conversations import CONVERSATIONS

    with tempfile.TemporaryDirectory(prefix="recollect-eval-conv-") as tmp:
        mapping = write_conversation_store(CONVERSATIONS, Path(tmp) / "opencode.db", CONV_GZ)
    CONV_MAP.write_text(json.dumps(mapping, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    _log(f"wrote {CONV_GZ.relative_to(REPO)} ({CONV_GZ.stat().st_size / 1e3:.0f} kB), {len(mapping)} sessions")


def write_conversation_store(conversations: Iterable[Any], db_path: Path, gz_path: Path) -> dict[str, Any]:
    """Write `conversations` (`bench.eval.conversations.Conversation`) as one OpenCode store at `db_path`,
    gzipped to `gz_path`, with ids derived from each slug and turn; returns slug -> session and message ids."""
    project_id = "global"
    mapping: dict[str, Any] = {}
    db = sqlite3.connect(db_path)
    db.executescript(SCHEMA.read_text(encoding="utf-8"))
    db.execute(
        "INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?,?,?,?,?,?)",
        (project_id, "/", None, ANCHOR_MS - 400 * DAY_MS, ANCHOR_MS, "[]"),
    )
    for conv in conversations:
        sid = _conv_id("ses", conv.slug)
        start = ANCHOR_MS - int(conv.days_ago * DAY_MS) - 3_600_000
        t = start
        message_ids: list[str] = []
        previous = ""
        for n, text in enumerate(conv.turns):
            mid = _conv_id("msg", conv.slug, n)
            t += 45_000 + (len(text) * 37) % 90_000  # typing or generating takes a while
            role = "user" if n % 2 == 0 else "assistant"
            info: dict[str, Any] = {"role": role, "time": {"created": t}}
            if role == "user":
                info.update(agent="build", model={"providerID": "fake", "modelID": "fake-model"})
            else:
                info.update(parentID=previous, mode="build", agent="build", modelID="fake-model",
                            providerID="fake", path={"cwd": conv.directory, "root": conv.directory},
                            time={"created": t, "completed": t + 4_000}, finish="stop")  # fmt: skip
            db.execute("INSERT INTO message VALUES (?,?,?,?,?)", (mid, sid, t, t + 4_000, json.dumps(info)))
            part = {"type": "text", "text": text}
            db.execute(
                "INSERT INTO part VALUES (?,?,?,?,?,?)",
                (_conv_id("prt", conv.slug, n), mid, sid, t, t + 4_000, json.dumps(part, ensure_ascii=False)),
            )
            message_ids.append(mid)
            if role == "user":
                previous = mid
        db.execute(
            "INSERT INTO session (id, project_id, slug, directory, title, version, agent, time_created, "
            "time_updated) VALUES (?,?,?,?,?,?,?,?,?)",
            (sid, project_id, conv.slug, conv.directory, conv.title, "1.18.33", "build", start, t + 4_000),
        )
        mapping[conv.slug] = {"id": sid, "title": conv.title, "days_ago": conv.days_ago, "turns": message_ids}
    db.commit()
    db.close()
    finish_store(db_path)
    gzip_file(db_path, gz_path)
    return mapping


def _typo(word: str, rng: random.Random) -> str:
    """Swap two neighbouring letters inside the word (a typing slip)."""
    letters = [i for i in range(1, len(word) - 2) if word[i].isalpha() and word[i + 1].isalpha()]
    i = rng.choice(letters)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def generated_queries(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """Queries over the generated store, derived from the facts storegen guarantees for each session
    (a rare identifier only it contains, an error line only in one of its tool outputs, a unique
    Chinese phrase). Deterministic: the same manifest gives the same queries."""
    rng = random.Random(GEN_SEED)
    sessions = manifest["sessions"]
    top = sorted((s for s in sessions.values() if not s["parent_id"]), key=lambda s: s["id"])
    children = sorted((s for s in sessions.values() if s["parent_id"]), key=lambda s: s["id"])
    queries: list[dict[str, Any]] = []

    def add(category: str, query: str, gold: list[str], note: str) -> None:
        queries.append(
            {"id": f"gen-{category}-{sum(q['category'] == category for q in queries) + 1:02d}", "query": query,
             "category": category, "gold": gold, "note": note}
        )  # fmt: skip

    for s in rng.sample(top, 8):
        add("identifier", s["rare_identifier"], [s["id"]], "generated: rare identifier typed exactly")
    for s in rng.sample(top, 4):
        words = s["rare_identifier"].strip("_")
        words = " ".join(w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[0-9]+", words))
        add("identifier", words, [s["id"]], "generated: the identifier remembered as words")
    with_error = [s for s in top if s["error_message"]]
    for s in rng.sample(with_error, 8):
        add("error_output", s["error_message"], [s["id"]], "generated: error line pasted; only in a tool output")
    with_cjk = [s for s in top if s["cjk_phrase"]]
    for s in rng.sample(with_cjk, min(5, len(with_cjk))):
        add("chinese", s["cjk_phrase"], [s["id"]], "generated: the Chinese sentence of the first prompt")
    for s in rng.sample(with_cjk, min(3, len(with_cjk))):
        head = s["cjk_phrase"][:6]
        gold = [t["id"] for t in with_cjk if head in t["cjk_phrase"]]
        add("chinese", head, gold, "generated: the first six characters of a Chinese phrase")
    for s in rng.sample(children, min(4, len(children))):
        add("subagent", s["rare_identifier"], [s["parent_id"]], "generated: identifier only the subagent child saw")
    for s in rng.sample(top, 4):
        ident = s["rare_identifier"]
        add("typo", _typo(ident, rng), [s["id"]], f"generated: {ident} with two letters swapped")
    main_files = sorted({s["files"][0] for s in top if s["files"]})
    for path in rng.sample(main_files, 3):
        gold = [s["id"] for s in top if path in s["files"]]
        add("path", path, gold, "generated: a module's main file; every session that worked on it counts")
    return queries


def write_generated_queries(manifest: dict[str, Any]) -> None:
    kept = []
    if QUERIES.exists():
        kept = [
            line for line in QUERIES.read_text(encoding="utf-8").splitlines()
            if line.strip() and not json.loads(line)["id"].startswith("gen-")
        ]  # fmt: skip
    lines = kept + [json.dumps(q, ensure_ascii=False) for q in generated_queries(manifest)]
    QUERIES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["real", "generated", "conversations", "all"])
    ap.add_argument("--keep", type=Path, help="work in this directory and keep it (OpenCode logs, raw store)")
    ap.add_argument("--only", help="real: play only these comma-separated slugs and write nothing")
    args = ap.parse_args(argv)
    if args.what in ("generated", "all"):
        build_generated()
    if args.what in ("conversations", "all"):
        build_conversations()
    if args.what in ("real", "all"):
        build_real(args.keep, args.only.split(",") if args.only else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
