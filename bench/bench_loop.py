"""Live-loop benchmark: recollect inside the REAL OpenCode, over many turns, the way a user meets it.

It drives the pinned OpenCode binary (``opencode serve``, tests/e2e/opencode.py) with the scripted
fake LLM (tests/e2e/fake_llm.py), which logs the exact request bodies OpenCode sends: what the
plugin injected is read from what the model actually received, not from recollect's own answers.

    .venv/bin/python bench/bench_loop.py [--quick] [--json OUT.json] [--keep DIR]

One world, in order (data: bench/loop_world.json, bench/loop_messages.json):

1. **history before recollect**: three git projects (atlas and borealis in English, cobalt in
   Chinese); per topic one session that answered it (a decision, an error fix, a preference, a
   topic whose words overlap another project's), then sessions that only asked and got no answer;
2. **install**: ``recollect install opencode``, ``recollect index`` (what a new user does), restart;
   the model writes memories with ``recollect_memory_remember``; one warm-up message per project
   (not measured: the first prompt of an instance waits for the MCP server and the helper);
3. **live**: every cue and ordinary message as the first message of a new session in its project
   (seeded shuffle); the plugin's idle sync runs as it would for a user;
4. **recall subagent**: ``@recall …`` (an agent part, as the TUI sends it): the main agent calls the
   ``task`` tool, the ``recall`` agent our installer wrote searches and answers from our output, and
   the main agent relays that answer word for word (as models often do: it is our text, in the
   parent's reply);
   With ``--quote-search``, then per recall run a session whose main agent calls
   ``recollect_history_search`` itself and writes out its reply word for word;
5. **growth**: one session of 20 cue turns;
6. **later searches**: ``recollect index``, then per topic the model calls
   ``recollect_history_search`` (limit 5) for the topic and for its answer word, and per memory for
   a word only the ``memory_remember`` call held;
7. **without recollect**: a second world with the same projects and no recollect gets every message
   of 3 and 5 right after the first world did, so both see the same machine load (a shared machine's
   load swings by hundreds of ms between minutes: two runs one after the other compare nothing).

Figures (each printed beside the issue-13 target):

- cue recall = cue messages whose first model request held a ``<recollect-recall>`` block; precision
  = ordinary messages whose request held none; English and Chinese apart;
- the answering session in that block, and first in it (over all cue messages: no block is a miss);
- leaks: sessions of another project in any recall block;
- echo: sessions found in the top 5 of a later search (a recall block, or step 6) that recollect
  itself caused: the recall subagent's sessions (by structure: a child session run by the ``recall``
  agent), or, for a word that only an answering session ever held, any other session whose stored
  parts hold it (it can only hold that word through our blocks or our tools' output: the fake model
  never repeats them; with search by meaning on, a session may rank without holding it: no echo),
  not counting what the person typed (a message set's cue may name the answer word itself);
- live recall blocks per request (the most any request of a session carried);
- bytes injected per turn (every recollect-tagged block in the request) and, in the growth session,
  injected bytes in turn 20's request minus turn 1's, next to the whole prompt's growth with and
  without recollect;
- latency added per message: the time from sending the message to the model's first request,
  its p50 (p95) with recollect minus its p50 (p95) without, over the same messages.

Semantic search is off (``RECOLLECT_EMBEDDINGS=off``) unless ``--meaning MODEL_CACHE`` names a cache
that already holds the full encoder's loaded form (building it in a throwaway home takes minutes);
with it on, auto-recall's meaning check uses the card encoder's stored card vectors. The plugin's per-message timeout is
``--timeout-ms`` (5000 by default, so a busy shared machine measures retrieval, not timeouts; the
number of plugin timeouts is printed). Needs node, npm and git; nothing outside a temporary
directory is touched. Results: docs/loop.md.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.heldout import refuse_held_out  # noqa: E402
from tests.e2e.fake_llm import Rule, content_text  # noqa: E402
from tests.e2e.opencode import OpenCodeWorld, ensure_opencode  # noqa: E402

DATA = Path(__file__).resolve().parent
BLOCK_RE = re.compile(r"<recollect-([a-z]+)\b[^>]*>.*?</recollect-\1>", re.S)
SESSION_RE = re.compile(r"\bses_[0-9A-Za-z]{26}\b")
# A hit's own cursor: on its own line ("   cursor: opencode::ses_…", MCP output) or ending a numbered
# entry ('1. "title" (date, dir) cursor opencode::ses_…', recall block). A snippet quoting an older
# cursor mid-line is not a hit.
HIT_RE = re.compile(r"^\s*(?:\d+[.)]\s.*?)?\bcursor:?\s+\S*?(ses_[0-9A-Za-z]{26})", re.M)
RECALL_TAG = "recall"
QUIET_ENV = {"RECOLLECT_EMBEDDINGS": "off"}
GROWTH_TURNS = 20
TOP = 5
REPLY = "Let me look at that."  # what the fake model answers a measured message: never our text


def recollect_cmd() -> list[str]:
    return [sys.executable, "-m", "recollect.cli"]


def load_data(
    directory: Path = DATA, messages_file: Path | None = None, final: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    path = messages_file or directory / "loop_messages.json"
    refuse_held_out(path, "bench_loop", final)  # only the session's final run opens the held-out set
    world = json.loads((directory / "loop_world.json").read_text(encoding="utf-8"))
    messages = json.loads(path.read_text(encoding="utf-8"))
    return world, messages


def pct(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# --------------------------------------------------------------------------------------- analysis


@dataclass
class Seen:
    """What one model request held: recollect's blocks, the sessions its recall blocks name."""

    prompt_bytes: int
    injected: dict[str, int]  # tag -> bytes of that tag's blocks in the whole request
    recall_blocks: int
    recall_sessions: list[str]  # in order of appearance, each once


