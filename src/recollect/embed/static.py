"""Static embeddings distilled from the multilingual USE encoder (the model2vec idea).

Build (once, ~60 s on one core, resumable, no torch): every lowercase sentencepiece piece of the
source encoder is embedded *alone* with the full encoder; the 512-d piece vectors are
centred and reduced to 256-d by PCA, and each piece is weighted by SIF,
``a / (a + p(piece))``, with ``p`` the unigram probability that sentencepiece itself
stores. At run time a text is the weighted sum of its pieces' vectors, L2-normalised:
a split, a few dict hits and one gather-and-sum, so thousands of chunks per second.

Run-time tokenizing does not use the source's pure-python sentencepiece (1.5 s to load,
~10% of the encoder's time): text is split on whitespace and ASCII punctuation, tokens
are cached, and a new token is cut into words (camelCase, snake_case, digits) and each
word greedily into the longest pieces of our own vocabulary. Close to sentencepiece's
Viterbi on real words, and fast.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from .base import EmbedError, l2_normalize
from .muse import MUSE_DIM, MuseSource, load_encoder

RECIPE = "static-muse-v1"
# Everything that changes the built vectors goes into the model id (with the source hash).
PARAMS: dict[str, Any] = {
    "dim": 256,  # PCA target: same quality as 512 on our pairs, half the index size
    "sif_a": 1e-3,  # SIF smoothing; 1e-3 was the best of 1e-2..1e-4 on the pairs
    "lowercase": True,  # text is lowercased, so only lowercase pieces are needed
    "tokenizer": "ws-cache/camel/greedy-longest-v1",
}
FORMAT_VERSION = 1
SPACE = "\u2581"  # sentencepiece's word-start marker
_FIRST_PIECE = 6  # ids 0-5: <unk>, <s>, </s>, extra_token_id_1..3
_BOS, _EOS = 1, 2
_BUILD_BATCH = 128  # pieces per encoder call: 384 tokens, the encoder's sweet spot
_RESUME_BLOCK = 8192  # pieces per saved block of an interrupted build (~16 MB, a few s)

Progress = Callable[[int, int], None]


def static_model_id(source_sha256: str) -> str:
    blob = f"{RECIPE}\n{json.dumps(PARAMS, sort_keys=True)}\n{FORMAT_VERSION}\n{source_sha256}"
    return f"{RECIPE}:{hashlib.sha256(blob.encode()).hexdigest()[:12]}"


def model_dir(cache_dir: Path, model_id: str) -> Path:
    return Path(cache_dir) / "embed" / model_id.replace(":", "-")


# ----------------------------------------------------------------------------- tokenizer

# Hex runs of 7+ chars with a digit and a letter: commit hashes, uuids, object ids. Their
# letters would otherwise become single-letter pieces that say nothing. (A plain run
# pattern plus a check in Python: lookaheads at every position cost more on long tokens.)
_HEXRUN = re.compile(r"[0-9a-fA-F]{7,}")


def _drop_hexid(m: re.Match[str]) -> str:
    s = m.group()
    return s if s.isdigit() or s.isalpha() else " "


def _strip_hexids(token: str) -> str:
    return _HEXRUN.sub(_drop_hexid, token)


# Words inside a token. ASCII (most tokens): camelCase/HTTPServer split in the same pass.
_ASCII_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_PARTS = re.compile(r"[^\W\d_]+|\d+")
_MAX_DIGITS = 4  # keep years, ports, versions; drop ids and timestamps
# ASCII punctuation -> space before splitting (str.translate runs in C): a path such as
# internal/metric/metric.go:187:10 becomes reusable cache hits instead of one unique
# token. "_" stays: snake_case is split later, with the word parts.
_PUNCT_TO_SPACE = str.maketrans({c: " " for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"})
_CACHE_LIMIT = 300_000  # entries per cache; cleared when full (bounded memory, ~50 MB)


class _Tokenizer:
    """Text -> list of vocabulary rows. Deterministic; caches are only a speed-up."""

    def __init__(self, pieces: Sequence[str]) -> None:
        self._row = {p: i for i, p in enumerate(pieces)}
        self._max_len = max(len(p) for p in pieces)
        self._words: dict[str, list[int]] = {}
        self._tokens: dict[str, list[int]] = {}

    def rows(self, text: str) -> Iterator[int]:
        tokens = self._tokens
        if len(tokens) > _CACHE_LIMIT:
            tokens.clear()
        # Most whitespace tokens repeat (Zipf): one C-level dict lookup each, no regex.
        toks = text.translate(_PUNCT_TO_SPACE).split()
        got = list(map(tokens.get, toks))
        if None in got:
            got = [g if g is not None else self._token(t) for g, t in zip(got, toks, strict=True)]
        return chain.from_iterable(got)

    def _token(self, token: str) -> list[int]:
        if token.isascii():
            # a hash/uuid needs 7+ chars; most tokens are shorter words: skip the sub
            parts = _ASCII_PARTS.findall(_strip_hexids(token) if len(token) >= 7 else token)
        else:
            t = unicodedata.normalize("NFKC", token)
            parts = _PARTS.findall(_CAMEL.sub(" ", _strip_hexids(t)))
        words = self._words
        if len(words) > _CACHE_LIMIT:
            words.clear()
        got = list(map(words.get, parts))  # C-level lookups; new words are rare
        if None in got:
            for k, part in enumerate(parts):
                if got[k] is None:
                    long_number = part.isdigit() and len(part) > _MAX_DIGITS
                    got[k] = words[part] = [] if long_number else self._segment(part.lower())
        out = list(chain.from_iterable(got))
        self._tokens[token] = out
        return out

    def _segment(self, word: str) -> list[int]:
        """Greedy longest match. At the word start a piece may carry the word-start
        marker (preferred at equal length, as sentencepiece would produce it); a longer
        plain piece still wins, which matters for CJK where marked pieces are rare and
        odd. Characters outside the vocabulary are skipped."""
        row = self._row
        out: list[int] = []
        i, n = 0, len(word)
        while i < n:
            for j in range(min(n, i + self._max_len), i, -1):
                sub = word[i:j]
                r = row.get(SPACE + sub) if i == 0 else None
                if r is None:
                    r = row.get(sub)
                if r is not None:
                    out.append(r)
                    i = j
                    break
            else:
                i += 1
        return out


# ----------------------------------------------------------------------------- embedder


class StaticEmbedder:
    """Embedder over a built static model directory (see ``build_static_model``)."""

    def __init__(self, path: Path) -> None:
        path = Path(path)
        try:
            meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
            if meta.get("format") != FORMAT_VERSION:
                raise EmbedError(f"{path}: unsupported static model format {meta.get('format')}")
            # mmap, viewed as a plain ndarray (memmap's own __getitem__ is slow)
            self._table: np.ndarray = np.load(path / "vectors.npy", mmap_mode="r").view(np.ndarray)
            pieces = (path / "pieces.txt").read_text(encoding="utf-8").split("\n")
        except (OSError, ValueError) as e:
            raise EmbedError(f"static model at {path} is unreadable: {e}") from e
        if len(pieces) != self._table.shape[0]:
            raise EmbedError(f"static model at {path} is inconsistent (pieces vs vectors)")
        self.path = path
        self.meta: dict[str, Any] = meta
        self.model_id: str = meta["model_id"]
        self.dim: int = int(self._table.shape[1])
        self._tok = _Tokenizer(pieces)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        # The float16 rows of the mapped file are summed in float32: bit-identical to a float32 copy
        # of the table, which bulk indexing once kept (~110 MB) to sum ~1.5x faster; a whole index
        # with both encoders peaked at 425 MB with it (target 400), and the saving is ~1 s at 5,000.
        table = self._table
        rows_of = self._tok.rows
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            rows = np.fromiter(rows_of(text), dtype=np.intp)
            if rows.size:
                # One text at a time: its vector never depends on what else is in the
                # batch (bit-identical), and at ~300 rows a gather+sum is a few us.
                out[i] = table[rows].sum(axis=0, dtype=np.float32)
        return l2_normalize(out)

    def project(self, muse_vectors: np.ndarray) -> np.ndarray:
        """Map full-encoder (512-d) vectors into this model's space (centre + PCA).

        For evaluation and asymmetric experiments only: such vectors keep the full
        encoder's model_id and must not be stored next to static ones.
        """
        mean = np.load(self.path / "mean.npy")
        comp = np.load(self.path / "components.npy")
        return l2_normalize((np.asarray(muse_vectors, dtype=np.float32) - mean) @ comp)


# ----------------------------------------------------------------------------- build


def _piece_vectors(
    enc: Any, ids: list[int], pieces: Sequence[str], progress: Progress | None, partial: Path | None = None
) -> np.ndarray:
    """Embed each piece alone, i.e. the token sequence <s> piece </s>.

    With ``partial``, every block of _RESUME_BLOCK pieces is saved there as it is done, so
    an interrupted build (Ctrl-C, a killed sync) resumes instead of starting over: on a
    busy 2-core machine a build can take a few minutes.
    """
    out = np.empty((len(ids), MUSE_DIM), dtype=np.float32)
    backend = enc._model
    direct = getattr(backend, "_encode_batch", None)
    if partial is not None:
        partial.mkdir(parents=True, exist_ok=True)
    for b0 in range(0, len(ids), _RESUME_BLOCK):
        b1 = min(b0 + _RESUME_BLOCK, len(ids))
        saved = partial / f"block-{b0:07d}-{b1:07d}.npy" if partial is not None else None
        if saved is not None and saved.is_file():
            try:
                block = np.load(saved)
                if block.shape == (b1 - b0, MUSE_DIM):
                    out[b0:b1] = block
                    if progress is not None:
                        progress(b1, len(ids))
                    continue
            except (OSError, ValueError):
                pass  # a torn block: compute it again
        for s in range(b0, b1, _BUILD_BATCH):
            batch = ids[s : min(s + _BUILD_BATCH, b1)]
            if direct is not None:
                # Feed ids straight in: the piece itself, not a re-tokenisation of its text.
                direct([[_BOS, p, _EOS] for p in batch], 3 * len(batch), out[s : s + len(batch)])
            else:  # another version of the package: fall back to its public API
                out[s : s + len(batch)] = enc.encode([pieces[p].replace(SPACE, " ").strip() or " " for p in batch])
            if progress is not None:
                progress(s + len(batch), len(ids))
        if saved is not None:
            tmp = saved.with_suffix(".tmp.npy")
            np.save(tmp, out[b0:b1])
            os.replace(tmp, saved)
    return out


def _pca(x: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean and top-``dim`` principal axes (512 x dim), signs fixed for reproducibility."""
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=0)
    x64 -= mean
    _, vecs = np.linalg.eigh(x64.T @ x64 / len(x64))
    comp = vecs[:, ::-1][:, :dim]
    sign = np.sign(comp[np.abs(comp).argmax(axis=0), np.arange(dim)])
    return mean.astype(np.float32), (comp * sign).astype(np.float32)


