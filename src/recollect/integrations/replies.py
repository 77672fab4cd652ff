"""Which replies answer: auto-recall prefers sessions that answered a question over sessions that only
asked it, so it must tell an answer from a reply that did not give one.

A reply answers when it brings something the question did not hold, and does not open by saying the
assistant does not know. Both are read from the reply's structure, not from a list of phrases:

- **new words**: at least `NEW_WORDS` words (a CJK character counts half) that are not in the
  session's own questions. "Let me look at that.", "Saved to memory." or 已记住。 bring none worth
  the name; an answer names what was decided, changed or found.
- **not knowing**: the reply's first clause is the assistant in the first person, negated, with a
  verb of knowing, seeing, having or being sure ("I don't know which format was chosen", "I can't
  tell from here", "I'm not sure", 我不确定, 我这里没有那段历史). Such a reply can repeat every word of
  the question ("which format") and still tell nothing. A reply that opens so and answers anyway
  ("I don't see a reason for Redis: keep Postgres") is taken for no answer: the miss this rule accepts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W\d_{_CJK}]{{3,}}|\d[\w.]*")
NEW_WORDS = 3.0
_NOT_KNOWING = re.compile(
    r"^\W*(?:sorry\W+)?i\s*(?:do\s+not|don't|did\s+not|didn't|cannot|can't|could\s+not|couldn't|am\s+not|'m\s+not"
    r"|have\s+no|haven't)\s+(?:\w+\s+){0,2}?(?:know|tell|see|find|have|remember|recall|sure|aware|access)\b"
    r"|^\W*(?:抱歉\W*)?我(?:这里|这边|目前|现在)?(?:不|没|无法)(?:有|知道|确定|清楚|记得|了解|看到|找到)",
    re.I,
)


def new_words(reply: str, asked: str, stop: frozenset[str] = frozenset()) -> float:
    """Words of `reply` that `asked` does not hold (lower-cased), a CJK character counting half; words in
    `stop` (the tokenizer's function words) do not count."""
    return _fresh(reply, set(_WORD.findall(asked.lower())), stop)


def _fresh(reply: str, seen: set[str], stop: frozenset[str]) -> float:
    fresh = {w for w in _WORD.findall(reply.lower()) if w not in seen and w not in stop}
    return sum(0.5 if w[0] >= "\u3400" and len(w) == 1 else 1.0 for w in fresh)


def is_answer(reply: str, asked: str, stop: frozenset[str] = frozenset()) -> bool:
    """Whether `reply` answers the questions in `asked` (the session's own), see the module's docstring."""
    return answers([reply], asked, stop)[0]


def answers(replies: Sequence[str], asked: str, stop: frozenset[str] = frozenset()) -> list[bool]:
    """`is_answer` for each of `replies` against the same `asked`, whose words are read once (auto-recall
    asks it for every reply of some 80 sessions per cue message)."""
    seen = set(_WORD.findall(asked.lower()))
    return [not _NOT_KNOWING.match(r) and _fresh(r, seen, stop) >= NEW_WORDS for r in replies]
