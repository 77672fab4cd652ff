"""History cues: the expressions in a message that point at earlier work ("last time", "what did we
decide", 上次, 之前 …). Auto-recall (autorecall.py) runs only on a message that holds one, and looks
up the message without them.

A message is a cue when its request is about the past. Two steps, the same in both languages:

1. **Markers of the past**, by their grammar (not whole phrases): `cuemarkers.py`.
2. **The structure of the message** decides which markers count. The message is cut into clauses (`cueclauses.py`)
   (sentence ends, commas, "but" / "so" / "and now", 但是 / 现在 …), and each clause is read for its
   mood (a question or not), its tense (told in the past or not) and a present anchor (now, still,
   现在, 目前).
   - **The past as context** does not count: a clause that tells a past event ("I upgraded numpy
     yesterday", 同事昨天改了接口, 之前的测试都通过了), or a temporal clause before its main one ("after we
     vendored it last week", 上周…以后), followed by a clause that is neither in the past nor elliptical
     ("and now the tests fail", "fix the client", 现在报错) is the setting of a present request.
     Followed by a past question ("…, what did we find?"), an elliptical one ("…, why?"), "again" /
     再 / 一遍 ("I need it again"), a word that points back at it ("same fix here", 照着改) or a request
     to find it ("…, find it", 找一下), it is what the request is about.
   - **A calendar time as an attribute** of a thing ("last month's invoices", 上周的销售数据) dates
     data, not earlier work: a cue only in a question.
   - **A person's past verb** is how people also tell the current work ("I went through the logs",
     "you said the tests pass", 我们刚才改过 log.py), so it counts only where the request is about
     then: with another counted marker; inside a question told in the past ("what were the steps you
     gave me", "Was it you who suggested …"), or before one ("We had a script for it, how did that
     work?"); what you or we did, before "again" ("you gave me a command for it, send it again"; not
     "I upgraded it, try again"); as the relative clause of a definite thing ("the convention *we landed on*", "the way
     *we did it*", 你给我写的那个脚本), or of one a request brings back ("go back to the approach *we used*",
     "pull up whatever *we worked out*", 把我们做的清单找出来; not "delete the file you created"); or with 已经 in
     a question. Never in a clause with a present
     anchor ("the function you changed now lacks …", 你改过的那个函数现在 …).
   - **A pointer at the present conversation** outweighs a weak mark of the past. A message that names
     the current session ("just now", "in this session", "in this PR", 刚才) or points at its screen (a
     place in it: "the error above", "scroll up", 上面的输出; a turn of it: "my last message", "the
     previous command", 上一条命令; what was just done or put in it: "the test you just ran", "the log I
     pasted", 我贴的; a look at it: "in the log", "see the output", 日志里显示, 看一下 ls) is about the work at
     hand: a question, a person's past verb or what something came to there is no cue, nor is a time
     only before now ("the error from before, see above", 之前那个报错…看上面的输出), unless a question asks
     whether something was ever done or met ("have we seen the error above before?", 上面这个报错以前遇到
     过吗？). A time that names earlier work or a calendar time still counts ("is the error below the one
     we had last week?"). The pointer is looked for only once a marker is found.
   - **Each form counts as its twin in the other language** (what the speakers did, deliberated, agreed or
     cannot remember; a time before now as an attribute; then against now), each with the licence of its kind:
     not remembering only of shared work ("we set it up earlier but I can't recall the command", 那个参数…
     我记不清了; not "I can't remember the syntax for …"); the speakers' deliberation told as the setting of a
     request is context unless dated ("We talked it through with the PM; move it"); what the speakers did
     at a time of earlier work is what a following question asks about when it asks which, where or what
     ("At some point we wrote a benchmark. Where is it?", 上个月我们对比过两个库，哪个更快？; not "Is it
     thread-safe?", "How do I …?", "Can you fix …?"); 以前的写法 is what a thing was (as "the previous
     version"), and 以前…，现在帮我… is then against now, the setting of a present request.

`detect_cue` decides with a learned detector beside the grammar (`cuemodel.py`), which reads its signals.

Cues are looked for in the first 2,000 and the last 500 characters of a message, and every pattern is
bounded: a pasted log costs the same as a short message.

The words between a question word and its past auxiliary ("which *queue backend* did we"), and a
content verb after a person ("we *fixed*"), are the topic, not the cue: stripping keeps them.
"""

from __future__ import annotations

import re
from functools import cached_property

from recollect.integrations import cuemodel
from recollect.integrations.cueclauses import (
    HAN,
    PRESENT,
    PRESENT_AUX,
    SCREEN,
    TOPIC,
    ZH_SCREEN,
    Clause,
    clauses,
)
from recollect.integrations.cuemarkers import ANY_PAST, FRAME_PAST, GUO, KINDS, MARKED_KINDS, PRODUCT, WH

