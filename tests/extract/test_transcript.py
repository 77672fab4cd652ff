"""What an extraction model may see: typed text only, numbered, redacted, newest first within a budget."""

from __future__ import annotations

from recollect.extract.transcript import build_transcript, estimate_tokens, is_worker_session
from recollect.model import Message, Part, Session
from recollect.text.markers import WORKER_TITLE_MARKER


def _session(messages: list[Message], title: str = "t") -> Session:
    return Session(id="ses_1", source="opencode", agent_kind="opencode", title=title, messages=messages)


def _msg(i: int, role: str, *parts: Part, summary: bool = False) -> Message:
    return Message(id=f"m{i}", role=role, time=1000 * i, parts=list(parts), summary=summary)


def _text(value: str, **kw: object) -> Part:
    return Part(id=f"p{hash(value) % 10**6}", kind="text", text=value, **kw)  # type: ignore[arg-type]


def test_typed_text_is_kept_and_numbered() -> None:
    s = _session([_msg(1, "user", _text("we deploy with pnpm\n\nnot npm")), _msg(2, "assistant", _text("Noted."))])
    t = build_transcript(s)
    assert [(ln.number, ln.role, ln.text) for ln in t.lines] == [
        (1, "user", "we deploy with pnpm"),
        (2, "user", "not npm"),
        (3, "assistant", "Noted."),
    ]
    assert t.render().splitlines()[0] == "L1 user: we deploy with pnpm"
    assert t.through == 2000


def test_tool_output_reasoning_injected_synthetic_and_summaries_are_never_evidence() -> None:
    # Positive control first: the same word in typed text does reach the transcript.
    s = _session(
        [
            _msg(1, "user", _text("keepme typed line")),
            _msg(
                2,
                "assistant",
                Part(id="t", kind="tool", tool="bash", tool_input={"command": "x"}, tool_output="TOOLOUT secret-ish"),
                Part(id="r", kind="reasoning", text="REASONING thoughts"),
                _text("<recollect-memory>\nINJECTED rules\n</recollect-memory>"),
                _text("SYNTHETIC file expansion", synthetic=True),
            ),
            _msg(3, "assistant", _text("COMPACTED recap"), summary=True),
        ]
    )
    rendered = build_transcript(s).render()
    assert "keepme" in rendered
    for trap in ("TOOLOUT", "REASONING", "INJECTED", "SYNTHETIC", "COMPACTED"):
        assert trap not in rendered


def test_only_turns_after_the_watermark_and_newest_within_budget() -> None:
    msgs = [_msg(i, "user" if i % 2 else "assistant", _text(f"line {i} " + "x" * 200)) for i in range(1, 41)]
    s = _session(msgs)
    after = build_transcript(s, after=30_000)
    assert {ln.message_id for ln in after.lines} == {f"m{i}" for i in range(31, 41)}
    small = build_transcript(s, max_tokens=400)
    assert small.omitted > 0 and small.lines[-1].message_id == "m40"
    assert estimate_tokens(small.render()) <= 400 + 20
    # Numbers stay those of the whole session, so evidence always names the same line.
    assert small.lines[0].number == small.omitted + 1
    assert small.line(small.lines[0].number) == small.lines[0]
    assert small.line(1) is None


def test_the_budget_counts_chinese_as_about_a_token_per_character() -> None:
    assert estimate_tokens("a" * 400) == 100
    assert estimate_tokens("部署脚本用 pnpm") == 5 + 2
    chinese = _session([_msg(i, "user", _text("部署脚本不兼容" * 30)) for i in range(1, 21)])
    kept = build_transcript(chinese, max_tokens=1000).lines
    assert 3 <= len(kept) <= 5  # 210 characters a line: about four fit, not sixteen


def test_secrets_are_redacted_before_a_model_sees_them() -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    s = _session([_msg(1, "user", _text(f"the token is {token}"))])
    assert token not in build_transcript(s).render()


def test_worker_sessions_are_recognised_by_their_title() -> None:
    assert is_worker_session(_session([], title=f"{WORKER_TITLE_MARKER} extract opencode::ses_1"))
    assert not is_worker_session(_session([], title="deploy fixes"))
