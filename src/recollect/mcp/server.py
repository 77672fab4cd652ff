"""`recollect mcp`: the MCP server over stdio.

Two front ends share everything below the protocol (the tool table, `_call`, the log, the warm-up
and the background refresh): `wire.py` serves the `initialize` handshake era that OpenCode and
today's hosts speak, without importing the MCP SDK (importing it costs over a second of CPU, on
the host's critical path); a client that opens with the 2026 protocol is handed, with what was
read so far, to the SDK's low-level `Server` built here (`build_server`, `_serve`).

The low-level server (not `MCPServer`'s decorated functions) because hosts do not validate
arguments: OpenCode forwards whatever the model wrote, and pydantic's "1 validation error for
history_searchArguments" is no help to a model. Here each tool's JSON schema and its checks come
from one declaration (`args.py`), and every reply is bounded text plus structured content.

What it must never do: write to stdout (the JSON-RPC wire; `wire.Wire` moves the wire to private
descriptors and points fd 1 at stderr while serving, and we log to a file under the data dir), or
die on a request (`registry.call_tool` never raises).
OpenCode runs one copy per project directory and more for `opencode run`, so nothing here
assumes it is alone: the index and memory roots are shared through the library's lease and locks.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, cast

from recollect import __version__, blas
from recollect.config import ensure_private_dir, resolve_paths
from recollect.mcp import history_tools, registry, wire
from recollect.mcp.base import Reply, ServerSettings
from recollect.redact import redact, redact_value

if TYPE_CHECKING:  # the SDK is imported only when a client speaks the 2026 protocol
    import mcp_types as types
    from mcp.server.lowlevel import Server

log = logging.getLogger("recollect.mcp")
LOG_NAME = "mcp.log"
LOG_ROTATE_BYTES = 5_000_000
HEARTBEAT_SECONDS = 2.0  # under any sensible host timeout (OpenCode: a per-server "timeout", else 60 s)


def setup_logging() -> str | None:
    """Log to `<data dir>/log/mcp.log` (owner-only); stderr goes nowhere useful in OpenCode.
    Returns the log path, or None when it cannot be written (the server runs anyway)."""
    try:
        log_dir = ensure_private_dir(resolve_paths().log_dir)
        path = log_dir / LOG_NAME
        if path.exists() and path.stat().st_size > LOG_ROTATE_BYTES:
            os.replace(path, path.with_name(LOG_NAME + ".1"))  # several servers may race here; harmless
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600))
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler, path = logging.NullHandler(), None
    handler.setFormatter(logging.Formatter(f"%(asctime)s {os.getpid()} %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers = [handler]  # the SDK's own warnings go to the same file, never to stdout/stderr
    root.setLevel(logging.WARNING)
    log.setLevel(logging.INFO)
    return str(path) if path else None


def tool_list() -> list[types.Tool]:
    import mcp_types as types

    return [
        types.Tool(
            name=tool.name,
            title=tool.title or None,
            description=tool.description,
            input_schema=tool.signature.schema(),
            annotations=types.ToolAnnotations(
                title=tool.title or None,
                read_only_hint=tool.read_only,
                destructive_hint=False if tool.read_only else tool.name == "memory_forget",
                idempotent_hint=tool.read_only,
                open_world_hint=False,
            ),
        )
        for tool in registry.TOOLS
    ]


# Held while the library is imported or called: two threads importing the same package cycle at
# once can see a half-initialised module, so an import and a call never overlap.
_library = threading.Lock()
_warm_up_started = threading.Event()
_call_waiting = threading.Event()  # a call waits for the library: the warm-up stops at its next step


def start_warm_up() -> None:
    """Once per process, right after the host has listed the tools (the list is already sent): load
    in the background what the first call would otherwise load on the model's wait (docs/mcp.md,
    "Performance")."""
    if not _warm_up_started.is_set():
        _warm_up_started.set()
        threading.Thread(target=_warm_up, name="recollect-warm-up", daemon=True).start()


def _warm_up() -> None:
    """The first call's extra cost, paid ahead in steps (`history.WARM_UP_STEPS`: the imports, the models
    by meaning, then the sync the call would run first and one search). A call that arrives meanwhile
    waits at most for the step under way, then loads the rest itself; a broken config or index is
    reported by the call that meets it."""
    nice = _lower_this_threads_priority()
    started, cpu = time.perf_counter(), time.thread_time()
    done: list[str] = []
    with _library:
        from recollect import history

        steps = history.WARM_UP_STEPS
    for step in steps:
        with _library:
            if _call_waiting.is_set():
                break
            try:
                history.warm_up(step, sync_after=history_tools.INLINE_SYNC_AFTER)
            except Exception:
                log.info("warm-up stopped at %s", step, exc_info=True)
                break
            done.append(step)
    wall, cpu = (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000
    log.info("warm-up %s: %.1f ms (cpu %.1f ms), nice %s", ", ".join(done) or "skipped", wall, cpu, nice)


WARM_UP_NICE = 10  # the warm-up runs on CPU the host leaves idle (its start, its model's requests go first)


def _lower_this_threads_priority() -> int | None:
    """On Linux a thread has its own nice value: the warm-up's ~0.5 s of CPU then yields to the host
    (an `opencode run` starting beside it) instead of sharing the cores with it. Elsewhere, nothing.
    Returns the thread's nice value, or None where it has none of its own."""
    if not sys.platform.startswith("linux"):
        return None
    tid = threading.get_native_id()
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, tid, max(WARM_UP_NICE, os.getpriority(os.PRIO_PROCESS, tid)))
        return os.getpriority(os.PRIO_PROCESS, tid)
    return None