# The current session named: "just now", "in this session", "in this PR", 刚才. Against it a question
# form or a past verb is about the work at hand; only a past time still marks earlier work.
_CURRENT = re.compile(
    r"\b(?:just\s+now|this\s+(?:session|conversation|chat)|(?:in|of|during)\s+this\s+(?:pr|pull\s+request|branch|commit))\b"
    r"|刚才|刚刚|方才|(?:这次|本次|这个)(?:会话|对话)|(?:这个|这次|本次|当前)\s*(?:pr|pull\s+request|分支|提交)",
    re.I,
)
# A pointer at what is on the screen of this conversation: a place in it ("the error above", "see below",
# "scroll up", 上面的输出), a turn of it ("my last message", "the previous command", 上一条命令), what was
# just done or put in it ("the test you just ran", "the log I pasted", 我贴的), a look asked for at the
# screen or at a command's output ("in the log", "see the output", 看上面, 日志里, 看一下 ls). Like `_CURRENT`, it
# tells that a question or a past verb is about the work at hand; and a time only before now ("before",
# "previously", 之前, 以前) is then earlier in this conversation, unless a question asks whether something was
# ever done ("have we seen the error above before?", 上面这个报错以前遇到过吗？).
_HERE = re.compile(
    # "above" and "below" as places, not bounds ("pinned below 2", "above 80%", "the limit above which")
    rf"\b(?:above|below)\b(?!\s*[v<>=~]?\d|\s+which\b)|\b(?:up\s+there|scroll(?:ing)?\s+(?:up|down|back))\b"
    r"|\b(?:my|your|the)\s+(?:last|previous|prior|latest|first|initial|original)\s+(?:message|reply|answer|response"
    r"|comment|turn|prompt|question|edit|change|command|step|output|run)s?\b"
    # the repository's own history, looked at ("check git log", 用 git blame 查一下): what it records is at hand
    r"|\bgit\s+(?:log|blame|show|bisect|reflog)\b"
    rf"|\b(?:i|you|we)(?:'ve|\s+have)?\s+just\s+{ANY_PAST}\b|\b(?:a|one)\s+(?:moment|minute|second)\s+ago\b"
    r"|\b(?:pasted|so\s+far)\b"
    # what was just done (你刚跑的, 我刚改了; not 刚好, 刚开始)
    r"|(?:我们|咱们|我|你)刚(?![好才刚开])"
    # a place on the screen ("in the log", "in this output"; not "from the logs", "in the logs": a topic), a
    # look asked for, opening its clause ("see the output", "check the traceback"; not "a command to check
    # the logs")
    rf"|\bin\s+(?:the|this|that|my|your)\s+(?:\w+\s+)?{SCREEN}\b|\b(?:in|see)\s+(?:this|these|those)\s+(?:\w+\s+)?logs\b"
    rf"|(?<![\w'-])(?<![\w'-]\s)(?:(?:please|now|also|and|just)\s+)?(?:see|look\s+at|check|read)\s+"
    rf"(?:the|this|that|my|your)\s+(?:\w+\s+)?{SCREEN}s?\b"
    rf"|\b{SCREEN}\s+(?:here\s+)?(?:says|said|shows|showed|prints|printed|reports|reported)\b"
    rf"|上面|下面|上边|下边|上方|下方|上述|上一(?:条|步|句|轮)|上一个(?:命令|输出|回复|回答|消息|问题)|贴(?:的|了|出来)"
    # the log as what shows something (日志里显示, 输出里报了), not as a topic (日志里记录个人信息)
    rf"|{ZH_SCREEN}(?:里|中)?(?:显示|写着|说|提示|报|出现|打印|提到)|{ZH_SCREEN}(?:里|中)有"
    # a look asked for, opening its clause (看一下 ls, 先看看上面的报错; not 一个看 k8s 日志的命令, a topic)
    rf"|(?:^|(?<=[，。？！、；：,.?!;:\s]))(?:请|先|再|你|帮我|你先)?看(?:一下|看|下)?\s*(?:{ZH_SCREEN}|[A-Za-z])",
    re.I,
)
# The speakers of the conversation: a question about what they did or decided is about earlier work even
# with the screen pointed at ("how did we fix the error above?"); without them it asks about the thing on
# the screen ("was the port already in use? see the log")
_AGENT = re.compile(r"\b(?:you|u)\b|你(?!们)", re.I)
_SPEAKERS = re.compile(r"\b(?:we|you|u|us|our|ur)\b|我们|咱们|咱俩|咱(?![们俩])|你", re.I)
# An experiential question, whether something was ever done or met ("have we seen it before", 遇到过吗), or
# one about what the speakers did then ("how did we solve it before?", 我们之前是怎么修的)
_ASKED_DONE = re.compile(rf"\b(?:have|has|haven't|hasn't)\b|{GUO}|{_SPEAKERS.pattern}", re.I)
# A decision named as a known thing: a definite noun before the person ("the convention we landed on",
# "the way we did it").
_NOT_NOUN = rf"(?:after|before|when|since|because|and|but|so|if|until|while|as|{ANY_PAST})"
_DEFINITE_BEFORE = re.compile(rf"\b(?:the|that|this|those|these)(?:\s+(?!{_NOT_NOUN}\b)[\w'-]+){{1,3}}\s*$", re.I)
# A question about a past thing before the person ("what were the steps you gave me", "Was it you who
# suggested"), and a clause that names such a thing (a topic, not a told event: "That approach you
# recommended, …").
_PAST_QUESTION_BEFORE = re.compile(
    rf"\b(?:{WH}(?:'s)?(?:\s+[\w'-]+){{0,3}}\s+(?:was|were)|was it|were they"
    # "was there a reason we kept it?", as "is there a reason we chose it?"
    rf"|was\s+there\s+(?:a|any)\s+(?:good\s+)?{PRODUCT}s?)\b",
    re.I,
)
# A verb of deciding, choosing or saying: a person's past verb of this kind in a question, or after a
# question word ("is there a reason we chose …", "do you know what port we ended up using", 我们不是说过
# … 吗), asks what was decided or said then.
_FRAME_VERB = re.compile(
    rf"\b{FRAME_PAST}\b|(?:说|讲|提|聊|讨论|商量|约|定|决定|选|答应|交代|建议|推荐|提醒|告诉|警告|解释)过|决定"
    # a deliberation's thing (我们讨论的那个日志格式, as "the log format we discussed")
    "|(?:讨论|商量|约定|敲定|定|选|推荐|建议)的$",
    re.I,
)
_WE = re.compile(r"we\b", re.I)
_ZH_RELATIVE_TIME = re.compile("(?:(?!我们|咱|你)[^，。？！,.?!；的]){1,6}的")  # 昨天加的: a thing's time
_WHEN = re.compile(r"^\W*(?:back\s+)?(?:when|while)\b", re.I)
_PERSON_WORD = re.compile(r"\b(?:we|you|u|i)\b|我们|咱们|咱俩|咱(?![们俩])|你", re.I)
# a belief about what the speakers did once, hedged ("I think we wrote one somewhere", 我们好像写过一个): reaching for
# earlier work, as remembering does; not "I think we broke the build" (no once)
_HEDGE = re.compile(
    r"\b(?:i\s+think|i\s+believe|(?:i'm\s+)?(?:pretty|fairly|quite)\s+sure|iirc|if\s+i\s+remember)\b|好像|似乎|大概|印象里|貌似",
    re.I,
)
_ONCE = re.compile(rf"\b(?:once|somewhere|at\s+one\s+point)\b|{GUO}", re.I)
_SAME_BEFORE = re.compile(r"\bsame(?:\s+[\w'-]+){1,3}\s*$", re.I)
_US_ZH = re.compile("我们|咱们|咱俩|咱(?![们俩])")
# a thing the speakers together used, named ("the approach we used", 我们用的那套规则): a choice of then, as "the
# convention we landed on" (not "the directory you used", what the agent ran); after it, a Chinese clause that
# tells more than the thing
_ZH_TOLD = re.compile("[了过有是在要会能把给帮]")
_USED = re.compile(r"we\b.*\b(?:used|adopted)$|(?:我们|咱们|咱俩|咱(?![们俩])).*(?:用|采用|选用|使用)的$", re.I)
_SETTLED = re.compile(
    r"\b(?:decided|agreed|chose|chosen|picked|settled|concluded|landed|ended up|opted|planned|standardi[sz]ed)\b"
    r"|决定|商量|约定|(?:说|定|约|讲)好|(?:定|选)过",
    re.I,
)
_BEFORE_NOW = re.compile(r"\b(?:before|earlier)\b|之前|以前", re.I)
_REUSE_BEFORE = re.compile("[按照跟像同与如]$")
_PRO_VERB = re.compile(r"\b(?:did|had)$", re.I)  # "the way we did": the past action as a whole
_SHARED = re.compile(r"(?:we|you|u\b|我们|咱们|咱俩|咱(?![们俩])|你)", re.I)
_WH_BEFORE = re.compile(rf"\b(?:{WH}|whatever|whichever)\b(?:\s+[\w'-]+){{0,4}}\s*$", re.I)
# A request to bring back a thing of earlier work ("go back to the approach we used", "bring back the
# checklist we made", 把我们做的清单找出来): the thing is not at hand.
_RETRIEVE = re.compile(
    r"\b(?:bring|pull|dig)\s+(?:back|up|out)\b|\b(?:go|get)(?:ing)?\s+back\s+to\b|\b(?:reuse|resurrect|revive|retrieve)\b"
    r"|(?:找|翻|调|拿)(?:出来|回来)"
    # ... or to take it up again, unfinished ("continue the refactor we started", 继续我们没做完的重构, 把…做完)
    r"|\b(?:continue|resume|finish)\b|\bpick\s+up\b|继续|接着|回到|(?:做|弄|搞|改|写)完",
    re.I,
)
# 已经 in a question: something done already (返回格式我们是不是已经统一过了？)
_ZH_DONE_QUESTION = re.compile(
    r"(?:已经|早就)[^，。？！,.?!；]*(?:[？?吗]|$)|(?:是不是|有没有)[^，。？！,.?!；]*(?:已经|早就)"
)

