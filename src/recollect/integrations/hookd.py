"""The helper process behind the OpenCode plugin: `python -m recollect.integrations.hookd`.

The plugin spawns one per OpenCode process, on first need, and keeps it for the process's life:
starting Python and importing recollect takes a few hundred milliseconds, far more than a message
may wait, so it is paid once. The protocol is newline-delimited JSON over stdin/stdout:

    -> {"id": 1, "op": "message", "session": "ses_…", "directory": "/proj", "text": "…"}
    <- {"id": 1, "ok": true, "inject": "<recollect-memory>…", "recall": "", "cue": null, "ms": 3.1}

Ops: `ping`, `message`, `system`, `compact`, `idle` (see `hooks.HookService`), `drain`. The first line
written is `{"hello": {...}}` once the imports are done: the plugin's signal that answers will
now be fast. `idle` is answered at once (`{"deferred": true}`) and its work (a `recollect index`,
maybe an extraction) starts `IDLE_DELAY` s later, or as soon as stdin closes: `opencode run` fires
its one `session.idle` just before it exits, and a sync started then would compete with OpenCode
for the CPU while it shuts down; once OpenCode is gone the sync costs it nothing.
`drain` (the plugin's `dispose`, as OpenCode exits) is answered once the extractions that reach a
model through this OpenCode (the plugin's bridge) ended, or `timeout_ms` passed: at once when no
session may be extracted, else after running the pending idle work now, not at exit.
Any failure becomes `{"id": n, "ok": false, "error": "…"}` and a line in the log; the loop never
dies on a bad request. It ends when stdin closes (OpenCode went away), on SIGTERM, SIGHUP or SIGINT,
or when its parent process is gone, between two requests, and exits once that idle work started.

Its stderr never reaches a log unredacted: once `main` runs, Python's stderr (warnings, thread
tracebacks) is written to the log through the redactor. What it wrote before that (an interpreter
that cannot import recollect, a broken site package) reaches the plugin, which pipes it through
`python -m recollect.integrations.hookd --log-stderr LOG`: read stdin, redact, append to LOG; when
even that cannot run, the plugin logs only how many characters it was not shown.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from recollect import blas

if TYPE_CHECKING:  # imported in main, after the --log-stderr branch (which needs less)
    from recollect.integrations.hooks import HookService

PROTOCOL = 1
# `idle` work waits this long after the first `session.idle` pending, or until stdin closes (OpenCode exited).
IDLE_DELAY = 2.0


def _str(request: dict[str, Any], key: str) -> str:
    value = request.get(key)
    return value if isinstance(value, str) else ""


def handle(service: HookService, request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    session, directory = _str(request, "session"), _str(request, "directory") or os.getcwd()
    if op == "ping":
        return {"pong": True}
    if op == "message":
        return service.on_message(session, directory, _str(request, "text"), _str(request, "message"))
    if op == "system":
        return service.on_system(directory)
    if op == "compact":
        return service.on_compact(session, directory, _str(request, "text"))
    if op == "idle":
        return service.on_idle(session, directory, _str(request, "server_url"))
    raise ValueError(f"unknown op {op!r}")


class Server:
    def __init__(self, service: HookService, out: TextIO, idle_delay: float = IDLE_DELAY) -> None:
        self.service = service
        self.out = out
        self._write_lock = threading.Lock()
        self.last_request = time.monotonic()  # when the last request line arrived (the warm-up waits for a lull)
        self.requested = threading.Event()  # set by the first request line
        self.idled = threading.Event()  # set by the first `idle` (a session finished a turn)
        self.ready_at = time.monotonic()  # hello is sent right after this
        self.closed = threading.Event()  # set when stdin closed
        self.idle = DeferredIdle(self._run_idle, idle_delay)
        self.typed: dict[str, int] = {}  # `message` requests per session (what a drain may extract)

    def send(self, data: dict[str, Any]) -> None:
        line = json.dumps(data, ensure_ascii=False) + "\n"
        with self._write_lock:
            self.out.write(line)
            self.out.flush()

    def answer(self, request: dict[str, Any]) -> None:
        started = time.perf_counter()
        rid = request.get("id")
        try:
            result = handle(self.service, request)
            reply = {"id": rid, "ok": True, **result}
        except Exception as exc:  # a bad request or a bug must not end the helper
            self.service.log(f"{request.get('op')} failed: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
            reply = {"id": rid, "ok": False, "error": f"{type(exc).__name__}: {exc}"}
        reply["ms"] = round((time.perf_counter() - started) * 1000, 2)
        self.send(reply)

    def _run_idle(self, request: dict[str, Any]) -> None:
        try:
            started = handle(self.service, request).get("started")
            self.service.log(f"idle {_str(request, 'session')}: started {started or 'nothing'}")
        except Exception as exc:  # off every request path: report it, never end the helper
            self.service.log(f"idle failed: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")

    def may_extract(self, session: str, typed: int) -> bool:
        """Whether an idle of `session` may start an extraction (`typed`: its messages seen here)."""
        from recollect.config import load_config
        from recollect.integrations import idlework

        if not self.service.settings.auto_extract:
            return False
        return idlework.may_extract(load_config(self.service.paths), session, typed)

    def _drain(self, request: dict[str, Any]) -> None:
        started = time.monotonic()
        limit = request.get("timeout_ms")
        timeout = min(max(float(limit) / 1000, 0.0), 600.0) if isinstance(limit, int | float) else 60.0
        typed = dict(self.typed)
        try:
            if any(self.may_extract(s, typed.get(s, 0)) for s in self.idle.pending()):
                self.idle.flush(timeout)
            left = max(timeout - (time.monotonic() - started), 0.0)
            running = self.service.bridged.wait(left, lambda s: self.may_extract(s, typed.get(s, 0)))
            reply: dict[str, Any] = {"id": request.get("id"), "ok": True, "running": running}
        except Exception as exc:  # off the request loop: report it, and let OpenCode go
            self.service.log(f"drain failed: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
            reply = {"id": request.get("id"), "ok": False, "error": f"{type(exc).__name__}: {exc}"}
        waited = time.monotonic() - started
        if waited >= 0.5:
            self.service.log(
                f"drain: OpenCode waited {waited:.1f} s for extraction, {reply.get('running')} still running"
            )
        reply["ms"] = round(waited * 1000, 2)
        self.send(reply)

    def serve(self, lines: Iterable[str]) -> None:
        for raw in lines:
            self.last_request = time.monotonic()
            raw = raw.strip()
            if not raw:
                continue
            try:
                request = json.loads(raw)
                if not isinstance(request, dict):
                    raise ValueError("not an object")
            except ValueError as exc:
                # Never the request itself: it may be anything the agent was given, secrets included.
                self.service.log(f"unreadable request ({len(raw)} characters): {type(exc).__name__}")
                continue
            if not self.requested.is_set():
                # How long the helper was ready before OpenCode first needed it: about 0 means the
                # first message waited for the helper's start (bench_opencode_run reads this line).
                waited = (time.monotonic() - self.ready_at) * 1000
                self.service.log(f"first request ({request.get('op')}) {waited:.0f} ms after hello")
            self.requested.set()
            if request.get("op") == "message":
                session = _str(request, "session")
                self.typed[session] = self.typed.get(session, 0) + 1
            if request.get("op") == "drain":
                threading.Thread(target=self._drain, args=(request,), name="recollect-drain", daemon=True).start()
            elif request.get("op") == "idle":
                self.idled.set()
                self.idle.add(request)
                self.send({"id": request.get("id"), "ok": True, "deferred": True, "ms": 0.0})
            else:
                self.answer(request)


class DeferredIdle:
    """`idle` requests, held until `delay` s passed since the first one pending or until `close`
    (stdin closed), then run one after the other on this class's thread, the latest per session.
    The work they start is debounced by `HookService` itself (one sync per interval, one trailing)."""

    def __init__(self, run: Callable[[dict[str, Any]], None], delay: float) -> None:
        self._run = run
        self._delay = delay
        self._pending: dict[str, dict[str, Any]] = {}
        self._due: float | None = None
        self._closed = False
        self._running = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._loop, name="recollect-idle", daemon=True)
        self._thread.start()

    def add(self, request: dict[str, Any]) -> None:
        with self._cond:
            self._pending.pop(_str(request, "session"), None)
            self._pending[_str(request, "session")] = request
            if self._due is None:
                self._due = time.monotonic() + self._delay
            self._cond.notify_all()

    def pending(self) -> list[str]:
        """The sessions whose idle work waits."""
        with self._cond:
            return list(self._pending)

    def flush(self, timeout: float) -> None:
        """Run what is pending now, not when due, and wait (up to `timeout` s) until it ran."""
        with self._cond:
            if self._pending:
                self._due = time.monotonic()
                self._cond.notify_all()
            self._cond.wait_for(lambda: not self._pending and not self._running, timeout)

    def close(self, timeout: float = 30.0) -> None:
        """Run what is pending now (OpenCode went away) and wait for it, up to `timeout` s."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._closed and (self._due is None or time.monotonic() < self._due):
                    self._cond.wait(None if self._due is None else max(self._due - time.monotonic(), 0.0))
                batch, self._pending, self._due = list(self._pending.values()), {}, None
                closed = self._closed
                self._running = bool(batch)
            for request in batch:
                self._run(request)
            with self._cond:
                self._running = False
                self._cond.notify_all()  # a `flush` waits for this
            if closed:
                return


