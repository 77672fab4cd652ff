"""`recollect search` prints its hits piped without rich (cli/output.markup_printer): the same text rich
prints, compared here over generated titles, paths and snippets full of what markup and rich treat
specially (brackets, backslashes, emoji codes, control characters, newlines, CJK)."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich._emoji_codes import EMOJI
from rich.console import Console
from rich.markup import escape as rich_escape

from recollect.cli import output

PIECES = [
    "[",
    "]",
    "\\",
    "\\\\",
    ":",
    "::",
    "[bold]",
    "[/dim]",
    "[/]",
    "[link=x]",
    "[#fff]",
    "[@click]",
    "[a b]",
    ":smile:",
    ":thumbs_up:",
    ":100:",
    ":1234:",
    ":46:",
    ":smile-emoji:",
    ":smile-text:",
    ":SMILE:",
    ":nope:",
    "13:46:22",
    "a",
    "word",
    " ",
    "  ",
    "中文",
    "デプロイ",
    "é",
    "\n",
    "\r",
    "\x07",
    "\x08",
    "\x0b",
    "\x0c",
    "\x1b[31m",
    "`",
    "'",
    '"',
    "-",
    "/",
    "~",
    "*",
    "#",
    "@",
    "=",
    "(",
    ")",
    "{",
    "}",
    "…",
    "·",
]


def _rich_prints(markup: str, emoji: bool) -> str:
    buffer = io.StringIO()
    Console(file=buffer, no_color=True, highlight=False, soft_wrap=True).print(markup, emoji=emoji)
    return buffer.getvalue()


def _texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))) for _ in range(n)]


def test_escape_is_riches() -> None:
    texts = _texts(1, 3000)
    assert any(rich_escape(t) != t for t in texts)  # positive control: the texts need escaping
    assert [output.escape(t) for t in texts] == [rich_escape(t) for t in texts]


@pytest.mark.parametrize("seed", range(4))
def test_hit_lines_print_as_rich_prints_them(seed: int) -> None:
    titles, paths, snippets = (_texts(seed * 3 + k, 400) for k in range(3))
    compared = 0
    for title, path, snippet in zip(titles, paths, snippets, strict=True):
        lines = [
            (
                f"[bold]1. {output.escape(title or '(untitled)')}[/bold]  "
                f"[dim]{output.escape(path)} · 2026-04-20T13:46:22Z · opencode[/dim]",
                True,
            ),
            (f"   [cyan]assistant/tool_output[/cyan] {output.escape(title)}: {output.escape(snippet)}", False),
            (f"   [dim]read: recollect read opencode::ses_{path}::msg_1[/dim]", True),
        ]
        for markup, emoji in lines:
            plain = output.plain_markup(markup, emoji=emoji)
            if plain is None:  # printed by rich itself: an unescaped tag of the path in the cursor line
                continue
            assert plain + "\n" == _rich_prints(markup, emoji), repr(markup)
            compared += 1
    assert compared > 1000


def test_what_it_cannot_tell_is_left_to_rich() -> None:
    assert output.plain_markup("[bold]x[/bold]\ty") is None  # rich expands tabs by cell width
    assert output.plain_markup("[red]x[/red]") is None  # not a style this printer knows
    assert output.plain_markup("x[/dim]") is None  # rich refuses it
    assert output.plain_markup("[bold]x[/bold] :smile:") == "x " + EMOJI["smile"]  # the table, when needed


def test_no_emoji_name_is_one_or_two_digits() -> None:
    # plain_markup skips loading rich's emoji table for such names (a time's minutes, 13:46:22; a cursor's ::)
    assert "100" in EMOJI  # positive control: digit names exist
    assert not [name for name in EMOJI if re.fullmatch(r"\d{0,2}", name)]
