"""`python -m recollect`: the same command line as `recollect`."""

from recollect.cli import run

run()