def hit_sessions(text: str) -> list[str]:
    """The sessions a search answer or recall block lists, in its order, each once. Falls back to
    every session id in the text when no line carries a cursor (a format this bench does not know)."""
    found = HIT_RE.findall(text) or SESSION_RE.findall(text)
    return list(dict.fromkeys(found))


def seen_in(request: dict[str, Any]) -> Seen:
    messages = request.get("messages") or []
    injected: dict[str, int] = {}
    recall_blocks = 0
    sessions: list[str] = []
    for m in messages:
        text = content_text(m.get("content"))
        for match in BLOCK_RE.finditer(text):
            tag = match.group(1)
            injected[tag] = injected.get(tag, 0) + len(match.group(0).encode())
            if tag == RECALL_TAG:
                recall_blocks += 1
                for sid in hit_sessions(match.group(0)):
                    if sid not in sessions:
                        sessions.append(sid)
    size = len(json.dumps(messages, ensure_ascii=False).encode())
    return Seen(size, injected, recall_blocks, sessions)


@dataclass(frozen=True)
class PromptShape:
    """One request as a prompt cache sees it: a digest of its system prompt (every leading system
    message) and of each message, and where its newest user message starts."""

    system: str
    messages: tuple[str, ...]
    newest_user: int  # index into messages; len(messages) when there is none


def prompt_shape(request: dict[str, Any]) -> PromptShape:
    messages = request.get("messages") or []
    digests = tuple(
        hashlib.sha256(json.dumps(m, ensure_ascii=False, sort_keys=True).encode()).hexdigest() for m in messages
    )
    leading = 0
    while leading < len(messages) and messages[leading].get("role") == "system":
        leading += 1
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    system = hashlib.sha256("".join(digests[:leading]).encode()).hexdigest()
    return PromptShape(system, digests, users[-1] if users else len(messages))


def prefix_figures(turns: Sequence[Turn], label: str = "") -> list[Figure]:
    """Prompt-cache friendliness over the growth session (one session, 20 turns, cues among them):
    of each pair of consecutive model requests, how often the system prompt is byte-identical to the
    previous request's, and how often the previous request's whole prefix before its newest user
    message opens the new request unchanged (what a provider's prompt cache can reuse)."""
    shapes = [s for t in turns if t.phase == "growth" for s in t.shapes]
    pairs = list(itertools.pairwise(shapes))
    same_system = sum(1 for a, b in pairs if a.system == b.system)
    kept = sum(1 for a, b in pairs if b.messages[: a.newest_user] == a.messages[: a.newest_user])
    return [
        Figure(
            f"system prompt same as the previous request's{label}",
            ratio(same_system, len(pairs)),
            "100%",
            same_system == len(pairs) if pairs else None,
        ),
        Figure(
            f"  prefix before the newest user message kept{label}",
            ratio(kept, len(pairs)),
            "100%",
            kept == len(pairs) if pairs else None,
        ),
    ]


@dataclass
class Turn:
    phase: str
    key: str  # stable across the with/without runs: phase + message id (+ turn)
    project: str
    session: str
    text: str
    kind: str = ""  # cue | unknown (a cue about a topic never discussed) | ordinary | "" (not scored for firing)
    lang: str = ""
    expect: str | None = None  # the answering session's id
    pre_llm_ms: float = float("nan")  # message sent -> the model's first request
    total_ms: float = 0.0
    seen: Seen | None = None
    requests: list[Seen] = field(default_factory=list)  # every chat request of the turn
    shapes: list[PromptShape] = field(default_factory=list)  # the same requests, for prefix_figures

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k not in ("seen", "requests", "shapes")}
        out["seen"] = self.seen.__dict__ if self.seen else None
        return out


# --------------------------------------------------------------------------------------- the run


