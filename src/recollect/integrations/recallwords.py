"""The words of a cue message that auto-recall looks for (autorecall.py), in either script, and its topic
(what the meaning check compares: recallmeaning.py)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from recollect.history import identifiers_in, query_terms
from recollect.integrations.cues import HEAD_CHARS, TAIL_CHARS, detect_cue, strip_cues

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_PIECE = re.compile(f"[{CJK}]+|[^\\s{CJK}]+")
# Function characters that end a Chinese word and are (almost) never inside one: particles, the
# prepositions of object and recipient (把 被 给 跟), adverbs (也 都 就 又 再 才 很), demonstratives and
# the question word (这 那 哪 些). A run is cut at them; 给 of 方式给新脚本 is no bigram to look for.
_ZH_PARTICLES = re.compile("[的了吗呢吧啊呀么是把被给跟按也都就又再才很这那哪些]")
# Words about the conversation itself, not its topic: found in the question, never in the answer. With
# them the verbs of deciding and choosing ("which library did we settle on", 之前决定的), and what kind of
# answer is asked for (结果, 结论, 多少, 哪种).
META_WORDS = frozenset(
    "session sessions conversation chat remember recall recalled discuss discussed talk talked mention "
    "mentioned said tell please again thing things decide decided settle settled choose chose chosen pick "
    "picked agree agreed conclude concluded 记得 一下 请问 我们 你们 什么 怎么 如何 一样 那样 这个 那个 决定 "
    "讨论 已经 结果 结论 多少 哪个 哪种 是不 不是 有没 帮我 最后 问题".split()
)
QUERY_WORDS = 24


@dataclass
class Unit:
    """One word of the message (or one character of a Chinese run), and the index terms that cover it."""

    terms: tuple[str, ...]
    weight: float  # in words: 1 for a latin word, 0.5 for a CJK character
    cjk: bool
    # The first term is the word as written and the others are its parts (an identifier:
    # test_refresh_token_expiry, MemoryError). A part is another word: it stands for the whole only as
    # far as it is rare ("test" alone is not test_refresh_token_expiry). Else the terms are one word's
    # forms (a stem, the two bigrams around a Chinese character), each as good as another.
    parts: bool = False


def message_units(text: str, max_words: int = QUERY_WORDS) -> list[Unit]:
    """The words to look for: the message without its cues and meta words, each as a `Unit`."""
    units: list[Unit] = []
    words = 0.0
    for piece in _PIECE.findall(strip_cues(text)):
        if words >= max_words:
            break
        if piece[0] >= "\u3040" and re.match(f"[{CJK}]", piece):
            stops = _stops(piece)
            for i, ch in enumerate(piece):
                if i in stops:
                    continue
                sides = (i - 1, i + 1)
                cover = tuple(piece[min(i, j) : max(i, j) + 1] for j in sides if 0 <= j < len(piece) and j not in stops)
                units.append(Unit(cover or (ch,), 0.5, True))
                words += 0.5
        else:
            terms = tuple(t for t in query_terms(piece) if t not in META_WORDS)
            if terms:
                units.append(Unit(terms, 1.0, False, len(terms) > 1 and bool(identifiers_in(piece))))
                words += 1
    return units


def _stops(run: str) -> set[int]:
    """The places of a Chinese run that are no part of a word to look for: a particle, which ends a word, and
    both characters of a meta word (什么, 怎么 …), so that no bigram takes one of them with a neighbour (是怎 of
    是怎么 cuts across two words)."""
    meta = {j for i in range(len(run) - 1) if run[i : i + 2] in META_WORDS for j in (i, i + 1)}
    return meta | {i for i, ch in enumerate(run) if _ZH_PARTICLES.match(ch)}


def word_count(text: str) -> float:
    """Words of either script: latin words, plus half a word per CJK character."""
    return sum(len(p) / 2 if re.match(f"[{CJK}]", p) else 1.0 for p in _PIECE.findall(text))


def message_topic(text: str) -> str:
    """The message without its frame: its cues, meta words and Chinese function characters out, the words
    it looks for kept in their order (Chinese runs of two characters or more). "我以前交代过提交信息的格式，是什么样的
    来着？" is "交代 提交信息 格式": across scripts the frame is most of what an encoder sees."""
    out: list[str] = []
    for piece in _PIECE.findall(strip_cues(text)):
        if re.match(f"[{CJK}]", piece):
            stops = _stops(piece)
            runs = "".join(" " if i in stops else ch for i, ch in enumerate(piece))
            out.extend(run for run in runs.split() if len(run) >= 2)
        elif any(t not in META_WORDS for t in query_terms(piece)):
            out.append(re.sub(r"^\W+|\W+$", "", piece))  # "Postgres？" is "Postgres"
    return " ".join(out)


