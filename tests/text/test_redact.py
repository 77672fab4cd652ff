import json

import pytest

from recollect.redact import find_secrets, redact, redact_value
from tests.text import secret_corpus

SECRETS = [
    ("openai key", "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz123456"),
    ("github token", "token ghp_1234567890abcdefghijklmnopqrstuvwxyz12"),
    ("aws access key", "AKIAIOSFODNN7EXAMPLE"),
    ("password in url", "git clone https://bob:hunter2secret@github.com/x/y"),
    ("assigned secret", 'password = "correct horse"'),
    ("bearer token", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123"),
    ("private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----"),
]


@pytest.mark.parametrize(("kind", "text"), SECRETS)
def test_secret_is_found_and_redacted(kind: str, text: str) -> None:
    findings = find_secrets(text)
    assert [f.kind for f in findings] == [kind]
    out = redact(text)
    assert f"[REDACTED:{kind}]" in out
    secret = text[findings[0].start : findings[0].end]
    assert secret not in out


def test_prose_and_placeholders_are_left_alone() -> None:
    for text in (
        "the token is stored in a cookie",
        "password: ${DB_PASSWORD}",
        "set api_key=<your key here>",
        "we rotate the secret monthly",
    ):
        assert find_secrets(text) == []
        assert redact(text) == text


def test_finding_names_the_line() -> None:
    findings = find_secrets("line one\nline two\napi_key: abcdef123456\n")
    assert findings and findings[0].line == 3


# -- the committed corpora (tests/text/secret_corpus.py) -----------------------------------------

CORPUS = secret_corpus.build()


def test_the_corpora_are_large_enough() -> None:
    assert len(CORPUS) >= 40 and len(secret_corpus.LOOKALIKES) >= 25


@pytest.mark.parametrize("kind", sorted(CORPUS))
def test_every_secret_kind_is_redacted_in_every_setting(kind: str) -> None:
    text, secret = CORPUS[kind]
    settings = {
        "as written": text,
        "in prose": f"I ran this and it failed:\n{text}\nany idea?",
        "json-encoded": json.dumps({"command": text}),
        "json-encoded twice": json.dumps(json.dumps({"input": text})),
    }
    for where, variant in settings.items():
        out = redact(variant)
        assert "[REDACTED:" in out, (where, variant)
        inner = secret.replace("\n", "\\n") if "json" in where else secret
        assert secret not in out and inner not in out, (kind, where, out)


def test_look_alikes_from_ordinary_code_are_left_alone() -> None:
    assert redact("DB_PASSWORD=hunter2hunter2") != "DB_PASSWORD=hunter2hunter2"  # positive control
    redacted = [text for text in secret_corpus.LOOKALIKES if redact(text) != text]
    assert len(redacted) <= 1, redacted


def test_the_false_positives_of_the_issue_are_code() -> None:
    for text in ("password = get_password_from_vault(name)", "token = request.headers.get('x')", "pwd=$(pwd)"):
        assert find_secrets(text) == [], text


def test_log_arguments_are_redacted_by_key_and_by_shape() -> None:
    _, token = CORPUS["github classic token"]
    args = {"query": f"why does {token} fail", "nested": {"client_secret": "plain-words-here", "limit": 5}}
    out = json.dumps(redact_value(args))
    assert token not in out and "plain-words-here" not in out and '"limit": 5' in out


def test_importing_the_redactor_compiles_no_pattern() -> None:
    import subprocess
    import sys

    probe = (
        "import re, sys; compiled = []; real = re.compile; "
        "re.compile = lambda *a, **k: (sys._getframe(1).f_code.co_filename.endswith('redact.py') "
        "and compiled.append(a[0])) or real(*a, **k); "
        "import recollect.redact as r; before = len(compiled); "
        "out = r.redact('key: sk-ant-' + 'a' * 30); "
        "print(before, len(compiled) > 0, out)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    before, compiled_on_use, redacted = done.stdout.split(maxsplit=2)
    assert compiled_on_use == "True" and "[REDACTED:anthropic key]" in redacted  # positive control: used, compiled
    assert before == "0"


def test_a_lazily_compiled_pattern_can_be_copied_and_pickled() -> None:
    import copy
    import pickle

    from recollect import redact

    pattern = redact._p(r"sk-[a-z]{4}")
    assert pattern.search("key sk-abcd here") is not None  # positive control: it compiles on first use
    fresh = redact._p(r"sk-[a-z]{4}")
    for twin in (copy.copy(fresh), pickle.loads(pickle.dumps(fresh))):  # both recursed for ever before
        assert twin.search("key sk-abcd here") is not None
        assert twin.search("no key here") is None
