"""A probe, not a detector: would the multilingual Universal Sentence Encoder's vector of a message make the
learned history-cue detector (`integrations/cuemodel.py`) generalize better to a fresh message set?

    PYTHONPATH=src:. .venv/bin/python bench/probe_cue_encoder.py --claude-code tests/data/claude-code \
        --model-cache ~/.cache/recollect [--vectors /tmp/cue_encoder_vectors] [--cost 200] [--l2 L] [--no-loso]
        [--fresh SET ...]

The sets are bench/train_cue_model.py's (its loaders, its grammar reading, its trainer): corpora 1 to 7, the loop
messages and held-out 1 to 9, the ordinary past, the probes and Claude Code's messages. Each is left out in turn
(trained on the others), and bench/cue_corpus9.json is the fresh set, trained on all of them. Held-out sets
(bench/heldout.py) are refused. `--fresh SET ...` measures each set as it was written, as train_cue_model's
--fresh does (the grammar of the commit that added it, every model trained on the sets written before it):
there the grammar is fresh too, where leave-one-set-out reads each set with a grammar tuned on it. Arms:

- `current`: the shipped recipe (hashed n-grams + the grammar's signals, `train_cue_model.train`, its signal value
  and penalty) in detect_cue's rule, the grammar's cue unless the model is below the veto (train_cue_model's
  VETO, 0.3), else the model at its THRESHOLD (0.5);
  `shipped`: detect_cue itself (its weights were trained on every set here but corpus 9: in-sample elsewhere);
- `enc`: a logistic regression over the encoder's vector alone (L2-normalised, 512, times sqrt(512));
- `enc+cur`: one logistic regression over the encoder's vector and the current model's features;
- `X rule`: arm X's probability inside detect_cue's rule (the grammar's cue unless X is below the veto, else X >= T).

Every logistic regression is train_cue_model's: full-batch Adam, 400 steps, classes weighted equal, train_cue_model's
penalty (the encoder arms': `--l2`).

The threshold T of each arm, fixed before any figure was seen: the fold's training sets are split into 5 inner
folds (set by set, round-robin in load order), each scored by models trained on the other 4; T is the lowest of
0.05, 0.10 … 0.95 at which the arm's out-of-fold ordinary fire rate over the training sets' ordinary messages
(pooled) is at most the current detector's on the same messages, from the same inner folds. Equal false alarms on
the training data; the left-out set then says how many cues each catches and how many false alarms it makes.
Where no threshold of the grid meets it, T is 0.95 (the grid's top) and the output says so ("T 0.95*"): the
current detector's rate there is its grammar's, tuned on these very sets (in-sample: ~1.3%), and no encoder arm
came near it (this fallback was added when the first run, on corpus 9, showed it). AUC (cues against ordinary
messages, of the probability alone) is threshold-free.

`--l2` sets the encoder arms' penalty (train_cue_model's by default). Corpus 9 was looked at with 1e-2 to 1e-5
(against the twelfth session's model) before a rule for it was set; docs/loop.md ("Cue detection, thirteenth
session: encoder features") gives every penalty's fresh figures (corpus 9, `--fresh`) rather than a pick.

The vectors are embedded once and kept in `--vectors`.npy (keyed by a digest of the texts and the model).
`--cost N` times the encoder on N of Claude Code's messages (real messages a person typed), one message a call
as the plugin would, CPU time (process_time), after the model is loaded.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: a shared machine, small products

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import heldout
from bench import train_cue_model as tcm

FRESH = "cue_corpus9.json"
VETO, THRESHOLD = tcm.VETO[0], tcm.THRESHOLD  # the shipped detector's (0.3, 0.5)
GRID = [round(0.05 * k, 2) for k in range(1, 20)]
INNER = 5
SCALE = math.sqrt(512)
HEAD, TAIL = 600, 300  # what cuemodel reads of a message
HYPER = {"l2": tcm.L2}  # the encoder arms' penalty, as --l2 sets it


def cut(text: str) -> str:
    return text if len(text) <= HEAD + TAIL else text[:HEAD] + "\n" + text[-TAIL:]


def load_fresh() -> list[tcm.Example]:
    heldout.refuse_held_out(FRESH, "probe_cue_encoder")
    data = json.loads((tcm.BENCH / FRESH).read_text(encoding="utf-8"))
    return [
        tcm.Example(m["text"], int(kind in tcm.POSITIVE), m["lang"], FRESH)
        for kind in ("cue", "unknown", "ordinary")
        for m in data.get(kind, [])
    ]


def encoder(cache: Path) -> Any:
    from recollect.embed import muse

    source = muse.locate_source(cache)
    if source is None:
        raise SystemExit(f"{muse.PACKAGE} is not installed: {muse.INSTALL_HINT}")
    model = muse.MuseEmbedder(source, cache_dir=cache)
    cpu = time.process_time()
    model.load()
    print(f"encoder loaded from {cache.name}'s cache in {time.process_time() - cpu:.2f} s CPU")
    return model


def vectors(model: Any, texts: list[str], stem: Path) -> np.ndarray:
    digest = hashlib.sha256(json.dumps([model.model_id, HEAD, TAIL, texts]).encode()).hexdigest()[:16]
    path = stem.with_name(f"{stem.name}-{digest}.npy")
    if path.exists():
        return np.load(path)
    cpu = time.process_time()
    out = np.concatenate([model.embed([cut(t) for t in texts[i : i + 64]]) for i in range(0, len(texts), 64)])
    np.save(path, out.astype(np.float32))
    print(f"embedded {len(texts)} messages in {time.process_time() - cpu:.1f} s CPU -> {path}")
    return out


class Data:
    """The examples of some sets, as arrays: labels, languages, the grammar's cue, sparse features, vectors."""

    def __init__(self, examples: list[tcm.Example], vec: dict[int, np.ndarray]) -> None:
        self.examples = examples
        self.y = np.array([e.label for e in examples], dtype=np.float64)
        self.grammar = np.array([e.grammar for e in examples])
        self.rows = np.concatenate([np.full(len(e.idx), k) for k, e in enumerate(examples)])
        self.cols = np.concatenate([np.asarray(e.idx, dtype=np.int64) for e in examples])
        self.vals = np.concatenate([np.asarray(e.vals, dtype=np.float64) for e in examples])
        self.x = np.stack([vec[id(e)] for e in examples]).astype(np.float64) * SCALE