def build_static_model(
    source: MuseSource, out_dir: Path, *, threads: int = 1, progress: Progress | None = None
) -> Path:
    """Distil the static model from ``source`` into ``out_dir`` (written atomically)."""
    t0 = time.perf_counter()
    enc = load_encoder(threads)
    tok = enc._tokenizer
    all_pieces: list[str] = list(tok._pieces)
    scores = np.asarray(tok._scores, dtype=np.float64)
    ids = [
        i
        for i in range(_FIRST_PIECE, len(all_pieces))
        if all_pieces[i] == all_pieces[i].lower() and all_pieces[i] != SPACE and "\n" not in all_pieces[i]
    ]
    limiter = _blas_threads(threads)
    with limiter:
        raw = _piece_vectors(enc, ids, all_pieces, progress, _partial_dir(out_dir))
        dim = int(PARAMS["dim"])
        mean, comp = _pca(raw, dim)
        a = float(PARAMS["sif_a"])
        weights = (a / (a + np.exp(scores[ids]))).astype(np.float32)
        vectors = ((raw - mean) @ comp) * weights[:, None]

    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=out_dir.parent))
    try:
        np.save(tmp / "vectors.npy", vectors.astype(np.float16))
        np.save(tmp / "weights.npy", weights)
        np.save(tmp / "mean.npy", mean)
        np.save(tmp / "components.npy", comp)
        (tmp / "pieces.txt").write_text("\n".join(all_pieces[i] for i in ids), encoding="utf-8")
        meta = {
            "format": FORMAT_VERSION,
            "model_id": static_model_id(source.sha256),
            "recipe": RECIPE,
            "params": PARAMS,
            "source": {"name": source.name, "version": source.version, "sha256": source.sha256},
            "rows": len(ids),
            "dim": dim,
            "build_seconds": round(time.perf_counter() - t0, 1),
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        (tmp / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        os.replace(tmp, out_dir)  # atomic: readers see no model or a whole one
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(_partial_dir(out_dir), ignore_errors=True)
    return out_dir


def _partial_dir(out_dir: Path) -> Path:
    # named after the model dir, which carries the source hash and recipe: blocks left by
    # a build of another source or recipe can never be picked up
    return Path(out_dir).parent / f".partial-{Path(out_dir).name}"


def _blas_threads(threads: int) -> contextlib.AbstractContextManager[Any]:
    """Limit BLAS threads for the build when threadpoolctl is around; else no-op."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-not-found]
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=threads, user_api="blas")


def is_built(cache_dir: Path, source: MuseSource) -> bool:
    return (model_dir(cache_dir, static_model_id(source.sha256)) / "meta.json").is_file()


def load_or_build(
    cache_dir: Path, source: MuseSource, *, threads: int = 1, progress: Progress | None = None
) -> StaticEmbedder:
    """The cached static model for ``source``, building it first if needed.

    A file lock makes a second process wait for the first one's build instead of
    building twice.
    """
    path = model_dir(cache_dir, static_model_id(source.sha256))
    if not (path / "meta.json").is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.parent / ".build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if not (path / "meta.json").is_file():
                    build_static_model(source, path, threads=threads, progress=progress)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    model = StaticEmbedder(path)
    if model.meta.get("source", {}).get("sha256") != source.sha256:
        raise EmbedError(f"static model at {path} was built from another source")
    return model
