"""Train the learned history-cue detector (`integrations/cuemodel.py`) from the tuning sets, report each set
left out of training in turn, and write the shipped weights.

    .venv/bin/python bench/train_cue_model.py --claude-code tests/data/claude-code [--loso]
        [--fresh SET ...] [--write] [--threshold T ...] [--veto V ...] [--words-only] [--l2 L] [--steps N]
        [--signal S]

Training data (every file is a tuning set; held-out sets, bench/heldout.py, are refused):
- bench/cue_corpus*.json 1 to 7 (both halves): cues are positives, ordinary messages negatives;
- bench/loop_messages.json and held-out 1 to 9: cues and unknown (cue-shaped, about a topic never discussed)
  are positives, ordinary messages negatives;
- bench/cue_ordinary_past.json (ordinary messages that tell the past) and bench/cue_probes.json (the
  eleventh session's probes);
- with `--claude-code DIR`, the person's messages of the Claude Code transcripts under DIR (bench_cues reads
  them the same way), nearly all ordinary requests: negatives.

`--loso`: for each set, train on all the others and measure on it: cues fired (English, Chinese) and ordinary
messages fired, for the grammar alone, the grammar or the model, the model alone, and what `detect_cue` does (the
grammar's cue unless the model is below the veto, else the model at the threshold: "grammar>V|model T"), at each
`--threshold` and `--veto`. The grammar was tuned on every set, so its figures there are in-sample. `--fresh SET
...`: each set as it was when written: the grammar of the commit that added it and the model trained on the sets
written before it, both read by that grammar; what a fresh set showed. `--write` trains on everything and writes
recollect/data/cue_model.npy and cue_model.json with the first threshold and veto (deterministic: the same files
give the same bytes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

try:
    from recollect.integrations import cuemodel
except ImportError:  # an older checkout's src, read by --child: only its grammar is asked for
    cuemodel = None  # type: ignore[assignment]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import heldout
from bench.bench_cues import claude_messages

BENCH = Path(__file__).resolve().parent
CORPORA = [f"cue_corpus{n}.json" for n in ("", "2", "3", "4", "5", "6", "7")]
LOOPS = [
    "loop_messages.json",
    *(f"loop_messages_heldout{n}.json" for n in ("", "2", "3", "4", "5", "6", "7", "8", "9")),
]
OTHERS = ["cue_ordinary_past.json", "cue_probes.json"]
POSITIVE = ("cue", "unknown")
DIM = 1 << 15
L2 = 1e-5  # per example, on the weights (not the bias)
STEPS, RATE = 400, 0.05
VETO = [0.3]  # the grammar's cue stands unless the model's probability is below this
SIGNAL = 0.3  # each grammar signal's feature value (an n-gram's is 1/sqrt(n)): it weighs less, words more
HYPER = {"l2": L2, "steps": STEPS, "signal": SIGNAL}  # as --l2, --steps and --signal set them
THRESHOLD = 0.5


class Example:
    def __init__(self, text: str, label: int, lang: str, source: str) -> None:
        self.text, self.label, self.lang, self.source = text, label, lang, source
        self.grammar, self.signals = False, []
        self.idx: list[int] = []
        self.vals: list[float] = []

    def featurize(self, grammar: bool) -> None:
        self.idx, self.vals = cuemodel.features(self.text, self.signals if grammar else [], DIM, HYPER["signal"])


def load(claude: Path | None) -> dict[str, list[Example]]:
    """Every training example, by the set it comes from (not read by the grammar yet)."""
    sets: dict[str, list[Example]] = {}
    for name in (*CORPORA, *LOOPS, *OTHERS):
        heldout.refuse_held_out(name, "train_cue_model")
        data = json.loads((BENCH / name).read_text(encoding="utf-8"))
        sets[name] = [
            Example(m["text"], int(kind in POSITIVE), m["lang"], name)
            for kind in ("cue", "unknown", "ordinary")
            for m in data.get(kind, [])
        ]
    if claude is not None:
        _, texts = claude_messages(claude)
        sets["claude-code"] = [Example(t, 0, "zh" if cuemodel._HAN.search(t) else "en", "claude-code") for t in texts]
    return sets


def signals_of(cues: Any, text: str) -> tuple[bool, list[str]]:
    """(whether the grammar of module `cues` fires, its signals), as `cues._found` gives them; read through the
    module's parts, so that an older grammar (a checkout's src on PYTHONPATH) is read the same way."""
    signals: list[str] = []
    fired = False
    for _, part in cues._windows(text):
        window = cues._Window(part)
        for patterns, _, kind in cues.KINDS:
            for pattern in patterns:
                for m in pattern.finditer(part):
                    counted = window.counts(m, kind)
                    fired = fired or counted
                    signals.append(f"{'counted' if counted else 'marker'}:{kind}")
        c = window.clauses
        flags = (
            ("question", any(x.question for x in c)),
            ("past", any(x.past for x in c)),
            ("present", any(x.present for x in c)),
            ("context", any(window.context)),
            ("here", window.current),
        )
        signals.extend(name for name, on in flags if on)
    return fired, signals


def read_grammar(sets: dict[str, list[Example]], src: Path | None) -> None:
    """Each example read by the grammar: this checkout's, or the one under `src` (in a child process)."""
    examples = [e for ex in sets.values() for e in ex]
    if src is None:
        from recollect.integrations import cues

        readings = [signals_of(cues, e.text) for e in examples]
    else:
        env = {**os.environ, "PYTHONPATH": str(src)}
        job = json.dumps([e.text for e in examples])
        out = subprocess.run(
            [sys.executable, __file__, "--child"], input=job, capture_output=True, text=True, env=env, check=True
        )
        readings = [(bool(f), list(s)) for f, s in json.loads(out.stdout)]
    for e, (fired, signals) in zip(examples, readings, strict=True):
        e.grammar, e.signals = fired, signals