def fit(d: Data, sparse: bool) -> np.ndarray:
    """train_cue_model.train's logistic regression over the vectors, and the sparse features when `sparse`:
    (DIM + 512 + 1,) weights (the sparse part zero when not used), the bias last."""
    n, dense = len(d.y), d.x.shape[1]
    pos = d.y.sum()
    weight = np.where(d.y == 1, n / (2 * pos), n / (2 * (n - pos))) / n
    w = np.zeros(tcm.DIM + dense + 1)
    m, v = np.zeros_like(w), np.zeros_like(w)
    g = np.zeros_like(w)
    for step in range(1, tcm.STEPS + 1):
        ws, wd = w[: tcm.DIM], w[tcm.DIM : -1]
        z = d.x @ wd + w[-1]
        if sparse:
            z += np.bincount(d.rows, weights=d.vals * ws[d.cols], minlength=n)
        r = (1 / (1 + np.exp(-z)) - d.y) * weight
        if sparse:
            g[: tcm.DIM] = np.bincount(d.cols, weights=d.vals * r[d.rows], minlength=tcm.DIM) + HYPER["l2"] * ws
        g[tcm.DIM : -1] = d.x.T @ r + HYPER["l2"] * wd
        g[-1] = r.sum()
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= tcm.RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def predict(w: np.ndarray, d: Data, sparse: bool) -> np.ndarray:
    z = d.x @ w[tcm.DIM : -1] + w[-1]
    if sparse:
        z = z + np.bincount(d.rows, weights=d.vals * w[: tcm.DIM][d.cols], minlength=len(d.y))
    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


