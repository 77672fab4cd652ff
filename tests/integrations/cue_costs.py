"""The unit forms of the grammar (test_cues, test_cue_forms) that the learned detector (cuemodel.decide) reads
otherwise: its known costs on these minimal pairs, beside its gains on fresh sets (docs/loop.md, "Cue detection,
thirteenth session"). Their tests read them with the grammar alone (`read`); test_cuemodel locks that
`detect_cue` reads each otherwise, so a retrain that reads one as the grammar does says to take it off the list."""

from __future__ import annotations

from recollect.integrations.cues import detect_cue, grammar_cue

# the grammar's cue, vetoed by the model
VETOED = frozenset(
    {
        "We talked about this last month: keep it.",
        "Is there a reason we chose Postgres over Mongo?",
        "resume your prior session",
        "Fix the typo I mentioned.",
        "Last week you added a fixture for the fake S3. Run it on this branch too.",
        "As I said last week, keep the handler thin.",
        "Like I said last week, don't touch it.",
        "last time: the job queue library",
        "just now it failed like last time",
        "帮我回忆一下扫描量的问题",
    }
)
# silent by the grammar, fired by the model
FIRED = frozenset(
    {
        "夏令时那个 bug 是怎么产生的？",
        "最后那个测试过了吗？",
        "数据库迁移的方案是啥？",
        "周报的格式应该是什么样的？",
        "之前那个错误是怎么处理的？看上面的输出",
        "macOS 上 Rust 编译慢的问题咱们研究过，现在结论是什么？",
        "咱们不是已经在 main 上了吗",
        "说的是先灰度再全量吧？",
        "跟我们做的不一样，再查查",
        "你说的是第二个方案吗？",
        "我们说的是同一个函数吧？",
        "Did we break something?",
    }
)


def read(text: str) -> str | None:
    """The cue `detect_cue` finds, or the grammar's where the learned detector reads the form otherwise."""
    return grammar_cue(text) if text in VETOED | FIRED else detect_cue(text)
