"""A query's script against a session's: the gate of the `script` ranking stage (search/rank.py)."""

from __future__ import annotations

from recollect.search.meaning import cjk_share, script_gap


def test_a_chinese_question_about_an_english_session_is_across_the_gap() -> None:
    assert cjk_share("速率限制 令牌桶") == 1.0
    assert script_gap("速率限制 令牌桶", "Per-key rate limiting for the public API") == 1.0
    assert script_gap("rollback the gateway release in prod", "生产环境回滚 gateway") >= 0.5


def test_the_same_script_is_no_gap() -> None:
    # positive control first: a mixed session title is partly Chinese
    assert 0.5 < cjk_share("部署脚本在 staging 失败") < 1.0
    assert script_gap("rate limiter decision", "Per-key rate limiting for the public API") == 0.0
    assert script_gap("部署脚本失败", "部署脚本在 staging 失败") < 0.5
    assert script_gap("café au lait", "naïve résumé") == 0.0  # accented latin is latin
    assert cjk_share("") == 0.0 and cjk_share("1234 ::") == 0.0
