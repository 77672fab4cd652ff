"""History cues: the expressions in a message that point at earlier work ("last time", "what did we
decide", 上次, 之前 …). Auto-recall (autorecall.py) runs only on a message that holds one, and looks
up the message without them.

A cue is recognised by its grammar, per language, not by a list of whole phrases:

- a past time: an adverb ("previously", "originally", clause-final "before"), a time ago ("two weeks
  ago"), a last or that time unit ("last sprint", "that time"); 上次, 上周, 前阵子, 当初, 当时, 那时候,
  早些时候, 最近一次, clause-initial or adverbial 之前 / 以前;
- a question about what was decided or said then ("what did we decide", "how did we fix", "did we",
  "were we going to", "did I say"), "our decision"; 我们决定, 说好的, 讨论过;
- memory: a verb of remembering with what is to be remembered ("do you recall how", "I forget what",
  "recap what", "refresh my memory", "remind me"); 还记得, 我记得, 回忆一下, the particle 来着
  ("what was it again");
- a question about something done already ("has the crash been dealt with already?", "have we ever").

A person of the conversation with a verb in the past ("we landed on", "I told you", "we fixed", 我们改过,
你看过) is how people also tell the work of the current session ("I went through the logs", "you said
the tests pass", 我们刚才改过 log.py). It is a cue only where the message marks earlier work: with one
of the cues above, as a decision named as a known thing ("the convention *we landed on*", "the way *I
told* you"), in a question about a past thing ("what was the fix *we shipped*"), or with 已经 in a
question (我们是不是已经统一过). A message that names the current session ("just now", "in this
session", 刚才) counts only a past time as a cue.

Cues are looked for in the first 2,000 and the last 500 characters of a message, and every pattern is
bounded: a pasted log costs the same as a short message.

The words between a question word and its past auxiliary ("which *queue backend* did we"), and a
content verb after "we" ("we *fixed*"), are the topic, not the cue: stripping keeps them.
"""

from __future__ import annotations

import re

_WH = r"(?:how|why|where|which|what|when|who)"
# Verbs of deciding, choosing, agreeing and saying: about the conversation, not its topic (stripped).
_FRAME_BASE = (
    r"(?:decide|agree|choose|pick|settle|conclude|land|go|come up|end up|opt|say|tell|ask|want|prefer|mention"
    r"|discuss|talk|suggest|recommend|insist|request|specify|plan|propose)"
)
_FRAME_PAST = (
    r"(?:decided|agreed|chose|chosen|picked|settled|concluded|landed|went|gone|came up|ended up|opted|said|told"
    r"|asked|wanted|preferred|mentioned|discussed|talked|suggested|recommended|insisted|requested|specified"
    r"|planned|proposed)(?: (?:on|with|for|about|to))?"
)
# Any verb in the past after "we": a regular -ed form (not need, feed, proceed …) or a common irregular one.
_ANY_PAST = (
    r"(?:(?!(?:n|f|s|proc|exc|succ|emb)eed\b)[a-z]{2,}ed|went|came|made|took|got|ran|found|wrote|set|put|kept"
    r"|left|built|gave|saw|thought|brought|began|broke|hit|switched|knew|sent|spent|held|moved|dropped)"
)
_TIME_UNIT = r"(?:days?|weeks?|months?|years?|sprints?|quarters?|hours?|time|while)"
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"

