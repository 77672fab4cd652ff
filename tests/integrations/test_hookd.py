"""The helper process over its real stdin/stdout: hello first, one answer per request, never dies."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest


def start(*argv: str) -> subprocess.Popen[str]:
    """The helper (or `python ARGV`, a script that runs it) over pipes."""
    return subprocess.Popen(
        [sys.executable, *(argv or ("-m", "recollect.integrations.hookd"))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ask(proc: subprocess.Popen[str], request: dict[str, Any] | str) -> dict[str, Any] | None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((request if isinstance(request, str) else json.dumps(request)) + "\n")
    proc.stdin.flush()
    if isinstance(request, str):
        return None
    return json.loads(readline(proc.stdout))


def readline(stream: IO[str]) -> str:
    line = stream.readline()
    assert line, "the helper closed its stdout"
    return line


def test_protocol(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    proc = start()
    try:
        assert proc.stdout is not None
        hello = json.loads(readline(proc.stdout))["hello"]
        assert hello["protocol"] == 1 and hello["timeout_ms"] > 0
        assert hello["log"].startswith(str(isolated_home))

        pong = ask(proc, {"id": 1, "op": "ping"})
        assert pong is not None and pong["id"] == 1 and pong["ok"] is True and pong["ms"] >= 0
    finally:
        proc.kill()
        proc.wait()


def test_answers_errors_and_survives(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    proc = start()
    try:
        assert proc.stdout is not None
        readline(proc.stdout)  # hello
        ask(proc, "this is not json")  # logged and skipped: no answer
        ask(proc, "[1, 2]")
        bad = ask(proc, {"id": 2, "op": "nope"})
        assert bad is not None and bad["ok"] is False and "unknown op" in bad["error"]
        answer = ask(proc, {"id": 3, "op": "message", "session": "s", "directory": str(project), "text": "hello"})
        assert answer is not None and answer["id"] == 3 and answer["ok"] is True
        assert answer["inject"] == "" and answer["recall"] == "" and answer["cue"] is None  # no memory yet
        cue = ask(proc, {"id": 4, "op": "message", "session": "s", "directory": str(project), "text": "like before"})
        assert cue is not None and cue["cue"] == "like before" and cue["recall"] == ""
        compact = ask(proc, {"id": 5, "op": "compact", "session": "s", "directory": str(project)})
        assert compact is not None and compact["ok"] is True and compact["context"] == []
        assert proc.poll() is None
        assert proc.stdin is not None
        proc.stdin.close()  # OpenCode went away
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # built at run time, a shape the redactor knows


def test_log_stderr_mode_writes_the_text_redacted(tmp_path: Path) -> None:
    # What the plugin pipes in when the helper wrote to stderr (hookd --log-stderr LOG).
    log = tmp_path / "log" / "opencode-plugin.log"
    r = subprocess.run(
        [sys.executable, "-m", "recollect.integrations.hookd", "--log-stderr", str(log)],
        input=f"Traceback (most recent call last):\n  config line: token {SECRET}\nValueError: bad\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    text = log.read_text()
    assert "helper stderr: ValueError: bad" in text and "token [REDACTED:github token]" in text  # control
    assert SECRET not in text
    assert log.stat().st_mode & 0o077 == 0


def test_the_running_helper_sends_its_stderr_to_the_log_redacted(tmp_path: Path, isolated_home: Path) -> None:
    go = tmp_path / "go"  # created once the helper said hello: it writes to stderr after that
    proc = start(
        "-c",
        "import os, sys, threading, time, warnings\n"
        "from recollect.integrations import hookd\n"
        "def late():\n"
        f"    while not os.path.exists({str(go)!r}): time.sleep(0.05)\n"
        f"    warnings.warn('leaked {SECRET} in a warning')\n"
        "    sys.stderr.write('plain line on stderr\\n')\n"
        "threading.Thread(target=late, daemon=True).start()\n"
        "sys.exit(hookd.main([]))\n",
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        hello = json.loads(readline(proc.stdout))["hello"]
        go.touch()
        log_path = Path(hello["log"])
        deadline = time.monotonic() + 30
        while "plain line" not in (log_path.read_text() if log_path.exists() else ""):
            assert time.monotonic() < deadline, "the helper's stderr never reached the log"
            time.sleep(0.1)
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        assert proc.stderr is not None
        assert SECRET not in proc.stderr.read()
        log = Path(hello["log"]).read_text()
        assert "stderr: plain line on stderr" in log and "[REDACTED:github token] in a warning" in log, log
        assert SECRET not in log
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_private_key_written_line_by_line_to_stderr_is_redacted_whole(tmp_path: Path) -> None:
    from recollect.integrations.hookd import RedactingStderr

    body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "QyNTUxOQAAACDx" + "Zk9" * 12]
    log = tmp_path / "plugin.log"
    err = RedactingStderr(str(log))
    err.write("before the key\n")  # positive control: an ordinary line reaches the log at once
    assert "before the key" in log.read_text()
    for line in ["-----BEGIN OPENSSH PRIVATE KEY-----", *body, "-----END OPENSSH PRIVATE KEY-----", "after"]:
        err.write(line + "\n")
    err.flush()
    text = log.read_text()
    assert "after" in text and "REDACTED" in text, text
    assert not any(part in text for part in body), text


def _warm_after(
    monkeypatch: Any, close_after: float | None, request_at: float | None, idled: bool = True
) -> tuple[list[float], float]:
    """Run the helper's lull-triggered warm-up against a real Server: when it warmed (s after start)."""
    import io
    import threading

    from recollect.integrations import hookd

    warmed: list[float] = []
    started = time.monotonic()
    monkeypatch.setattr(hookd, "_warm", lambda service: warmed.append(time.monotonic() - started))
    server = hookd.Server(None, io.StringIO())  # type: ignore[arg-type]  # the warm-up never calls the service
    if idled:
        server.idled.set()  # a session went idle at the start
    thread = threading.Thread(target=hookd._warm_when_quiet, args=(None, server, 0.4))
    thread.start()
    if request_at is not None:
        time.sleep(request_at)
        server.last_request = time.monotonic()
    if close_after is not None:
        time.sleep(close_after)
        server.closed.set()
    thread.join(5)
    return warmed, time.monotonic() - started