class LoopBench:
    """One OpenCode world and everything the bench did in it."""

    def __init__(
        self,
        world: OpenCodeWorld,
        world_data: dict[str, Any],
        *,
        timeout_ms: int = 5000,
        twin: LoopBench | None = None,
    ) -> None:
        self.world = world
        self.data = world_data
        self.timeout_ms = timeout_ms
        self.topics = {t["id"]: t for t in world_data["topics"]}
        self.projects: dict[str, Path] = {}
        self.answering: dict[str, str] = {}  # topic id -> session id
        self.asked_only: list[str] = []
        self.memory_sessions: dict[str, str] = {}  # memory word -> session id
        self.turns: list[Turn] = []
        self.searches: list[dict[str, Any]] = []
        self.recall_parents: list[str] = []
        self.quoters: list[str] = []  # sessions whose main agent quoted our search reply (--quote-search)
        self.twin = twin  # a world without recollect that gets the same live and growth messages

    # ---- plumbing ----------------------------------------------------------------------------

    def cli(self, *args: str, cwd: Path | None = None, check: bool = True) -> str:
        env = {**self.world.env, **QUIET_ENV}
        r = subprocess.run(
            [*recollect_cmd(), *args],
            env=env,
            cwd=cwd or self.world.home,
            capture_output=True,
            text=True,
            timeout=600,
            stdin=subprocess.DEVNULL,
        )
        if check and r.returncode != 0:
            raise RuntimeError(f"recollect {' '.join(args)} exited {r.returncode}\n{r.stdout}\n{r.stderr}")
        return r.stdout

    def project(self, name: str) -> Path:
        if name not in self.projects:
            spec = self.data["projects"][name]
            self.projects[name] = self.world.project(name, spec.get("files"))
        return self.projects[name]

    def say(
        self,
        session: str,
        text: str,
        rules: list[Rule],
        *,
        phase: str,
        key: str,
        project: str,
        parts: list[dict[str, Any]] | None = None,
        kind: str = "",
        lang: str = "",
        expect: str | None = None,
    ) -> Turn:
        """One user message; the turn's requests as the model received them."""
        self.world.set_rules(rules)
        mark = self.world.llm.seq
        t0 = time.time()
        self.world.prompt(session, text if parts is None else None, parts=parts, timeout=180)
        t1 = time.time()
        chats = self.world.llm.since(mark, "chat")
        turn = Turn(phase, key, project, session, text, kind, lang, expect, total_ms=(t1 - t0) * 1000)
        if chats:
            turn.pre_llm_ms = (chats[0]["t"] - t0) * 1000
            turn.requests = [seen_in(c["request"]) for c in chats]
            turn.shapes = [prompt_shape(c["request"]) for c in chats]
            turn.seen = turn.requests[0]
        self.turns.append(turn)
        return turn

    def new_session(self, project: str) -> str:
        return self.world.create_session(self.project(project))

    # ---- 1. history before recollect -----------------------------------------------------------

    def plant(self, topics: Iterable[str] | None = None) -> None:
        wanted = set(topics) if topics is not None else set(self.topics)
        for tid, topic in self.topics.items():
            if tid not in wanted:
                continue
            sid = self.new_session(topic["project"])
            for i, turn in enumerate(topic["turns"]):
                rule: Rule = {"text": turn["assistant"]}
                if turn.get("tools"):
                    rule["tools"] = turn["tools"]
                self.say(sid, turn["user"], [rule], phase="plant", key=f"{tid}.{i}", project=topic["project"])
            self.answering[tid] = sid
        for i, asked in enumerate(self.data["asked_only"]):
            if asked["topic"] not in wanted:
                continue
            sid = self.new_session(asked["project"])
            self.say(
                sid,
                asked["user"],
                [{"text": asked["assistant"]}],
                phase="asked",
                key=f"asked{i}",
                project=asked["project"],
            )
            self.asked_only.append(sid)
        self.world.wait_settled()

    # ---- 2. install ------------------------------------------------------------------------------

    def install(self) -> None:
        config = self.world.home / ".config" / "recollect" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f"[opencode]\ntimeout_ms = {self.timeout_ms}\n")
        # The world rewrites opencode.json on every start; a person's own opencode.jsonc (read after
        # it, so it wins) is where the installer puts our entry, and it survives restarts.
        user_config = self.world.config_dir / "opencode.jsonc"
        if not user_config.exists():
            user_config.write_text('{\n  "$schema": "https://opencode.ai/config.json"\n}\n')
        self.cli("install", "opencode", "--no-npm")
        self.cli("index")
        self.world.restart()

    def remember(self, projects: Iterable[str] | None = None) -> None:
        wanted = set(projects) if projects is not None else None
        for i, mem in enumerate(self.data["memories"]):
            if wanted is not None and mem["project"] not in wanted:
                continue
            sid = self.new_session(mem["project"])
            rule: Rule = {
                "tools": [{"name": "recollect_memory_remember", "args": mem["args"]}],
                "text": mem["assistant"],
            }
            self.say(sid, mem["user"], [rule], phase="memory", key=f"memory{i}", project=mem["project"])
            self.memory_sessions[mem["memory_word"]] = sid

    def warm_up(self, projects: Iterable[str]) -> None:
        """The first prompt of an instance waits for the MCP server and the helper: not measured."""
        for name in projects:
            sid = self.new_session(name)
            self.say(sid, "Hello, let's get started.", [{"text": "Hello."}], phase="warmup", key=name, project=name)

    def index(self) -> None:
        """What the plugin's idle sync runs, done now so a phase starts from a known index."""
        self.world.wait_settled()
        self.cli("index")

    # ---- 3. live ---------------------------------------------------------------------------------

    def live(self, messages: Sequence[dict[str, Any]], phase: str = "live") -> None:
        for m in messages:
            sid = self.new_session(m["project"])
            expect = self.answering.get(m["expect"]) if m.get("expect") else None
            kind = m.get("kind") or ("cue" if m.get("expect") else "ordinary")
            self.say(
                sid,
                m["text"],
                [{"text": REPLY}],
                phase=phase,
                key=m["id"],
                project=m["project"],
                kind=kind,
                lang=m["lang"],
                expect=expect,
            )
            if self.twin is not None:
                self.twin.live([m], phase)

    # ---- 4. the recall subagent --------------------------------------------------------------------

    def recall_run(self, run: dict[str, Any], i: int = 0) -> Turn:
        sid = self.new_session(run["project"])
        task_args = {"description": "recall earlier work", "prompt": run["user"], "subagent_type": "recall"}
        # The recall agent (offered recollect's tools only, never `task`) works as its instructions
        # say: search, read the best hit, answer from what it read.
        steps: list[Any] = [{"name": "recollect_history_search", "args": {"query": run["query"]}}]
        answering = self.answering.get(run["topic"])
        if answering:
            steps.append({"name": "recollect_history_read", "args": {"cursor": answering}})
        rules: list[Rule] = [
            {"lacks": ["task"], "tools": steps, "text": "From the earlier sessions:\n{last_tool_output}"},
            # The parent relays the answer (the task output) in its reply: our text, stored as the parent's.
            {
                "offers": ["task"],
                "tools": [{"name": "task", "args": task_args}],
                "text": "The recall agent answered:\n{last_tool_output}",
            },
        ]
        text = run["user"]
        name = "recall"
        start = text.index("@recall")
        parts = [
            {"type": "text", "text": text},
            {"type": "agent", "name": name, "source": {"value": "@recall", "start": start, "end": start + 7}},
        ]
        turn = self.say(
            sid,
            text,
            rules,
            phase="recall",
            key=f"recall{i}",
            project=run["project"],
            parts=parts,
            expect=self.answering.get(run["topic"]),
        )
        self.recall_parents.append(sid)
        return turn

    def quote_search(self, run: dict[str, Any], i: int = 0) -> Turn:
        """The main agent calls `recollect_history_search` itself (the MCP instructions invite it) and
        writes out its reply word for word: our text, stored as the session's own (--quote-search)."""
        sid = self.new_session(run["project"])
        text = run["user"].replace("@recall", "").strip()
        rules: list[Rule] = [
            {
                "offers": ["recollect_history_search"],
                "tools": [{"name": "recollect_history_search", "args": {"query": run["query"]}}],
                "text": "From an earlier session:\n{last_tool_output}",
            }
        ]
        turn = self.say(sid, text, rules, phase="quote", key=f"quote{i}", project=run["project"])
        self.quoters.append(sid)
        return turn

    # ---- 5. growth ---------------------------------------------------------------------------------

    def growth(self, messages: Sequence[dict[str, Any]], turns: int = GROWTH_TURNS, phase: str = "growth") -> str:
        project = messages[0]["project"]
        sid = self.new_session(project)
        twin_sid = self.twin.new_session(project) if self.twin is not None else ""
        for n in range(turns):
            m = messages[n % len(messages)]
            for bench, session in ((self, sid), (self.twin, twin_sid)):
                if bench is not None:
                    bench.say(
                        session,
                        m["text"],
                        [{"text": REPLY}],
                        phase=phase,
                        key=f"t{n + 1:02d}",
                        project=project,
                        lang=m["lang"],
                        expect=bench.answering.get(m["expect"]),
                    )
        return sid

    # ---- 6. later searches -----------------------------------------------------------------------

    def later_searches(self, topics: Iterable[str] | None = None, memories: bool = True) -> None:
        wanted = set(topics) if topics is not None else set(self.answering)
        jobs: list[tuple[str, list[tuple[str, str, str | None]]]] = []
        for tid in self.answering:
            if tid in wanted:
                t = self.topics[tid]
                jobs.append((t["project"], [(t["search"], "topic", tid), (t["answer_word"], "answer", tid)]))
        if memories:
            for mem in self.data["memories"]:
                if mem["memory_word"] in self.memory_sessions:
                    jobs.append((mem["project"], [(mem["memory_word"], "memory", None)]))
        for i, (project, queries) in enumerate(jobs):
            sid = self.new_session(project)
            calls = [{"name": "recollect_history_search", "args": {"query": q, "limit": TOP}} for q, _, _ in queries]
            self.say(
                sid,
                "Look through the history for me.",
                [{"tools": [calls], "text": "Searched."}],
                phase="search",
                key=f"search{i}",
                project=project,
            )
            outputs = self._search_outputs(sid)
            for query, what, topic in queries:
                output = outputs.get(query, "")
                found = [s for s in hit_sessions(output) if s != sid]
                self.searches.append(
                    {
                        "project": project,
                        "query": query,
                        "what": what,
                        "topic": topic,
                        "top": found[:TOP],
                        "ok": bool(output),
                    }
                )

    def _search_outputs(self, session: str) -> dict[str, str]:
        rows = self.world.query(
            "select data from part where session_id = ? and json_extract(data, '$.tool') = 'recollect_history_search'",
            (session,),
        )
        out: dict[str, str] = {}
        for (raw,) in rows:
            state = json.loads(raw).get("state") or {}
            out[str((state.get("input") or {}).get("query"))] = str(state.get("output") or state.get("error") or "")
        return out

    # ---- what the store knows ---------------------------------------------------------------------

    def sessions(self) -> dict[str, dict[str, Any]]:
        rows = self.world.query(
            "select s.id, s.project_id, s.parent_id, s.directory, "
            "(select json_extract(m.data, '$.agent') from message m where m.session_id = s.id "
            "order by m.time_created limit 1) from session s"
        )
        return {r[0]: {"project": r[1], "parent": r[2], "directory": r[3], "agent": r[4]} for r in rows}

    def holds(self, session: str, word: str) -> bool:
        """Whether OpenCode's store holds `word` in `session` beyond the person's own text (`HOLDS`)."""
        return bool(self.world.query(HOLDS, (session, word.lower())))

    def plugin_timeouts(self) -> int:
        log = self.world.home / ".local" / "share" / "recollect" / "log" / "opencode-plugin.log"
        try:
            return sum("timed out" in line for line in log.read_text(errors="replace").splitlines())
        except OSError:
            return 0


