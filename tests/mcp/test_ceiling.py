"""The MCP tools under a scope ceiling: in process for every tool, then through the SDK's real client
talking to `recollect mcp --scope project` over stdio. Each refusal comes after a positive control."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool
from recollect.memory import open_memory, remember
from recollect.text.markers import OWN_OUTPUT_OMITTED
from tests.scope_stores import ALPHA_WORD, BETA_WORD, SUB_WORD, TwoProjects, build, write_config

FLAG = "'recollect mcp --scope project'"


@pytest.fixture
def two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TwoProjects:
    return build(tmp_path, monkeypatch)


@pytest.fixture
def bounded(two: TwoProjects) -> ServerSettings:
    return ServerSettings(cwd=str(two.alpha), default_scope="project")


def cursors(text: str) -> list[str]:
    return re.findall(r"cursor: (\S+)", text)


def refused(reply: Any, *, names: str = FLAG) -> str:
    assert reply.is_error, reply.text
    assert "ceiling" in reply.text and names in reply.text, reply.text
    assert "Traceback" not in reply.text
    return str(reply.text)


def test_search(two: TwoProjects, bounded: ServerSettings) -> None:
    unbounded = ServerSettings(cwd=str(two.alpha))
    assert two.beta_session in call_tool("history_search", {"query": BETA_WORD}, unbounded).text  # control
    mine = call_tool("history_search", {"query": ALPHA_WORD}, bounded)
    assert not mine.is_error and two.alpha_session in mine.text
    assert mine.structured and mine.structured["coverage"]["scope"] == "project"  # the ceiling is the default
    narrower = call_tool("history_search", {"query": SUB_WORD, "directory": "sub", "scope": "directory"}, bounded)
    assert not narrower.is_error and two.sub_session in narrower.text
    assert call_tool("history_search", {"query": BETA_WORD}, bounded).text.startswith("No hits")

    text = refused(call_tool("history_search", {"query": BETA_WORD, "scope": "all"}, bounded))
    assert "scope 'all' is wider than the scope ceiling 'project'" in text
    assert "'recollect install opencode --scope all'" in text  # the setting that would widen it
    refused(call_tool("history_search", {"query": BETA_WORD, "directory": str(two.beta)}, bounded))
    refused(call_tool("history_search", {"query": BETA_WORD, "session": [two.beta_session]}, bounded))
    refused(call_tool("history_search", {"query": BETA_WORD, "directory": "..", "scope": "directory"}, bounded))


def test_read_by_cursor(two: TwoProjects, bounded: ServerSettings) -> None:
    unbounded = ServerSettings(cwd=str(two.alpha))
    # A cursor copied from an earlier, wider answer (another server, or before the ceiling was set).
    foreign = [c for c in cursors(call_tool("history_search", {"query": BETA_WORD}, unbounded).text) if "::" in c]
    assert foreign and all(two.beta_session in c for c in foreign)
    assert BETA_WORD in call_tool("history_read", {"cursor": foreign[0]}, unbounded).text  # control

    own = cursors(call_tool("history_search", {"query": ALPHA_WORD}, bounded).text)[0]
    read = call_tool("history_read", {"cursor": own}, bounded)
    assert not read.is_error and ALPHA_WORD in read.text
    for cursor in (foreign[0], two.cursor(two.beta_session), two.beta_session):
        text = refused(call_tool("history_read", {"cursor": cursor}, bounded))
        assert BETA_WORD not in text and str(two.beta) not in text
    refused(call_tool("history_read", {"cursor": own, "scope": "all"}, bounded))


def test_read_omits_our_own_earlier_tool_calls(two: TwoProjects, bounded: ServerSettings) -> None:
    for settings in (bounded, ServerSettings(cwd=str(two.alpha))):  # with and without a ceiling
        read = call_tool("history_read", {"cursor": two.cursor(two.alpha_echo), "mode": "head"}, settings)
        assert not read.is_error and "Found it in another project." in read.text  # the session is shown
        assert OWN_OUTPUT_OMITTED in read.text
        assert BETA_WORD not in read.text and str(two.beta) not in read.text


def test_sessions(two: TwoProjects, bounded: ServerSettings) -> None:
    listed = call_tool("history_sessions", {}, bounded)
    assert not listed.is_error and two.alpha_session in listed.text and two.beta_session not in listed.text
    assert two.beta_session in call_tool("history_sessions", {}, ServerSettings(cwd=str(two.alpha))).text
    refused(call_tool("history_sessions", {"scope": "all"}, bounded))
    refused(call_tool("history_sessions", {"directory": str(two.beta)}, bounded))
    # Listing a session's children: inside the ceiling it answers, a foreign parent is refused.
    assert not call_tool("history_sessions", {"parent": two.alpha_session}, bounded).is_error
    refused(call_tool("history_sessions", {"parent": two.beta_session}, bounded))


def test_the_config_ceiling_binds_a_server_started_without_one(two: TwoProjects, isolated_home: Path) -> None:
    settings = ServerSettings(cwd=str(two.alpha))  # `recollect mcp` with the default --scope all
    assert not call_tool("history_search", {"query": BETA_WORD, "scope": "all"}, settings).is_error  # control
    config = write_config(isolated_home, '[scope]\nceiling = "project"\n')
    default = call_tool("history_search", {"query": BETA_WORD}, settings)
    assert not default.is_error and default.text.startswith("No hits")  # the default follows the ceiling
    text = refused(call_tool("history_search", {"query": BETA_WORD, "scope": "all"}, settings), names=str(config))
    assert '[scope] ceiling = "project"' in text
    # A config the server cannot read leaves the ceiling unknown: refuse rather than guess.
    config.write_text("[scope\n", encoding="utf-8")
    broken = call_tool("history_search", {"query": ALPHA_WORD}, settings)
    assert broken.is_error and "config.toml" in broken.text


def test_memory_tools(two: TwoProjects, bounded: ServerSettings) -> None:
    unbounded = ServerSettings(cwd=str(two.alpha))
    remember(open_memory(two.alpha), "Person's global rule: deploys use pnpm.", category="facts", scope="global")
    # Positive controls: an unbounded server may write the global root; a bounded one the project's.
    wide = call_tool("memory_remember", {"body": "Global note from a wide server.", "scope": "global"}, unbounded)
    assert not wide.is_error and "global:" in wide.text
    mine = call_tool("memory_remember", {"body": "Alpha keeps its keys in vault."}, bounded)
    assert not mine.is_error and "project:" in mine.text

    text = refused(call_tool("memory_remember", {"body": "Leak alpha to every project.", "scope": "global"}, bounded))
    assert "a global memory (read in every project)" in text
    assert "Leak alpha" not in call_tool("memory_inspect", {}, unbounded).text  # nothing was written

    # Both roots are read under the ceiling: global memories are the person's own, for every project.
    inspected = call_tool("memory_inspect", {}, bounded)
    assert "global:" in inspected.text and "project:" in inspected.text
    assert "pnpm" in call_tool("memory_recall", {"query": "deploys pnpm"}, bounded).text

    global_id = next(m for m in re.findall(r"(global:\S+)", inspected.text) if "global" in m)
    project_id = re.findall(r"(project:\S+)", inspected.text)[0]
    assert not call_tool("memory_forget", {"id": project_id}, bounded).is_error  # control
    refused(call_tool("memory_forget", {"id": global_id}, bounded))
    assert global_id in call_tool("memory_inspect", {}, unbounded).text  # still there


# --- through the real MCP client, over stdio -----------------------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_refusals_through_the_sdk_client(two: TwoProjects) -> None:
    pytest.importorskip("mcp")
    from mcp import Client, StdioServerParameters

    keys = ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "RECOLLECT_HOME", "OPENCODE_DB")
    env = {k: os.environ[k] for k in keys} | {"RECOLLECT_SOURCES": "opencode", "RECOLLECT_EMBEDDINGS": "off"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "recollect.cli", "mcp", "--scope", "project"], env=env, cwd=two.alpha
    )

    def text(result: Any) -> str:
        return "\n".join(block.text for block in result.content)

    async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
        assert "wider scopes are refused" in (client.instructions or "")  # the model is told up front
        mine = await client.call_tool("history_search", {"query": ALPHA_WORD})
        assert not mine.is_error and two.alpha_session in text(mine)
        wide = await client.call_tool("history_search", {"query": BETA_WORD, "scope": "all"})
        assert wide.is_error and FLAG in text(wide) and BETA_WORD not in text(wide).split("ceiling")[1]

        own = await client.call_tool("history_read", {"cursor": two.cursor(two.alpha_session)})
        assert not own.is_error and ALPHA_WORD in text(own)
        foreign = await client.call_tool("history_read", {"cursor": two.cursor(two.beta_session)})
        assert foreign.is_error and FLAG in text(foreign)

        listed = await client.call_tool("history_sessions", {})
        assert not listed.is_error and two.beta_session not in text(listed)
        all_sessions = await client.call_tool("history_sessions", {"scope": "all"})
        assert all_sessions.is_error and FLAG in text(all_sessions)

        kept = await client.call_tool("memory_remember", {"body": "Alpha rotates keys monthly."})
        assert not kept.is_error
        leaked = await client.call_tool("memory_remember", {"body": "Alpha secret plan.", "scope": "global"})
        assert leaked.is_error and FLAG in text(leaked)


def test_save(two: TwoProjects, bounded: ServerSettings) -> None:
    saved = call_tool("history_save", {"cursor": two.cursor(two.alpha_echo)}, bounded)
    assert not saved.is_error, saved.text  # positive control: a session inside the ceiling
    text = (two.alpha / "recall" / f"{two.alpha_echo}.chatml").read_text()
    assert "Found it in another project." in text and OWN_OUTPUT_OMITTED in text and BETA_WORD not in text
    refused(call_tool("history_save", {"cursor": two.cursor(two.beta_session)}, bounded))
    assert not (two.alpha / "recall" / f"{two.beta_session}.chatml").exists()