def test_the_warm_up_waits_for_a_lull_and_never_runs_after_stdin_closed(monkeypatch: Any) -> None:
    warmed, _ = _warm_after(monkeypatch, None, None)
    assert len(warmed) == 1 and warmed[0] >= 0.4  # positive control: a lull of 0.4 s
    warmed, _ = _warm_after(monkeypatch, None, 0.3)
    assert len(warmed) == 1 and warmed[0] >= 0.7  # a request 0.3 s in starts the lull again
    warmed, _ = _warm_after(monkeypatch, 0.1, None)
    assert warmed == []  # stdin closed before the lull ended


def test_before_a_session_went_idle_there_is_no_warm_up(monkeypatch: Any) -> None:
    # The plugin starts the helper while OpenCode boots; `opencode run`'s one message may come many
    # seconds later on a busy machine, and a slow model may think for longer than the lull: neither
    # must find the warm-up's CPU competing with the turn. `opencode run` exits right after its idle.
    warmed, _ = _warm_after(monkeypatch, 1.0, None)
    assert len(warmed) == 1 and warmed[0] >= 0.4  # positive control: idle, then a lull of 0.4 s
    warmed, took = _warm_after(monkeypatch, 1.0, None, idled=False)
    assert warmed == [] and took >= 1.0  # no idle in 1 s, then stdin closed: never warmed