def _call(name: str, arguments: dict[str, Any] | None, settings: ServerSettings) -> tuple[Reply, float]:
    """The reply and the CPU seconds this thread spent on it (logged: on a busy machine wall time
    says little about the server's own cost)."""
    _call_waiting.set()
    with _library:
        cpu = time.thread_time()
        reply = registry.call_tool(_mend(name), _mend(arguments), settings)
        reply.text = _mend(reply.text)
        reply.structured = _mend(reply.structured)
        return reply, time.thread_time() - cpu


def log_call(name: str, arguments: dict[str, Any] | None, reply: Reply, cpu: float, started: float) -> None:
    log.info(
        "%s %s %.1f ms (cpu %.1f ms), %d chars, args %s",
        name,
        "error" if reply.is_error else "ok",
        (time.perf_counter() - started) * 1000,
        cpu * 1000,
        len(reply.text),
        _args_for_log(_mend(arguments)),
    )


def run_and_log(name: str, arguments: dict[str, Any] | None, settings: ServerSettings, started: float) -> Reply:
    """One call for the wire front end: run, then log it as the SDK path does."""
    reply, cpu = _call(name, arguments, settings)
    log_call(name, arguments, reply, cpu, started)
    return reply


def _mend(value: Any) -> Any:
    """`value` with lone surrogates ("\\ud800", valid JSON, not valid UTF-8) replaced by U+FFFD: the
    SDK cannot encode them, and a reply it cannot encode is a call never answered."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, dict):
        return {_mend(k): _mend(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mend(v) for v in value]
    return value


SYNCING_TOOLS = ("history_search", "history_sessions")
IDLE_BEFORE_REFRESH = 1.0  # seconds without a call before the index is refreshed


class Refresher:
    """Brings the index up to date once the server has been idle for a moment after a history call,
    so the model's next call finds it fresh (see history_tools.INLINE_SYNC_AFTER) without waiting
    for a sync, and a burst of calls is not slowed by one running beside it. One refresh at a time
    here; the library's lease keeps it to one writer across every server process."""

    def __init__(self, delay: float = IDLE_BEFORE_REFRESH, refresh: Callable[[], object] | None = None) -> None:
        self.delay = delay
        self.refresh = refresh or (lambda: history_tools.refresh_index(history_tools.BACKGROUND_SYNC_AFTER))
        self._mutex = threading.Lock()
        self._timer: threading.Timer | None = None
        self._owed = False  # a history call ended since the last refresh
        self._running = threading.Lock()

    def call_started(self) -> None:
        with self._mutex:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def call_ended(self, tool: str) -> None:
        with self._mutex:
            self._owed = self._owed or tool in SYNCING_TOOLS
            if not self._owed:
                return
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.delay, self._refresh)
            self._timer.daemon = True
            self._timer.start()

    def settled(self) -> bool:
        """Nothing scheduled and nothing running (tests wait for this)."""
        with self._mutex:
            return self._timer is None and not self._running.locked()

    def _refresh(self) -> None:
        with self._mutex:
            self._timer = None
            if not self._owed or not self._running.acquire(blocking=False):
                return
            self._owed = False
        try:
            self.refresh()
        except Exception:  # the next call syncs inline and reports any real problem
            log.warning("background refresh failed", exc_info=True)
        finally:
            self._running.release()


def _args_for_log(arguments: dict[str, Any] | None) -> str:
    # Redacted value by value before encoding: a quoted password or a nested client_secret is seen as
    # the caller wrote it, not through JSON escapes; the encoded line is checked once more.
    text = redact(json.dumps(redact_value(arguments or {}), ensure_ascii=False, default=str))
    return text if len(text) <= 300 else text[:300] + "…"


