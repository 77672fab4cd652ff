"""A small paraphrase set from coding history, for choosing and checking models.

Each item is (topic, query, document): the query is what someone would type, the
document a chunk of a past session that answers it, mostly worded differently. Items
sharing a topic answer each other's queries, so they are not counted as wrong hits.
Used by ``bench/bench_embed.py`` and the tests; small enough to read, not a benchmark
to publish.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

PAIRS: list[tuple[str, str, str]] = [
    # English query -> English session, little word overlap
    (
        "flaky",
        "the flaky login test",
        "Session: test_auth_retry fails intermittently on CI; the retry loop in the auth client times out "
        "under load, a rerun passes.",
    ),
    (
        "ratelimit",
        "rate limiter decision",
        "We decided to use a token bucket in middleware, one bucket per API key, refilled every second, "
        "counters kept in Redis.",
    ),
    (
        "index",
        "database migration for slow queries",
        "Added an index on sessions.created_at in migration 0042 so the dashboard query stops doing a sequential scan.",
    ),
    (
        "leak",
        "how did we fix the memory leak",
        "The worker kept a reference to every request object in a module-level cache; replaced it with an "
        "LRU of 1000 entries and RSS stays flat.",
    ),
    (
        "theme",
        "dark mode styling",
        "Theme toggle: added CSS variables for background and foreground colours and a prefers-color-scheme "
        "media query.",
    ),
    (
        "docker",
        "why are docker builds slow",
        "The image rebuilt every layer each time because COPY . came before pip install; reordered the "
        "Dockerfile so dependencies are cached.",
    ),
    (
        "python",
        "upgrade python version",
        "Bumped the project from Python 3.10 to 3.11, fixed the asyncio.TaskGroup imports and updated the CI matrix.",
    ),
    (
        "git",
        "git merge conflict in the router",
        "Rebased the feature branch onto main; resolved conflicts in src/server/routes.py by keeping both "
        "new endpoints.",
    ),
    (
        "tz",
        "timezone bug in scheduled jobs",
        "Cron tasks ran an hour early after the daylight saving change: the scheduler used naive datetimes; "
        "now everything is stored in UTC.",
    ),
    (
        "auth",
        "switch to oauth login",
        "Replaced password sign-in with GitHub OAuth: callback handler, state parameter check, tokens "
        "stored encrypted.",
    ),
    (
        "cors",
        "browser blocks api calls from the frontend",
        "Fetch from localhost:5173 failed with a CORS error; added the dev origin to Access-Control-Allow-"
        "Origin in the FastAPI middleware.",
    ),
    (
        "pagination",
        "api returns too many rows",
        "The /orders endpoint now pages results: limit and cursor query parameters, default 50 per page.",
    ),
    (
        "logging",
        "make the logs structured",
        "Switched print statements to structlog with JSON output so log lines can be searched in Loki.",
    ),
    (
        "perf",
        "speed up the image thumbnail code",
        "Resizing was done pixel by pixel in Python; moved it to Pillow's thumbnail() with a worker pool, "
        "ten times faster.",
    ),
    (
        "secrets",
        "api key leaked in the repo",
        "Removed the hard-coded Stripe key from config.py, rotated it, and load it from an environment "
        "variable instead.",
    ),
    (
        "deps",
        "pin dependency versions",
        "Locked every package to an exact version in requirements.txt after a minor release of httpx broke the client.",
    ),
    (
        "types",
        "mypy errors after refactor",
        "Type checker complained about Optional returns in the repository layer; added None checks and "
        "narrowed the return types.",
    ),
    (
        "cache",
        "add caching to the weather endpoint",
        "Responses from the forecast service are now memoised for ten minutes with an in-process TTL cache.",
    ),
    (
        "retry",
        "handle network failures when calling the payment provider",
        "Wrapped the charge request in exponential backoff with jitter, three attempts, idempotency key on each try.",
    ),
    (
        "search",
        "full text search for notes",
        "Built an SQLite FTS5 table over note bodies with bm25 ranking and highlight snippets.",
    ),
    # Chinese query -> English session (cross-lingual)
    (
        "deploy",
        "部署脚本",
        "The deploy script uses pnpm now; we switched from npm because the lockfile kept drifting between machines.",
    ),
    (
        "flaky",
        "登录测试不稳定",
        "test_auth_retry is flaky: it sometimes fails with a timeout when the CI runner is slow.",
    ),
    (
        "ratelimit",
        "限流方案",
        "Rate limiting: token bucket middleware, 100 requests per minute per user, returns 429 with Retry-After.",
    ),
    (
        "index",
        "数据库索引",
        "Postgres: create index concurrently on orders(customer_id) to speed up the customer history page.",
    ),
    (
        "leak",
        "内存泄漏",
        "Memory kept growing in the background worker until the container was killed; a global list held "
        "every processed job.",
    ),
    (
        "docker",
        "容器镜像太大",
        "Shrank the Docker image from 1.2 GB to 180 MB with a multi-stage build and a slim base image.",
    ),
    (
        "tz",
        "时区问题",
        "Timestamps in the report were off by eight hours: the server assumed local time; converted to UTC on write.",
    ),
    (
        "secrets",
        "密钥泄露",
        "A token was committed to the repository by mistake; it was revoked and moved to the secret store.",
    ),
    # English query -> Chinese session
    ("search", "full text search", "我们用 SQLite 的 FTS5 做了全文搜索，按 bm25 排序，并返回高亮片段。"),
    ("cache", "response caching", "天气接口的响应现在缓存十分钟，减少了对上游服务的请求。"),
    # other languages
    (
        "retry",
        "reintentos cuando falla la red",
        "Added retry with exponential backoff around HTTP calls so transient network errors do not fail the sync.",
    ),
    (
        "logging",
        "Protokollierung verbessern",
        "Logs are now structured JSON with request ids, so a single request can be followed across services.",
    ),
    (
        "deploy",
        "デプロイの手順",
        "Deployment steps: build the bundle, upload it to the server, run migrations, then restart the service.",
    ),
]


def pair_quality(
    embed: Callable[[Sequence[str]], np.ndarray], pairs: Sequence[tuple[str, str, str]] = PAIRS
) -> dict[str, Any]:
    """Retrieval quality of ``embed`` on ``pairs``: each query ranks all documents.

    matched: mean cosine query/own document; unrelated: mean cosine to documents of
    other topics; margin: mean of (own - best other-topic document); top1 and mrr of
    the own document among other-topic documents.
    """
    topics = [t for t, _, _ in pairs]
    q = embed([a for _, a, _ in pairs])
    d = embed([b for _, _, b in pairs])
    sims = q @ d.T
    n = len(pairs)
    other = np.array([[topics[i] != topics[j] for j in range(n)] for i in range(n)])
    own = np.diag(sims)
    ranks = np.array([int((sims[i][other[i]] > own[i]).sum()) + 1 for i in range(n)])
    best_other = np.array([sims[i][other[i]].max() for i in range(n)])
    return {
        "matched": round(float(own.mean()), 3),
        "unrelated": round(float(sims[other].mean()), 3),
        "margin": round(float((own - best_other).mean()), 3),
        "top1": round(float((ranks == 1).mean()), 3),
        "mrr": round(float((1.0 / ranks).mean()), 3),
        "ranks": ranks.tolist(),
    }
