"""The JSONL reading rules every transcript source shares."""

from __future__ import annotations

from pathlib import Path

import zstandard

from recollect.sources.jsonl import files_from_input, read_head, read_jsonl, watermark
from recollect.times import parse_stamp


def test_blank_lines_are_ignored_and_non_objects_are_malformed(tmp_path: Path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a": 1}\n\n   \n[1, 2]\n"text"\n{"b": \n{"c": 3}\n')
    result = read_jsonl(path)
    assert [(n, r) for n, r in result.records] == [(1, {"a": 1}), (7, {"c": 3})]
    assert result.malformed == 3
    assert not result.pending_tail


def test_a_last_line_without_newline_is_pending_not_malformed(tmp_path: Path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2')
    result = read_jsonl(path)
    assert [r for _, r in result.records] == [{"a": 1}]
    assert result.malformed == 0 and result.pending_tail
    # Even a complete-looking object is left alone until its newline arrives.
    path.write_bytes(b'{"a": 1}\n{"b": 2}')
    assert len(read_jsonl(path).records) == 1


def test_compressed_transcripts_are_read_whole(tmp_path: Path):
    lines = b"".join(b'{"n": %d}\n' % i for i in range(1000))
    path = tmp_path / "t.jsonl.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(lines))
    result = read_jsonl(path)
    assert len(result.records) == 1000 and result.malformed == 0
    assert read_head(path, 9) == b'{"n": 0}\n'
    # A finished archive has no "still being written": its unterminated tail is judged like any line.
    path.write_bytes(zstandard.ZstdCompressor().compress(lines + b'{"n": 1000}'))
    assert len(read_jsonl(path).records) == 1001
    path.write_bytes(zstandard.ZstdCompressor().compress(lines + b'{"n": 10'))
    assert read_jsonl(path).malformed == 1


def test_a_file_that_is_not_zstd_is_counted_not_fatal(tmp_path: Path):
    path = tmp_path / "t.jsonl.zst"
    path.write_bytes(b'{"plain": "not compressed"}\n')
    result = read_jsonl(path)
    assert result.records == [] and result.malformed == 1


def test_watermark_changes_with_size_or_time(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("x\n")
    b.write_text("y\n")
    first = watermark([a, b])
    assert watermark([b, a]) == first
    with a.open("a") as fh:
        fh.write("z\n")
    assert watermark([a, b]) != first


def test_times():
    assert parse_stamp("2026-01-12T19:17:13.338Z") == 1768245433338
    assert parse_stamp("2026-01-12T19:17:13.338123456Z") == 1768245433338  # nanoseconds are cut, not refused
    assert parse_stamp("2026-01-12T19:17:13") == 1768245433000  # naive stamps are UTC
    assert parse_stamp("2026-01-12T20:17:13+01:00") == 1768245433000
    assert parse_stamp(1768245433) == 1768245433000
    assert parse_stamp(1768245433338) == 1768245433338
    assert parse_stamp("yesterday") is None and parse_stamp(None) is None and parse_stamp(True) is None


def test_files_named_in_tool_input():
    assert files_from_input({"file_path": "/a/b.py", "content": "x"}) == ["/a/b.py"]
    assert files_from_input({"paths": ["a.md", "b.md"], "path": "a.md"}) == ["a.md", "b.md"]
    assert files_from_input({"command": "ls"}) == []
    assert files_from_input("not a dict") == []
