"""What a session becomes in the index (`index/chunks.py`): the echo rules, each after a positive control."""

from __future__ import annotations

from recollect.index.chunks import build
from recollect.model import Message, Part, Session
from recollect.text.markers import RECALL_AGENT, session_origin


def session(*messages: Message, parent: str | None = None, title: str = "t", directory: str = "/p") -> Session:
    return Session(
        id="ses_x",
        source="opencode",
        agent_kind="opencode",
        title=title,
        directory=directory,
        parent_id=parent,
        messages=list(messages),
    )


def user(text: str, agent: str | None = "build", mid: str = "msg_u") -> Message:
    return Message(id=mid, role="user", time=1, agent=agent, parts=[Part(id=mid + "p", kind="text", text=text)])


def tool(
    name: str, tool_input: object, output: str = "", files: list[str] | None = None, mid: str = "msg_t"
) -> Message:
    part = Part(id=mid + "p", kind="tool", tool=name, tool_input=tool_input, tool_output=output, files=files or [])
    return Message(id=mid, role="assistant", time=2, parts=[part])


def answer(text: str, mid: str = "msg_a") -> Message:
    return Message(id=mid, role="assistant", time=3, parts=[Part(id=mid + "p", kind="text", text=text)])


def test_recall_subagent_sessions_are_recognised_by_structure() -> None:
    # Positive control: an ordinary child session (a subagent that ran bash) is ordinary.
    assert session_origin(session(user("find it"), tool("bash", {"command": "ls"}), parent="ses_p")) == ""
    assert session_origin(session(user("deploy?"), answer("yes"))) == ""
    # The agent our installer writes, whatever the title says.
    assert session_origin(session(user("deploy?", agent=RECALL_AGENT), answer("we used pnpm"))) == "recall"
    # A child whose every tool call is ours, under any agent name.
    child = session(user("deploy?", agent="memory-helper"), tool("recollect_history_search", {"query": "x"}))
    assert session_origin(child) == ""  # no parent: not a subagent run
    child.parent_id = "ses_p"
    assert session_origin(child) == "recall"
    assert build(child)[0].origin == "recall"


def test_worker_sessions_by_title_or_directory(isolated_home: object) -> None:
    from recollect.config import resolve_paths

    assert session_origin(session(user("x"), title="[recollect-worker] extract")) == "worker"
    worker_dir = str(resolve_paths().data_dir / "opencode-worker")
    assert session_origin(session(user("x"), title="plain", directory=worker_dir)) == "worker"
    assert session_origin(session(user("x"), title="plain", directory=worker_dir + "-not")) == ""


def test_memory_files_never_enter_inventories() -> None:
    s = session(
        user("check src/app/main.py and the notes"),
        tool("read", {"filePath": "/p/src/app/main.py"}, "def main(): ...", files=["/p/src/app/main.py"], mid="m1"),
        tool(
            "read",
            {"filePath": "/p/.memory/decisions/queue.md"},
            "We use rq, not celery.",
            files=["/p/.memory/decisions/queue.md"],
            mid="m2",
        ),
        tool("bash", {"command": "cat .memory/decisions/queue.md"}, "rq", mid="m3"),
    )
    card, chunks = build(s)
    assert "/p/src/app/main.py" in card.files  # positive control
    assert not any(".memory" in f for f in card.files), card.files
    assert not any(".memory" in i for i in card.identifiers), card.identifiers
    # The memory file's text (read back) is the memory, not history.
    assert not any("celery" in c.text for c in chunks)
    assert any("def main" in c.text for c in chunks)


def test_global_memory_files_are_memory_too(isolated_home: object) -> None:
    from recollect.config import resolve_paths

    path = str(resolve_paths().global_memory / "preferences" / "eza.md")
    card, _ = build(session(user("x"), tool("read", {"filePath": path}, "use eza", files=[path])))
    assert card.files == [] and card.tools == {}


def test_our_tools_and_recall_calls_are_never_indexed() -> None:
    s = session(
        user("what did we decide about the queue?"),
        tool("task", {"subagent_type": "general", "prompt": "grep queue"}, "found queue.py", mid="m1"),
        tool("task", {"subagent_type": RECALL_AGENT, "prompt": "queue decision"}, "We chose rq (ses_old)", mid="m2"),
        tool("recollect_history_search", {"query": "queue"}, "1. ses_old rq", mid="m3"),
    )
    card, chunks = build(s)
    texts = " ".join(c.text for c in chunks)
    assert "found queue.py" in texts and card.tools["task"] == 1  # positive control: another subagent
    assert "We chose rq" not in texts and "ses_old" not in texts
