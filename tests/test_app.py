"""One `Recollect` per surface: an MCP call loads the config once and opens the index once."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import recollect.config
from recollect import history
from recollect.app import Recollect
from recollect.config import load_config
from recollect.index import store
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool


@pytest.fixture
def indexed(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    return sample_db


def count_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count every config load and index open, wherever a module imported the function from."""
    counts: Counter[str] = Counter()

    def counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return original(*args, **kwargs)

        return wrapper

    for name, original in (("load_config", recollect.config.load_config), ("connect", store.connect)):
        wrapped = counting(name, original)
        for module in list(sys.modules.values()):
            if module is not None and module.__name__.startswith("recollect") and vars(module).get(name) is original:
                monkeypatch.setattr(module, name, wrapped)
    return counts


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [("history_search", {"query": "readme"}), ("history_sessions", {})],
)
def test_an_mcp_call_loads_the_config_once_and_opens_the_index_once(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, tool: str, arguments: dict[str, Any]
) -> None:
    counts = count_calls(monkeypatch)
    reply = call_tool(tool, arguments, ServerSettings(cwd="/"))
    assert not reply.is_error and "cursor:" in reply.text, reply.text  # the call really searched
    assert counts == Counter(load_config=1, connect=1)


def test_the_counter_sees_each_load_and_open(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Positive control: two library calls without a shared app load and open twice."""
    counts = count_calls(monkeypatch)
    history.search("readme", sync_first=False)
    history.sessions(sync_first=False)
    assert counts == Counter(load_config=2, connect=2)


def test_one_app_serves_several_library_calls(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = count_calls(monkeypatch)
    with Recollect() as app:
        found = history.search("readme", app=app)
        listed = history.sessions(app=app)
        window = history.read(found.hits[0].cursor, app=app)
    assert found.hits and listed and window.messages
    assert counts == Counter(load_config=1, connect=1)


def test_an_mcp_read_loads_the_config_once_and_opens_the_index_once(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cursor = history.search("readme", sync_first=False).hits[0].cursor
    counts = count_calls(monkeypatch)
    reply = call_tool("history_read", {"cursor": cursor}, ServerSettings(cwd="/"))
    assert not reply.is_error and (reply.structured or {}).get("messages"), reply.text  # the call really read
    assert counts == Counter(load_config=1, connect=1)


def test_the_history_calls_beside_search_use_the_callers_app(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = history.search("readme", sync_first=False).hits[0]
    counts = count_calls(monkeypatch)
    with Recollect() as app:
        card = history.session_card(f"{found.source}::{found.session_id}", app=app)
        projects = history.activity(app=app)
        hidden = history.hidden_sessions(app=app)
    assert card is not None and projects and hidden == []
    assert counts == Counter(load_config=1, connect=1)


def ui_get(page: Any, port: int, target: str) -> tuple[int, str]:
    """One GET through the UI's ASGI app (Guard included), as the browser would send it."""
    import asyncio

    path, _, query = target.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", f"127.0.0.1:{port}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", port),
    }
    status: list[int] = []
    body: list[bytes] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])
        elif message["type"] == "http.response.body":
            body.append(message.get("body", b""))

    asyncio.run(page(scope, receive, send))
    return status[0], b"".join(body).decode()


def test_a_ui_request_loads_no_config_and_opens_the_index_once(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page builds its app once at start; each request reads through its own (requests run side by side)."""
    from recollect.ui.pages import make_app

    found = history.search("readme", sync_first=False).hits[0]
    page = make_app("t0ken", 8765)
    counts = count_calls(monkeypatch)
    for target, shown in (
        ("/search?q=readme", "matched: readme"),
        (f"/session?cursor={found.cursor}", found.session_id),
        ("/projects", "sessions per day"),
    ):
        counts.clear()
        status, html = ui_get(page, 8765, f"{target}&token=t0ken" if "?" in target else f"{target}?token=t0ken")
        assert status == 200 and shown in html, (target, html[:500])  # the page really read the index
        assert counts == Counter(connect=1), target


def test_a_plugin_helper_call_loads_no_config_and_opens_the_index_at_most_once(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper loads its config once; a compaction opens the index for that call alone, and
    auto-recall keeps one connection for the process (opened by the first cue, reused by the next)."""
    from recollect.integrations.hooks import HookService

    found = history.sessions(sync_first=False)[0]
    service = HookService()
    try:
        assert service.settings.compaction_recall  # the helper's start: its one config load
        counts = count_calls(monkeypatch)
        compact = service.on_compact(found.session_id, found.directory, "")
        assert compact["context"] and found.title[:20] in compact["context"][0]  # the call really read the card
        assert counts == Counter(connect=1)
        counts.clear()
        service.recall_block("", found.directory, "like last time, the readme")
        assert counts == Counter(connect=1)
        counts.clear()
        service.recall_block("", found.directory, "like last time, the readme")
        assert counts == Counter()
    finally:
        service.close()


def test_each_call_of_a_long_running_app_has_its_own_connection(indexed: Path) -> None:
    """UI requests and helper calls run side by side: each `for_call()` holds its own connection
    (positive control first: within one app, every use shares one)."""
    with Recollect() as process:
        with process.index() as first, process.index(readonly=True) as again:
            assert first is again
        with process.for_call() as one, process.for_call() as other, one.index() as a, other.index() as b:
            assert one.config is process.config and other.config is process.config
            assert a is not b and a is not first
