"""What a query asks for, before anything is ranked: its words, which of them frame the question,
a time it points at, and the parts of a pasted test id.

* **Words.** Each word the person typed is one `Word` with its variants (the token, its light stem;
  a compound's parts are words of their own), so "decided" and its stem "decid" count once.
* **Framing.** "the session where we changed X", "which session fixed Y", "what did we decide about
  Z": the verb that follows the shared subject of a question ("we changed", "session fixed", "I told
  you"; not "where did I move the plant", where the verb is the content, nor "what have we booked so
  far", read as "what we've booked": the perfect asks which of those things were done, and the turns
  that answer say "booked the electrician") and
  the history's own unit nouns ("session", "conversation") after a determiner describe the search,
  not the thing searched for. They stay in the query at a small weight (`FRAMING_WEIGHT` of their idf),
  are not used to pick the match terms, and the content words carry the rank. No phrase list: the
  position in the question decides, and the weight comes from the index's idf like any other word's.
* **About the person.** "When are my guitar lessons?", "which plot did we get at the allotment?": a
  question with the person as its subject (I, my, we, our …; 我, 我们, 咱们) that does not speak to the
  assistant (you, your; 你, 您) and does not ask what to do ("should I", "could we", "can I"; 我应该, 我可以)
  asks for a fact the person stated (`QueryPlan.about_the_person`; stage `speaker` in search/rank.py).
* **Time.** "yesterday", "last week", "last month", "three weeks ago", "in March", "上个月", "上周":
  when a span of the query is plainly a time expression it becomes a time preference (a window in
  milliseconds; sessions updated inside it are preferred, not required) and leaves the terms; a
  month's name stays a word as well, since it is often what the text says ("the events in July").
* **Test ids.** `path/to/test_x.py::test_name[param]` is read like any identifier (the whole id, then
  its pieces, which every run of the file shares) and, beside that, the bare test name as a word of its
  own: the tokenizer keeps `test_name` whole only where it was written apart from its file (`def
  test_name`, pytest's `____ test_name ____` failure header, "test_name fails"), so it finds the
  sessions where the test failed, was written or was discussed, not every run's PASSED listing. Coverage,
  which reads a session's text by substrings, counts that name only where it stands apart too
  (`Word.apart`, terms.stands_apart): a substring of `path::test_name[param] PASSED` gave every run of the
  file the heaviest word of the query (test_id 0.943 -> 0.970 MRR, docs/eval.md, eleventh session).
  Its `[param]` is searched only beside the name (the phrase arm holds the whole id as typed): apart, a
  param id names a run of every other test too (test_id 0.898 -> 0.943 MRR, docs/eval.md). (Replacing
  the generic reading by file, module and name instead cost the eval's `test_id` queries 0.845 -> 0.803
  MRR; adding the name beside it gives 0.875: docs/eval.md.)
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from recollect.text.tokenize import STOPWORDS, query_terms, tokenize

FRAMING_WEIGHT = 0.2  # a framing word's share of its idf in the coverage weight
DAY_MS = 86_400_000

SUBJECTS = frozenset({"we"})  # "where we changed", "did we decide": the verb says what was done, not what to
PERFECT = frozenset({"have", "has"})  # "what have we booked": read as "what we've booked", the verb is what was done
DETERMINERS = frozenset({"the", "which", "that", "what", "this", "a", "our", "my"})
UNIT_NOUNS = frozenset({"session", "sessions", "conversation", "conversations", "chat", "chats"})
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})
SECOND_PERSON = frozenset({"you", "your", "yours", "yourself", "yourselves"})
MODALS = frozenset({"should", "could", "can", "would", "shall"})  # before the person: "should I", "can we"
FIRST_PERSON_ZH = ("我", "咱")  # 我, 我们, 咱们
SECOND_PERSON_ZH = ("你", "您")
MODALS_ZH = ("应该", "该", "可以", "能")  # after the person: 我应该, 我们可以

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a couple of": 2,
            "couple of": 2, "a few": 3, "few": 3, "several": 4}  # fmt: skip
_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUM = r"(?:\d+|a couple of|couple of|a few|few|several|an?|one|two|three|four|five|six)"
_TIME_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\byesterday\b", re.I), "yesterday"),
    (re.compile(r"\btoday\b|\bthis morning\b", re.I), "today"),
    (re.compile(r"\b(?:last|past|previous) (day|week|month|year)\b", re.I), "last"),
    (re.compile(r"\bthis (week|month|year)\b", re.I), "this"),
    (re.compile(rf"\b({_NUM}) (day|week|month|year)s? ago\b", re.I), "ago"),
    (
        re.compile(
            r"\b(?:in|during|back in|since) (" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b", re.I
        ),
        "month",
    ),
    (re.compile(r"昨天"), "yesterday"),
    (re.compile(r"今天"), "today"),
    (re.compile(r"上(?:个)?(周|星期|月)"), "last"),
    (re.compile(r"这(?:个)?(周|星期|月)|本(周|月)"), "this"),
    (re.compile(r"([一两二三四五六几\d]+)(?:个)?(天|周|星期|月)(?:以)?前"), "ago"),
]
_CJK_UNITS = {"天": "day", "周": "week", "星期": "week", "月": "month"}
_CJK_NUMBERS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "几": 3}

NODE_ID = re.compile(
    r"(?P<file>(?:[\w.-]+/)*(?P<module>[\w-]+)\.(?:py|ts|js|tsx|go|rb|rs))"
    r"::(?P<name>[\w:]+)(?:\[(?P<param>[^\]\s]*)\])?"
)


@dataclass
class Word:
    """One thing the person typed: its variants (any one found counts) and whether it frames."""

    variants: list[str]
    framing: bool = False
    part: bool = False  # a piece of a compound the person typed (`cert` of `cert-manger`): code, not a word
    apart: bool = False  # counts only where the text has it apart from a longer name (a test id's bare name)


@dataclass
class QueryPlan:
    text: str  # the query as typed
    searched: str  # without its time expressions
    words: list[Word] = field(default_factory=list)
    window: tuple[int, int] | None = None  # a preferred time span (ms), when the query names one
    time_words: list[str] = field(default_factory=list)
    about_the_person: bool = False  # a question of the person's own facts (the module's "About the person")

    @property
    def terms(self) -> list[str]:
        return list(dict.fromkeys(v for w in self.words for v in w.variants))

    @property
    def content_terms(self) -> list[str]:
        return list(dict.fromkeys(v for w in self.words if not w.framing for v in w.variants))

    @property
    def framing_terms(self) -> set[str]:
        content = set(self.content_terms)
        return {v for w in self.words if w.framing for v in w.variants if v not in content}

    @property
    def asks(self) -> bool:
        """Whether the query is put as a question about the history (a question mark, words that frame
        it, a time it points at) rather than pasted from it (an error line, a command, a path, a name)."""
        return self.text.rstrip().endswith(("?", "？")) or bool(self.framing_terms) or bool(self.time_words)


def _window(kind: str, match: re.Match[str], now_ms: int) -> tuple[int, int]:
    if kind == "yesterday":
        return now_ms - 2 * DAY_MS, now_ms
    if kind == "today":
        return now_ms - DAY_MS, now_ms
    if kind == "month":
        month = _MONTHS[match.group(1).lower()]
        now = time.gmtime(now_ms / 1000)
        year = now.tm_year if month <= now.tm_mon else now.tm_year - 1
        start = int(time.mktime((year, month, 1, 0, 0, 0, 0, 0, 0)) - time.timezone) * 1000
        end_year, end_month = (year + 1, 1) if month == 12 else (year, month + 1)
        end = int(time.mktime((end_year, end_month, 1, 0, 0, 0, 0, 0, 0)) - time.timezone) * 1000
        return start, end
    unit_word = match.group(match.lastindex or 1)
    unit = _UNITS.get(_CJK_UNITS.get(unit_word, unit_word).lower(), 7)
    if kind == "this":
        return now_ms - unit * DAY_MS, now_ms
    if kind == "last":  # the previous week / month, loosely: from two units ago until now
        return now_ms - 2 * unit * DAY_MS, now_ms - unit * DAY_MS // 7
    number = match.group(1)
    count = _CJK_NUMBERS.get(number) or _NUMBERS.get(number.lower()) or (int(number) if number.isdigit() else 1)
    center = now_ms - count * unit * DAY_MS
    half = max(unit, count * unit // 2) * DAY_MS
    return center - half, center + half


def extract_time(text: str, now_ms: int) -> tuple[str, tuple[int, int] | None, list[str]]:
    """The query without its time expressions, the window they name, and the expressions found."""
    window: tuple[int, int] | None = None
    found: list[str] = []
    for pattern, kind in _TIME_PATTERNS:
        match = pattern.search(text)
        if match is None:
            continue
        span = _window(kind, match, now_ms)
        window = span if window is None else (max(window[0], span[0]), min(window[1], span[1]))
        if window[0] >= window[1]:
            window = span
        found.append(match.group(0))
        if kind != "month":  # a month's name is also a word the text may hold ("coming up in July", "July 9")
            text = text[: match.start()] + " " + text[match.end() :]
    return text, window, found


def _test_names(text: str) -> list[Word]:
    """The bare test name of every pasted node id in `text` (see the module's "Test ids")."""
    names = (m["name"].split("::")[-1].lower() for m in NODE_ID.finditer(text))
    return [Word([name], apart=True) for name in dict.fromkeys(names)]


def _without_params(text: str) -> str:
    """`text` with each pasted node id's `[param]` left out of its words: a parameter id ("large_batch-58")
    names one run of this test only beside its name, and apart it is in every other test's listing. The
    phrase arm still looks for the whole id, param included, as typed (search/phrase.py)."""

    def cut(match: re.Match[str]) -> str:
        return match.group(0) if match["param"] is None else match.group(0)[: match.start("param") - match.start() - 1]

    return NODE_ID.sub(cut, text)


def _about_the_person(raw: list[str], lowered: list[str]) -> bool:
    """Whether the person is the question's subject, the question is not put to the assistant, and it does not
    ask what to do: read from the words as split (a contraction by its first part: "i'm", "you're", "we've";
    "US" in capitals is the country), and for Chinese from the pronouns' characters."""
    words = [w.replace("\u2019", "'").split("'")[0] for w in lowered]
    person = [w in FIRST_PERSON and raw[i].strip(".,;:!?()\"'") != "US" for i, w in enumerate(words)]
    if any(w in SECOND_PERSON for w in words) or any(c in text for text in raw for c in SECOND_PERSON_ZH):
        return False
    if any(w in MODALS and i + 1 < len(words) and person[i + 1] for i, w in enumerate(words)):
        return False  # "what should I bring", "what could we cook": advice asked for, not a fact told
    zh = "".join(raw)
    if any(p + m in zh or p + "们" + m in zh for p in FIRST_PERSON_ZH for m in MODALS_ZH):
        return False
    return any(person) or any(p in zh for p in FIRST_PERSON_ZH)


def understand(
    text: str, now_ms: int | None = None, *, framing: bool = True, test_ids: bool = True, person: bool = True
) -> QueryPlan:
    """Split `text` into words, mark the words that frame a question, and pull out a time preference; with
    `person`, read whether it asks about the person (an exact search is the words as typed: not read)."""
    now_ms = now_ms or int(time.time() * 1000)
    searched, window, time_words = extract_time(text, now_ms) if framing else (text, None, [])
    plan = QueryPlan(text, searched, window=window, time_words=time_words)
    if test_ids:
        plan.words += _test_names(searched)
    raw = [w for w in re.split(r"\s+", _without_params(searched) if test_ids else searched) if w]
    lowered = [re.sub(r"^\W+|\W+$", "", w).lower() for w in raw]
    plan.about_the_person = person and _about_the_person(raw, lowered)
    for i, word in enumerate(raw):
        tokens = tokenize(word)
        if not tokens:
            continue
        previous = lowered[i - 1] if i else ""
        before = lowered[i - 2] if i > 1 else ""
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
        is_frame = framing and (
            (previous in SUBJECTS and before not in PERFECT)
            or (previous == "i" and following in ("you", "me"))  # "did I tell you", "what did I ask you"
            or (lowered[i] in UNIT_NOUNS and previous in DETERMINERS)
            or (previous in UNIT_NOUNS and before in DETERMINERS and lowered[i] not in STOPWORDS)
        )
        parts = query_terms(word)
        if any(t[0] >= "\u3040" for t in parts):
            plan.words += [Word([t], is_frame) for t in parts]  # CJK: every two-character word counts alone
        elif len(parts) > 1 and any(j in parts[0] for j in "_./-:"):
            plan.words.append(Word([parts[0]], is_frame))  # a compound, then its parts as words of their own
            plan.words += [Word([p], is_frame, part=True) for p in parts[1:]]
        else:
            plan.words.append(Word(parts, is_frame))
    return plan