# A name: a latin word with a capital after its first letter, a digit or an underscore (MemoryError, S3,
# test_refresh_token_expiry), or capitalized where a sentence does not start (Kafka, Postgres); in a
# message with Chinese, any capitalized latin word.
_LATIN_WORD = re.compile(r"[A-Za-z][\w.-]*\w|[A-Za-z]")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;\n])\s*")  # where it ends, a sentence starts


# Where a sentence ends, in either script ("v1.2" and "e.g" do not end one: a period ends one before a space).
_SENTENCE_END = re.compile(r"(?<=[?？!！。\n])|(?<=\.)(?=\s)")


def asking(text: str) -> str:
    """The sentences of `text` that ask: those ending in a question mark, else those holding a cue, else all
    of it. "又有个任务 OOM 了。上次…是怎么解决的？" asks about the merge, not about the OOM of today."""
    pieces = _SENTENCE_END.split(text)  # split at zero width: the pieces put together are `text`
    sentences = [s for s in pieces if s.strip()]
    if len(sentences) < 2:
        return text
    asked = [s for s in sentences if s.rstrip().endswith(("?", "？"))] or [
        s for s in _read_for_cues(pieces, len(text)) if detect_cue(s)
    ]
    return " ".join(asked) if asked else text


def _read_for_cues(pieces: list[str], size: int) -> list[str]:
    """The sentences a cue can be in: those in the head and the tail of the message, where `detect_cue`
    looks (cues.HEAD_CHARS, TAIL_CHARS). Asked of every line of a pasted 2,000-line log, it cost ~0.5 s."""
    out: list[str] = []
    at = 0
    for piece in pieces:
        if piece.strip() and (at < HEAD_CHARS or at + len(piece) > size - TAIL_CHARS):
            out.append(piece)
        at += len(piece)
    return out


def named(text: str) -> list[str]:
    """The names the question gives (lower case), outside its cues: a session that answers it holds each.
    Only the sentences that ask (`asking`): a name in what the message tells of the present work ("I'm
    profiling on the Linux tree: RSS sits at 400 MB. … what did we do there?") is no part of the answer."""
    body = strip_cues(asking(text))
    chinese = re.search(f"[{CJK}]", body) is not None
    # found in one pass: asked again before each word (quadratic), it cost a pasted 2,000-character message ~6 ms
    starts = set() if chinese else {m.end() for m in _SENTENCE_START.finditer(body, 0, 2000)}
    names: list[str] = []
    for m in _LATIN_WORD.finditer(body[:2000]):
        word = m.group(0)
        initial = m.start() in starts
        marked = re.search(r"[A-Z]", word[1:]) or re.search(r"[\d_]", word)
        if marked or (word[0].isupper() and not initial and word not in ("I", "I'm")):
            names.append(word.lower())
    return list(dict.fromkeys(names))


def present(unit: Unit, folded: str) -> bool:
    """Whether `folded` holds `unit` (any of its terms: `holds_term`)."""
    return any(holds_term(term, unit.cjk, folded) for term in unit.terms)


def holds_term(term: str, cjk: bool, folded: str) -> bool:
    """Whether `folded` holds `term`. A latin term counts where a word starts with it ("fix" in "fixed",
    "token" in "test_token"), never inside another word: the "os" of "macOS" is not in "cost"."""
    at = folded.find(term)  # str.find, in C: this runs for every word of every candidate
    if cjk:
        return at >= 0
    while at >= 0:
        if at == 0 or not folded[at - 1].isalnum():
            return True
        at = folded.find(term, at + 1)
    return False


@functools.lru_cache(maxsize=4_096)
def question_terms(question: str) -> frozenset[str]:
    """The words of a session's first question without its cues (auto-recall's `collapse` compares them),
    kept per text: the same sessions come back message after message, and finding the cues in one costs
    about a millisecond."""
    return frozenset(query_terms(strip_cues(question)))