def probabilities(train_sets: list[list[tcm.Example]], test: list[tcm.Example], vec: dict[int, np.ndarray]):  # type: ignore[no-untyped-def]
    """{model: probabilities of `test`} for the current recipe, enc and enc+cur trained on `train_sets`."""
    train = Data([e for ex in train_sets for e in ex], vec)
    held = Data(test, vec)
    return {
        "current": tcm.scores(tcm.train(train.examples), test),
        "enc": predict(fit(train, False), held, False),
        "enc+cur": predict(fit(train, True), held, True),
    }


def decisions(p: dict[str, np.ndarray], grammar: np.ndarray, t: dict[str, float]) -> dict[str, np.ndarray]:
    """What each arm fires on, at thresholds `t` (arms not in `t` take THRESHOLD)."""
    out = {"current": (grammar & (p["current"] >= VETO)) | (p["current"] >= THRESHOLD)}
    for name in ("enc", "enc+cur"):
        out[name] = p[name] >= t.get(name, THRESHOLD)
        out[f"{name} rule"] = (grammar & (p[name] >= VETO)) | (p[name] >= t.get(f"{name} rule", THRESHOLD))
    return out


def thresholds(train_sets: list[list[tcm.Example]], vec: dict[int, np.ndarray]) -> dict[str, tuple[float, bool]]:
    """Each arm's threshold by the rule (the module's docstring), from the training sets alone, and whether it
    met the current detector's false alarms there."""
    folds = [[s for k, s in enumerate(train_sets) if k % INNER == f] for f in range(INNER)]
    parts: list[tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]] = []
    for f, held in enumerate(folds):
        test = [e for ex in held for e in ex]
        rest = [s for g, fold in enumerate(folds) if g != f for s in fold]
        p = probabilities(rest, test, vec)
        parts.append((p, np.array([e.grammar for e in test]), np.array([e.label for e in test])))
    ordinary = np.concatenate([y == 0 for _, _, y in parts])
    grammar = np.concatenate([g for _, g, _ in parts])
    p = {k: np.concatenate([q[k] for q, _, _ in parts]) for k in parts[0][0]}
    budget = decisions(p, grammar, {})["current"][ordinary].mean()
    out: dict[str, tuple[float, bool]] = {}
    for arm in ("enc", "enc+cur", "enc rule", "enc+cur rule"):
        ok = [t for t in GRID if decisions(p, grammar, {arm: t})[arm][ordinary].mean() <= budget]
        out[arm] = (ok[0], True) if ok else (GRID[-1], False)
    return out