_EN_TIME = [  # a past time, or "as before": a marker of earlier work by itself
    r"same (?:as|way as) (?:before|last time|earlier|we did)",
    r"(?:just )?(?:like|as) (?:before|last time|earlier|we did)",
    rf"last (?:{_TIME_UNIT}|session|night|{_WEEKDAY})",
    r"that time",
    r"at the time",
    r"the other (?:day|week)",
    rf"(?:a|an|one|two|three|four|five|six|a few|a couple of|some|several|long|\d+) ?{_TIME_UNIT}? ago",
    r"previously",
    r"originally",
    r"yesterday",
    r"once (?:already|before)",
    r"(?<!not\x20)(?<!or\x20)(?<!and\x20)(?<!never\x20)(?:before|earlier)(?=\s*(?:[.?!,;:)]|$))",
    r"earlier (?:session|conversation|discussion|chat)",
    r"earlier(?= (?:we|i|you)\b)",  # "Earlier I told you …", not "earlier than noon"
    r"(?:a|the|our|that) previous (?:session|time|conversation|discussion|chat)",
    r"a (?:while|few days|few weeks) (?:ago|back)",
    r"back then",
]
_EN_ASKED = [  # a question about what was decided or said then, or a decision named as a thing
    rf"{_WH} (?:did|do|have) we (?:decide|agree|choose|pick|settle|conclude)\w*(?: on)?",
    rf"(?:did|didn't|did not|had) (?:i|you) {_FRAME_BASE}\w*(?: (?:on|with|for|about))?",
    r"our (?:earlier |previous |last )?(?:discussion|decision|conversation|chat|agreement|conclusion|choice)s?",
]
# A person of the conversation with a verb of deciding or saying in the past ("we landed on", "I told
# you"): how people also tell the work of the current session ("I went through the logs", "you said the
# tests pass"), so a cue only where the message marks earlier work (`_licensed`).
_EN_PERSON = [
    rf"(?:we|i|you)(?: (?:already|previously|once|all|both|just|finally|eventually|had|have))* {_FRAME_PAST}",
]
_EN_QUESTIONS = [  # ask about earlier work without naming when
    # a question word, then a past auxiliary with "we" in the same clause: "which format did we pick";
    # "were we" only as a plan ("were we going to"), not "where were we"
    rf"{_WH}(?: [\w'-]+){{0,4}} (?:did we|had we|were we(?= (?:going|planning|supposed|meant)\b))",
    # "didn't we" presumes earlier work; "did we" asks about it only before a verb of deciding or saying
    # ("did we settle on", "did we ever"): "Did we break something?" is about the work at hand (a person
    # with a past verb, `_EN_PERSON_QUESTIONS`)
    r"(?:didn't|did not|hadn't|had not) we",
    rf"(?:did|had) we(?= (?:{_FRAME_BASE}|ever|already)\b)",
    r"(?:were|weren't) we(?= (?:going|planning|supposed|meant)\b)",
    r"(?:have|haven't) we (?:ever|already)",
    # a question about something done already: "has the crash been dealt with already?" (bounded: a
    # pasted log of "was never …" lines must not cost a scan to its end per position)
    r"(?:has|have|had|did|didn't|was|were) (?P<held>[^.?!\n]{0,80}?)\balready(?=[^.?!\n]{0,200}\?)",
    r"(?:do|can|could|did) you (?:remember|recall)",
    rf"(?:remember|recall|recap|forget|forgot|forgotten)(?: \w+){{0,2}}? (?={_WH}\b|whether\b|if\b)",
    r"refresh my memory",
    r"remind me",
    # "what was it again?"
    rf"{_WH}\b(?P<held>[^.?!\n]{{0,120}}?)\bagain(?=\s*\?)",
]
# "we" with any verb in the past ("the fix we shipped"; the verb stays, it may be the topic): a cue only
# where the message marks earlier work, as `_EN_PERSON`.
_EN_PERSON_QUESTIONS = [rf"we (?:\w+ly )?(?P<held>{_ANY_PAST})", r"(?:did|had) we"]
_ZH = [
    "跟之前一样",
    "和之前一样",
    "像之前那样",
    "跟上次一样",
    "和上次一样",
    "像上次那样",
    "上一次",
    "上次",
    "上回",
    "那次",
    "先前",
    "此前",
    "早先",
    "以往",
]
_ZH_ASKED = ["还记得", "我们决定", "决定过", "讨论过", "照旧", "老样子"]
# 时 beginning a word of its own: 当时间 and 那时间戳 are 当 + 时间 and 那 + 时间戳, not 当时 / 那时
_SHI_WORD = "(?![间钟区长速序段])"
_ZH_TIME = [
    # a past time: the previous week or month, a while back, back then, that time, the latest time
    r"上(?:个)?(?:周|月|星期|礼拜)",
    r"前(?:几天|阵子|段时间|些天|些日子|两天|几周)",
    rf"当(?:初|时{_SHI_WORD})",
    rf"那(?:时候|时{_SHI_WORD}|会儿)",
    r"早些时候",
    r"最近一次",
    r"曾经",
    r"昨天|去年",
    # 之前/以前 as "previously": at a clause start, after a subject or a comparison (我们之前, 跟之前), or
    # before a verb of saying, deciding or choosing (日志之前说好); never as "部署之前" (before deploying)
    # nor "watch 之前" (before watch), nor inside 以前缀 (by the prefix)
    r"(?:(?:^|(?<=[，。？！、；：,.?!;:(（\n])|(?<=[，。？！、；：,.?!;:] ))|(?<=[跟和像同与按照如们我你]))"
    r"(?:之前|以前)(?:一样|那样)?(?!缀)",
    r"(?:之前|以前|原来|原先|本来)(?=不是|说|定|讨论|提|聊|选|决定|商量|约|是什么|是怎么|是哪)",
]
_ZH_ASKED_PATTERNS = [
    # agreed, settled (说好的, 商量好, 约好)
    r"(?:说|商量|约|定)好(?:了|的)",
    # remembering: 我记得, 记得…吗, 回忆一下, and the particle 来着 ("what was it again")
    r"[我你]还?记得",
    r"记得(?P<held>[^。！？!?]{0,20})吗",
    r"回(?:忆|想)",
    r"来着",
]
# A first- or second-person clause with the experiential aspect 过 (我们改过, 我以前交代过), not the 过 of
# a word (通过 via, 超过 exceed, 跳过 skip, 过期 expire, 过一会 in a while …): 我们刚才改过 and 你看过这个文件吗
# tell the current work, so a cue only where the message marks earlier work (`_licensed`).
_ZH_PERSON = [
    r"(?:我们|我|你)(?P<held>[^，。？！,.?!；\s]{0,10}?)(?<![通超经不越跳错路放难度滤])过(?![期滤程度去来后渡多于年一])",
]
# The current session named: "just now", "in this session", 刚才. Against it a question form or a past
# verb is about the work at hand; only a past time still marks earlier work.
_CURRENT = re.compile(
    r"\b(?:just\s+now|(?:in|of|during)\s+this\s+(?:session|conversation|chat))\b|刚才|刚刚|方才|这次会话|本次会话",
    re.I,
)
# A decision named as a known thing: a definite noun before the person ("the convention we landed on",
# "the way I told you"), or a question about a past thing ("what was the fix we shipped").
_DEFINITE_BEFORE = re.compile(r"\b(?:the|that|this|those|these)(?:\s+[\w'-]+){1,3}\s*$", re.I)
_PAST_QUESTION_BEFORE = re.compile(rf"\b{_WH}\s+(?:was|were)\b", re.I)
_DECIDING = re.compile(
    r"\b(?:decided|agreed|chose|chosen|picked|settled|concluded|landed|went with|gone with|came up|ended up|opted"
    r"|told|preferred|discussed|talked|mentioned|suggested|recommended|planned|proposed)\b",
    re.I,
)
# 已经 in a question: something done already (返回格式我们是不是已经统一过了？)
_ZH_DONE_QUESTION = re.compile(
    r"(?:已经|早就)[^，。？！,.?!；]*(?:[？?吗]|$)|(?:是不是|有没有)[^，。？！,.?!；]*(?:已经|早就)"
)
_CLAUSE_END = re.compile(r"[.?!;\n。？！；]")