_DATA_TIME = re.compile("(?:(?!我|你|咱)[^，。？！,.?!；\\s]){0,4}?(?:时间|日期|时刻)")  # 上次登录时间: no speaker
_DISTAL_TOPIC = re.compile(rf"^\W*(?:that|those)(?:\s+[\w'-]+){{1,4}}\s+(?:we|you)\s+(?:\w+ly\s+)?{ANY_PAST}\b", re.I)
_SINCE = re.compile(r"\bsince\s*$", re.I)
_TAG = re.compile(r"\b(?:right|rite|correct|yeah|no)\W*$|(?:对吧|是吧|对不对|没错吧)\W*$", re.I)  # a tag question
_AGAIN_ONLY = re.compile(r"\bagain\b|(?<!不)再|一遍", re.I)
_KNOWN = re.compile("那(?:个|次|套|份|些)")
_ASKS_WHICH = re.compile(rf"\b{WH}\b|哪|什么|啥|怎么|为什么|为啥|多少|几|咋", re.I)
_POLITE = re.compile(
    r"^\W*(?:(?:can|could|would|will)\s+(?:you|u)\b|(?:(?:how|what|where|when|why|which)\s+)?(?:do|does|can|could"
    r"|should|shall|would|will)\s+(?:i|we)\b|(?:你)?(?:能不能|可不可以|可以|能)(?:帮|给|把))",
    re.I,
)
# Cues are looked for in the head and the tail of a message only: a pasted log is not read to its end.
HEAD_CHARS, TAIL_CHARS = 2000, 500
NEAR = 120


