"""Which replies answer (integrations/replies.py): auto-recall prefers sessions that answered."""

from __future__ import annotations

import pytest

from recollect.integrations.replies import is_answer, new_words
from recollect.text.tokenize import STOPWORDS

QUESTION = "which config file format did we pick for borealis again? yaml still?"


@pytest.mark.parametrize(
    ("reply", "asked"),
    [
        ("Decision: move the config to TOML; we keep reading the old YAML for one release.", QUESTION),
        ("Fixed: raised the soft RLIMIT_NOFILE at start-up.", "borealis watch crashes with too many open files"),
        ("决定：按 event_date 做 hive 风格分区，不按 customer_id 分区。", "输出应该怎么分区？"),
        ("I have moved the jobs to Postgres with SKIP LOCKED.", "Redis or Postgres?"),
    ],
)
def test_a_reply_that_tells_something_answers(reply: str, asked: str) -> None:
    assert is_answer(reply, asked, STOPWORDS)


@pytest.mark.parametrize(
    ("reply", "asked"),
    [
        ("I don't know which format was chosen; the repo still has both parsers.", QUESTION),
        ("I can't tell from here whether it was fixed. Tell me if you want me to investigate.", "did we fix it?"),
        ("I'm not sure which one we picked.", QUESTION),
        ("我不确定，需要的话我可以去看写入代码。", "parquet 输出现在是怎么分区的？"),
        ("我这里没有那段历史，要不要我先分析一下这个任务的内存？", "MemoryError 我们上次是怎么处理的？"),
        ("Let me look at that.", QUESTION),
        ("Saved to memory.", "Remember this: deploys go through the bastion host."),
        ("已记住。", "记住：凭证从 Secrets Manager 读取。"),
    ],
)
def test_a_reply_that_tells_nothing_does_not_answer(reply: str, asked: str) -> None:
    assert is_answer("Decision: move the config to TOML at ~/.config/borealis.", asked, STOPWORDS)  # control
    assert not is_answer(reply, asked, STOPWORDS)


def test_new_words_are_the_ones_the_question_did_not_hold() -> None:
    assert new_words("the format is TOML", QUESTION, STOPWORDS) == 1.0  # "toml"; "format" was asked
    assert new_words("分区按日期", "怎么分区", STOPWORDS) == 1.5  # 按, 日, 期: half a word each
