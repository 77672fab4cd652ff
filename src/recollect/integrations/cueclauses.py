"""The clauses of a message, as cue detection (`cues.py`) reads them: a message is cut at sentence ends, commas,
colons and before a conjunction that opens a clause of its own ("but", "so", "and now", 但是, 现在 …), and each
clause is read for its mood (a question or not), its tense (told in the past or not), a present anchor (now,
still, 现在, 目前), whether it tells a past event as the setting of what follows, and whether it continues the
clause before it (a past or elliptical question, "again", 再, a word that points back).
"""

from __future__ import annotations

import itertools
import re
from functools import cached_property

from recollect.integrations.cuemarkers import ANY_PAST, FRAME_PAST, GUO, KINDS

# What is on the screen of this conversation (a log, an output, a pasted error; 日志, 输出 …).
SCREEN = r"(?:log|output|terminal|console|traceback|stack\s*trace|screenshot|paste|diff|error\s+message)"
ZH_SCREEN = "(?:日志|输出|终端|控制台|报错|错误信息|堆栈|截图|结果|打印)"
# a decision or a deliberation told (English FRAME_PAST and its Chinese twins; not 说明, 提交, 一定)
DECIDED = re.compile(
    rf"\b{FRAME_PAST}\b|说好|讲好|约好|定好|商量|决定|答应|讨论|交代|吩咐|嘱咐|敲定|(?:聊|说|提|定)(?:过|的)", re.I
)
# the same thing of the screen again ("the same error as before", 跟之前一样的报错): compared with earlier in this
# conversation when the time is only before now
SAME_SCREEN = re.compile(
    rf"\bsame\s+(?:\w+\s+)?(?:{SCREEN}|error|exception|failure|warning|crash)s?\b|(?:一样|同样)的{ZH_SCREEN}", re.I
)
TOPIC = re.compile(
    rf"^\W*(?:the|that|this|those|these)(?:\s+[\w'-]+){{1,4}}\s+(?:we|you|i)\s+(?:\w+ly\s+)?{ANY_PAST}\b", re.I
)
# The clauses of a message: cut at a sentence end, a comma or colon, and before a conjunction that
# starts a clause of its own. A "." ends a sentence only before a space (not in parser.py or 2.0).
BOUNDARY = re.compile(
    r"[?!;\n。？！；，,:：]+|\.+(?=\s|$)|\s(?=(?:but|so|and now|and still|and then|then|however|yet)\s)"
    r"|(?=但是|可是|不过|然后|所以|现在)",
    re.I,
)
# A question opens with a question word, or with an auxiliary before its subject ("did we", "is it"; not
# the imperative "Do the migration …").
QUESTION_START = re.compile(
    r"^\W*(?:(?:hey|hmm+|ok|okay|so|and|also|btw|oh|wait)\W+)*(?:(?:how|why|where|which|what|when|who|whose)s?\b"
    r"|(?:is|are|was|were|do|does|did|didn'?t|have|has|had|hadn'?t|can|could|should|would|will|weren'?t|wasn'?t"
    r"|isn'?t|aren'?t)\s+(?:you|u|we|i|they|it|he|she|this|that|there|the|our|my|your)\b)",
    re.I,
)
ZH_QUESTION = re.compile(r"[吗呢么啥谁哪咋]|多少|几[个次天]|是不是|有没有|了没")
PAST_WORD = re.compile(rf"\b(?!(?:set|put|hit)\b)(?:{ANY_PAST}|was|wasn't|were|weren't|hadn't|didn'?t|used to)\b", re.I)
ZH_PAST = re.compile(rf"(?<!为)了|{GUO}|来着|的(?=\s*[？?吗]|\s*$)")
SUBORDINATE = re.compile(r"^\W*(?:after|since|once|ever since|when)\b|^\W*自从|(?:以后|之后|后|的时候)\W*$", re.I)
PRESENT = re.compile(r"\b(?:now|still|currently|anymore|at the moment|these days)\b|现在|目前|如今|仍然|依然", re.I)
PRESENT_AUX = re.compile(
    r"\b(?:do|does|is|are|am|can|could|would|might|may|must|should|will|isn't|aren't|doesn't|don't|can't)\b"
    r"|\w'(?:s|re|m)\b",
    re.I,
)
# "again", or a word that points back at what the clause before told ("use that one", "same fix here",
# 按那个来, 同样, 照着改)
AGAIN = re.compile(
    r"\b(?:again|that one|those|same)\b|(?<!不)再|又|一遍|同样|照着|照搬|那(?:个|套|份|些|样|种)"
    # a request to find the thing told ("find it", 找一下), not a new thing ("find the bug in it")
    r"|\b(?:find|dig\s+up|pull\s+up|look\s+up|bring\s+back|fetch)\s+(?:it|that|them)\b|找(?:一下|找|出来|回来)?\W*$"
    # ... its particle after the thing ("pull that up", "dig it out", 把上回写的迁移脚本翻出来)
    r"|\b(?:pull|dig|look|bring|call|fish)\s+(?:it|that|this|them|those)\s+(?:up|back|out)\b|(?:找|翻|调)(?:出来|回来)",
    re.I,
)
HAN = re.compile(r"[\u4e00-\u9fff]")
TIMES = ("time", "relative", "calendar", "dated")
# what a deliberation or a search gave, asked (结论是什么, 当时的理由是啥, 原因是哪个), as "what was the conclusion"
ZH_PRODUCT = re.compile(
    "(?:结论|理由|原因|办法|方案|做法|思路|结果|解法|建议)(?:是|为)(?:什么|啥|哪|怎么)"
    # ... or what was decided, asked (定的多少, 选的哪个), as "what was it set to"
    "|(?:定|选|约|商量|决定)的是?(?:什么|啥|哪|多少|几)"
)


