"""Ranking variants side by side: each tuning set indexed once, every variant searched in the same process.

A ranking change is measured before and after in the same run, on every tuning set, beside plain BM25.
Running `python -m bench.eval` and the three long-chat commands once per variant indexes each set again
every time (minutes on a loaded machine). Here each set is indexed once and every variant is searched on
it in turn, beside our chunk BM25 (every stage off) and plain FTS5. A variant is a name and the module
constants it sets, restored after it, or the ranking stages it switches off:

    python -m bench.eval.compare --sets main,longchat2 \\
        --variant 'turn:recollect.search.turns.QUESTION_PENALTY=0.2' --variant 'nov:-novelty'

The first variant is `today` (nothing changed); each other one lists every category metric that fell
against it. `RECOLLECT_EMBEDDINGS=off` before the command runs the whole comparison with meaning off.
Sets: `main` (queries.jsonl), `heldout` (heldout.jsonl, the main corpus), `haystack` (the conversations
alone), `pasted` and `openings` (bench.eval.pasted's pasted.jsonl and pasted_openings.jsonl over the real
Claude Code transcripts), `longchat`, `longchat1`, `longchat2`, `longchat3` (the long-chat tuning set and
held-outs 1 to 3). The closed held-out sets are not among them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.eval.evaluate import Corpus, EvalQuery, QueryResult, Ranked, load_queries, run_queries, summarize
from bench.eval.haystack import HAYSTACK_STORES, MULTI_SESSION
from bench.eval.pasted import CASES, TRANSCRIPTS, PastedCorpus
from recollect.search.scope import Filters
from recollect.search.stages import STAGES, disabled

SETS = ("main", "heldout", "haystack", "pasted", "openings", "longchat", "longchat1", "longchat2", "longchat3")
DATA = Path("tests/data/eval")
OPENINGS = "bench/eval/pasted_openings.jsonl"
FIGURES = ("mrr", "recall@5", "turn@5", "all@5")


@dataclass
class Variant:
    """A name, the module constants it sets (`module.NAME` -> value) and the stages it switches off."""

    name: str
    constants: dict[str, Any] = field(default_factory=dict)
    off: list[str] = field(default_factory=list)


def parse_variant(spec: str) -> Variant:
    """`NAME:module.CONST=VALUE,-stage,...`: each value is read as JSON (a number, true, "text"), else as text."""
    name, _, body = spec.partition(":")
    variant = Variant(name.strip())
    for part in filter(None, (p.strip() for p in body.split(","))):
        if part.startswith("-"):
            if part[1:] not in STAGES:
                raise ValueError(f"unknown ranking stage {part[1:]!r}; known: {', '.join(STAGES)}")
            variant.off.append(part[1:])
            continue
        target, sep, raw = part.partition("=")
        if not sep or "." not in target:
            raise ValueError(f"{part!r}: write module.CONSTANT=value or -stage")
        try:
            variant.constants[target] = json.loads(raw)
        except ValueError:
            variant.constants[target] = raw
    return variant


@contextmanager
def applied(variant: Variant) -> Iterator[None]:
    """The variant's constants set and its stages off inside; every constant back as it was after."""
    saved: list[tuple[Any, str, Any]] = []
    try:
        for target, value in variant.constants.items():
            module_name, attr = target.rsplit(".", 1)
            module = importlib.import_module(module_name)
            if not hasattr(module, attr):
                raise ValueError(f"{module_name} has no {attr}")
            saved.append((module, attr, getattr(module, attr)))
            setattr(module, attr, value)
        with disabled(*variant.off):
            yield
    finally:
        for module, attr, value in reversed(saved):
            setattr(module, attr, value)


