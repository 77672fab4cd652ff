"""Serving the page: bind 127.0.0.1 first (so the URL with its port and token can be printed before
anything else), then hand the socket to uvicorn."""

from __future__ import annotations

import secrets
import socket
import webbrowser
from collections.abc import Callable
from pathlib import Path

from recollect.config import Config

HOST = "127.0.0.1"  # never another interface: the page shows everything a person told an agent


def bind(port: int = 0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def serve(
    *,
    port: int = 0,
    open_browser: bool = False,
    config: Config | None = None,
    cwd: Path | None = None,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve until interrupted. The first thing announced is the URL, token included."""
    import uvicorn

    from recollect.ui.pages import make_app

    sock = bind(port)
    bound = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    url = f"http://{HOST}:{bound}/search?token={token}"
    announce(url)
    app = make_app(token, bound, config=config, cwd=cwd)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))
    if open_browser:
        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