# Cues are looked for in the head and the tail of a message only: a pasted log is not read to its end.
HEAD_CHARS, TAIL_CHARS = 2000, 500


def _en(pattern: str) -> str:
    return r"\b(?:" + pattern.replace(" ", r"\s+") + r")\b"


_ZH_WORDS = re.compile("|".join(re.escape(c) for c in _ZH))
_ZH_ASKED_WORDS = re.compile("|".join(re.escape(c) for c in _ZH_ASKED))
_TIME = [re.compile(_en(p), re.I) for p in _EN_TIME] + [_ZH_WORDS, *(re.compile(p) for p in _ZH_TIME)]
_ASKED = [re.compile(_en(p), re.I) for p in _EN_ASKED] + [
    _ZH_ASKED_WORDS,
    *(re.compile(p) for p in _ZH_ASKED_PATTERNS),
]
_PERSON = [re.compile(_en(p), re.I) for p in _EN_PERSON] + [re.compile(p) for p in _ZH_PERSON]
_QUESTIONS = [re.compile(_en(p), re.I) for p in _EN_QUESTIONS]
_PERSON_QUESTIONS = [re.compile(_en(p), re.I) for p in _EN_PERSON_QUESTIONS]
# (patterns, strong, kind): a strong cue names a time or a decision and is preferred as the name. A past
# time is a cue by itself; a question form is not against a named current session; a past verb of a
# person needs a licence (`_Part.counts`).
_KINDS: list[tuple[list[re.Pattern[str]], bool, str]] = [
    (_TIME, True, "time"),
    (_ASKED, True, "asked"),
    (_PERSON, True, "person"),
    (_QUESTIONS, False, "asked"),
    (_PERSON_QUESTIONS, False, "person"),
]


