"""Titles are plain text (text/plain.py): a model's markdown marks never reach a listing."""

from __future__ import annotations

import pytest

from recollect.text.plain import TITLE_CHARS, display_title, plain_title


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
