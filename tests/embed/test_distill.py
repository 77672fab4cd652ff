"""How the shipped static model is made (``recollect.embed.distill``), on a fake encoder: fast, no package."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import recollect.embed as embed_pkg
from recollect.embed import distill as dst
from recollect.embed import static as st
from recollect.embed.muse import MuseSource, source_sha256

S = st.SPACE


def _letters(i: int) -> str:
    return "w" + "".join(chr(97 + int(d)) for d in str(i))  # 12 -> "wbc": digits would be split off


class _FakeTokenizer:
    def __init__(self) -> None:
        words = [S + _letters(i) for i in range(300)] + ["ab", "cd", f"{S}Upper"]
        self._pieces = ["<unk>", "<s>", "</s>", "x1", "x2", "x3", S, *words]
        self._scores = [0.0] * 6 + [-3.0] + [-5.0 - i / 100 for i in range(len(words))]


class _FakeBackend:
    def _encode_batch(self, group: list[list[int]], n_tokens: int, out: np.ndarray) -> None:
        for i, ids in enumerate(group):
            v = np.random.default_rng(ids[1]).standard_normal(512)
            out[i] = v / np.linalg.norm(v)


class _FakeEncoder:
    _tokenizer = _FakeTokenizer()
    _model = _FakeBackend()


def _fake_source(tmp_path: Path, content: bytes = b"model") -> MuseSource:
    res = tmp_path / "res"
    res.mkdir(parents=True, exist_ok=True)
    (res / "sp.model").write_bytes(content)
    (res / "weights.npz").write_bytes(b"weights")
    return MuseSource("fake", "0", res, source_sha256(res))


def test_build_writes_a_loadable_model_and_caches_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(dst, "load_encoder", lambda threads=2: calls.append(threads) or _FakeEncoder())
    source = _fake_source(tmp_path)
    progress: list[tuple[int, int]] = []
    model = dst.load_or_build(tmp_path / "cache", source, progress=lambda d, n: progress.append((d, n)))
    assert model.model_id == st.static_model_id(source.sha256) and model.dim == 256
    assert progress[-1] == (302, 302)  # 300 words + "ab" + "cd"; specials, "▁" and uppercase left out
    meta = json.loads((model.path / "meta.json").read_text())
    assert meta["source"]["sha256"] == source.sha256 and meta["rows"] == 302
    out = model.embed([f"{_letters(1)} {_letters(2)}", "", "ab"])
    assert np.allclose(np.linalg.norm(out, axis=1), [1, 0, 1], atol=1e-6)
    again = dst.load_or_build(tmp_path / "cache", source)
    assert len(calls) == 1 and np.array_equal(again.embed([f"{_letters(1)} {_letters(2)}"]), out[:1])
    assert not list(model.path.parent.glob(".build-*"))  # no temp dir left behind


def test_an_interrupted_build_resumes_from_saved_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dst, "_RESUME_BLOCK", 100)
    monkeypatch.setattr(dst, "_BUILD_BATCH", 50)
    encoded: list[int] = []

    class Interrupting(_FakeBackend):
        def _encode_batch(self, group: list[list[int]], n_tokens: int, out: np.ndarray) -> None:
            if len(encoded) >= 250:
                raise KeyboardInterrupt  # the user gave up mid-build
            encoded.extend(ids[1] for ids in group)
            super()._encode_batch(group, n_tokens, out)

    class Enc(_FakeEncoder):
        _model = Interrupting()

    monkeypatch.setattr(dst, "load_encoder", lambda threads=2: Enc())
    source = _fake_source(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        dst.load_or_build(tmp_path / "cache", source)
    assert len(list((tmp_path / "cache" / "embed").glob(".partial-*/block-*.npy"))) == 2
    encoded.clear()

    class Counting(_FakeBackend):
        def _encode_batch(self, group: list[list[int]], n_tokens: int, out: np.ndarray) -> None:
            encoded.extend(ids[1] for ids in group)
            super()._encode_batch(group, n_tokens, out)

    class Enc2(_FakeEncoder):
        _model = Counting()

    monkeypatch.setattr(dst, "load_encoder", lambda threads=2: Enc2())
    resumed = dst.load_or_build(tmp_path / "cache", source)
    assert len(encoded) == 302 - 200  # only the block that was cut off, and the last one
    assert not list((tmp_path / "cache" / "embed").glob(".partial-*"))  # cleaned up once done
    fresh = dst.build_static_model(source, tmp_path / "fresh" / "m")
    assert np.array_equal(np.load(resumed.path / "vectors.npy"), np.load(fresh / "vectors.npy"))


def test_model_id_follows_the_source_content(tmp_path: Path) -> None:
    a = _fake_source(tmp_path / "a", b"model")
    b = _fake_source(tmp_path / "b", b"model")
    c = _fake_source(tmp_path / "c", b"model, one byte changed")
    assert a.sha256 == b.sha256 != c.sha256
    assert st.static_model_id(a.sha256) == st.static_model_id(b.sha256)
    assert st.static_model_id(a.sha256) != st.static_model_id(c.sha256)
    assert st.static_model_id(a.sha256).startswith("static-muse-v1:")


def test_a_model_built_from_another_source_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dst, "load_encoder", lambda threads=2: _FakeEncoder())
    source = _fake_source(tmp_path)
    model = dst.load_or_build(tmp_path / "cache", source)
    meta = json.loads((model.path / "meta.json").read_text())
    meta["source"]["sha256"] = "0" * 64
    (model.path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(embed_pkg.EmbedError, match="another source"):
        dst.load_or_build(tmp_path / "cache", source)


def test_quantized_rows_stay_within_half_a_step() -> None:
    rows = np.random.default_rng(3).standard_normal((50, 256)).astype(np.float32) * np.linspace(0.01, 5, 50)[:, None]
    q, scales = dst.quantize_rows(rows)
    assert q.dtype == np.int8 and scales.shape == (50,)
    assert np.all(np.abs(q.astype(np.float32) * scales[:, None] - rows) <= scales[:, None] / 2 + 1e-7)