class Clause:
    """One clause of a message: its mood, its tense and whether it is anchored in the present."""

    def __init__(self, start: int, text: str) -> None:
        self.start, self.end, self.text = start, start + len(text), text
        body = text.strip()
        self.question = body.endswith(("?", "？")) or bool(QUESTION_START.search(body) or ZH_QUESTION.search(body))
        self.past = bool(PAST_WORD.search(body) or ZH_PAST.search(body))
        self.present = PRESENT.search(body) is not None
        # tells a past event, or is a temporal clause ("after I vendored it", 自从…, …以后) before its main one
        han = len(HAN.findall(body))
        told_event = self.past or SUBORDINATE.search(body) is not None
        self.narrative = told_event and not self.question and not TOPIC.match(body)
        short = (han <= 3 and len(body.split()) <= 2) if han else len(body.split()) <= 2
        # what an earlier past clause is about: a past or elliptical question ("…, why?"), or "again", 再说一遍
        # "Which format won?"; 结论是什么？ (what a deliberation gave: Chinese does not mark its tense)
        told = self.past or short or (not PRESENT_AUX.search(body) if not han else ZH_PRODUCT.search(body) is not None)
        self.continues = not self.present and ((told and self.question) or AGAIN.search(body) is not None)

    @cached_property
    def decided(self) -> bool:
        """Whether the clause tells a decision or a deliberation (read once, when a time is found in it)."""
        return DECIDED.search(self.text) is not None

    @cached_property
    def dated(self) -> bool:
        """Whether the clause holds a time of earlier work, before now or of the calendar (read once, when a
        deliberation told in it is found)."""
        return any(p.search(self.text) for patterns, _, kind in KINDS if kind in TIMES for p in patterns)

    @cached_property
    def same_screen(self) -> bool:
        """Whether the clause compares a thing of the screen ("the same error as before"; read once, when a
        marker of before is found in it)."""
        return SAME_SCREEN.search(self.text) is not None


def clauses(part: str) -> list[Clause]:
    cuts = [0, *(m.end() for m in BOUNDARY.finditer(part)), len(part)]
    out = [Clause(a, part[a:b]) for a, b in itertools.pairwise(cuts) if part[a:b].strip(" \t")]
    return out or [Clause(0, part)]
