"""The SDK wiring in process (the SDK's client connected straight to our low-level server)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp import Client

from recollect.mcp import server as mcp_server
from recollect.mcp.base import Reply, ServerSettings

# A background refresh that fired after a test's isolated environment is gone would read the real one.
NO_REFRESH = mcp_server.Refresher(refresh=lambda: None)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])  # OpenCode's handshake, and the 2026 protocol
async def test_a_long_call_sends_progress_so_the_host_does_not_time_out(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mcp_server, "HEARTBEAT_SECONDS", 0.2)

    def slow_call(name: str, arguments: object, settings: ServerSettings) -> Reply:
        time.sleep(1.2)  # e.g. the first search on a large store indexes it first
        return Reply("done", {"ok": True})

    monkeypatch.setattr(mcp_server.registry, "call_tool", slow_call)
    seen: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, message))

    server = mcp_server.build_server(ServerSettings(cwd=str(tmp_path)), NO_REFRESH)
    async with Client(server, mode=mode) as client:
        result = await client.call_tool("history_search", {"query": "x"}, progress_callback=on_progress)
        quick = await client.call_tool("history_search", {"query": "x"})  # no token: no notifications
    assert result.content[0].text == "done" and result.structured_content == {"ok": True}
    assert not quick.is_error
    assert len(seen) >= 3, seen
    assert [p for p, _ in seen] == sorted(p for p, _ in seen) and "still working" in (seen[0][1] or "")


@pytest.mark.anyio
async def test_tools_are_listed_with_schemas_and_hints(tmp_path: Path) -> None:
    async with Client(mcp_server.build_server(ServerSettings(cwd=str(tmp_path)), NO_REFRESH)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert tools["history_search"].annotations.read_only_hint is True
    assert tools["memory_forget"].annotations.destructive_hint is True
    assert tools["memory_remember"].annotations.read_only_hint is False
    assert tools["history_read"].input_schema["required"] == ["cursor"]


@pytest.mark.anyio
async def test_the_index_is_refreshed_after_a_reply_not_before_it(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the inline window a call searches the index as it is; the refresh that follows the
    reply makes the next call see the store's change (at most one call behind)."""
    from recollect import history
    from recollect.config import load_config
    from recollect.mcp import history_tools
    from tests.mcp.test_self_ingestion import ALPHA_SESSION, plant_tool_part

    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    monkeypatch.setattr(history_tools, "INLINE_SYNC_AFTER", 3600.0)  # never sync inside a call
    monkeypatch.setattr(history_tools, "BACKGROUND_SYNC_AFTER", 0.0)
    plant_tool_part(sample_db, ALPHA_SESSION, "bash", "echo", "freshwordqx", 0)

    refresher = mcp_server.Refresher(delay=0.3)

    async def wait_for_refresh() -> None:
        import anyio

        for _ in range(600):
            await anyio.sleep(0.05)
            if refresher.settled():
                return
        raise AssertionError("the background refresh did not finish")

    server = mcp_server.build_server(ServerSettings(cwd=str(tmp_path)), refresher)
    async with Client(server) as client:
        stale = await client.call_tool("history_search", {"query": "freshwordqx"})
        assert not stale.is_error and stale.structured_content["hits"] == []  # the reply did not wait
        await client.call_tool("memory_inspect", {})  # another call: the refresh still comes after it
        await wait_for_refresh()
        fresh = await client.call_tool("history_search", {"query": "freshwordqx"})
        await wait_for_refresh()  # the one this call scheduled runs here, inside this test's environment
    assert fresh.structured_content["hits"], fresh.content[0].text  # positive: the refresh ran


def test_an_older_index_is_synced_before_the_search(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recollect import history
    from recollect.config import load_config
    from recollect.mcp import history_tools
    from recollect.mcp.registry import call_tool
    from tests.mcp.test_self_ingestion import ALPHA_SESSION, plant_tool_part

    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    plant_tool_part(sample_db, ALPHA_SESSION, "bash", "echo", "inlinewordqx", 0)
    monkeypatch.setattr(history_tools, "INLINE_SYNC_AFTER", 0.0)  # any index counts as old
    reply = call_tool("history_search", {"query": "inlinewordqx"}, ServerSettings(cwd="/"))
    assert reply.structured["hits"], reply.text


def test_one_refresh_after_a_burst_of_calls_and_none_when_nothing_is_owed() -> None:
    refreshes: list[bool] = []
    refresher = mcp_server.Refresher(delay=1.0, refresh=lambda: refreshes.append(True))
    for _ in range(5):  # back-to-back calls: never idle for the delay
        refresher.call_started()
        time.sleep(0.05)
        refresher.call_ended("history_search")
    assert refreshes == []
    deadline = time.monotonic() + 10
    while not refresher.settled() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert refreshes == [True]
    refresher.call_started()
    refresher.call_ended("memory_recall")  # no history call since the refresh: nothing owed
    time.sleep(1.5)
    assert len(refreshes) == 1
