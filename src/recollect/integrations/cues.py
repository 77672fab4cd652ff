"""History cues: the expressions in a message that point at earlier work ("last time", "what did we
decide", 上次, 之前 …). Auto-recall (autorecall.py) runs only on a message that holds one, and looks
up the message without them.

A cue is recognised by its grammar, per language, not by a list of whole phrases:

- a past time: an adverb ("previously", "originally", clause-final "before"), a time ago ("two weeks
  ago"), a last or that time unit ("last sprint", "that time"); 上次, 上周, 前阵子, 当初, 当时, 那时候,
  早些时候, 最近一次, clause-initial or adverbial 之前 / 以前;
- a decision or an instruction told in the past: a person of the conversation (we, I, you) with a
  verb of deciding, choosing or saying in the past ("we landed on", "I told you", "the way I wanted",
  "we went with"), "we" with any verb in the past ("the fix we shipped"), a past auxiliary with "we"
  ("did we", "had we", "were we going to"), "our decision"; 我们决定, 说好的, a first- or second-person
  clause with the experiential aspect 过 (我们改过, 我以前交代过);
- memory: a verb of remembering with what is to be remembered ("do you recall how", "I forget what",
  "recap what", "refresh my memory", "remind me"); 还记得, 我记得, 回忆一下, the particle 来着
  ("what was it again");
- a question about something done already ("has the crash been dealt with already?", "did we ever").

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

_EN = [  # point at a time or a decision: named as the cue when present
    rf"{_WH} (?:did|do|have) we (?:decide|agree|choose|pick|settle|conclude)\w*(?: on)?",
    rf"(?:we|i|you)(?: (?:already|previously|once|all|both|just|finally|eventually|had|have))* {_FRAME_PAST}",
    rf"(?:did|didn't|did not|had|have) (?:i|you) {_FRAME_BASE}\w*(?: (?:on|with|for|about))?",
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
    r"(?:a|the|our|that) previous (?:session|time|conversation|discussion|chat)",
    r"our (?:earlier |previous |last )?(?:discussion|decision|conversation|chat|agreement|conclusion|choice)s?",
    r"a (?:while|few days|few weeks) (?:ago|back)",
    r"back then",
]
_EN_QUESTIONS = [  # ask about earlier work without naming when
    # "we" with any verb in the past: "the fix we shipped" (the verb stays: it may be the topic)
    rf"we (?:\w+ly )?(?P<held>{_ANY_PAST})",
    # a question word, then a past auxiliary with "we" in the same clause: "which format did we pick"
    rf"{_WH}(?: [\w'-]+){{0,4}} (?:did|had|were) we",
    r"(?:did|didn't|did not|had|hadn't|were|weren't) we",
    r"(?:have|haven't) we (?:ever|already)",
    # a question about something done already: "has the crash been dealt with already?"
    r"(?:has|have|had|did|didn't|was|were) (?P<held>[^.?!]{0,80}?)(?:already|ever)(?=[^.?!]*\?)",
    r"(?:do|can|could|did) you (?:remember|recall)",
    rf"(?:remember|recall|recap|forget|forgot|forgotten)(?: \w+){{0,2}}? (?={_WH}\b|whether\b|if\b)",
    r"refresh my memory",
    r"remind me",
    # "what was it again?"
    rf"{_WH}\b(?P<held>[^.?!]*?)\bagain(?=\s*\?)",
]
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
    "还记得",
    "我们决定",
    "决定过",
    "讨论过",
    "照旧",
    "老样子",
]
_ZH_PATTERNS = [
    # a past time: the previous week or month, a while back, back then, that time, the latest time
    r"上(?:个)?(?:周|月|星期|礼拜)",
    r"前(?:几天|阵子|段时间|些天|些日子|两天|几周)",
    r"当(?:初|时)",
    r"那(?:时候|时|会儿)",
    r"早些时候",
    r"最近一次",
    r"曾经",
    r"昨天|去年",
    # agreed, settled (说好的, 商量好, 约好)
    r"(?:说|商量|约|定)好(?:了|的)",
    # remembering: 我记得, 记得…吗, 回忆一下, and the particle 来着 ("what was it again")
    r"[我你]还?记得",
    r"记得(?P<held>[^。！？!?]{0,20})吗",
    r"回(?:忆|想)",
    r"来着",
    # 之前/以前 as "previously": at a clause start, after a subject or a comparison (我们之前, 跟之前), or
    # before a verb of saying, deciding or choosing (日志之前说好); never as "部署之前" (before deploying)
    # nor "watch 之前" (before watch), nor inside 以前缀 (by the prefix)
    r"(?:(?:^|(?<=[，。？！、；：,.?!;:(（\n])|(?<=[，。？！、；：,.?!;:] ))|(?<=[跟和像同与按照如们我你]))"
    r"(?:之前|以前)(?:一样|那样)?(?!缀)",
    r"(?:之前|以前|原来|原先|本来)(?=不是|说|定|讨论|提|聊|选|决定|商量|约|是什么|是怎么|是哪)",
    # a first- or second-person clause with the experiential aspect 过 (我们改过, 我以前交代过), not the
    # 过 of a word (通过 via, 超过 exceed, 跳过 skip, 过期 expire …)
    r"(?:我们|我|你)(?P<held>[^，。？！,.?!；\s]{0,10}?)(?<![通超经不越跳错路放难度滤])过(?![期滤程度去来后渡多于年])",
]


def _en(pattern: str) -> str:
    return r"\b(?:" + pattern.replace(" ", r"\s+") + r")\b"


_STRONG = [re.compile(_en(p), re.I) for p in _EN] + [
    re.compile("|".join(re.escape(c) for c in _ZH)),
    *(re.compile(p) for p in _ZH_PATTERNS),
]
_WEAK = [re.compile(_en(p), re.I) for p in _EN_QUESTIONS]
CUE_PATTERNS = _STRONG + _WEAK


def _first(patterns: list[re.Pattern[str]], text: str) -> re.Match[str] | None:
    found = [m for m in (p.search(text) for p in patterns) if m]
    return min(found, key=lambda m: m.start()) if found else None


def detect_cue(text: str) -> str | None:
    """The first history cue in `text` that names a time or a decision, else the first question about
    earlier work ("how did we …"); normalised (lower case, single spaces), or None."""
    m = _first(_STRONG, text) or _first(_WEAK, text)
    return " ".join(m.group(0).lower().split()) if m else None


def has_cue(text: str) -> bool:
    """Whether `text` holds any history cue."""
    return any(p.search(text) for p in CUE_PATTERNS)


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
    for pattern in CUE_PATTERNS:
        for m in pattern.finditer(text):
            for start, end in _cut_spans(m):
                cut[start:end] = [True] * (end - start)
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
