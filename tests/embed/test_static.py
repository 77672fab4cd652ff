"""The static model: tokenizer and build mechanics (always), the real model (needs the package)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import recollect.embed as embed_pkg
from bench.eval.evalset import PAIRS, pair_quality
from recollect.embed import StaticEmbedder, default_embedder, describe, from_config
from recollect.embed import static as st
from recollect.embed.muse import PINNED_SHA256, MuseEmbedder, MuseSource, source_sha256

S = st.SPACE

# ------------------------------------------------------------------ tokenizer (no package)


def _tok(*pieces: str) -> st._Tokenizer:
    return st._Tokenizer(list(pieces))


def _pieces(tok: st._Tokenizer, text: str) -> list[str]:
    names = list(tok._row)
    return [names[r] for r in tok.rows(text)]


def test_greedy_longest_match_prefers_word_start_pieces() -> None:
    tok = _tok(
        f"{S}middle", "middle", "ware", f"{S}test", "auth", f"{S}auth", "re", "try", f"{S}retry", "数据库", "索", "引"
    )
    assert _pieces(tok, "middleware") == [f"{S}middle", "ware"]
    assert _pieces(tok, "test_auth_retry") == [f"{S}test", f"{S}auth", f"{S}retry"]
    assert _pieces(tok, "数据库索引") == ["数据库", "索", "引"]


def test_identifiers_are_split_and_lowercased() -> None:
    tok = _tok(f"{S}http", f"{S}server", f"{S}get", f"{S}user", f"{S}name", f"{S}2024")
    assert _pieces(tok, "HTTPServer getUserName") == [f"{S}http", f"{S}server", f"{S}get", f"{S}user", f"{S}name"]
    assert _pieces(tok, "GET_USER") == [f"{S}get", f"{S}user"]


def test_hashes_and_long_numbers_carry_no_pieces() -> None:
    tok = _tok(f"{S}commit", f"{S}2024", "a", "b", "c", "d", "e", "f", f"{S}a", f"{S}d")
    assert _pieces(tok, "commit 3fa9c2d1e4b5") == [f"{S}commit"]
    assert _pieces(tok, "commit 550e8400-e29b-41d4-a716-446655440000")[:1] == [f"{S}commit"]
    assert _pieces(tok, "2024 1733000000") == [f"{S}2024"]


def test_tokenizer_cache_does_not_change_results() -> None:
    tok = _tok(f"{S}login", f"{S}test", "s")
    first = _pieces(tok, "login tests login")
    assert _pieces(tok, "login tests login") == first == [f"{S}login", f"{S}test", "s", f"{S}login"]


# ------------------------------------------------------------------ build mechanics (fake encoder)


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
    monkeypatch.setattr(st, "load_encoder", lambda threads=2: calls.append(threads) or _FakeEncoder())
    source = _fake_source(tmp_path)
    progress: list[tuple[int, int]] = []
    model = st.load_or_build(tmp_path / "cache", source, progress=lambda d, n: progress.append((d, n)))
    assert model.model_id == st.static_model_id(source.sha256) and model.dim == 256
    assert progress[-1] == (302, 302)  # 300 words + "ab" + "cd"; specials, "▁" and uppercase left out
    meta = json.loads((model.path / "meta.json").read_text())
    assert meta["source"]["sha256"] == source.sha256 and meta["rows"] == 302
    out = model.embed([f"{_letters(1)} {_letters(2)}", "", "ab"])
    assert np.allclose(np.linalg.norm(out, axis=1), [1, 0, 1], atol=1e-6)
    again = st.load_or_build(tmp_path / "cache", source)
    assert len(calls) == 1 and np.array_equal(again.embed([f"{_letters(1)} {_letters(2)}"]), out[:1])
    assert not list(model.path.parent.glob(".build-*"))  # no temp dir left behind


def test_an_interrupted_build_resumes_from_saved_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(st, "_RESUME_BLOCK", 100)
    monkeypatch.setattr(st, "_BUILD_BATCH", 50)
    encoded: list[int] = []

    class Interrupting(_FakeBackend):
        def _encode_batch(self, group: list[list[int]], n_tokens: int, out: np.ndarray) -> None:
            if len(encoded) >= 250:
                raise KeyboardInterrupt  # the user gave up mid-build
            encoded.extend(ids[1] for ids in group)
            super()._encode_batch(group, n_tokens, out)

    class Enc(_FakeEncoder):
        _model = Interrupting()

    monkeypatch.setattr(st, "load_encoder", lambda threads=2: Enc())
    source = _fake_source(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        st.load_or_build(tmp_path / "cache", source)
    assert len(list((tmp_path / "cache" / "embed").glob(".partial-*/block-*.npy"))) == 2
    encoded.clear()

    class Counting(_FakeBackend):
        def _encode_batch(self, group: list[list[int]], n_tokens: int, out: np.ndarray) -> None:
            encoded.extend(ids[1] for ids in group)
            super()._encode_batch(group, n_tokens, out)

    class Enc2(_FakeEncoder):
        _model = Counting()

    monkeypatch.setattr(st, "load_encoder", lambda threads=2: Enc2())
    resumed = st.load_or_build(tmp_path / "cache", source)
    assert len(encoded) == 302 - 200  # only the block that was cut off, and the last one
    assert not list((tmp_path / "cache" / "embed").glob(".partial-*"))  # cleaned up once done
    fresh = st.build_static_model(source, tmp_path / "fresh" / "m")
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
    monkeypatch.setattr(st, "load_encoder", lambda threads=2: _FakeEncoder())
    source = _fake_source(tmp_path)
    model = st.load_or_build(tmp_path / "cache", source)
    meta = json.loads((model.path / "meta.json").read_text())
    meta["source"]["sha256"] = "0" * 64
    (model.path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(embed_pkg.EmbedError, match="another source"):
        st.load_or_build(tmp_path / "cache", source)


def test_without_the_package_everything_is_off_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embed_pkg, "locate_source", lambda: None)
    assert default_embedder(tmp_path) is None
    assert from_config({"provider": "static"}, tmp_path) is None
    assert from_config({"provider": "muse"}, tmp_path) is None
    info = describe(tmp_path)
    assert info["installed"] is False and "recollect[semantic]" in info["status"]


# ------------------------------------------------------------------ the real model (needs the package)


def test_installed_source_is_the_pinned_one(muse_source: MuseSource) -> None:
    assert muse_source.pinned, f"installed {muse_source.version} {muse_source.sha256}, pinned {PINNED_SHA256}"


def test_vectors_are_normalised_float32_and_deterministic(static_model: StaticEmbedder) -> None:
    texts = ["The deploy script uses pnpm now", "部署脚本", "", "?!", "x" * 5000, "test_auth_retry failed"]
    out = static_model.embed(texts)
    assert out.dtype == np.float32 and out.shape == (len(texts), 256)
    assert np.allclose(np.linalg.norm(out, axis=1), [1, 1, 0, 0, 1, 1], atol=1e-5)
    # the same text gives bit-identical vectors alone, in a big batch, and from a new instance
    alone = static_model.embed(texts[:1])
    batch = static_model.embed(texts[:1] * 100)
    fresh = StaticEmbedder(static_model.path).embed(texts[:1])
    assert np.array_equal(alone[0], batch[0]) and np.array_equal(batch[0], batch[99])
    assert np.array_equal(alone, fresh) and np.array_equal(alone[0], out[0])


def _cos(model: StaticEmbedder, a: str, b: str) -> float:
    va, vb = model.embed([a, b])
    return float(va @ vb)


@pytest.mark.parametrize(
    ("query", "match", "unrelated"),
    [
        ("部署脚本", "The deploy script uses pnpm now", "Added CSS variables for the dark mode theme"),
        ("登录测试不稳定", "the login test is flaky and fails intermittently", "Bumped numpy and rebuilt the wheel"),
        ("数据库索引", "create an index on the orders table in the database", "the deploy script uses pnpm"),
        ("内存泄漏", "memory leak in the worker process", "token bucket rate limiter in middleware"),
        (
            "rate limiter decision",
            "we decided to use a token bucket to limit the request rate",
            "fixed the timezone of the cron jobs",
        ),
    ],
)
def test_matching_pairs_score_above_unrelated_ones(
    static_model: StaticEmbedder, query: str, match: str, unrelated: str
) -> None:
    good, bad = _cos(static_model, query, match), _cos(static_model, query, unrelated)
    assert good > bad + 0.05, (good, bad)


def test_paraphrase_set_quality_floor(static_model: StaticEmbedder) -> None:
    # Measured 0.527 MRR / 0.16 mean gap (docs/embeddings.md); a broken table or tokenizer
    # drops to chance (~0.12 MRR, gap ~0), so these floors catch regressions.
    q = pair_quality(static_model.embed, PAIRS)
    assert q["mrr"] >= 0.45, q
    assert q["matched"] - q["unrelated"] >= 0.12, q


def test_describe_reports_the_cache_state(
    muse_source: MuseSource, static_model: StaticEmbedder, tmp_path: Path
) -> None:
    empty = describe(tmp_path)
    assert empty["installed"] and empty["cached"] is False and empty["model_id"] == static_model.model_id
    cache = tmp_path / "c"
    (cache / "embed").mkdir(parents=True)
    shutil.copytree(static_model.path, cache / "embed" / static_model.path.name)
    info = describe(cache)
    assert info["cached"] and info["status"] == "ready" and info["cache_bytes"] > 10_000_000
    assert info["pinned"] and info["dim"] == 256


def test_full_encoder_provider(muse_source: MuseSource) -> None:
    enc = MuseEmbedder(muse_source, threads=1)
    out = enc.embed(["部署脚本", "deploy script", "", "dark mode colours"])
    assert out.shape == (4, 512) and enc.model_id.startswith("muse-v3:")
    assert np.allclose(np.linalg.norm(out, axis=1), [1, 1, 0, 1], atol=1e-5)
    assert out[0] @ out[1] > out[0] @ out[3]


def test_static_and_full_model_ids_differ(static_model: StaticEmbedder, muse_source: MuseSource) -> None:
    ids: dict[str, Any] = {static_model.model_id, MuseEmbedder(muse_source).model_id}
    assert len(ids) == 2
