"""`recollect ui --port N` with N taken: one `recollect:` line naming the port and the fix, exit 1."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from .conftest import start_ui


def ui(port: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "recollect.cli", "ui", "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_taken_port_is_one_line_naming_it(tmp_path: Path) -> None:
    proc, url = start_ui(tmp_path)  # positive control: on a free port it serves
    proc.terminate()
    proc.wait(timeout=10)
    assert url.startswith("http://127.0.0.1:")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = ui(port)
    assert out.returncode == 1, out
    assert out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.strip() == (
        f"recollect: cannot listen on 127.0.0.1:{port} (Address already in use); "
        "pick another --port, or 0 for any free one"
    )
