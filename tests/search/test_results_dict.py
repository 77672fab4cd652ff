"""A search result's dict (JSON output, MCP structured content) is what `dataclasses.asdict` gives, built
without its deep copies (search/results.py)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from recollect import history
from recollect.times import iso


def test_result_dicts_equal_asdict(sample_db: Path) -> None:
    history.index()
    checked, matched = 0, 0
    for query in ("readme", "missing-file.txt", "rate limit", "zzzz-nothing"):
        result = history.search(query, sync_first=False)
        data = result.to_dict()
        want_hits = []
        for hit in result.hits:
            want = asdict(hit)
            want["class"] = want.pop("klass")
            want["time_iso"] = iso(hit.time)
            want_hits.append(want)
        assert data["hits"] == want_hits
        assert data["coverage"] == asdict(result.coverage)
        checked += len(result.hits)
        matched += sum(bool(h.matched) for h in result.hits)
        for got, hit in zip(data["hits"], result.hits, strict=True):
            got["matched"].append("changed")  # a copy, as asdict's: the hit itself is untouched
            assert "changed" not in hit.matched
        data["coverage"]["limited_by"].append("changed")
        assert "changed" not in result.coverage.limited_by
    assert checked > 5 and matched > 0  # real hits, with matched words to copy
