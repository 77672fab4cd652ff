"""Cue detection, tenth session (integrations/cues.py, cuemarkers.py): the weak, conversational forms of a
reference to shared earlier work, and the surface of the work at hand that must stay silent. Every negative
comes after a positive control of the same form.
"""

from __future__ import annotations

import pytest

from recollect.integrations.cues import detect_cue, strip_cues

from .cue_costs import read


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # "before" / "earlier" end their clause before a conjunction that opens the next one
        (
            "earlier",
            "We set up a tool for the changelog earlier but which one was it?",
            "Compare the output before and after the change.",
        ),
        # the speakers deliberated, with the thing between verb and particle, or as "had a … conversation"
        (
            "we talked it through",
            "why aren't we on redis for the mail worker? i know we talked it through",
            "We had a bug in the talk page parser; fix it.",
        ),
        (
            "we had a long chat",
            "We had a long chat about where cron jobs live. Where did they end up?",
            "We had a long outage yesterday and the logs rotated; add a retention setting.",
        ),
        # not remembering a thing of shared work, said: "I can't recall the command", as 我忘了 (not "I forget to
        # …", a habit, nor general knowledge)
        (
            "i can't recall",
            "The release needs the changelog command you gave me and I can't recall it.",
            "I can't recall the syntax for a Rust match guard, show me an example.",
        ),
        (
            "i forget",
            "I forget the flag we used for skipping the slow tests.",
            "I forget to run the linter; add a hook.",
        ),
    ],
)
def test_english_forms_of_shared_earlier_work(cue: str, text: str, ordinary: str | None) -> None:
    assert detect_cue(text) == cue
    if ordinary is not None:
        assert detect_cue(ordinary) is None