def _windows(text: str) -> list[tuple[int, str]]:
    """(offset, part) of `text` that cues are looked for in: all of it, or its head and its tail."""
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return [(0, text)]
    return [(0, text[:HEAD_CHARS]), (len(text) - TAIL_CHARS, text[-TAIL_CHARS:])]


class _Window:
    """One window of a message, cut into clauses, with which markers count in it."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.clauses = clauses(part)
        # a clause telling a past event before a present one is the setting, not the request
        self.context = [
            c.narrative and i + 1 < len(self.clauses) and not self.clauses[i + 1].continues
            for i, c in enumerate(self.clauses)
        ]

    @cached_property
    def named(self) -> bool:
        """Whether the current session is named ("just now", 刚才; read only once a marker is found)."""
        return _CURRENT.search(self.part) is not None

    @cached_property
    def pointers(self) -> list[re.Match[str]]:
        """Where the screen of this conversation is pointed at ("the error above", 上面的输出)."""
        return list(_HERE.finditer(self.part))

    @property
    def current(self) -> bool:
        return self.named or bool(self.pointers)

    def _pointed(self, m: re.Match[str]) -> bool:
        """Whether a pointer at the screen is where the verb of `m` took place: right after it, in its clause
        ("the case we discussed above", "we talked about this a minute ago"). Further on it points at the
        thing asked about ("how did we fix the error above?"), and the question is still about earlier work."""
        end = self.clauses[self._at(m.start())].end
        between = (self.part[m.end() : p.start()] for p in self.pointers if m.end() <= p.start() < end)
        return any(len(words.split()) <= 1 for words in between)

    def _at(self, pos: int) -> int:
        return next((i for i, c in enumerate(self.clauses) if pos < c.end), len(self.clauses) - 1)

    @cached_property
    def marked(self) -> bool:
        """Whether a marker other than a person's past verb counts here."""
        return any(
            self.counts(m, kind)
            for patterns, _, kind in KINDS
            if kind in MARKED_KINDS
            for p in patterns
            for m in p.finditer(self.part)
        )

    def counts(self, m: re.Match[str], kind: str) -> bool:
        """Whether the match `m` of a pattern of `kind` is a cue here."""
        i = self._at(m.start())
        clause = self.clauses[i]
        if kind == "reuse":
            # "like last time", 跟上次一样: a reference to earlier work, whatever the clause; "as before", 跟之前一样
            # against this session or its screen compares with earlier in it ("the same error as before",
            # 刚才…跟之前一样)
            # ... and "as I said", "like we discussed" there, where the saying took place ("as I said above"), is this
            # conversation's, as "we discussed above" is
            said_here = _PERSON_WORD.search(m.group(0)) is not None and (self.named or self._pointed(m))
            return not (said_here or (self._earlier_here(clause) and _BEFORE_NOW.search(m.group(0)) is not None))
        if kind == "outcome":  # "what was the fix in the end?", 最后是怎么修好的？ (not "…in the end? see above")
            told = clause.past or re.search("[了过的]", clause.text) is not None
            return clause.question and told and not self.current
        if kind == "relative" and clause.same_screen:
            return False  # "I get the same error as before": earlier in this conversation
        if kind == "relative" and self.current and not (self._asks(i) and _ASKED_DONE.search(clause.text)):
            # "the error from before, see above", 之前那个报错…看上面的输出: earlier in this conversation; but
            # asked whether it was ever met or what we did then ("did we see the error above before?", 上面这个
            # 报错我们之前是怎么修的？), the time is the earlier work's
            return False
        if kind == "relative" and self._then_now(i):
            return False  # 以前用的是 setup.py，现在帮我迁到…: then against now, the setting of a present request
        if kind == "relative" and self._attribute(m) and not self._asks(i):
            # 以前的写法, 之前的版本: what a thing was, as "the previous version" (之前的那套 is one of then)
            return False
        if kind == "time" and _DATA_TIME.match(self.part, m.end()) and not self._opens_question(m, i):
            return False  # 上次登录时间, 用户上次下单的时间: the last time of a thing in the data, as "last_login"
        if kind in ("time", "relative", "calendar", "dated"):
            return self._time_counts(m, kind, i)
        if kind == "found":
            # 我们查出了什么？ (what did we find out?): the speakers its subject, in its clause or, dropped, in the
            # one before (我们对比了几种写法，得出了什么结果？); not what is found so far here (现在, 刚, 上面)
            said = self.part[self.clauses[max(0, i - 1)].start : m.start()]
            return not (clause.present or self.current) and _US_ZH.search(said) is not None
        if self.named or (self.pointers and (self._pointed(m) or not _SPEAKERS.search(clause.text))):
            return False  # a question or a past verb against "just now", 刚才, or the screen: the work at hand
        if kind == "changed":  # "Why was the timeout bumped?", 是怎么解决的？: asked, and not of its state now
            return clause.question and not clause.present
        if kind == "deliberated" and self.context[i] and not clause.dated:
            # "We talked it through with the PM; move the button": the setting of a request, unless it was earlier
            # work ("We talked about this last month: keep it.", as a decision told then is what a request builds on)
            return False
        if kind == "forgot":
            # not remembering a thing of shared work (the speakers or a known thing near: "we set it up earlier but
            # I can't recall the command", 那个参数是什么，我记不清了), not general knowledge ("I can't remember the
            # syntax for a match guard")
            near = "".join(c.text for c in self.clauses[max(0, i - 1) : i + 2])
            return _SPEAKERS.search(near) is not None or _KNOWN.search(near) is not None
        if kind in ("asked", "deliberated"):
            return True  # remembering, deciding, discussing: a pointer names what it was about
        if kind == "memory":  # "recall the fix for the race?", "remember that script? run it"
            return clause.question
        if self.pointers and not (clause.question and _SETTLED.search(m.group(0))):
            # a person's past verb against what is on the screen is the work at hand ("did you say you'd add a
            # retry? the log shows none"), unless a question asks what was settled ("see the diff below: is this
            # how we agreed to do it?")
            return False
        return self._person_counts(m, i)

    def _time_counts(self, m: re.Match[str], kind: str, i: int) -> bool:
        """Whether a time of earlier work (`kind` time, relative, calendar or dated) counts in clause `i`."""
        clause = self.clauses[i]
        # a setting that tells a decision of earlier work ("after we agreed last time …", 上回说好…以后) is
        # what the request builds on, not mere context
        decided = kind in ("time", "relative") and clause.decided
        # ... and so does what the agent made then ("in a previous session you wrote a parser; where is it?",
        # 上次你帮我写了一个函数，在哪个文件里？): the request is about that thing
        made = kind in ("time", "calendar") and _AGENT.search(clause.text) is not None and self._wanted(i)
        # ... and what the speakers did then, asked about ("at some point we wrote a benchmark; where is it?",
        # 前几天我们加了个脚本，放哪了？; not "…; fix the tests", a request about the present)
        made = made or (
            kind != "relative"
            and not clause.present
            and _SPEAKERS.search(clause.text) is not None
            and self._asked_next(i)
        )
        if (self.context[i] and not (decided or made)) or (kind == "dated" and not clause.past):
            return False
        attribute = re.match(r"\s*(?:'s|’s|的)", self.part[m.end() : m.end() + 3]) is not None
        # ... and so does one inside the relative clause of a thing ("the test I wrote yesterday passes locally"),
        # unless what was made is asked for
        # (昨天加的那个测试现在挂了, as "the test I added yesterday fails now": the time, a verb and 的, no speaker,
        # and the thing's state now told)
        now = clause.present or (i + 1 < len(self.clauses) and self.clauses[i + 1].present)
        relative = now and _ZH_RELATIVE_TIME.match(self.part, m.end(), clause.end) is not None
        attribute = attribute or (not made and (TOPIC.match(clause.text) is not None or relative))
        return not (kind == "calendar" and attribute and not self._asks(i))

    def _then_now(self, i: int) -> bool:
        """Whether clause `i`, told before now and no question, is followed by a clause anchored in the present
        and then by no question: "then X, now do Y" (以前…，现在帮我…; as "previously X; now make it Y")."""
        after = self.clauses[i + 1] if i + 1 < len(self.clauses) else None
        return (
            after is not None
            and after.present
            and not self.clauses[i].question
            and not self._asked_after[i + 1]
            and HAN.search(self.clauses[i].text) is not None
        )

    @cached_property
    def _asked_after(self) -> list[bool]:
        """Per clause, whether it or a later one is a question (read once, when a time before now is found)."""
        out = [False] * (len(self.clauses) + 1)
        for j in range(len(self.clauses) - 1, -1, -1):
            out[j] = out[j + 1] or self.clauses[j].question
        return out

    def _opens_question(self, m: re.Match[str], i: int) -> bool:
        """Whether `m` opens its clause and a question follows: 上次构建时间突然翻倍，原因查到了吗？ tells an event of
        then (a noun phrase after a possessor, 的 or a verb is a thing of the data: 用户表里的上次登录时间)."""
        return not re.search(r"\w", self.part[self.clauses[i].start : m.start()]) and self._asked_after[i]

    def _earlier_here(self, clause: Clause) -> bool:
        """Whether a comparison with before is with earlier in this conversation: its session or screen is
        pointed at, or the thing compared is of the screen ("the same error as before")."""
        return self.current or clause.same_screen

    def _attribute(self, m: re.Match[str]) -> bool:
        """Whether a Chinese time only before now is an attribute of a thing (以前的写法), not compared or reused with
        (按之前的约定, 跟以前的一样) nor a thing of then pointed at (之前的那套配置)."""
        return (
            self.part.startswith("的", m.end())
            and not self.part.startswith(("的那", "的这"), m.end())
            and not _REUSE_BEFORE.search(self.part, max(0, m.start() - 2), m.start())
        )

    def _asked_next(self, i: int) -> bool:
        """Whether a question follows clause `i` that is not anchored in the present (it asks about what clause
        `i` told: "…; where is it?", 放哪了？, 哪个更快？), not a yes-no question about its state now ("Is it
        thread-safe?"), what the speaker does now ("How do I add a dependency with it?") nor a request put as a
        question ("Can you fix the warnings?", 能不能帮我改一下)."""
        after = self.clauses[i + 1] if i + 1 < len(self.clauses) else None
        return (
            after is not None
            and after.question
            and not after.present
            and _ASKS_WHICH.search(after.text) is not None
            and not _POLITE.match(after.text)
        )

    def _wanted(self, i: int) -> bool:
        """Whether a request follows clause `i` that is not anchored in the present: it is about the thing
        clause `i` told ("…; where is it?", "Run it on this box."), not about its state now ("…; now the tests
        fail", 现在它报错了)."""
        after = self.clauses[i + 1] if i + 1 < len(self.clauses) else None
        return after is not None and not after.present

    def _asks(self, i: int) -> bool:
        """Whether clause `i` is a question, or the topic of the question after it ("X: what was it?")."""
        after = self.clauses[i + 1] if i + 1 < len(self.clauses) else None
        return self.clauses[i].question or (after is not None and after.question and after.continues)

    def _person_counts(self, m: re.Match[str], i: int) -> bool:
        clause = self.clauses[i]
        if self.context[i]:
            return False
        # the licences lie near the verb: its clause, at most NEAR characters either side (bounded per match)
        before = self.part[max(clause.start, m.start() - NEAR) : m.start()]
        if self.marked or _PAST_QUESTION_BEFORE.search(before):
            return True
        if self._asked_of_then(m, i, before):
            return True
        words = before[-48:]  # a question word or a definite noun at most four words before the verb
        if _FRAME_VERB.search(m.group(0)) and (clause.question or _WH_BEFORE.search(words)):
            return True
        if PRESENT.search(self.part, m.end(), min(clause.end, m.end() + NEAR)):
            return False  # "the function you changed now lacks …": the current state
        near = self.part[max(clause.start, m.start() - NEAR) : min(clause.end, m.end() + NEAR)]
        if _WE.match(m.group(0)) and _WH_BEFORE.search(words) and not PRESENT.search(near):
            return True  # what we did, asked indirectly ("tell me what we worked out", "from when we debugged it")
        after = self.clauses[i + 1] if i + 1 < len(self.clauses) else None
        if after is not None and after.continues and (after.past or _SHARED.match(m.group(0))):
            return True  # "…, how did that work?"; "you gave me a command for it, send it again" (not "I …")
        if _SAME_BEFORE.search(words) and not clause.same_screen:
            return True  # compared with a thing of then ("use the same trick you used for the thumbnails")
        if _DEFINITE_BEFORE.search(words) or m.group(0).endswith("的") or self.part.startswith("的那", m.end()):
            # a thing of earlier work when decided, done as a whole or asked about ("the convention we landed
            # on", "the way we did it", "what does the script you gave me do?"); "delete the file you
            # created", "the test you added fails" are the work at hand
            return (
                _FRAME_VERB.search(m.group(0)) is not None
                or _PRO_VERB.search(m.group(0)) is not None
                or self._topic_used(m, i)
                or self._asks(i)
                or _RETRIEVE.search(clause.text) is not None
                # ... or asked for again ("paste the config you gave me again", 你给我的那段配置再贴一下)
                or (
                    _SHARED.match(m.group(0)) is not None
                    and _AGAIN_ONLY.search(self.part, m.end(), clause.end) is not None
                )
            )
        return bool(_ZH_DONE_QUESTION.search(self.part[m.start() : min(clause.end, m.start() + NEAR)]))

    def _asked_of_then(self, m: re.Match[str], i: int, before: str) -> bool:
        """Whether a person's past verb is believed or asked about as then: hedged and done once ("I think we wrote a
        helper for it somewhere", 我们好像写过), since it was done, asked ("Any progress since we looked at it?"),
        asked to be confirmed ("we had a seeding script right?"), the speakers' experiential 过 asked (这个 bug 我们
        是不是遇到过？ as "have we ever met it?"), the time of a past question ("How did they compare, when you ran
        them?"), or a thing not at hand as the topic of a question after it (`_distal_topic`)."""
        clause = self.clauses[i]
        once = _ONCE.search(self.part, m.start(), min(clause.end, m.end() + NEAR)) is not None
        if once and _HEDGE.search(self.part, max(clause.start, m.start() - NEAR), m.end()):
            return True
        if not clause.question:
            return self._distal_topic(m, i)
        if _SHARED.match(m.group(0)) and _SINCE.search(before[-12:]) and not PRESENT_AUX.search(before):
            return True
        tagged = _TAG.search(clause.text[-16:]) is not None and clause.end - m.end() <= NEAR
        if tagged and not PRESENT_AUX.search(self.part, max(clause.start, m.start() - NEAR), clause.end):
            return True
        if _US_ZH.match(m.group(0)) and m.group(0).endswith("过") and not clause.present:
            return True
        ask = self.clauses[i - 1] if i > 0 else None
        if ask is not None and ask.past and ask.text.rstrip().endswith(",") and _WHEN.match(clause.text):
            return True
        return self._distal_topic(m, i)

    def _distal_topic(self, m: re.Match[str], i: int) -> bool:
        """Whether `m` names a thing not at hand as the topic of a question after it: a distal demonstrative
        ("that script you made for the NAS, …?", 你给 NAS 做的那个脚本，…？), its clause nothing but the thing, and
        the question no request ("…, can you fix it?")."""
        after = self.clauses[i + 1] if i + 1 < len(self.clauses) else None
        if after is None or not after.question or after.present or _POLITE.match(after.text):
            return False
        clause, rest = self.clauses[i], self.part[m.end() : min(self.clauses[i].end, m.end() + NEAR)]
        if HAN.search(m.group(0)):
            return rest.startswith("那") and _ZH_TOLD.search(rest) is None
        return _DISTAL_TOPIC.match(clause.text) is not None and PRESENT_AUX.search(rest) is None

    def _topic_used(self, m: re.Match[str], i: int) -> bool:
        """Whether `m` is what the speakers used, in a thing named as the topic of the clause after it ("The retry
        wrapper we used for S3, can we reuse it?", 我们用的那套规则，能不能…): a choice of then, as "the convention we
        landed on"; not the object of a request ("Fix the approach we used in this file") nor with its state now
        told ("The tool we used is outdated")."""
        clause, rest = self.clauses[i], self.part[m.end() : min(self.clauses[i].end, m.end() + NEAR)]
        if _USED.match(m.group(0)) is None or i + 1 >= len(self.clauses):
            return False
        if HAN.search(m.group(0)):
            return _ZH_TOLD.search(rest) is None
        return TOPIC.match(clause.text) is not None and PRESENT_AUX.search(rest) is None

    def flags(self) -> list[str]:
        """The mood, tense and anchors of this window's clauses, for the learned detector (`cuemodel.py`)."""
        c = self.clauses
        return [
            name
            for name, on in (
                ("question", any(x.question for x in c)),
                ("past", any(x.past for x in c)),
                ("present", any(x.present for x in c)),
                ("context", any(self.context)),
                ("here", self.current),
            )
            if on
        ]


