"""Titles are plain text (text/plain.py): a model's markdown marks never reach a listing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recollect.text.plain import TITLE_CHARS, counted, display_title, plain_title


@pytest.mark.parametrize(
    ("title", "plain"),
    [
        (
            "**Router hardening complete: cloud/VPN/telemetry removal**",
            "Router hardening complete: cloud/VPN/telemetry removal",
        ),
        ("Fix `parseHttpResponse` timeout", "Fix parseHttpResponse timeout"),
        ("## Deploy **script** uses *pnpm*", "Deploy script uses pnpm"),
        ("See [the docs](https://example.com/x) first", "See the docs first"),
        ("# 部署 **脚本**", "部署 脚本"),
        ("two\n  lines", "two lines"),
    ],
)
def test_markdown_marks_are_dropped(title: str, plain: str) -> None:
    assert plain_title(title) == plain


@pytest.mark.parametrize(
    "title",
    [
        "Fix __init__ import order",
        "Match src/*.py and *.md",
        "a*b*c overflow",
        "#123 flaky test",
        "snake_case_name",
    ],
)
def test_text_that_only_looks_like_markdown_stays(title: str) -> None:
    assert plain_title("**" + title + "**") == title  # positive control: the marks around it go
    assert plain_title(title) == title


def test_a_cut_title_ends_with_an_ellipsis() -> None:
    from recollect.text.plain import cut_title

    assert cut_title("x" * 80) == "x" * 80  # positive control: what fits is left whole
    assert cut_title("word " * 30) == ("word " * 16).rstrip() + "…" and len(cut_title("y" * 81)) == 80


def test_a_session_is_shown_by_its_stored_title_else_its_first_line_cut() -> None:
    # Positive control: with no stored title the first line stands in, whole when it fits.
    assert display_title("", "why does the deploy fail?") == "why does the deploy fail?"
    assert display_title(None, None) == ""
    long = "fix this: " + "child_copy: cygheap read copy failed " * 4
    shown = display_title("", long)
    assert len(shown) == TITLE_CHARS and shown.endswith("…") and long.startswith(shown[:-1])
    # Negative: a stored title is the agent's own, never replaced by the first line nor cut.
    stored = "Cygwin bash fork error troubleshooting attempt, with a title longer than eighty characters"
    assert display_title(stored, "fix this") == stored


def test_a_count_takes_the_number_of_its_noun() -> None:
    assert counted(1, "message") == "1 message"  # positive control: one is singular
    assert counted(0, "message") == "0 messages" and counted(3, "message") == "3 messages"
    assert counted(2, "memory", "memories") == "2 memories" and counted(1, "memory", "memories") == "1 memory"
    assert counted(1, "session is", "sessions are") == "1 session is"
    assert counted(4, "session is", "sessions are") == "4 sessions are"


SRC = Path(__file__).resolve().parent.parent.parent / "src" / "recollect"
# `session{'s' if n != 1 else ''}`, `"" if n == 1 else "s"`: a plural written by hand beside `counted`.
_HAND_WRITTEN_PLURAL = re.compile(r"""['"]s['"] if |else ['"]s['"]""")


def hand_written_plurals(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)}:{n}"
        for path in sorted([*root.rglob("*.py"), *root.rglob("*.html")])  # the page's templates too
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _HAND_WRITTEN_PLURAL.search(line)
    ]


def test_every_plural_is_counted_not_written_by_hand(tmp_path: Path) -> None:
    # Positive control: both spellings of a hand-written plural are seen.
    (tmp_path / "a.py").write_text(
        "x = f\"{n} session{'s' if n != 1 else ''}\"\ny = f\"{n} file{'' if n == 1 else 's'}\"\n", encoding="utf-8"
    )
    assert hand_written_plurals(tmp_path) == ["a.py:1", "a.py:2"]
    found = hand_written_plurals(SRC)
    assert not found, f"use text.plain.counted (history.counted on a surface): {found}"