def test_a_request_to_bring_back_what_was_told_in_any_word_order() -> None:
    asked = "A while ago we had a chat about how the invoice mails go out; can you pull that up?"
    assert detect_cue(asked) is not None  # control: "pull that up" asks for the chat told before it
    assert detect_cue("A while ago I wrote a mail sender; can you pull up the logs?") is None  # a new thing
    # "look it over" is a look at the thing, not bringing it back
    assert detect_cue("Yesterday I added a cache; look it over and tell me if it is thread-safe.") is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # not remembering (记不清了, 步骤我忘了), not a thing left undone (我忘了把…加进去, "I forgot to")
        ("记不清了", "CI 上跳过慢测试的那个参数是什么，我记不清了", "我忘了把新模块加到 __init__.py 里，帮我导出一下"),
        ("记不清了", "我们给 staging 定的部署窗口，我记不清了", "Python 的海象运算符是哪个版本加的？我记不清了"),
        ("我忘了", "不停机改表结构，我们原来打算怎么分步上线？步骤我忘了", "别忘了。"),
        # remind me (提醒我一下), not "remind me to"
        ("提醒我一下", "我们的 API 密钥轮换流程，提醒我一下。", "提醒我明天把周报交了"),
        # 我记得 of what the speakers did or of a time of earlier work, not of the code
        ("我记得", "我记得我们约好了日志要能搜，用的哪个库？", "这个正则为什么能匹配空字符串？我记得都转义过了"),
        ("我记得", "我记得上次已经把 lodash 去掉了，怎么还在？", "我记得这里有个缓存，帮我看看"),
        # 我们决定 is the verb "we decided": a cue in a question, the setting of a request to change the code
        (
            "我们决定",
            "失败重试我们决定用哪个框架跑？",
            "我们决定用 pyarrow 写 parquet，不再用 pandas 了，帮我把 writer.py 改一下",
        ),
        # agreed (说好) before what was agreed; not 说好听 (to put it nicely)
        ("我们说好", "切换新计费流程的环境变量，我们说好叫什么名字？", "说好听点，这段代码需要重构"),
        # "A or B?" (是…还是) asks what a person chose, as 是哪个 does
        ("我们选的", "Go 服务的日志库我们选的是 zap 还是 zerolog？", "Go 服务的日志库用 zap，帮我加上初始化"),
    ],
)
def test_chinese_forms_count_as_their_english_twins(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # a time only before now as an attribute is what a thing was (以前的写法, "the previous version"), not
        # earlier work, outside a question; a thing of then pointed at (之前的那套) or reused (按之前的) still counts
        ("以前", "以前的写法是什么样的？", "以前的写法在 Windows 上不兼容，改成用 std::path 处理路径。"),
        ("之前", "之前的那套 nginx 配置，把 gzip 那段拿过来用", "之前的版本太慢了，优化一下 join 的写法。"),
        ("之前", "按之前的约定，把新接口加到 API 文档里", "以前的版本号格式不用改，直接发布 2.2.0。"),
        # 上一次 as "last time", not "the previous commit"
        ("上一次", "上一次发版的时候 changelog 是怎么生成的", "上一次提交改了什么？"),
        # an intention dated then is not work done then
        ("之前", "之前那个缓存层是怎么做的？", "之前一直想弄一个缓存层，现在帮我加上"),
        # "as before" about the screen: the same error, or this session named
        (
            "as last time",
            "Same error as last time. How did we fix it?",
            "I'm getting the same error as before. Can you look?",
        ),
        ("as before", "Use the same commit format as before for this change.", "Same error as before, fix it."),
        ("跟之前一样", "配置跟之前一样，用同一个 bucket", "你刚才改完之后还是跟之前一样的报错，再帮我看看"),
        # what was just done (你刚跑的) is the work at hand, as "the command you just ran"
        ("你以前跑的", "你以前跑的那个命令是什么来着？", "你刚跑的那个命令退出码是多少？"),
    ],
)
def test_the_work_at_hand_in_the_words_of_earlier_work_is_no_cue(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


def test_a_deliberation_told_in_chinese_is_what_the_request_builds_on() -> None:
    # as "when we discussed it last time, why didn't we …?": 讨论 tells a deliberation, as "discussed" does
    assert detect_cue("上回讨论发票邮件队列的时候，为什么没选 Redis？") == "上回"
    assert detect_cue("上回改发票邮件队列的时候，测试挂了，帮我看看") is None  # a told event: the setting


def test_what_a_deliberation_gave_asked_in_chinese_is_about_the_told_clause() -> None:
    # Chinese does not mark the tense of 结论是什么？: after what the speakers did, it asks what that gave
    assert read("macOS 上 Rust 编译慢的问题咱们研究过，结论是什么？") == "咱们研究过"
    assert read("macOS 上 Rust 编译慢的问题咱们研究过，现在结论是什么？") is None  # anchored in the present
    assert read("macOS 上 Rust 编译慢的问题咱们研究过，帮我把 CI 缓存打开") is None  # the setting of a request


def test_then_against_now_is_the_setting_of_a_present_request() -> None:
    assert detect_cue("以前这个项目用的是什么打包工具？") == "以前"  # control: asked about then
    assert detect_cue("以前这个项目用的是 setup.py，现在还能用吗？") is not None  # a question follows: about then
    assert detect_cue("以前这个项目用的是 setup.py，现在帮我迁到 pyproject.toml") is None


@pytest.mark.parametrize(
    ("cue", "text", "present"),
    [
        # a time of earlier work in a clause where the speakers did something, then a question about it
        (
            "at some point",
            "At some point we wrote a benchmark for the parser. Where is it?",
            "Last week we upgraded to Django 5. Can you fix the deprecation warnings?",  # a request put as a question
        ),
        ("前几天", "前几天我们加了个预热脚本，放哪了？", "上周我们升级了 Django，能不能帮我修一下警告？"),
        (
            "上个月",
            "上个月我们对比过两个 JSON 库，哪个更快？",
            "We vendored the protobufs last week and the build now takes twice as long. Can you find out why?",
        ),
    ],
)
def test_what_the_speakers_did_then_asked_about_is_a_cue(cue: str, text: str, present: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(present) is None


def test_at_some_point_dates_earlier_work_only_in_the_past() -> None:
    assert detect_cue("At some point we wrote a benchmark for the parser. Where is it?") == "at some point"  # control
    assert detect_cue("At some point we should refactor this. Can you add a TODO?") is None


@pytest.mark.parametrize(
    "ordinary",
    [
        "I used to write these scripts in bash, rewrite this one in Python.",  # the setting of a request
        "This used to work. Why is it broken now?",  # then against now
        "The function used to parse the timestamps is too slow. Rewrite it without regex.",  # a participle
        "I'm used to pytest, is there a fixture for tmp dirs?",  # accustomed
    ],
)
def test_the_past_habitual_is_before_now(ordinary: str) -> None:
    # "used to" as 以前会…: what was so before now, asked about
    assert detect_cue("the snapshot test used to fail now and then. what was causing it?") == "used to"
    assert detect_cue(ordinary) is None


def test_a_calendar_time_in_the_relative_clause_of_a_thing_dates_it() -> None:
    # what was made then, asked for, is a cue; a present statement about the thing dates it, as "last month's"
    assert detect_cue("The script you wrote yesterday, where is it?") == "yesterday"
    assert detect_cue("The script you wrote yesterday is gone. Can you find it?") == "yesterday"
    assert detect_cue("The test I wrote yesterday for the signature passes locally, but can you extend it?") is None


def test_a_deliberation_told_as_the_setting_of_a_request_is_no_cue() -> None:
    assert detect_cue("why aren't we on redis for the mail worker? i know we talked it through") is not None  # control
    assert detect_cue("We talked it through with the PM and want the button on the left. Move it.") is None
    assert detect_cue("We had a long discussion in standup about naming; rename get_data to fetch_orders.") is None


@pytest.mark.parametrize(
    "present",
    [
        "Last week we switched to uv. How do I add a dev dependency with it?",  # what the speaker does now
        "Yesterday we added a cache layer. Is it thread-safe?",  # a yes-no question about its state
    ],
)
def test_a_question_about_now_after_what_the_speakers_did_is_no_cue(present: str) -> None:
    assert detect_cue("At some point we wrote a script to rotate the keys. Where did it end up?") == "at some point"
    assert detect_cue(present) is None


def test_forgetting_how_something_works_is_general_knowledge() -> None:
    assert detect_cue("I forget what we picked for the queue") is not None  # control: of shared work
    assert detect_cue("I forget how list comprehensions with two for clauses are ordered; explain it.") is None


# Eleventh session: a thing the speakers used, a past change asked why or how, and what the speakers found or
# decided asked after 了. Each form beside a control of the same surface that must stay silent.


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # the thing the speakers together used, named as a topic: a choice of then, as "the convention we landed on"
        (
            "we used",
            "The retry wrapper we used for the S3 uploads, can we reuse it for GCS?",
            "Delete the temp directory you used for the build.",  # what the agent ran
        ),
        (
            "we used",
            "the deploy script we used for staging, send it to me again",
            "The tool we used to generate the client is outdated, switch to openapi-generator.",  # its state now
        ),
        ("我们用的", "我们用的那套 eslint 规则，能不能也放到前端仓库里？", "我们用的这个库有内存泄漏，帮我换成别的"),
        # ... asked what it was, as "which time zone did we use?"
        ("我们用的", "导出报表我们用的时区是哪个？", "我们现在用的是 Python 3.12，帮我把依赖升级一下"),
        ("我们采用的", "压测我们采用的工具是 k6 还是 locust？", "我们用的 ORM 支持异步吗？"),  # a yes-no question
        ("我们用的", "我们用的哪个 CI 缓存方案？", "你用的是什么命令跑的测试？"),  # what the agent ran
        # a verb of deciding ("standardised on") and the typed "whats" of a question
        ("we standardized on", "whats the naming scheme we standardized on for feature branches", None),
    ],
)
def test_a_thing_the_speakers_used_is_a_choice_of_then(cue: str, text: str, ordinary: str | None) -> None:
    assert detect_cue(text) == cue
    if ordinary is not None:
        assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # why or how a thing was changed or mended: the reason of a past decision, the way of a past repair
        (
            "why was the batch size lowered",
            "Why was the batch size lowered to 64 in the trainer config?",
            "Why is the batch size 64 in the trainer config?",  # its state now
        ),
        ("how was the flaky login test fixed", "How was the flaky login test fixed?", "How was this value computed?"),
        (
            "why was redis swapped out",
            "Why was redis swapped out for memcached in the session store?",
            "Why was the test skipped? Check the pytest output.",  # not a change, and the screen pointed at
        ),
        ("是怎么解决的", "登录页那个白屏问题是怎么解决的？", "这个函数是怎么实现的？"),  # how it works
        ("为什么被调成 4 了", "批处理的并发数为什么被调成 4 了？", "进程被杀掉了，帮我看看是不是 OOM"),
        ("是因为什么被关掉的", "CI 里的 e2e 测试是因为什么被关掉的？", "这个接口的异常是怎么处理的？"),  # handled now
        # whether it was changed is in the code; why is not
        ("是怎么绕过去的", "图片上传超时的问题是怎么绕过去的？", "文件被删了吗？"),
    ],
)
def test_why_or_how_a_thing_was_changed_is_asked_about_then(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


def test_stripping_keeps_what_was_changed() -> None:
    kept = "the timeout bumped to 30 seconds?"
    assert strip_cues("Why was the timeout bumped to 30 seconds?").split() == kept.split()
    assert "解决" in strip_cues("登录页那个白屏问题是怎么解决的？")
    assert "默认超时" in strip_cues("我们把默认超时改成了多少？")


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # what the speakers found out, decided or set a thing to, asked after 了 (as "what did we find out?"), not the
        # work itself after 了 (the work at hand, `test_what_we_did_after_le_is_the_work_at_hand`)
        ("查出了", "缓存穿透那个问题我们查出了什么结论？", "你查出了什么？"),  # the agent's search, just now
        ("发现了", "关于构建变慢，咱们发现了哪些原因？", "测试跑完了，发现了哪些失败？"),  # no speakers
        # ... dropped in the clause after the speakers; not anchored in the present
        ("得出了", "我们对比了几种序列化方式，得出了什么结果？", "我们现在发现了几个 bug 了？"),
        ("定了", "关于日志采样，我们定了什么规则？", "这个函数我们传了什么参数？"),
        ("把默认超时改成了", "我们把默认超时改成了多少？", "你把默认超时改成了多少？"),  # the agent, just now
        # ... or what a deliberation gave (a policy, a plan), asked after any verb
        ("了什么", "我们给队列消费者加了什么重试策略？", "我们改了哪些文件？先 git status 看看。"),
    ],
)
def test_what_the_speakers_found_or_decided_is_asked_after_le(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # a warning told earlier is a saying, as "didn't you say"
        ("didn't you warn", "didn't you warn me about something with sqlite and WAL mode", "Warn me before you go."),
        ("你是不是提醒过", "你是不是提醒过我 sqlite 的 WAL 模式有坑", "这个 API 会提醒过期的 token 吗？"),
        # our conclusion about a thing, as "our conclusions about the flaky suite"
        ("咱们对 e2e 不稳定的结论", "把咱们对 e2e 不稳定的结论再过一遍", "咱们对 e2e 的测试覆盖太低了，补一下"),
        # "as I said" where the saying took place (above) is this conversation's, as "we discussed above"
        ("as i said", "As I said last week, keep the handler thin.", "As I said above, keep the handler thin."),
        # a person's past verb in a temporal clause of a past question dates it; a sentence of its own does not
        (
            "you ran",
            "How did the two parsers compare, when you ran them?",
            "Why did the build fail? When I ran it locally it passed.",
        ),
        # a calendar time in the relative clause of a thing whose state now is told dates the thing (as "the test I
        # wrote yesterday passes locally"); asked where it is, it is a cue
        ("昨天", "昨天加的那个测试在哪？", "昨天加的那个测试现在挂了，帮我看看"),
    ],
)
def test_more_sayings_and_times_of_then(cue: str, text: str, ordinary: str) -> None:
    assert read(text) == cue
    assert read(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # a hedged belief about what the speakers did once reaches for earlier work, as remembering does
        (
            "we already wrote",
            "I think we already wrote a helper for parsing ISO durations somewhere",
            "I think we broke the build.",  # no once: the work at hand
        ),
        ("我们好像写过", "解析 ISO 时长的工具函数我们好像写过一个", "你应该跑过这个测试吧"),  # 应该: "should have"
        # compared with a thing a person made then ("the same trick you used"), not a thing of the screen
        ("you used", "Use the same trick you used for the thumbnails on the avatars.", "I get the same error you got."),
        # like what a person did, as "like we did"; not against this session
        ("像你处理缩略图那样", "像你处理缩略图那样处理头像", "跟你刚才那样改一下"),
    ],
)
def test_a_belief_or_a_comparison_about_what_was_done_then(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # Chinese twins of English forms the grammar knew: what a person gave, asked for again
        ("你给我的", "你给我的那段 nginx 配置再贴一下", "把这段 nginx 配置贴到 README 里"),
        # what was decided, asked (定的多少, as "what was it set to?"), after a time of earlier work as its topic
        ("上礼拜", "上礼拜的方案里，缓存过期时间定的多少", "缓存过期时间设成多少合适"),
        # "didn't we already …?"; not where we are now
        ("咱们不是已经", "关于 API 版本号，咱们不是已经有结论了吗", "咱们不是已经在 main 上了吗"),
        # the experiential 过 of the speakers, asked: "have we ever met it?" (not the agent's: 你跑过…吗)
        ("我们是不是遇到过", "这个 bug 我们是不是遇到过？", "你跑过这个测试吗？"),
        # a deliberation's thing, as "the log format we discussed"
        ("我们讨论的", "我们讨论的那个日志格式，帮我落到代码里", "我们的日志格式，帮我落到代码里"),
        # how far the speakers got, as "where did we leave off"
        ("我们做到哪", "登录重构那块我们做到哪一步了？", "登录重构做到哪一步了？看一下 TODO.md"),
        # what was said, asked to be confirmed, as "we said X, right?"
        ("咱们说的", "咱们说的是先灰度再全量吧？", "说的是先灰度再全量吧？"),
        # what the speakers set, asked which, as what they used
        ("我们给 redis 设的", "我们给 redis 设的过期策略是 lru 还是 lfu", "redis 过期策略是什么？看一下 redis.conf"),
    ],
)
def test_chinese_twins_of_known_english_forms(cue: str, text: str, ordinary: str) -> None:
    assert read(text) == cue
    assert read(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "ordinary"),
    [
        # 上次 of a thing in the data (the last login time, as "last_login"), not of the speakers' work
        ("上次登录失败的原因是什么来着？", "用户表里的上次登录时间每次登录都要更新"),
        ("上次我们改过部署时间，改成几点了？", "统计一下上次活跃时间超过 30 天的用户"),
        # a turn of this conversation ("my first message") is where the saying took place
        ("Like I said last week, don't touch it.", "Like I said in my first message, don't touch it."),
        # the repository's history looked at is at hand, as the screen is
        ("这行代码最后是怎么改的？", "这行代码最后是谁改的？用 git blame 查一下"),
    ],
)
def test_the_last_time_of_data_a_first_message_and_git_history_are_at_hand(cue: str, ordinary: str) -> None:
    assert read(cue) is not None
    assert read(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # whether a thing ever was changed or mended, as the experiential 过; not what the code does
        (
            "did the memory leak in the exporter ever get resolved",
            "Did the memory leak in the exporter ever get resolved?",
            "Has this function ever been called with None? Add a guard if so.",
        ),
        # "was there a reason we …", as "is there a reason we chose …"
        ("we kept", "was there a reason we kept the old endpoint alive?", "Was there an error when you ran it?"),
        # since the speakers did it, asked; not of the present ("why is it slow since I added …")
        (
            "we looked",
            "Any progress on the websocket reconnect issue since we looked at it?",
            "why is the build so slow since I added the new dependency?",
        ),
        # a thing not at hand (that, 那个) named as the topic of a question; not a request, nor the thing at hand
        (
            "you made",
            "that backup script you made for the NAS, does it handle rotation?",
            "the test you added, does it cover the edge case?",
        ),
        ("你给 nas 做的", "你给 NAS 做的那个备份脚本，支持轮转吗？", "你刚写的那个函数，有测试吗？"),
    ],
)
def test_whether_it_ever_was_and_a_thing_not_at_hand_asked_about(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # "u" and "ur" are you and your, "how'd" is how did, 咱 is 咱们, 咋 is 怎么: the same forms, typed casually
        ("u mentioned", "u mentioned a tool for diffing json, what was it", "u should add a retry here"),
        ("what was ur", "what was ur suggestion for the flaky playwright tests", "wat does this regex do"),
        ("how'd we", "how'd we end up handling the rate limit on the github api", "how do we handle it? add backoff"),
        ("最后", "github api 限流那事咱最后咋处理的", "这个正则是干啥的"),
        # told, then asked to be confirmed by a tag, as "…, right?" after a comma already was
        ("we had", "we had some script for seeding the db rite? where is it", "we use pnpm, right?"),
    ],
)
def test_casual_spellings_of_the_same_forms(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # shared work taken up again, unfinished: a request to resume a thing the speakers started (as "go back to
        # the approach we used"); not the next step, nor what was just done
        ("we started", "Continue the refactor we started on the payments module.", "Continue with the next step."),
        ("we paused", "resume the migration we paused", "resume the paused container"),
        ("我们没做完的", "继续我们没做完的支付模块重构", "继续下一步"),
        ("我们开了个头的", "把我们开了个头的国际化抽取做完", "把国际化抽取做完然后跑测试"),
        ("我们做了一半的", "回到我们做了一半的缓存改造", "你刚做了一半的那个改动继续做完"),
    ],
)
def test_shared_work_taken_up_again(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text"),
    [
        # like what a person did: a verb of doing after the person, as "like we did"
        ("像咱们改支付模块那样", "像咱们改支付模块那样拆一下"),
        ("跟你修登录那个 bug 一样", "按照跟你修登录那个 bug 一样的办法来"),
        # 上次 opening a clause before a metric, then a question: an event of then asked about
        ("上次", "上次构建时间突然翻倍，原因查到了吗？"),
        ("上次", "上次响应时间变慢是什么原因？"),
        ("上次", "上次编译时间优化用的什么办法？"),
        ("上次", "上次超时时间改成了多少？"),
    ],
)
def test_a_comparison_with_doing_and_a_metric_of_then_asked_about(cue: str, text: str) -> None:
    assert detect_cue(text) == cue