# The warm-up waits for a lull this long with no request, once a session has gone idle. In an
# interactive session that is the person typing their next message; `opencode run` exits right
# after its one idle, so it never pays the warm-up's CPU (~0.5 s: search imports and the embedding
# model) for a next message that will not come, nor does it mid-turn while a slow model thinks
# for more than the lull. A cue in the first message loads what it needs itself.
WARM_UP_QUIET = 3.0


def _warm_when_quiet(service: HookService, server: Server, quiet: float) -> None:
    """`_warm` once a session went idle and no request came for `quiet` s since; never once stdin
    closed (OpenCode went away; the helper may still be starting its idle work, and no message
    will come)."""
    while not server.idled.wait(0.5):
        if server.closed.is_set():
            return
    while True:
        wait = server.last_request + quiet - time.monotonic()
        if wait <= 0:
            break
        if server.closed.wait(wait):
            return
    if not server.closed.is_set():
        _warm(service)


def _warm(service: HookService) -> None:
    """Pay, off the request path, what the first history cue would: imports, and whatever the
    search loads once per process: a search matching nothing, then the card encoder that auto-recall's
    meaning check uses (search by meaning on), with one text embedded."""
    try:
        if service.settings.auto_recall and service.paths.data_dir.exists():
            service.recall_block("", os.getcwd(), "last time: warm", cue="last time")  # a cue, whatever detection reads
            model = service.card_encoder()
            if model is not None:  # its first embedding loads it (~0.26 s CPU)
                model.embed(["warm"])
    except Exception as exc:  # only a warm-up: the real request will report a real problem
        service.log(f"warm-up: {type(exc).__name__}: {exc}")


