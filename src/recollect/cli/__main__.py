from recollect.cli import run

run()
