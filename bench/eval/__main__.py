"""`python -m bench.eval`: the relevance eval from a recollect checkout (docs/eval.md)."""

from bench.eval.cli import eval_cmd

if __name__ == "__main__":
    eval_cmd(prog_name="python -m bench.eval")
