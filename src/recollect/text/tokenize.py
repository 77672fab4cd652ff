"""The one tokenizer: history index, memory scoring and queries all call `tokenize`.

Text is pre-tokenized here and stored in FTS5 as space-separated tokens, because FTS5's own
tokenizers fail on this corpus: unicode61 makes `部署脚本用` one token (so `部署` finds nothing)
and trigram cannot match two-character words. Rules:

- identifiers and paths are kept whole *and* split: `parseHttpResponse` -> `parsehttpresponse`,
  `parse`, `http`, `response`; `src/auth/token.ts` -> `src/auth/token.ts`, `token.ts`, `src`,
  `auth`, `token`, `ts`;
- latin words are case-folded and stripped of diacritics; a light plural/verb stem is added
  beside the word (`tests` -> `tests`, `test`) so inflections meet;
- CJK runs become character bigrams (a lone character stays a unigram);
- common English function words are dropped (they only add noise to OR queries).

Tokens contain only lowercase letters, digits, CJK characters and the joiners `_ . / - :`, so
the FTS5 table declares those joiners as token characters and keeps our tokens intact.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache
from itertools import chain

# Characters FTS5 must treat as part of a token (see FTS_TOKENIZE).
JOINERS = "_./-:"
# Bump when tokenize() changes its output: indexes made by another version re-tokenize their FTS tables.
TOKENIZER_VERSION = "2"  # 2: "-ment" nouns meet their verb (deployment -> deploy)
FTS_TOKENIZE = "unicode61 remove_diacritics 0 tokenchars '_./-:'"

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # han
    "\uac00-\ud7af"  # hangul syllables
)
CJK_CHARS = _CJK  # the CJK ranges, for a character class (search/meaning.py reads a text's script)
# A "word" is a run of identifier characters, or a run of CJK characters.
_WORD = re.compile(rf"[{_CJK}]+|[^\W{_CJK}](?:[\w.\/\-:$@#]*[^\W_{_CJK}]|)", re.UNICODE)
_CJK_RUN = re.compile(rf"^[{_CJK}]+$")
_SPLIT = re.compile(r"[^0-9a-zA-Z]+")
# camelCase / PascalCase / ACRONYMWord pieces; digits stay on the letters before them (`sha256`, `v2`)
_CAMEL = re.compile(r"[A-Z]+[0-9]*(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+")
_ALLOWED_IN_TOKEN = re.compile(r"[^0-9a-z_./\-:\u00C0-\u024F" + _CJK + "]+")

STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does doing done for from had has have
    how i if in into is it its itself me my of on or our so than that the their them then there
    these they this those to too was we were what when where which while who whom why will with
    would you your yours about again also any just should shall may might must us he she his her
    very all some such no nor not only own same both each few more most other up down out off over
    under once here let lets get got""".split()
)


_ACCENTED = re.compile(r"[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]")


def strip_marks(text: str) -> str:
    """Strip diacritics (é -> e), keeping case, without touching CJK."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)  # also folds full-width forms
    if not _ACCENTED.search(text):
        return text  # the common non-ASCII case (CJK, symbols): nothing to strip
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")


def fold(text: str) -> str:
    """Case-fold and strip diacritics."""
    return strip_marks(text).casefold()


def stem(word: str) -> str:
    """A deliberately light English stem, so inflections meet: decide/decided/decides -> decid, and a
    "-ment" noun meets its verb: deployment -> deploy."""
    if len(word) <= 4 or not (word.isascii() and word.isalpha()):
        return word
    base = word
    if word.endswith("ies"):
        base = word[:-3] + "y"
    elif word.endswith("sses"):
        base = word[:-2]
    elif word.endswith(("ss", "us", "is")):
        return word
    elif word.endswith("es") and word[-3] in "sxz":
        base = word[:-2]
    elif word.endswith(("ment", "ments")) and len(word.rstrip("s")) - 4 >= 4:
        base = word.rstrip("s")[:-4]  # deployment(s) -> deploy, management -> manage
    else:
        for suffix in ("ing", "ed", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                base = word[: -len(suffix)]
                # doubled consonant after -ing/-ed: "running" -> "run"
                if suffix != "s" and len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "lsz":
                    base = base[:-1]
                break
    # a silent final e: "create" and "created" both become "creat"
    if base.endswith("e") and len(base) > 4:
        base = base[:-1]
    return base


def _cjk_tokens(run: str) -> Iterator[str]:
    if len(run) == 1:
        yield run
        return
    for i in range(len(run) - 1):
        yield run[i : i + 2]


def _latin_tokens(raw: str) -> tuple[str, ...]:
    return tuple(_latin_tokens_uncached(raw))


def _latin_tokens_uncached(raw: str) -> Iterator[str]:
    plain = strip_marks(raw)
    whole = _ALLOWED_IN_TOKEN.sub("", plain.casefold()).strip(JOINERS)
    if not whole:
        return
    parts = [p.lower() for chunk in _SPLIT.split(plain) if chunk for p in _CAMEL.findall(chunk)]
    compound = len(parts) > 1 or whole != (parts[0] if parts else whole)
    if compound:
        yield whole
        if "/" in whole:
            base = whole.rsplit("/", 1)[-1]
            if base and base != whole:
                yield base
        for part in parts:
            if len(part) > 1 and part not in STOPWORDS:
                yield part
        return
    if whole in STOPWORDS:
        return
    yield whole
    stemmed = stem(whole)
    if stemmed != whole:
        yield stemmed


# Words per cache. A full entry holds ~0.5 KB (the word, its tokens, the cache's links): at 65,536 the cache
# filled with a store's rare words and held ~30 MB in the index writer and in each worker, growing with the
# store until full, for a hit rate of 0.972 against 0.966 at 16,384 (~9 MB) on a generated store's chunks.
WORDS_CACHED = 16_384


@lru_cache(maxsize=WORDS_CACHED)
def _word_tokens(word: str) -> tuple[str, ...]:
    # Words repeat heavily in code and logs; caching per word makes indexing several times faster
    # (one cache: a second one per Latin word held ~25 MB more while indexing for nothing).
    if word[0] >= "\u3040" and _CJK_RUN.match(word):
        return tuple(_cjk_tokens(word))
    return _latin_tokens(word)


def tokenize(text: str) -> list[str]:
    """Tokens of `text` in order, duplicates kept (term frequency matters to BM25)."""
    # One cached lookup per word, the loop in C: tokenizing was a fifth of a cold index.
    return list(chain.from_iterable(map(_word_tokens, _WORD.findall(text))))


def words(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each word of `text` in order, with its tokens: `tokenize(text)` is all their tokens in a row. For a
    caller that needs the tokens and the words both (text/relays), from one reading of the text."""
    return [(word, _word_tokens(word)) for word in _WORD.findall(text)]


