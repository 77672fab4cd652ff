"""The conversations alone, like one haystack of a multi-session chat benchmark (issue 16).

Held-out conversation benchmarks index a few dozen chat sessions per question and ask about them; the
main eval asks the same kind of question over 210 sessions, most of them coding histories, whose
statistics (idf, pruning shares, the card arm's ranks) are not a chat haystack's. This run indexes the
28 conversation sessions alone and scores, beside plain FTS5 and the engine with semantic search off:

* the main set's `conversation` questions (one answer each, turn gold);
* `bench/eval/multi_session.jsonl`: questions whose answer is spread over several sessions, scored also
  by `all@5`, the share of them with *every* gold session in the first five.

With `ablate` every ranking stage is switched off in turn (`search/stages.py`), so a stage that costs on
conversational text shows as a column above "all".
"""

from __future__ import annotations

import time
from pathlib import Path

from bench.eval.evaluate import Corpus, EvalError, EvalReport, load_queries, run_corpus

HAYSTACK_STORES = {"opencode-conversations.db.gz": "eval-conversations"}
MULTI_SESSION = "bench/eval/multi_session.jsonl"


def evaluate_haystack(queries_path: Path, multi_path: Path, data_dir: Path, *, ablate: bool = True) -> EvalReport:
    """Index the conversation store alone and score its questions (see the module doc)."""
    started = time.perf_counter()
    queries = [q for q in load_queries(queries_path) if q.category == "conversation"]
    queries += load_queries(multi_path)
    if not queries:
        raise EvalError(f"no conversation questions in {queries_path} or {multi_path}")
    with Corpus(data_dir, stores=HAYSTACK_STORES) as corpus:
        corpus.check_gold(queries)
        return run_corpus(corpus, queries, started=started, lexical=True, ablate=ablate)