def _windows(text: str) -> list[tuple[int, str]]:
    """(offset, part) of `text` that cues are looked for in: all of it, or its head and its tail."""
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return [(0, text)]
    return [(0, text[:HEAD_CHARS]), (len(text) - TAIL_CHARS, text[-TAIL_CHARS:])]


def _clause(part: str, m: re.Match[str]) -> tuple[str, str]:
    """The clause of `part` before the match `m`, and the rest of that clause from the match on."""
    before = part[: m.start()]
    start = max((e.end() for e in _CLAUSE_END.finditer(before)), default=0)
    after = _CLAUSE_END.search(part, m.end())
    return before[start:], part[m.start() : after.end() if after else len(part)]


class _Part:
    """One window of a message, with what licenses a past verb of a person in it."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.current = _CURRENT.search(part) is not None
        time = any(p.search(part) for p in _TIME)
        asked = not self.current and any(p.search(part) for kind in (_ASKED, _QUESTIONS) for p in kind)
        self.marked = time or asked

    def counts(self, m: re.Match[str], kind: str) -> bool:
        """Whether the match `m` of a pattern of `kind` is a cue here."""
        if kind == "time":
            return True
        if self.current:
            return False  # a question or a past verb against "just now", 刚才: the work at hand
        if kind == "asked":
            return True
        if self.marked:
            return True
        before, rest = _clause(self.part, m)
        if _DECIDING.search(m.group(0)) and _DEFINITE_BEFORE.search(before):
            return True
        if _PAST_QUESTION_BEFORE.search(before):
            return True
        return bool(_ZH_DONE_QUESTION.search(rest))

    def matches(self, pattern: re.Pattern[str], kind: str) -> list[re.Match[str]]:
        return [m for m in pattern.finditer(self.part) if self.counts(m, kind)]


def _found(text: str) -> list[tuple[bool, int, re.Match[str]]]:
    """Every cue match in `text`: (strong, offset of its window, match)."""
    out: list[tuple[bool, int, re.Match[str]]] = []
    for offset, part in _windows(text):
        window = _Part(part)
        for patterns, strong, kind in _KINDS:
            for pattern in patterns:
                out.extend((strong, offset, m) for m in window.matches(pattern, kind))
    return out


def detect_cue(text: str) -> str | None:
    """The first history cue in `text` that names a time or a decision, else the first question about
    earlier work ("how did we …"); normalised (lower case, single spaces), or None."""
    found = _found(text)
    best = [f for f in found if f[0]] or found
    if not best:
        return None
    _, _, m = min(best, key=lambda f: f[1] + f[2].start())
    return " ".join(m.group(0).lower().split())


# The words a question form holds between its question word and its past auxiliary ("which *retry
# policy* did we") are the topic, not the cue: stripping keeps them.
_HELD = re.compile(rf"{_WH}\s+(.*?)\s*\b(?:did|had|were)\s+we$", re.I | re.S)


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
