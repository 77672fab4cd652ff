"""Cue detection by the structure of a message (integrations/cues.py): its request is about the past.

The corpus cases are the dev halves of bench/cue_corpus.json to bench/cue_corpus6.json (odd ids); their
test halves (even ids) are only measured (bench/bench_cues.py), never read here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recollect.integrations.cues import detect_cue, grammar_cue, strip_cues

from .cue_costs import read

BENCH = Path(__file__).resolve().parents[2] / "bench"
NAMES = tuple(f"cue_corpus{n}.json" for n in ("", "2", "3", "4", "5", "6"))
CORPORA = [json.loads((BENCH / name).read_text(encoding="utf-8")) for name in NAMES]
DEV_CUES = [m for corpus in CORPORA for m in corpus["cue"] if m["split"] == "dev"]
DEV_ORDINARY = [m for corpus in CORPORA for m in corpus["ordinary"] if m["split"] == "dev"]
# Dev cues the grammar leaves undetected: 像 orders 表那样 … ("like the orders table", no mark of the past; its
# English twin says "like we did with the orders table"); 把我们这几次…做的事总结一下 (what we did, to be summed up:
# a relative clause with an everyday verb); "Find the explanation you gave me" (find is also the work at hand:
# "find the bug you introduced"); 那个项目里 … 拿过来用 (a thing of another project, brought over).
UNDETECTED = {"dz25", "fz03", "ge27", "gz25"}
CONTROL = "We had a script to dump prod data into staging, how did that work?"


def test_the_dev_half_is_half_english_half_chinese() -> None:
    for rows in (DEV_CUES, DEV_ORDINARY):
        assert len(rows) >= 110
        assert sum(m["lang"] == "zh" for m in rows) == sum(m["lang"] == "en" for m in rows)


@pytest.mark.parametrize("message", [m for m in DEV_CUES if m["id"] not in UNDETECTED], ids=lambda m: m["id"])
def test_a_request_about_earlier_work_is_a_cue(message: dict[str, str]) -> None:
    assert detect_cue(message["text"]) is not None


@pytest.mark.parametrize("message", DEV_ORDINARY, ids=lambda m: m["id"])
def test_a_request_about_the_work_at_hand_is_no_cue(message: dict[str, str]) -> None:
    assert detect_cue(CONTROL) == "we had"  # control: a person's past verb before a past question
    assert detect_cue(message["text"]) is None


@pytest.mark.parametrize(
    ("cue", "context"),
    [
        # a past event followed by a past or elliptical question is what the request is about; followed
        # by a present clause or request, it is the setting
        ("Yesterday I upgraded numpy. Why?", "I upgraded numpy to 2.0 yesterday and now the tests fail; fix it"),
        ("Last week you gave me a regex for the logs, I need it again", "Last week I wrote a regex, test it"),
        ("同事昨天改了接口，改成什么了？", "同事昨天改了接口，按 openapi.yaml 更新一下客户端"),
        ("我们上周把重试改过一次，为啥？", "之前的测试都通过了，现在加了缓存以后有两个失败"),
        ("Previously we used black. Which formatter replaced it?", "I previously used black but now want ruff"),
    ],
)
def test_the_past_as_context_of_a_present_request_is_no_cue(cue: str, context: str) -> None:
    assert detect_cue(cue) is not None
    assert detect_cue(context) is None


@pytest.mark.parametrize(
    ("cue", "data"),
    [
        ("What was in last week's release notes?", "Archive last week's logs to S3."),
        ("上周的销售报表是怎么导出的？", "把上周的销售报表导出成 CSV"),
        ("the deploy from last sprint", "Write a test for the last day of the month."),
    ],
)
def test_a_calendar_time_as_an_attribute_dates_data_outside_a_question(cue: str, data: str) -> None:
    assert detect_cue(cue) is not None
    assert detect_cue(data) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # a relative clause of a definite thing
        ("we did", "Do the migration the way we did it for the users table.", "The build broke after I merged main."),
        # a verb of deciding or saying in a question, or after a question word
        ("we chose", "Is there a reason we chose Postgres over Mongo?", "We chose Postgres, so write the schema."),
        ("we ended up", "Do you know what port we ended up using?", "I ended up using port 8081, restart it."),
        ("我们不是说", "我们不是说过不用 ORM 吗", "我说过了，别改这个文件"),  # 不是说…吗 is named first
        # inside a question about a past thing
        ("you showed", "what was that command you showed me for the gradle cache", "you showed me the log, fix it"),
        # never with a present anchor after it
        ("你改过", "你改过的那个函数在哪个文件？", "你改过的那个函数现在少了一个参数"),
        ("we made", "do you still have the list of endpoints we made?", "the endpoints we made now return 500"),
    ],
)
def test_a_persons_past_verb_counts_where_the_request_is_about_then(cue: str, text: str, ordinary: str) -> None:
    assert read(text) == cue
    assert read(ordinary) is None


def test_a_weekday_or_month_counts_only_in_a_clause_told_in_the_past() -> None:
    assert detect_cue("What went wrong with the deploy on friday?") == "on friday"
    assert detect_cue("Deploy on friday after the freeze.") is None
    assert detect_cue("what broke in march") == "in march"
    assert detect_cue("schedule the migration in march") is None


def test_a_question_opens_with_a_question_word_or_an_auxiliary_before_its_subject() -> None:
    # "were we" before a verb in -ing asks about a past activity; "where were we" does not
    assert read("what were we doing with the feature flags?") == "what were we"
    assert read("Where were we? Continue with the second step.") is None
    assert read("pick up where we left off on the parser") == "where we left off"
    assert read("resume your prior session") == "your prior session"
    assert read("do this prior to the release") is None


def test_stripping_keeps_the_verb_of_a_persons_past_verb() -> None:
    assert strip_cues("Do the migration the way we did it").split() == [
        "Do",
        "the",
        "migration",
        "the",
        "way",
        "did",
        "it",
    ]
    assert "上周" in strip_cues("把上周的销售报表导出成 CSV")  # control-free: nothing is cut from a non-cue


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("we did, " * 4000, None),
        ("the way we did it. " * 3000, "we did"),
        ("上次，" * 4000, "上次"),
        ("a," * 50000, None),
        ("I went, why? " * 3000, None),
    ],
)
def test_many_clauses_are_read_in_bounded_windows(text: str, cue: str | None) -> None:
    assert detect_cue(text) == cue
    assert len(strip_cues(text)) <= len(text)


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        ("remind me", "remind me what the staging URL is", "remind me to update the docs after this"),
        ("what was the verdict", "What was the verdict on moving to pnpm?", "What's the plan for the release?"),
        ("我们最后怎么定的", "关于限流，我们最后怎么定的？", "你刚才怎么说的？"),
        ("记不记得", "记不记得我们给 Nginx 配过限流", "提醒我明天更新文档"),
        ("上个迭代", "上个迭代做的那个重构，影响了哪些接口？", "上个季度的营收数据导出一下"),
    ],
)
def test_what_a_deliberation_came_to_is_asked_not_a_task_to_come(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # remember / recall with an object, in a question; not the noun, not "remember this for …"
        ("recall", "recall the fix for the race in the upload queue? apply it here", "what's the recall of the model?"),
        ("remember", "remember that script for the api keys? run it", "Remember this: deploys go through the bastion."),
        # what something came to in the end, asked with a question word
        ("最后", "日志库最后定的是 structlog 还是 loguru？", "最后那个测试过了吗？"),
        ("what did we go with in the end", "what did we go with in the end for the queue?", "Did it finally pass?"),
        # an adverb between the person and the verb; "again" after what you or we did, not after what I did
        ("we once had", "We once had a workaround for the SSL error. What was it?", "I once had this bug, check it"),
        ("you gave", "you gave me a command for this, send it again", "I upgraded the deps, try again"),
        ("你给过", "你给过我一个找大文件的命令，再发一下", "我升级了依赖，再试一次"),
        # 之前 / 以前 before an experiential 过 (写过一版 is not 过一会)
        ("以前", "SSL 报错以前有过一个绕过的办法，是什么？", "过一会儿再跑测试"),
        ("之前", "那个脚本之前写过一版，再发一遍", "部署之前先跑测试"),
        # a project-level unit before this one, not the previous commit or page
        ("the previous service", "Use the healthcheck setup from the previous service", "show the previous commit"),
        ("上一个服务", "用上一个服务里那套 healthcheck 配置", "给我看一下和上一个提交的 diff"),
    ],
)
def test_a_reference_to_earlier_work_in_other_words(cue: str, text: str, ordinary: str) -> None:
    assert read(text) == cue
    assert read(ordinary) is None


def test_a_temporal_clause_before_its_main_clause_is_the_setting() -> None:
    assert detect_cue("上周把 protobuf vendor 进来以后，怎么配的？") == "上周"  # control: a question about then
    assert detect_cue("上周把 protobuf vendor 进来以后，构建时间翻倍了，帮我查一下原因") is None
    assert detect_cue("after we vendored it last week, the build takes twice as long") is None


def test_not_before_is_read_by_whole_words() -> None:
    assert detect_cue("have we run into this error before?") == "before"  # "err-or before" is not "or before"
    assert detect_cue("Check the refresh token expires after the access token, not before.") is None
    assert detect_cue("Is it cached now or before?") is None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # what we did, asked indirectly; not against a present anchor
        ("we worked", "Can you tell me what we worked out for the cache?", "What happens now that we dropped py3.9?"),
        (
            "we debugged",
            "Pull up the notes from when we debugged the deadlock",
            "when we deploy it, it crashes; fix it",
        ),
        # earlier sessions in the plural; the current one named
        (
            "last few sessions",
            "Summarize the billing refactor across the last few sessions.",
            "the changes you made this session",
        ),
        # a plan told earlier; being here before; asked again
        ("weren't you", "Weren't you going to look into the slow startup?", "Are you going to look into it?"),
        ("we've been", "we've been here before with this import, what was the way out", "we've been busy, fix it"),
        ("tell me again", "Tell me again how we deploy the docs site", "Try again, it timed out"),
        ("再跟我说一遍", "再跟我说一遍我们是怎么部署文档站的", "再试一次"),
        # Chinese: N units ago, not a year; what it came to; didn't you say; our conclusion; why we chose
        ("几周前", "给我看看几周前我们定下来的插件 API 方案", "查出 2020 年以前注册的用户"),
        ("最后", "共享的 eslint 配置我们最后放在哪了？", "最后一行的缩进不对"),
        ("你不是说", "你不是说要看一下启动慢的问题吗？", "你说得对，改一下"),
        ("我们结论", "网络测试不稳定的问题我们结论是什么？", "网络测试不稳定，改成确定性的"),
        ("我们为什么选", "我们为什么选择把 session 存在 redis 里", "session 存 redis 还是 postgres 好？"),
    ],
)
def test_more_ways_to_ask_about_earlier_work(cue: str, text: str, ordinary: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(ordinary) is None


# A thing of the work at hand named by what a person did to it (review of the sixth session: 17 of 24
# everyday requests like these fired).
@pytest.mark.parametrize(
    "text",
    [
        "The code you wrote has a bug on line 12",
        "Rename the function we added to parse_args",
        "Revert the change you made to main.py",
        "The test you added fails on Windows",
        "Delete the file you created",
        "Move the helper we wrote into utils.py",
        "The regex you gave me does not match tabs",
        "The commit you pushed broke CI",
        "Explain the loop you wrote",
        "Run the script we wrote with --verbose",
        "The endpoint you built returns 404",
    ],
)
def test_a_thing_of_the_work_at_hand_is_no_cue(text: str) -> None:
    # positive controls: the same relative clause decided, done as a whole, or asked about
    assert detect_cue("Use the naming convention we landed on") is not None
    assert detect_cue("Set it up the way we did it") is not None
    assert detect_cue("What was the script you gave me for the backups?") is not None
    assert detect_cue(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "上回说好不用 print 以后，日志统一用哪个库？",
        "After we agreed last time to drop print, which logger do we use?",
    ],
)
def test_a_setting_that_tells_an_earlier_decision_is_a_cue(text: str) -> None:
    # controls: the same settings telling a past event (no decision) before a present request are context
    assert detect_cue("I upgraded numpy last time and now the tests fail, fix them") is None
    assert detect_cue("上次升级 numpy 以后，测试就一直失败，帮我修一下") is None
    assert detect_cue(text) is not None


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        # a past state the speakers own, asked in the past; the same thing asked about now, or as a task
        ("what was our", "What was our reasoning for splitting the auth service?", "What is our plan? Write it."),
        ("what were my", "What were my instructions for commit messages?", "Write instructions for commit messages"),
        (
            "our plan for the migration was what",
            "Our plan for the migration was what, exactly?",
            "Our plan for the migration needs a rollback step; add it.",
        ),
        # what a deliberation gave, asked in the past
        ("what was the reason", "What was the reason behind pinning numpy?", "What is the reason it is pinned?"),
        ("what was the workaround", "What was the workaround for it?", "What is the workaround for it?"),
        ("what did the two of us", "What did the two of us figure out about the leak?", "Figure out the leak"),
        # earlier work the speakers own, not a turn of this conversation
        ("our earlier work", "Reuse the tricks from our earlier work on the scraper", "Undo my previous edit"),
        # a request to bring back a thing of earlier work; the same thing at hand
        ("we made", "Bring back the checklist we made for releases.", "Delete the checklist we made for releases."),
        ("we used", "Go back to the approach we used for the CSV importer", "Fix the approach we used in this file"),
        ("we worked", "Pull up whatever we worked out for the sync conflicts", "Whatever we do, keep the API stable"),
        ("我们做的", "把我们做的发布检查清单找出来。", "把我们做的发布检查清单删掉。"),
        # Chinese: what a person decided, said or asked for, as the thing a question asks for; the past-focus 是…的
        ("我们定的", "数据库迁移的方案我们定的是啥？", "数据库迁移的方案是啥？"),
        ("我跟你交代的", "日志级别我跟你交代的是什么？", "日志级别是什么？"),
        ("我要求的", "周报的格式我要求的是什么样的？", "周报的格式应该是什么样的？"),
    ],
)
def test_a_past_state_of_the_conversation_is_asked_about(cue: str, text: str, ordinary: str) -> None:
    assert read(text) == cue
    assert read(ordinary) is None


# A pointer at the screen of this conversation outweighs a weak mark of the past (review of the seventh
# session: 8 of 32 everyday requests fired, these among them).
@pytest.mark.parametrize(
    ("cue", "here"),
    [
        ("What was the reason behind the retry limit?", "what was the reason behind this exception in the log?"),
        ("之前那个错误是怎么处理的？", "之前那个错误是怎么处理的？看上面的输出"),
        ("我之前写的脚本在哪个目录？", "我之前写的脚本在哪个目录？看一下 ls"),
        ("Where is the script I wrote before?", "Where is the script I wrote before? Look at the ls output above."),
        ("Fix the typo I mentioned.", "Fix the typo I mentioned in my last message."),
        ("Was the port already in use?", "The server log above says bind failed. Was the port already in use?"),
        ("I think we talked about it.", "I think we talked about it above."),
        ("你说过要加重试吗？", "你说过要加重试吗？日志里显示没有重试"),
    ],
)
def test_a_request_about_the_screen_is_no_cue(cue: str, here: str) -> None:
    assert read(cue) is not None  # control: the same words without the pointer are a cue
    assert read(here) is None


@pytest.mark.parametrize(
    ("cue", "text"),
    [
        # a time that names earlier work, or a calendar time, is not earlier in this conversation
        ("last week", "Is the error below the same one we had last week?"),
        ("上次", "上次我们遇到类似上面的错误是怎么解决的？"),
        # whether something was ever done or met
        ("before", "Have we seen the error above before?"),
        ("以前", "上面这个报错以前遇到过吗？"),
    ],
)
def test_a_pointer_at_the_screen_leaves_a_named_earlier_time_a_cue(cue: str, text: str) -> None:
    assert detect_cue("the error from before, see above") is None  # control: a time only before now is silenced
    assert detect_cue(text) == cue


def test_a_bound_is_not_a_place_on_the_screen() -> None:
    assert detect_cue("why is it pinned below 2? see above") is None  # control: "above" points at the screen
    assert detect_cue("Remind me why we pinned pydantic below 2.") == "remind me"
    assert detect_cue("Remind me the size above which we split a file.") == "remind me"


@pytest.mark.parametrize(
    ("cue", "text", "ordinary"),
    [
        ("an older session", "We went through this in an older session: how do I regenerate the fixtures?", None),
        ("another chat", "In another chat we fixed this; do the same here", "Spawn another thread for the uploader"),
        ("另一个对话", "在另一个对话里我们修过这个，这里照着改", "另一个会话还锁着这行，为什么？"),
        ("the other chat", "Use what we found in the other chat", "The other session still holds the row lock, why?"),
    ],
)
def test_a_session_other_than_this_one_is_earlier_work(cue: str, text: str, ordinary: str | None) -> None:
    assert detect_cue(text) == cue
    if ordinary is not None:  # a database session, a thread of the program
        assert detect_cue(ordinary) is None


@pytest.mark.parametrize(
    ("look", "topic"),
    [
        ("先看一下 docker 日志，之前那个报错还在吗？", "你之前给过我一个看 docker 日志的命令，叫什么来着？"),
        (
            "Check the worker logs. Was it previously failing?",
            "You once gave me a command to check the worker logs, what was it?",
        ),
    ],
)
def test_a_look_is_a_pointer_only_where_it_is_asked_for(look: str, topic: str) -> None:
    assert detect_cue(look) is None  # control: a look asked for, opening its clause, points at the screen
    assert detect_cue(topic) is not None  # the same verb inside what a past thing is for is its topic


@pytest.mark.parametrize(
    ("cue", "text", "here"),
    [
        # what the speakers did, asked with a question word after the experiential 过, as "what did we change?"
        ("咱们改过", "咱们改过哪些接口？", "咱们刚才改过哪些接口？"),
        ("what did we", "What did we change?", "What did we change in this PR?"),
    ],
)
def test_what_we_did_asked_is_a_cue_unless_the_current_work_is_named(cue: str, text: str, here: str) -> None:
    assert detect_cue(text) == cue
    assert detect_cue(here) is None


@pytest.mark.parametrize(
    ("cue", "setting"),
    [
        # a request to find the thing just told is about it; a request about a new thing keeps it the setting
        ("那个导出 CSV 的脚本你以前写过，找一下", "我昨天写了个脚本，找一下里面的 bug"),
        ("You wrote a CSV export script once, find it", "I wrote a script yesterday, find the bug in it"),
    ],
)
def test_finding_what_was_told_is_about_then(cue: str, setting: str) -> None:
    assert detect_cue(cue) is not None
    assert detect_cue(setting) is None


def test_having_an_impression_is_remembering() -> None:
    assert detect_cue("你还记得吗，我们给前端定的错误码格式") is not None  # control: 记得
    assert detect_cue("你还有印象吗，我们给前端定的错误码格式") == "有印象"
    assert detect_cue("你刚才还有印象吗，上面那个错误码") is None  # the current work named


@pytest.mark.parametrize(
    "aspect",
    ["我们改了哪些文件？先 git status 看看。", "我们现在跑了多少个用例？", "这个函数我们传了什么参数？"],
)
def test_what_we_did_after_le_is_the_work_at_hand(aspect: str) -> None:
    assert detect_cue("咱们改过哪些接口？") == "咱们改过"  # control: the experiential 过 asks about earlier work
    assert detect_cue(aspect) is None  # 了 is an aspect: what was done so far in this session


@pytest.mark.parametrize(
    ("cue", "text"),
    [
        # remembering, deciding, asking what the speakers did: a pointer at the screen names what it was about
        ("do you remember", "Do you remember how we got past the linker error below?"),
        ("remind me", "Remind me how we dealt with the warning in the output above."),
        ("what did we decide", "What did we decide about the deprecation warning above?"),
        ("didn't we", "Didn't we already patch the crash in this traceback?"),
        ("we agreed on", "Look at the diff below: is this the layout we agreed on?"),
        ("before", "How did we get rid of the error above before?"),
        ("记得上面这个超时我们是怎么处理的吗", "你还记得上面这个超时我们是怎么处理的吗？"),
        ("我们之前是怎么绕过的", "下面这个报错我们之前是怎么绕过的？"),
    ],
)
def test_a_question_about_earlier_work_stays_a_cue_beside_a_pointer(cue: str, text: str) -> None:
    assert detect_cue(text) == cue


@pytest.mark.parametrize(
    ("cue", "here"),
    [
        # the pointer is where the talk took place, right after its verb: earlier in this conversation
        ("Add the migration we discussed last week.", "Add the migration we discussed above."),
        # a question without the speakers asks about the thing on the screen
        ("Was the cache already warm last time?", "Was the cache already warm? See the log above."),
        # a time only before now, as what a thing on the screen is: earlier in this conversation
        ("之前那个报错是怎么处理的？", "之前那个报错是怎么处理的？看上面的输出"),
    ],
)
def test_a_pointer_at_the_screen_keeps_the_talk_in_this_conversation(cue: str, here: str) -> None:
    assert detect_cue(cue) is not None  # control: without the pointer, earlier work
    assert detect_cue(here) is None


@pytest.mark.parametrize(
    ("cue", "text", "present"),
    [
        (
            "a previous session",
            "In a previous session you wrote a retry decorator; where is it?",
            "In a previous session you wrote a retry decorator; now it swallows errors, fix it.",
        ),
        (
            "last week",
            "Last week you added a fixture for the fake S3. Run it on this branch too.",
            "Last week you added a fixture for the fake S3. It still leaks buckets.",
        ),
        ("上次", "上次你帮我写了一个限流中间件，在哪个文件里？", "上次你帮我写了一个限流中间件，现在它报错了，看看。"),
    ],
)
def test_what_the_agent_made_in_an_earlier_session_is_asked_for(cue: str, text: str, present: str) -> None:
    assert read(text) == cue  # the request is about the thing made then
    assert read(present) is None  # the request is about the present state of it: the setting is context


@pytest.mark.parametrize(
    ("cue", "ordinary"),
    [
        ("夏令时那个 bug 我们是怎么处理的？", "夏令时那个 bug 是怎么产生的？"),
        ("We talked about this last month: keep it.", "We talked about this a minute ago: keep it."),
        ("What was the script you gave me for the backups?", "你改的那个文件编译不过"),
    ],
)
def test_the_grammar_alone_where_the_learned_detector_reads_otherwise(cue: str, ordinary: str) -> None:
    # the grammar's licences (grammar_cue). With the learned detector (cuemodel.decide), detect_cue reads two of
    # these otherwise: "We talked about this last month: keep it." is vetoed and 夏令时那个 bug 是怎么产生的？ fires
    # (cue_costs lists every unit form it reads otherwise; docs/loop.md has its gains on fresh sets)
    assert grammar_cue(cue) is not None
    assert grammar_cue(ordinary) is None
