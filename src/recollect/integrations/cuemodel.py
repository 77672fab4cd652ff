"""The learned history-cue detector beside the grammar (`cues.py`): a logistic regression over hashed words
and character n-grams of a message and the grammar's own signals (which markers it found, which of them
counted, the mood, tense and anchors of the clauses). The grammar is written rule by rule from the corpora;
it overfits them, and a fresh set shows forms it never met. The model reads what the grammar reads and the
words around it, and says how likely the message asks about earlier work.

`cues.detect_cue` asks it of every message, once the grammar has read it (`decide`): a cue the grammar finds
stands unless the model finds the message likely ordinary (its probability below the shipped veto); where the
grammar finds none, the model's probability must reach the shipped threshold. Each grammar signal is a feature
of value 0.3 (the shipped `signal`), so the words weigh beside it: in training the grammar is right on nearly
every message (it was written from those sets), and at 1.0 the model learnt to trust it as far as a fresh set
does not bear out. Where the model and the grammar disagree, the model was right more often on sets it had not
seen (each set as it was when written, the grammar of then, the model trained on the sets before it:
docs/loop.md, "Cue detection, twelfth session" and "thirteenth session"). The weights are
`recollect/data/cue_model.npy` (float16, one per hashed feature, the bias last) and `cue_model.json` (the
dimension, the threshold, the veto, the signal value, the recipe, a digest of what the grammar read in
training); `bench/train_cue_model.py` rebuilds both from the tuning sets.

A message is read in its first HEAD_CHARS and last TAIL_CHARS characters only: a pasted log costs what a short
message does. Features are hashed with CRC-32 (Python's own string hash changes from run to run).
"""

from __future__ import annotations

import functools
import json
import math
import re
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data"
WEIGHTS, META = DATA / "cue_model.npy", DATA / "cue_model.json"
RECIPE = "cue-logreg-v2"
HEAD_CHARS, TAIL_CHARS = 600, 300
# a Latin word (with its apostrophe: "didn't"), one Han character, a question mark
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[\u4e00-\u9fff]|[?？]")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _read(text: str) -> str:
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return text.lower()
    return (text[:HEAD_CHARS] + "\n" + text[-TAIL_CHARS:]).lower()


def grams(text: str) -> set[str]:
    """The message's words, word pairs and triples (a Han character is a word), and the character 4-grams of
    its Latin words (a misspelt word still shares most of them)."""
    toks = ["^", *_TOKEN.findall(_read(text)), "$"]
    out: set[str] = set()
    for i, tok in enumerate(toks):
        out.add(tok)
        if i:
            out.add(f"{toks[i - 1]} {tok}")
        if i > 1:
            out.add(f"{toks[i - 2]} {toks[i - 1]} {tok}")
        if len(tok) > 3 and not _HAN.match(tok):
            padded = f"<{tok}>"
            out.update(f"#{padded[j : j + 4]}" for j in range(len(padded) - 3))
    return out


def features(text: str, signals: Iterable[str], dim: int, signal: float) -> tuple[list[int], list[float]]:
    """(indices, values) of the message's features: its n-grams, each 1/sqrt(n), and each grammar signal
    `signal` (the shipped model's, in its meta file)."""
    words = grams(text)
    scale = 1.0 / math.sqrt(max(1, len(words)))
    index: dict[int, float] = {}
    for g in words:
        h = zlib.crc32(g.encode()) % dim
        index[h] = index.get(h, 0.0) + scale
    for s in set(signals):
        h = zlib.crc32(f"grammar:{s}".encode()) % dim
        index[h] = index.get(h, 0.0) + signal
    return list(index), list(index.values())


@functools.cache
def _model() -> tuple[Any, float, float, int, float] | None:
    """(weights, threshold, veto, dim, the grammar signals' feature value) of the shipped model, read once; None
    when its files cannot be read."""
    import numpy as np

    try:
        meta = json.loads(META.read_text(encoding="utf-8"))
        weights = np.load(WEIGHTS).astype(np.float32)
    except (OSError, ValueError):
        return None
    if meta.get("recipe") != RECIPE or weights.shape != (meta["dim"] + 1,):
        return None
    return weights, float(meta["threshold"]), float(meta["veto"]), int(meta["dim"]), float(meta["signal"])


def probability(text: str, signals: Iterable[str]) -> float | None:
    """How likely the message asks about earlier work, by the shipped model; None without it."""
    model = _model()
    if model is None:
        return None
    weights, _, _, dim, signal = model
    idx, vals = features(text, signals, dim, signal)
    z = float(weights[-1]) + float(weights[idx] @ vals) if idx else float(weights[-1])
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def decide(text: str, signals: Iterable[str], grammar: bool) -> bool:
    """Whether the message is a cue: the grammar's cue (`grammar`) unless the model is nearly sure it is not
    (below the shipped veto), else the model's probability at least the shipped threshold. Without the model's
    files, the grammar alone."""
    model = _model()
    p = probability(text, signals)
    if model is None or p is None:
        return grammar
    return p >= (model[2] if grammar else model[1])
