"""A scriptable fake OpenAI-compatible chat-completions server for driving the real OpenCode.

Standard library only, loopback only. It serves

    GET  /v1/models             a model list
    POST /v1/chat/completions   SSE streaming (``"stream": true``) or one JSON completion

and logs every request body it receives as one JSON line (``--log`` / ``log_path``), so tests can
assert on what reached the "LLM": an injected system-prompt block, the tools offered, the
arguments of an MCP tool call...

Replies are chosen by *rules*, tried in order; the first match wins::

    {
      "match": ["word", ...],    # all must occur in the last user message (case-insensitive);
                                 # missing or empty matches every request of its kind
      "kind": "chat",            # request kind it applies to: chat (default) | title | compaction | any
      "offers": ["task"],        # only requests that offer all these tools (e.g. the main agent) ...
      "lacks": ["task"],         # ... or none of these (e.g. a subagent limited to recollect_*)
      "reasoning": "...",        # streamed as delta.reasoning_content on the first turn
      "tools": [                 # one assistant turn per entry, in order
        {"name": "bash", "args": {"command": "ls"}},
        [{"name": "read", "args": {...}}, {"name": "glob", "args": {...}}],   # a list = parallel calls
        {"name": "recollect_history_search", "raw_args": "{not json"},       # verbatim argument text
      ],
      "text": "final answer {last_tool_output}",   # sent once every tool turn has its results
      "error_status": 400,       # answer with this HTTP status and an OpenAI-style error body ...
      "error_times": 1,          # ... only for the first N matching requests (per user message)
      "delay": 0.5,              # seconds between SSE chunks (lets a test abort mid-stream)
      "prompt_tokens": 199000    # usage to report (near the context limit OpenCode auto-compacts)
    }

Tool names are emitted as given, whether or not the request offered such a tool, so a rule can call
any MCP tool (``recollect_history_search``) with any arguments. Strings in ``args``, ``text`` and
``reasoning`` may use the templates ``{cwd}`` (from OpenCode's system prompt), ``{user}`` (last user
message), ``{last_tool_output}``, ``{tool_outputs}`` (all tool results of this turn, joined) and
``{n_tools}``.

Request kinds are recognised from the request itself: OpenCode's title generation has a system
prompt saying "title generator"; its compaction request offers no tools and asks for a summary.
Both get a built-in answer unless a rule of that kind matches. Unmatched chat requests get an echo
answer (or, after tool results, a short "Done" answer).

Rules can live in a JSON file (``--rules`` / ``rules_path``) that is re-read on every request, so a
test may change the script between prompts while the server runs (write it atomically, e.g. with
``write_rules``).

In-process use::

    with FakeLLM(rules=[...], log_path=tmp / "llm.jsonl") as llm:
        llm.url            # http://127.0.0.1:PORT/v1
        llm.set_rules([...])
        llm.requests()     # parsed log entries

As a process::

    python fake_llm.py --port 0 --port-file PORT_FILE --log requests.jsonl [--rules rules.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Rule = dict[str, Any]
Decision = dict[str, Any]

LOOPBACK = ("127.0.0.1", "localhost", "::1")

# Enough for a harness self-test; real tests pass their own rules.
DEFAULT_RULES: list[Rule] = [
    {
        "match": ["list", "files"],
        "reasoning": "The user wants a directory listing; I will run ls.",
        "tools": [{"name": "bash", "args": {"command": "ls -a", "description": "List files"}}],
        "text": "Here are the files:\n{last_tool_output}",
    },
    {"match": ["think"], "reasoning": "Let me think about: {user}", "text": "After thinking: 42."},
    {"match": ["explode"], "error_status": 400, "text": "fake provider refused this request"},
]


def content_text(content: Any) -> str:
    """The text of an OpenAI message ``content`` (a string or a list of typed parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out = []
        for c in content:
            if isinstance(c, dict) and c.get("type") == "text":
                out.append(str(c.get("text", "")))
            elif isinstance(c, str):
                out.append(c)
        return "\n".join(out)
    return str(content)


def write_rules(path: Path | str, rules: list[Rule]) -> None:
    """Write a rules file atomically, so a running server never reads half a file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(rules, indent=2) + "\n")
    os.replace(tmp, path)


def classify(body: dict[str, Any]) -> str:
    """'title', 'compaction' or 'chat' (OpenCode's own agents have no tools; ours always do)."""
    messages = body.get("messages") or []
    system = "\n".join(content_text(m.get("content")) for m in messages if m.get("role") == "system").lower()
    if "title generator" in system or "generate a title" in system:
        return "title"
    if not body.get("tools"):
        users = [content_text(m.get("content")) for m in messages if m.get("role") == "user"]
        last_user = users[-1].lower() if users else ""
        if "summar" in system or "summar" in last_user or "compact" in system:
            return "compaction"
    return "chat"


class Brain:
    """Turns one request into a decision. Thread-safe: requests arrive concurrently."""

    def __init__(self, rules: list[Rule] | None = None, rules_path: Path | None = None) -> None:
        self._rules = list(DEFAULT_RULES if rules is None else rules)
        self.rules_path = rules_path
        self._lock = threading.Lock()
        self._counter = 0
        self._errors_sent: dict[tuple[int, str], int] = {}

    @property
    def rules(self) -> list[Rule]:
        if self.rules_path is not None and self.rules_path.exists():
            # Re-read on every request: tiny file, and no mtime-granularity races between prompts.
            try:
                return json.loads(self.rules_path.read_text())
            except (OSError, ValueError) as e:
                raise RuntimeError(f"fake LLM: cannot read rules {self.rules_path}: {e}") from e
        with self._lock:
            return list(self._rules)

    def set_rules(self, rules: list[Rule]) -> None:
        if self.rules_path is not None:
            write_rules(self.rules_path, rules)
        else:
            with self._lock:
                self._rules = list(rules)

    def next_id(self, prefix: str) -> str:
        with self._lock:
            self._counter += 1
            return f"{prefix}_{self._counter:05d}_{uuid.uuid4().hex[:8]}"

    def decide(self, body: dict[str, Any]) -> Decision:
        """Return {kind, rule, reasoning?, text?, tool_calls?, error_status?, delay?, prompt_tokens?}."""
        messages: list[dict[str, Any]] = body.get("messages") or []
        kind = classify(body)
        user_idx = [i for i, m in enumerate(messages) if m.get("role") == "user"]
        last_user = content_text(messages[user_idx[-1]].get("content")) if user_idx else ""
        # Messages after the last user message are this turn's tool round trips.
        after = messages[user_idx[-1] + 1 :] if user_idx else messages
        tool_results = [content_text(m.get("content")) for m in after if m.get("role") == "tool"]
        tool_turns = sum(1 for m in after if m.get("role") == "assistant" and m.get("tool_calls"))
        ctx = {
            "cwd": _cwd(messages),
            "user": last_user.strip()[:500],
            "n_tools": str(len(tool_results)),
            "last_tool_output": tool_results[-1].strip()[:2000] if tool_results else "",
            "tool_outputs": "\n---\n".join(t.strip()[:2000] for t in tool_results),
        }

        def fill(v: Any) -> Any:
            if isinstance(v, str):
                for k, val in ctx.items():
                    v = v.replace("{" + k + "}", val)
                return v
            if isinstance(v, list):
                return [fill(x) for x in v]
            if isinstance(v, dict):
                return {k: fill(x) for k, x in v.items()}
            return v

        low_user = last_user.lower()
        for idx, rule in enumerate(self.rules):
            rkind = rule.get("kind", "chat")
            if rkind != "any" and rkind != kind:
                continue
            if not all(str(w).lower() in low_user for w in rule.get("match") or []):
                continue
            offered = _offered_tools(body)
            if not all(t in offered for t in rule.get("offers") or []):
                continue
            if any(t in offered for t in rule.get("lacks") or []):
                continue
            base: Decision = {"kind": kind, "rule": idx}
            if rule.get("error_status"):
                limit = rule.get("error_times")
                with self._lock:
                    seen = self._errors_sent.get((idx, last_user), 0)
                    fail = limit is None or seen < int(limit)
                    if fail:
                        self._errors_sent[(idx, last_user)] = seen + 1
                if fail:
                    msg = fill(rule.get("error_message") or rule.get("text") or "fake provider error")
                    return {**base, "error_status": int(rule["error_status"]), "text": msg}
            tools = rule.get("tools") or []
            if tool_turns < len(tools):
                entry = tools[tool_turns]
                calls = [self._tool_call(t, fill) for t in (entry if isinstance(entry, list) else [entry])]
                return {
                    **base,
                    "reasoning": fill(rule.get("reasoning")) if tool_turns == 0 else None,
                    "text": fill(rule.get("pre_text")),
                    "tool_calls": calls,
                    "delay": rule.get("delay"),
                    "prompt_tokens": rule.get("prompt_tokens"),
                }
            return {
                **base,
                "reasoning": fill(rule.get("reasoning")) if not tools else None,
                "text": fill(rule.get("text", "OK.")),
                "delay": rule.get("delay"),
                "prompt_tokens": rule.get("prompt_tokens"),
            }
        return {"kind": kind, "rule": None, "text": _fallback(kind, messages, user_idx, last_user, ctx)}

    def _tool_call(self, spec: dict[str, Any], fill: Any) -> dict[str, Any]:
        args = str(spec["raw_args"]) if "raw_args" in spec else json.dumps(fill(spec.get("args", {})))
        return {"id": self.next_id("call"), "type": "function", "function": {"name": spec["name"], "arguments": args}}


def _offered_tools(body: dict[str, Any]) -> set[str]:
    return {str((t.get("function") or {}).get("name")) for t in body.get("tools") or [] if isinstance(t, dict)}


def _cwd(messages: list[dict[str, Any]]) -> str:
    for m in messages:
        if m.get("role") == "system":
            found = re.search(r"Working directory:\s*(\S+)", content_text(m.get("content")))
            if found:
                return found.group(1)
    return ""


def _fallback(kind: str, messages: list[dict[str, Any]], user_idx: list[int], last_user: str, ctx: dict) -> str:
    if kind == "title":
        words = re.findall(r"[A-Za-z0-9']+", re.sub(r"<[^>]+>", " ", last_user))
        title = " ".join(words[:6]) or "Untitled"
        return title[:1].upper() + title[1:]
    if kind == "compaction":
        earlier = "; ".join(content_text(messages[i].get("content"))[:60] for i in user_idx[:5])
        return f"## Summary\nWork happened in {ctx['cwd'] or 'the project'}. Earlier requests: {earlier}."
    if ctx["n_tools"] != "0":
        return "Done. Last tool output: " + ctx["last_tool_output"][:200]
    return f"You said: {last_user.strip()[:300]}\nThis is a canned answer from the fake model."


def _est_tokens(s: str) -> int:
    return max(1, len(s) // 4)


def _pieces(s: str, n: int = 4) -> list[str]:
    """Split text into a few deltas, so the client really assembles a stream."""
    if len(s) < 12:
        return [s]
    step = max(1, len(s) // n)
    return [s[i : i + step] for i in range(0, len(s), step)]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    brain: Brain
    log_path: Path | None
    log_lock: threading.Lock
    delay: float
    models: list[str]
    seq: int
    entries: list[dict[str, Any]]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked SSE needs 1.1
    server_version = "fake-llm/1.0"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def _json(self, code: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            models = [
                {"id": m, "object": "model", "created": int(time.time()), "owned_by": "fake"}
                for m in self.server.models
            ]
            self._json(200, {"object": "list", "data": models})
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._json(400, {"error": {"message": "bad json"}})
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": f"unsupported path {self.path}"}})
            return
        srv = self.server
        try:
            decision = srv.brain.decide(body)
        except Exception as e:  # a broken rules file must show up in the log, not hang OpenCode
            decision = {"kind": "chat", "rule": None, "error_status": 500, "text": f"fake LLM failure: {e!r}"}
        self._log(body, decision)
        if decision.get("error_status"):
            err = {"message": decision.get("text") or "error", "type": "invalid_request_error", "code": "fake_error"}
            self._json(decision["error_status"], {"error": err})
            return
        self._reply(body, decision)

    def _log(self, body: dict[str, Any], decision: Decision) -> None:
        srv = self.server
        with srv.log_lock:
            srv.seq += 1
            entry = {
                "seq": srv.seq,
                "t": time.time(),
                "path": self.path,
                "kind": decision.get("kind"),
                "rule": decision.get("rule"),
                "request": body,
                "reply": decision,
            }
            srv.entries.append(entry)
            if srv.log_path is not None:
                with open(srv.log_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(entry) + "\n")

    def _reply(self, body: dict[str, Any], decision: Decision) -> None:
        srv = self.server
        calls = decision.get("tool_calls") or []
        p_tok = decision.get("prompt_tokens") or _est_tokens(json.dumps(body.get("messages", [])))
        c_tok = _est_tokens((decision.get("text") or "") + (decision.get("reasoning") or "") + json.dumps(calls))
        usage: dict[str, Any] = {"prompt_tokens": p_tok, "completion_tokens": c_tok, "total_tokens": p_tok + c_tok}
        if decision.get("reasoning"):
            usage["completion_tokens_details"] = {"reasoning_tokens": _est_tokens(decision["reasoning"])}
        model = body.get("model", "fake-model")
        cid = "chatcmpl-" + uuid.uuid4().hex[:12]
        finish = "tool_calls" if calls else "stop"
        created = int(time.time())

        if not body.get("stream"):
            msg: dict[str, Any] = {"role": "assistant", "content": decision.get("text")}
            if decision.get("reasoning"):
                msg["reasoning_content"] = decision["reasoning"]
            if calls:
                msg["tool_calls"] = calls
            choice = {"index": 0, "message": msg, "finish_reason": finish}
            self._json(
                200,
                {
                    "id": cid,
                    "object": "chat.completion",
                    "created": created,
                    "model": model,
                    "choices": [choice],
                    "usage": usage,
                },
            )
            return

        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        delay = float(decision.get("delay") or srv.delay or 0)

        def send(obj: Any) -> None:
            payload = ("data: " + (obj if isinstance(obj, str) else json.dumps(obj)) + "\n\n").encode()
            self.wfile.write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")
            self.wfile.flush()
            if delay:
                time.sleep(delay)

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            return {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
            }

        try:
            send(chunk({"role": "assistant", "content": ""}))
            for piece in _pieces(decision.get("reasoning") or ""):
                if piece:
                    send(chunk({"reasoning_content": piece}))
            for piece in _pieces(decision.get("text") or ""):
                if piece:
                    send(chunk({"content": piece}))
            for i, tc in enumerate(calls):
                fn = tc["function"]
                head = {
                    "index": i,
                    "id": tc["id"],
                    "type": "function",
                    "function": {"name": fn["name"], "arguments": ""},
                }
                send(chunk({"tool_calls": [head]}))
                for part in _pieces(fn["arguments"], 2):
                    if part:
                        send(chunk({"tool_calls": [{"index": i, "function": {"arguments": part}}]}))
            send(chunk({}, finish_reason=finish))
            if (body.get("stream_options") or {}).get("include_usage"):
                # OpenAI sends usage in a final chunk with no choices when asked to.
                send(
                    {
                        "id": cid,
                        "object": "chat.completion.chunk",
                        "created": created,
                        "model": model,
                        "choices": [],
                        "usage": usage,
                    }
                )
            send("[DONE]")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client aborted (a test's abort, or OpenCode shutting down)


class FakeLLM:
    """The fake server in a background thread of the current process."""

    def __init__(
        self,
        rules: list[Rule] | None = None,
        *,
        rules_path: Path | None = None,
        log_path: Path | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        delay: float = 0.0,
        models: tuple[str, ...] = ("fake-model", "fake-small"),
    ) -> None:
        if host not in LOOPBACK:
            raise ValueError("the fake LLM binds loopback only")
        self.brain = Brain(rules, rules_path)
        if rules_path is not None and (rules is not None or not rules_path.exists()):
            write_rules(rules_path, list(DEFAULT_RULES if rules is None else rules))
        self.log_path = log_path
        self._host, self._port, self._delay, self._models = host, port, delay, list(models)
        self._srv: _Server | None = None
        self._thread: threading.Thread | None = None
        # Every request of this process's lifetime, in memory too: a benchmark reading hundreds of
        # turns must not re-parse a log of 40 KB request bodies after each one.
        self._entries: list[dict[str, Any]] = []

    def start(self) -> FakeLLM:
        srv = _Server((self._host, self._port), _Handler)
        srv.brain, srv.log_path, srv.log_lock = self.brain, self.log_path, threading.Lock()
        srv.delay, srv.models, srv.seq, srv.entries = self._delay, self._models, 0, self._entries
        self._srv = srv
        self._thread = threading.Thread(target=srv.serve_forever, name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._srv is not None:
            self._srv.shutdown()
            self._srv.server_close()
            self._srv = None

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._srv is None:
            raise RuntimeError("fake LLM not started")
        return int(self._srv.server_address[1])

    @property
    def url(self) -> str:
        """Base URL for an OpenAI-compatible client (ends in /v1)."""
        return f"http://{self._host}:{self.port}/v1"

    def set_rules(self, rules: list[Rule]) -> None:
        self.brain.set_rules(rules)

    def requests(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Logged entries ({seq, t, path, kind, rule, request, reply}), optionally of one kind."""
        return [e for e in read_log(self.log_path) if kind is None or e.get("kind") == kind] if self.log_path else []

    @property
    def seq(self) -> int:
        """How many requests have arrived so far (the ``seq`` of the latest one)."""
        return len(self._entries)

    def since(self, seq: int, kind: str | None = None) -> list[dict[str, Any]]:
        """Entries after ``seq`` (from ``FakeLLM.seq``), oldest first, as received; no file read."""
        return [e for e in self._entries[seq:] if kind is None or e.get("kind") == kind]


def read_log(path: Path | str) -> Iterator[dict[str, Any]]:
    p = Path(path)
    if not p.exists():
        return iter(())
    return (json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0, help="0 picks a free port (see --port-file)")
    ap.add_argument("--port-file", help="write the chosen port here (atomically) once listening")
    ap.add_argument("--log", help="append every request and decision as JSONL")
    ap.add_argument("--rules", help="JSON rules file, re-read on every request (default: built-in rules)")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds between SSE chunks")
    a = ap.parse_args(argv)
    if a.host not in LOOPBACK:
        print("refusing to bind a non-loopback address", file=sys.stderr)
        return 2
    if a.rules and not Path(a.rules).is_file():
        print(f"no such rules file: {a.rules}", file=sys.stderr)
        return 2
    llm = FakeLLM(
        rules_path=Path(a.rules) if a.rules else None,
        log_path=Path(a.log) if a.log else None,
        host=a.host,
        port=a.port,
        delay=a.delay,
    ).start()
    if a.port_file:
        tmp = a.port_file + ".tmp"
        Path(tmp).write_text(str(llm.port))
        os.replace(tmp, a.port_file)
    print(f"fake-llm listening on {llm.url}", flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    llm.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
