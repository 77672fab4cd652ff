import pytest

from recollect.text.redact import find_secrets, redact

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