@pytest.mark.parametrize(
    "ordinary",
    [
        # a comparison with what a person thinks, expects, describes, guesses, shows or says (not did), or a contrast
        "结果和我们预期的一样，继续下一步",
        "我觉得跟你想的一样，就这么改吧",
        "输出跟你描述的一样，没问题",
        "报错跟你猜的一样，是路径问题",
        "这个结果和我们想象的不一样，再查查",
        "界面和你截图里那样一致吗",
        "和你说的一样，测试过了",
        "跟我们做的不一样，再查查",
        # a comparison with what is done or set now: a present anchor, or a bare verb before 的 (a state of now)
        "和我们现在做的一样，继续",
        "我的 Python 版本跟你用的一样",
        "跟你配的一样吗？",
        "和你目前改的一样就行",
        # 上次X时间 as a noun phrase inside its clause (after 的, a possessor or a verb): a thing of the data
        "用户表里的上次登录时间要不要加索引？",
        # "you mean this function?", "we're talking about the same function, right?": this conversation
        "你说的是这个函数吧",
        "你说的是第二个方案吗？",
        "我们说的是同一个函数吧？",
    ],
)
def test_what_is_thought_said_or_talked_about_now_is_no_comparison_with_then(ordinary: str) -> None:
    assert read(ordinary) is None