def parse_args(argv: list[str]) -> str | None:
    """`--scope all|project|directory`: the ceiling `recollect install opencode --scope` wrote into the plugin."""
    from recollect.config import SCOPE_CEILINGS as CEILINGS

    if not argv:
        return None
    if len(argv) == 2 and argv[0] == "--scope" and argv[1] in CEILINGS:
        return argv[1]
    raise SystemExit(
        f"usage: python -m recollect.integrations.hookd [--scope {'|'.join(CEILINGS)} | --log-stderr LOG]; got {argv}"
    )


STDERR_MAX = 64_000  # characters one --log-stderr run reads


def log_stderr(path: str, stream: TextIO) -> int:
    """`--log-stderr LOG`: what the plugin got on the helper's stderr, redacted into the log."""
    from recollect.integrations.hooks import append_redacted

    text = stream.read(STDERR_MAX)
    rest = len(stream.read())
    append_redacted(path, text, "helper stderr")
    if rest:
        append_redacted(path, f"{rest} more characters not kept", "helper stderr")
    return 0


HOLD_CHARS = 64 * 1024  # a key block written line by line is held whole, up to this much


def _inside_key_block(text: str) -> bool:
    """A PEM block begun and not yet ended: its body lines alone do not look like a secret, so they
    wait for the END line and are redacted with it."""
    return text.count("-----BEGIN ") > text.count("-----END ") and len(text) < HOLD_CHARS


