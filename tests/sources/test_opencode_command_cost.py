"""A command's template is matched against a person's text in time linear in the text: a text that nearly
matches a template with several placeholders costs no more than one that matches (sources/opencode_commands.py)."""

from __future__ import annotations

import time

from recollect.sources.opencode_commands import Template

MANY = Template("check", "Check $1 and $2 and $3 and $4 and $5 and $6 now.")  # a custom command of six arguments
FIX = Template("fix", "Fix issue $1 in $2.")


def cpu(template: Template, text: str) -> tuple[str | None, float]:
    started = time.process_time()
    found = template.arguments(text, " ".join(text.split()))
    return found, time.process_time() - started


def test_a_filled_template_gives_its_arguments() -> None:
    # Positive control: filled in, each template is recognised and gives what the person typed.
    assert cpu(MANY, "Check a and b and c and d and e and f now.")[0] == "a b c d e f"
    assert cpu(FIX, "Fix issue 12 in the parser in sync.py.")[0] == "12 the parser in sync.py"


def test_a_text_that_nearly_matches_is_refused_at_once() -> None:
    # Before: these 101 characters cost 3 s of CPU against six placeholders (each retried at every "and"), 131
    # cost 18 s.
    found, took = cpu(MANY, "Check " + "x and " * 15 + " now!")
    assert found is None and took < 0.5, took
    # A pasted traceback of 71 KB after a command's first words: 6 s before (quadratic in its " in "s).
    trace = "".join(f'  File "app/mod{i}.py", line {i}, in handler\n' for i in range(1_600))
    found, took = cpu(FIX, "Fix issue with this traceback\n" + trace + "KeyError: 'user_id'")
    assert found is None and took < 0.5, took