def child() -> int:
    """Read the texts on stdin with the grammar on PYTHONPATH; print (fired, signals) of each."""
    from recollect.integrations import cues

    print(json.dumps([signals_of(cues, t) for t in json.loads(sys.stdin.read())]))
    return 0


def train(examples: list[Example]) -> np.ndarray:
    """Logistic regression by full-batch Adam over the sparse features, classes weighted equal: (DIM + 1,)
    weights, the bias last. Deterministic (no sampling)."""
    rows = np.concatenate([np.full(len(e.idx), k) for k, e in enumerate(examples)])
    cols = np.concatenate([np.asarray(e.idx, dtype=np.int64) for e in examples])
    vals = np.concatenate([np.asarray(e.vals, dtype=np.float64) for e in examples])
    y = np.array([e.label for e in examples], dtype=np.float64)
    pos = y.sum()
    weight = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * (len(y) - pos))) / len(y)
    w = np.zeros(DIM + 1)
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, int(HYPER["steps"]) + 1):
        z = np.bincount(rows, weights=vals * w[cols], minlength=len(y)) + w[-1]
        r = (1 / (1 + np.exp(-z)) - y) * weight
        g = np.empty_like(w)
        g[:-1] = np.bincount(cols, weights=vals * r[rows], minlength=DIM) + HYPER["l2"] * w[:-1]
        g[-1] = r.sum()
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def scores(w: np.ndarray, examples: list[Example]) -> np.ndarray:
    w16 = w.astype(np.float16).astype(np.float32)  # as shipped
    z = np.array([w16[-1] + float(w16[e.idx] @ np.asarray(e.vals, dtype=np.float32)) for e in examples])
    return 1 / (1 + np.exp(-z))


def row(examples: list[Example], fired: np.ndarray) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for key, keep in (
        ("cue en", lambda e: e.label == 1 and e.lang == "en"),
        ("cue zh", lambda e: e.label == 1 and e.lang == "zh"),
        ("ordinary", lambda e: e.label == 0),
    ):
        picked = [k for k, e in enumerate(examples) if keep(e)]
        if picked:
            out[key] = (int(fired[picked].sum()), len(picked))
    return out


def fmt(r: dict[str, tuple[int, int]]) -> str:
    return "  ".join(f"{k} {a}/{n}" for k, (a, n) in r.items())


def loso(sets: dict[str, list[Example]], thresholds: list[float], vetoes: list[float]) -> None:
    totals: dict[str, dict[str, list[int]]] = {}
    print(f"{'set left out':<32} arm              figures")
    for name, held in sets.items():
        rest = [e for other, ex in sets.items() if other != name for e in ex]
        p = scores(train(rest), held)
        g = np.array([e.grammar for e in held])
        arms = {"grammar": g}
        for t in thresholds:
            arms[f"grammar|model {t}"] = g | (p >= t)
            arms[f"model {t}"] = p >= t
            for v in vetoes:
                arms[f"grammar>{v}|model {t}"] = (g & (p >= v)) | (p >= t)
        for arm, fired in arms.items():
            r = row(held, fired)
            print(f"{name:<32} {arm:<16} {fmt(r)}")
            for k, (a, n) in r.items():
                key = "claude-code" if name == "claude-code" else k
                acc = totals.setdefault(arm, {}).setdefault(key, [0, 0])
                acc[0] += a
                acc[1] += n
    print("\nall sets, each left out in turn:")
    for arm, r in totals.items():
        print(f"  {arm:<18} " + "  ".join(f"{k} {a}/{n} ({100 * a / max(1, n):.1f}%)" for k, (a, n) in r.items()))