def phrase_keys(text: str) -> list[str]:
    """One token per word of `text`, in order, so that two words in a row can be compared as a phrase:
    a Latin word's last token (its stem, or an identifier's last part), and each bigram of a CJK run
    (a CJK run is a clause, not a word). Words of no token (function words) are skipped."""
    return keys_of(words(text))


def keys_of(said: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """`phrase_keys` of a text from its `words`."""
    keys: list[str] = []
    for word, tokens in said:
        if len(tokens) > 1 and word[0] >= "\u3040" and _CJK_RUN.match(word):
            keys.extend(tokens)
        elif tokens:
            keys.append(tokens[-1])
    return keys


def query_terms(text: str) -> list[str]:
    """Distinct tokens of a query, in first-seen order."""
    return list(dict.fromkeys(tokenize(text)))


def query_words(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each distinct word of a query as typed, with its tokens, in first-seen order: a match on a token
    (a stem, a part of an identifier) said in the user's words. Words of no token are left out."""
    distinct = dict.fromkeys(_WORD.findall(text))
    return [(word, tokens) for word in distinct if (tokens := _word_tokens(word))]


def as_typed(words: Sequence[tuple[str, tuple[str, ...]]], matched: Collection[str]) -> dict[str, tuple[str, ...]]:
    """The `matched` tokens of a query's `words` (query_words), said as a person typed them -> the tokens
    each stands for. A word whose whole form or stem matched is said as typed ('ECONNREFUSED', not
    'econnrefused, econnrefus'); of an identifier whose whole form did not match, each part that did is said
    as itself (text holding 'file' does not hold 'missing-file.txt'), and so is each bigram of a CJK run."""
    said: dict[str, tuple[str, ...]] = {}
    for word, tokens in words:
        found = tuple(t for t in tokens if t in matched)
        if not found:
            continue
        cjk = word[0] >= "\u3040" and _CJK_RUN.match(word)
        if len(tokens) == 1 or (not cjk and (tokens[0] in matched or tokens[1:] == (stem(tokens[0]),))):
            said[word] = found
        else:
            for token in found:
                said.setdefault(token, (token,))
    return said


@lru_cache(maxsize=WORDS_CACHED)
def _identifier_form(word: str) -> str | None:
    """`word` trimmed if it looks like code (camelCase, joiners, letters with digits), else None."""
    if len(word) < 3 or (word[0] >= "\u3040" and _CJK_RUN.match(word)):
        return None
    has_case_mix = any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)
    if (
        has_case_mix
        or any(ch in "_./:" for ch in word)
        or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word))
    ):
        return word.strip(".:-") or None
    return None


def identifiers_in(text: str) -> list[str]:
    """Raw identifier-looking words (`parseHttpResponse`, `src/a.ts`, `ERR_CONN`) in first-seen order."""
    found: dict[str, None] = {}
    for match in _WORD.finditer(text):
        form = _identifier_form(match.group(0))
        if form:
            found.setdefault(form, None)
    return list(found)