# Whether a session holds a word in what the model, a tool or our blocks left in it (the blocks ride only on
# requests, so a stored one came back through a reply); not in what the person typed: a message set's own
# cue may name the answer word ("…YAML 还是 TOML？"), and that is the person's text, not ours coming back.
HOLDS = (
    "select 1 from part p join message m on m.id = p.message_id where p.session_id = ? "
    "and instr(lower(p.data), ?) > 0 and not (json_extract(m.data, '$.role') = 'user' "
    "and json_extract(p.data, '$.type') = 'text' and coalesce(json_extract(p.data, '$.synthetic'), 0) = 0) limit 1"
)


# --------------------------------------------------------------------------------------- scoring


def ratio(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "n/a"


@dataclass
class Figure:
    name: str
    value: str
    target: str
    ok: bool | None  # None: reported, no target


def score(bench: LoopBench, without: Sequence[Turn] = ()) -> tuple[list[Figure], dict[str, Any]]:
    """Every figure beside its target, and the raw numbers (for --json)."""
    sessions = bench.sessions()
    project_of = {sid: s["project"] for sid, s in sessions.items()}
    caused = {
        sid
        for sid, s in sessions.items()
        if (s["parent"] and s["agent"] == "recall")
        or str(s["directory"] or "").startswith(str(bench.world.home / ".local" / "share" / "recollect"))
    }
    figures: list[Figure] = []
    raw: dict[str, Any] = {}
    live = [t for t in bench.turns if t.phase == "live" and t.seen is not None]

    # cue recall / precision, per language
    for lang in ("en", "zh"):
        cues = [t for t in live if t.kind == "cue" and t.lang == lang]
        fired = sum(1 for t in cues if t.seen and t.seen.recall_blocks)
        figures.append(
            Figure(
                f"cue recall {lang.upper()} (fired)",
                ratio(fired, len(cues)),
                ">= 95%",
                _at_least(fired, len(cues), 0.95),
            )
        )
        raw[f"cue_fired_{lang}"] = [fired, len(cues)]
    for lang in ("en", "zh"):
        plain = [t for t in live if t.kind == "ordinary" and t.lang == lang]
        silent = sum(1 for t in plain if t.seen and not t.seen.recall_blocks)
        figures.append(
            Figure(
                f"precision {lang.upper()} (silent)",
                ratio(silent, len(plain)),
                ">= 95%",
                _at_least(silent, len(plain), 0.95),
            )
        )
        raw[f"ordinary_silent_{lang}"] = [silent, len(plain)]
    unknown = [t for t in live if t.kind == "unknown"]
    if unknown:  # cues about topics no session ever discussed: nothing to recall, so no block
        silent = sum(1 for t in unknown if t.seen and not t.seen.recall_blocks)
        figures.append(
            Figure(
                "cues on never-discussed topics (silent)", ratio(silent, len(unknown)), "all", silent == len(unknown)
            )
        )
        raw["unknown_silent"] = [silent, len(unknown)]

    # the answering session in the block, and its rank
    cues = [t for t in live if t.kind == "cue"]
    ranks = [
        (t.seen.recall_sessions.index(t.expect) + 1) if t.seen and t.expect in t.seen.recall_sessions else 0
        for t in cues
    ]
    inside = sum(1 for r in ranks if r)
    first = sum(1 for r in ranks if r == 1)
    fired = sum(1 for t in cues if t.seen and t.seen.recall_blocks)
    figures.append(
        Figure("answering session in block", ratio(inside, len(cues)), ">= 90%", _at_least(inside, len(cues), 0.90))
    )
    figures.append(
        Figure("answering session first", ratio(first, len(cues)), ">= 75%", _at_least(first, len(cues), 0.75))
    )
    for lang in ("en", "zh"):
        sub = [r for t, r in zip(cues, ranks, strict=True) if t.lang == lang]
        figures.append(
            Figure(
                f"  {lang.upper()}: in block / first",
                f"{sum(1 for r in sub if r)} / {sum(1 for r in sub if r == 1)} of {len(sub)}",
                "",
                None,
            )
        )
    figures.append(Figure("  in block, of the cues that fired", ratio(inside, fired), "", None))
    raw["ranks"] = {t.key: r for t, r in zip(cues, ranks, strict=True)}

    # leaks: another project's session in a recall block (every turn with recollect)
    leaks: list[tuple[str, str]] = []
    for t in bench.turns:
        here = project_of.get(t.session)
        for req in t.requests:
            for sid in req.recall_sessions:
                if here and project_of.get(sid) and project_of[sid] != here:
                    leaks.append((t.key, sid))
    figures.append(Figure("cross-project leaks (recall blocks)", str(len(set(leaks))), "0", not leaks))
    raw["leaks"] = sorted(set(leaks))

    # echo: recollect-caused sessions in any later top 5 (recall blocks after the subagent ran, searches)
    recall_done = next((i for i, t in enumerate(bench.turns) if t.phase == "recall"), None)
    echo: dict[str, set[str]] = {}
    if recall_done is not None:
        for t in bench.turns[recall_done + 1 :]:
            for req in t.requests:
                for sid in req.recall_sessions[:TOP]:
                    if sid in caused:
                        echo.setdefault(sid, set()).add(f"recall block {t.key}")
    searched_ok = 0
    topic_first = topic_total = 0
    for s in bench.searches:
        searched_ok += s["ok"]
        sources: set[str] = set()
        if s["what"] == "answer":
            sources = {bench.answering[s["topic"]]}
        for sid in s["top"]:
            # A session ranked by meaning need not hold the word: it is in the top 5 without our text.
            if sid in caused or (
                s["what"] in ("answer", "memory") and sid not in sources and bench.holds(sid, s["query"])
            ):
                echo.setdefault(sid, set()).add(f"search {s['query']!r}")
        if s["what"] == "topic":
            topic_total += 1
            topic_first += bool(s["top"]) and s["top"][0] == bench.answering[s["topic"]]
    kinds = {
        "recall subagent": sum(1 for sid in echo if sid in caused),
        "recall parent (relayed)": sum(1 for sid in echo if sid in bench.recall_parents),
        "quoted our search (--quote-search)": sum(1 for sid in echo if sid in bench.quoters),
        "memory writer": sum(1 for sid in echo if sid in bench.memory_sessions.values()),
    }
    kinds["other (our blocks/outputs)"] = len(echo) - sum(kinds.values())
    figures.append(Figure("echo sessions in any top 5", str(len(echo)), "0", not echo and bool(bench.searches)))
    for k, v in kinds.items():
        figures.append(Figure(f"  {k}", str(v), "", None))
    figures.append(Figure("later searches answered", ratio(searched_ok, len(bench.searches)), "", None))
    figures.append(Figure("  topic search: answering session first", ratio(topic_first, topic_total), "", None))
    raw["echo"] = {sid: sorted(v) for sid, v in echo.items()}
    raw["searches"] = bench.searches

    # live blocks per session
    most: dict[str, int] = {}
    for t in bench.turns:
        for req in t.requests:
            most[t.session] = max(most.get(t.session, 0), req.recall_blocks)
    over = sum(1 for v in most.values() if v > 1)
    figures.append(
        Figure("sessions with > 1 live recall block", f"{over} (max {max(most.values(), default=0)})", "0", over == 0)
    )

    # bytes injected per turn
    measured = [t for t in bench.turns if t.seen is not None and t.phase in ("live", "growth", "recall")]
    per_turn = [sum(t.seen.injected.values()) for t in measured if t.seen]
    figures.append(
        Figure(
            "bytes injected per turn p50 / p95 / max",
            f"{pct(per_turn, 0.5):.0f} / {pct(per_turn, 0.95):.0f} / {max(per_turn, default=0)}",
            "",
            None,
        )
    )
    tags = sorted({k for t in measured if t.seen for k in t.seen.injected})
    for tag in tags:
        vals = [t.seen.injected.get(tag, 0) for t in measured if t.seen]
        figures.append(Figure(f"  <recollect-{tag}> p50 / max", f"{pct(vals, 0.5):.0f} / {max(vals)}", "", None))

    # growth after 20 cue turns
    growth = [t for t in bench.turns if t.phase == "growth" and t.seen]
    if len(growth) >= 2 and growth[0].seen and growth[-1].seen:
        g0, g1 = growth[0].seen, growth[-1].seen
        inj = sum(g1.injected.values()) - sum(g0.injected.values())
        grew = g1.prompt_bytes - g0.prompt_bytes
        figures.append(
            Figure(
                f"injected-bytes growth after {len(growth)} cue turns",
                f"{inj / 1024:.1f} KB",
                "<= 3 KB",
                inj <= 3 * 1024,
            )
        )
        answered = sum(1 for t in growth if t.seen and t.expect in t.seen.recall_sessions)
        figures.append(
            Figure("  growth turns whose request names their answer", ratio(answered, len(growth)), "", None)
        )
        line = f"{g0.prompt_bytes / 1024:.1f} -> {g1.prompt_bytes / 1024:.1f} KB (+{grew / 1024:.1f})"
        base = [t for t in without if t.phase == "growth" and t.seen]
        if len(base) >= 2 and base[0].seen and base[-1].seen:
            b = base[-1].seen.prompt_bytes - base[0].seen.prompt_bytes
            line += f"; without recollect +{b / 1024:.1f} KB"
            raw["growth_without"] = [base[0].seen.prompt_bytes, base[-1].seen.prompt_bytes]
        figures.append(Figure("  whole prompt, turn 1 -> last", line, "", None))
        raw["growth"] = [[t.seen.prompt_bytes, t.seen.injected, t.seen.recall_blocks] for t in growth if t.seen]

    figures += prefix_figures(bench.turns)
    if without:
        figures += prefix_figures(without, " (without recollect)")

    # latency added per message: the same messages in the world without recollect, interleaved
    if without:
        figures += latency_figures(bench.turns, without)
        raw["latency_ms"] = {
            "with": {f"{t.phase}.{t.key}": t.pre_llm_ms for t in bench.turns if t.phase in ("live", "growth")},
            "without": {f"{t.phase}.{t.key}": t.pre_llm_ms for t in without if t.phase in ("live", "growth")},
        }
    figures.append(Figure("plugin timeouts (plugin log)", str(bench.plugin_timeouts()), "", None))
    return figures, raw


def latency_figures(turns: Sequence[Turn], without: Sequence[Turn]) -> list[Figure]:
    """Percentile of "with" minus the same percentile of "without", over the same messages.

    Not a percentile of per-message differences: OpenCode's own time to the first request varies by
    hundreds of ms from one message to the next, so paired differences measure that noise twice."""
    base = {(t.phase, t.key): t.pre_llm_ms for t in without if t.phase in ("live", "growth")}
    pairs = [
        (t.pre_llm_ms, base[(t.phase, t.key)])
        for t in turns
        if (t.phase, t.key) in base
        and t.pre_llm_ms == t.pre_llm_ms
        and base[(t.phase, t.key)] == base[(t.phase, t.key)]
    ]
    if not pairs:
        return []
    w, wo = [a for a, _ in pairs], [b for _, b in pairs]
    added95 = pct(w, 0.95) - pct(wo, 0.95)
    out = [
        Figure(
            "latency added per message p50 / p95",
            f"{pct(w, 0.5) - pct(wo, 0.5):.0f} / {added95:.0f} ms (n={len(pairs)})",
            "p95 < 150 ms",
            added95 < 150,
        ),
        Figure(
            "  message -> model p50 / p95, with | without",
            f"{pct(w, 0.5):.0f} / {pct(w, 0.95):.0f} | {pct(wo, 0.5):.0f} / {pct(wo, 0.95):.0f} ms",
            "",
            None,
        ),
    ]
    for kind in ("cue", "ordinary"):
        sub = [
            (t.pre_llm_ms, base[(t.phase, t.key)])
            for t in turns
            if (t.phase, t.key) in base and (t.kind == kind or (kind == "cue" and t.phase == "growth"))
        ]
        if sub:
            a, b = [x for x, _ in sub], [y for _, y in sub]
            out.append(
                Figure(
                    f"  added on {kind} messages p50 / p95",
                    f"{pct(a, 0.5) - pct(b, 0.5):.0f} / {pct(a, 0.95) - pct(b, 0.95):.0f} ms",
                    "",
                    None,
                )
            )
    return out


def _at_least(n: int, d: int, share: float) -> bool | None:
    return None if not d else n >= share * d


def render(figures: Sequence[Figure]) -> str:
    width = max(len(f.name) for f in figures)
    vwidth = max(len(f.value) for f in figures)
    lines = [f"{'figure':<{width}}  {'measured':<{vwidth}}  {'target':<12}  ok", "-" * (width + vwidth + 22)]
    for f in figures:
        ok = "" if f.ok is None else ("yes" if f.ok else "NO")
        lines.append(f"{f.name:<{width}}  {f.value:<{vwidth}}  {f.target:<12}  {ok}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------- main


def select(messages: dict[str, Any], quick: bool, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(live messages in their seeded order, growth messages)."""
    cues = list(messages["cue"])
    ordinary = list(messages["ordinary"])
    unknown = [{**m, "kind": "unknown"} for m in messages.get("unknown", [])]
    if quick:
        # one English and one Chinese cue per topic where there is one, and every third ordinary message
        picked: dict[tuple[str, str], dict[str, Any]] = {}
        for c in cues:
            picked.setdefault((c["expect"], c["lang"]), c)
        cues = list(picked.values())
        ordinary = ordinary[::3]
        unknown = unknown[::2]
    live = cues + unknown + ordinary
    random.Random(seed).shuffle(live)
    growth = [c for c in messages["cue"] if c["project"] == "atlas"]
    return live, growth


def git_commit() -> str:
    """The commit of the recollect under test (the one ``python -m recollect.cli`` imports)."""
    import recollect

    if not Path(recollect.__file__).resolve().is_relative_to(REPO / "src"):
        return f"recollect from {Path(recollect.__file__).resolve().parent.parent}"
    try:
        r = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=10
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "src"], cwd=REPO, capture_output=True, text=True, timeout=10
        )
        return r.stdout.strip() + ("+dirty src" if dirty.stdout.strip() else "")
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer messages (one EN and one ZH cue per topic)")
    ap.add_argument("--seed", type=int, default=13, help="order of the live messages")
    ap.add_argument(
        "--timeout-ms", type=int, default=5000, help="the plugin's per-message timeout ([opencode] timeout_ms)"
    )
    ap.add_argument("--no-baseline", action="store_true", help="skip the run without recollect (no latency figure)")
    ap.add_argument("--json", type=Path, help="write figures and per-turn records here")
    ap.add_argument("--keep", type=Path, help="build the world in this directory and keep it (for inspection)")
    ap.add_argument(
        "--messages",
        type=Path,
        help="the message set (default bench/loop_messages.json; held-out sets: bench/loop_messages_heldout*.json)",
    )
    ap.add_argument(
        "--meaning",
        type=Path,
        metavar="MODEL_CACHE",
        help="search by meaning on (the default for users), the full encoder's loaded form read from this "
        "cache (e.g. ~/.cache/recollect, made by any earlier `recollect index` with meaning on)",
    )
    ap.add_argument(
        "--quote-search",
        action="store_true",
        help="after the recall subagent, per recall run a session whose main agent calls recollect_history_search "
        "itself and quotes the reply (an echo the later searches must not find)",
    )
    ap.add_argument(
        "--final",
        action="store_true",
        help="the one final measurement of the held-out set (bench/heldout.py), refused without this",
    )
    a = ap.parse_args(argv)
    if a.meaning:
        QUIET_ENV.clear()
        QUIET_ENV["RECOLLECT_MODEL_CACHE"] = str(a.meaning.expanduser())

    world_data, messages = load_data(messages_file=a.messages, final=a.final)
    live, growth_msgs = select(messages, a.quick, a.seed)
    started = time.monotonic()
    phases: dict[str, float] = {}
    tmp = a.keep or Path(tempfile.mkdtemp(prefix="recollect-loop-"))
    tmp.mkdir(parents=True, exist_ok=True)

    def phase(name: str) -> None:
        phases[name] = time.monotonic() - started
        print(f"[{time.monotonic() - started:6.1f} s] {name}", file=sys.stderr, flush=True)

    binary = ensure_opencode()
    without: list[Turn] = []
    try:
        with (
            OpenCodeWorld(tmp, binary=binary, extra_env=QUIET_ENV) as world,
            OpenCodeWorld(tmp, name="plain", binary=binary, extra_env=QUIET_ENV) as plain,
        ):
            twin = None if a.no_baseline else LoopBench(plain, world_data)
            bench = LoopBench(world, world_data, timeout_ms=a.timeout_ms, twin=twin)
            for name in world_data["projects"]:
                bench.project(name)
                if twin is not None:
                    twin.project(name)
            phase("plant history")
            bench.plant()
            phase("install recollect, index")
            bench.install()
            phase("memories, warm-up")
            bench.remember()
            bench.warm_up(world_data["projects"])
            if twin is not None:
                twin.warm_up(world_data["projects"])
            bench.index()
            phase(f"live: {len(live)} messages")
            bench.live(live)
            phase("recall subagent")
            for i, run in enumerate(world_data["recall_runs"][: 1 if a.quick else None]):
                bench.recall_run(run, i)
            if a.quote_search:
                for i, run in enumerate(world_data["recall_runs"][: 1 if a.quick else None]):
                    bench.quote_search(run, i)
            phase(f"growth: {GROWTH_TURNS} cue turns")
            bench.growth(growth_msgs)
            phase("later searches")
            bench.index()
            bench.later_searches()
            without = twin.turns if twin is not None else []
            phase("score")
            figures, raw = score(bench, without)
    finally:
        if a.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.monotonic() - started
    commit = git_commit()
    print(
        f"\nrecollect live-loop bench at {commit}: {len(live)} live messages "
        f"({(a.messages or DATA / 'loop_messages.json').name}), "
        f"{'quick' if a.quick else 'full'}, meaning {'on' if a.meaning else 'off'}, {elapsed:.0f} s"
    )
    print(render(figures))
    if a.json:
        out = {
            "commit": commit,
            "quick": a.quick,
            "meaning": bool(a.meaning),
            "messages": str(a.messages or "bench/loop_messages.json"),
            "seconds": elapsed,
            "phases": phases,
            "figures": [f.__dict__ for f in figures],
            "raw": raw,
            "turns": [t.to_json() for t in bench.turns],
            "without": [t.to_json() for t in without],
        }
        a.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