class IdleService:
    """What `Server` asks of the service for `idle`: when each session's idle work ran."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, float]] = []
        self.logged: list[str] = []

    def on_idle(self, session: str, directory: str, server_url: str = "") -> dict[str, Any]:
        self.ran.append((session, time.monotonic()))
        return {"started": ["index"]}

    def log(self, message: str) -> None:
        self.logged.append(message)


def _serve_idles(delay: float, sessions: list[str]) -> tuple[Any, IdleService, list[dict[str, Any]], float]:
    import io

    from recollect.integrations import hookd

    service, out = IdleService(), io.StringIO()
    server = hookd.Server(service, out, idle_delay=delay)  # type: ignore[arg-type]  # duck-typed service
    lines = "".join(json.dumps({"id": i, "op": "idle", "session": s}) + "\n" for i, s in enumerate(sessions))
    started = time.monotonic()
    server.serve(io.StringIO(lines))
    return server, service, [json.loads(line) for line in out.getvalue().splitlines()], started


def test_idle_is_answered_at_once_and_its_work_runs_after_the_delay_once_per_session() -> None:
    server, service, answers, started = _serve_idles(0.4, ["s1", "s1", "s2"])
    assert [a["deferred"] for a in answers] == [True, True, True] and [a["id"] for a in answers] == [0, 1, 2]
    deadline = time.monotonic() + 10
    while len(service.ran) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sorted(s for s, _ in service.ran) == ["s1", "s2"]  # positive control: it ran, the latest per session
    assert all(when - started >= 0.4 for _, when in service.ran)  # not before the delay
    assert service.logged[0].startswith("first request (idle) ") and service.logged[0].endswith(" ms after hello")
    assert service.logged[1:] == ["idle s1: started ['index']", "idle s2: started ['index']"]
    server.idle.close()
    assert len(service.ran) == 2  # nothing left to run at close


def test_idle_work_starts_as_soon_as_stdin_closes() -> None:
    # `opencode run` fires session.idle just before it exits: its sync must start when OpenCode is
    # gone, not a whole delay later (and not while it shuts down).
    server, service, answers, started = _serve_idles(60.0, ["s1"])
    assert answers[0]["deferred"] is True
    time.sleep(0.2)
    assert service.ran == []  # the delay has not passed and stdin is open
    server.idle.close()
    assert [s for s, _ in service.ran] == ["s1"] and service.ran[0][1] - started < 30  # at close, not after 60 s


def _no_extract(tmp_path: Path) -> Path:
    """A project, and a config with auto_extract off (the idle work is then the sync alone)."""
    from recollect.config import resolve_paths

    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    config = resolve_paths().config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[memory]\nauto_extract = false\n")
    return project


@pytest.mark.parametrize("end", ["stdin", "SIGTERM", "SIGHUP", "SIGINT"])
def test_the_real_helper_starts_the_idle_sync_once_opencode_is_gone(
    tmp_path: Path, isolated_home: Path, end: str
) -> None:
    # Closing stdin is how OpenCode leaves (the positive control); a terminal closed, a process group
    # killed or a Ctrl-C sends SIGHUP, SIGTERM or SIGINT within the idle delay, and the pending sync
    # must still start.
    project = _no_extract(tmp_path)
    proc = start()
    try:
        assert proc.stdout is not None and proc.stdin is not None
        hello = json.loads(readline(proc.stdout))["hello"]
        answer = ask(proc, {"id": 1, "op": "idle", "session": "ses_x", "directory": str(project)})
        assert answer is not None and answer["ok"] is True and answer["deferred"] is True
        if end == "stdin":
            proc.stdin.close()  # OpenCode went away
        else:
            proc.send_signal(getattr(signal, end))
        assert proc.wait(timeout=60) == 0
        log = Path(hello["log"]).read_text()
        assert "started index (pid" in log and "idle ses_x: started ['index']" in log, log
        assert f"{'stdin closed' if end == 'stdin' else end}: ending" in log, log
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# The helper with SIGTERM and SIGHUP blocked on every thread but one that only sleeps, so the kernel
# can hand the signal to that thread alone: what it may do to any thread of the real helper (seen
# under load: Python's C handler ran, the main thread stayed blocked in read(2) on stdin, and the
# helper lived on, its Python handler never run, as long as OpenCode kept stdin open).
ANOTHER_THREAD = """
import signal, sys, threading
from recollect.integrations import hookd
started = threading.Event()
def sleeper():
    started.set()
    threading.Event().wait()
threading.Thread(target=sleeper, daemon=True).start()
started.wait()
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP})
sys.exit(hookd.main([]))
"""


def _wait_until_asleep_off_a_lock(pid: int) -> None:
    """Until the main thread of `pid` sleeps in the kernel on something other than a futex (a lock,
    the GIL): waiting for stdin, as the helper's main thread does between requests."""
    task = Path(f"/proc/{pid}/task/{pid}")
    deadline = time.monotonic() + 60
    while True:
        state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
        wchan = (task / "wchan").read_text()
        if state == "S" and wchan not in ("", "0") and "futex" not in wchan:
            return
        assert time.monotonic() < deadline, f"the helper's main thread never waited for stdin ({state} {wchan})"
        time.sleep(0.02)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the helper's threads in /proc (Linux)")
@pytest.mark.parametrize("end", ["stdin", "SIGTERM"])
def test_a_signal_another_thread_takes_still_ends_the_helper(tmp_path: Path, isolated_home: Path, end: str) -> None:
    project = _no_extract(tmp_path)
    proc = start("-c", ANOTHER_THREAD)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        hello = json.loads(readline(proc.stdout))["hello"]
        answer = ask(proc, {"id": 1, "op": "idle", "session": "ses_x", "directory": str(project)})
        assert answer is not None and answer["deferred"] is True
        _wait_until_asleep_off_a_lock(proc.pid)  # on stdin: a signal now can no longer meet a bytecode
        if end == "stdin":
            proc.stdin.close()  # positive control: the wrapper itself ends as the helper does
        else:
            proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        assert "idle ses_x: started ['index']" in Path(hello["log"]).read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# A parent that starts the helper on pipes the test holds, so its stdin stays open when the parent dies.
PARENT = """
import os, subprocess, sys, time
stdin, stdout = int(sys.argv[1]), int(sys.argv[2])
helper = subprocess.Popen([sys.executable, "-m", "recollect.integrations.hookd"], stdin=stdin, stdout=stdout,
                          stderr=subprocess.DEVNULL)
os.close(stdin)
os.close(stdout)
print(helper.pid, flush=True)
time.sleep(600)
"""