def auc(p: np.ndarray, y: np.ndarray) -> float:
    """The chance a cue scores above an ordinary message (ties half)."""
    pos, neg = p[y == 1], p[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    allp = np.concatenate([pos, neg])[order]
    ranks[order] = np.arange(1, len(order) + 1)
    for v in np.unique(allp):  # ties: mean rank
        tie = np.concatenate([pos, neg]) == v
        ranks[tie] = ranks[tie].mean()
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def row(examples: list[tcm.Example], fired: np.ndarray) -> dict[str, tuple[int, int]]:
    """Cues and ordinary messages fired, by language."""
    out: dict[str, tuple[int, int]] = {}
    for label, kind in ((1, "cue"), (0, "ordinary")):
        for lang in ("en", "zh"):
            picked = [k for k, e in enumerate(examples) if e.label == label and e.lang == lang]
            if picked:
                out[f"{kind} {lang}"] = (int(fired[picked].sum()), len(picked))
    return out


ARMS = ["shipped", "current", "enc", "enc rule", "enc+cur", "enc+cur rule"]


def measure(
    name: str, train_sets: list[list[tcm.Example]], test: list[tcm.Example], vec: dict[int, np.ndarray]
) -> tuple[dict[str, dict[str, tuple[int, int]]], dict[str, float], dict[str, np.ndarray]]:
    chosen = thresholds(train_sets, vec)
    t = {k: v for k, (v, _) in chosen.items()}
    p = probabilities(train_sets, test, vec)
    grammar = np.array([e.grammar for e in test])
    fired = decisions(p, grammar, t)
    fired["shipped"] = np.array([e.shipped for e in test])  # type: ignore[attr-defined]
    rows = {arm: row(test, fired[arm]) for arm in ARMS}
    print(f"{name}  T: " + "  ".join(f"{k} {v:.2f}{'' if met else '*'}" for k, (v, met) in chosen.items()), flush=True)
    for arm in ARMS:
        print(f"  {arm:<14} {tcm.fmt(rows[arm])}")
    if name == FRESH:  # where each arm parts from the shipped detector
        y, ship = np.array([e.label for e in test]) == 1, fired["shipped"]
        for arm in ARMS[1:]:
            f = fired[arm]
            print(
                f"  {arm:<14} vs shipped: cues +{(f & ~ship & y).sum()} -{(~f & ship & y).sum()}, "
                f"ordinary +{(f & ~ship & ~y).sum()} -{(~f & ship & ~y).sum()}"
            )
    return rows, t, p


def as_written(sets: dict[str, list[tcm.Example]], names: list[str], vec: dict[int, np.ndarray]) -> None:
    """train_cue_model's --fresh, for every arm: each set `names` read by the grammar of the commit that added it,
    the models trained on the sets written before it (and Claude Code's messages), their features read by that
    grammar. The grammar is then fresh too (in leave-one-set-out it was tuned on the set)."""
    import subprocess
    import tempfile

    order = {
        n: int(tcm._git("rev-list", "--count", tcm.added(n))) for n in sets if n not in ("claude-code", *tcm.OTHERS[1:])
    }
    totals: dict[str, dict[str, list[int]]] = {}
    for name in names:
        sha = tcm.added(name)
        older = {k: v for k, v in sets.items() if k == "claude-code" or order.get(k, 1 << 30) < order[name]}
        part = {**older, name: sets[name]}
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(
                ["git", "archive", sha, "src"], cwd=tcm.BENCH.parent, capture_output=True, check=True
            )
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            tcm.read_grammar(part, Path(tmp) / "src")
        for e in (e for ex in part.values() for e in ex):
            e.featurize(True)
        rows, _, _ = measure(
            f"{name} (grammar of {sha}, {len(older)} older sets)", list(older.values()), sets[name], vec
        )
        for arm, r in rows.items():
            for k, (h, n) in r.items():
                acc = totals.setdefault(arm, {}).setdefault(k, [0, 0])
                acc[0] += h
                acc[1] += n
    print(f"\n{len(names)} sets as written (shipped: today's detector, in-sample):")
    for arm, tot in totals.items():
        print(f"  {arm:<14} " + "  ".join(f"{k} {h}/{n} ({100 * h / max(1, n):.1f}%)" for k, (h, n) in tot.items()))


def cost(model: Any, texts: list[str], n: int) -> None:
    from recollect.integrations.cues import detect_cue

    picked = texts[:n]
    lengths = np.array([len(cut(t)) for t in picked])
    model.embed([picked[0]])  # warm
    enc, det = [], []
    for t in picked:
        c = time.process_time()
        model.embed([cut(t)])
        enc.append(time.process_time() - c)
        c = time.process_time()
        detect_cue(t)
        det.append(time.process_time() - c)
    ms = 1000 * np.array(enc)
    dm = 1000 * np.array(det)
    print(
        f"\ncost over {len(picked)} Claude Code messages (chars embedded p50 {np.median(lengths):.0f}, "
        f"p95 {np.percentile(lengths, 95):.0f}, max {lengths.max()}): encoder CPU p50 {np.median(ms):.1f} ms, "
        f"p95 {np.percentile(ms, 95):.1f} ms, max {ms.max():.1f} ms; detect_cue p50 {np.median(dm):.2f} ms, "
        f"p95 {np.percentile(dm, 95):.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--claude-code", type=Path, default=None, help="a folder of Claude Code transcripts")
    ap.add_argument("--model-cache", type=Path, required=True, help="the encoder's cache, e.g. ~/.cache/recollect")
    ap.add_argument("--vectors", type=Path, default=Path("/tmp/cue_encoder_vectors"), help="the vectors' .npy stem")
    ap.add_argument("--cost", type=int, default=200, help="messages timed (0: none)")
    ap.add_argument("--l2", type=float, default=tcm.L2, help="the encoder arms' L2 penalty (a sensitivity check)")
    ap.add_argument(
        "--fresh", nargs="*", default=[], help="sets measured as they were when written (as --fresh of train_cue_model)"
    )
    ap.add_argument("--no-loso", action="store_true", help="no leave-one-set-out (corpus 9, and --fresh sets)")
    a = ap.parse_args(argv)
    HYPER["l2"] = a.l2
    from recollect.integrations.cues import detect_cue

    cpu = time.process_time()
    sets = tcm.load(a.claude_code)
    fresh = load_fresh()
    everything = {**sets, FRESH: fresh}
    tcm.read_grammar(everything, None)
    examples = [e for ex in everything.values() for e in ex]
    for e in examples:
        e.featurize(True)
        e.shipped = detect_cue(e.text) is not None  # type: ignore[attr-defined]
    model = encoder(a.model_cache.expanduser())
    vec = dict(zip(map(id, examples), vectors(model, [e.text for e in examples], a.vectors), strict=True))
    print(f"{len(examples)} examples in {len(everything)} sets ({time.process_time() - cpu:.1f} s CPU)", flush=True)
    if a.fresh:
        as_written({**sets, FRESH: fresh}, a.fresh, vec)
        tcm.read_grammar(everything, None)  # today's grammar again
        for e in examples:
            e.featurize(True)

    if not a.no_loso:
        totals: dict[str, dict[str, list[int]]] = {}
        pooled: dict[str, list[np.ndarray]] = {}
        labels: list[np.ndarray] = []
        for name, held in sets.items():
            rows, _, p = measure(name, [ex for k, ex in sets.items() if k != name], held, vec)
            for arm, r in rows.items():
                for k, (hit, n) in r.items():
                    acc = totals.setdefault(arm, {}).setdefault("claude-code" if name == "claude-code" else k, [0, 0])
                    acc[0] += hit
                    acc[1] += n
            for k, q in p.items():
                pooled.setdefault(k, []).append(q)
            labels.append(np.array([e.label for e in held]))
        y = np.concatenate(labels)
        print("\nall sets, each left out in turn (shipped: in-sample):")
        for arm, tot in totals.items():
            cues = [hn for k, hn in tot.items() if k.startswith("cue")]
            ordinary = [hn for k, hn in tot.items() if not k.startswith("cue")]
            j = sum(h for h, _ in cues) / sum(n for _, n in cues) - sum(h for h, _ in ordinary) / sum(
                n for _, n in ordinary
            )
            print(
                f"  {arm:<14} "
                + "  ".join(f"{k} {h}/{n} ({100 * h / max(1, n):.1f}%)" for k, (h, n) in tot.items())
                + f"  cue rate - ordinary rate {j:.3f}"
            )
        print("  AUC, pooled: " + "  ".join(f"{k} {auc(np.concatenate(q), y):.3f}" for k, q in pooled.items()))

    print(f"\n{FRESH}, fresh: trained on the {len(sets)} sets above")
    _, _, p = measure(FRESH, list(sets.values()), fresh, vec)
    y = np.array([e.label for e in fresh])
    print("  AUC: " + "  ".join(f"{k} {auc(q, y):.3f}" for k, q in p.items()))
    for lang in ("en", "zh"):
        keep = np.array([e.lang == lang for e in fresh])
        print(f"  AUC {lang}: " + "  ".join(f"{k} {auc(q[keep], y[keep]):.3f}" for k, q in p.items()))
    if a.cost and a.claude_code is not None:
        cost(model, [e.text for e in sets["claude-code"]], a.cost)
    print(f"\n{time.process_time() - cpu:.0f} s CPU in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