def fell(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Every metric, overall and per category, lower in `after` than in `before` (`summarize()` dicts)."""
    out = []
    for category in ["overall", *before.get("by_category", {})]:
        b = before["overall"] if category == "overall" else before["by_category"][category]
        a = after["overall"] if category == "overall" else after.get("by_category", {}).get(category, {})
        for metric, value in b.items():
            if isinstance(value, float) and metric in a and a[metric] < value - 1e-9:
                out.append(f"{category} {metric} {value:.4f} -> {a[metric]:.4f}")
    return out


class _Pasted(PastedCorpus):
    """bench.eval.pasted's corpus with the main corpus's name for its plain FTS5 search."""

    def baseline_search(self, query: EvalQuery, filters: Filters) -> list[Ranked]:
        return self.fts5_search(query, filters)


Opener = Callable[[], Corpus | _Pasted]


def _sets(name: str, workdir: Path) -> list[tuple[Opener, list[EvalQuery]]]:
    """The corpora of a set (a long-chat set has one per haystack) with their questions."""
    if name in ("main", "heldout"):
        queries = load_queries(Path("bench/eval/queries.jsonl" if name == "main" else "bench/eval/heldout.jsonl"))
        return [(lambda: Corpus(DATA), queries)]
    if name == "haystack":
        queries = [q for q in load_queries(Path("bench/eval/queries.jsonl")) if q.category == "conversation"]
        return [(lambda: Corpus(DATA, stores=HAYSTACK_STORES), queries + load_queries(Path(MULTI_SESSION)))]
    if name in ("pasted", "openings"):
        cases = Path(CASES if name == "pasted" else OPENINGS)
        return [(lambda: _Pasted(Path(TRANSCRIPTS)), load_queries(cases))]
    from bench.eval import longchat
    from bench.eval.build_corpus import write_conversation_store

    held = int(name.removeprefix("longchat") or 0)
    real = longchat.find_real_data()
    if held:
        module, prefix = longchat.HELD_OUT[held]
        world = importlib.import_module(f"bench.eval.{module}")
        built = longchat.build_haystacks(world.SEED, real=real, world=world, prefix=prefix)
    else:
        built = longchat.build_haystacks(longchat.SEED, real=real)
    out: list[tuple[Opener, list[EvalQuery]]] = []
    for hay in built:
        store = workdir / name / hay.name
        store.mkdir(parents=True)
        write_conversation_store(hay.conversations, store / "opencode.db", store / f"{hay.name}.db.gz")
        stores = {f"{hay.name}.db.gz": f"longchat-{hay.name}"}
        out.append(((lambda s=store, n=stores: Corpus(s, stores=n)), hay.questions))
    return out


def compare(sets: Sequence[str], variants: Sequence[Variant]) -> dict[str, dict[str, Any]]:
    """Per set, per variant (then `chunk_bm25` and `fts5`): its `summarize()` and each question's rank."""
    report: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="recollect-compare-") as tmp:
        for name in sets:
            results: dict[str, list[QueryResult]] = {}
            for opener, queries in _sets(name, Path(tmp)):
                with opener() as corpus:
                    corpus.check_gold(queries)
                    for variant in variants:
                        with applied(variant):
                            results.setdefault(variant.name, []).extend(run_queries(queries, corpus.search))
                    with disabled(*STAGES):
                        results.setdefault("chunk_bm25", []).extend(run_queries(queries, corpus.search))
                    results.setdefault("fts5", []).extend(run_queries(queries, corpus.baseline_search))
            report[name] = {
                key: {"summary": summarize(rs), "ranks": {r.query.id: r.rank for r in rs}}
                for key, rs in results.items()
            }
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.eval.compare", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)} [all]")
    ap.add_argument("--variant", action="append", default=[], help="NAME:module.CONST=VALUE,-stage,... (repeatable)")
    ap.add_argument("--json", type=Path, help="write the full report (per question ranks) here")
    args = ap.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        ap.error(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(SETS)}")
    try:
        variants = [Variant("today"), *(parse_variant(v) for v in args.variant)]
    except ValueError as e:
        ap.error(str(e))
    report = compare(sets, variants)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    for name, rows in report.items():
        print(f"== {name}: " + " / ".join(FIGURES))
        for key, row in rows.items():
            overall = row["summary"]["overall"]
            print(f"  {key:24s} " + " / ".join(f"{overall[k]:.3f}" for k in FIGURES if k in overall))
        for variant in variants[1:]:
            for line in fell(rows["today"]["summary"], rows[variant.name]["summary"]):
                print(f"  {variant.name} fell: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
