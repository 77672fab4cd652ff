"""The relevance eval: labelled queries over a fixed corpus, the harness that scores them, and the
embedding pair set and fake embeddings server used by the embedding tests and benchmark.

Run from a recollect checkout: `python -m bench.eval --help` (docs/eval.md). Not part of the wheel.
"""