def _found(text: str, signals: list[str] | None = None) -> list[tuple[bool, int, re.Match[str]]]:
    """Every cue match in `text`: (strong, offset of its window, match). `signals` gets the name of every marker
    found ("marker:KIND"), of each that counts ("counted:KIND") and the windows' clause flags."""
    out: list[tuple[bool, int, re.Match[str]]] = []
    for offset, part in _windows(text):
        window = _Window(part)
        for patterns, strong, kind in KINDS:
            for pattern in patterns:
                for m in pattern.finditer(part):
                    counted = window.counts(m, kind)
                    if counted:
                        out.append((strong, offset, m))
                    if signals is not None:
                        signals.append(f"{'counted' if counted else 'marker'}:{kind}")
        if signals is not None:
            signals.extend(window.flags())
    return out


def _name(m: re.Match[str]) -> str:
    return " ".join(m.group(0).lower().split())


def grammar_cue(text: str, signals: list[str] | None = None) -> str | None:
    """The grammar's cue in `text` (see `detect_cue`), or None; `signals` as `_found` fills them."""
    found = _found(text, signals)
    best = [f for f in found if f[0]] or found
    if not best:
        return None
    return _name(min(best, key=lambda f: f[1] + f[2].start())[2])


def detect_cue(text: str) -> str | None:
    """The first history cue in `text` that names a time or a decision, else the first question about
    earlier work ("how did we …"); normalised (lower case, single spaces), or None. The learned detector
    (`cuemodel.decide`) reads the grammar's signals with the message's words and decides; a cue it finds that
    the grammar does not is named by the message's opening words (`strip_cues` cuts the grammar's cues only)."""
    signals: list[str] = []
    cue = grammar_cue(text, signals)
    if not cuemodel.decide(text, signals, cue is not None):
        return None
    return cue if cue is not None else " ".join(text[:HEAD_CHARS].lower().split()[:6])[:40]


