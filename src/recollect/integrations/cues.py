"""History cues: the expressions in a message that point at earlier work ("last time", "what did we
decide", 上次, 之前 …), one small lexicon per language. Auto-recall (autorecall.py) runs only on a
message that holds one, and looks up the message without them."""

from __future__ import annotations

import re

# --- the lexicon ------------------------------------------------------------------------------------
#
# A small lexicon per language of expressions that point at earlier work. English matches on word
# boundaries, case-insensitively; "before" and "earlier" count only as adverbs (ending a clause, or
# after like/as/than), never as "before the deploy". Chinese 之前/以前 count when they start a clause
# or follow a subject or a comparison (我们之前, 跟之前), never as "部署之前" (before deploying).
_EN = [  # point at a time or a decision: named as the cue when present
    r"what (?:did|do|have) we (?:decide|agree|choose|pick|settle|conclude)\w*(?: on)?",
    r"what we (?:decided|agreed|chose|picked|settled on)",
    r"we (?:already |previously )?(?:decided|agreed|discussed|settled on|talked about)",
    r"same (?:as|way as) (?:before|last time|earlier|we did)",
    r"(?:just )?(?:like|as) (?:before|last time|earlier|we did)",
    r"last time",
    r"the other day",
    r"last (?:week|month|session)",
    r"previously",
    r"yesterday",
    r"(?:before|earlier)(?=\s*(?:[.?!,;:)]|$))",
    r"earlier (?:session|conversation|discussion|chat)",
    r"(?:a|the|our|that) previous (?:session|time|conversation|discussion|chat)",
    r"a (?:while|few days|few weeks) (?:ago|back)",
    r"back then",
]
_EN_QUESTIONS = [  # ask about earlier work without naming when
    # a question word, then "did we" in the same clause: "how did we", "which format did we pick"
    r"(?:how|why|where|which|what|when)(?: [\w'-]+){0,4} did we",
    r"(?:did|didn't|did not|have|haven't) we (?:ever|already)",
    r"didn't we",
    r"remind me",
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
    "前几天",
    "照旧",
    "老样子",
]
_ZH_BEFORE = r"(?:(?<![\u4e00-\u9fff])|(?<=[跟和像同与按照如们我你]))(?:之前|以前)(?:一样|那样)?"


def _en(patterns: list[str]) -> str:
    return r"\b(?:" + "|".join(p.replace(" ", r"\s+") for p in patterns) + r")\b"


_STRONG_RE = re.compile(_en(_EN) + "|" + "|".join(re.escape(c) for c in _ZH) + "|" + _ZH_BEFORE, re.I)
_WEAK_RE = re.compile(_en(_EN_QUESTIONS), re.I)
CUE_RE = re.compile(_STRONG_RE.pattern + "|" + _WEAK_RE.pattern, re.I)


def detect_cue(text: str) -> str | None:
    """The first history cue in `text` that names a time or a decision, else the first question about
    earlier work ("how did we …"); normalised (lower case, single spaces), or None."""
    m = _STRONG_RE.search(text) or _WEAK_RE.search(text)
    return " ".join(m.group(0).lower().split()) if m else None


# The words a question form holds between its question word and "did we" ("which *retry policy* did we")
# are the topic, not the cue: stripping keeps them.
_HELD = re.compile(r"(?:how|why|where|which|what|when)\s+(.*?)\s*\bdid\s+we$", re.I | re.S)


def _keep_held(m: re.Match[str]) -> str:
    held = _HELD.match(m.group(0))
    return f" {held.group(1)} " if held else " "


def strip_cues(text: str) -> str:
    """`text` without its cues (the topic words a question form holds stay)."""
    return CUE_RE.sub(_keep_held, text)


def derive_query(text: str, max_words: int = 24) -> str:
    """The message without its cues, bounded: what the block was looked up for (logged)."""
    return " ".join(strip_cues(text).split()[:max_words])[:400]