def _json_safe(data: dict[str, Any] | None) -> dict[str, Any] | None:
    # Structured content must survive the SDK's serializer whatever a library object carries (paths, dates).
    return None if data is None else json.loads(json.dumps(data, ensure_ascii=False, default=str))


async def _beat(ctx: Any, started: float) -> None:
    """Progress notifications while a call runs (when the client asked for them with a progress
    token, as OpenCode does): OpenCode resets its call timeout on each one, so a first search that
    must index a large store first is not cut off at the host's timeout."""
    import anyio

    while True:
        await anyio.sleep(HEARTBEAT_SECONDS)
        elapsed = time.perf_counter() - started
        try:
            await ctx.session.report_progress(round(elapsed, 1), None, f"still working ({elapsed:.0f} s)")
        except Exception:  # a client that went away must not fail the call itself
            log.debug("progress notification failed", exc_info=True)
            return


def build_server(settings: ServerSettings, refresher: Refresher | None = None, *, warm_up: bool = False) -> Server[Any]:
    """The SDK's server for the same tools (the 2026 protocol, and the SDK's in-process client);
    `warm_up` as `recollect mcp` serves it (`start_warm_up` after the tool list)."""
    import anyio
    import anyio.to_thread
    import mcp_types as types
    from mcp.server.lowlevel import Server

    tools = tool_list()
    refresher = refresher or Refresher()
    lock = anyio.Lock()  # one call at a time: library calls are short, and memory writes stay ordered

    async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        if warm_up:
            start_warm_up()  # a thread: the list is answered at once
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        started = time.perf_counter()
        refresher.call_started()
        async with anyio.create_task_group() as heartbeat:
            heartbeat.start_soon(_beat, ctx, started)
            async with lock:
                reply, cpu = await anyio.to_thread.run_sync(_call, params.name, params.arguments, settings)
            heartbeat.cancel_scope.cancel()
        log_call(params.name, params.arguments, reply, cpu, started)
        refresher.call_ended(params.name)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=reply.text)],
            structured_content=_json_safe(reply.structured),
            is_error=reply.is_error,
        )

    return Server(
        wire.SERVER_NAME,
        version=__version__,
        title=wire.SERVER_TITLE,
        description=wire.SERVER_DESCRIPTION,
        instructions=registry.instructions(settings),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


class _Replay:
    """The SDK's stdin when the 2026 protocol took over: the lines the wire already read, then the rest."""

    def __init__(self, seen: list[bytes], rest: io.TextIOBase) -> None:
        self.seen = [line.decode("utf-8", "replace") for line in seen]
        self.rest = rest

    def readline(self) -> str:
        return self.seen.pop(0) if self.seen else self.rest.readline()


async def _serve(server: Server[Any], stdin: Any = None, stdout: Any = None) -> None:
    from mcp.server.stdio import stdio_server

    from recollect.mcp.stdio import Screened

    screened = None if stdin is None else Screened(stdin)  # every malformed request answered
    async with stdio_server(screened, stdout) as (read_stream, write_stream):  # type: ignore[arg-type]
        if screened is not None:
            screened.attach(write_stream)
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(settings: ServerSettings) -> None:
    """Serve on stdin/stdout until the host closes stdin."""
    # One BLAS thread (unless the user set their own): a call's matrix products are small, and
    # OpenBLAS's second thread only spins beside the host.
    blas.hold_to_one_thread()
    log_path = setup_logging()
    log.info(
        "start v%s cwd=%s budget=%d scope=%s log=%s",
        __version__,
        settings.cwd,
        settings.budget,
        settings.default_scope,
        log_path,
    )
    claimed = wire.Wire()
    refresher = Refresher()
    front = wire.WireServer(
        settings,
        claimed.writer,
        run_call=run_and_log,
        on_listed=start_warm_up,
        on_call_started=refresher.call_started,
        on_call_ended=refresher.call_ended,
        heartbeat_seconds=lambda: HEARTBEAT_SECONDS,
    )
    try:
        seen = front.serve(iter(claimed.reader))
        if seen is not None:
            log.info("the client opened with the 2026 protocol: served by the MCP SDK")
            _serve_sdk(settings, refresher, seen, claimed)
    finally:
        claimed.release()
        log.info("stop")


def _serve_sdk(settings: ServerSettings, refresher: Refresher, seen: list[bytes], claimed: wire.Wire) -> None:
    import anyio

    rest = io.TextIOWrapper(claimed.reader, encoding="utf-8", errors="replace")  # type: ignore[type-var]
    stdin = anyio.wrap_file(cast("IO[str]", _Replay(seen, rest)))
    stdout = anyio.wrap_file(io.TextIOWrapper(claimed.writer, encoding="utf-8"))  # type: ignore[type-var]
    anyio.run(_serve, build_server(settings, refresher, warm_up=True), stdin, stdout)