class RedactingStderr(io.TextIOBase):
    """sys.stderr for the running helper: whole lines go to the log through the redactor."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._buf = ""
        self._lock = threading.Lock()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self._lock:
            self._buf += text
            head, sep, tail = self._buf.rpartition("\n")
            if sep and not _inside_key_block(head):
                self._buf = tail
                self._emit(head)
        return len(text)

    def flush(self) -> None:
        with self._lock:
            text, self._buf = self._buf, ""
            self._emit(text)

    def _emit(self, text: str) -> None:
        from recollect.integrations.hooks import append_redacted

        with contextlib.suppress(OSError):  # nowhere to log to: stay silent rather than break the helper
            append_redacted(self.path, text, "stderr")


ENDING_SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT")  # a killed process group, a closed terminal, a Ctrl-C
PARENT_CHECK = 2.0  # s between looks at the parent process while stdin is quiet


class Requests:
    """The request lines on stdin (`fd`) until it closes, an ending signal comes, or the parent
    process (`parent`) is gone; `ended` says which. It waits in select() on stdin and on `wakeup`,
    the pipe Python's C-level signal handler writes each signal's number to (signal.set_wakeup_fd),
    never in a bare read(): a Python handler runs only on the main thread between bytecodes, so a
    SIGTERM that came while that thread was on its way into read(2) (seen under load: delivered to
    it, its C handler run, the thread then blocked on stdin) or that the kernel handed to another
    thread left the helper running on an open stdin, its handler never run.
    Bytes that are not UTF-8 are replaced (U+FFFD): the line is read, or logged as unreadable."""

    def __init__(self, fd: int, wakeup: int | None = None, parent: int | None = None) -> None:
        self.fd, self.wakeup, self.parent = fd, wakeup, parent
        self.ended = ""

    def __iter__(self) -> Iterator[str]:
        held: list[bytes] = []  # the line begun and not yet ended
        watched = [self.fd] if self.wakeup is None else [self.fd, self.wakeup]
        while not self.ended:
            try:
                ready = select.select(watched, [], [], PARENT_CHECK)[0]
                chunk = self._read(ready)
            except OSError as exc:  # stdin itself is gone (EBADF, EIO)
                self.ended = f"stdin unreadable ({type(exc).__name__})"
                chunk = b""
            if chunk is None:
                continue
            if not chunk:  # the end; a last line without its newline is still read, once stdin closed
                if held and self.ended == "stdin closed":
                    yield b"".join(held).decode("utf-8", "replace")
                return
            *lines, rest = chunk.split(b"\n")
            if lines:
                lines[0], held = b"".join([*held, lines[0]]), []
            if rest:
                held.append(rest)
            yield from (line.decode("utf-8", "replace") for line in lines)

    def _read(self, ready: list[int]) -> bytes | None:
        """What stdin had (b"" once it closed, `ended` set), or None: nothing yet, or a signal."""
        if self.wakeup is not None and self.wakeup in ready:
            with contextlib.suppress(BlockingIOError):
                numbers = os.read(self.wakeup, 64)
                if numbers:
                    self.ended = _signal_name(numbers[0])
                    return b""
            return None
        if not ready:
            if self.parent is not None and os.getppid() != self.parent:
                self.ended = "its parent process exited"
                return b""
            return None
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:  # a non-blocking stdin said ready and had nothing after all
            return None
        if not chunk:
            self.ended = "stdin closed"
        return chunk


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _ignore(signum: int, frame: object) -> None:
    """A Python handler must exist for the wake-up byte to be written; it does nothing itself."""


def _listen_for_signals() -> int | None:
    """SIGTERM, SIGHUP and SIGINT end the helper as a closed stdin does, through the wake-up pipe
    `Requests` waits on: the loop ends between two requests, and nothing (a lock held, a reply half
    written, a thread joined) is cut short by an exception raised inside it. The read end, or None
    when the handlers cannot be set (not the main thread)."""
    try:
        read, write = os.pipe()
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        for name in ENDING_SIGNALS:
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), _ignore)
    except (OSError, ValueError):
        return None
    return read


def _default_signals() -> None:
    """From here on a signal ends the helper at once (it only waits for extractions to start)."""
    with contextlib.suppress(ValueError):  # not the main thread: nothing was set
        for name in ENDING_SIGNALS:
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        signal.set_wakeup_fd(-1)


def _quiet_stdout() -> None:
    """OpenCode closed our stdout: the exit's flush must not fail on it again."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    # One BLAS thread (unless the user set their own), as `recollect search` and `recollect mcp` hold:
    # a message's matrix products are small, and OpenBLAS's other threads only spin beside OpenCode
    # (15-30 ms of CPU per cue message at 1,000 sessions).
    blas.hold_to_one_thread()
    os.umask(0o077)  # the plugin helper's files (log, index, state) are the user's alone
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "--log-stderr":
        return log_stderr(args[1], sys.stdin)
    from recollect.integrations.hooks import LOG_NAME, HookService
    from recollect.integrations.idlework import EXTRACT_WAIT_SECONDS

    requests = Requests(0, _listen_for_signals(), os.getppid())  # a signal from now on ends it after hello
    service = HookService(scope=parse_args(args))
    sys.stderr = RedactingStderr(str(service.log.path))
    import recollect.memory  # noqa: F401 - needed by the first message; load before saying hello

    server = Server(service, sys.stdout)
    server.send(
        {
            "hello": {
                "protocol": PROTOCOL,
                "pid": os.getpid(),
                "log": str(service.paths.log_dir / LOG_NAME),
                "timeout_ms": service.settings.timeout_ms,
                "scope": service.scope or "all",  # the --scope ceiling it was started with
                "startup_ms": round((time.perf_counter() - started) * 1000, 1),
            }
        }
    )
    threading.Thread(target=_warm_when_quiet, args=(service, server, WARM_UP_QUIET), daemon=True).start()
    try:
        server.serve(requests)
    except BrokenPipeError:
        requests.ended = "stdout closed"
        _quiet_stdout()
    finally:
        service.log(f"{requests.ended or 'an error'}: ending")
        server.closed.set()
        server.idle.close()  # OpenCode is gone: its last idle's sync starts now, costing it nothing
        _default_signals()
        service.finish(EXTRACT_WAIT_SECONDS)
        service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
