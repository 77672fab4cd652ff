"""A tool call with a bad argument gets one sentence to act on: what is wrong, then 'Fix the argument'."""

from __future__ import annotations

from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool


def test_an_argument_error_reads_as_one_sentence() -> None:
    settings = ServerSettings(cwd="/")
    bad_limit = call_tool("history_search", {"query": "x", "limit": -3}, settings)
    assert bad_limit.is_error  # positive control: a message that ends without a period
    assert bad_limit.text.endswith("got -3. Fix the argument and call again.")
    missing = call_tool("history_search", {}, settings)
    assert missing.is_error and missing.text.startswith("history_search: query is required: ")
    assert missing.text.endswith("Any language. Fix the argument and call again."), missing.text
    assert ".." not in missing.text
