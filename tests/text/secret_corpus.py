"""The secret corpus and the look-alike corpus, shared by the redaction tests and the raw-bytes test.

Secrets are assembled at test time from pieces and seeded random characters, so this file holds
no literal a secret scanner would flag, and each run's values are distinctive enough to grep for.
Each entry gives the text a person or tool would write and the secret inside it.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Callable

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
UPPER = string.ascii_uppercase + string.digits
URLSAFE = ALNUM + "-_"


def _r(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _j(*pieces: str) -> str:
    return "".join(pieces)


Maker = Callable[[random.Random], tuple[str, str]]  # -> (text holding the secret, the secret)


def _shaped(context: str, build: Callable[[random.Random], str]) -> Maker:
    def make(rng: random.Random) -> tuple[str, str]:
        secret = build(rng)
        return context.format(s=secret), secret

    return make


def _pem(kind: str) -> Callable[[random.Random], str]:
    def build(rng: random.Random) -> str:
        body = "\n".join(_r(rng, 64, ALNUM + "+/") for _ in range(6))
        label = f"{kind} PRIVATE KEY".strip()
        return _j("-----", "BEGIN ", label, "-----\n", body, "\n-----", "END ", label, "-----")

    return build


def _jwt(rng: random.Random) -> str:
    def seg(n: int) -> str:
        return base64.urlsafe_b64encode(_r(rng, n).encode()).decode().rstrip("=")

    return _j("ey", "J", seg(24)[1:], ".", "ey", "J", seg(30)[1:], ".", _r(rng, 43, URLSAFE))


# ≥ 40 kinds, each as it appears in the wild (a command, a config line, a header, prose).
SECRETS: dict[str, Maker] = {
    "anthropic key": _shaped("export ANTHROPIC_API_KEY={s}", lambda r: _j("sk-", "ant-", "api03-", _r(r, 80, URLSAFE))),
    "openai project key": _shaped("client = OpenAI(api_key='{s}')", lambda r: _j("sk-", "proj-", _r(r, 48, URLSAFE))),
    "openai legacy key": _shaped("the key {s} stopped working", lambda r: _j("sk-", _r(r, 48))),
    "github classic token": _shaped("git push https://x:{s}@github.com/o/r", lambda r: _j("gh", "p_", _r(r, 36))),
    "github fine-grained token": _shaped("GH_TOKEN={s}", lambda r: _j("github", "_pat_", _r(r, 22), "_", _r(r, 59))),
    "github app token": _shaped("token: {s}", lambda r: _j("gh", "s_", _r(r, 36))),
    "gitlab token": _shaped("curl --header 'PRIVATE-TOKEN: {s}'", lambda r: _j("gl", "pat-", _r(r, 20, URLSAFE))),
    "slack bot token": _shaped("SLACK_BOT_TOKEN={s}", lambda r: _j("xo", "xb-", _r(r, 12, HEX), "-", _r(r, 24))),
    "slack webhook": _shaped(
        "curl -X POST {s} -d '{{}}'",
        lambda r: _j("https://hooks.", "slack.com/services/T", _r(r, 8, UPPER), "/B", _r(r, 8, UPPER), "/", _r(r, 24)),
    ),
    "discord webhook": _shaped(
        "webhook: {s}",
        lambda r: _j("https://discord.com/api/", "webhooks/", _r(r, 18, "0123456789"), "/", _r(r, 68, URLSAFE)),
    ),
    "discord bot token": _shaped(
        "client.run('{s}')", lambda r: _j("M", _r(r, 25), ".", _r(r, 6, URLSAFE), ".", _r(r, 38, URLSAFE))
    ),
    "sendgrid key": _shaped(
        "the SendGrid key is {s}", lambda r: _j("S", "G.", _r(r, 22, URLSAFE), ".", _r(r, 43, URLSAFE))
    ),
    "aws access key id": _shaped("aws_access_key_id = {s}", lambda r: _j("AK", "IA", _r(r, 16, UPPER))),
    "aws secret key (ini)": _shaped("aws_secret_access_key={s}", lambda r: _r(r, 40, ALNUM + "+/")),
    "aws secret key (env)": _shaped("export AWS_SECRET_ACCESS_KEY={s}", lambda r: _r(r, 40, ALNUM + "+/")),
    "azure storage key": _shaped(
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={s};EndpointSuffix=core.windows.net",
        lambda r: _r(r, 86, ALNUM + "+/") + "==",
    ),
    "azure service bus key": _shaped(
        "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey={s}",
        lambda r: _r(r, 43, ALNUM + "+/") + "=",
    ),
    "google api key": _shaped("https://maps.googleapis.com/x?key={s}", lambda r: _j("AI", "za", _r(r, 35, URLSAFE))),
    "google oauth token": _shaped("Authorization: Bearer {s}", lambda r: _j("ya", "29.", _r(r, 60, URLSAFE))),
    "google oauth secret": _shaped('"client_secret": "{s}"', lambda r: _j("GOC", "SPX-", _r(r, 28, URLSAFE))),
    "stripe live key": _shaped("stripe.api_key = {s}", lambda r: _j("sk", "_live_", _r(r, 24))),
    "stripe restricted key": _shaped("STRIPE_KEY={s}", lambda r: _j("rk", "_live_", _r(r, 24))),
    "stripe webhook secret": _shaped("endpoint secret {s}", lambda r: _j("wh", "sec_", _r(r, 32))),
    "npm token": _shaped("//registry.npmjs.org/:_authToken={s}", lambda r: _j("np", "m_", _r(r, 36))),
    "pypi token": _shaped("twine upload -p {s}", lambda r: _j("py", "pi-", "AgEIcHlwaS5vcmc", _r(r, 60, URLSAFE))),
    "huggingface token": _shaped("huggingface-cli login --token {s}", lambda r: _j("h", "f_", _r(r, 34))),
    "twilio key": _shaped("TWILIO_API_KEY is {s}", lambda r: _j("S", "K", _r(r, 32, HEX))),
    "mailgun key": _shaped("mailgun {s}", lambda r: _j("ke", "y-", _r(r, 32, HEX))),
    "mailchimp key": _shaped("mailchimp key {s}", lambda r: _j(_r(r, 32, HEX), "-us", "12")),
    "shopify token": _shaped("X-Shopify-Access-Token: {s}", lambda r: _j("shp", "at_", _r(r, 32, HEX))),
    "digitalocean token": _shaped("doctl auth init -t {s}", lambda r: _j("do", "p_v1_", _r(r, 64, HEX))),
    "databricks token": _shaped("DATABRICKS_HOST=x DATABRICKS={s}", lambda r: _j("da", "pi", _r(r, 32, HEX))),
    "new relic key": _shaped("NEW_RELIC={s}", lambda r: _j("NR", "AK-", _r(r, 27, UPPER))),
    "square token": _shaped("square: {s}", lambda r: _j("sq0", "atp-", _r(r, 22, URLSAFE))),
    "telegram bot token": _shaped(
        "https://api.telegram.org/bot{s}/getMe", lambda r: _j(_r(r, 10, "123456789"), ":A", "A", _r(r, 33, URLSAFE))
    ),
    "age secret key": _shaped("# created: today\n{s}", lambda r: _j("AGE-", "SECRET-KEY-1", _r(r, 58, UPPER))),
    "vault token": _shaped("VAULT_TOKEN={s}", lambda r: _j("hv", "s.", _r(r, 90, URLSAFE))),
    "doppler token": _shaped("doppler {s}", lambda r: _j("dp", ".pt.", _r(r, 43))),
    "linear key": _shaped("linear {s}", lambda r: _j("lin", "_api_", _r(r, 40))),
    "grafana token": _shaped("grafana {s}", lambda r: _j("gl", "sa_", _r(r, 32), "_", _r(r, 8, HEX))),
    "postman key": _shaped("postman {s}", lambda r: _j("PM", "AK-", _r(r, 24, HEX), "-", _r(r, 34, HEX))),
    "atlassian token": _shaped("jira token {s}", lambda r: _j("ATA", "TT3", _r(r, 180, URLSAFE))),
    "sentry token": _shaped("SENTRY={s}", lambda r: _j("sntr", "ys_", _r(r, 60))),
    "jwt": _shaped("cookie session={s}; Path=/", _jwt),
    "rsa private key": _shaped("{s}", _pem("RSA")),
    "openssh private key": _shaped("cat ~/.ssh/id_ed25519\n{s}", _pem("OPENSSH")),
    "pkcs8 private key": _shaped('"private_key": "{s}"', _pem("")),
    "postgres url": _shaped("DATABASE_URL=postgres://app:{s}@db:5432/app", lambda r: _r(r, 20)),
    "redis url": _shaped("redis://default:{s}@cache:6379/0", lambda r: _r(r, 20)),
    "basic auth header": _shaped(
        "curl -H 'Authorization: Basic {s}' https://x",
        lambda r: base64.b64encode(f"admin:{_r(r, 16)}".encode()).decode(),
    ),
    "bearer token": _shaped("Authorization: Bearer {s}", lambda r: _r(r, 40, URLSAFE)),
    "password option": _shaped("psql-tool --password {s} --host db", lambda r: _r(r, 16)),
    "password option (=)": _shaped("deploy --password={s}", lambda r: _r(r, 16)),
    "mysql -p": _shaped("mysql -u root -p{s} app < dump.sql", lambda r: _r(r, 14)),
    "encryption key (.env)": _shaped("ENCRYPTION_KEY={s}", lambda r: base64.b64encode(r.randbytes(32)).decode()),
    "secret key base (.env)": _shaped("RAILS_ENV=production\nSECRET_KEY_BASE={s}\n", lambda r: _r(r, 128, HEX)),
    "db password (.env)": _shaped("DB_PASSWORD={s}", lambda r: _r(r, 18)),
    "quoted password": _shaped('password = "{s}"', lambda r: _r(r, 12) + " " + _r(r, 6)),
    "yaml password": _shaped("database:\n  password: {s}\n", lambda r: _r(r, 16)),
    "json client secret": _shaped('{{"client_id": "abc", "client_secret": "{s}"}}', lambda r: _r(r, 32)),
}

# Ordinary code and prose that looks like a secret but is not one: at most one may be redacted.
LOOKALIKES = [
    "password = get_password_from_vault(name)",
    'token = request.headers.get("Authorization")',
    "pwd=$(pwd)",
    "password = new_password",
    "def login(username: str, password: str) -> bool:",
    "  token: string;",
    "const apiKey = process.env.API_KEY;",
    'api_key = os.environ["OPENAI_API_KEY"]',
    'secret = config.get("secret")',
    "response = client.complete(prompt, max_tokens=4096)",
    "self.token = token",
    "password_hash = bcrypt.hashpw(password, salt)",
    "if not token:\n    raise AuthError()",
    '"password": "${DB_PASSWORD}"',
    "export AWS_SECRET_ACCESS_KEY=$AWS_SECRET",
    "git add -p src/main.py",
    "gcc -pthread -o app main.c",
    'ssh-keygen -t ed25519 -C "me@example.com"',
    "git clone https://github.com/org/repo.git",
    "postgres://localhost:5432/app",
    'request_id = "123e4567-e89b-12d3-a456-426614174000"',
    "token_count = len(tokens)",
    'curl -H "Authorization: Bearer ${TOKEN}" https://api.example.com',
    "password: str = Field(..., min_length=8)",
    "secret_key = settings.SECRET_KEY",
    "PASSWORD_MIN_LENGTH = 12",
    "curl --password-file ~/.netrc https://x",
    "mysql -u root -p app",
    "session_token = uuid.uuid4().hex",
    'print(f"token={token}")',
    "the commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b fixed the key rotation",
    "we rotate the secret monthly and keep the password policy strict",
]


def build(seed: int = 14) -> dict[str, tuple[str, str]]:
    """Every secret kind as (text, secret), built fresh from `seed`."""
    rng = random.Random(seed)
    return {kind: make(rng) for kind, make in SECRETS.items()}