def test_the_helper_ends_when_its_parent_dies_with_stdin_still_open(tmp_path: Path, isolated_home: Path) -> None:
    # OpenCode killed outright while something else still holds the write end of the helper's stdin
    # (a child that inherited it): no EOF comes, and the helper must still end and start the sync.
    import os
    import select

    project = _no_extract(tmp_path)
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(in_r), str(out_w)], pass_fds=(in_r, out_w), stdout=subprocess.PIPE, text=True
    )
    os.close(in_r)
    os.close(out_w)
    try:
        with os.fdopen(out_r) as out, os.fdopen(in_w, "w") as stdin:
            assert parent.stdout is not None
            helper = int(readline(parent.stdout))
            hello = json.loads(readline(out))["hello"]
            assert hello["pid"] == helper
            stdin.write(json.dumps({"id": 1, "op": "idle", "session": "ses_x", "directory": str(project)}) + "\n")
            stdin.flush()
            assert json.loads(readline(out))["deferred"] is True  # positive control: it serves while the parent lives
            parent.kill()
            parent.wait()
            # The helper's stdout closes when it exits (EOF here); stdin, held open by this test, never does.
            assert select.select([out], [], [], 60)[0], "the helper outlived its parent"
            assert out.read() == ""
            log = Path(hello["log"]).read_text()
            assert "idle ses_x: started ['index']" in log and "its parent process exited: ending" in log, log
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_bytes_that_are_not_utf8_are_one_unreadable_line(isolated_home: Path) -> None:
    proc = start()
    try:
        assert proc.stdout is not None and proc.stdin is not None
        readline(proc.stdout)  # hello
        pong = ask(proc, {"id": 1, "op": "ping"})
        assert pong is not None and pong["pong"] is True  # positive control
        proc.stdin.buffer.write(b'{"id": 2, "op": "ping", "text": "\xff\xfe"}\n')  # type: ignore[attr-defined]
        proc.stdin.flush()
        pong = json.loads(readline(proc.stdout))  # the bytes replaced, the line read as JSON: not the end
        assert pong["id"] == 2 and pong["pong"] is True
        pong = ask(proc, {"id": 3, "op": "ping"})
        assert pong is not None and pong["id"] == 3
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


class DrainService(IdleService):
    """`IdleService` plus the extractions a `drain` waits for (`bridged.wait`)."""

    def __init__(self) -> None:
        super().__init__()
        self.drained: list[float] = []
        self.bridged = self

    def wait(self, timeout: float, wanted: Any) -> int:
        self.drained.append(timeout)
        return 0


def _serve_drain(extractable: set[str]) -> tuple[Any, DrainService, list[dict[str, Any]], float]:
    import io

    from recollect.integrations import hookd

    service, out = DrainService(), io.StringIO()
    server = hookd.Server(service, out, idle_delay=60.0)  # type: ignore[arg-type]  # duck-typed service
    server.asked = []

    def may_extract(session: str, typed: int) -> bool:
        server.asked.append((session, typed))
        return session in extractable and typed >= 1

    server.may_extract = may_extract  # type: ignore[method-assign]
    requests = [
        {"id": 1, "op": "message", "session": "s1", "text": "hi"},
        {"id": 2, "op": "idle", "session": "s1"},
        {"id": 3, "op": "drain", "timeout_ms": 5000},
    ]
    started = time.monotonic()
    server.serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(line.startswith('{"id": 3') for line in out.getvalue().splitlines()):
        time.sleep(0.05)
    return server, service, [json.loads(line) for line in out.getvalue().splitlines()], started


def test_a_drain_runs_the_idle_work_now_and_answers_once_the_extractions_ended() -> None:
    # `opencode run` disposes its plugins right after its one idle: an extraction through the
    # plugin's bridge must run while OpenCode waits, not once it is gone.
    server, service, answers, started = _serve_drain({"s1"})
    drained = [a for a in answers if a.get("id") == 3]
    assert drained and drained[0]["ok"] is True and drained[0]["running"] == 0
    assert [s for s, _ in service.ran] == ["s1"] and service.ran[0][1] - started < 30  # now, not after 60 s
    (timeout,) = service.drained
    assert 0 < timeout <= 5
    assert ("s1", 1) in server.asked  # its one message counted as the turn the index may not hold yet
    server.idle.close()
    assert len(service.ran) == 1


def test_a_drain_with_nothing_to_extract_leaves_the_idle_work_for_after_opencode_exits() -> None:
    server, service, answers, _ = _serve_drain(set())
    assert [a.get("running") for a in answers if a.get("id") == 3] == [0]  # answered
    assert service.ran == []  # the sync still waits for stdin to close (OpenCode gone)
    server.idle.close()
    assert [s for s, _ in service.ran] == ["s1"]
