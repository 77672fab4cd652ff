"""Auto-recall as a retrieval problem (`integrations/autorecall.py`), over a real index of a small,
young store: the kind where the general search's term pruning dropped the topic words."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from recollect.config import load_config
from recollect.index import store
from recollect.index.sync import insert_session
from recollect.integrations import autorecall, recallwords
from recollect.integrations.hooks import HookService
from recollect.model import Message, Part, Session
from recollect.search.scope import Filters
from recollect.text.markers import RECALL_AGENT

from .cue_costs import read

PROJ, OTHER, ZH = "/home/dev/work/proj", "/home/dev/work/other", "/home/dev/work/zhproj"
NOW = int(time.time() * 1000)
QUESTION = "which job queue library should we use for the worker?"


def make(
    sid: str,
    directory: str,
    turns: list[tuple[str, str]],
    *,
    parent: str | None = None,
    agent: str = "build",
    age_days: float = 3,
    files: list[str] | None = None,
) -> Session:
    stamp = NOW - int(age_days * 86_400_000)
    messages = []
    for i, (question, reply) in enumerate(turns):
        messages.append(
            Message(
                id=f"{sid}_u{i}",
                role="user",
                time=stamp,
                agent=agent,
                parts=[Part(id=f"{sid}_pu{i}", kind="text", text=question)],
            )
        )
        if reply:
            parts = [Part(id=f"{sid}_pa{i}", kind="text", text=reply)]
            if files:
                parts.append(
                    Part(id=f"{sid}_pt{i}", kind="tool", tool="edit", tool_input={"filePath": files[0]}, files=files)
                )
            messages.append(Message(id=f"{sid}_a{i}", role="assistant", time=stamp + 1000, parts=parts))
    return Session(
        id=sid,
        source="opencode",
        agent_kind="opencode",
        title=turns[0][0][:50],
        directory=directory,
        project_root=directory,
        parent_id=parent,
        time_created=stamp,
        time_updated=stamp + 2000,
        messages=messages,
    )


STORE = [
    make(
        "ses_answer",
        PROJ,
        [(QUESTION, "We decided on rq instead of celery for the worker: celery needs a broker we do not run.")],
        age_days=10,
        files=[PROJ + "/src/jobs/queue.py"],
    ),
    make("ses_asked1", PROJ, [(QUESTION, "I am not sure yet; let me look at the options.")], age_days=5),
    make("ses_asked2", PROJ, [("Which job queue library should we use for the worker??", "")], age_days=2),
    make("ses_css", PROJ, [("fix the login page css", "Fixed the flexbox in login.css.")]),
    make("ses_foreign", OTHER, [(QUESTION, "We decided on dramatiq for the worker queue.")]),
    make(
        "ses_zh",
        ZH,
        [("部署脚本用什么包管理器？", "我们决定用 pnpm 而不是 npm，因为 lockfile 不兼容。")],
    ),
    # The session being answered: the idle sync already indexed the question being asked.
    make(
        "ses_current",
        PROJ,
        [("What did we decide last time about the job queue library for the worker?", "")],
        age_days=0,
    ),
    # Its recall subagent: the parent's question, and a paraphrase of our tool output.
    make(
        "ses_recall",
        PROJ,
        [("job queue library decision for the worker", "You decided on rq for the worker queue (ses_answer).")],
        parent="ses_current",
        agent=RECALL_AGENT,
        age_days=0,
    ),
]


@pytest.fixture
def index() -> Path:
    path = load_config().index_path
    conn = store.connect(path)
    for s in STORE:
        insert_session(conn, s, "w", "ses_current" if s.parent_id else None)
    conn.close()
    return path


CUE = "What did we decide last time about the job queue library for the worker?"


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("previously we used pnpm for this", "previously"),
        ("How did we handle the timeout before?", "before"),
        ("how did we fix the flaky auth test", "how did we"),
        ("Deploy it the same way as last time", "same way as last time"),
        ("what did we pick for the cache", "what did we pick"),
        ("do it like we did", "like we did"),
        ("以前我们怎么处理超时的？", "以前"),
        ("我们之前用的是哪个库", "我们之前用的"),  # what the speakers used, asked which (3be53b3)
        ("还记得那个端口问题吗", "还记得"),
        ("和上次一样部署", "和上次一样"),
        ("Didn't we fix that crash?", "didn't we"),
        ("What was the fix in a previous session?", "a previous session"),
        ("Which queue backend did we settle on?", "which queue backend did we"),
        ("we hit this a while ago", "a while ago"),
        ("前几天说的重试方案", "前几天"),
    ],
)
def test_cues_in_either_language(text: str, cue: str) -> None:
    assert autorecall.detect_cue(text) == cue


@pytest.mark.parametrize(
    "text",
    [
        "run the tests before the deploy",
        "make it earlier than noon",
        "set the previous_version flag",
        "what did you change in this file?",
        "部署之前先跑测试",
        "在提交以前格式化代码",
        "修复登录页面的样式",
        "Show the previous and the next file in the list output.",
        "Which file did the test write?",
    ],
)
def test_not_cues(text: str) -> None:
    assert autorecall.detect_cue(text) is None


def test_words_are_counted_in_either_script() -> None:
    assert autorecall.word_count("deploy the app") == 3
    assert autorecall.word_count("部署脚本用什么包管理器") == 5.5  # 11 characters, not 10 bigrams
    # The Chinese message's units weigh what its words do, however many bigrams cover them.
    units = autorecall.message_units("部署脚本用什么包管理器")
    assert sum(u.weight for u in units) <= 5.5


def test_answering_session_first_current_family_and_foreign_never(index: Path) -> None:
    block, cue = HookService().recall_block("ses_current", PROJ, CUE, "ses_current_u0")
    assert cue == "what did we decide"
    assert block.startswith(autorecall.RECALL_TAG) and "verify before relying" in block
    assert len(block) <= autorecall.RECALL_MAX_CHARS
    entries = block.split("\n1. ", 1)[1]
    assert "cursor opencode::ses_answer::" in entries.split("\n")[0]  # the session that answered, first
    assert "rq instead of celery" in block
    for absent in ("ses_current", "ses_recall", "ses_foreign", "ses_css", "dramatiq"):
        assert absent not in block, (absent, block)


def test_sessions_asking_the_same_question_collapse(index: Path) -> None:
    block, _ = HookService().recall_block("ses_current", PROJ, CUE)
    assert "+2 asking the same" in block, block
    assert "ses_asked1" not in block and "ses_asked2" not in block


def test_answered_beats_asked(index: Path) -> None:
    conn = store.connect(load_config().index_path)
    filters = Filters(
        scope="project", directory=PROJ, exclude_sessions=autorecall.family(conn, ["opencode::ses_current"])
    )
    found = autorecall.find(conn, CUE, filters, limit=10)
    conn.close()
    assert found[0].session_id == "ses_answer"
    # Without collapsing, the ones that only asked still come after the one that answered.
    assert found[0].also_asked == 2


def test_topic_words_survive_on_a_small_young_store(index: Path) -> None:
    # Every topic word is in most of this store's sessions; all of them still count (the general
    # search's planner drops terms in over 5 % of chunks, for speed on big stores).
    conn = store.connect(load_config().index_path)
    family = autorecall.family(conn, ["opencode::ses_current"])
    assert set(family) == {"opencode::ses_current", "opencode::ses_recall"}
    found = autorecall.find(conn, CUE, Filters(scope="project", directory=PROJ, exclude_sessions=family))
    conn.close()
    assert [e.session_id for e in found] == ["ses_answer"]


def test_the_message_being_answered_is_never_a_candidate(index: Path) -> None:
    # With no session id (say the plugin could not tell), the message itself still never counts:
    # not its chunk, not the card line the idle sync made of it.
    conn = store.connect(load_config().index_path)
    filters = Filters(scope="project", directory=PROJ, exclude_messages=["ses_current_u0"])
    other = "last time, for the worker: which job queue library?"  # positive control: another message
    assert "ses_current" in {e.session_id for e in autorecall.candidates(conn, other, filters, 10)}
    assert "ses_current" not in {e.session_id for e in autorecall.candidates(conn, CUE, filters, 10)}
    conn.close()


def test_chinese_question_fires_and_finds_the_answer(index: Path) -> None:
    block, cue = HookService().recall_block("ses_new", ZH, "我们上次决定部署脚本用哪个包管理器？")
    assert cue == "上次" and "ses_zh" in block and "pnpm" in block, block


def test_sessions_that_only_asked_are_named_only_when_none_answered(index: Path) -> None:
    conn = store.connect(load_config().index_path)
    filters = Filters(scope="project", directory=PROJ, exclude_sessions=["ses_current", "ses_answer"])
    # Positive control: with the answer gone, the best of those that asked stands in.
    found = autorecall.find(conn, CUE, filters)
    assert [e.session_id for e in found] in (["ses_asked1"], ["ses_asked2"]) and not found[0].answered
    everything = Filters(scope="project", directory=PROJ, exclude_sessions=["ses_current"])
    assert [e.session_id for e in autorecall.find(conn, CUE, everything)] == ["ses_answer"]
    conn.close()


def test_silent_when_nothing_scores(index: Path) -> None:
    service = HookService()
    # control, the cue given: the learned detector vetoes this terse one (cue_costs)
    assert "ses_answer" in service.recall_block("s", PROJ, "last time: the job queue library", cue="last time")[0]
    assert service.recall_block("s", PROJ, "last time we tuned the quantum flux capacitor") == ("", "last time")
    assert service.recall_block("s", PROJ, "上次呢？") == ("", "上次")
    assert service.recall_block("s", PROJ, "which job queue library for the worker") == ("", None)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_files_named_by_a_hit_say_whether_they_changed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    git(root, "init", "-q")
    git(root, "config", "user.email", "t@example.com")
    git(root, "config", "user.name", "t")
    for name in ("kept.py", "edited.py", "gone.py"):
        (root / "src" / name).write_text("x = 1\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    time.sleep(1.1)
    session_time = int(time.time() * 1000)  # the session ended after the first commit, before the second
    time.sleep(1.1)
    (root / "src" / "edited.py").write_text("x = 2\n")
    git(root, "commit", "-qam", "two")
    (root / "src" / "gone.py").unlink()
    entry = autorecall.Entry(
        session_id="s",
        source="opencode",
        title="t",
        directory=str(root),
        time=session_time,
        cursor="c",
        snippet="",
        score=1,
        coverage=1,
        files=[str(root / "src" / n) for n in ("kept.py", "edited.py", "gone.py")] + ["/elsewhere/x.py"],
        question_terms=frozenset(),
    )
    autorecall.file_freshness(str(root), [entry])
    assert entry.freshness == "src/kept.py unchanged; src/edited.py changed in git since; src/gone.py no longer exists"
    block = autorecall.format_block("last time", [entry])
    assert "files: src/kept.py unchanged" in block
    # No git repository: no line, and no failure.
    plain = autorecall.Entry(**{**entry.__dict__, "freshness": ""})
    autorecall.file_freshness(str(tmp_path / "nowhere"), [plain])
    assert plain.freshness == ""


def test_a_rebuilt_index_is_seen_by_the_next_message(index: Path) -> None:
    service = HookService()  # keeps its index connection across messages
    assert "ses_answer" in service.recall_block("s", PROJ, CUE)[0]  # positive control
    for leftover in index.parent.glob(index.name + "*"):
        leftover.unlink()
    conn = store.connect(index)
    insert_session(conn, STORE[3], "w", None)  # only the css session
    conn.close()
    assert service.recall_block("s", PROJ, CUE) == ("", "what did we decide")
    service.close()


def test_an_accented_word_counts_as_present(tmp_path: Path) -> None:
    # The message's terms are folded by the one tokenizer (Müller -> muller); the session text must be too.
    conn = store.connect(load_config().index_path)
    fr = "/home/dev/work/frproj"
    insert_session(
        conn,
        make("ses_fr", fr, [("Müller résumé", "Müller: résumé décidé, café fermé.")]),
        "w",
        None,
    )
    found = autorecall.find(conn, "Last time: Müller résumé café?", Filters(scope="project", directory=fr))
    assert [e.session_id for e in found] == ["ses_fr"]
    conn.close()


@pytest.mark.parametrize("scope", [None, "project"])
def test_a_cue_message_detects_its_cue_and_resolves_its_project_once(
    index: Path, monkeypatch: pytest.MonkeyPatch, scope: str | None
) -> None:
    from recollect.integrations import hooks
    from recollect.search import ceiling
    from recollect.search import scope as scope_mod

    calls: dict[str, int] = {}

    def counted(module: object, name: str) -> None:
        real = getattr(module, name)

        def wrapper(*args: object) -> object:
            calls[name] = calls.get(name, 0) + 1
            return real(*args)

        monkeypatch.setattr(module, name, wrapper)

    counted(hooks, "detect_cue")
    counted(scope_mod, "resolve_project_root")
    counted(ceiling, "resolve_project_root")
    service = HookService(scope=scope)
    out = service.on_message("ses_current", PROJ, CUE)
    assert "ses_answer" in out["recall"]  # the real path ran, and found the answer
    assert calls == {"detect_cue": 1, "resolve_project_root": 1}


def test_a_paraphrase_sharing_few_words_comes_back_by_meaning(index: Path) -> None:
    service = HookService()
    # Few of its words are in the answering session (under MIN_COVERAGE), but it means the same.
    paraphrase = "What background worker did we settle on for running tasks asynchronously, last time?"
    block, _ = service.recall_block("ses_new", PROJ, paraphrase)
    assert "ses_answer" in block
    # A nearby word ("worker") and a different topic: neither words nor meaning suffice.
    assert (
        service.recall_block("ses_new", PROJ, "Last time, which icon set did we pick for the worker status page?")[0]
        == ""
    )


def test_chinese_words_the_index_never_saw_still_count_as_missing(index: Path) -> None:
    service = HookService()
    assert (
        "ses_answer" in service.recall_block("ses_new", PROJ, "上次 worker 的 job queue 用的是哪个库？")[0]
    )  # control
    # 监控面板 (dashboard), 图表 (charts): in no session. They are the topic, not cuts across words, so the
    # one shared word ("worker") covers too little.
    assert service.recall_block("ses_new", PROJ, "上次 worker 的监控面板用的是哪个图表库？")[0] == ""


def test_a_latin_word_counts_where_a_word_starts_with_it() -> None:
    (unit,) = autorecall.message_units("macOS")
    assert recallwords.present(unit, "the macos build") and recallwords.present(unit, "os error 24")  # control
    assert recallwords.present(unit, "the test_os_path helper")  # a part of an identifier starts a word
    assert not recallwords.present(unit, "the cost of posts")  # the "os" of macOS, inside other words


def test_a_chinese_question_about_an_english_session_is_weighed_by_its_latin_words(index: Path) -> None:
    service = HookService()
    # No session holds any of its Chinese ("keeps being unstable, on and off; which one did we pick last
    # time?"), which outweighs its two latin words: those decide, and the meaning confirms.
    block, _ = service.recall_block("ses_new", PROJ, "worker 的 library 最近老是不稳定，时好时坏，上次选的是哪个？")
    assert "ses_answer" in block
    # The same frame with one shared latin word and a topic never discussed: the meaning says no.
    assert service.recall_block("ses_new", PROJ, "上次 worker 的监控面板用的是哪个图表库？")[0] == ""


def test_a_meta_word_leaves_no_chinese_bigram_behind() -> None:
    # 怎么 is a meta word: neither its characters nor the bigram 是怎 (是 + 怎) are looked for.
    terms = {t for u in autorecall.message_units("测试又失败了，是怎么修好的？") for t in u.terms}
    assert {"测试", "修好"} <= terms  # control: the topic's words are there
    assert not terms & {"怎么", "是怎", "怎", "么"}


def test_a_question_form_cue_keeps_the_topic_words_it_spans() -> None:
    # "which ... did we" is the cue; the words between are what the message asks about.
    assert autorecall.detect_cue("Which queue backend did we settle on?") == "which queue backend did we"
    assert autorecall.strip_cues("Which queue backend did we settle on?").split() == [
        "queue",
        "backend",
        "settle",
        "on?",
    ]
    assert autorecall.strip_cues("how did we fix the flaky auth test").split() == [
        "fix",
        "the",
        "flaky",
        "auth",
        "test",
    ]


def test_one_shared_word_and_the_cue_frame_do_not_rescue_a_topic_never_discussed(index: Path) -> None:
    service = HookService()
    assert "ses_answer" in service.recall_block("ses_new", PROJ, CUE)[0]  # control: the discussed topic
    # Only "worker" is in the job-queue session. When the cue swallowed "retry policy" (the words between
    # "which" and "did we"), the message was "choose for the worker": 0.574 by meaning against that card.
    never_discussed = "Last time, which retry policy did we choose for the worker?"
    assert service.recall_block("ses_new", PROJ, never_discussed) == ("", "last time")


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        # a person of the conversation with a verb of deciding or saying, in the past
        ("Use the convention we landed on for the API.", "we landed on"),
        ("Write it the way I told you I prefer.", "i told"),
        ("What was the migration path we came up with?", "we came up with"),
        ("What did I say about the changelog?", "did i say about"),
        # a past auxiliary with "we"; "we" with a verb in the past (the verb stays, it may be the topic)
        ("Which framework were we going to use for retries?", "which framework were we"),
        ("How had we ended up partitioning it?", "we ended up"),
        ("what was the patch we shipped for it", "we shipped"),
        # a time ago, a last or that time unit
        ("Two weeks ago the merge ran out of memory.", "two weeks ago"),
        ("What was the root cause that time?", "that time"),
        ("the deploy from last sprint", "last sprint"),
        # memory, and something done already
        ("Do you recall how the tests get their database?", "do you recall"),
        ("I forget what we picked for the queue", "we picked for"),
        ("Refresh my memory on the job queue.", "refresh my memory"),
        ("Has the crash on big repos been dealt with already?", "has the crash on big repos been dealt with already"),
        ("What was the fix again?", "what was the fix again"),
        # Chinese: past time words, 说好, 记得, 来着, the experiential 过 with a first or second person
        ("当初 parquet 输出的分区字段是怎么选的？", "当初"),
        ("上周 merge 那一步内存又爆了", "上周"),
        ("日志之前不是说好了不用 print 吗？", "之前"),
        ("帮我回忆一下扫描量的问题", "回忆"),
        ("重试的退避上限是多少来着？", "来着"),
        ("提交信息要怎么写，我以前交代过", "我以前交代过"),
        ("返回格式我们是不是已经统一过了？", "我们是不是已经统一过"),
    ],
)
def test_cues_by_their_grammar(text: str, cue: str) -> None:
    assert read(text) == cue


@pytest.mark.parametrize(
    "text",
    [
        "Add a check that the refresh token expires after the access token, not before.",
        "Remember to run the tests.",
        "Remember this for future sessions: deploys go through the bastion host.",
        "I added a --limit flag, write a test for it.",
        "Did I spell this right?",
        "Is the server already running?",
        "Run it again?",
        "Sort the invoices so that the earliest due date comes first.",
        "Delete the files older than 30 days.",
        "在启动 watch 之前检查配置文件是否存在。",
        "让 loader 只处理以前缀 raw/ 开头的文件。",
        "把 2024 年之前的事件数据归档到冷存储。",
        "我们跳过这个测试。",
        "你通过 API 调用它。",
        "发票列表的上一页按钮不工作。",
        "以后所有接口都要写类型注解。",
    ],
)
def test_everyday_words_near_cues_are_not_cues(text: str) -> None:
    assert autorecall.detect_cue(text) is None


def test_a_cue_of_a_verb_in_the_past_keeps_the_verb_as_a_topic_word() -> None:
    assert autorecall.strip_cues("Remind me how we fixed the crash").split() == ["how", "fixed", "the", "crash"]
    assert "landed" not in autorecall.strip_cues("the convention we landed on for the API")  # a frame verb goes


def test_a_reply_that_tells_nothing_does_not_make_a_session_answered() -> None:
    # The asker's "I don't know which ..." reply repeats the topic's words; the session that answered
    # holds them only in its question (its reply names the fix, not the error).
    proj = "/home/dev/work/answers"
    conn = store.connect(load_config().index_path)
    answer = make(
        "ses_fix",
        proj,
        [
            (
                "the exporter crashes with 'os error 24' on big trees",
                "Cause: one inotify watch per directory. Fixed: "
                "a single recursive watcher behind a 250 ms debouncer, and the soft RLIMIT_NOFILE raised at start.",
            )
        ],
        age_days=9,
    )
    asker = make(
        "ses_idk",
        proj,
        [
            (
                "how did we fix the os error 24 crash of the exporter?",
                "I don't know how the os error 24 crash of the exporter was fixed; I see no record of it.",
            )
        ],
        age_days=2,
    )
    for s in (answer, asker):
        insert_session(conn, s, "w", None)
    filters = Filters(scope="project", directory=proj)
    found = autorecall.candidates(conn, "last time: the exporter os error 24 crash?", filters, 10)
    assert {e.session_id for e in found} == {"ses_fix", "ses_idk"}  # control: both hold the words
    assert {e.session_id: e.answered for e in found} == {"ses_fix": True, "ses_idk": False}
    block, _ = HookService().recall_block(
        "ses_new", proj, "Last time, how did we fix the exporter's os error 24 crash?"
    )
    conn.close()
    assert "ses_fix" in block.split("\n1. ", 1)[1].split("\n")[0], block


def test_with_card_vectors_the_session_that_stands_out_by_both_views_decides() -> None:
    from recollect.integrations.recallmeaning import MEANING_FLOOR, MEANING_MARGIN, stands_out

    card, said = {1: 0.45, 2: 0.2, 3: 0.1}, {1: 0.4, 2: 0.25, 3: 0.1}
    assert stands_out(card, said) == (1, pytest.approx(0.425))  # control: nearest by both, well ahead
    assert stands_out(card, {**said, 2: 0.5}) is None  # what it said is nearer another session's
    close = 0.45 - MEANING_MARGIN / 2
    assert stands_out({**card, 2: close}, said) is None  # its card only a little nearer than the next
    low = MEANING_FLOOR / 2
    assert stands_out({1: low, 2: 0.0}, {1: low, 2: 0.0}) is None  # ahead, but nowhere near the topic
    assert stands_out({}, {}) is None
    # alone (a young store), nothing shows the way: it must be near on its own
    assert stands_out({1: 0.4}, {1: 0.4}) == (1, pytest.approx(0.4))
    assert stands_out({1: 0.3}, {1: 0.3}) is None


def test_every_cue_is_cut_from_the_message_as_written() -> None:
    # 原来 is a cue through its look-ahead (说好); 说好的 is a cue of its own: both go, however ordered.
    assert autorecall.strip_cues("按原来说好的方式给新脚本加日志。").split() == ["按", "方式给新脚本加日志。"]
    # 还记得 and 记得 … 吗 overlap: the words 记得 … 吗 holds (the topic) stay.
    assert "夜间数据补全任务内存爆掉的事" in autorecall.strip_cues("还记得上次夜间数据补全任务内存爆掉的事吗？")


ORDINARY_PAST = json.loads((Path(__file__).resolve().parents[2] / "bench" / "cue_ordinary_past.json").read_text())


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        # the same past verbs, with a marker of earlier work: a past time, or a question about then
        ("We went with Redis last time, why?", "we went with"),
        ("I went with Redis before, didn't I?", "i went with"),
        ("你之前看过这个文件吗？", "你之前看过"),
        ("我们上次改过 log.py 吗？", "我们上次改过"),
        ("当时我们为什么选了 Redis？", "当时"),
        ("那时候的超时是多少？", "那时候"),
        ("How did we fix the worker crash?", "how did we"),
        ("Earlier I told you how I like the tests.", "earlier"),
    ],
)
def test_a_past_verb_with_a_marker_of_earlier_work_is_a_cue(text: str, cue: str) -> None:
    assert autorecall.detect_cue(text) == cue


@pytest.mark.parametrize("message", ORDINARY_PAST["ordinary"], ids=lambda m: m["id"])
def test_the_current_work_told_in_the_past_is_no_cue(message: dict[str, str]) -> None:
    # control: the same grammar fires on a past verb once earlier work is marked
    assert autorecall.detect_cue("I went through the logs last time, what did I find?") == "i went"
    assert autorecall.detect_cue(message["text"]) is None


def test_a_message_about_the_current_work_gets_no_block(index: Path) -> None:
    service = HookService()
    block, cue = service.recall_block("s", PROJ, "How did we fix the job queue library for the worker before?")
    assert cue and "ses_answer" in block  # control: a cue about that topic brings the old session
    for text in [
        "We fixed the job queue worker but now it crashes on start, can you look?",
        "I went through the job queue library code and the worker never starts.",
        "I wanted to add retries to the job queue library worker",
        "you said the job queue worker passes but CI is red",
        "我们刚才改过 job queue worker，现在启动就报错。",
    ]:
        assert service.recall_block("s", PROJ, text) == ("", None), text


def test_a_cue_and_nothing_else_opens_no_index(index: Path) -> None:
    control = HookService()
    assert "ses_answer" in control.recall_block("s", PROJ, "上次 job queue library 呢？")[0]
    assert control._index is not None  # control: a cue with words to look for searches the index
    bare = HookService()
    assert bare.recall_block("s", PROJ, "上次呢？") == ("", "上次")
    assert bare.recall_block("s", PROJ, "What did we decide last time?") == ("", "what did we decide")
    assert bare._index is None  # the particle and "?" are no words: nothing was looked up


def test_a_long_pasted_message_is_read_for_cues_at_its_head_and_tail_only() -> None:
    log = "".join(f"WARN worker {i} was never scheduled on node-{i % 7}\n" for i in range(2000))
    assert autorecall.detect_cue("What did we decide last time?\n" + log) == "what did we decide"  # head
    assert autorecall.detect_cue(log + "What did we decide last time?") == "what did we decide"  # tail
    middle = log[:3000] + "\nlast time\n" + log[3000:]
    assert "last time" not in autorecall.strip_cues(log[:1000] + "\nlast time\n" + log[1000:])  # control: in the head
    assert "last time" in autorecall.strip_cues(middle)  # the middle is not read
    assert autorecall.detect_cue(log) is None


def test_a_question_about_the_current_session_is_no_cue() -> None:
    assert autorecall.detect_cue("What did we decide last time about the name?") == "what did we decide"  # control
    assert autorecall.detect_cue("What did we decide just now about the name?") is None
    assert autorecall.detect_cue("Which file did we change in this session?") is None
    assert autorecall.detect_cue("你刚才说的测试还记得吗？") is None
    assert read("just now it failed like last time") == "like last time"  # a past time still is


def test_did_we_with_a_verb_of_the_work_at_hand_is_no_cue() -> None:
    # controls: "did we" before a verb of deciding, "didn't we", and any message with a mark of earlier work
    assert autorecall.detect_cue("Did we decide on a queue library?") == "did we"
    assert autorecall.detect_cue("Did we ever pick a cache?") == "did we"
    assert autorecall.detect_cue("Didn't we fix that crash?") == "didn't we"
    assert autorecall.detect_cue("Did we break something last time?") == "last time"
    # the work at hand: "Did we break something? The tests fail now."
    assert read("Did we break something?") is None
    assert autorecall.detect_cue("Did we break something? The tests fail now.") is None


def test_what_was_the_thing_we_got_stays_a_cue_and_finds_nothing_unrelated(index: Path) -> None:
    # Decided: a question about a past thing ("what was the fix we shipped", "what was the error we got")
    # is a cue; whether anything comes back is retrieval's to say.
    assert autorecall.detect_cue("What was the error we got?") == "we got"
    service = HookService()
    assert "ses_answer" in service.recall_block("s", PROJ, CUE)[0]  # control: the index answers a cue
    assert service.recall_block("s", PROJ, "What was the error we got?") == ("", "we got")


def test_a_cue_messages_words_are_computed_once(index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recollect.integrations import hooks

    calls: list[str] = []
    real = autorecall.message_units

    def counted(text: str, *args: Any) -> list[autorecall.Unit]:
        calls.append(text)
        return real(text, *args)

    monkeypatch.setattr(autorecall, "message_units", counted)
    monkeypatch.setattr(hooks, "message_units", counted)
    block, _ = HookService().recall_block("s", PROJ, CUE)
    assert "ses_answer" in block and calls == [CUE]


def test_the_block_never_names_a_session_that_only_asked(index: Path) -> None:
    conn = store.connect(load_config().index_path)
    everything = Filters(scope="project", directory=PROJ, exclude_sessions=["ses_current"])
    block = autorecall.format_block(CUE, autorecall.find(conn, CUE, everything), PROJ)
    assert "cursor opencode::ses_answer::" in block, block  # positive control: the session that answered
    gone = Filters(scope="project", directory=PROJ, exclude_sessions=["ses_current", "ses_answer"])
    left = autorecall.find(conn, CUE, gone)
    conn.close()
    assert left and not any(e.answered for e in left), left  # with the answer gone, what is left only asked
    assert autorecall.format_block(CUE, left, PROJ) == ""


def test_an_untitled_session_is_named_as_every_listing_names_it(index: Path) -> None:
    # A session whose agent stored no title is named by the one display title (its first question, cut
    # with an ellipsis), the same the session list shows, not by a fallback of auto-recall's own.
    from recollect import history

    conn = store.connect(load_config().index_path)
    long = "Last time, which job queue library did we settle on for the worker, and why not celery " * 2
    untitled = make("ses_untitled", OTHER, [(long, "We settled on rq: celery needs a broker we do not run.")])
    untitled.title = ""
    insert_session(conn, untitled, "w", None)
    found = autorecall.find(conn, long, Filters(scope="project", directory=OTHER))
    conn.close()
    listed = {s.session_id: s.title for s in history.sessions(Filters(scope="all"), sync_first=False)}
    entries = [e for e in found if e.session_id == "ses_untitled"]
    assert entries, f"auto-recall did not find the untitled session; it found {[e.session_id for e in found]}"
    entry = entries[0]
    assert listed["ses_untitled"].endswith("…") and len(listed["ses_untitled"]) <= 80
    assert entry.title == listed["ses_untitled"]
