"""find_secrets picks the patterns to run with one regex over every trigger; it must run exactly the
patterns that testing each trigger with `in` would run, so its findings are the same."""

import re

from recollect import redact as R
from tests.text import secret_corpus


def _reference(text: str) -> list[tuple[str, int, int, int]]:
    """find_secrets as it was: each pattern runs when one of its triggers is `in` the lower-cased text."""
    spans: list[tuple[int, int, str]] = []
    lowered = text.lower()
    view = R._unescaped_view(text)
    for kind, pattern, triggers in R._table().patterns:
        if triggers and not any(t in lowered for t in triggers):
            continue
        for match in pattern.finditer(view):
            span = R._span(kind, match)
            if span and not any(s < span[1] and span[0] < e for s, e, _ in spans):
                spans.append((span[0], span[1], kind))
    spans.sort()
    return [(kind, text.count("\n", 0, s) + 1, s, e) for s, e, kind in spans]


def _found(text: str) -> list[tuple[str, int, int, int]]:
    return [(f.kind, f.line, f.start, f.end) for f in R.find_secrets(text)]


def _texts() -> list[str]:
    corpus = [text for text, _ in secret_corpus.build().values()]
    many = " ".join(["the key", "a token"] * (R._FEW_TRIGGERS + 1))  # more trigger starts than are looked up
    return [
        *corpus,
        *secret_corpus.LOOKALIKES,
        *(f"{many}\n{text}\n{many}" for text in corpus),
        *(f"monkey disk task {text} glob" for text in corpus),  # triggers inside words, before the secret
        "skey gl-glsa_ sk-sk-ant- --token=x " + "a" * 30,  # triggers that overlap, start inside another
        "",
        "nothing to see here",
    ]


def test_findings_equal_testing_each_trigger() -> None:
    texts = _texts()
    with_secret = [t for t in texts if _reference(t)]
    assert len(with_secret) >= len(secret_corpus.SECRETS) * 3  # positive control: the corpus holds secrets
    many = texts[len(secret_corpus.build()) + len(secret_corpus.LOOKALIKES)]
    assert len(re.findall("key|token", many.lower())) > R._FEW_TRIGGERS  # the long path is taken
    for text in texts:
        assert _found(text) == _reference(text), text[:120]


def test_text_without_trigger_runs_only_untriggered_patterns() -> None:
    assert [kind for kind, _, _ in R._patterns_for("sk-")] != [kind for kind, _, _ in R._patterns_for("hello")]
    assert all(not triggers for _, _, triggers in R._patterns_for("hello world"))