# The words a question form holds between its question word and its past auxiliary ("which *retry
# policy* did we") are the topic, not the cue: stripping keeps them.
_HELD = re.compile(rf"{WH}\s+(.*?)\s*\b(?:did|had|were)\s+we$", re.I | re.S)


def _cut_spans(m: re.Match[str]) -> list[tuple[int, int]]:
    """The spans of a cue match to cut: all of it but the topic words it holds."""
    if "held" in (m.re.groupindex or {}) and m.group("held") is not None:
        return [(m.start(), m.start("held")), (m.end("held"), m.end())]
    held = _HELD.match(m.group(0))
    if held:
        return [(m.start(), m.start() + held.start(1)), (m.start() + held.end(1), m.end())]
    return [(m.start(), m.end())]


def strip_cues(text: str) -> str:
    """`text` without its cues (the topic words a question form holds stay). Every cue is found in the
    text as written (one cue's look-ahead may need words another cue takes), then all are cut."""
    cut = [False] * len(text)
    for _, offset, m in _found(text):
        for start, end in _cut_spans(m):
            cut[offset + start : offset + end] = [True] * (end - start)
    out: list[str] = []
    for ch, gone in zip(text, cut, strict=True):
        if not gone:
            out.append(ch)
        elif not out or out[-1] != " ":
            out.append(" ")
    return "".join(out)


def derive_query(text: str, max_words: int = 24) -> str:
    """The message without its cues, bounded: what the block was looked up for (logged)."""
    return " ".join(strip_cues(text).split()[:max_words])[:400]
