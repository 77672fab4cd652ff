"""How many characters a transcript window holds (search/read.py), apart from the reading code: the
CLI's option help names them at start-up, before a one-shot search forks (history/ahead.py)."""

DEFAULT_BUDGET = 24_000
WHOLE_BUDGET = 100_000  # one message whole (`whole=True`): no per-part caps, only this many characters