def grammar_digest(sets: dict[str, list[Example]]) -> str:
    """A digest of what the grammar read in the committed sets' messages (the features it gives the model): the
    weights are stale when the grammar reads these otherwise (tests/integrations/test_cuemodel checks it)."""
    readings = [(e.grammar, e.signals) for name, ex in sets.items() if name != "claude-code" for e in ex]
    return hashlib.sha256(json.dumps(readings).encode()).hexdigest()


def write(sets: dict[str, list[Example]], threshold: float, veto: float) -> None:
    w = train([e for ex in sets.values() for e in ex])
    data = w.astype(np.float16)
    np.save(cuemodel.WEIGHTS, data)
    meta: dict[str, Any] = {
        "recipe": cuemodel.RECIPE,
        "dim": DIM,
        "threshold": threshold,
        "veto": veto,
        "trained_on": {name: len(ex) for name, ex in sets.items()},
        "steps": HYPER["steps"],
        "l2": HYPER["l2"],
        "signal": HYPER["signal"],
        "sha256": hashlib.sha256(data.tobytes()).hexdigest(),
        "grammar_digest": grammar_digest(sets),
    }
    cuemodel.META.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {cuemodel.WEIGHTS} ({cuemodel.WEIGHTS.stat().st_size} bytes) and {cuemodel.META.name}")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=BENCH.parent, capture_output=True, text=True, check=True).stdout


def added(name: str) -> str:
    """The commit that added the set `name` (a set is committed alone, before anything runs on it)."""
    return _git("log", "--diff-filter=A", "--format=%h", "--", f"bench/{name}").split()[-1]


def fresh(
    sets: dict[str, list[Example]], names: list[str], thresholds: list[float], vetoes: list[float], grammar: bool
) -> None:
    """Each set `names` as it was when it was written: the grammar of the commit that added it (committed alone,
    before anything ran on it), and the model trained on the sets written before it (and Claude Code's
    messages). What a fresh set showed, and would have shown with the model beside the grammar."""
    # the order the sets were written in: how many commits main held when each was added
    order = {
        name: int(_git("rev-list", "--count", added(name))) for name in sets if name in (*CORPORA, *LOOPS, OTHERS[0])
    }
    for name in names:
        sha = added(name)
        older = {k: v for k, v in sets.items() if k == "claude-code" or order.get(k, 1 << 30) < order[name]}
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "archive", sha, "src"], cwd=BENCH.parent, capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            part = {**older, name: sets[name]}
            read_grammar(part, Path(tmp) / "src")
        for e in (e for ex in part.values() for e in ex):
            e.featurize(grammar)
        p = scores(train([e for ex in older.values() for e in ex]), sets[name])
        g = np.array([e.grammar for e in sets[name]])
        print(f"{name} (grammar of {sha}; model trained on {len(older)} older sets)")
        print(f"  {'grammar':<18} {fmt(row(sets[name], g))}")
        for t in thresholds:
            print(f"  {f'grammar|model {t}':<18} {fmt(row(sets[name], g | (p >= t)))}")
            print(f"  {f'model {t}':<18} {fmt(row(sets[name], p >= t))}")
            for v in vetoes:
                print(f"  {f'grammar>{v}|model {t}':<18} {fmt(row(sets[name], (g & (p >= v)) | (p >= t)))}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--claude-code", type=Path, default=None, help="a folder of Claude Code transcripts")
    ap.add_argument("--loso", action="store_true", help="leave each set out of training in turn and measure on it")
    ap.add_argument("--fresh", nargs="*", default=None, help="sets measured as they were when written")
    ap.add_argument("--write", action="store_true", help="train on every set and write the shipped weights")
    ap.add_argument("--words-only", action="store_true", help="the model without the grammar's signals")
    ap.add_argument("--threshold", type=float, nargs="*", default=[THRESHOLD], help="the model's threshold(s)")
    ap.add_argument(
        "--veto", type=float, nargs="*", default=list(VETO), help="the grammar's veto(es): the first is shipped"
    )
    ap.add_argument("--l2", type=float, default=L2, help="the weights' L2 penalty")
    ap.add_argument("--steps", type=int, default=STEPS, help="Adam steps")
    ap.add_argument("--signal", type=float, default=SIGNAL, help="each grammar signal's feature value")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        return child()
    HYPER.update(l2=a.l2, steps=a.steps, signal=a.signal)
    cpu = time.process_time()
    sets = load(a.claude_code)
    if a.fresh is not None:
        fresh(sets, a.fresh, a.threshold, a.veto, not a.words_only)
    if a.loso or a.write:
        read_grammar(sets, None)
        for e in (e for ex in sets.values() for e in ex):
            e.featurize(not a.words_only)
        print(f"{sum(map(len, sets.values()))} examples in {len(sets)} sets ({time.process_time() - cpu:.1f} s CPU)")
    if a.loso:
        loso(sets, a.threshold, a.veto)
    if a.write:
        write(sets, a.threshold[0], a.veto[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
